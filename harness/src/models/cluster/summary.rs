//! `qosgate backfill`: replays an SWF trace on one cluster under FCFS, EASY, conservative or
//! selective backfilling ([`super::replay`]) and reports what happened ([`report`]); and
//! `qosgate run` for a cluster scenario ([`run`]: the same replay, every replication in
//! parallel, each metric as the mean and 95 % confidence interval over them; `--events`: one
//! JSON object per job, [`Record`] plus `replication` and `outcome`; `--out DIR`: `summary.json`,
//! `metrics.csv` and `jobs.csv`, replication 0's schedule as Batsim writes it).
//!
//! Output: a summary table on standard output (or one JSON object with `--json`), and the
//! [`Files`] asked for: with `--out FILE.csv` one row per scheduled job,
//! `job,arrival,start,end,procs` (whole seconds), in `(submit, id)` order; with
//! `--jobs-csv` Batsim's `jobs.csv` ([`batsim`]); with `--swf-out` the schedule as SWF
//! ([`swf_schedule`]); with `--gantt` a Gantt chart ([`gantt`]). Every path is checked before
//! the replay and every file written whole ([`output`]).
//!
//! With failures ([`Failures`]: `--failures FILE|MODEL`), the nodes fail and come back over
//! `[0, last submit + longest estimate]`, the trace's span plus its longest job; then every node
//! is repaired and the cluster replays the rest without failures, so every job completes. The
//! failures are a synthetic process fitted to javadi2012's Table II (`weibull`, `lognormal` or
//! `hyperexponential`, in `groups` groups: [`crate::workload::failures`]) or a Failure Trace
//! Archive trace read from a random starting point ([`crate::workload::fta`]); `seed` drives
//! either. The report adds the outages, the node-hours down and the jobs' interruptions.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use qosgate_kernel::backfill::Policy;
use serde::Serialize;

use super::Cluster;
use super::batsim;
use super::replay::{self, Naming, NodeEvent, Outcome, Record, Summary};
use super::scenario::{Failures, Scenario};
use crate::models::{self, Estimated, Head, Measured, Metric, RunOptions};
use crate::output;
use crate::report::columns::{self, Column};
use crate::report::gantt;
use crate::report::table::{Align, grouped, table};
use crate::workload::failures::{Fit, Process, Tally};
use crate::workload::fta;
use crate::workload::outages::Source;
use crate::workload::swf::{self, Invalid, Skipped};
use crate::workload::swf_schedule::{self, Schedule};

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
    /// The files to write.
    pub files: Files,
    /// Print one JSON object instead of the table.
    pub json: bool,
    /// Replay under node failures.
    pub failures: Option<Failures>,
}

/// The files `qosgate backfill` writes, each if asked for.
#[derive(Debug, Clone, Default)]
pub struct Files {
    /// One CSV row per scheduled job (`--out`: `job_id,submit,start,end,procs`).
    pub csv: Option<PathBuf>,
    /// Batsim's `jobs.csv` ([`super::batsim`]).
    pub jobs_csv: Option<PathBuf>,
    /// The schedule as SWF ([`swf_schedule`]).
    pub swf: Option<PathBuf>,
    /// A Gantt chart, SVG ([`gantt`]).
    pub gantt: Option<PathBuf>,
}

impl Files {
    /// Each file asked for, with the option that names it.
    fn each(&self) -> impl Iterator<Item = (&'static str, &Path)> {
        [
            ("--out", &self.csv),
            ("--jobs-csv", &self.jobs_csv),
            ("--swf-out", &self.swf),
            ("--gantt", &self.gantt),
        ]
        .into_iter()
        .filter_map(|(option, path)| Some((option, path.as_deref()?)))
    }

    /// Whether the files need the nodes named: the Batsim file and the Gantt chart do.
    fn naming(&self) -> Naming {
        if self.jobs_csv.is_some() || self.gantt.is_some() {
            Naming::Named
        } else {
            Naming::Counted
        }
    }

    /// Checks every path before the replay ([`output::check_file`]).
    ///
    /// Errors: a path that cannot be written, named with its option.
    fn check(&self) -> Result<()> {
        self.each()
            .try_for_each(|(option, path)| output::check_file(option, path))
    }

