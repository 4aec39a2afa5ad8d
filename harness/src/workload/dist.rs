//! Distributions of a workload's quantities (inter-arrival times, durations, work), each with
//! its mean and variance, drawn from the harness's seeded stream ([`SplitMix`]).
//!
//! | type | parameters | mean | variance |
//! | --- | --- | --- | --- |
//! | [`Fixed`] | `value` | `value` | 0 |
//! | [`Uniform`] | `min <= max` | `(min + max) / 2` | `(max - min)^2 / 12` |
//! | [`Exponential`] | `mean >= 0` | `mean` | `mean^2` |
//! | [`Weibull`] | `scale > 0`, `shape > 0` | `scale G(1 + 1/shape)` | `scale^2 (G(1 + 2/shape) - G(1 + 1/shape)^2)` |
//! | [`Lognormal`] | `log_mean`, `log_sd >= 0` | `e^(log_mean + log_sd^2 / 2)` | `(e^(log_sd^2) - 1) e^(2 log_mean + log_sd^2)` |
//! | [`Hyperexponential`] | phases `(p_i, m_i)`, `sum p_i = 1` | `sum p_i m_i` | `2 sum p_i m_i^2 - mean^2` |
//!
//! (`G` is the gamma function.) Parametrisations follow erratum E6: a Weibull's `alpha` is
//! its scale and `beta` its shape; a lognormal's `(a, b)` are the mean and the standard deviation
//! of its logarithm (salehi2012 Table 2, Eq. 30), so `ln X ~ N(a, b^2)`.
//!
//! Every constructor checks its parameters and names the one at fault ([`DistError`]); a value
//! that passed can be drawn from without further checks. Every parameter must be finite. The
//! mean and variance are computed in `f64`: they are `+inf` where the true value exceeds `f64`'s
//! range (the variance of a Weibull of shape below about 0.012, or of a lognormal with
//! `log_mean = 0` and `log_sd` above about 18.8).
//!
//! [`Dist`] is how a scenario file spells one of these: an inline TOML table naming the form
//! (`{ weibull = { scale = 7.0, shape = 1.1 } }`), checked with [`Dist::check`]. The DAS-2
//! request sizes, which are integers, are in [`super::das2`].
//!
//! # Draws
//! `u` is one [`SplitMix::unit`] draw, uniform on `[0, 1)`; each form takes a fixed number of
//! them per sample, so one user's stream stays aligned whatever it draws:
//! - fixed: none; uniform: `min + (max - min) u`; exponential: `-mean ln(1 - u)` (the inverse
//!   CDF; `1 - u` is in `(0, 1]`);
//! - Weibull: `scale (-ln(1 - u))^(1/shape)` (the inverse CDF);
//! - lognormal: `e^(log_mean + log_sd z)`, `z = sqrt(-2 ln(1 - u1)) cos(2 pi u2)` (Box-Muller,
//!   two draws, the sine's normal left unused);
//! - hyperexponential: `u1` picks phase `i` (the first whose cumulative probability exceeds
//!   `u1`, else the last), then an exponential of mean `m_i` from `u2`.

use std::f64::consts::TAU;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::des::rng::SplitMix;

/// A distribution of a real quantity.
pub trait Distribution {
    /// The mean, in the quantity's unit.
    fn mean(&self) -> f64;
    /// The variance, in the quantity's unit squared.
    fn variance(&self) -> f64;
    /// One draw, taking the form's fixed number of values from `rng`.
    fn sample(&self, rng: &mut SplitMix) -> f64;
}

/// A distribution's parameter, as named in errors (the name is the scenario files' key).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// [`Fixed`]'s value.
    Value,
    /// [`Uniform`]'s smallest value.
    Min,
    /// [`Uniform`]'s largest value.
    Max,
    /// [`Exponential`]'s mean.
    Mean,
    /// [`Weibull`]'s scale (`alpha`).
    Scale,
    /// [`Weibull`]'s shape (`beta`).
    Shape,
    /// [`Lognormal`]'s `a`, the mean of the logarithm.
    LogMean,
    /// [`Lognormal`]'s `b`, the standard deviation of the logarithm.
    LogSd,
    /// [`Hyperexponential`]'s list of phases.
    Phases,
    /// The probability of a hyperexponential's phase `i` (from 0).
    Probability(usize),
    /// The mean of a hyperexponential's phase `i` (from 0).
    PhaseMean(usize),
    /// DAS-2's `l`, the lower end of the first stage (log2 of a size).
    Low,
    /// DAS-2's `m`, where the two stages meet.
    Mid,
    /// DAS-2's `h`, the upper end of the second stage.
    High,
    /// DAS-2's `q`, the probability of the first stage.
    Q,
    /// DAS-2's `P_one`, the probability of a size of 1.
    POne,
    /// DAS-2's `P_pow2`, the probability of a power of two.
    PPow2,
    /// DAS-2's cap, the cluster size.
    Cap,
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Param::Value => f.write_str("value"),
            Param::Min => f.write_str("min"),
            Param::Max => f.write_str("max"),
            Param::Mean => f.write_str("mean"),
            Param::Scale => f.write_str("scale"),
            Param::Shape => f.write_str("shape"),
            Param::LogMean => f.write_str("log_mean"),
            Param::LogSd => f.write_str("log_sd"),
            Param::Phases => f.write_str("phases"),
            Param::Probability(i) => write!(f, "phases[{i}].probability"),
            Param::PhaseMean(i) => write!(f, "phases[{i}].mean"),
            Param::Low => f.write_str("low"),
            Param::Mid => f.write_str("mid"),
            Param::High => f.write_str("high"),
            Param::Q => f.write_str("q"),
            Param::POne => f.write_str("p_one"),
            Param::PPow2 => f.write_str("p_pow2"),
            Param::Cap => f.write_str("cap"),
        }
    }
}

