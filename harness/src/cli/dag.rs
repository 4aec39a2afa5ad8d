//! `qosgate dag FILE.json`: one DAG application listed (EST, LST, critical nodes, CNPT) and
//! scheduled by CLS, CMMS, DCLS and DCMMS on clouds that run one task at a time, so that a
//! decision can be checked by hand (schema: `harness/src/gateway/dag.rs`, README).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

use super::solve::parse;
use super::write_json;
use crate::gateway::dag::{DagInput, render, schedule};

/// Options of `qosgate dag`.
#[derive(Debug, Clone, Args)]
pub struct DagArgs {
    /// The application, as JSON; `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub input: PathBuf,
    /// Print the answer as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `qosgate dag`.
///
/// Errors: an unreadable input, bad JSON (located by serde), a problem of the application (the
/// task or cloud named), a failed write.
pub fn exec(args: &DagArgs, out: &mut dyn Write) -> Result<()> {
    let input: DagInput = parse(&args.input)?;
    let answer = schedule(&input).with_context(|| format!("in {}", args.input.display()))?;
    if args.json {
        write_json(&answer, true, out)
    } else {
        out.write_all(render(&answer).as_bytes())
            .context("writing the answer")?;
        out.flush().context("writing output")
    }
}
