//! The caller's side of the contract that the API checks: each mistake is a status, and leaves
//! the object as it was.

use qosgate_ffi::bucket::*;
use qosgate_ffi::config::{QG_MAX_CLUSTERS, QG_MAX_CPUS, QG_MAX_QUEUE, QG_MAX_REQUEST_TYPES};
use qosgate_ffi::qg_status::{self, *};
use qosgate_ffi::scheduler::*;
use qosgate_ffi::slots::*;

fn config(mips: &[u64; 1], kind: u32) -> qg_scheduler_config {
    qg_scheduler_config {
        kind,
        discipline: QG_DISCIPLINE_WFQ,
        cpu_mips: mips.as_ptr(),
        cpus: 1,
        max_task: 1000,
        max_flows: 4,
    }
}

/// Zeroed storage made a scheduler of `kind` with one CPU of `mips` MIPS.
fn scheduler(mips: u64, kind: u32) -> Box<qg_scheduler> {
    let mut s = Box::new(qg_scheduler::zeroed());
    let size = size_of::<qg_scheduler>();
    // SAFETY: live storage of `size` bytes and a live configuration.
    let st = unsafe { qg_scheduler_init(&mut *s, size, &config(&[mips], kind)) };
    assert_eq!(st, QG_OK);
    s
}

fn next(s: &mut qg_scheduler, decision: *mut qg_decision) -> qg_status {
    // SAFETY: `s` is a live storage; `decision` is null, misaligned (both refused) or a live local.
    unsafe { qg_scheduler_next(s, 0, decision) }
}

/// A refused `init` writes nothing: zeroed storage stays uninitialised, and a live object keeps
/// its state (here a queued task, a credit, a reservation, a waiting job, a dispatcher's place in
/// its sequence) and goes on being usable.
#[test]
fn a_refused_init_leaves_a_live_object_as_it_was() {
    use qosgate_ffi::backfill::*;
    use qosgate_ffi::dispatch::*;

    let size = size_of::<qg_scheduler>();
    let zero_cpu = [0];
    let mut fresh = Box::new(qg_scheduler::zeroed());
    let mut s = scheduler(100, QG_KIND_BE);
    // SAFETY: live storage of their sizes, live configurations, arrays and outputs.
    unsafe {
        let refused = config(&zero_cpu, QG_KIND_BE);
        assert_eq!(
            qg_scheduler_init(&mut *fresh, size, &refused),
            QG_ERR_PARAM_CAPACITY
        );
        assert_eq!(
            qg_scheduler_submit_be(&mut *fresh, 0, 1, 10),
            QG_ERR_UNINITIALISED
        );

        assert_eq!(qg_scheduler_submit_be(&mut *s, 0, 1, 10), QG_OK);
        let st = qg_scheduler_init(&mut *s, size, &refused);
        assert_eq!(st, QG_ERR_PARAM_CAPACITY);
        let bad_kind = config(&[100], 9);
        assert_eq!(qg_scheduler_init(&mut *s, size, &bad_kind), QG_ERR_ARGUMENT);
        assert_eq!(qg_scheduler_submit_be(&mut *s, 0, 2, 10), QG_OK);
        let mut d = std::mem::MaybeUninit::<qg_decision>::uninit();
        assert_eq!(next(&mut s, d.as_mut_ptr()), QG_OK);
        assert_eq!(d.assume_init().task_id, 1, "the task queued before");

        let mut b = Box::new(qg_bucket::zeroed());
        let (p, size) = (&mut *b as *mut qg_bucket, size_of::<qg_bucket>());
        assert_eq!(qg_bucket_init(p, size, 0, &bucket_config(0, 0)), QG_OK);
        assert_eq!(qg_bucket_charge(p, 0, 30, std::ptr::null_mut()), QG_OK);
        let st = qg_bucket_init(p, size, 0, &bucket_config(9, 0));
        assert_eq!(st, QG_ERR_ARGUMENT);
        assert_eq!(level(p, 0), Ok(70_000_000));

        let mut t = Box::new(qg_slot_table::zeroed());
        let (p, size) = (&mut *t as *mut qg_slot_table, size_of::<qg_slot_table>());
        assert_eq!(qg_slots_init(p, size, 4), QG_OK);
        assert_eq!(qg_slots_reserve(p, 0, 10, 3), QG_OK);
        assert_eq!(qg_slots_init(p, size, 0), QG_ERR_PARAM_CAPACITY);
        let mut free = 0;
        assert_eq!(qg_slots_free_at(p, 5, &mut free), QG_OK);
        assert_eq!(free, 1);

        let mut f = Box::new(qg_backfill::zeroed());
        let (p, size) = (&mut *f as *mut qg_backfill, size_of::<qg_backfill>());
        assert_eq!(qg_backfill_init(p, size, QG_POLICY_FCFS, 0, 2), QG_OK);
        let job = qg_job {
            id: 7,
            submit: 0,
            nodes: 2,
            estimate: 10,
        };
        assert_eq!(qg_backfill_submit(p, 0, &job), QG_OK);
        assert_eq!(qg_backfill_init(p, size, 9, 0, 2), QG_ERR_ARGUMENT);
        assert_eq!(
            qg_backfill_init(p, size, QG_POLICY_FCFS, 0, 0),
            QG_ERR_PARAM_CAPACITY
        );
        let mut started = 0;
        assert_eq!(
            qg_backfill_schedule(p, 0, Some(ignore), null(), &mut started),
            QG_OK
        );
        assert_eq!(started, 1, "the job submitted before");

        let mut bl = Box::new(qg_billiard::zeroed());
        let (p, size) = (&mut *bl as *mut qg_billiard, size_of::<qg_billiard>());
        let probabilities = [0.75, 0.25];
        assert_eq!(
            qg_billiard_init(p, size, probabilities.as_ptr(), 2, 0),
            QG_OK
        );
        let mut first = [0; 4];
        for c in &mut first {
            assert_eq!(qg_billiard_next(p, c), QG_OK);
        }
        assert_eq!(
            qg_billiard_init(p, size, probabilities.as_ptr(), 2, 5),
            QG_ERR_DISPATCH_FASTEST_OUT_OF_RANGE
        );
        let mut again = Box::new(qg_billiard::zeroed());
        assert_eq!(
            qg_billiard_init(&mut *again, size, probabilities.as_ptr(), 2, 0),
            QG_OK
        );
        for _ in 0..4 {
            assert_eq!(qg_billiard_next(&mut *again, &mut 0), QG_OK);
        }
        for _ in 0..8 {
            let (mut c, mut want) = (0, 0);
            assert_eq!(qg_billiard_next(p, &mut c), QG_OK);
            assert_eq!(qg_billiard_next(&mut *again, &mut want), QG_OK);
            assert_eq!(c, want, "the sequence goes on where it was");
        }

        let mut r = Box::new(qg_rtdp::zeroed());
        let (p, size) = (&mut *r as *mut qg_rtdp, size_of::<qg_rtdp>());
        let shares = [1.0, 1.0];
        let init = |shares: &[f64]| {
            qg_rtdp_init(
                p,
                size,
                probabilities.as_ptr(),
                2,
                shares.as_ptr(),
                shares.len(),
                0,
            )
        };
        assert_eq!(init(&shares), QG_OK);
        assert_eq!(init(&[0.0, 0.0]), QG_ERR_DISPATCH_ALL_SHARES_ZERO);
        assert_eq!(qg_rtdp_next(p, 1, &mut 0), QG_OK);
    }
}

