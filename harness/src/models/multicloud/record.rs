//! What a multi-cloud run records: one [`TaskRecord`] per task and one [`AppRecord`] per
//! application, each written once, when it ends, with its outcome and (if it did not finish)
//! the reason; and each cloud's server use ([`CloudUse`]).
//!
//! Times are seconds from the start of the run; `None` where the item never got that far.

use serde::{Deserialize, Serialize};

/// How a task or an application ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// It ran all its work (an application: every task did).
    Completed,
    /// It did not run to the end: refused by a cloud, or its application was.
    Rejected,
}

impl Outcome {
    /// Its name in the outputs (`completed`, `rejected`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Completed => "completed",
            Self::Rejected => "rejected",
        }
    }
}

/// One task, from its application's arrival to its end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskRecord {
    /// Its application.
    pub app: usize,
    /// Its number in the application.
    pub task: u8,
    /// The job it comes from.
    pub job: u64,
    /// Whether its application is an advance reservation.
    pub reservation: bool,
    /// Its application's arrival, seconds.
    pub arrival: f64,
    /// VMs (`vms` in the outputs).
    #[serde(rename = "vms")]
    pub width: u32,
    /// The cloud it was placed on, if any.
    pub cloud: Option<usize>,
    /// When it was placed there, seconds.
    pub placed: Option<f64>,
    /// Its place in the run's order of placements (from 0), if placed: under `queue =
    /// "assigned"` its cloud starts its ready best-effort tasks in this order.
    pub assigned: Option<u64>,
    /// The start its placement planned (the cloud's ERAT), seconds.
    pub planned_start: Option<f64>,
    /// The finish its placement planned, seconds (`planned_end`).
    #[serde(rename = "planned_end")]
    pub planned_finish: Option<f64>,
    /// Submitted to its cloud (predecessors done and dataset there), seconds.
    pub submitted: Option<f64>,
    /// First started, seconds (`start`).
    #[serde(rename = "start")]
    pub started: Option<f64>,
    /// Finished, seconds (`end`).
    #[serde(rename = "end")]
    pub finished: Option<f64>,
    /// The instant its feedback's `delta_tau` (Eq. 6) was measured from, under the scenario's
    /// `feedback_from`, seconds: set when it finished.
    pub feedback_from: Option<f64>,
    /// The feedback factor its completion set for its origin and cloud, `alpha (end -
    /// feedback_from - D) / D` clamped at -1 (Eq. 7; DCLS and DCMMS, `None` under FCFS).
    pub factor: Option<f64>,
    /// Times it was suspended by a reservation.
    pub preemptions: u32,
    /// How it ended.
    pub outcome: Outcome,
    /// Why it did not finish.
    pub reason: Option<String>,
}

/// One application.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AppRecord {
    /// Its number.
    pub app: usize,
    /// The cloud it was submitted to.
    pub origin: usize,
    /// Whether it is an advance reservation.
    pub reservation: bool,
    /// Its tasks.
    pub tasks: usize,
    /// Arrival, seconds.
    pub arrival: f64,
    /// Its last task's finish, seconds (`end`).
    #[serde(rename = "end")]
    pub finished: Option<f64>,
    /// How it ended.
    pub outcome: Outcome,
    /// Why it did not finish.
    pub reason: Option<String>,
}

impl AppRecord {
    /// Its execution time (arrival to the last finish), seconds, if it finished.
    pub fn execution_s(&self) -> Option<f64> {
        self.finished.map(|f| f - self.arrival)
    }
}

/// One cloud's servers over the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CloudUse {
    /// Its name.
    pub name: String,
    /// Its servers.
    pub servers: u32,
    /// Server-seconds spent active (hosting at least one VM), from 0 to the run's end.
    pub active_server_s: f64,
    /// VM-seconds of leases holding VMs (running, suspending or resuming).
    pub vm_s: f64,
    /// Suspensions of best-effort leases by reservations.
    pub preemptions: u64,
    /// Batches of leases mapped onto servers together (leases that started, or resumed, at one
    /// instant).
    pub batches: u64,
    /// Leases in those batches.
    pub batched: u64,
}

/// One replication.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Every task, in the order they ended.
    pub tasks: Vec<TaskRecord>,
    /// Every application, in the order they ended.
    pub apps: Vec<AppRecord>,
    /// Every cloud's server use.
    pub clouds: Vec<CloudUse>,
    /// The instant the last task ended (the run's end), seconds.
    pub end_s: f64,
    /// Events processed.
    pub events: u64,
}
