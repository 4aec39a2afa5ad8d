//! `qosgate run`: one scenario (a TOML file or a built-in preset), every replication in
//! parallel, a summary of the metrics of kokkinos2009 Sec. 6.3 (mean and 95 % confidence interval
//! over the replications), and optionally the event log.
//!
//! # Outputs
//! - standard output: a table per user (tasks, deadline misses, rejected, failed, backlogged,
//!   handled as BE, mean delay) and per resource (use), then the per-MI delay and the deadline
//!   fairness; or, with `--json`, one JSON object with the same numbers, the registrations and
//!   every replication's metrics;
//! - `--events FILE.jsonl`: one JSON object per task, written as the simulation ends the task
//!   (so in the order the tasks ended; at one instant, in event order), replication after
//!   replication: the [`TaskRecord`] fields plus `replication`. The replications then run one
//!   after the other, so that nothing but the file grows with the run;
//! - `--out DIR`: `summary.json` (what `--json` prints), `metrics.csv`, `registrations.csv`,
//!   `users.csv` (one row per user with the means and half-widths) and `resources.csv`.
//!
//! Before anything runs, the replication count and the tasks it would create are checked
//! ([`scenario::check_size`]): `--replications` outside `1 ..= 10,000`, or more than 10^9 tasks
//! in all, is an error naming the option or the scenario's key.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

use super::metrics::{Metrics, Rates, Run};
use super::record::TaskRecord;
use super::scenario::{self, Scenario};
use super::{Grid, simulate_into};
use crate::models::{self, Estimated, Head, Metric, Model, RunOptions, Table};
use crate::report::columns::{self, Column};
use crate::report::progress::{Progress, Show};
use crate::report::stats::Estimate;

/// What `--json` prints and `summary.json` holds.
#[derive(Debug, Serialize)]
struct Summary<'a> {
    #[serde(flatten)]
    head: Head<'a>,
    registrations: Table<'a, (String, String)>,
    users: Table<'a, UserSummary>,
    resources: Table<'a, (String, Option<Estimate>)>,
    metrics: Estimated,
    per_replication: &'a [Metrics],
}

/// One user's metrics over the replications.
#[derive(Debug)]
struct UserSummary {
    user: String,
    tasks: Option<Estimate>,
    missed_pct: Option<Estimate>,
    rejected_pct: Option<Estimate>,
    failed_pct: Option<Estimate>,
    backlogged_pct: Option<Estimate>,
    handled_as_be_pct: Option<Estimate>,
    delay_mean_s: Option<Estimate>,
    /// Tasks over the bound guaranteed them at their resource, over all replications.
    over_bound: u64,
}

/// The registrations: which user reserved a guarantee at which resource.
const REGISTRATION_COLUMNS: &[Column<(String, String)>] = &[
    Column::text("user", "user", |(u, _)| u.clone()),
    Column::text("resource", "resource", |(_, r)| r.clone()),
];

/// Each resource's busy CPU-seconds.
const RESOURCE_COLUMNS: &[Column<(String, Option<Estimate>)>] = &[
    Column::text("resource", "resource", |(r, _)| r.clone()),
    Column::estimate("use s", "use_s", |(_, e)| *e, 0),
];

/// The metrics of the whole grid, in order.
const SHOWN: [Metric<Metrics>; 4] = [
    Metric::new("resource use sd, s", "resource_use_sd_s", 0, |m| {
        Some(m.resource_use_sd_s)
    }),
    Metric::new(
        "delay of a computation unit, mean, s",
        "mi_delay_mean_s",
        2,
        |m| m.all.mi_delay_mean_s,
    ),
    Metric::new(
        "delay of a computation unit, sd, s",
        "mi_delay_sd_s",
        2,
        |m| m.all.mi_delay_sd_s,
    ),
    Metric::new("deadline fairness", "deadline_fairness", 4, |m| {
        Some(m.deadline_fairness)
    }),
];

/// The per-user table, in the summary's text and `users.csv`.
const USER_COLUMNS: &[Column<UserSummary>] = &[
    Column::text("user", "user", |u| u.user.clone()),
    Column::estimate("tasks", "tasks", |u| u.tasks, 0),
    Column::estimate("missed %", "missed_pct", |u| u.missed_pct, 1),
    Column::estimate("rejected %", "rejected_pct", |u| u.rejected_pct, 1),
    Column::estimate("failed %", "failed_pct", |u| u.failed_pct, 1),
    Column::estimate("backlogged %", "backlogged_pct", |u| u.backlogged_pct, 1),
    Column::estimate("as BE %", "handled_as_be_pct", |u| u.handled_as_be_pct, 1),
    Column::estimate("mean delay s", "delay_mean_s", |u| u.delay_mean_s, 1),
    Column::count("over bound", "over_bound", |u| u.over_bound),
];

