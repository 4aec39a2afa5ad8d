//! Claim 4: Fig. 8 and Table 3 of salehi2012, migrations and rejections of deadline-constrained
//! requests (the criteria are in the parent module's doc).

use crate::experiments::federation::measure::*;
use crate::experiments::{Figures, Runs};
use crate::models::federation::metrics::Metrics;
use crate::models::federation::scenario::GatewayPolicy::{BcfRnd, LrfRnd, PapRnd, PapRtdp, Rr};
use crate::report::{Mode, Section};

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

/// The calibrated part's figures.
pub(super) const CALIBRATED: &[&str] = &[
    "fig8a", "fig8c", "fig8e", "fig8g", "fig8b", "fig8d", "fig8f", "fig8h",
];
/// The literal part's figures.
pub(super) const LITERAL: &[&str] = &[
    "fig8a-literal",
    "fig8c-literal",
    "fig8e-literal",
    "fig8g-literal",
    "fig8b-literal",
    "fig8d-literal",
    "fig8f-literal",
    "fig8h-literal",
];
/// The calibrated part's figures, then the literal part's.
pub(super) const FIGURES: [Figures; 2] = [CALIBRATED, LITERAL];

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

pub(super) fn migrated(m: &Metrics) -> Option<f64> {
    m.migration_pct
}

pub(super) fn rejected(m: &Metrics) -> Option<f64> {
    m.rejection_pct
}

/// The figures and statements of the claim's part in `mode`.
pub(super) fn judge(runs: &Runs<Metrics>, mode: Mode) -> Section {
    let name = mode.name();
    let (mig, rej) = (
        means(runs, mode, &Axis::ALL, migrated),
        means(runs, mode, &Axis::ALL, rejected),
    );
    let others = [Rr, LrfRnd, PapRnd, PapRtdp];
    // Fig. 8's sub-figures: (a), (c), (e), (g) migrations over axes (a)-(d); (b), (d), (f), (h)
    // rejections.
    let sub = |axis: Axis, rejections: bool| {
        let k = Axis::ALL.iter().position(|&a| a == axis).unwrap_or(0);
        (b'a' + (2 * k + usize::from(rejections)) as u8) as char
    };
    let (mut most_points, mut at_points) = (Vec::new(), Vec::new());
    for (what, f, rejections) in [
        ("migrated", migrated as Metric, false),
        ("rejected", rejected as Metric, true),
    ] {
        most_points.extend(by_figure(
            mode,
            &Axis::ALL,
            |axis| format!("Fig. 8({}), % {what}", sub(axis, rejections)),
            BcfRnd,
            &others,
            |b, o| average_gap(runs, b, o, f),
        ));
        at_points.extend(versus(mode, &Axis::ALL, BcfRnd, &others, |b, o| {
            runs.diff(b, o, f)
        }));
    }
    let most = claim(
        format!("salehi2012.{name}.fig8.bcf-most-migrations-rejections"),
        "BCF-RND results in more migrations and rejections compared to the other policies \
         (Sec. 5.3.3).",
        "BCF-RND's % of Migratable requests migrated (Figs. 8(a), (c), (e), (g)) and % of \
         Non-preemptable requests rejected ((b), (d), (f), (h)) minus each other policy's, \
         averaged over a sub-figure's points (paired)",
        points_more(),
    )
    .mode(mode)
    .points(most_points)
    .other_reading(every_point(&points_more(), at_points))
    .evidence(format!(
        "Mean % migrated over the points: {}; mean % rejected: {}.",
        averages(&mig, 2),
        averages(&rej, 2)
    ))
    .done();
    // Table 3's rows: sub-figure (a), (c), (e), (g) migrations over axes (a)-(d), (b), (d),
    // (f), (h) rejections.
    let mut rows = Vec::new();
    let mut listing = Vec::new();
    for (k, axis) in Axis::ALL.iter().enumerate() {
        for (sub, f) in [(2 * k, migrated as Metric), (2 * k + 1, rejected)] {
            let letter = (b'a' + sub as u8) as char;
            let d = average_gap(
                runs,
                &axis.points(mode, PapRnd),
                &axis.points(mode, PapRtdp),
                f,
            );
            let paper = TABLE3[sub].map_or("not significant".to_owned(), |(lo, hi)| {
                format!("({lo}, {hi})")
            });
            listing.push(format!(
                "8({letter}) {} (paper {paper})",
                d.map_or("-".into(), |d| d.show(2))
            ));
            if TABLE3[sub].is_some() {
                rows.push((format!("Fig. 8({letter})"), d));
            }
        }
    }
    let fewer_than_rnd = caused(
        claim(
            format!("salehi2012.{name}.table3.pap-rtdp-fewer-migrations-rejections"),
            "PAP-RTDP migrates and rejects fewer valuable requests than PAP-RND: a statistically \
         and practically significant difference in every sub-figure of Fig. 8 but 8(h) (Table \
         3).",
            "PAP-RND's % migrated (Figs. 8(a), (c), (e), (g)) or % rejected ((b), (d), (f)) minus \
         PAP-RTDP's, averaged over the sub-figure's points (paired), for each of Table 3's \
         seven significant rows",
            points_more(),
        ),
        mode,
        Some(LITERAL_PAP_ONE_CLUSTER),
        None,
    )
    .mode(mode)
    .points(rows)
    .evidence(format!(
        "PAP-RND - PAP-RTDP averaged over each sub-figure's points, points: {}.",
        listing.join(", ")
    ))
    .done();
    let mut figures = figures(
        runs,
        mode,
        &MIGRATION,
        "8",
        "Migratable requests migrated",
        "migrated, %",
        migrated,
        2,
    );
    figures.extend(super::measure::figures(
        runs,
        mode,
        &REJECTION,
        "8",
        "Non-preemptable requests rejected",
        "rejected, %",
        rejected,
        2,
    ));
    Section {
        heading: format!("Claim 4 (Fig. 8, Table 3), {name} mode: valuable requests are respected"),
        figures,
        statements: vec![most, fewer_than_rnd],
        ..Default::default()
    }
}