    /// Writes each file asked for, each whole ([`output::write_file`]).
    ///
    /// Errors: a failed write or read of the trace again (named).
    fn write(&self, req: &Request, prepared: &Prepared, outcome: &Outcome) -> Result<()> {
        if let Some(path) = &self.csv {
            output::write_file(path, |w| {
                columns::write_csv(RECORD_COLUMNS, &outcome.records, w)
            })?;
        }
        let name = workload_name(&req.swf);
        if let Some(path) = &self.jobs_csv {
            output::write_file(path, |w| batsim::write(outcome, &name, w))?;
        }
        if let Some(path) = &self.swf {
            let jobs = outcome.swf_fields();
            let note = format!(
                "the schedule of {} backfilling on {} processors by qosgate {}: wait and run \
                 times are the replay's",
                req.policy_name,
                prepared.trace.machine_procs,
                env!("CARGO_PKG_VERSION")
            );
            let schedule = Schedule {
                machine_procs: prepared.trace.machine_procs,
                note: &note,
                jobs: &jobs,
            };
            let input =
                File::open(&req.swf).with_context(|| format!("opening {}", req.swf.display()))?;
            output::write_file(path, |w| {
                let filled = swf_schedule::write(input, &schedule, w)
                    .with_context(|| format!("writing the schedule of {}", req.swf.display()))?;
                // Read twice: a pipe or a file changed since would lose jobs.
                anyhow::ensure!(
                    filled == jobs.len(),
                    "--swf-out: {} of the {} jobs found when reading {} again (a pipe, or a \
                     file that changed?)",
                    filled,
                    jobs.len(),
                    req.swf.display()
                );
                Ok(())
            })?;
        }
        if let Some(path) = &self.gantt {
            let title = format!("{name}, {} backfilling", req.policy_name);
            let svg = gantt::svg(&title, &outcome.gantt_runs(), prepared.trace.machine_procs)?;
            output::write_file(path, |w| {
                w.write_all(svg.as_bytes())
                    .with_context(|| format!("writing {}", path.display()))
            })?;
        }
        Ok(())
    }
}

