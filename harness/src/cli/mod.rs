//! The `qosgate` command line: the only module that knows clap. Each subcommand is a file with
//! its `Args` and an `exec` that calls library code with plain values.
//!
//! Adding a subcommand means a file here, a variant of [`Command`] and a match arm in [`run()`].

pub mod backfill;
pub mod bounds;
pub mod dag;
pub mod leases;
pub mod reproduce;
pub mod run;
pub mod sequence;
pub mod solve;
pub mod synth;
pub mod verify;

use std::io::Write;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use serde::Serialize;

/// QoS-aware grid scheduling: delay bounds, fair queueing and the seed papers' experiments.
#[derive(Debug, Parser)]
#[command(
    name = "qosgate",
    bin_name = "qosgate",
    version,
    arg_required_else_help = true
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Registration outcomes, guaranteed rates and delay bounds of a grid scenario's GS users
    /// (default: the kokkinos2009 grid).
    Bounds(bounds::BoundsArgs),
    /// Gateway solvers: PAP workload allocation and cost/failure-aware brokering.
    #[command(subcommand)]
    Solve(solve::SolveCommand),
    /// Dispatch sequences: billiard and RTDP.
    #[command(subcommand)]
    Sequence(sequence::SequenceCommand),
    /// Replay an SWF trace on one cluster under FCFS or EASY, conservative or selective
    /// backfilling (rules in README.md, "Trace replay").
    Backfill(backfill::BackfillArgs),
    /// Replay a Haizea lease workload (LWF) on one cluster with preemption (docs/leases.md).
    Leases(leases::LeasesArgs),
    /// Write a seeded synthetic trace (SWF) to standard output: the replay benchmarks' workload.
    Synth(synth::SynthArgs),
    /// Simulate one scenario (a TOML file or a built-in preset) and print its metrics.
    Run(run::RunArgs),
    /// List the built-in scenarios of every paper.
    Presets(PresetsArgs),
    /// Reproduce a paper's experiments: tables against the paper's claims, CSV and SVG plots.
    Reproduce(reproduce::ReproduceArgs),
    /// List and schedule one DAG application by hand (gandhimathi2013: CNPT, CLS, CMMS, DCLS,
    /// DCMMS).
    Dag(dag::DagArgs),
    /// Check every GS task of grid runs against its delay bound, recomputed independently.
    ///
    /// Simulates a grid scenario (a file, `--preset NAME`, `--preset all` for every grid
    /// preset, or `--random N [--seed S]` generated adversarial scenarios) and checks each task
    /// record against a bound recomputed from the scenario alone, in exact integer arithmetic,
    /// without the kernel's bound, rate or registry code.
    ///
    /// Who has a guarantee: a GS user registered at a resource whose knowledge is not
    /// `aggressive` and whose `oversize` is not `admit`. Which delay: from the task's arrival
    /// at the resource to its finish there (`arrived` to `finished`; the meta-scheduler's
    /// withholding and the transfers are not part of it). The bound (kernel/src/bound.rs, on the
    /// current basis): with `g = floor(C' w / W)` (`W` the GS users' weights at the resource;
    /// at `gs_be_equal` plus a temporary BE user of the smallest GS weight in every free flow
    /// slot, up to the total weight Eq. 1 allows), the sum of `sigma / g`, `n I_i / g` (window
    /// n), `I_i / min(g, C_min)`, `(blocking + residual) / C_min` and, on 2 or more CPUs,
    /// `M I_r / C'`, each rounded up to a whole µs tick on its own. Blocking: WFQ `I_r`; SCFQ the
    /// other GS users' largest tasks (`I_r` for those admitting larger ones) plus `I_r` per
    /// temporary BE user that can be present at `gs_be_equal`; residual: `I_r` at a
    /// non-preemptive `gs_be_priority` resource.
    ///
    /// Checked: every finished GS task of a user with a guarantee is within its bound; every
    /// recorded `resource_bound` equals the recomputed one (none for users without a
    /// guarantee). Prints one line per scenario (GS tasks checked, violations, bound
    /// mismatches, the worst delay/bound ratio) and exits with status 1 naming the first
    /// violation (a failing generated scenario is printed as TOML, to replay from a file).
    /// `--events FILE.jsonl` checks the records a `qosgate run SCENARIO.toml --events
    /// FILE.jsonl` wrote instead of simulating.
    Verify(verify::VerifyArgs),
}

/// Runs one command line, writing its output to `out`.
///
/// Errors: the command's own (with the offending input named), or a failed write.
pub fn run(cli: &Cli, out: &mut dyn Write) -> Result<()> {
    match &cli.command {
        Command::Bounds(args) => bounds::exec(args, out),
        Command::Solve(cmd) => solve::exec(cmd, out),
        Command::Sequence(cmd) => sequence::exec(cmd, out),
        Command::Backfill(args) => backfill::exec(args, out),
        Command::Leases(args) => leases::exec(args, out),
        Command::Synth(args) => synth::exec(args, out),
        Command::Run(args) => run::exec(args, out),
        Command::Presets(args) => presets(args, out),
        Command::Reproduce(args) => reproduce::exec(args, out),
        Command::Dag(args) => dag::exec(args, out),
        Command::Verify(args) => verify::exec(args, out),
    }
}

/// Options of `qosgate presets`.
#[derive(Debug, Clone, Args)]
pub struct PresetsArgs {
    /// Print a JSON array of `{name, model, description}` instead of the list.
    #[arg(long)]
    pub json: bool,
}

/// One preset as `qosgate presets --json` prints it.
#[derive(Serialize)]
struct Preset<'a> {
    name: &'a str,
    model: &'static str,
    description: &'a str,
}

/// `qosgate presets`: one line per preset, its name then its description (or, with `--json`,
/// a JSON array with each one's model too).
fn presets(args: &PresetsArgs, out: &mut dyn Write) -> Result<()> {
    let all = crate::experiments::presets()?;
    if args.json {
        let list: Vec<Preset> = all
            .iter()
            .map(|s| Preset {
                name: s.name(),
                model: s.model(),
                description: s.description(),
            })
            .collect();
        return write_json(&list, true, out);
    }
    for s in all {
        writeln!(out, "{:<28} {}", s.name(), s.description()).context("writing the list")?;
    }
    out.flush().context("writing output")
}

/// Writes `value` as JSON (indented if `pretty`) and a newline.
///
/// The text is rendered first, so that a failed write is a plain `io::Error` (the binary
/// looks for a broken pipe among the causes).
fn write_json<T: Serialize>(value: &T, pretty: bool, out: &mut dyn Write) -> Result<()> {
    let mut json = if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    }
    .context("rendering JSON")?;
    json.push('\n');
    out.write_all(json.as_bytes()).context("writing JSON")?;
    out.flush().context("writing output")
}
