//! What a federation run records: one [`Record`] per request (external or local) with its one
//! outcome and reason, one [`ClusterAccount`] per cluster, and the gateway's split.
//!
//! # Accounts
//! Every request ends exactly once: `completed`, `rejected` or `cancelled`, and the reason says
//! where and why. A request is one kernel lease per cluster it visits (`clusters`): a Migratable
//! lease that is migrated ends `Migrated` at the cluster it leaves and is submitted again at the
//! next, so every visit but the last ends migrated, and the last ends as the request does (a
//! request refused before it got a lease, a full cluster, visits it without a lease). A
//! best-effort lease a local request withdrew from a full cluster (it never ran) is not a
//! visit: the request went back to the gateway's queue for that cluster and visits it when it
//! is submitted again. Per cluster, [`ClusterAccount`] counts the leases by how they ended, and
//! `leases = completed + rejected + cancelled + migrated + withdrawn` ([`Run::check`] holds the
//! records and the accounts to it, and to the kernel's own counts).

use std::fmt;

use anyhow::{Result, ensure};
use serde::Serialize;

/// A request's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Type {
    /// A cluster's local request (Non-preemptable, priority over external leases).
    Local,
    /// External, best effort, cancelled when preempted.
    Cancelable,
    /// External, best effort, suspended and resumed.
    Suspendable,
    /// External, deadline-constrained, migrated when preempted.
    Migratable,
    /// External, deadline-constrained, never preempted.
    NonPreemptable,
}

impl Type {
    /// Every type, in order.
    pub const ALL: [Type; 5] = [
        Type::Local,
        Type::Cancelable,
        Type::Suspendable,
        Type::Migratable,
        Type::NonPreemptable,
    ];

    /// The external types, in RTDP's type order.
    pub const EXTERNAL: [Type; 4] = [
        Type::Cancelable,
        Type::Suspendable,
        Type::Migratable,
        Type::NonPreemptable,
    ];

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Type::Local => "local",
            Type::Cancelable => "cancelable",
            Type::Suspendable => "suspendable",
            Type::Migratable => "migratable",
            Type::NonPreemptable => "non-preemptable",
        }
    }

    /// Whether it is best effort (AWRT's leases: salehi2012 Sec. 5.1.3).
    pub fn is_best_effort(self) -> bool {
        matches!(self, Type::Cancelable | Type::Suspendable)
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// It ran all its duration (across suspensions and migrations).
    Completed,
    /// It never got to run (or, migrated, could not run its rest by its deadline).
    Rejected,
    /// It was cancelled by a preemption.
    Cancelled,
}

impl Outcome {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Completed => "completed",
            Outcome::Rejected => "rejected",
            Outcome::Cancelled => "cancelled",
        }
    }
}

/// One request and what became of it. Times in seconds from the start of the run; the
/// serialised keys follow docs/outputs.md.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Record {
    /// Its number, in order of arrival (external and local together).
    pub request: u64,
    /// Its type (`type` in the outputs).
    #[serde(rename = "type")]
    pub kind: Type,
    /// Arrival (at the gateway, or at its cluster for a local request).
    pub arrival: f64,
    /// VMs.
    pub nodes: u32,
    /// Requested duration, seconds.
    #[serde(rename = "duration_s")]
    pub duration: f64,
    /// The deadline of a deadline-constrained external request.
    pub deadline: Option<f64>,
    /// The clusters it went to, in order (indices).
    pub clusters: Vec<usize>,
    /// When it first ran.
    pub start: Option<f64>,
    /// When it ended.
    pub end: f64,
    /// How.
    pub outcome: Outcome,
    /// Why, in words.
    pub reason: String,
    /// Whether its last cluster refused it a lease (it was full): then it is rejected there
    /// without a kernel lease.
    pub refused: bool,
    /// Times it was preempted.
    pub preemptions: u32,
    /// Times it was migrated.
    pub migrations: u32,
    /// Times a local request withdrew its lease, unstarted, from a full cluster.
    pub withdrawals: u32,
    /// Node-seconds its preemptions cost (nodes x the per-VM action time).
    pub overhead_node_s: f64,
}

