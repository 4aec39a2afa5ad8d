//! Claim 5: Fig. 4 and Eq. 2 of salehi2012, response time against VMs preempted (the criteria
//! are in the parent module's doc).

use super::claim1::vms;
use crate::experiments::federation::measure::*;
use crate::experiments::federation::presets::Variant;
use crate::experiments::{Figures, Runs};
use crate::models::federation::metrics::Metrics;
use crate::report::stats::{Estimate, t975};
use crate::report::{Figure, Mode, Section, Ticks};

/// The calibrated part's figure.
pub(super) const CALIBRATED: &[&str] = &["fig4"];
/// The literal part's figure.
pub(super) const LITERAL: &[&str] = &["fig4-literal"];
/// The calibrated part's figures, then the literal part's.
pub(super) const FIGURES: [Figures; 2] = [CALIBRATED, LITERAL];

/// Points per bin of the figure.
const BINS: usize = 6;

/// A correlation below this is none ("small" is 0.1 on Cohen's scale).
const CORRELATION: f64 = 0.1;

fn response(m: &Metrics) -> Option<f64> {
    m.response_s
}

/// `(mean VMs preempted, mean external response time)` of every variant of `mode`, for the
/// figure and the printed fit.
fn pairs(runs: &Runs<Metrics>, mode: Mode) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = variants_of(mode, &Axis::ALL)
        .iter()
        .map(|v| (runs.mean(v, vms), runs.mean(v, response)))
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .collect();
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    out
}

/// Least squares `y = a + b x`: `(a, b, half-width of b's 95 % interval)`.
fn fit(points: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n = points.len();
    if n < 3 {
        return None;
    }
    let nf = n as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / nf;
    let my = points.iter().map(|p| p.1).sum::<f64>() / nf;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let b = sxy / sxx;
    let a = my - b * mx;
    let residual: f64 = points.iter().map(|p| (p.1 - a - b * p.0).powi(2)).sum();
    let se = (residual / (nf - 2.0) / sxx).sqrt();
    Some((a, b, t975(n - 2) * se))
}

fn figure(id: &'static str, mode: Mode, points: &[(f64, f64)]) -> Figure {
    let per = points.len().div_ceil(BINS).max(1);
    let bins: Vec<&[(f64, f64)]> = points.chunks(per).collect();
    let xs: Vec<f64> = bins
        .iter()
        .map(|b| b.iter().map(|p| p.0).sum::<f64>() / b.len() as f64)
        .collect();
    let title = "Fig. 4: response time of external requests against VMs preempted, each point a \
                 policy and operating point";
    Figure::lines(id, title)
        .mode(mode)
        .x("VMs preempted per run (bin mean)", xs, Ticks::Decimals(0))
        .y("mean response time of external requests, s")
        .series(
            "response time",
            bins.iter()
                .map(|b| Estimate::of(&b.iter().map(|p| p.1).collect::<Vec<_>>())),
        )
}

/// The other reading: pooled over operating points, the correlation may only say that busier
/// points have both more preemptions and longer responses. Within each operating point (the
/// five policies at one point of Figs. 5-8, paired by replication), the same r and margin, as
/// counts of outcomes.
fn within_points(runs: &Runs<Metrics>, mode: Mode, margin: &Margin) -> String {
    let mut points = Vec::new();
    let mut seen = Vec::new();
    for axis in Axis::ALL {
        let by_policy: Vec<Vec<Variant>> = POLICIES.iter().map(|&p| axis.points(mode, p)).collect();
        for i in 0..by_policy[0].len() {
            let first = by_policy[0][i];
            if seen.contains(&first) {
                continue;
            }
            seen.push(first);
            let five: Vec<Variant> = by_policy.iter().map(|vs| vs[i]).collect();
            points.push((
                point(axis, axis.x(&first)),
                correlation(runs, &five, Xs::Metric(vms), response),
            ));
        }
    }
    let judged = claim("-", "-", "-", margin.clone()).points(points).done();
    let count = |o| judged.points.iter().filter(|p| p.outcome == o).count();
    format!(
        "judged within each operating point instead (r over its five policies, paired by \
         replication): reproduced at {}, contradicted at {}, inconclusive at {} of {} points.",
        count(Outcome::Reproduced),
        count(Outcome::Contradicted),
        count(Outcome::Inconclusive),
        judged.points.len()
    )
}

/// The figures and statements of the claim's part in `mode`.
pub(super) fn judge(runs: &Runs<Metrics>, mode: Mode) -> Section {
    let name = mode.name();
    let points = pairs(runs, mode);
    let fitted = fit(&points);
    let all = variants_of(mode, &Axis::ALL);
    let margin = Margin::at_least(
        CORRELATION,
        "r",
        Source::Practical(format!(
            "the paper prints a line, no r; a correlation under {CORRELATION} (\"small\" on \
             Cohen's scale) is none"
        )),
    );
    let rises = claim(
        format!("salehi2012.{name}.fig4.response-rises-with-preemptions"),
        "The regression of the response time of external requests on the number of VMs \
         preempted (Fig. 4, Eq. 2: R = 3.09 + 0.012 eta) demonstrates a positive correlation \
         between the two (Sec. 3).",
        "Pearson's r of the mean response time of completed external requests against the \
         mean VMs preempted, over every policy and point of Figs. 5-8 (delta method on \
         Fisher's z, paired by replication)",
        margin.clone(),
    )
    .mode(mode)
    .point(
        format!("{} policy-points", all.len()),
        correlation(runs, &all, Xs::Metric(vms), response),
    )
    .other_reading(within_points(runs, mode, &margin))
    .evidence(match fitted {
        Some((a, b, hw)) => format!(
            "Least squares over the {} points' means: R = {a:.1} + {b:.4} eta s (slope \
             interval over the points ({:.4}, {:.4})).",
            points.len(),
            b - hw,
            b + hw
        ),
        None => format!("{} points with means.", points.len()),
    })
    .done();
    let id = mode.pick(CALIBRATED[0], LITERAL[0]);
    Section {
        heading: format!(
            "Claim 5 (Fig. 4, Eq. 2), {name} mode: response time rises with VMs preempted"
        ),
        figures: vec![figure(id, mode, &points)],
        statements: vec![rises],
        ..Default::default()
    }
}