/// A `qg_on_start` that does nothing.
unsafe extern "C" fn ignore(_: *mut std::ffi::c_void, _: *const qosgate_ffi::backfill::qg_started) {
}

fn null() -> *mut std::ffi::c_void {
    std::ptr::null_mut()
}

/// Every array length is checked against its maximum before the array is read: a length no
/// memory could hold is a status, not a slice of `SIZE_MAX` elements (undefined behaviour, and
/// an abort in a debug build).
#[test]
fn an_array_length_is_checked_before_the_array_is_read() {
    use qosgate_ffi::dispatch::*;
    use qosgate_ffi::pap::*;

    let one = [1.0];
    let huge = usize::MAX;
    let mut b = Box::new(qg_billiard::zeroed());
    let mut r = Box::new(qg_rtdp::zeroed());
    let mut s = Box::new(qg_scheduler::zeroed());
    let cluster = qg_cluster {
        theta: 1.0,
        omega: 1.25,
        local_rate: 0.2,
        tau: 2.0,
        mu: 4.04,
    };
    let mut out = std::mem::MaybeUninit::<qg_allocation>::uninit();
    // SAFETY: live storage of their sizes; each array holds one element, and the call must not
    // read past the maximum it documents.
    unsafe {
        let size = size_of::<qg_billiard>();
        let st = qg_billiard_init(&mut *b, size, one.as_ptr(), huge, 0);
        assert_eq!(st, QG_ERR_DISPATCH_TOO_MANY_CLUSTERS);
        let size = size_of::<qg_rtdp>();
        let st = qg_rtdp_init(&mut *r, size, one.as_ptr(), huge, one.as_ptr(), 1, 0);
        assert_eq!(st, QG_ERR_DISPATCH_TOO_MANY_CLUSTERS);
        let st = qg_rtdp_init(&mut *r, size, one.as_ptr(), 1, one.as_ptr(), huge, 0);
        assert_eq!(st, QG_ERR_DISPATCH_TOO_MANY_TYPES);
        let st = qg_pap_solve(&cluster, huge, 0.1, 1e-9, out.as_mut_ptr());
        assert_eq!(st, QG_ERR_PAP_TOO_MANY_CLUSTERS);
        let mips = [100];
        let c = qg_scheduler_config {
            cpus: huge,
            ..config(&mips, QG_KIND_BE)
        };
        let size = size_of::<qg_scheduler>();
        assert_eq!(qg_scheduler_init(&mut *s, size, &c), QG_ERR_PARAM_CAPACITY);
    }
}

/// A submission refused after the fair queue's clock would have moved (here `QG_ERR_OVERFLOW`
/// at t = 2000: a flow's tags would span more than the clock can compare) leaves the clock as it
/// was: a later submission at t = 1000 is accepted.
#[test]
#[cfg_attr(
    feature = "small",
    ignore = "the overflow needs 129 queued maximal tasks: the small preset queues 32"
)]
fn a_refused_submit_leaves_the_clock_where_it_was() {
    let mut s = Box::new(qg_scheduler::zeroed());
    let size = size_of::<qg_scheduler>();
    let mips = [100];
    let c = qg_scheduler_config {
        max_task: 1 << 39,
        ..config(&mips, QG_KIND_GS)
    };
    let user = qg_registration {
        weight: 1,
        rho: 1,
        sigma: 1 << 39,
        imax: 1 << 39,
        knowledge: QG_KNOWLEDGE_EXACT,
        window: 0,
        entries: 0,
    };
    let (mut big, mut small) = (0, 0);
    // SAFETY: live storage of `size` bytes, live configurations and outputs.
    unsafe {
        let p: *mut qg_scheduler = &mut *s;
        assert_eq!(qg_scheduler_init(p, size, &c), QG_OK);
        assert_eq!(qg_scheduler_register(p, &user, &mut big), QG_OK);
        assert_eq!(qg_scheduler_register(p, &user, &mut small), QG_OK);
        // 128 maximal tasks of weight 1 take the tags 2^62 raw units (2^46 MI) ahead: the most.
        for id in 0..128 {
            assert_eq!(qg_scheduler_submit_gs(p, 0, big, id, 1 << 39), QG_OK);
        }
        let st = qg_scheduler_submit_gs(p, 2000, big, 128, 1 << 39);
        assert_eq!(st, QG_ERR_OVERFLOW);
        assert_eq!(qg_scheduler_submit_gs(p, 1000, small, 129, 1), QG_OK);
    }
}

/// A `qg_on_start` callback that calls back into the backfilling scheduler running it is
/// refused with `QG_ERR_BUSY` (every function, `init` included) and changes nothing: the pass
/// starts each queued job once.
#[test]
fn a_callback_calling_its_own_backfill_is_refused_busy() {
    use qosgate_ffi::backfill::*;
    use std::ffi::c_void;

    struct Context {
        backfill: *mut qg_backfill,
        starts: Vec<u64>,
        statuses: Vec<qg_status>,
    }
    unsafe extern "C" fn reenter(context: *mut c_void, started: *const qg_started) {
        // SAFETY: `context` is the test's live `Context`, `started` the library's live record;
        // the backfill pointer is the one the pass runs on, which the calls below must refuse.
        unsafe {
            let c = &mut *context.cast::<Context>();
            c.starts.push((*started).id);
            let b = c.backfill;
            let job = qg_job {
                id: 100,
                submit: 0,
                nodes: 1,
                estimate: 5,
            };
            let mut count = 0;
            let size = size_of::<qg_backfill>();
            c.statuses.extend([
                qg_backfill_schedule(b, 0, Some(reenter), context, &mut count),
                qg_backfill_submit(b, 0, &job),
                qg_backfill_complete(b, 0, (*started).id, std::ptr::null_mut()),
                qg_backfill_init(b, size, QG_POLICY_FCFS, 0, 8),
            ]);
        }
    }

    let mut storage = Box::new(qg_backfill::zeroed());
    let b: *mut qg_backfill = &mut *storage;
    let mut context = Context {
        backfill: b,
        starts: Vec::new(),
        statuses: Vec::new(),
    };
    let ctx = (&raw mut context).cast::<c_void>();
    let mut count = 0;
    // SAFETY: live storage of its size; `ctx` a live `Context` for `reenter`.
    unsafe {
        let size = size_of::<qg_backfill>();
        assert_eq!(qg_backfill_init(b, size, QG_POLICY_FCFS, 0, 4), QG_OK);
        for id in 0..4 {
            let job = qg_job {
                id,
                submit: 0,
                nodes: 1,
                estimate: 10,
            };
            assert_eq!(qg_backfill_submit(b, 0, &job), QG_OK);
        }
        assert_eq!(
            qg_backfill_schedule(b, 0, Some(reenter), ctx, &mut count),
            QG_OK
        );
        assert_eq!(count, 4);
        assert_eq!(context.starts, [0, 1, 2, 3]);
        assert_eq!(context.statuses, [QG_ERR_BUSY; 16]);
        // Nothing changed: no job waits, the four run, and the object is usable again.
        assert_eq!(
            qg_backfill_schedule(b, 0, Some(ignore), null(), &mut count),
            QG_OK
        );
        assert_eq!(count, 0);
        assert_eq!(qg_backfill_complete(b, 10, 3, std::ptr::null_mut()), QG_OK);
    }
}

