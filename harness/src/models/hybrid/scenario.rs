//! The hybrid-cloud scenario file (`model = "hybrid"`; format in `docs/hybrid-scenarios.md`):
//! the request workload, the two providers, the failures of the local cluster, the scheduler
//! both run, the broker and the cloud's prices.
//!
//! - [`Scenario::parse`](crate::models::ScenarioFile::parse) reads a file into a checked [`Scenario`]; every problem is reported as
//!   `file:line:column: key: what is wrong`, one line each ([`crate::config`]).
//! - [`Scenario::validate`](crate::models::ScenarioFile::validate) runs the same checks on a scenario built in code (the presets).
//! - [`to_toml`] writes a scenario as a file that [`Scenario::parse`](crate::models::ScenarioFile::parse) reads back unchanged.
//! - [`Scenario::routing`] works out the routing probabilities the broker uses: Eq. 5 of
//!   javadi2012 (with erratum E15's `eta`) from the workload's and the providers' moments, or a
//!   given cloud share.
//!
//! Times are whole seconds where the replay uses them (horizon, warm-up, drain, transfers,
//! burn-in) and decimal seconds in distributions; speeds in MIPS; money in USD.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result, anyhow, bail};
use qosgate_kernel::backfill::Policy;
use qosgate_kernel::broker::{self, ReliableCloud, Service, TransientCluster};
use serde::{Deserialize, Serialize};

use crate::config::{self, Header, Problem, Problems};
use crate::models::cluster::replay::Returns;
pub use crate::models::cluster::scenario::{PolicyName, Scheduler};
use crate::models::grid::scenario::check_dist;
use crate::workload::dist::Dist;
use crate::workload::failures::{self, Process};
use crate::workload::fta;
use crate::workload::outages::Source;
use crate::workload::requests::RequestModel;

/// The largest time a scenario accepts, seconds (about 31,700 years; the replay's clock goes
/// much further, but no experiment needs more).
pub const MAX_SECONDS: u64 = 1_000_000_000_000;

/// The most nodes a provider may have (the replay's kernel counts nodes in `u32`; the size rule
/// caps requests at `2^20` VMs).
pub const MAX_NODES: u32 = 1 << 20;

/// Seconds in the month the cost is reported per (30 days).
pub const MONTH_S: f64 = 30.0 * 86_400.0;

/// A hybrid-cloud scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Name, description, base seed and replications (the file's first keys: see
    /// [`Header`]).
    #[serde(skip)]
    pub header: Header,
    /// Requests arrive during `[0, horizon_s)`, seconds (javadi2012: two months).
    pub horizon_s: u64,
    /// Requests arriving before this are simulated but not measured, seconds (javadi2012: a week).
    pub warmup_s: u64,
    /// The local cluster keeps failing until `horizon_s + drain_s`, seconds; then every node is
    /// repaired. A request that completes later is reported as unfinished, never dropped.
    pub drain_s: u64,
    /// The requests.
    pub workload: RequestModel,
    /// The failure-prone local cluster.
    pub local: Cluster,
    /// The reliable cloud.
    pub cloud: Cloud,
    /// The local cluster's failures; none: it is reliable too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failures: Option<Failures>,
    /// The scheduler both providers run.
    pub scheduler: Scheduler,
    /// How requests are sent to a provider.
    pub broker: Broker,
    /// The cloud's prices (javadi2012 Eq. 19).
    pub price: Price,
}

/// The local cluster (javadi2012 Sec. V-A).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cluster {
    /// `M_s`, nodes (one VM each).
    pub nodes: u32,
    /// `tau_s`, MIPS per node.
    pub mips: f64,
    /// `L_s`, seconds from the broker to the cluster's queue.
    pub transfer_s: u64,
    /// `K_s`, the broker's cost weight (Eq. 1).
    pub cost: f64,
}

/// The public cloud (javadi2012 Sec. V-B): reliable.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cloud {
    /// `M_c`, nodes (VMs).
    pub nodes: u32,
    /// `tau_c`, MIPS per node.
    pub mips: f64,
    /// `L_c`, seconds from the broker to the cloud's queue (javadi2012: 64 s, 80 MB at 10 Mb/s).
    pub transfer_s: u64,
    /// `K_c`, the broker's cost weight.
    pub cost: f64,
    /// `C_Sc^2` of Eq. 13 (javadi2012: 1).
    pub cs2: f64,
}

