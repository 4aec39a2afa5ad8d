//! What the claims of seed 003 share: the situations, the metrics in the reports' units, paired
//! comparisons and the figure helpers.

pub(super) use super::params::{self, ALPHAS_PCT, AR_SHARES_PCT, DIVISORS, LOOSE, TIGHT};
pub(super) use super::presets::{Variant, mapping_name, scheduler_name};
use crate::experiments::Runs;
pub(super) use crate::models::multicloud::metrics::Metrics;
pub(super) use crate::models::multicloud::scenario::{MappingKind, SchedulerKind};
pub(super) use crate::report::Figure;
use crate::report::stats::Estimate;

/// The two situations of Sec. 4.1: (name, arrival-gap divisor).
pub(super) const SITUATIONS: [(&str, u32); 2] = [("loose", LOOSE), ("tight", TIGHT)];
/// The two list schedulers.
pub(super) const DYNAMIC: [SchedulerKind; 2] = [SchedulerKind::Dcls, SchedulerKind::Dcmms];
/// The three schedulers of Figs. 7-10 and Tables 4-5.
pub(super) const ALL: [SchedulerKind; 3] = [
    SchedulerKind::Fcfs,
    SchedulerKind::Dcls,
    SchedulerKind::Dcmms,
];
/// The three mappings of Figs. 9-10.
pub(super) const MAPPINGS: [MappingKind; 3] = [
    MappingKind::EnergyAware,
    MappingKind::FirstFit,
    MappingKind::WorstFit,
];

/// The average application execution time, hours.
pub(super) fn hours(m: &Metrics) -> Option<f64> {
    m.execution_s.map(|s| s / 3600.0)
}

/// Energy, in units of power x hours.
pub(super) fn energy(m: &Metrics) -> Option<f64> {
    Some(m.energy / 3600.0)
}

/// Active server-hours.
pub(super) fn active(m: &Metrics) -> Option<f64> {
    Some(m.active_server_s / 3600.0)
}

/// A paired comparison's interval lies entirely below 0 (`f(a)` below `f(b)`); false without
/// data.
pub(super) fn below(e: Option<Estimate>) -> bool {
    e.is_some_and(|e| e.high() < 0.0 && e.half_width.is_some())
}

/// A paired comparison's interval reaches 0 or below (`f(a)` not above `f(b)`); false without
/// data.
pub(super) fn not_above(e: Option<Estimate>) -> bool {
    e.is_some_and(|e| e.low() <= 0.0)
}

/// A paired comparison's interval contains 0; false without data.
pub(super) fn around_zero(e: Option<Estimate>) -> bool {
    e.is_some_and(|e| e.low() <= 0.0 && 0.0 <= e.high())
}

/// An estimate as `mean ± half-width` with `decimals` decimals, `-` when missing.
pub(super) fn show(e: Option<Estimate>, decimals: usize) -> String {
    e.map_or_else(|| "-".to_owned(), |e| e.show(decimals))
}

/// `100 (1 - r)`: a ratio's estimate as a saving, percent.
pub(super) fn saving(ratio: Option<Estimate>) -> Option<Estimate> {
    ratio.map(|r| Estimate {
        mean: 100.0 * (1.0 - r.mean),
        half_width: r.half_width.map(|h| 100.0 * h),
        n: r.n,
    })
}

/// `a <= b`; false if either is missing (NaN).
pub(super) fn at_most(a: f64, b: f64) -> bool {
    a.partial_cmp(&b).is_some_and(|o| o.is_le())
}

/// Means strictly increasing along `xs` (false if any is missing).
pub(super) fn increasing(xs: &[f64]) -> bool {
    xs.iter().all(|x| x.is_finite()) && xs.windows(2).all(|w| w[0] < w[1])
}

/// The mean execution time over alpha for FCFS, DCLS and DCMMS at `divisor` (Figs. 7-8).
pub(super) fn over_alpha(
    runs: &Runs<Metrics>,
    id: &'static str,
    title: &str,
    divisor: u32,
) -> Figure {
    Figure {
        id,
        title: title.into(),
        x_label: "alpha".into(),
        y_label: "average application execution time, h".into(),
        groups: ALPHAS_PCT
            .iter()
            .map(|&a| format!("{:.1}", f64::from(a) / 100.0))
            .collect(),
        x_values: Some(ALPHAS_PCT.iter().map(|&a| f64::from(a) / 100.0).collect()),
        series: ALL.iter().map(|&s| scheduler_name(s).to_owned()).collect(),
        values: ALL
            .iter()
            .map(|&s| {
                ALPHAS_PCT
                    .iter()
                    .map(|&a| runs.estimate(&Variant::new(s, a, divisor), hours))
                    .collect()
            })
            .collect(),
        paper: None,
        decimals: 2,
    }
}
