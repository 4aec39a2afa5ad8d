//! Step 7: a GS user's leaky bucket ([`BUCKET`]) at the gateway, before its tasks go to a
//! scheduler. By hand, in instructions (1 MI = 10^6; rho 30 MIPS refills 30 per tick):
//!
//! - at 0 s the bucket is full: sigma = 400 MI = 400,000,000;
//! - tasks of 120 and 80 MI conform and are charged imax = 200 MI each: credit 0, `J` = 400 MI;
//! - the third (150 MI) needs 200,000,000: withheld `ceil(200,000,000 / 30)` =
//!   `ceil(6,666,666.7)` = 6,666,667 ticks; its charge is refused. Call `T` = 6,666,667;
//! - at `T - 1` the credit is 30 x 6,666,666 = 199,999,980, 20 short: `ceil(20 / 30)` = 1 tick;
//! - at `T` it is 200,000,010: the task conforms and is charged 200 MI, leaving 10; `J` = 600 MI,
//!   3 tasks await feedback;
//! - feedback on the first task (charged 200, did 120 MI) refunds 80 MI: credit 80,000,010,
//!   `J` = 520 MI, 2 outstanding; a 200 MI task is now 119,999,990 short:
//!   `ceil(119,999,990 / 30)` = `ceil(3,999,999.7)` = 4,000,000 ticks;
//! - feedback on the second (charged 200, did 80 MI) refunds 120 MI: credit 200,000,010, so
//!   the 200 MI task conforms at once; `J` = 400 MI, 1 outstanding.

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
/// What `qg_bucket_check` reports to withhold, ticks: the third task at 0 s; the same one tick
/// before it conforms; a 200 MI task after the first feedback.
pub const BUCKET_WAITS: [u64; 3] = [6_666_667, 1, 4_000_000];
/// The credit, instructions: at 0 s; after the burst's two charges; after the third task's
/// charge at 6,666,667 ticks; after the first feedback; after the second.
pub const BUCKET_LEVELS: [i64; 5] = [400_000_000, 0, 10, 80_000_010, 200_000_010];
/// `J(t)`, MI: after the burst's two charges, after the third, after each feedback.
pub const BUCKET_SUBMITTED: [u64; 4] = [400, 600, 520, 400];

/// What the bucket of step 7 reports: withholding times, credits and `J(t)`.
type BucketTrace = (
    [u64; BUCKET_WAITS.len()],
    [i64; BUCKET_LEVELS.len()],
    [u64; BUCKET_SUBMITTED.len()],
);

/// The burst, the wait, the charge after it and the two feedback corrections.
#[inline(never)]
pub(crate) fn run(b: &mut qg_bucket) -> Result<BucketTrace, Failure> {
    let (mut waits, mut levels, mut submitted) = ([0u64; 3], [0i64; 5], [0u64; 4]);
    let mut verdict = qg_conformance { kind: 9, wait: 9 };
    let (mut charged, mut outstanding) = (0u64, 0u16);
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
        for &work in &BUCKET_BURST[..2] {
            let st = qg_bucket_check(b, 0, work, &mut verdict);
            expect("a burst task is checked", st, QG_OK)?;
            ensure("it conforms", verdict.kind == QG_CONFORMANCE_NOW)?;
            let st = qg_bucket_charge(b, 0, work, &mut charged);
            expect("a burst task is charged", st, QG_OK)?;
            ensure("it is charged imax", charged == BUCKET.imax)?;
        }
        expect("credit spent", qg_bucket_level(b, 0, &mut levels[1]), QG_OK)?;
        let st = qg_bucket_submitted(b, &mut submitted[0]);
        expect("J after the burst", st, QG_OK)?;
        let st = qg_bucket_check(b, 0, BUCKET_BURST[2], &mut verdict);
        expect("the third task is checked", st, QG_OK)?;
        ensure("it must wait", verdict.kind == QG_CONFORMANCE_AFTER)?;
        waits[0] = verdict.wait;
        let st = qg_bucket_charge(b, 0, BUCKET_BURST[2], &mut charged);
        expect("its charge is refused", st, QG_ERR_NON_CONFORMING)?;
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
        let st = qg_bucket_charge(b, t, BUCKET_BURST[2], &mut charged);
        expect("the third task is charged", st, QG_OK)?;
        ensure("imax again", charged == BUCKET.imax)?;
        expect("credit left", qg_bucket_level(b, t, &mut levels[2]), QG_OK)?;
        let st = qg_bucket_submitted(b, &mut submitted[1]);
        expect("J after the third task", st, QG_OK)?;
        let st = qg_bucket_outstanding(b, &mut outstanding);
        expect("outstanding tasks", st, QG_OK)?;
        ensure("three await feedback", outstanding == 3)?;
        let st = qg_bucket_feedback(b, t, BUCKET.imax, BUCKET_ACTUAL[0]);
        expect("feedback on the first task", st, QG_OK)?;
        expect(
            "credit refunded",
            qg_bucket_level(b, t, &mut levels[3]),
            QG_OK,
        )?;
        let st = qg_bucket_submitted(b, &mut submitted[2]);
        expect("J corrected", st, QG_OK)?;
        let st = qg_bucket_check(b, t, BUCKET.imax, &mut verdict);
        expect("a maximal task is checked", st, QG_OK)?;
        ensure("it must wait", verdict.kind == QG_CONFORMANCE_AFTER)?;
        waits[2] = verdict.wait;
        let st = qg_bucket_feedback(b, t, BUCKET.imax, BUCKET_ACTUAL[1]);
        expect("feedback on the second task", st, QG_OK)?;
        expect(
            "credit refunded",
            qg_bucket_level(b, t, &mut levels[4]),
            QG_OK,
        )?;
        let st = qg_bucket_submitted(b, &mut submitted[3]);
        expect("J corrected", st, QG_OK)?;
        let st = qg_bucket_check(b, t, BUCKET.imax, &mut verdict);
        expect("the maximal task again", st, QG_OK)?;
        ensure("it conforms now", verdict.kind == QG_CONFORMANCE_NOW)?;
        let st = qg_bucket_outstanding(b, &mut outstanding);
        expect("outstanding tasks", st, QG_OK)?;
        ensure("one awaits feedback", outstanding == 1)?;
    }
    ensure("the bucket's waits", waits == BUCKET_WAITS)?;
    ensure("the bucket's credit", levels == BUCKET_LEVELS)?;
    ensure("the bucket's J(t)", submitted == BUCKET_SUBMITTED)?;
    Ok((waits, levels, submitted))
}
