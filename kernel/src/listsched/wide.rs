//! A 320-bit unsigned integer, just enough to compare feedback objectives exactly
//! ([`super::feedback`]): products of a `u128` by a `u128` or a `u64`, sums, comparison and
//! division by a divisor below `2^127`. Five `u64` limbs, least significant first; no
//! allocation, no panic (an overflow is `None`).

use core::cmp::Ordering;

const LIMBS: usize = 5;

/// An unsigned integer below `2^320`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wide([u64; LIMBS]);

impl Wide {
    pub(crate) const MAX: Self = Self([u64::MAX; LIMBS]);

    pub(crate) const fn from_u128(x: u128) -> Self {
        Self([x as u64, (x >> 64) as u64, 0, 0, 0])
    }

    /// `self + other`, or `None` past `2^320`.
    pub(crate) fn checked_add(self, other: Self) -> Option<Self> {
        let mut out = [0u64; LIMBS];
        let mut carry = 0u128;
        for ((o, &a), &b) in out.iter_mut().zip(&self.0).zip(&other.0) {
            let s = u128::from(a) + u128::from(b) + carry;
            *o = s as u64;
            carry = s >> 64;
        }
        (carry == 0).then_some(Self(out))
    }

    /// `self m`, or `None` past `2^320`.
    pub(crate) fn checked_mul_u64(self, m: u64) -> Option<Self> {
        let mut out = [0u64; LIMBS];
        let mut carry = 0u128;
        for (o, &a) in out.iter_mut().zip(&self.0) {
            // At most (2^64 - 1)^2 + 2^64 - 1 < 2^128.
            let p = u128::from(a) * u128::from(m) + carry;
            *o = p as u64;
            carry = p >> 64;
        }
        (carry == 0).then_some(Self(out))
    }

    /// `self m`, or `None` past `2^320`.
    pub(crate) fn checked_mul(self, m: u128) -> Option<Self> {
        let low = self.checked_mul_u64(m as u64)?;
        let high = self.checked_mul_u64((m >> 64) as u64)?.shifted_limb()?;
        low.checked_add(high)
    }

    /// `self 2^64`, or `None` past `2^320`.
    fn shifted_limb(self) -> Option<Self> {
        let [a, b, c, d, e] = self.0;
        (e == 0).then_some(Self([0, a, b, c, d]))
    }

    /// `ceil(self / d)` as a `u128` (saturating), for `1 <= d < 2^127`; `None` if `d` is out of
    /// that range. Long division, one bit per step (320 steps).
    pub(crate) fn div_ceil(self, d: u128) -> Option<u128> {
        if d == 0 || d >= 1 << 127 {
            return None;
        }
        if let [low, high, 0, 0, 0] = self.0 {
            // Below 2^128 (nearly every objective): one 128-bit division.
            return Some((u128::from(low) | u128::from(high) << 64).div_ceil(d));
        }
        let (mut quotient, mut rem, mut saturated) = (0u128, 0u128, false);
        for limb in self.0.iter().rev() {
            for bit in (0..64).rev() {
                // rem < d < 2^127, so the shift does not overflow.
                rem = (rem << 1) | u128::from((limb >> bit) & 1);
                saturated |= quotient >> 127 != 0;
                quotient <<= 1;
                if rem >= d {
                    rem -= d;
                    quotient |= 1;
                }
            }
        }
        let up = u128::from(rem != 0);
        Some(if saturated {
            u128::MAX
        } else {
            quotient.saturating_add(up)
        })
    }
}

impl Ord for Wide {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

impl PartialOrd for Wide {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_sums_and_quotients_match_u128_where_it_suffices() {
        let (a, b) = (0xdead_beef_1234_5678_u128, 0x1_0000_0001_u128);
        let p = Wide::from_u128(a).checked_mul(b).unwrap();
        assert_eq!(p, Wide::from_u128(a * b));
        assert_eq!(p.div_ceil(b), Some(a));
        assert_eq!(p.div_ceil(a + 1), Some((a * b).div_ceil(a + 1)));
        assert!(Wide::from_u128(a) < Wide::from_u128(a + 1));
        assert_eq!(Wide::from_u128(1).div_ceil(0), None);
    }

    #[test]
    fn products_past_128_bits_are_exact_and_overflow_is_none() {
        // (2^128 - 1)^2 = 2^256 - 2^129 + 1.
        let m = Wide::from_u128(u128::MAX).checked_mul(u128::MAX).unwrap();
        assert_eq!(m, Wide([1, 0, u64::MAX - 1, u64::MAX, 0]));
        assert_eq!(m.div_ceil(u128::MAX >> 1), Some(u128::MAX), "saturates");
        assert!(m > Wide::from_u128(u128::MAX));
        assert_eq!(m.checked_mul(u128::MAX), None);
        assert_eq!(Wide::MAX.checked_add(Wide::from_u128(1)), None);
        // 2^192 / 2^64 = 2^128: one past u128, saturated.
        let big = Wide([0, 0, 0, 1, 0]);
        assert_eq!(big.div_ceil(1 << 64), Some(u128::MAX));
        assert_eq!(Wide([0, 0, 1, 0, 0]).div_ceil(1 << 64), Some(1 << 64));
    }
}
