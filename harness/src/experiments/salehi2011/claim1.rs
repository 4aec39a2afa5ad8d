//! Claim 1: Fig. 2 of seed 001, utilization on one cluster (the criteria are in the parent
//! module's doc).

use super::measure::{Axis, Trend, figures, trend};
use super::presets::Variant;
use crate::experiments::Runs;
use crate::experiments::salehi2012::measure::MODES;
use crate::models::federation::metrics::Metrics;
use crate::report::{Mode, Section, Statement, verdict};

/// Fig. 2's figure ids.
pub(super) const FIGURES: &[&str] = &[
    "fig2a",
    "fig2b",
    "fig2c",
    "fig2a-literal",
    "fig2b-literal",
    "fig2c-literal",
];

/// "Almost linearly": Pearson's r at least this, in absolute value.
pub(super) const LINEAR: f64 = 0.9;

fn utilization(m: &Metrics) -> Option<f64> {
    m.utilization
}

/// Every variant of Figs. 2-3.
pub(super) fn variants() -> Vec<Variant> {
    super::measure::variants()
}

/// The figures and verdicts.
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let figures = figures(
        runs,
        FIGURES,
        "resource utilization (Eq. 21), one cluster",
        "utilization, %",
        utilization,
    );
    let mut verdicts = Vec::new();
    for mode in MODES {
        verdicts.extend(judge_mode(runs, mode));
    }
    Section {
        heading: "Claim 1 (Fig. 2): utilization against VMs, best-effort share and local share"
            .into(),
        figures,
        statements: verdicts,
        ..Default::default()
    }
}

fn judge_mode(runs: &Runs<Metrics>, mode: Mode) -> Vec<Statement> {
    let name = mode.name();
    let statement = |claim: &str, criterion: &str, axis, want| {
        let (failures, seen) = trend(runs, mode, axis, utilization, want);
        verdict(
            &format!("[{name}] {claim}"),
            criterion,
            &failures,
            format!("Utilization along the axis, class preference off: {seen}."),
        )
    };
    vec![
        statement(
            "Resource utilization increases almost linearly with the average number of VMs \
             (Fig. 2(a)).",
            &format!(
                "For MOML, MOV and MLIP, Pearson's r of utilization against the mean VMs is at \
                 least {LINEAR}."
            ),
            Axis::Vms,
            Trend::Linear(LINEAR),
        ),
        statement(
            "Increasing the number of best-effort requests improves resource utilization \
             (Fig. 2(b)).",
            "For MOML, MOV and MLIP, utilization at 100 % best effort is above that at 0 %, \
             and r is above 0.",
            Axis::BestEffort,
            Trend::Rises,
        ),
        statement(
            "By increasing the number of local requests, resource utilization decreases almost \
             linearly in all policies (Fig. 2(c)).",
            &format!(
                "For MOML, MOV and MLIP, r of utilization against the % of local requests is at \
                 most -{LINEAR}."
            ),
            Axis::Local,
            Trend::FallsLinear(LINEAR),
        ),
    ]
}
