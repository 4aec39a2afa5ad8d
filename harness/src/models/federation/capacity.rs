//! The kernel capacities the federation is built with: what a scenario may ask for (checked by
//! [`super::scenario`]) and what [`super::world`] instantiates.

use qosgate_kernel::lease::Manager;

/// Clusters a federation may have (the gateway's solvers and dispatchers are built for this
/// many).
pub const CLUSTERS: usize = 8;
/// Request types RTDP keeps a sequence for: Cancelable, Suspendable, Migratable,
/// Non-preemptable.
pub const TYPES: usize = 4;
/// Live leases (queued, reserved, running, suspended) a cluster holds; a request that finds
/// its cluster full is rejected there (`C64 is full`). A finite queue at each cluster: under
/// conservative backfilling a pass over the plans costs their number times the breakpoints,
/// so a saturated cluster (salehi2012's printed operating point) with an unbounded queue would
/// take minutes a run; at the calibrated operating point no cluster fills it.
pub const LEASES: usize = 256;
/// Breakpoints of a cluster's slot tables (the kernel's minimum for [`LEASES`]).
pub const BREAKPOINTS: usize = 2 * LEASES;
/// The most nodes a cluster may have (so that every running lease's kind fits the kernel's
/// preemption, which holds 64 kinds: `sqrt(6 N) <= 64`).
pub const MAX_NODES: u32 = 682;

/// A cluster's lease manager.
pub type Cluster = Manager<LEASES, BREAKPOINTS>;
