//! The reference scenario of `docs/firmware.md`, driven through the C API exactly as the C test
//! program `tests/c/scenario.c` drives it, checked against the same expected values (a test
//! compares the C program's tables with the constants here). The host tests and the Cortex-M
//! firmware run it.
//!
//! 1. **Contract**: calls on zeroed storage, with null or misaligned pointers, a short size or
//!    an unknown enumeration code fail with their codes.
//! 2. **Scheduler**: a preemptive GS_BE_PRIORITY resource of one 100 MIPS CPU (WFQ); two GS
//!    users (rho 40 MIPS each) register and a third is refused by Eq. 1; a BE task of 500 MI
//!    starts at 0 s, is paused by the GS tasks of 1 s and resumes after them
//!    ([`EXPECTED_DECISIONS`](crate::scenario::EXPECTED_DECISIONS)).
//! 3. **PAP** for the three clusters of the README's example ([`PAP_CLUSTERS`](crate::scenario::PAP_CLUSTERS)).
//! 4. **Dispatch**: ten billiard decisions and eight RTDP decisions for `P = (0.5, 0.3, 0.2)`,
//!    as the README's `qosgate sequence` examples.
//! 5. **Slot table**: a reservation, an earliest fit behind it, a refused overlap, a release.
//! 6. **EASY replay** of the ten-job trace `tests/data/easy10.swf` on 8 nodes
//!    ([`EASY_JOBS`](crate::scenario::EASY_JOBS), [`EASY_STARTS`](crate::scenario::EASY_STARTS): the start times `qosgate backfill --policy easy` prints).
//! 7. **Leaky bucket** of one GS user ([`BUCKET`](crate::scenario::BUCKET): rho 30 MIPS,
//!    sigma 400 MI, imax 200 MI, conservative with feedback): a burst at 0 s until a task does
//!    not conform, its withholding time, conformance after it, and two feedback corrections
//!    ([`BUCKET_WAITS`](crate::scenario::BUCKET_WAITS),
//!    [`BUCKET_LEVELS`](crate::scenario::BUCKET_LEVELS),
//!    [`BUCKET_SUBMITTED`](crate::scenario::BUCKET_SUBMITTED): computed by hand in the comment
//!    of the step's function, `bucket`).

use core::ffi::c_void;

use crate::backfill::*;
use crate::bucket::*;
use crate::dispatch::*;
use crate::pap::*;
use crate::scheduler::*;
use crate::slots::*;
use crate::status::qg_status::{self, *};

/// Ticks in one second.
const S: u64 = 1_000_000;

/// The storage the scenario runs in (about 32 KiB on a 32-bit target: make it `static`).
pub struct Storage {
    /// The resource's scheduler.
    pub scheduler: qg_scheduler,
    /// The billiard dispatcher.
    pub billiard: qg_billiard,
    /// The RTDP dispatcher.
    pub rtdp: qg_rtdp,
    /// The slot table.
    pub slots: qg_slot_table,
    /// The backfilling scheduler of the replay.
    pub backfill: qg_backfill,
    /// The GS user's leaky bucket.
    pub bucket: qg_bucket,
}

impl Storage {
    /// Zeroed storage, as C's static storage is.
    pub const fn zeroed() -> Self {
        Self {
            scheduler: qg_scheduler::zeroed(),
            billiard: qg_billiard::zeroed(),
            rtdp: qg_rtdp::zeroed(),
            slots: qg_slot_table::zeroed(),
            backfill: qg_backfill::zeroed(),
            bucket: qg_bucket::zeroed(),
        }
    }
}

/// The first check that failed: its name, and the status the call returned (`QG_OK` when the
/// call succeeded but returned a wrong value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Failure {
    /// What was checked.
    pub check: &'static str,
    /// What the call returned.
    pub status: qg_status,
}

/// What the scenario observed; every field has been checked when [`run`] returns it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Report {
    /// The scheduler's decisions, in order.
    pub decisions: [qg_decision; EXPECTED_DECISIONS.len()],
    /// The PAP allocation.
    pub allocation: qg_allocation,
    /// The billiard decisions.
    pub billiard: [u32; BILLIARD.len()],
    /// The RTDP decisions.
    pub rtdp: [u32; RTDP_TYPES.len()],
    /// Start of each job of the replay, seconds, in [`EASY_JOBS`] order.
    pub easy_starts: [u64; EASY_JOBS.len()],
    /// The leaky bucket's withholding times, ticks ([`BUCKET_WAITS`]).
    pub bucket_waits: [u64; BUCKET_WAITS.len()],
    /// The leaky bucket's credit, instructions ([`BUCKET_LEVELS`]).
    pub bucket_levels: [i64; BUCKET_LEVELS.len()],
    /// The leaky bucket's `J(t)`, MI ([`BUCKET_SUBMITTED`]).
    pub bucket_submitted: [u64; BUCKET_SUBMITTED.len()],
}

