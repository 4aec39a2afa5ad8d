//! What the claims of seed 002 share: the axes, the variants of each figure, the metrics, the
//! improvement factors with their paired intervals, and the figure and verdict helpers.

use super::params::{BETA_MODERATE, BETAS, THETA_MEDIUM, THETAS};
pub(super) use super::presets::{Route, Variant, brokering_name, scheduler_name};
use crate::experiments::Runs;
pub(super) use crate::experiments::compare::{Paired, V, le, lt};
pub(super) use crate::models::hybrid::metrics::Metrics;
pub(super) use crate::models::hybrid::scenario::{Brokering, PolicyName};
pub(super) use crate::report::Figure;
use crate::report::Statement;
use crate::report::stats::Estimate;

/// How far a measured factor may be from the paper's, as a share of the paper's ("near").
pub(super) const NEAR: f64 = 0.2;

/// `got` is within [`NEAR`] of `want`, relatively; false if `got` is undefined (NaN).
pub(super) fn near(got: f64, want: f64) -> bool {
    (got / want - 1.0).abs() <= NEAR
}

/// The y label of AWRT figures.
pub(super) const AWRT_LABEL: &str = "AWRT (Eq. 14), s";
/// The y label of slowdown figures.
pub(super) const SLOWDOWN_LABEL: &str = "bounded slowdown (Eq. 15 as printed)";

/// The schedulers, in the paper's order (Figs. 3-6 (a), (b), (c)).
pub(super) const SCHEDULERS: [PolicyName; 3] = [
    PolicyName::Conservative,
    PolicyName::Selective,
    PolicyName::Easy,
];

/// The adaptive policies.
pub(super) const ADAPTIVE: [Brokering; 2] = [Brokering::Ars, Brokering::Ads];

/// A metric of a replication.
pub(super) type Metric = fn(&Metrics) -> Option<f64>;

/// AWRT (Eq. 14), seconds.
pub(super) fn awrt(m: &Metrics) -> Option<f64> {
    m.awrt_s
}

/// Bounded slowdown (Eq. 15 as printed).
pub(super) fn slowdown(m: &Metrics) -> Option<f64> {
    m.slowdown
}

/// EC2 cost per month (Eq. 19), USD.
pub(super) fn cost(m: &Metrics) -> Option<f64> {
    Some(m.cost_per_month_usd)
}

/// `(beta, theta)` of the arrival-rate sweep (Figs. 3, 5): every beta at theta 3.0.
pub(super) fn beta_points() -> Vec<(f64, f64)> {
    super::params::BETAS
        .iter()
        .map(|&b| (b, THETA_MEDIUM))
        .collect()
}

/// `(beta, theta)` of the duration sweep (Figs. 4, 6): every theta at beta 0.25.
pub(super) fn theta_points() -> Vec<(f64, f64)> {
    super::params::THETAS
        .iter()
        .map(|&t| (BETA_MODERATE, t))
        .collect()
}

/// At each point, for each scheduler: NoR, and ARS and ADS under each of `routes`.
pub(super) fn variants_at(points: &[(f64, f64)], routes: &[Route]) -> Vec<Variant> {
    let mut out = Vec::new();
    for &(beta, theta) in points {
        for s in SCHEDULERS {
            out.push(Variant::new(Brokering::Nor, Route::Eq5, s, beta, theta));
            for &r in routes {
                for b in ADAPTIVE {
                    out.push(Variant::new(b, r, s, beta, theta));
                }
            }
        }
    }
    out
}

/// The improvement factor of `v` over NoR in `f` (NoR / `v`, seed 002's "improvement"): the
/// mean over replications of the paired ratio `f(NoR_k) / f(v_k)`, with its 95 % interval.
pub(super) fn factor(runs: &Runs<Metrics>, v: &Variant, f: Metric) -> Option<Estimate> {
    runs.paired(&v.nor(), v, |nor, x| Some(f(nor)? / f(x)?))
}

/// A series of a line figure: its name and its variant at each x.
pub(super) type Series = (String, Box<dyn Fn(f64) -> Variant>);

