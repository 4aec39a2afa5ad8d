//! The metrics of seed 003 Sec. IV, computed from one run's records only.
//!
//! - **Average application execution time** (Figs. 7-8, Tables 3-5): "the time elapses from
//!   the application is submitted to the application is finished", over the applications that
//!   finished (rejected ones have no execution time; their count is reported beside it).
//! - **Energy** (Figs. 9-10): every server of every cloud from 0 to the run's end (the last
//!   task's end), `power.active` while it hosts a VM and `power.idle` otherwise; and the active
//!   server-seconds alone (N15: energy depends on the unstated powers, active server-seconds do
//!   not).
//! - The counts (applications and tasks finished and rejected, preemptions) and the accounts:
//!   every application and task of the run ended exactly once ([`Metrics::accounts_add_up`]).

use serde::{Deserialize, Serialize};

use super::record::{Outcome, Run};
use super::scenario::Scenario;

/// One replication's metrics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Applications (records).
    pub apps: u64,
    /// Applications that finished.
    pub apps_finished: u64,
    /// Applications rejected.
    pub apps_rejected: u64,
    /// Tasks (records).
    pub tasks: u64,
    /// Tasks that finished.
    pub tasks_finished: u64,
    /// Tasks rejected (with their application).
    pub tasks_rejected: u64,
    /// Tasks the application records announce (the sum of their sizes).
    pub tasks_announced: u64,
    /// Mean execution time of the finished applications, seconds.
    pub execution_s: Option<f64>,
    /// The same over the best-effort applications.
    pub execution_be_s: Option<f64>,
    /// The same over the advance-reservation applications.
    pub execution_ar_s: Option<f64>,
    /// Energy of every server over the run, power units x seconds.
    pub energy: f64,
    /// Server-seconds active, every cloud.
    pub active_server_s: f64,
    /// The run's end, seconds.
    pub end_s: f64,
    /// Suspensions of best-effort leases by reservations.
    pub preemptions: u64,
    /// Mean of `finish - planned finish` over finished tasks, seconds: how late tasks end
    /// against their placement's plan.
    pub lateness_s: Option<f64>,
    /// Per cloud: the share of the finished tasks that ran there, percent.
    pub task_share_pct: Vec<f64>,
}

impl Metrics {
    /// The metrics of `run` under `s`'s powers.
    pub fn compute(s: &Scenario, run: &Run) -> Self {
        let mean =
            |xs: Vec<f64>| (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64);
        let execution = |reservation: Option<bool>| {
            mean(
                run.apps
                    .iter()
                    .filter(|a| reservation.is_none_or(|r| a.reservation == r))
                    .filter_map(|a| a.execution_s())
                    .collect(),
            )
        };
        let count = |outcome| run.apps.iter().filter(|a| a.outcome == outcome).count() as u64;
        let tasks_with = |outcome| run.tasks.iter().filter(|t| t.outcome == outcome).count() as u64;
        let active: f64 = run.clouds.iter().map(|c| c.active_server_s).sum();
        let all_server_s: f64 = run
            .clouds
            .iter()
            .map(|c| f64::from(c.servers) * run.end_s)
            .sum();
        let finished: Vec<_> = run
            .tasks
            .iter()
            .filter(|t| t.outcome == Outcome::Finished)
            .collect();
        let task_share_pct = (0..run.clouds.len())
            .map(|c| {
                let n = finished.iter().filter(|t| t.cloud == Some(c)).count();
                if finished.is_empty() {
                    0.0
                } else {
                    100.0 * n as f64 / finished.len() as f64
                }
            })
            .collect();
        Self {
            apps: run.apps.len() as u64,
            apps_finished: count(Outcome::Finished),
            apps_rejected: count(Outcome::Rejected),
            tasks: run.tasks.len() as u64,
            tasks_finished: tasks_with(Outcome::Finished),
            tasks_rejected: tasks_with(Outcome::Rejected),
            tasks_announced: run.apps.iter().map(|a| a.tasks as u64).sum(),
            execution_s: execution(None),
            execution_be_s: execution(Some(false)),
            execution_ar_s: execution(Some(true)),
            energy: s.power.active * active + s.power.idle * (all_server_s - active).max(0.0),
            active_server_s: active,
            end_s: run.end_s,
            preemptions: run.clouds.iter().map(|c| c.preemptions).sum(),
            lateness_s: mean(
                finished
                    .iter()
                    .filter_map(|t| Some(t.finished? - t.planned_finish?))
                    .collect(),
            ),
            task_share_pct,
        }
    }

    /// Every application and every task ended once, finished or rejected, and the tasks the
    /// applications announce are the tasks recorded.
    pub fn accounts_add_up(&self) -> bool {
        self.apps == self.apps_finished + self.apps_rejected
            && self.tasks == self.tasks_finished + self.tasks_rejected
            && self.tasks == self.tasks_announced
    }
}
