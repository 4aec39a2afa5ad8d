//! `qosgate backfill`: replay an SWF trace on one cluster.

use std::io::Write;

use anyhow::{Context, Result};
use clap::Args;
use qosgate_kernel::backfill::Policy;

use crate::models::cluster::replay::{self, QueueFull};
use crate::models::cluster::scenario::Failures;
use crate::models::cluster::scenario::{PolicyName, Scheduler};
use crate::models::cluster::summary::{self, Files, Request};

/// Options of `qosgate backfill`.
#[derive(Debug, Clone, Args)]
pub struct BackfillArgs {
    /// The scheduling policy.
    #[arg(long, value_enum, required_unless_present = "parse_only")]
    pub policy: Option<PolicyName>,
    /// The trace, in the Standard Workload Format.
    #[arg(long, value_name = "FILE")]
    pub swf: std::path::PathBuf,
    /// Nodes of the cluster (default: the header's MaxProcs, else MaxNodes). Jobs wider than
    /// this are skipped and counted.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub nodes: Option<u32>,
    /// Write one CSV row per scheduled job here: job,arrival,start,end,procs.
    #[arg(long, value_name = "FILE.csv")]
    pub out: Option<std::path::PathBuf>,
    /// Write the schedule as Batsim's jobs.csv here (what evalys reads): a row per run of a
    /// job, with the nodes it held.
    #[arg(long, value_name = "FILE.csv")]
    pub jobs_csv: Option<std::path::PathBuf>,
    /// Write the schedule as an SWF trace here: the input with wait and run times filled in.
    #[arg(long, value_name = "FILE.swf")]
    pub swf_out: Option<std::path::PathBuf>,
    /// Draw the schedule as a Gantt chart here (SVG): every run on its nodes up to 1,000
    /// runs, and the utilisation over time.
    #[arg(long, value_name = "FILE.svg")]
    pub gantt: Option<std::path::PathBuf>,
    /// Skip and count bad lines instead of failing on the first one.
    #[arg(long)]
    pub skip_invalid: bool,
    /// Selective backfilling: the expected slowdown (wait + estimate) / estimate at which a
    /// waiting job gets a reservation (default 2; only with `--policy selective`).
    #[arg(long, value_name = "X", allow_negative_numbers = true)]
    pub threshold: Option<f64>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Jobs waiting or running at once at most (1 to 1,048,576); a trace that needs more stops
    /// with an error naming the job.
    #[arg(long, value_name = "N", default_value_t = replay::QUEUE, allow_negative_numbers = true)]
    pub queue: usize,
    /// Read the trace and write `--out` without scheduling: every job starts at its arrival, as
    /// on a machine of unbounded size (the parsing and writing floor of a replay, for
    /// benchmarks).
    #[arg(
        long,
        hide = true,
        conflicts_with_all = ["policy", "jobs_csv", "swf_out", "gantt", "threshold", "json", "failures"]
    )]
    pub parse_only: bool,
    /// Replay under node failures: a Failure Trace Archive trace (tabular event format), or a
    /// synthetic process fitted to javadi2012's Table II: weibull, lognormal or hyperexponential.
    #[arg(long, value_name = "FILE|MODEL")]
    pub failures: Option<String>,
    /// Groups of nodes that fail together under a synthetic process (with `--failures`).
    #[arg(long, value_name = "N", default_value_t = 8, requires = "failures")]
    pub failure_groups: u32,
    /// Seed of the failures: the process's draws, or the trace's random starting point (with
    /// `--failures`).
    #[arg(long, value_name = "S", default_value_t = 1, requires = "failures")]
    pub failure_seed: u64,
}

/// Selective backfilling's threshold when `--threshold` is not given.
const DEFAULT_THRESHOLD: f64 = 2.0;

/// Runs `qosgate backfill`.
///
/// Errors: a bad option, an unreadable or bad trace, a replay error (named), a failed write.
pub fn exec(args: &BackfillArgs, out: &mut dyn Write) -> Result<()> {
    let Some(policy_name) = args.policy else {
        // clap asks for `--policy` unless `--parse-only` is given, which conflicts with it.
        return summary::parse_only(
            &args.swf,
            args.nodes,
            args.skip_invalid,
            args.out.as_deref(),
            out,
        );
    };
    let threshold = args.threshold.unwrap_or(DEFAULT_THRESHOLD);
    let scheduler = Scheduler {
        policy: policy_name,
        selective_threshold: threshold,
    };
    let policy = scheduler.kernel().with_context(|| {
        format!("--threshold {threshold}: the expected slowdown must be in [0, 65535]")
    })?;
    anyhow::ensure!(
        args.threshold.is_none() || matches!(policy, Policy::Selective(_)),
        "--threshold is selective backfilling's: it has no effect with --policy {}",
        policy_name.name()
    );
    anyhow::ensure!(
        (1..=replay::MAX_QUEUE).contains(&args.queue),
        "--queue {}: the queue must hold 1 to {} jobs",
        args.queue,
        replay::MAX_QUEUE
    );
    let req = Request {
        swf: args.swf.clone(),
        policy,
        policy_name: policy_name.name(),
        selective_threshold: matches!(policy, Policy::Selective(_)).then_some(threshold),
        nodes: args.nodes,
        skip_invalid: args.skip_invalid,
        queue: args.queue,
        files: Files {
            csv: args.out.clone(),
            jobs_csv: args.jobs_csv.clone(),
            swf: args.swf_out.clone(),
            gantt: args.gantt.clone(),
        },
        json: args.json,
        failures: args.failures.clone().map(|spec| Failures {
            spec,
            groups: args.failure_groups,
            seed: args.failure_seed,
        }),
    };
    summary::report(&req, out).map_err(|e| {
        if e.chain().any(|c| c.is::<QueueFull>()) {
            e.context(format!(
                "the queue is full: raise --queue (now {}, at most {})",
                args.queue,
                replay::MAX_QUEUE
            ))
        } else {
            e
        }
    })
}
