//! gandhimathi2013's federation of IaaS clouds (Gandhimathi et al. 2013, a reprint of Li et al.,
//! JPDC 2012) as a model: DAG applications built from job traces arrive at their clouds, each
//! cloud's manager places their tasks over the federation (FCFS, DCLS or DCMMS), runs them as
//! leases (advance reservations preempting best effort) and maps them onto servers.
//!
//! - [`scenario`]: the schema of a multi-cloud scenario file (`docs/multicloud-scenarios.md`).
//! - [`capacity`]: the kernel capacities the simulator is built with.
//! - [`traces`]: the job traces (compiled cut-downs, or the full traces under
//!   `QOSGATE_TRACES`).
//! - [`apps`]: applications from the traces: groups of jobs, DAG shapes, reservations.
//! - [`profile`]: a cloud's planning profile, which answers ERAT.
//! - [`world`]: one replication; every placement, lease and mapping decision is the kernel's.
//! - [`record`]: what a run records of each task, application and cloud.
//! - [`metrics`]: execution times and energy, computed from the records.
//! - [`summary`]: what `qosgate run` prints and writes for a multi-cloud scenario.
//!
//! # Where the paper is silent (each a scenario field; errata E22, E25)
//! FCFS (E25's definition), the DAG shape, SI/b = 1 s, the dataset transfer (1 TB at 1 Gb/s
//! = 8,000 s), powers 1 and 0.3, the preemption policy (MLIP: fewest leases suspended), the
//! trace windows, the uBGL stand-in ([`traces`]); and these readings of the model:
//! - a task's ERAT comes from its cloud's planning profile: its leases, its queue, the tasks
//!   promised to it ([`profile`]); the dataset transfer to a cloud the application has not
//!   used starts when the first task is placed there;
//! - a reservation's entry tasks are reserved at their planned start (no earlier than the
//!   instant they ask for); its later tasks are zero-notice reservations;
//! - suspending a lease stores its image (`image_s`) and resuming reloads it (`image_s`);
//! - the feedback factor of a cloud is replaced at every completion there of a task of the
//!   same origin, with the task's planned ERAT and run (the planned `D` includes `image_s`).

pub mod apps;
pub mod capacity;
pub mod dataset;
pub mod metrics;
pub mod profile;
pub mod record;
pub mod scenario;
pub mod summary;
pub mod traces;
pub mod world;

use anyhow::Result;

use super::{Model, Recorded};
use metrics::Metrics;
use record::Run;
use scenario::Scenario;

/// The multi-cloud model ([`Model`]); never [deterministic](Model::deterministic): group
/// sizes and DAG shapes are always drawn.
#[derive(Debug, Clone, Copy)]
pub struct Multicloud;

impl Model for Multicloud {
    const NAME: &'static str = "multicloud";
    type Scenario = Scenario;
    type Run = Run;
    type Metrics = Metrics;

    /// Replication `k` uses seed `scenario.header.seed + k`.
    fn simulate(scenario: &Scenario, k: u32) -> Result<Run> {
        world::World::new(scenario, k)?.run()
    }

    fn metrics(scenario: &Scenario, run: &Run) -> Metrics {
        Metrics::compute(scenario, run)
    }

    fn events(run: &Run) -> u64 {
        run.events
    }
}

scenario_file!(Multicloud, "multi-cloud model");

impl Recorded for Multicloud {
    fn write_records(run: &Run, k: u32, out: &mut dyn std::io::Write) -> Result<()> {
        super::write_events(k, &run.tasks, out)
    }
}
