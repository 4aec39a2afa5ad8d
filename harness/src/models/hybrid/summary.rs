//! `qosgate run` for a hybrid-cloud scenario: every replication in parallel, then each metric
//! of [`super::metrics`] as the mean and 95 % confidence interval over the replications.
//!
//! # Outputs
//! - standard output: one row per metric; with `--json`, one JSON object with the same
//!   estimates and every replication's metrics;
//! - `--events FILE.jsonl`: one JSON object per request, in id order, replication after
//!   replication: the [`super::record::RequestRecord`] fields plus `replication`;
//! - `--out DIR`: `summary.json` (what `--json` prints) and `metrics.csv`.

use std::io::Write;

use anyhow::Result;
use serde::Serialize;

use super::Hybrid;
use super::metrics::Metrics;
use super::scenario::Scenario;
use crate::models::{self, Estimated, Head, Measured, Metric, RunOptions};

/// What `--json` prints and `summary.json` holds.
#[derive(Debug, Serialize)]
struct Summary<'a> {
    #[serde(flatten)]
    head: Head<'a>,
    p_cloud: Option<f64>,
    metrics: Estimated,
    per_replication: &'a [Metrics],
}

/// The metrics a summary shows, in order.
const SHOWN: [Metric<Metrics>; 24] = [
    Metric::new("requests", "requests", 0, |m| Some(m.requests as f64)),
    Metric::new("completed", "completed", 0, |m| Some(m.completed as f64)),
    Metric::new("unfinished", "unfinished", 0, |m| Some(m.unfinished as f64)),
    Metric::new("cloud share", "cloud_share", 3, Metrics::cloud_share),
    Metric::new("AWRT (s, Eq. 14)", "awrt_s", 1, |m| m.awrt_s),
    Metric::new("AWRT local (s)", "awrt_local_s", 1, |m| m.awrt_local_s),
    Metric::new("AWRT cloud (s)", "awrt_cloud_s", 1, |m| m.awrt_cloud_s),
    Metric::new("bounded slowdown (Eq. 15)", "slowdown", 3, |m| m.slowdown),
    Metric::new("wide (over half the cluster)", "wide", 0, |m| {
        Some(m.wide as f64)
    }),
    Metric::new("AWRT narrow (s)", "awrt_narrow_s", 1, |m| m.awrt_narrow_s),
    Metric::new("AWRT wide (s)", "awrt_wide_s", 1, |m| m.awrt_wide_s),
    Metric::new("slowdown narrow", "slowdown_narrow", 3, |m| {
        m.slowdown_narrow
    }),
    Metric::new("slowdown wide", "slowdown_wide", 3, |m| m.slowdown_wide),
    Metric::new(
        "unfinished: mean lower bound (s)",
        "unfinished_lower_s",
        1,
        |m| m.unfinished_lower_s,
    ),
    Metric::new(
        "AWRT, unfinished at lower bounds (s)",
        "awrt_with_unfinished_s",
        1,
        |m| m.awrt_with_unfinished_s,
    ),
    Metric::new(
        "slowdown, unfinished at lower bounds",
        "slowdown_with_unfinished",
        3,
        |m| m.slowdown_with_unfinished,
    ),
    Metric::new(
        "AWRT narrow, unfinished at lower bounds (s)",
        "awrt_narrow_with_unfinished_s",
        1,
        |m| m.awrt_narrow_with_unfinished_s,
    ),
    Metric::new(
        "AWRT wide, unfinished at lower bounds (s)",
        "awrt_wide_with_unfinished_s",
        1,
        |m| m.awrt_wide_with_unfinished_s,
    ),
    Metric::new(
        "slowdown narrow, unfinished at lower bounds",
        "slowdown_narrow_with_unfinished",
        3,
        |m| m.slowdown_narrow_with_unfinished,
    ),
    Metric::new(
        "slowdown wide, unfinished at lower bounds",
        "slowdown_wide_with_unfinished",
        3,
        |m| m.slowdown_wide_with_unfinished,
    ),
    Metric::new("interruptions", "interruptions", 0, |m| {
        Some(m.interruptions as f64)
    }),
    Metric::new("cloud VM-hours", "cloud_vm_hours", 0, |m| {
        Some(m.cloud_vm_hours as f64)
    }),
    Metric::new("EC2 cost (USD, Eq. 19)", "cost_usd", 2, |m| {
        Some(m.cost_usd)
    }),
    Metric::new("EC2 cost per month (USD)", "cost_per_month_usd", 2, |m| {
        Some(m.cost_per_month_usd)
    }),
];

/// Simulates `scenario` (its own replications, or `opts.replications`), prints the summary (or,
/// with `opts.json`, one JSON object) and writes the files `opts` asks for.
///
/// Errors: a simulation error (named by its replication), a failed write (the file named).
pub fn run(scenario: &Scenario, opts: &RunOptions, out: &mut dyn Write) -> Result<()> {
    let mut p_cloud = None;
    let m = Measured::<Hybrid>::of(scenario, scenario.header.replications, opts, |_, r| {
        p_cloud.get_or_insert(r.p_cloud);
    })?;
    let summary = Summary {
        head: m.head(scenario),
        p_cloud,
        metrics: Estimated::of(&SHOWN, &m.metrics),
        per_replication: &m.metrics,
    };
    models::write_summary(&summary, render, &[&summary.metrics], opts, out)
}

fn render(s: &Summary) -> String {
    let mut text = format!(
        "{}; routing P_c = {}\n\
         (mean ± 95 % confidence half-width over the replications)\n\n",
        s.head,
        s.p_cloud.map_or_else(|| "-".into(), |p| format!("{p:.4}")),
    );
    text.push_str(&s.metrics.text());
    text
}
