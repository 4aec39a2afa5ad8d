//! Federation scenario files: what `qosgate run` simulates for `model = "federation"` (salehi2012
//! and 001), in TOML. The format, key by key, with units, defaults and errors, is in
//! `docs/federation-scenarios.md`.
//!
//! A scenario names the gateway (its allocation and dispatch policy, PAP's inputs, where a
//! migrated lease goes), the external workload, the VM overheads, the rules every cluster's
//! lease manager follows, and the clusters with their local workloads. Times are seconds,
//! speeds MIPS, sizes VMs (one VM per node).
//!
//! - [`Scenario::parse`](crate::models::ScenarioFile::parse) reads a file into a checked [`Scenario`]: every problem is
//!   `file:line:column: key: what is wrong` ([`crate::config`]).
//! - [`Scenario::validate`](crate::models::ScenarioFile::validate) runs the same checks on a scenario built in code (the presets).
//! - [`to_toml`] writes a scenario that [`Scenario::parse`](crate::models::ScenarioFile::parse) reads back unchanged.

use anyhow::Result;
use qosgate_kernel::lease::preempt::{Policy, Preference};
use qosgate_kernel::lease::{Admission, Overheads, Queue, Rules};
use qosgate_kernel::units::Ticks;
use serde::{Deserialize, Serialize};

use super::capacity;
use crate::config::{self, Header, Problem, Problems};
use crate::des::time::ticks;
use crate::models::grid::scenario::{MAX_SECONDS, check_dist};
pub use crate::workload::das2::{Das2Params, Das2Size};
pub use crate::workload::dist::Dist;
use crate::workload::dist::Distribution;

/// A federation scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Name, description, base seed and replications (the file's first keys: see
    /// [`Header`]).
    #[serde(skip)]
    pub header: Header,
    /// Requests arrive during `[0, horizon_s)`, seconds; the run goes on until every lease has
    /// ended.
    pub horizon_s: f64,
    /// The gateway (IGG).
    pub gateway: Gateway,
    /// The external requests the gateway receives.
    pub external: External,
    /// What preempting a VM costs (default: the paper's).
    #[serde(default)]
    pub overheads: VmOverheads,
    /// The rules every cluster's lease manager follows (default: [`ClusterRules::default`]).
    #[serde(default)]
    pub rules: ClusterRules,
    /// The clusters, in index order (at most [`capacity::CLUSTERS`]).
    pub clusters: Vec<ClusterConfig>,
}

/// The gateway: how external requests are split over the clusters and dispatched.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gateway {
    /// The allocation and dispatch policy (salehi2012 Sec. 5.2.1).
    pub policy: GatewayPolicy,
    /// PAP's inputs, for `pap-rnd` and `pap-rtdp` (default: [`PapConfig::default`]).
    #[serde(default)]
    pub pap: PapConfig,
}

/// salehi2012's policies: a workload allocation (shares of the external rate) and a dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GatewayPolicy {
    /// Round robin: each cluster in turn (Eq. 25; a deterministic cycle).
    Rr,
    /// Least rate first (Eq. 26, divided by `N - 1`), dispatched at random.
    LrfRnd,
    /// Biggest cluster first (Eq. 27: in proportion to `M_j s_j`), dispatched at random.
    BcfRnd,
    /// PAP (Algorithm 1 with errata E1-E3), dispatched at random.
    PapRnd,
    /// PAP, dispatched by RTDP (Algorithm 2: a billiard sequence per request type).
    PapRtdp,
}

impl GatewayPolicy {
    /// Every policy, in the paper's order.
    pub const ALL: [GatewayPolicy; 5] = [
        GatewayPolicy::Rr,
        GatewayPolicy::LrfRnd,
        GatewayPolicy::BcfRnd,
        GatewayPolicy::PapRnd,
        GatewayPolicy::PapRtdp,
    ];

    /// Its name in the paper (`PAP-RTDP`).
    pub fn label(self) -> &'static str {
        match self {
            GatewayPolicy::Rr => "RR",
            GatewayPolicy::LrfRnd => "LRF-RND",
            GatewayPolicy::BcfRnd => "BCF-RND",
            GatewayPolicy::PapRnd => "PAP-RND",
            GatewayPolicy::PapRtdp => "PAP-RTDP",
        }
    }
}

