//! The feedback factors of DCLS and DCMMS (gandhimathi2013 Sec. 3.1.4, Eq. 6-8 as read in E22).
//!
//! When a task that cloud `o` (its origin: the cloud its application was submitted to) placed on
//! cloud `j` finishes, `o` learns the finish and sets
//!
//! ```text
//! delta_tau = actual finish - ERAT          (ERAT: the start `o` planned with)
//! fd[o][j]  = alpha (delta_tau - D) / D     (D = SI/b + ETM: the planned run)
//! ```
//!
//! replacing the previous value, clamped below at `-1` (so `1 + fd >= 0`). The next decisions
//! of `o` rate cloud `j` by `tau_fd = ERAT + (1 + fd[o][j]) D` instead of `ERAT + D` (Eq. 8).
//! `alpha = 0` keeps every factor at zero, which makes `tau_fd = tau` exactly: DCLS and DCMMS
//! then decide as CLS and CMMS.
//!
//! # Units and fixed point
//! Instants and durations in [`Ticks`]. [`Alpha`] is `alpha` in units of `2^-32`, `0 ..= 2^32`;
//! a [`Factor`] is `fd` in units of `2^-32` in an `i64` (`-1 ..= 2^31 - 2^-32`; a larger value
//! saturates). `fd` is computed exactly in 128 bits and rounded toward zero; `(1 + fd) D` is
//! rounded up and saturates at `Ticks::MAX`. No floating point on these paths.
//!
//! # Memory and cost
//! `size_of::<Feedback<K>>()` is `8 K^2 + 8` bytes (80 for three clouds). Every call is
//! `O(1)` (`O(K)` for [`Feedback::factors`]).

use crate::error::{Error, Param};
use crate::units::Ticks;

/// `2^32`: one, in the fixed point of [`Alpha`] and [`Factor`].
const ONE: u64 = 1 << 32;

/// The feedback weight `alpha`, `0 ..= 1`, in units of `2^-32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Alpha(u64);

impl Alpha {
    /// No feedback: DCLS and DCMMS decide as CLS and CMMS.
    pub const ZERO: Self = Self(0);
    /// Full feedback.
    pub const ONE: Self = Self(ONE);

    /// `alpha = raw / 2^32`.
    ///
    /// Errors: `InvalidParameter(Weight)` if `raw > 2^32` (alpha above one).
    pub const fn from_q32(raw: u64) -> Result<Self, Error> {
        if raw > ONE {
            Err(Error::InvalidParameter(Param::Weight))
        } else {
            Ok(Self(raw))
        }
    }

    /// `alpha` from configuration, rounded to the nearest `2^-32`.
    ///
    /// Errors: `InvalidParameter(Weight)` unless `0 <= alpha <= 1` (NaN included).
    pub fn from_f64(alpha: f64) -> Result<Self, Error> {
        if (0.0..=1.0).contains(&alpha) {
            // In range, so the product lies in 0 ..= 2^32 and converts exactly.
            Self::from_q32(libm::round(alpha * ONE as f64) as u64)
        } else {
            Err(Error::InvalidParameter(Param::Weight))
        }
    }

    /// `alpha` in units of `2^-32`.
    pub const fn q32(self) -> u64 {
        self.0
    }
}

/// A feedback factor `fd >= -1`, in units of `2^-32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Factor(i64);

impl Factor {
    /// No correction: `tau_fd = tau`.
    pub const ZERO: Self = Self(0);
    /// The lower clamp, `-1`: a planned run counts for nothing.
    pub const MIN: Self = Self(-(ONE as i64));

    /// `fd` in units of `2^-32`.
    pub const fn q32(self) -> i64 {
        self.0
    }

    /// `alpha (finish - erat - planned) / planned`, rounded toward zero, clamped at `-1` (Eq. 7).
    ///
    /// Errors: `InvalidParameter(Work)` if `planned` is zero.
    pub fn observe(
        alpha: Alpha,
        erat: Ticks,
        finish: Ticks,
        planned: Ticks,
    ) -> Result<Self, Error> {
        let d = i128::from(planned.get());
        if d == 0 {
            return Err(Error::InvalidParameter(Param::Work));
        }
        let late = i128::from(finish.get()) - i128::from(erat.get()) - d;
        // |late| < 2^65 and alpha <= 2^32: the product fits in 98 bits.
        let fd = (i128::from(alpha.q32()) * late) / d;
        let fd = fd.clamp(i128::from(Self::MIN.0), i128::from(i64::MAX));
        Ok(Self(i64::try_from(fd).unwrap_or(i64::MAX)))
    }

