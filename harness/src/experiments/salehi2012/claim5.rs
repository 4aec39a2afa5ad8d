//! Claim 5: Fig. 4 and Eq. 2 of seed 000, response time against VMs preempted (the criteria
//! are in the parent module's doc).

use super::measure::*;
use super::presets::Variant;
use crate::experiments::Runs;
use crate::models::federation::metrics::Metrics;
use crate::report::stats::{Estimate, t975};
use crate::report::{Figure, Mode, Section, verdict};

/// Fig. 4's figure ids.
pub(super) const FIGURES: &[&str] = &["fig4", "fig4-literal"];

/// Points per bin of the figure.
const BINS: usize = 6;

/// Every point of every axis in both modes.
pub(super) fn variants() -> Vec<Variant> {
    super::measure::variants(&Axis::ALL)
}

/// `(mean VMs preempted, mean external response time)` of every variant of `mode`.
fn pairs(runs: &Runs<Metrics>, mode: Mode) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = variants()
        .iter()
        .filter(|v| v.mode == mode)
        .map(|v| {
            (
                runs.mean(v, |m| Some(m.vms_preempted as f64)),
                runs.mean(v, |m| m.response_s),
            )
        })
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
    Figure {
        id,
        title: format!(
            "Fig. 4: response time of external requests against VMs preempted, each point a \
             policy and operating point ({} mode)",
            mode.name()
        ),
        x_label: "VMs preempted per run (bin mean)".into(),
        y_label: "mean response time of external requests, s".into(),
        groups: xs.iter().map(|x| format!("{x:.0}")).collect(),
        x_values: Some(xs),
        series: vec!["response time".into()],
        values: vec![
            bins.iter()
                .map(|b| Estimate::of(&b.iter().map(|p| p.1).collect::<Vec<_>>()))
                .collect(),
        ],
        paper: None,
        decimals: 1,
    }
}

/// The figures and verdicts.
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let mut figures = Vec::new();
    let mut verdicts = Vec::new();
    for (mode, id) in [(Mode::Calibrated, FIGURES[0]), (Mode::Literal, FIGURES[1])] {
        let points = pairs(runs, mode);
        figures.push(figure(id, mode, &points));
        let fitted = fit(&points);
        let failures = match fitted {
            Some((_, b, hw)) if b - hw > 0.0 => vec![],
            Some((_, b, hw)) => vec![format!(
                "the slope's interval ({:.4}, {:.4}) reaches 0",
                b - hw,
                b + hw
            )],
            None => vec!["too few points to fit".to_owned()],
        };
        verdicts.push(verdict(
            &format!(
                "[{}] Response time rises with the number of VMs preempted (Fig. 4, Eq. 2: \
                 R = 3.09 + 0.012 eta).",
                mode.name()
            ),
            "Over every policy and point of Figs. 5-8, the least-squares slope of the mean \
             external response time on the mean VMs preempted has a 95 % interval above 0.",
            &failures,
            match fitted {
                Some((a, b, hw)) => format!(
                    "R = {a:.1} + {b:.4} eta s (slope interval ({:.4}, {:.4})) over {} points.",
                    b - hw,
                    b + hw,
                    points.len()
                ),
                None => format!("{} points.", points.len()),
            },
        ));
    }
    Section {
        heading: "Claim 5 (Fig. 4, Eq. 2): response time rises with VMs preempted".into(),
        figures,
        statements: verdicts,
        ..Default::default()
    }
}
