//! javadi2012's metrics of one replication, computed from the request records only.
//!
//! Measured: the requests arriving at or after `warmup_s` (all arrive before `horizon_s`).
//! - **AWRT** (Eq. 14): `sum d v (ct - st) / sum d v` over the completed requests, `d` the run
//!   time on the provider, `v` the VMs, `ct - st` the response time from the arrival at the
//!   broker (the transfer to the cloud included).
//! - **Bounded slowdown** (Eq. 15 as printed, erratum E18): the mean of
//!   `(w + max(d, 10)) / max(d, 10)` over the completed requests, `w` the response time less
//!   the run time. Feitelson's bounded slowdown divides the response time by `max(d, 10)`
//!   instead; the two differ for `d < 10 s`.
//! - **Cost** (Eq. 19 with E18's reading): `(H_c + N_c H_u) C_p + N_c B_in C_x` over the measured
//!   cloud requests, `H_c = sum v ceil(d / 1 h)` (each VM's hours rounded up), `N_c` the count
//!   of cloud requests, `H_u` the boot time in hours; per month: times `30 days / (horizon -
//!   warm-up)`.
//!
//! - **By width**: AWRT and slowdown in both readings (completed requests; every measured
//!   request with the unfinished at their lower bounds) for the *narrow* requests, of at most
//!   half the local cluster's nodes, and the *wide* ones, of more. A wide request waits for more
//!   than half the cluster to be up and free at once, so under failures it waits far longer;
//!   weighted by `d v`, a few wide requests can carry most of the AWRT.
//!
//! - **Unfinished requests** (censored outcomes): a request still running or queued at the end
//!   of the run (`horizon_s + drain_s`) has no response time, only a lower bound, the end of the
//!   run minus its arrival. AWRT and slowdown above leave them out; beside them, every run gives
//!   their count, the mean of their lower bounds, and AWRT and slowdown with them at their lower
//!   bounds (each unfinished request's response time the end of the run minus its arrival, its
//!   waiting time that less its run time, at least 0): lower bounds of the metrics of all the
//!   measured requests. Where the two readings differ, the runs do not say which is right.
//!
//! Accounts: `requests = completed + unfinished = local + cloud` (tested).

use serde::{Deserialize, Serialize};

use super::record::{Outcome, Provider, RequestRecord, Run};
use super::scenario::{MONTH_S, Scenario};

/// The bound of the bounded slowdown, seconds (javadi2012 Sec. VI).
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
    /// The mean lower bound of the unfinished requests' response times (the end of the run
    /// minus the arrival), seconds; `None` without unfinished requests.
    pub unfinished_lower_s: Option<f64>,
    /// AWRT (Eq. 14) of every measured request, the unfinished ones at their lower bounds
    /// (a lower bound of the AWRT of all of them), seconds.
    pub awrt_with_unfinished_s: Option<f64>,
    /// Bounded slowdown (Eq. 15 as printed) of every measured request, the unfinished ones at
    /// their lower bounds.
    pub slowdown_with_unfinished: Option<f64>,
    /// Of them, wide: more VMs than half the local cluster's nodes.
    pub wide: u64,
    /// AWRT (Eq. 14) of the completed narrow requests (at most half the local cluster's
    /// nodes), seconds.
    pub awrt_narrow_s: Option<f64>,
    /// AWRT (Eq. 14) of the completed wide requests, seconds.
    pub awrt_wide_s: Option<f64>,
    /// Bounded slowdown of the completed narrow requests.
    pub slowdown_narrow: Option<f64>,
    /// Bounded slowdown of the completed wide requests.
    pub slowdown_wide: Option<f64>,
    /// AWRT of every measured narrow request, the unfinished at their lower bounds, seconds.
    pub awrt_narrow_with_unfinished_s: Option<f64>,
    /// AWRT of every measured wide request, the unfinished at their lower bounds, seconds.
    pub awrt_wide_with_unfinished_s: Option<f64>,
    /// Bounded slowdown of every measured narrow request, the unfinished at their lower bounds.
    pub slowdown_narrow_with_unfinished: Option<f64>,
    /// Bounded slowdown of every measured wide request, the unfinished at their lower bounds.
    pub slowdown_wide_with_unfinished: Option<f64>,
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

/// `sum d v (ct - st) / sum d v` over `records` (Eq. 14), each response time capped at
/// `until - arrival` (the end of the run: an unfinished request's lower bound); `None` without
/// work.
fn awrt<'a>(records: impl Iterator<Item = &'a RequestRecord>, until: u64) -> Option<f64> {
    let (mut num, mut den) = (0.0, 0.0);
    for r in records {
        let w = r.run_s as f64 * f64::from(r.vms);
        num += w * response_s(r, until) as f64;
        den += w;
    }
    (den > 0.0).then(|| num / den)
}

/// The response time of `r`, or its lower bound `until - arrival` if it ended after `until`.
fn response_s(r: &RequestRecord, until: u64) -> u64 {
    r.response_s().min(until.saturating_sub(r.arrival_s))
}

/// The mean bounded slowdown (Eq. 15 as printed) of `records`, response times capped as in
/// [`awrt`]; `None` without records.
fn slowdown<'a>(records: impl Iterator<Item = &'a RequestRecord>, until: u64) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0u64);
    for r in records {
        let d = r.run_s.max(SLOWDOWN_BOUND_S) as f64;
        let w = response_s(r, until).saturating_sub(r.run_s) as f64;
        sum += (w + d) / d;
        n += 1;
    }
    (n > 0).then(|| sum / n as f64)
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
        // The end of the run: a completed request ended by then, so capping at it changes no
        // completed request's times.
        let until = s.horizon_s.saturating_add(s.drain_s);
        let all = || measured.iter().copied();
        let late: Vec<u64> = all()
            .filter(|r| r.outcome == Outcome::Unfinished)
            .map(|r| until.saturating_sub(r.arrival_s))
            .collect();
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
        // Wide: more than half the local cluster (64 nodes: 33 VMs or more).
        let wide = |r: &&RequestRecord| u64::from(r.vms) * 2 > u64::from(s.local.nodes);
        let narrow = |r: &&RequestRecord| !wide(r);
        Metrics {
            requests: measured.len() as u64,
            completed: completed as u64,
            unfinished: count(&|r| r.outcome == Outcome::Unfinished) as u64,
            local: count(&|r| r.provider == Provider::Local) as u64,
            cloud: cloud.len() as u64,
            p_cloud: run.p_cloud,
            awrt_s: awrt(done(), until),
            slowdown: slowdown(done(), until),
            unfinished_lower_s: (!late.is_empty())
                .then(|| late.iter().sum::<u64>() as f64 / late.len() as f64),
            awrt_with_unfinished_s: awrt(all(), until),
            slowdown_with_unfinished: slowdown(all(), until),
            wide: all().filter(|r| wide(r)).count() as u64,
            awrt_narrow_s: awrt(done().filter(narrow), until),
            awrt_wide_s: awrt(done().filter(wide), until),
            slowdown_narrow: slowdown(done().filter(narrow), until),
            slowdown_wide: slowdown(done().filter(wide), until),
            awrt_narrow_with_unfinished_s: awrt(all().filter(narrow), until),
            awrt_wide_with_unfinished_s: awrt(all().filter(wide), until),
            slowdown_narrow_with_unfinished: slowdown(all().filter(narrow), until),
            slowdown_wide_with_unfinished: slowdown(all().filter(wide), until),
            awrt_local_s: awrt(done().filter(|r| r.provider == Provider::Local), until),
            awrt_cloud_s: awrt(done().filter(|r| r.provider == Provider::Cloud), until),
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
