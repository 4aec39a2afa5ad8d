//! `qg_bucket`: one guaranteed-service user's (rho, sigma) leaky bucket at one resource
//! ([`qosgate_kernel::bucket`]), with its workload-knowledge mode (`QG_KNOWLEDGE_*`, the codes
//! of `qg_registration`).
//!
//! A gateway keeps one per (user, resource) pair and asks it before handing a task to a
//! scheduler: `qg_bucket_check` says whether a task conforms now, or for how long to withhold it;
//! `qg_bucket_charge` charges a conforming task and writes its receipt (`qg_charge`), which the
//! caller keeps with the task; under a feedback mode, `qg_bucket_feedback` reports the task's
//! real work with that receipt once the resource knows it, and `qg_bucket_withdraw` closes the
//! account of a charged task that was not served in the guaranteed class after all.
//!
//! Units: times and waits in ticks (µs), never decreasing; work in MI; rho in MIPS; the credit in
//! instructions (`MI x 10^6`, or `MIPS x ticks`: refill is exact integer arithmetic, and waits are
//! rounded up to whole ticks). Every call is `O(1)`: a check is a few multiplications and, only
//! when the task must wait, one 64-bit division.

use qosgate_kernel::bucket::{Bucket, Charge, Conformance};
use qosgate_kernel::units::{Mips, Ticks, Work};

use crate::instance::{self, storage};
use crate::log::trace;
use crate::scheduler::knowledge;
use crate::status::qg_status::{self, *};

/// Storage for one leaky bucket: declare it `static` (or zero it) and pass it to
/// `qg_bucket_init` with `sizeof`.
#[repr(C, align(8))]
pub struct qg_bucket {
    _opaque: [u8; QG_BUCKET_SIZE],
}

/// Bytes of a `qg_bucket` (the same on 32- and 64-bit targets).
pub const QG_BUCKET_SIZE: usize = 72;

storage!(qg_bucket[QG_BUCKET_SIZE] holds Bucket, tag b"qgbuckt1");

/// A bucket's contract (kokkinos2009 Eq. 3, Sec. 4.2): what a user agreed for one resource.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct qg_bucket_config {
    /// Rate rho, MIPS, `>= 1`.
    pub rho: u64,
    /// Burst sigma, MI, `>= imax` (and at most about 9.2e12).
    pub sigma: u64,
    /// Largest task, MI, `1 ..= 2^39`.
    pub imax: u64,
    /// `QG_KNOWLEDGE_*`: what is charged at submission (see `qg_bucket_charge`).
    pub knowledge: u32,
    /// The window n of `QG_KNOWLEDGE_WINDOW`, `>= 1` (ignored otherwise).
    pub window: u16,
}

/// The task conforms now: `qg_bucket_charge` accepts it.
pub const QG_CONFORMANCE_NOW: u32 = 0;
/// The task conforms after `wait` ticks, barring feedback (the T of Eq. 6).
pub const QG_CONFORMANCE_AFTER: u32 = 1;
/// The task waits for feedback on an outstanding task (`QG_KNOWLEDGE_WINDOW` only).
pub const QG_CONFORMANCE_ON_FEEDBACK: u32 = 2;

/// What `qg_bucket_check` found.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct qg_conformance {
    /// `QG_CONFORMANCE_*`.
    pub kind: u32,
    /// `QG_CONFORMANCE_AFTER`: ticks (µs) from the check's `now` until the task conforms,
    /// rounded up; 0 otherwise.
    pub wait: u64,
}

impl From<Conformance> for qg_conformance {
    fn from(c: Conformance) -> Self {
        let (kind, wait) = match c {
            Conformance::Now => (QG_CONFORMANCE_NOW, 0),
            Conformance::After(t) => (QG_CONFORMANCE_AFTER, t.get()),
            Conformance::OnFeedback => (QG_CONFORMANCE_ON_FEEDBACK, 0),
        };
        Self { kind, wait }
    }
}

/// The receipt of a charge, written by `qg_bucket_charge`: keep it with the task, unchanged, and
/// pass it to `qg_bucket_feedback` or `qg_bucket_withdraw` once (under `EXACT` and
/// `CONSERVATIVE`, which take no feedback, it may be dropped).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct qg_charge {
    /// Work charged at submission, MI: the task's work (`EXACT`), imax (`CONSERVATIVE`,
    /// `CONSERVATIVE_FEEDBACK`) or 0 (`WINDOW`, `AGGRESSIVE`).
    pub charged: u64,
    /// The bucket's count of charged work just after this charge, MI: a refund for this task is
    /// limited by the work charged after it (the refund rule, see `qg_bucket_feedback`).
    pub mark: u64,
}