/// The estimate over replications of `f` (values that are `None` in a replication are left out).
/// Simulates `scenario` (its own replications, or `opts.replications`), prints the summary
/// (or, with `opts.json`, one JSON object) and writes the files `opts` asks for.
///
/// Errors: too many replications or tasks (the option or key named), a simulation error (named
/// by its replication), a failed write (the file named).
pub fn run(scenario: &Scenario, opts: &RunOptions, out: &mut dyn Write) -> Result<()> {
    let replications = match opts.replications {
        Some(n) => {
            let problems = scenario::check_size(scenario, n, "--replications");
            if let Some(p) = problems.first() {
                anyhow::bail!("{} {n}: {}", p.path, p.message);
            }
            n
        }
        None => scenario.header.replications,
    };
    let runs = match &opts.events {
        Some(path) => simulate_writing_events(scenario, replications, path, opts.progress)?,
        None => models::replicate::<Grid>(scenario, replications, opts.progress)?,
    };
    let metrics: Vec<Metrics> = runs.iter().map(|r| Grid::metrics(scenario, r)).collect();
    let (users, resources) = tables(scenario, &metrics);
    let summary = Summary {
        head: Head::of::<Grid>(scenario, &runs),
        registrations: Table {
            name: "registrations",
            columns: REGISTRATION_COLUMNS,
            rows: runs.first().map_or(&[], |r| r.registrations.as_slice()),
        },
        users: Table {
            name: "users",
            columns: USER_COLUMNS,
            rows: &users,
        },
        resources: Table {
            name: "resources",
            columns: RESOURCE_COLUMNS,
            rows: &resources,
        },
        metrics: Estimated::of(&SHOWN, &metrics),
        per_replication: &metrics,
    };
    let files: [&dyn models::CsvFile; 4] = [
        &summary.metrics,
        &summary.registrations,
        &summary.users,
        &summary.resources,
    ];
    models::write_summary(&summary, render, &files, opts, out)
}

/// Each user's and each resource's estimates over the replications.
type Tables = (Vec<UserSummary>, Vec<(String, Option<Estimate>)>);

fn tables(scenario: &Scenario, metrics: &[Metrics]) -> Tables {
    let users = scenario
        .users
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let of = |f: &dyn Fn(&Rates) -> Option<f64>| {
                models::estimate(metrics, |m| m.users.get(i).and_then(|x| f(&x.rates)))
            };
            UserSummary {
                user: u.name.clone(),
                tasks: of(&|r| Some(r.tasks as f64)),
                missed_pct: of(&|r| r.missed_pct),
                rejected_pct: of(&|r| r.rejected_pct),
                failed_pct: of(&|r| r.failed_pct),
                backlogged_pct: of(&|r| r.backlogged_pct),
                handled_as_be_pct: of(&|r| r.handled_as_be_pct),
                delay_mean_s: of(&|r| r.delay_mean_s),
                over_bound: metrics
                    .iter()
                    .filter_map(|m| m.users.get(i))
                    .map(|x| x.rates.over_bound)
                    .sum(),
            }
        })
        .collect();
    let resources = scenario
        .resources
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let e = models::estimate(metrics, |m| m.resources.get(i).map(|x| x.busy_s));
            (r.name.clone(), e)
        })
        .collect();
    (users, resources)
}

fn render(s: &Summary) -> String {
    let regs: Vec<String> = s
        .registrations
        .rows
        .iter()
        .map(|(u, r)| format!("{u} -> {r}"))
        .collect();
    let mut text = format!(
        "{}; registrations: {}\n\
         (mean ± 95 % confidence half-width over the replications)\n\n",
        s.head,
        if regs.is_empty() {
            "none".to_owned()
        } else {
            regs.join(", ")
        }
    );
    text.push_str(&s.users.text());
    text.push('\n');
    text.push_str(&s.resources.text());
    text.push_str(&format!(
        "\nresource use sd: {} s; delay of a computation unit: mean {} s, sd {} s; \
         deadline fairness: {}\n",
        columns::shown(&s.metrics.get("resource_use_sd_s"), 0),
        columns::shown(&s.metrics.get("mi_delay_mean_s"), 2),
        columns::shown(&s.metrics.get("mi_delay_sd_s"), 2),
        columns::shown(&s.metrics.get("deadline_fairness"), 4),
    ));
    let over: u64 = s.users.rows.iter().map(|u| u.over_bound).sum();
    text.push_str(&format!(
        "GS tasks over the bound guaranteed them at their resource: {over}{}\n",
        if over == 0 {
            ""
        } else {
            " (a broken guarantee: `qosgate verify` names the first)"
        }
    ));
    text
}

/// Replications `0..n`, one after the other, each task's record written as the task ends, to a
/// temporary sibling of `path` renamed into place at the end ([`crate::output::write_file`]);
/// their progress on standard error as `show` says.
fn simulate_writing_events(
    scenario: &Scenario,
    n: u32,
    path: &Path,
    show: Show,
) -> Result<Vec<Run>> {
    let progress = Progress::new(&scenario.header.name, 0, show);
    for _ in 0..n {
        progress.plan(&[]);
    }
    let runs = crate::output::write_file(path, |w| {
        let mut runs = Vec::new();
        for k in 0..n {
            let mut write = |record: &TaskRecord| -> Result<()> {
                models::write_event(k, record, w)
                    .with_context(|| format!("writing {}", path.display()))
            };
            let run = simulate_into(scenario, k, Some(&mut write)).with_context(|| {
                format!("simulating {} (replication {k})", scenario.header.name)
            })?;
            runs.push(run);
            progress.done(&[]);
        }
        Ok(runs)
    });
    progress.finish();
    runs
}
