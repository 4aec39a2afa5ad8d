//! Seed 002's metrics of one replication, computed from the request records only.
//!
//! Measured: the requests arriving at or after `warmup_s` (all arrive before `horizon_s`).
//! - **AWRT** (Eq. 14): `sum d v (ct - st) / sum d v` over the completed requests, `d` the run
//!   time on the provider, `v` the VMs, `ct - st` the response time from the arrival at the
//!   broker (the transfer to the cloud included).
//! - **Bounded slowdown** (Eq. 15 as printed, `SPEC-NOTES` N12): the mean of
//!   `(w + max(d, 10)) / max(d, 10)` over the completed requests, `w` the response time less
//!   the run time. Feitelson's bounded slowdown divides the response time by `max(d, 10)`
//!   instead; the two differ for `d < 10 s`.
//! - **Cost** (Eq. 19 with N12's reading): `(H_c + N_c H_u) C_p + N_c B_in C_x` over the measured
//!   cloud requests, `H_c = sum v ceil(d / 1 h)` (each VM's hours rounded up), `N_c` the count
//!   of cloud requests, `H_u` the boot time in hours; per month: times `30 days / (horizon -
//!   warm-up)`.
//!
//! Accounts: `requests = completed + unfinished = local + cloud` (tested).

use serde::{Deserialize, Serialize};

use super::record::{Outcome, Provider, RequestRecord, Run};
use super::scenario::{MONTH_S, Scenario};

/// The bound of the bounded slowdown, seconds (seed 002 Sec. VI).
pub const SLOWDOWN_BOUND_S: u64 = 10;

/// Seconds per (billed) hour.
const HOUR_S: u64 = 3600;

/// One replication's metrics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Requests measured (arrived after the warm-up).
    pub requests: u64,
    /// Of them, completed by the end of the drain.
    pub completed: u64,
    /// Of them, not completed by the end of the drain.
    pub unfinished: u64,
    /// Of them, sent to the local cluster.
    pub local: u64,
    /// Of them, sent to the cloud.
    pub cloud: u64,
    /// The routing's `P_c`.
    pub p_cloud: f64,
    /// AWRT (Eq. 14) of the completed requests, seconds.
    pub awrt_s: Option<f64>,
    /// Bounded slowdown (Eq. 15 as printed) of the completed requests.
    pub slowdown: Option<f64>,
    /// AWRT of the completed local requests, seconds.
    pub awrt_local_s: Option<f64>,
    /// AWRT of the completed cloud requests, seconds.
    pub awrt_cloud_s: Option<f64>,
    /// Interruptions of measured requests by failures.
    pub interruptions: u64,
    /// `H_c`: VM-hours billed in the cloud, each VM's rounded up.
    pub cloud_vm_hours: u64,
    /// Eq. 19 over the measured cloud requests, USD.
    pub cost_usd: f64,
    /// The same per 30 days of measured arrivals, USD.
    pub cost_per_month_usd: f64,
}

/// `sum d v (ct - st) / sum d v` over `records` (Eq. 14); `None` without work.
fn awrt<'a>(records: impl Iterator<Item = &'a RequestRecord>) -> Option<f64> {
    let (mut num, mut den) = (0.0, 0.0);
    for r in records {
        let w = r.run_s as f64 * f64::from(r.vms);
        num += w * r.response_s() as f64;
        den += w;
    }
    (den > 0.0).then(|| num / den)
}

impl Metrics {
    /// The metrics of `run` of `s` (module docs).
    pub fn compute(s: &Scenario, run: &Run) -> Self {
        let measured: Vec<&RequestRecord> = run
            .records
            .iter()
            .filter(|r| r.arrival_s >= s.warmup_s)
            .collect();
        let done = || {
            measured
                .iter()
                .copied()
                .filter(|r| r.outcome == Outcome::Completed)
        };
        let count = |f: &dyn Fn(&RequestRecord) -> bool| measured.iter().filter(|r| f(r)).count();
        let completed = done().count();
        let slowdown = (completed > 0).then(|| {
            done()
                .map(|r| {
                    let d = r.run_s.max(SLOWDOWN_BOUND_S) as f64;
                    (r.wait_s() as f64 + d) / d
                })
                .sum::<f64>()
                / completed as f64
        });
        let cloud: Vec<&&RequestRecord> = measured
            .iter()
            .filter(|r| r.provider == Provider::Cloud)
            .collect();
        let vm_hours: u64 = cloud
            .iter()
            .map(|r| u64::from(r.vms) * r.run_s.div_ceil(HOUR_S))
            .sum();
        let n_cloud = cloud.len() as f64;
        let p = &s.price;
        let cost = (vm_hours as f64 + n_cloud * p.boot_s / HOUR_S as f64) * p.vm_hour_usd
            + n_cloud * p.data_in_gb * p.usd_per_gb;
        let span = s.horizon_s.saturating_sub(s.warmup_s).max(1) as f64;
        Metrics {
            requests: measured.len() as u64,
            completed: completed as u64,
            unfinished: count(&|r| r.outcome == Outcome::Unfinished) as u64,
            local: count(&|r| r.provider == Provider::Local) as u64,
            cloud: cloud.len() as u64,
            p_cloud: run.p_cloud,
            awrt_s: awrt(done()),
            slowdown,
            awrt_local_s: awrt(done().filter(|r| r.provider == Provider::Local)),
            awrt_cloud_s: awrt(done().filter(|r| r.provider == Provider::Cloud)),
            interruptions: measured.iter().map(|r| u64::from(r.interruptions)).sum(),
            cloud_vm_hours: vm_hours,
            cost_usd: cost,
            cost_per_month_usd: cost * MONTH_S / span,
        }
    }

    /// The observed share of measured requests sent to the cloud; `None` without requests.
    pub fn cloud_share(&self) -> Option<f64> {
        (self.requests > 0).then(|| self.cloud as f64 / self.requests as f64)
    }
}
