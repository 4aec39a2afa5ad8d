//! `qosgate run`: one scenario (a TOML file or a built-in preset), every replication in
//! parallel, a summary of the metrics of seed 004 Sec. 6.3 (mean and 95 % confidence interval
//! over the replications), and optionally the event log.
//!
//! # Outputs
//! - standard output: a table per user (tasks, deadline misses, failed, backlogged, handled as
//!   BE, mean delay) and per resource (use), then the per-MI delay and the deadline fairness; or,
//!   with `--json`, one JSON object with the same numbers, the registrations and every
//!   replication's metrics;
//! - `--events FILE.jsonl`: one JSON object per task, in the order the tasks ended (by the
//!   instant they ended, then task number), replication after replication: the
//!   [`TaskRecord`] fields plus `replication`;
//! - `--out DIR`: `summary.json` (what `--json` prints) and `users.csv` (one row per user with
//!   the means and half-widths).

use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

use super::Grid;
use super::metrics::{Metrics, Rates};
use super::record::{Run, TaskRecord};
use super::scenario::Scenario;
use crate::models::{self, Model, RunOptions};
use crate::report::stats::Estimate;
use crate::report::table::{Align, table};

/// What `--json` prints and `summary.json` holds.
#[derive(Debug, Serialize)]
struct Summary<'a> {
    scenario: &'a str,
    replications: u32,
    seed: u64,
    registrations: &'a [(String, String)],
    events: u64,
    users: Vec<UserSummary>,
    resources: Vec<(String, Option<Estimate>)>,
    resource_use_sd_s: Option<Estimate>,
    mi_delay_mean_s: Option<Estimate>,
    mi_delay_sd_s: Option<Estimate>,
    deadline_fairness: Option<Estimate>,
    per_replication: &'a [Metrics],
}

/// One user's metrics over the replications.
#[derive(Debug, Serialize)]
struct UserSummary {
    user: String,
    tasks: Option<Estimate>,
    missed_pct: Option<Estimate>,
    failed_pct: Option<Estimate>,
    backlogged_pct: Option<Estimate>,
    handled_as_be_pct: Option<Estimate>,
    delay_mean_s: Option<Estimate>,
}

/// One event-log line.
#[derive(Serialize)]
struct Line<'a> {
    replication: u32,
    #[serde(flatten)]
    record: &'a TaskRecord,
}

/// The estimate over replications of `f` (values that are `None` in a replication are left out).
fn over(runs: &[Metrics], f: impl Fn(&Metrics) -> Option<f64>) -> Option<Estimate> {
    let xs: Vec<f64> = runs.iter().filter_map(f).collect();
    Estimate::of(&xs)
}

/// Simulates `scenario` (its own replications, or `opts.replications`), prints the summary
/// (or, with `opts.json`, one JSON object) and writes the files `opts` asks for.
///
/// Errors: a simulation error (named by its replication), a failed write (the file named).
pub fn run(scenario: &Scenario, opts: &RunOptions, out: &mut dyn Write) -> Result<()> {
    let replications = opts.replications.unwrap_or(scenario.replications).max(1);
    let runs = models::replicate::<Grid>(scenario, replications)?;
    let metrics: Vec<Metrics> = runs.iter().map(|r| Grid::metrics(scenario, r)).collect();
    if let Some(path) = &opts.events {
        write_events(path, &runs)?;
    }
    let summary = summarize(scenario, replications, &runs, &metrics);
    if let Some(dir) = &opts.out {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        write_users_csv(&dir.join("users.csv"), &summary.users)?;
    }
    models::emit(&summary, render, opts, out)
}

fn summarize<'a>(
    scenario: &'a Scenario,
    replications: u32,
    runs: &'a [Run],
    metrics: &'a [Metrics],
) -> Summary<'a> {
    let users = scenario
        .users
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let of = |f: &dyn Fn(&Rates) -> Option<f64>| {
                over(metrics, |m| m.users.get(i).and_then(|x| f(&x.rates)))
            };
            UserSummary {
                user: u.name.clone(),
                tasks: of(&|r| Some(r.tasks as f64)),
                missed_pct: of(&|r| r.missed_pct),
                failed_pct: of(&|r| r.failed_pct),
                backlogged_pct: of(&|r| r.backlogged_pct),
                handled_as_be_pct: of(&|r| r.handled_as_be_pct),
                delay_mean_s: of(&|r| r.delay_mean_s),
            }
        })
        .collect();
    let resources = scenario
        .resources
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let e = over(metrics, |m| m.resources.get(i).map(|x| x.busy_s));
            (r.name.clone(), e)
        })
        .collect();
    Summary {
        scenario: &scenario.name,
        replications,
        seed: scenario.seed,
        registrations: runs.first().map_or(&[], |r| r.registrations.as_slice()),
        events: runs.iter().map(|r| r.events).sum(),
        users,
        resources,
        resource_use_sd_s: over(metrics, |m| Some(m.resource_use_sd_s)),
        mi_delay_mean_s: over(metrics, |m| m.all.mi_delay_mean_s),
        mi_delay_sd_s: over(metrics, |m| m.all.mi_delay_sd_s),
        deadline_fairness: over(metrics, |m| Some(m.deadline_fairness)),
        per_replication: metrics,
    }
}

