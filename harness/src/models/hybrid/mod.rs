//! javadi2012's hybrid cloud (Javadi, Thulasiraman and Buyya 2012) as a model: a failure-prone
//! local cluster and a reliable public cloud, each running the same backfilling scheduler, and a
//! broker in front that sends every request to one of them.
//!
//! - [`scenario`]: the schema of a hybrid scenario file (`docs/hybrid-scenarios.md`), its
//!   checks, its TOML writer, and the broker's routing (Eq. 5 or a given cloud share).
//! - [`world`]: one replication: the requests, the broker's decisions (the kernel's Bernoulli
//!   and billiard dispatchers), and each provider's trace replay (the kernel's backfilling, with
//!   the local cluster's failures and checkpointing).
//! - [`record`]: one record per request, with its outcome.
//! - [`metrics`]: AWRT (Eq. 14), bounded slowdown (Eq. 15 as printed) and the cloud's cost
//!   (Eq. 19), from the records.
//! - [`summary`]: what `qosgate run` prints and writes for a hybrid scenario.
//!
//! Each provider holds at most the trace replay's capacity
//! ([`crate::models::cluster::replay::QUEUE`], 65,536 requests waiting or running at once); a
//! replication that needs more stops with an error naming the request. A provider is first
//! replayed with a scheduler of 8,192 requests (1.1 MB instead of 9 MB), and again with the full
//! one only if that refuses.

pub mod metrics;
pub mod record;
pub mod scenario;
pub mod summary;
pub mod world;

use anyhow::Result;

use super::{Model, Recorded};
use metrics::Metrics;
use record::Run;
use scenario::Scenario;

/// The hybrid-cloud model ([`Model`]); never [deterministic](Model::deterministic): request
/// sizes are always drawn.
#[derive(Debug, Clone, Copy)]
pub struct Hybrid;

impl Model for Hybrid {
    const NAME: &'static str = "hybrid";
    type Scenario = Scenario;
    type Run = Run;
    type Metrics = Metrics;

    /// Replication `k` uses seed `scenario.header.seed + k` ([`world::simulate`]).
    fn simulate(scenario: &Scenario, k: u32) -> Result<Run> {
        world::simulate(scenario, k)
    }

    fn metrics(scenario: &Scenario, run: &Run) -> Metrics {
        Metrics::compute(scenario, run)
    }

    fn events(run: &Run) -> u64 {
        run.events
    }
}

scenario_file!(Hybrid, "hybrid cloud");

impl Recorded for Hybrid {
    fn write_records(run: &Run, k: u32, out: &mut dyn std::io::Write) -> Result<()> {
        super::write_events(k, &run.records, out)
    }
}