#[test]
fn a_bad_output_pointer_is_refused_before_anything_changes() {
    let mut s = scheduler(100, QG_KIND_BE);
    // SAFETY: a live scheduler.
    assert_eq!(unsafe { qg_scheduler_submit_be(&mut *s, 0, 7, 10) }, QG_OK);
    let mut buffer = [0u64; 8];
    let misaligned = buffer
        .as_mut_ptr()
        .cast::<u8>()
        .wrapping_add(4)
        .cast::<qg_decision>();
    assert_eq!(next(&mut s, std::ptr::null_mut()), QG_ERR_NULL);
    assert_eq!(next(&mut s, misaligned), QG_ERR_MISALIGNED);
    // The task was not started by the refused calls: the next good call starts it.
    let mut d = std::mem::MaybeUninit::<qg_decision>::uninit();
    assert_eq!(next(&mut s, d.as_mut_ptr()), QG_OK);
    // SAFETY: QG_OK wrote the decision.
    assert_eq!(unsafe { d.assume_init() }.task_id, 7);
    assert_eq!(next(&mut s, d.as_mut_ptr()), QG_NONE);
}

#[test]
fn out_of_range_codes_and_oversized_arrays_are_refused() {
    let mut s = Box::new(qg_scheduler::zeroed());
    let mips = [100];
    let size = size_of::<qg_scheduler>();
    let mut c = config(&mips, QG_KIND_GS);
    c.discipline = 2;
    let user = qg_registration {
        weight: 1,
        rho: 10,
        sigma: 100,
        imax: 100,
        knowledge: 5,
        window: 0,
        entries: 0,
    };
    let mut flow = 0;
    // SAFETY: live storage of `size` bytes, live configurations and outputs.
    unsafe {
        assert_eq!(qg_scheduler_init(&mut *s, size, &c), QG_ERR_ARGUMENT);
        let many = [100u64; QG_MAX_CPUS + 1];
        c.discipline = QG_DISCIPLINE_SCFQ;
        c.cpu_mips = many.as_ptr();
        c.cpus = many.len();
        assert_eq!(qg_scheduler_init(&mut *s, size, &c), QG_ERR_PARAM_CAPACITY);
        c.cpus = QG_MAX_CPUS;
        assert_eq!(qg_scheduler_init(&mut *s, size, &c), QG_OK);
        let st = qg_scheduler_register(&mut *s, &user, &mut flow);
        assert_eq!(st, QG_ERR_ARGUMENT);
    }
}

/// A user's `entries` reach the kernel: best-effort tasks fill the queue up to them, and the
/// user's own tasks still find room.
#[test]
fn entries_set_aside_at_registration_keep_best_effort_out() {
    /// The entries the user sets aside: three quarters of the queue.
    const KEPT: u16 = (QG_MAX_QUEUE - QG_MAX_QUEUE / 4) as u16;
    let mut s = Box::new(qg_scheduler::zeroed());
    let mips = [100];
    let size = size_of::<qg_scheduler>();
    let user = qg_registration {
        weight: 1,
        rho: 10,
        sigma: 100,
        imax: 100,
        knowledge: QG_KNOWLEDGE_EXACT,
        window: 0,
        entries: KEPT,
    };
    let mut flow = 0;
    // SAFETY: live storage of `size` bytes, live configurations and outputs.
    unsafe {
        let c = config(&mips, QG_KIND_GS_BE_PRIORITY);
        assert_eq!(qg_scheduler_init(&mut *s, size, &c), QG_OK);
        let greedy = qg_registration {
            entries: QG_MAX_QUEUE as u16 + 1,
            ..user
        };
        let st = qg_scheduler_register(&mut *s, &greedy, &mut flow);
        assert_eq!(st, QG_ERR_FULL);
        assert_eq!(qg_scheduler_register(&mut *s, &user, &mut flow), QG_OK);
        let mut id = 0;
        while qg_scheduler_submit_be(&mut *s, 0, id, 10) == QG_OK {
            id += 1;
        }
        assert_eq!(id as usize, QG_MAX_QUEUE - usize::from(KEPT));
        for _ in 0..KEPT {
            assert_eq!(qg_scheduler_submit_gs(&mut *s, 0, flow, id, 10), QG_OK);
            id += 1;
        }
        assert_eq!(
            qg_scheduler_submit_gs(&mut *s, 0, flow, id, 10),
            QG_ERR_FULL
        );
    }
}

/// The scheduler refuses a GS task above its user's imax whatever the user's knowledge mode
/// (the C API registers every user with oversized tasks refused: one admitting them would have
/// no delay bound).
#[test]
fn a_task_above_imax_is_refused_in_every_knowledge_mode() {
    let mut s = Box::new(qg_scheduler::zeroed());
    let mips = [100];
    let size = size_of::<qg_scheduler>();
    let modes = [
        QG_KNOWLEDGE_EXACT,
        QG_KNOWLEDGE_CONSERVATIVE,
        QG_KNOWLEDGE_CONSERVATIVE_FEEDBACK,
        QG_KNOWLEDGE_WINDOW,
        QG_KNOWLEDGE_AGGRESSIVE,
    ];
    // SAFETY: live storage of `size` bytes, live configurations and outputs.
    unsafe {
        let mut c = config(&mips, QG_KIND_GS);
        c.max_flows = 5;
        assert_eq!(qg_scheduler_init(&mut *s, size, &c), QG_OK);
        for (id, knowledge) in (0..).zip(modes) {
            let user = qg_registration {
                weight: 1,
                rho: 10,
                sigma: 100,
                imax: 100,
                knowledge,
                window: 2,
                entries: 0,
            };
            let mut flow = 0;
            assert_eq!(qg_scheduler_register(&mut *s, &user, &mut flow), QG_OK);
            assert_eq!(
                qg_scheduler_submit_gs(&mut *s, 0, flow, id, 101),
                QG_ERR_TASK_TOO_LARGE,
                "knowledge {knowledge}"
            );
            assert_eq!(qg_scheduler_submit_gs(&mut *s, 0, flow, id, 100), QG_OK);
        }
    }
}

