//! The metrics of kokkinos2009 Sec. 6.3, computed from one run's [`TaskRecord`]s.
//!
//! A [`Tally`] takes the records one at a time, as the simulator ends its tasks, and keeps only
//! counts and running sums: memory does not grow with the run. The simulator hands it each ended
//! task's numbers ([`Ended`], by user and resource row) rather than a record, which it makes
//! only for a caller that wants the records; both ways count the same. [`Metrics::compute`] is the
//! same over a list of records. Means are sums over counts; a weighted mean with its standard
//! deviation is kept by West's update (1979), one pass, exact up to rounding whatever the order.
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
//! - **Over their bound**: tasks handled as GS that took longer from their arrival at their
//!   resource to their finish than the bound the kernel guaranteed them
//!   ([`TaskRecord::over_bound`]), a count. Not a result of the paper but a check of the kernel:
//!   anything but 0 is a broken guarantee (`qosgate verify` recomputes the bounds on its own).
//! - **Resource use** (Fig. 6): per resource, the total execution time of the tasks it ran,
//!   CPU-seconds. A task's execution time is `min(finished - started, workload / slowest CPU)`:
//!   `started` is the *first* start, so a preempted task's `finished - started` includes its
//!   pauses; `workload / speed` is exact for any task on a resource whose CPUs have one speed
//!   (every kokkinos2009 resource). The minimum is exact for a task never preempted, and for any
//!   task on equal CPUs; otherwise (preempted, unequal CPUs) it is an upper bound.
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
//!   bandwidth` each way). No schedule of the same tasks has a smaller mean (E32: kokkinos2009's
//!   Table 8 is below this floor at the paper's own parameters).
//! - **Deadline fairness** (Fig. 12), dimensionless: `(1/N) Σ |D - max(Y, D)| / D` over the
//!   tasks, with `D` the deadline, `Y` the delay and `N` all tasks created; only late tasks add
//!   to the sum. A task that never completed has no `Y` and adds nothing (the formula is
//!   undefined for it; it shows in the misses and failures instead).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::record::{self, Outcome, TaskClass, TaskRecord};
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
    /// Tasks handled as GS that finished later after their arrival at their resource than the
    /// bound the kernel guaranteed them (a broken guarantee).
    pub over_bound: u64,
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
    /// The metrics of `records` (one run of `scenario`): [`Tally`] over them.
    ///
    /// Users and resources come from the scenario, so one with no task still has a row. A record
    /// naming a user or resource the scenario lacks counts in the class and grid totals only.
    pub fn compute(scenario: &Scenario, records: &[TaskRecord]) -> Self {
        let mut tally = Tally::new(scenario);
        for r in records {
            tally.add(r);
        }
        tally.finish()
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
        let mut tally = RatesTally::default();
        for r in records {
            tally.add(&Ended::of(r, None, None));
        }
        tally.finish()
    }
}

/// The metrics of one run, gathered one record at a time (see the module doc). Records created
/// before the warm-up are passed over.
#[derive(Debug, Clone)]
pub struct Tally {
    warmup_s: f64,
    users: Vec<(String, TaskClass, RatesTally)>,
    user_index: HashMap<String, usize>,
    gs: RatesTally,
    be: RatesTally,
    all: RatesTally,
    /// Per resource: its use so far and its slowest CPU, MIPS.
    resources: Vec<(ResourceUse, u64)>,
    resource_index: HashMap<String, usize>,
    /// The fastest CPU of the grid, MIPS, and a task's two transfers, seconds.
    fastest: u64,
    hops_s: f64,
    floor: Weighted,
    /// `sum |D - max(Y, D)| / D` over the counted tasks.
    late: f64,
}

/// What the metrics need of one ended task: the numbers of its [`TaskRecord`] (same units), its
/// user's and resource's rows ([`Tally::user_row`], [`Tally::resource_row`]) instead of their
/// names.
#[derive(Debug, Clone, Copy)]
pub struct Ended {
    /// The user's row, if the scenario has the user.
    pub user: Option<usize>,
    /// The resource's row, if the task was sent to one the scenario has.
    pub resource: Option<usize>,
    /// [`TaskRecord::class`].
    pub class: TaskClass,
    /// [`TaskRecord::handled_as`].
    pub handled_as: TaskClass,
    /// [`TaskRecord::outcome`].
    pub outcome: Outcome,
    /// [`TaskRecord::backlogged`].
    pub backlogged: bool,
    /// [`TaskRecord::over_bound`].
    pub over_bound: bool,
    /// [`TaskRecord::created`], seconds.
    pub created: f64,
    /// [`TaskRecord::started`], seconds.
    pub started: Option<f64>,
    /// [`TaskRecord::finished`], seconds.
    pub finished: Option<f64>,
    /// [`TaskRecord::returned`], seconds.
    pub returned: Option<f64>,
    /// [`TaskRecord::workload_mi`].
    pub workload_mi: u64,
    /// [`TaskRecord::deadline`], seconds.
    pub deadline: f64,
}

