//! The replayed schedule as Batsim writes it: `jobs.csv`, the file evalys's
//! `JobSet.from_csv` loads and draws as a Gantt chart.
//!
//! One row per run of a job on its nodes ([`Placement`]), in `(submit, id)` order of the jobs
//! and in time order within a job, with Batsim's columns:
//!
//! | column | value |
//! | --- | --- |
//! | `job_id` | the SWF job number; a job restarted after a failure is, as Batsim names a resubmitted job, `<id>#<k>` for its `k`-th restart |
//! | `workload_name` | the trace's file name without its extension |
//! | `profile` | `delay`: Batsim's profile of a job that holds its nodes for a fixed time |
//! | `submission_time` | the job's submit time; a restart's is the instant of the failure that interrupted the run before it |
//! | `requested_number_of_resources` | the job's processors (nodes) |
//! | `requested_time` | the job's estimate |
//! | `success`, `final_state` | `1`, `COMPLETED_SUCCESSFULLY` for the run that completed the job; `0`, `COMPLETED_KILLED` for a run a failure interrupted |
//! | `starting_time`, `finish_time` | the run's start and end |
//! | `execution_time`, `waiting_time`, `turnaround_time` | `finish - starting`, `starting - submission`, `finish - submission` |
//! | `stretch` | `turnaround_time / execution_time` (Batsim's definition; not bounded) |
//! | `allocated_resources` | the run's nodes ([`crate::des::nodes`]) as interval text, `0-3 7` |
//! | `consumed_energy` | `-1`: energy is not modelled (Batsim's value when it is off) |
//! | `metadata` | empty |
//!
//! Times are whole seconds from the start of the trace. Without failures there is one row per
//! job, and evalys's mean `waiting_time` is the replay's mean wait; the rows' areas
//! (`requested_number_of_resources × execution_time`) add up to the replay's, so evalys's
//! utilisation over `[first submit, makespan]` is the replay's utilisation, failures or not.

use std::io::Write;

use anyhow::Result;

use super::replay::{Outcome, Placement, Record};
use crate::des::nodes::NodeSet;
use crate::report::columns::{self, Column};

/// One row: a run of a job.
pub struct Row<'a> {
    record: &'a Record,
    run: &'a Placement,
    /// Restarts before this run: 0 for the job's first run.
    restart: u32,
    /// When this run's job was (re)submitted, seconds.
    submitted: u64,
    workload: &'a str,
}

impl Row<'_> {
    fn job_id(&self) -> String {
        match self.restart {
            0 => self.record.id.to_string(),
            k => format!("{}#{k}", self.record.id),
        }
    }

    fn completed(&self) -> bool {
        !self.run.interrupted
    }

    fn execution(&self) -> u64 {
        self.run.end - self.run.start
    }

    fn turnaround(&self) -> u64 {
        self.run.end - self.submitted
    }

    fn nodes(&self) -> &NodeSet {
        &self.run.nodes
    }
}

/// Batsim's columns, in its order.
fn columns<'a>() -> [Column<Row<'a>>; 17] {
    [
        Column::text("job", "job_id", Row::job_id),
        Column::text("workload", "workload_name", |r| r.workload.to_owned()),
        Column::text("profile", "profile", |_| "delay".to_owned()),
        Column::count("submitted s", "submission_time", |r| r.submitted),
        Column::count("nodes", "requested_number_of_resources", |r| {
            u64::from(r.record.procs)
        }),
        Column::count("estimate s", "requested_time", |r| r.record.estimate),
        Column::count("success", "success", |r| u64::from(r.completed())),
        Column::text("state", "final_state", |r| {
            if r.completed() {
                "COMPLETED_SUCCESSFULLY"
            } else {
                "COMPLETED_KILLED"
            }
            .to_owned()
        }),
        Column::count("start s", "starting_time", |r| r.run.start),
        Column::count("run s", "execution_time", Row::execution),
        Column::count("end s", "finish_time", |r| r.run.end),
        Column::count("wait s", "waiting_time", |r| r.run.start - r.submitted),
        Column::count("turnaround s", "turnaround_time", Row::turnaround),
        Column::number(
            "stretch",
            "stretch",
            |r| (r.execution() > 0).then(|| r.turnaround() as f64 / r.execution() as f64),
            3,
        ),
        Column::text("nodes held", "allocated_resources", |r| {
            r.nodes().to_string()
        }),
        Column::number("energy J", "consumed_energy", |_| Some(-1.0), 0),
        Column::text("metadata", "metadata", |_| String::new()),
    ]
}

