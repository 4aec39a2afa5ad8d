//! The metrics of seed 004 Sec. 6.3, computed from one run's [`TaskRecord`]s.
//!
//! Which tasks count: those created at or after the scenario's warm-up (`warmup_s`); earlier
//! ones were simulated (they load the grid) but are left out of every metric, the resource use
//! included. Percentages are of the tasks that count, 0 to 100.
//!
//! - **Deadline misses** (Fig. 4, 8-10): tasks that missed their non-critical deadline
//!   ([`TaskRecord::missed`]: late, or never completed), over the tasks created.
//! - **Failed tasks** (Fig. 5): tasks a GS_BE_EQUAL resource dropped ([`Outcome::Failed`]), over
//!   the tasks created. Only tasks handled as BE fail in the model, so this is the paper's
//!   "failed BE tasks". Tasks no resource would take ([`Outcome::Rejected`]) are counted apart.
//! - **Backlogged** (Sec. 6.4.2): tasks of GS users withheld at the input to keep their user
//!   (rho, sigma)-constrained, over the tasks those users created.
//! - **Handled as BE** (Fig. 11): tasks of GS users handled as best effort, over the tasks those
//!   users created.
//! - **Resource use** (Fig. 6): per resource, the total execution time of the tasks it ran,
//!   CPU-seconds. A task's execution time is `min(finished - started, workload / slowest CPU)`:
//!   `started` is the *first* start, so a preempted task's `finished - started` includes its
//!   pauses; `workload / speed` is exact for any task on a resource whose CPUs have one speed
//!   (every seed-004 resource). The minimum is exact for a task never preempted, and for any task
//!   on equal CPUs; otherwise (preempted, unequal CPUs) it is an upper bound.
//! - **Standard deviation of the resource use** (Fig. 7), seconds: population standard deviation
//!   (divisor = number of resources) of the per-resource use: the resources are the whole grid,
//!   not a sample of it.
//! - **Delay of a computation unit** (Table 8), seconds: every MI of a task has the task's delay
//!   (creation to the results' return), so the mean and the (population) standard deviation are
//!   over completed tasks, each weighted by its workload. Tasks that never completed have no
//!   delay and are left out (they show in the misses and failures).
//! - **Floor of the delay of a computation unit**, seconds: the same mean and standard deviation
//!   with every completed task's delay replaced by the least any scheduler could give it: alone
//!   on the fastest CPU of the grid, no queueing, plus its two transfers (`bytes x 8 /
//!   bandwidth` each way). No schedule of the same tasks has a smaller mean (N16: seed 004's
//!   Table 8 is below this floor at the paper's own parameters).
//! - **Deadline fairness** (Fig. 12), dimensionless: `(1/N) Σ |D - max(Y, D)| / D` over the
//!   tasks, with `D` the deadline, `Y` the delay and `N` all tasks created; only late tasks add
//!   to the sum. A task that never completed has no `Y` and adds nothing (the formula is
//!   undefined for it; it shows in the misses and failures instead).

use serde::{Deserialize, Serialize};

use super::record::{Outcome, TaskClass, TaskRecord};
use super::scenario::{Scenario, UserClass};

/// The metrics of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Per user, in scenario order.
    pub users: Vec<UserMetrics>,
    /// The tasks of GS users together.
    pub gs: Rates,
    /// The tasks of BE users together.
    pub be: Rates,
    /// All tasks.
    pub all: Rates,
    /// Per resource, in scenario order.
    pub resources: Vec<ResourceUse>,
    /// Population standard deviation of [`ResourceUse::busy_s`] across resources, seconds.
    pub resource_use_sd_s: f64,
    /// The deadline fairness metric over all tasks (dimensionless, 0 when no task is late).
    pub deadline_fairness: f64,
    /// The floor of the delay of a computation unit over the completed tasks: the mean, seconds
    /// (`None` without a completed task).
    pub mi_delay_floor_mean_s: Option<f64>,
    /// The floor's standard deviation, seconds.
    pub mi_delay_floor_sd_s: Option<f64>,
}