/// A CPU serves exact work: a task started at the tick its CPU's previous task ended goes on
/// in that tick, so the reported ends are the exact ends rounded up, not sums of rounded run
/// times. Three 1 MI tasks on a 3 MIPS CPU end at 333,333.3, 666,666.7 and 1,000,000 µs:
/// reported 333,334, 666,667 and 1,000,000 (rounding each run time up would give 333,334,
/// 666,668 and 1,000,002).
#[test]
fn back_to_back_tasks_end_at_their_exact_ends() {
    let mut s = scheduler(3, QG_KIND_BE);
    let mut d = std::mem::MaybeUninit::<qg_decision>::uninit();
    // SAFETY: a live scheduler and outputs.
    unsafe {
        for id in 0..3 {
            assert_eq!(qg_scheduler_submit_be(&mut *s, 0, id, 1), QG_OK);
        }
        let mut now = 0;
        let mut ends = Vec::new();
        while qg_scheduler_next(&mut *s, now, d.as_mut_ptr()) == QG_OK {
            now = d.assume_init().finish;
            ends.push(now);
            let st = qg_scheduler_complete(&mut *s, now, 0, std::ptr::null_mut());
            assert_eq!(st, QG_OK);
        }
        assert_eq!(ends, [333_334, 666_667, 1_000_000]);
    }
}

fn bucket_config(knowledge: u32, window: u16) -> qg_bucket_config {
    qg_bucket_config {
        rho: 10,
        sigma: 100,
        imax: 50,
        knowledge,
        window,
    }
}

fn level(b: *mut qg_bucket, now: u64) -> Result<i64, qg_status> {
    let mut level = 0;
    // SAFETY: `b` is null, misaligned (both refused) or live storage; `level` a live local.
    match unsafe { qg_bucket_level(b, now, &mut level) } {
        QG_OK => Ok(level),
        st => Err(st),
    }
}

#[test]
fn bucket_storage_is_checked_like_every_object() {
    let mut b = Box::new(qg_bucket::zeroed());
    let size = size_of::<qg_bucket>();
    assert_eq!(size, QG_BUCKET_SIZE);
    assert_eq!(align_of::<qg_bucket>(), 8);
    let p: *mut qg_bucket = &mut *b;
    let misaligned = p.cast::<u8>().wrapping_add(1).cast::<qg_bucket>();
    let good = bucket_config(QG_KNOWLEDGE_EXACT, 0);
    let mut out = qg_conformance { kind: 9, wait: 9 };
    let mut buffer = [0u64; 8];
    let misaligned_config = buffer
        .as_mut_ptr()
        .cast::<u8>()
        .wrapping_add(4)
        .cast::<qg_bucket_config>();
    // SAFETY: every pointer is null, misaligned (both refused before use) or live storage or a
    // live local of its type.
    unsafe {
        assert_eq!(qg_bucket_check(p, 0, 1, &mut out), QG_ERR_UNINITIALISED);
        assert_eq!(level(p, 0), Err(QG_ERR_UNINITIALISED));
        let receipt = qg_charge {
            charged: 1,
            mark: 1,
        };
        assert_eq!(qg_bucket_feedback(p, 0, &receipt, 1), QG_ERR_UNINITIALISED);
        assert_eq!(qg_bucket_withdraw(p, 0, &receipt), QG_ERR_UNINITIALISED);
        let null = std::ptr::null_mut();
        assert_eq!(qg_bucket_init(null, size, 0, &good), QG_ERR_NULL);
        assert_eq!(qg_bucket_check(null, 0, 1, &mut out), QG_ERR_NULL);
        assert_eq!(qg_bucket_charge(null, 0, 1, null.cast()), QG_ERR_NULL);
        assert_eq!(qg_bucket_feedback(null, 0, &receipt, 1), QG_ERR_NULL);
        assert_eq!(qg_bucket_withdraw(null, 0, &receipt), QG_ERR_NULL);
        assert_eq!(qg_bucket_init(p, size, 0, std::ptr::null()), QG_ERR_NULL);
        assert_eq!(
            qg_bucket_init(misaligned, size, 0, &good),
            QG_ERR_MISALIGNED
        );
        assert_eq!(
            qg_bucket_check(misaligned, 0, 1, &mut out),
            QG_ERR_MISALIGNED
        );
        let st = qg_bucket_withdraw(misaligned, 0, &receipt);
        assert_eq!(st, QG_ERR_MISALIGNED);
        let st = qg_bucket_init(p, size, 0, misaligned_config);
        assert_eq!(st, QG_ERR_MISALIGNED);
        assert_eq!(qg_bucket_init(p, size - 8, 0, &good), QG_ERR_SIZE);
        assert_eq!(qg_bucket_init(p, size, 0, &good), QG_OK);
        assert_eq!(level(p, 0), Ok(100_000_000));
        // An unknown knowledge code fails the init, which leaves the live bucket as it was.
        let st = qg_bucket_init(p, size, 0, &bucket_config(5, 0));
        assert_eq!(st, QG_ERR_ARGUMENT);
        assert_eq!(level(p, 0), Ok(100_000_000));
        // The kernel's parameter checks.
        let window_zero = bucket_config(QG_KNOWLEDGE_WINDOW, 0);
        assert_eq!(
            qg_bucket_init(p, size, 0, &window_zero),
            QG_ERR_PARAM_WINDOW
        );
        let mut c = good;
        c.rho = 0;
        assert_eq!(qg_bucket_init(p, size, 0, &c), QG_ERR_PARAM_RATE);
        c = good;
        c.imax = 0;
        assert_eq!(qg_bucket_init(p, size, 0, &c), QG_ERR_PARAM_MAX_WORK);
        c = good;
        c.sigma = 49;
        assert_eq!(qg_bucket_init(p, size, 0, &c), QG_ERR_PARAM_BURST);
        assert_eq!(level(p, 0), Ok(100_000_000));
    }
}

