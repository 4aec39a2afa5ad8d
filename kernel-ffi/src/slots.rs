//! `qg_slot_table`: a cluster's free-node profile over future time ([`qosgate_kernel::slots`])
//! of `QG_SLOT_BREAKPOINTS` breakpoints (256, or 32 in the small preset: [`crate::config`]):
//! up to `QG_SLOT_BREAKPOINTS / 2 - 1` reservations (each adds at most two).
//!
//! Intervals are half-open, `[start, end)` in ticks; `end = UINT64_MAX` means "until further
//! notice". Cost (`B` breakpoints in use): `earliest_fit` at most `B` steps after a binary
//! search; `reserve` and `release` check the interval, then shift the array for at most two
//! insertions or removals (`O(B)` moves); `free_at` a binary search.

use qosgate_kernel::error::Refused;
use qosgate_kernel::slots::Request;
use qosgate_kernel::units::Ticks;

use crate::config::SlotTable;
use crate::instance::{self, storage};
use crate::status::done;
use crate::status::qg_status;

/// Storage for one slot table: declare it `static` (or zero it) and pass it to `qg_slots_init`
/// with `sizeof`.
#[repr(C, align(8))]
pub struct qg_slot_table {
    _opaque: [u8; QG_SLOT_TABLE_SIZE],
}

/// Bytes of a `qg_slot_table` (the same on 32- and 64-bit targets; reference capacities).
#[cfg(not(feature = "small"))]
pub const QG_SLOT_TABLE_SIZE: usize = 4120;
/// Bytes of a `qg_slot_table` (the same on 32- and 64-bit targets; small capacities).
#[cfg(feature = "small")]
pub const QG_SLOT_TABLE_SIZE: usize = 536;

storage!(qg_slot_table[QG_SLOT_TABLE_SIZE] holds SlotTable, tag b"qgslots1");

/// Makes `storage` the profile of a cluster of `nodes` nodes, all up and free at every instant.
///
/// Errors: the pointer checks (`QG_ERR_SIZE` if `size < QG_SLOT_TABLE_SIZE`);
/// `QG_ERR_PARAM_CAPACITY` for zero nodes. On error nothing is written: storage holding a live
/// slot table still holds it, unchanged, and other storage stays uninitialised.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `storage` must be valid for reads and writes of `size` bytes, zeroed or written by this API.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_slots_init(
    storage: *mut qg_slot_table,
    size: usize,
    nodes: u32,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { instance::init(storage, size, |slot| Ok(SlotTable::init(slot, nodes)?)) }
}

/// The earliest `start >= from` with `nodes` nodes free over `[start, start + duration)`:
/// `QG_OK` with it in `*start`, or `QG_NONE` if there is none before the end of time.
///
/// Errors: the pointer checks; `QG_ERR_PARAM_CAPACITY` (zero nodes), `QG_ERR_PARAM_DELAY` (zero
/// duration), `QG_ERR_TASK_TOO_LARGE` (more nodes than the cluster's), `QG_ERR_OVERFLOW`.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `table` as for every call (see docs/firmware.md); `start` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_slots_earliest_fit(
    table: *mut qg_slot_table,
    from: u64,
    nodes: u32,
    duration: u64,
    start: *mut u64,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::answer(table, start, |t: &mut SlotTable| {
            let fit = t.earliest_fit(Ticks::new(from), nodes, Ticks::new(duration))?;
            Ok(fit.map(Ticks::get))
        })
    }
}

/// Reserves `nodes` nodes over `[start, end)`.
///
/// Errors (the table unchanged): the pointer checks; `QG_ERR_PARAM_DELAY` (`start >= end`),
/// `QG_ERR_TASK_TOO_LARGE`, `QG_ERR_NOT_FREE`, `QG_ERR_FULL` (no breakpoint left).
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `table` as for every call (see docs/firmware.md).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_slots_reserve(
    table: *mut qg_slot_table,
    start: u64,
    end: u64,
    nodes: u32,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { change(table, start, end, nodes, SlotTable::reserve) }
}

/// Releases `nodes` reserved nodes over `[start, end)`.
///
/// Errors (the table unchanged): the pointer checks; `QG_ERR_PARAM_DELAY`,
/// `QG_ERR_TASK_TOO_LARGE`, `QG_ERR_NOT_RESERVED`, `QG_ERR_FULL`.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `table` as for every call (see docs/firmware.md).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_slots_release(
    table: *mut qg_slot_table,
    start: u64,
    end: u64,
    nodes: u32,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { change(table, start, end, nodes, SlotTable::release) }
}

/// Free nodes at instant `at`, written to `*free` (negative where a failure overcommitted).
///
/// Errors: the pointer checks.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `table` as for every call (see docs/firmware.md); `free` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_slots_free_at(
    table: *mut qg_slot_table,
    at: u64,
    free: *mut i64,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::answer(table, free, |t: &mut SlotTable| {
            Ok(Some(t.free_at(Ticks::new(at))))
        })
    }
}

/// A change of the profile: [`SlotTable::reserve`] or [`SlotTable::release`].
type Change = fn(&mut SlotTable, Ticks, Ticks, u32) -> Result<(), Refused<Request>>;

/// `op` (reserve or release) of `nodes` over `[start, end)` on the table in `table`.
///
/// # Safety
/// As `instance::with`.
unsafe fn change(
    table: *mut qg_slot_table,
    start: u64,
    end: u64,
    nodes: u32,
    op: Change,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::with(table, |t: &mut SlotTable| {
            let r = op(t, Ticks::new(start), Ticks::new(end), nodes);
            Ok(done(r.map_err(|r| r.reason)))
        })
    }
}
