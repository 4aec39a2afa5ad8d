//! Claim 3: Figs. 4-5 of seed 001, which repeat seed 000's federation over its axes (b)-(d):
//! VMs preempted, migrations and rejections (the criteria are in the parent module's doc).

use super::presets::Variant;
use crate::experiments::Runs;
use crate::experiments::salehi2012::measure::{
    Axis, MODES, Metric, across_points, averages, figure, interval, means, not_extreme,
    variants as federation,
};
use crate::models::federation::metrics::Metrics;
use crate::models::federation::scenario::GatewayPolicy::{BcfRnd, LrfRnd, PapRnd, PapRtdp, Rr};
use crate::report::{Figure, Mode, Section, verdict};

/// The axes Figs. 4-5 vary: duration, external rate, local rate.
const AXES: [Axis; 3] = [Axis::Duration, Axis::External, Axis::Local];

/// Fig. 4's ids (VMs preempted over each axis) and Fig. 5's (migrations, rejections over each),
/// calibrated then literal.
pub(super) const FIGURES: &[&str] = &[
    "fig4a",
    "fig4b",
    "fig4c",
    "fig5a",
    "fig5b",
    "fig5c",
    "fig5d",
    "fig5e",
    "fig5f",
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

/// Sub-figures of Fig. 5 where PAP-RTDP must be below PAP-RND on average: 5 of 6 ("in all
/// sub-figures ... substantially reduced", with Fig. 5(f) called marginal).
const BELOW: usize = 5;

fn vms(m: &Metrics) -> Option<f64> {
    Some(m.vms_preempted as f64)
}

fn migrated(m: &Metrics) -> Option<f64> {
    m.migration_pct
}

fn rejected(m: &Metrics) -> Option<f64> {
    m.rejection_pct
}

/// Seed 000's points of axes (b)-(d), in both modes.
pub(super) fn variants() -> Vec<Variant> {
    federation(&AXES)
        .into_iter()
        .map(Variant::Federation)
        .collect()
}

fn figures(runs: &Runs<Metrics>, mode: Mode, ids: &[&'static str]) -> Vec<Figure> {
    let mut out = Vec::new();
    for (k, axis) in AXES.iter().enumerate() {
        out.push(figure(
            runs,
            ids[k],
            &format!("Fig. 4({}): VMs preempted", (b'a' + k as u8) as char),
            "VMs preempted per run",
            mode,
            *axis,
            vms,
            0,
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
            out.push(figure(
                runs,
                ids[3 + 2 * k + j],
                &format!("Fig. 5({letter}): {what}"),
                y,
                mode,
                *axis,
                metric,
                2,
            ));
        }
    }
    out
}

/// The figures and verdicts.
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let mut all = figures(runs, Mode::Calibrated, &FIGURES[..9]);
    all.extend(figures(runs, Mode::Literal, &FIGURES[9..]));
    let mut verdicts = Vec::new();
    for mode in MODES {
        let name = mode.name();
        let table = means(runs, mode, &AXES, vms);
        verdicts.push(verdict(
            &format!(
                "[{name}] PAP-RTDP significantly outperforms the other policies in VMs \
                 preempted (Fig. 4)."
            ),
            "At every point of Figs. 4(a)-(c), PAP-RTDP's mean VMs preempted is below each \
             other policy's.",
            &not_extreme(&table, PapRtdp, &[Rr, LrfRnd, BcfRnd, PapRnd], true),
            format!(
                "Mean VMs preempted over the points: {}.",
                averages(&table, 0)
            ),
        ));
        let mut below = 0;
        let mut listing = Vec::new();
        for axis in AXES {
            for metric in [migrated as Metric, rejected as Metric] {
                let d = across_points(runs, mode, axis, PapRnd, PapRtdp, metric);
                if d.is_some_and(|d| d.mean > 0.0) {
                    below += 1;
                }
                listing.push(interval(d));
            }
        }
        let failures = if below >= BELOW {
            vec![]
        } else {
            vec![format!(
                "PAP-RTDP is below PAP-RND in {below} of 6 sub-figures"
            )]
        };
        verdicts.push(verdict(
            &format!(
                "[{name}] PAP-RTDP substantially reduces the percentage of migrations and \
                 rejections (Fig. 5)."
            ),
            &format!(
                "In at least {BELOW} of Figs. 5(a)-(f), PAP-RND - PAP-RTDP averaged over the \
                 points is above 0."
            ),
            &failures,
            format!(
                "PAP-RND - PAP-RTDP across each sub-figure's points, 5(a) to 5(f): {}.",
                listing.join(", ")
            ),
        ));
    }
    Section {
        heading: "Claim 3 (Figs. 4-5): PAP-RTDP in the federation".into(),
        figures: all,
        statements: verdicts,
        ..Default::default()
    }
}
