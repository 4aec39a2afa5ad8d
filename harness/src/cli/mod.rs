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

use std::io::Write;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use serde::Serialize;

/// QoS-aware grid scheduling: delay bounds, fair queueing and the seed papers' experiments.
#[derive(Debug, Parser)]
#[command(name = "qosgate", version, arg_required_else_help = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Registration outcomes, guaranteed rates and delay bounds of the built-in seed-004 grid.
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
    Presets,
    /// Reproduce a paper's experiments: tables against the paper's claims, CSV and SVG plots.
    Reproduce(reproduce::ReproduceArgs),
    /// List and schedule one DAG application by hand (seed 003: CNPT, CLS, CMMS, DCLS, DCMMS).
    Dag(dag::DagArgs),
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
        Command::Presets => presets(out),
        Command::Reproduce(args) => reproduce::exec(args, out),
        Command::Dag(args) => dag::exec(args, out),
    }
}

/// `qosgate presets`: one line per preset, its name then its description.
fn presets(out: &mut dyn Write) -> Result<()> {
    for s in crate::experiments::presets()? {
        writeln!(out, "{:<28} {}", s.name(), s.description()).context("writing the list")?;
    }
    out.flush().context("writing output")
}

/// Writes `value` as JSON (indented if `pretty`) and a newline.
///
/// The text is rendered first, so that a failed write is a plain `io::Error` (main.rs looks
/// for a broken pipe among the causes).
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
