//! What seed 000's claims share: the four axes of Figs. 5-8, their variants, one figure per
//! (metric, axis, mode), and the comparisons the verdicts make.

use super::params;
use super::presets::{Arrivals, Variant};
use crate::experiments::Runs;
use crate::models::federation::metrics::Metrics;
use crate::models::federation::scenario::GatewayPolicy;
use crate::report::stats::Estimate;
use crate::report::{Figure, Mode};
use crate::workload::dist::Distribution;

/// The modes, in the order they are reported.
pub const MODES: [Mode; 2] = [Mode::Literal, Mode::Calibrated];

/// A metric of one run.
pub type Metric = fn(&Metrics) -> Option<f64>;

/// The policies, in the paper's order.
pub const POLICIES: [GatewayPolicy; 5] = GatewayPolicy::ALL;

/// What a figure varies (seed 000 Figs. 5-8, sub-figures (a)-(d)).
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

/// Every variant of `axes` in every mode, under every policy.
pub fn variants(axes: &[Axis]) -> Vec<Variant> {
    let mut out: Vec<Variant> = Vec::new();
    for mode in MODES {
        for &axis in axes {
            for policy in POLICIES {
                for v in axis.points(mode, policy) {
                    if !out.contains(&v) {
                        out.push(v);
                    }
                }
            }
        }
    }
    out
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
    let points = axis.points(mode, POLICIES[0]);
    let xs: Vec<f64> = points.iter().map(|v| axis.x(v)).collect();
    Figure {
        id,
        title: format!("{title} ({} mode)", mode.name()),
        x_label: axis.label().into(),
        y_label: y_label.into(),
        groups: xs.iter().map(|x| format!("{x:.3}")).collect(),
        x_values: Some(xs),
        series: POLICIES.iter().map(|p| p.label().to_owned()).collect(),
        values: POLICIES
            .iter()
            .map(|&policy| {
                axis.points(mode, policy)
                    .iter()
                    .map(|v| runs.estimate(v, metric))
                    .collect()
            })
            .collect(),
        paper: None,
        decimals,
    }
}

/// The mean of `metric` at every point of `axes` in `mode`, per policy:
/// `(axis, x, means in POLICIES order)`.
pub fn means(
    runs: &Runs<Metrics>,
    mode: Mode,
    axes: &[Axis],
    metric: Metric,
) -> Vec<(Axis, f64, [f64; 5])> {
    let mut out = Vec::new();
    for &axis in axes {
        let columns: Vec<Vec<Variant>> = POLICIES.iter().map(|&p| axis.points(mode, p)).collect();
        for (i, v) in columns[0].iter().enumerate() {
            let mut row = [f64::NAN; 5];
            for (k, c) in columns.iter().enumerate() {
                row[k] = runs.mean(&c[i], metric);
            }
            out.push((axis, axis.x(v), row));
        }
    }
    out
}

/// The index of `p` in [`POLICIES`].
pub fn at(p: GatewayPolicy) -> usize {
    POLICIES.iter().position(|&q| q == p).unwrap_or(0)
}

/// A point, for messages: `(c) 0.093`.
pub fn point(axis: Axis, x: f64) -> String {
    let letter = match axis {
        Axis::Vms => 'a',
        Axis::Duration => 'b',
        Axis::External => 'c',
        Axis::Local => 'd',
    };
    format!("({letter}) {x:.3}")
}

/// Where `best` is not strictly the lowest (`lowest`) or highest of `row` against `others`:
/// one failure line per point and rival. A missing mean fails.
pub fn not_extreme(
    table: &[(Axis, f64, [f64; 5])],
    best: GatewayPolicy,
    others: &[GatewayPolicy],
    lowest: bool,
) -> Vec<String> {
    let mut failures = Vec::new();
    for (axis, x, row) in table {
        let b = row[at(best)];
        for &o in others {
            let v = row[at(o)];
            let ok = if lowest { b < v } else { b > v };
            if !ok {
                failures.push(format!(
                    "{}: {} {b:.1} against {} {v:.1}",
                    point(*axis, *x),
                    best.label(),
                    o.label()
                ));
            }
        }
    }
    failures
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

/// The 95 % interval of `metric(a) - metric(b)` across the points of `axis` in `mode` (the
/// paper's intervals are across a figure's points: SPEC-NOTES N10), for evidence.
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

/// The four figures of a metric in both modes, calibrated first.
#[allow(clippy::too_many_arguments)]
pub fn figures(
    runs: &Runs<Metrics>,
    ids: &Ids,
    number: &str,
    what: &str,
    y_label: &str,
    metric: Metric,
    decimals: usize,
) -> Vec<Figure> {
    let mut out = Vec::new();
    for (mode, pick) in [(Mode::Calibrated, 0), (Mode::Literal, 1)] {
        for (axis, pair) in Axis::ALL.iter().zip(ids) {
            let id = if pick == 0 { pair.0 } else { pair.1 };
            let letter = &id[number.len() + 3..number.len() + 4];
            let title = format!("Fig. {number}({letter}): {what}");
            out.push(figure(
                runs, id, &title, y_label, mode, *axis, metric, decimals,
            ));
        }
    }
    out
}

/// The ids in [`figures`]' order.
pub fn ids(ids: &Ids) -> Vec<&'static str> {
    ids.iter()
        .map(|p| p.0)
        .chain(ids.iter().map(|p| p.1))
        .collect()
}
