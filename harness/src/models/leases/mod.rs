//! One cluster replaying a lease workload (Haizea's LWF): the kernel's lease manager driven
//! through the requests of a [`Workload`](crate::workload::lwf::Workload), with preemption by
//! MOML, MOV or MLIP and Haizea's suspend / resume timing.
//!
//! - [`scenario`]: the schema of a lease scenario file (`model = "leases"`), its checks and its
//!   TOML writer.
//! - [`replay`]: the driver, its per-lease records and the accounts.
//! - [`summary`]: what `qosgate leases` and `qosgate run` print.
pub mod replay;
pub mod scenario;
pub mod summary;

use anyhow::{Context, Result};

use super::{Model, Recorded};
use replay::{Accounts, Replay};
use scenario::Scenario;

/// The lease model ([`Model`]): a workload replay, the same in every replication.
#[derive(Debug, Clone, Copy)]
pub struct Leases;

impl Model for Leases {
    const NAME: &'static str = "leases";
    type Scenario = Scenario;
    type Run = Replay;
    type Metrics = Accounts;

    /// Reads the workload and replays it (`k` changes nothing: the replay draws nothing).
    fn simulate(scenario: &Scenario, _k: u32) -> Result<Replay> {
        let workload = crate::workload::lwf::read_path(&scenario.workload)?;
        replay::replay(&workload, &scenario.params())
            .with_context(|| format!("replaying {}", scenario.workload.display()))
    }

    fn metrics(_: &Scenario, run: &Replay) -> Accounts {
        run.accounts
    }

    /// An arrival and an end per lease, and every suspension.
    fn events(run: &Replay) -> u64 {
        2 * run.accounts.leases + run.accounts.preemptions
    }

    /// Always: the replay draws nothing.
    fn deterministic(_: &Scenario) -> bool {
        true
    }
}

scenario_file!(Leases, "lease replay");

impl Recorded for Leases {
    fn write_records(run: &Replay, k: u32, out: &mut dyn std::io::Write) -> Result<()> {
        super::write_events(k, &run.records, out)
    }
}
