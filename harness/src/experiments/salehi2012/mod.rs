//! `qosgate reproduce salehi2012`: salehi2012's experiments (Salehi, Javadi & Buyya 2012, Sec. 5,
//! Figs. 4-8 and Table 3) on the federation model ([`crate::models::federation`]), in two
//! modes, and the paper's claims judged from the runs.
//!
//! # The experiments
//! Three clusters of 64, 128 and 256 elements at 2000, 3000 and 2100 MIPS, each with local
//! users (Non-preemptable, priority) and a lease manager (conservative backfilling, MOML, less
//! valuable types first, local requests that cannot start rejected); a gateway receiving
//! external requests of the four types, 25 % each; VM overheads 160 / 126 / 372.5 / 0 s; the
//! DAS-2 workload of Table 2 for two days. Policies RR, LRF-RND, BCF-RND, PAP-RND, PAP-RTDP.
//! Four axes, five (axis (a), calibrated: six) points each ([`measure::Axis`],
//! [`params`]): (a) the external requests' mean VMs (Table 2's `2.5 <= m <= 3.5`), (b) their
//! mean duration (`3.0 <= a <= 5.4`: 85 to 938 s), (c) their arrival rate (`3.8 <= alpha <=
//! 7.0`, `beta = 0.5`), (d) the local arrival rate (the C64 / C128 / C256 rows' ranges); the
//! other three quantities at the fixed point (5 VMs, 420 s, the fixed rows). Each figure is one
//! metric over one axis in one mode, a line per policy with its 95 % band.
//!
//! # Literal and calibrated (errata E7-E11)
//! - **Literal**: Table 2 as printed ([`params`]): the fixed external arrivals are the C64 /
//!   C128 / C256 "external" rows (three streams at the gateway, 0.389 requests/s, where the
//!   text says 0.15), every cluster's fixed local arrivals the "local, Grid" row (0.148/s,
//!   where the text says 0.12); `m = 2.5`; PAP with Eq. 16-17 as printed (VM-seconds per MIPS)
//!   and Eq. 28's means. What breaks: the local load alone is 8-10 times each cluster's
//!   capacity, and as printed PAP sees `rho_j` of about 0.0015-0.0034 and sends every external
//!   request to C256, so PAP-RND and PAP-RTDP dispatch alike (the parameters' description says
//!   the split).
//! - **Calibrated**: the fixed rows swapped back (external 0.148/s at the gateway, local
//!   0.099 / 0.124 / 0.166 at the clusters), exact means (`m = 2.12`: 4.99 VMs), consistent
//!   units in PAP (`per-node`), and one change: every inter-arrival time, local and external,
//!   fixed and varied rows, times one factor, [`params::calibration_scale`] (about 11.45),
//!   which brings the offered utilisation to 0.88 at the fixed point and keeps the paper's
//!   ratio of external to local arrivals (erratum E11); PAP then splits 72 / 28 / 0 % over
//!   C64 / C128 / C256 (C256 carries the heaviest local load). An earlier reading slowed the
//!   local arrivals alone (x50.2): external requests then arrived 57 times as often as a
//!   cluster's local ones and preemption was rare; it is no longer run.
//!
//! A split that PAP refuses falls back to the rule of [`crate::models::federation::gateway`]
//! and the runs carry the flag; the parameters' description lists the points where it happens,
//! and the figures mark them. In the calibrated mode PAP refuses the upper three points of
//! Table 2's local axis (Fig. 5(d)) at any load of the fixed point from 0.5 to 0.88: that axis
//! reaches 20 times the fixed rows' local rate, so the local load alone saturates a cluster
//! there; PAP accepts every point only below about 3 % load (erratum E11).
//!
//! # Claims, margins and replications (per mode; nothing decided in advance)
//! Every statement is a claim of the paper ([`crate::report::statement`]), with a stable id
//! `salehi2012.<mode>.<figure>.<slug>` and a margin: the paper's own effect size where it
//! prints one (the abstract's 60 %), otherwise a practical one stated beside it (the paper
//! prints none for "fewer" or "higher": at least [`measure::FEWER_PCT`] % below the rival's
//! mean for a count or a time, at least [`measure::POINTS`] percentage point for a
//! percentage). Each point's effect comes with a 95 % interval over the replications, paired
//! (every policy of a point draws the same workload in replication `k`: common random
//! numbers); a point is reproduced when its interval lies in the claim's region, contradicted
//! when it lies outside, inconclusive otherwise; a claim "at every point" is reproduced when
//! every point is, contradicted when one is. The paper's own intervals are across a figure's
//! points (erratum E10): the evidence prints ours, made the same way, beside them.
//! 1. **Fig. 5** (claim 1): (a) `fig5.pap-rtdp-fewest-preemptions`: at every point of Figs.
//!    5(a)-(d), PAP-RTDP's mean VMs preempted at least 5 % below RR's, LRF-RND's, BCF-RND's
//!    and PAP-RND's (ratio of means, delta method); (b) `abstract.preemptions-60-percent-fewer`:
//!    PAP-RTDP's total VMs preempted over every point at least 60 % below RR's, LRF-RND's and
//!    BCF-RND's (ratio of totals, delta method; the reading at every point is printed as the
//!    other reading).
//! 2. **Fig. 6** (claim 2): `fig6.pap-rtdp-highest-utilization`: at every point, PAP-RTDP's
//!    utilization (Eq. 21) at least 1 point above each other policy's (paired difference).
//!    Occupancy (E13) is printed beside it.
//! 3. **Fig. 7** (claim 3): (a) `fig7.pap-rnd-lowest-awrt`: at every point PAP-RND's AWRT (Eq.
//!    23-24, completed best-effort requests) at least 5 % below each other policy's; (b)
//!    `fig7.pap-rtdp-awrt-below-baselines`: PAP-RTDP's at least 5 % below RR's, LRF-RND's and
//!    BCF-RND's.
//! 4. **Fig. 8, Table 3** (claim 4): (a) `fig8.bcf-most-migrations-rejections`: at every point,
//!    BCF-RND's % of Migratable requests migrated and % of Non-preemptable requests rejected
//!    at least 1 point above each other policy's; (b)
//!    `table3.pap-rtdp-fewer-migrations-rejections`: for each of Table 3's seven significant
//!    rows (Figs. 8(a)-(g); 8(h) is "not statistically significant" and only printed),
//!    PAP-RND - PAP-RTDP averaged over the sub-figure's points (paired) at least 1 point.
//! 5. **Fig. 4, Eq. 2** (claim 5): `fig4.response-rises-with-preemptions`: Pearson's r of the
//!    mean external response time against the mean VMs preempted over every policy and point
//!    at least 0.1 (the paper prints a line and "the positive correlation", no r; below 0.1,
//!    "small" on Cohen's scale, is none). Its interval is the delta method on Fisher's z,
//!    paired by replication; the least-squares line over the means is printed beside it.
//!
//! Requests never stay unfinished: a run goes on until every lease has ended (arrivals stop
//! at two days), and every request ends once, completed, rejected or cancelled
//! ([`crate::models::federation::record`]), so no mean leaves anything out and no point is
//! censored.
//!
//! Each claim is one part per mode (`claim1` calibrated, `claim1-literal`, ...; `--only`
//! takes either), so the two modes add replications apart: every random variant runs 10 times,
//! then a mode's variants twice as many while one of its claims is unsettled (undecided with
//! an interval at least half its margin wide), up to the paper's 100 ("each experiment is
//! carried out 100 times", Sec. 5.2). Points where PAP refuses its input and falls back are
//! marked `(PAP falls back)` in the claims' point labels.
//!
//! # Files
//! The scenarios and measures live in [`super::federation`] (salehi2011 shares them):
//! [`params`], [`presets`] and [`measure`]. Here: `claim1.rs` ... `claim5.rs`, one claim each.

