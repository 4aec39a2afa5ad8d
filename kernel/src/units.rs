//! Units of time, work, capacity and nodes, stated once for the whole crate.
//!
//! | quantity | type | unit | range |
//! | --- | --- | --- | --- |
//! | time instants and durations | [`Ticks`] (newtype over `u64`) | 1 microsecond | 584,000 years |
//! | work, task sizes, bursts (sigma) | [`Work`] (newtype over `u64`) | MI, million instructions | |
//! | capacity, rates (rho, g) | [`Mips`] (newtype over `u64`) | MI per second | |
//! | bucket credit | [`Instructions`] (`i64`) | instructions = MI x 10^6 = MIPS x tick | +- 9.2e18 |
//! | weights | [`Weight`] (`u16`) | dimensionless, `>= 1` | 1 ..= 65,535 |
//! | nodes of a cluster (VMs, processors) | [`Nodes`] (`u32`) | one node | 0 ..= 4,294,967,295 |
//!
//! One MIPS running for one tick does exactly one instruction, so rates times durations are exact
//! integers in [`Instructions`]: the leaky bucket never rounds. Durations of work are rounded *up*
//! (a bound must never be under-estimated); work done in a duration is rounded *down*.
//!
//! A CPU does not round each task's run time on its own: rounding every task up to a whole tick
//! would make a CPU of capacity `C` serve less than `C` (a 1,000 MI task on a 780,000 MIPS CPU,
//! 1,282.05 µs, run as 1,283 µs, is 0.07 % slow, which at a rate equal to the capacity is a
//! backlog growing without end). [`exec_ticks_after`] carries the part of the last tick a task
//! leaves unused over to the task after it, so a CPU busy without a break serves exactly `C`,
//! and each end is the exact end rounded up to its tick.
//!
//! # Newtypes
//! [`Ticks`], [`Work`] and [`Mips`] are `#[repr(transparent)]` newtypes over `u64`, so that
//! passing a rate where a burst is expected (`Bucket::new(now, rho, sigma, imax, ..)` takes four
//! numbers of three units) is a compile error, at no cost in size or speed. Each is built with
//! `new` and read with `get` (the field is private: the representation is not part of the API,
//! and every place that leaves the unit is a visible `get`). They carry only the operations the
//! kernel uses, all explicit about overflow (`checked_*`, `saturating_*`): no `+` or `-` that
//! could wrap silently in a release build. A product or quotient of two units changes the unit,
//! so it is a named function: [`exec_ticks`] (`Work / Mips -> Ticks`, rounded up), [`work_in`]
//! (`Mips x Ticks -> Work`, rounded down) and [`instructions`] (`Work -> Instructions`).
//!
//! One type, [`Ticks`], holds both instants and durations. The kernel has no clock and no epoch:
//! `now` is whatever the caller counts from (boot, the start of a simulation), so an instant is
//! the duration since the caller's origin, and the two share one representation and one range.
//! Splitting them (smoltcp's `Instant` and `Duration`) would mainly guard against adding two
//! instants, which the kernel's code never needs to do, at the price of three mixed operator sets
//! and a second type in every signature that takes both (`earliest_fit(from, nodes, duration)`).
//!
//! Configuration may arrive in floating point (seconds, MIPS); the `*_from_f64` helpers convert it
//! once, at set-up, checking that it is finite and in range. Nothing on a per-task path uses floats.

use core::fmt;
use core::num::NonZeroU64;

use crate::error::{Error, Param};
use crate::wide;

