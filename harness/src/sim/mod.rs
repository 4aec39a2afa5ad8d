//! The discrete-event simulator (issue 5): seed 004's grid around the kernel.
//!
//! - [`engine`]: the event queue (integer time, a total order of events);
//! - [`world`]: users, the meta-scheduler, resources and links of seed 004, each decision the
//!   kernel's;
//! - [`record`]: what each run records of each task (the event log).
//!
//! [`run`] simulates one replication of a [`Scenario`]; the same scenario and replication give
//! the same records, byte for byte, on any machine.

pub mod engine;
pub mod record;
pub mod world;

use anyhow::Result;

use crate::scenario::Scenario;
use record::TaskRecord;

/// One replication's result.
#[derive(Debug, Clone)]
pub struct Run {
    /// One record per task created, in task (creation) order.
    pub records: Vec<TaskRecord>,
    /// Events processed.
    pub events: u64,
    /// The GS registrations made, `(user, resource)`, in order.
    pub registrations: Vec<(String, String)>,
    /// Time of the last event, seconds.
    pub end_s: f64,
}

/// Simulates replication `k` of `scenario` (seed `scenario.seed + k`).
///
/// Errors: a scenario the kernel refuses (named: a resource, a user, a registration's (rho,
/// sigma)), or an internal inconsistency (a bug: the message says what).
pub fn run(scenario: &Scenario, k: u32) -> Result<Run> {
    // The kernel's structures are built by value (an unoptimised build keeps several copies on
    // the stack while it boxes one): the run gets a thread with room for them.
    let stack = 16 * world::KERNEL_BYTES + (16 << 20);
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("simulation".into())
            .stack_size(stack)
            .spawn_scoped(scope, || world::World::new(scenario, k)?.run())
            .map_err(|e| anyhow::anyhow!("starting the simulation thread: {e}"))?
            .join()
            .map_err(|_| anyhow::anyhow!("the simulation thread panicked"))?
    })
}
