//! The crate's errors, and the one rule that says which call returns which.
//!
//! # The rule
//! - The **state machines** ([`crate::bucket`], [`crate::registry`], [`crate::fairq`],
//!   [`crate::resource`], [`crate::meta`], [`crate::slots`], [`crate::backfill`],
//!   [`crate::lease`], [`crate::lease::preempt`]) return [`Error`]: their causes are shared (a full
//!   structure, an unknown handle, an overflow, time going backwards, a bad parameter named by
//!   [`Param`], ...). A call handed an item to store (a task, a request) that it cannot store
//!   returns the item inside [`Refused`], so nothing is lost.
//! - The **configuration-time solvers** ([`crate::allocate`], [`crate::broker`], the set-up of
//!   [`crate::dispatch`]) each return their own enum ([`PapError`], [`BrokerError`],
//!   [`DispatchError`]) for the causes that are theirs: a saturated cluster, an overloaded
//!   broker, `eta <= 0`, an unstable provider, a request type of share zero, moments no
//!   distribution has, no convergence. Every problem with the shape or the value of **one
//!   input** (an empty or too long list, lists of different lengths, a value that is not
//!   finite, negative, zero where it must be positive, or out of its range) is one shared type,
//!   [`Invalid`], that names the input (with its index) and the [`Problem`]; each solver's enum
//!   wraps it as one variant, `Invalid`. The solvers check their inputs through one small
//!   shared module (`check`), never their own copies.
//!
//! Every error type is small, `Copy`, `Display`, [`core::error::Error`], and `defmt::Format`
//! under the `defmt` feature. Nothing is half-applied when one is returned.
//!
//! [`PapError`]: crate::allocate::PapError
//! [`BrokerError`]: crate::broker::BrokerError
//! [`DispatchError`]: crate::dispatch::DispatchError

use core::fmt;

/// Why a kernel call did not do what was asked. Nothing is half-applied when one is returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Error {
    /// A fixed-capacity structure is full: a queue, a table, or a resource's flow slots
    /// (`max_flows` users registered).
    Full,
    /// The handle names no registered user, flow or CPU.
    Unknown,
    /// A parameter is zero, out of range or inconsistent; the variant names it.
    InvalidParameter(Param),
    /// An intermediate result does not fit its integer type.
    Overflow,
    /// `now` is earlier than a time the structure has already seen.
    TimeWentBackwards,
    /// Eq. 1 would fail: some registered user's rho would exceed its share g after this change.
    RateExceedsShare,
    /// Eq. 2 or Eq. 4: the task or declared maximum exceeds what the resource or registration accepts.
    TaskTooLarge,
    /// The task does not conform to the leaky bucket now (see [`crate::bucket::Conformance`]).
    NonConforming,
    /// Full aggressive submission gives no deterministic delay bound (kokkinos2009 Sec. 4.2).
    NoBound,
    /// Eq. 7: the delay bound exceeds the task's deadline.
    DeadlineUnmet,
    /// The resource type does not serve this class of task (a GS task at a BE resource, ...).
    WrongClass,
    /// The CPU named runs no task.
    Idle,
    /// The flow or user still has queued or running work.
    Busy,
    /// A slot table has fewer free nodes than asked at some instant of the interval.
    NotFree,
    /// A slot table has fewer nodes reserved (or down) than a release (or repair) gives back.
    NotReserved,
}

/// The parameter an [`Error::InvalidParameter`] refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Param {
    /// A capacity (MIPS) is zero or the CPU list is empty or too long.
    Capacity,
    /// A weight is zero.
    Weight,
    /// A rate rho is zero or larger than the capacity.
    Rate,
    /// A burst sigma is smaller than the maximum task it must carry.
    Burst,
    /// A maximum task size is zero or above [`crate::units::MAX_TASK_WORK`].
    MaxWork,
    /// A task's work is zero.
    Work,
    /// An n-window of zero tasks.
    Window,
    /// A delay or duration from configuration.
    Delay,
    /// A flow limit is zero or above the structure's capacity.
    Flows,
}

/// An item a call could not take, handed back with the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Refused<T> {
    /// Why the item was not taken.
    pub reason: Error,
    /// The item, unchanged.
    pub item: T,
}

/// What is wrong with one input of a configuration-time solver (see the module's rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Problem {
    /// A list has no entry.
    Empty,
    /// A list has more entries than the solver's capacity.
    TooMany,
    /// A list does not have one entry per entry of the list it goes with.
    LengthMismatch,
    /// A value is NaN or infinite.
    NotFinite,
    /// A value is below zero.
    Negative,
    /// A value is zero where it must be positive (a negative one is [`Problem::Negative`]).
    NotPositive,
    /// A value is outside the range its input's documentation states.
    OutOfRange,
}