/// The rows of `outcome`, for the trace named `workload` ([module doc](self)).
pub fn rows<'a>(outcome: &'a Outcome, workload: &'a str) -> Vec<Row<'a>> {
    let mut runs: Vec<&Placement> = outcome.placements.iter().collect();
    runs.sort_by_key(|p| (p.job, p.start));
    let mut rows: Vec<Row> = Vec::with_capacity(runs.len());
    for run in runs {
        let record = &outcome.records[run.job];
        let (restart, submitted) = match rows.last() {
            Some(prev) if prev.run.job == run.job => (prev.restart + 1, prev.run.end),
            _ => (0, record.submit),
        };
        rows.push(Row {
            record,
            run,
            restart,
            submitted,
            workload,
        });
    }
    rows
}

/// Writes `outcome` as Batsim's `jobs.csv` to `out`, for the trace named `workload`.
///
/// Errors: a failed write.
pub fn write(outcome: &Outcome, workload: &str, out: impl Write) -> Result<()> {
    columns::write_csv(&columns(), &rows(outcome, workload), out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::cluster::replay::{self, Naming};
    use crate::workload::swf::Job;
    use qosgate_kernel::backfill::Policy;

    fn job(id: u64, submit: u64, run: u64, procs: u32) -> Job {
        Job {
            id,
            submit,
            run,
            estimate: run,
            procs,
        }
    }

    #[test]
    fn a_row_per_job_with_batsim_columns() {
        let jobs = [job(7, 0, 10, 2), job(8, 5, 4, 3)];
        let out =
            replay::replay_in::<8, 18>(&jobs, Policy::Easy, 4, &[], Naming::Named, |_| {}).unwrap();
        let mut csv = Vec::new();
        write(&out, "w0", &mut csv).unwrap();
        let csv = String::from_utf8(csv).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines,
            [
                "job_id,workload_name,profile,submission_time,requested_number_of_resources,\
                 requested_time,success,final_state,starting_time,execution_time,finish_time,\
                 waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata",
                "7,w0,delay,0,2,10,1,COMPLETED_SUCCESSFULLY,0,10,10,0,10,1,0-1,-1,",
                // Two idle nodes at 5 s for three: it starts when job 7 ends.
                "8,w0,delay,5,3,4,1,COMPLETED_SUCCESSFULLY,10,4,14,5,9,2.25,0-2,-1,",
            ]
        );
    }

    #[test]
    fn a_restart_after_a_failure_is_a_resubmitted_job() {
        use crate::workload::failures::NodeEvent;
        let jobs = [job(7, 0, 10, 2)];
        let failures = [
            NodeEvent {
                at: 3,
                node: 0,
                up: false,
            },
            NodeEvent {
                at: 6,
                node: 0,
                up: true,
            },
        ];
        let out =
            replay::replay_in::<8, 18>(&jobs, Policy::Easy, 4, &failures, Naming::Named, |_| {})
                .unwrap();
        let mut csv = Vec::new();
        write(&out, "w0", &mut csv).unwrap();
        let csv = String::from_utf8(csv).unwrap();
        let rows: Vec<&str> = csv.lines().skip(1).collect();
        assert_eq!(
            rows,
            [
                "7,w0,delay,0,2,10,0,COMPLETED_KILLED,0,3,3,0,3,1,0-1,-1,",
                // Restarted at once on the lowest idle up nodes, for the 7 s left.
                "7#1,w0,delay,3,2,10,1,COMPLETED_SUCCESSFULLY,3,7,10,0,7,1,1-2,-1,",
            ]
        );
    }
}
