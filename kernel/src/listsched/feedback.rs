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
//! # Units and exactness
//! Instants and durations in [`Ticks`] (µs). Nothing is rounded on the way to a decision:
//!
//! - [`Alpha`] is the rational `num / den` the caller gave, `0 <= num <= den <= 2^32`, kept in
//!   lowest terms: any decimal of up to nine places ([`Alpha::from_f64`] reads an `f64` as the
//!   shortest decimal that reads back as it, so `0.8` is exactly `4 / 5`) and any multiple of
//!   `2^-32` ([`Alpha::from_q32`]).
//! - A [`Factor`] is `fd` as the rational `alpha_num (delta_tau - D) / (alpha_den D)` in lowest
//!   terms: `|num| < 2^97`, `1 <= den < 2^96` (`D < 2^64` ticks, `|delta_tau - D| < 2^65`).
//! - `tau_fd = ERAT + (1 + fd) D` is compared exactly: as `(ERAT den + D (den + num)) / den`,
//!   a numerator below `2^163`, cross-multiplied in 320 bits (products below `2^259`), so a tie is
//!   a tie and goes to the lower cloud. [`Factor::scale`] (the printed `(1 + fd) D`) alone
//!   rounds, up, and saturates at `Ticks::MAX`.
//!
//! No floating point on these paths (only [`Alpha::from_f64`] reads one).
//!
//! # Memory and cost
//! `size_of::<Feedback<K>>()` is `32 K^2 + 16` bytes (304 for three clouds). Every call is
//! `O(1)` (`O(K)` for [`Feedback::factors`]; reducing a fraction is Euclid's algorithm, at most
//! about 140 steps for 97 bits).

use core::cmp::Ordering;
use core::fmt::Write;

use super::wide::Wide;
use crate::error::{Error, Param};
use crate::units::Ticks;

/// The largest denominator of [`Alpha`], `2^32`.
const MAX_DEN: u64 = 1 << 32;

/// The feedback weight `alpha = num / den`, `0 ..= 1`, exact, in lowest terms, `den <= 2^32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Alpha {
    num: u64,
    den: u64,
}

impl Default for Alpha {
    fn default() -> Self {
        Self::ZERO
    }
}

impl Alpha {
    /// No feedback: DCLS and DCMMS decide as CLS and CMMS.
    pub const ZERO: Self = Self { num: 0, den: 1 };
    /// Full feedback.
    pub const ONE: Self = Self { num: 1, den: 1 };

    /// `alpha = num / den`, reduced to lowest terms.
    ///
    /// Errors: `InvalidParameter(Weight)` unless `num <= den` and `1 <= den <= 2^32`.
    pub fn new(num: u64, den: u64) -> Result<Self, Error> {
        if den == 0 || den > MAX_DEN || num > den {
            return Err(Error::InvalidParameter(Param::Weight));
        }
        let g = gcd(u128::from(num), u128::from(den)) as u64;
        Ok(Self {
            num: num / g,
            den: den / g,
        })
    }

    /// `alpha = raw / 2^32`.
    ///
    /// Errors: `InvalidParameter(Weight)` if `raw > 2^32` (alpha above one).
    pub fn from_q32(raw: u64) -> Result<Self, Error> {
        Self::new(raw, MAX_DEN)
    }

    /// `alpha` from configuration, as given: the shortest decimal that reads back as `alpha`
    /// (the digits `{:e}` prints; `0.8` is `4 / 5`, not the binary `f64` nearest it).
    ///
    /// Errors: `InvalidParameter(Weight)` unless `0 <= alpha <= 1` (NaN included) and that
    /// decimal has at most nine places (`1e-10` and `0.1234567891` are refused).
    pub fn from_f64(alpha: f64) -> Result<Self, Error> {
        let weight = Error::InvalidParameter(Param::Weight);
        if !(0.0..=1.0).contains(&alpha) {
            return Err(weight);
        }
        if alpha == 0.0 {
            // Also -0.0, which prints a sign.
            return Ok(Self::ZERO);
        }
        // At most 17 digits, a point and `e-324`: 32 bytes suffice.
        let mut text = Text::default();
        write!(text, "{alpha:e}").map_err(|_| weight)?;
        let text = core::str::from_utf8(text.as_bytes()).map_err(|_| weight)?;
        let (mantissa, exp) = text.split_once('e').ok_or(weight)?;
        let exp: i32 = exp.parse().map_err(|_| weight)?;
        let fraction = mantissa.split_once('.').map_or(0, |(_, f)| f.len());
        let mut digits: u64 = 0;
        for b in mantissa.bytes().filter(|&b| b != b'.') {
            let d = u64::from(b.checked_sub(b'0').ok_or(weight)?);
            digits = digits
                .checked_mul(10)
                .and_then(|x| x.checked_add(d))
                .ok_or(weight)?;
        }
        // alpha = digits 10^(exp - fraction), and alpha <= 1 makes the places non-negative
        // (`1e0`: none).
        let places = i32::try_from(fraction)
            .ok()
            .and_then(|f| f.checked_sub(exp))
            .and_then(|p| u32::try_from(p).ok())
            .filter(|&p| p <= 9)
            .ok_or(weight)?;
        Self::new(digits, 10u64.pow(places))
    }

