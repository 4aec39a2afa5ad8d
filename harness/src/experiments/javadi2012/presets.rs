//! The variants of javadi2012's experiments ([`Variant`]: one point by named fields) and the
//! built-in scenarios (`qosgate presets`).
//!
//! A variant builds its scenario ([`Variant::scenario`]) from the paper's system
//! ([`super::params`]): Table I's workload at its `beta` and `theta` (its arrival rate times
//! `load_scale`), 64 + 64 nodes of 1000 MIPS, `L_c` = 64 s, `K_s` = 1, `K_c` = 5, `C_Sc^2` = 1,
//! Table II's failures as Weibull fits in `groups` groups after a 30-day burn-in, two months of
//! arrivals after a week of warm-up and a 30-day drain, EC2's prices, and seed
//! [`params::SEED`] for every variant, so that every variant of a replication shares its
//! requests and failures (common random numbers).
//!
//! The presets are javadi2012's system at `beta` 0.25 and `theta` 3.0: NoR, ARS and ADS under CB,
//! SB and EB with the calibrated cloud share (`javadi2012-eb-ars`, ...), and ARS under EB with
//! Eq. 5's routing as printed (`javadi2012-eb-ars-eq5`, which routes nothing to the cloud).

use anyhow::{Result, bail};

use super::params::{self, BETA_MODERATE, THETA_MEDIUM};
use crate::config::Header;
use crate::experiments::Simulation;
use crate::models::ScenarioFile;
use crate::models::hybrid::scenario::{
    Broker, Brokering, Cloud, Cluster, ExpectedReturn, Failures, PolicyName, Routing, Scenario,
    Scheduler,
};
use crate::report::Mode;
use crate::workload::failures::{DEFAULT_BURN_IN_S, Fit, Process};
use crate::workload::requests::RequestModel;

/// Where a variant's routing comes from.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub enum Route {
    /// Literal: Eq. 5 with E15's `eta` at the paper's parameters.
    Eq5,
    /// Calibrated: the cloud share Table III's cost implies at the variant's `theta`
    /// ([`params::calibrated_share`]).
    Table3,
    /// Calibrated: this cloud share (the share sweep).
    Share(f64),
}

impl Route {
    /// Literal for Eq. 5, calibrated otherwise.
    pub fn mode(self) -> Mode {
        match self {
            Route::Eq5 => Mode::Literal,
            Route::Table3 | Route::Share(_) => Mode::Calibrated,
        }
    }
}

/// One point of javadi2012's experiments. Its `Debug` form names its runs.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Variant {
    /// NoR, ARS or ADS.
    pub brokering: Brokering,
    /// The routing ARS and ADS follow ([`Route::Eq5`] for NoR, which ignores it).
    pub route: Route,
    /// CB, SB or EB (both providers).
    pub scheduler: PolicyName,
    /// The Weibull shape of the inter-arrival times.
    pub beta: f64,
    /// The lognormal `theta` of the durations.
    pub theta: f64,
    /// The arrival-rate multiplier.
    pub load_scale: f64,
    /// Groups of nodes that fail together.
    pub groups: u32,
    /// Table I's durations read in minutes instead of seconds (the table prints no unit;
    /// erratum E20): `theta + ln 60`.
    pub minutes: bool,
    /// What the local scheduler is told of a failed node's return (E18: `unknown` is the main
    /// reading).
    pub returns: ExpectedReturn,
}

impl Variant {
    /// `brokering` with `route` under `scheduler` at `beta`, `theta`, the paper's rate and 8
    /// failure groups. NoR's route is always [`Route::Eq5`]: it ignores it, so its runs are
    /// shared by both modes.
    pub fn new(
        brokering: Brokering,
        route: Route,
        scheduler: PolicyName,
        beta: f64,
        theta: f64,
    ) -> Self {
        Self {
            brokering,
            route: if brokering == Brokering::Nor {
                Route::Eq5
            } else {
                route
            },
            scheduler,
            beta,
            theta,
            load_scale: 1.0,
            groups: params::GROUPS,
            minutes: false,
            returns: ExpectedReturn::Unknown,
        }
    }

    /// The lognormal `theta` of the durations in seconds: [`Variant::theta`], plus `ln 60` when
    /// the durations are read in minutes.
    pub fn theta_s(&self) -> f64 {
        if self.minutes {
            self.theta + 60f64.ln()
        } else {
            self.theta
        }
    }

    /// The same point under NoR.
    pub fn nor(self) -> Self {
        Self {
            brokering: Brokering::Nor,
            route: Route::Eq5,
            ..self
        }
    }

    /// The routing of the scenario.
    ///
    /// Errors: those of [`params::calibrated_share`].
    pub fn routing(&self) -> Result<Routing> {
        Ok(match self.route {
            Route::Eq5 => Routing::Eq5,
            Route::Table3 => Routing::CloudShare(params::calibrated_share(self.theta_s())?),
            Route::Share(s) => Routing::CloudShare(s),
        })
    }