/// The scheduler's decisions, in order (times in ticks).
pub const EXPECTED_DECISIONS: [qg_decision; 5] = [
    decision(QG_DECISION_START, 100, 500, QG_CLASS_BE, QG_NO_FLOW, 5 * S),
    decision(QG_DECISION_PREEMPT, 100, 400, QG_CLASS_BE, QG_NO_FLOW, 0),
    decision(QG_DECISION_START, 1, 100, QG_CLASS_GS, 0, 2 * S),
    decision(QG_DECISION_START, 2, 150, QG_CLASS_GS, 1, 3 * S + S / 2),
    decision(
        QG_DECISION_START,
        100,
        400,
        QG_CLASS_BE,
        QG_NO_FLOW,
        7 * S + S / 2,
    ),
];

const fn decision(
    kind: u32,
    task_id: u32,
    work: u64,
    class: u32,
    flow: u16,
    finish: u64,
) -> qg_decision {
    qg_decision {
        kind,
        cpu: 0,
        task_id,
        work,
        task_class: class,
        flow,
        finish,
    }
}

/// The clusters of the PAP solve (the README's `qosgate solve pap` example).
pub const PAP_CLUSTERS: [qg_cluster; 3] = [
    qg_cluster {
        theta: 1.0,
        omega: 1.25,
        local_rate: 0.2,
        tau: 2.0,
        mu: 4.04,
    },
    qg_cluster {
        theta: 0.5,
        omega: 0.3125,
        local_rate: 0.6,
        tau: 1.0,
        mu: 1.01,
    },
    qg_cluster {
        theta: 0.25,
        omega: 0.078125,
        local_rate: 0.5,
        tau: 0.5,
        mu: 0.2525,
    },
];
/// PAP's external rate.
pub const PAP_RATE: f64 = 2.0;
/// PAP's relative precision.
pub const PAP_EPSILON: f64 = 1e-9;
/// The multiplier z PAP finds.
pub const PAP_Z: f64 = 2.9154119893606305;
/// The rates PAP finds.
pub const PAP_LAMBDA_HAT: [f64; 3] = [0.01680750746731439, 0.0, 1.9831924925287816];
/// The active set PAP finds.
pub const PAP_ACTIVE: [bool; 3] = [true, false, true];
/// How far (relative) a result may be from the values above: they are printed to 17 digits,
/// and a soft-float target rounds like the host, so this only absorbs printing.
pub const PAP_TOLERANCE: f64 = 1e-12;

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

fn expect(check: &'static str, status: qg_status, want: qg_status) -> Result<(), Failure> {
    if status == want {
        Ok(())
    } else {
        Err(Failure { check, status })
    }
}

fn ensure(check: &'static str, holds: bool) -> Result<(), Failure> {
    if holds {
        Ok(())
    } else {
        Err(Failure {
            check,
            status: QG_OK,
        })
    }
}

/// Runs every step in `storage` (zeroed or left by an earlier run: each step initialises what
/// it uses) and returns what it observed, or the first failed check.
///
/// The steps are not inlined into each other, so that their frames (the EASY step's job lists
/// are the largest, about 4 KiB on a Cortex-M3) do not add up on a small part.
pub fn run(storage: &mut Storage) -> Result<Report, Failure> {
    contract(storage)?;
    let decisions = scheduler(&mut storage.scheduler)?;
    let allocation = solve_pap()?;
    let (billiard, rtdp) = dispatch(&mut storage.billiard, &mut storage.rtdp)?;
    slot_table(&mut storage.slots)?;
    let easy_starts = easy(&mut storage.backfill)?;
    let (bucket_waits, bucket_levels, bucket_submitted) = bucket(&mut storage.bucket)?;
    Ok(Report {
        decisions,
        allocation,
        billiard,
        rtdp,
        easy_starts,
        bucket_waits,
        bucket_levels,
        bucket_submitted,
    })
}

