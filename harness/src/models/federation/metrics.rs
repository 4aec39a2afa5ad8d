//! The papers' metrics of one replication, computed from its records and accounts only.
//!
//! | field | definition |
//! | --- | --- |
//! | `vms_preempted` | VM preemptions: each preemption counts its lease's VMs (salehi2012 Sec. 5.1.1, Fig. 5) |
//! | `leases_preempted` | lease preemptions (salehi2011 Fig. 3) |
//! | `utilization` | Eq. 21: `(1 - sum overhead_j / sum computationTime_j) x 100`; the overhead is each preemption's VMs x its per-VM time (`t_c`, `t_s + t_r`, `t_m`), Eq. 22's computation time each request's VMs x its duration, once, at the cluster where it first ran (a migrated request's remaining work is not counted again); `None` without a lease |
//! | `vms_preempted_per_kvmh`, `leases_preempted_per_kvmh` | the same per 1,000 VM-hours of completed external requests (their VMs x durations): a policy that runs less work is not rewarded with fewer preemptions; `None` with none completed |
//! | `occupancy` | VM-time of work done before the horizon / (`sum M_j` x the horizon), %: a fixed window, the same for every policy (erratum E13: Eq. 21 subtracts overheads and can go negative) |
//! | `awrt_s` | Eq. 23-24 over the completed best-effort requests: per cluster (where each ended) `sum v d (c - b) / sum v d`, `b` the arrival at the gateway, `c` the completion; then weighted by `M_j` over the clusters that completed one; seconds |
//! | `migration_pct` | % of Migratable requests migrated at least once (E13); `migrations` counts every migration |
//! | `rejection_pct` | % of Non-preemptable external requests rejected (salehi2012 Sec. 5.1.1) |
//! | `local_rejection_pct` | % of local requests rejected |
//! | `response_s` | mean response time (completion - arrival) of the completed external requests (Fig. 4, Eq. 2) |
//! | `refused`, `local_refused` | requests (all, local) refused a lease because their cluster's table was full of leases a local request may not withdraw ([`super::world`]) |
//! | `refused_pct` | `refused` as % of the requests |
//! | `withdrawals` | best-effort leases withdrawn, unstarted, for a local request (each went back to the gateway's queue) |
//! | `fallback` | whether the gateway's split fell back from its policy ([`super::gateway`]) |

use serde::{Deserialize, Serialize};

use super::record::{Outcome, Run, Type};

/// The metrics of one replication (module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Requests, external and local.
    pub requests: u64,
    /// External requests.
    pub external: u64,
    /// VM preemptions.
    pub vms_preempted: u64,
    /// Lease preemptions.
    pub leases_preempted: u64,
    /// VM preemptions per 1,000 VM-hours of completed external requests.
    pub vms_preempted_per_kvmh: Option<f64>,
    /// Lease preemptions per 1,000 VM-hours of completed external requests.
    pub leases_preempted_per_kvmh: Option<f64>,
    /// Eq. 21, %.
    #[serde(rename = "utilization_pct", alias = "utilization")]
    pub utilization: Option<f64>,
    /// Useful VM-time over capacity, %.
    #[serde(rename = "occupancy_pct", alias = "occupancy")]
    pub occupancy: Option<f64>,
    /// Eq. 23-24, seconds.
    pub awrt_s: Option<f64>,
    /// % of Migratable requests migrated at least once.
    pub migration_pct: Option<f64>,
    /// Migrations.
    pub migrations: u64,
    /// % of Non-preemptable external requests rejected.
    pub rejection_pct: Option<f64>,
    /// % of local requests rejected.
    pub local_rejection_pct: Option<f64>,
    /// Mean response time of completed external requests, seconds.
    pub response_s: Option<f64>,
    /// Requests refused a lease for space.
    pub refused: u64,
    /// Local requests refused a lease for space.
    pub local_refused: u64,
    /// `refused` as % of the requests.
    pub refused_pct: Option<f64>,
    /// Best-effort leases withdrawn for local requests.
    pub withdrawals: u64,
    /// Whether the gateway's split fell back from its policy.
    pub fallback: bool,
}

