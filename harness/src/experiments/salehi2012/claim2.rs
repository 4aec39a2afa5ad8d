//! Claim 2: Fig. 6 of seed 000, utilization (the criteria are in the parent module's doc).

use super::measure::*;
use super::presets::Variant;
use crate::experiments::Runs;
use crate::models::federation::metrics::Metrics;
use crate::models::federation::scenario::GatewayPolicy::{BcfRnd, LrfRnd, PapRnd, PapRtdp, Rr};
use crate::report::{Section, verdict};

/// Fig. 6's figure ids, `(calibrated, literal)` per axis.
const IDS: Ids = [
    ("fig6a", "fig6a-literal"),
    ("fig6b", "fig6b-literal"),
    ("fig6c", "fig6c-literal"),
    ("fig6d", "fig6d-literal"),
];

/// The same, as a part lists them.
pub(super) const FIGURES: &[&str] = &[
    "fig6a",
    "fig6b",
    "fig6c",
    "fig6d",
    "fig6a-literal",
    "fig6b-literal",
    "fig6c-literal",
    "fig6d-literal",
];

fn utilization(m: &Metrics) -> Option<f64> {
    m.utilization
}

fn occupancy(m: &Metrics) -> Option<f64> {
    m.occupancy
}

/// Every point of every axis in both modes.
pub(super) fn variants() -> Vec<Variant> {
    super::measure::variants(&Axis::ALL)
}

/// The figures and verdicts.
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let verdicts = MODES
        .iter()
        .map(|&mode| {
            let table = means(runs, mode, &Axis::ALL, utilization);
            let failures = not_extreme(&table, PapRtdp, &[Rr, LrfRnd, BcfRnd, PapRnd], false);
            verdict(
                &format!(
                    "[{}] PAP-RTDP's resource utilization is the highest of the policies \
                     (Fig. 6).",
                    mode.name()
                ),
                "At every point of Figs. 6(a)-(d), PAP-RTDP's mean utilization (Eq. 21) is \
                 above each other policy's.",
                &failures,
                format!(
                    "Mean utilization over the points, %: {}; occupancy (busy VM-time over \
                     capacity, N11), %: {}. Across Fig. 6(a)'s points, PAP-RTDP - LRF-RND: {} \
                     (paper: (12.5, 14.7)).",
                    averages(&table, 2),
                    averages(&means(runs, mode, &Axis::ALL, occupancy), 2),
                    interval(across_points(
                        runs,
                        mode,
                        Axis::Vms,
                        PapRtdp,
                        LrfRnd,
                        utilization
                    )),
                ),
            )
        })
        .collect();
    Section {
        heading: "Claim 2 (Fig. 6): PAP-RTDP's utilization is the highest".into(),
        figures: figures(
            runs,
            &IDS,
            "6",
            "resource utilization (Eq. 21)",
            "utilization, %",
            utilization,
            2,
        ),
        statements: verdicts,
        ..Default::default()
    }
}
