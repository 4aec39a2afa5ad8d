//! The kernel capacities the multi-cloud simulator is built with: what a scenario may ask for
//! (checked by [`super::scenario`] and, for the live leases, by the run itself) and what
//! [`super::world`] instantiates.

use qosgate_kernel::lease::Manager;
use qosgate_kernel::mapping::Servers;
use qosgate_kernel::slots::SlotTable;

/// Clouds of a federation: the kernel's list scheduler and feedback are built for this many.
pub const CLOUDS: usize = 3;
/// Servers per cloud.
pub const SERVERS: usize = 2048;
/// Live leases (queued, reserved or running) per cloud.
pub const LEASES: usize = 4096;
/// Breakpoints of a cloud's lease manager (two per live lease).
pub const BREAKPOINTS: usize = 2 * LEASES;
/// Breakpoints of a cloud's planning profiles: its live leases and the tasks promised to it.
pub const PROFILE: usize = 4 * LEASES;

/// A cloud's lease manager.
pub type Leases = Manager<LEASES, BREAKPOINTS>;
/// A cloud's servers.
pub type Racks = Servers<SERVERS>;
/// A cloud's planning profile.
pub type Plan = SlotTable<PROFILE>;