/// One cluster's leases by how they ended, and what they did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ClusterAccount {
    /// Leases the cluster's manager accepted (rejections included).
    pub leases: u64,
    /// Requests refused before they got a lease (the cluster was full).
    pub refused: u64,
    /// Ended completed.
    pub completed: u64,
    /// Ended rejected by the kernel.
    pub rejected: u64,
    /// Ended cancelled (preempted).
    pub cancelled: u64,
    /// Ended migrated away.
    pub migrated: u64,
    /// Withdrawn, never started, to make room for a local request (the kernel counts them
    /// cancelled by the caller); each request went back to the gateway's queue.
    pub withdrawn: u64,
    /// Preemptions decided here.
    pub preemptions: u64,
    /// VMs preempted here (each preemption counts its lease's nodes).
    pub vms_preempted: u64,
    /// Node-seconds the preemptions cost (Eq. 21's overhead).
    pub overhead_node_s: f64,
    /// Node-seconds of the requests that first ran here, each its nodes x its duration (Eq.
    /// 22's computation time; a migrated request counts once, where it started).
    pub computation_node_s: f64,
    /// Node-seconds of work the leases did here.
    pub work_node_s: f64,
    /// Node-seconds of work the leases did here before the horizon.
    pub window_work_node_s: f64,
}

/// One replication.
#[derive(Debug, Clone, Default)]
pub struct Run {
    /// Every request, by number.
    pub records: Vec<Record>,
    /// Every cluster's account, by index.
    pub clusters: Vec<ClusterAccount>,
    /// Nodes of each cluster.
    pub nodes: Vec<u32>,
    /// The gateway's shares of the external rate, by cluster.
    pub shares: Vec<f64>,
    /// How the gateway's split departed from its policy (a saturated or infeasible PAP input),
    /// if it did.
    pub fallback: Option<String>,
    /// When the last lease ended, seconds.
    pub makespan: f64,
    /// The scenario's horizon (arrivals fall before it), seconds.
    pub horizon: f64,
    /// Events processed.
    pub events: u64,
}

impl Run {
    /// The accounts add up: every request ended once (records are numbered `0..n`); per
    /// cluster, the leases equal the visits of the records, the migrations the visits followed
    /// by another, each outcome the last visits that ended so; `leases = completed + rejected +
    /// cancelled + migrated + withdrawn`, and the withdrawals are the records'.
    ///
    /// Errors: the first account that does not add up, named.
    pub fn check(&self) -> Result<()> {
        for (i, r) in self.records.iter().enumerate() {
            ensure!(r.request == i as u64, "record {i} is request {}", r.request);
            ensure!(
                r.migrations as usize + 1 == r.clusters.len().max(1),
                "request {i}: {} migrations across {} clusters",
                r.migrations,
                r.clusters.len()
            );
        }
        for (j, a) in self.clusters.iter().enumerate() {
            let mut want = ClusterAccount::default();
            for r in &self.records {
                for (v, &c) in r.clusters.iter().enumerate() {
                    if c != j {
                        continue;
                    }
                    let last = v + 1 == r.clusters.len();
                    if last && r.refused {
                        want.refused += 1;
                        continue;
                    }
                    want.leases += 1;
                    match (last, r.outcome) {
                        (false, _) => want.migrated += 1,
                        (true, Outcome::Completed) => want.completed += 1,
                        (true, Outcome::Rejected) => want.rejected += 1,
                        (true, Outcome::Cancelled) => want.cancelled += 1,
                    }
                }
            }
            // Withdrawn leases are not visits (the request visits the cluster again).
            want.leases += a.withdrawn;
            let got = (
                a.leases,
                a.refused,
                a.completed,
                a.rejected,
                a.cancelled,
                a.migrated,
            );
            let counted = (
                want.leases,
                want.refused,
                want.completed,
                want.rejected,
                want.cancelled,
                want.migrated,
            );
            ensure!(
                got == counted,
                "cluster {j}: (leases, refused, completed, rejected, cancelled, migrated) are \
                 {got:?}, the records say {counted:?}"
            );
            let ended = a.completed + a.rejected + a.cancelled + a.migrated + a.withdrawn;
            ensure!(
                a.leases == ended,
                "cluster {j}: {} leases but {ended} ended",
                a.leases,
            );
        }
        let withdrawn: u64 = self.clusters.iter().map(|a| a.withdrawn).sum();
        let withdrawals: u64 = self.records.iter().map(|r| u64::from(r.withdrawals)).sum();
        ensure!(
            withdrawn == withdrawals,
            "the clusters withdrew {withdrawn} leases, the records say {withdrawals}"
        );
        Ok(())
    }
}
