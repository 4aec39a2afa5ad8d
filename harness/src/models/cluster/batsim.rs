//! The replayed schedule as Batsim's `jobs.csv` ([`crate::report::batsim`]).
//!
//! One row per run of a job on its nodes ([`Placement`]), in `(submit, id)` order of the jobs
//! and in time order within a job: `job_id` is the SWF job number (`<id>#<k>` for the job's
//! `k`-th restart after a failure, whose submission is the failure's instant), `requested_time`
//! the job's estimate, a run a failure interrupted `COMPLETED_KILLED`, `workload_name` the
//! trace's file name without its extension. Times are whole seconds from the start of the trace.
//!
//! Without failures there is one row per job, and evalys's mean `waiting_time` is the replay's
//! mean wait; the rows' areas (`requested_number_of_resources × execution_time`) add up to the
//! replay's, so evalys's utilisation over `[first submit, makespan]` is the replay's
//! utilisation, failures or not.

use std::io::Write;

use anyhow::Result;

use super::replay::{Outcome, Placement};
use crate::report::batsim::{self, Run, State};

/// The runs of `outcome` ([module doc](self)).
pub fn runs(outcome: &Outcome) -> Vec<Run<'_>> {
    let mut placements: Vec<&Placement> = outcome.placements.iter().collect();
    placements.sort_by_key(|p| (p.job, p.start));
    let mut runs: Vec<Run> = placements
        .into_iter()
        .map(|p| {
            let record = &outcome.records[p.job];
            Run {
                job: record.id.to_string(),
                restart: 0,
                submitted: record.submit as f64,
                procs: u64::from(record.procs),
                requested: record.estimate as f64,
                state: if p.interrupted {
                    State::Killed
                } else {
                    State::Completed
                },
                start: p.start as f64,
                end: p.end as f64,
                nodes: &p.nodes,
            }
        })
        .collect();
    batsim::resubmit(&mut runs);
    runs
}

/// Writes `outcome` as Batsim's `jobs.csv` to `out`, for the trace named `workload`.
///
/// Errors: a failed write.
pub fn write(outcome: &Outcome, workload: &str, out: impl Write) -> Result<()> {
    batsim::write(&runs(outcome), workload, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::cluster::replay::{self, Naming, Returns};
    use crate::workload::failures::NodeEvent;
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

    /// The Batsim `jobs.csv` of `jobs` replayed under EASY on 4 nodes with `failures`.
    fn jobs_csv(jobs: &[Job], failures: &[NodeEvent]) -> String {
        let out = replay::replay_in::<8, 18>(
            jobs,
            Policy::Easy,
            4,
            failures,
            Returns::Unknown,
            Naming::Named,
            |_| {},
        )
        .unwrap();
        let mut csv = Vec::new();
        write(&out, "w0", &mut csv).unwrap();
        String::from_utf8(csv).unwrap()
    }

    #[test]
    fn a_row_per_job_with_batsim_columns() {
        let csv = jobs_csv(&[job(7, 0, 10, 2), job(8, 5, 4, 3)], &[]);
        assert_eq!(
            csv.lines().collect::<Vec<_>>(),
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
        let csv = jobs_csv(&jobs, &failures);
        assert_eq!(
            csv.lines().skip(1).collect::<Vec<_>>(),
            [
                "7,w0,delay,0,2,10,0,COMPLETED_KILLED,0,3,3,0,3,1,0-1,-1,",
                // Restarted at once on the lowest idle up nodes, for the 7 s left.
                "7#1,w0,delay,3,2,10,1,COMPLETED_SUCCESSFULLY,3,7,10,0,7,1,1-2,-1,",
            ]
        );
    }
}
