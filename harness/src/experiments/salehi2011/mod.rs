//! `qosgate reproduce salehi2011`: salehi2011's experiments (Salehi & Buyya 2011, Figs. 2-5) on
//! the federation model, in two modes, and its claims judged from the runs.
//!
//! # The experiments
//! salehi2011 gives no parameters; erratum E12: salehi2012's setup on one cluster, the C128
//! row ([`presets`]). Figs. 2-3: one cluster of 128 elements, MOML, MOV and MLIP, each with the
//! class preference off (the comparison: with cancelling free and the preference on, the three
//! pick the same set whenever Cancelable leases suffice, E12) and on (reported beside), over
//! three axes ([`measure::Axis`]): (a) the external requests' mean VMs, (b) the % of best-effort
//! external requests, (c) the % of local requests. Metrics: utilization (Eq. 21; Fig. 2) and
//! leases preempted (Fig. 3). Figs. 4-5 repeat salehi2012's federation over its axes (b)-(d)
//! (duration, external rate, local rate): VMs preempted, and Migratable requests migrated and
//! Non-preemptable requests rejected; those runs are salehi2012's simulations
//! ([`crate::experiments::salehi2012`]: its modes, policies and choices).
//!
//! # Literal and calibrated
//! As salehi2012's ([`crate::experiments::salehi2012`]): literal, the printed rows (C128: local
//! Weibull(7.0, 1.1), external the C128 row Weibull(1.6, 0.35), local load alone about 9.6
//! times the cluster); calibrated, the rows swapped back, every inter-arrival time times the
//! calibration's one time scale (erratum E11), and the external stream thinned to the share
//! PAP gives C128 in the calibrated federation (offered utilisation 0.764). The local-share
//! axis (Fig. 2(c)) holds the fixed point's offered work, not its total rate.
//!
//! # Claims, margins and replications (per mode, the class preference off)
//! Every statement is a claim with a stable id `salehi2011.<mode>.<figure>.<slug>`, judged as
//! salehi2012's are ([`crate::experiments::salehi2012`]: paired 95 % intervals under common
//! random numbers against a margin; reproduced, contradicted or inconclusive). salehi2011 prints
//! no numbers, so every margin is practical: "almost linearly" is Pearson's r of the means
//! along the axis at least 0.9 in size; "fewer" at least 5 % below; "improves", "more" of a
//! percentage at least 1 point. A correlation's interval is the delta method on Fisher's z of
//! the r of the means (paired by replication); a ratio's, the delta method on the ratio of
//! means (or of totals).
//! 1. **Fig. 2** (claim 1), for each of MOML, MOV and MLIP: (a)
//!    `fig2a.utilization-linear-in-vms`: r of utilization (Eq. 21) against the mean VMs at
//!    least 0.9; (b) `fig2b.best-effort-raises-utilization`: utilization at 100 % best effort
//!    minus at 0 % at least 1 point; (c) `fig2c.utilization-falls-linearly-with-local`: r
//!    against the % of local requests at most -0.9.
//! 2. **Fig. 3** (claim 2), for each policy: (a) `fig3a.more-vms-fewer-preemptions`: leases
//!    preempted at the largest mean VMs at least 5 % below those at the smallest; (b)
//!    `fig3b.preemptions-linear-in-best-effort` and (c) `fig3c.preemptions-linear-in-local`: r
//!    at least 0.9. "Most of the time MLIP results in a minimum number of preemptions and
//!    MOML operates between MLIP and MOV", over the totals of every point of Figs. 3(a)-(c):
//!    `fig3.mlip-fewest`, MLIP's total at least 5 % below MOML's and MOV's;
//!    `fig3.moml-between`, MLIP's total not above MOML's, nor MOML's above MOV's, by more than
//!    5 % (ends included).
//! 3. **Figs. 4-5** (claim 3): `fig4.pap-rtdp-fewest-preemptions`: at every point of Figs.
//!    4(a)-(c), PAP-RTDP's VMs preempted at least 5 % below each other policy's;
//!    `fig5.pap-rtdp-fewer-migrations-rejections`: PAP-RND - PAP-RTDP averaged over each of
//!    Figs. 5(a)-(e)'s points at least 1 point (5(f) is "not substantially better": printed
//!    only).
//!
//! Nothing is censored: every run drains (salehi2012's rule). Each claim is one part per mode
//! (`claim1` calibrated, `claim1-literal`, ...), so the modes add replications apart: 10 of
//! every random variant, doubled for a mode's parts while one of their claims is unsettled, up
//! to 100 (salehi2011 states no count; its Figs. 4-5 are salehi2012's experiments, which state
//! 100).
//!
//! # Files
//! - [`presets`]: [`Variant`] (one cluster, or salehi2012's federation), the cluster's scenario,
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
use crate::models::federation::Federation;
use crate::models::federation::scenario::Scenario;
use crate::report::{Citation, Mode, Parameters};
use presets::Variant;

