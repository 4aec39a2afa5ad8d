//! salehi2012 and salehi2011's federation (Salehi, Javadi & Buyya 2012; Salehi & Buyya 2011) as a
//! model: a gateway (IGG) that splits external requests over clusters and dispatches them, and
//! clusters whose lease managers (the kernel's) serve their local users with priority,
//! preempting external leases by MOML, MOV or MLIP with the VM overheads.
//!
//! - [`scenario`]: the schema of a federation scenario file (`docs/federation-scenarios.md`),
//!   its checks and its TOML writer.
//! - [`capacity`]: the kernel capacities the federation is built with.
//! - [`gateway`]: the split of the external rate (PAP with its fallback, RR, LRF, BCF) and the
//!   dispatcher (round robin, Bernoulli, RTDP).
//! - [`world`]: one replication on the event queue; every scheduling decision is the kernel's.
//! - [`record`]: one record per request, the accounts per cluster, and their check.
//! - [`metrics`]: the papers' metrics (VMs preempted, Eq. 21, AWRT, migrations, rejections),
//!   from the records.
//! - [`summary`]: what `qosgate run` prints and writes for a federation scenario.

pub mod capacity;
pub mod gateway;
pub mod metrics;
pub mod record;
pub mod scenario;
pub mod summary;
pub mod world;

use anyhow::Result;

use super::{Model, Recorded};
use metrics::Metrics;
use record::Run;
use scenario::{Dist, Scenario};

/// The federation model ([`Model`]).
#[derive(Debug, Clone, Copy)]
pub struct Federation;

impl Model for Federation {
    const NAME: &'static str = "federation";
    type Scenario = Scenario;
    type Run = Run;
    type Metrics = Metrics;

    /// Replication `k` uses seed `scenario.header.seed + k`.
    fn simulate(scenario: &Scenario, k: u32) -> Result<Run> {
        let split = gateway::split(scenario)?;
        <world::World>::new(scenario, k, split)?.run()
    }

    fn metrics(_: &Scenario, run: &Run) -> Metrics {
        Metrics::compute(run)
    }

    fn events(run: &Run) -> u64 {
        run.events
    }

    /// Arrivals always have their first draw, and sizes are drawn: never deterministic unless
    /// every distribution is fixed and every size rule gives one value.
    fn deterministic(scenario: &Scenario) -> bool {
        let fixed = |d: &Dist| d.is_fixed();
        let one_size = |s: &scenario::Das2Config| {
            s.low == s.high && (s.p_one == 1.0 || (s.p_one == 0.0 && s.low.fract() == 0.0))
        };
        scenario.external.interarrival_s.iter().all(fixed)
            && fixed(&scenario.external.duration_s)
            && one_size(&scenario.external.size)
            && scenario
                .external
                .shares
                .values()
                .iter()
                .filter(|&&v| v > 0.0)
                .count()
                == 1
            && scenario.clusters.iter().all(|c| {
                c.local.as_ref().is_none_or(|l| {
                    fixed(&l.interarrival_s) && fixed(&l.duration_s) && one_size(&l.size)
                })
            })
            && !matches!(
                scenario.gateway.policy,
                scenario::GatewayPolicy::LrfRnd
                    | scenario::GatewayPolicy::BcfRnd
                    | scenario::GatewayPolicy::PapRnd
            )
    }
}

scenario_file!(Federation, "federation");

impl Recorded for Federation {
    fn write_records(run: &Run, k: u32, out: &mut dyn std::io::Write) -> Result<()> {
        super::write_events(k, &run.records, out)
    }
}