    /// `javadi2012-eb-ars-b0.25-t3-x1-g8-table3`, with `-min` for durations in minutes and
    /// `-return-mean` / `-return-known` for what the scheduler is told of a failed node's return.
    pub fn name(&self) -> String {
        let route = match self.route {
            Route::Eq5 => "eq5".to_owned(),
            Route::Table3 => "table3".to_owned(),
            Route::Share(s) => format!("share{s}"),
        };
        let minutes = if self.minutes { "-min" } else { "" };
        let returns = match self.returns {
            ExpectedReturn::Unknown => String::new(),
            r => format!("-return-{}", r.name()),
        };
        format!(
            "javadi2012-{}-{}-b{}-t{}{minutes}-x{}-g{}-{route}{returns}",
            scheduler_name(self.scheduler).to_lowercase(),
            brokering_name(self.brokering).to_lowercase(),
            self.beta,
            self.theta,
            self.load_scale,
            self.groups
        )
    }
}

impl Simulation for Variant {
    type Scenario = Scenario;

    /// The variant's scenario (module docs), checked.
    ///
    /// Errors: a variant the model refuses (more groups than nodes, a share outside `[0, 1]`).
    fn scenario(&self) -> Result<Scenario> {
        let failures = Process::table2(Fit::Weibull, self.groups)?;
        let s = Scenario {
            header: Header {
                name: self.name(),
                description: format!(
                    "javadi2012: {} with {} backfilling at beta {}, theta {}{}, {}x the arrival \
                     rate, {} failure groups{} ({})",
                    brokering_name(self.brokering),
                    scheduler_name(self.scheduler),
                    self.beta,
                    self.theta,
                    if self.minutes { " (minutes)" } else { "" },
                    self.load_scale,
                    self.groups,
                    match self.returns {
                        ExpectedReturn::Unknown => String::new(),
                        r => format!(", a failed node's return {}", r.name()),
                    },
                    match self.route {
                        Route::Eq5 => "Eq. 5's routing".to_owned(),
                        Route::Table3 => "the cloud share of Table III's cost".to_owned(),
                        Route::Share(s) => format!("cloud share {s}"),
                    }
                ),
                seed: params::SEED,
                replications: 10,
            },
            horizon_s: params::HORIZON_S,
            warmup_s: params::WARMUP_S,
            drain_s: params::DRAIN_S,
            workload: RequestModel {
                load_scale: self.load_scale,
                ..RequestModel::table1(self.beta, self.theta_s())
            },
            local: Cluster {
                nodes: params::NODES,
                mips: params::MIPS,
                transfer_s: 0,
                cost: params::LOCAL_COST,
            },
            cloud: Cloud {
                nodes: params::NODES,
                mips: params::MIPS,
                transfer_s: params::CLOUD_TRANSFER_S,
                cost: params::CLOUD_COST,
                cs2: params::CLOUD_CS2,
            },
            failures: Some(Failures {
                available: Some(failures.available),
                unavailable: Some(failures.unavailable),
                groups: self.groups,
                burn_in_s: DEFAULT_BURN_IN_S,
                trace: None,
                expected_return: self.returns,
            }),
            scheduler: Scheduler {
                policy: self.scheduler,
                selective_threshold: 2.0,
            },
            broker: Broker {
                policy: self.brokering,
                routing: self.routing()?,
            },
            price: params::PRICE,
        };
        s.validate()?;
        Ok(s)
    }
}

/// `NoR`, `ARS`, `ADS`.
pub fn brokering_name(b: Brokering) -> &'static str {
    match b {
        Brokering::Nor => "NoR",
        Brokering::Ars => "ARS",
        Brokering::Ads => "ADS",
    }
}

/// `CB`, `SB`, `EB` (and `FCFS`).
pub fn scheduler_name(p: PolicyName) -> &'static str {
    match p {
        PolicyName::Conservative => "CB",
        PolicyName::Selective => "SB",
        PolicyName::Easy => "EB",
        PolicyName::Fcfs => "FCFS",
    }
}

/// The presets' names and variants (module docs).
fn catalogue() -> Vec<(String, Variant)> {
    let mut out = Vec::new();
    for s in [
        PolicyName::Conservative,
        PolicyName::Selective,
        PolicyName::Easy,
    ] {
        for b in [Brokering::Nor, Brokering::Ars, Brokering::Ads] {
            let v = Variant::new(b, Route::Table3, s, BETA_MODERATE, THETA_MEDIUM);
            let name = format!(
                "javadi2012-{}-{}",
                scheduler_name(s).to_lowercase(),
                brokering_name(b).to_lowercase()
            );
            out.push((name, v));
        }
    }
    out.push((
        "javadi2012-eb-ars-eq5".to_owned(),
        Variant::new(
            Brokering::Ars,
            Route::Eq5,
            PolicyName::Easy,
            BETA_MODERATE,
            THETA_MEDIUM,
        ),
    ));
    out
}

/// The presets' names.
pub fn names() -> Vec<String> {
    catalogue().into_iter().map(|(n, _)| n).collect()
}

/// Every preset, in [`names`] order.
///
/// Errors: a preset that cannot be built (a bug: the message names it).
pub fn all() -> Result<Vec<Scenario>> {
    names().iter().map(|name| get(name)).collect()
}

/// The preset called `name`.
///
/// Errors: an unknown name (the message lists the presets), or a variant the model refuses.
pub fn get(name: &str) -> Result<Scenario> {
    let Some((n, v)) = catalogue().into_iter().find(|(n, _)| n == name) else {
        bail!(
            "unknown javadi2012 preset `{name}`; the presets are: {}",
            names().join(", ")
        );
    };
    let mut scenario = v.scenario()?;
    scenario.header.name = n;
    Ok(scenario)
}
