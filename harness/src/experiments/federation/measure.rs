//! What salehi2012's claims share (and salehi2011's, which reuse them): the four axes of Figs. 5-8,
//! their variants, one figure per (metric, axis, mode), the effects the claims are judged on
//! (paired differences, ratios of totals, correlations of means, each with its 95 % interval),
//! their margins and the causes they fail for.

use std::cell::RefCell;

use super::params;
use super::presets::{Arrivals, Variant};
use crate::experiments::Runs;
use crate::experiments::Simulation;
use crate::models::federation::gateway;
use crate::models::federation::metrics::Metrics;
use crate::models::federation::scenario::GatewayPolicy;
pub use crate::report::statement::{
    Builder, Cause, Interval, Margin, Method, Outcome, Source, Statement, claim,
};
use crate::report::stats::{Estimate, half_width};
use crate::report::{Figure, Mode, Ticks};
use crate::workload::dist::Distribution;

/// A metric of one run.
pub type Metric = fn(&Metrics) -> Option<f64>;

/// The policies, in the paper's order.
pub const POLICIES: [GatewayPolicy; 5] = GatewayPolicy::ALL;

/// "Fewer", "lower" where the paper gives no size: at least this % below the rival's mean
/// (practical; see [`fewer`]).
pub const FEWER_PCT: f64 = 5.0;

/// "Higher", "more" of a percentage (utilization, % migrated, % rejected) where the paper gives
/// no size: at least this many percentage points (practical; see [`points_more`]).
pub const POINTS: f64 = 1.0;

/// The margin of a claim that one policy's count or time is below another's: at least
/// [`FEWER_PCT`] % below.
pub fn fewer() -> Margin {
    Margin::at_least(
        FEWER_PCT,
        "% below",
        Source::Practical(format!(
            "the paper gives no size for this gap (it calls each of its significant differences \
             practical); a reduction under {FEWER_PCT} % of the rival's mean is not counted as \
             one"
        )),
    )
}

/// The margin of a claim that a percentage is above another's: at least [`POINTS`] point.
pub fn points_more() -> Margin {
    Margin::at_least(
        POINTS,
        "points",
        Source::Practical(format!(
            "the paper gives no size for this gap; less than {POINTS} percentage point is no \
             practical difference in a % of requests or of computation time"
        )),
    )
}

/// Why literal-mode comparisons of PAP-RTDP with PAP-RND fail.
pub const LITERAL_PAP_ONE_CLUSTER: Cause = Cause {
    id: "salehi-literal-pap-one-cluster",
    text: "as printed (Eq. 16-17 in VM-seconds per MIPS) PAP sees rho_j of 0.0015-0.0034 and \
           sends every external request to C256, so PAP-RND and PAP-RTDP are one policy, run by \
           run (docs/errata.md E9)",
};

/// Why the calibrated mode's utilization claim fails: Eq. 21's overheads are too small to
/// differ.
pub const CALIBRATED_SMALL_OVERHEADS: Cause = Cause {
    id: "salehi-calibrated-small-overheads",
    text: "Eq. 21 subtracts the VM overheads of preemption (at most 372.5 s a VM) from the \
           computation time; at 0.88 offered load a run preempts hundreds to a few thousand \
           VMs against tens of millions of VM-seconds of computation, so utilization is above \
           99 % under every policy and a gap of a percentage point would need about a hundred \
           times more preemption",
};

/// `b` with the cause of its mode: `literal` in the literal mode, `calibrated` in the other.
pub fn caused(
    b: Builder,
    mode: Mode,
    literal: Option<Cause>,
    calibrated: Option<Cause>,
) -> Builder {
    match (mode, literal, calibrated) {
        (Mode::Literal, Some(c), _) | (Mode::Calibrated, _, Some(c)) => b.cause(c),
        _ => b,
    }
}

/// What a figure varies (salehi2012 Figs. 5-8, sub-figures (a)-(d)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// (a): the mean VMs of external requests.
    Vms,
    /// (b): their mean duration.
    Duration,
    /// (c): their arrival rate.
    External,
    /// (d): the local arrival rate.
    Local,
}