    /// The numerator, in lowest terms.
    pub const fn num(self) -> u64 {
        self.num
    }

    /// The denominator, in lowest terms (`1 ..= 2^32`).
    pub const fn den(self) -> u64 {
        self.den
    }
}

/// A feedback factor `fd = num / den >= -1`, exact, in lowest terms (see the module's bounds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Factor {
    num: i128,
    den: u128,
}

impl Default for Factor {
    fn default() -> Self {
        Self::ZERO
    }
}

impl Factor {
    /// No correction: `tau_fd = tau`.
    pub const ZERO: Self = Self { num: 0, den: 1 };
    /// The lower clamp, `-1`: a planned run counts for nothing.
    pub const MIN: Self = Self { num: -1, den: 1 };

    /// The numerator, `-den <= num < 2^97`.
    pub const fn num(self) -> i128 {
        self.num
    }

    /// The denominator, `1 <= den < 2^96`.
    pub const fn den(self) -> u128 {
        self.den
    }

    /// `alpha (finish - erat - planned) / planned`, exact, clamped at `-1` (Eq. 7).
    ///
    /// Errors: `InvalidParameter(Work)` if `planned` is zero.
    pub fn observe(
        alpha: Alpha,
        erat: Ticks,
        finish: Ticks,
        planned: Ticks,
    ) -> Result<Self, Error> {
        if planned == Ticks::ZERO {
            return Err(Error::InvalidParameter(Param::Work));
        }
        let d = planned.get();
        // |late| < 2^65, alpha's terms <= 2^32: |num| < 2^97, den < 2^96.
        let late = i128::from(finish.get()) - i128::from(erat.get()) - i128::from(d);
        let num = i128::from(alpha.num) * late;
        let den = u128::from(alpha.den) * u128::from(d);
        if num < 0 && num.unsigned_abs() > den {
            return Ok(Self::MIN);
        }
        let g = gcd(num.unsigned_abs(), den);
        // g >= 1 divides both, and den / g < 2^96.
        Ok(Self {
            num: num / g as i128,
            den: den / g,
        })
    }

    /// `1 + fd = (den + num) / den`: the numerator, `0 <= den + num < 2^98`.
    fn one_plus(self) -> u128 {
        // den < 2^96 fits i128, and num >= -den.
        u128::try_from(self.den as i128 + self.num).unwrap_or(0)
    }

    /// `(1 + fd) planned`, rounded up, at most `Ticks::MAX`. Exactly `planned` when `fd = 0`.
    pub fn scale(self, planned: Ticks) -> Ticks {
        let scaled = Wide::from_u128(self.one_plus()).checked_mul_u64(planned.get());
        ceil_ticks(scaled, self.den)
    }

    /// `tau_fd = start + (1 + fd) run`, exact.
    pub(crate) fn tau(self, start: Ticks, run: Ticks) -> Tau {
        // start den < 2^160 and run (den + num) < 2^162: the sum is below 2^163.
        let num = Wide::from_u128(self.den)
            .checked_mul_u64(start.get())
            .zip(Wide::from_u128(self.one_plus()).checked_mul_u64(run.get()))
            .and_then(|(a, b)| a.checked_add(b))
            .unwrap_or(Wide::MAX);
        Tau { num, den: self.den }
    }
}

/// An objective `tau_fd` as the exact fraction `num / den` ticks (`den` is the factor's, below
/// `2^96`; `num` below `2^163`). Equality and order are of the values.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tau {
    num: Wide,
    den: u128,
}

impl Tau {
    /// The objective rounded up to a tick, at most `Ticks::MAX` (for printing).
    pub(crate) fn ceil(&self) -> Ticks {
        ceil_ticks(Some(self.num), self.den)
    }
}

impl Ord for Tau {
    /// `num_a den_b` against `num_b den_a`, both below `2^259`: exact.
    fn cmp(&self, other: &Self) -> Ordering {
        if self.den == other.den {
            // The same factor's objectives (and every one without feedback, `den` 1).
            return self.num.cmp(&other.num);
        }
        let a = self.num.checked_mul(other.den).unwrap_or(Wide::MAX);
        let b = other.num.checked_mul(self.den).unwrap_or(Wide::MAX);
        a.cmp(&b)
    }
}