/// Defines a unit: a `#[repr(transparent)]` newtype over `u64` with `ZERO`, `MAX`, `new`, `get`,
/// `Display` with its unit's symbol, and the listed overflow-explicit operations.
macro_rules! unit {
    ($(#[$doc:meta])* $name:ident, $symbol:literal, [$($op:ident),* $(,)?]) => {
        $(#[$doc])*
        #[repr(transparent)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        #[cfg_attr(feature = "defmt", derive(defmt::Format))]
        pub struct $name(u64);

        impl $name {
            /// Zero.
            pub const ZERO: Self = Self(0);
            /// The largest value.
            pub const MAX: Self = Self(u64::MAX);

            #[doc = concat!("A value of `n` ", $symbol, ".")]
            #[inline]
            pub const fn new(n: u64) -> Self {
                Self(n)
            }

            #[doc = concat!("The value, in ", $symbol, ".")]
            #[inline]
            pub const fn get(self) -> u64 {
                self.0
            }

            $(unit!(@op $op);)*
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!("{} ", $symbol), self.0)
            }
        }
    };
    (@op checked_add) => {
        unit!(@checked checked_add, Self, [0], "`self + rhs`, or `None` on overflow.");
    };
    (@op checked_sub) => {
        unit!(@checked checked_sub, Self, [0], "`self - rhs`, or `None` if `rhs` is larger.");
    };
    (@op checked_mul) => {
        unit!(@checked checked_mul, u64, [], "`self` times the count `rhs`, or `None` on overflow.");
    };
    (@op saturating_add) => {
        unit!(@saturating saturating_add, Self, [0], "`self + rhs`, at most `MAX`.");
    };
    (@op saturating_sub) => {
        unit!(@saturating saturating_sub, Self, [0], "`self - rhs`, at least zero.");
    };
    (@op saturating_mul) => {
        unit!(@saturating saturating_mul, u64, [], "`self` times the count `rhs`, at most `MAX`.");
    };
    // `rhs` is another value of the unit (its field `0` is read) or a plain count.
    (@checked $op:ident, $rhs:ty, [$($field:tt)?], $doc:literal) => {
        #[doc = $doc]
        #[inline]
        pub const fn $op(self, rhs: $rhs) -> Option<Self> {
            match self.0.$op(rhs $(.$field)?) {
                Some(n) => Some(Self(n)),
                None => None,
            }
        }
    };
    (@saturating $op:ident, $rhs:ty, [$($field:tt)?], $doc:literal) => {
        #[doc = $doc]
        #[inline]
        pub const fn $op(self, rhs: $rhs) -> Self {
            Self(self.0.$op(rhs $(.$field)?))
        }
    };
}

unit!(
    /// A time instant or a duration, in microseconds (ticks).
    Ticks,
    "µs",
    [checked_add, checked_sub, saturating_add, saturating_sub]
);
unit!(
    /// Computational work, in million instructions (MI).
    Work,
    "MI",
    [checked_add, saturating_add, saturating_sub, checked_mul, saturating_mul]
);
unit!(
    /// Computational capacity or rate, in million instructions per second (MIPS).
    Mips,
    "MIPS",
    [checked_add]
);

impl Ticks {
    /// `secs` whole seconds, saturating at [`Ticks::MAX`] (about 584,000 years).
    #[inline]
    pub const fn from_secs(secs: u64) -> Self {
        Self(secs.saturating_mul(TICKS_PER_SECOND))
    }
}

/// Work in single instructions: the unit of bucket credit (`MI * 10^6`, or `MIPS * ticks`).
pub type Instructions = i64;
/// A share weight; zero is not a weight.
pub type Weight = u16;
/// A number of nodes (VMs, processors) of a cluster.
pub type Nodes = u32;

/// Ticks in one second.
pub const TICKS_PER_SECOND: u64 = 1_000_000;

/// [`TICKS_PER_SECOND`] as a divisor (`1 + (TICKS_PER_SECOND - 1)`: no check that could fail).
const PER_SECOND: NonZeroU64 = NonZeroU64::MIN.saturating_add(TICKS_PER_SECOND - 1);

/// The largest task a resource may declare as its maximum (2^39 MI, about 5.5e11 MI: 244 days of
/// work on one 26,000 MIPS CPU). The limit keeps every finish tag of a queue of `2^8` maximal tasks
/// inside the half-range of the wrap-around virtual clock (see [`crate::vtime`]).
pub const MAX_TASK_WORK: Work = Work(1 << 39);