/// One user's metrics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UserMetrics {
    /// The user's name.
    pub user: String,
    /// Its class.
    pub class: TaskClass,
    /// Its rates.
    #[serde(flatten)]
    pub rates: Rates,
}

/// Counts and rates over a set of tasks. A rate over no task is `None`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rates {
    /// Tasks in the set.
    pub tasks: u64,
    /// Tasks that missed their non-critical deadline, % of `tasks`.
    pub missed_pct: Option<f64>,
    /// Tasks dropped by a GS_BE_EQUAL resource, % of `tasks`.
    pub failed_pct: Option<f64>,
    /// Tasks no resource would take, % of `tasks`.
    pub rejected_pct: Option<f64>,
    /// Tasks of GS users withheld at the input, % of the GS users' tasks in the set.
    pub backlogged_pct: Option<f64>,
    /// Tasks of GS users handled as best effort, % of the GS users' tasks in the set.
    pub handled_as_be_pct: Option<f64>,
    /// Mean delay of the completed tasks (creation to results), seconds.
    pub delay_mean_s: Option<f64>,
    /// Mean delay of a computation unit (1 MI), seconds.
    pub mi_delay_mean_s: Option<f64>,
    /// Standard deviation of the delay of a computation unit, seconds.
    pub mi_delay_sd_s: Option<f64>,
}

/// One resource's use.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResourceUse {
    /// The resource's name.
    pub resource: String,
    /// Tasks it executed.
    pub tasks: u64,
    /// Total execution time of those tasks, CPU-seconds.
    pub busy_s: f64,
}

impl Metrics {
    /// The metrics of `records` (one run of `scenario`).
    ///
    /// Users and resources come from the scenario, so one with no task still has a row. A record
    /// naming a user or resource the scenario lacks counts in the class and grid totals only.
    pub fn compute(scenario: &Scenario, records: &[TaskRecord]) -> Self {
        let counted: Vec<&TaskRecord> = records
            .iter()
            .filter(|r| r.created >= scenario.warmup_s)
            .collect();
        let users = scenario
            .users
            .iter()
            .map(|u| UserMetrics {
                user: u.name.clone(),
                class: match u.class {
                    UserClass::Gs => TaskClass::Gs,
                    UserClass::Be => TaskClass::Be,
                },
                rates: Rates::of(counted.iter().copied().filter(|r| r.user == u.name)),
            })
            .collect();
        let resources: Vec<ResourceUse> = scenario
            .resources
            .iter()
            .map(|res| {
                let slowest = res.cpus.iter().copied().min().unwrap_or(0);
                let mut use_ = ResourceUse {
                    resource: res.name.clone(),
                    tasks: 0,
                    busy_s: 0.0,
                };
                for r in counted
                    .iter()
                    .filter(|r| r.resource.as_deref() == Some(res.name.as_str()))
                {
                    if let (Some(s), Some(f)) = (r.started, r.finished) {
                        use_.tasks += 1;
                        let mut exec = f - s;
                        if slowest > 0 {
                            exec = exec.min(r.workload_mi as f64 / slowest as f64);
                        }
                        use_.busy_s += exec;
                    }
                }
                use_
            })
            .collect();
        let resource_use_sd_s = population_sd(resources.iter().map(|r| r.busy_s));
        let fastest = scenario
            .resources
            .iter()
            .flat_map(|r| r.cpus.iter().copied())
            .max()
            .unwrap_or(0);
        let net = &scenario.network;
        let hops = (net.input_bytes + net.output_bytes) as f64 * 8.0 / net.bandwidth_bps;
        let floor: Vec<(f64, f64)> = counted
            .iter()
            .filter(|r| r.delay().is_some() && fastest > 0)
            .map(|r| {
                let w = r.workload_mi as f64;
                (w / fastest as f64 + hops, w)
            })
            .collect();
        let floor = weighted_mean_sd(&floor);
        let late: f64 = counted
            .iter()
            .filter_map(|r| r.delay().map(|y| (y - r.deadline).max(0.0) / r.deadline))
            .sum();
        Self {
            users,
            gs: Rates::of(counted.iter().copied().filter(|r| r.class == TaskClass::Gs)),
            be: Rates::of(counted.iter().copied().filter(|r| r.class == TaskClass::Be)),
            all: Rates::of(counted.iter().copied()),
            resources,
            resource_use_sd_s,
            deadline_fairness: if counted.is_empty() {
                0.0
            } else {
                late / counted.len() as f64
            },
            mi_delay_floor_mean_s: floor.map(|f| f.0),
            mi_delay_floor_sd_s: floor.map(|f| f.1),
        }
    }

