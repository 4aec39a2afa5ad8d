//! Step 7: a GS user's leaky bucket ([`BUCKET`]) at the gateway, before its tasks go to a
//! scheduler. By hand, in instructions (1 MI = 10^6; rho 30 MIPS refills 30 per tick):
//!
//! - at 0 s the bucket is full: sigma = 400 MI = 400,000,000;
//! - tasks of 120 and 80 MI conform and are charged imax = 200 MI each: credit 0, `J` = 400 MI;
//!   their receipts carry the marks 200 and 400 (the work charged so far, MI);
//! - the third (150 MI) needs 200,000,000: withheld `ceil(200,000,000 / 30)` =
//!   `ceil(6,666,666.7)` = 6,666,667 ticks; its charge is refused. Call `T` = 6,666,667;
//! - at `T - 1` the credit is 30 x 6,666,666 = 199,999,980, 20 short: `ceil(20 / 30)` = 1 tick;
//! - at `T` it is 200,000,010: the task conforms and is charged 200 MI, leaving 10; mark 600,
//!   `J` = 600 MI, 3 tasks await feedback;
//! - feedback on the first task (charged 200, did 120 MI): a refund of 80 MI, but the refund
//!   rule lifts the credit to at most sigma less the work charged after the task, 600 - 200 =
//!   400 MI = sigma: to 0, below the 10 it has, so the credit stays 10. `J` = 520 MI,
//!   2 outstanding; a 200 MI task is 199,999,990 short: `ceil(199,999,990 / 30)` =
//!   `ceil(6,666,666.3)` = 6,666,667 ticks;
//! - feedback on the second (charged 200, did 80 MI): a refund of 120 MI, capped at sigma less
//!   the 600 - 400 = 200 MI charged after it, 200,000,000: the credit rises to
//!   `min(10 + 120,000,000, 200,000,000)` = 120,000,010. `J` = 400 MI, 1 outstanding; a 200 MI
//!   task is 79,999,990 short: `ceil(2,666,666.3)` = 2,666,667 ticks;
//! - the third task is withdrawn (not served in the guaranteed class): a refund of its whole
//!   200 MI charge, nothing having been charged after it (cap 400,000,000): credit 320,000,010,
//!   `J` = 200 MI, nothing outstanding; a 200 MI task conforms at once, and a second withdrawal
//!   is refused (`QG_ERR_UNKNOWN`: no task awaits feedback).

use qosgate_ffi::bucket::*;
use qosgate_ffi::qg_status::*;
use qosgate_ffi::scheduler::QG_KNOWLEDGE_CONSERVATIVE_FEEDBACK;

use crate::check::{Failure, ensure, expect};

/// The GS user's contract in step 7: rho 30 MIPS, sigma 400 MI, imax 200 MI; every task is
/// charged imax, corrected by feedback. Full at 0 s.
pub const BUCKET: qg_bucket_config = qg_bucket_config {
    rho: 30,
    sigma: 400,
    imax: 200,
    knowledge: QG_KNOWLEDGE_CONSERVATIVE_FEEDBACK,
    window: 0,
};
/// The burst at 0 s, MI: the first two tasks conform, the third does not.
pub const BUCKET_BURST: [u64; 3] = [120, 80, 150];
/// The real work of the first two tasks is what was submitted (MI): the feedback.
pub const BUCKET_ACTUAL: [u64; 2] = [120, 80];
/// The marks of the three receipts (the work charged so far, MI, just after each charge).
pub const BUCKET_MARKS: [u64; 3] = [200, 400, 600];
/// What `qg_bucket_check` reports to withhold, ticks: the third task at 0 s; the same one tick
/// before it conforms; a 200 MI task after the first feedback; after the second.
pub const BUCKET_WAITS: [u64; 4] = [6_666_667, 1, 6_666_667, 2_666_667];
/// The credit, instructions: at 0 s; after the burst's two charges; after the third task's
/// charge at 6,666,667 ticks; after the first feedback; after the second; after the third
/// task's withdrawal.
pub const BUCKET_LEVELS: [i64; 6] = [400_000_000, 0, 10, 10, 120_000_010, 320_000_010];
/// `J(t)`, MI: after the burst's two charges, after the third, after each feedback, after the
/// withdrawal.
pub const BUCKET_SUBMITTED: [u64; 5] = [400, 600, 520, 400, 200];

/// What the bucket of step 7 reports: withholding times, credits and `J(t)`.
type BucketTrace = (
    [u64; BUCKET_WAITS.len()],
    [i64; BUCKET_LEVELS.len()],
    [u64; BUCKET_SUBMITTED.len()],
);