    /// `(1 + fd) planned`, rounded up, at most `Ticks::MAX`. Exactly `planned` when `fd = 0`.
    pub fn scale(self, planned: Ticks) -> Ticks {
        // 1 + fd is in 0 ..< 2^63 + 2^32 (fd >= -1 by construction).
        let one_plus = u128::try_from(i128::from(self.0) + i128::from(ONE)).unwrap_or(0);
        let scaled = one_plus * u128::from(planned.get());
        let up = scaled.div_ceil(u128::from(ONE));
        Ticks::new(u64::try_from(up).unwrap_or(u64::MAX))
    }
}

/// The factors every origin keeps for every cloud, `fd[origin][cloud]`, under one `alpha`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Feedback<const K: usize> {
    alpha: Alpha,
    factors: [[Factor; K]; K],
}

impl<const K: usize> Feedback<K> {
    /// Every factor zero.
    pub const fn new(alpha: Alpha) -> Self {
        Self {
            alpha,
            factors: [[Factor::ZERO; K]; K],
        }
    }

    /// The weight in force.
    pub const fn alpha(&self) -> Alpha {
        self.alpha
    }

    /// `fd[origin][cloud]`, if both are clouds.
    pub fn factor(&self, origin: usize, cloud: usize) -> Option<Factor> {
        self.factors.get(origin)?.get(cloud).copied()
    }

    /// Every cloud's factor as `origin` sees them, if `origin` is a cloud.
    pub fn factors(&self, origin: usize) -> Option<[Factor; K]> {
        self.factors.get(origin).copied()
    }

    /// A task of `origin` that was planned on `cloud` from `erat` for `planned` finished at
    /// `finish`: replaces `fd[origin][cloud]` ([`Factor::observe`]) and returns it.
    ///
    /// Errors (nothing changed): [`Error::Unknown`] if `origin` or `cloud` is not below `K`;
    /// `InvalidParameter(Work)` if `planned` is zero.
    pub fn complete(
        &mut self,
        origin: usize,
        cloud: usize,
        erat: Ticks,
        finish: Ticks,
        planned: Ticks,
    ) -> Result<Factor, Error> {
        let alpha = self.alpha;
        let slot = self
            .factors
            .get_mut(origin)
            .and_then(|row| row.get_mut(cloud))
            .ok_or(Error::Unknown)?;
        let fd = Factor::observe(alpha, erat, finish, planned)?;
        *slot = fd;
        Ok(fd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(secs: u64) -> Ticks {
        Ticks::from_secs(secs)
    }

    /// Fig. 5 (E22): task i planned on C from ERAT 2 s for D = 1 + 7 s, preempted by an AR on
    /// [8, 12), finishes at 14 s: fd_C = alpha (12 - 8) / 8 = 0.5 alpha.
    #[test]
    fn fig5_task_i_sets_fd_c_to_half_alpha() {
        let mut fb = Feedback::<3>::new(Alpha::from_f64(0.5).unwrap());
        let fd = fb.complete(0, 2, s(2), s(14), s(8)).unwrap();
        assert_eq!(fd.q32(), 1 << 30);
        assert_eq!(fb.factor(0, 2), Some(fd));
        assert_eq!(fb.factor(2, 0), Some(Factor::ZERO));
        // Task k on C: D = 1 + 8 s scaled by 1.25.
        assert_eq!(fd.scale(s(9)), Ticks::new(11_250_000));
    }

    #[test]
    fn an_early_finish_is_clamped_at_minus_one_and_scales_to_nothing() {
        let fd = Factor::observe(Alpha::ONE, s(100), s(10), s(5)).unwrap();
        assert_eq!(fd, Factor::MIN);
        assert_eq!(fd.scale(s(5)), Ticks::ZERO);
        let huge = Factor::observe(Alpha::ONE, Ticks::ZERO, Ticks::MAX, Ticks::new(1)).unwrap();
        assert_eq!(huge.q32(), i64::MAX);
        assert_eq!(huge.scale(s(1)), s((1 << 31) + 1));
        assert_eq!(huge.scale(Ticks::MAX), Ticks::MAX);
    }

    #[test]
    fn bad_inputs_are_refused() {
        assert!(Alpha::from_f64(1.5).is_err());
        assert!(Alpha::from_f64(f64::NAN).is_err());
        assert!(Alpha::from_q32(ONE + 1).is_err());
        assert_eq!(Alpha::from_f64(1.0), Ok(Alpha::ONE));
        let mut fb = Feedback::<2>::new(Alpha::ONE);
        assert_eq!(fb.complete(2, 0, s(0), s(1), s(1)), Err(Error::Unknown));
        assert_eq!(
            fb.complete(0, 0, s(0), s(1), Ticks::ZERO),
            Err(Error::InvalidParameter(Param::Work))
        );
        assert_eq!(fb, Feedback::<2>::new(Alpha::ONE));
    }
}
