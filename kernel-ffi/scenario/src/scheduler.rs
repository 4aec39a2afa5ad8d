//! Step 2: two GS users and one BE user on a preemptive GS_BE_PRIORITY resource of one 100 MIPS
//! CPU (WFQ). Two GS users (weight 1, rho 40 MIPS, sigma 400 MI, imax 200 MI) register; a third
//! is refused by Eq. 1 (`g = 100/3 < 40`). A BE task of 500 MI starts at 0 s; at 1 s a task of
//! 300 MI is refused (above imax), GS tasks of 100 and 150 MI arrive, the BE task is paused with
//! 400 MI left, the GS tasks run to 2 s and 3.5 s, and the BE task resumes to 7.5 s.

use qosgate_ffi::qg_status::*;
use qosgate_ffi::scheduler::*;

use crate::S;
use crate::check::{Failure, ensure, expect};

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

/// The resource's one CPU, MIPS.
static CPU_MIPS: [u64; 1] = [100];

/// The resource: preemptive GS_BE_PRIORITY under WFQ, one CPU of [`CPU_MIPS`], tasks up to
/// 1000 MI, up to 4 flows.
pub(crate) fn config() -> qg_scheduler_config {
    qg_scheduler_config {
        kind: QG_KIND_GS_BE_PRIORITY_PREEMPTIVE,
        discipline: QG_DISCIPLINE_WFQ,
        cpu_mips: CPU_MIPS.as_ptr(),
        cpus: 1,
        max_task: 1000,
        max_flows: 4,
    }
}

/// Registers the users, submits the tasks and drains the decisions at each instant.
#[inline(never)]
pub(crate) fn run(storage: &mut qg_scheduler) -> Result<[qg_decision; 5], Failure> {
    let config = config();
    let user = qg_registration {
        weight: 1,
        rho: 40,
        sigma: 400,
        imax: 200,
        knowledge: QG_KNOWLEDGE_EXACT,
        window: 0,
        entries: 0,
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
