//! kokkinos2009's grid (Kokkinos & Varvarigos 2009) as a model: users with (rho, sigma)
//! contracts, a central meta-scheduler, resources of the four types of Sec. 3.4, and links.
//!
//! - [`bounds`]: `qosgate bounds`, the registrations, rates and delay bounds of a scenario's GS
//!   users under every resource kind, discipline and CPU layout, read from the kernel.
//! - [`scenario`]: the schema of a grid scenario file (`docs/scenarios.md`), its checks and
//!   its TOML writer.
//! - [`capacity`]: the kernel capacities the simulator is built with.
//! - [`world`]: one replication on the event queue; every scheduling decision is the kernel's.
//! - [`reuse`]: the kernel structures a replication leaves for the next one on its thread.
//! - [`record`]: what a run records of each task.
//! - [`metrics`]: the metrics of Sec. 6.3, tallied from the records as tasks end.
//! - [`summary`]: what `qosgate run` prints and writes for a grid scenario.
//! - [`verify`]: `qosgate verify`, the GS tasks' records against delay bounds recomputed
//!   independently of the kernel's bound code.
//! - [`random`]: seeded adversarial scenarios for `qosgate verify --random`.

pub mod bounds;
pub mod capacity;
pub mod metrics;
pub mod random;
pub mod record;
pub mod reuse;
pub mod scenario;
pub mod summary;
pub mod verify;
pub mod world;

use anyhow::Result;

use super::Model;
use metrics::Metrics;
use metrics::Run;
use scenario::Scenario;

/// The grid model ([`Model`]).
#[derive(Debug, Clone, Copy)]
pub struct Grid;

impl Model for Grid {
    const NAME: &'static str = "grid";
    type Scenario = Scenario;
    type Run = Run;
    type Metrics = Metrics;

    /// Replication `k` uses seed `scenario.header.seed + k`.
    fn simulate(scenario: &Scenario, k: u32) -> Result<Run> {
        simulate_into(scenario, k, None)
    }

    /// The metrics the run tallied as its tasks ended.
    fn metrics(_: &Scenario, run: &Run) -> Metrics {
        run.metrics.clone()
    }

    fn events(run: &Run) -> u64 {
        run.events
    }

    fn deterministic(scenario: &Scenario) -> bool {
        scenario.users.iter().all(|u| {
            u.workload.is_fixed()
                && u.interarrival.is_fixed()
                && u.phase_s.as_ref().is_none_or(|p| p.is_fixed())
        })
    }
}

scenario_file!(Grid, "grid");

/// [`Grid::simulate`], handing every task's record to `sink`, if any, as the task ends (in the
/// order the simulation ends them; without a sink no record is made).
///
/// Errors: those of [`Grid::simulate`], and the sink's.
pub fn simulate_into(scenario: &Scenario, k: u32, sink: Option<world::Sink<'_>>) -> Result<Run> {
    let mut spares = reuse::take();
    let run =
        world::World::new(scenario, k, sink, &mut spares).and_then(|world| world.run(&mut spares));
    reuse::keep(spares);
    run
}
