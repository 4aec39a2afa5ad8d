//! Applications built from the clouds' job traces (gandhimathi2013 Sec. IV, Table 1, and erratum
//! E25).
//!
//! For each cloud `i`, the first `jobs` usable jobs of its trace, in submit order, are cut into
//! consecutive groups of `1 ..= dag.max_tasks` jobs (uniform); each group is one application
//! submitted to cloud `i` (its origin, where its dataset is stored), one task per job:
//!
//! | the paper's model (Table 1) | here |
//! | --- | --- |
//! | task | one job |
//! | application arrival | its first job's submit time (the cleaned LLNL logs have no start or wait times, so the paper's "min start time" is not available); gaps between consecutive applications of a trace divided by `gap_divisor` |
//! | task execution time | the job's run time (the SWF reader's: `min(run, requested)` where a request is given) on its own cloud; `perf(origin) / perf(j)` times that on cloud `j` (Table 2), rounded to the tick |
//! | VMs a task needs | processors x `width_scale` (a control workload, `widths`: uniform on `min ..= max` instead); a cloud with fewer VMs cannot run it |
//!
//! The DAG (E25): task 0 is an entry; each later task is an entry with probability
//! `entry_probability`, else has `1 ..= max_preds` distinct predecessors among the earlier
//! tasks, uniform. An application is an advance reservation with probability `ar_share`; its
//! entry tasks then ask to start at `arrival + U(0, ar_notice_max_s]` (the paper's "a random
//! start time no later than 30 min after it arrives"), and its later tasks are zero-notice
//! reservations.
//!
//! # Random streams
//! Cloud `i`'s draws come from three streams of the replication's seed: group sizes (entity
//! `3 i`), DAG shapes (`3 i + 1`), and the AR draws (`3 i + 2`: one uniform for "is it an AR"
//! and one for its notice, drawn for every application whatever the share). So variants that
//! differ only in scheduler, alpha, mapping or gap divisor see the same applications in
//! replication `k`, and raising `ar_share` only turns more of the same applications into
//! reservations (common random numbers). A control workload's widths come from a fourth stream
//! per cloud (entity `3 CLOUDS + i`, one draw per job), so it sees the same applications with
//! other widths.

use anyhow::{Result, bail};
use qosgate_kernel::dag::{Dag, MAX_TASKS, TaskId, Tasks};
use qosgate_kernel::units::Ticks;

use super::capacity::CLOUDS;
use super::scenario::Scenario;
use super::traces;
use crate::des::rng::SplitMix;
use crate::des::time::ticks;

/// One application.
#[derive(Debug, Clone, PartialEq)]
pub struct App {
    /// Its number: applications sorted by (arrival, origin, order in the trace), from 0.
    pub id: usize,
    /// The cloud it is submitted to (whose trace it comes from), where its dataset is.
    pub origin: usize,
    /// When it arrives.
    pub arrival: Ticks,
    /// An advance reservation: the instant its entry tasks ask to start.
    pub reserve_at: Option<Ticks>,
    /// Its tasks' precedence.
    pub dag: Dag,
    /// Its tasks, by task number.
    pub tasks: Vec<TaskSpec>,
}

/// One task: a job of the trace.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskSpec {
    /// The job's number in the trace.
    pub job: u64,
    /// VMs it needs.
    pub width: u32,
    /// Its run time on each cloud (the ETM), `None` where the cloud has too few VMs.
    pub run: [Option<Ticks>; CLOUDS],
}

