//! Test oracles of the qosgate workspace: independent models and invariant checks that the
//! property tests (`kernel/tests`, `harness/tests`) and the fuzz targets (`fuzz/`) share, so that
//! each is written once. Dev-only: no crate of the workspace depends on it outside its tests.
//!
//! Every check returns `Err` with a message naming what broke; a property test turns it into a
//! failure (`.map_err(TestCaseError::fail)?`), a fuzz target into a panic (`.unwrap()`).
//!
//! - [`dagsched`]: DAG listing, list scheduling and server mapping (gandhimathi2013): listings,
//!   the exact reference of the priorities and the feedback (rationals of any size), naive
//!   CLS / CMMS comparing objectives exactly, model clouds, the mapping baselines VM by VM.
//! - [`slots`]: the slot table as a list of applied intervals, summed at each instant.
//! - [`broker`]: E15's drop-and-re-solve, the reference for the broker's one-pass water-filling;
//!   E17's Grid'5000 cluster.
//! - [`leases`]: the lease manager's state invariants and a preemption choice's promises.
//! - [`transfer`]: optimality of a split of load for a convex cost (PAP, the broker).
//! - [`cli`]: running a command-line binary and reading its output.
//! - [`traces`]: the committed trace cut-downs, and the full traces a user points to.
//! - `swf` (feature `harness`): the invariants of a trace the SWF reader accepts.
//! - `lwf` (feature `harness`): lease workloads written from generated leases, and the
//!   invariants of a workload the LWF reader accepts and of its replay.
//! - `failures` (feature `harness`): the invariants of a failure trace the FTA reader accepts and
//!   of the node failures a replay is given.

pub mod broker;
pub mod cli;
pub mod dagsched;
#[cfg(feature = "harness")]
pub mod failures;
pub mod leases;
#[cfg(feature = "harness")]
pub mod lwf;
pub mod slots;
#[cfg(feature = "harness")]
pub mod swf;
pub mod traces;
pub mod transfer;

use qosgate_kernel::units::Ticks;

/// How many cases a property test runs: `PROPTEST_CASES` when it is set to a number (a deeper
/// or a quicker run), else the test's `default`.
pub fn proptest_cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The last instant a slot table's intervals can contain: no interval contains `Ticks::MAX`, so a
/// table reports the step before it there.
pub const LAST_INSTANT: Ticks = Ticks::new(u64::MAX - 1);

/// The outcome of a check: `Err` names the invariant that broke.
pub type Check = Result<(), String>;

/// Returns `Err(format!(..))` from the enclosing check unless `cond` holds.
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}
pub(crate) use ensure;