/// The largest capacity a resource or queue accepts: 2^40 MIPS (about 4e7 times the paper's
/// largest resource). It keeps the fair queue's clock arithmetic in 64 bits.
pub const MAX_CAPACITY: Mips = Mips(1 << 40);

/// Time to execute `work` at `rate`, rounded up to whole ticks.
///
/// Errors: [`Error::InvalidParameter`] (`Param::Capacity`) if `rate` is zero, [`Error::Overflow`]
/// if the duration does not fit in [`Ticks`].
#[inline]
pub fn exec_ticks(work: Work, rate: Mips) -> Result<Ticks, Error> {
    if rate == Mips::ZERO {
        return Err(Error::InvalidParameter(Param::Capacity));
    }
    mul_div(work.0, TICKS_PER_SECOND, rate.0, true)
        .map(Ticks)
        .ok_or(Error::Overflow)
}

/// Time to execute `work` at `rate` on a CPU already `lead` instructions into it (the part of
/// the current tick that the CPU's previous task left unused, below `rate`: zero for a CPU that
/// was idle), rounded up to whole ticks, with the instructions by which that rounding overshoots
/// the exact end: the `lead` of a task started on the same CPU at that end. A task that fits in
/// its lead takes zero ticks.
///
/// Errors: [`Error::InvalidParameter`] (`Param::Capacity`) if `rate` is zero, [`Error::Overflow`]
/// if the duration does not fit in [`Ticks`].
#[inline]
pub fn exec_ticks_after(work: Work, rate: Mips, lead: u64) -> Result<(Ticks, u64), Error> {
    let rate = NonZeroU64::new(rate.0).ok_or(Error::InvalidParameter(Param::Capacity))?;
    // Every task a resource takes (at most 2^39 MI, at most 2^40 MIPS) stays in 64 bits.
    if let Some(need) = work.0.checked_mul(TICKS_PER_SECOND) {
        let Some(need) = need.checked_sub(lead) else {
            // The lead covers it: it ends within the tick, leaving the rest of the lead.
            return Ok((Ticks::ZERO, lead - need));
        };
        let ticks = need.div_ceil(rate.get());
        if let Some(span) = ticks.checked_mul(rate.get()) {
            return Ok((Ticks(ticks), span - need));
        }
    }
    exec_ticks_after_wide(work, rate, lead)
}

/// [`exec_ticks_after`] in 128 bits, for products beyond `u64`; kept out of line like
/// [`mul_div_wide`].
#[cold]
#[inline(never)]
fn exec_ticks_after_wide(work: Work, rate: NonZeroU64, lead: u64) -> Result<(Ticks, u64), Error> {
    let need = u128::from(work.0) * u128::from(TICKS_PER_SECOND);
    let Some(need) = need.checked_sub(u128::from(lead)) else {
        return Ok((Ticks::ZERO, (u128::from(lead) - need) as u64));
    };
    let (whole, part) = wide::div_rem(need, rate).ok_or(Error::Overflow)?;
    if part == 0 {
        return Ok((Ticks(whole), 0));
    }
    // The last tick is part-used: `rate - part` of it is left over.
    let ticks = whole.checked_add(1).ok_or(Error::Overflow)?;
    Ok((Ticks(ticks), rate.get() - part))
}

/// Work done in `ticks` at `rate` by a CPU that was `lead` instructions into the task already
/// (see [`exec_ticks_after`]), rounded down to whole MI (saturating at [`Work::MAX`]).
#[inline]
pub fn work_in(rate: Mips, ticks: Ticks, lead: u64) -> Work {
    let instr = u128::from(rate.0) * u128::from(ticks.0) + u128::from(lead);
    Work(wide::div_saturating(instr, PER_SECOND))
}

