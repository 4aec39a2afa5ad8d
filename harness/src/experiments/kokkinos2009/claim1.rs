//! Claim 1: Fig. 4 of seed 004 Sec. 6.4 (the criteria are in the parent module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::models::grid::metrics::Metrics;
use crate::report::{Section, verdict};

/// "Many" missed deadlines: a tenth of the tasks, %.
const MANY: f64 = 10.0;

/// Figs. 4-7's twelve variants: Table 6's scenarios x U4 1093, 546, 55 s/t.
pub(super) fn variants() -> Vec<Variant> {
    points(&fig4_points(Layout::Single, &TABLE6))
}

/// The figures and verdicts, from the runs of [`variants`].
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let points = fig4_points(Layout::Single, &TABLE6);
    let fig4 = per_user_figure(
        runs,
        "fig4",
        "Fig. 4: tasks missing their deadline, per user",
        "resource scenario (Table 6), U4 inter-arrival s/t",
        "missed deadlines, % of the user's tasks",
        &points,
        |u| Box::new(user_missed(u)),
    );
    let (guaranteed, be): (Vec<_>, Vec<_>) = points
        .iter()
        .cloned()
        .partition(|(_, p)| p.resources != Table6::Be);
    let misses = gs_misses(runs, &guaranteed);
    // "Start missing many" as U4's load rises (`be` is in U4_RATES order, lightest first):
    // many at the heaviest load, never fewer at a heavier one.
    let be_misses: Vec<f64> = be.iter().map(|(_, p)| runs.mean(p, gs_missed)).collect();
    let mut be_low: Vec<String> = be_misses
        .windows(2)
        .zip(be.windows(2))
        .filter(|(m, _)| !le(m[0], m[1]))
        .map(|(_, g)| format!("fewer at {} than at {}", g[1].0, g[0].0))
        .collect();
    if !be_misses.last().is_some_and(|&m| le(MANY, m)) {
        be_low.push(format!("below {MANY} % at the heaviest load"));
    }
    Section {
        heading: "Claim 1 (Fig. 4): hard delay guarantees for GS users".into(),
        figures: vec![fig4],
        statements: vec![
            verdict(
                "GS users U1-U3 miss no deadline in GB, GBE and GBP for U4 inter-arrival 1093, \
                 546 and 55 s/t.",
                "U1, U2 and U3 each miss 0 % in all nine GB, GBE and GBP variants, and none of their \
                 tasks takes longer at its resource than the bound the kernel guaranteed it.",
                &misses,
                format!(
                    "GS users combined, miss %: {}.",
                    listing(runs, &guaranteed, gs_missed)
                ),
            ),
            verdict(
                "Without the framework (the BE scenario) they start missing many deadlines as \
                 U4's load rises.",
                &format!(
                    "In the BE scenario, the GS users' combined miss % does not fall as U4's \
                     inter-arrival goes from 1093 to 546 to 55 s/t, and is at least {MANY} % at \
                     55 s/t."
                ),
                &be_low,
                format!(
                    "GS users combined, miss %: {}.",
                    listing(runs, &be, gs_missed)
                ),
            ),
        ],
        ..Default::default()
    }
}
