//! `qg_status`: what every function of the C API returns.
//!
//! `QG_OK` (0) is success; `QG_NONE` (1) is success with nothing to report (no decision now, no
//! fit); every negative value is an error, after which nothing has changed (the kernel applies
//! nothing half-way, and the checks of this crate run before any call into the kernel).
//!
//! | codes | cause |
//! | --- | --- |
//! | -1 ..= -5 | the caller's side of the contract, as far as it can be checked (see docs/firmware.md) |
//! | -10 ..= -23 | [`Error`], one per variant |
//! | -30 ..= -38 | [`Error::InvalidParameter`], one per [`Param`] |
//! | -40 ..= -54 | [`PapError`]: its own causes, and its [`Invalid`] inputs by input and [`Problem`] (the offending cluster is not reported) |
//! | -60 ..= -73 | [`DispatchError`]: likewise (the offending index is not reported) |
//!
//! Codes never change meaning; new ones take new values. [`qg_status_str`] names any code. The
//! kernel's solvers report a bad input as the shared [`Invalid`] (input, problem); the codes
//! predate that and keep their meaning: each maps an (input, problem) pair to the code the same
//! input had before.

use core::ffi::{CStr, c_char};

use qosgate_kernel::allocate::{self, PapError};
use qosgate_kernel::dispatch::{self, DispatchError};
use qosgate_kernel::{Error, Invalid, Param, Problem};

use crate::log::trace;

