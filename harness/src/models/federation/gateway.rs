//! The gateway (IGG, salehi2012 Sec. 4): its split of the external rate over the clusters and its
//! dispatcher, both set up once from the scenario, as the paper's gateway "gets the required
//! parameters ... by analyzing clusters' workloads" (Sec. 4.1).
//!
//! # PAP's inputs (Sec. 4.1, Eq. 16-19, with errata E1-E3, E7 and E9)
//! For cluster `j` of `M_j` elements of `s_j` MIPS: `S_j = M_j s_j` ([`PapUnits::PerMips`], as
//! printed) or `S_j = M_j` ([`PapUnits::PerNode`]); `theta_j = v d / S_j` with `v` and `d`
//! the external requests' mean size (Eq. 28 or exact, [`SizeMean`](super::scenario::SizeMean); the
//! size model cut to the smallest cluster) and mean duration; `omega_j = (alpha theta_j)^2 +
//! theta_j^2`; `lambda_j` the local arrival rate (the inverse of the mean inter-arrival time);
//! `tau_j = zeta_j eps_j / S_j` with the local mean size (cut to `M_j`) and duration; `mu_j = (beta
//! tau_j)^2 + tau_j^2`; `Lambda` the sum of the external streams' rates. The kernel's [`pap`]
//! solves it.
//!
//! # When PAP refuses (the documented fallback; the run is flagged)
//! 1. Clusters saturated by their own local load (`rho_j = lambda_j tau_j >= 1`) get no external
//!    load; PAP is solved over the others.
//! 2. If that is refused too (the external load is infeasible, `Lambda >= sum (1 - rho_j) /
//!    theta_j`, or no cluster is left), the external rate is split in proportion to the open
//!    clusters' external capacities `(1 - rho_j) / theta_j` (where PAP's water level ends as
//!    `Lambda` grows to their sum); with every cluster saturated, in proportion to `M_j s_j`
//!    (BCF).
//!
//! The flag ([`Split::fallback`]) says which rule applied and why.
//!
//! # Baselines (Sec. 5.2.1)
//! RR: every cluster in turn ([`RoundRobin`]); LRF (Eq. 26 divided by `N - 1`) and BCF (Eq. 27,
//! `M_j s_j`) dispatched at random ([`Bernoulli`]). PAP-RND: PAP's shares, random; PAP-RTDP:
//! PAP's shares, RTDP ([`Rtdp`]) with the external types' shares and the fastest cluster the one
//! of smallest `theta_j` (ties to the lower index).

use anyhow::{Context, Result, bail};
use qosgate_kernel::allocate::{
    Cluster, PapError, biggest_cluster_first, least_rate_first, pap, second_moment,
};
use qosgate_kernel::dispatch::{Bernoulli, RoundRobin, Rtdp};

use super::capacity::{CLUSTERS, TYPES};
use super::scenario::{GatewayPolicy, PapUnits, Scenario, size_mean};

/// The gateway's split of the external rate.
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    /// Each cluster's share of the external rate (summing to 1).
    pub shares: Vec<f64>,
    /// PAP's `theta_j`, as the scenario's units give it.
    pub theta: Vec<f64>,
    /// PAP's `rho_j`, the local load (in the same units).
    pub rho: Vec<f64>,
    /// How the split departed from the policy, if it did (module docs).
    pub fallback: Option<String>,
}

/// PAP's view of every cluster, and the external rate.
///
/// Errors: a size model the scenario checks should have refused.
pub fn clusters(s: &Scenario) -> Result<(Vec<Cluster>, f64)> {
    let pap = &s.gateway.pap;
    let smallest = s.clusters.iter().map(|c| c.nodes).min().unwrap_or(1);
    let ext = s.external.size.model(smallest)?;
    let ext_load = size_mean(&ext, pap.size_mean) * s.external.duration_s.mean();
    let mut out = Vec::with_capacity(s.clusters.len());
    for c in &s.clusters {
        let scale = match pap.units {
            PapUnits::PerMips => f64::from(c.nodes) * c.mips as f64,
            PapUnits::PerNode => f64::from(c.nodes),
        };
        let theta = ext_load / scale;
        let (rate, tau) = match &c.local {
            Some(l) => {
                let size = size_mean(&l.size.model(c.nodes)?, pap.size_mean);
                (
                    1.0 / l.interarrival_s.mean(),
                    size * l.duration_s.mean() / scale,
                )
            }
            None => (0.0, 0.0),
        };
        out.push(Cluster {
            theta,
            omega: second_moment(theta, pap.external_cv).map_err(pap_error)?,
            local_rate: rate,
            tau,
            mu: second_moment(tau, pap.local_cv).map_err(pap_error)?,
        });
    }
    let rate = s
        .external
        .interarrival_s
        .iter()
        .map(|d| 1.0 / d.mean())
        .sum();
    Ok((out, rate))
}

/// The split the scenario's policy gives.
///
/// Errors: a refusal the fallback cannot absorb (a bug in the checks: named).
pub fn split(s: &Scenario) -> Result<Split> {
    let (cl, rate) = clusters(s)?;
    let n = cl.len();
    let speeds: Vec<f64> = s
        .clusters
        .iter()
        .map(|c| f64::from(c.nodes) * c.mips as f64)
        .collect();
    let (rates, fallback) = match s.gateway.policy {
        GatewayPolicy::Rr => (vec![1.0; n], None),
        GatewayPolicy::LrfRnd => {
            let local: Vec<f64> = cl.iter().map(|c| c.local_rate).collect();
            let a = least_rate_first::<CLUSTERS>(&local, rate).map_err(pap_error)?;
            (a.lambda_hat().to_vec(), None)
        }
        GatewayPolicy::BcfRnd => bcf(&speeds, rate)?,
        GatewayPolicy::PapRnd | GatewayPolicy::PapRtdp => pap_or_fallback(s, &cl, rate, &speeds)?,
    };
    let total: f64 = rates.iter().sum();
    if !(total > 0.0 && total.is_finite()) {
        bail!("the gateway's split sums to {total}: no cluster would get a request");
    }
    Ok(Split {
        shares: rates.iter().map(|r| r / total).collect(),
        theta: cl.iter().map(|c| c.theta).collect(),
        rho: cl.iter().map(Cluster::rho).collect(),
        fallback,
    })
}

