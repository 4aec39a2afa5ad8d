//! `qosgate run` for a hybrid-cloud scenario: every replication in parallel, then each metric
//! of [`super::metrics`] as the mean and 95 % confidence interval over the replications.
//!
//! # Outputs
//! - standard output: one row per metric; with `--json`, one JSON object with the same
//!   estimates and every replication's metrics;
//! - `--events FILE.jsonl`: one JSON object per request, in id order, replication after
//!   replication: the [`super::record::RequestRecord`] fields plus `replication`;
//! - `--out DIR`: `summary.json` (what `--json` prints).

use std::io::Write;

use anyhow::Result;
use serde::Serialize;

use super::Hybrid;
use super::metrics::Metrics;
use super::scenario::Scenario;
use crate::models::{self, Head, Measured, RunOptions};
use crate::report::stats::Estimate;
use crate::report::table::{Align, table};

/// What `--json` prints and `summary.json` holds.
#[derive(Debug, Serialize)]
struct Summary<'a> {
    #[serde(flatten)]
    head: Head<'a>,
    p_cloud: Option<f64>,
    /// `(metric, estimate)` in the order of the printed table.
    metrics: Vec<(&'static str, Option<Estimate>)>,
    per_replication: &'a [Metrics],
}

/// The metrics a summary shows: name, decimals, value.
type Shown = (&'static str, usize, fn(&Metrics) -> Option<f64>);

const SHOWN: [Shown; 15] = [
    ("requests", 0, |m| Some(m.requests as f64)),
    ("completed", 0, |m| Some(m.completed as f64)),
    ("unfinished", 0, |m| Some(m.unfinished as f64)),
    ("cloud share", 3, Metrics::cloud_share),
    ("AWRT (s, Eq. 14)", 1, |m| m.awrt_s),
    ("AWRT local (s)", 1, |m| m.awrt_local_s),
    ("AWRT cloud (s)", 1, |m| m.awrt_cloud_s),
    ("bounded slowdown (Eq. 15)", 3, |m| m.slowdown),
    ("unfinished: mean lower bound (s)", 1, |m| {
        m.unfinished_lower_s
    }),
    ("AWRT, unfinished at lower bounds (s)", 1, |m| {
        m.awrt_with_unfinished_s
    }),
    ("slowdown, unfinished at lower bounds", 3, |m| {
        m.slowdown_with_unfinished
    }),
    ("interruptions", 0, |m| Some(m.interruptions as f64)),
    ("cloud VM-hours", 0, |m| Some(m.cloud_vm_hours as f64)),
    ("EC2 cost (USD, Eq. 19)", 2, |m| Some(m.cost_usd)),
    ("EC2 cost per month (USD)", 2, |m| {
        Some(m.cost_per_month_usd)
    }),
];

/// Simulates `scenario` (its own replications, or `opts.replications`), prints the summary (or,
/// with `opts.json`, one JSON object) and writes the files `opts` asks for.
///
/// Errors: a simulation error (named by its replication), a failed write (the file named).
pub fn run(scenario: &Scenario, opts: &RunOptions, out: &mut dyn Write) -> Result<()> {
    let m = Measured::<Hybrid>::of(scenario, scenario.header.replications, opts)?;
    if let Some(path) = &opts.events {
        models::write_events(path, m.runs.iter().map(|r| &r.records))?;
    }
    let summary = Summary {
        head: m.head(scenario),
        p_cloud: m.runs.first().map(|r| r.p_cloud),
        metrics: SHOWN
            .iter()
            .map(|&(name, _, f)| (name, models::estimate(&m.metrics, f)))
            .collect(),
        per_replication: &m.metrics,
    };
    models::write_summary(&summary, render, |_| Ok(()), opts, out)
}

fn render(s: &Summary) -> String {
    let mut text = format!(
        "{}; routing P_c = {}\n\
         (mean ± 95 % confidence half-width over the replications)\n\n",
        s.head,
        s.p_cloud.map_or_else(|| "-".into(), |p| format!("{p:.4}")),
    );
    let rows: Vec<Vec<String>> = s
        .metrics
        .iter()
        .zip(SHOWN)
        .map(|((name, e), (_, decimals, _))| {
            vec![
                (*name).to_owned(),
                e.map_or_else(|| "-".to_owned(), |e| e.show(decimals)),
            ]
        })
        .collect();
    text.push_str(&table(
        &[("metric", Align::Left), ("value", Align::Right)],
        &rows,
    ));
    text
}