/// Step 1: what the API checks of its caller.
#[inline(never)]
fn contract(storage: &mut Storage) -> Result<(), Failure> {
    let mips = [100u64];
    let mut config = qg_scheduler_config {
        kind: QG_KIND_GS_BE_PRIORITY_PREEMPTIVE,
        discipline: QG_DISCIPLINE_WFQ,
        cpu_mips: mips.as_ptr(),
        cpus: 1,
        max_task: 1000,
        max_flows: 4,
    };
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

/// Step 2: two GS users and one BE user on a preemptive GS_BE_PRIORITY resource.
#[inline(never)]
fn scheduler(storage: &mut qg_scheduler) -> Result<[qg_decision; 5], Failure> {
    let mips = [100u64];
    let config = qg_scheduler_config {
        kind: QG_KIND_GS_BE_PRIORITY_PREEMPTIVE,
        discipline: QG_DISCIPLINE_WFQ,
        cpu_mips: mips.as_ptr(),
        cpus: 1,
        max_task: 1000,
        max_flows: 4,
    };
    let user = qg_registration {
        weight: 1,
        rho: 40,
        sigma: 400,
        imax: 200,
        knowledge: QG_KNOWLEDGE_EXACT,
        window: 0,
    };
    let mut seen = [EXPECTED_DECISIONS[0]; 5];
    let mut n = 0;
    let s: *mut qg_scheduler = storage;
    let (mut u1, mut u2, mut u3) = (0u16, 0u16, 0u16);
    let (mut cpu, mut at) = (0u16, 0u64);
    let mut done = qg_completion {
        cpu: 0,
        task_id: 0,
        work: 0,
        task_class: 0,
        flow: 0,
        started: 0,
    };
    // Asks for decisions at `now` until there is none, recording them.
    let mut drain = |now: u64| -> Result<(), Failure> {
        loop {
            let mut d = EXPECTED_DECISIONS[0];
            // SAFETY: `s` is `storage`, initialised below before the first drain; `d` a local.
            match unsafe { qg_scheduler_next(s, now, &mut d) } {
                QG_NONE => return Ok(()),
                QG_OK if n < seen.len() => {
                    seen[n] = d;
                    n += 1;
                }
                st => return expect("the scheduler decides as expected", st, QG_NONE),
            }
        }
    };
    // SAFETY: every pointer is a reference to a live local or to `storage`; nothing else touches
    // them during the calls.
    unsafe {
        let size = size_of::<qg_scheduler>();
        expect("scheduler init", qg_scheduler_init(s, size, &config), QG_OK)?;
        expect(
            "GS user 1 registers",
            qg_scheduler_register(s, &user, &mut u1),
            QG_OK,
        )?;
        expect(
            "GS user 2 registers",
            qg_scheduler_register(s, &user, &mut u2),
            QG_OK,
        )?;
        let st = qg_scheduler_register(s, &user, &mut u3);
        expect("a third user breaks Eq. 1", st, QG_ERR_RATE_EXCEEDS_SHARE)?;
        ensure("flows 0 and 1", (u1, u2) == (0, 1))?;
        expect(
            "BE task at 0 s",
            qg_scheduler_submit_be(s, 0, 100, 500),
            QG_OK,
        )?;
        drain(0)?;
        let st = qg_scheduler_submit_gs(s, S, u1, 9, 300);
        expect("a task above imax is refused", st, QG_ERR_TASK_TOO_LARGE)?;
        expect("GS task 1", qg_scheduler_submit_gs(s, S, u1, 1, 100), QG_OK)?;
        expect("GS task 2", qg_scheduler_submit_gs(s, S, u2, 2, 150), QG_OK)?;
        drain(S)?;
        for (when, id) in [(2 * S, 1), (3 * S + S / 2, 2), (7 * S + S / 2, 100)] {
            let st = qg_scheduler_next_finish(s, &mut cpu, &mut at);
            expect("a task is running", st, QG_OK)?;
            ensure("it ends when its decision said", (cpu, at) == (0, when))?;
            let st = qg_scheduler_complete(s, when, 0, &mut done);
            expect("the task completes", st, QG_OK)?;
            ensure("the completed task is the one started", done.task_id == id)?;
            drain(when)?;
        }
        let st = qg_scheduler_next_finish(s, &mut cpu, &mut at);
        expect("nothing runs at the end", st, QG_NONE)?;
    }
    ensure("five decisions", n == seen.len())?;
    ensure("the decisions", seen == EXPECTED_DECISIONS)?;
    Ok(seen)
}

/// Step 3: PAP for three clusters.
#[inline(never)]
fn solve_pap() -> Result<qg_allocation, Failure> {
    let mut a = qg_allocation {
        z: 0.0,
        lambda_hat: [0.0; 8],
        active: [false; 8],
        clusters: 0,
    };
    let n = PAP_CLUSTERS.len();
    // SAFETY: the clusters are a constant array of `n` values; `a` a live local.
    let st = unsafe { qg_pap_solve(PAP_CLUSTERS.as_ptr(), n, PAP_RATE, PAP_EPSILON, &mut a) };
    expect("PAP solves", st, QG_OK)?;
    let near = |x: f64, want: f64| (x - want).abs() <= PAP_TOLERANCE * want.abs().max(1.0);
    ensure("PAP: three clusters", a.clusters == 3)?;
    ensure("PAP: z", near(a.z, PAP_Z))?;
    for j in 0..n {
        ensure("PAP: rates", near(a.lambda_hat[j], PAP_LAMBDA_HAT[j]))?;
        ensure("PAP: active set", a.active[j] == PAP_ACTIVE[j])?;
    }
    let total: f64 = a.lambda_hat.iter().sum();
    ensure(
        "PAP: rates add up",
        (total - PAP_RATE).abs() <= PAP_EPSILON * PAP_RATE,
    )?;
    Ok(a)
}

/// Step 4: billiard and RTDP decisions.
#[inline(never)]
fn dispatch(b: &mut qg_billiard, r: &mut qg_rtdp) -> Result<([u32; 10], [u32; 8]), Failure> {
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

/// Step 5: reserve, fit, refuse, release in a slot table of 8 nodes.
#[inline(never)]
fn slot_table(t: &mut qg_slot_table) -> Result<(), Failure> {
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

/// The replay's record of the jobs started and still running.
struct Replay {
    /// Start of each job (index in [`EASY_JOBS`]), seconds.
    starts: [Option<u64>; 10],
    /// End of each running job, ticks.
    ends: [Option<u64>; 10],
}

unsafe extern "C" fn on_start(context: *mut c_void, started: *const qg_started) {
    // SAFETY: `context` is the `Replay` that `easy` passes, borrowed by nothing else during the
    // pass; `started` points to a live record (the API's guarantee).
    let (replay, s) = unsafe { (&mut *context.cast::<Replay>(), &*started) };
    if let Some(j) = EASY_JOBS.iter().position(|job| job.0 == s.id) {
        replay.starts[j] = Some(s.start / S);
        replay.ends[j] = Some(s.start + EASY_JOBS[j].2 * S);
    }
}

/// Step 6: the EASY replay, instant by instant (completions, arrivals, one pass), as the
/// harness's replay does it.
#[inline(never)]
fn easy(b: &mut qg_backfill) -> Result<[u64; 10], Failure> {
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

/// What the bucket of step 7 reports: withholding times, credits and `J(t)`.
type BucketTrace = (
    [u64; BUCKET_WAITS.len()],
    [i64; BUCKET_LEVELS.len()],
    [u64; BUCKET_SUBMITTED.len()],
);

/// Step 7: a GS user's leaky bucket ([`BUCKET`]) at the gateway, before its tasks go to a
/// scheduler. By hand, in instructions (1 MI = 10^6; rho 30 MIPS refills 30 per tick):
///
/// - at 0 s the bucket is full: sigma = 400 MI = 400,000,000;
/// - tasks of 120 and 80 MI conform and are charged imax = 200 MI each: credit 0, `J` = 400 MI;
/// - the third (150 MI) needs 200,000,000: withheld `ceil(200,000,000 / 30)` =
///   `ceil(6,666,666.7)` = 6,666,667 ticks; its charge is refused. Call `T` = 6,666,667;
/// - at `T - 1` the credit is 30 x 6,666,666 = 199,999,980, 20 short: `ceil(20 / 30)` = 1 tick;
/// - at `T` it is 200,000,010: the task conforms and is charged 200 MI, leaving 10; `J` = 600 MI,
///   3 tasks await feedback;
/// - feedback on the first task (charged 200, did 120 MI) refunds 80 MI: credit 80,000,010,
///   `J` = 520 MI, 2 outstanding; a 200 MI task is now 119,999,990 short:
///   `ceil(119,999,990 / 30)` = `ceil(3,999,999.7)` = 4,000,000 ticks;
/// - feedback on the second (charged 200, did 80 MI) refunds 120 MI: credit 200,000,010, so
///   the 200 MI task conforms at once; `J` = 400 MI, 1 outstanding.
#[inline(never)]
fn bucket(b: &mut qg_bucket) -> Result<BucketTrace, Failure> {
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
