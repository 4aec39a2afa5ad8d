//! Claim 3: Figs. 4-5 of salehi2011, which repeat salehi2012's federation over its axes (b)-(d):
//! VMs preempted, migrations and rejections (the criteria are in the parent module's doc).

use super::presets::Variant;
use crate::experiments::federation::measure::{
    Axis, LITERAL_PAP_ONE_CLUSTER, Metric, average_gap, averages, caused, claim, figure_of,
    means_of, pap_rtdp_fewest_preemptions, pct_below, points_more, variants_of,
};
use crate::experiments::{Figures, Runs};
use crate::models::federation::metrics::Metrics;
use crate::models::federation::scenario::GatewayPolicy::{PapRnd, PapRtdp};
use crate::report::{Figure, Mode, Section};

/// The axes Figs. 4-5 vary: duration, external rate, local rate.
const AXES: [Axis; 3] = [Axis::Duration, Axis::External, Axis::Local];

/// The calibrated part's figures: Fig. 4 (VMs preempted over each axis), then Fig. 5
/// (migrations, rejections over each).
pub(super) const CALIBRATED: &[&str] = &[
    "fig4a", "fig4b", "fig4c", "fig5a", "fig5b", "fig5c", "fig5d", "fig5e", "fig5f",
];
/// The literal part's figures.
pub(super) const LITERAL: &[&str] = &[
    "fig4a-literal",
    "fig4b-literal",
    "fig4c-literal",
    "fig5a-literal",
    "fig5b-literal",
    "fig5c-literal",
    "fig5d-literal",
    "fig5e-literal",
    "fig5f-literal",
];
/// The calibrated part's figures, then the literal part's.
pub(super) const FIGURES: [Figures; 2] = [CALIBRATED, LITERAL];

fn vms(m: &Metrics) -> Option<f64> {
    Some(m.vms_preempted as f64)
}

fn migrated(m: &Metrics) -> Option<f64> {
    m.migration_pct
}

fn rejected(m: &Metrics) -> Option<f64> {
    m.rejection_pct
}

/// Fig. 4's letter of salehi2012's axis: (b)-(d) are 4(a)-(c).
fn fig4_letter(axis: Axis) -> char {
    let k = AXES.iter().position(|&a| a == axis).unwrap_or(0);
    (b'a' + k as u8) as char
}

/// salehi2012's points of axes (b)-(d) in `mode`.
pub(super) fn variants_in(mode: Mode) -> Vec<Variant> {
    variants_of(mode, &AXES)
        .into_iter()
        .map(Variant::Federation)
        .collect()
}

fn figures(runs: &Runs<Metrics>, mode: Mode, ids: &[&'static str]) -> Vec<Figure> {
    let mut out = Vec::new();
    for (k, axis) in AXES.iter().enumerate() {
        out.push(figure_of(
            runs,
            ids[k],
            &format!("Fig. 4({}): VMs preempted", (b'a' + k as u8) as char),
            "VMs preempted per run",
            (mode, *axis),
            vms,
            0,
            Variant::Federation,
        ));
    }
    for (k, axis) in AXES.iter().enumerate() {
        for (j, (what, y, metric)) in [
            (
                "Migratable requests migrated",
                "migrated, %",
                migrated as Metric,
            ),
            (
                "Non-preemptable requests rejected",
                "rejected, %",
                rejected as Metric,
            ),
        ]
        .into_iter()
        .enumerate()
        {
            let letter = (b'a' + (2 * k + j) as u8) as char;
            out.push(figure_of(
                runs,
                ids[3 + 2 * k + j],
                &format!("Fig. 5({letter}): {what}"),
                y,
                (mode, *axis),
                metric,
                2,
                Variant::Federation,
            ));
        }
    }
    out
}

/// The figures and statements of the claim's part in `mode`.
pub(super) fn judge(runs: &Runs<Metrics>, mode: Mode) -> Section {
    let name = mode.name();
    let ids = mode.pick(CALIBRATED, LITERAL);
    let fed = Variant::Federation;
    let table = means_of(runs, mode, &AXES, vms, fed);
    let wrap = |vs: &[_]| -> Vec<Variant> { vs.iter().copied().map(fed).collect() };
    let fewest = pap_rtdp_fewest_preemptions(
        (
            format!("salehi2011.{name}.fig4.pap-rtdp-fewest-preemptions"),
            "In all sub-figures of Fig. 4 PAP-RTDP significantly outperforms the other policies in \
             VMs preempted.",
        ),
        mode,
        &AXES,
        ("Figs. 4(a)-(c)", |axis| {
            format!("Fig. 4({})", fig4_letter(axis))
        }),
        |b, o| pct_below(runs, &wrap(b), &wrap(o), vms),
    )
    .evidence(format!(
        "Mean VMs preempted over the points: {}.",
        averages(&table, 0)
    ))
    .done();
    let mut subs = Vec::new();
    let mut listing = Vec::new();
    for (k, axis) in AXES.iter().enumerate() {
        for (j, f) in [migrated as Metric, rejected].into_iter().enumerate() {
            let letter = (b'a' + (2 * k + j) as u8) as char;
            let d = average_gap(
                runs,
                &wrap(&axis.points(mode, PapRnd)),
                &wrap(&axis.points(mode, PapRtdp)),
                f,
            );
            listing.push(format!(
                "5({letter}) {}",
                d.map_or("-".into(), |d| d.show(2))
            ));
            // 5(f): "not substantially better", a marginal improvement.
            if letter != 'f' {
                subs.push((format!("Fig. 5({letter})"), d));
            }
        }
    }
    let fewer_than_rnd = caused(
        claim(
        format!("salehi2011.{name}.fig5.pap-rtdp-fewer-migrations-rejections"),
        "In all sub-figures of Fig. 5 the PAP-RTDP dispatching policy has substantially reduced \
         the percentage of migrations and also rejections; in Fig. 5(f) it is not \
         substantially better than PAP-RND.",
        "PAP-RND's % migrated (Figs. 5(a), (c), (e)) or % rejected ((b), (d)) minus PAP-RTDP's, \
         averaged over the sub-figure's points (paired)",
        points_more(),
    ),
        mode,
        Some(LITERAL_PAP_ONE_CLUSTER),
        None,
    )
    .mode(mode)
    .points(subs)
    .evidence(format!(
        "PAP-RND - PAP-RTDP averaged over each sub-figure's points, points: {}.",
        listing.join(", ")
    ))
    .done();
    Section {
        heading: format!("Claim 3 (Figs. 4-5), {name} mode: PAP-RTDP in the federation"),
        figures: figures(runs, mode, ids),
        statements: vec![fewest, fewer_than_rnd],
        ..Default::default()
    }
}