/// The applications of every cloud's trace, sorted by (arrival, origin, order).
///
/// Errors: a trace that cannot be read, or has fewer usable jobs than the scenario asks for.
pub fn build(s: &Scenario, seed: u64) -> Result<Vec<App>> {
    let mut apps = Vec::new();
    for (origin, cloud) in s.clouds.iter().enumerate() {
        let trace = traces::load(&cloud.trace)?;
        let want = cloud.jobs as usize;
        if trace.jobs.len() < want {
            bail!(
                "clouds[{origin}].jobs: the trace of cloud {} has {} usable jobs, the scenario \
                 asks for {want}{}",
                cloud.name,
                trace.jobs.len(),
                if matches!(cloud.trace, super::scenario::TraceSource::Builtin(_)) {
                    format!(
                        " (the built-in cut-downs hold {} lines: set {} to the directory of \
                         the full traces)",
                        traces::BUILTIN_LINES,
                        traces::TRACES_ENV
                    )
                } else {
                    String::new()
                }
            );
        }
        let jobs = &trace.jobs[..want];
        let first = jobs.first().map_or(0, |j| j.submit);
        let entity = 3 * origin as u64;
        let mut sizes = SplitMix::for_entity(seed, entity);
        let mut shapes = SplitMix::for_entity(seed, entity + 1);
        let mut reservations = SplitMix::for_entity(seed, entity + 2);
        let mut widths = SplitMix::for_entity(seed, 3 * CLOUDS as u64 + origin as u64);
        let mut rest = jobs;
        while !rest.is_empty() {
            let n = (1 + below(&mut sizes, u64::from(s.dag.max_tasks)) as usize).min(rest.len());
            let (group, tail) = rest.split_at(n);
            rest = tail;
            let arrival_s = (group[0].submit - first) as f64 / s.gap_divisor;
            let arrival = ticks(arrival_s);
            let is_ar = reservations.unit() < s.ar_share;
            let notice = (1.0 - reservations.unit()) * s.ar_notice_max_s;
            let dag = shape(&mut shapes, n, s)?;
            let tasks = group
                .iter()
                .map(|job| {
                    let width = match s.widths {
                        Some(w) => {
                            let span = u64::from(w.max.saturating_sub(w.min)) + 1;
                            w.min.saturating_add(below(&mut widths, span) as u32)
                        }
                        None => job.procs.saturating_mul(cloud.width_scale),
                    };
                    let mut run = [None; CLOUDS];
                    for (slot, c) in run.iter_mut().zip(&s.clouds) {
                        let vms = u64::from(c.servers) * u64::from(c.vms_per_server);
                        if u64::from(width) <= vms {
                            let secs = job.run as f64 * cloud.performance / c.performance;
                            *slot = Some(ticks(secs).max(Ticks::new(1)));
                        }
                    }
                    TaskSpec {
                        job: job.id,
                        width,
                        run,
                    }
                })
                .collect();
            apps.push(App {
                id: 0,
                origin,
                arrival,
                reserve_at: is_ar.then(|| arrival.saturating_add(ticks(notice))),
                dag,
                tasks,
            });
        }
    }
    // Stable: equal arrivals keep (origin, order).
    apps.sort_by_key(|a| (a.arrival, a.origin));
    for (id, a) in apps.iter_mut().enumerate() {
        a.id = id;
    }
    Ok(apps)
}

/// A DAG of `n` tasks of the scenario's shape.
fn shape(rng: &mut SplitMix, n: usize, s: &Scenario) -> Result<Dag> {
    let mut dag = Dag::new();
    for v in 0..n.min(MAX_TASKS) {
        let mut preds = Tasks::EMPTY;
        if v > 0 && rng.unit() >= s.dag.entry_probability {
            let k = 1 + below(rng, u64::from(s.dag.max_preds).min(v as u64)) as usize;
            // The first k of a partial Fisher-Yates shuffle of 0 .. v.
            let mut pool: Vec<TaskId> = (0..v as u8).map(TaskId::new).collect();
            for i in 0..k {
                let j = i + below(rng, (v - i) as u64) as usize;
                pool.swap(i, j);
                preds.insert(pool[i]);
            }
        }
        dag.push(preds)?;
    }
    Ok(dag)
}

/// Uniform on `0 .. n` (`n >= 1`).
fn below(rng: &mut SplitMix, n: u64) -> u64 {
    ((rng.unit() * n as f64) as u64).min(n.saturating_sub(1))
}
