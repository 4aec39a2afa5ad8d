//! The std side of qosgate: the command line and the code that drives the kernel.
//!
//! - [`cli`]: the clap types of the `qosgate` command line.
//! - [`grid`]: the built-in seed-004 grid (users, resources, registrations), with sources.
//! - [`bounds`]: `qosgate bounds`, rows of registration outcomes, rates and delay bounds.
//! - [`report`]: plain-text tables.
//!
//! [`run`] executes a parsed command line, writing to any [`Write`]; `main.rs` only parses,
//! calls it and turns an error into a message and an exit code.

use std::io::Write;

use anyhow::{Context, Result};

pub mod bounds;
pub mod cli;
pub mod grid;
pub mod report;
pub mod sequence;
pub mod solve;
pub mod swf;

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
