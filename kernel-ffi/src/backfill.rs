//! `qg_backfill`: one cluster's backfilling scheduler ([`qosgate_kernel::backfill`]): FCFS,
//! EASY, conservative or selective, up to `QG_BACKFILL_JOBS` waiting and running jobs (64, or 16
//! in the small preset: [`crate::config`]).
//!
//! The caller drives it instant by instant, in the kernel's order: `qg_backfill_complete` every
//! job that ends at `now`, `qg_backfill_submit` the arrivals of `now` in (submit, id) order,
//! then `qg_backfill_schedule` once, which reports every job it starts through a callback.
//! Times are ticks (µs). Jobs are named by the caller's id; keep the ids of running jobs
//! distinct. Cost (`Q` waiting jobs, `B <= 130` breakpoints): submit `O(Q + B)`; complete
//! `O(Q + B)`; schedule `O(Q B)` in the worst case, `O(Q + B)` when nothing fits.

use core::ffi::c_void;

use fixed::types::U16F16;
use qosgate_kernel::backfill::{Job, JobId, Policy, Started};
use qosgate_kernel::units::Ticks;

use crate::config::Backfill;
use crate::instance::{self, storage};
use crate::log::trace;
use crate::status::qg_status::{self, *};

/// Storage for one backfilling scheduler: declare it `static` (or zero it) and pass it to
/// `qg_backfill_init` with `sizeof`.
#[repr(C, align(8))]
pub struct qg_backfill {
    _opaque: [u8; QG_BACKFILL_SIZE],
}

/// Bytes of a `qg_backfill` (64-bit targets, reference capacities).
#[cfg(all(target_pointer_width = "64", not(feature = "small")))]
pub const QG_BACKFILL_SIZE: usize = 9664;
/// Bytes of a `qg_backfill` (32-bit targets, reference capacities).
#[cfg(all(target_pointer_width = "32", not(feature = "small")))]
pub const QG_BACKFILL_SIZE: usize = 9648;
/// Bytes of a `qg_backfill` (64-bit targets, small capacities).
#[cfg(all(target_pointer_width = "64", feature = "small"))]
pub const QG_BACKFILL_SIZE: usize = 2560;
/// Bytes of a `qg_backfill` (32-bit targets, small capacities).
#[cfg(all(target_pointer_width = "32", feature = "small"))]
pub const QG_BACKFILL_SIZE: usize = 2544;

storage!(qg_backfill[QG_BACKFILL_SIZE] holds Backfill, tag b"qgbfill1");

/// First come, first served.
pub const QG_POLICY_FCFS: u32 = 0;
/// EASY backfilling: only the head of the queue holds a reservation.
pub const QG_POLICY_EASY: u32 = 1;
/// Conservative backfilling: every waiting job holds a reservation.
pub const QG_POLICY_CONSERVATIVE: u32 = 2;
/// Selective backfilling, with the threshold passed to `qg_backfill_init`.
pub const QG_POLICY_SELECTIVE: u32 = 3;

/// A job as the scheduler sees it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct qg_job {
    /// The caller's id.
    pub id: u64,
    /// Submit time, ticks: the queue's order (with the id).
    pub submit: u64,
    /// Nodes it needs, all at once.
    pub nodes: u32,
    /// Its planned duration (the user's estimate), ticks; the caller ends it no later.
    pub estimate: u64,
}

/// A job `qg_backfill_schedule` started.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct qg_started {
    /// The caller's id.
    pub id: u64,
    /// When it started (the pass's `now`), ticks.
    pub start: u64,
    /// `start + estimate`, ticks: its nodes are held until then.
    pub planned_end: u64,
    /// Its nodes.
    pub nodes: u32,
}

/// A job `qg_backfill_complete` ended.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct qg_ended {
    /// The caller's id.
    pub id: u64,
    /// When it started, ticks.
    pub start: u64,
    /// When it ended, ticks.
    pub end: u64,
    /// It ended after its planned end (the caller broke the contract).
    pub overran: bool,
}

/// Called once per job a pass starts, in start order, with the caller's `context`. It must
/// return normally. A call it makes on the same `qg_backfill` (any function, `init` included) is
/// refused with `QG_ERR_BUSY` and changes nothing; other objects may be called.
pub type qg_on_start =
    Option<unsafe extern "C" fn(context: *mut c_void, started: *const qg_started)>;

