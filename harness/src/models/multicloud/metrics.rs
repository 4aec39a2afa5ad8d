//! The metrics of gandhimathi2013 Sec. IV, computed from one run's records only.
//!
//! - **Average application execution time** (Figs. 7-8, Tables 3-5): "the time elapses from
//!   the application is submitted to the application is finished", over the applications that
//!   finished (rejected ones have no execution time; their count is reported beside it).
//! - **Unfinished applications** (censored outcomes): a run ends when every application has
//!   ended, so an application that did not finish by the run's end is one that was rejected
//!   (it never finishes). Its execution time is at least the run's end minus its arrival: the
//!   metrics give how many there are, the mean of those lower bounds, and the mean execution
//!   time over every application with them at their lower bounds, beside the mean over the
//!   finished ones (so a comparison that rests on which applications finished shows it).
//! - **Energy** (Figs. 9-10): every server of every cloud from 0 to the run's end (the last
//!   task's end), `power.active` while it hosts a VM and `power.idle` otherwise; and the active
//!   server-seconds alone (E25: energy depends on the unstated powers, active server-seconds do
//!   not).
//! - How far the runs stray from the plans the placements were made with, which is what DCLS and
//!   DCMMS's feedback measures: each finished task's lateness against its planned finish, the
//!   part of it spent waiting for its predecessors (or its dataset) past its planned start, and
//!   the median and 90th percentile of the factors Eq. 7 gives at alpha 1 (from the scenario's
//!   `feedback_from`).
//! - The share of finished tasks whose VMs are not a whole number of servers of the cloud that
//!   ran them, and the leases the mapping places together on average: what leaves room for
//!   one mapping to pack better than another.
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
    /// Applications that finished (`apps_completed` in the outputs).
    #[serde(rename = "apps_completed", alias = "apps_finished")]
    pub apps_finished: u64,
    /// Applications rejected.
    pub apps_rejected: u64,
    /// Tasks (records).
    pub tasks: u64,
    /// Tasks that finished (`tasks_completed` in the outputs).
    #[serde(rename = "tasks_completed", alias = "tasks_finished")]
    pub tasks_finished: u64,
    /// Tasks rejected (with their application).
    pub tasks_rejected: u64,
    /// Tasks the application records announce (the sum of their sizes).
    pub tasks_announced: u64,
    /// Mean execution time of the finished applications, seconds.
    pub execution_s: Option<f64>,
    /// Applications that had not finished by the run's end (rejected: they never finish).
    pub apps_unfinished: u64,
    /// Mean over those of the run's end minus their arrival, seconds: the least their execution
    /// times can be. `None` without any.
    pub unfinished_lower_s: Option<f64>,
    /// Mean execution time over every application, the unfinished ones at their lower bounds
    /// (the run's end minus arrival), seconds: equal to `execution_s` when every application
    /// finished.
    pub execution_lower_s: Option<f64>,
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
    /// Mean over finished tasks of `max(0, submitted - planned start)`, seconds: how long past
    /// its planned start a task waited for its predecessors to finish (or its dataset to
    /// arrive), the part of its lateness its cloud did not cause.
    pub ready_late_s: Option<f64>,
    /// Median (nearest rank) over finished tasks of `max(-1, (finish - from - D) / D)`, `D` the
    /// planned run and `from` the instant the scenario's `feedback_from` measures `delta_tau` from
    /// (as the run recorded it, the instant the kernel's feedback was given): the feedback factor
    /// Eq. 7 gives at alpha 1.
    pub factor_median: Option<f64>,
    /// The 90th percentile of the same factors.
    pub factor_p90: Option<f64>,
    /// Share of the finished tasks whose VMs are not a multiple of the VMs per server of the
    /// cloud that ran them, percent.
    pub partial_server_pct: f64,
    /// Leases per batch the mapping placed together (started or resumed at one instant on one
    /// cloud), on average.
    pub batch_mean: Option<f64>,
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
        // Not finished by the run's end: at least the run's end minus the arrival.
        let lower = |a: &super::record::AppRecord| (run.end_s - a.arrival).max(0.0);
        let unfinished: Vec<f64> = run
            .apps
            .iter()
            .filter(|a| a.execution_s().is_none())
            .map(lower)
            .collect();
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
            .filter(|t| t.outcome == Outcome::Completed)
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
        let mut factors: Vec<f64> = finished
            .iter()
            .filter_map(|t| {
                let (start, end, finish) = (t.planned_start?, t.planned_finish?, t.finished?);
                let from = t.feedback_from?;
                let d = end - start;
                (d > 0.0).then(|| ((finish - from - d) / d).max(-1.0))
            })
            .collect();
        factors.sort_by(f64::total_cmp);
        Self {
            apps: run.apps.len() as u64,
            apps_finished: count(Outcome::Completed),
            apps_rejected: count(Outcome::Rejected),
            tasks: run.tasks.len() as u64,
            tasks_finished: tasks_with(Outcome::Completed),
            tasks_rejected: tasks_with(Outcome::Rejected),
            tasks_announced: run.apps.iter().map(|a| a.tasks as u64).sum(),
            execution_s: execution(None),
            apps_unfinished: unfinished.len() as u64,
            unfinished_lower_s: mean(unfinished),
            execution_lower_s: mean(
                run.apps
                    .iter()
                    .map(|a| a.execution_s().unwrap_or_else(|| lower(a)))
                    .collect(),
            ),
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
            ready_late_s: mean(
                finished
                    .iter()
                    .filter_map(|t| Some((t.submitted? - t.planned_start?).max(0.0)))
                    .collect(),
            ),
            factor_median: quantile(&factors, 0.5),
            factor_p90: quantile(&factors, 0.9),
            partial_server_pct: if finished.is_empty() {
                0.0
            } else {
                let partial = finished
                    .iter()
                    .filter(|t| {
                        t.cloud
                            .and_then(|c| s.clouds.get(c))
                            .is_some_and(|c| t.width % u32::from(c.vms_per_server.max(1)) != 0)
                    })
                    .count();
                100.0 * partial as f64 / finished.len() as f64
            },
            batch_mean: {
                let batches: u64 = run.clouds.iter().map(|c| c.batches).sum();
                let batched: u64 = run.clouds.iter().map(|c| c.batched).sum();
                (batches > 0).then(|| batched as f64 / batches as f64)
            },
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

/// The `q` quantile of the sorted `xs` (nearest rank, `0 <= q <= 1`); `None` if empty.
fn quantile(xs: &[f64], q: f64) -> Option<f64> {
    let last = xs.len().checked_sub(1)?;
    xs.get(((last as f64) * q).round() as usize).copied()
}