impl Axis {
    /// Every axis, in the figures' order.
    pub const ALL: [Axis; 4] = [Axis::Vms, Axis::Duration, Axis::External, Axis::Local];

    /// What the x axis shows, with its unit.
    pub fn label(self) -> &'static str {
        match self {
            Axis::Vms => "mean VMs per external request",
            Axis::Duration => "mean duration of external requests, s",
            Axis::External => "external arrival rate, requests/s",
            Axis::Local => "local arrival rate (mean over clusters), requests/s",
        }
    }

    /// Its letter in Figs. 5-7: `a` to `d`.
    pub fn letter(self) -> char {
        match self {
            Axis::Vms => 'a',
            Axis::Duration => 'b',
            Axis::External => 'c',
            Axis::Local => 'd',
        }
    }

    /// Its points in `mode` under `policy`.
    pub fn points(self, mode: Mode, policy: GatewayPolicy) -> Vec<Variant> {
        let fixed = Variant::fixed(mode, policy);
        match self {
            Axis::Vms => {
                let mut mids = params::SIZE_MIDS.to_vec();
                if !mids.contains(&fixed.size_mid) {
                    mids.insert(0, fixed.size_mid);
                }
                mids.into_iter()
                    .map(|size_mid| Variant { size_mid, ..fixed })
                    .collect()
            }
            Axis::Duration => params::duration_log_means()
                .into_iter()
                .map(|duration_log_mean| Variant {
                    duration_log_mean,
                    ..fixed
                })
                .collect(),
            Axis::External => params::EXTERNAL_AXIS_SCALES
                .iter()
                .rev()
                .map(|&a| Variant {
                    external: Arrivals::Varied(a),
                    ..fixed
                })
                .collect(),
            Axis::Local => params::LOCAL_AXIS_FRACTIONS
                .iter()
                .map(|&f| Variant {
                    local: Arrivals::Varied(f),
                    ..fixed
                })
                .collect(),
        }
    }

    /// A point's value on the axis (exact means).
    pub fn x(self, v: &Variant) -> f64 {
        let scenario = v.scenario().ok();
        match self {
            Axis::Vms => params::external_size(v.size_mid)
                .model(params::CLUSTERS[0].1)
                .map_or(f64::NAN, |m| m.mean()),
            Axis::Duration => params::lognormal_mean(v.duration_log_mean),
            Axis::External => scenario.map_or(f64::NAN, |s| {
                s.external
                    .interarrival_s
                    .iter()
                    .map(|d| 1.0 / d.mean())
                    .sum()
            }),
            Axis::Local => scenario.map_or(f64::NAN, |s| {
                let rates: Vec<f64> = s
                    .clusters
                    .iter()
                    .filter_map(|c| c.local.as_ref())
                    .map(|l| 1.0 / l.interarrival_s.mean())
                    .collect();
                rates.iter().sum::<f64>() / rates.len().max(1) as f64
            }),
        }
    }
}

