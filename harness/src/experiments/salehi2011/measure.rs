//! What seed 001's claims on one cluster share: the three axes of Figs. 2-3, their variants,
//! the figures, and the trends the verdicts read.

use super::presets::{BEST_EFFORT_PCTS, ClusterVariant, LOCAL_PCTS, Variant};
use crate::experiments::Runs;
use crate::experiments::salehi2012::measure::{MODES, Metric};
use crate::experiments::salehi2012::params;
use crate::models::federation::metrics::Metrics;
use crate::models::federation::scenario::{PreemptionPolicy, PreferenceRule};
use crate::report::{Figure, Mode};
use crate::workload::dist::Distribution;

/// What Figs. 2-3 vary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// (a): the external requests' mean VMs.
    Vms,
    /// (b): the % of best-effort external requests.
    BestEffort,
    /// (c): the % of local requests.
    Local,
}

impl Axis {
    /// Every axis, in the figures' order.
    pub const ALL: [Axis; 3] = [Axis::Vms, Axis::BestEffort, Axis::Local];

    /// What the x axis shows.
    pub fn label(self) -> &'static str {
        match self {
            Axis::Vms => "mean VMs per external request",
            Axis::BestEffort => "best-effort external requests, %",
            Axis::Local => "local requests, % of all requests",
        }
    }

    /// Its points in increasing `x`, under `policy` and `preference`.
    pub fn points(
        self,
        mode: Mode,
        policy: PreemptionPolicy,
        preference: PreferenceRule,
    ) -> Vec<ClusterVariant> {
        let fixed = ClusterVariant::fixed(mode, policy, preference);
        let mut out: Vec<ClusterVariant> = match self {
            Axis::Vms => {
                let mut mids = params::SIZE_MIDS.to_vec();
                if !mids.contains(&fixed.size_mid) {
                    mids.push(fixed.size_mid);
                }
                mids.into_iter()
                    .map(|size_mid| ClusterVariant { size_mid, ..fixed })
                    .collect()
            }
            Axis::BestEffort => BEST_EFFORT_PCTS
                .iter()
                .map(|&best_effort_pct| ClusterVariant {
                    best_effort_pct,
                    ..fixed
                })
                .collect(),
            Axis::Local => std::iter::once(fixed)
                .chain(LOCAL_PCTS.iter().map(|&p| ClusterVariant {
                    local_pct: Some(p),
                    ..fixed
                }))
                .collect(),
        };
        out.sort_by(|a, b| self.x(a).total_cmp(&self.x(b)));
        out
    }

    /// A point's value on the axis.
    pub fn x(self, v: &ClusterVariant) -> f64 {
        match self {
            Axis::Vms => params::external_size(v.size_mid)
                .model(params::CLUSTERS[1].1)
                .map_or(f64::NAN, |m| m.mean()),
            Axis::BestEffort => v.best_effort_pct,
            Axis::Local => v.scenario().map_or(f64::NAN, |s| {
                let ext: f64 = s
                    .external
                    .interarrival_s
                    .iter()
                    .map(|d| 1.0 / d.mean())
                    .sum();
                let local: f64 = s
                    .clusters
                    .iter()
                    .filter_map(|c| c.local.as_ref())
                    .map(|l| 1.0 / l.interarrival_s.mean())
                    .sum();
                100.0 * local / (ext + local)
            }),
        }
    }
}

/// The preferences, the comparison's first (N11: with the preference on the policies pick
/// alike whenever Cancelable leases suffice).
pub const PREFERENCES: [PreferenceRule; 2] = [PreferenceRule::Flat, PreferenceRule::Tiers];

/// Every variant of Figs. 2-3.
pub fn variants() -> Vec<Variant> {
    let mut out = Vec::new();
    for mode in MODES {
        for axis in Axis::ALL {
            for preference in PREFERENCES {
                for policy in PreemptionPolicy::ALL {
                    for v in axis.points(mode, policy, preference) {
                        let v = Variant::Cluster(v);
                        if !out.contains(&v) {
                            out.push(v);
                        }
                    }
                }
            }
        }
    }
    out
}

/// A series' name: `MOML`, or `MOML, tiers` with the preference on.
fn series(policy: PreemptionPolicy, preference: PreferenceRule) -> String {
    match preference {
        PreferenceRule::Flat => policy.label().to_owned(),
        PreferenceRule::Tiers => format!("{}, tiers", policy.label()),
    }
}

