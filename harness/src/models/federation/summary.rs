//! `qosgate run` for a federation scenario: every replication in parallel, then the gateway's
//! split, the metrics (mean and 95 % confidence interval over the replications) and each
//! cluster's and type's accounts.
//!
//! # Outputs
//! - standard output: the split (each cluster's share of the external rate, and the flag if the
//!   gateway fell back from its policy), the metrics of [`super::metrics`], a table per cluster
//!   (leases by how they ended, preemptions, VMs preempted) and per type (requests by outcome),
//!   summed over the replications; or, with `--json`, one JSON object with the same and every
//!   replication's metrics;
//! - `--events FILE.jsonl`: one JSON object per request ([`Record`](super::record::Record) plus
//!   `replication`), in
//!   request order, replication after replication;
//! - `--out DIR`: `summary.json` (what `--json` prints), `metrics.csv`, `shares.csv`,
//!   `clusters.csv` and `types.csv`.

use std::io::Write;

use anyhow::Result;
use serde::Serialize;

use super::Federation;
use super::metrics::Metrics;
use super::record::{ClusterAccount, Outcome, Run, Type};
use super::scenario::Scenario;
use crate::models::{self, Estimated, Head, Measured, Metric, RunOptions, Table};
use crate::report::columns::Column;

/// What `--json` prints and `summary.json` holds.
#[derive(Debug, Serialize)]
struct Summary<'a> {
    #[serde(flatten)]
    head: Head<'a>,
    shares: Table<'a, (String, f64)>,
    fallback: Option<&'a str>,
    metrics: Estimated,
    clusters: Table<'a, (String, ClusterAccount)>,
    types: Table<'a, TypeCount>,
    per_replication: &'a [Metrics],
}

/// The gateway's split: each cluster's share of the external arrival rate.
const SHARE_COLUMNS: &[Column<(String, f64)>] = &[
    Column::text("cluster", "cluster", |(c, _)| c.clone()),
    Column::number("share", "share", |&(_, s)| Some(s), 3),
];

/// One type's requests by outcome, over every replication.
#[derive(Debug, Serialize)]
struct TypeCount {
    kind: Type,
    requests: u64,
    completed: u64,
    rejected: u64,
    cancelled: u64,
}

/// The per-cluster table: every count over every replication.
const CLUSTER_COLUMNS: &[Column<(String, ClusterAccount)>] = &[
    Column::text("cluster", "cluster", |(c, _)| c.clone()),
    Column::count("leases", "leases", |(_, a)| a.leases),
    Column::count("completed", "completed", |(_, a)| a.completed),
    Column::count("rejected", "rejected", |(_, a)| a.rejected),
    Column::count("cancelled", "cancelled", |(_, a)| a.cancelled),
    Column::count("migrated", "migrated", |(_, a)| a.migrated),
    Column::count("full", "refused_full", |(_, a)| a.refused),
    Column::count("withdrawn", "withdrawn", |(_, a)| a.withdrawn),
    Column::count("preemptions", "preemptions", |(_, a)| a.preemptions),
    Column::count("VMs preempted", "vms_preempted", |(_, a)| a.vms_preempted),
];

/// The per-type table: every count over every replication.
const TYPE_COLUMNS: &[Column<TypeCount>] = &[
    Column::text("type", "type", |t| t.kind.name().to_owned()),
    Column::count("requests", "requests", |t| t.requests),
    Column::count("completed", "completed", |t| t.completed),
    Column::count("rejected", "rejected", |t| t.rejected),
    Column::count("cancelled", "cancelled", |t| t.cancelled),
];

/// Simulates `scenario` (its own replications, or `opts.replications`), prints the summary
/// (or, with `opts.json`, one JSON object) and writes the files `opts` asks for.
///
/// Errors: a simulation error (named by its replication), a failed write (the file named).
pub fn run(scenario: &Scenario, opts: &RunOptions, out: &mut dyn Write) -> Result<()> {
    let mut tally = Tally::new(scenario);
    let m = Measured::<Federation>::of(scenario, scenario.header.replications, opts, |_, run| {
        tally.add(scenario, run);
    })?;
    let Tally {
        shares,
        fallback,
        clusters,
        types,
    } = tally;
    let summary = Summary {
        head: m.head(scenario),
        shares: Table {
            name: "shares",
            columns: SHARE_COLUMNS,
            rows: &shares,
        },
        fallback: fallback.as_deref(),
        metrics: Estimated::of(&SHOWN, &m.metrics),
        clusters: Table {
            name: "clusters",
            columns: CLUSTER_COLUMNS,
            rows: &clusters,
        },
        types: Table {
            name: "types",
            columns: TYPE_COLUMNS,
            rows: &types,
        },
        per_replication: &m.metrics,
    };
    let files: [&dyn models::CsvFile; 4] = [
        &summary.metrics,
        &summary.shares,
        &summary.clusters,
        &summary.types,
    ];
    models::write_summary(&summary, render, &files, opts, out)
}

