//! Synthetic rigid-job traces for replay benchmarks and tests: a seeded, documented model, so
//! that "the generated trace of 100,000 jobs on 1,024 nodes" is the same everywhere.
//!
//! # Model
//! For `n` jobs on a cluster of `nodes` nodes, at offered load `load`:
//! - **Width**: `2^u` with `u` uniform on `[0, log2 nodes]`; half the jobs are rounded up to a
//!   power of two, the others to the nearest integer (at least 1, at most `nodes`). Parallel
//!   workloads favour powers of two and small jobs (Lublin and Feitelson 2003); this keeps both.
//! - **Run time**: log-uniform on `[10 s, 36 h]`, whole seconds.
//! - **Estimate**: the run time times a factor uniform on `[1, 5]`, rounded up: users
//!   overestimate, which is what gives backfilling its holes.
//! - **Arrivals**: a Poisson process whose rate makes the offered load (total node-seconds over
//!   `nodes` × the arrival span) equal to `load`: inter-arrival times are exponential with mean
//!   `Σ width × run / (load × nodes × n)`, in whole seconds.
//!
//! The generator is [`SplitMix`] seeded with `seed`: the same arguments give the same trace on
//! every machine. A trace must be one the SWF reader takes back: submit times at most
//! [`MAX_TIME`] (a load so low that the arrivals spread beyond it is an error), and at most
//! [`MAX_JOBS`] jobs (they are held in memory).

use anyhow::{Result, bail, ensure};

use super::swf::{Job, MAX_TIME};
use crate::des::rng::SplitMix;

/// The parameters of a synthetic trace.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Jobs.
    pub jobs: u64,
    /// Nodes of the cluster (the widest job).
    pub nodes: u32,
    /// Offered load, `(0, ∞)`: node-seconds asked for over node-seconds available.
    pub load: f64,
    /// Seed of the generator.
    pub seed: u64,
}

/// Shortest run time, seconds.
const RUN_MIN: f64 = 10.0;
/// Longest run time, seconds.
const RUN_MAX: f64 = 36.0 * 3600.0;
/// Largest overestimation factor.
const OVERESTIMATE_MAX: f64 = 5.0;
/// The most jobs a trace may have (about 4 GB of jobs in memory).
pub const MAX_JOBS: u64 = 100_000_000;

/// The trace of `p`, in `(submit, id)` order, ids from 1.
///
/// Errors: zero nodes, a `load` that is not positive and finite, more than [`MAX_JOBS`] jobs, or
/// arrivals spread beyond [`MAX_TIME`] (a load too low for the trace to fit the kernel's clock).
pub fn generate(p: &Params) -> Result<Vec<Job>> {
    ensure!(p.nodes > 0, "a cluster of 0 nodes");
    ensure!(
        p.load.is_finite() && p.load > 0.0,
        "the offered load {:?} is not a positive number",
        p.load
    );
    ensure!(
        p.jobs <= MAX_JOBS,
        "{} jobs: a trace has at most {MAX_JOBS}",
        p.jobs
    );
    let mut rng = SplitMix(p.seed);
    let top = f64::from(p.nodes).log2();
    let mut jobs: Vec<Job> = (1..=p.jobs)
        .map(|id| {
            let x = (rng.unit() * top).exp2();
            let width = if rng.unit() < 0.5 {
                x.ceil().log2().ceil().exp2()
            } else {
                x.round()
            };
            let run = (RUN_MIN * (RUN_MAX / RUN_MIN).powf(rng.unit())).round();
            let factor = 1.0 + rng.unit() * (OVERESTIMATE_MAX - 1.0);
            Job {
                id,
                submit: 0,
                run: run as u64,
                estimate: (run * factor).ceil() as u64,
                procs: (width as u32).clamp(1, p.nodes),
            }
        })
        .collect();
    let area: f64 = jobs.iter().map(|j| f64::from(j.procs) * j.run as f64).sum();
    let mean_gap = area / (p.load * f64::from(p.nodes) * p.jobs.max(1) as f64);
    let mut t = 0.0_f64;
    for j in &mut jobs {
        if !t.is_finite() || t > MAX_TIME as f64 {
            bail!(
                "at an offered load of {:?} the arrivals spread beyond {MAX_TIME} s (half the \
                 kernel's microsecond clock, the latest submit time a trace may hold): job {} \
                 would arrive at {t:e} s",
                p.load,
                j.id
            );
        }
        j.submit = t as u64;
        t += -mean_gap * (1.0 - rng.unit()).ln();
    }
    Ok(jobs)
}

/// The trace as Standard Workload Format text: a header with `MaxProcs`, then one line per job
/// (fields 1-5, 8, 9 and 11 filled; wait time unknown).
pub fn to_swf(p: &Params, jobs: &[Job]) -> String {
    let mut out = format!(
        "; Version: 2.2\n; Computer: qosgate synthetic (seed {}, load {}, {} jobs)\n\
         ; MaxNodes: {}\n; MaxProcs: {}\n",
        p.seed, p.load, p.jobs, p.nodes, p.nodes
    );
    for j in jobs {
        out.push_str(&format!(
            "{} {} -1 {} {} -1 -1 {} {} -1 1 -1 -1 -1 -1 -1 -1 -1\n",
            j.id, j.submit, j.run, j.procs, j.procs, j.estimate
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offered_load_is_the_one_asked_for() {
        let p = Params {
            jobs: 20_000,
            nodes: 1024,
            load: 0.8,
            seed: 7,
        };
        let jobs = generate(&p).unwrap();
        assert_eq!(jobs.len(), 20_000);
        let area: f64 = jobs.iter().map(|j| f64::from(j.procs) * j.run as f64).sum();
        let span = jobs.last().unwrap().submit as f64;
        let load = area / (1024.0 * span);
        assert!((load - 0.8).abs() < 0.03, "offered load {load}");
        assert!(
            jobs.iter()
                .all(|j| j.run >= 10 && j.estimate >= j.run && (1..=1024).contains(&j.procs))
        );
        assert!(jobs.windows(2).all(|w| w[0].submit <= w[1].submit));
        assert_eq!(generate(&p).unwrap(), jobs, "same seed, same trace");
    }

    /// A load so low that the arrivals leave the kernel's clock is an error, not
    /// submit times of 2^64 - 1.
    #[test]
    fn a_load_too_low_for_the_clock_is_refused() {
        let p = Params {
            jobs: 10,
            nodes: 8,
            load: 1e-300,
            seed: 1,
        };
        let e = generate(&p).unwrap_err().to_string();
        assert!(e.contains("beyond 9223372036854 s"), "{e}");
        for bad in [
            Params { nodes: 0, ..p },
            Params {
                load: f64::NAN,
                ..p
            },
            Params {
                jobs: MAX_JOBS + 1,
                load: 1.0,
                ..p
            },
        ] {
            assert!(generate(&bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_swf_text_reads_back_as_the_same_jobs() {
        let p = Params {
            jobs: 500,
            nodes: 64,
            load: 0.9,
            seed: 1,
        };
        let jobs = generate(&p).unwrap();
        let back = super::super::swf::parse_str(&to_swf(&p, &jobs), &Default::default()).unwrap();
        assert_eq!(back.machine_procs, 64);
        assert_eq!(back.jobs, jobs);
    }
}