#[test]
fn another_objects_storage_is_not_a_bucket() {
    let mut t = Box::new(qg_slot_table::zeroed());
    let mut b = Box::new(qg_bucket::zeroed());
    let config = bucket_config(QG_KNOWLEDGE_EXACT, 0);
    // SAFETY: live storages of their sizes; the slot table is larger than a bucket, so reading
    // it as one stays in bounds.
    unsafe {
        assert_eq!(qg_slots_init(&mut *t, size_of::<qg_slot_table>(), 8), QG_OK);
        let as_bucket = (&raw mut *t).cast::<qg_bucket>();
        assert_eq!(level(as_bucket, 0), Err(QG_ERR_UNINITIALISED));
        assert_eq!(
            qg_bucket_init(&mut *b, size_of::<qg_bucket>(), 0, &config),
            QG_OK
        );
        let mut free = 0;
        let st = qg_slots_free_at((&raw mut *b).cast(), 0, &mut free);
        assert_eq!(st, QG_ERR_UNINITIALISED);
    }
}

#[test]
fn a_bad_bucket_output_is_refused_before_anything_changes() {
    let mut b = Box::new(qg_bucket::zeroed());
    let p: *mut qg_bucket = &mut *b;
    let config = bucket_config(QG_KNOWLEDGE_CONSERVATIVE_FEEDBACK, 0);
    let mut buffer = [0u64; 4];
    let odd = buffer.as_mut_ptr().cast::<u8>().wrapping_add(4);
    let (mut submitted, mut outstanding) = (0u64, 0u16);
    let mut receipt = qg_charge {
        charged: 0,
        mark: 0,
    };
    // SAFETY: every pointer is null, misaligned (both refused before use) or live storage or a
    // live local of its type.
    unsafe {
        assert_eq!(qg_bucket_init(p, size_of::<qg_bucket>(), 0, &config), QG_OK);
        assert_eq!(qg_bucket_check(p, 0, 1, std::ptr::null_mut()), QG_ERR_NULL);
        assert_eq!(qg_bucket_check(p, 0, 1, odd.cast()), QG_ERR_MISALIGNED);
        assert_eq!(qg_bucket_charge(p, 0, 1, odd.cast()), QG_ERR_MISALIGNED);
        assert_eq!(qg_bucket_level(p, 0, std::ptr::null_mut()), QG_ERR_NULL);
        assert_eq!(qg_bucket_level(p, 0, odd.cast()), QG_ERR_MISALIGNED);
        assert_eq!(qg_bucket_submitted(p, std::ptr::null_mut()), QG_ERR_NULL);
        assert_eq!(qg_bucket_outstanding(p, std::ptr::null_mut()), QG_ERR_NULL);
        let odd16 = odd.wrapping_add(1).cast::<u16>();
        assert_eq!(qg_bucket_outstanding(p, odd16), QG_ERR_MISALIGNED);
        // Nothing was charged by the refused calls.
        assert_eq!(level(p, 0), Ok(100_000_000));
        assert_eq!(qg_bucket_submitted(p, &mut submitted), QG_OK);
        assert_eq!(qg_bucket_outstanding(p, &mut outstanding), QG_OK);
        assert_eq!((submitted, outstanding), (0, 0));
        // The receipt is optional at the charge...
        assert_eq!(qg_bucket_charge(p, 0, 1, std::ptr::null_mut()), QG_OK);
        assert_eq!(level(p, 0), Ok(50_000_000));
        assert_eq!(qg_bucket_charge(p, 0, 1, &mut receipt), QG_OK);
        assert_eq!(
            receipt,
            qg_charge {
                charged: 50,
                mark: 100
            }
        );
        // ... and required by feedback and withdrawal, which refuse a bad one before anything
        // changes.
        let (null, odd_receipt) = (std::ptr::null(), odd.cast::<qg_charge>().cast_const());
        assert_eq!(qg_bucket_feedback(p, 0, null, 10), QG_ERR_NULL);
        assert_eq!(qg_bucket_feedback(p, 0, odd_receipt, 10), QG_ERR_MISALIGNED);
        assert_eq!(qg_bucket_withdraw(p, 0, null), QG_ERR_NULL);
        assert_eq!(qg_bucket_withdraw(p, 0, odd_receipt), QG_ERR_MISALIGNED);
        assert_eq!(qg_bucket_outstanding(p, &mut outstanding), QG_OK);
        assert_eq!((level(p, 0), outstanding), (Ok(0), 2));
    }
}

#[test]
fn bucket_refusals_are_the_kernels_codes() {
    let mut b = Box::new(qg_bucket::zeroed());
    let p: *mut qg_bucket = &mut *b;
    let mut receipt = qg_charge {
        charged: 50,
        mark: 50,
    };
    let mut out = qg_conformance { kind: 9, wait: 9 };
    // SAFETY: live storage and live locals.
    unsafe {
        let config = bucket_config(QG_KNOWLEDGE_CONSERVATIVE_FEEDBACK, 0);
        assert_eq!(qg_bucket_init(p, size_of::<qg_bucket>(), 5, &config), QG_OK);
        assert_eq!(qg_bucket_check(p, 5, 0, &mut out), QG_ERR_PARAM_WORK);
        assert_eq!(qg_bucket_check(p, 5, 51, &mut out), QG_ERR_TASK_TOO_LARGE);
        assert_eq!(
            qg_bucket_check(p, 4, 1, &mut out),
            QG_ERR_TIME_WENT_BACKWARDS
        );
        assert_eq!(level(p, 4), Err(QG_ERR_TIME_WENT_BACKWARDS));
        assert_eq!(qg_bucket_feedback(p, 5, &receipt, 10), QG_ERR_UNKNOWN);
        assert_eq!(qg_bucket_withdraw(p, 5, &receipt), QG_ERR_UNKNOWN);
        assert_eq!(qg_bucket_charge(p, 5, 10, &mut receipt), QG_OK);
        assert_eq!(qg_bucket_feedback(p, 5, &receipt, 0), QG_ERR_PARAM_WORK);
        assert_eq!(
            qg_bucket_feedback(p, 4, &receipt, 10),
            QG_ERR_TIME_WENT_BACKWARDS
        );
        assert_eq!(
            qg_bucket_withdraw(p, 4, &receipt),
            QG_ERR_TIME_WENT_BACKWARDS
        );
        let huge = qg_charge {
            charged: u64::MAX,
            mark: 0,
        };
        assert_eq!(qg_bucket_withdraw(p, 5, &huge), QG_ERR_OVERFLOW);
        // None of the refused calls changed the bucket.
        assert_eq!(level(p, 5), Ok(50_000_000));
        assert_eq!(qg_bucket_feedback(p, 5, &receipt, 10), QG_OK);
        assert_eq!(level(p, 5), Ok(90_000_000));
    }
}