/// The local cluster's failures: the synthetic process (`available`, `unavailable`, `groups`,
/// `burn_in_s`) or a Failure Trace Archive trace (`trace`), not both.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Failures {
    /// Available intervals, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub available: Option<Dist>,
    /// Unavailable intervals, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<Dist>,
    /// Groups of nodes that fail together (default 8).
    #[serde(default = "default_groups")]
    pub groups: u32,
    /// Seconds the process runs before time 0 (default 30 days).
    #[serde(default = "default_burn_in")]
    pub burn_in_s: u64,
    /// An FTA trace (tabular event format), read from a random point per replication.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<String>,
    /// What the local scheduler is told of a failed node's return (default `unknown`).
    #[serde(default, skip_serializing_if = "ExpectedReturn::is_unknown")]
    pub expected_return: ExpectedReturn,
}

/// What the local scheduler is told of a failed node's return, so that a request that needs it
/// can hold a reservation (javadi2012 is silent; erratum E18 says which reading is the main one).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExpectedReturn {
    /// Nothing: a failed node is down until further notice (what a batch scheduler knows).
    #[default]
    Unknown,
    /// The failures' mean unavailable interval after the failure (Table II's `t_u`), renewed
    /// while the node is still down.
    Mean,
    /// The instant the node actually comes back (an oracle).
    Known,
}

impl ExpectedReturn {
    fn is_unknown(&self) -> bool {
        *self == ExpectedReturn::Unknown
    }

    /// `unknown`, `mean` or `known`.
    pub fn name(self) -> &'static str {
        match self {
            ExpectedReturn::Unknown => "unknown",
            ExpectedReturn::Mean => "mean",
            ExpectedReturn::Known => "known",
        }
    }
}

fn default_groups() -> u32 {
    failures::DEFAULT_GROUPS
}

fn default_burn_in() -> u64 {
    failures::DEFAULT_BURN_IN_S
}

/// The broker (javadi2012 Sec. IV-A, IV-B, VI).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Broker {
    /// How a request's provider is picked.
    pub policy: Brokering,
    /// The routing probabilities ARS and ADS follow (NoR ignores them).
    pub routing: Routing,
}

/// javadi2012's provisioning policies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Brokering {
    /// No-Redirection: every request to the local cluster.
    Nor,
    /// Adaptive with Random Sequence: Bernoulli dispatch with the routing probabilities.
    Ars,
    /// Adaptive with Deterministic Sequence: the billiard sequence, the cloud as the "fastest"
    /// provider (`X_c = 1`, Sec. V; erratum E5).
    Ads,
}

/// Where the routing probabilities come from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Routing {
    /// Eq. 5 with E15's `eta`, from the workload's and providers' moments ([`Scenario::routing`]).
    Eq5,
    /// A given share of requests to the cloud, in `[0, 1]`.
    CloudShare(f64),
}

/// The cloud's prices (javadi2012 Eq. 19, Sec. VI-B).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    /// `C_p`, USD per VM-hour, each VM's hours rounded up (javadi2012: 0.085).
    pub vm_hour_usd: f64,
    /// `H_u`, the boot time charged once per cloud request, seconds (javadi2012: 80).
    pub boot_s: f64,
    /// `B_in`, data sent to the cloud per request, GB (javadi2012: 80 MB = 0.08 GB).
    pub data_in_gb: f64,
    /// `C_x`, USD per GB sent (javadi2012: 0.1).
    pub usd_per_gb: f64,
}

/// The broker's view of a scenario: its inputs and the routing it gives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Routed {
    /// `[P_s, P_c]`.
    pub p: [f64; 2],
    /// `lambda`, arrivals per second.
    pub arrival_rate: f64,
    /// `sigma_I^2`, seconds squared.
    pub arrival_variance: f64,
    /// `W`, MI.
    pub work_mi: f64,
    /// The local cluster's service (Eq. 8-12), per second.
    pub local: Service,
    /// The cloud's (Eq. 13), per second.
    pub cloud: Service,
}

/// Index of the local cluster among the providers.
pub const LOCAL: usize = 0;
/// Index of the cloud.
pub const CLOUD: usize = 1;

impl Scenario {
    /// The largest request, VMs: the smaller provider (a request runs on either).
    pub fn cap(&self) -> u32 {
        self.local.nodes.min(self.cloud.nodes)
    }

    /// The kernel's scheduling policy.
    ///
    /// Errors: a selective threshold outside `[0, 65535]`.
    pub fn policy(&self) -> Result<Policy> {
        self.scheduler.kernel()
    }

