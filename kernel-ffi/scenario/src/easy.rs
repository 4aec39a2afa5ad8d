//! Step 6: the EASY replay of the ten-job trace `kernel-ffi/tests/data/easy10.swf` on 8 nodes,
//! instant by instant (completions, arrivals, one pass), as the harness's replay does it.

use core::ffi::c_void;

use qosgate_ffi::backfill::*;
use qosgate_ffi::qg_status::*;

use crate::S;
use crate::check::{Failure, ensure, expect};

/// Nodes of the replay's cluster.
pub const EASY_NODES: u32 = 8;
/// The replay's jobs: `(id, submit, run, nodes, estimate)`, seconds, in (submit, id) order.
pub const EASY_JOBS: [(u64, u64, u64, u32, u64); 10] = [
    (1, 0, 100, 6, 120),
    (2, 5, 40, 4, 50),
    (3, 10, 30, 2, 60),
    (4, 15, 200, 2, 200),
    (5, 20, 50, 8, 60),
    (6, 25, 10, 1, 20),
    (7, 30, 80, 3, 100),
    (8, 60, 20, 2, 30),
    (9, 90, 60, 4, 90),
    (10, 95, 5, 1, 10),
];
/// Each job's start under EASY, seconds.
pub const EASY_STARTS: [u64; 10] = [0, 100, 10, 40, 240, 100, 140, 110, 290, 100];

/// The replay's record of the jobs started and still running.
struct Replay {
    /// Start of each job (index in [`EASY_JOBS`]), seconds.
    starts: [Option<u64>; 10],
    /// End of each running job, ticks.
    ends: [Option<u64>; 10],
}

/// The `qg_on_start` callback: records a started job's start and end.
unsafe extern "C" fn on_start(context: *mut c_void, started: *const qg_started) {
    // SAFETY: `context` is the `Replay` that `run` passes, borrowed by nothing else during the
    // pass; `started` points to a live record (the API's guarantee).
    let (replay, s) = unsafe { (&mut *context.cast::<Replay>(), &*started) };
    if let Some(j) = EASY_JOBS.iter().position(|job| job.0 == s.id) {
        replay.starts[j] = Some(s.start / S);
        replay.ends[j] = Some(s.start + EASY_JOBS[j].2 * S);
    }
}

/// Replays [`EASY_JOBS`] and checks their starts against [`EASY_STARTS`].
#[inline(never)]
pub(crate) fn run(b: &mut qg_backfill) -> Result<[u64; 10], Failure> {
    let mut replay = Replay {
        starts: [None; 10],
        ends: [None; 10],
    };
    let mut next = 0;
    let mut now = 0;
    // SAFETY: every pointer is a reference to a live local, a constant or the storage; the
    // callback's context is `replay`, which nothing else touches during a pass.
    unsafe {
        let size = size_of::<qg_backfill>();
        let st = qg_backfill_init(b, size, QG_POLICY_EASY, 0, EASY_NODES);
        expect("backfill init", st, QG_OK)?;
        loop {
            for (j, end) in replay.ends.iter_mut().enumerate() {
                if *end == Some(now) {
                    let st = qg_backfill_complete(b, now, EASY_JOBS[j].0, core::ptr::null_mut());
                    expect("a job completes", st, QG_OK)?;
                    *end = None;
                }
            }
            while let Some(&(id, submit, _, nodes, estimate)) = EASY_JOBS.get(next)
                && submit * S == now
            {
                let job = qg_job {
                    id,
                    submit: submit * S,
                    nodes,
                    estimate: estimate * S,
                };
                expect(
                    "a job is submitted",
                    qg_backfill_submit(b, now, &job),
                    QG_OK,
                )?;
                next += 1;
            }
            let context = (&raw mut replay).cast::<c_void>();
            let st = qg_backfill_schedule(b, now, Some(on_start), context, core::ptr::null_mut());
            expect("a scheduling pass", st, QG_OK)?;
            let arrival = EASY_JOBS.get(next).map(|j| j.1 * S);
            let end = replay.ends.iter().flatten().min().copied();
            now = match (arrival, end) {
                (Some(a), Some(e)) => a.min(e),
                (Some(t), None) | (None, Some(t)) => t,
                (None, None) => break,
            };
        }
    }
    let mut starts = [0u64; 10];
    for (s, got) in starts.iter_mut().zip(replay.starts) {
        *s = got.ok_or(Failure {
            check: "every job starts",
            status: QG_OK,
        })?;
    }
    ensure("the EASY start times", starts == EASY_STARTS)?;
    Ok(starts)
}