#[test]
fn every_conformance_reaches_c() {
    let mut b = Box::new(qg_bucket::zeroed());
    let p: *mut qg_bucket = &mut *b;
    let size = size_of::<qg_bucket>();
    let mut receipt = qg_charge {
        charged: 9,
        mark: 9,
    };
    let mut out = qg_conformance { kind: 9, wait: 9 };
    // SAFETY: live storage and live locals.
    unsafe {
        // EXACT charges the work: 100 MI of credit at 10 MIPS, 50 + 40 charged, 10 left; a
        // 50 MI task is 40 MI short: 4 s.
        let exact = bucket_config(QG_KNOWLEDGE_EXACT, 0);
        assert_eq!(qg_bucket_init(p, size, 0, &exact), QG_OK);
        assert_eq!(qg_bucket_charge(p, 0, 50, &mut receipt), QG_OK);
        assert_eq!(receipt.charged, 50);
        assert_eq!(qg_bucket_charge(p, 0, 40, &mut receipt), QG_OK);
        assert_eq!(qg_bucket_check(p, 0, 50, &mut out), QG_OK);
        assert_eq!(
            out,
            qg_conformance {
                kind: QG_CONFORMANCE_AFTER,
                wait: 4_000_000
            }
        );
        // WINDOW(1) charges nothing and lets one task through until feedback.
        let window = bucket_config(QG_KNOWLEDGE_WINDOW, 1);
        assert_eq!(qg_bucket_init(p, size, 0, &window), QG_OK);
        assert_eq!(qg_bucket_charge(p, 0, 50, &mut receipt), QG_OK);
        assert_eq!(
            receipt,
            qg_charge {
                charged: 0,
                mark: 0
            }
        );
        assert_eq!(qg_bucket_check(p, 0, 1, &mut out), QG_OK);
        let on_feedback = qg_conformance {
            kind: QG_CONFORMANCE_ON_FEEDBACK,
            wait: 0,
        };
        assert_eq!(out, on_feedback);
        assert_eq!(
            qg_bucket_charge(p, 0, 1, &mut receipt),
            QG_ERR_NON_CONFORMING
        );
        // The real work, 150 MI, against 100 MI of credit: 50 MI of debt, repaid in 5 s.
        assert_eq!(qg_bucket_feedback(p, 0, &receipt, 150), QG_OK);
        assert_eq!(level(p, 0), Ok(-50_000_000));
        assert_eq!(qg_bucket_check(p, 0, 1, &mut out), QG_OK);
        assert_eq!(
            out,
            qg_conformance {
                kind: QG_CONFORMANCE_AFTER,
                wait: 5_000_000
            }
        );
        assert_eq!(qg_bucket_check(p, 5_000_000, 1, &mut out), QG_OK);
        let now = qg_conformance {
            kind: QG_CONFORMANCE_NOW,
            wait: 0,
        };
        assert_eq!(out, now);
    }
}

/// A receipt, a bucket and a level: charges `works` at `now` and returns their receipts.
fn charge_all(p: *mut qg_bucket, now: u64, works: &[u64]) -> Vec<qg_charge> {
    works
        .iter()
        .map(|&w| {
            let mut r = qg_charge {
                charged: 9,
                mark: 9,
            };
            // SAFETY: `p` is live storage; `r` a live local.
            assert_eq!(unsafe { qg_bucket_charge(p, now, w, &mut r) }, QG_OK);
            r
        })
        .collect()
}

fn outstanding(p: *mut qg_bucket) -> u16 {
    let mut n = 0;
    // SAFETY: `p` is live storage; `n` a live local.
    assert_eq!(unsafe { qg_bucket_outstanding(p, &mut n) }, QG_OK);
    n
}

fn submitted(p: *mut qg_bucket) -> u64 {
    let mut j = 0;
    // SAFETY: `p` is live storage; `j` a live local.
    assert_eq!(unsafe { qg_bucket_submitted(p, &mut j) }, QG_OK);
    j
}

/// The receipt's mark reaches the kernel: a refund is limited by the work charged after the
/// task (sigma 100 MI, imax 50 MI, 10 MIPS).
#[test]
fn a_refund_is_limited_by_the_work_charged_after_the_task() {
    let mut b = Box::new(qg_bucket::zeroed());
    let p: *mut qg_bucket = &mut *b;
    let config = bucket_config(QG_KNOWLEDGE_CONSERVATIVE_FEEDBACK, 0);
    // SAFETY: live storage and live locals.
    unsafe {
        assert_eq!(qg_bucket_init(p, size_of::<qg_bucket>(), 0, &config), QG_OK);
        // Two tasks empty the bucket; it refills in 10 s and two more empty it again.
        let mut r = charge_all(p, 0, &[10, 10]);
        r.extend(charge_all(p, 10_000_000, &[10, 10]));
        let marks: Vec<u64> = r.iter().map(|r| r.mark).collect();
        assert_eq!(marks, [50, 100, 150, 200]);
        assert_eq!(level(p, 10_000_000), Ok(0));
        // 150 MI were charged after the first: its 40 MI refund would pass sigma less that
        // (-50 MI), so the credit stays 0; J(t) is corrected all the same.
        assert_eq!(qg_bucket_feedback(p, 10_000_000, &r[0], 10), QG_OK);
        assert_eq!(level(p, 10_000_000), Ok(0));
        assert_eq!(submitted(p), 160);
        // Nothing was charged after the last: its refund is whole.
        assert_eq!(qg_bucket_feedback(p, 10_000_000, &r[3], 10), QG_OK);
        assert_eq!(level(p, 10_000_000), Ok(40_000_000));
        // 50 MI after the third: a refund of 40 MI capped at 100 - 50 = 50 MI of credit.
        assert_eq!(qg_bucket_withdraw(p, 10_000_000, &r[2]), QG_OK);
        assert_eq!(level(p, 10_000_000), Ok(50_000_000));
        assert_eq!((submitted(p), outstanding(p)), (70, 1));
    }
}