/// Every variant of `axes` in `mode`, under every policy.
pub fn variants_of(mode: Mode, axes: &[Axis]) -> Vec<Variant> {
    let mut out: Vec<Variant> = Vec::new();
    for &axis in axes {
        for policy in POLICIES {
            for v in axis.points(mode, policy) {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

/// Every variant of `axes` in every mode, under every policy.
pub fn variants(axes: &[Axis]) -> Vec<Variant> {
    Mode::BOTH
        .iter()
        .flat_map(|&mode| variants_of(mode, axes))
        .collect()
}

/// The figure of `metric` over `axis` in `mode`: one line per policy with its 95 % band.
#[allow(clippy::too_many_arguments)]
pub fn figure(
    runs: &Runs<Metrics>,
    id: &'static str,
    title: &str,
    y_label: &str,
    mode: Mode,
    axis: Axis,
    metric: Metric,
    decimals: usize,
) -> Figure {
    figure_of(
        runs,
        id,
        title,
        y_label,
        (mode, axis),
        metric,
        decimals,
        |v| v,
    )
}

/// [`figure`], the runs keyed by `key(variant)` (salehi2011 wraps salehi2012's variants).
#[allow(clippy::too_many_arguments)]
pub fn figure_of<V: serde::Serialize>(
    runs: &Runs<Metrics>,
    id: &'static str,
    title: &str,
    y_label: &str,
    (mode, axis): (Mode, Axis),
    metric: Metric,
    decimals: usize,
    key: impl Fn(Variant) -> V,
) -> Figure {
    let xs = axis
        .points(mode, POLICIES[0])
        .into_iter()
        .map(|v| axis.x(&v));
    Figure::lines(id, title)
        .mode(mode)
        .x(axis.label(), xs, Ticks::Decimals(3))
        .y(y_label)
        .all_series(POLICIES.iter().map(|&policy| {
            let values = axis.points(mode, policy).into_iter();
            (
                policy.label(),
                values.map(|v| runs.estimate(&key(v), metric)),
            )
        }))
        .decimals(decimals)
        .mark(marks(runs, (mode, axis), &key))
}

/// Requests refused a lease for space, as % of the requests, above which a point is marked.
pub const REFUSED_MARK_PCT: f64 = 1.0;

/// The sentence that marks the points of `axis` in `mode` a reader must not take at face
/// value, if any: where PAP refuses its input and the gateway falls back, and where more than
/// [`REFUSED_MARK_PCT`] % of the requests were refused a lease for space (on average over the
/// replications), with the policies at each.
fn marks<V: serde::Serialize>(
    runs: &Runs<Metrics>,
    (mode, axis): (Mode, Axis),
    key: impl Fn(Variant) -> V,
) -> Option<String> {
    let at = |flagged: &dyn Fn(&Variant) -> bool| -> Vec<String> {
        let by_point = POLICIES
            .iter()
            .map(|&p| axis.points(mode, p))
            .collect::<Vec<_>>();
        (0..by_point[0].len())
            .filter_map(|i| {
                let who: Vec<&str> = by_point
                    .iter()
                    .zip(POLICIES)
                    .filter(|(vs, _)| flagged(&vs[i]))
                    .map(|(_, p)| p.label())
                    .collect();
                (!who.is_empty()).then(|| {
                    format!(
                        "{} ({})",
                        point(axis, axis.x(&by_point[0][i])),
                        who.join(", ")
                    )
                })
            })
            .collect()
    };
    let fell = at(&falls_back);
    let refused = at(&|v: &Variant| {
        runs.estimate(&key(*v), |m| m.refused_pct)
            .is_some_and(|e| e.mean > REFUSED_MARK_PCT)
    });
    let mut words = Vec::new();
    if !fell.is_empty() {
        words.push(format!("PAP falls back at {}", fell.join(", ")));
    }
    if !refused.is_empty() {
        words.push(format!(
            "more than {REFUSED_MARK_PCT} % of requests refused a lease for space at {}",
            refused.join(", ")
        ));
    }
    (!words.is_empty()).then(|| format!("Marked: {}", words.join("; ")))
}

/// The mean of `metric` at every point of `axes` in `mode`, per policy, for evidence:
/// `(axis, x, means in POLICIES order)`.
pub fn means(
    runs: &Runs<Metrics>,
    mode: Mode,
    axes: &[Axis],
    metric: Metric,
) -> Vec<(Axis, f64, [f64; 5])> {
    means_of(runs, mode, axes, metric, |v| v)
}

/// [`means`], the runs keyed by `key(variant)`.
pub fn means_of<V: serde::Serialize>(
    runs: &Runs<Metrics>,
    mode: Mode,
    axes: &[Axis],
    metric: Metric,
    key: impl Fn(Variant) -> V,
) -> Vec<(Axis, f64, [f64; 5])> {
    let mut out = Vec::new();
    for &axis in axes {
        let columns: Vec<Vec<Variant>> = POLICIES.iter().map(|&p| axis.points(mode, p)).collect();
        for (i, v) in columns[0].iter().enumerate() {
            let mut row = [f64::NAN; 5];
            for (k, c) in columns.iter().enumerate() {
                row[k] = runs.mean(&key(c[i]), metric);
            }
            out.push((axis, axis.x(v), row));
        }
    }
    out
}

/// A point, for labels: `(c) 0.093`.
pub fn point(axis: Axis, x: f64) -> String {
    format!("({}) {x:.3}", axis.letter())
}

/// Whether PAP refuses its input at `v` and the gateway falls back (PAP policies only).
pub fn falls_back(v: &Variant) -> bool {
    matches!(v.policy, GatewayPolicy::PapRnd | GatewayPolicy::PapRtdp)
        && v.scenario()
            .and_then(|s| gateway::split(&s))
            .is_ok_and(|g| g.fallback.is_some())
}

/// The mean over the points of each policy's metric, for evidence: `RR 1234.5, ...`.
pub fn averages(table: &[(Axis, f64, [f64; 5])], decimals: usize) -> String {
    POLICIES
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let xs: Vec<f64> = table.iter().map(|r| r.2[k]).collect();
            let mean = xs.iter().sum::<f64>() / xs.len().max(1) as f64;
            format!("{} {mean:.decimals$}", p.label())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The 95 % interval of the means of `metric(a) - metric(b)` across the points of `axis` in
/// `mode`, as the paper's intervals are made (across a figure's points: erratum E10), for
/// evidence beside them (never to judge).
pub fn across_points(
    runs: &Runs<Metrics>,
    mode: Mode,
    axis: Axis,
    a: GatewayPolicy,
    b: GatewayPolicy,
    metric: Metric,
) -> Option<Estimate> {
    let pa = axis.points(mode, a);
    let pb = axis.points(mode, b);
    let diffs: Vec<f64> = pa
        .iter()
        .zip(&pb)
        .map(|(x, y)| runs.mean(x, metric) - runs.mean(y, metric))
        .filter(|d| d.is_finite())
        .collect();
    Estimate::of(&diffs)
}

/// An interval for evidence: `(lo, hi)`, or `-`.
pub fn interval(e: Option<Estimate>) -> String {
    match e {
        Some(e) => format!("({:.1}, {:.1})", e.low(), e.high()),
        None => "-".into(),
    }
}

/// The figure ids of one metric: `(calibrated, literal)` per axis.
pub type Ids = [(&'static str, &'static str); 4];

/// The four figures of a metric in `mode`.
#[allow(clippy::too_many_arguments)]
pub fn figures(
    runs: &Runs<Metrics>,
    mode: Mode,
    ids: &Ids,
    number: &str,
    what: &str,
    y_label: &str,
    metric: Metric,
    decimals: usize,
) -> Vec<Figure> {
    Axis::ALL
        .iter()
        .zip(ids)
        .map(|(axis, pair)| {
            let id = mode.pick(pair.0, pair.1);
            let letter = &id[number.len() + 3..number.len() + 4];
            let title = format!("Fig. {number}({letter}): {what}");
            figure(runs, id, &title, y_label, mode, *axis, metric, decimals)
        })
        .collect()
}

/// The ids of `mode` in [`figures`]' order.
pub fn ids(mode: Mode, ids: &Ids) -> Vec<&'static str> {
    ids.iter().map(|&(c, l)| mode.pick(c, l)).collect()
}

/// `effect(best's variant, rival's variant)` at every point of `axes` in `mode`, for every rival:
/// labelled `(b) 420.000, PAP-RTDP vs RR`, with a mark where PAP falls back.
pub fn versus(
    mode: Mode,
    axes: &[Axis],
    best: GatewayPolicy,
    rivals: &[GatewayPolicy],
    effect: impl Fn(&Variant, &Variant) -> Option<Interval>,
) -> Vec<(String, Option<Interval>)> {
    let mut out = Vec::new();
    for &axis in axes {
        let ours = axis.points(mode, best);
        for &rival in rivals {
            for (b, o) in ours.iter().zip(axis.points(mode, rival)) {
                let mark = if falls_back(b) || falls_back(&o) {
                    " (PAP falls back)"
                } else {
                    ""
                };
                out.push((
                    format!(
                        "{}{mark}, {} vs {}",
                        point(axis, axis.x(b)),
                        best.label(),
                        rival.label()
                    ),
                    effect(b, &o),
                ));
            }
        }
    }
    out
}

/// The mean over paired points of `f` at `a[i]` minus at `b[i]`, paired by replication (a
/// sub-figure's "average difference", as Table 3's), with its 95 % interval.
pub fn average_gap<V: serde::Serialize + Clone>(
    runs: &Runs<Metrics>,
    a: &[V],
    b: &[V],
    f: Metric,
) -> Option<Interval> {
    let n = a.len().min(b.len());
    if n == 0 {
        return None;
    }
    let vs: Vec<V> = a[..n].iter().chain(&b[..n]).cloned().collect();
    runs.combined(&vs, |ms| {
        let mut sum = 0.0;
        for i in 0..n {
            sum += f(ms[i])? - f(ms[n + i])?;
        }
        Some(sum / n as f64)
    })
}

/// `effect(best's points, rival's points)` over each axis of `axes` in `mode` (a
/// sub-figure, named by `name`), for every rival: labelled `Fig. 5(b), PAP-RTDP vs RR`, with
/// the count of points where PAP falls back.
pub fn by_figure(
    mode: Mode,
    axes: &[Axis],
    name: impl Fn(Axis) -> String,
    best: GatewayPolicy,
    rivals: &[GatewayPolicy],
    effect: impl Fn(&[Variant], &[Variant]) -> Option<Interval>,
) -> Vec<(String, Option<Interval>)> {
    let mut out = Vec::new();
    for &axis in axes {
        let ours = axis.points(mode, best);
        for &rival in rivals {
            let theirs = axis.points(mode, rival);
            let fell = ours
                .iter()
                .zip(&theirs)
                .filter(|(b, o)| falls_back(b) || falls_back(o))
                .count();
            let mark = if fell > 0 {
                format!(" (PAP falls back at {fell} of {} points)", ours.len())
            } else {
                String::new()
            };
            out.push((
                format!(
                    "{}, {} vs {}{mark}",
                    name(axis),
                    best.label(),
                    rival.label()
                ),
                effect(&ours, &theirs),
            ));
        }
    }
    out
}

/// `Fig. <number>(<axis letter>)`.
pub fn sub_figure(number: &'static str) -> impl Fn(Axis) -> String {
    move |axis| format!("Fig. {number}({})", axis.letter())
}

/// The claim `(id, text)` that PAP-RTDP preempts fewer VMs than every other policy in each
/// sub-figure of `axes` (salehi2012 Fig. 5, salehi2011 Fig. 4): per sub-figure, how far its
/// total over the points lies `below` each rival's ([`pct_below`] of the variants' VMs
/// preempted), and the same at every point as the other reading. `figures` names the
/// sub-figures in the effect (`Figs. 5(a)-(d)`), `name` each one in its point.
pub fn pap_rtdp_fewest_preemptions(
    (id, text): (String, &str),
    mode: Mode,
    axes: &[Axis],
    (figures, name): (&str, impl Fn(Axis) -> String),
    below: impl Fn(&[Variant], &[Variant]) -> Option<Interval>,
) -> Builder {
    use GatewayPolicy::{BcfRnd, LrfRnd, PapRnd, PapRtdp, Rr};
    let rivals = [Rr, LrfRnd, BcfRnd, PapRnd];
    let effect = format!(
        "how far PAP-RTDP's VMs preempted, totalled over a sub-figure's points, lie below each \
         other policy's, % of the other's (ratio of totals, paired, delta method), for each of \
         {figures}"
    );
    caused(
        claim(id, text, &effect, fewer()),
        mode,
        Some(LITERAL_PAP_ONE_CLUSTER),
        None,
    )
    .mode(mode)
    .points(by_figure(mode, axes, name, PapRtdp, &rivals, &below))
    .other_reading(every_point(
        &fewer(),
        versus(mode, axes, PapRtdp, &rivals, |b, o| below(&[*b], &[*o])),
    ))
}

/// The other reading of a claim judged per sub-figure (or over totals): the same effect and
/// margin at every point, as counts of outcomes.
pub fn every_point(margin: &Margin, points: Vec<(String, Option<Interval>)>) -> String {
    let judged = claim("-", "-", "-", margin.clone()).points(points).done();
    let count = |o| judged.points.iter().filter(|p| p.outcome == o).count();
    format!(
        "judged at every point instead: reproduced at {}, contradicted at {}, inconclusive at \
         {} of {} (point, policy) pairs.",
        count(Outcome::Reproduced),
        count(Outcome::Contradicted),
        count(Outcome::Inconclusive),
        judged.points.len()
    )
}

/// The values of `fs[i]` at `vs[i]` in each replication `k` (common random numbers), over the
/// `k` where every one is defined, and whether every variant is deterministic. `None` when a
/// variant has no runs or no replication has them all.
pub fn rows<V: serde::Serialize>(
    runs: &Runs<Metrics>,
    vs: &[V],
    fs: &[Metric],
) -> Option<(Vec<Vec<f64>>, bool)> {
    let rows = RefCell::new(Vec::new());
    let all = runs.combined(vs, |ms| {
        let row: Vec<f64> = ms
            .iter()
            .zip(fs)
            .map(|(m, f)| f(m))
            .collect::<Option<_>>()?;
        rows.borrow_mut().push(row);
        Some(0.0)
    })?;
    Some((rows.into_inner(), all.method == Method::Exact))
}

/// `phi` of the mean of `rows` with its 95 % interval by the delta method: `phi(u) +-
/// t975(n - 1) sd(grad(u) . u_k) / sqrt(n)`, `u` the mean row, `u_k` replication `k`'s (the
/// covariance of the variants' values within a replication is kept: common random numbers).
/// Exact for deterministic variants; one random replication has no interval.
fn delta(
    (rows, exact): (Vec<Vec<f64>>, bool),
    phi: impl Fn(&[f64]) -> Option<f64>,
    grad: impl Fn(&[f64]) -> Option<Vec<f64>>,
) -> Option<Interval> {
    let n = rows.len();
    if n == 0 {
        return None;
    }
    let p = rows[0].len();
    let nf = n as f64;
    let mean: Vec<f64> = (0..p)
        .map(|j| rows.iter().map(|r| r[j]).sum::<f64>() / nf)
        .collect();
    let value = phi(&mean).filter(|v| v.is_finite())?;
    let h = if exact {
        0.0
    } else if n == 1 {
        f64::INFINITY
    } else {
        let g = grad(&mean)?;
        let z: Vec<f64> = rows
            .iter()
            .map(|r| r.iter().zip(&g).map(|(a, b)| a * b).sum())
            .collect();
        half_width(&z).unwrap_or(f64::INFINITY)
    };
    Some(Interval {
        estimate: value,
        low: value - h,
        high: value + h,
        n,
        method: if exact {
            Method::Exact
        } else {
            Method::RatioOfMeans
        },
    })
}

/// The ratio of the totals of `f` over the variants `a` and over `b` (`sum_a mean f / sum_b
/// mean f`, paired by replication), with its delta-method interval: for one variant each, the
/// ratio of means ([`Runs::ratio_of_means`]). `None` without runs or with a zero total.
pub fn ratio_of_totals<V: serde::Serialize + Clone>(
    runs: &Runs<Metrics>,
    a: &[V],
    b: &[V],
    f: Metric,
) -> Option<Interval> {
    let na = a.len();
    let vs: Vec<V> = a.iter().chain(b).cloned().collect();
    let fs = vec![f; vs.len()];
    let split = |u: &[f64]| (u[..na].iter().sum::<f64>(), u[na..].iter().sum::<f64>());
    delta(
        rows(runs, &vs, &fs)?,
        |u| {
            let (x, y) = split(u);
            (y != 0.0).then(|| x / y)
        },
        |u| {
            let (x, y) = split(u);
            Some(
                (0..u.len())
                    .map(|j| if j < na { 1.0 / y } else { -x / (y * y) })
                    .collect(),
            )
        },
    )
}

/// How far below `1` a ratio is, in %: `100 (1 - r)`, its interval turned with it.
pub fn below_pct(r: Interval) -> Interval {
    Interval {
        estimate: 100.0 * (1.0 - r.estimate),
        low: 100.0 * (1.0 - r.high),
        high: 100.0 * (1.0 - r.low),
        ..r
    }
}

/// How far `a`'s total of `f` lies below `b`'s, % of `b`'s ([`ratio_of_totals`], [`below_pct`]).
pub fn pct_below<V: serde::Serialize + Clone>(
    runs: &Runs<Metrics>,
    a: &[V],
    b: &[V],
    f: Metric,
) -> Option<Interval> {
    ratio_of_totals(runs, a, b, f).map(below_pct)
}

/// Where the x values of a correlation come from.
pub enum Xs<'a> {
    /// Fixed values (an axis).
    Fixed(&'a [f64]),
    /// A metric of each variant (its mean).
    Metric(Metric),
}

/// Pearson's correlation of the means of `y` at `vs` against `xs` (the axis values, or the means
/// of another metric of the same variants), with its 95 % interval by the delta method on
/// Fisher's `z = atanh r` (paired by replication), mapped back. `None` without runs, with fewer
/// than three points or a constant line.
pub fn correlation<V: serde::Serialize + Clone>(
    runs: &Runs<Metrics>,
    vs: &[V],
    xs: Xs<'_>,
    y: Metric,
) -> Option<Interval> {
    let p = vs.len();
    if p < 3 {
        return None;
    }
    // The unknowns: the y means, then (for a metric) the x means.
    let (all, fs, fixed): (Vec<V>, Vec<Metric>, Option<&[f64]>) = match xs {
        Xs::Fixed(x) => (vs.to_vec(), vec![y; p], Some(x)),
        Xs::Metric(f) => (
            vs.iter().chain(vs).cloned().collect(),
            std::iter::repeat_n(y, p)
                .chain(std::iter::repeat_n(f, p))
                .collect(),
            None,
        ),
    };
    let parts = move |u: &[f64]| -> (Vec<f64>, Vec<f64>) {
        let ys = u[..p].to_vec();
        let xs = match fixed {
            Some(x) => x.to_vec(),
            None => u[p..].to_vec(),
        };
        (xs, ys)
    };
    // r, and its gradient in (y, x): dr/dy_i = dx_i / sqrt(Sxx Syy) - r dy_i / Syy, and
    // symmetrically in x.
    let r_and_grad = move |u: &[f64]| -> Option<(f64, Vec<f64>)> {
        let (xs, ys) = parts(u);
        let n = p as f64;
        let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
        let dx: Vec<f64> = xs.iter().map(|x| x - mx).collect();
        let dy: Vec<f64> = ys.iter().map(|y| y - my).collect();
        let sxx: f64 = dx.iter().map(|d| d * d).sum();
        let syy: f64 = dy.iter().map(|d| d * d).sum();
        let sxy: f64 = dx.iter().zip(&dy).map(|(a, b)| a * b).sum();
        if sxx <= 0.0 || syy <= 0.0 {
            return None;
        }
        let root = (sxx * syy).sqrt();
        let r = sxy / root;
        let mut g: Vec<f64> = (0..p).map(|i| dx[i] / root - r * dy[i] / syy).collect();
        if fixed.is_none() {
            g.extend((0..p).map(|i| dy[i] / root - r * dx[i] / sxx));
        }
        Some((r, g))
    };
    let z = delta(
        rows(runs, &all, &fs)?,
        |u| r_and_grad(u).map(|(r, _)| r.clamp(-1.0, 1.0).atanh()),
        |u| {
            let (r, g) = r_and_grad(u)?;
            let d = 1.0 - r * r;
            (d > 0.0).then(|| g.into_iter().map(|x| x / d).collect())
        },
    )?;
    Some(Interval {
        estimate: z.estimate.tanh(),
        low: z.low.tanh(),
        high: z.high.tanh(),
        ..z
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::stats::t975;

    /// The delta method on a ratio of totals agrees with the ratio of means for one variant
    /// each; below_pct turns the interval.
    #[test]
    fn a_ratio_of_totals_is_a_ratio_of_means() {
        let rows = vec![
            vec![1.0, 1.0],
            vec![9.0, 3.0],
            vec![4.0, 2.0],
            vec![6.0, 2.5],
        ];
        let iv = delta(
            (rows.clone(), false),
            |u| Some(u[0] / u[1]),
            |u| Some(vec![1.0 / u[1], -u[0] / (u[1] * u[1])]),
        )
        .unwrap();
        // Ratio of means 5 / 2.125; the delta method's variance by hand.
        let r = 5.0 / 2.125;
        assert!((iv.estimate - r).abs() < 1e-12);
        let z: Vec<f64> = rows.iter().map(|u| (u[0] - r * u[1]) / 2.125).collect();
        let zm = z.iter().sum::<f64>() / 4.0;
        let sd = (z.iter().map(|x| (x - zm).powi(2)).sum::<f64>() / 3.0).sqrt();
        assert!((iv.high - r - t975(3) * sd / 2.0).abs() < 1e-12);
        let b = below_pct(iv);
        assert!((b.estimate - 100.0 * (1.0 - r)).abs() < 1e-9);
        assert!((b.low - 100.0 * (1.0 - iv.high)).abs() < 1e-9);
        // Exact and single replications.
        let one = delta((vec![vec![2.0, 1.0]], false), |u| Some(u[0]), |_| None).unwrap();
        assert!(one.low.is_infinite());
        let exact = delta((vec![vec![2.0, 1.0]], true), |u| Some(u[0]), |_| None).unwrap();
        assert_eq!(
            (exact.low, exact.high, exact.method),
            (2.0, 2.0, Method::Exact)
        );
    }

    /// E11: Table 2's local axis (Fig. 5(d)) spans a factor of 70 in rate, up to 20 times the
    /// fixed rows', so at its upper points the local load alone saturates a cluster and PAP has
    /// no split, at any moderate load of the fixed point: with one time scale on both streams,
    /// PAP falls back at 3 of the calibrated mode's 20 points from 0.5 to 0.88 offered
    /// utilisation, at 2 at 0.3 and at none only at 0.03; every point it refuses is on axis
    /// (d), and the points it refuses at 0.88 are those [`falls_back`] names.
    #[test]
    fn pap_refuses_only_the_upper_local_axis_at_any_moderate_load() {
        use crate::models::federation::scenario::Dist;
        let base = params::calibration_scale().unwrap();
        let points: Vec<Variant> = variants(&Axis::ALL)
            .into_iter()
            .filter(|v| v.mode == Mode::Calibrated && v.policy == GatewayPolicy::PapRtdp)
            .collect();
        assert_eq!(points.len(), 20);
        let refused = |target: f64| -> Vec<Variant> {
            let k = params::time_scale(target).unwrap() / base;
            points
                .iter()
                .filter(|v| {
                    let mut s = v.scenario().unwrap();
                    let slower = |d: &mut Dist| match d {
                        Dist::Weibull { scale, .. } => *scale *= k,
                        other => panic!("not a Weibull: {other:?}"),
                    };
                    s.external.interarrival_s.iter_mut().for_each(slower);
                    for c in &mut s.clusters {
                        slower(&mut c.local.as_mut().unwrap().interarrival_s);
                    }
                    gateway::split(&s).unwrap().fallback.is_some()
                })
                .copied()
                .collect()
        };
        for (target, count) in [(0.88, 3), (0.75, 3), (0.5, 3), (0.3, 2), (0.03, 0)] {
            let fell = refused(target);
            assert_eq!(fell.len(), count, "{target}: {fell:?}");
            assert!(fell.iter().all(|v| matches!(v.local, Arrivals::Varied(_))));
        }
        let named: Vec<Variant> = points.iter().filter(|v| falls_back(v)).copied().collect();
        assert_eq!(named, refused(params::TARGET_UTILISATION));
    }
}