impl Ended {
    /// `r` with the rows of its user and resource.
    pub fn of(r: &TaskRecord, user: Option<usize>, resource: Option<usize>) -> Self {
        Self {
            user,
            resource,
            class: r.class,
            handled_as: r.handled_as,
            outcome: r.outcome,
            backlogged: r.backlogged,
            over_bound: r.over_bound(),
            created: r.created,
            started: r.started,
            finished: r.finished,
            returned: r.returned,
            workload_mi: r.workload_mi,
            deadline: r.deadline,
        }
    }

    /// [`TaskRecord::delay`].
    fn delay(&self) -> Option<f64> {
        record::delay(self.created, self.returned)
    }
}

impl Tally {
    /// An empty tally for runs of `scenario`.
    pub fn new(scenario: &Scenario) -> Self {
        let users = scenario
            .users
            .iter()
            .map(|u| {
                let class = match u.class {
                    UserClass::Gs => TaskClass::Gs,
                    UserClass::Be => TaskClass::Be,
                };
                (u.name.clone(), class, RatesTally::default())
            })
            .collect();
        let user_index = scenario
            .users
            .iter()
            .enumerate()
            .map(|(i, u)| (u.name.clone(), i))
            .collect();
        let resources = scenario
            .resources
            .iter()
            .map(|r| {
                let use_ = ResourceUse {
                    resource: r.name.clone(),
                    tasks: 0,
                    busy_s: 0.0,
                };
                (use_, r.cpus.iter().copied().min().unwrap_or(0))
            })
            .collect();
        let resource_index = scenario
            .resources
            .iter()
            .enumerate()
            .map(|(i, r)| (r.name.clone(), i))
            .collect();
        let net = &scenario.network;
        Self {
            warmup_s: scenario.warmup_s,
            users,
            user_index,
            gs: RatesTally::default(),
            be: RatesTally::default(),
            all: RatesTally::default(),
            resources,
            resource_index,
            fastest: scenario
                .resources
                .iter()
                .flat_map(|r| r.cpus.iter().copied())
                .max()
                .unwrap_or(0),
            hops_s: (net.input_bytes + net.output_bytes) as f64 * 8.0 / net.bandwidth_bps,
            floor: Weighted::default(),
            late: 0.0,
        }
    }

    /// Counts one task's record.
    pub fn add(&mut self, r: &TaskRecord) {
        let user = self.user_index.get(&r.user).copied();
        let resource = r
            .resource
            .as_ref()
            .and_then(|n| self.resource_index.get(n).copied());
        self.add_ended(&Ended::of(r, user, resource));
    }

    /// The row of the user named `name` (the one [`Tally::add`] counts its records in), if the
    /// scenario has it.
    pub fn user_row(&self, name: &str) -> Option<usize> {
        self.user_index.get(name).copied()
    }

    /// The row of the resource named `name`, if the scenario has it.
    pub fn resource_row(&self, name: &str) -> Option<usize> {
        self.resource_index.get(name).copied()
    }

    /// Counts one ended task: what [`Tally::add`] does with its record, without the names (the
    /// simulator knows the rows and need not build a record no one reads).
    pub fn add_ended(&mut self, r: &Ended) {
        if r.created < self.warmup_s {
            return;
        }
        if let Some(i) = r.user {
            self.users[i].2.add(r);
        }
        match r.class {
            TaskClass::Gs => self.gs.add(r),
            TaskClass::Be => self.be.add(r),
        }
        self.all.add(r);
        if let (Some(i), Some(s), Some(f)) = (r.resource, r.started, r.finished) {
            let (use_, slowest) = &mut self.resources[i];
            use_.tasks += 1;
            let mut exec = f - s;
            if *slowest > 0 {
                exec = exec.min(r.workload_mi as f64 / *slowest as f64);
            }
            use_.busy_s += exec;
        }
        if let Some(y) = r.delay() {
            if self.fastest > 0 {
                let w = r.workload_mi as f64;
                self.floor.add(w / self.fastest as f64 + self.hops_s, w);
            }
            self.late += (y - r.deadline).max(0.0) / r.deadline;
        }
    }

    /// The metrics of the records counted.
    pub fn finish(self) -> Metrics {
        let users = self
            .users
            .into_iter()
            .map(|(user, class, rates)| UserMetrics {
                user,
                class,
                rates: rates.finish(),
            })
            .collect();
        let resources: Vec<ResourceUse> = self.resources.into_iter().map(|(u, _)| u).collect();
        let resource_use_sd_s = population_sd(resources.iter().map(|r| r.busy_s));
        let counted = self.all.tasks;
        let floor = self.floor.mean_sd();
        Metrics {
            users,
            gs: self.gs.finish(),
            be: self.be.finish(),
            all: self.all.finish(),
            resources,
            resource_use_sd_s,
            deadline_fairness: if counted == 0 {
                0.0
            } else {
                self.late / counted as f64
            },
            mi_delay_floor_mean_s: floor.map(|f| f.0),
            mi_delay_floor_sd_s: floor.map(|f| f.1),
        }
    }
}

