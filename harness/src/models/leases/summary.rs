//! `qosgate leases`: replays an LWF lease workload on one cluster ([`super::replay`]) and
//! reports every lease and the accounts.
//!
//! Output: a line naming the workload, the cluster, the policy and the overheads; a table with
//! one row per lease (label, kind, nodes, arrival, start, end, suspensions, outcome, reason;
//! times in seconds from the workload's start, `-` where there is none); a table of the
//! suspensions (the lease, the one it made room for, the suspension and the resumption
//! intervals); and the accounts. With `--json`, one JSON object with the same (every record's
//! fields, see [`Record`]). With `--gantt FILE.svg`, a Gantt chart of the intervals each lease
//! held its nodes ([`Record::holds`]) on nodes named afterwards ([`nodes::place`]); with
//! `--jobs-csv FILE.csv`, the same intervals as Batsim's `jobs.csv` ([`batsim`]). That is
//! [`report`]; [`run`] is `qosgate run` for a lease scenario:
//! the accounts of every replication (each the same replay) as the mean over them, `--events`
//! one JSON object per lease ([`Record`] plus `replication`), `--out DIR` `summary.json` and
//! `metrics.csv`.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use serde::Serialize;

use super::Leases;
use super::replay::{self, Accounts, Outcome, Params, Record};
use super::scenario::Scenario;
use crate::des::nodes::{self, Hold};
use crate::des::time::secs;
use crate::models::{self, Estimated, Head, Measured, Metric, RunOptions};
use crate::output;
use crate::report::batsim::{self, State};
use crate::report::gantt;
use crate::report::table::{Align, table};
use crate::workload::lwf;

/// A replay to run and report.
#[derive(Debug, Clone)]
pub struct Request {
    /// The workload, an LWF file.
    pub lwf: PathBuf,
    /// How to replay it.
    pub params: Params,
    /// The policy's name as the user typed it (`moml`), for the report.
    pub policy_name: &'static str,
    /// Print one JSON object instead of the tables.
    pub json: bool,
    /// Draw a Gantt chart here (SVG).
    pub gantt: Option<PathBuf>,
    /// Write the schedule as Batsim's `jobs.csv` here.
    pub jobs_csv: Option<PathBuf>,
}

/// What `--json` prints.
#[derive(Debug, Serialize)]
struct JsonReport<'a> {
    lwf: String,
    workload: Option<&'a str>,
    nodes: u32,
    policy: &'static str,
    suspend_s: f64,
    resume_s: f64,
    until_s: Option<f64>,
    leases: &'a [Record],
    accounts: &'a Accounts,
    last_s: f64,
}

/// Reads and replays the workload `req` names and writes the report to `out`.
///
/// Errors: an unreadable or bad file (`file:line:column: ...`), a replay error (named), a
/// failed write.
pub fn report(req: &Request, out: &mut dyn Write) -> Result<()> {
    if let Some(path) = &req.gantt {
        output::check_file("--gantt", path)?;
    }
    if let Some(path) = &req.jobs_csv {
        output::check_file("--jobs-csv", path)?;
    }
    let workload = lwf::read_path(&req.lwf)?;
    let r = replay::replay(&workload, &req.params)
        .with_context(|| format!("replaying {}", req.lwf.display()))?;
    if req.gantt.is_some() || req.jobs_csv.is_some() {
        let held = Held::place(&r)?;
        if let Some(path) = &req.gantt {
            let title = format!("{}, {} preemption", req.lwf.display(), req.policy_name);
            let svg = held.gantt(&title, r.nodes)?;
            output::write_file(path, |w| {
                w.write_all(svg.as_bytes())
                    .with_context(|| format!("writing {}", path.display()))
            })?;
        }
        if let Some(path) = &req.jobs_csv {
            let name = req.lwf.file_stem().map_or_else(
                || "workload".to_owned(),
                |s| s.to_string_lossy().into_owned(),
            );
            output::write_file(path, |w| batsim::write(&held.runs(&r), &name, w))?;
        }
    }
    let p = &req.params;
    if req.json {
        let report = JsonReport {
            lwf: req.lwf.display().to_string(),
            workload: workload.name.as_deref(),
            nodes: r.nodes,
            policy: req.policy_name,
            suspend_s: secs(p.overheads.suspend),
            resume_s: secs(p.overheads.resume),
            until_s: p.until.map(secs),
            leases: &r.records,
            accounts: &r.accounts,
            last_s: r.last,
        };
        let mut json = serde_json::to_string_pretty(&report).context("rendering JSON")?;
        json.push('\n');
        out.write_all(json.as_bytes()).context("writing JSON")?;
    } else {
        out.write_all(text(req, workload.name.as_deref(), &r).as_bytes())
            .context("writing the report")?;
    }
    out.flush().context("writing output")
}

