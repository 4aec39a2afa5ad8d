//! What salehi2011's claims on one cluster share: the three axes of Figs. 2-3, their variants,
//! the figures, and the effects the claims are judged on along an axis.

use super::presets::{BEST_EFFORT_PCTS, ClusterVariant, LOCAL_PCTS, Variant};
use crate::experiments::Runs;
use crate::experiments::federation::measure::{Interval, Metric, Xs, correlation};
use crate::experiments::federation::params;
use crate::models::federation::metrics::Metrics;
use crate::models::federation::scenario::{PreemptionPolicy, PreferenceRule};
use crate::report::{Figure, Mode, Ticks};
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

/// The preferences, the comparison's first (E12: with the preference on the policies pick
/// alike whenever Cancelable leases suffice).
pub const PREFERENCES: [PreferenceRule; 2] = [PreferenceRule::Flat, PreferenceRule::Tiers];

/// Every variant of Figs. 2-3 in `mode`.
pub fn variants_of(mode: Mode) -> Vec<Variant> {
    let mut out = Vec::new();
    {
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

/// Every variant of Figs. 2-3 in both modes.
pub fn variants() -> Vec<Variant> {
    Mode::BOTH.iter().flat_map(|&m| variants_of(m)).collect()
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
    let lines = PREFERENCES.into_iter().flat_map(|preference| {
        PreemptionPolicy::ALL.map(|policy| {
            let values = axis.points(mode, policy, preference).into_iter();
            (
                series(policy, preference),
                values.map(|v| runs.estimate(&Variant::Cluster(v), metric)),
            )
        })
    });
    Figure::lines(id, title)
        .mode(mode)
        .x(
            axis.label(),
            points.iter().map(|v| axis.x(v)),
            Ticks::Decimals(2),
        )
        .y(y_label)
        .all_series(lines)
        .decimals(2)
}

/// A figure's three sub-figures (one per axis) in `mode`: `ids` are (a)-(c), each
/// `figN<letter>[-literal]`.
pub fn figures(
    runs: &Runs<Metrics>,
    mode: Mode,
    ids: &[&'static str],
    what: &str,
    y_label: &str,
    metric: Metric,
) -> Vec<Figure> {
    ids.iter()
        .zip(Axis::ALL)
        .map(|(id, axis)| {
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

/// The points of `axis` for `policy` (class preference off), as variants, with their x.
pub fn line(mode: Mode, axis: Axis, policy: PreemptionPolicy) -> (Vec<Variant>, Vec<f64>) {
    axis.points(mode, policy, PreferenceRule::Flat)
        .into_iter()
        .map(|v| (Variant::Cluster(v), axis.x(&v)))
        .unzip()
}

/// Every variant of Figs. 2-3 in `mode` for `policy` (class preference off), each once.
pub fn all_points(mode: Mode, policy: PreemptionPolicy) -> Vec<Variant> {
    let mut out: Vec<Variant> = Vec::new();
    for axis in Axis::ALL {
        for v in line(mode, axis, policy).0 {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// Pearson's r of the means of `metric` along `axis` for each policy (class preference off),
/// with its interval ([`correlation`]): one labelled point per policy.
pub fn linearity(
    runs: &Runs<Metrics>,
    mode: Mode,
    axis: Axis,
    metric: Metric,
) -> Vec<(String, Option<Interval>)> {
    PreemptionPolicy::ALL
        .iter()
        .map(|&policy| {
            let (vs, xs) = line(mode, axis, policy);
            (
                policy.label().to_owned(),
                correlation(runs, &vs, Xs::Fixed(&xs), metric),
            )
        })
        .collect()
}

/// `effect(first point, last point)` along `axis` for each policy (class preference off).
pub fn ends(
    mode: Mode,
    axis: Axis,
    effect: impl Fn(&Variant, &Variant) -> Option<Interval>,
) -> Vec<(String, Option<Interval>)> {
    PreemptionPolicy::ALL
        .iter()
        .map(|&policy| {
            let (vs, xs) = line(mode, axis, policy);
            let label = format!(
                "{}: {:.2} against {:.2}",
                policy.label(),
                xs.last().copied().unwrap_or(f64::NAN),
                xs.first().copied().unwrap_or(f64::NAN)
            );
            let value = match (vs.first(), vs.last()) {
                (Some(a), Some(b)) => effect(a, b),
                _ => None,
            };
            (label, value)
        })
        .collect()
}

/// The means of `metric` along `axis` per policy (class preference off), for evidence:
/// `MOML 1.2 to 3.4; ...`.
pub fn along(runs: &Runs<Metrics>, mode: Mode, axis: Axis, metric: Metric) -> String {
    PreemptionPolicy::ALL
        .iter()
        .map(|&policy| {
            let (vs, _) = line(mode, axis, policy);
            let means: Vec<String> = vs
                .iter()
                .map(|v| format!("{:.2}", runs.mean(v, metric)))
                .collect();
            format!("{} {}", policy.label(), means.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}
