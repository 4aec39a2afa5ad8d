//! Step 1: what the API checks of its caller.

use qosgate_ffi::dispatch::qg_billiard_next;
use qosgate_ffi::qg_status::*;
use qosgate_ffi::scheduler::{qg_scheduler, qg_scheduler_init, qg_scheduler_next};

use crate::Storage;
use crate::check::{Failure, expect};
use crate::scheduler::{EXPECTED_DECISIONS, config};

/// Zeroed storage, a null instance, misaligned storage, a short size, an unknown resource kind
/// and a scheduler passed as a dispatcher are each refused with their code.
#[inline(never)]
pub(crate) fn run(storage: &mut Storage) -> Result<(), Failure> {
    let mut config = config();
    let s: *mut qg_scheduler = &mut storage.scheduler;
    let size = size_of::<qg_scheduler>();
    let mut decision = EXPECTED_DECISIONS[0];
    // Misaligned by one byte: never dereferenced, the API refuses it first.
    let misaligned = s.cast::<u8>().wrapping_add(1).cast::<qg_scheduler>();
    // SAFETY: every pointer is null, misaligned (refused before use) or a reference to a live
    // local or to `storage`; nothing else touches them during the calls.
    unsafe {
        storage.scheduler = qg_scheduler::zeroed();
        let st = qg_scheduler_next(s, 0, &mut decision);
        expect(
            "a call on zeroed storage is refused",
            st,
            QG_ERR_UNINITIALISED,
        )?;
        let st = qg_scheduler_next(core::ptr::null_mut(), 0, &mut decision);
        expect("a null instance is refused", st, QG_ERR_NULL)?;
        let st = qg_scheduler_init(misaligned, size, &config);
        expect("misaligned storage is refused", st, QG_ERR_MISALIGNED)?;
        let st = qg_scheduler_init(s, size - 8, &config);
        expect("short storage is refused", st, QG_ERR_SIZE)?;
        config.kind = 9;
        let st = qg_scheduler_init(s, size, &config);
        expect("an unknown resource kind is refused", st, QG_ERR_ARGUMENT)?;
        let st = qg_billiard_next(s.cast(), core::ptr::null_mut());
        expect("a scheduler is not a dispatcher", st, QG_ERR_UNINITIALISED)?;
    }
    Ok(())
}