/// The outcome of a call: 0 success, 1 success with nothing to report, negative an error.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum qg_status {
    /// Success.
    QG_OK = 0,
    /// Success, nothing to report: no decision now, no fit, no running task.
    QG_NONE = 1,
    /// A required pointer is null.
    QG_ERR_NULL = -1,
    /// A pointer is not aligned for its type.
    QG_ERR_MISALIGNED = -2,
    /// The storage size passed to `init` is smaller than the object's.
    QG_ERR_SIZE = -3,
    /// The storage holds no object of this type: never initialised, or its `init` failed.
    QG_ERR_UNINITIALISED = -4,
    /// An enumeration code (kind, discipline, knowledge, policy) is out of range.
    QG_ERR_ARGUMENT = -5,
    /// A fixed-capacity structure is full.
    QG_ERR_FULL = -10,
    /// The handle names no registered user, flow, CPU or job (or, for bucket feedback, no task
    /// awaits it).
    QG_ERR_UNKNOWN = -11,
    /// An intermediate result does not fit its integer type.
    QG_ERR_OVERFLOW = -12,
    /// `now` is earlier than a time the object has already seen.
    QG_ERR_TIME_WENT_BACKWARDS = -13,
    /// Eq. 1 would fail: some user's rho would exceed its share g.
    QG_ERR_RATE_EXCEEDS_SHARE = -14,
    /// The task or declared maximum exceeds what the resource or registration accepts.
    QG_ERR_TASK_TOO_LARGE = -15,
    /// The task does not conform to its leaky bucket now.
    QG_ERR_NON_CONFORMING = -16,
    /// No deterministic delay bound: full aggressive submission, or a registration that admits
    /// tasks above its maximum.
    QG_ERR_NO_BOUND = -17,
    /// The delay bound exceeds the task's deadline.
    QG_ERR_DEADLINE_UNMET = -18,
    /// The resource type does not serve this class of task.
    QG_ERR_WRONG_CLASS = -19,
    /// The CPU named runs no task.
    QG_ERR_IDLE = -20,
    /// The flow or user still has queued or running work; or the object is running a callback,
    /// and this call on it comes from inside that callback.
    QG_ERR_BUSY = -21,
    /// Fewer free nodes than asked at some instant of the interval.
    QG_ERR_NOT_FREE = -22,
    /// Fewer nodes reserved (or down) than a release (or repair) gives back.
    QG_ERR_NOT_RESERVED = -23,
    /// A capacity is zero, or the CPU list empty or too long.
    QG_ERR_PARAM_CAPACITY = -30,
    /// A weight is zero.
    QG_ERR_PARAM_WEIGHT = -31,
    /// A rate rho is zero or larger than the capacity.
    QG_ERR_PARAM_RATE = -32,
    /// A burst sigma is smaller than the maximum task.
    QG_ERR_PARAM_BURST = -33,
    /// A maximum task size is zero or too large.
    QG_ERR_PARAM_MAX_WORK = -34,
    /// A task's work is zero.
    QG_ERR_PARAM_WORK = -35,
    /// An n-window of zero tasks.
    QG_ERR_PARAM_WINDOW = -36,
    /// A delay or duration is zero or out of range (an empty interval).
    QG_ERR_PARAM_DELAY = -37,
    /// A flow limit is zero or above the structure's capacity.
    QG_ERR_PARAM_FLOWS = -38,
    /// PAP: no clusters.
    QG_ERR_PAP_NO_CLUSTERS = -40,
    /// PAP: more clusters than `QG_MAX_CLUSTERS`.
    QG_ERR_PAP_TOO_MANY_CLUSTERS = -41,
    /// PAP: slices of different lengths.
    QG_ERR_PAP_LENGTH_MISMATCH = -42,
    /// PAP: an input is NaN or infinite.
    QG_ERR_PAP_NOT_FINITE = -43,
    /// PAP: an input is negative.
    QG_ERR_PAP_NEGATIVE = -44,
    /// PAP: epsilon outside `[1e-12, 0.5]`.
    QG_ERR_PAP_EPSILON = -45,
    /// PAP: a theta is zero.
    QG_ERR_PAP_THETA_ZERO = -46,
    /// PAP: omega < theta^2 for some cluster.
    QG_ERR_PAP_OMEGA_BELOW_THETA_SQUARED = -47,
    /// PAP: mu < tau^2 for some cluster.
    QG_ERR_PAP_MU_BELOW_TAU_SQUARED = -48,
    /// PAP: local load alone saturates some cluster (tau * local rate >= 1).
    QG_ERR_PAP_SATURATED = -49,
    /// PAP: a cluster's parameters span too many orders of magnitude for `double`.
    QG_ERR_PAP_OUT_OF_RANGE = -50,
    /// PAP: the clusters cannot carry the external rate.
    QG_ERR_PAP_INFEASIBLE = -51,
    /// PAP: a given load makes a cluster unstable.
    QG_ERR_PAP_UNSTABLE = -52,
    /// PAP: the iteration caps were hit.
    QG_ERR_PAP_NO_CONVERGENCE = -53,
    /// PAP: a workload-model parameter is out of range.
    QG_ERR_PAP_INVALID_WORKLOAD = -54,
    /// Dispatch: the probability list is empty.
    QG_ERR_DISPATCH_NO_CLUSTERS = -60,
    /// Dispatch: more clusters than `QG_MAX_CLUSTERS`.
    QG_ERR_DISPATCH_TOO_MANY_CLUSTERS = -61,
    /// Dispatch: a probability is NaN or infinite.
    QG_ERR_DISPATCH_PROBABILITY_NOT_FINITE = -62,
    /// Dispatch: a probability is negative.
    QG_ERR_DISPATCH_PROBABILITY_NEGATIVE = -63,
    /// Dispatch: every probability is zero.
    QG_ERR_DISPATCH_ALL_PROBABILITIES_ZERO = -64,
    /// Dispatch: a probability is positive but below 2^-30 of the total.
    QG_ERR_DISPATCH_PROBABILITY_TOO_SMALL = -65,
    /// Dispatch: the fastest cluster's index is out of range.
    QG_ERR_DISPATCH_FASTEST_OUT_OF_RANGE = -66,
    /// Dispatch: the share list is empty.
    QG_ERR_DISPATCH_NO_TYPES = -67,
    /// Dispatch: more request types than `QG_MAX_REQUEST_TYPES`.
    QG_ERR_DISPATCH_TOO_MANY_TYPES = -68,
    /// Dispatch: a share is NaN or infinite.
    QG_ERR_DISPATCH_SHARE_NOT_FINITE = -69,
    /// Dispatch: a share is negative.
    QG_ERR_DISPATCH_SHARE_NEGATIVE = -70,
    /// Dispatch: every share is zero.
    QG_ERR_DISPATCH_ALL_SHARES_ZERO = -71,
    /// Dispatch: the request type is out of range.
    QG_ERR_DISPATCH_UNKNOWN_TYPE = -72,
    /// Dispatch: the request type's share is zero, so no cluster can be picked.
    QG_ERR_DISPATCH_ZERO_SHARE = -73,
}