impl PartialOrd for Tau {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Tau {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Tau {}

/// `ceil(x / den)` in ticks, saturating at `Ticks::MAX` (also for an `x` that overflowed).
fn ceil_ticks(x: Option<Wide>, den: u128) -> Ticks {
    let up = x.and_then(|x| x.div_ceil(den)).unwrap_or(u128::MAX);
    Ticks::new(u64::try_from(up).unwrap_or(u64::MAX))
}

/// The greatest common divisor of `a` and `b`, or 1 if both are zero. Euclid's algorithm.
fn gcd(a: u128, b: u128) -> u128 {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    x.max(1)
}

/// A fixed buffer that `write!` fills; an overlong text is an error.
#[derive(Default)]
struct Text {
    bytes: [u8; 32],
    len: usize,
}

impl Text {
    fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or_default()
    }
}

impl Write for Text {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(core::fmt::Error)?;
        let slot = self.bytes.get_mut(self.len..end).ok_or(core::fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
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

    fn ratio(f: Factor) -> (i128, u128) {
        (f.num(), f.den())
    }

    /// Fig. 5 (E22): task i planned on C from ERAT 2 s for D = 1 + 7 s, preempted by an AR on
    /// [8, 12), finishes at 14 s: fd_C = alpha (12 - 8) / 8 = 0.5 alpha.
    #[test]
    fn fig5_task_i_sets_fd_c_to_half_alpha() {
        let mut fb = Feedback::<3>::new(Alpha::from_f64(0.5).unwrap());
        let fd = fb.complete(0, 2, s(2), s(14), s(8)).unwrap();
        assert_eq!(ratio(fd), (1, 4));
        assert_eq!(fb.factor(0, 2), Some(fd));
        assert_eq!(fb.factor(2, 0), Some(Factor::ZERO));
        // Task k on C: D = 1 + 8 s scaled by 1.25.
        assert_eq!(fd.scale(s(9)), Ticks::new(11_250_000));
    }

    #[test]
    fn alpha_is_the_decimal_given_in_lowest_terms() {
        let a = Alpha::from_f64(0.8).unwrap();
        assert_eq!((a.num(), a.den()), (4, 5));
        let a = Alpha::from_f64(0.123_456_789).unwrap();
        assert_eq!((a.num(), a.den()), (123_456_789, 1_000_000_000));
        assert_eq!(Alpha::from_f64(1.0), Ok(Alpha::ONE));
        assert_eq!(Alpha::from_f64(0.0), Ok(Alpha::ZERO));
        assert_eq!(Alpha::from_f64(-0.0), Ok(Alpha::ZERO));
        assert_eq!(Alpha::from_f64(2.5e-5), Alpha::new(1, 40_000));
        assert_eq!(Alpha::from_q32(1 << 31), Alpha::new(1, 2));
        // 0.8 as a 32-bit fraction is not 4 / 5.
        assert_ne!(Alpha::from_q32(3_435_973_837), Alpha::from_f64(0.8));
        for refused in [1e-10, 0.123_456_789_1, 1.5, -0.1, f64::NAN] {
            assert!(Alpha::from_f64(refused).is_err(), "{refused}");
        }
    }

    #[test]
    fn an_early_finish_is_clamped_at_minus_one_and_scales_to_nothing() {
        let fd = Factor::observe(Alpha::ONE, s(100), s(10), s(5)).unwrap();
        assert_eq!(fd, Factor::MIN);
        assert_eq!(fd.scale(s(5)), Ticks::ZERO);
        // Exactly -1 is the clamp too.
        let fd = Factor::observe(Alpha::ONE, s(10), s(10), s(5)).unwrap();
        assert_eq!(fd, Factor::MIN);
        let huge = Factor::observe(Alpha::ONE, Ticks::ZERO, Ticks::MAX, Ticks::new(1)).unwrap();
        assert_eq!(ratio(huge), (i128::from(u64::MAX) - 1, 1));
        assert_eq!(huge.scale(Ticks::new(1)), Ticks::MAX);
        assert_eq!(huge.scale(Ticks::MAX), Ticks::MAX);
    }

    /// Both clouds score exactly 9 s: A runs 5 s under `fd = 0.8 (20 - 10) / 10 = 0.8`, so
    /// `5 (1 + 0.8) = 9`; B runs 9 s with no factor. The exact objectives tie.
    #[test]
    fn exact_objectives_tie_where_they_are_equal() {
        let fd = Factor::observe(Alpha::from_f64(0.8).unwrap(), s(0), s(20), s(10)).unwrap();
        assert_eq!(ratio(fd), (4, 5));
        let a = fd.tau(Ticks::ZERO, s(5));
        let b = Factor::ZERO.tau(Ticks::ZERO, s(9));
        assert_eq!(a, b);
        assert_eq!((a.ceil(), b.ceil()), (s(9), s(9)));
        let later = Factor::ZERO.tau(Ticks::new(1), s(9));
        assert!(a < later);
        assert_eq!(later.cmp(&a), Ordering::Greater);
    }

    #[test]
    fn bad_inputs_are_refused() {
        assert!(Alpha::from_q32((1 << 32) + 1).is_err());
        assert!(Alpha::new(1, 0).is_err());
        assert!(Alpha::new(1, (1 << 32) + 1).is_err());
        let mut fb = Feedback::<2>::new(Alpha::ONE);
        assert_eq!(fb.complete(2, 0, s(0), s(1), s(1)), Err(Error::Unknown));
        assert_eq!(
            fb.complete(0, 0, s(0), s(1), Ticks::ZERO),
            Err(Error::InvalidParameter(Param::Work))
        );
        assert_eq!(fb, Feedback::<2>::new(Alpha::ONE));
    }
}
