//! Claim 1: Fig. 2 of salehi2011, utilization on one cluster (the criteria are in the parent
//! module's doc).

use super::measure::{Axis, along, ends, figures, linearity};
use crate::experiments::federation::measure::{Margin, Metric, Source, claim, points_more};
use crate::experiments::{Figures, Runs};
use crate::models::federation::metrics::Metrics;
use crate::report::{Mode, Section, Statement};

/// The calibrated part's figures.
pub(super) const CALIBRATED: &[&str] = &["fig2a", "fig2b", "fig2c"];
/// The literal part's figures.
pub(super) const LITERAL: &[&str] = &["fig2a-literal", "fig2b-literal", "fig2c-literal"];
/// The calibrated part's figures, then the literal part's.
pub(super) const FIGURES: [Figures; 2] = [CALIBRATED, LITERAL];

/// "Almost linearly": Pearson's r at least this, in absolute value.
const LINEAR: f64 = 0.9;

/// The margin of "almost linearly": `r >= LINEAR` (rising) or `r <= -LINEAR` (falling).
fn linear(rising: bool) -> Margin {
    let source = Source::Practical(format!(
        "\"almost linearly\": the means along the axis on a line to Pearson's |r| >= {LINEAR}"
    ));
    if rising {
        Margin::at_least(LINEAR, "r", source)
    } else {
        Margin::at_most(-LINEAR, "r", source)
    }
}

/// The effect of a linearity claim.
fn r_effect(what: &str, axis: &str) -> String {
    format!(
        "Pearson's r of the mean {what} against {axis}, for MOML, MOV and MLIP with the class \
         preference off (delta method on Fisher's z, paired by replication)"
    )
}

/// One metric of the cluster runs along the axes of Figs. 2-3 in one mode: what the claims on
/// it share.
pub(super) struct Along<'r> {
    pub(super) runs: &'r Runs<Metrics>,
    pub(super) mode: Mode,
    pub(super) metric: Metric,
    /// The metric in an effect's words (`utilization (Eq. 21)`).
    pub(super) what: &'static str,
    /// The means in the evidence's words (`utilization along the axis, %`).
    pub(super) means: &'static str,
}

impl Along<'_> {
    /// Every policy's means along `axis`, as evidence.
    pub(super) fn evidence(&self, axis: Axis) -> String {
        let means = along(self.runs, self.mode, axis, self.metric);
        format!("Mean {}: {means}.", self.means)
    }

    /// The claim `id` (`text`) that the metric changes almost linearly along `axis`, rising or
    /// not; `axis_words` name the axis in the effect.
    pub(super) fn linear(
        &self,
        (id, text): (String, &str),
        axis: Axis,
        axis_words: &str,
        rising: bool,
    ) -> Statement {
        claim(id, text, &r_effect(self.what, axis_words), linear(rising))
            .mode(self.mode)
            .points(linearity(self.runs, self.mode, axis, self.metric))
            .evidence(self.evidence(axis))
            .done()
    }
}

fn utilization(m: &Metrics) -> Option<f64> {
    m.utilization
}

/// The figures and statements of the claim's part in `mode`.
pub(super) fn judge(runs: &Runs<Metrics>, mode: Mode) -> Section {
    let name = mode.name();
    let ids = mode.pick(CALIBRATED, LITERAL);
    let figures = figures(
        runs,
        mode,
        ids,
        "resource utilization (Eq. 21), one cluster",
        "utilization, %",
        utilization,
    );
    let on = Along {
        runs,
        mode,
        metric: utilization,
        what: "utilization (Eq. 21)",
        means: "utilization along the axis, %",
    };
    let vms = on.linear(
        (
            format!("salehi2011.{name}.fig2a.utilization-linear-in-vms"),
            "Resource utilization increases almost linearly by increasing the average number \
             of VMs in requests (Fig. 2(a)).",
        ),
        Axis::Vms,
        "the mean VMs of external requests",
        true,
    );
    let best_effort = claim(
        format!("salehi2011.{name}.fig2b.best-effort-raises-utilization"),
        "Increasing the number of best-effort requests improves resource utilization (Fig. \
         2(b)).",
        "the mean utilization (Eq. 21) at 100 % best-effort external requests minus at 0 % \
         (paired), for MOML, MOV and MLIP with the class preference off",
        points_more(),
    )
    .mode(mode)
    .points(ends(mode, Axis::BestEffort, |first, last| {
        runs.diff(last, first, utilization)
    }))
    .evidence(on.evidence(Axis::BestEffort))
    .done();
    let local = on.linear(
        (
            format!("salehi2011.{name}.fig2c.utilization-falls-linearly-with-local"),
            "By increasing the number of local requests, resource utilization decreases almost \
             linearly in all policies (Fig. 2(c)).",
        ),
        Axis::Local,
        "the % of local requests",
        false,
    );
    Section {
        heading: format!(
            "Claim 1 (Fig. 2), {name} mode: utilization against VMs, best-effort share and \
             local share"
        ),
        figures,
        statements: vec![vms, best_effort, local],
        ..Default::default()
    }
}
