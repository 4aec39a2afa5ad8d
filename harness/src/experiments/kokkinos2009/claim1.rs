//! Claim 1: Fig. 4 of kokkinos2009 Sec. 6.4 (the criteria are in the parent module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::models::grid::metrics::Metrics;
use crate::report::Section;

/// "Many" missed deadlines: a tenth of the tasks, %.
const MANY: f64 = 10.0;
/// A fall in the miss % smaller than this, points, is no fall.
const RISE_SLACK: f64 = 1.0;

/// Figs. 4-7's twelve variants: Table 6's scenarios x U4 1093, 546, 55 s/t.
pub(super) fn variants() -> Vec<Variant> {
    points(&fig4_points(Layout::Single, &TABLE6))
}

/// The figures and statements, from the runs of [`variants`].
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
    let no_misses = guarantee_check(
        runs,
        "kokkinos2009.fig4.gs-no-misses",
        "GS users U1-U3 miss no deadline in GB, GBE and GBP for U4 inter-arrival 1093, 546 and \
         55 s/t.",
        &guaranteed,
    );
    // `be` is in U4_RATES order, lightest load first.
    let many = claim(
        "kokkinos2009.fig4.be-gs-miss-many",
        "Without the framework (the BE scenario) the GS users start missing many deadlines as \
         U4's load rises.",
        "the GS users' combined miss % in the BE scenario at the heaviest U4 load (55 s/t)",
        Margin::at_least(
            MANY,
            "%",
            Source::Practical("\"many\": a tenth of their tasks".into()),
        ),
    )
    .points(
        be.last()
            .map(|(g, p)| (g.clone(), runs.level(p, gs_missed))),
    )
    .done();
    let rising = claim(
        "kokkinos2009.fig4.be-gs-misses-rise",
        "Without the framework the GS users' misses rise with U4's load.",
        "the GS users' combined miss % in the BE scenario at a U4 load minus at the next \
         lighter one",
        Margin::at_least(
            -RISE_SLACK,
            "points",
            Source::Practical(format!(
                "a fall of less than {RISE_SLACK} point is no fall (a rise may be 0 where both \
                 loads already miss everything)"
            )),
        ),
    )
    .points(be.windows(2).map(|w| {
        (
            format!("{} - {}", w[1].0, w[0].0),
            runs.diff(&w[1].1, &w[0].1, gs_missed),
        )
    }))
    .done();
    Section {
        heading: "Claim 1 (Fig. 4): hard delay guarantees for GS users".into(),
        figures: vec![fig4],
        statements: vec![no_misses, many, rising],
        ..Default::default()
    }
}
