//! Comparisons the papers' judges share: means compared up to rounding, and paired differences
//! over replications under common random numbers ([`Paired`]).
//!
//! A missing value is NaN (what [`Runs::mean`] gives without data) or `None`: every comparison
//! with it fails, so a verdict that needs it does not hold.

use std::fmt;

use super::Runs;
use crate::report::stats::Estimate;

/// Float comparisons of means allow this much (the metrics are ratios of counts and sums of
/// microsecond or second times).
pub const EPS: f64 = 1e-9;

/// `a <= b`, up to [`EPS`]; false if either is undefined (NaN), so a missing value fails the
/// check it is in.
pub fn le(a: f64, b: f64) -> bool {
    a <= b + EPS
}

/// `a < b` by more than [`EPS`]; false if either is undefined (NaN).
pub fn lt(a: f64, b: f64) -> bool {
    a < b - EPS
}

/// How `f` at variant `a` compares with `f` at `b`, over paired replications (replication `k`
/// of both draws the same random numbers, so the difference's interval is the paired one):
/// the 95 % interval of `f(a) - f(b)`. A deterministic pair has no interval: its difference is
/// exact. `None` without paired data (every comparison with it fails).
pub struct Paired(pub Option<Estimate>);

impl Paired {
    /// `f(a) - f(b)` at `a` and `b`.
    pub fn of<M>(
        runs: &Runs<M>,
        a: &impl serde::Serialize,
        b: &impl serde::Serialize,
        f: impl Fn(&M) -> Option<f64>,
    ) -> Self {
        Paired(runs.difference(a, b, f))
    }

    /// `f(a)` is not above `f(b)`: the interval of the difference reaches 0 or below.
    pub fn not_above(&self) -> bool {
        self.0.is_some_and(|d| d.low() <= EPS)
    }

    /// `f(a)` is below `f(b)` beyond the interval: the whole interval is below 0.
    pub fn below(&self) -> bool {
        self.0.is_some_and(|d| d.high() < -EPS)
    }

    /// `f(a)` is above `f(b)` beyond the interval: the whole interval is above 0.
    pub fn above(&self) -> bool {
        self.0.is_some_and(|d| d.low() > EPS)
    }

    /// `f(a)` is above `f(b)` by at least `margin` on average, and beyond the interval.
    pub fn above_by(&self, margin: f64) -> bool {
        self.0
            .is_some_and(|d| d.low() > EPS && d.mean + EPS >= margin)
    }

    /// `|f(a) - f(b)| <= tolerance` cannot be ruled out: the interval meets
    /// `[-tolerance, tolerance]`.
    pub fn within(&self, tolerance: f64) -> bool {
        self.0
            .is_some_and(|d| d.low() <= tolerance + EPS && d.high() >= -tolerance - EPS)
    }

    /// The difference as `mean ± half-width` (`n/a` without data).
    pub fn show(&self, decimals: usize) -> String {
        self.0
            .map_or_else(|| "n/a".to_owned(), |d| d.show(decimals))
    }
}

/// A mean shown with `.1` decimals (the second field), or `n/a` when undefined (NaN).
pub struct V(pub f64, pub usize);

impl fmt::Display for V {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_nan() {
            f.write_str("n/a")
        } else {
            write!(f, "{:.*}", self.1, self.0)
        }
    }
}
