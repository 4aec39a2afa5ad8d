//! The std side of qosgate: the command line and the code that drives the kernel.
//!
//! - [`cli`]: the clap types of the `qosgate` command line.
//! - [`grid`]: the built-in seed-004 grid (users, resources, registrations), with sources.
//! - [`bounds`]: `qosgate bounds`, rows of registration outcomes, rates and delay bounds.
//! - [`report`]: plain-text tables.
//! - [`swf`], [`replay`], [`backfill`]: the Standard Workload Format reader, trace replay on one
//!   cluster with the kernel's backfilling scheduler, and `qosgate backfill`.
//! - [`synth`]: seeded synthetic traces (`qosgate synth`), for replay benchmarks.
//!
//! [`run`] executes a parsed command line, writing to any [`Write`]; `main.rs` only parses,
//! calls it and turns an error into a message and an exit code.

use std::io::Write;

use anyhow::{Context, Result};

pub mod backfill;
pub mod bounds;
pub mod cli;
pub mod grid;
pub mod metrics;
pub mod plot;
pub mod presets;
pub mod replay;
pub mod report;
pub mod reproduce;
pub mod rng;
pub mod scenario;
pub mod sequence;
pub mod sim;
pub mod simulate;
pub mod solve;
pub mod stats;
pub mod swf;
pub mod synth;

use cli::{BoundsArgs, Cli, Command, SequenceCommand, SolveCommand};

/// Runs one command line, writing its output to `out`.
///
/// Errors: the command's own (with the offending input named), or a failed write.
pub fn run(cli: &Cli, out: &mut dyn Write) -> Result<()> {
    match &cli.command {
        Command::Bounds(args) => run_bounds(args, out),
        Command::Solve(SolveCommand::Pap(args)) => solve::run_pap(args, out),
        Command::Solve(SolveCommand::Broker(args)) => solve::run_broker(args, out),
        Command::Sequence(SequenceCommand::Billiard(args)) => sequence::run_billiard(args, out),
        Command::Sequence(SequenceCommand::Rtdp(args)) => sequence::run_rtdp(args, out),
        Command::Backfill(args) => backfill::run(args, out),
        Command::Synth(args) => run_synth(args, out),
        Command::Run(args) => simulate::run(args, out),
        Command::Presets => presets::list(out),
        Command::Reproduce(args) => reproduce::run(args, out),
    }
}

fn run_bounds(args: &BoundsArgs, out: &mut dyn Write) -> Result<()> {
    let cfg = bounds::Config::from_args(args.max_users, args.pipelined_delay)?;
    let rep = bounds::compute(&grid::seed004(), &cfg)?;
    if args.json {
        // Rendered first, so that a failed write is a plain `io::Error` (main.rs looks for a
        // broken pipe among the causes).
        let mut json = serde_json::to_string_pretty(&rep).context("rendering JSON")?;
        json.push('\n');
        out.write_all(json.as_bytes()).context("writing JSON")?;
    } else {
        out.write_all(report::bounds_table(&rep).as_bytes())
            .context("writing the table")?;
    }
    out.flush().context("writing output")
}

fn run_synth(args: &cli::SynthArgs, out: &mut dyn Write) -> Result<()> {
    anyhow::ensure!(args.nodes > 0, "--nodes must be at least 1");
    anyhow::ensure!(
        args.load.is_finite() && args.load > 0.0,
        "--load {} must be a positive number",
        args.load
    );
    let p = synth::Params {
        jobs: args.jobs,
        nodes: args.nodes,
        load: args.load,
        seed: args.seed,
    };
    out.write_all(synth::to_swf(&p, &synth::generate(&p)).as_bytes())
        .context("writing the trace")?;
    out.flush().context("writing output")
}