/// A figure of `f` over the numeric axis `xs`, one line per series.
#[allow(clippy::too_many_arguments)]
pub(super) fn line_figure(
    runs: &Runs<Metrics>,
    id: &'static str,
    title: String,
    x_label: &str,
    y_label: &str,
    xs: &[f64],
    series: &[Series],
    f: impl Fn(&Runs<Metrics>, &Variant) -> Option<Estimate>,
) -> Figure {
    Figure {
        id,
        title,
        x_label: x_label.into(),
        y_label: y_label.into(),
        groups: xs.iter().map(|x| format!("{x}")).collect(),
        x_values: Some(xs.to_vec()),
        series: series.iter().map(|(n, _)| n.clone()).collect(),
        values: series
            .iter()
            .map(|(_, at)| xs.iter().map(|&x| f(runs, &at(x))).collect())
            .collect(),
        paper: None,
        decimals: 1,
    }
}

/// The series of Figs. 3-6 under `scheduler`, over `beta` (at theta 3.0) or `theta` (at beta
/// 0.25): NoR, ARS and ADS calibrated, and ARS and ADS with Eq. 5 (literal).
pub(super) fn policy_series(scheduler: PolicyName, over_beta: bool) -> Vec<Series> {
    let at = move |b: Brokering, r: Route| -> Box<dyn Fn(f64) -> Variant> {
        Box::new(move |x| {
            let (beta, theta) = if over_beta {
                (x, THETA_MEDIUM)
            } else {
                (BETA_MODERATE, x)
            };
            Variant::new(b, r, scheduler, beta, theta)
        })
    };
    vec![
        ("NoR".into(), at(Brokering::Nor, Route::Eq5)),
        ("ARS".into(), at(Brokering::Ars, Route::Table3)),
        ("ADS".into(), at(Brokering::Ads, Route::Table3)),
        ("ARS, Eq. 5".into(), at(Brokering::Ars, Route::Eq5)),
        ("ADS, Eq. 5".into(), at(Brokering::Ads, Route::Eq5)),
    ]
}

/// `claim`, prefixed with its mode: `(literal) ...` or `(calibrated) ...`.
pub(super) fn in_mode(route: Route, claim: &str) -> String {
    format!("({}) {claim}", route.mode().name())
}

/// For every adaptive variant of `routes` at `points`: is `f` below NoR's beyond the paired
/// interval? Returns the places where it is not and one line of evidence per scheduler (the
/// paired differences' range).
pub(super) fn below_nor(
    runs: &Runs<Metrics>,
    points: &[(f64, f64)],
    route: Route,
    f: Metric,
    axis: impl Fn(f64, f64) -> String,
) -> (Vec<String>, String) {
    let (mut bad, mut ev) = (Vec::new(), Vec::new());
    for s in SCHEDULERS {
        let mut diffs = Vec::new();
        for &(beta, theta) in points {
            for b in ADAPTIVE {
                let v = Variant::new(b, route, s, beta, theta);
                let d = Paired::of(runs, &v, &v.nor(), f);
                if !d.below() {
                    bad.push(format!(
                        "{} {} at {}: {}",
                        scheduler_name(s),
                        brokering_name(b),
                        axis(beta, theta),
                        d.show(1)
                    ));
                }
                diffs.push(d.0.map_or(f64::NAN, |e| e.mean));
            }
        }
        let lo = diffs.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = diffs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (lo, hi) = if diffs.iter().any(|d| d.is_nan()) {
            (f64::NAN, f64::NAN)
        } else {
            (lo, hi)
        };
        ev.push(format!(
            "{}: policy - NoR from {} to {}",
            scheduler_name(s),
            V(lo, 1),
            V(hi, 1)
        ));
    }
    (bad, format!("{}.", ev.join("; ")))
}