/// PAP's inputs, built from the scenario's workloads (salehi2012 Sec. 4.1, 5.2.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PapConfig {
    /// Relative precision of the solve (the kernel's `epsilon`; salehi2012: 0.001).
    pub epsilon: f64,
    /// `alpha`: the CV of external service times (Eq. 18; salehi2012: 0.5).
    pub external_cv: f64,
    /// `beta`: the CV of local service times (Eq. 19; salehi2012: 0.1).
    pub local_cv: f64,
    /// How service times are scaled (Eq. 16-17).
    pub units: PapUnits,
    /// Which mean request size PAP is given.
    pub size_mean: SizeMean,
}

impl Default for PapConfig {
    /// salehi2012 Sec. 5.2.1's precision and CVs, with consistent units and exact means.
    fn default() -> Self {
        Self {
            epsilon: 0.001,
            external_cv: 0.5,
            local_cv: 0.1,
            units: PapUnits::PerNode,
            size_mean: SizeMean::Exact,
        }
    }
}

/// Eq. 16-17's service times, `theta_j = v d / S_j` and `tau_j = zeta eps / S_j`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PapUnits {
    /// As printed: `S_j = M_j s_j`, the cluster's MIPS (VM-seconds per MIPS: erratum E9).
    PerMips,
    /// Consistent: `S_j = M_j`, so `theta_j` is seconds of the whole cluster and `rho_j` its
    /// local utilisation (a lease's duration is a time, the same on every cluster).
    PerNode,
}

/// The mean number of VMs PAP is given for a DAS-2 size model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SizeMean {
    /// Eq. 28 as printed (not the mean: erratum E7).
    Eq28,
    /// The exact mean of the rule (erratum E7).
    Exact,
}

/// The external workload at the gateway.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct External {
    /// Independent arrival streams whose superposition the gateway receives: each an
    /// inter-arrival distribution, seconds (salehi2012 Table 2, Weibull).
    pub interarrival_s: Vec<Dist>,
    /// Request sizes, VMs (DAS-2, two-stage log-uniform), cut to the smallest cluster.
    pub size: Das2Config,
    /// Request durations, seconds (lognormal); a lease's duration is the same on every cluster.
    pub duration_s: Dist,
    /// The share of each type; any non-negative scale (default: 25 % each, salehi2012 Sec.
    /// 5.2.1).
    #[serde(default)]
    pub shares: TypeShares,
    /// A deadline-constrained request's deadline is `arrival + deadline_factor x duration`.
    /// It starts at once or is rejected (salehi2012 Sec. 2.1); the deadline binds a Migratable
    /// lease when it is migrated: it must finish elsewhere by then, or is rejected. The papers
    /// give none; default 3.
    #[serde(default = "default_deadline_factor")]
    pub deadline_factor: f64,
}

/// The external request types' shares.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeShares {
    /// Best effort, cancelled when preempted.
    pub cancelable: f64,
    /// Best effort, suspended and resumed.
    pub suspendable: f64,
    /// Deadline-constrained, migrated to another cluster.
    pub migratable: f64,
    /// Deadline-constrained, never preempted.
    pub non_preemptable: f64,
}

/// [`External::deadline_factor`]'s default.
fn default_deadline_factor() -> f64 {
    3.0
}

impl Default for TypeShares {
    /// A quarter each.
    fn default() -> Self {
        Self {
            cancelable: 0.25,
            suspendable: 0.25,
            migratable: 0.25,
            non_preemptable: 0.25,
        }
    }
}

impl TypeShares {
    /// The four shares, in type order (Cancelable, Suspendable, Migratable, Non-preemptable).
    pub fn values(&self) -> [f64; 4] {
        [
            self.cancelable,
            self.suspendable,
            self.migratable,
            self.non_preemptable,
        ]
    }
}

/// A DAS-2 size model's parameters (salehi2012 Table 2; the cap is the cluster's size).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Das2Config {
    /// `l`, log2 of a size.
    pub low: f64,
    /// `m`.
    pub mid: f64,
    /// `h`.
    pub high: f64,
    /// `q`, the probability of the first stage.
    pub q: f64,
    /// `P_one`.
    pub p_one: f64,
    /// `P_pow2`.
    pub p_pow2: f64,
}

impl Das2Config {
    /// The size model, cut to `cap` VMs.
    ///
    /// Errors: the model's, naming the parameter.
    pub fn model(&self, cap: u32) -> Result<Das2Size, crate::workload::dist::DistError> {
        Das2Size::new(self.params(cap))
    }

