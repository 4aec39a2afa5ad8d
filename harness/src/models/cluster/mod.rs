//! One cluster replaying a job trace: the kernel's backfilling scheduler driven through an SWF
//! trace or a generated job list, with optional node failures.
//!
//! - [`scenario`]: the schema of a cluster scenario file (`model = "cluster"`), its checks and
//!   its TOML writer.
//! - [`replay`]: the replay driver and its per-job records and summary metrics.
//! - [`batsim`]: the schedule as Batsim's `jobs.csv`.
//! - [`summary`]: what `qosgate backfill` and `qosgate run` print and write.
pub mod batsim;
pub mod replay;
pub mod scenario;
pub mod summary;

use anyhow::Result;

use super::{Model, Recorded};
use replay::Summary;
use scenario::Scenario;

/// The cluster model ([`Model`]): a trace replay, one per replication.
#[derive(Debug, Clone, Copy)]
pub struct Cluster;

/// One replication of a cluster scenario: the replay and its failures.
#[derive(Debug, Clone)]
pub struct Run {
    /// The jobs' records and the replay's summary.
    pub outcome: replay::Outcome,
    /// Node failures and repairs replayed.
    pub node_events: u64,
}

impl Model for Cluster {
    const NAME: &'static str = "cluster";
    type Scenario = Scenario;
    type Run = Run;
    type Metrics = Summary;

    /// Reads the trace and replays it; replication `k`'s failures use seed `scenario.header.seed + k`.
    fn simulate(scenario: &Scenario, k: u32) -> Result<Run> {
        let failures = scenario.failures(k);
        let prepared = summary::Prepared::read(
            &scenario.trace,
            scenario.nodes,
            scenario.skip_invalid,
            failures.as_ref(),
        )?;
        let outcome = prepared.replay(
            &scenario.trace,
            scenario.scheduler.kernel()?,
            scenario.queue,
            // Named, for `run --out`'s Batsim jobs.csv.
            replay::Naming::Named,
        )?;
        Ok(Run {
            outcome,
            node_events: prepared.events.len() as u64,
        })
    }

    fn metrics(_: &Scenario, run: &Run) -> Summary {
        run.outcome.summary
    }

    /// A submission and a completion per job, and every node failure or repair.
    fn events(run: &Run) -> u64 {
        2 * run.outcome.summary.jobs + run.node_events
    }

    /// Without failures: the replay draws nothing.
    fn deterministic(scenario: &Scenario) -> bool {
        scenario.failures.is_none()
    }
}

scenario_file!(Cluster, "cluster");

/// A job's event line: its record and how it ended (every job of a replay completes).
#[derive(serde::Serialize)]
struct JobEvent<'a> {
    #[serde(flatten)]
    record: &'a replay::Record,
    outcome: &'static str,
}

impl Recorded for Cluster {
    fn write_records(run: &Run, k: u32, out: &mut dyn std::io::Write) -> Result<()> {
        let events = run.outcome.records.iter().map(|record| JobEvent {
            record,
            outcome: "completed",
        });
        super::write_events(k, events, out)
    }
}
