//! Claim 2: Fig. 3 of seed 001, leases preempted on one cluster, and the policies' order (the
//! criteria are in the parent module's doc).

use super::claim1::LINEAR;
use super::measure::{Axis, Trend, figures, line, trend};
use super::presets::Variant;
use crate::experiments::Runs;
use crate::experiments::salehi2012::measure::MODES;
use crate::models::federation::metrics::Metrics;
use crate::models::federation::scenario::PreemptionPolicy::{Mlip, Moml, Mov};
use crate::models::federation::scenario::PreferenceRule;
use crate::report::{Mode, Section, Statement, verdict};

/// Fig. 3's figure ids.
pub(super) const FIGURES: &[&str] = &[
    "fig3a",
    "fig3b",
    "fig3c",
    "fig3a-literal",
    "fig3b-literal",
    "fig3c-literal",
];

fn preempted(m: &Metrics) -> Option<f64> {
    Some(m.leases_preempted as f64)
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
        "leases preempted, one cluster",
        "leases preempted per run",
        preempted,
    );
    let mut verdicts = Vec::new();
    for mode in MODES {
        verdicts.extend(judge_mode(runs, mode));
    }
    Section {
        heading: "Claim 2 (Fig. 3): lease preemptions, and MLIP fewest, MOML between".into(),
        figures,
        statements: verdicts,
        ..Default::default()
    }
}

fn judge_mode(runs: &Runs<Metrics>, mode: Mode) -> Vec<Statement> {
    let name = mode.name();
    let statement = |claim: &str, criterion: &str, axis, want| {
        let (failures, seen) = trend(runs, mode, axis, preempted, want);
        verdict(
            &format!("[{name}] {claim}"),
            criterion,
            &failures,
            format!("Leases preempted along the axis, class preference off: {seen}."),
        )
    };
    let mut out = vec![
        statement(
            "Leases with more VMs lead to fewer preemptions (Fig. 3(a)).",
            "For MOML, MOV and MLIP, the leases preempted at the largest mean VMs are below \
             those at the smallest, and r is below 0.",
            Axis::Vms,
            Trend::Falls,
        ),
        statement(
            "By increasing the number of best-effort external requests the number of \
             preemptions increases almost linearly (Fig. 3(b)).",
            &format!(
                "For MOML, MOV and MLIP, r of leases preempted against the best-effort % is at \
                 least {LINEAR}."
            ),
            Axis::BestEffort,
            Trend::Linear(LINEAR),
        ),
        statement(
            "The number of preemptions increases by increasing the number of local requests, \
             in all policies almost linearly (Fig. 3(c)).",
            &format!(
                "For MOML, MOV and MLIP, r of leases preempted against the % of local requests \
                 is at least {LINEAR}."
            ),
            Axis::Local,
            Trend::Linear(LINEAR),
        ),
    ];
    // "Most of the time MLIP results in a minimum number of preemptions and MOML operates
    // between MLIP and MOV", over every point of the three axes.
    let (mut points, mut lowest, mut between) = (0, 0, 0);
    for axis in Axis::ALL {
        let [moml, mov, mlip] = [Moml, Mov, Mlip].map(|p| line(runs, mode, axis, p, preempted));
        for k in 0..moml.len() {
            let (a, b, c) = (moml[k].1, mov[k].1, mlip[k].1);
            points += 1;
            if c <= a && c <= b {
                lowest += 1;
            }
            if a >= b.min(c) && a <= b.max(c) {
                between += 1;
            }
        }
    }
    let mut failures = Vec::new();
    if 2 * lowest <= points {
        failures.push(format!("MLIP is lowest at {lowest} of {points} points"));
    }
    if 2 * between <= points {
        failures.push(format!("MOML is between at {between} of {points} points"));
    }
    let tiers: Vec<String> = [Moml, Mov, Mlip]
        .iter()
        .map(|&p| {
            let v = Variant::Cluster(super::presets::ClusterVariant::fixed(
                mode,
                p,
                PreferenceRule::Tiers,
            ));
            format!("{} {:.1}", p.label(), runs.mean(&v, preempted))
        })
        .collect();
    out.push(verdict(
        &format!(
            "[{name}] Most of the time MLIP results in the minimum number of preemptions and \
             MOML operates between MLIP and MOV (Fig. 3)."
        ),
        "With the class preference off, over every point of Figs. 3(a)-(c): MLIP's leases \
         preempted are the lowest of the three at more than half of the points, and MOML's lie \
         between MLIP's and MOV's at more than half.",
        &failures,
        format!(
            "MLIP lowest at {lowest} of {points} points, MOML between at {between}. With the \
             class preference on, the fixed point's leases preempted: {} (N11: with cancelling \
             free the three pick alike whenever Cancelable leases suffice).",
            tiers.join(", ")
        ),
    ));
    out
}
