//! Claim 2: Fig. 6 of salehi2012, utilization (the criteria are in the parent module's doc).

use crate::experiments::federation::measure::*;
use crate::experiments::{Figures, Runs};
use crate::models::federation::metrics::Metrics;
use crate::models::federation::scenario::GatewayPolicy::{BcfRnd, LrfRnd, PapRnd, PapRtdp, Rr};
use crate::report::{Mode, Section};

/// Fig. 6's figure ids, `(calibrated, literal)` per axis.
const IDS: Ids = [
    ("fig6a", "fig6a-literal"),
    ("fig6b", "fig6b-literal"),
    ("fig6c", "fig6c-literal"),
    ("fig6d", "fig6d-literal"),
];

/// The calibrated part's figures.
pub(super) const CALIBRATED: &[&str] = &["fig6a", "fig6b", "fig6c", "fig6d"];
/// The literal part's figures.
pub(super) const LITERAL: &[&str] = &[
    "fig6a-literal",
    "fig6b-literal",
    "fig6c-literal",
    "fig6d-literal",
];
/// The calibrated part's figures, then the literal part's.
pub(super) const FIGURES: [Figures; 2] = [CALIBRATED, LITERAL];

fn utilization(m: &Metrics) -> Option<f64> {
    m.utilization
}

fn occupancy(m: &Metrics) -> Option<f64> {
    m.occupancy
}

/// The figures and statements of the claim's part in `mode`.
pub(super) fn judge(runs: &Runs<Metrics>, mode: Mode) -> Section {
    let name = mode.name();
    let table = means(runs, mode, &Axis::ALL, utilization);
    let rivals = [Rr, LrfRnd, BcfRnd, PapRnd];
    let highest = caused(
        claim(
            format!("salehi2012.{name}.fig6.pap-rtdp-highest-utilization"),
            "Resource utilization resulting from PAP-RTDP is drastically better than that of the \
         other policies (Fig. 6, Sec. 5.3.2).",
            "PAP-RTDP's utilization (Eq. 21) minus each other policy's, averaged over a \
         sub-figure's points (paired), for each of Figs. 6(a)-(d)",
            points_more(),
        ),
        mode,
        Some(LITERAL_PAP_ONE_CLUSTER),
        Some(CALIBRATED_SMALL_OVERHEADS),
    )
    .mode(mode)
    .points(by_figure(
        mode,
        &Axis::ALL,
        sub_figure("6"),
        PapRtdp,
        &rivals,
        |b, o| average_gap(runs, b, o, utilization),
    ))
    .other_reading(every_point(
        &points_more(),
        versus(mode, &Axis::ALL, PapRtdp, &rivals, |b, o| {
            runs.diff(b, o, utilization)
        }),
    ))
    .evidence(format!(
        "Mean utilization over the points, %: {}; occupancy (busy VM-time over capacity, \
         E13), %: {}. Across Fig. 6(a)'s points, PAP-RTDP - LRF-RND: {} (paper: (12.5, \
         14.7)).",
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
    ))
    .done();
    Section {
        heading: format!("Claim 2 (Fig. 6), {name} mode: PAP-RTDP's utilization is the highest"),
        figures: figures(
            runs,
            mode,
            &IDS,
            "6",
            "resource utilization (Eq. 21)",
            "utilization, %",
            utilization,
            2,
        ),
        statements: vec![highest],
        ..Default::default()
    }
}