use qg_status::*;

impl From<Error> for qg_status {
    fn from(e: Error) -> Self {
        trace!("qosgate: refused: {}", e);
        match e {
            Error::Full => QG_ERR_FULL,
            Error::Unknown => QG_ERR_UNKNOWN,
            Error::InvalidParameter(p) => match p {
                Param::Capacity => QG_ERR_PARAM_CAPACITY,
                Param::Weight => QG_ERR_PARAM_WEIGHT,
                Param::Rate => QG_ERR_PARAM_RATE,
                Param::Burst => QG_ERR_PARAM_BURST,
                Param::MaxWork => QG_ERR_PARAM_MAX_WORK,
                Param::Work => QG_ERR_PARAM_WORK,
                Param::Window => QG_ERR_PARAM_WINDOW,
                Param::Delay => QG_ERR_PARAM_DELAY,
                Param::Flows => QG_ERR_PARAM_FLOWS,
            },
            Error::Overflow => QG_ERR_OVERFLOW,
            Error::TimeWentBackwards => QG_ERR_TIME_WENT_BACKWARDS,
            Error::RateExceedsShare => QG_ERR_RATE_EXCEEDS_SHARE,
            Error::TaskTooLarge => QG_ERR_TASK_TOO_LARGE,
            Error::NonConforming => QG_ERR_NON_CONFORMING,
            Error::NoBound => QG_ERR_NO_BOUND,
            Error::DeadlineUnmet => QG_ERR_DEADLINE_UNMET,
            Error::WrongClass => QG_ERR_WRONG_CLASS,
            Error::Idle => QG_ERR_IDLE,
            Error::Busy => QG_ERR_BUSY,
            Error::NotFree => QG_ERR_NOT_FREE,
            Error::NotReserved => QG_ERR_NOT_RESERVED,
        }
    }
}

impl From<PapError> for qg_status {
    fn from(e: PapError) -> Self {
        trace!("qosgate: PAP refused: {}", e);
        match e {
            PapError::Invalid(i) => pap_input(i),
            PapError::OmegaBelowThetaSquared { .. } => QG_ERR_PAP_OMEGA_BELOW_THETA_SQUARED,
            PapError::MuBelowTauSquared { .. } => QG_ERR_PAP_MU_BELOW_TAU_SQUARED,
            PapError::Saturated { .. } => QG_ERR_PAP_SATURATED,
            PapError::OutOfRange { .. } => QG_ERR_PAP_OUT_OF_RANGE,
            PapError::Infeasible => QG_ERR_PAP_INFEASIBLE,
            PapError::Unstable { .. } => QG_ERR_PAP_UNSTABLE,
            PapError::NoConvergence => QG_ERR_PAP_NO_CONVERGENCE,
            PapError::AllSpeedsZero | PapError::Overflow => QG_ERR_PAP_INVALID_WORKLOAD,
        }
    }
}

