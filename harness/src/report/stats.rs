//! Estimates over independent replications: the mean and the half-width of its two-sided 95 %
//! confidence interval (Student t).
//!
//! For `n` replications with sample mean `m` and sample standard deviation `s` (divisor
//! `n - 1`), the interval is `m ± t(0.975, n - 1) · s / √n`. The quantile comes from a table:
//! exact (to three decimals) for 1 to 30 degrees of freedom, then at 40, 60 and 120 and in the
//! limit (1.960), linear in `1 / df` in between, which is within 0.001 of the true quantile.
//!
//! With one replication there is no spread to estimate from: the half-width is `None` (not 0,
//! which would claim a precision nobody measured). A deterministic scenario run twice or more
//! gets a half-width of exactly 0, which is the truth.

use serde::Serialize;

/// A quantity estimated from `n` replications, in the quantity's own unit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    /// The sample mean.
    pub mean: f64,
    /// Half-width of the 95 % confidence interval of the mean; `None` when `n` is 1.
    pub half_width: Option<f64>,
    /// Replications the estimate is made of (at least 1).
    pub n: usize,
}

impl Estimate {
    /// The estimate from `samples` (one value per replication), or `None` for no sample.
    ///
    /// Non-finite samples make a non-finite estimate; callers pass only defined values (a metric
    /// undefined in a replication, such as a mean over no task, is left out and lowers `n`).
    pub fn of(samples: &[f64]) -> Option<Self> {
        let n = samples.len();
        if n == 0 {
            return None;
        }
        Some(Self {
            mean: mean(samples),
            half_width: half_width(samples),
            n,
        })
    }

    /// The lower end of the interval (the mean when there is no interval).
    pub fn low(&self) -> f64 {
        self.mean - self.half_width.unwrap_or(0.0)
    }

    /// The upper end of the interval (the mean when there is no interval).
    pub fn high(&self) -> f64 {
        self.mean + self.half_width.unwrap_or(0.0)
    }

    /// `mean ± half_width` with `decimals` decimals; only the mean when there is no interval or
    /// it rounds to zero at that precision.
    pub fn show(&self, decimals: usize) -> String {
        match self.half_width {
            Some(h)
                if !format!("{h:.decimals$}")
                    .trim_start_matches(['0', '.'])
                    .is_empty() =>
            {
                format!("{:.decimals$} ± {h:.decimals$}", self.mean)
            }
            _ => format!("{:.decimals$}", self.mean),
        }
    }
}

/// The sample mean of `samples` (NaN for none).
fn mean(samples: &[f64]) -> f64 {
    samples.iter().sum::<f64>() / samples.len() as f64
}

/// Half-width of the 95 % confidence interval of the mean of `samples`, in their unit:
/// `t(0.975, n - 1) · s / √n`; `None` for fewer than two samples (no spread to estimate from).
pub fn half_width(samples: &[f64]) -> Option<f64> {
    let n = samples.len();
    if n < 2 {
        return None;
    }
    let mean = mean(samples);
    let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    Some(t975(n - 1) * (var / n as f64).sqrt())
}

/// `t(0.975, df)` for df = 1 to 30.
const T975: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042,
];

/// `t(0.975, df)` beyond 30: `(df, quantile)`, the last one the limit (`1 / df = 0`).
const T975_TAIL: [(f64, f64); 5] = [
    (30.0, 2.042),
    (40.0, 2.021),
    (60.0, 2.000),
    (120.0, 1.980),
    (f64::INFINITY, 1.960),
];

/// The 0.975 quantile of Student's t with `df` degrees of freedom (the 95 % two-sided factor).
///
/// Panics if `df` is 0 (no such distribution: one sample has no spread).
pub fn t975(df: usize) -> f64 {
    assert!(df > 0, "Student t needs at least one degree of freedom");
    if let Some(&t) = T975.get(df - 1) {
        return t;
    }
    let inv = 1.0 / df as f64;
    for w in T975_TAIL.windows(2) {
        let ((d0, t0), (d1, t1)) = (w[0], w[1]);
        if (df as f64) <= d1 {
            let (i0, i1) = (1.0 / d0, 1.0 / d1);
            return t0 + (t1 - t0) * (i0 - inv) / (i0 - i1);
        }
    }
    1.960
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_match_the_table_and_approach_the_normal() {
        assert_eq!(t975(1), 12.706);
        assert_eq!(t975(30), 2.042);
        assert!((t975(40) - 2.021).abs() < 1e-12);
        assert!((t975(120) - 1.980).abs() < 1e-12);
        // df = 50: true 2.009.
        assert!((t975(50) - 2.009).abs() < 1e-3);
        assert!((t975(1_000_000) - 1.960).abs() < 1e-3);
    }

    #[test]
    fn show_drops_an_interval_that_rounds_to_zero() {
        let e = Estimate::of(&[2.0, 2.0]).unwrap();
        assert_eq!(e.half_width, Some(0.0));
        assert_eq!(e.show(1), "2.0");
        let e = Estimate::of(&[1.0, 3.0]).unwrap();
        assert_eq!(e.show(1), "2.0 ± 12.7");
    }
}
