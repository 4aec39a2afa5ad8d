//! The kernel capacities the federation is built with: what a scenario may ask for (checked by
//! [`super::scenario`]) and what [`super::world`] instantiates.

use qosgate_kernel::lease::Manager;

/// Clusters a federation may have (the gateway's solvers and dispatchers are built for this
/// many).
pub const CLUSTERS: usize = 8;
/// Request types RTDP keeps a sequence for: Cancelable, Suspendable, Migratable,
/// Non-preemptable.
pub const TYPES: usize = 4;
/// Live leases (queued, reserved, running, suspended) a cluster's manager holds. A finite
/// table: under conservative backfilling a pass over the plans costs their number times the
/// breakpoints, so a saturated cluster (salehi2012's printed operating point) with an
/// unbounded queue would take minutes a run.
///
/// Local requests come first for it (salehi2012 Sec. 2: local users have priority): waiting
/// best-effort leases are held to [`BEST_EFFORT_QUEUE`] (the rest wait at the gateway), and a
/// local request that finds the table full withdraws the latest best-effort lease that never
/// ran back to the gateway's queue ([`super::world`]). A request is refused for space only
/// when the table holds no such lease: local requests alone, running leases, suspended ones
/// and migrated reservations fill it.
pub const LEASES: usize = 256;
/// The default of `rules.best_effort_queue`: best-effort leases a cluster's manager holds
/// waiting (queued or suspended). A quarter of [`LEASES`]: with the running leases (at most
/// one per node, and the DAS-2 sizes average several nodes) the rest of the table stays free
/// for local requests, and a conservative-backfilling pass stays short.
pub const BEST_EFFORT_QUEUE: u32 = 64;
/// The largest `rules.best_effort_queue`: half of [`LEASES`].
pub const BEST_EFFORT_QUEUE_MAX: u32 = LEASES as u32 / 2;
/// Breakpoints of a cluster's slot tables (the kernel's minimum for [`LEASES`]).
pub const BREAKPOINTS: usize = 2 * LEASES;
/// The most nodes a cluster may have (so that every running lease's kind fits the kernel's
/// preemption, which holds 64 kinds: `sqrt(6 N) <= 64`).
pub const MAX_NODES: u32 = 682;

/// A cluster's lease manager.
pub type Cluster = Manager<LEASES, BREAKPOINTS>;