/// The code of a bad PAP input: the list's length, epsilon, a zero theta and the workload
/// helpers' inputs have their own codes; any other value is not finite or negative.
fn pap_input(e: Invalid<allocate::Input>) -> qg_status {
    use allocate::Input;
    match (e.input, e.problem) {
        (Input::Clusters, Problem::Empty) => QG_ERR_PAP_NO_CLUSTERS,
        (Input::Clusters, _) => QG_ERR_PAP_TOO_MANY_CLUSTERS,
        (Input::LambdaHats, _) => QG_ERR_PAP_LENGTH_MISMATCH,
        (Input::Epsilon, _) => QG_ERR_PAP_EPSILON,
        (Input::Theta(_), Problem::NotPositive) => QG_ERR_PAP_THETA_ZERO,
        (input, _) if input.is_workload() => QG_ERR_PAP_INVALID_WORKLOAD,
        (_, Problem::NotFinite) => QG_ERR_PAP_NOT_FINITE,
        (_, _) => QG_ERR_PAP_NEGATIVE,
    }
}

impl From<DispatchError> for qg_status {
    fn from(e: DispatchError) -> Self {
        trace!("qosgate: dispatch refused: {}", e);
        match e {
            DispatchError::Invalid(i) => dispatch_input(i),
            DispatchError::AllProbabilitiesZero => QG_ERR_DISPATCH_ALL_PROBABILITIES_ZERO,
            DispatchError::ProbabilityTooSmall(_) => QG_ERR_DISPATCH_PROBABILITY_TOO_SMALL,
            DispatchError::AllSharesZero => QG_ERR_DISPATCH_ALL_SHARES_ZERO,
            DispatchError::UnknownType => QG_ERR_DISPATCH_UNKNOWN_TYPE,
            DispatchError::ZeroShare => QG_ERR_DISPATCH_ZERO_SHARE,
        }
    }
}

/// The code of a bad dispatcher input: a list is empty or too long, a value is not finite or
/// negative, the fastest cluster is out of range.
fn dispatch_input(e: Invalid<dispatch::Input>) -> qg_status {
    use dispatch::Input;
    match (e.input, e.problem) {
        (Input::Probabilities, Problem::Empty) => QG_ERR_DISPATCH_NO_CLUSTERS,
        (Input::Probabilities, _) => QG_ERR_DISPATCH_TOO_MANY_CLUSTERS,
        (Input::Probability(_), Problem::NotFinite) => QG_ERR_DISPATCH_PROBABILITY_NOT_FINITE,
        (Input::Probability(_), _) => QG_ERR_DISPATCH_PROBABILITY_NEGATIVE,
        (Input::Fastest, _) => QG_ERR_DISPATCH_FASTEST_OUT_OF_RANGE,
        (Input::Shares, Problem::Empty) => QG_ERR_DISPATCH_NO_TYPES,
        (Input::Shares, _) => QG_ERR_DISPATCH_TOO_MANY_TYPES,
        (Input::Share(_), Problem::NotFinite) => QG_ERR_DISPATCH_SHARE_NOT_FINITE,
        (Input::Share(_), _) => QG_ERR_DISPATCH_SHARE_NEGATIVE,
    }
}

/// A kernel call's outcome as a status: `QG_OK`, or the error's code.
pub(crate) fn done<E: Into<qg_status>>(r: Result<(), E>) -> qg_status {
    r.map_or_else(Into::into, |()| QG_OK)
}

/// The name of status `code` (`"QG_ERR_FULL"`, ...), or `"QG_UNKNOWN_STATUS"` for a value that
/// is no status. The string is static and NUL-terminated.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; reentrant (no object).
#[unsafe(no_mangle)]
pub extern "C" fn qg_status_str(code: i32) -> *const c_char {
    name(code).as_ptr()
}

