//! `qosgate solve pap|broker`: a problem as JSON in, the kernel's answer as JSON out.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use serde::de::DeserializeOwned;

use super::write_json;
use crate::gateway::solve::{BrokerInput, PapInput, parse_input, solve_broker, solve_pap};
use crate::input;

/// `qosgate solve ...`
#[derive(Debug, Subcommand)]
pub enum SolveCommand {
    /// PAP allocation of external requests to clusters (salehi2012, Algorithm 1, errata E1-E3).
    Pap(SolveArgs),
    /// Routing probabilities of the cost/failure-aware broker (javadi2012 Eq. 5, errata E14, E15).
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
/// Errors: an unreadable input, bytes that are not UTF-8 or bad JSON (located,
/// `FILE:line:column`), the kernel's refusal (the cluster or provider named), a failed write.
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

/// The problem in `path`, or on standard input for `-` ([`parse_input`]), at most
/// [`input::JSON`] bytes.
pub(super) fn parse<T: DeserializeOwned>(path: &Path) -> Result<T> {
    if path.as_os_str() == "-" {
        let bytes = input::read_capped(std::io::stdin().lock(), "standard input", &input::JSON)?;
        parse_input(&bytes, "standard input")
    } else {
        let bytes = input::read_file(path, &input::JSON)?;
        parse_input(&bytes, &path.display().to_string())
    }
}
