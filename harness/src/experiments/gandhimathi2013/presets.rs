//! Built-in scenarios: the simulations of seed 003 Sec. IV ([`Variant::scenario`]) and the
//! presets `qosgate presets` lists.
//!
//! A [`Variant`] is one point of the experiments by named integer fields (its `Debug` form is
//! its key): the scheduler, alpha (percent), the arrival-gap divisor, the share of reservations
//! (percent) and the mapping. Every other parameter is the paper's or N15's ([`super::params`]);
//! the traces are the compiled cut-downs, or the full traces under `QOSGATE_TRACES`, with the
//! window [`params::jobs`].

use anyhow::{Result, anyhow};

use super::params::{self, DATA_CENTERS};
use crate::models::multicloud::scenario::{
    self, CloudConfig, DagShape, MappingKind, Power, PreemptionKind, Scenario, SchedulerKind,
};
use crate::models::multicloud::traces;

/// Replications of a variant (N15: 10 seeds with 95 % intervals).
pub const REPLICATIONS: u32 = 10;

/// One point of seed 003's experiments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Variant {
    /// FCFS, DCLS or DCMMS.
    pub scheduler: SchedulerKind,
    /// Alpha, percent (0 for FCFS, which has none).
    pub alpha_pct: u8,
    /// Arrival gaps divided by this (1 loose, 100 tight).
    pub divisor: u32,
    /// Share of reservations, percent.
    pub ar_pct: u8,
    /// The mapping onto servers.
    pub mapping: MappingKind,
}

impl Variant {
    /// `scheduler` at `alpha_pct` with `divisor`, 20 % reservations, energy-aware mapping (FCFS
    /// has no alpha: it is kept at 0 so every FCFS point is one variant).
    pub fn new(scheduler: SchedulerKind, alpha_pct: u8, divisor: u32) -> Self {
        Self {
            scheduler,
            alpha_pct: if scheduler == SchedulerKind::Fcfs {
                0
            } else {
                alpha_pct
            },
            divisor,
            ar_pct: params::AR_PCT,
            mapping: MappingKind::EnergyAware,
        }
    }

    /// The same with `ar_pct` percent of reservations.
    pub fn with_ar(self, ar_pct: u8) -> Self {
        Self { ar_pct, ..self }
    }

    /// The same with another mapping.
    pub fn with_mapping(self, mapping: MappingKind) -> Self {
        Self { mapping, ..self }
    }

    /// Its scenario.
    ///
    /// Errors: a scenario the model's checks refuse (a bug: the message names it).
    pub fn scenario(&self) -> Result<Scenario> {
        let s = Scenario {
            name: self.name(),
            description: format!(
                "seed 003: {}, alpha {:.1}, {} % reservations, arrival gaps / {}, {} mapping",
                scheduler_name(self.scheduler),
                f64::from(self.alpha_pct) / 100.0,
                self.ar_pct,
                self.divisor,
                mapping_name(self.mapping)
            ),
            seed: params::SEED,
            replications: REPLICATIONS,
            scheduler: self.scheduler,
            alpha: f64::from(self.alpha_pct) / 100.0,
            mapping: self.mapping,
            preemption: PreemptionKind::Mlip,
            ar_share: f64::from(self.ar_pct) / 100.0,
            ar_notice_max_s: params::AR_NOTICE_MAX_S,
            gap_divisor: f64::from(self.divisor),
            image_s: params::IMAGE_S,
            dataset_s: params::DATASET_S,
            power: Power {
                active: params::POWER.0,
                idle: params::POWER.1,
            },
            dag: DagShape {
                max_tasks: 64,
                entry_probability: 0.1,
                max_preds: 3,
            },
            clouds: DATA_CENTERS
                .iter()
                .enumerate()
                .map(|(i, d)| CloudConfig {
                    name: d.name.into(),
                    servers: d.servers,
                    vms_per_server: d.cores,
                    performance: d.performance,
                    trace: traces::preferred(d.trace),
                    width_scale: d.width_scale,
                    jobs: params::jobs(i),
                })
                .collect(),
        };
        scenario::validate(&s).map_err(|e| anyhow!("variant {self:?}: {e}"))?;
        Ok(s)
    }

    /// `gandhimathi2013-dcmms-a80-g100-ar20-energy_aware`.
    fn name(&self) -> String {
        format!(
            "gandhimathi2013-{}-a{}-g{}-ar{}-{}",
            scheduler_name(self.scheduler).to_lowercase(),
            self.alpha_pct,
            self.divisor,
            self.ar_pct,
            mapping_name(self.mapping).replace('-', "_")
        )
    }
}

/// `FCFS`, `DCLS`, `DCMMS`.
pub fn scheduler_name(s: SchedulerKind) -> &'static str {
    match s {
        SchedulerKind::Fcfs => "FCFS",
        SchedulerKind::Dcls => "DCLS",
        SchedulerKind::Dcmms => "DCMMS",
    }
}

/// `energy-aware`, `first-fit`, `worst-fit`.
pub fn mapping_name(m: MappingKind) -> &'static str {
    match m {
        MappingKind::EnergyAware => "energy-aware",
        MappingKind::FirstFit => "first-fit",
        MappingKind::WorstFit => "worst-fit",
    }
}

/// The presets: each scheduler at alpha 0.8, 20 % reservations, energy-aware mapping, loose
/// and tight (`gandhimathi2013-dcmms-loose`, ...).
///
/// Errors: a preset that cannot be built (a bug).
pub fn presets() -> Result<Vec<Scenario>> {
    let mut all = Vec::new();
    for scheduler in [
        SchedulerKind::Fcfs,
        SchedulerKind::Dcls,
        SchedulerKind::Dcmms,
    ] {
        for (situation, divisor) in [("loose", params::LOOSE), ("tight", params::TIGHT)] {
            let v = Variant::new(scheduler, params::ALPHA_TABLES_PCT, divisor);
            let mut s = v.scenario()?;
            s.name = format!(
                "gandhimathi2013-{}-{situation}",
                scheduler_name(scheduler).to_lowercase()
            );
            all.push(s);
        }
    }
    Ok(all)
}