fn name(code: i32) -> &'static CStr {
    match code {
        0 => c"QG_OK",
        1 => c"QG_NONE",
        -1 => c"QG_ERR_NULL",
        -2 => c"QG_ERR_MISALIGNED",
        -3 => c"QG_ERR_SIZE",
        -4 => c"QG_ERR_UNINITIALISED",
        -5 => c"QG_ERR_ARGUMENT",
        -10 => c"QG_ERR_FULL",
        -11 => c"QG_ERR_UNKNOWN",
        -12 => c"QG_ERR_OVERFLOW",
        -13 => c"QG_ERR_TIME_WENT_BACKWARDS",
        -14 => c"QG_ERR_RATE_EXCEEDS_SHARE",
        -15 => c"QG_ERR_TASK_TOO_LARGE",
        -16 => c"QG_ERR_NON_CONFORMING",
        -17 => c"QG_ERR_NO_BOUND",
        -18 => c"QG_ERR_DEADLINE_UNMET",
        -19 => c"QG_ERR_WRONG_CLASS",
        -20 => c"QG_ERR_IDLE",
        -21 => c"QG_ERR_BUSY",
        -22 => c"QG_ERR_NOT_FREE",
        -23 => c"QG_ERR_NOT_RESERVED",
        -30 => c"QG_ERR_PARAM_CAPACITY",
        -31 => c"QG_ERR_PARAM_WEIGHT",
        -32 => c"QG_ERR_PARAM_RATE",
        -33 => c"QG_ERR_PARAM_BURST",
        -34 => c"QG_ERR_PARAM_MAX_WORK",
        -35 => c"QG_ERR_PARAM_WORK",
        -36 => c"QG_ERR_PARAM_WINDOW",
        -37 => c"QG_ERR_PARAM_DELAY",
        -38 => c"QG_ERR_PARAM_FLOWS",
        -40 => c"QG_ERR_PAP_NO_CLUSTERS",
        -41 => c"QG_ERR_PAP_TOO_MANY_CLUSTERS",
        -42 => c"QG_ERR_PAP_LENGTH_MISMATCH",
        -43 => c"QG_ERR_PAP_NOT_FINITE",
        -44 => c"QG_ERR_PAP_NEGATIVE",
        -45 => c"QG_ERR_PAP_EPSILON",
        -46 => c"QG_ERR_PAP_THETA_ZERO",
        -47 => c"QG_ERR_PAP_OMEGA_BELOW_THETA_SQUARED",
        -48 => c"QG_ERR_PAP_MU_BELOW_TAU_SQUARED",
        -49 => c"QG_ERR_PAP_SATURATED",
        -50 => c"QG_ERR_PAP_OUT_OF_RANGE",
        -51 => c"QG_ERR_PAP_INFEASIBLE",
        -52 => c"QG_ERR_PAP_UNSTABLE",
        -53 => c"QG_ERR_PAP_NO_CONVERGENCE",
        -54 => c"QG_ERR_PAP_INVALID_WORKLOAD",
        -60 => c"QG_ERR_DISPATCH_NO_CLUSTERS",
        -61 => c"QG_ERR_DISPATCH_TOO_MANY_CLUSTERS",
        -62 => c"QG_ERR_DISPATCH_PROBABILITY_NOT_FINITE",
        -63 => c"QG_ERR_DISPATCH_PROBABILITY_NEGATIVE",
        -64 => c"QG_ERR_DISPATCH_ALL_PROBABILITIES_ZERO",
        -65 => c"QG_ERR_DISPATCH_PROBABILITY_TOO_SMALL",
        -66 => c"QG_ERR_DISPATCH_FASTEST_OUT_OF_RANGE",
        -67 => c"QG_ERR_DISPATCH_NO_TYPES",
        -68 => c"QG_ERR_DISPATCH_TOO_MANY_TYPES",
        -69 => c"QG_ERR_DISPATCH_SHARE_NOT_FINITE",
        -70 => c"QG_ERR_DISPATCH_SHARE_NEGATIVE",
        -71 => c"QG_ERR_DISPATCH_ALL_SHARES_ZERO",
        -72 => c"QG_ERR_DISPATCH_UNKNOWN_TYPE",
        -73 => c"QG_ERR_DISPATCH_ZERO_SHARE",
        _ => c"QG_UNKNOWN_STATUS",
    }
}
