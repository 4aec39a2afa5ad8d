//! `qosgate reproduce`: a paper's experiments (or every paper's), judged against its claims;
//! whole, or as shards whose run files are judged together later.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use serde::Serialize;

use crate::experiments::runfile;
use crate::experiments::shard::Shard;
use crate::experiments::{self, Options, PAPERS, Paper};
use crate::output::{self, Staged};
use crate::report::progress::Show;
use crate::report::{Citation, html};

/// Options of `qosgate reproduce`.
#[derive(Debug, Clone, Args)]
pub struct ReproduceArgs {
    /// Which paper (`--list` shows them), or `all`.
    #[arg(value_name = "PAPER", required_unless_present = "list")]
    pub paper: Option<String>,
    /// List the papers, their parts and figures, and stop.
    #[arg(long, conflicts_with_all = ["only", "out", "replications", "shard", "runs", "from"])]
    pub list: bool,
    /// With `--list`: a JSON array of `{id, citation, title, parts: [{id, figures}]}`.
    #[arg(long, requires = "list")]
    pub json: bool,
    /// Run only this part (`claim1`) or the part that shows this figure (`fig4`); several,
    /// separated by commas (`claim1,claim2-literal`), run together (their variants shared).
    #[arg(long, value_name = "PART|FIGURE[,...]")]
    pub only: Option<String>,
    /// Replications per point (default: by precision, up to the paper's cap).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub replications: Option<u32>,
    /// Base seed: every scenario's seed moved to it by one mixing function (common random
    /// numbers kept), to check that outcomes do not rest on one seed (default: the papers' own
    /// seeds).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Write CSV and SVG files per figure, summary.json, index.html (the page) and timing.txt
    /// into this directory (with `all`, one subdirectory per paper and an index.html of every
    /// paper's outcomes), written anew: it replaces an existing DIR (which must be empty or an
    /// earlier output) at the end.
    #[arg(long, value_name = "DIR", conflicts_with = "shard")]
    pub out: Option<PathBuf>,
    /// Simulate only the K-th (0-based) of N disjoint slices of the runs and write them to
    /// `--runs DIR` instead of judging them (`--from` judges the shards together).
    #[arg(long, value_name = "K/N", requires = "runs")]
    pub shard: Option<Shard>,
    /// Write every run simulated as one JSON line into this directory (`PAPER.jsonl`, or
    /// `PAPER-KofN.jsonl` with `--shard`).
    #[arg(long, value_name = "DIR", conflicts_with = "from")]
    pub runs: Option<PathBuf>,
    /// Judge from the runs in these run directories (their `*.jsonl` files) or files instead
    /// of simulating: every run of the reproduction, once, with the same --only and
    /// --replications.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with = "shard")]
    pub from: Vec<PathBuf>,
}

/// Runs `qosgate reproduce`.
///
/// `--out DIR` and `--runs DIR` are checked before any simulation ([`output::check_dir`],
/// [`output::check_store`]). `--out DIR` is written anew and whole ([`Staged`]): a crash leaves
/// the old DIR (and a temporary sibling holding the papers finished so far), never a mixture.
/// `--runs DIR` keeps the run files of other shards; each run file is written whole.
///
/// Errors: an unknown paper or part, zero replications, a bad output path (named with its
/// option), a simulation error (named by its scenario), run files that are not every run once
/// (each problem named by file and line), an unwritable output directory, or a failed write.
pub fn exec(args: &ReproduceArgs, out: &mut dyn Write) -> Result<()> {
    if args.list {
        return list(args.json, out);
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
    if let Some(dir) = &args.out {
        output::check_dir("--out", dir)?;
    }
    if let Some(dir) = &args.runs {
        output::check_store("--runs", dir)?;
    }
    let options = Options {
        replications: args.replications,
        only: args.only.clone(),
        progress: Show::stderr(),
        seed: args.seed,
    };
    if let (Some(shard), Some(dir)) = (args.shard, &args.runs) {
        for paper in papers {
            let stored = paper.run_shard(&options, shard, dir)?;
            eprint!("{}", stored.timing.text());
            writeln!(
                out,
                "{} shard {shard}: wrote {} of the {} runs to {}.",
                paper.id(),
                stored.runs,
                stored.of,
                stored.path.display()
            )
            .context("writing the report")?;
        }
        return out.flush().context("writing output");
    }
    let mut stored = if args.from.is_empty() {
        None
    } else {
        Some(experiments::by_paper(&papers, runfile::read(&args.from)?)?)
    };
    // `--out DIR` is written whole: into a temporary sibling, renamed into place at the end.
    let staged = args.out.as_deref().map(Staged::begin).transpose()?;
    let mut pages = Vec::new();
    for (i, paper) in papers.iter().enumerate() {
        let done = match stored.as_mut() {
            Some(runs) => paper.judge_stored(&options, std::mem::take(&mut runs[i]))?,
            None => paper.reproduce(&options, args.runs.as_deref())?,
        };
        out.write_all(done.report.text().as_bytes())
            .context("writing the report")?;
        eprint!("{}", done.timing.text());
        if let (Some(staged), Some(dir)) = (&staged, &args.out) {
            let (tmp, dir) = match id {
                "all" => (staged.path().join(paper.id()), dir.join(paper.id())),
                _ => (staged.path().to_owned(), dir.clone()),
            };
            done.report.write_files(&tmp, &done.timing)?;
            writeln!(
                out,
                "Wrote the CSV and SVG files, summary.json and the page index.html to {}.",
                dir.display()
            )
            .context("writing the report")?;
        }
        pages.push(done.report);
    }
    if let (Some(staged), Some(dir), "all") = (&staged, &args.out, id) {
        let reports: Vec<(&str, &_)> = pages.iter().map(|r| (r.paper, r)).collect();
        let path = staged.path().join("index.html");
        std::fs::write(&path, html::index(&reports))
            .with_context(|| format!("writing {}", path.display()))?;
        writeln!(
            out,
            "Wrote the index of every paper's outcomes to {}.",
            dir.join("index.html").display()
        )
        .context("writing the report")?;
    }
    if let Some(staged) = staged {
        staged.commit()?;
    }
    out.flush().context("writing output")
}

/// A paper as `--list --json` prints it.
#[derive(Serialize)]
struct Listed {
    id: &'static str,
    citation: Citation,
    title: &'static str,
    parts: Vec<ListedPart>,
}

/// A part of a paper and the figures it shows.
#[derive(Serialize)]
struct ListedPart {
    id: &'static str,
    figures: &'static [&'static str],
}

/// `--list`: one line per paper, then its parts with their figures (or, with `json`, a JSON
/// array of the same).
fn list(json: bool, out: &mut dyn Write) -> Result<()> {
    if json {
        let papers: Vec<Listed> = PAPERS
            .iter()
            .map(|p| Listed {
                id: p.id(),
                citation: p.citation(),
                title: p.title(),
                parts: p
                    .contents()
                    .into_iter()
                    .map(|(id, figures)| ListedPart { id, figures })
                    .collect(),
            })
            .collect();
        return super::write_json(&papers, true, out);
    }
    for p in PAPERS {
        writeln!(out, "{:<16} {}: {}", p.id(), p.citation(), p.title())
            .context("writing the list")?;
        for (part, figures) in p.contents() {
            writeln!(out, "  {part:<14} {}", figures.join(", ")).context("writing the list")?;
        }
    }
    out.flush().context("writing output")
}