/// Why a distribution's parameters were refused.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DistError {
    /// A parameter is NaN or infinite.
    NotFinite {
        /// Which.
        param: Param,
        /// Its value.
        value: f64,
    },
    /// A parameter is outside its range.
    OutOfRange {
        /// Which.
        param: Param,
        /// Its value.
        value: f64,
        /// The range it must lie in: `"> 0"`, `">= 0"`, `"in [0, 1]"`, ...
        allowed: &'static str,
    },
    /// Two parameters are out of order: `low` must not exceed `high` (a uniform's `min` and
    /// `max`, DAS-2's `l`, `m`, `h`).
    Order {
        /// The one that must be the smaller.
        low: Param,
        /// Its value.
        low_value: f64,
        /// The one that must be the larger.
        high: Param,
        /// Its value.
        high_value: f64,
    },
    /// A hyperexponential has no phase.
    NoPhases,
    /// A hyperexponential's probabilities do not sum to 1 (within
    /// [`PROBABILITY_SUM_TOLERANCE`]).
    PhaseSum {
        /// Their sum.
        sum: f64,
    },
    /// DAS-2's `P_one + P_pow2` is above 1.
    SizeShares {
        /// The sum.
        sum: f64,
    },
}

impl DistError {
    /// The parameter at fault (for an order, the one that must be the smaller; for a sum of
    /// probabilities, [`Param::Phases`] or [`Param::PPow2`]).
    pub fn param(&self) -> Param {
        match *self {
            DistError::NotFinite { param, .. } | DistError::OutOfRange { param, .. } => param,
            DistError::Order { low, .. } => low,
            DistError::NoPhases | DistError::PhaseSum { .. } => Param::Phases,
            DistError::SizeShares { .. } => Param::PPow2,
        }
    }
}

impl fmt::Display for DistError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DistError::NotFinite { param, value } => {
                write!(f, "{param} is {value}, not a finite number")
            }
            DistError::OutOfRange {
                param,
                value,
                allowed,
            } => write!(f, "{param} must be {allowed}, got {value}"),
            DistError::Order {
                low,
                low_value,
                high,
                high_value,
            } => write!(f, "{low} {low_value} is greater than {high} {high_value}"),
            DistError::NoPhases => f.write_str("a hyperexponential needs at least one phase"),
            DistError::PhaseSum { sum } => {
                write!(f, "the phases' probabilities sum to {sum}, not 1")
            }
            DistError::SizeShares { sum } => write!(f, "p_one + p_pow2 is {sum}, above 1"),
        }
    }
}

impl std::error::Error for DistError {}

/// How far a hyperexponential's probabilities may sum from 1 (decimal fractions written in a
/// file rarely sum to exactly 1 in binary).
pub const PROBABILITY_SUM_TOLERANCE: f64 = 1e-9;

/// `value`, if finite.
pub(super) fn finite(param: Param, value: f64) -> Result<f64, DistError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(DistError::NotFinite { param, value })
    }
}

/// `value`, if finite and `>= 0`.
pub(super) fn non_negative(param: Param, value: f64) -> Result<f64, DistError> {
    match finite(param, value)? {
        v if v >= 0.0 => Ok(v),
        value => Err(DistError::OutOfRange {
            param,
            value,
            allowed: ">= 0",
        }),
    }
}

/// `value`, if finite and `> 0`.
fn positive(param: Param, value: f64) -> Result<f64, DistError> {
    match finite(param, value)? {
        v if v > 0.0 => Ok(v),
        value => Err(DistError::OutOfRange {
            param,
            value,
            allowed: "> 0",
        }),
    }
}

/// `value`, if a probability (finite, in `[0, 1]`).
pub(super) fn probability(param: Param, value: f64) -> Result<f64, DistError> {
    match finite(param, value)? {
        v if (0.0..=1.0).contains(&v) => Ok(v),
        value => Err(DistError::OutOfRange {
            param,
            value,
            allowed: "in [0, 1]",
        }),
    }
}