/// BCF's rates: in proportion to `M_j s_j`.
fn bcf(speeds: &[f64], rate: f64) -> Result<(Vec<f64>, Option<String>)> {
    let a = biggest_cluster_first::<CLUSTERS>(speeds, rate).map_err(pap_error)?;
    Ok((a.lambda_hat().to_vec(), None))
}

/// PAP's rates, or the module's fallback with its flag.
fn pap_or_fallback(
    s: &Scenario,
    cl: &[Cluster],
    rate: f64,
    speeds: &[f64],
) -> Result<(Vec<f64>, Option<String>)> {
    let eps = s.gateway.pap.epsilon;
    let refused = match pap::<CLUSTERS>(cl, rate, eps) {
        Ok(a) => return Ok((a.lambda_hat().to_vec(), None)),
        Err(e) => e,
    };
    let name = |j: usize| s.clusters[j].name.as_str();
    let (open, saturated): (Vec<usize>, Vec<usize>) =
        (0..cl.len()).partition(|&j| cl[j].rho() < 1.0);
    let listed = |js: &[usize]| -> String {
        js.iter()
            .map(|&j| format!("{} (rho {:.3})", name(j), cl[j].rho()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut rates = vec![0.0; cl.len()];
    if !saturated.is_empty() && !open.is_empty() {
        let sub: Vec<Cluster> = open.iter().map(|&j| cl[j]).collect();
        if let Ok(a) = pap::<CLUSTERS>(&sub, rate, eps) {
            for (&j, &x) in open.iter().zip(a.lambda_hat()) {
                rates[j] = x;
            }
            return Ok((
                rates,
                Some(format!(
                    "PAP refused ({refused}); saturated by local load, no external load: {}; \
                     PAP solved over the rest",
                    listed(&saturated)
                )),
            ));
        }
    }
    if open.is_empty() {
        let (rates, _) = bcf(speeds, rate)?;
        return Ok((
            rates,
            Some(format!(
                "PAP refused ({refused}); every cluster is saturated by local load ({}): split \
                 in proportion to M_j s_j (BCF)",
                listed(&saturated)
            )),
        ));
    }
    for &j in &open {
        rates[j] = cl[j].capacity();
    }
    let what = if saturated.is_empty() {
        String::new()
    } else {
        format!(" (saturated, no external load: {})", listed(&saturated))
    };
    Ok((
        rates,
        Some(format!(
            "PAP refused ({refused}){what}: split in proportion to the external capacities \
             (1 - rho_j) / theta_j"
        )),
    ))
}

fn pap_error(e: PapError) -> anyhow::Error {
    anyhow::anyhow!("the gateway's split: {e}")
}

/// The cluster of smallest `theta_j` (ties to the lower index): RTDP's fastest.
pub fn fastest(split: &Split) -> usize {
    let mut best = 0;
    for (j, &t) in split.theta.iter().enumerate() {
        if t < split.theta[best] {
            best = j;
        }
    }
    best
}

/// The gateway's dispatcher (the kernel's).
#[derive(Debug, Clone)]
pub enum Dispatcher {
    /// Round robin.
    Cycle(RoundRobin<CLUSTERS>),
    /// Bernoulli draws with the split's shares.
    Random(Bernoulli<CLUSTERS>),
    /// RTDP with the split's shares.
    Typed(Box<Rtdp<CLUSTERS, TYPES>>),
}

impl Dispatcher {
    /// The dispatcher of `policy` over `split`, with the external types' `shares` (RTDP's).
    ///
    /// Errors: the kernel's refusal, named (a split the fallback should have prevented).
    pub fn new(policy: GatewayPolicy, split: &Split, shares: &[f64; TYPES]) -> Result<Self> {
        let d = match policy {
            GatewayPolicy::Rr => Dispatcher::Cycle(
                RoundRobin::new(&split.shares)
                    .map_err(|e| anyhow::anyhow!("the gateway's round robin: {e}"))?,
            ),
            GatewayPolicy::LrfRnd | GatewayPolicy::BcfRnd | GatewayPolicy::PapRnd => {
                Dispatcher::Random(
                    Bernoulli::new(&split.shares)
                        .map_err(|e| anyhow::anyhow!("the gateway's random dispatch: {e}"))?,
                )
            }
            GatewayPolicy::PapRtdp => Dispatcher::Typed(Box::new(
                Rtdp::new(&split.shares, shares, fastest(split))
                    .map_err(|e| anyhow::anyhow!("the gateway's RTDP: {e}"))?,
            )),
        };
        Ok(d)
    }

    /// The cluster of the next request of type `kind` (RTDP's index), with `draw` a uniform
    /// `u32` (used by random dispatch only).
    ///
    /// Errors: RTDP's refusal of a type of share zero (never generated).
    pub fn dispatch(&mut self, kind: usize, draw: u32) -> Result<usize> {
        match self {
            Dispatcher::Cycle(rr) => Ok(rr.dispatch()),
            Dispatcher::Random(b) => Ok(b.pick(draw)),
            Dispatcher::Typed(r) => r
                .dispatch(kind)
                .with_context(|| format!("RTDP for request type {kind}")),
        }
    }
}
