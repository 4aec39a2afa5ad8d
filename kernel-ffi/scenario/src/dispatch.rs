//! Step 4: billiard and RTDP decisions for `P = (0.5, 0.3, 0.2)` (the README's
//! `qosgate sequence` examples); an unknown request type is refused.

use qosgate_ffi::dispatch::*;
use qosgate_ffi::qg_status::*;

use crate::check::{Failure, ensure, expect};

/// Routing probabilities of the dispatchers (cluster 0 the fastest).
pub const DISPATCH_P: [f64; 3] = [0.5, 0.3, 0.2];
/// The first ten billiard decisions.
pub const BILLIARD: [u32; 10] = [1, 2, 0, 1, 0, 2, 0, 1, 0, 0];
/// RTDP's request-type shares.
pub const RTDP_SHARES: [f64; 4] = [0.25, 0.25, 0.25, 0.25];
/// The request types dispatched, in order.
pub const RTDP_TYPES: [u32; 8] = [0, 0, 1, 3, 0, 2, 1, 0];
/// RTDP's decisions for them.
pub const RTDP: [u32; 8] = [1, 2, 1, 1, 0, 1, 2, 1];

/// Ten billiard decisions, eight RTDP decisions and an unknown type.
#[inline(never)]
pub(crate) fn run(b: &mut qg_billiard, r: &mut qg_rtdp) -> Result<([u32; 10], [u32; 8]), Failure> {
    let (mut billiard, mut rtdp) = ([0u32; 10], [0u32; 8]);
    let p = DISPATCH_P.as_ptr();
    // SAFETY: every pointer is a reference to a live local, a constant or the storage; nothing
    // else touches them during the calls.
    unsafe {
        let st = qg_billiard_init(b, size_of::<qg_billiard>(), p, 3, 0);
        expect("billiard init", st, QG_OK)?;
        for c in &mut billiard {
            expect("billiard decision", qg_billiard_next(b, c), QG_OK)?;
        }
        let shares = RTDP_SHARES.as_ptr();
        let st = qg_rtdp_init(r, size_of::<qg_rtdp>(), p, 3, shares, 4, 0);
        expect("RTDP init", st, QG_OK)?;
        for (c, &kind) in rtdp.iter_mut().zip(&RTDP_TYPES) {
            expect("RTDP decision", qg_rtdp_next(r, kind, c), QG_OK)?;
        }
        let st = qg_rtdp_next(r, 4, &mut 0);
        expect(
            "an unknown request type is refused",
            st,
            QG_ERR_DISPATCH_UNKNOWN_TYPE,
        )?;
    }
    ensure("the billiard sequence", billiard == BILLIARD)?;
    ensure("the RTDP sequence", rtdp == RTDP)?;
    Ok((billiard, rtdp))
}
