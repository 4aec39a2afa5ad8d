//! `qosgate backfill`: replays an SWF trace on one cluster under FCFS, EASY, conservative or
//! selective backfilling ([`super::replay`]) and reports what happened.
//!
//! Output: a summary table on standard output (or one JSON object with `--json`), and with
//! `--out FILE.csv` one row per scheduled job, `job_id,submit,start,end,procs` (whole seconds),
//! in `(submit, id)` order.
//!
//! With failures ([`Failures`]: `--failures FILE|MODEL`), the nodes fail and come back over
//! `[0, last submit + longest estimate]`, the trace's span plus its longest job; then every node
//! is repaired and the cluster replays the rest without failures, so every job completes. The
//! failures are a synthetic process fitted to javadi2012's Table II (`weibull`, `lognormal` or
//! `hyperexponential`, in `groups` groups: [`crate::workload::failures`]) or a Failure Trace
//! Archive trace read from a random starting point ([`crate::workload::fta`]); `seed` drives
//! either. The report adds the outages, the node-hours down and the jobs' interruptions.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use qosgate_kernel::backfill::Policy;
use serde::Serialize;

use super::replay::{self, NodeEvent, Record, Summary};
use crate::report::columns::{self, Column};
use crate::report::table::{Align, grouped, table};
use crate::workload::failures::{Fit, Process, Tally};
use crate::workload::fta;
use crate::workload::outages::Source;
use crate::workload::swf::{self, Invalid, Skipped};

/// Node failures to replay a trace under.
#[derive(Debug, Clone)]
pub struct Failures {
    /// A Table II fit's name ([`Fit::name`]), else the path of an FTA trace.
    pub spec: String,
    /// Groups of nodes that fail together (synthetic process only).
    pub groups: u32,
    /// Seed of the process's draws, or of the trace's starting point.
    pub seed: u64,
}

/// What the report says of the failures.
#[derive(Debug, Serialize)]
struct FailureReport {
    /// `--failures` as given.
    source: String,
    seed: u64,
    /// Nodes fail until this instant, seconds.
    until_s: u64,
    #[serde(flatten)]
    tally: Tally,
}

/// A replay to run and report.
#[derive(Debug, Clone)]
pub struct Request {
    /// The trace, in the Standard Workload Format.
    pub swf: PathBuf,
    /// The kernel's policy.
    pub policy: Policy,
    /// The policy's name as the user typed it (`easy`), for the report.
    pub policy_name: &'static str,
    /// Selective backfilling's threshold as the user gave it, for the JSON report.
    pub selective_threshold: Option<f64>,
    /// Nodes of the cluster (default: the trace header's).
    pub nodes: Option<u32>,
    /// Skip and count bad lines instead of failing on the first one.
    pub skip_invalid: bool,
    /// Admitted and unfinished jobs the scheduler holds at most (`1 ..=`
    /// [`replay::MAX_QUEUE`]; [`replay::QUEUE`] by default).
    pub queue: usize,
    /// Write one CSV row per scheduled job here.
    pub csv: Option<PathBuf>,
    /// Print one JSON object instead of the table.
    pub json: bool,
    /// Replay under node failures.
    pub failures: Option<Failures>,
}

/// What `--json` prints.
#[derive(Debug, Serialize)]
struct JsonReport<'a> {
    trace: String,
    policy: &'static str,
    selective_threshold: Option<f64>,
    nodes: u32,
    data_lines: u64,
    jobs_read: usize,
    skipped: &'a Skipped,
    invalid: &'a Invalid,
    truncated_to_estimate: u64,
    summary: &'a Summary,
    #[serde(skip_serializing_if = "Option::is_none")]
    failures: Option<&'a FailureReport>,
}

/// The node failures of `f` on `nodes` nodes until `until` seconds.
///
/// Errors: a process the cluster refuses (more groups than nodes), an unreadable or bad trace
/// (named by file and line; `skip_invalid` counts bad lines instead).
fn failures(f: &Failures, nodes: u32, until: u64, skip_invalid: bool) -> Result<Vec<NodeEvent>> {
    let source = match Fit::named(&f.spec) {
        Some(fit) => {
            let p = Process::table2(fit, f.groups)?;
            p.check(nodes)
                .with_context(|| format!("--failures {}", f.spec))?;
            Source::Process(p)
        }
        None => {
            let options = fta::Options { skip_invalid };
            Source::Trace(fta::read_path(Path::new(&f.spec), &options)?.into())
        }
    };
    Ok(source.events(nodes, until, f.seed))
}