    /// The failures' source, the trace read (named by file and line on error); `None` for a
    /// reliable local cluster.
    ///
    /// Errors: an unreadable or bad trace; a process the file checks would refuse.
    pub fn failure_source(&self) -> Result<Option<Source>> {
        let Some(f) = &self.failures else {
            return Ok(None);
        };
        match (&f.trace, &f.available, &f.unavailable) {
            (Some(path), None, None) => {
                let trace = fta::read_path(Path::new(path), &fta::Options::default())?;
                Ok(Some(Source::Trace(Arc::new(trace))))
            }
            (None, Some(a), Some(u)) => {
                let p = Process {
                    available: a.clone(),
                    unavailable: u.clone(),
                    groups: f.groups,
                    burn_in_s: f.burn_in_s,
                };
                p.check(self.local.nodes)?;
                Ok(Some(Source::Process(p)))
            }
            _ => bail!("failures: give `available` and `unavailable`, or `trace`"),
        }
    }

    /// What the local scheduler is told of a failed node's return ([`ExpectedReturn`]): under
    /// `mean`, the failures' mean unavailable interval ([`Scenario::failure_moments`]'s
    /// `t_u`), rounded up to whole seconds.
    ///
    /// Errors: those of [`Scenario::failure_moments`].
    pub fn returns(&self) -> Result<Returns> {
        let Some(f) = &self.failures else {
            return Ok(Returns::Unknown);
        };
        Ok(match f.expected_return {
            ExpectedReturn::Unknown => Returns::Unknown,
            ExpectedReturn::Known => Returns::Known,
            ExpectedReturn::Mean => {
                let tu = self.failure_moments()?[2];
                Returns::Mean(tu.ceil().clamp(1.0, 1e15) as u64)
            }
        })
    }

    /// `[t_a, sigma_a^2, t_u, sigma_u^2]` of the local cluster's failures, seconds: the
    /// process's distributions', a trace's complete intervals' ([`fta::Trace::moments`]), or a
    /// reliable cluster's `[1, 0, 0, 0]`.
    ///
    /// Errors: those of [`Scenario::failure_source`]; a trace without an availability interval.
    pub fn failure_moments(&self) -> Result<[f64; 4]> {
        Ok(match self.failure_source()? {
            None => [1.0, 0.0, 0.0, 0.0],
            Some(Source::Process(p)) => [
                p.available.mean(),
                p.available.variance(),
                p.unavailable.mean(),
                p.unavailable.variance(),
            ],
            Some(Source::Trace(t)) => t.moments().context(
                "failures.trace: no node has two outages, so the trace has no availability \
                 interval for Eq. 10-11",
            )?,
        })
    }

    /// The routing the broker follows, with Eq. 5's inputs (javadi2012 Sec. IV-A, V): arrivals of
    /// rate `lambda` and variance `sigma_I^2` ([`RequestModel`]); the local cluster's service
    /// from Eq. 8-12 (Kleinrock's transient processors, with the failures' moments and
    /// `W = V D` times the reference speed), the cloud's from Eq. 13; costs `K_s`, `K_c`. With
    /// [`Routing::Eq5`] the kernel's broker gives `P` (E15's `eta`, water-filled); with
    /// [`Routing::CloudShare`] `P = (1 - share, share)`. NoR always routes `(1, 0)`.
    ///
    /// Errors: the workload's or the failures' (above), or the broker's refusal (named).
    pub fn routing(&self) -> Result<Routed> {
        let w = &self.workload;
        let work_mi = w
            .mean_work_mi(self.cap())
            .map_err(|e| anyhow!("workload.size: {e}"))?;
        let [ta, va, tu, vu] = self.failure_moments()?;
        let local = TransientCluster {
            work: work_mi,
            nodes: f64::from(self.local.nodes),
            speed: self.local.mips,
            transfer: self.local.transfer_s as f64,
            availability_mean: ta,
            availability_variance: va,
            unavailability_mean: tu,
            unavailability_variance: vu,
        }
        .service()
        .map_err(|e| anyhow!("the local cluster's service (Eq. 8-12): {e}"))?;
        let cloud = ReliableCloud {
            work: work_mi,
            nodes: f64::from(self.cloud.nodes),
            speed: self.cloud.mips,
            transfer: self.cloud.transfer_s as f64,
            cs2: self.cloud.cs2,
        }
        .service()
        .map_err(|e| anyhow!("the cloud's service (Eq. 13): {e}"))?;
        let (lambda, variance) = (w.arrival_rate(), w.arrival_variance());
        let p = match (self.broker.policy, self.broker.routing) {
            (Brokering::Nor, _) => [1.0, 0.0],
            (_, Routing::CloudShare(c)) => [1.0 - c, c],
            (_, Routing::Eq5) => {
                let providers = [
                    local.with_cost(self.local.cost),
                    cloud.with_cost(self.cloud.cost),
                ];
                let r = broker::route::<2>(lambda, variance, &providers)
                    .map_err(|e| anyhow!("the broker (Eq. 5): {e}"))?;
                [r.p()[LOCAL], r.p()[CLOUD]]
            }
        };
        Ok(Routed {
            p,
            arrival_rate: lambda,
            arrival_variance: variance,
            work_mi,
            local,
            cloud,
        })
    }
}

