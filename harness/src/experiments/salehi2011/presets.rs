//! salehi2011's simulations. salehi2011 gives no experimental parameters; erratum E12:
//! salehi2012's setup on one cluster, the C128 row. [`Variant::Cluster`] is one point of Figs. 2-3
//! (one cluster, the preemption policy, its class preference, and the three quantities the
//! figures vary); [`Variant::Federation`] one of salehi2012's federation points, which Figs. 4-5
//! reuse (salehi2012's scenarios: the same simulations, under keys of their own).
//!
//! # The cluster, by mode (each a scenario field, set here)
//! - **Literal**: C128 as salehi2012's literal rows give it: local Weibull(7.0, 1.1) (the "local,
//!   Grid" row), external Weibull(1.6, 0.35) (the C128 "external" row), Eq. 28's and printed
//!   means; local load alone is about 9.6 times the cluster.
//! - **Calibrated**: C128 as it is in salehi2012's calibrated federation: local Weibull(1.6, 0.35)
//!   and the external stream Weibull(7.0, 1.1), both times the calibration's time scale, the
//!   external one thinned to the share PAP gives C128 at the fixed point (its scale divided by
//!   that share, 28 %): offered utilisation 0.764 (the federation's is 0.88; C128 receives
//!   less than its part of the external work).
//!
//! Axes (five points each, plus the fixed point where it is not one): (a) the external
//! requests' `m` (Table 2's range, as salehi2012's Fig. 5(a)); (b) the % of best-effort external
//! requests, split evenly between Cancelable and Suspendable, the rest evenly between Migratable
//! and Non-preemptable (the fixed point: 50 %); (c) the % of local requests among all requests,
//! the offered work (node-seconds per second) held at the fixed point's: a local request
//! carries about four times an external one's work (Table 2's C128 rows), so holding the total
//! rate instead would load the cluster two to three times over at 70-90 % local.

use std::fmt;

use anyhow::{Context, Result, bail};

use crate::config::Header;
use crate::experiments::Simulation;
use crate::experiments::federation::params;
use crate::experiments::federation::presets::{self as federation, DEADLINE_FACTOR, SEED};
use crate::models::federation::gateway;
use crate::models::federation::scenario::{
    ClusterConfig, ClusterRules, Dist, External, Gateway, GatewayPolicy, LocalWorkload, PapConfig,
    PreemptionPolicy, PreferenceRule, Scenario, TypeShares, VmOverheads,
};
use crate::report::Mode;
use crate::workload::dist::Distribution;

/// The cluster: C128 (E12).
const CLUSTER: usize = 1;

/// One simulation of salehi2011's experiments.
#[derive(Clone, Copy, PartialEq, serde::Serialize)]
pub enum Variant {
    /// One cluster (Figs. 2-3).
    Cluster(ClusterVariant),
    /// salehi2012's federation (Figs. 4-5).
    Federation(federation::Variant),
}

/// Printed as the inner variant (a federation point is salehi2012's simulation).
impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Variant::Cluster(c) => c.fmt(f),
            Variant::Federation(v) => v.fmt(f),
        }
    }
}

/// One point of Figs. 2-3.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ClusterVariant {
    /// Literal or calibrated.
    pub mode: Mode,
    /// The preemption policy.
    pub policy: PreemptionPolicy,
    /// Whether less valuable types go first.
    pub preference: PreferenceRule,
    /// `m` of the external sizes.
    pub size_mid: f64,
    /// % of external requests that are best effort.
    pub best_effort_pct: f64,
    /// % of all requests that are local; `None`: the fixed point's rates.
    pub local_pct: Option<f64>,
}

/// The fixed point's best-effort share, %.
pub const FIXED_BEST_EFFORT_PCT: f64 = 50.0;

/// Fig. 2(b)'s axis, %.
pub const BEST_EFFORT_PCTS: [f64; 5] = [0.0, 25.0, 50.0, 75.0, 100.0];

/// Fig. 2(c)'s axis, %.
pub const LOCAL_PCTS: [f64; 5] = [10.0, 30.0, 50.0, 70.0, 90.0];

impl ClusterVariant {
    /// The fixed point of `mode` under `policy` and `preference`.
    pub fn fixed(mode: Mode, policy: PreemptionPolicy, preference: PreferenceRule) -> Self {
        Self {
            mode,
            policy,
            preference,
            size_mid: Variant::fixed_mid(mode),
            best_effort_pct: FIXED_BEST_EFFORT_PCT,
            local_pct: None,
        }
    }