impl From<Charge> for qg_charge {
    fn from(c: Charge) -> Self {
        Self {
            charged: c.charged.get(),
            mark: c.mark,
        }
    }
}

impl From<qg_charge> for Charge {
    fn from(c: qg_charge) -> Self {
        Self {
            charged: Work::new(c.charged),
            mark: c.mark,
        }
    }
}

/// Makes `storage` a full bucket (credit sigma) at `now` (ticks) for the contract `*config`.
///
/// Errors: `QG_ERR_NULL` / `QG_ERR_MISALIGNED` for `storage` or `config`; `QG_ERR_SIZE` if
/// `size < QG_BUCKET_SIZE`; `QG_ERR_ARGUMENT` for an unknown knowledge code;
/// `QG_ERR_PARAM_RATE` (zero rho), `QG_ERR_PARAM_MAX_WORK` (zero imax, or above 2^39 MI),
/// `QG_ERR_PARAM_BURST` (sigma below imax, or too large), `QG_ERR_PARAM_WINDOW` (a window of
/// zero). On error nothing is written: storage holding a live bucket still holds it, unchanged,
/// and other storage stays uninitialised.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `storage` must be valid for reads and writes of `size` bytes, zeroed or written by this
/// API; `config` must point to a readable `qg_bucket_config`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_bucket_init(
    storage: *mut qg_bucket,
    size: usize,
    now: u64,
    config: *const qg_bucket_config,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::init(storage, size, |slot| {
            let c = instance::read(config)?;
            let bucket = Bucket::new(
                Ticks::new(now),
                Mips::new(c.rho),
                Work::new(c.sigma),
                Work::new(c.imax),
                knowledge(c.knowledge, c.window)?,
            )?;
            Ok(slot.write(bucket))
        })
    }
}

