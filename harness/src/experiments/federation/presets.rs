//! salehi2012's simulations: [`Variant`] names one point of Figs. 4-8 (its mode, the gateway's
//! policy and the four quantities the figures vary), [`Variant::scenario`] builds it from
//! [`super::params`], and [`names`] / [`get`] give the presets (each mode's fixed point under
//! each policy: `salehi2012-calibrated-pap-rtdp`, ...).
//!
//! # Where the paper is silent (each a scenario field, set here)
//! - **Deadlines**: a deadline-constrained request starts at once or is rejected (Sec. 2.1);
//!   its deadline, `arrival + 3 x duration` ([`DEADLINE_FACTOR`]), binds a migrated lease.
//! - **Where a migrated lease goes**: the gateway dispatches it again by its policy; if that is
//!   the cluster it left, the next cluster (`docs/federation-scenarios.md`).
//! - **Cluster rules**: conservative backfilling, local requests that cannot start even after
//!   preemption rejected (Sec. 5.3.3), MOML with less valuable types first ("the local
//!   scheduling policy ... preempts leases that belong to less valuable users").
//! - **Run length and drain**: arrivals during the two days; the run goes on until every lease
//!   has ended.
//! - **Seeds**: [`SEED`] `+ k` for replication `k`; every policy of a point sees the same
//!   workload in replication `k` (common random numbers).
//! - **Axis points**: Table 2's ranges at five points each ([`super::params`]); the x value of
//!   a point is its exact mean (VMs, seconds, requests per second).

use anyhow::{Result, bail};

use super::params::{self, CLUSTERS, HORIZON_S};
use crate::config::Header;
use crate::experiments::Simulation;
use crate::models::federation::scenario::{
    ClusterConfig, ClusterRules, Dist, External, Gateway, GatewayPolicy, LocalWorkload, PapConfig,
    Scenario, TypeShares, VmOverheads,
};
use crate::report::Mode;

/// Seed of replication 0.
pub const SEED: u64 = 1;

/// A deadline-constrained request's deadline, in durations after its arrival.
pub const DEADLINE_FACTOR: f64 = 3.0;

/// How a variant's arrivals are drawn along one axis.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub enum Arrivals {
    /// The mode's fixed rows.
    Fixed,
    /// A point of the varied rows: the external row's `alpha`, or the local rows' fraction
    /// ([`params::LOCAL_AXIS_FRACTIONS`]).
    Varied(f64),
}

/// One simulation of salehi2012's experiments.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Variant {
    /// Literal or calibrated ([`super::params`]).
    pub mode: Mode,
    /// The gateway's policy.
    pub policy: GatewayPolicy,
    /// `m` of the external sizes.
    pub size_mid: f64,
    /// `a` of the external durations.
    pub duration_log_mean: f64,
    /// The external arrivals.
    pub external: Arrivals,
    /// The local arrivals.
    pub local: Arrivals,
}

impl Variant {
    /// The fixed point of `mode` under `policy`.
    pub fn fixed(mode: Mode, policy: GatewayPolicy) -> Self {
        Self {
            mode,
            policy,
            size_mid: mode.pick(params::CALIBRATED_SIZE_MID, params::LITERAL_SIZE_MID),
            duration_log_mean: params::fixed_duration_log_mean(),
            external: Arrivals::Fixed,
            local: Arrivals::Fixed,
        }
    }

    /// Its name: `salehi2012-<mode>-<policy>` at the fixed point.
    pub fn name(&self) -> String {
        let fixed = *self == Self::fixed(self.mode, self.policy);
        format!(
            "salehi2012-{}-{}{}",
            self.mode.name(),
            self.policy.label().to_lowercase(),
            if fixed { "" } else { "-point" }
        )
    }
}

impl Simulation for Variant {
    type Scenario = Scenario;