mod claim1;
mod claim2;
mod claim3;
mod claim4;
mod claim5;

use anyhow::Result;

use super::federation::presets::{self, Variant};
use super::federation::{measure, params};
use super::{Experiment, Part, Precision};
use crate::experiments::Simulation;
use crate::models::federation::Federation;
use crate::models::federation::gateway;
use crate::models::federation::scenario::{GatewayPolicy, Scenario};
use crate::report::{Citation, Mode, Parameters};

/// salehi2012 Sec. 5 ([`Experiment`]).
#[derive(Debug, Clone, Copy)]
pub struct Salehi2012;

impl Experiment for Salehi2012 {
    type Model = Federation;
    type Variant = Variant;

    const ID: &'static str = "salehi2012";
    const PAPER: Citation = Citation {
        authors: "M. Amini Salehi, B. Javadi, R. Buyya",
        title: "QoS and preemption aware scheduling in federated and virtualized Grid computing environments",
        venue: "Journal of Parallel and Distributed Computing 72(2)",
        year: 2012,
    };
    const TITLE: &'static str = "Sec. 5, Figs. 4-8 and Table 3";
    /// Replications by precision when `--replications` is not given: 10 of every variant,
    /// doubled for a mode's parts while one of their claims is unsettled, up to the paper's own
    /// count, 100 ("each experiment is carried out 100 times", Sec. 5.2).
    const REPLICATIONS: Precision = Precision {
        first: 10,
        cap: 100,
    };
    const PRESETS: fn() -> Result<Vec<Scenario>> = presets::all;

