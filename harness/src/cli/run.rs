//! `qosgate run`: one scenario (a file of any registered model, or a preset), simulated and
//! summarised by its model.

use std::io::Write;

use anyhow::{Context, Result};
use clap::Args;

use crate::experiments;
use crate::models::{self, RunOptions};
use crate::output;
use crate::report::progress::Show;

/// Options of `qosgate run`.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// The scenario file (TOML).
    #[arg(
        value_name = "SCENARIO.toml",
        required_unless_present = "preset",
        conflicts_with = "preset"
    )]
    pub scenario: Option<std::path::PathBuf>,
    /// A built-in scenario instead of a file (`qosgate presets` lists them).
    #[arg(long, value_name = "NAME")]
    pub preset: Option<String>,
    /// Print the scenario as TOML and stop (to copy and edit a preset).
    #[arg(long)]
    pub dump: bool,
    /// Write one JSON object per task, when it ends, to this file (JSON lines; through a
    /// temporary file renamed into place at the end).
    #[arg(long, value_name = "FILE.jsonl")]
    pub events: Option<std::path::PathBuf>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Write the summary as CSV and JSON into this directory, written anew (an existing one must
    /// be empty or an earlier output).
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
    /// Replications (default: the scenario's).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub replications: Option<u32>,
}

/// Runs `qosgate run`.
///
/// `--out DIR` and `--events FILE` are checked before the simulation ([`output::check_dir`],
/// [`output::check_file`]) and written whole: a crash leaves the old folder or file, never a
/// mixture or a half line.
///
/// Errors: an unreadable or invalid scenario, an unknown preset, a bad output path (named with
/// its option), a simulation error, a failed write; each names its cause.
pub fn exec(args: &RunArgs, out: &mut dyn Write) -> Result<()> {
    let scenario = match (&args.scenario, &args.preset) {
        (Some(path), _) => models::load(path)?,
        (None, Some(name)) => experiments::preset(name)?,
        (None, None) => anyhow::bail!("give a scenario file or --preset NAME"),
    };
    if args.dump {
        out.write_all(scenario.to_toml().as_bytes())
            .context("writing the scenario")?;
        return out.flush().context("writing output");
    }
    if let Some(dir) = &args.out {
        output::check_dir("--out", dir)?;
    }
    if let Some(path) = &args.events {
        output::check_file("--events", path)?;
    }
    let opts = RunOptions {
        replications: args.replications,
        events: args.events.clone(),
        json: args.json,
        out: args.out.clone(),
        progress: Show::stderr(),
    };
    scenario.run(&opts, out)
}
