//! What the simulator records of each task: one [`TaskRecord`] per task created, made when the
//! task ends and handed on at once (to the metrics' [`Tally`](super::metrics::Tally) and, with
//! `qosgate run --events FILE.jsonl`, to the file as one JSON object per line); a
//! [`Run`](super::metrics::Run) keeps only the metrics.
//!
//! Times are seconds from the start of the run, as JSON numbers; `null` where the task never got
//! that far (a failed BE task was never started).

use serde::{Deserialize, Serialize};

use crate::des::time::ticks;

/// Guaranteed service or best effort: how a task was created, and how it was handled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskClass {
    /// Guaranteed service.
    Gs,
    /// Best effort.
    Be,
}

/// How a task ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// It ran to the end and its results reached the user.
    Completed,
    /// No place would take it: the meta-scheduler's batch or a resource's queue was full, or
    /// no resource accepts its size (the reason says which).
    Rejected,
    /// A GS_BE_EQUAL resource dropped a BE task: admitting it would break a guarantee (Eq. 1) or
    /// every flow slot was taken (kokkinos2009 Sec. 6.3, "failed BE tasks").
    Failed,
}

/// One task, from creation to its end. Serialised in the outputs' vocabulary (docs/outputs.md):
/// the renamed keys say so on their fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskRecord {
    /// Task number, unique in the run, in creation order from 0.
    pub task: u64,
    /// The user's name.
    pub user: String,
    /// The class of the user that created it.
    pub class: TaskClass,
    /// How the meta-scheduler handled it: a GS task whose deadline no registered resource can
    /// guarantee (Eq. 7) is handled as BE.
    pub handled_as: TaskClass,
    /// The resource it was sent to, if any.
    pub resource: Option<String>,
    /// The discipline that queued it there: `wfq` or `scfq` (fair queue), `fcfs` (BE FIFO).
    pub discipline: Option<String>,
    /// Created at the user, seconds (`arrival` in the outputs).
    #[serde(rename = "arrival")]
    pub created: f64,
    /// Left the meta-scheduler towards its resource (after any withholding), seconds.
    pub released: Option<f64>,
    /// Reached the resource, seconds (`at_resource` in the outputs).
    #[serde(rename = "at_resource")]
    pub arrived: Option<f64>,
    /// First started on a CPU, seconds (`start` in the outputs).
    #[serde(rename = "start")]
    pub started: Option<f64>,
    /// Finished on its CPU, seconds (`end` in the outputs).
    #[serde(rename = "end")]
    pub finished: Option<f64>,
    /// Its results reached the user, seconds (the end of its delay).
    pub returned: Option<f64>,
    /// Workload, MI.
    pub workload_mi: u64,
    /// Non-critical deadline, seconds after creation (`deadline_s`: a duration, not an
    /// instant).
    #[serde(rename = "deadline_s")]
    pub deadline: f64,
    /// For a task handled as GS: the end-to-end delay the meta-scheduler planned with when it
    /// chose the resource, seconds after creation (the bucket's withholding, the transfers and
    /// the bound at the resource; Eq. 6-7). A guarantee only where `resource_bound` is set: for
    /// a user without one (full aggressive, or oversized tasks admitted), the estimate a
    /// conforming task would have. `None` for a task handled as BE.
    #[serde(rename = "planned_bound_s")]
    pub planned_bound: Option<f64>,
    /// For a task handled as GS of a user with a guarantee: the bound the kernel guarantees at
    /// its resource, seconds from its arrival there to its finish (Eq. 5, 9, 10, Table 1; the
    /// kernel's `BoundSpec::at_resource`). `None` otherwise.
    #[serde(rename = "resource_bound_s")]
    pub resource_bound: Option<f64>,
    /// For a task handled as GS: how long it waited at the head of its user's input queue for a
    /// free queue entry of its registration or for workload feedback (`Window(n)`), seconds,
    /// apart from the bucket's withholding; `None` for a task handled as BE.
    #[serde(rename = "hold_s")]
    pub hold: Option<f64>,
    /// Whether the meta-scheduler withheld it to keep its user (rho, sigma)-constrained.
    pub backlogged: bool,
    /// How it ended.
    pub outcome: Outcome,
    /// Why it was rejected or failed, else `None`: which queue was full (the meta-scheduler's
    /// batch, a resource's queue), a GS_BE_EQUAL resource without a free flow slot, or the
    /// kernel's error.
    pub reason: Option<String>,
}

impl TaskRecord {
    /// Delay from creation to the results' return, seconds (`None` unless completed).
    pub fn delay(&self) -> Option<f64> {
        delay(self.created, self.returned)
    }

    /// The instant it ended, seconds: its results' return, or, for a task that failed or was
    /// rejected, the last step it reached (arrival, release, creation).
    pub fn ended(&self) -> f64 {
        self.returned
            .or(self.finished)
            .or(self.arrived)
            .or(self.released)
            .unwrap_or(self.created)
    }

    /// Whether it missed its non-critical deadline: it did not complete, or its delay exceeds
    /// the deadline.
    pub fn missed(&self) -> bool {
        missed(self.delay(), self.deadline)
    }

    /// Its time at the resource, from arrival to finish, seconds (`None` unless it finished).
    pub fn at_resource(&self) -> Option<f64> {
        Some(self.finished? - self.arrived?)
    }

    /// Whether it finished later after its arrival than its `resource_bound`, compared in whole
    /// ticks (the records' seconds come from ticks).
    pub fn over_bound(&self) -> bool {
        over_bound(self.arrived, self.finished, self.resource_bound)
    }
}

/// Whether a task that arrived at `arrived` and finished at `finished` (seconds) took longer
/// than `bound` (seconds), compared in whole ticks; false without a bound or a finish.
fn over_bound(arrived: Option<f64>, finished: Option<f64>, bound: Option<f64>) -> bool {
    match (arrived, finished, bound) {
        (Some(a), Some(f), Some(b)) => ticks(f).saturating_sub(ticks(a)) > ticks(b),
        _ => false,
    }
}

/// The delay of a task created at `created` whose results returned at `returned` (seconds).
pub(super) fn delay(created: f64, returned: Option<f64>) -> Option<f64> {
    returned.map(|r| r - created)
}

/// Whether a task with `delay` (`None`: it never completed) missed `deadline` (seconds).
pub(super) fn missed(delay: Option<f64>, deadline: f64) -> bool {
    delay.is_none_or(|d| d > deadline)
}