/// The trace's file name without its extension: the Batsim workload's name.
fn workload_name(swf: &Path) -> String {
    swf.file_stem()
        .map_or_else(|| "trace".to_owned(), |s| s.to_string_lossy().into_owned())
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

/// A trace read and the node failures it is replayed under: what one replay needs.
#[derive(Debug)]
pub struct Prepared {
    /// The trace.
    pub trace: swf::Trace,
    /// The node failures and repairs, in time order (empty without failures).
    pub events: Vec<NodeEvent>,
    /// Nodes fail until this instant, seconds: the last submit plus the longest estimate.
    pub until: u64,
}

impl Prepared {
    /// Reads the SWF trace at `swf` (`nodes`: the cluster's size, default the header's; with
    /// `skip_invalid`, bad lines are counted instead of refused) and draws `failures`, if any.
    ///
    /// Errors: an unreadable or bad trace or failure trace (named by file and line), a failure
    /// process the cluster refuses.
    pub fn read(
        swf: &Path,
        nodes: Option<u32>,
        skip_invalid: bool,
        failures: Option<&Failures>,
    ) -> Result<Self> {
        let options = swf::Options {
            skip_invalid,
            machine_procs: nodes,
        };
        let trace = swf::read_path(swf, &options)?;
        let until = trace.jobs.iter().map(|j| j.submit).max().unwrap_or(0)
            + trace.jobs.iter().map(|j| j.estimate).max().unwrap_or(0);
        let events = match failures {
            Some(f) => self::failures(f, trace.machine_procs, until, skip_invalid)?,
            None => Vec::new(),
        };
        Ok(Self {
            trace,
            events,
            until,
        })
    }

    /// Replays the trace under `policy` with a queue of `queue` jobs
    /// ([`replay::replay_limited`]), naming nodes or not.
    ///
    /// Errors: those of [`replay::replay_limited`], naming the trace `swf`.
    pub fn replay(
        &self,
        swf: &Path,
        policy: Policy,
        queue: usize,
        naming: Naming,
    ) -> Result<replay::Outcome> {
        let nodes = self.trace.machine_procs;
        replay::replay_limited(&self.trace.jobs, policy, nodes, &self.events, queue, naming)
            .with_context(|| format!("replaying {}", swf.display()))
    }
}

/// Replays the trace `req` names and writes the report to `out` (and the CSV it asks for).
///
/// Errors: an unreadable or bad trace, a replay error (named), a failed write.
pub fn report(req: &Request, out: &mut dyn Write) -> Result<()> {
    req.files.check()?;
    let prepared = Prepared::read(&req.swf, req.nodes, req.skip_invalid, req.failures.as_ref())?;
    let outcome = prepared.replay(&req.swf, req.policy, req.queue, req.files.naming())?;
    let trace = &prepared.trace;
    let nodes = trace.machine_procs;
    let report = req.failures.as_ref().map(|f| FailureReport {
        source: f.spec.clone(),
        seed: f.seed,
        until_s: prepared.until,
        tally: Tally::of(&prepared.events),
    });
    req.files.write(req, &prepared, &outcome)?;
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

/// `qosgate backfill --parse-only`: reads the SWF trace at `swf` as a replay does (`nodes`, the
/// cluster's size, default the header's; `skip_invalid` as in [`Request`]), writes to `csv`, if
/// given, the rows a replay writes with every job started at its arrival (`start = arrival`,
/// `end = arrival + run`: no scheduling, as on a machine of unbounded size), and prints the
/// trace's summary. What it costs is the floor of a replay's: start-up, parsing and writing.
///
/// Errors: an unwritable `csv` path, an unreadable or bad trace, a failed write.
pub fn parse_only(
    swf: &Path,
    nodes: Option<u32>,
    skip_invalid: bool,
    csv: Option<&Path>,
    out: &mut dyn Write,
) -> Result<()> {
    if let Some(path) = csv {
        output::check_file("--out", path)?;
    }
    let options = swf::Options {
        skip_invalid,
        machine_procs: nodes,
    };
    let trace = swf::read_path(swf, &options)?;
    if let Some(path) = csv {
        let records: Vec<Record> = trace
            .jobs
            .iter()
            .map(|j| Record {
                id: j.id,
                submit: j.submit,
                start: j.submit,
                end: j.submit + j.run,
                procs: j.procs,
                run: j.run,
                estimate: j.estimate,
                interruptions: 0,
            })
            .collect();
        output::write_file(path, |w| columns::write_csv(RECORD_COLUMNS, &records, w))?;
    }
    let text = format!(
        "{}: read without scheduling\n{}",
        swf.display(),
        trace.summary()
    );
    out.write_all(text.as_bytes())
        .context("writing the summary")?;
    out.flush().context("writing output")
}

/// The schedule file: one line per job.
const RECORD_COLUMNS: &[Column<Record>] = &[
    Column::count("job", "job", |r| r.id),
    Column::count("arrival s", "arrival", |r| r.submit),
    Column::count("start s", "start", |r| r.start),
    Column::count("end s", "end", |r| r.end),
    Column::count("procs", "procs", |r| u64::from(r.procs)),
];

/// What `qosgate run --json` prints for a cluster scenario and `summary.json` holds.
#[derive(Debug, Serialize)]
struct RunSummary<'a> {
    #[serde(flatten)]
    head: Head<'a>,
    trace: String,
    policy: &'static str,
    metrics: Estimated,
    per_replication: &'a [Summary],
}

/// The metrics a run summary shows, in order.
const SHOWN: [Metric<Summary>; 7] = [
    Metric::new("jobs scheduled", "jobs", 0, |s| Some(s.jobs as f64)),
    Metric::new("utilization", "utilization", 4, |s| Some(s.utilization)),
    Metric::new("mean wait (s)", "mean_wait_s", 1, |s| Some(s.mean_wait)),
    Metric::new(
        "mean bounded slowdown (10 s, Eq. 15)",
        "mean_bounded_slowdown",
        3,
        |s| Some(s.mean_bounded_slowdown),
    ),
    Metric::new("AWRT (s, Eq. 14)", "awrt_s", 1, |s| Some(s.awrt)),
    Metric::new("makespan (s)", "makespan_s", 0, |s| Some(s.makespan as f64)),
    Metric::new("interruptions", "interruptions", 0, |s| {
        Some(s.interruptions as f64)
    }),
];

/// Replays `scenario` (its own replications, or `opts.replications`), prints the summary (or,
/// with `opts.json`, one JSON object) and writes the files `opts` asks for.
///
/// Errors: an unreadable or bad trace, a replay error (named by its replication), a failed
/// write (the file named).
pub fn run(scenario: &Scenario, opts: &RunOptions, out: &mut dyn Write) -> Result<()> {
    let mut jobs_csv = FirstSchedule {
        workload: workload_name(&scenario.trace),
        run: None,
    };
    let m = Measured::<Cluster>::of(scenario, scenario.header.replications, opts, |k, run| {
        if k == 0 && opts.out.is_some() {
            jobs_csv.run = Some(run.clone());
        }
    })?;
    let summary = RunSummary {
        head: m.head(scenario),
        trace: scenario.trace.display().to_string(),
        policy: scenario.scheduler.policy.name(),
        metrics: Estimated::of(&SHOWN, &m.metrics),
        per_replication: &m.metrics,
    };
    models::write_summary(&summary, render, &[&summary.metrics, &jobs_csv], opts, out)
}

/// `run --out`'s `jobs.csv`: replication 0's schedule as Batsim writes it ([`batsim`]). The
/// others differ from it only by their failures; `qosgate backfill --failure-seed` writes
/// replication `k`'s with the scenario's seed + `k`.
struct FirstSchedule {
    /// The trace's name ([`workload_name`]).
    workload: String,
    /// Replication 0.
    run: Option<super::Run>,
}

impl models::CsvFile for FirstSchedule {
    fn file_name(&self) -> String {
        "jobs.csv".to_owned()
    }

    fn write_csv(&self, out: &mut dyn Write) -> Result<()> {
        let run = self
            .run
            .as_ref()
            .context("no replication 0 to write jobs.csv from")?;
        batsim::write(&run.outcome, &self.workload, out)
    }
}

fn render(s: &RunSummary) -> String {
    let mut text = format!(
        "{}; {} backfilling of {}\n\
         (mean ± 95 % confidence half-width over the replications)\n\n",
        s.head, s.policy, s.trace
    );
    text.push_str(&s.metrics.text());
    text
}
