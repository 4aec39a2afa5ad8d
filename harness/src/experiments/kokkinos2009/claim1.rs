//! Claim 1: Fig. 4 of seed 004 Sec. 6.4 (the criteria are in the parent module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::models::grid::metrics::Metrics;
use crate::report::{Section, verdict};

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
    let be_low: Vec<String> = be
        .iter()
        .filter(|(_, p)| !le(10.0, runs.mean(p, gs_missed)))
        .map(|(g, _)| g.clone())
        .collect();
    Section {
        heading: "Claim 1 (Fig. 4): hard delay guarantees for GS users".into(),
        figures: vec![fig4],
        verdicts: vec![
            verdict(
                "GS users U1-U3 miss no deadline in GB, GBE and GBP for U4 inter-arrival 1093, \
                 546 and 55 s/t.",
                "U1, U2 and U3 each miss 0 % in all nine GB, GBE and GBP variants.",
                &misses,
                format!(
                    "GS users combined, miss %: {}.",
                    listing(runs, &guaranteed, gs_missed)
                ),
            ),
            verdict(
                "In the BE scenario (no framework) they miss many.",
                "The GS users combined miss at least 10 % in the BE scenario at every U4 rate.",
                &be_low,
                format!(
                    "GS users combined, miss %: {}.",
                    listing(runs, &be, gs_missed)
                ),
            ),
        ],
    }
}
