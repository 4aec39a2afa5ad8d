//! Virtual time of the fair-queueing clocks: wrap-around fixed point, compared by signed difference.
//!
//! A [`VirtualTime`] is a `U48F16` (`fixed` crate): work per unit weight, in MI, with 16 fractional
//! bits. It advances without bound and is allowed to wrap; two virtual times are compared by the
//! sign of their wrapping difference, as dummynet and QFQ do. That comparison is a total order
//! on any set of times spanning less than half the range (2^63 units, about 1.4e14 MI per unit
//! weight). The fair queue keeps every live tag within [`MAX_SPAN`] of its clock (it refuses a task
//! that would break this with [`crate::Error::Overflow`]), so comparisons are always exact.
//!
//! The per-task tag increment `L / w` uses a reciprocal [`InvWeight`] computed once per flow, so
//! the per-task path multiplies and shifts but never divides.

use core::cmp::Ordering;
use fixed::types::U48F16;

use crate::units::{Weight, Work};

/// Fractional bits of [`VirtualTime`].
pub const FRAC_BITS: u32 = 16;

/// The largest distance, in raw units, between any live tag and the clock (2^62).
pub const MAX_SPAN: u64 = 1 << 62;

/// A point in virtual time (MI per unit weight, 16 fractional bits), wrapping.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct VirtualTime(U48F16);

impl VirtualTime {
    /// Virtual time zero.
    pub const ZERO: Self = Self(U48F16::ZERO);

    /// From raw units of 2^-16 MI per unit weight.
    #[inline]
    pub const fn from_bits(bits: u64) -> Self {
        Self(U48F16::from_bits(bits))
    }

    /// Raw units of 2^-16 MI per unit weight.
    #[inline]
    pub const fn to_bits(self) -> u64 {
        self.0.to_bits()
    }

    /// `self + units`, wrapping.
    #[inline]
    pub fn wrapping_add(self, units: u64) -> Self {
        Self(self.0.wrapping_add(U48F16::from_bits(units)))
    }

    /// Signed distance `self - other` in raw units (exact while the two are within 2^63).
    #[inline]
    pub fn since(self, other: Self) -> i64 {
        self.to_bits().wrapping_sub(other.to_bits()) as i64
    }

    /// The later of two times under the wrap-around order.
    #[inline]
    pub fn max(self, other: Self) -> Self {
        if self.since(other) >= 0 { self } else { other }
    }
}

#[cfg(feature = "defmt")]
impl defmt::Format for VirtualTime {
    /// Raw units (2^-16 MI per unit weight): cheap on the wire, decoded by dividing by 65,536.
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "vt:{=u64}", self.to_bits());
    }
}

impl PartialOrd for VirtualTime {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for VirtualTime {
    /// Wrap-around order: valid on sets spanning less than 2^63 raw units (see the module doc).
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        self.since(*other).cmp(&0)
    }
}

/// `2^48 / w`, rounded up: the reciprocal of a weight, precomputed once per flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvWeight(u64);

impl InvWeight {
    /// The reciprocal of weight 1.
    pub const ONE: Self = Self(1 << 48);

    /// The reciprocal of `w`; `None` for a zero weight. By short division of `2^48` in base
    /// `2^16`: each step divides a remainder below `w` with the next digit appended, which fits
    /// 32 bits (`w < 2^16`), so a core with a 32-bit divider needs no 64-bit division routine.
    pub const fn new(w: Weight) -> Option<Self> {
        if w == 0 {
            return None;
        }
        let w = w as u32;
        // The digits of 2^48 in base 2^16, most significant first: 1, 0, 0, 0.
        let (mut q, mut r, mut digit) = (0u64, 0u32, 1u32);
        let mut i = 0;
        while i < 4 {
            let x = (r << 16) | digit;
            q = (q << 16) | (x / w) as u64;
            r = x % w;
            digit = 0;
            i += 1;
        }
        Some(Self(if r == 0 { q } else { q + 1 }))
    }

    /// `work / w` in raw virtual-time units (2^-16 MI), rounded up; at most `2^55` for any work up
    /// to [`crate::units::MAX_TASK_WORK`].
    #[inline]
    pub fn span(self, work: Work) -> u64 {
        let p = (u128::from(work.get()) * u128::from(self.0)).div_ceil(1 << (48 - FRAC_BITS));
        u64::try_from(p).unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_survives_wrap_around() {
        let a = VirtualTime::from_bits(u64::MAX - 5);
        let b = a.wrapping_add(10);
        assert_eq!(b.to_bits(), 4);
        assert!(a < b);
        assert_eq!(b.since(a), 10);
        assert_eq!(a.max(b), b);
    }

    #[test]
    fn span_is_work_over_weight_in_sixteenth_bits() {
        assert_eq!(InvWeight::new(1).unwrap().span(Work::new(3)), 3 << 16);
        assert_eq!(InvWeight::new(4).unwrap().span(Work::new(2)), 1 << 15);
        // 1/3 rounds up, never down.
        assert_eq!(InvWeight::new(3).unwrap().span(Work::new(1)), 21_846);
        assert!(InvWeight::new(0).is_none());
        assert_eq!(InvWeight::new(1), Some(InvWeight::ONE));
    }
}
