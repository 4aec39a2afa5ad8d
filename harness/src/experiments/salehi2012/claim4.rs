//! Claim 4: Fig. 8 and Table 3 of seed 000, migrations and rejections of deadline-constrained
//! requests (the criteria are in the parent module's doc).

use super::measure::*;
use super::presets::Variant;
use crate::experiments::Runs;
use crate::models::federation::metrics::Metrics;
use crate::models::federation::scenario::GatewayPolicy::{BcfRnd, LrfRnd, PapRnd, PapRtdp, Rr};
use crate::report::{Mode, Section, verdict};

/// Fig. 8's migration figures, `(calibrated, literal)` per axis: (a), (c), (e), (g).
const MIGRATION: Ids = [
    ("fig8a", "fig8a-literal"),
    ("fig8c", "fig8c-literal"),
    ("fig8e", "fig8e-literal"),
    ("fig8g", "fig8g-literal"),
];

/// Fig. 8's rejection figures: (b), (d), (f), (h).
const REJECTION: Ids = [
    ("fig8b", "fig8b-literal"),
    ("fig8d", "fig8d-literal"),
    ("fig8f", "fig8f-literal"),
    ("fig8h", "fig8h-literal"),
];

/// Both, as a part lists them.
pub(super) const FIGURES: &[&str] = &[
    "fig8a",
    "fig8c",
    "fig8e",
    "fig8g",
    "fig8a-literal",
    "fig8c-literal",
    "fig8e-literal",
    "fig8g-literal",
    "fig8b",
    "fig8d",
    "fig8f",
    "fig8h",
    "fig8b-literal",
    "fig8d-literal",
    "fig8f-literal",
    "fig8h-literal",
];

/// Table 3: the 95 % intervals of PAP-RND - PAP-RTDP per sub-figure, (a) to (h) (`None`: not
/// significant).
const TABLE3: [Option<(f64, f64)>; 8] = [
    Some((2.4, 3.8)),
    Some((9.3, 12.7)),
    Some((2.6, 4.3)),
    Some((5.9, 12.5)),
    Some((0.14, 7.8)),
    Some((2.1, 16.0)),
    Some((0.02, 3.2)),
    None,
];

/// Sub-figures of Table 3 where PAP-RTDP must be below PAP-RND: 7 of 8, as its significant
/// rows.
const BELOW: usize = 7;

fn migrated(m: &Metrics) -> Option<f64> {
    m.migration_pct
}

fn rejected(m: &Metrics) -> Option<f64> {
    m.rejection_pct
}

/// Every point of every axis in both modes.
pub(super) fn variants() -> Vec<Variant> {
    super::measure::variants(&Axis::ALL)
}

/// The figures and verdicts.
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let mut verdicts = Vec::new();
    for mode in MODES {
        let (mig, rej) = (
            means(runs, mode, &Axis::ALL, migrated),
            means(runs, mode, &Axis::ALL, rejected),
        );
        let others = [Rr, LrfRnd, PapRnd, PapRtdp];
        let mut most = not_extreme(&mig, BcfRnd, &others, false);
        most.extend(not_extreme(&rej, BcfRnd, &others, false));
        let name = mode.name();
        verdicts.push(verdict(
            &format!("[{name}] BCF-RND causes the most migrations and rejections (Sec. 5.3.3)."),
            "At every point of Figs. 8(a)-(h), BCF-RND's % of Migratable requests migrated and \
             % of Non-preemptable requests rejected are above each other policy's.",
            &most,
            format!(
                "Mean % migrated over the points: {}; mean % rejected: {}.",
                averages(&mig, 2),
                averages(&rej, 2)
            ),
        ));
        let (below, listing) = table3(runs, mode);
        let fewer = if below >= BELOW {
            vec![]
        } else {
            vec![format!(
                "PAP-RTDP is below PAP-RND in {below} of 8 sub-figures"
            )]
        };
        verdicts.push(verdict(
            &format!(
                "[{name}] PAP-RTDP migrates and rejects fewer valuable requests than PAP-RND \
                 (Fig. 8, Table 3)."
            ),
            &format!(
                "In at least {BELOW} of Figs. 8(a)-(h), PAP-RND - PAP-RTDP averaged over the \
                 points is above 0 (Table 3 finds 7 significant)."
            ),
            &fewer,
            format!("PAP-RND - PAP-RTDP across each sub-figure's points: {listing}."),
        ));
    }
    let mut figures = figures_of(
        runs,
        &MIGRATION,
        "Migratable requests migrated",
        "migrated, %",
        migrated,
    );
    figures.extend(figures_of(
        runs,
        &REJECTION,
        "Non-preemptable requests rejected",
        "rejected, %",
        rejected,
    ));
    Section {
        heading: "Claim 4 (Fig. 8, Table 3): valuable requests are respected".into(),
        figures,
        statements: verdicts,
        ..Default::default()
    }
}

fn figures_of(
    runs: &Runs<Metrics>,
    ids: &Ids,
    what: &str,
    y_label: &str,
    metric: Metric,
) -> Vec<crate::report::Figure> {
    figures(runs, ids, "8", what, y_label, metric, 2)
}

/// How many of the eight sub-figures have PAP-RTDP below PAP-RND on average, and each one's
/// interval beside Table 3's.
fn table3(runs: &Runs<Metrics>, mode: Mode) -> (usize, String) {
    let mut below = 0;
    let mut listing = Vec::new();
    for (k, axis) in Axis::ALL.iter().enumerate() {
        for (sub, metric, letter) in [
            (2 * k, migrated as Metric, (b'a' + 2 * k as u8) as char),
            (2 * k + 1, rejected as Metric, (b'b' + 2 * k as u8) as char),
        ] {
            let d = across_points(runs, mode, *axis, PapRnd, PapRtdp, metric);
            if d.is_some_and(|d| d.mean > 0.0) {
                below += 1;
            }
            let paper = TABLE3[sub].map_or("not significant".to_owned(), |(lo, hi)| {
                format!("({lo}, {hi})")
            });
            listing.push(format!("8({letter}) {} (paper {paper})", interval(d)));
        }
    }
    (below, listing.join(", "))
}