    /// The scenario.
    ///
    /// Errors: a size model the constants make impossible (a bug).
    fn scenario(&self) -> Result<Scenario> {
        let scale = match self.mode {
            Mode::Literal => 1.0,
            Mode::Calibrated => params::calibration_scale()?,
        };
        let (units, size_mean) = self.mode.pick(params::CALIBRATED_PAP, params::LITERAL_PAP);
        let scaled = |(alpha, beta): (f64, f64)| params::weibull((alpha * scale, beta));
        let interarrival_s = match (self.external, self.mode) {
            (Arrivals::Varied(alpha), _) => vec![scaled((alpha, params::EXTERNAL_AXIS_SHAPE))],
            (Arrivals::Fixed, Mode::Literal) => {
                params::CLUSTER_ROWS.iter().map(|&r| scaled(r)).collect()
            }
            (Arrivals::Fixed, Mode::Calibrated) => vec![scaled(params::GRID_ROW)],
        };
        let clusters = CLUSTERS
            .iter()
            .enumerate()
            .map(|(j, &(name, nodes, mips))| {
                let row = match (self.local, self.mode) {
                    (Arrivals::Varied(f), _) => {
                        let (hi, lo) = params::LOCAL_AXIS_SCALES[j];
                        (hi * (lo / hi).powf(f), params::LOCAL_AXIS_SHAPE)
                    }
                    (Arrivals::Fixed, Mode::Literal) => params::GRID_ROW,
                    (Arrivals::Fixed, Mode::Calibrated) => params::CLUSTER_ROWS[j],
                };
                ClusterConfig {
                    name: name.into(),
                    nodes,
                    mips,
                    local: Some(LocalWorkload {
                        interarrival_s: scaled(row),
                        size: params::LOCAL_SIZES[j],
                        duration_s: Dist::Lognormal {
                            log_mean: params::LOCAL_DURATION_LOG_MEANS[j],
                            log_sd: params::DURATION_LOG_SD,
                        },
                    }),
                }
            })
            .collect();
        Ok(Scenario {
            header: Header {
                name: self.name(),
                description: format!(
                    "salehi2012, {} mode, {}: m = {}, a = {:.3}, {}, {}",
                    self.mode.name(),
                    self.policy.label(),
                    self.size_mid,
                    self.duration_log_mean,
                    match self.external {
                        Arrivals::Fixed => "external arrivals of the fixed rows".to_owned(),
                        Arrivals::Varied(alpha) => format!("external arrivals alpha = {alpha}"),
                    },
                    match self.local {
                        Arrivals::Fixed => "local arrivals of the fixed rows".to_owned(),
                        Arrivals::Varied(f) => format!("local arrivals at axis fraction {f}"),
                    }
                ),
                seed: SEED,
                replications: super::PRESET_REPLICATIONS,
            },
            horizon_s: HORIZON_S,
            gateway: Gateway {
                policy: self.policy,
                pap: PapConfig {
                    units,
                    size_mean,
                    ..PapConfig::default()
                },
            },
            external: External {
                interarrival_s,
                size: params::external_size(self.size_mid),
                duration_s: Dist::Lognormal {
                    log_mean: self.duration_log_mean,
                    log_sd: params::DURATION_LOG_SD,
                },
                shares: TypeShares::default(),
                deadline_factor: DEADLINE_FACTOR,
            },
            overheads: VmOverheads::PAPER,
            rules: ClusterRules::default(),
            clusters,
        })
    }
}

/// The presets: each mode's fixed point under each policy.
pub fn names() -> Vec<String> {
    [Mode::Literal, Mode::Calibrated]
        .into_iter()
        .flat_map(|m| GatewayPolicy::ALL.map(|p| Variant::fixed(m, p).name()))
        .collect()
}

/// Every preset, in [`names`] order.
///
/// Errors: a preset that cannot be built (a bug: the message names it).
pub fn all() -> Result<Vec<Scenario>> {
    names().iter().map(|name| get(name)).collect()
}

/// The preset called `name`.
///
/// Errors: an unknown name.
pub fn get(name: &str) -> Result<Scenario> {
    for mode in [Mode::Literal, Mode::Calibrated] {
        for policy in GatewayPolicy::ALL {
            let v = Variant::fixed(mode, policy);
            if v.name() == name {
                return v.scenario();
            }
        }
    }
    bail!("unknown preset `{name}`")
}