/// The burst, the wait, the charge after it, the two feedback corrections and the withdrawal.
#[inline(never)]
pub(crate) fn run(b: &mut qg_bucket) -> Result<BucketTrace, Failure> {
    let (mut waits, mut levels, mut submitted) = ([0u64; 4], [0i64; 6], [0u64; 5]);
    let mut verdict = qg_conformance { kind: 9, wait: 9 };
    let empty = qg_charge {
        charged: 9,
        mark: 9,
    };
    let (mut receipts, mut outstanding) = ([empty; 3], 0u16);
    let t = BUCKET_WAITS[0];
    // SAFETY: every pointer is a reference to a live local, a constant or the storage; nothing
    // else touches them during the calls.
    unsafe {
        let st = qg_bucket_init(b, size_of::<qg_bucket>(), 0, &BUCKET);
        expect("bucket init", st, QG_OK)?;
        expect(
            "credit at 0 s",
            qg_bucket_level(b, 0, &mut levels[0]),
            QG_OK,
        )?;
        for (&work, receipt) in BUCKET_BURST[..2].iter().zip(&mut receipts) {
            let st = qg_bucket_check(b, 0, work, &mut verdict);
            expect("a burst task is checked", st, QG_OK)?;
            ensure("it conforms", verdict.kind == QG_CONFORMANCE_NOW)?;
            let st = qg_bucket_charge(b, 0, work, receipt);
            expect("a burst task is charged", st, QG_OK)?;
            ensure("it is charged imax", receipt.charged == BUCKET.imax)?;
        }
        expect("credit spent", qg_bucket_level(b, 0, &mut levels[1]), QG_OK)?;
        let st = qg_bucket_submitted(b, &mut submitted[0]);
        expect("J after the burst", st, QG_OK)?;
        let st = qg_bucket_check(b, 0, BUCKET_BURST[2], &mut verdict);
        expect("the third task is checked", st, QG_OK)?;
        ensure("it must wait", verdict.kind == QG_CONFORMANCE_AFTER)?;
        waits[0] = verdict.wait;
        let st = qg_bucket_charge(b, 0, BUCKET_BURST[2], &mut receipts[2]);
        expect("its charge is refused", st, QG_ERR_NON_CONFORMING)?;
        ensure("a refused charge writes no receipt", receipts[2] == empty)?;
        let st = qg_bucket_check(b, 0, BUCKET.imax + 1, &mut verdict);
        expect("a task above imax is refused", st, QG_ERR_TASK_TOO_LARGE)?;
        let st = qg_bucket_check(b, t - 1, BUCKET_BURST[2], &mut verdict);
        expect("one tick early", st, QG_OK)?;
        ensure("still waits", verdict.kind == QG_CONFORMANCE_AFTER)?;
        waits[1] = verdict.wait;
        let st = qg_bucket_check(b, t, BUCKET_BURST[2], &mut verdict);
        expect("on time", st, QG_OK)?;
        ensure(
            "it conforms after the wait",
            verdict.kind == QG_CONFORMANCE_NOW,
        )?;
        let st = qg_bucket_charge(b, t, BUCKET_BURST[2], &mut receipts[2]);
        expect("the third task is charged", st, QG_OK)?;
        ensure("imax again", receipts[2].charged == BUCKET.imax)?;
        let marks = [receipts[0].mark, receipts[1].mark, receipts[2].mark];
        ensure("the receipts' marks", marks == BUCKET_MARKS)?;
        expect("credit left", qg_bucket_level(b, t, &mut levels[2]), QG_OK)?;
        let st = qg_bucket_submitted(b, &mut submitted[1]);
        expect("J after the third task", st, QG_OK)?;
        let st = qg_bucket_outstanding(b, &mut outstanding);
        expect("outstanding tasks", st, QG_OK)?;
        ensure("three await feedback", outstanding == 3)?;
        let st = qg_bucket_feedback(b, t, &receipts[0], BUCKET_ACTUAL[0]);
        expect("feedback on the first task", st, QG_OK)?;
        expect(
            "no refund: sigma charged after it",
            qg_bucket_level(b, t, &mut levels[3]),
            QG_OK,
        )?;
        let st = qg_bucket_submitted(b, &mut submitted[2]);
        expect("J corrected", st, QG_OK)?;
        let st = qg_bucket_check(b, t, BUCKET.imax, &mut verdict);
        expect("a maximal task is checked", st, QG_OK)?;
        ensure("it must wait", verdict.kind == QG_CONFORMANCE_AFTER)?;
        waits[2] = verdict.wait;
        let st = qg_bucket_feedback(b, t, &receipts[1], BUCKET_ACTUAL[1]);
        expect("feedback on the second task", st, QG_OK)?;
        expect(
            "a refund up to the cap",
            qg_bucket_level(b, t, &mut levels[4]),
            QG_OK,
        )?;
        let st = qg_bucket_submitted(b, &mut submitted[3]);
        expect("J corrected", st, QG_OK)?;
        let st = qg_bucket_check(b, t, BUCKET.imax, &mut verdict);
        expect("the maximal task again", st, QG_OK)?;
        ensure("it still waits", verdict.kind == QG_CONFORMANCE_AFTER)?;
        waits[3] = verdict.wait;
        let st = qg_bucket_outstanding(b, &mut outstanding);
        expect("outstanding tasks", st, QG_OK)?;
        ensure("one awaits feedback", outstanding == 1)?;
        let st = qg_bucket_withdraw(b, t, core::ptr::null());
        expect("a withdrawal needs its receipt", st, QG_ERR_NULL)?;
        let st = qg_bucket_withdraw(b, t, &receipts[2]);
        expect("the third task is withdrawn", st, QG_OK)?;
        expect(
            "its whole charge refunded",
            qg_bucket_level(b, t, &mut levels[5]),
            QG_OK,
        )?;
        let st = qg_bucket_submitted(b, &mut submitted[4]);
        expect("J without it", st, QG_OK)?;
        let st = qg_bucket_outstanding(b, &mut outstanding);
        expect("outstanding tasks", st, QG_OK)?;
        ensure("none awaits feedback", outstanding == 0)?;
        let st = qg_bucket_check(b, t, BUCKET.imax, &mut verdict);
        expect("the maximal task once more", st, QG_OK)?;
        ensure("it conforms now", verdict.kind == QG_CONFORMANCE_NOW)?;
        let st = qg_bucket_withdraw(b, t, &receipts[2]);
        expect("a second withdrawal is refused", st, QG_ERR_UNKNOWN)?;
    }
    ensure("the bucket's waits", waits == BUCKET_WAITS)?;
    ensure("the bucket's credit", levels == BUCKET_LEVELS)?;
    ensure("the bucket's J(t)", submitted == BUCKET_SUBMITTED)?;
    Ok((waits, levels, submitted))
}