fn show(e: &Option<Estimate>, decimals: usize) -> String {
    e.as_ref()
        .map_or_else(|| "-".to_owned(), |e| e.show(decimals))
}

fn render(s: &Summary) -> String {
    let regs: Vec<String> = s
        .registrations
        .iter()
        .map(|(u, r)| format!("{u} -> {r}"))
        .collect();
    let mut text = format!(
        "{}: {} replication(s) from seed {}, {} events; registrations: {}\n\
         (mean ± 95 % confidence half-width over the replications)\n\n",
        s.scenario,
        s.replications,
        s.seed,
        s.events,
        if regs.is_empty() {
            "none".to_owned()
        } else {
            regs.join(", ")
        }
    );
    let rows: Vec<Vec<String>> = s
        .users
        .iter()
        .map(|u| {
            vec![
                u.user.clone(),
                show(&u.tasks, 0),
                show(&u.missed_pct, 1),
                show(&u.failed_pct, 1),
                show(&u.backlogged_pct, 1),
                show(&u.handled_as_be_pct, 1),
                show(&u.delay_mean_s, 1),
            ]
        })
        .collect();
    text.push_str(&table(
        &[
            ("user", Align::Left),
            ("tasks", Align::Right),
            ("missed %", Align::Right),
            ("failed %", Align::Right),
            ("backlogged %", Align::Right),
            ("as BE %", Align::Right),
            ("mean delay s", Align::Right),
        ],
        &rows,
    ));
    text.push('\n');
    let rows: Vec<Vec<String>> = s
        .resources
        .iter()
        .map(|(r, e)| vec![r.clone(), show(e, 0)])
        .collect();
    text.push_str(&table(
        &[("resource", Align::Left), ("use s", Align::Right)],
        &rows,
    ));
    text.push_str(&format!(
        "\nresource use sd: {} s; delay of a computation unit: mean {} s, sd {} s; \
         deadline fairness: {}\n",
        show(&s.resource_use_sd_s, 0),
        show(&s.mi_delay_mean_s, 2),
        show(&s.mi_delay_sd_s, 2),
        show(&s.deadline_fairness, 4),
    ));
    text
}

fn write_events(path: &Path, runs: &[Run]) -> Result<()> {
    let lines = runs.iter().enumerate().flat_map(|(k, run)| {
        let mut order: Vec<&TaskRecord> = run.records.iter().collect();
        order.sort_by(|a, b| a.ended().total_cmp(&b.ended()).then(a.task.cmp(&b.task)));
        order.into_iter().map(move |record| Line {
            replication: k as u32,
            record,
        })
    });
    models::write_json_lines(path, lines)
}

fn write_users_csv(path: &Path, users: &[UserSummary]) -> Result<()> {
    let cell = |e: &Option<Estimate>| match e {
        Some(e) => format!("{},{}", e.mean, e.half_width.unwrap_or(0.0)),
        None => ",".to_owned(),
    };
    let mut text = String::from(
        "user,tasks,tasks_hw,missed_pct,missed_pct_hw,failed_pct,failed_pct_hw,backlogged_pct,\
         backlogged_pct_hw,handled_as_be_pct,handled_as_be_pct_hw,delay_mean_s,delay_mean_s_hw\n",
    );
    for u in users {
        text.push_str(&format!(
            "{},{},{},{},{},{},{}\n",
            u.user,
            cell(&u.tasks),
            cell(&u.missed_pct),
            cell(&u.failed_pct),
            cell(&u.backlogged_pct),
            cell(&u.handled_as_be_pct),
            cell(&u.delay_mean_s)
        ));
    }
    fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}