/// `Ok` unless `low_value > high_value` (checked before finiteness, so an infinite `low` above
/// `high` is reported as out of order).
pub(super) fn ordered(
    (low, low_value): (Param, f64),
    (high, high_value): (Param, f64),
) -> Result<(), DistError> {
    if low_value > high_value {
        return Err(DistError::Order {
            low,
            low_value,
            high,
            high_value,
        });
    }
    Ok(())
}

/// Always `value`: no draw from the stream.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fixed {
    value: f64,
}

impl Fixed {
    /// The point mass at `value`. Errors: [`DistError::NotFinite`].
    pub fn new(value: f64) -> Result<Self, DistError> {
        Ok(Self {
            value: finite(Param::Value, value)?,
        })
    }
}

impl Distribution for Fixed {
    fn mean(&self) -> f64 {
        self.value
    }
    fn variance(&self) -> f64 {
        0.0
    }
    fn sample(&self, _rng: &mut SplitMix) -> f64 {
        self.value
    }
}

/// Uniform on `[min, max)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Uniform {
    min: f64,
    max: f64,
}

impl Uniform {
    /// Uniform between `min` and `max`. Errors: [`DistError::Order`] if `min > max`,
    /// [`DistError::NotFinite`].
    pub fn new(min: f64, max: f64) -> Result<Self, DistError> {
        ordered((Param::Min, min), (Param::Max, max))?;
        Ok(Self {
            min: finite(Param::Min, min)?,
            max: finite(Param::Max, max)?,
        })
    }
}

impl Distribution for Uniform {
    /// `min + (max - min) / 2`: the midpoint, in the form the harness has always computed it.
    fn mean(&self) -> f64 {
        self.min + (self.max - self.min) / 2.0
    }
    fn variance(&self) -> f64 {
        let w = self.max - self.min;
        w * w / 12.0
    }
    fn sample(&self, rng: &mut SplitMix) -> f64 {
        self.min + (self.max - self.min) * rng.unit()
    }
}

/// Exponential of a given mean (rate `1 / mean`); mean 0 is the point mass at 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exponential {
    mean: f64,
}

impl Exponential {
    /// The exponential of mean `mean`. Errors: [`DistError::NotFinite`],
    /// [`DistError::OutOfRange`] if `mean < 0`.
    pub fn new(mean: f64) -> Result<Self, DistError> {
        Ok(Self {
            mean: non_negative(Param::Mean, mean)?,
        })
    }
}

impl Distribution for Exponential {
    fn mean(&self) -> f64 {
        self.mean
    }
    fn variance(&self) -> f64 {
        self.mean * self.mean
    }
    fn sample(&self, rng: &mut SplitMix) -> f64 {
        -self.mean * (1.0 - rng.unit()).ln()
    }
}

/// Weibull of scale `alpha` and shape `beta` (E6): `P(X > x) = e^(-(x/alpha)^beta)`. Shapes
/// below 1 give the heavy-tailed inter-arrival times of salehi2012 Table 2 (`beta` = 0.35, 0.5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weibull {
    scale: f64,
    shape: f64,
}

impl Weibull {
    /// The Weibull of `scale > 0` and `shape > 0`. Errors: [`DistError::NotFinite`],
    /// [`DistError::OutOfRange`].
    pub fn new(scale: f64, shape: f64) -> Result<Self, DistError> {
        Ok(Self {
            scale: positive(Param::Scale, scale)?,
            shape: positive(Param::Shape, shape)?,
        })
    }

    /// `E[X^k] = scale^k G(1 + k/shape)`.
    fn raw_moment(&self, k: i32) -> f64 {
        self.scale.powi(k) * libm::tgamma(1.0 + f64::from(k) / self.shape)
    }
}

impl Distribution for Weibull {
    fn mean(&self) -> f64 {
        self.raw_moment(1)
    }
    fn variance(&self) -> f64 {
        let m = self.mean();
        self.raw_moment(2) - m * m
    }
    fn sample(&self, rng: &mut SplitMix) -> f64 {
        // `0.0 - ln` rather than `-ln`: `-ln(1)` is `-0.0`, which a shape of 1/3 would keep.
        self.scale * (0.0 - (1.0 - rng.unit()).ln()).powf(1.0 / self.shape)
    }
}

/// Lognormal whose logarithm has mean `a` and standard deviation `b` (salehi2012 Table 2 and
/// Eq. 30, E6): `ln X ~ N(a, b^2)`, mean `e^(a + b^2/2)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lognormal {
    log_mean: f64,
    log_sd: f64,
}

impl Lognormal {
    /// The lognormal of `log_mean = a` and `log_sd = b >= 0`. Errors: [`DistError::NotFinite`],
    /// [`DistError::OutOfRange`] if `b < 0`.
    pub fn new(log_mean: f64, log_sd: f64) -> Result<Self, DistError> {
        Ok(Self {
            log_mean: finite(Param::LogMean, log_mean)?,
            log_sd: non_negative(Param::LogSd, log_sd)?,
        })
    }
}

