//! Claim 1: Fig. 5 of seed 000 and the abstract's "at least 60 %" (the criteria are in the
//! parent module's doc).

use super::measure::*;
use super::presets::Variant;
use crate::experiments::Runs;
use crate::models::federation::metrics::Metrics;
use crate::models::federation::scenario::GatewayPolicy::{BcfRnd, LrfRnd, PapRnd, PapRtdp, Rr};
use crate::report::{Section, Statement, verdict};

/// Fig. 5's figure ids, `(calibrated, literal)` per axis.
pub(super) const IDS: Ids = [
    ("fig5a", "fig5a-literal"),
    ("fig5b", "fig5b-literal"),
    ("fig5c", "fig5c-literal"),
    ("fig5d", "fig5d-literal"),
];

/// The same, as a part lists them.
pub(super) const FIGURES: &[&str] = &[
    "fig5a",
    "fig5b",
    "fig5c",
    "fig5d",
    "fig5a-literal",
    "fig5b-literal",
    "fig5c-literal",
    "fig5d-literal",
];

/// The abstract's reduction, %.
const REDUCTION: f64 = 60.0;

fn vms(m: &Metrics) -> Option<f64> {
    Some(m.vms_preempted as f64)
}

/// Every point of every axis in both modes.
pub(super) fn variants() -> Vec<Variant> {
    super::measure::variants(&Axis::ALL)
}

/// The figures and verdicts.
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let mut verdicts = Vec::new();
    for mode in MODES {
        verdicts.extend(judge_mode(runs, mode));
    }
    Section {
        heading: "Claim 1 (Fig. 5): PAP-RTDP preempts the fewest VMs".into(),
        figures: figures(
            runs,
            &IDS,
            "5",
            "VMs preempted",
            "VMs preempted per run",
            vms,
            0,
        ),
        statements: verdicts,
        ..Default::default()
    }
}

fn judge_mode(runs: &Runs<Metrics>, mode: crate::report::Mode) -> Vec<Statement> {
    let table = means(runs, mode, &Axis::ALL, vms);
    let fewest = not_extreme(&table, PapRtdp, &[Rr, LrfRnd, BcfRnd, PapRnd], true);
    let mut short = Vec::new();
    let mut reductions = Vec::new();
    for rival in [Rr, LrfRnd, BcfRnd] {
        let r: Vec<f64> = table
            .iter()
            .map(|(_, _, row)| 100.0 * (1.0 - row[at(PapRtdp)] / row[at(rival)]))
            .collect();
        let mean = r.iter().sum::<f64>() / r.len().max(1) as f64;
        reductions.push(format!("{} {mean:.1} %", rival.label()));
        // NaN (a missing run) fails too.
        if mean.partial_cmp(&REDUCTION).is_none_or(|o| o.is_lt()) {
            short.push(format!("against {} {mean:.1} %", rival.label()));
        }
    }
    let name = mode.name();
    vec![
        verdict(
            &format!("[{name}] PAP-RTDP preempts fewer VMs than every other policy (Fig. 5)."),
            "At every point of Figs. 5(a)-(d), PAP-RTDP's mean VMs preempted is below each \
             other policy's.",
            &fewest,
            format!(
                "Mean VMs preempted over the points: {}. Across Fig. 5(a)'s points, PAP-RND - \
                 PAP-RTDP: {} (paper: (2737.97, 3896.95)); Fig. 5(c): {} (paper: (380.5, \
                 4570)).",
                averages(&table, 0),
                interval(across_points(runs, mode, Axis::Vms, PapRnd, PapRtdp, vms)),
                interval(across_points(
                    runs,
                    mode,
                    Axis::External,
                    PapRnd,
                    PapRtdp,
                    vms
                )),
            ),
        ),
        verdict(
            &format!("[{name}] PAP-RTDP decreases the VM preemptions by at least 60 % (abstract)."),
            &format!(
                "Averaged over the points of Figs. 5(a)-(d), PAP-RTDP's reduction 1 - \
                 PAP-RTDP / X is at least {REDUCTION} % for X = RR, LRF-RND and BCF-RND."
            ),
            &short,
            format!("Mean reduction: {}.", reductions.join(", ")),
        ),
    ]
}
