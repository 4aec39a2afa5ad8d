//! The crate's error type: one small `Copy` enum, a variant per cause.
//!
//! Calls that are handed an item to store (a task) and cannot store it return it inside
//! [`Refused`], so nothing is lost on a full structure or a bad input.

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
    /// Full aggressive submission gives no deterministic delay bound (seed 004 Sec. 4.2).
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

impl<T> fmt::Display for Refused<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "refused: {}", self.reason)
    }
}

impl core::error::Error for Error {}
impl<T: fmt::Debug> core::error::Error for Refused<T> {}
