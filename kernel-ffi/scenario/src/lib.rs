//! The reference scenario of `docs/firmware.md`, driven through qosgate's C API (`qosgate-ffi`)
//! exactly as the C test program `kernel-ffi/tests/c/scenario.c` drives it, checked against the
//! same expected values (a test of `qosgate-ffi` compares the C program's tables with the
//! constants here). The C API's tests and the Cortex-M firmware run it; it is a crate of its own
//! so that the C library does not ship it. `no_std`, no allocation: a firmware keeps its
//! [`Storage`] in a `static`.
//!
//! 1. **Contract**: calls on zeroed storage, with null or misaligned pointers, a short size or
//!    an unknown enumeration code fail with their codes.
//! 2. **Scheduler**: a preemptive GS_BE_PRIORITY resource of one 100 MIPS CPU (WFQ); two GS
//!    users (rho 40 MIPS each) register and a third is refused by Eq. 1; a BE task of 500 MI
//!    starts at 0 s, is paused by the GS tasks of 1 s and resumes after them
//!    ([`EXPECTED_DECISIONS`]).
//! 3. **PAP** for the three clusters of the README's example ([`PAP_CLUSTERS`]).
//! 4. **Dispatch**: ten billiard decisions and eight RTDP decisions for `P = (0.5, 0.3, 0.2)`,
//!    as the README's `qosgate sequence` examples ([`BILLIARD`], [`RTDP`]).
//! 5. **Slot table**: a reservation, an earliest fit behind it, a refused overlap, a release.
//! 6. **EASY replay** of the ten-job trace `kernel-ffi/tests/data/easy10.swf` on 8 nodes
//!    ([`EASY_JOBS`], [`EASY_STARTS`]: the start times `qosgate backfill --policy easy`
//!    prints).
//! 7. **Leaky bucket** of one GS user ([`BUCKET`]: rho 30 MIPS, sigma 400 MI, imax 200 MI,
//!    conservative with feedback): a burst at 0 s until a task does not conform, its withholding
//!    time, conformance after it, two feedback corrections (refunds limited by the refund rule)
//!    and the withdrawal of a task not served ([`BUCKET_MARKS`], [`BUCKET_WAITS`],
//!    [`BUCKET_LEVELS`], [`BUCKET_SUBMITTED`]: computed by hand in the comment of the step's
//!    module).
//!
//! Each step is a module with its inputs, its expected values and its function; the functions
//! are not inlined into each other, so that their frames (the EASY step's job lists are the
//! largest, about 4 KiB on a Cortex-M3) do not add up on a small part.
#![no_std]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

mod bucket;
mod check;
mod contract;
mod dispatch;
mod easy;
mod pap;
mod scheduler;
mod slots;

use qosgate_ffi::backfill::qg_backfill;
use qosgate_ffi::bucket::qg_bucket;
use qosgate_ffi::dispatch::{qg_billiard, qg_rtdp};
use qosgate_ffi::pap::qg_allocation;
use qosgate_ffi::scheduler::{qg_decision, qg_scheduler};
use qosgate_ffi::slots::qg_slot_table;

pub use bucket::{
    BUCKET, BUCKET_ACTUAL, BUCKET_BURST, BUCKET_LEVELS, BUCKET_MARKS, BUCKET_SUBMITTED,
    BUCKET_WAITS,
};
pub use check::Failure;
pub use dispatch::{BILLIARD, DISPATCH_P, RTDP, RTDP_SHARES, RTDP_TYPES};
pub use easy::{EASY_JOBS, EASY_NODES, EASY_STARTS};
pub use pap::{
    PAP_ACTIVE, PAP_CLUSTERS, PAP_EPSILON, PAP_LAMBDA_HAT, PAP_RATE, PAP_TOLERANCE, PAP_Z,
};
pub use scheduler::EXPECTED_DECISIONS;

/// Ticks in one second.
const S: u64 = 1_000_000;

/// The storage the scenario runs in (about 32 KiB on a 32-bit target: make it `static`).
pub struct Storage {
    /// The resource's scheduler.
    pub scheduler: qg_scheduler,
    /// The billiard dispatcher.
    pub billiard: qg_billiard,
    /// The RTDP dispatcher.
    pub rtdp: qg_rtdp,
    /// The slot table.
    pub slots: qg_slot_table,
    /// The backfilling scheduler of the replay.
    pub backfill: qg_backfill,
    /// The GS user's leaky bucket.
    pub bucket: qg_bucket,
}

impl Storage {
    /// Zeroed storage, as C's static storage is.
    pub const fn zeroed() -> Self {
        Self {
            scheduler: qg_scheduler::zeroed(),
            billiard: qg_billiard::zeroed(),
            rtdp: qg_rtdp::zeroed(),
            slots: qg_slot_table::zeroed(),
            backfill: qg_backfill::zeroed(),
            bucket: qg_bucket::zeroed(),
        }
    }
}

/// What the scenario observed; every field has been checked when [`run`] returns it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Report {
    /// The scheduler's decisions, in order.
    pub decisions: [qg_decision; EXPECTED_DECISIONS.len()],
    /// The PAP allocation.
    pub allocation: qg_allocation,
    /// The billiard decisions.
    pub billiard: [u32; BILLIARD.len()],
    /// The RTDP decisions.
    pub rtdp: [u32; RTDP_TYPES.len()],
    /// Start of each job of the replay, seconds, in [`EASY_JOBS`] order.
    pub easy_starts: [u64; EASY_JOBS.len()],
    /// The leaky bucket's withholding times, ticks ([`BUCKET_WAITS`]).
    pub bucket_waits: [u64; BUCKET_WAITS.len()],
    /// The leaky bucket's credit, instructions ([`BUCKET_LEVELS`]).
    pub bucket_levels: [i64; BUCKET_LEVELS.len()],
    /// The leaky bucket's `J(t)`, MI ([`BUCKET_SUBMITTED`]).
    pub bucket_submitted: [u64; BUCKET_SUBMITTED.len()],
}

/// Runs every step in `storage` (zeroed or left by an earlier run: each step initialises what
/// it uses) and returns what it observed, or the first failed check.
pub fn run(storage: &mut Storage) -> Result<Report, Failure> {
    contract::run(storage)?;
    let decisions = scheduler::run(&mut storage.scheduler)?;
    let allocation = pap::run()?;
    let (billiard, rtdp) = dispatch::run(&mut storage.billiard, &mut storage.rtdp)?;
    slots::run(&mut storage.slots)?;
    let easy_starts = easy::run(&mut storage.backfill)?;
    let (bucket_waits, bucket_levels, bucket_submitted) = bucket::run(&mut storage.bucket)?;
    Ok(Report {
        decisions,
        allocation,
        billiard,
        rtdp,
        easy_starts,
        bucket_waits,
        bucket_levels,
        bucket_submitted,
    })
}