/// Every interval a lease of a replay held nodes ([`Record::holds`]), with the nodes it held,
/// named by [`nodes::place`]: in the leases' order, and in time order within a lease.
struct Held {
    /// `(lease, its hold, whether a suspension ended it)`: the lease as its index in the
    /// replay's records.
    holds: Vec<(usize, Hold, bool)>,
    /// The nodes of each hold.
    sets: Vec<nodes::NodeSet>,
}

impl Held {
    /// The holds of replay `r`, on named nodes.
    ///
    /// Errors: more nodes held at once than the cluster has (the replay's records contradict
    /// the kernel).
    fn place(r: &replay::Replay) -> Result<Self> {
        let holds: Vec<(usize, Hold, bool)> = r
            .records
            .iter()
            .enumerate()
            .flat_map(|(i, l)| l.holds(r.last).into_iter().map(move |(h, s)| (i, h, s)))
            .collect();
        let spans: Vec<Hold> = holds.iter().map(|&(_, h, _)| h).collect();
        let sets = nodes::place(&spans, r.nodes).map_err(|k| {
            let (i, h, _) = holds[k];
            anyhow::anyhow!(
                "lease {} holds {} nodes from {} s with too few idle",
                r.records[i].lease,
                h.count,
                h.start
            )
        })?;
        Ok(Held { holds, sets })
    }

    /// The Gantt chart of the holds on `nodes` nodes; an interval a suspension ended in grey.
    ///
    /// Errors: a drawing failure.
    fn gantt(&self, title: &str, nodes: u32) -> Result<String> {
        let runs: Vec<gantt::Run> = self
            .holds
            .iter()
            .zip(&self.sets)
            .filter(|(_, set)| !set.is_empty())
            .map(|(&(job, h, suspended), set)| gantt::Run {
                job,
                start: h.start,
                end: h.end,
                nodes: set.ranges(),
                interrupted: suspended,
            })
            .collect();
        gantt::svg(title, &runs, nodes)
    }

    /// The holds as Batsim's runs ([`batsim`]) of replay `r`: a lease's `k`-th hold after its
    /// first is run `<label>#<k>`, resubmitted when the suspension before it ended; a hold a
    /// suspension ended is `COMPLETED_KILLED`, a lease's last one `COMPLETED_SUCCESSFULLY` if
    /// the lease completed, `RUNNING` if it was still running when the replay stopped (to the
    /// replay's last instant). The requested time is the lease's duration.
    fn runs<'a>(&'a self, r: &'a replay::Replay) -> Vec<batsim::Run<'a>> {
        let mut runs: Vec<batsim::Run> = self
            .holds
            .iter()
            .zip(&self.sets)
            .map(|(&(i, h, suspended), set)| {
                let lease = &r.records[i];
                let state = match (suspended, lease.outcome) {
                    (true, _) | (false, Outcome::Rejected) => State::Killed,
                    (false, Outcome::Completed) => State::Completed,
                    (false, Outcome::Unfinished) => State::Running,
                };
                batsim::Run {
                    job: lease.lease.clone(),
                    restart: 0,
                    submitted: lease.arrival,
                    procs: u64::from(h.count),
                    requested: lease.duration,
                    state,
                    start: h.start,
                    end: h.end,
                    nodes: set,
                }
            })
            .collect();
        batsim::resubmit(&mut runs);
        runs
    }
}