/// Makes `storage` a backfilling scheduler of `nodes` idle nodes at time 0 under `policy`
/// (`QG_POLICY_*`). `threshold` is selective backfilling's expected-slowdown threshold in
/// 16.16 fixed point (`2 << 16` is 2.0); other policies ignore it.
///
/// Errors: the pointer checks (`QG_ERR_SIZE` if `size < QG_BACKFILL_SIZE`); `QG_ERR_ARGUMENT`
/// for an unknown policy; `QG_ERR_PARAM_CAPACITY` for zero nodes; `QG_ERR_BUSY` from a
/// `qg_on_start` callback of the same storage. On error nothing is written: storage holding a
/// live backfilling scheduler still holds it, unchanged, and other storage stays uninitialised.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `storage` must be valid for reads and writes of `size` bytes, zeroed or written by this API.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_backfill_init(
    storage: *mut qg_backfill,
    size: usize,
    policy: u32,
    threshold: u32,
    nodes: u32,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::init(storage, size, |slot| {
            let policy = match policy {
                QG_POLICY_FCFS => Policy::Fcfs,
                QG_POLICY_EASY => Policy::Easy,
                QG_POLICY_CONSERVATIVE => Policy::Conservative,
                QG_POLICY_SELECTIVE => Policy::Selective(U16F16::from_bits(threshold)),
                _ => return Err(QG_ERR_ARGUMENT),
            };
            Ok(Backfill::init(slot, policy, nodes)?)
        })
    }
}

/// Job `*job` arrives at `now` (ticks).
///
/// Errors (nothing changed): the pointer checks; `QG_ERR_PARAM_CAPACITY` (zero nodes),
/// `QG_ERR_PARAM_DELAY` (zero estimate), `QG_ERR_TASK_TOO_LARGE` (wider than the cluster),
/// `QG_ERR_OVERFLOW`, `QG_ERR_FULL` (`QG_BACKFILL_JOBS` jobs unfinished),
/// `QG_ERR_TIME_WENT_BACKWARDS`; `QG_ERR_BUSY` from a `qg_on_start` callback of the same
/// storage.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `backfill` as for every call (see docs/firmware.md); `job` readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_backfill_submit(
    backfill: *mut qg_backfill,
    now: u64,
    job: *const qg_job,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::with(backfill, |b: &mut Backfill| {
            let j = instance::read(job)?;
            let job = Job {
                id: JobId::new(j.id),
                submit: Ticks::new(j.submit),
                nodes: j.nodes,
                estimate: Ticks::new(j.estimate),
            };
            b.submit(Ticks::new(now), job).map_err(|r| r.reason)?;
            Ok(QG_OK)
        })
    }
}

/// One scheduling pass at `now`: `on_start(context, &started)` for every job it starts, and the
/// number started in `*count` unless that is null.
///
/// Errors (nothing changed): the pointer checks (`QG_ERR_NULL` for a null `on_start`);
/// `QG_ERR_TIME_WENT_BACKWARDS`; `QG_ERR_BUSY` from a `qg_on_start` callback of the same
/// storage (the pass under way goes on).
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `backfill` as for every call (see docs/firmware.md); `count` null or writable; `on_start` a
/// function that may be called with `context` (see `qg_on_start`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_backfill_schedule(
    backfill: *mut qg_backfill,
    now: u64,
    on_start: qg_on_start,
    context: *mut c_void,
    count: *mut usize,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::report_guarded(backfill, count, |b: &mut Backfill| {
            let on_start = on_start.ok_or(QG_ERR_NULL)?;
            let pass = b.schedule(Ticks::new(now), |s: Started| {
                trace!("qosgate: {}", s.run);
                let started = qg_started {
                    id: s.run.job.id.get(),
                    start: s.run.start.get(),
                    planned_end: s.run.planned_end.get(),
                    nodes: s.run.job.nodes,
                };
                // The callback and its context are the caller's (its guarantee, forwarded by the
                // enclosing `unsafe`), and `started` lives for the call.
                on_start(context, &started);
            })?;
            Ok(pass.started)
        })
    }
}

/// The running job `id` ended at `now` (ticks); the rest of its estimate goes back to the
/// profile. Its record goes to `*ended` unless that is null.
///
/// Errors (nothing changed): the pointer checks; `QG_ERR_UNKNOWN` if no running job has that
/// id; `QG_ERR_TIME_WENT_BACKWARDS`; `QG_ERR_BUSY` from a `qg_on_start` callback of the same
/// storage.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `backfill` as for every call (see docs/firmware.md); `ended` null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_backfill_complete(
    backfill: *mut qg_backfill,
    now: u64,
    id: u64,
    ended: *mut qg_ended,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::report(backfill, ended, |b: &mut Backfill| {
            let handle = b
                .running()
                .find(|(h, _)| h.id() == JobId::new(id))
                .map(|(h, _)| h)
                .ok_or(QG_ERR_UNKNOWN)?;
            let e = b.complete(Ticks::new(now), handle)?;
            Ok(qg_ended {
                id,
                start: e.run.start.get(),
                end: e.end.get(),
                overran: e.overran,
            })
        })
    }
}
