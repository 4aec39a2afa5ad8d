//! `qosgate leases`: replay a Haizea lease workload (LWF) on one cluster.

use std::io::Write;

use anyhow::{Result, ensure};
use clap::Args;
use qosgate_kernel::lease::Overheads;
use qosgate_kernel::units::Ticks;

use crate::des::time::ticks;
use crate::models::federation::scenario::PreemptionPolicy;
use crate::models::leases::replay::Params;
use crate::models::leases::summary::{self, Request};

/// Options of `qosgate leases` (the accepted subset of LWF and the replay's rules:
/// docs/leases.md).
#[derive(Debug, Clone, Args)]
pub struct LeasesArgs {
    /// The workload, in Haizea's LWF (XML).
    #[arg(long, value_name = "FILE")]
    pub lwf: std::path::PathBuf,
    /// Nodes of the cluster (default: those of the file's site).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u32>,
    /// How the leases to suspend are chosen.
    #[arg(long, value_enum, default_value_t = PreemptionPolicy::Moml)]
    pub policy: PreemptionPolicy,
    /// Seconds to suspend one VM (t_s).
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 160.0,
        allow_negative_numbers = true
    )]
    pub suspend: f64,
    /// Seconds to resume one VM (t_r).
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 126.0,
        allow_negative_numbers = true
    )]
    pub resume: f64,
    /// Stop after this instant (seconds from the workload's start); leases still live are
    /// reported unfinished. Default: when every lease has ended.
    #[arg(long, value_name = "SECS", allow_negative_numbers = true)]
    pub until: Option<f64>,
    /// Print one JSON object instead of the tables.
    #[arg(long)]
    pub json: bool,
    /// Draw the replay as a Gantt chart here (SVG): each interval a lease held nodes, a
    /// suspended one in grey, with the utilisation over time.
    #[arg(long, value_name = "FILE.svg")]
    pub gantt: Option<std::path::PathBuf>,
    /// Write the replay as Batsim's jobs.csv here (what evalys reads): a row per interval a
    /// lease held nodes, with the nodes it held.
    #[arg(long, value_name = "FILE.csv")]
    pub jobs_csv: Option<std::path::PathBuf>,
}

/// The most seconds an option takes: a year of ten thousand, well inside the kernel's clock.
const MAX_SECONDS: f64 = 1e12;

/// `secs` from option `--name` as ticks.
///
/// Errors: not a number in `[0, 1e12]`.
fn duration(name: &str, secs: f64) -> Result<Ticks> {
    ensure!(
        secs.is_finite() && (0.0..=MAX_SECONDS).contains(&secs),
        "--{name} {secs}: seconds must be in [0, {MAX_SECONDS:e}]"
    );
    Ok(ticks(secs))
}

/// Runs `qosgate leases`.
///
/// Errors: a bad option, an unreadable or bad file (named with its line and column), a replay
/// error, a failed write.
pub fn exec(args: &LeasesArgs, out: &mut dyn Write) -> Result<()> {
    ensure!(args.nodes != Some(0), "--nodes must be at least 1");
    let overheads = Overheads {
        suspend: duration("suspend", args.suspend)?,
        resume: duration("resume", args.resume)?,
        ..Overheads::default()
    };
    let until = args.until.map(|u| duration("until", u)).transpose()?;
    let req = Request {
        lwf: args.lwf.clone(),
        params: Params {
            nodes: args.nodes,
            policy: args.policy.kernel(),
            overheads,
            until,
        },
        policy_name: args.policy.name(),
        json: args.json,
        gantt: args.gantt.clone(),
        jobs_csv: args.jobs_csv.clone(),
    };
    summary::report(&req, out)
}