    /// These parameters with the cap `cap` (unchecked: [`Das2Size::new`] checks them).
    pub const fn params(&self, cap: u32) -> Das2Params {
        Das2Params {
            low: self.low,
            mid: self.mid,
            high: self.high,
            q: self.q,
            p_one: self.p_one,
            p_pow2: self.p_pow2,
            cap,
        }
    }
}

/// Per-VM times of the preemption actions, seconds (salehi2012 Sec. 5.2: 160, 126, 372.5, 0).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VmOverheads {
    /// Suspending a VM.
    pub suspend_s: f64,
    /// Resuming it.
    pub resume_s: f64,
    /// Migrating it to another cluster (the transfer included).
    pub migrate_s: f64,
    /// Cancelling it.
    pub cancel_s: f64,
}

impl Default for VmOverheads {
    fn default() -> Self {
        Self::PAPER
    }
}

impl VmOverheads {
    /// The paper's.
    pub const PAPER: VmOverheads = VmOverheads {
        suspend_s: 160.0,
        resume_s: 126.0,
        migrate_s: 372.5,
        cancel_s: 0.0,
    };

    /// The kernel's form.
    pub fn kernel(&self) -> Overheads {
        Overheads {
            suspend: ticks(self.suspend_s),
            resume: ticks(self.resume_s),
            migrate: ticks(self.migrate_s),
            cancel: ticks(self.cancel_s),
        }
    }
}

/// What every cluster's lease manager does (the kernel's [`Rules`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClusterRules {
    /// How best-effort leases queue (salehi2012: conservative backfilling).
    pub queue: QueueRule,
    /// What a local request that cannot start even after preemption does (salehi2012 Sec.
    /// 5.3.3: rejected).
    pub local: LocalRule,
    /// Which leases a local request preempts (salehi2011 Sec. III).
    pub preemption: PreemptionPolicy,
    /// Whether less valuable types are preempted first (salehi2012 Sec. 4.2).
    pub preference: PreferenceRule,
    /// Best-effort leases a cluster's manager holds waiting (queued or suspended): a
    /// best-effort request dispatched to a cluster that already holds this many waits at the
    /// gateway, in arrival order, until one of them starts or ends (1 to
    /// [`capacity::BEST_EFFORT_QUEUE_MAX`]).
    #[serde(default = "default_best_effort_queue")]
    pub best_effort_queue: u32,
}

fn default_best_effort_queue() -> u32 {
    capacity::BEST_EFFORT_QUEUE
}

impl Default for ClusterRules {
    /// salehi2012's: conservative backfilling, local requests that cannot start rejected, MOML,
    /// less valuable types first.
    fn default() -> Self {
        Self {
            queue: QueueRule::Conservative,
            local: LocalRule::Reject,
            preemption: PreemptionPolicy::Moml,
            preference: PreferenceRule::Tiers,
            best_effort_queue: capacity::BEST_EFFORT_QUEUE,
        }
    }
}

impl ClusterRules {
    /// The kernel's form.
    pub fn kernel(&self) -> Rules {
        Rules {
            policy: self.preemption.kernel(),
            preference: match self.preference {
                PreferenceRule::Tiers => Preference::Tiers,
                PreferenceRule::Flat => Preference::Flat,
            },
            queue: match self.queue {
                QueueRule::Fcfs => Queue::Fcfs,
                QueueRule::Conservative => Queue::Conservative,
            },
            local: match self.local {
                LocalRule::Wait => Admission::Wait,
                LocalRule::Reject => Admission::Reject,
            },
        }
    }
}

/// [`Queue`] as a file spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum QueueRule {
    /// First come, first served.
    Fcfs,
    /// Conservative backfilling.
    Conservative,
}

/// [`Admission`] as a file spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LocalRule {
    /// Waits for its earliest fit.
    Wait,
    /// Is rejected.
    Reject,
}

/// [`Policy`] as a file (and `qosgate leases --policy`) spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum PreemptionPolicy {
    /// Median overhead, then fewest leases (salehi2011 Algorithm 1).
    Moml,
    /// Minimum overhead.
    Mov,
    /// Minimum number of leases.
    Mlip,
}

impl PreemptionPolicy {
    /// Every policy, in the paper's order.
    pub const ALL: [PreemptionPolicy; 3] = [
        PreemptionPolicy::Moml,
        PreemptionPolicy::Mov,
        PreemptionPolicy::Mlip,
    ];