/// `part / whole` in %, or `None` with no whole.
fn pct(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| 100.0 * part as f64 / whole as f64)
}

impl Metrics {
    /// The metrics of `run`.
    pub fn compute(run: &Run) -> Self {
        let of = |t: Type| run.records.iter().filter(move |r| r.kind == t);
        let external: Vec<_> = run
            .records
            .iter()
            .filter(|r| r.kind != Type::Local)
            .collect();
        let overhead: f64 = run.clusters.iter().map(|a| a.overhead_node_s).sum();
        let computation: f64 = run.clusters.iter().map(|a| a.computation_node_s).sum();
        let work: f64 = run.clusters.iter().map(|a| a.window_work_node_s).sum();
        let elements: f64 = run.nodes.iter().map(|&n| f64::from(n)).sum();
        let migratable: Vec<_> = of(Type::Migratable).collect();
        let np: Vec<_> = of(Type::NonPreemptable).collect();
        let local: Vec<_> = of(Type::Local).collect();
        let completed: Vec<f64> = external
            .iter()
            .filter(|r| r.outcome == Outcome::Completed)
            .map(|r| r.end - r.arrival)
            .collect();
        let kvmh: f64 = external
            .iter()
            .filter(|r| r.outcome == Outcome::Completed)
            .map(|r| f64::from(r.nodes) * r.duration)
            .sum::<f64>()
            / 3.6e6;
        let vms_preempted = run.clusters.iter().map(|a| a.vms_preempted).sum();
        let leases_preempted = run.clusters.iter().map(|a| a.preemptions).sum();
        let per_kvmh = |n: u64| (kvmh > 0.0).then(|| n as f64 / kvmh);
        let refused = run.records.iter().filter(|r| r.refused).count();
        Self {
            requests: run.records.len() as u64,
            external: external.len() as u64,
            vms_preempted,
            leases_preempted,
            vms_preempted_per_kvmh: per_kvmh(vms_preempted),
            leases_preempted_per_kvmh: per_kvmh(leases_preempted),
            utilization: (computation > 0.0).then(|| (1.0 - overhead / computation) * 100.0),
            occupancy: (elements * run.horizon > 0.0)
                .then(|| 100.0 * work / (elements * run.horizon)),
            awrt_s: awrt(run),
            migration_pct: pct(
                migratable.iter().filter(|r| r.migrations > 0).count(),
                migratable.len(),
            ),
            migrations: run.records.iter().map(|r| u64::from(r.migrations)).sum(),
            rejection_pct: pct(
                np.iter().filter(|r| r.outcome == Outcome::Rejected).count(),
                np.len(),
            ),
            local_rejection_pct: pct(
                local
                    .iter()
                    .filter(|r| r.outcome == Outcome::Rejected)
                    .count(),
                local.len(),
            ),
            response_s: (!completed.is_empty())
                .then(|| completed.iter().sum::<f64>() / completed.len() as f64),
            refused: refused as u64,
            local_refused: local.iter().filter(|r| r.refused).count() as u64,
            refused_pct: pct(refused, run.records.len()),
            withdrawals: run.records.iter().map(|r| u64::from(r.withdrawals)).sum(),
            fallback: run.fallback.is_some(),
        }
    }
}

/// Eq. 23-24 (module docs).
fn awrt(run: &Run) -> Option<f64> {
    let n = run.nodes.len();
    let mut num = vec![0.0; n];
    let mut den = vec![0.0; n];
    for r in &run.records {
        if !(r.kind.is_best_effort() && r.outcome == Outcome::Completed) {
            continue;
        }
        let Some(&j) = r.clusters.last() else {
            continue;
        };
        let w = f64::from(r.nodes) * r.duration;
        num[j] += w * (r.end - r.arrival);
        den[j] += w;
    }
    let (mut top, mut bottom) = (0.0, 0.0);
    for j in 0..n {
        if den[j] > 0.0 {
            let m = f64::from(run.nodes[j]);
            top += m * num[j] / den[j];
            bottom += m;
        }
    }
    (bottom > 0.0).then(|| top / bottom)
}
