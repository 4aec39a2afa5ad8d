//! What the claims of javadi2012 share: the axes, the variants of each figure, the metrics (each
//! with its reading that counts the unfinished requests at their lower bounds), the effects the
//! claims judge (ratios of means and smooth functions of means, with delta-method intervals over
//! paired replications), the root causes, and the figure helpers.

use super::params::{BETA_MODERATE, BETAS, NODES, THETA_MEDIUM, THETAS};
pub(super) use super::presets::{Route, Variant, brokering_name, scheduler_name};
use crate::experiments::Runs;
pub(super) use crate::models::hybrid::metrics::Metrics;
pub(super) use crate::models::hybrid::scenario::{Brokering, ExpectedReturn, PolicyName};
pub(super) use crate::report::Mode;
pub(super) use crate::report::statement::{
    Builder, Cause, Interval, Margin, Method, Source, Statement, check, claim,
};
use crate::report::stats::Estimate;
pub(super) use crate::report::{Figure, Ticks};

/// How far a measured factor or cost may be from the paper's, as a share of the paper's: the
/// paper prints no interval, and its runs and these draw different workloads and failures.
pub(super) const NEAR: f64 = 0.2;

/// Where a claim's factor or cost is "the paper's": within [`NEAR`] of it, in % of it.
pub(super) fn near_margin(what: &str) -> Margin {
    Margin::within(
        NEAR * 100.0,
        "%",
        Source::Practical(format!(
            "{what} within {:.0} % of the paper's: the paper prints no interval, and its runs \
             draw other workloads and failures",
            NEAR * 100.0
        )),
    )
}

/// "Lower": the policy's metric at most this share of NoR's (ratio of means).
pub(super) const LOWER: f64 = 0.9;

/// A growth (of a gap, of a factor) of at least this share counts as growing.
pub(super) const GROWS: f64 = 0.1;

/// The margin of a growth of at least [`GROWS`], in %.
pub(super) fn grows_margin(what: &str) -> Margin {
    Margin::at_least(
        GROWS * 100.0,
        "%",
        Source::Practical(format!(
            "{what}: a growth under {:.0} % would not show on the paper's figures",
            GROWS * 100.0
        )),
    )
}

/// The cause of every literal statement that fails (errata E15, E16).
pub(super) const EQ5_NO_CLOUD: Cause = Cause {
    id: "eq5-no-cloud",
    text: "At the printed parameters Eq. 5 gives P_c <= 0 (the cluster's Eq. 12 service rate is \
           about 29 times the arrival rate, and the cloud costs 5 times more), so the cloud drops \
           out (docs/errata.md E15): ARS and ADS send every request to the local cluster and are \
           NoR, run by run (docs/errata.md E16).",
};

/// The cause of the calibrated factors far below the paper's (errata E16, E20).
pub(super) const LIGHT_LOAD: Cause = Cause {
    id: "light-load",
    text: "At Table I's workload the cluster is 1-9 % loaded: AWRT is made by the few wide \
           requests that wait for every failure group to be up (docs/errata.md E17), whatever \
           the scheduler, so sending a random share P_c of the requests to the cloud cuts AWRT and \
           slowdown by about 1 / (1 - P_c) (1.2-1.6 at Table III's shares), not the paper's 2-17.",
};

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

/// A response-time metric in its two readings: over the completed requests, and over every
/// measured request with the unfinished ones at their lower bounds.
#[derive(Clone, Copy)]
pub(super) struct Measure {
    /// `AWRT`, `slowdown`.
    pub(super) name: &'static str,
    /// Over the completed requests.
    pub(super) plain: Metric,
    /// The unfinished requests at their lower bounds.
    pub(super) with_unfinished: Metric,
}

/// AWRT (Eq. 14), seconds.
pub(super) const AWRT: Measure = Measure {
    name: "AWRT",
    plain: |m| m.awrt_s,
    with_unfinished: |m| m.awrt_with_unfinished_s,
};

/// Bounded slowdown (Eq. 15 as printed).
pub(super) const SLOWDOWN: Measure = Measure {
    name: "slowdown",
    plain: |m| m.slowdown,
    with_unfinished: |m| m.slowdown_with_unfinished,
};

/// EC2 cost per month (Eq. 19), USD.
pub(super) fn cost(m: &Metrics) -> Option<f64> {
    Some(m.cost_per_month_usd)
}