    /// Its name in the paper.
    pub fn label(self) -> &'static str {
        match self {
            PreemptionPolicy::Moml => "MOML",
            PreemptionPolicy::Mov => "MOV",
            PreemptionPolicy::Mlip => "MLIP",
        }
    }

    /// Its name in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            PreemptionPolicy::Moml => "moml",
            PreemptionPolicy::Mov => "mov",
            PreemptionPolicy::Mlip => "mlip",
        }
    }

    /// The kernel's policy.
    pub fn kernel(self) -> Policy {
        match self {
            PreemptionPolicy::Moml => Policy::Moml,
            PreemptionPolicy::Mov => Policy::Mov,
            PreemptionPolicy::Mlip => Policy::Mlip,
        }
    }
}

/// [`Preference`] as a file spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PreferenceRule {
    /// Less valuable types first.
    Tiers,
    /// Every preemptable type alike.
    Flat,
}

/// A cluster.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClusterConfig {
    /// Its name (`C64`).
    pub name: String,
    /// Processing elements, one VM each.
    pub nodes: u32,
    /// Speed of each element, MIPS (Eq. 16-17 and 27 read it; durations do not depend on it).
    pub mips: u64,
    /// Its local users' requests; none without the table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local: Option<LocalWorkload>,
}

/// A cluster's local workload: every local request is Non-preemptable and has priority over
/// external leases.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocalWorkload {
    /// Inter-arrival times, seconds.
    pub interarrival_s: Dist,
    /// Sizes, VMs (cut to the cluster's size).
    pub size: Das2Config,
    /// Durations, seconds.
    pub duration_s: Dist,
}

/// The scenario as a TOML file that [`Scenario::parse`](crate::models::ScenarioFile::parse) reads back unchanged.
pub fn to_toml(s: &Scenario) -> String {
    config::to_toml(
        "# qosgate federation scenario (format: docs/federation-scenarios.md). Times in \
         seconds,\n# sizes in VMs (one per node), speeds in MIPS.\n",
        "federation",
        s,
    )
}

/// The longest duration or inter-arrival mean accepted, seconds.
const MAX_MEAN_S: f64 = 1e9;

/// Every problem of `s`, in the order of its keys.
///
/// Errors: every problem, one line each, naming the key.
pub(super) fn check(s: &Scenario) -> Vec<Problem> {
    let mut p = Problems::default();
    p.header(&s.header);
    p.seconds("horizon_s", s.horizon_s, false, MAX_SECONDS);
    check_pap(&mut p, &s.gateway.pap);
    check_external(
        &mut p,
        &s.external,
        s.clusters.iter().map(|c| c.nodes).min(),
    );
    for (key, v) in [
        ("overheads.suspend_s", s.overheads.suspend_s),
        ("overheads.resume_s", s.overheads.resume_s),
        ("overheads.migrate_s", s.overheads.migrate_s),
        ("overheads.cancel_s", s.overheads.cancel_s),
    ] {
        p.seconds(key, v, true, MAX_MEAN_S);
    }
    let queue = s.rules.best_effort_queue;
    if queue == 0 || queue > capacity::BEST_EFFORT_QUEUE_MAX {
        p.add(
            "rules.best_effort_queue",
            format!(
                "must be 1 to {} (a cluster holds {} live leases), got {queue}",
                capacity::BEST_EFFORT_QUEUE_MAX,
                capacity::LEASES
            ),
        );
    }
    if s.clusters.is_empty() || s.clusters.len() > capacity::CLUSTERS {
        p.add(
            "clusters",
            format!(
                "{} clusters: between 1 and {} are simulated",
                s.clusters.len(),
                capacity::CLUSTERS
            ),
        );
    }
    let stream = |key: String, d: &Dist| {
        let n = s.horizon_s / d.mean();
        let why = format!(
            "horizon_s {} s over a mean inter-arrival of {} s",
            s.horizon_s,
            d.mean()
        );
        (key, n, why)
    };
    let mut streams: Vec<(String, f64, String)> = s
        .external
        .interarrival_s
        .iter()
        .enumerate()
        .map(|(i, d)| stream(format!("external.interarrival_s[{i}]"), d))
        .collect();
    streams.extend(s.clusters.iter().enumerate().filter_map(|(j, c)| {
        let l = c.local.as_ref()?;
        Some(stream(
            format!("clusters[{j}].local.interarrival_s"),
            &l.interarrival_s,
        ))
    }));
    p.items("requests", &streams);
    for (j, c) in s.clusters.iter().enumerate() {
        let at = format!("clusters[{j}]");
        if c.name.trim().is_empty() {
            p.add(format!("{at}.name"), "must not be empty");
        } else if s.clusters[..j].iter().any(|d| d.name == c.name) {
            p.add(format!("{at}.name"), format!("`{}` is used twice", c.name));
        }
        if c.nodes == 0 || c.nodes > capacity::MAX_NODES {
            p.add(
                format!("{at}.nodes"),
                format!("must be 1 to {}, got {}", capacity::MAX_NODES, c.nodes),
            );
        }
        if c.mips == 0 {
            p.add(format!("{at}.mips"), "must be at least 1");
        }
        p.toml_int(&format!("{at}.mips"), c.mips);
        if let Some(l) = &c.local {
            check_dist(
                &mut p,
                &format!("{at}.local.interarrival_s"),
                &l.interarrival_s,
                "seconds",
                MAX_MEAN_S,
                false,
            );
            check_das2(&mut p, &format!("{at}.local.size"), &l.size, c.nodes.max(1));
            check_dist(
                &mut p,
                &format!("{at}.local.duration_s"),
                &l.duration_s,
                "seconds",
                MAX_MEAN_S,
                false,
            );
        }
    }
    p.0
}

