//! The kernel capacities the grid simulator is built with, and its own limits: what a scenario
//! may ask for (checked by [`super::scenario`]) and what [`super::world`] instantiates.

use qosgate_kernel::meta::MetaScheduler;
use qosgate_kernel::resource::Resource;

/// Users (flows) per resource the simulator supports.
pub const FLOWS: usize = 16;
/// Tasks queued per queue at a resource.
pub const QUEUE: usize = 8192;
/// CPUs per resource.
pub const CPUS: usize = 64;
/// Users of a scenario: every user is one of the meta-scheduler's best-effort users.
pub const META_USERS: usize = 64;
/// Best-effort tasks waiting at the meta-scheduler for a resource with room.
pub const BATCH: usize = 8192;
/// Resources serving best effort (the meta-scheduler's assignment slots).
pub const SLOTS: usize = 64;
/// GS tasks waiting in one user's input queue at the meta-scheduler; a task arriving at a full
/// input queue is handled as best effort.
pub const INPUT: usize = 8192;
/// Tasks a run may create, every replication together (about 10 minutes of simulation on one
/// core of the benchmark machine): a scenario expecting more is refused before it runs.
pub const MAX_TASKS: f64 = 1e9;
/// Replications of one run: the summary keeps every replication's metrics (the limit every
/// model shares).
pub const MAX_REPLICATIONS: u32 = crate::config::MAX_REPLICATIONS;

/// A resource's local scheduler.
pub type Res = Resource<FLOWS, QUEUE, CPUS>;
/// The best-effort meta-scheduler.
pub type Meta = MetaScheduler<META_USERS, BATCH, SLOTS>;
