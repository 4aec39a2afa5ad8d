//! Units of time, work, capacity and nodes, stated once for the whole crate.
//!
//! | quantity | type | unit | range |
//! | --- | --- | --- | --- |
//! | time, durations | [`Ticks`] (`u64`) | 1 microsecond | 584,000 years |
//! | work, task sizes, bursts (sigma) | [`Work`] (`u64`) | MI, million instructions | |
//! | capacity, rates (rho, g) | [`Mips`] (`u64`) | MI per second | |
//! | bucket credit | [`Instructions`] (`i64`) | instructions = MI x 10^6 = MIPS x tick | +- 9.2e18 |
//! | weights | [`Weight`] (`u16`) | dimensionless, `>= 1` | 1 ..= 65,535 |
//! | nodes of a cluster (VMs, processors) | [`Nodes`] (`u32`) | one node | 0 ..= 4,294,967,295 |
//!
//! One MIPS running for one tick does exactly one instruction, so rates times durations are exact
//! integers in [`Instructions`]: the leaky bucket never rounds. Durations of work are rounded *up*
//! (a bound must never be under-estimated); work done in a duration is rounded *down*.
//!
//! Configuration may arrive in floating point (seconds, MIPS); the `*_from_f64` helpers convert it
//! once, at set-up, checking that it is finite and in range. Nothing on a per-task path uses floats.

use core::num::{NonZeroU64, NonZeroU128};

use crate::error::{Error, Param};

/// Time and durations, in microseconds.
pub type Ticks = u64;
/// Computational work, in million instructions (MI).
pub type Work = u64;
/// Computational capacity or rate, in million instructions per second (MIPS).
pub type Mips = u64;
/// Work in single instructions: the unit of bucket credit (`MI * 10^6`, or `MIPS * ticks`).
pub type Instructions = i64;
/// A share weight; zero is not a weight.
pub type Weight = u16;
/// A number of nodes (VMs, processors) of a cluster.
pub type Nodes = u32;

/// Ticks in one second.
pub const TICKS_PER_SECOND: u64 = 1_000_000;

/// The largest task a resource may declare as its maximum (2^39 MI, about 5.5e11 MI: 244 days of
/// work on one 26,000 MIPS CPU). The limit keeps every finish tag of a queue of `2^8` maximal tasks
/// inside the half-range of the wrap-around virtual clock (see [`crate::vtime`]).
pub const MAX_TASK_WORK: Work = 1 << 39;

/// Time to execute `work` at `rate`, rounded up to whole ticks.
///
/// Errors: [`Error::InvalidParameter`] (`Param::Capacity`) if `rate` is zero, [`Error::Overflow`]
/// if the duration does not fit in [`Ticks`].
#[inline]
pub fn exec_ticks(work: Work, rate: Mips) -> Result<Ticks, Error> {
    if rate == 0 {
        return Err(Error::InvalidParameter(Param::Capacity));
    }
    mul_div(work, TICKS_PER_SECOND, rate, true).ok_or(Error::Overflow)
}

/// Work done in `ticks` at `rate`, rounded down to whole MI (saturating at `Work::MAX`).
#[inline]
pub fn work_in(rate: Mips, ticks: Ticks) -> Work {
    let instr = u128::from(rate) * u128::from(ticks);
    Work::try_from(instr / u128::from(TICKS_PER_SECOND)).unwrap_or(Work::MAX)
}

/// `work` expressed in instructions. Errors: [`Error::Overflow`] above about 9.2e12 MI.
#[inline]
pub fn instructions(work: Work) -> Result<Instructions, Error> {
    work.checked_mul(TICKS_PER_SECOND)
        .and_then(|i| Instructions::try_from(i).ok())
        .ok_or(Error::Overflow)
}

/// The largest capacity a resource or queue accepts: 2^40 MIPS (about 4e7 times the paper's
/// largest resource). It keeps the fair queue's clock arithmetic in 64 bits.
pub const MAX_CAPACITY: Mips = 1 << 40;