/// The text report.
fn text(req: &Request, name: Option<&str>, r: &replay::Replay) -> String {
    let p = &req.params;
    let mut s = format!(
        "{}{}: {} leases on {} nodes, policy {}, suspend {} s, resume {} s{}\n\n",
        req.lwf.display(),
        name.map(|n| format!(" ({n})")).unwrap_or_default(),
        r.records.len(),
        r.nodes,
        req.policy_name,
        secs(p.overheads.suspend),
        secs(p.overheads.resume),
        p.until
            .map(|u| format!(", until {} s", secs(u)))
            .unwrap_or_default(),
    );
    let time = |t: Option<f64>| t.map_or_else(|| "-".to_string(), |t| t.to_string());
    let rows: Vec<Vec<String>> = r
        .records
        .iter()
        .map(|l| {
            vec![
                l.lease.clone(),
                l.kind.name().to_string(),
                l.nodes.to_string(),
                l.arrival.to_string(),
                time(l.start),
                time(l.end),
                l.preemptions.len().to_string(),
                l.outcome.name().to_string(),
                l.reason.clone(),
            ]
        })
        .collect();
    s.push_str(&table(
        &[
            ("lease", Align::Left),
            ("kind", Align::Left),
            ("nodes", Align::Right),
            ("arrival", Align::Right),
            ("start", Align::Right),
            ("end", Align::Right),
            ("suspended", Align::Right),
            ("outcome", Align::Left),
            ("reason", Align::Left),
        ],
        &rows,
    ));
    let span = |[a, b]: [f64; 2]| format!("{a} - {b}");
    let suspensions: Vec<Vec<String>> = r
        .records
        .iter()
        .flat_map(|l| {
            l.preemptions.iter().map(|p| {
                vec![
                    l.lease.clone(),
                    p.by.clone(),
                    span(p.suspend),
                    p.resume.map_or_else(|| "-".to_string(), span),
                ]
            })
        })
        .collect();
    if !suspensions.is_empty() {
        s.push('\n');
        s.push_str(&table(
            &[
                ("lease", Align::Left),
                ("for", Align::Left),
                ("suspended (s)", Align::Right),
                ("resumed (s)", Align::Right),
            ],
            &suspensions,
        ));
    }
    let a = &r.accounts;
    s.push_str(&format!(
        "\naccounts: {} leases = {} completed + {} rejected + {} unfinished; {} preemption{}\n",
        a.leases,
        a.completed,
        a.rejected,
        a.unfinished,
        a.preemptions,
        if a.preemptions == 1 { "" } else { "s" }
    ));
    s
}

/// What `qosgate run --json` prints for a lease scenario and `summary.json` holds.
#[derive(Debug, Serialize)]
struct RunSummary<'a> {
    #[serde(flatten)]
    head: Head<'a>,
    workload: String,
    policy: &'static str,
    metrics: Estimated,
    per_replication: &'a [Accounts],
}

/// The counts a run summary shows, in order.
const SHOWN: [Metric<Accounts>; 5] = [
    Metric::new("leases", "leases", 0, |a| Some(a.leases as f64)),
    Metric::new("completed", "completed", 0, |a| Some(a.completed as f64)),
    Metric::new("rejected", "rejected", 0, |a| Some(a.rejected as f64)),
    Metric::new("unfinished", "unfinished", 0, |a| Some(a.unfinished as f64)),
    Metric::new("preemptions", "preemptions", 0, |a| {
        Some(a.preemptions as f64)
    }),
];

/// Replays `scenario` (its own replications, or `opts.replications`), prints the summary (or,
/// with `opts.json`, one JSON object) and writes the files `opts` asks for.
///
/// Errors: an unreadable or bad workload (located), a replay error (named by its replication),
/// a failed write (the file named).
pub fn run(scenario: &Scenario, opts: &RunOptions, out: &mut dyn Write) -> Result<()> {
    let m = Measured::<Leases>::of(scenario, scenario.header.replications, opts, |_, _| {})?;
    let summary = RunSummary {
        head: m.head(scenario),
        workload: scenario.workload.display().to_string(),
        policy: scenario.policy.name(),
        metrics: Estimated::of(&SHOWN, &m.metrics),
        per_replication: &m.metrics,
    };
    models::write_summary(&summary, render, &[&summary.metrics], opts, out)
}

fn render(s: &RunSummary) -> String {
    let mut text = format!(
        "{}; {} preemption of {}\n\
         (mean ± 95 % confidence half-width over the replications)\n\n",
        s.head, s.policy, s.workload
    );
    text.push_str(&s.metrics.text());
    text
}
