//! Claim 2: Fig. 3 of salehi2011, leases preempted on one cluster, and the policies' order (the
//! criteria are in the parent module's doc).

use super::claim1::Along;
use super::measure::{Axis, all_points, ends, figures};
use super::presets::{ClusterVariant, Variant};
use crate::experiments::federation::measure::{FEWER_PCT, Margin, Source, claim, fewer, pct_below};
use crate::experiments::{Figures, Runs};
use crate::models::federation::metrics::Metrics;
use crate::models::federation::scenario::PreemptionPolicy::{Mlip, Moml, Mov};
use crate::models::federation::scenario::PreferenceRule;
use crate::report::{Mode, Section};

/// The calibrated part's figures.
pub(super) const CALIBRATED: &[&str] = &["fig3a", "fig3b", "fig3c"];
/// The literal part's figures.
pub(super) const LITERAL: &[&str] = &["fig3a-literal", "fig3b-literal", "fig3c-literal"];
/// The calibrated part's figures, then the literal part's.
pub(super) const FIGURES: [Figures; 2] = [CALIBRATED, LITERAL];

fn preempted(m: &Metrics) -> Option<f64> {
    Some(m.leases_preempted as f64)
}

/// The figures and statements of the claim's part in `mode`.
pub(super) fn judge(runs: &Runs<Metrics>, mode: Mode) -> Section {
    let name = mode.name();
    let ids = mode.pick(CALIBRATED, LITERAL);
    let figures = figures(
        runs,
        mode,
        ids,
        "leases preempted, one cluster",
        "leases preempted per run",
        preempted,
    );
    let on = Along {
        runs,
        mode,
        metric: preempted,
        what: "leases preempted",
        means: "leases preempted along the axis",
    };
    let vms = claim(
        format!("salehi2011.{name}.fig3a.more-vms-fewer-preemptions"),
        "In general, leases with more VMs lead to fewer preemptions (Fig. 3(a)).",
        "how far the mean leases preempted at the largest mean VMs lie below those at the \
         smallest, % (ratio of means, paired), for MOML, MOV and MLIP with the class \
         preference off",
        fewer(),
    )
    .mode(mode)
    .points(ends(mode, Axis::Vms, |first, last| {
        pct_below(runs, &[*last], &[*first], preempted)
    }))
    .evidence(on.evidence(Axis::Vms))
    .done();
    let best_effort = on.linear(
        (
            format!("salehi2011.{name}.fig3b.preemptions-linear-in-best-effort"),
            "By increasing the number of best-effort external requests the number of \
             preemptions increases almost linearly (Fig. 3(b)).",
        ),
        Axis::BestEffort,
        "the % of best-effort external requests",
        true,
    );
    let local = on.linear(
        (
            format!("salehi2011.{name}.fig3c.preemptions-linear-in-local"),
            "The number of preemptions increases by increasing the number of local requests in \
             all policies almost linearly (Fig. 3(c)).",
        ),
        Axis::Local,
        "the % of local requests",
        true,
    );
    // "Most of the time MLIP results in a minimum number of preemptions and MOML operates
    // between MLIP and MOV" (all sub-figures of Fig. 3): over the totals of every point.
    let total = |p| all_points(mode, p);
    let fewest = claim(
        format!("salehi2011.{name}.fig3.mlip-fewest"),
        "As illustrated in all sub-figures of Fig. 3, most of the time MLIP results in a \
         minimum number of preemptions.",
        "how far MLIP's total leases preempted over every point of Figs. 3(a)-(c) lies below \
         MOML's and MOV's, % of theirs (ratio of totals, paired, delta method; class \
         preference off)",
        fewer(),
    )
    .mode(mode)
    .points([Moml, Mov].map(|rival| {
        (
            format!("MLIP vs {}", rival.label()),
            pct_below(runs, &total(Mlip), &total(rival), preempted),
        )
    }))
    .done();
    let tiers: Vec<String> = [Moml, Mov, Mlip]
        .iter()
        .map(|&p| {
            let v = Variant::Cluster(ClusterVariant::fixed(mode, p, PreferenceRule::Tiers));
            format!("{} {:.1}", p.label(), runs.mean(&v, preempted))
        })
        .collect();
    let between = claim(
        format!("salehi2011.{name}.fig3.moml-between"),
        "As illustrated in all sub-figures of Fig. 3, MOML operates between MLIP and MOV.",
        "how far MLIP's total leases preempted over every point of Figs. 3(a)-(c) lies below \
         MOML's, and MOML's below MOV's, % (ratio of totals, paired, delta method; class \
         preference off)",
        Margin::at_least(
            -FEWER_PCT,
            "% below",
            Source::Practical(format!(
                "between, ends included: neither end beyond MOML by more than {FEWER_PCT} % \
                 (the gap a claim of \"fewer\" needs)"
            )),
        ),
    )
    .mode(mode)
    .points([
        (
            "MLIP vs MOML".to_owned(),
            pct_below(runs, &total(Mlip), &total(Moml), preempted),
        ),
        (
            "MOML vs MOV".to_owned(),
            pct_below(runs, &total(Moml), &total(Mov), preempted),
        ),
    ])
    .evidence(format!(
        "With the class preference on, the fixed point's mean leases preempted: {} (E12: with \
         cancelling free the three pick alike whenever Cancelable leases suffice).",
        tiers.join(", ")
    ))
    .done();
    Section {
        heading: format!(
            "Claim 2 (Fig. 3), {name} mode: lease preemptions, and MLIP fewest, MOML between"
        ),
        figures,
        statements: vec![vms, best_effort, local, fewest, between],
        ..Default::default()
    }
}
