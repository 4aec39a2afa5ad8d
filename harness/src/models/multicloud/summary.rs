//! `qosgate run` for a multi-cloud scenario: every replication in parallel, a summary of the
//! metrics (mean and 95 % confidence interval over the replications), and optionally every
//! task's record.
//!
//! # Outputs
//! - standard output: applications and tasks (finished, rejected), the mean application
//!   execution time (all, best effort, reservations), the applications unfinished at the run's
//!   end (rejected: how many, their lower bounds, and the mean execution time with them at
//!   those bounds), energy, active server-seconds,
//!   preemptions, lateness against the plan (and the part of it spent waiting for
//!   predecessors), the feedback factors at alpha 1 (median, 90th percentile), the share of tasks on part of a
//!   server, the leases mapped together, and each cloud's share of the tasks; or, with
//!   `--json`, one JSON object with the same numbers and every replication's metrics;
//! - `--events FILE.jsonl`: one JSON object per task
//!   ([`TaskRecord`](super::record::TaskRecord) plus `replication`), in the order the tasks
//!   ended, replication after replication;
//! - `--out DIR`: `summary.json` (what `--json` prints) and `apps.csv` (every application of
//!   every replication).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

use super::Multicloud;
use super::metrics::Metrics;
use super::record::{AppRecord, Run};
use super::scenario::Scenario;
use crate::models::{self, Head, Measured, RunOptions};
use crate::report::columns::{self, Column};
use crate::report::stats::Estimate;

/// What `--json` prints and `summary.json` holds.
#[derive(Debug, Serialize)]
struct Summary<'a> {
    #[serde(flatten)]
    head: Head<'a>,
    rows: Vec<(&'static str, Option<Estimate>)>,
    clouds: Vec<(String, Option<Estimate>)>,
    per_replication: &'a [Metrics],
}

/// Simulates `scenario`, prints the summary (or JSON) and writes the files `opts` asks for.
///
/// Errors: a simulation error (named by its replication), a failed write (the file named).
pub fn run(scenario: &Scenario, opts: &RunOptions, out: &mut dyn Write) -> Result<()> {
    let Measured { runs, metrics } =
        Measured::<Multicloud>::of(scenario, scenario.header.replications, opts)?;
    if let Some(path) = &opts.events {
        write_events(path, &runs)?;
    }
    let over = |f: &dyn Fn(&Metrics) -> Option<f64>| models::estimate(&metrics, f);
    let rows: Vec<(&'static str, Option<Estimate>)> = vec![
        ("applications", over(&|m| Some(m.apps as f64))),
        (
            "applications rejected",
            over(&|m| Some(m.apps_rejected as f64)),
        ),
        ("tasks", over(&|m| Some(m.tasks as f64))),
        ("tasks rejected", over(&|m| Some(m.tasks_rejected as f64))),
        ("mean execution time, s", over(&|m| m.execution_s)),
        (
            "applications unfinished at the end",
            over(&|m| Some(m.apps_unfinished as f64)),
        ),
        (
            "  their lower bounds (end - arrival), s",
            over(&|m| m.unfinished_lower_s),
        ),
        (
            "  mean execution time, unfinished at their bounds, s",
            over(&|m| m.execution_lower_s),
        ),
        ("  best-effort applications, s", over(&|m| m.execution_be_s)),
        ("  reservations, s", over(&|m| m.execution_ar_s)),
        ("energy, power x s", over(&|m| Some(m.energy))),
        ("active server-seconds", over(&|m| Some(m.active_server_s))),
        ("preemptions", over(&|m| Some(m.preemptions as f64))),
        ("lateness against the plan, s", over(&|m| m.lateness_s)),
        ("  waiting for predecessors, s", over(&|m| m.ready_late_s)),
        (
            "median feedback factor at alpha 1",
            over(&|m| m.factor_median),
        ),
        (
            "tasks on part of a server, %",
            over(&|m| Some(m.partial_server_pct)),
        ),
        ("leases mapped together", over(&|m| m.batch_mean)),
        ("run end, s", over(&|m| Some(m.end_s))),
    ];
    let clouds = scenario
        .clouds
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let share = over(&|m| m.task_share_pct.get(i).copied());
            (c.name.clone(), share)
        })
        .collect();
    let summary = Summary {
        head: Head::of::<Multicloud>(scenario, &runs),
        rows,
        clouds,
        per_replication: &metrics,
    };
    models::write_summary(
        &summary,
        render,
        |dir| write_apps_csv(&dir.join("apps.csv"), &runs),
        opts,
        out,
    )
}

fn render(s: &Summary) -> String {
    let mut text = format!(
        "{}\n\
         (mean ± 95 % confidence half-width over the replications)\n\n",
        s.head
    );
    text.push_str(&columns::pairs(["metric", "value"], &s.rows, 1));
    text.push('\n');
    text.push_str(&columns::pairs(
        ["cloud", "tasks run there, %"],
        &s.clouds,
        1,
    ));
    text
}

fn write_events(path: &Path, runs: &[Run]) -> Result<()> {
    models::write_events(path, runs.iter().map(|run| &run.tasks))
}

/// One application of one replication, a line of `apps.csv`.
struct AppRow<'a> {
    replication: usize,
    app: &'a AppRecord,
}

fn write_apps_csv(path: &Path, runs: &[Run]) -> Result<()> {
    let columns: [Column<AppRow<'_>>; 9] = [
        Column::count("replication", "replication", |r| r.replication as u64),
        Column::count("app", "app", |r| r.app.app as u64),
        Column::count("origin", "origin", |r| r.app.origin as u64),
        Column::text("reservation", "reservation", |r| {
            r.app.reservation.to_string()
        }),
        Column::count("tasks", "tasks", |r| r.app.tasks as u64),
        Column::number("arrival s", "arrival_s", |r| Some(r.app.arrival), 0),
        Column::number("finished s", "finished_s", |r| r.app.finished, 0),
        Column::text("outcome", "outcome", |r| format!("{:?}", r.app.outcome)),
        Column::text("reason", "reason", |r| {
            r.app.reason.clone().unwrap_or_default()
        }),
    ];
    let rows: Vec<AppRow<'_>> = runs
        .iter()
        .enumerate()
        .flat_map(|(replication, run)| run.apps.iter().map(move |app| AppRow { replication, app }))
        .collect();
    let file = File::create(path).with_context(|| format!("creating {}", path.display()))?;
    columns::write_csv(&columns, &rows, BufWriter::new(file))
        .with_context(|| format!("writing {}", path.display()))
}
