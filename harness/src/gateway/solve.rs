//! The gateway's solvers on problems written as JSON: what `qosgate solve pap|broker` reads,
//! solves with the kernel and prints.
//!
//! # `solve pap` (salehi2012 Algorithm 1, errata E1-E3; [`qosgate_kernel::allocate::pap`])
//! Input: `{"external_rate": Lambda, "epsilon": e, "clusters": [{"theta": .., "omega": ..,
//! "local_rate": .., "tau": .., "mu": ..}, ...]}`: `theta`/`omega` the first and second moment of
//! an external request's service time, `tau`/`mu` those of a local request, `local_rate` the local
//! arrival rate (one time unit throughout), `epsilon` the relative precision of
//! `sum lambda_hat = Lambda`. Output: `{"z": .., "lambda_hat": [..], "active": [..]}`.
//!
//! # `solve broker` (javadi2012 Eq. 5, errata E14, E15; [`qosgate_kernel::broker::route`])
//! Input: `{"arrival_rate": lambda, "arrival_variance": sigma_I^2, "providers": [..]}`, or
//! `{"workload": {..}, "providers": [..]}` where each provider is one of
//! - `{"mu": .., "cs2": .., "cost": ..}`: service rate and squared CV given directly;
//! - `{"cluster": {"work", "nodes", "speed", "transfer", "availability_mean",
//!   "availability_variance", "unavailability_mean", "unavailability_variance"}, "cost": ..}`: the
//!   failure-prone cluster of Eq. 8-12 (`transfer` defaults to 0); instead of the four moments,
//!   `"failures": {"available": DIST, "unavailable": DIST}` gives the interval distributions;
//! - `{"cloud": {"work", "nodes", "speed", "transfer", "cs2"}, "cost": ..}`: the cloud of Eq. 13
//!   (`transfer` defaults to 0, `cs2` to the paper's 1).
//!
//! `workload` is javadi2012's request model ([`RequestModel`], as a hybrid scenario's
//! `[workload]`: `interarrival`, `size` (the DAS-2 rule with its `cap`), `duration`,
//! `reference_mips`, optional `load_scale`), times in seconds: `lambda`, `sigma_I^2` and each
//! model's missing `work` (`V D` times `reference_mips`, MI, with the exact mean size) are
//! computed from it, and the output adds them as `"derived": {"arrival_rate",
//! "arrival_variance", "work"}`. A distribution is written as in scenario files, e.g.
//! `{"weibull": {"scale": 23.375, "shape": 0.25}}`.
//!
//! Output: `{"p": [..]}`. Unknown fields are errors; every error names the input.
//!
//! # Reading
//! [`parse_input`] takes the input's bytes: they must be UTF-8 (the first byte that is not is
//! located) and one JSON value of the input's shape; an error reads
//! `origin:line:column: what is wrong` (serde_json's message and position).

use anyhow::{Result, anyhow, bail};
use qosgate_kernel::allocate::{self, Cluster};
use qosgate_kernel::broker::{self, Provider, ReliableCloud, TransientCluster};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::config;
use crate::workload::dist::Dist;
use crate::workload::requests::RequestModel;

/// A problem ([`PapInput`], [`BrokerInput`]) from the bytes of its JSON text; `origin` names
/// it in messages (a file name, `standard input`).
///
/// Errors: bytes that are not UTF-8, or JSON that is not a value of `T` (a syntax error, an
/// unknown or missing field, a value of the wrong type), each located as
/// `origin:line:column: ...`.
pub fn parse_input<T: DeserializeOwned>(bytes: &[u8], origin: &str) -> Result<T> {
    let text = config::utf8(bytes, origin)?;
    serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        // serde_json appends " at line L column C"; the position goes in front instead.
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let message = message.strip_suffix(&suffix).unwrap_or(&message);
        anyhow!("{origin}:{}:{}: {message}", e.line(), e.column())
    })
}

/// The most clusters `solve pap` accepts.
pub const MAX_CLUSTERS: usize = 64;
/// The most providers `solve broker` accepts.
pub const MAX_PROVIDERS: usize = 64;

/// The input of `solve pap`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PapInput {
    /// `Lambda`, external requests per time unit.
    pub external_rate: f64,
    /// Relative precision of `sum lambda_hat = Lambda`.
    pub epsilon: f64,
    /// The clusters.
    pub clusters: Vec<ClusterInput>,
}

/// One cluster of [`PapInput`] (fields as [`Cluster`]).
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClusterInput {
    /// Mean external service time.
    pub theta: f64,
    /// Second moment of the external service time.
    pub omega: f64,
    /// Local arrival rate.
    pub local_rate: f64,
    /// Mean local service time.
    pub tau: f64,
    /// Second moment of the local service time.
    pub mu: f64,
}

