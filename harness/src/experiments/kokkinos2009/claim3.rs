//! Claim 3: Figs. 8-9 of seed 004 Sec. 6.4 (the criteria are in the parent module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::models::grid::metrics::Metrics;
use crate::report::{Section, verdict};

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
        let at = |s| {
            runs.mean(
                &Variant {
                    gs_interarrival: s,
                    ..Variant::base(Table6::Gbp, r)
                },
                gs_missed,
            )
        };
        let fixed = at(Spread::Fixed);
        for &s in &SPREADS {
            let v = at(s);
            let case = format!("{} at U4 {}", spread_name(s), rate(r));
            match s {
                Spread::Fixed => {}
                Spread::Un5 | Spread::Un20 if !le((v - fixed).abs(), 1.0) => like_bad.push(case),
                Spread::Un50 | Spread::Mixed if !le(fixed + 1.0, v) => miss_bad.push(case),
                _ => {}
            }
        }
        ev.push(format!(
            "U4 {}: {}",
            rate(r),
            SPREADS
                .iter()
                .map(|&s| format!("{} {}", spread_name(s), V(at(s), 1)))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let ev = format!("GS users' combined miss %: {}.", ev.join("; "));
    let mut bad9 = Vec::new();
    let mut ev9 = Vec::new();
    for &r in &U4_RATES {
        let at = |t| {
            runs.mean(
                &Variant {
                    gs_interarrival: Spread::Mixed,
                    ..Variant::base(t, r)
                },
                |m| m.all.missed_pct,
            )
        };
        let (gbp, be) = (at(Table6::Gbp), at(Table6::Be));
        if !lt(gbp, be) {
            bad9.push(format!("U4 {}", rate(r)));
        }
        ev9.push(format!(
            "U4 {}: GBP {}, BE {}",
            rate(r),
            V(gbp, 1),
            V(be, 1)
        ));
    }
    Section {
        heading: "Claim 3 (Figs. 8-9): GS users that break their (rho, sigma) constraints".into(),
        figures: vec![fig8, fig9],
        verdicts: vec![
            verdict(
                "Un.5 and Un.20 arrivals behave like Fixed for GS users (Fig. 8).",
                "At every U4 rate, the GS users' combined miss % under Un.5 and Un.20 is within \
                 1 point of Fixed's.",
                &like_bad,
                ev.clone(),
            ),
            verdict(
                "Un.50 and Mixed arrivals make GS users miss (Fig. 8).",
                "At every U4 rate, the GS users' combined miss % under Un.50 and Mixed is at \
                 least 1 point above Fixed's.",
                &miss_bad,
                ev,
            ),
            verdict(
                "Under Mixed arrivals the framework (GBP) misses fewer deadlines than no \
                 framework (BE) (Fig. 9).",
                "At every U4 rate, GBP's % of all tasks missing their deadline is below BE's.",
                &bad9,
                format!("Missed, % of all tasks: {}.", ev9.join("; ")),
            ),
        ],
    }
}