    /// Its name: `salehi2011-<mode>-<policy>-<preference>` at the fixed point.
    pub fn name(&self) -> String {
        let fixed = *self == Self::fixed(self.mode, self.policy, self.preference);
        format!(
            "salehi2011-{}-{}-{}{}",
            self.mode.name(),
            self.policy.label().to_lowercase(),
            match self.preference {
                PreferenceRule::Tiers => "tiers",
                PreferenceRule::Flat => "flat",
            },
            if fixed { "" } else { "-point" }
        )
    }

    /// The fixed point's `(external, local)` inter-arrival distributions.
    ///
    /// Errors: PAP cannot split salehi2012's calibrated fixed point (a bug).
    fn fixed_arrivals(&self) -> Result<(Dist, Dist)> {
        Ok(match self.mode {
            Mode::Literal => (
                params::weibull(params::CLUSTER_ROWS[CLUSTER]),
                params::weibull(params::GRID_ROW),
            ),
            Mode::Calibrated => {
                let whole = federation::Variant::fixed(Mode::Calibrated, GatewayPolicy::PapRnd)
                    .scenario()?;
                let share = gateway::split(&whole)?.shares[CLUSTER];
                let scale = params::calibration_scale()?;
                let (a, b) = params::GRID_ROW;
                let (la, lb) = params::CLUSTER_ROWS[CLUSTER];
                (
                    params::weibull((a * scale / share, b)),
                    params::weibull((la * scale, lb)),
                )
            }
        })
    }

    /// The scenario.
    ///
    /// Errors: a size model the constants make impossible, or a split PAP refuses (bugs).
    pub fn scenario(&self) -> Result<Scenario> {
        let (name, nodes, mips) = params::CLUSTERS[CLUSTER];
        let external_size = params::external_size(self.size_mid);
        let local_size = params::LOCAL_SIZES[CLUSTER];
        let external_duration = Dist::Lognormal {
            log_mean: params::fixed_duration_log_mean(),
            log_sd: params::DURATION_LOG_SD,
        };
        let local_duration = Dist::Lognormal {
            log_mean: params::LOCAL_DURATION_LOG_MEANS[CLUSTER],
            log_sd: params::DURATION_LOG_SD,
        };
        let (mut external, mut local) = self.fixed_arrivals()?;
        if let Some(pct) = self.local_pct {
            // Hold the fixed point's offered work (node-seconds per second) and make `pct` % of
            // the requests local: the total rate is that work over a request's mean work.
            let work_external = external_size.model(nodes)?.mean() * external_duration.mean();
            let work_local = local_size.model(nodes)?.mean() * local_duration.mean();
            let offered = work_external / external.mean() + work_local / local.mean();
            let share = pct / 100.0;
            let total = offered / (share * work_local + (1.0 - share) * work_external);
            external = rescaled(&external, total * (1.0 - share))?;
            local = rescaled(&local, total * share)?;
        }
        let be = self.best_effort_pct / 200.0;
        let dc = 0.5 - be;
        let (units, size_mean) = match self.mode {
            Mode::Literal => params::LITERAL_PAP,
            Mode::Calibrated => params::CALIBRATED_PAP,
        };
        Ok(Scenario {
            header: Header {
                name: self.name(),
                description: format!(
                    "salehi2011 on one cluster (E12), {} mode, {} ({}): m = {}, {} % best effort, {}",
                    self.mode.name(),
                    self.policy.label(),
                    match self.preference {
                        PreferenceRule::Tiers => "less valuable types first",
                        PreferenceRule::Flat => "every type alike",
                    },
                    self.size_mid,
                    self.best_effort_pct,
                    match self.local_pct {
                        Some(pct) => format!("{pct} % local"),
                        None => "local arrivals of the fixed point".to_owned(),
                    }
                ),
                seed: SEED,
                replications: crate::experiments::federation::PRESET_REPLICATIONS,
            },
            horizon_s: params::HORIZON_S,
            gateway: Gateway {
                policy: GatewayPolicy::Rr,
                pap: PapConfig {
                    units,
                    size_mean,
                    ..PapConfig::default()
                },
            },
            external: External {
                interarrival_s: vec![external],
                size: external_size,
                duration_s: external_duration,
                shares: TypeShares {
                    cancelable: be,
                    suspendable: be,
                    migratable: dc,
                    non_preemptable: dc,
                },
                deadline_factor: DEADLINE_FACTOR,
            },
            overheads: VmOverheads::PAPER,
            rules: ClusterRules {
                preemption: self.policy,
                preference: self.preference,
                ..ClusterRules::default()
            },
            clusters: vec![ClusterConfig {
                name: name.into(),
                nodes,
                mips,
                local: Some(LocalWorkload {
                    interarrival_s: local,
                    size: local_size,
                    duration_s: local_duration,
                }),
            }],
        })
    }
}

