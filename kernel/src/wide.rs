//! 128-bit products divided back into 64 bits: the one 128-bit division of the kernel.
//!
//! The kernel multiplies 64-bit quantities exactly in `u128` (work x ticks per second, capacity x
//! weight, the fluid clock's budget) and divides by a 64-bit one, where the quotient usually fits
//! in 64 bits and is saturated or refused when it does not. Rust's `u128 / u128` compiles, on a
//! 32-bit core, to a general 128-bit division inlined at each use (about 700 B of Thumb code
//! each, `__aeabi_uldivmod` calls inside). [`div_rem`] divides by restoring long division
//! instead: 64 steps of a 128-bit shift by one, a comparison and a subtraction, about 100 B once, with no
//! call and no hardware divider needed, so it costs the same on a Cortex-M0 as on a Cortex-M3
//! (to within its 64-bit shifts). A quotient of a high half of zero takes one 64-bit division.

use core::num::{NonZeroU32, NonZeroU64};

/// `(n / d, n % d)`, or `None` if the quotient does not fit in 64 bits (`n >= d 2^64`).
///
/// Cost: one 64-bit division when `n < 2^64`; else 64 steps, each a 64-bit shift by one, a
/// comparison and at most one subtraction.
#[inline]
pub(crate) fn div_rem(n: u128, d: NonZeroU64) -> Option<(u64, u64)> {
    let d = d.get();
    match u64::try_from(n) {
        Ok(n) => Some((n / d, n % d)),
        Err(_) => long_division((n >> 64) as u64, n as u64, d),
    }
}

/// `n / d` saturated at `u64::MAX` (the quotient of [`div_rem`], or `u64::MAX` where it does not
/// fit).
#[inline]
pub(crate) fn div_saturating(n: u128, d: NonZeroU64) -> u64 {
    div_rem(n, d).map_or(u64::MAX, |(q, _)| q)
}

/// The largest divisor [`div_small`] takes (exclusive): `2^24`.
pub(crate) const SMALL_DIVISOR: u32 = 1 << 24;

/// `(n / d, n % d)` for a divisor below [`SMALL_DIVISOR`], the quotient in full (`None` for a
/// larger divisor or zero). One 64-bit division when `n < 2^64` (by a constant `d`, a
/// multiplication), else [`short_division`].
#[inline]
pub(crate) fn div_small(n: u128, d: u32) -> Option<(u128, u32)> {
    if d == 0 || d >= SMALL_DIVISOR {
        return None;
    }
    Some(match u64::try_from(n) {
        Ok(n) => (u128::from(n / u64::from(d)), (n % u64::from(d)) as u32),
        Err(_) => short_division(n, NonZeroU32::MIN.saturating_add(d - 1)),
    })
}

/// [`div_small`] for `n >= 2^64`: short division a byte at a time. The remainder
/// `r < d < 2^24` and the next byte make a 32-bit dividend `256 r + byte < 256 d`, whose
/// quotient is the next byte of the quotient. Cost: 16 steps of a 32-bit division (one
/// instruction on a Cortex-M3, a library loop on a Cortex-M0).
#[cold]
#[inline(never)]
fn short_division(n: u128, d: NonZeroU32) -> (u128, u32) {
    let d = d.get();
    let mut q = [0u8; 16];
    let mut r = 0u32;
    for (digit, byte) in q.iter_mut().zip(n.to_be_bytes()) {
        let x = (r << 8) | u32::from(byte);
        *digit = (x / d) as u8;
        r = x % d;
    }
    (u128::from_be_bytes(q), r)
}

/// `n / d` saturated at `u64::MAX`: [`div_small`] for a divisor below [`SMALL_DIVISOR`],
/// [`div_saturating`] above.
#[inline]
pub(crate) fn div_saturating_by_u32(n: u128, d: NonZeroU32) -> u64 {
    match div_small(n, d.get()) {
        Some((q, _)) => u64::try_from(q).unwrap_or(u64::MAX),
        None => div_saturating(n, NonZeroU64::from(d)),
    }
}