/// `qg_bucket_withdraw` closes a task's account: feedback of zero work under the feedback
/// modes, nothing under `EXACT` and `CONSERVATIVE`.
#[test]
fn a_withdrawn_task_closes_its_account_in_every_mode() {
    let mut b = Box::new(qg_bucket::zeroed());
    let p: *mut qg_bucket = &mut *b;
    let size = size_of::<qg_bucket>();
    let mut out = qg_conformance { kind: 9, wait: 9 };
    // SAFETY: live storage and live locals.
    unsafe {
        // CONSERVATIVE_FEEDBACK: the 50 MI charge comes back whole (nothing charged after it).
        let feedback = bucket_config(QG_KNOWLEDGE_CONSERVATIVE_FEEDBACK, 0);
        assert_eq!(qg_bucket_init(p, size, 0, &feedback), QG_OK);
        let r = charge_all(p, 0, &[7]);
        assert_eq!(
            (level(p, 0), submitted(p), outstanding(p)),
            (Ok(50_000_000), 50, 1)
        );
        assert_eq!(qg_bucket_withdraw(p, 0, &r[0]), QG_OK);
        assert_eq!(
            (level(p, 0), submitted(p), outstanding(p)),
            (Ok(100_000_000), 0, 0)
        );
        assert_eq!(qg_bucket_withdraw(p, 0, &r[0]), QG_ERR_UNKNOWN);
        // WINDOW(1): nothing was charged, but the window's one place is free again.
        let window = bucket_config(QG_KNOWLEDGE_WINDOW, 1);
        assert_eq!(qg_bucket_init(p, size, 0, &window), QG_OK);
        let r = charge_all(p, 0, &[7]);
        assert_eq!(qg_bucket_check(p, 0, 7, &mut out), QG_OK);
        assert_eq!(out.kind, QG_CONFORMANCE_ON_FEEDBACK);
        assert_eq!(qg_bucket_withdraw(p, 0, &r[0]), QG_OK);
        assert_eq!(qg_bucket_check(p, 0, 7, &mut out), QG_OK);
        assert_eq!(out.kind, QG_CONFORMANCE_NOW);
        assert_eq!(
            (level(p, 0), submitted(p), outstanding(p)),
            (Ok(100_000_000), 0, 0)
        );
        // AGGRESSIVE: likewise, nothing to refund.
        let aggressive = bucket_config(QG_KNOWLEDGE_AGGRESSIVE, 0);
        assert_eq!(qg_bucket_init(p, size, 0, &aggressive), QG_OK);
        let r = charge_all(p, 0, &[7]);
        assert_eq!(qg_bucket_withdraw(p, 0, &r[0]), QG_OK);
        assert_eq!(
            (level(p, 0), submitted(p), outstanding(p)),
            (Ok(100_000_000), 0, 0)
        );
        // EXACT and CONSERVATIVE keep the charge: the call is accepted and changes nothing.
        for (knowledge, charge) in [(QG_KNOWLEDGE_EXACT, 7), (QG_KNOWLEDGE_CONSERVATIVE, 50)] {
            let config = bucket_config(knowledge, 0);
            assert_eq!(qg_bucket_init(p, size, 0, &config), QG_OK);
            let r = charge_all(p, 0, &[7]);
            assert_eq!(r[0].charged, charge);
            assert_eq!(qg_bucket_withdraw(p, 0, &r[0]), QG_OK);
            let kept = Ok((100 - charge as i64) * 1_000_000);
            assert_eq!(
                (level(p, 0), submitted(p), outstanding(p)),
                (kept, charge, 0)
            );
            assert_eq!(qg_bucket_withdraw(p, 0, &r[0]), QG_OK);
            assert_eq!(qg_bucket_withdraw(p, 0, std::ptr::null()), QG_ERR_NULL);
        }
    }
}

/// The kernel reports a bad solver input as one shared type (input, problem); each keeps the
/// status code it had, one per refusal that `qg_pap_solve` and the dispatchers' `init` can give.
#[test]
fn solver_refusals_keep_their_status_codes() {
    use qosgate_ffi::dispatch::*;
    use qosgate_ffi::pap::*;

    // The README's three clusters: feasible at external rate 2.
    let ok = qg_cluster {
        theta: 1.0,
        omega: 1.25,
        local_rate: 0.2,
        tau: 2.0,
        mu: 4.04,
    };
    let pap = |clusters: &[qg_cluster], rate: f64, epsilon: f64| {
        let mut out = qg_allocation {
            z: 0.0,
            lambda_hat: [0.0; QG_MAX_CLUSTERS],
            active: [false; QG_MAX_CLUSTERS],
            clusters: 0,
        };
        // SAFETY: a live array of `clusters.len()` clusters and a live output.
        unsafe { qg_pap_solve(clusters.as_ptr(), clusters.len(), rate, epsilon, &mut out) }
    };
    let one = |c: qg_cluster| pap(&[c], 0.1, 1e-9);
    assert_eq!(pap(&[ok], 0.1, 1e-9), QG_OK);
    assert_eq!(pap(&[], 0.1, 1e-9), QG_ERR_PAP_NO_CLUSTERS);
    assert_eq!(
        pap(&[ok; QG_MAX_CLUSTERS + 1], 0.1, 1e-9),
        QG_ERR_PAP_TOO_MANY_CLUSTERS
    );
    assert_eq!(pap(&[ok], f64::NAN, 1e-9), QG_ERR_PAP_NOT_FINITE);
    assert_eq!(pap(&[ok], -1.0, 1e-9), QG_ERR_PAP_NEGATIVE);
    for epsilon in [0.9, 0.0, f64::NAN, f64::INFINITY] {
        assert_eq!(pap(&[ok], 0.1, epsilon), QG_ERR_PAP_EPSILON, "{epsilon}");
    }
    let theta = |theta| qg_cluster { theta, ..ok };
    assert_eq!(one(theta(f64::INFINITY)), QG_ERR_PAP_NOT_FINITE);
    assert_eq!(one(theta(-1.0)), QG_ERR_PAP_NEGATIVE);
    assert_eq!(one(qg_cluster { mu: -1.0, ..ok }), QG_ERR_PAP_NEGATIVE);
    assert_eq!(one(theta(0.0)), QG_ERR_PAP_THETA_ZERO);
    assert_eq!(
        one(qg_cluster { omega: 0.5, ..ok }),
        QG_ERR_PAP_OMEGA_BELOW_THETA_SQUARED
    );
    assert_eq!(
        one(qg_cluster { mu: 3.0, ..ok }),
        QG_ERR_PAP_MU_BELOW_TAU_SQUARED
    );
    assert_eq!(
        one(qg_cluster {
            local_rate: 0.5,
            ..ok
        }),
        QG_ERR_PAP_SATURATED
    );
    assert_eq!(pap(&[ok], 100.0, 1e-9), QG_ERR_PAP_INFEASIBLE);

    let mut b = Box::new(qg_billiard::zeroed());
    let billiard = |b: &mut qg_billiard, p: &[f64], fastest: usize| {
        // SAFETY: live storage of its size and a live array of `p.len()` values.
        unsafe { qg_billiard_init(b, size_of::<qg_billiard>(), p.as_ptr(), p.len(), fastest) }
    };
    assert_eq!(billiard(&mut b, &[0.5, 0.5], 0), QG_OK);
    assert_eq!(billiard(&mut b, &[], 0), QG_ERR_DISPATCH_NO_CLUSTERS);
    assert_eq!(
        billiard(&mut b, &[1.0; QG_MAX_CLUSTERS + 1], 0),
        QG_ERR_DISPATCH_TOO_MANY_CLUSTERS
    );
    assert_eq!(
        billiard(&mut b, &[1.0, f64::NAN], 0),
        QG_ERR_DISPATCH_PROBABILITY_NOT_FINITE
    );
    assert_eq!(
        billiard(&mut b, &[1.0, -1.0], 0),
        QG_ERR_DISPATCH_PROBABILITY_NEGATIVE
    );
    assert_eq!(
        billiard(&mut b, &[0.0, 0.0], 0),
        QG_ERR_DISPATCH_ALL_PROBABILITIES_ZERO
    );
    assert_eq!(
        billiard(&mut b, &[1.0, 1e-12], 0),
        QG_ERR_DISPATCH_PROBABILITY_TOO_SMALL
    );
    assert_eq!(
        billiard(&mut b, &[1.0, 1.0], 2),
        QG_ERR_DISPATCH_FASTEST_OUT_OF_RANGE
    );

    let mut r = Box::new(qg_rtdp::zeroed());
    let rtdp = |r: &mut qg_rtdp, shares: &[f64]| {
        let p = [0.5, 0.5];
        // SAFETY: live storage of its size and live arrays of the lengths passed.
        unsafe {
            let size = size_of::<qg_rtdp>();
            qg_rtdp_init(r, size, p.as_ptr(), 2, shares.as_ptr(), shares.len(), 0)
        }
    };
    assert_eq!(rtdp(&mut r, &[1.0, 1.0]), QG_OK);
    assert_eq!(rtdp(&mut r, &[]), QG_ERR_DISPATCH_NO_TYPES);
    assert_eq!(
        rtdp(&mut r, &[1.0; QG_MAX_REQUEST_TYPES + 1]),
        QG_ERR_DISPATCH_TOO_MANY_TYPES
    );
    assert_eq!(
        rtdp(&mut r, &[1.0, f64::NAN]),
        QG_ERR_DISPATCH_SHARE_NOT_FINITE
    );
    assert_eq!(rtdp(&mut r, &[1.0, -1.0]), QG_ERR_DISPATCH_SHARE_NEGATIVE);
    assert_eq!(rtdp(&mut r, &[0.0, 0.0]), QG_ERR_DISPATCH_ALL_SHARES_ZERO);
}