/// Replays the trace `req` names and writes the report to `out` (and the CSV it asks for).
///
/// Errors: an unreadable or bad trace, a replay error (named), a failed write.
pub fn run(req: &Request, out: &mut dyn Write) -> Result<()> {
    let options = swf::Options {
        skip_invalid: req.skip_invalid,
        machine_procs: req.nodes,
    };
    let trace = swf::read_path(&req.swf, &options)?;
    let nodes = trace.machine_procs;
    let until = trace.jobs.iter().map(|j| j.submit).max().unwrap_or(0)
        + trace.jobs.iter().map(|j| j.estimate).max().unwrap_or(0);
    let events = match &req.failures {
        Some(f) => failures(f, nodes, until, req.skip_invalid)?,
        None => Vec::new(),
    };
    let report = req.failures.as_ref().map(|f| FailureReport {
        source: f.spec.clone(),
        seed: f.seed,
        until_s: until,
        tally: Tally::of(&events),
    });
    let outcome = replay::replay_limited(&trace.jobs, req.policy, nodes, &events, req.queue)
        .with_context(|| format!("replaying {}", req.swf.display()))?;
    if let Some(path) = &req.csv {
        write_csv(path, &outcome.records)?;
    }
    let s = &outcome.summary;
    if req.json {
        let report = JsonReport {
            trace: req.swf.display().to_string(),
            policy: req.policy_name,
            selective_threshold: req.selective_threshold,
            nodes,
            data_lines: trace.data_lines,
            jobs_read: trace.jobs.len(),
            skipped: &trace.skipped,
            invalid: &trace.invalid,
            truncated_to_estimate: trace.truncated,
            summary: s,
            failures: report.as_ref(),
        };
        let mut json = serde_json::to_string_pretty(&report).context("rendering JSON")?;
        json.push('\n');
        out.write_all(json.as_bytes()).context("writing JSON")?;
    } else {
        let mut text = format!(
            "{}: {} backfilling on {} nodes\n{}",
            req.swf.display(),
            req.policy_name,
            nodes,
            trace.summary()
        );
        if let Some(f) = &report {
            text.push_str(&format!(
                "failures: {} (seed {}) until {} s: {} outages on {} nodes, {:.1} node-hours down; \
                 {} interruptions\n",
                f.source,
                f.seed,
                f.until_s,
                f.tally.outages,
                f.tally.nodes_failing,
                f.tally.down_node_hours,
                s.interruptions
            ));
        }
        let rows = [
            ("jobs scheduled", grouped(s.jobs)),
            ("utilization", format!("{:.4}", s.utilization)),
            ("mean wait (s)", format!("{:.1}", s.mean_wait)),
            (
                "mean bounded slowdown (10 s, Eq. 15)",
                format!("{:.3}", s.mean_bounded_slowdown),
            ),
            ("AWRT (s, Eq. 14)", format!("{:.1}", s.awrt)),
            ("makespan (s)", grouped(s.makespan)),
        ];
        let rows: Vec<Vec<String>> = rows
            .into_iter()
            .map(|(k, v)| vec![k.to_string(), v])
            .collect();
        text.push_str(&table(
            &[("metric", Align::Left), ("value", Align::Right)],
            &rows,
        ));
        out.write_all(text.as_bytes())
            .context("writing the summary")?;
    }
    out.flush().context("writing output")
}

/// The schedule file: one line per job.
const RECORD_COLUMNS: &[Column<Record>] = &[
    Column::count("job", "job_id", |r| r.id),
    Column::count("submit s", "submit", |r| r.submit),
    Column::count("start s", "start", |r| r.start),
    Column::count("end s", "end", |r| r.end),
    Column::count("procs", "procs", |r| u64::from(r.procs)),
];

/// Writes one row per job, in the records' order, `(submit, id)`.
fn write_csv(path: &Path, records: &[Record]) -> Result<()> {
    let file = File::create(path).with_context(|| format!("creating {}", path.display()))?;
    columns::write_csv(RECORD_COLUMNS, records, BufWriter::new(file))
        .with_context(|| format!("writing {}", path.display()))
}