/// `(hi 2^64 + lo) / d` and the remainder, for `hi > 0`; `None` if `hi >= d`. Restoring
/// division: the partial remainder `r < d` takes the dividend's next bit, `2 r + bit < 2 d`,
/// and loses `d` where it reaches it (the bit shifted out of `r` is the `2^64` place, when set
/// `2 r + bit` exceeds `d` and the wrapped difference is the true one, below `d`). `r:n` shifts
/// left one bit a step, as one 128-bit register: the dividend's next bit leaves `n` at the top
/// as the quotient's bit enters it at the bottom, so after 64 steps `n` is the quotient (a
/// step is about 15 Thumb instructions, with no shift by a variable amount).
#[cold]
#[inline(never)]
fn long_division(hi: u64, lo: u64, d: u64) -> Option<(u64, u64)> {
    if hi >= d {
        return None;
    }
    let (mut r, mut n) = (hi, lo);
    for _ in 0..64 {
        let overflow = r >> 63 != 0;
        r = (r << 1) | (n >> 63);
        n <<= 1;
        if overflow || r >= d {
            r = r.wrapping_sub(d);
            n |= 1;
        }
    }
    Some((n, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(n: u128, d: u64) -> Option<(u64, u64)> {
        let d = u128::from(d);
        Some((u64::try_from(n / d).ok()?, (n % d) as u64))
    }

    #[test]
    fn edges_agree_with_the_128_bit_division() {
        let ds = [
            1,
            2,
            3,
            10,
            1_000_000,
            (1 << 32) - 1,
            1 << 32,
            (1 << 63) + 1,
            u64::MAX,
        ];
        for d in ds {
            let nz = NonZeroU64::new(d).unwrap();
            let ns = [
                0,
                u128::from(d) - 1,
                u128::from(u64::MAX),
                u128::from(u64::MAX) + 1,
                (u128::from(d) << 64) - 1,
                u128::from(d) << 64,
                u128::MAX,
            ];
            for n in ns {
                assert_eq!(div_rem(n, nz), reference(n, d), "{n} / {d}");
            }
        }
    }

    #[test]
    fn saturates_where_the_quotient_does_not_fit() {
        let one = NonZeroU64::new(1).unwrap();
        assert_eq!(div_saturating(u128::from(u64::MAX) + 1, one), u64::MAX);
        assert_eq!(div_saturating(u128::MAX, NonZeroU64::MAX), u64::MAX);
        assert_eq!(
            div_saturating(u128::from(u64::MAX) * 3, NonZeroU64::new(3).unwrap()),
            u64::MAX
        );
    }

    #[test]
    fn small_divisors_only() {
        assert_eq!(div_small(7, 0), None);
        assert_eq!(div_small(7, SMALL_DIVISOR), None);
        let d = SMALL_DIVISOR - 1;
        assert_eq!(
            div_small(u128::MAX, d),
            Some((
                u128::MAX / u128::from(d),
                (u128::MAX % u128::from(d)) as u32
            ))
        );
    }

    proptest::proptest! {
        #[test]
        fn short_division_agrees_with_the_128_bit_division(n: u128, d in 1u32..SMALL_DIVISOR, shift in 0u32..128) {
            let (n, d128) = (n >> shift, u128::from(d));
            proptest::prop_assert_eq!(div_small(n, d), Some((n / d128, (n % d128) as u32)));
        }

        #[test]
        fn agrees_with_the_128_bit_division(hi: u64, lo: u64, d: u64, shift in 0u32..64) {
            // Divisors of every size, the dividend's high half often below them.
            let d = (d >> shift).max(1);
            let n = (u128::from(hi >> shift) << 64) | u128::from(lo);
            proptest::prop_assert_eq!(div_rem(n, NonZeroU64::new(d).unwrap()), reference(n, d));
        }
    }
}