/// A Weibull `d` with its scale changed so that its rate is `rate`.
fn rescaled(d: &Dist, rate: f64) -> Result<Dist> {
    match *d {
        Dist::Weibull { scale, shape } => Ok(Dist::Weibull {
            scale: scale * (1.0 / d.mean()) / rate,
            shape,
        }),
        _ => None.context("only Weibull arrivals are rescaled"),
    }
}

impl Variant {
    /// The fixed point's `m` in `mode` (salehi2012's).
    pub fn fixed_mid(mode: Mode) -> f64 {
        federation::Variant::fixed(mode, GatewayPolicy::PapRtdp).size_mid
    }
}

impl Simulation for Variant {
    type Scenario = Scenario;

    /// The scenario.
    ///
    /// Errors: those of the inner variant's.
    fn scenario(&self) -> Result<Scenario> {
        match self {
            Variant::Cluster(c) => c.scenario(),
            Variant::Federation(v) => v.scenario(),
        }
    }
}

/// The presets: each mode's fixed point under each policy, preference off (the comparison) and
/// on.
pub fn names() -> Vec<String> {
    all_fixed().map(|v| v.name()).collect()
}

fn all_fixed() -> impl Iterator<Item = ClusterVariant> {
    [Mode::Literal, Mode::Calibrated].into_iter().flat_map(|m| {
        PreemptionPolicy::ALL.into_iter().flat_map(move |p| {
            [PreferenceRule::Flat, PreferenceRule::Tiers]
                .into_iter()
                .map(move |f| ClusterVariant::fixed(m, p, f))
        })
    })
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
    match all_fixed().find(|v| v.name() == name) {
        Some(v) => v.scenario(),
        None => bail!("unknown preset `{name}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scenario's offered work, node-seconds per second, and its share of local requests.
    fn offered(s: &Scenario) -> (f64, f64) {
        let c = &s.clusters[0];
        let local = c.local.as_ref().unwrap();
        let nodes = c.nodes;
        let external_rate = 1.0 / s.external.interarrival_s[0].mean();
        let local_rate = 1.0 / local.interarrival_s.mean();
        let work = external_rate
            * s.external.size.model(nodes).unwrap().mean()
            * s.external.duration_s.mean()
            + local_rate * local.size.model(nodes).unwrap().mean() * local.duration_s.mean();
        (work, local_rate / (local_rate + external_rate))
    }

    /// Fig. 2(c)'s axis holds the fixed point's offered work in both modes and gives the local
    /// users the axis' share of the requests; a local request carries 3.96 times an external
    /// one's work at the fixed point (calibrated), so the total rate falls as the share rises.
    /// The calibrated cluster's offered utilisation is 0.764.
    #[test]
    fn the_local_share_axis_holds_the_offered_work() {
        for mode in [Mode::Literal, Mode::Calibrated] {
            let fixed = ClusterVariant::fixed(mode, PreemptionPolicy::ALL[0], PreferenceRule::Flat);
            let (work, _) = offered(&fixed.scenario().unwrap());
            for pct in LOCAL_PCTS {
                let v = ClusterVariant {
                    local_pct: Some(pct),
                    ..fixed
                };
                let (w, share) = offered(&v.scenario().unwrap());
                assert!(
                    (w / work - 1.0).abs() < 1e-12,
                    "{mode:?} {pct}: {w} vs {work}"
                );
                assert!(
                    (share - pct / 100.0).abs() < 1e-12,
                    "{mode:?} {pct}: {share}"
                );
            }
        }
        let s = ClusterVariant::fixed(
            Mode::Calibrated,
            PreemptionPolicy::ALL[0],
            PreferenceRule::Flat,
        )
        .scenario()
        .unwrap();
        let local = s.clusters[0].local.as_ref().unwrap();
        let load = offered(&s).0 / 128.0;
        assert!((load - 0.764).abs() < 0.0005, "{load}");
        let ratio = local.size.model(128).unwrap().mean() * local.duration_s.mean()
            / (s.external.size.model(128).unwrap().mean() * s.external.duration_s.mean());
        assert!((ratio - 3.96).abs() < 0.005, "{ratio}");
    }
}
