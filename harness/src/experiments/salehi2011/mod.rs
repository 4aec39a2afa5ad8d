//! `qosgate reproduce salehi2011`: seed 001's experiments (Salehi & Buyya 2011, Figs. 2-5) on
//! the federation model, in two modes, and its claims judged from the runs.
//!
//! # The experiments
//! Seed 001 gives no parameters; SPEC-NOTES N11: seed 000's setup on one cluster, the C128
//! row ([`presets`]). Figs. 2-3: one cluster of 128 elements, MOML, MOV and MLIP, each with the
//! class preference off (the comparison: with cancelling free and the preference on, the three
//! pick the same set whenever Cancelable leases suffice, N11) and on (reported beside), over
//! three axes ([`measure::Axis`]): (a) the external requests' mean VMs, (b) the % of best-effort
//! external requests, (c) the % of local requests. Metrics: utilization (Eq. 21; Fig. 2) and
//! leases preempted (Fig. 3). Figs. 4-5 repeat seed 000's federation over its axes (b)-(d)
//! (duration, external rate, local rate): VMs preempted, and Migratable requests migrated and
//! Non-preemptable requests rejected; those runs are seed 000's simulations
//! ([`crate::experiments::salehi2012`]: its modes, policies and choices).
//!
//! # Literal and calibrated
//! As seed 000's ([`crate::experiments::salehi2012`]): literal, the printed rows (C128: local
//! Weibull(7.0, 1.1), external the C128 row Weibull(1.6, 0.35), local load alone about 9.6
//! times the cluster); calibrated, the rows swapped back, the local inter-arrival times times
//! the calibration scale, and the external stream thinned to the share PAP gives C128 in the
//! calibrated federation (offered utilisation about 0.88).
//!
//! # Criteria (per mode, the class preference off; nothing decided in advance)
//! "Almost linearly" is Pearson's r of the means along the axis at least 0.9 in absolute
//! value, for each of MOML, MOV and MLIP.
//! 1. **Fig. 2** (claim 1): utilization (a) rises almost linearly with the mean VMs; (b) is
//!    higher at 100 % best effort than at 0 % (and r > 0); (c) falls almost linearly with the
//!    % of local requests.
//! 2. **Fig. 3** (claim 2): leases preempted (a) fall with the mean VMs (last below first, r <
//!    0); (b) rise almost linearly with the best-effort %; (c) rise almost linearly with the
//!    local %; and "most of the time MLIP results in a minimum number of preemptions and MOML
//!    operates between MLIP and MOV": over every point of Figs. 3(a)-(c), MLIP is the lowest
//!    of the three at more than half the points and MOML lies between MLIP and MOV at more than
//!    half.
//! 3. **Figs. 4-5** (claim 3): PAP-RTDP's VMs preempted is below every other policy's at every
//!    point of Figs. 4(a)-(c); PAP-RND - PAP-RTDP, averaged over the points, is above 0 in at
//!    least 5 of Figs. 5(a)-(f) (migrations and rejections).
//!
//! # Files
//! - [`presets`]: [`Variant`] (one cluster, or seed 000's federation), the cluster's scenario,
//!   the presets.
//! - `measure.rs`: the cluster's axes, figures and trends.
//! - `claim1.rs` ... `claim3.rs`: one claim each.

mod claim1;
mod claim2;
mod claim3;
pub mod measure;
pub mod presets;

use anyhow::Result;

use super::{Experiment, Part, Precision};
use crate::models::AnyScenario;
use crate::models::federation::Federation;
use crate::models::federation::scenario::Scenario;
use crate::report::{Mode, Parameters};
use presets::Variant;

/// Seed 001 ([`Experiment`]).
#[derive(Debug, Clone, Copy)]
pub struct Salehi2011;

impl Salehi2011 {
    /// Replications of a preset scenario (the first batch of [`Experiment::REPLICATIONS`]).
    pub const PRESET_REPLICATIONS: u32 = super::salehi2012::Salehi2012::PRESET_REPLICATIONS;
}

impl Experiment for Salehi2011 {
    type Model = Federation;
    type Variant = Variant;

    const ID: &'static str = "salehi2011";
    const TITLE: &'static str = "seed 001 Sec. III-IV";
    /// Replications of every variant when `--replications` is not given.
    const REPLICATIONS: Precision = Precision {
        first: Self::PRESET_REPLICATIONS,
        cap: Self::PRESET_REPLICATIONS,
    };

    fn parts(&self) -> Vec<Part<Self>> {
        vec![
            Part {
                id: "claim1",
                figures: claim1::FIGURES,
                variants: claim1::variants(),
                judge: claim1::judge,
            },
            Part {
                id: "claim2",
                figures: claim2::FIGURES,
                variants: claim2::variants(),
                judge: claim2::judge,
            },
            Part {
                id: "claim3",
                figures: claim3::FIGURES,
                variants: claim3::variants(),
                judge: claim3::judge,
            },
        ]
    }

    fn parameters(&self) -> Vec<Parameters> {
        vec![
            Parameters {
                mode: Mode::Literal,
                description: "Figs. 2-3: one cluster of 128 elements at 3000 MIPS (N11: seed \
                              000's C128 row), local Weibull(7.0, 1.1) (seed 000's 'local, \
                              Grid' row, as printed) and external Weibull(1.6, 0.35) (its C128 \
                              'external' row), C128's local sizes and durations, external \
                              sizes of Table 2's Grid row (m = 2.5) lasting 420 s on average, \
                              two days, conservative backfilling, local requests that cannot \
                              start rejected; the local load alone is about 9.6 times the \
                              cluster. Figs. 4-5: seed 000's literal federation."
                    .into(),
            },
            Parameters {
                mode: Mode::Calibrated,
                description: "Figs. 2-3: C128 as in seed 000's calibrated federation: local \
                              Weibull(1.6, 0.35) times the calibration scale, the external \
                              stream Weibull(7.0, 1.1) thinned to PAP's share of C128 at the \
                              fixed point, exact means (m = 2.12); offered utilisation about \
                              0.88. Figs. 4-5: seed 000's calibrated federation."
                    .into(),
            },
        ]
    }

    fn scenario(&self, variant: &Variant) -> Result<Scenario> {
        variant.scenario()
    }

    fn presets(&self) -> Result<Vec<Box<dyn AnyScenario>>> {
        presets::names()
            .iter()
            .map(|name| Ok(Box::new(presets::get(name)?) as Box<dyn AnyScenario>))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On no runs nothing holds, and every part draws the figures it names.
    #[test]
    fn judges_hold_nothing_without_runs_and_draw_their_figures() {
        crate::experiments::check_judges(&Salehi2011);
    }

    /// A federation point's key is seed 000's: the runs of one are the runs of the other.
    #[test]
    fn a_federation_point_keys_as_seed_000s() {
        let v = crate::experiments::salehi2012::presets::Variant::fixed(
            Mode::Calibrated,
            crate::models::federation::scenario::GatewayPolicy::PapRtdp,
        );
        assert_eq!(format!("{:?}", Variant::Federation(v)), format!("{v:?}"));
    }
}
