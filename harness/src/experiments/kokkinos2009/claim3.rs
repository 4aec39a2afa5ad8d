//! Claim 3: Figs. 8-9 of kokkinos2009 Sec. 6.4 (the criteria are in the parent module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::models::grid::metrics::Metrics;
use crate::report::Section;

/// Miss percentages this close are "like" each other, points.
const CLOSE: f64 = 1.0;

/// Fig. 8's GBP spreads and Fig. 9's GBP and BE under Mixed, x U4 1093, 546, 55 s/t.
pub(super) fn variants() -> Vec<Variant> {
    points(&[fig8_points(), fig9_points()].concat())
}

/// The figures and statements, from the runs of [`variants`].
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let points8 = fig8_points();
    let mut fig8 = per_user_figure(
        runs,
        "fig8",
        "Fig. 8: tasks missing their deadline under GBP, GS inter-arrival spreads",
        "GS inter-arrival spread, U4 inter-arrival s/t",
        "missed deadlines, % of the user's tasks; GS backlogged, % of U1-U3's tasks",
        &points8,
        |u| Box::new(user_missed(u)),
    );
    // The backlogged GS tasks of Sec. 6.4.2, beside the misses.
    fig8.series.push("GS backlogged".into());
    fig8.values.push(
        points8
            .iter()
            .map(|(_, p)| runs.estimate(p, |m| combined(m, &GS_USERS, |r| r.backlogged_pct)))
            .collect(),
    );
    let points9 = fig9_points();
    let fig9 = per_user_figure(
        runs,
        "fig9",
        "Fig. 9: tasks missing their deadline, GBP and BE, Mixed GS inter-arrivals",
        "resource scenario (Table 6), U4 inter-arrival s/t",
        "missed deadlines, % of the user's tasks",
        &points9,
        |u| Box::new(user_missed(u)),
    );

    // GS users' combined miss % under a spread minus under Fixed, GBP, at every U4 rate.
    let minus_fixed = |spreads: &[Spread]| {
        U4_RATES
            .iter()
            .flat_map(|&r| {
                let gbp = move |s| Variant {
                    gs_interarrival: s,
                    ..Variant::base(Table6::Gbp, r)
                };
                spreads.iter().map(move |&s| {
                    let label = format!("{} - Fixed at U4 {}", spread_name(s), rate(r));
                    (label, runs.diff(&gbp(s), &gbp(Spread::Fixed), gs_missed))
                })
            })
            .collect::<Vec<_>>()
    };
    let effect = "the GS users' combined miss % under GBP with the spread minus with Fixed \
                  inter-arrivals, at each U4 rate";
    let like = claim(
        "kokkinos2009.fig8.small-spreads-like-fixed",
        "Un.5 and Un.20 arrivals behave like Fixed for GS users (Fig. 8).",
        effect,
        Margin::within(
            CLOSE,
            "points",
            Source::Practical(format!("miss percentages within {CLOSE} point are alike")),
        ),
    )
    .points(minus_fixed(&[Spread::Un5, Spread::Un20]))
    .done();
    let miss = claim(
        "kokkinos2009.fig8.large-spreads-miss",
        "Un.50 and Mixed arrivals make GS users miss (Fig. 8).",
        effect,
        Margin::at_least(
            CLOSE,
            "points",
            Source::Practical(format!(
                "a rise of less than {CLOSE} point is no more misses"
            )),
        ),
    )
    .points(minus_fixed(&[Spread::Un50, Spread::Mixed]))
    .done();
    let total_missed = |m: &Metrics| m.all.missed_pct;
    let mixed = |t, r| Variant {
        gs_interarrival: Spread::Mixed,
        ..Variant::base(t, r)
    };
    let framework = claim(
        "kokkinos2009.fig9.gbp-fewer-than-be",
        "Under Mixed arrivals the framework (GBP) misses fewer deadlines than no framework (BE) \
         (Fig. 9).",
        "the % of all tasks missing their deadline under BE minus under GBP, Mixed GS \
         inter-arrivals, at each U4 rate",
        Margin::at_least(
            CLOSE,
            "points",
            Source::Practical(format!("fewer by less than {CLOSE} point is not fewer")),
        ),
    )
    .points(U4_RATES.iter().map(|&r| {
        (
            format!("U4 {}", rate(r)),
            runs.diff(&mixed(Table6::Be, r), &mixed(Table6::Gbp, r), total_missed),
        )
    }))
    .done();
    Section {
        heading: "Claim 3 (Figs. 8-9): GS users that break their (rho, sigma) constraints".into(),
        figures: vec![fig8, fig9],
        statements: vec![like, miss, framework],
        ..Default::default()
    }
}