/// Requests unfinished at the end of the run.
pub(super) fn unfinished(m: &Metrics) -> Option<f64> {
    Some(m.unfinished as f64)
}

/// `(beta, theta)` of the arrival-rate sweep (Figs. 3, 5): every beta at theta 3.0.
pub(super) fn beta_points() -> Vec<(f64, f64)> {
    BETAS.iter().map(|&b| (b, THETA_MEDIUM)).collect()
}

/// `(beta, theta)` of the duration sweep (Figs. 4, 6): every theta at beta 0.25.
pub(super) fn theta_points() -> Vec<(f64, f64)> {
    THETAS.iter().map(|&t| (BETA_MODERATE, t)).collect()
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

/// `x` with `decimals` decimals, `n/a` when undefined.
pub(super) fn num(x: Option<f64>, decimals: usize) -> String {
    match x {
        Some(x) if x.is_finite() => format!("{x:.decimals$}"),
        _ => "n/a".to_owned(),
    }
}

/// The improvement factor of `v` over NoR in `f` (NoR / `v`, javadi2012's "improvement"): the
/// ratio of the means over paired replications, delta-method interval
/// ([`Runs::ratio_of_means`]).
pub(super) fn factor(runs: &Runs<Metrics>, v: &Variant, f: Metric) -> Option<Interval> {
    runs.ratio_of_means(&v.nor(), v, f)
}

/// `g` of the means of `f` at `vs`, with its 95 % interval by the delta method: the Student t
/// interval of the mean over paired replications (those where `f` is defined at every variant)
/// of `g`'s linearisation at the means, `g(m) + grad g(m) . (x_k - m)` (the gradient by central
/// differences). For a difference of two improvement factors, a growth of a gap, an average of
/// relative gains. `None` without paired data or where `g` is undefined at the means.
pub(super) fn of_means(
    runs: &Runs<Metrics>,
    vs: &[Variant],
    f: Metric,
    g: impl Fn(&[f64]) -> f64,
) -> Option<Interval> {
    let all = |ms: &[&Metrics]| ms.iter().map(|m| f(m)).collect::<Option<Vec<f64>>>();
    let means: Vec<f64> = (0..vs.len())
        .map(|i| {
            runs.combined(vs, |ms| all(ms).map(|x| x[i]))
                .map(|e| e.estimate)
        })
        .collect::<Option<_>>()?;
    let (at, grad) = linearise(&means, &g)?;
    let i = runs.combined(vs, |ms| {
        let x = all(ms)?;
        Some(
            at + (0..x.len())
                .map(|i| grad[i] * (x[i] - means[i]))
                .sum::<f64>(),
        )
    })?;
    // The linearisation's mean is g(m) up to rounding: centre the interval there.
    let shift = at - i.estimate;
    Some(Interval {
        estimate: at,
        low: i.low + shift,
        high: i.high + shift,
        method: Method::RatioOfMeans,
        ..i
    })
}

/// `g` at `means` and its gradient there (central differences, a step of a millionth of each
/// mean): the linearisation [`of_means`] averages. `None` where `g` is not finite at `means`.
fn linearise(means: &[f64], g: &impl Fn(&[f64]) -> f64) -> Option<(f64, Vec<f64>)> {
    let at = g(means);
    if !at.is_finite() {
        return None;
    }
    let grad = (0..means.len())
        .map(|i| {
            let h = 1e-6 * means[i].abs().max(1e-9);
            let mut up = means.to_vec();
            let mut down = means.to_vec();
            up[i] += h;
            down[i] -= h;
            (g(&up) - g(&down)) / (2.0 * h)
        })
        .collect();
    Some((at, grad))
}

/// `i` through the increasing map `t` (a ratio as a percentage, ...).
pub(super) fn map(i: Option<Interval>, t: impl Fn(f64) -> f64) -> Option<Interval> {
    i.map(|i| Interval {
        estimate: t(i.estimate),
        low: t(i.low),
        high: t(i.high),
        ..i
    })
}

/// A ratio as the % it lies above 1 (`1.25` -> `25`).
pub(super) fn pct_above_one(i: Option<Interval>) -> Option<Interval> {
    map(i, |r| (r - 1.0) * 100.0)
}

/// Whether some run of `vs` left a request unfinished.
pub(super) fn unfinished_in(runs: &Runs<Metrics>, vs: &[Variant]) -> bool {
    vs.iter()
        .any(|v| runs.level(v, unfinished).is_some_and(|i| i.estimate > 0.0))
}

/// A point of `m` at the variants `vs`: `effect(f)` with `m`'s plain metric, and, where some
/// run of `vs` left a request unfinished (and that changes the effect), with those requests at
/// their lower bounds.
pub(super) fn censored(
    runs: &Runs<Metrics>,
    vs: &[Variant],
    m: &Measure,
    effect: impl Fn(Metric) -> Option<Interval>,
) -> (Option<Interval>, Option<Interval>) {
    let plain = effect(m.plain);
    let lower = unfinished_in(runs, vs)
        .then(|| effect(m.with_unfinished))
        .flatten()
        .filter(|l| Some(*l) != plain);
    (plain, lower)
}

/// A labelled point with its reading at the unfinished requests' lower bounds.
pub(super) type CPoint = (String, Option<Interval>, Option<Interval>);

/// `b` with the points `pts`.
pub(super) fn with_points(b: Builder, pts: Vec<CPoint>) -> Builder {
    pts.into_iter().fold(b, |b, (label, plain, lower)| {
        b.point_censored(label, plain, lower)
    })
}

/// An interval as a figure's estimate (its half-width; none for one replication).
pub(super) fn estimate(i: Option<Interval>) -> Option<Estimate> {
    i.map(|i| Estimate {
        mean: i.estimate,
        half_width: (i.high.is_finite() && i.low.is_finite()).then(|| (i.high - i.low) / 2.0),
        n: i.n,
    })
}

/// A series of a line figure: its name and its variant at each x.
pub(super) type Series = (String, Box<dyn Fn(f64) -> Variant>);

/// The lines of a figure over the numeric axis `xs`: each series' name and `f` at its variant
/// at each x (for [`Figure::all_series`]).
pub(super) fn series_over(
    runs: &Runs<Metrics>,
    xs: &[f64],
    series: &[Series],
    f: impl Fn(&Runs<Metrics>, &Variant) -> Option<Estimate>,
) -> Vec<(String, Vec<Option<Estimate>>)> {
    series
        .iter()
        .map(|(name, at)| (name.clone(), xs.iter().map(|&x| f(runs, &at(x))).collect()))
        .collect()
}

/// The variant at `x` of a sweep over beta (at theta 3.0) or theta (at beta 0.25).
pub(super) fn swept(b: Brokering, r: Route, s: PolicyName, over_beta: bool, x: f64) -> Variant {
    let (beta, theta) = if over_beta {
        (x, THETA_MEDIUM)
    } else {
        (BETA_MODERATE, x)
    };
    Variant::new(b, r, s, beta, theta)
}

/// The series of Figs. 3-6 under `scheduler`, over `beta` (at theta 3.0) or `theta` (at beta
/// 0.25): NoR, ARS and ADS calibrated, and ARS and ADS with Eq. 5 (literal).
pub(super) fn policy_series(scheduler: PolicyName, over_beta: bool) -> Vec<Series> {
    let at = move |b: Brokering, r: Route| -> Box<dyn Fn(f64) -> Variant> {
        Box::new(move |x| swept(b, r, scheduler, over_beta, x))
    };
    vec![
        ("NoR".into(), at(Brokering::Nor, Route::Eq5)),
        ("ARS".into(), at(Brokering::Ars, Route::Table3)),
        ("ADS".into(), at(Brokering::Ads, Route::Table3)),
        ("ARS, Eq. 5".into(), at(Brokering::Ars, Route::Eq5)),
        ("ADS, Eq. 5".into(), at(Brokering::Ads, Route::Eq5)),
    ]
}

/// The x axis of a sweep: its values and label.
fn axis(over_beta: bool) -> (&'static [f64], &'static str) {
    if over_beta {
        (
            &BETAS,
            "Weibull shape beta of the inter-arrival times (the rate rises with beta)",
        )
    } else {
        (&THETAS, "lognormal theta of the request durations")
    }
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
    let (xs, x_label) = axis(over_beta);
    SCHEDULERS
        .iter()
        .zip(ids)
        .map(|(&s, id)| {
            Figure::lines(id, title(scheduler_name(s)))
                .x(x_label, xs.iter().copied(), Ticks::Plain)
                .y(y_label)
                .all_series(series_over(
                    runs,
                    xs,
                    &policy_series(s, over_beta),
                    |r, v| r.estimate(v, f),
                ))
        })
        .collect()
}

/// The requests left unfinished per run over a sweep: NoR, ARS and ADS (calibrated) under each
/// scheduler (the literal ARS and ADS are NoR, run by run).
pub(super) fn unfinished_figure(runs: &Runs<Metrics>, id: &'static str, over_beta: bool) -> Figure {
    let (xs, x_label) = axis(over_beta);
    let mut series: Vec<Series> = Vec::new();
    for s in SCHEDULERS {
        for (b, r) in [
            (Brokering::Nor, Route::Eq5),
            (Brokering::Ars, Route::Table3),
            (Brokering::Ads, Route::Table3),
        ] {
            series.push((
                format!("{} {}", brokering_name(b), scheduler_name(s)),
                Box::new(move |x| swept(b, r, s, over_beta, x)),
            ));
        }
    }
    let at = if over_beta {
        "theta = 3.0"
    } else {
        "beta = 0.25"
    };
    let title = format!(
        "Requests unfinished at the end of the run ({at}): left out of AWRT and slowdown, and \
         counted at their lower bounds in the claims' second reading"
    );
    Figure::lines(id, title)
        .x(x_label, xs.iter().copied(), Ticks::Plain)
        .y("unfinished requests per run")
        .all_series(series_over(runs, xs, &series, |r, v| {
            r.estimate(v, unfinished)
        }))
}

/// AWRT by request width over a sweep under EASY backfilling: NoR, ARS and ADS (calibrated),
/// each for the narrow requests (at most half the local cluster) and the wide ones. Shows how
/// far the wide requests, a few per cent of them, carry the AWRT every claim reads.
pub(super) fn width_figure(runs: &Runs<Metrics>, id: &'static str, over_beta: bool) -> Figure {
    let (xs, x_label) = axis(over_beta);
    let half = NODES / 2;
    let widths: [(String, Metric); 2] = [
        (format!("up to {half} VMs"), |m| m.awrt_narrow_s),
        (format!("over {half} VMs"), |m| m.awrt_wide_s),
    ];
    let mut series = Vec::new();
    for (width, f) in &widths {
        for (b, r) in [
            (Brokering::Nor, Route::Eq5),
            (Brokering::Ars, Route::Table3),
            (Brokering::Ads, Route::Table3),
        ] {
            let at = |x| swept(b, r, PolicyName::Easy, over_beta, x);
            let values: Vec<_> = xs.iter().map(|&x| runs.estimate(&at(x), *f)).collect();
            series.push((format!("{} {width}", brokering_name(b)), values));
        }
    }
    let at = if over_beta {
        "theta = 3.0"
    } else {
        "beta = 0.25"
    };
    let title = format!(
        "AWRT by request width under EASY backfilling ({at}): the requests of over half the \
         local cluster ({NODES} nodes) wait for most of it to be up at once"
    );
    Figure::lines(id, title)
        .x(x_label, xs.iter().copied(), Ticks::Plain)
        .y("AWRT of the completed requests (s)")
        .all_series(series)
}

/// A literal-mode statement's reason (its cause says the rest).
pub(super) const LITERAL_WHY: &str = "Erratum E16: at the printed parameters Eq. 5 gives P = \
                                      (1, 0), so ARS and ADS send every request to the local \
                                      cluster, exactly as NoR (see the routing statement).";

/// The id of a statement of `mode`: `javadi2012.<mode>.<rest>`.
pub(super) fn id(mode: Mode, rest: &str) -> String {
    format!("javadi2012.{}.{rest}", mode.name())
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
    /// The figures of both metrics under each scheduler, and the claims "ARS and ADS below
    /// NoR" in AWRT and slowdown, calibrated and literal.
    pub(super) fn figures_and_claims(&self, runs: &Runs<Metrics>) -> (Vec<Figure>, Vec<Statement>) {
        let (against, at, every) = if self.over_beta {
            ("the arrival rate", "theta = 3.0", "at every arrival rate")
        } else {
            (
                "the request duration",
                "beta = 0.25",
                "for every request duration",
            )
        };
        let points = if self.over_beta {
            beta_points()
        } else {
            theta_points()
        };
        let (mut figures, mut claims) = (Vec::new(), Vec::new());
        for ((m, label), (fig, ids)) in [(AWRT, AWRT_LABEL), (SLOWDOWN, SLOWDOWN_LABEL)]
            .into_iter()
            .zip(self.figs.iter().zip(self.ids))
        {
            figures.extend(per_scheduler_figures(
                runs,
                ids,
                |s| format!("Fig. {fig}: {} against {against}, {s} ({at})", m.name),
                self.over_beta,
                m.plain,
                label,
            ));
            for route in [Route::Table3, Route::Eq5] {
                let mut pts: Vec<CPoint> = Vec::new();
                for s in SCHEDULERS {
                    for &(beta, theta) in &points {
                        for b in ADAPTIVE {
                            let v = Variant::new(b, route, s, beta, theta);
                            let (plain, lower) = censored(runs, &[v, v.nor()], &m, |f| {
                                runs.ratio_of_means(&v, &v.nor(), f)
                            });
                            let x = if self.over_beta {
                                format!("beta {beta}")
                            } else {
                                format!("theta {theta}")
                            };
                            pts.push((
                                format!("{} {} at {x}", scheduler_name(s), brokering_name(b)),
                                plain,
                                lower,
                            ));
                        }
                    }
                }
                let what = m.name;
                let slug = if what == "AWRT" {
                    "adaptive-lower-awrt"
                } else {
                    "adaptive-lower-slowdown"
                };
                let b = claim(
                    id(route.mode(), &format!("fig{fig}.{slug}")),
                    &format!(
                        "ARS and ADS give a lower {what} than NoR {every}, under CB, SB and EB \
                         (Fig. {fig})."
                    ),
                    &format!(
                        "{what}(ARS or ADS) / {what}(NoR), the ratio of the means over paired \
                         replications, at every point of Fig. {fig} under every scheduler"
                    ),
                    Margin::at_most(
                        LOWER,
                        "x",
                        Source::Practical(format!(
                            "\"lower\": at least {:.0} % below NoR's (the paper's factors are 2 \
                             and more)",
                            (1.0 - LOWER) * 100.0
                        )),
                    ),
                )
                .mode(route.mode());
                let b = with_points(b, pts);
                let b = if route == Route::Eq5 {
                    b.cause(EQ5_NO_CLOUD).why(LITERAL_WHY)
                } else {
                    b
                };
                claims.push(b.done());
            }
        }
        (figures, claims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For a ratio of two means the linearisation's variance is the delta method's of
    /// [`Runs::ratio_of_means`]: `(s_xx - 2 R s_xy + R^2 s_yy) / mean(y)^2`.
    #[test]
    fn the_linearisation_of_a_ratio_is_the_delta_method() {
        let (x, y) = ([3.0, 5.0, 4.0, 9.0], [2.0, 2.5, 1.5, 4.0]);
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let (mx, my) = (mean(&x), mean(&y));
        let (r, grad) = linearise(&[mx, my], &|m: &[f64]| m[0] / m[1]).unwrap();
        assert!((r - mx / my).abs() < 1e-12);
        assert!((grad[0] - 1.0 / my).abs() < 1e-6 && (grad[1] + mx / (my * my)).abs() < 1e-6);
        let z: Vec<f64> = (0..4)
            .map(|k| r + grad[0] * (x[k] - mx) + grad[1] * (y[k] - my))
            .collect();
        let cov = |a: &[f64], b: &[f64]| {
            (0..4)
                .map(|k| (a[k] - mean(a)) * (b[k] - mean(b)))
                .sum::<f64>()
                / 3.0
        };
        let delta = (cov(&x, &x) - 2.0 * r * cov(&x, &y) + r * r * cov(&y, &y)) / (my * my);
        assert!(
            (cov(&z, &z) - delta).abs() < 1e-6 * delta,
            "{} {delta}",
            cov(&z, &z)
        );
        assert!((mean(&z) - r).abs() < 1e-12);
        assert!(linearise(&[1.0, 0.0], &|m: &[f64]| m[0] / m[1]).is_none());
    }
}