/// Whether a task of `work` MI conforms at `now` (ticks), written to `*out`: `kind`
/// `QG_CONFORMANCE_NOW`; `QG_CONFORMANCE_AFTER` with `wait`, the ticks (µs) to withhold it
/// (rounded up); or `QG_CONFORMANCE_ON_FEEDBACK`. The bucket does not change.
///
/// Errors: the pointer checks; `QG_ERR_PARAM_WORK` (zero work), `QG_ERR_TASK_TOO_LARGE` (above
/// imax, Eq. 4), `QG_ERR_FULL` (65,535 tasks await feedback), `QG_ERR_TIME_WENT_BACKWARDS`
/// (`now` before the bucket's last `init`, charge or feedback).
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `bucket` as for every call (see docs/firmware.md); `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_bucket_check(
    bucket: *mut qg_bucket,
    now: u64,
    work: u64,
    out: *mut qg_conformance,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::answer(bucket, out, |b: &mut Bucket| {
            let c = b.check(Ticks::new(now), Work::new(work))?;
            trace!("qosgate: bucket check {} MI: {}", work, c);
            Ok(Some(c.into()))
        })
    }
}

/// Charges a task of `work` MI that conforms at `now` (ticks), and writes its receipt to
/// `*receipt` unless that is null: `charged`, the work charged (MI): the task's work (`EXACT`),
/// imax (`CONSERVATIVE`, `CONSERVATIVE_FEEDBACK`) or 0 (`WINDOW`, `AGGRESSIVE`); and `mark`,
/// what the refund rule measures from. Under a feedback mode, keep the receipt with the task for
/// `qg_bucket_feedback` (served) or `qg_bucket_withdraw` (not served in the guaranteed class).
///
/// Errors (the bucket unchanged): the pointer checks; those of `qg_bucket_check`;
/// `QG_ERR_NON_CONFORMING` if the task must wait (ask `qg_bucket_check` how long).
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `bucket` as for every call (see docs/firmware.md); `receipt` null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_bucket_charge(
    bucket: *mut qg_bucket,
    now: u64,
    work: u64,
    receipt: *mut qg_charge,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::report(bucket, receipt, |b: &mut Bucket| {
            let charge = b.charge(Ticks::new(now), Work::new(work))?;
            trace!("qosgate: bucket charged {}", charge);
            Ok(charge.into())
        })
    }
}

/// Reports at `now` (ticks) the real work `actual` (MI) of a task served with the receipt
/// `*receipt` (what `qg_bucket_charge` wrote for it). A real work above the charge is a debt:
/// the credit drops by `actual - charged` and may go negative (later tasks wait until it is
/// repaid). A real work below the charge is a refund, limited by the refund rule: the credit
/// rises by `charged - actual` but not above sigma less the work charged after this task (and
/// never falls), so that it never exceeds what an exact bucket, charging every task its real
/// work, would have: the whole refund when nothing was charged since, none once sigma was.
/// `EXACT` and `CONSERVATIVE` buckets accept and ignore it.
///
/// Errors (the bucket unchanged): the pointer checks (`receipt` is required);
/// `QG_ERR_PARAM_WORK` (zero `actual`: see `qg_bucket_withdraw`); `QG_ERR_UNKNOWN` (no task
/// awaits feedback); `QG_ERR_OVERFLOW` (the correction does not fit);
/// `QG_ERR_TIME_WENT_BACKWARDS`.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `bucket` as for every call (see docs/firmware.md); `receipt` readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_bucket_feedback(
    bucket: *mut qg_bucket,
    now: u64,
    receipt: *const qg_charge,
    actual: u64,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::with(bucket, |b: &mut Bucket| {
            let r = instance::read(receipt)?;
            b.feedback(Ticks::new(now), r.into(), Work::new(actual))?;
            trace!("qosgate: bucket feedback {} MI for {}", actual, r);
            Ok(QG_OK)
        })
    }
}

/// Closes at `now` (ticks) the account of a task charged with the receipt `*receipt` that was
/// not served in the guaranteed class after all (the scheduler refused it, or it was sent best
/// effort): under a feedback mode it is feedback of zero work, so the charge is refunded as far
/// as the refund rule of `qg_bucket_feedback` allows and the task no longer awaits feedback;
/// `EXACT` and `CONSERVATIVE` buckets keep the charge (they take no feedback) and change nothing.
///
/// Errors (the bucket unchanged): the pointer checks (`receipt` is required); `QG_ERR_UNKNOWN`
/// (no task awaits feedback); `QG_ERR_OVERFLOW` (the receipt's charge does not fit);
/// `QG_ERR_TIME_WENT_BACKWARDS`.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `bucket` as for every call (see docs/firmware.md); `receipt` readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_bucket_withdraw(
    bucket: *mut qg_bucket,
    now: u64,
    receipt: *const qg_charge,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::with(bucket, |b: &mut Bucket| {
            let r = instance::read(receipt)?;
            b.withdraw(Ticks::new(now), r.into())?;
            trace!("qosgate: bucket withdrew {}", r);
            Ok(QG_OK)
        })
    }
}

/// The credit at `now` (ticks), in instructions (`MI x 10^6`), written to `*instructions`: at
/// most sigma x 10^6; negative while a feedback debt is unpaid. The bucket does not change.
///
/// Errors: the pointer checks; `QG_ERR_TIME_WENT_BACKWARDS`.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `bucket` as for every call (see docs/firmware.md); `instructions` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_bucket_level(
    bucket: *mut qg_bucket,
    now: u64,
    instructions: *mut i64,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::answer(bucket, instructions, |b: &mut Bucket| {
            Ok(Some(b.level(Ticks::new(now))?))
        })
    }
}

/// `J(t)`: the work accounted so far (charges plus feedback corrections), MI, written to
/// `*submitted`.
///
/// Errors: the pointer checks.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `bucket` as for every call (see docs/firmware.md); `submitted` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_bucket_submitted(
    bucket: *mut qg_bucket,
    submitted: *mut u64,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::answer(bucket, submitted, |b: &mut Bucket| {
            Ok(Some(b.submitted().get()))
        })
    }
}

/// The tasks charged under a feedback mode whose real work has not been reported (nor their
/// account withdrawn) yet, written to `*outstanding` (always 0 for `EXACT` and
/// `CONSERVATIVE`).
///
/// Errors: the pointer checks.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `bucket` as for every call (see docs/firmware.md); `outstanding` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_bucket_outstanding(
    bucket: *mut qg_bucket,
    outstanding: *mut u16,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::answer(bucket, outstanding, |b: &mut Bucket| {
            Ok(Some(b.outstanding()))
        })
    }
}