/// One input of a configuration-time solver that has the wrong shape or value: `input` (the
/// solver's own `Input` enum, which carries the cluster, provider or request-type index) and
/// what is wrong with it. Each solver's error wraps it as its `Invalid` variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Invalid<I> {
    /// The input, as the solver names it.
    pub input: I,
    /// What is wrong with it.
    pub problem: Problem,
}

/// `impl From<Invalid<$input>> for $error`: the solver error `$error` wraps its inputs'
/// problems as its `Invalid` variant, so its checks can use `?`.
macro_rules! wraps_invalid {
    ($error:ty, $input:ty) => {
        impl From<crate::error::Invalid<$input>> for $error {
            fn from(e: crate::error::Invalid<$input>) -> Self {
                Self::Invalid(e)
            }
        }
    };
}
pub(crate) use wraps_invalid;

impl<T> Refused<T> {
    pub(crate) fn new(reason: Error, item: T) -> Self {
        Self { reason, item }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Full => f.write_str("capacity full (queue, table or flow slots)"),
            Error::Unknown => f.write_str("unknown user, flow or CPU handle"),
            Error::InvalidParameter(p) => write!(f, "invalid parameter: {p}"),
            Error::Overflow => f.write_str("arithmetic overflow"),
            Error::TimeWentBackwards => f.write_str("time went backwards"),
            Error::RateExceedsShare => {
                f.write_str("rate rho would exceed the guaranteed share g (Eq. 1)")
            }
            Error::TaskTooLarge => f.write_str("task larger than the agreed maximum (Eq. 2/4)"),
            Error::NonConforming => f.write_str("task does not conform to (rho, sigma) now"),
            Error::NoBound => f.write_str("full aggressive submission has no delay bound"),
            Error::DeadlineUnmet => f.write_str("delay bound exceeds the deadline (Eq. 7)"),
            Error::WrongClass => f.write_str("resource type does not serve this task class"),
            Error::Idle => f.write_str("CPU runs no task"),
            Error::Busy => f.write_str("flow or user still has queued or running work"),
            Error::NotFree => f.write_str("not enough free nodes over the interval"),
            Error::NotReserved => {
                f.write_str("releasing more nodes than are reserved (or down) over the interval")
            }
        }
    }
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Param::Capacity => "capacity",
            Param::Weight => "weight",
            Param::Rate => "rate rho",
            Param::Burst => "burst sigma",
            Param::MaxWork => "maximum task work",
            Param::Work => "task work",
            Param::Window => "window n",
            Param::Delay => "delay",
            Param::Flows => "flow limit",
        })
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Problem::Empty => "is empty",
            Problem::TooMany => "has more entries than the capacity",
            Problem::LengthMismatch => "has the wrong number of entries",
            Problem::NotFinite => "is not finite",
            Problem::Negative => "is negative",
            Problem::NotPositive => "is zero (it must be positive)",
            Problem::OutOfRange => "is out of range",
        })
    }
}

impl<I: fmt::Display> fmt::Display for Invalid<I> {
    /// The input and its problem: `cluster 2: theta is not finite`; a list (named in the
    /// plural) `no clusters`, `more clusters than the solver's capacity`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let input = &self.input;
        match self.problem {
            Problem::Empty => write!(f, "no {input}"),
            Problem::TooMany => write!(f, "more {input} than the solver's capacity"),
            Problem::LengthMismatch => write!(f, "{input}: wrong number of entries"),
            problem => write!(f, "{input} {problem}"),
        }
    }
}

impl<T> fmt::Display for Refused<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "refused: {}", self.reason)
    }
}

impl core::error::Error for Error {}
impl core::error::Error for Problem {}
impl<I: fmt::Debug + fmt::Display> core::error::Error for Invalid<I> {}
impl<T: fmt::Debug> core::error::Error for Refused<T> {}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::string::ToString;

    #[test]
    fn an_invalid_input_says_which_and_what() {
        for (input, problem, text) in [
            ("clusters", Problem::Empty, "no clusters"),
            (
                "clusters",
                Problem::TooMany,
                "more clusters than the solver's capacity",
            ),
            (
                "loads",
                Problem::LengthMismatch,
                "loads: wrong number of entries",
            ),
            ("theta", Problem::NotFinite, "theta is not finite"),
            ("mu", Problem::Negative, "mu is negative"),
            (
                "arrival rate",
                Problem::NotPositive,
                "arrival rate is zero (it must be positive)",
            ),
            ("P_1", Problem::OutOfRange, "P_1 is out of range"),
        ] {
            assert_eq!(Invalid { input, problem }.to_string(), text);
        }
    }
}
