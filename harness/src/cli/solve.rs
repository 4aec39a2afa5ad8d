//! `qosgate solve pap|broker`: a problem as JSON in, the kernel's answer as JSON out.

use std::io::{Read, Write};
use std::path::Path;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use serde::Deserialize;

use super::write_json;
use crate::gateway::solve::{BrokerInput, PapInput, solve_broker, solve_pap};

/// `qosgate solve ...`
#[derive(Debug, Subcommand)]
pub enum SolveCommand {
    /// PAP allocation of external requests to clusters (seed 000, Algorithm 1, SPEC-NOTES N1-N3).
    Pap(SolveArgs),
    /// Routing probabilities of the cost/failure-aware broker (seed 002 Eq. 5, SPEC-NOTES N4).
    Broker(SolveArgs),
}

/// Options of `qosgate solve pap|broker`.
#[derive(Debug, Clone, Args)]
pub struct SolveArgs {
    /// The problem, as JSON (schema in README.md); `-` reads standard input.
    #[arg(long, value_name = "FILE")]
    pub input: std::path::PathBuf,
}

/// Runs `qosgate solve pap|broker`.
///
/// Errors: an unreadable input, bad JSON (located by serde), the kernel's refusal (the cluster
/// or provider named), a failed write.
pub fn exec(cmd: &SolveCommand, out: &mut dyn Write) -> Result<()> {
    match cmd {
        SolveCommand::Pap(args) => {
            let input: PapInput = parse(&args.input)?;
            let sol = solve_pap(&input)
                .with_context(|| format!("solving PAP for {}", args.input.display()))?;
            write_json(&sol, false, out)
        }
        SolveCommand::Broker(args) => {
            let input: BrokerInput = parse(&args.input)?;
            let sol = solve_broker(&input)
                .with_context(|| format!("solving the broker for {}", args.input.display()))?;
            write_json(&sol, false, out)
        }
    }
}

/// The text of `path`, or of standard input for `-`.
fn read_input(path: &Path) -> Result<String> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("reading standard input")?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
    }
}

/// The JSON of `path` (`-`: standard input) as a `T`.
///
/// Errors: an unreadable input, or JSON serde refuses (located).
pub(super) fn parse<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T> {
    let text = read_input(path)?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}
