//! Claim 3: Figs. 8-9 of seed 004 Sec. 6.4 (the criteria are in the parent module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::models::grid::metrics::Metrics;
use crate::report::{Section, verdict};

/// Miss percentages this close are "like" each other, points.
const CLOSE: f64 = 1.0;
/// A miss percentage this small is "about 0", %.
const ABOUT_ZERO: f64 = 0.1;

/// Fig. 8's GBP spreads and Fig. 9's GBP and BE under Mixed, x U4 1093, 546, 55 s/t.
pub(super) fn variants() -> Vec<Variant> {
    points(&[fig8_points(), fig9_points()].concat())
}

/// The figures and verdicts, from the runs of [`variants`].
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

    let (mut like_bad, mut miss_bad, mut ev) = (Vec::new(), Vec::new(), Vec::new());
    for &r in &U4_RATES {
        let gbp = |s| Variant {
            gs_interarrival: s,
            ..Variant::base(Table6::Gbp, r)
        };
        let fixed = gbp(Spread::Fixed);
        let mut diffs = Vec::new();
        for &s in &SPREADS[1..] {
            let d = Paired::of(runs, &gbp(s), &fixed, gs_missed);
            let case = format!("{} at U4 {}", spread_name(s), rate(r));
            match s {
                Spread::Un5 | Spread::Un20 if !d.within(CLOSE) => like_bad.push(case),
                Spread::Un50 | Spread::Mixed if !d.above_by(CLOSE) => miss_bad.push(case),
                _ => {}
            }
            diffs.push(format!("{} {}", spread_name(s), d.show(2)));
        }
        ev.push(format!(
            "U4 {}: Fixed {}; minus Fixed: {}",
            rate(r),
            V(runs.mean(&fixed, gs_missed), 1),
            diffs.join(", ")
        ));
    }
    let ev = format!("GS users' combined miss %: {}.", ev.join("; "));
    let mut bad9 = Vec::new();
    let mut ev9 = Vec::new();
    let total_missed = |m: &Metrics| m.all.missed_pct;
    for &r in &U4_RATES {
        let mixed = |t| Variant {
            gs_interarrival: Spread::Mixed,
            ..Variant::base(t, r)
        };
        let (gbp, be) = (mixed(Table6::Gbp), mixed(Table6::Be));
        let d = Paired::of(runs, &gbp, &be, total_missed);
        let (g, b) = (runs.mean(&gbp, total_missed), runs.mean(&be, total_missed));
        let both_zero = le(g.abs(), ABOUT_ZERO) && le(b.abs(), ABOUT_ZERO);
        if !(both_zero || d.below()) {
            bad9.push(format!("U4 {}", rate(r)));
        }
        ev9.push(format!(
            "U4 {}: GBP {}, BE {}, GBP - BE {}",
            rate(r),
            V(g, 1),
            V(b, 1),
            d.show(2)
        ));
    }
    Section {
        heading: "Claim 3 (Figs. 8-9): GS users that break their (rho, sigma) constraints".into(),
        figures: vec![fig8, fig9],
        statements: vec![
            verdict(
                "Un.5 and Un.20 arrivals behave like Fixed for GS users (Fig. 8).",
                &format!(
                    "At every U4 rate, the paired 95 % interval of the GS users' combined miss % \
                     under Un.5 and Un.20 minus Fixed's meets [-{CLOSE}, {CLOSE}] points."
                ),
                &like_bad,
                ev.clone(),
            ),
            verdict(
                "Un.50 and Mixed arrivals make GS users miss (Fig. 8).",
                &format!(
                    "At every U4 rate, the GS users' combined miss % under Un.50 and Mixed is \
                     above Fixed's beyond the paired 95 % interval, by at least {CLOSE} point on \
                     average."
                ),
                &miss_bad,
                ev,
            ),
            verdict(
                "Under Mixed arrivals the framework (GBP) misses fewer deadlines than no \
                 framework (BE) (Fig. 9).",
                &format!(
                    "At every U4 rate, GBP's % of all tasks missing their deadline is below BE's \
                     beyond the paired 95 % interval, or both are about 0 (at most \
                     {ABOUT_ZERO} %)."
                ),
                &bad9,
                format!("Missed, % of all tasks: {}.", ev9.join("; ")),
            ),
        ],
        ..Default::default()
    }
}