/// The named metrics, in the order they are printed.
const SHOWN: [Metric<Metrics>; 15] = [
    Metric::new("VMs preempted", "vms_preempted", 2, |m| {
        Some(m.vms_preempted as f64)
    }),
    Metric::new("leases preempted", "leases_preempted", 2, |m| {
        Some(m.leases_preempted as f64)
    }),
    Metric::new(
        "VMs preempted per 1,000 VM-h",
        "vms_preempted_per_kvmh",
        2,
        |m| m.vms_preempted_per_kvmh,
    ),
    Metric::new(
        "leases preempted per 1,000 VM-h",
        "leases_preempted_per_kvmh",
        2,
        |m| m.leases_preempted_per_kvmh,
    ),
    Metric::new("utilization (Eq. 21) %", "utilization_pct", 2, |m| {
        m.utilization
    }),
    Metric::new("occupancy %", "occupancy_pct", 2, |m| m.occupancy),
    Metric::new("AWRT (Eq. 23-24) s", "awrt_s", 2, |m| m.awrt_s),
    Metric::new("Migratable migrated %", "migration_pct", 2, |m| {
        m.migration_pct
    }),
    Metric::new("migrations", "migrations", 2, |m| Some(m.migrations as f64)),
    Metric::new("Non-preemptable rejected %", "rejection_pct", 2, |m| {
        m.rejection_pct
    }),
    Metric::new("local rejected %", "local_rejection_pct", 2, |m| {
        m.local_rejection_pct
    }),
    Metric::new("external response time s", "response_s", 2, |m| {
        m.response_s
    }),
    Metric::new("refused for space %", "refused_pct", 2, |m| m.refused_pct),
    Metric::new("local refused for space", "local_refused", 2, |m| {
        Some(m.local_refused as f64)
    }),
    Metric::new("withdrawals", "withdrawals", 2, |m| {
        Some(m.withdrawals as f64)
    }),
];

/// The split and the fallback (the first replication's: the same in every one), the
/// per-cluster accounts and the per-type counts summed over the replications, as each ends.
struct Tally {
    shares: Vec<(String, f64)>,
    fallback: Option<String>,
    clusters: Vec<(String, ClusterAccount)>,
    types: Vec<TypeCount>,
}

impl Tally {
    fn new(scenario: &Scenario) -> Self {
        Self {
            shares: Vec::new(),
            fallback: None,
            clusters: scenario
                .clusters
                .iter()
                .map(|c| (c.name.clone(), ClusterAccount::default()))
                .collect(),
            types: Type::ALL
                .iter()
                .map(|&kind| TypeCount {
                    kind,
                    requests: 0,
                    completed: 0,
                    rejected: 0,
                    cancelled: 0,
                })
                .collect(),
        }
    }

    fn add(&mut self, scenario: &Scenario, run: &Run) {
        if self.shares.is_empty() {
            self.shares = scenario
                .clusters
                .iter()
                .zip(&run.shares)
                .map(|(c, &s)| (c.name.clone(), s))
                .collect();
            self.fallback.clone_from(&run.fallback);
        }
        for ((_, sum), a) in self.clusters.iter_mut().zip(&run.clusters) {
            sum.leases += a.leases;
            sum.refused += a.refused;
            sum.completed += a.completed;
            sum.rejected += a.rejected;
            sum.cancelled += a.cancelled;
            sum.migrated += a.migrated;
            sum.preemptions += a.preemptions;
            sum.vms_preempted += a.vms_preempted;
            sum.overhead_node_s += a.overhead_node_s;
            sum.computation_node_s += a.computation_node_s;
            sum.work_node_s += a.work_node_s;
        }
        for r in &run.records {
            if let Some(t) = self.types.iter_mut().find(|t| t.kind == r.kind) {
                t.requests += 1;
                match r.outcome {
                    Outcome::Completed => t.completed += 1,
                    Outcome::Rejected => t.rejected += 1,
                    Outcome::Cancelled => t.cancelled += 1,
                }
            }
        }
    }
}

fn render(s: &Summary) -> String {
    let shares: Vec<String> = s
        .shares
        .rows
        .iter()
        .map(|(c, x)| format!("{c} {:.1} %", 100.0 * x))
        .collect();
    let mut text = format!("{}\ngateway split: {}\n", s.head, shares.join(", "));
    if let Some(f) = s.fallback {
        text.push_str(&format!("fallback: {f}\n"));
    }
    text.push_str("(mean ± 95 % confidence half-width over the replications)\n\n");
    text.push_str(&s.metrics.text());
    text.push_str("\nper cluster, over every replication:\n");
    text.push_str(&s.clusters.text());
    text.push_str("\nper type, over every replication:\n");
    text.push_str(&s.types.text());
    text
}