/// The counts and sums behind one [`Rates`].
#[derive(Debug, Clone, Default)]
struct RatesTally {
    tasks: u64,
    missed: u64,
    failed: u64,
    rejected: u64,
    gs: u64,
    backlogged: u64,
    as_be: u64,
    over_bound: u64,
    /// Completed tasks: their number and the sum of their delays, seconds.
    done: u64,
    delay_sum: f64,
    /// Completed tasks' delays weighted by their workloads.
    per_mi: Weighted,
}

impl RatesTally {
    fn add(&mut self, r: &Ended) {
        self.tasks += 1;
        self.missed += u64::from(record::missed(r.delay(), r.deadline));
        self.failed += u64::from(r.outcome == Outcome::Failed);
        self.rejected += u64::from(r.outcome == Outcome::Rejected);
        if r.class == TaskClass::Gs {
            self.gs += 1;
            self.backlogged += u64::from(r.backlogged);
            self.as_be += u64::from(r.handled_as == TaskClass::Be);
        }
        self.over_bound += u64::from(r.over_bound);
        if let Some(d) = r.delay() {
            self.done += 1;
            self.delay_sum += d;
            self.per_mi.add(d, r.workload_mi as f64);
        }
    }

    fn finish(&self) -> Rates {
        let pct = |k: u64, of: u64| (of > 0).then(|| 100.0 * k as f64 / of as f64);
        let per_mi = self.per_mi.mean_sd();
        Rates {
            tasks: self.tasks,
            missed_pct: pct(self.missed, self.tasks),
            failed_pct: pct(self.failed, self.tasks),
            rejected_pct: pct(self.rejected, self.tasks),
            backlogged_pct: pct(self.backlogged, self.gs),
            handled_as_be_pct: pct(self.as_be, self.gs),
            over_bound: self.over_bound,
            delay_mean_s: (self.done > 0).then(|| self.delay_sum / self.done as f64),
            mi_delay_mean_s: per_mi.map(|m| m.0),
            mi_delay_sd_s: per_mi.map(|m| m.1),
        }
    }
}

/// A weighted mean and population standard deviation kept in one pass (West 1979): the total
/// weight, the mean so far, and the weighted sum of squared deviations from it.
#[derive(Debug, Clone, Copy, Default)]
struct Weighted {
    total: f64,
    mean: f64,
    squares: f64,
}

impl Weighted {
    /// Adds `value` with `weight` (a weight of 0 changes nothing).
    fn add(&mut self, value: f64, weight: f64) {
        if weight <= 0.0 {
            return;
        }
        self.total += weight;
        let delta = value - self.mean;
        self.mean += delta * weight / self.total;
        self.squares += weight * delta * (value - self.mean);
    }

    /// `(mean, standard deviation)`; `None` if the weights add up to zero.
    fn mean_sd(&self) -> Option<(f64, f64)> {
        (self.total > 0.0).then(|| (self.mean, (self.squares / self.total).max(0.0).sqrt()))
    }
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

/// One replication's result: its metrics, computed as the tasks ended (the records went to the
/// caller's sink).
#[derive(Debug, Clone)]
pub struct Run {
    /// The metrics of every task's record.
    pub metrics: Metrics,
    /// Tasks created.
    pub tasks: u64,
    /// Events processed.
    pub events: u64,
    /// The GS registrations made, `(user, resource)`, in order.
    pub registrations: Vec<(String, String)>,
    /// Time of the last event, seconds.
    pub end_s: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// West's one-pass update gives the two-pass weighted mean and deviation.
    #[test]
    fn one_pass_weighted_moments_match_two_passes() {
        let pairs = [(3.0, 2.0), (10.0, 1.0), (7.5, 4.0), (1e3, 0.5), (-2.0, 3.0)];
        let mut w = Weighted::default();
        for (x, wt) in pairs {
            w.add(x, wt);
        }
        let total: f64 = pairs.iter().map(|p| p.1).sum();
        let mean = pairs.iter().map(|(x, wt)| x * wt).sum::<f64>() / total;
        let var = pairs
            .iter()
            .map(|(x, wt)| wt * (x - mean).powi(2))
            .sum::<f64>()
            / total;
        let (m, sd) = w.mean_sd().unwrap();
        assert!((m - mean).abs() <= 1e-12 * mean.abs(), "{m} vs {mean}");
        assert!(
            (sd - var.sqrt()).abs() <= 1e-12 * var.sqrt(),
            "{sd} vs {}",
            var.sqrt()
        );
        assert_eq!(Weighted::default().mean_sd(), None);
    }
}