impl Distribution for Lognormal {
    /// Eq. 30: `e^(a + b^2/2)`.
    fn mean(&self) -> f64 {
        (self.log_mean + self.log_sd * self.log_sd / 2.0).exp()
    }
    fn variance(&self) -> f64 {
        let s2 = self.log_sd * self.log_sd;
        s2.exp_m1() * (2.0 * self.log_mean + s2).exp()
    }
    fn sample(&self, rng: &mut SplitMix) -> f64 {
        (self.log_mean + self.log_sd * standard_normal(rng)).exp()
    }
}

/// A standard normal draw (Box-Muller's cosine normal, two uniforms).
fn standard_normal(rng: &mut SplitMix) -> f64 {
    let radius = (-2.0 * (1.0 - rng.unit()).ln()).sqrt();
    radius * (TAU * rng.unit()).cos()
}

/// One phase of a [`Hyperexponential`]: taken with `probability`, then exponential of `mean`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    /// The chance of this phase, in `[0, 1]`.
    pub probability: f64,
    /// The mean of its exponential, `>= 0`.
    pub mean: f64,
}

/// A mixture of exponentials: phase `i` with probability `p_i`, then exponential of mean `m_i`.
/// Its coefficient of variation is at least 1 (equal with one phase, or equal means).
#[derive(Clone, Debug, PartialEq)]
pub struct Hyperexponential {
    phases: Vec<Phase>,
}

impl Hyperexponential {
    /// The mixture of `phases`. Errors: [`DistError::NoPhases`]; [`DistError::NotFinite`] or
    /// [`DistError::OutOfRange`] for a probability outside `[0, 1]` or a negative mean (named
    /// by phase); [`DistError::PhaseSum`] unless the probabilities sum to 1 within
    /// [`PROBABILITY_SUM_TOLERANCE`].
    pub fn new(phases: Vec<Phase>) -> Result<Self, DistError> {
        check_phases(&phases)?;
        Ok(Self { phases })
    }
}

/// The checks of [`Hyperexponential::new`].
fn check_phases(phases: &[Phase]) -> Result<(), DistError> {
    if phases.is_empty() {
        return Err(DistError::NoPhases);
    }
    let mut sum = 0.0;
    for (i, p) in phases.iter().enumerate() {
        sum += probability(Param::Probability(i), p.probability)?;
        non_negative(Param::PhaseMean(i), p.mean)?;
    }
    if (sum - 1.0).abs() > PROBABILITY_SUM_TOLERANCE {
        return Err(DistError::PhaseSum { sum });
    }
    Ok(())
}

/// A hyperexponential's phases, borrowed: the arithmetic of [`Hyperexponential`], shared with
/// [`Dist`] (which draws from a file's phases without copying them).
struct Mixture<'a>(&'a [Phase]);

impl Mixture<'_> {
    /// `sum p_i f(m_i)`.
    fn expect(&self, f: impl Fn(f64) -> f64) -> f64 {
        self.0.iter().map(|p| p.probability * f(p.mean)).sum()
    }
}

impl Distribution for Mixture<'_> {
    fn mean(&self) -> f64 {
        self.expect(|m| m)
    }
    /// `E[X^2] - mean^2`, with `E[X^2] = sum p_i 2 m_i^2`.
    fn variance(&self) -> f64 {
        let m = self.mean();
        self.expect(|mi| 2.0 * mi * mi) - m * m
    }
    fn sample(&self, rng: &mut SplitMix) -> f64 {
        let u = rng.unit();
        let mut cumulative = 0.0;
        let mut chosen = self.0.last();
        for p in self.0 {
            cumulative += p.probability;
            if u < cumulative {
                chosen = Some(p);
                break;
            }
        }
        let mean = chosen.map_or(0.0, |p| p.mean);
        Exponential { mean }.sample(rng)
    }
}

impl Distribution for Hyperexponential {
    fn mean(&self) -> f64 {
        Mixture(&self.phases).mean()
    }
    fn variance(&self) -> f64 {
        Mixture(&self.phases).variance()
    }
    fn sample(&self, rng: &mut SplitMix) -> f64 {
        Mixture(&self.phases).sample(rng)
    }
}

/// A distribution as a scenario file writes it: an inline table naming the form.
///
/// ```toml
/// workload = { fixed = 546.0 }
/// workload = { uniform = { min = 518.7, max = 573.3 } }
/// workload = { exponential = { mean = 419900000.0 } }
/// interarrival = { weibull = { scale = 7.0, shape = 1.1 } }
/// duration = { lognormal = { log_mean = 5.0, log_sd = 1.7 } }
/// up = { hyperexponential = { phases = [{ probability = 0.9, mean = 10.0 }, { probability = 0.1, mean = 100.0 }] } }
/// ```
///
/// The fields are plain numbers so that a file's values can be checked and reported key by key
/// ([`Dist::check`], and the model's own checks of units and ranges); [`Dist::mean`],
/// [`Dist::variance`] and [`Dist::sample`] are those of the form's type above and are meaningful
/// once [`Dist::check`] passes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Dist {
    /// Always this value ([`Fixed`]).
    Fixed(f64),
    /// Uniform on `[min, max)` ([`Uniform`]).
    Uniform {
        /// Smallest value.
        min: f64,
        /// Largest value.
        max: f64,
    },
    /// Exponential with this mean ([`Exponential`]).
    Exponential {
        /// The mean.
        mean: f64,
    },
    /// Weibull of scale `alpha` and shape `beta` ([`Weibull`]).
    Weibull {
        /// `alpha`, in the quantity's unit.
        scale: f64,
        /// `beta`, a pure number.
        shape: f64,
    },
    /// Lognormal: `ln X ~ N(log_mean, log_sd^2)` ([`Lognormal`]).
    Lognormal {
        /// `a`: the mean of `ln X` (`X` in the quantity's unit).
        log_mean: f64,
        /// `b`: the standard deviation of `ln X`.
        log_sd: f64,
    },
    /// A mixture of exponentials ([`Hyperexponential`]).
    Hyperexponential {
        /// The phases, at least one.
        phases: Vec<Phase>,
    },
}

