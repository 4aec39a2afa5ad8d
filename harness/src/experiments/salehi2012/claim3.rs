//! Claim 3: Fig. 7 of seed 000, AWRT of best-effort requests (the criteria are in the parent
//! module's doc).

use super::measure::*;
use super::presets::Variant;
use crate::experiments::Runs;
use crate::models::federation::metrics::Metrics;
use crate::models::federation::scenario::GatewayPolicy::{BcfRnd, LrfRnd, PapRnd, PapRtdp, Rr};
use crate::report::{Section, verdict};

/// Fig. 7's figure ids, `(calibrated, literal)` per axis.
const IDS: Ids = [
    ("fig7a", "fig7a-literal"),
    ("fig7b", "fig7b-literal"),
    ("fig7c", "fig7c-literal"),
    ("fig7d", "fig7d-literal"),
];

/// The same, as a part lists them.
pub(super) const FIGURES: &[&str] = &[
    "fig7a",
    "fig7b",
    "fig7c",
    "fig7d",
    "fig7a-literal",
    "fig7b-literal",
    "fig7c-literal",
    "fig7d-literal",
];

fn awrt(m: &Metrics) -> Option<f64> {
    m.awrt_s
}

/// Every point of every axis in both modes.
pub(super) fn variants() -> Vec<Variant> {
    super::measure::variants(&Axis::ALL)
}

/// The figures and verdicts.
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let mut verdicts = Vec::new();
    for mode in MODES {
        let table = means(runs, mode, &Axis::ALL, awrt);
        let name = mode.name();
        let evidence = format!(
            "Mean AWRT over the points, s: {}. Across Fig. 7(a)'s points, PAP-RTDP - PAP-RND: \
             {} s (paper: (3814.7, 4417)); Fig. 7(c), PAP-RTDP - BCF-RND: {} s (paper: \
             BCF-RND - PAP-RTDP (1665, 6115)).",
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
        verdicts.push(verdict(
            &format!("[{name}] PAP-RND gives the lowest AWRT of best-effort requests (Fig. 7)."),
            "At every point of Figs. 7(a)-(d), PAP-RND's mean AWRT (Eq. 23-24) is below each \
             other policy's.",
            &not_extreme(&table, PapRnd, &[Rr, LrfRnd, BcfRnd, PapRtdp], true),
            evidence.clone(),
        ));
        verdicts.push(verdict(
            &format!("[{name}] PAP-RTDP's AWRT is below RR's, LRF-RND's and BCF-RND's (Fig. 7)."),
            "At every point of Figs. 7(a)-(d), PAP-RTDP's mean AWRT is below RR's, LRF-RND's \
             and BCF-RND's.",
            &not_extreme(&table, PapRtdp, &[Rr, LrfRnd, BcfRnd], true),
            evidence,
        ));
    }
    Section {
        heading: "Claim 3 (Fig. 7): PAP-RND has the lowest AWRT, PAP-RTDP beats the baselines"
            .into(),
        figures: figures(
            runs,
            &IDS,
            "7",
            "AWRT of best-effort requests (Eq. 23-24)",
            "AWRT, s",
            awrt,
            0,
        ),
        statements: verdicts,
        ..Default::default()
    }
}