/// The output of `solve pap`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PapOutput {
    /// The Lagrange multiplier (time units).
    pub z: f64,
    /// External rate per cluster.
    pub lambda_hat: Vec<f64>,
    /// The active set.
    pub active: Vec<bool>,
}

/// The input of `solve broker`: the arrivals given (`arrival_rate` and `arrival_variance`) or
/// worked out from a `workload`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrokerInput {
    /// `lambda`, requests per time unit.
    #[serde(default)]
    pub arrival_rate: Option<f64>,
    /// `sigma_I^2`, variance of the inter-arrival time.
    #[serde(default)]
    pub arrival_variance: Option<f64>,
    /// javadi2012's request workload (seconds), instead of the two above.
    #[serde(default)]
    pub workload: Option<RequestModel>,
    /// The providers.
    pub providers: Vec<ProviderInput>,
}

/// One provider of [`BrokerInput`]: exactly one of `mu` + `cs2`, `cluster`, `cloud`, plus `cost`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderInput {
    /// Service rate.
    pub mu: Option<f64>,
    /// Squared coefficient of variation of the service time.
    pub cs2: Option<f64>,
    /// The failure-prone cluster model (Eq. 8-12).
    pub cluster: Option<ClusterModel>,
    /// The cloud model (Eq. 13).
    pub cloud: Option<CloudModel>,
    /// Cost per request per time unit, `K_i`.
    pub cost: f64,
}

/// [`TransientCluster`] as JSON: the failures' moments given, or their distributions.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClusterModel {
    /// Mean request size (work units); default: the workload's.
    #[serde(default)]
    pub work: Option<f64>,
    /// Nodes.
    pub nodes: f64,
    /// Speed of one node (work units per time unit).
    pub speed: f64,
    /// Transfer time (default 0).
    #[serde(default)]
    pub transfer: f64,
    /// Mean availability interval.
    #[serde(default)]
    pub availability_mean: Option<f64>,
    /// Variance of the availability interval.
    #[serde(default)]
    pub availability_variance: Option<f64>,
    /// Mean unavailability interval.
    #[serde(default)]
    pub unavailability_mean: Option<f64>,
    /// Variance of the unavailability interval.
    #[serde(default)]
    pub unavailability_variance: Option<f64>,
    /// The interval distributions, instead of the four moments.
    #[serde(default)]
    pub failures: Option<FailureModel>,
}

/// A failure process's interval distributions, as JSON.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailureModel {
    /// Available intervals.
    pub available: Dist,
    /// Unavailable intervals.
    pub unavailable: Dist,
}

/// [`ReliableCloud`] as JSON.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloudModel {
    /// Mean request size (work units); default: the workload's.
    #[serde(default)]
    pub work: Option<f64>,
    /// Nodes.
    pub nodes: f64,
    /// Speed of one node (work units per time unit).
    pub speed: f64,
    /// Transfer time (default 0).
    #[serde(default)]
    pub transfer: f64,
    /// Squared CV of the service time (default 1, the paper's).
    #[serde(default = "paper_cs2")]
    pub cs2: f64,
}

fn paper_cs2() -> f64 {
    ReliableCloud::PAPER_CS2
}

/// The output of `solve broker`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BrokerOutput {
    /// Routing probability per provider.
    pub p: Vec<f64>,
    /// What a workload gave, if one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub derived: Option<Derived>,
}

/// The broker's inputs worked out from a workload.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct Derived {
    /// `lambda`, requests per second.
    pub arrival_rate: f64,
    /// `sigma_I^2`, seconds squared.
    pub arrival_variance: f64,
    /// `W`, the mean work of a request, MI.
    pub work: f64,
}

/// Solves a PAP problem. Errors: the kernel's, with the cluster named.
pub fn solve_pap(input: &PapInput) -> Result<PapOutput> {
    if input.clusters.len() > MAX_CLUSTERS {
        bail!(
            "{} clusters: at most {MAX_CLUSTERS} are supported",
            input.clusters.len()
        );
    }
    let clusters: Vec<Cluster> = input
        .clusters
        .iter()
        .map(|c| Cluster {
            theta: c.theta,
            omega: c.omega,
            local_rate: c.local_rate,
            tau: c.tau,
            mu: c.mu,
        })
        .collect();
    let a = allocate::pap::<MAX_CLUSTERS>(&clusters, input.external_rate, input.epsilon)
        .map_err(|e| anyhow!(e))?;
    Ok(PapOutput {
        z: a.z().unwrap_or(f64::NAN),
        lambda_hat: a.lambda_hat().to_vec(),
        active: a.active().to_vec(),
    })
}