/// One figure per scheduler (CB, SB, EB: the paper's (a), (b), (c)) of `f` over beta (at theta
/// 3.0) or theta (at beta 0.25), with [`policy_series`]; `title` gets the scheduler's name.
pub(super) fn per_scheduler_figures(
    runs: &Runs<Metrics>,
    ids: [&'static str; 3],
    title: impl Fn(&str) -> String,
    over_beta: bool,
    f: Metric,
    y_label: &str,
) -> Vec<Figure> {
    let (xs, x_label): (&[f64], _) = if over_beta {
        (
            &BETAS,
            "Weibull shape beta of the inter-arrival times (the rate rises with beta)",
        )
    } else {
        (&THETAS, "lognormal theta of the request durations")
    };
    SCHEDULERS
        .iter()
        .zip(ids)
        .map(|(&s, id)| {
            line_figure(
                runs,
                id,
                title(scheduler_name(s)),
                x_label,
                y_label,
                xs,
                &policy_series(s, over_beta),
                |r, v| r.estimate(v, f),
            )
        })
        .collect()
}

/// A literal-mode verdict that does not hold gets N12's reason.
pub(super) fn literal_why(v: Statement, route: Route) -> Statement {
    if route == Route::Eq5 {
        v.because(
            "SPEC-NOTES N12: at the printed parameters Eq. 5 gives P = (1, 0), so ARS and ADS \
             send every request to the local cluster, exactly as NoR (see the routing claim).",
        )
    } else {
        v
    }
}

/// One of the paper's two sweeps (Figs. 3 and 5 over beta, Figs. 4 and 6 over theta).
pub(super) struct Sweep {
    /// Over beta (at theta 3.0), else over theta (at beta 0.25).
    pub(super) over_beta: bool,
    /// The figure numbers of AWRT and of slowdown (`3`, `5`).
    pub(super) figs: [&'static str; 2],
    /// The figure ids, AWRT's (a)-(c) then slowdown's.
    pub(super) ids: [[&'static str; 3]; 2],
}

impl Sweep {
    /// The figures of both metrics under each scheduler, and the verdicts "ARS and ADS below
    /// NoR" in AWRT and slowdown, calibrated and literal.
    pub(super) fn figures_and_verdicts(
        &self,
        runs: &Runs<Metrics>,
    ) -> (Vec<Figure>, Vec<Statement>) {
        let (against, at, every, range) = if self.over_beta {
            (
                "the arrival rate",
                "theta = 3.0",
                "at every arrival rate",
                "at every beta of 0.20-0.30 (theta 3.0)",
            )
        } else {
            (
                "the request duration",
                "beta = 0.25",
                "for every request duration",
                "at every theta of 2.5-3.5 (beta 0.25)",
            )
        };
        let points = if self.over_beta {
            beta_points()
        } else {
            theta_points()
        };
        let (mut figures, mut verdicts) = (Vec::new(), Vec::new());
        let metrics: [(Metric, &str, &str); 2] = [
            (awrt, "AWRT", AWRT_LABEL),
            (slowdown, "slowdown", SLOWDOWN_LABEL),
        ];
        for ((f, what, label), (fig, ids)) in
            metrics.into_iter().zip(self.figs.iter().zip(self.ids))
        {
            figures.extend(per_scheduler_figures(
                runs,
                ids,
                |s| format!("Fig. {fig}: {what} against {against}, {s} ({at})"),
                self.over_beta,
                f,
                label,
            ));
            for route in [Route::Table3, Route::Eq5] {
                let (bad, ev) = below_nor(runs, &points, route, f, |beta, theta| {
                    if self.over_beta {
                        format!("beta {beta}")
                    } else {
                        format!("theta {theta}")
                    }
                });
                let v = crate::report::verdict(
                    &in_mode(
                        route,
                        &format!("ARS and ADS give a lower {what} than NoR {every} (Fig. {fig})."),
                    ),
                    &format!(
                        "{} mode: {range} under CB, SB and EB, the paired 95 % interval of \
                         {what}(ARS or ADS) - {what}(NoR) lies below 0.",
                        route.mode().name()
                    ),
                    &bad,
                    ev,
                );
                verdicts.push(literal_why(v, route));
            }
        }
        (figures, verdicts)
    }
}