/// `v` is finite and `> 0`.
fn positive(p: &mut Problems, path: &str, v: f64) {
    if !(v.is_finite() && v > 0.0) {
        p.add(path, format!("must be a finite number > 0, got {v}"));
    }
}

/// `v` is finite and `>= 0`.
fn non_negative(p: &mut Problems, path: &str, v: f64) {
    if !(v.is_finite() && v >= 0.0) {
        p.add(path, format!("must be a finite number >= 0, got {v}"));
    }
}

/// Whole seconds at most [`MAX_SECONDS`].
fn whole_seconds(p: &mut Problems, path: &str, v: u64) {
    if v > MAX_SECONDS {
        p.add(
            path,
            format!("{v} s is above the largest accepted, {MAX_SECONDS} s"),
        );
    }
}

fn nodes(p: &mut Problems, path: &str, n: u32) {
    if n == 0 || n > MAX_NODES {
        p.add(path, format!("must be 1 ..= {MAX_NODES} nodes, got {n}"));
    }
}

/// Every problem of `s`, in the order of its keys.
///
/// The checks:
/// - an empty `name`, `replications` outside `1 ..= 10,000`, a `seed` above `i64::MAX`;
/// - `horizon_s` of 0, a `warmup_s` not below it, any time above [`MAX_SECONDS`];
/// - a workload distribution with an impossible or non-positive parameter (inter-arrival
///   times and durations are positive), a `load_scale` or `reference_mips` that is not finite
///   and positive, an `estimate_factor` below 1, a size rule the DAS-2 model refuses;
/// - a provider of 0 nodes (or more than [`MAX_NODES`]), a speed, cost or `cs2` that is not
///   finite and positive (`cs2 >= 0`);
/// - failures with both or neither of the process and a trace, a process distribution that is
///   impossible, `groups` outside `1 ..= local.nodes`;
/// - a selective threshold outside `[0, 65535]`, a cloud share outside `[0, 1]`;
/// - a price that is not finite and `>= 0`.
pub(super) fn check(s: &Scenario) -> Vec<Problem> {
    let mut p = Problems::default();
    p.header(&s.header);
    if s.horizon_s == 0 {
        p.add("horizon_s", "must be > 0 seconds");
    }
    for (key, v) in [
        ("horizon_s", s.horizon_s),
        ("warmup_s", s.warmup_s),
        ("drain_s", s.drain_s),
    ] {
        whole_seconds(&mut p, key, v);
    }
    if s.warmup_s >= s.horizon_s {
        p.add(
            "warmup_s",
            format!(
                "{} s must be less than horizon_s ({} s): no request would be measured",
                s.warmup_s, s.horizon_s
            ),
        );
    }
    let max = MAX_SECONDS as f64;
    let w = &s.workload;
    check_dist(
        &mut p,
        "workload.interarrival",
        &w.interarrival,
        "s",
        max,
        false,
    );
    positive(&mut p, "workload.load_scale", w.load_scale);
    check_dist(&mut p, "workload.duration", &w.duration, "s", max, false);
    positive(&mut p, "workload.reference_mips", w.reference_mips);
    if !(w.estimate_factor.is_finite() && w.estimate_factor >= 1.0) {
        p.add(
            "workload.estimate_factor",
            format!("must be a finite number >= 1, got {}", w.estimate_factor),
        );
    }
    if let Err(e) = w.sizes(s.cap().max(1)) {
        p.add(format!("workload.size.{}", e.param()), e.to_string());
    }
    nodes(&mut p, "local.nodes", s.local.nodes);
    positive(&mut p, "local.mips", s.local.mips);
    whole_seconds(&mut p, "local.transfer_s", s.local.transfer_s);
    positive(&mut p, "local.cost", s.local.cost);
    nodes(&mut p, "cloud.nodes", s.cloud.nodes);
    positive(&mut p, "cloud.mips", s.cloud.mips);
    whole_seconds(&mut p, "cloud.transfer_s", s.cloud.transfer_s);
    positive(&mut p, "cloud.cost", s.cloud.cost);
    non_negative(&mut p, "cloud.cs2", s.cloud.cs2);
    if let Some(f) = &s.failures {
        check_failures(&mut p, f, s.local.nodes);
    }
    let until = (s.horizon_s.saturating_add(s.drain_s)) as f64;
    let mut streams = vec![(
        "workload.interarrival".to_owned(),
        s.horizon_s as f64 * w.arrival_rate(),
        format!(
            "horizon_s {} s at {} request(s) per second",
            s.horizon_s,
            w.arrival_rate()
        ),
    )];
    if let Some(f) = &s.failures
        && let (Some(a), Some(u)) = (&f.available, &f.unavailable)
    {
        let cycle = a.mean() + u.mean();
        streams.push((
            "failures.available".to_owned(),
            2.0 * f64::from(s.local.nodes) * until / cycle,
            format!(
                "{} nodes failing and coming back every {cycle:.0} s on average over horizon_s + \
                 drain_s, {until} s",
                s.local.nodes
            ),
        ));
    }
    p.items("requests, failures and repairs", &streams);
    s.scheduler.check(&mut p, "scheduler.selective_threshold");
    if let Routing::CloudShare(c) = s.broker.routing
        && !(0.0..=1.0).contains(&c)
    {
        p.add(
            "broker.routing.cloud_share",
            format!("must be in [0, 1], got {c}"),
        );
    }
    for (key, v) in [
        ("price.vm_hour_usd", s.price.vm_hour_usd),
        ("price.boot_s", s.price.boot_s),
        ("price.data_in_gb", s.price.data_in_gb),
        ("price.usd_per_gb", s.price.usd_per_gb),
    ] {
        non_negative(&mut p, key, v);
    }
    p.0
}