/// salehi2011 ([`Experiment`]).
#[derive(Debug, Clone, Copy)]
pub struct Salehi2011;

impl Experiment for Salehi2011 {
    type Model = Federation;
    type Variant = Variant;

    const ID: &'static str = "salehi2011";
    const PAPER: Citation = Citation {
        authors: "M. Amini Salehi, R. Buyya",
        title: "Contention-aware resource management system in a virtualized Grid federation",
        venue: "no venue printed in the supplied text",
        year: 2011,
    };
    const TITLE: &'static str = "Sec. III-IV";
    /// Replications by precision when `--replications` is not given: 10 of every variant,
    /// doubled for a mode's parts while one of their claims is unsettled, up to 100. salehi2011
    /// states no count; its Figs. 4-5 are salehi2012's experiments, which state 100, and the
    /// same cap keeps one rule for the federation's runs in both papers.
    const REPLICATIONS: Precision = Precision {
        first: 10,
        cap: 100,
    };
    const PRESETS: fn() -> Result<Vec<Scenario>> = presets::all;

    fn parts(&self) -> Vec<Part<Self>> {
        let claim = Part::in_both_modes;
        let variants = measure::variants_of;
        [
            claim(
                ["claim1", "claim1-literal"],
                claim1::FIGURES,
                claim1::judge,
                variants,
            ),
            claim(
                ["claim2", "claim2-literal"],
                claim2::FIGURES,
                claim2::judge,
                variants,
            ),
            claim(
                ["claim3", "claim3-literal"],
                claim3::FIGURES,
                claim3::judge,
                claim3::variants_in,
            ),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    fn parameters(&self) -> Vec<Parameters> {
        vec![
            Parameters {
                mode: Mode::Literal,
                description: "Figs. 2-3: one cluster of 128 elements at 3000 MIPS (E12: \
                              salehi2012's C128 row), local Weibull(7.0, 1.1) (salehi2012's \
                              'local, Grid' row, as printed) and external Weibull(1.6, 0.35) (its \
                              C128 'external' row), C128's local sizes and durations, external \
                              sizes of Table 2's Grid row (m = 2.5) lasting 420 s on average, two \
                              days, conservative backfilling, local requests that cannot start \
                              rejected; the local load alone is about 9.6 times the cluster. \
                              Fig. 2(c)'s local share holds the fixed point's offered work. \
                              Figs. 4-5: salehi2012's literal federation."
                    .into(),
            },
            Parameters {
                mode: Mode::Calibrated,
                description: "Figs. 2-3: C128 as in salehi2012's calibrated federation: local \
                              Weibull(1.6, 0.35) and the external stream Weibull(7.0, 1.1), \
                              both times the calibration's time scale (E11), the external one \
                              thinned to PAP's share of C128 at the fixed point, exact means \
                              (m = 2.12); offered utilisation 0.764. Fig. 2(c)'s local share \
                              holds the fixed point's offered work. Figs. 4-5: salehi2012's \
                              calibrated federation."
                    .into(),
            },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::Simulation;

    /// A federation point is salehi2012's simulation: the same scenario (hence the same runs),
    /// under a key of its own (`{"Federation": ...}`).
    #[test]
    fn a_federation_point_is_seed_000s_simulation() {
        let v = crate::experiments::federation::presets::Variant::fixed(
            Mode::Calibrated,
            crate::models::federation::scenario::GatewayPolicy::PapRtdp,
        );
        let ours = Variant::Federation(v);
        assert_eq!(
            crate::experiments::runfile::fingerprint(&ours.scenario().unwrap()),
            crate::experiments::runfile::fingerprint(&v.scenario().unwrap())
        );
        let key = crate::experiments::runner::key(&ours);
        assert!(key.starts_with("{\"Federation\":"), "{key}");
    }
}