/// The figure of `metric` over `axis` in `mode`: a line per policy and preference.
pub fn figure(
    runs: &Runs<Metrics>,
    id: &'static str,
    title: &str,
    y_label: &str,
    (mode, axis): (Mode, Axis),
    metric: Metric,
) -> Figure {
    let points = axis.points(mode, PreemptionPolicy::Moml, PreferenceRule::Flat);
    let xs: Vec<f64> = points.iter().map(|v| axis.x(v)).collect();
    let mut names = Vec::new();
    let mut values = Vec::new();
    for preference in PREFERENCES {
        for policy in PreemptionPolicy::ALL {
            names.push(series(policy, preference));
            values.push(
                axis.points(mode, policy, preference)
                    .into_iter()
                    .map(|v| runs.estimate(&Variant::Cluster(v), metric))
                    .collect(),
            );
        }
    }
    Figure {
        id,
        title: format!("{title} ({} mode)", mode.name()),
        x_label: axis.label().into(),
        y_label: y_label.into(),
        groups: xs.iter().map(|x| format!("{x:.2}")).collect(),
        x_values: Some(xs),
        series: names,
        values,
        paper: None,
        decimals: 2,
    }
}

/// A figure's three sub-figures (one per axis) in both modes: `ids` are calibrated (a)-(c), then
/// literal (a)-(c), each `figN<letter>[-literal]`.
pub fn figures(
    runs: &Runs<Metrics>,
    ids: &[&'static str],
    what: &str,
    y_label: &str,
    metric: Metric,
) -> Vec<Figure> {
    let modes = [Mode::Calibrated, Mode::Calibrated, Mode::Calibrated]
        .into_iter()
        .chain([Mode::Literal; 3]);
    let axes = Axis::ALL.into_iter().cycle();
    ids.iter()
        .zip(modes.zip(axes))
        .map(|(id, (mode, axis))| {
            let number = &id[3..5];
            figure(
                runs,
                id,
                &format!("Fig. {}({}): {what}", &number[..1], &number[1..]),
                y_label,
                (mode, axis),
                metric,
            )
        })
        .collect()
}

/// `(x, mean of metric)` along `axis` for `policy` (class preference off).
pub fn line(
    runs: &Runs<Metrics>,
    mode: Mode,
    axis: Axis,
    policy: PreemptionPolicy,
    metric: Metric,
) -> Vec<(f64, f64)> {
    axis.points(mode, policy, PreferenceRule::Flat)
        .into_iter()
        .map(|v| (axis.x(&v), runs.mean(&Variant::Cluster(v), metric)))
        .collect()
}

/// Pearson's correlation of a line's points (NaN with fewer than two, or a missing value).
pub fn correlation(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    if points.len() < 2 || points.iter().any(|p| !p.1.is_finite()) {
        return f64::NAN;
    }
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let syy: f64 = points.iter().map(|p| (p.1 - my).powi(2)).sum();
    sxy / (sxx * syy).sqrt()
}

/// A trend a statement asks of a metric along an axis, for every policy.
#[derive(Debug, Clone, Copy)]
pub enum Trend {
    /// Rises "almost linearly": Pearson's r at least this.
    Linear(f64),
    /// Falls "almost linearly": r at most minus this.
    FallsLinear(f64),
    /// Rises: the last point above the first, and r above 0.
    Rises,
    /// Falls: the last point below the first, and r below 0.
    Falls,
}

/// Where `trend` fails for some policy (preference off), and the lines' correlations.
pub fn trend(
    runs: &Runs<Metrics>,
    mode: Mode,
    axis: Axis,
    metric: Metric,
    trend: Trend,
) -> (Vec<String>, String) {
    let mut failures = Vec::new();
    let mut seen = Vec::new();
    for policy in PreemptionPolicy::ALL {
        let line = line(runs, mode, axis, policy, metric);
        let r = correlation(&line);
        let (first, last) = (
            line.first().map_or(f64::NAN, |p| p.1),
            line.last().map_or(f64::NAN, |p| p.1),
        );
        let ok = match trend {
            Trend::Linear(min) => r >= min,
            Trend::FallsLinear(min) => r <= -min,
            Trend::Rises => last > first && r > 0.0,
            Trend::Falls => last < first && r < 0.0,
        };
        seen.push(format!(
            "{} r = {r:.2} ({first:.2} to {last:.2})",
            policy.label()
        ));
        if !ok {
            failures.push(format!(
                "{}: r = {r:.2}, {first:.2} to {last:.2}",
                policy.label()
            ));
        }
    }
    (failures, seen.join("; "))
}
