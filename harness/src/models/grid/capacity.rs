//! The kernel capacities the grid simulator is built with: what a scenario may ask for
//! (checked by [`super::scenario`]) and what [`super::world`] instantiates.

use qosgate_kernel::meta::MetaScheduler;
use qosgate_kernel::resource::Resource;

/// Users (flows) per resource the simulator supports.
pub const FLOWS: usize = 16;
/// Tasks queued per queue at a resource.
pub const QUEUE: usize = 8192;
/// CPUs per resource.
pub const CPUS: usize = 64;
/// Best-effort users of the meta-scheduler.
const META_USERS: usize = 64;
/// Best-effort tasks collected in one period.
const BATCH: usize = 8192;
/// Resources the meta-scheduler assigns to.
const SLOTS: usize = 64;

/// A resource's local scheduler.
pub type Res = Resource<FLOWS, QUEUE, CPUS>;
/// The best-effort meta-scheduler.
pub type Meta = MetaScheduler<META_USERS, BATCH, SLOTS>;

/// Bytes of the largest kernel structures built by value (one resource and the meta-scheduler).
pub const KERNEL_BYTES: usize = std::mem::size_of::<Res>() + std::mem::size_of::<Meta>();
