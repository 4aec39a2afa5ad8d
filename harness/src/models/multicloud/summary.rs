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
//! - `--out DIR`: `summary.json` (what `--json` prints), `metrics.csv`, `clouds.csv` and
//!   `apps.csv` (every application of every replication).

use std::io::Write;

use anyhow::Result;
use serde::Serialize;

use super::Multicloud;
use super::metrics::Metrics;
use super::record::AppRecord;
use super::scenario::Scenario;
use crate::models::{self, Estimated, Head, Measured, Metric, RunOptions, Table};
use crate::report::columns::Column;
use crate::report::stats::Estimate;

/// What `--json` prints and `summary.json` holds.
#[derive(Debug, Serialize)]
struct Summary<'a> {
    #[serde(flatten)]
    head: Head<'a>,
    metrics: Estimated,
    clouds: Table<'a, (String, Option<Estimate>)>,
    per_replication: &'a [Metrics],
}

/// The metrics a summary shows, in order (an indented heading qualifies the one above).
const SHOWN: [Metric<Metrics>; 19] = [
    Metric::new("applications", "apps", 1, |m| Some(m.apps as f64)),
    Metric::new("applications rejected", "apps_rejected", 1, |m| {
        Some(m.apps_rejected as f64)
    }),
    Metric::new("tasks", "tasks", 1, |m| Some(m.tasks as f64)),
    Metric::new("tasks rejected", "tasks_rejected", 1, |m| {
        Some(m.tasks_rejected as f64)
    }),
    Metric::new("mean execution time, s", "execution_s", 1, |m| {
        m.execution_s
    }),
    Metric::new(
        "applications unfinished at the end",
        "apps_unfinished",
        1,
        |m| Some(m.apps_unfinished as f64),
    ),
    Metric::new(
        "  their lower bounds (end - arrival), s",
        "unfinished_lower_s",
        1,
        |m| m.unfinished_lower_s,
    ),
    Metric::new(
        "  mean execution time, unfinished at their bounds, s",
        "execution_lower_s",
        1,
        |m| m.execution_lower_s,
    ),
    Metric::new("  best-effort applications, s", "execution_be_s", 1, |m| {
        m.execution_be_s
    }),
    Metric::new("  reservations, s", "execution_ar_s", 1, |m| {
        m.execution_ar_s
    }),
    Metric::new("energy, power x s", "energy", 1, |m| Some(m.energy)),
    Metric::new("active server-seconds", "active_server_s", 1, |m| {
        Some(m.active_server_s)
    }),
    Metric::new("preemptions", "preemptions", 1, |m| {
        Some(m.preemptions as f64)
    }),
    Metric::new("lateness against the plan, s", "lateness_s", 1, |m| {
        m.lateness_s
    }),
    Metric::new("  waiting for predecessors, s", "ready_late_s", 1, |m| {
        m.ready_late_s
    }),
    Metric::new(
        "median feedback factor at alpha 1",
        "factor_median",
        1,
        |m| m.factor_median,
    ),
    Metric::new(
        "tasks on part of a server, %",
        "partial_server_pct",
        1,
        |m| Some(m.partial_server_pct),
    ),
    Metric::new("leases mapped together", "batch_mean", 1, |m| m.batch_mean),
    Metric::new("run end, s", "end_s", 1, |m| Some(m.end_s)),
];

/// Each cloud's share of the tasks.
const CLOUD_COLUMNS: &[Column<(String, Option<Estimate>)>] = &[
    Column::text("cloud", "cloud", |(c, _)| c.clone()),
    Column::estimate("tasks run there, %", "task_share_pct", |(_, e)| *e, 1),
];

/// Simulates `scenario`, prints the summary (or JSON) and writes the files `opts` asks for.
///
/// Errors: a simulation error (named by its replication), a failed write (the file named).
pub fn run(scenario: &Scenario, opts: &RunOptions, out: &mut dyn Write) -> Result<()> {
    let mut apps: Vec<AppRow> = Vec::new();
    let m = Measured::<Multicloud>::of(scenario, scenario.header.replications, opts, |k, run| {
        apps.extend(run.apps.iter().map(|app| AppRow {
            replication: k,
            app: app.clone(),
        }));
    })?;
    let metrics = &m.metrics;
    let clouds: Vec<(String, Option<Estimate>)> = scenario
        .clouds
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let share = models::estimate(metrics, |m| m.task_share_pct.get(i).copied());
            (c.name.clone(), share)
        })
        .collect();
    let summary = Summary {
        head: m.head(scenario),
        metrics: Estimated::of(&SHOWN, metrics),
        clouds: Table {
            name: "clouds",
            columns: CLOUD_COLUMNS,
            rows: &clouds,
        },
        per_replication: metrics,
    };
    let apps = Table {
        name: "apps",
        columns: APP_COLUMNS,
        rows: &apps,
    };
    let files: [&dyn models::CsvFile; 3] = [&summary.metrics, &summary.clouds, &apps];
    models::write_summary(&summary, render, &files, opts, out)
}

fn render(s: &Summary) -> String {
    let mut text = format!(
        "{}\n\
         (mean ± 95 % confidence half-width over the replications)\n\n",
        s.head
    );
    text.push_str(&s.metrics.text());
    text.push('\n');
    text.push_str(&s.clouds.text());
    text
}

/// One application of one replication, a line of `apps.csv`.
struct AppRow {
    replication: u32,
    app: AppRecord,
}

/// `apps.csv`: every application of every replication.
const APP_COLUMNS: &[Column<AppRow>] = &[
    Column::count("replication", "replication", |r| u64::from(r.replication)),
    Column::count("app", "app", |r| r.app.app as u64),
    Column::count("origin", "origin", |r| r.app.origin as u64),
    Column::text("reservation", "reservation", |r| {
        r.app.reservation.to_string()
    }),
    Column::count("tasks", "tasks", |r| r.app.tasks as u64),
    Column::number("arrival s", "arrival", |r| Some(r.app.arrival), 0),
    Column::number("end s", "end", |r| r.app.finished, 0),
    Column::text("outcome", "outcome", |r| r.app.outcome.name().to_owned()),
    Column::text("reason", "reason", |r| {
        r.app.reason.clone().unwrap_or_default()
    }),
];
