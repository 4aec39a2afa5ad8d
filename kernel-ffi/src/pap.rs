//! `qg_pap_solve`: PAP workload allocation ([`qosgate_kernel::allocate::pap`]) over up to
//! `QG_MAX_CLUSTERS` clusters (8, or 4 in the small preset). Stateless: the inputs in, the rates out.
//!
//! Set-up-time work in `double` (soft float on a Cortex-M3): an insertion sort of the clusters
//! (at most 28 comparisons for 8), a binary search for the active set (at most 3 prefix sums of
//! rates), then at most 154 evaluations of one rate per active cluster each (`MAX_EVALUATIONS`:
//! at most 12 to find the upper bound, at most 140 Newton or bisection steps; 4-8 steps at
//! epsilon 1e-9 in practice). Stack: a few `double[8]`.

use qosgate_kernel::allocate::{Cluster, pap};

use crate::config::QG_MAX_CLUSTERS;
use crate::instance;
use crate::status::qg_status::{self, *};

/// One cluster as PAP sees it (salehi2012 Table 1; any time unit, the same for every input).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct qg_cluster {
    /// Mean service time of an external request, `> 0`.
    pub theta: f64,
    /// Second moment of that service time, `>= theta^2`.
    pub omega: f64,
    /// Arrival rate of local requests, `>= 0`.
    pub local_rate: f64,
    /// Mean service time of a local request, with `tau * local_rate < 1`.
    pub tau: f64,
    /// Second moment of the local service time, `>= tau^2`.
    pub mu: f64,
}

/// A PAP allocation.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct qg_allocation {
    /// The Lagrange multiplier z (time units).
    pub z: f64,
    /// The external rate sent to each cluster (entries past `clusters` are 0).
    pub lambda_hat: [f64; QG_MAX_CLUSTERS],
    /// Whether each cluster is in the active set.
    pub active: [bool; QG_MAX_CLUSTERS],
    /// Number of clusters.
    pub clusters: u32,
}

/// Spreads `external_rate` over `clusters[0..n]`, minimising the mean response time, to a
/// relative precision `epsilon` (`|sum lambda_hat - external_rate| <= epsilon external_rate`).
///
/// Errors (`*out` untouched): the pointer checks; the `QG_ERR_PAP_*` codes
/// (`TOO_MANY_CLUSTERS` above `QG_MAX_CLUSTERS`, checked before `clusters` is read;
/// `INFEASIBLE`; `EPSILON` outside `[1e-12, 0.5]`; ...).
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; reentrant (no object).
///
/// # Safety
/// `clusters` must hold `n` readable values; `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_pap_solve(
    clusters: *const qg_cluster,
    n: usize,
    external_rate: f64,
    epsilon: f64,
    out: *mut qg_allocation,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    let r = unsafe { solve(clusters, n, external_rate, epsilon, out) };
    r.unwrap_or_else(|e| e)
}

/// # Safety
/// As [`qg_pap_solve`].
unsafe fn solve(
    clusters: *const qg_cluster,
    n: usize,
    external_rate: f64,
    epsilon: f64,
    out: *mut qg_allocation,
) -> Result<qg_status, qg_status> {
    // SAFETY: forwarded from this function's contract.
    let (given, out) = unsafe {
        let too_many = QG_ERR_PAP_TOO_MANY_CLUSTERS;
        let given = instance::slice(clusters, n, QG_MAX_CLUSTERS, too_many)?;
        (given, instance::output(out)?)
    };
    let mut cs = [Cluster {
        theta: 0.0,
        omega: 0.0,
        local_rate: 0.0,
        tau: 0.0,
        mu: 0.0,
    }; QG_MAX_CLUSTERS];
    for (c, g) in cs.iter_mut().zip(given) {
        *c = Cluster {
            theta: g.theta,
            omega: g.omega,
            local_rate: g.local_rate,
            tau: g.tau,
            mu: g.mu,
        };
    }
    let a = pap::<QG_MAX_CLUSTERS>(&cs[..given.len()], external_rate, epsilon)?;
    let mut r = qg_allocation {
        z: a.z().unwrap_or(f64::NAN),
        lambda_hat: [0.0; QG_MAX_CLUSTERS],
        active: [false; QG_MAX_CLUSTERS],
        clusters: given.len() as u32,
    };
    r.lambda_hat[..a.len()].copy_from_slice(a.lambda_hat());
    r.active[..a.len()].copy_from_slice(a.active());
    out.write(r);
    Ok(QG_OK)
}