impl Dist {
    /// The form's name, as a file writes it (`"uniform"`).
    pub fn form(&self) -> &'static str {
        match self {
            Dist::Fixed(_) => "fixed",
            Dist::Uniform { .. } => "uniform",
            Dist::Exponential { .. } => "exponential",
            Dist::Weibull { .. } => "weibull",
            Dist::Lognormal { .. } => "lognormal",
            Dist::Hyperexponential { .. } => "hyperexponential",
        }
    }

    /// Where `param` of this form is in a file, relative to the distribution's key:
    /// `fixed`, `uniform.min`, `hyperexponential.phases[1].probability`.
    pub fn key(&self, param: Param) -> String {
        match self {
            Dist::Fixed(_) => "fixed".to_owned(),
            _ => format!("{}.{param}", self.form()),
        }
    }

    /// Whether the parameters are those of a distribution: the errors of the form's
    /// constructor ([`Uniform::new`], ...), the first one found.
    pub fn check(&self) -> Result<(), DistError> {
        match self {
            Dist::Fixed(v) => Fixed::new(*v).map(drop),
            Dist::Uniform { min, max } => Uniform::new(*min, *max).map(drop),
            Dist::Exponential { mean } => Exponential::new(*mean).map(drop),
            Dist::Weibull { scale, shape } => Weibull::new(*scale, *shape).map(drop),
            Dist::Lognormal { log_mean, log_sd } => Lognormal::new(*log_mean, *log_sd).map(drop),
            Dist::Hyperexponential { phases } => check_phases(phases),
        }
    }

    /// The form's [`Distribution::mean`].
    pub fn mean(&self) -> f64 {
        self.with(|d| d.mean())
    }

    /// The form's [`Distribution::variance`].
    pub fn variance(&self) -> f64 {
        self.with(|d| d.variance())
    }

    /// One draw, as the form's [`Distribution::sample`] (`Fixed` takes nothing from `rng`).
    pub fn sample(&self, rng: &mut SplitMix) -> f64 {
        self.with(|d| d.sample(rng))
    }

    /// The smallest value a draw can take (the infimum of its support): a fixed value, a
    /// uniform's `min`, and 0 for the forms with no positive lower bound.
    pub fn smallest(&self) -> f64 {
        match *self {
            Dist::Fixed(value) => value,
            Dist::Uniform { min, .. } => min,
            _ => 0.0,
        }
    }

    /// The largest value a draw can take (the supremum of its support): a fixed value, a
    /// uniform's `max`, and infinity for the unbounded forms.
    pub fn largest(&self) -> f64 {
        match *self {
            Dist::Fixed(value) => value,
            Dist::Uniform { max, .. } => max,
            _ => f64::INFINITY,
        }
    }

    /// Whether every draw is the same value.
    pub fn is_fixed(&self) -> bool {
        matches!(self, Dist::Fixed(_))
    }

    /// `f` of the form's type, built from the fields as they are (unchecked).
    fn with<R>(&self, f: impl FnOnce(&dyn Distribution) -> R) -> R {
        match *self {
            Dist::Fixed(value) => f(&Fixed { value }),
            Dist::Uniform { min, max } => f(&Uniform { min, max }),
            Dist::Exponential { mean } => f(&Exponential { mean }),
            Dist::Weibull { scale, shape } => f(&Weibull { scale, shape }),
            Dist::Lognormal { log_mean, log_sd } => f(&Lognormal { log_mean, log_sd }),
            Dist::Hyperexponential { ref phases } => f(&Mixture(phases)),
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Draws per moment check.
    pub(in crate::workload) const DRAWS: usize = 1_000_000;

    /// Standard errors allowed: a correct sampler fails a 5-sigma band with probability about
    /// 6e-7 under the normal approximation (and at most 1/25 by Chebyshev's inequality, whatever
    /// the shape). The seed is fixed, so each test is deterministic.
    const SIGMAS: f64 = 5.0;

    /// Sample mean and (unbiased) sample variance of `xs`, in two passes.
    pub(in crate::workload) fn sample_moments(xs: &[f64]) -> (f64, f64) {
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
        (mean, var)
    }

    /// Asserts that the sample mean and variance of `xs` match `mean` and `variance`:
    /// - the sample mean's standard error is `sqrt(variance / n)`;
    /// - the sample variance's is `sqrt((mu4 - variance^2) / n)` (asymptotically), with `mu4`
    ///   the fourth central moment, given by the caller from the distribution's known moments;
    ///
    /// plus `1e-9` of the value for the rounding of a sum of `10^6` terms (at most `n` ulps).
    pub(in crate::workload) fn assert_moments(
        what: &str,
        xs: &[f64],
        mean: f64,
        variance: f64,
        mu4: f64,
    ) {
        let n = xs.len() as f64;
        let (m, v) = sample_moments(xs);
        let tol_mean = SIGMAS * (variance / n).sqrt() + 1e-9 * mean.abs();
        let tol_var = SIGMAS * ((mu4 - variance * variance).max(0.0) / n).sqrt() + 1e-9 * variance;
        assert!(
            (m - mean).abs() <= tol_mean,
            "{what}: sample mean {m}, mean {mean}, allowed {tol_mean}"
        );
        assert!(
            (v - variance).abs() <= tol_var,
            "{what}: sample variance {v}, variance {variance}, allowed {tol_var}"
        );
    }

    /// `DRAWS` draws of `d` from the stream of `seed`.
    pub(in crate::workload) fn draws(d: &dyn Distribution, seed: u64) -> Vec<f64> {
        let mut rng = SplitMix(seed);
        (0..DRAWS).map(|_| d.sample(&mut rng)).collect()
    }

    /// Asserts that `d`'s mean and variance are those of its raw moments
    /// `e = [E[X], E[X^2], E[X^3], E[X^4]]` (written out by the caller from the distribution's
    /// formula), and that `DRAWS` draws from the stream of `seed` match them
    /// ([`assert_moments`], with the fourth central moment from `e`). Returns the draws.
    fn assert_raw_moments(what: &str, d: &dyn Distribution, seed: u64, e: [f64; 4]) -> Vec<f64> {
        let [m, e2, e3, e4] = e;
        let variance = e2 - m * m;
        assert!(
            (d.mean() - m).abs() <= 1e-12 * m.abs(),
            "{what}: mean {}",
            d.mean()
        );
        assert!(
            (d.variance() - variance).abs() <= 1e-12 * variance,
            "{what}: variance {}",
            d.variance()
        );
        let mu4 = e4 - 4.0 * e3 * m + 6.0 * e2 * m * m - 3.0 * m.powi(4);
        let xs = draws(d, seed);
        assert_moments(what, &xs, m, variance, mu4);
        xs
    }

    #[test]
    fn fixed_draws_nothing_and_is_its_value() {
        let d = Fixed::new(546.0).unwrap();
        let mut rng = SplitMix(3);
        let xs: Vec<f64> = (0..DRAWS).map(|_| d.sample(&mut rng)).collect();
        assert_eq!(
            rng,
            SplitMix(3),
            "a fixed value takes nothing from the stream"
        );
        assert_moments("fixed", &xs, d.mean(), d.variance(), 0.0);
        assert_eq!((d.mean(), d.variance()), (546.0, 0.0));
    }

    #[test]
    fn uniform_draws_match_its_moments() {
        let (a, b) = (273.0, 655.2);
        let d = Uniform::new(a, b).unwrap();
        let w: f64 = b - a;
        assert_eq!(d.mean(), 464.1);
        assert!((d.variance() - w * w / 12.0).abs() <= 1e-12 * d.variance());
        let xs = draws(&d, 11);
        assert!(xs.iter().all(|x| (a..b).contains(x)));
        // Central moments of a uniform: mu4 = w^4 / 80.
        assert_moments("uniform", &xs, d.mean(), d.variance(), w.powi(4) / 80.0);
    }

    #[test]
    fn exponential_draws_match_its_moments() {
        let m = 419_900.0;
        let d = Exponential::new(m).unwrap();
        assert_eq!((d.mean(), d.variance()), (m, m * m));
        let xs = draws(&d, 12);
        assert!(xs.iter().all(|x| *x >= 0.0 && x.is_finite()));
        // mu4 = 9 m^4.
        assert_moments("exponential", &xs, m, m * m, 9.0 * m.powi(4));
    }

    /// Raw moments `E[X^k] = scale^k G(1 + k/shape)`, written out here from the formula.
    fn weibull_raw(scale: f64, shape: f64) -> [f64; 4] {
        [1, 2, 3, 4].map(|k: i32| scale.powi(k) * libm::tgamma(1.0 + f64::from(k) / shape))
    }

    #[test]
    fn weibull_draws_match_its_moments() {
        // salehi2012 Table 2, Grid local arrivals: alpha = 7, beta = 1.1 (E6: mean 6.754 s).
        let d = Weibull::new(7.0, 1.1).unwrap();
        assert!((d.mean() - 6.7544).abs() < 1e-4, "{}", d.mean());
        assert_raw_moments("weibull(7, 1.1)", &d, 13, weibull_raw(7.0, 1.1));
    }

    /// The heavy-tailed Weibull of salehi2012 Table 2 (C64 external arrivals: alpha = 2,
    /// beta = 0.35; kurtosis about 700). Its fourth moment is finite, so the raw-scale bands
    /// come from it (the variance's band is then about 13 % of the variance); the draws are also
    /// compared on the transformed scale `(X / alpha)^beta`, which is exactly Exp(1) (mean 1,
    /// variance 1, mu4 9), where the bands are tight.
    #[test]
    fn heavy_tailed_weibull_draws_match_its_moments_on_both_scales() {
        let (scale, shape) = (2.0, 0.35);
        let d = Weibull::new(scale, shape).unwrap();
        // E6: rate 0.099, so a mean of about 10.1 s.
        assert!((1.0 / d.mean() - 0.099).abs() < 5e-4, "{}", d.mean());
        let xs = assert_raw_moments("weibull(2, 0.35)", &d, 14, weibull_raw(scale, shape));
        let t: Vec<f64> = xs.iter().map(|x| (x / scale).powf(shape)).collect();
        assert_moments("weibull(2, 0.35) transformed", &t, 1.0, 1.0, 9.0);
    }

    #[test]
    fn lognormal_draws_match_its_moments() {
        // A moderate log_sd, where the fourth moment keeps the raw-scale bands narrow
        // (kurtosis about 9): E[X^k] = e^(k a + k^2 b^2 / 2).
        let (a, b) = (2.0, 0.5);
        let d = Lognormal::new(a, b).unwrap();
        let e = [1.0, 2.0, 3.0, 4.0].map(|k: f64| (k * a + k * k * b * b / 2.0).exp());
        assert_raw_moments("lognormal(2, 0.5)", &d, 15, e);
    }

    /// salehi2012 Table 2's durations (a = 5, b = 1.7): the kurtosis is about 1.2e5, so a band on
    /// the raw variance from the fourth moment would be wider than the variance itself. The raw
    /// mean is checked against its standard error (finite variance: CV 4.1, band 2 %); the
    /// spread on the log scale, where `ln X ~ N(a, b^2)` (variance `b^2`, mu4 `3 b^4`).
    #[test]
    fn heavy_tailed_lognormal_draws_match_on_the_log_scale() {
        let (a, b) = (5.0, 1.7);
        let d = Lognormal::new(a, b).unwrap();
        // Eq. 30 (the kernel's former `lognormal_mean`).
        assert!((d.mean() - (5.0f64 + 1.445).exp()).abs() < 1e-9);
        let xs = draws(&d, 16);
        let (m, _) = sample_moments(&xs);
        let tol = SIGMAS * (d.variance() / DRAWS as f64).sqrt();
        assert!((m - d.mean()).abs() <= tol, "mean {m} vs {}", d.mean());
        let logs: Vec<f64> = xs.iter().map(|x| x.ln()).collect();
        assert_moments("ln lognormal(5, 1.7)", &logs, a, b * b, 3.0 * b.powi(4));
    }

    #[test]
    fn hyperexponential_draws_match_its_moments() {
        let phases = vec![
            Phase {
                probability: 0.85,
                mean: 10.0,
            },
            Phase {
                probability: 0.15,
                mean: 120.0,
            },
        ];
        let d = Hyperexponential::new(phases.clone()).unwrap();
        // E[X^k] = sum p_i k! m_i^k.
        let e = [1, 2, 3, 4].map(|k: i32| {
            let factorial = f64::from((1..=k).product::<i32>());
            phases
                .iter()
                .map(|p| p.probability * factorial * p.mean.powi(k))
                .sum::<f64>()
        });
        assert!((d.mean() - 26.5).abs() < 1e-12);
        assert_raw_moments("hyperexponential", &d, 17, e);
    }

    #[test]
    fn a_hyperexponential_of_one_phase_is_that_exponential_after_one_draw() {
        let d = Hyperexponential::new(vec![Phase {
            probability: 1.0,
            mean: 4.0,
        }])
        .unwrap();
        let (mut a, mut b) = (SplitMix(5), SplitMix(5));
        for _ in 0..100 {
            b.unit();
            assert_eq!(
                d.sample(&mut a),
                Exponential::new(4.0).unwrap().sample(&mut b)
            );
        }
    }

    #[test]
    fn bad_parameters_are_named() {
        use DistError::*;
        assert_eq!(
            Fixed::new(f64::NAN).map_err(|e| e.param()),
            Err(Param::Value)
        );
        assert_eq!(
            Uniform::new(4.0, 3.0),
            Err(Order {
                low: Param::Min,
                low_value: 4.0,
                high: Param::Max,
                high_value: 3.0
            })
        );
        assert_eq!(
            Uniform::new(4.0, 3.0).unwrap_err().to_string(),
            "min 4 is greater than max 3"
        );
        assert_eq!(
            Uniform::new(1.0, f64::INFINITY).map_err(|e| e.param()),
            Err(Param::Max)
        );
        assert_eq!(
            Exponential::new(-1.0),
            Err(OutOfRange {
                param: Param::Mean,
                value: -1.0,
                allowed: ">= 0"
            })
        );
        assert_eq!(
            Weibull::new(7.0, 0.0).unwrap_err().to_string(),
            "shape must be > 0, got 0"
        );
        assert_eq!(
            Weibull::new(0.0, 1.0).map_err(|e| e.param()),
            Err(Param::Scale)
        );
        assert_eq!(
            Lognormal::new(f64::INFINITY, 1.0).map_err(|e| e.param()),
            Err(Param::LogMean)
        );
        assert_eq!(
            Lognormal::new(1.0, -0.1).map_err(|e| e.param()),
            Err(Param::LogSd)
        );
        assert_eq!(Hyperexponential::new(vec![]), Err(NoPhases));
        let phase = |probability, mean| Phase { probability, mean };
        assert_eq!(
            Hyperexponential::new(vec![phase(0.5, 1.0), phase(1.5, 1.0)]).map_err(|e| e.param()),
            Err(Param::Probability(1))
        );
        assert_eq!(
            Hyperexponential::new(vec![phase(0.5, 1.0), phase(0.5, -1.0)])
                .unwrap_err()
                .to_string(),
            "phases[1].mean must be >= 0, got -1"
        );
        assert_eq!(
            Hyperexponential::new(vec![phase(0.5, 1.0), phase(0.4, 1.0)]),
            Err(PhaseSum { sum: 0.9 })
        );
        // Decimal probabilities that miss 1 by rounding only are accepted.
        assert!(
            Hyperexponential::new(vec![phase(0.1, 1.0), phase(0.2, 1.0), phase(0.7, 1.0)]).is_ok()
        );
    }

    #[test]
    fn a_spelled_distribution_is_its_form() {
        let phases = vec![
            Phase {
                probability: 0.3,
                mean: 1.0,
            },
            Phase {
                probability: 0.7,
                mean: 9.0,
            },
        ];
        let cases: Vec<(Dist, Box<dyn Distribution>)> = vec![
            (Dist::Fixed(2.5), Box::new(Fixed::new(2.5).unwrap())),
            (
                Dist::Uniform { min: 1.0, max: 3.0 },
                Box::new(Uniform::new(1.0, 3.0).unwrap()),
            ),
            (
                Dist::Exponential { mean: 2.0 },
                Box::new(Exponential::new(2.0).unwrap()),
            ),
            (
                Dist::Weibull {
                    scale: 7.0,
                    shape: 0.5,
                },
                Box::new(Weibull::new(7.0, 0.5).unwrap()),
            ),
            (
                Dist::Lognormal {
                    log_mean: 1.0,
                    log_sd: 0.3,
                },
                Box::new(Lognormal::new(1.0, 0.3).unwrap()),
            ),
            (
                Dist::Hyperexponential {
                    phases: phases.clone(),
                },
                Box::new(Hyperexponential::new(phases).unwrap()),
            ),
        ];
        for (spelled, typed) in cases {
            assert_eq!(spelled.check(), Ok(()));
            assert_eq!(spelled.mean(), typed.mean(), "{spelled:?}");
            assert_eq!(spelled.variance(), typed.variance(), "{spelled:?}");
            let (mut a, mut b) = (SplitMix(9), SplitMix(9));
            for _ in 0..50 {
                assert_eq!(spelled.sample(&mut a), typed.sample(&mut b), "{spelled:?}");
            }
            assert_eq!(a, b, "{spelled:?} takes as many draws as its type");
        }
        let bad = Dist::Hyperexponential {
            phases: vec![Phase {
                probability: 0.5,
                mean: 1.0,
            }],
        };
        assert_eq!(bad.check(), Err(DistError::PhaseSum { sum: 0.5 }));
        assert_eq!(bad.key(Param::Phases), "hyperexponential.phases");
        assert_eq!(Dist::Fixed(1.0).key(Param::Value), "fixed");
        assert_eq!(
            Dist::Weibull {
                scale: 1.0,
                shape: -1.0
            }
            .check()
            .map_err(|e| e.param()),
            Err(Param::Shape)
        );
    }

    /// The draws the grid model has always made: the scenario files' numbers depend on them.
    #[test]
    fn fixed_uniform_and_exponential_draw_as_they_always_have() {
        let mut rng = SplitMix(2009);
        let mut copy = rng.clone();
        let u = Dist::Uniform { min: 2.0, max: 5.0 }.sample(&mut rng);
        assert_eq!(u, 2.0 + 3.0 * copy.unit());
        let e = Dist::Exponential { mean: 7.0 }.sample(&mut rng);
        assert_eq!(e, -7.0 * (1.0 - copy.unit()).ln());
        assert_eq!(Dist::Fixed(3.0).sample(&mut rng), 3.0);
        assert_eq!(rng, copy);
    }
}
