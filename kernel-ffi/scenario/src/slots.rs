//! Step 5: reserve, fit, refuse, release in a slot table of 8 nodes.

use qosgate_ffi::qg_status::*;
use qosgate_ffi::slots::*;

use crate::S;
use crate::check::{Failure, ensure, expect};

/// Reserves 6 nodes over [0, 10 s), fits 4 nodes for 5 s at 10 s, is refused an overlapping
/// reservation and a release of more than reserved, and releases.
#[inline(never)]
pub(crate) fn run(t: &mut qg_slot_table) -> Result<(), Failure> {
    let (mut start, mut free) = (0u64, 0i64);
    // SAFETY: every pointer is a reference to a live local or to the storage; nothing else
    // touches them during the calls.
    unsafe {
        expect(
            "slots init",
            qg_slots_init(t, size_of::<qg_slot_table>(), 8),
            QG_OK,
        )?;
        expect("reserve 6 nodes", qg_slots_reserve(t, 0, 10 * S, 6), QG_OK)?;
        let st = qg_slots_earliest_fit(t, 0, 4, 5 * S, &mut start);
        expect("4 nodes fit", st, QG_OK)?;
        ensure("after the reservation", start == 10 * S)?;
        let st = qg_slots_reserve(t, 0, 5 * S, 4);
        expect("an overlap is refused", st, QG_ERR_NOT_FREE)?;
        expect("free at 5 s", qg_slots_free_at(t, 5 * S, &mut free), QG_OK)?;
        ensure("2 nodes free", free == 2)?;
        let st = qg_slots_release(t, 0, 10 * S, 7);
        expect(
            "releasing more than reserved is refused",
            st,
            QG_ERR_NOT_RESERVED,
        )?;
        expect("release", qg_slots_release(t, 0, 10 * S, 6), QG_OK)?;
        expect(
            "free at 5 s again",
            qg_slots_free_at(t, 5 * S, &mut free),
            QG_OK,
        )?;
        ensure("all 8 nodes free", free == 8)?;
    }
    Ok(())
}