/// The library's ABI version is the header's, and `qg_sizeof` answers `size_of` of every struct
/// of the header (what `qg_abi_matches()` compares with the caller's `sizeof`), and 0 past them.
#[test]
fn the_abi_version_and_every_size_are_the_librarys() {
    use qosgate_ffi::abi::*;
    use qosgate_ffi::backfill::*;
    use qosgate_ffi::dispatch::*;
    use qosgate_ffi::pap::*;

    assert_eq!(qg_abi_version(), QG_ABI_VERSION);
    assert_eq!(QG_ABI_VERSION, 5);
    let sizes = [
        (QG_OBJECT_SCHEDULER, size_of::<qg_scheduler>()),
        (QG_OBJECT_BUCKET, size_of::<qg_bucket>()),
        (QG_OBJECT_BILLIARD, size_of::<qg_billiard>()),
        (QG_OBJECT_RTDP, size_of::<qg_rtdp>()),
        (QG_OBJECT_SLOT_TABLE, size_of::<qg_slot_table>()),
        (QG_OBJECT_BACKFILL, size_of::<qg_backfill>()),
        (QG_OBJECT_SCHEDULER_CONFIG, size_of::<qg_scheduler_config>()),
        (QG_OBJECT_REGISTRATION, size_of::<qg_registration>()),
        (QG_OBJECT_DECISION, size_of::<qg_decision>()),
        (QG_OBJECT_COMPLETION, size_of::<qg_completion>()),
        (QG_OBJECT_BUCKET_CONFIG, size_of::<qg_bucket_config>()),
        (QG_OBJECT_CONFORMANCE, size_of::<qg_conformance>()),
        (QG_OBJECT_CHARGE, size_of::<qg_charge>()),
        (QG_OBJECT_CLUSTER, size_of::<qg_cluster>()),
        (QG_OBJECT_ALLOCATION, size_of::<qg_allocation>()),
        (QG_OBJECT_JOB, size_of::<qg_job>()),
        (QG_OBJECT_STARTED, size_of::<qg_started>()),
        (QG_OBJECT_ENDED, size_of::<qg_ended>()),
    ];
    assert_eq!(sizes.len(), QG_OBJECTS as usize, "every QG_OBJECT_* code");
    for (i, (kind, size)) in sizes.into_iter().enumerate() {
        assert_eq!(kind as usize, i, "codes 0 to QG_OBJECTS - 1, in order");
        assert_eq!(qg_sizeof(kind), size, "QG_OBJECT code {kind}");
    }
    assert_eq!(QG_SCHEDULER_SIZE, qg_sizeof(QG_OBJECT_SCHEDULER));
    for kind in [QG_OBJECTS, QG_OBJECTS + 1, u32::MAX] {
        assert_eq!(qg_sizeof(kind), 0, "no struct has code {kind}");
    }
}

/// Every function of the header states its calling context in one of the two uniform lines
/// (the crate documentation's "Calling context"), and the header's `qg_abi_matches` too.
#[test]
fn every_function_of_the_header_states_its_context() {
    let h = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../include/qosgate.h");
    let h = std::fs::read_to_string(h).expect("the header");
    const TAGS: [&str; 2] = [
        "Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.",
        "Context: ISR-safe; non-blocking; bounded time; no global state; reentrant (no object).",
    ];
    let mut comment: Vec<&str> = Vec::new();
    let mut functions = 0;
    for line in h.lines() {
        if let Some(c) = line.strip_prefix("//").or_else(|| line.strip_prefix(" *")) {
            comment.push(c.trim());
            continue;
        }
        let top_level = !line.starts_with([' ', '#', '}']);
        let name = line
            .split_once('(')
            .map(|(head, _)| head.rsplit([' ', '*']).next());
        let declares = top_level && name.flatten().is_some_and(|n| n.starts_with("qg_"));
        let is_function = declares && !line.starts_with("typedef");
        if is_function {
            let tagged = comment.iter().filter(|c| TAGS.contains(c)).count();
            assert_eq!(tagged, 1, "one context line for: {line}");
            functions += 1;
        }
        // A declaration's comment ends at its first line of code (blank lines and the
        // preprocessor lines before `qg_abi_matches` keep it).
        if !(line.trim().is_empty() || line.starts_with('#')) || is_function {
            comment.clear();
        }
    }
    assert_eq!(functions, 34, "the 33 library functions and qg_abi_matches");
}