/// `a * b / d`, rounded up or down; `None` if `d` is zero or the result exceeds `u64`. Uses 64-bit
/// arithmetic when the product fits, 128-bit otherwise.
#[inline]
pub(crate) fn mul_div(a: u64, b: u64, d: u64, up: bool) -> Option<u64> {
    let d = NonZeroU64::new(d)?;
    match a.checked_mul(b) {
        Some(p) => Some(if up { p.div_ceil(d.get()) } else { p / d }),
        None => mul_div_wide(a, b, d, up),
    }
}

/// [`mul_div`]'s 128-bit path. Kept out of line: the 128-bit division is about 1.5 KiB of Thumb
/// code wherever it is inlined, and this path is rare.
#[cold]
#[inline(never)]
fn mul_div_wide(a: u64, b: u64, d: NonZeroU64, up: bool) -> Option<u64> {
    let p = u128::from(a) * u128::from(b);
    let d = NonZeroU128::from(d);
    let q = p / d;
    // `q <= p < 2^128 - 1`, so `q + 1` does not overflow.
    let q = if up && q * d.get() != p { q + 1 } else { q };
    u64::try_from(q).ok()
}

/// Seconds (floating point, from configuration) to ticks, rounded up.
///
/// Errors: [`Error::InvalidParameter`] with `param` if `secs` is negative, not finite, or too large.
pub fn ticks_from_secs_f64(secs: f64, param: Param) -> Result<Ticks, Error> {
    let ticks = libm::ceil(secs * TICKS_PER_SECOND as f64);
    to_u64(ticks, param)
}

/// A floating-point quantity (MI, MIPS) from configuration to an integer, rounding in the
/// direction `up` says: up for demands (a user's rho, sigma, maximum task), down for supplies (a
/// resource's capacity), so that conversion never makes a guarantee look better than it is.
///
/// Errors: [`Error::InvalidParameter`] with `param` if `x` is negative, not finite, or too large.
pub fn quantity_from_f64(x: f64, up: bool, param: Param) -> Result<u64, Error> {
    let r = if up { libm::ceil(x) } else { libm::floor(x) };
    to_u64(r, param)
}

fn to_u64(x: f64, param: Param) -> Result<u64, Error> {
    // 2^64 is exactly representable; anything at or above it does not fit.
    if (0.0..18_446_744_073_709_551_616.0).contains(&x) {
        Ok(x as u64)
    } else {
        Err(Error::InvalidParameter(param))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exec_time_rounds_up_and_matches_the_paper_example() {
        // One U1 task (419,900,000 MI) on R1 (780,000 MIPS): 538.33... s, rounded up.
        assert_eq!(exec_ticks(419_900_000, 780_000), Ok(538_333_334));
        assert_eq!(exec_ticks(1, 3), Ok(333_334));
        assert_eq!(exec_ticks(0, 3), Ok(0));
        assert_eq!(
            exec_ticks(5, 0),
            Err(Error::InvalidParameter(Param::Capacity))
        );
        assert_eq!(exec_ticks(u64::MAX, 1), Err(Error::Overflow));
    }

    #[test]
    fn mul_div_takes_the_wide_path_when_needed() {
        assert_eq!(mul_div(7, 3, 2, false), Some(10));
        assert_eq!(mul_div(7, 3, 2, true), Some(11));
        assert_eq!(mul_div(u64::MAX, 4, 8, false), Some(u64::MAX / 2));
        assert_eq!(mul_div(u64::MAX, 4, 2, false), None);
        assert_eq!(mul_div(1, 1, 0, false), None);
    }

    #[test]
    fn work_done_rounds_down_and_saturates() {
        assert_eq!(work_in(3, 333_333), 0);
        assert_eq!(work_in(3, 333_334), 1);
        assert_eq!(work_in(u64::MAX, u64::MAX), Work::MAX);
    }

    #[test]
    fn float_configuration_is_checked() {
        assert_eq!(ticks_from_secs_f64(1.5, Param::Delay), Ok(1_500_000));
        assert!(ticks_from_secs_f64(-1.0, Param::Delay).is_err());
        assert!(ticks_from_secs_f64(f64::NAN, Param::Delay).is_err());
        assert!(quantity_from_f64(f64::INFINITY, true, Param::Rate).is_err());
        assert_eq!(quantity_from_f64(2.1, true, Param::Rate), Ok(3));
        assert_eq!(quantity_from_f64(2.9, false, Param::Capacity), Ok(2));
    }
}