/// The kernel provider of one JSON provider (index `i` for messages); `work` is the workload's
/// mean work, used where a model gives none.
///
/// Errors: a provider that is not exactly one form, a model without `work` and no workload, a
/// cluster with neither or both of the four moments and `failures` (or a bad distribution), the
/// kernel's refusal of a model; each names the provider.
pub fn provider(i: usize, p: &ProviderInput, work: Option<f64>) -> Result<Provider> {
    let work_of = |w: Option<f64>| {
        w.or(work).ok_or_else(|| {
            anyhow!("provider {i}: give `work`, or a `workload` to work it out from")
        })
    };
    let service = match (p.mu, p.cs2, &p.cluster, &p.cloud) {
        (Some(mu), Some(cs2), None, None) => broker::Service { mu, cs2 },
        (None, None, Some(c), None) => {
            let [ta, va, tu, vu] = failure_moments(i, c)?;
            TransientCluster {
                work: work_of(c.work)?,
                nodes: c.nodes,
                speed: c.speed,
                transfer: c.transfer,
                availability_mean: ta,
                availability_variance: va,
                unavailability_mean: tu,
                unavailability_variance: vu,
            }
            .service()
            .map_err(|e| anyhow!("provider {i}: cluster model: {e}"))?
        }
        (None, None, None, Some(c)) => ReliableCloud {
            work: work_of(c.work)?,
            nodes: c.nodes,
            speed: c.speed,
            transfer: c.transfer,
            cs2: c.cs2,
        }
        .service()
        .map_err(|e| anyhow!("provider {i}: cloud model: {e}"))?,
        _ => bail!(
            "provider {i}: give exactly one of `mu` and `cs2` together, `cluster`, or `cloud` \
             (plus `cost`)"
        ),
    };
    Ok(service.with_cost(p.cost))
}

/// `[t_a, sigma_a^2, t_u, sigma_u^2]` of a cluster model: the four given, or its `failures`'
/// means and variances.
fn failure_moments(i: usize, c: &ClusterModel) -> Result<[f64; 4]> {
    let given = [
        c.availability_mean,
        c.availability_variance,
        c.unavailability_mean,
        c.unavailability_variance,
    ];
    match (given, &c.failures) {
        ([Some(ta), Some(va), Some(tu), Some(vu)], None) => Ok([ta, va, tu, vu]),
        ([None, None, None, None], Some(f)) => {
            for (which, d) in [("available", &f.available), ("unavailable", &f.unavailable)] {
                d.check().map_err(|e| {
                    anyhow!("provider {i}: failures.{which}.{}: {e}", d.key(e.param()))
                })?;
            }
            Ok([
                f.available.mean(),
                f.available.variance(),
                f.unavailable.mean(),
                f.unavailable.variance(),
            ])
        }
        _ => bail!(
            "provider {i}: cluster model: give the four availability and unavailability moments, \
             or `failures`, not both"
        ),
    }
}

/// Solves a broker problem.
///
/// Errors: arrivals given both ways or neither, a workload the request model refuses, a bad
/// provider ([`provider`]), the kernel's refusal; each names the input.
pub fn solve_broker(input: &BrokerInput) -> Result<BrokerOutput> {
    if input.providers.len() > MAX_PROVIDERS {
        bail!(
            "{} providers: at most {MAX_PROVIDERS} are supported",
            input.providers.len()
        );
    }
    if let Some(w) = &input.workload {
        for (key, d) in [("interarrival", &w.interarrival), ("duration", &w.duration)] {
            d.check()
                .map_err(|e| anyhow!("workload.{key}.{}: {e}", d.key(e.param())))?;
        }
    }
    let derived = match (&input.workload, input.arrival_rate, input.arrival_variance) {
        (Some(w), None, None) => Some(Derived {
            arrival_rate: w.arrival_rate(),
            arrival_variance: w.arrival_variance(),
            work: w
                .mean_work_mi(w.size.cap)
                .map_err(|e| anyhow!("workload.size: {e}"))?,
        }),
        (None, Some(_), Some(_)) => None,
        _ => bail!("give `arrival_rate` and `arrival_variance`, or a `workload`, not both"),
    };
    let (rate, variance) = match derived {
        Some(d) => (d.arrival_rate, d.arrival_variance),
        None => (
            input.arrival_rate.unwrap_or(f64::NAN),
            input.arrival_variance.unwrap_or(f64::NAN),
        ),
    };
    let providers = input
        .providers
        .iter()
        .enumerate()
        .map(|(i, p)| provider(i, p, derived.map(|d| d.work)))
        .collect::<Result<Vec<_>>>()?;
    let r = broker::route::<MAX_PROVIDERS>(rate, variance, &providers).map_err(|e| anyhow!(e))?;
    Ok(BrokerOutput {
        p: r.p().to_vec(),
        derived,
    })
}