    /// The metrics of the user named `name`, if the scenario has it.
    pub fn user(&self, name: &str) -> Option<&UserMetrics> {
        self.users.iter().find(|u| u.user == name)
    }

    /// The use of the resource named `name`, if the scenario has it.
    pub fn resource(&self, name: &str) -> Option<&ResourceUse> {
        self.resources.iter().find(|r| r.resource == name)
    }
}

impl Rates {
    /// The rates of a set of tasks.
    pub fn of<'a>(records: impl Iterator<Item = &'a TaskRecord>) -> Self {
        let (mut tasks, mut missed, mut failed, mut rejected) = (0u64, 0u64, 0u64, 0u64);
        let (mut gs, mut backlogged, mut as_be) = (0u64, 0u64, 0u64);
        // Completed tasks: (delay s, workload MI).
        let mut done: Vec<(f64, f64)> = Vec::new();
        for r in records {
            tasks += 1;
            missed += u64::from(r.missed());
            failed += u64::from(r.outcome == Outcome::Failed);
            rejected += u64::from(r.outcome == Outcome::Rejected);
            if r.class == TaskClass::Gs {
                gs += 1;
                backlogged += u64::from(r.backlogged);
                as_be += u64::from(r.handled_as == TaskClass::Be);
            }
            if let Some(d) = r.delay() {
                done.push((d, r.workload_mi as f64));
            }
        }
        let pct = |k: u64, of: u64| (of > 0).then(|| 100.0 * k as f64 / of as f64);
        let per_mi = weighted_mean_sd(&done);
        Self {
            tasks,
            missed_pct: pct(missed, tasks),
            failed_pct: pct(failed, tasks),
            rejected_pct: pct(rejected, tasks),
            backlogged_pct: pct(backlogged, gs),
            handled_as_be_pct: pct(as_be, gs),
            delay_mean_s: (!done.is_empty())
                .then(|| done.iter().map(|(d, _)| d).sum::<f64>() / done.len() as f64),
            mi_delay_mean_s: per_mi.map(|m| m.0),
            mi_delay_sd_s: per_mi.map(|m| m.1),
        }
    }
}

/// The mean and population standard deviation of `(value, weight)` pairs, weighted; `None` if
/// the weights add up to zero.
fn weighted_mean_sd(pairs: &[(f64, f64)]) -> Option<(f64, f64)> {
    let total: f64 = pairs.iter().map(|(_, w)| w).sum();
    (total > 0.0).then(|| {
        let mean = pairs.iter().map(|(d, w)| d * w).sum::<f64>() / total;
        let var = pairs
            .iter()
            .map(|(d, w)| w * (d - mean).powi(2))
            .sum::<f64>()
            / total;
        (mean, var.sqrt())
    })
}

/// Population standard deviation (divisor n) of `xs`; 0 for none.
fn population_sd(xs: impl Iterator<Item = f64> + Clone) -> f64 {
    let n = xs.clone().count();
    if n == 0 {
        return 0.0;
    }
    let mean = xs.clone().sum::<f64>() / n as f64;
    (xs.map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64).sqrt()
}