fn check_failures(p: &mut Problems, f: &Failures, local_nodes: u32) {
    let max = MAX_SECONDS as f64;
    match (&f.trace, &f.available, &f.unavailable) {
        (Some(_), None, None) => {}
        (None, Some(a), Some(u)) => {
            check_dist(p, "failures.available", a, "s", max, false);
            check_dist(p, "failures.unavailable", u, "s", max, false);
            if f.groups == 0 || f.groups > local_nodes {
                p.add(
                    "failures.groups",
                    format!(
                        "must be 1 ..= local.nodes ({local_nodes}), got {}",
                        f.groups
                    ),
                );
            }
            whole_seconds(p, "failures.burn_in_s", f.burn_in_s);
        }
        (Some(_), _, _) => p.add(
            "failures.trace",
            "a trace replaces the synthetic process: give `trace` or `available` and \
             `unavailable`, not both",
        ),
        (None, _, _) => p.add(
            "failures",
            "give `available` and `unavailable` (the synthetic process) or `trace`",
        ),
    }
}

/// The scenario as TOML that [`Scenario::parse`](crate::models::ScenarioFile::parse) reads back unchanged, under a comment naming the format.
pub fn to_toml(s: &Scenario) -> String {
    config::to_toml(
        "# qosgate hybrid-cloud scenario (format: docs/hybrid-scenarios.md). Times in seconds,\n\
         # speeds in MIPS, prices in USD.\n",
        "hybrid",
        s,
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::models::ScenarioFile;
    use crate::workload::failures::{Fit, TABLE2};

    /// javadi2012's system at beta 0.25, theta 3 (Tables I-II, Sec. VI-B), EASY, ARS with Eq. 5.
    pub(crate) fn paper() -> Scenario {
        let fit = Process::table2(Fit::Weibull, 8).unwrap();
        Scenario {
            header: Header {
                name: "paper".into(),
                description: String::new(),
                seed: 2012,
                replications: 2,
            },
            horizon_s: 60 * 86_400,
            warmup_s: 7 * 86_400,
            drain_s: 30 * 86_400,
            workload: RequestModel::table1(0.25, 3.0),
            local: Cluster {
                nodes: 64,
                mips: 1000.0,
                transfer_s: 0,
                cost: 1.0,
            },
            cloud: Cloud {
                nodes: 64,
                mips: 1000.0,
                transfer_s: 64,
                cost: 5.0,
                cs2: 1.0,
            },
            failures: Some(Failures {
                available: Some(fit.available),
                unavailable: Some(fit.unavailable),
                groups: 8,
                burn_in_s: failures::DEFAULT_BURN_IN_S,
                trace: None,
                expected_return: ExpectedReturn::Unknown,
            }),
            scheduler: Scheduler {
                policy: PolicyName::Easy,
                selective_threshold: 2.0,
            },
            broker: Broker {
                policy: Brokering::Ars,
                routing: Routing::Eq5,
            },
            price: Price {
                vm_hour_usd: 0.085,
                boot_s: 80.0,
                data_in_gb: 0.08,
                usd_per_gb: 0.1,
            },
        }
    }

    #[test]
    fn a_scenario_reads_back_from_its_toml() {
        let s = paper();
        s.validate().unwrap();
        let text = to_toml(&s);
        assert_eq!(Scenario::parse(&text, "paper.toml").unwrap(), s);
        let shared = Scenario {
            broker: Broker {
                policy: Brokering::Ads,
                routing: Routing::CloudShare(0.3),
            },
            failures: Some(Failures {
                available: None,
                unavailable: None,
                trace: Some("g5k.tab".into()),
                expected_return: ExpectedReturn::Unknown,
                ..s.failures.clone().unwrap()
            }),
            ..s
        };
        assert_eq!(
            Scenario::parse(&to_toml(&shared), "s.toml").unwrap(),
            shared
        );
    }

    #[test]
    fn every_bad_value_is_named_with_its_position() {
        let text = to_toml(&paper())
            .replace("warmup_s = 604800", "warmup_s = 9999999999")
            .replace("groups = 8", "groups = 65")
            .replace("shape = 0.25", "shape = -0.25")
            .replace("cs2 = 1.0", "cs2 = -1.0")
            .replace(
                "policy = \"ars\"",
                "policy = \"ars\"\nrouting = { cloud_share = 1.5 }",
            )
            .replace("routing = \"eq5\"\n", "");
        let e = Scenario::parse(&text, "bad.toml").unwrap_err().to_string();
        let lines: Vec<&str> = e.lines().collect();
        let has = |needle: &str| lines.iter().any(|l| l.contains(needle));
        assert!(
            has("warmup_s: 9999999999 s must be less than horizon_s"),
            "{e}"
        );
        assert!(
            has("workload.interarrival.weibull.shape: shape must be > 0"),
            "{e}"
        );
        assert!(
            has("cloud.cs2: must be a finite number >= 0, got -1"),
            "{e}"
        );
        assert!(
            has("failures.groups: must be 1 ..= local.nodes (64), got 65"),
            "{e}"
        );
        assert!(
            has("broker.routing.cloud_share: must be in [0, 1], got 1.5"),
            "{e}"
        );
        assert!(lines.iter().all(|l| l.starts_with("bad.toml:")), "{e}");
        let both = to_toml(&paper()).replace("groups = 8", "groups = 8\ntrace = \"x.tab\"");
        let e = Scenario::parse(&both, "both.toml").unwrap_err().to_string();
        assert!(
            e.contains("failures.trace: a trace replaces the synthetic process"),
            "{e}"
        );
    }

    /// E16: at the paper's parameters Eq. 5 sends nothing to the cloud.
    #[test]
    fn eq5_routes_nothing_to_the_cloud_at_the_paper_parameters() {
        let r = paper().routing().unwrap();
        assert_eq!(r.p, [1.0, 0.0]);
        assert!((1.0 / r.arrival_rate - 561.0).abs() < 1e-9);
        // The local service model uses Table II's moments.
        let s = paper();
        let [ta, _, tu, _] = s.failure_moments().unwrap();
        assert!((ta / 3600.0 - TABLE2.available_mean_h).abs() < 1e-9);
        assert!((tu / 3600.0 - TABLE2.unavailable_mean_h).abs() < 1e-9);
        let nor = Scenario {
            broker: Broker {
                policy: Brokering::Nor,
                routing: Routing::CloudShare(0.4),
            },
            ..paper()
        };
        assert_eq!(nor.routing().unwrap().p, [1.0, 0.0]);
    }
}
