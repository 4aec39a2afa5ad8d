//! A schedule as Batsim writes it: `jobs.csv`, the file evalys's `JobSet.from_csv` loads and
//! draws as a Gantt chart. The trace replay ([`crate::models::cluster::batsim`]) and the lease
//! replay (`qosgate leases --jobs-csv`) write their schedules through it.
//!
//! One row per [`Run`] of a job on its nodes, with Batsim's columns:
//!
//! | column | value |
//! | --- | --- |
//! | `job_id` | the job's name; its `k`-th run after the first is, as Batsim names a resubmitted job, `<name>#<k>` |
//! | `workload_name` | the workload's name (a trace's file name without its extension) |
//! | `profile` | `delay`: Batsim's profile of a job that holds its nodes for a fixed time |
//! | `submission_time` | when the run's job was (re)submitted: a first run's job's submission; a later run's, the end of the run before it |
//! | `requested_number_of_resources` | the job's nodes |
//! | `requested_time` | the job's estimate (a lease's requested duration) |
//! | `success`, `final_state` | `1`, `COMPLETED_SUCCESSFULLY` for the run that completed its job; else `0` and how the run ended ([`State`]) |
//! | `starting_time`, `finish_time` | the run's start and end |
//! | `execution_time`, `waiting_time`, `turnaround_time` | `finish - starting`, `starting - submission`, `finish - submission` |
//! | `stretch` | `turnaround_time / execution_time` (Batsim's definition; not bounded; empty for a run of no time) |
//! | `allocated_resources` | the run's nodes ([`crate::des::nodes`]) as interval text, `0-3 7` |
//! | `consumed_energy` | `-1`: energy is not modelled (Batsim's value when it is off) |
//! | `metadata` | empty |
//!
//! Times are seconds, written with every digit they have (whole seconds print as integers).
//! Only runs are rows: a job that never ran (a lease rejected or still waiting) has none, as in
//! Batsim, which schedules nothing it does not start; the replay's own records list every job.

use std::io::Write;

use anyhow::Result;

use super::columns::{self, Column};
use crate::des::nodes::NodeSet;

/// How a run ended, as Batsim's `final_state` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// It completed its job: `COMPLETED_SUCCESSFULLY`, `success` 1.
    Completed,
    /// Something outside the job stopped it (a node failure, a suspension): `COMPLETED_KILLED`.
    Killed,
    /// It still held its nodes when the replay ended: `RUNNING` (`finish_time` is the replay's
    /// last instant).
    Running,
}

impl State {
    /// Batsim's name of the state.
    pub fn name(self) -> &'static str {
        match self {
            State::Completed => "COMPLETED_SUCCESSFULLY",
            State::Killed => "COMPLETED_KILLED",
            State::Running => "RUNNING",
        }
    }
}

/// One run of a job on named nodes: a row.
#[derive(Debug, Clone, PartialEq)]
pub struct Run<'a> {
    /// The job's name (an SWF job number, a lease's label).
    pub job: String,
    /// Runs of the same job before this one: 0 for its first.
    pub restart: u32,
    /// When this run's job was (re)submitted, seconds.
    pub submitted: f64,
    /// Nodes the job asked for.
    pub procs: u64,
    /// The job's estimate, seconds.
    pub requested: f64,
    /// How the run ended.
    pub state: State,
    /// The run's start, seconds.
    pub start: f64,
    /// The run's end, seconds.
    pub end: f64,
    /// The nodes it held.
    pub nodes: &'a NodeSet,
}

/// Numbers the runs of each job and dates their resubmissions, as Batsim does: `runs` hold each
/// job's runs one after another in start order, every one with `restart` 0 and `submitted` the
/// job's own submission; afterwards a job's `k`-th run after its first has `restart` `k` and was
/// submitted when the run before it ended.
pub fn resubmit(runs: &mut [Run]) {
    for i in 1..runs.len() {
        let (before, from) = runs.split_at_mut(i);
        let (prev, run) = (&before[i - 1], &mut from[0]);
        if prev.job == run.job {
            run.restart = prev.restart + 1;
            run.submitted = prev.end;
        }
    }
}

/// A row: a run of the workload named `workload`.
struct Row<'a> {
    run: &'a Run<'a>,
    workload: &'a str,
}

impl Row<'_> {
    fn job_id(&self) -> String {
        match self.run.restart {
            0 => self.run.job.clone(),
            k => format!("{}#{k}", self.run.job),
        }
    }

    fn execution(&self) -> f64 {
        self.run.end - self.run.start
    }

    fn turnaround(&self) -> f64 {
        self.run.end - self.run.submitted
    }
}

/// Batsim's columns, in its order.
fn columns<'a>() -> [Column<Row<'a>>; 17] {
    [
        Column::text("job", "job_id", Row::job_id),
        Column::text("workload", "workload_name", |r| r.workload.to_owned()),
        Column::text("profile", "profile", |_| "delay".to_owned()),
        Column::number(
            "submitted s",
            "submission_time",
            |r| Some(r.run.submitted),
            0,
        ),
        Column::count("nodes", "requested_number_of_resources", |r| r.run.procs),
        Column::number("estimate s", "requested_time", |r| Some(r.run.requested), 0),
        Column::count("success", "success", |r| {
            u64::from(r.run.state == State::Completed)
        }),
        Column::text("state", "final_state", |r| r.run.state.name().to_owned()),
        Column::number("start s", "starting_time", |r| Some(r.run.start), 0),
        Column::number("run s", "execution_time", |r| Some(r.execution()), 0),
        Column::number("end s", "finish_time", |r| Some(r.run.end), 0),
        Column::number(
            "wait s",
            "waiting_time",
            |r| Some(r.run.start - r.run.submitted),
            0,
        ),
        Column::number(
            "turnaround s",
            "turnaround_time",
            |r| Some(r.turnaround()),
            0,
        ),
        Column::number(
            "stretch",
            "stretch",
            |r| (r.execution() > 0.0).then(|| r.turnaround() / r.execution()),
            3,
        ),
        Column::text("nodes held", "allocated_resources", |r| {
            r.run.nodes.to_string()
        }),
        Column::number("energy J", "consumed_energy", |_| Some(-1.0), 0),
        Column::text("metadata", "metadata", |_| String::new()),
    ]
}

/// Writes `runs`, in their order, as Batsim's `jobs.csv` of the workload named `workload` to
/// `out`.
///
/// Errors: a failed write.
pub fn write(runs: &[Run], workload: &str, out: impl Write) -> Result<()> {
    let rows: Vec<Row> = runs.iter().map(|run| Row { run, workload }).collect();
    columns::write_csv(&columns(), &rows, out)
}