    fn parts(&self) -> Vec<Part<Self>> {
        let claim = |ids, figures, judge| {
            Part::in_both_modes(ids, figures, judge, |mode| {
                measure::variants_of(mode, &measure::Axis::ALL)
            })
        };
        [
            claim(["claim1", "claim1-literal"], claim1::FIGURES, claim1::judge),
            claim(["claim2", "claim2-literal"], claim2::FIGURES, claim2::judge),
            claim(["claim3", "claim3-literal"], claim3::FIGURES, claim3::judge),
            claim(["claim4", "claim4-literal"], claim4::FIGURES, claim4::judge),
            claim(["claim5", "claim5-literal"], claim5::FIGURES, claim5::judge),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    fn parameters(&self) -> Vec<Parameters> {
        let split = |mode| {
            let v = Variant::fixed(mode, GatewayPolicy::PapRtdp);
            match v
                .scenario()
                .and_then(|s| gateway::split(&s).map(|g| (s, g)))
            {
                Ok((s, g)) => {
                    let shares: Vec<String> = s
                        .clusters
                        .iter()
                        .zip(&g.shares)
                        .zip(&g.rho)
                        .map(|((c, x), r)| format!("{} {:.1} % (rho {r:.4})", c.name, 100.0 * x))
                        .collect();
                    let flag = g
                        .fallback
                        .map_or(String::new(), |f| format!("; flagged: {f}"));
                    format!(
                        "PAP's split at the fixed point: {}{flag}",
                        shares.join(", ")
                    )
                }
                Err(e) => format!("PAP's split at the fixed point cannot be built: {e}"),
            }
        };
        let fallbacks = |mode| {
            let flagged: Vec<String> = measure::variants(&measure::Axis::ALL)
                .into_iter()
                .filter(|v| {
                    v.mode == mode
                        && v.policy == GatewayPolicy::PapRtdp
                        && v.scenario()
                            .and_then(|s| gateway::split(&s))
                            .is_ok_and(|g| g.fallback.is_some())
                })
                .map(|v| {
                    measure::Axis::ALL
                        .iter()
                        .find(|a| a.points(mode, v.policy).contains(&v))
                        .map_or("?".into(), |a| measure::point(*a, a.x(&v)))
                })
                .collect();
            if flagged.is_empty() {
                "PAP accepts every point.".to_owned()
            } else {
                format!(
                    "PAP refuses the input at {} point(s), which fall back and are flagged: {}.",
                    flagged.len(),
                    flagged.join(", ")
                )
            }
        };
        let scale = params::calibration_scale().unwrap_or(f64::NAN);
        vec![
            Parameters {
                mode: Mode::Literal,
                description: format!(
                    "Table 2 as printed: external arrivals are the C64/C128/C256 'external' \
                     rows, three Weibull(2.0/1.6/1.2, 0.35) streams at the gateway (0.389 \
                     requests/s; the text says 0.15); every cluster's local arrivals the \
                     'local, Grid' row, Weibull(7.0, 1.1) (0.148/s each; the text says 0.12), \
                     which alone loads each cluster 8-10 times over; m = 2.5 (Eq. 28: 3.33 \
                     VMs, exact 5.70); PAP with Eq. 16-17 as printed (per MIPS) and Eq. 28's \
                     means. {}. {} Two days of arrivals, conservative backfilling, MOML, \
                     local requests that cannot start rejected, deadline 3 x duration for a \
                     migrated lease, 256 live leases a cluster (at most 64 of them best-effort leases \
                     waiting; more wait at the gateway; a local request withdraws an unstarted \
                     best-effort lease from a full table).",
                    split(Mode::Literal),
                    fallbacks(Mode::Literal)
                ),
            },
            Parameters {
                mode: Mode::Calibrated,
                description: format!(
                    "Table 2's fixed arrival rows swapped back (E8): external Weibull(7.0, \
                     1.1) at the gateway (0.148/s), local Weibull(2.0/1.6/1.2, 0.35) at \
                     C64/C128/C256; exact means (m = 2.12: 4.99 VMs); PAP in consistent units \
                     (per node); the one change: every inter-arrival time, local and external, \
                     times {scale:.2}, for an offered utilisation of 0.88 at the fixed point \
                     with the paper's ratio of external to local arrivals (E11). {}. {}",
                    split(Mode::Calibrated),
                    fallbacks(Mode::Calibrated)
                ),
            },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each mode has 19 (literal) or 20 (calibrated) distinct points, the fixed point shared
    /// by axes (a) and (b), times five policies.
    #[test]
    fn every_point_is_simulated_once() {
        let all = measure::variants(&measure::Axis::ALL);
        assert_eq!(all.len(), (19 + 20) * 5);
    }
}
