//! Claim 2: Figs. 5-7 of seed 004 Sec. 6.4 (the criteria are in the parent module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::models::grid::metrics::Metrics;
use crate::report::{Section, verdict};

/// A resource-use spread this much of the total use above another's is still "as even".
const EVEN_ENOUGH: f64 = 0.01;

/// Fig. 4's twelve variants ([`super::claim1::variants`]), read for failures and resource use.
pub(super) fn variants() -> Vec<Variant> {
    super::claim1::variants()
}

/// The figures and verdicts, from the runs of [`variants`].
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let points = fig4_points(Layout::Single, &TABLE6);
    let fig5 = per_user_figure(
        runs,
        "fig5",
        "Fig. 5: failed tasks, per user",
        "resource scenario (Table 6), U4 inter-arrival s/t",
        "failed tasks, % of the user's tasks",
        &points,
        |u| Box::new(move |m: &Metrics| m.user(u).and_then(|x| x.rates.failed_pct)),
    );
    let resources = ["R1", "R2", "R3"];
    let fig6 = Figure {
        id: "fig6",
        title: "Fig. 6: resource use".into(),
        x_label: "resource scenario (Table 6), U4 inter-arrival s/t".into(),
        y_label: "total execution time, CPU-seconds".into(),
        groups: points.iter().map(|(g, _)| g.clone()).collect(),
        x_values: None,
        series: resources.iter().map(|r| (*r).to_owned()).collect(),
        values: resources
            .iter()
            .map(|r| {
                points
                    .iter()
                    .map(|(_, p)| runs.estimate(p, |m| m.resource(r).map(|x| x.busy_s)))
                    .collect()
            })
            .collect(),
        paper: None,
        decimals: 0,
    };
    let sd = |m: &Metrics| Some(m.resource_use_sd_s);
    let fig7 = Figure {
        id: "fig7",
        title: "Fig. 7: standard deviation of the resource use".into(),
        x_label: "U4 inter-arrival, s/t".into(),
        y_label: "standard deviation across R1-R3, CPU-seconds".into(),
        groups: U4_RATES.iter().map(|&r| rate(r)).collect(),
        x_values: Some(U4_RATES.to_vec()),
        series: TABLE6.iter().map(|&t| t6(t).to_owned()).collect(),
        values: TABLE6
            .iter()
            .map(|&t| {
                U4_RATES
                    .iter()
                    .map(|&r| runs.estimate(&Variant::base(t, r), sd))
                    .collect()
            })
            .collect(),
        paper: None,
        decimals: 0,
    };

    // Per U4 rate: GBE fails the most BE tasks (and some); GBP misses least; GBP's sd smallest.
    let (mut fail_bad, mut miss_bad, mut sd_bad) = (Vec::new(), Vec::new(), Vec::new());
    let (mut fail_ev, mut miss_ev, mut sd_ev) = (Vec::new(), Vec::new(), Vec::new());
    let total_missed = |m: &Metrics| m.all.missed_pct;
    let total_use = |m: &Metrics| Some(m.resources.iter().map(|r| r.busy_s).sum::<f64>());
    for &r in &U4_RATES {
        let at = |t, f: &dyn Fn(&Metrics) -> Option<f64>| runs.mean(&Variant::base(t, r), f);
        let all = |f: &dyn Fn(&Metrics) -> Option<f64>, d| {
            TABLE6
                .iter()
                .map(|&t| format!("{} {}", t6(t), V(at(t, f), d)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let gbe_fail = at(Table6::Gbe, &be_failed);
        let other_fail = [Table6::Gb, Table6::Gbp, Table6::Be]
            .iter()
            .map(|&t| at(t, &be_failed))
            .fold(f64::NEG_INFINITY, f64::max);
        if !(lt(0.0, gbe_fail) && lt(other_fail, gbe_fail)) {
            fail_bad.push(format!("U4 {}", rate(r)));
        }
        fail_ev.push(format!("U4 {}: {}", rate(r), all(&be_failed, 1)));
        let gbp_miss = at(Table6::Gbp, &total_missed);
        if !TABLE6.iter().all(|&t| le(gbp_miss, at(t, &total_missed))) {
            miss_bad.push(format!("U4 {}", rate(r)));
        }
        miss_ev.push(format!("U4 {}: {}", rate(r), all(&total_missed, 1)));
        let gbp_sd = at(Table6::Gbp, &sd);
        let total = at(Table6::Gbp, &total_use);
        if !TABLE6
            .iter()
            .all(|&t| le(gbp_sd, at(t, &sd) + EVEN_ENOUGH * total))
        {
            sd_bad.push(format!("U4 {}", rate(r)));
        }
        sd_ev.push(format!(
            "U4 {}: {} (GBP's total use {} CPU-s)",
            rate(r),
            all(&sd, 0),
            V(total, 0)
        ));
    }
    Section {
        heading: "Claim 2 (Figs. 5-7): failed BE tasks, total misses, resource use".into(),
        figures: vec![fig5, fig6, fig7],
        statements: vec![
            verdict(
                "GBE rejects (fails) many BE tasks (Fig. 5).",
                "At every U4 rate, the BE users' (U4, U5) combined % of failed tasks is above 0 \
                 under GBE and above every other scenario's.",
                &fail_bad,
                format!("BE users' failed tasks, %: {}.", fail_ev.join("; ")),
            ),
            verdict(
                "GBP has the fewest total deadline misses (Figs. 4-5).",
                "At every U4 rate, GBP's % of all tasks missing their deadline (failed ones \
                 included) is no larger than any other scenario's.",
                &miss_bad,
                format!("Missed, % of all tasks: {}.", miss_ev.join("; ")),
            )
            .because(
                "at U4 1093 s/t the load is light enough for the BE scenario, where every \
                 resource takes any task, to meet every deadline; at 55 s/t U4 alone offers 4.9 \
                 times the grid's capacity (419,900,000 MI every 55 s against 1,560,000 MIPS), \
                 so every scenario is overloaded.",
            ),
            verdict(
                "GBP uses the resources most evenly (Figs. 6-7).",
                &format!(
                    "At every U4 rate, GBP's standard deviation of the resource use is no larger \
                     than any other scenario's by more than {:.0} % of GBP's total use (a \
                     difference that small is no less even).",
                    100.0 * EVEN_ENOUGH
                ),
                &sd_bad,
                format!("Sd of the resource use, CPU-s: {}.", sd_ev.join("; ")),
            ),
        ],
        ..Default::default()
    }
}
