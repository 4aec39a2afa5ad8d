//! Claim 2: Figs. 5-7 of kokkinos2009 Sec. 6.4 (the criteria are in the parent module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::models::grid::metrics::Metrics;
use crate::report::Section;

/// A resource-use spread this much of the total use above another's is still "as even".
const EVEN_ENOUGH: f64 = 0.01;
/// "Many" failed tasks: a tenth of the BE users' tasks, %.
const MANY: f64 = 10.0;
/// Miss percentages this close, points, rank alike.
const CLOSE: f64 = 1.0;

/// Fig. 4's twelve variants ([`super::claim1::variants`]), read for failures and resource use.
pub(super) fn variants() -> Vec<Variant> {
    super::claim1::variants()
}

/// The figures and statements, from the runs of [`variants`].
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
    let fig6 = Figure::bars("fig6", "Fig. 6: resource use")
        .groups(
            "resource scenario (Table 6), U4 inter-arrival s/t",
            points.iter().map(|(g, _)| g.as_str()),
        )
        .y("total execution time, CPU-seconds")
        .all_series(resources.map(|r| {
            let busy = move |m: &Metrics| m.resource(r).map(|x| x.busy_s);
            (r, points.iter().map(move |(_, p)| runs.estimate(p, busy)))
        }))
        .decimals(0);
    let sd = |m: &Metrics| Some(m.resource_use_sd_s);
    let fig7 = Figure::lines("fig7", "Fig. 7: standard deviation of the resource use")
        .x("U4 inter-arrival, s/t", U4_RATES, Ticks::Plain)
        .y("standard deviation across R1-R3, CPU-seconds")
        .all_series(TABLE6.map(|t| {
            let values = U4_RATES.map(|r| runs.estimate(&Variant::base(t, r), sd));
            (t6(t), values)
        }))
        .decimals(0);

    let total_missed = |m: &Metrics| m.all.missed_pct;
    let at = |t, r| Variant::base(t, r);
    // Paired over every other scenario at every U4 rate.
    let versus = |of: Table6, f: &dyn Fn(&[&Metrics]) -> Option<f64>| {
        U4_RATES
            .iter()
            .flat_map(|&r| {
                TABLE6.iter().filter(move |&&t| t != of).map(move |&t| {
                    let label = format!("U4 {}, {} - {}", rate(r), t6(of), t6(t));
                    (label, runs.combined(&[at(of, r), at(t, r)], f))
                })
            })
            .collect::<Vec<_>>()
    };
    let fails = claim(
        "kokkinos2009.fig5.gbe-fails-many",
        "GBE rejects (fails) many BE tasks (Fig. 5).",
        "the BE users' (U4, U5) combined % of failed tasks under GBE minus under each other \
         scenario, at each U4 rate",
        Margin::at_least(
            MANY,
            "points",
            Source::Practical("\"many\": a tenth of the BE users' tasks".into()),
        ),
    )
    .points(versus(Table6::Gbe, &|m| {
        Some(be_failed(m[0])? - be_failed(m[1])?)
    }))
    .done();
    let fewest = claim(
        "kokkinos2009.fig5.gbp-fewest-misses",
        "GBP has the fewest total deadline misses (Figs. 4-5).",
        "GBP's % of all tasks missing their deadline (failed ones included) minus each other \
         scenario's, at each U4 rate",
        Margin::at_most(
            CLOSE,
            "points",
            Source::Practical(format!(
                "a scenario within {CLOSE} point of another is not behind it"
            )),
        ),
    )
    .points(versus(Table6::Gbp, &|m| {
        Some(total_missed(m[0])? - total_missed(m[1])?)
    }))
    .why(
        "at U4 1093 s/t the load is light enough for the BE scenario, where every resource \
         takes any task, to meet every deadline; at 55 s/t U4 alone offers 4.9 times the \
         grid's capacity (419,900,000 MI every 55 s against 1,560,000 MIPS), so every scenario \
         is overloaded.",
    )
    .done();
    let total_use = |m: &Metrics| Some(m.resources.iter().map(|r| r.busy_s).sum::<f64>());
    let even = claim(
        "kokkinos2009.fig7.gbp-most-even",
        "GBP uses the resources most evenly (Figs. 6-7).",
        "GBP's standard deviation of the resource use minus each other scenario's, as a % of \
         GBP's total use, at each U4 rate",
        Margin::at_most(
            100.0 * EVEN_ENOUGH,
            "% of GBP's use",
            Source::Practical(
                "a spread that much of the total use above another's is still as even".into(),
            ),
        ),
    )
    .points(versus(Table6::Gbp, &|m| {
        Some(100.0 * (sd(m[0])? - sd(m[1])?) / total_use(m[0])?)
    }))
    .done();
    Section {
        heading: "Claim 2 (Figs. 5-7): failed BE tasks, total misses, resource use".into(),
        figures: vec![fig5, fig6, fig7],
        statements: vec![fails, fewest, even],
        ..Default::default()
    }
}
