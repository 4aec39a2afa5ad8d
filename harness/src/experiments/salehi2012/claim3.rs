//! Claim 3: Fig. 7 of salehi2012, AWRT of best-effort requests (the criteria are in the parent
//! module's doc).

use crate::experiments::federation::measure::*;
use crate::experiments::{Figures, Runs};
use crate::models::federation::metrics::Metrics;
use crate::models::federation::scenario::GatewayPolicy::{BcfRnd, LrfRnd, PapRnd, PapRtdp, Rr};
use crate::report::{Mode, Section};

/// Fig. 7's figure ids, `(calibrated, literal)` per axis.
const IDS: Ids = [
    ("fig7a", "fig7a-literal"),
    ("fig7b", "fig7b-literal"),
    ("fig7c", "fig7c-literal"),
    ("fig7d", "fig7d-literal"),
];

/// The calibrated part's figures.
pub(super) const CALIBRATED: &[&str] = &["fig7a", "fig7b", "fig7c", "fig7d"];
/// The literal part's figures.
pub(super) const LITERAL: &[&str] = &[
    "fig7a-literal",
    "fig7b-literal",
    "fig7c-literal",
    "fig7d-literal",
];
/// The calibrated part's figures, then the literal part's.
pub(super) const FIGURES: [Figures; 2] = [CALIBRATED, LITERAL];

fn awrt(m: &Metrics) -> Option<f64> {
    m.awrt_s
}

/// The figures and statements of the claim's part in `mode`.
pub(super) fn judge(runs: &Runs<Metrics>, mode: Mode) -> Section {
    let name = mode.name();
    let table = means(runs, mode, &Axis::ALL, awrt);
    let evidence = format!(
        "Mean AWRT over the points, s: {}. Across Fig. 7(a)'s points, PAP-RTDP - PAP-RND: {} s \
         (paper: (3814.7, 4417)); Fig. 7(c), PAP-RTDP - BCF-RND: {} s (paper: BCF-RND - \
         PAP-RTDP (1665, 6115)).",
        averages(&table, 0),
        interval(across_points(runs, mode, Axis::Vms, PapRtdp, PapRnd, awrt)),
        interval(across_points(
            runs,
            mode,
            Axis::External,
            PapRtdp,
            BcfRnd,
            awrt
        )),
    );
    // Per sub-figure (the judged reading) and at every point (the other reading).
    let below = |best, rivals: &[_]| {
        by_figure(mode, &Axis::ALL, sub_figure("7"), best, rivals, |b, o| {
            pct_below(runs, b, o, awrt)
        })
    };
    let at_points = |best, rivals: &[_]| {
        every_point(
            &fewer(),
            versus(mode, &Axis::ALL, best, rivals, |b, o| {
                pct_below(runs, &[*b], &[*o], awrt)
            }),
        )
    };
    let effect = |who: &str, whom: &str| {
        format!(
            "how far {who}'s AWRT (Eq. 23-24) lies below {whom}'s, % of theirs: the ratio of \
             the AWRTs totalled over a sub-figure's points (paired, delta method), for each of \
             Figs. 7(a)-(d)"
        )
    };
    let lowest = caused(
        claim(
            format!("salehi2012.{name}.fig7.pap-rnd-lowest-awrt"),
            "PAP-RND results in the minimum average weighted response time of best-effort requests \
         (Fig. 7, Sec. 5.3.3).",
            &effect("PAP-RND", "each other policy"),
            fewer(),
        ),
        mode,
        Some(LITERAL_PAP_ONE_CLUSTER),
        None,
    )
    .mode(mode)
    .points(below(PapRnd, &[Rr, LrfRnd, BcfRnd, PapRtdp]))
    .other_reading(at_points(PapRnd, &[Rr, LrfRnd, BcfRnd, PapRtdp]))
    .evidence(evidence.clone())
    .done();
    let baselines = claim(
        format!("salehi2012.{name}.fig7.pap-rtdp-awrt-below-baselines"),
        "In all cases PAP-RTDP still performs significantly and practically better than the \
         other policies (RR, LRF-RND, BCF-RND) in AWRT (Fig. 7, Sec. 5.3.3).",
        &effect("PAP-RTDP", "RR, LRF-RND and BCF-RND"),
        fewer(),
    )
    .mode(mode)
    .points(below(PapRtdp, &[Rr, LrfRnd, BcfRnd]))
    .other_reading(at_points(PapRtdp, &[Rr, LrfRnd, BcfRnd]))
    .evidence(evidence)
    .done();
    Section {
        heading: format!(
            "Claim 3 (Fig. 7), {name} mode: PAP-RND has the lowest AWRT, PAP-RTDP beats the \
             baselines"
        ),
        figures: figures(
            runs,
            mode,
            &IDS,
            "7",
            "AWRT of best-effort requests (Eq. 23-24)",
            "AWRT, s",
            awrt,
            0,
        ),
        statements: vec![lowest, baselines],
        ..Default::default()
    }
}
