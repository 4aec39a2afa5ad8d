//! `qosgate reproduce`: a paper's experiments (or every paper's), judged against its claims.

use std::io::{IsTerminal, Write};

use anyhow::{Context, Result, bail};
use clap::Args;

use crate::experiments::{self, Options, PAPERS, Paper};

/// Options of `qosgate reproduce`.
#[derive(Debug, Clone, Args)]
pub struct ReproduceArgs {
    /// Which paper (`--list` shows them), or `all`.
    #[arg(value_name = "PAPER", required_unless_present = "list")]
    pub paper: Option<String>,
    /// List the papers, their parts and figures, and stop.
    #[arg(long, conflicts_with_all = ["only", "out", "replications"])]
    pub list: bool,
    /// Run only this part (`claim1`) or the part that shows this figure (`fig4`).
    #[arg(long, value_name = "PART|FIGURE")]
    pub only: Option<String>,
    /// Replications per point (default: the experiment's).
    #[arg(long, value_name = "N")]
    pub replications: Option<u32>,
    /// Write CSV and SVG files per figure and summary.json into this directory (with `all`,
    /// one subdirectory per paper).
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
}

/// Runs `qosgate reproduce`.
///
/// Errors: an unknown paper or part, zero replications, a simulation error (named by its
/// scenario), an unwritable output directory, or a failed write.
pub fn exec(args: &ReproduceArgs, out: &mut dyn Write) -> Result<()> {
    if args.list {
        return list(out);
    }
    let id = args.paper.as_deref().unwrap_or("all");
    let papers: Vec<&dyn Paper> = if id == "all" {
        // `all --only X` runs X in every paper that has it.
        let papers: Vec<&dyn Paper> = PAPERS
            .iter()
            .copied()
            .filter(|p| args.only.as_deref().is_none_or(|o| p.has(o)))
            .collect();
        if let (true, Some(only)) = (papers.is_empty(), &args.only) {
            bail!("--only {only}: no paper has such a part or figure (`qosgate reproduce --list`)");
        }
        papers
    } else {
        vec![experiments::paper(id)?]
    };
    let options = Options {
        replications: args.replications,
        only: args.only.clone(),
        progress: std::io::stderr().is_terminal(),
    };
    for paper in papers {
        let report = paper.reproduce(&options)?;
        out.write_all(report.text().as_bytes())
            .context("writing the report")?;
        if let Some(dir) = &args.out {
            let dir = if id == "all" {
                dir.join(paper.id())
            } else {
                dir.clone()
            };
            report.write_files(&dir)?;
            writeln!(
                out,
                "Wrote the CSV and SVG files and summary.json to {}.",
                dir.display()
            )
            .context("writing the report")?;
        }
    }
    out.flush().context("writing output")
}

/// `--list`: one line per paper, then its parts with their figures.
fn list(out: &mut dyn Write) -> Result<()> {
    for p in PAPERS {
        writeln!(out, "{:<16} {}", p.id(), p.title()).context("writing the list")?;
        for (part, figures) in p.contents() {
            writeln!(out, "  {part:<14} {}", figures.join(", ")).context("writing the list")?;
        }
    }
    out.flush().context("writing output")
}