fn check_pap(p: &mut Problems, c: &PapConfig) {
    use qosgate_kernel::allocate::{MAX_EPSILON, MIN_EPSILON};
    if !(MIN_EPSILON..=MAX_EPSILON).contains(&c.epsilon) {
        p.add(
            "gateway.pap.epsilon",
            format!(
                "{} is not a relative precision in [{MIN_EPSILON:e}, {MAX_EPSILON}]",
                c.epsilon
            ),
        );
    }
    for (key, v) in [
        ("gateway.pap.external_cv", c.external_cv),
        ("gateway.pap.local_cv", c.local_cv),
    ] {
        if !v.is_finite() || v < 0.0 {
            p.add(key, format!("a coefficient of variation is >= 0, got {v}"));
        }
    }
}

fn check_external(p: &mut Problems, e: &External, smallest: Option<u32>) {
    if e.interarrival_s.is_empty() {
        p.add("external.interarrival_s", "needs at least one stream");
    }
    for (i, d) in e.interarrival_s.iter().enumerate() {
        check_dist(
            p,
            &format!("external.interarrival_s[{i}]"),
            d,
            "seconds",
            MAX_MEAN_S,
            false,
        );
    }
    check_das2(p, "external.size", &e.size, smallest.unwrap_or(1).max(1));
    check_dist(
        p,
        "external.duration_s",
        &e.duration_s,
        "seconds",
        MAX_MEAN_S,
        false,
    );
    let shares = e.shares.values();
    for (key, v) in ["cancelable", "suspendable", "migratable", "non_preemptable"]
        .iter()
        .zip(shares)
    {
        if !v.is_finite() || v < 0.0 {
            p.add(
                format!("external.shares.{key}"),
                format!("must be finite and >= 0, got {v}"),
            );
        }
    }
    if shares.iter().all(|&v| v.is_finite() && v >= 0.0) && shares.iter().sum::<f64>() <= 0.0 {
        p.add(
            "external.shares",
            "at least one type needs a positive share",
        );
    }
    if !e.deadline_factor.is_finite() || e.deadline_factor < 1.0 {
        p.add(
            "external.deadline_factor",
            format!(
                "must be a finite number >= 1 (a deadline before the run could end), got {}",
                e.deadline_factor
            ),
        );
    }
}

fn check_das2(p: &mut Problems, path: &str, d: &Das2Config, cap: u32) {
    if let Err(e) = d.model(cap) {
        p.add(format!("{path}.{}", e.param()), e.to_string());
    }
}

/// A duration as the kernel's ticks, at least one tick (the kernel refuses empty leases).
pub fn lease_ticks(secs: f64) -> Ticks {
    ticks(secs).max(Ticks::new(1))
}

/// The mean of a size model as PAP is given it.
pub fn size_mean(model: &Das2Size, mean: SizeMean) -> f64 {
    match mean {
        SizeMean::Eq28 => model.eq28_mean(),
        SizeMean::Exact => model.mean(),
    }
}