/// `work` expressed in instructions. Errors: [`Error::Overflow`] above about 9.2e12 MI.
#[inline]
pub fn instructions(work: Work) -> Result<Instructions, Error> {
    work.0
        .checked_mul(TICKS_PER_SECOND)
        .and_then(|i| Instructions::try_from(i).ok())
        .ok_or(Error::Overflow)
}

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

/// [`mul_div`]'s 128-bit path, through the kernel's one long division ([`wide`]); kept out of
/// line, as this path is rare.
#[cold]
#[inline(never)]
fn mul_div_wide(a: u64, b: u64, d: NonZeroU64, up: bool) -> Option<u64> {
    let (q, r) = wide::div_rem(u128::from(a) * u128::from(b), d)?;
    if up && r != 0 {
        q.checked_add(1)
    } else {
        Some(q)
    }
}

/// Seconds (floating point, from configuration) to ticks, rounded up.
///
/// Errors: [`Error::InvalidParameter`] with `param` if `secs` is negative, not finite, or too large.
pub fn ticks_from_secs_f64(secs: f64, param: Param) -> Result<Ticks, Error> {
    let ticks = libm::ceil(secs * TICKS_PER_SECOND as f64);
    to_u64(ticks, param).map(Ticks)
}

/// A floating-point quantity (MI, MIPS) from configuration to an integer, rounding in the
/// direction `up` says: up for demands (a user's rho, sigma, maximum task), down for supplies (a
/// resource's capacity), so that conversion never makes a guarantee look better than it is. The
/// caller names the unit: `Work::new(quantity_from_f64(..)?)`, `Mips::new(..)`.
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
        let exec = |w, r| exec_ticks(Work::new(w), Mips::new(r)).map(Ticks::get);
        assert_eq!(exec(419_900_000, 780_000), Ok(538_333_334));
        assert_eq!(exec(1, 3), Ok(333_334));
        assert_eq!(exec(0, 3), Ok(0));
        assert_eq!(exec(5, 0), Err(Error::InvalidParameter(Param::Capacity)));
        assert_eq!(exec(u64::MAX, 1), Err(Error::Overflow));
    }

    /// Back to back, a CPU serves exactly its capacity: 10,000 tasks of 1,000 MI at 780,000 MIPS
    /// end at 12,820,513 µs (12,820,512.8 exact, rounded up), not 10,000 x 1,283 µs.
    #[test]
    fn back_to_back_tasks_carry_the_unused_part_of_a_tick() {
        let (work, rate) = (Work::new(1_000), Mips::new(780_000));
        let (mut now, mut lead) = (Ticks::ZERO, 0);
        for _ in 0..10_000 {
            let (d, over) = exec_ticks_after(work, rate, lead).unwrap();
            assert!(over < rate.get());
            now = now.checked_add(d).unwrap();
            lead = over;
        }
        assert_eq!(now, Ticks::new(12_820_513));
        assert_eq!(
            exec_ticks_after(work, rate, 0),
            Ok((Ticks::new(1_283), 740_000))
        );
        // A task inside its lead ends in the same tick.
        assert_eq!(
            exec_ticks_after(Work::new(1), Mips::new(3_000_000), 2_500_000),
            Ok((Ticks::ZERO, 1_500_000))
        );
        assert_eq!(
            exec_ticks_after(work, Mips::ZERO, 0),
            Err(Error::InvalidParameter(Param::Capacity))
        );
        assert_eq!(
            exec_ticks_after(Work::MAX, Mips::new(1), 0),
            Err(Error::Overflow)
        );
    }

    #[test]
    fn mul_div_takes_the_wide_path_when_needed() {
        assert_eq!(mul_div(7, 3, 2, false), Some(10));
        assert_eq!(mul_div(7, 3, 2, true), Some(11));
        assert_eq!(mul_div(u64::MAX, 4, 8, false), Some(u64::MAX / 2));
        assert_eq!(mul_div(u64::MAX, 4, 2, false), None);
        assert_eq!(mul_div(1, 1, 0, false), None);
    }

    proptest::proptest! {
        /// Both paths, 64-bit and wide (work above about 1.8e13 MI), end a task where its
        /// instructions end, rounded up to a tick: `ticks rate - over = work 10^6 - lead`,
        /// `over < rate` (or the lead covers it, or the ticks overflow).
        #[test]
        fn a_task_ends_in_the_tick_its_instructions_end(
            work: u64, rate in 1u64..=MAX_CAPACITY.get(), lead_part: u64, shift in 0u32..64
        ) {
            let work = work >> shift;
            let lead = lead_part % rate;
            let need = u128::from(work) * u128::from(TICKS_PER_SECOND);
            match exec_ticks_after(Work::new(work), Mips::new(rate), lead) {
                Ok((ticks, over)) if need <= u128::from(lead) => {
                    proptest::prop_assert_eq!((ticks, u128::from(over)), (Ticks::ZERO, u128::from(lead) - need));
                }
                Ok((ticks, over)) => {
                    proptest::prop_assert!(over < rate);
                    proptest::prop_assert_eq!(
                        u128::from(ticks.get()) * u128::from(rate) - u128::from(over),
                        need - u128::from(lead)
                    );
                }
                Err(e) => {
                    proptest::prop_assert_eq!(e, Error::Overflow);
                    proptest::prop_assert!((need - u128::from(lead)).div_ceil(u128::from(rate)) > u128::from(u64::MAX));
                }
            }
        }

        #[test]
        fn mul_div_agrees_with_the_128_bit_division(a: u64, b: u64, d in 1u64.., up: bool) {
            let p = u128::from(a) * u128::from(b);
            let q = if up { p.div_ceil(u128::from(d)) } else { p / u128::from(d) };
            proptest::prop_assert_eq!(mul_div(a, b, d, up), u64::try_from(q).ok());
        }
    }

    #[test]
    fn per_second_is_the_ticks_of_a_second() {
        assert_eq!(PER_SECOND.get(), TICKS_PER_SECOND);
    }

    #[test]
    fn work_done_rounds_down_and_saturates() {
        let done = |r, t| work_in(Mips::new(r), Ticks::new(t), 0).get();
        assert_eq!(done(3, 333_333), 0);
        assert_eq!(done(3, 333_334), 1);
        assert_eq!(work_in(Mips::MAX, Ticks::MAX, 0), Work::MAX);
        assert_eq!(work_in(Mips::new(3), Ticks::new(333_333), 1).get(), 1);
    }

    #[test]
    fn units_convert_and_print_with_their_symbols() {
        assert_eq!(Ticks::from_secs(3), Ticks::new(3 * TICKS_PER_SECOND));
        assert_eq!(Ticks::from_secs(u64::MAX), Ticks::MAX);
        assert_eq!(instructions(Work::new(2)), Ok(2_000_000));
        assert_eq!(instructions(Work::MAX), Err(Error::Overflow));
        extern crate std;
        use std::string::ToString;
        assert_eq!(Ticks::new(5).to_string(), "5 µs");
        assert_eq!(Work::new(6).to_string(), "6 MI");
        assert_eq!(Mips::new(7).to_string(), "7 MIPS");
    }

    #[test]
    fn float_configuration_is_checked() {
        assert_eq!(
            ticks_from_secs_f64(1.5, Param::Delay),
            Ok(Ticks::new(1_500_000))
        );
        assert!(ticks_from_secs_f64(-1.0, Param::Delay).is_err());
        assert!(ticks_from_secs_f64(f64::NAN, Param::Delay).is_err());
        assert!(quantity_from_f64(f64::INFINITY, true, Param::Rate).is_err());
        assert_eq!(quantity_from_f64(2.1, true, Param::Rate), Ok(3));
        assert_eq!(quantity_from_f64(2.9, false, Param::Capacity), Ok(2));
    }
}
