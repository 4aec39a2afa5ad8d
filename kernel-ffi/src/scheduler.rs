//! `qg_scheduler`: one resource's local scheduler ([`qosgate_kernel::resource`]) of the
//! capacity preset ([`crate::config`]): up to `QG_MAX_USERS` users, `QG_MAX_QUEUE` queued tasks
//! per queue and `QG_MAX_CPUS` CPUs (64, 256 and 32; 8, 32 and 1 in the small preset).
//!
//! The caller drives it as the kernel documents: report arrivals (`qg_scheduler_submit_gs`,
//! `qg_scheduler_submit_be`) and completions (`qg_scheduler_complete`), then ask
//! `qg_scheduler_next` until it answers `QG_NONE`; `qg_scheduler_next_finish` tells when the next
//! running task ends. Times are ticks (µs) and never decrease; work is in MI, rates in MIPS.
//!
//! Cost per call (the kernel's bounds): registration `O(users)`; submit `O(log users)`; next
//! `O(log users + CPUs)`; complete `O(1)` plus closing a temporary flow; next finish `O(CPUs)`.

use qosgate_kernel::bucket::{Knowledge, Oversize};
use qosgate_kernel::error::Refused;
use qosgate_kernel::fairq::{Discipline, FlowId};
use qosgate_kernel::registry::Registration;
use qosgate_kernel::resource::{Class, Completion, Decision, Kind, Task};
use qosgate_kernel::units::{Mips, Ticks, Work};

use crate::config::{QG_MAX_CPUS, Scheduler};
use crate::instance::{self, storage};
use crate::log::trace;
use crate::status::done;
use crate::status::qg_status::{self, *};

/// Storage for one scheduler: declare it `static` (or zero it) and pass it to
/// `qg_scheduler_init` with `sizeof`.
#[repr(C, align(8))]
pub struct qg_scheduler {
    _opaque: [u8; QG_SCHEDULER_SIZE],
}

/// Bytes of a `qg_scheduler` (64-bit targets, reference capacities).
#[cfg(all(target_pointer_width = "64", not(feature = "small")))]
pub const QG_SCHEDULER_SIZE: usize = 15792;
/// Bytes of a `qg_scheduler` (32-bit targets, reference capacities).
#[cfg(all(target_pointer_width = "32", not(feature = "small")))]
pub const QG_SCHEDULER_SIZE: usize = 15776;
/// Bytes of a `qg_scheduler` (64-bit targets, small capacities).
#[cfg(all(target_pointer_width = "64", feature = "small"))]
pub const QG_SCHEDULER_SIZE: usize = 1944;
/// Bytes of a `qg_scheduler` (32-bit targets, small capacities).
#[cfg(all(target_pointer_width = "32", feature = "small"))]
pub const QG_SCHEDULER_SIZE: usize = 1928;

storage!(qg_scheduler[QG_SCHEDULER_SIZE] holds Scheduler, tag b"qgsched1");

/// Resource type `GS`: guaranteed service only.
pub const QG_KIND_GS: u32 = 0;
/// Resource type `BE`: best effort only, FCFS.
pub const QG_KIND_BE: u32 = 1;
/// Resource type `GS_BE_EQUAL`: best-effort tasks as temporary fair-queue users.
pub const QG_KIND_GS_BE_EQUAL: u32 = 2;
/// Resource type `GS_BE_PRIORITY`, non-preemptive.
pub const QG_KIND_GS_BE_PRIORITY: u32 = 3;
/// Resource type `GS_BE_PRIORITY`, preemptive: a GS arrival pauses a running BE task.
pub const QG_KIND_GS_BE_PRIORITY_PREEMPTIVE: u32 = 4;

/// Weighted fair queueing.
pub const QG_DISCIPLINE_WFQ: u32 = 0;
/// Self-clocked fair queueing.
pub const QG_DISCIPLINE_SCFQ: u32 = 1;

/// Tasks charged their exact work.
pub const QG_KNOWLEDGE_EXACT: u32 = 0;
/// Tasks charged `imax`.
pub const QG_KNOWLEDGE_CONSERVATIVE: u32 = 1;
/// Tasks charged `imax`, refunded by feedback as far as the refund rule allows.
pub const QG_KNOWLEDGE_CONSERVATIVE_FEEDBACK: u32 = 2;
/// Up to `window` tasks go uncharged until feedback (the bound adds `window x imax / g`).
pub const QG_KNOWLEDGE_WINDOW: u32 = 3;
/// Tasks go uncharged until feedback (no delay bound).
pub const QG_KNOWLEDGE_AGGRESSIVE: u32 = 4;

/// A decision to start a task.
pub const QG_DECISION_START: u32 = 0;
/// A decision that paused a best-effort task.
pub const QG_DECISION_PREEMPT: u32 = 1;

/// A guaranteed-service task.
pub const QG_CLASS_GS: u32 = 0;
/// A best-effort task.
pub const QG_CLASS_BE: u32 = 1;

/// The flow of a task that has none (best effort outside GS_BE_EQUAL).
pub const QG_NO_FLOW: u16 = 0xFFFF;

/// A scheduler's set-up.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct qg_scheduler_config {
    /// `QG_KIND_*`.
    pub kind: u32,
    /// `QG_DISCIPLINE_*`.
    pub discipline: u32,
    /// Capacity of each CPU, MIPS (`cpus` entries, at most `QG_MAX_CPUS`).
    pub cpu_mips: *const u64,
    /// Number of CPUs.
    pub cpus: usize,
    /// The resource's largest task `I_r^max`, MI.
    pub max_task: u64,
    /// Users registered at once at most (`1 ..= QG_MAX_USERS`).
    pub max_flows: u16,
}

/// What a guaranteed-service user agrees at registration (Eq. 1, 2).
///
/// The delay guarantee (`kernel/src/bound.rs`, "The guarantee, precisely"): every task of the
/// user completes at most the kernel's delay bound
/// (`qosgate_kernel::bound::BoundSpec::at_resource`: the burst term sigma / g plus the latency
/// of Eq. 5, Eq. 9 or Table 1) after it is handed to `qg_scheduler_submit_gs` (its arrival),
/// the completion instant being the `finish` tick of the `QG_DECISION_START` decision that
/// starts it, provided that:
/// - the user's tasks are released by its `qg_bucket` in mode `QG_KNOWLEDGE_EXACT`,
///   `_CONSERVATIVE`, `_CONSERVATIVE_FEEDBACK` or `_WINDOW` (never `_AGGRESSIVE`, which has no
///   bound), with feedback, where the mode takes it, reporting the real work, and handed to the
///   scheduler without being reordered or sped up (a transfer delay that is the same for every
///   task is fine);
/// - its tasks above `imax` are refused (`QG_ERR_TASK_TOO_LARGE`, in every mode: the C API
///   registers no user that admits larger tasks, which would have no bound);
/// - on the current-rate basis, no guaranteed-service user registers at the resource after the
///   bound is taken (the reserved basis, the user's own rho, has no such condition).
///
/// It holds whatever the other users do (any task size the scheduler accepts, any mode, any
/// rate) and whatever the best-effort load. Rounding: every term of the bound is rounded up to
/// a whole tick; CPUs serve exact work (a task started at the tick its CPU's previous task ended
/// goes on in that tick: no per-task rounding); a completion is reported at its exact instant
/// rounded up to a tick.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct qg_registration {
    /// Share weight, `>= 1`.
    pub weight: u16,
    /// Rate rho, MIPS, `>= 1`.
    pub rho: u64,
    /// Burst sigma, MI, `>= imax`.
    pub sigma: u64,
    /// Largest task, MI.
    pub imax: u64,
    /// `QG_KNOWLEDGE_*`.
    pub knowledge: u32,
    /// The window n of `QG_KNOWLEDGE_WINDOW` (ignored otherwise).
    pub window: u16,
    /// Queue entries set aside for the user's waiting tasks: best-effort tasks never take them
    /// (0 for none). Last, so that a positional initialiser without it reserves nothing.
    pub entries: u16,
}

/// A decision of `qg_scheduler_next`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct qg_decision {
    /// `QG_DECISION_START` or `QG_DECISION_PREEMPT`.
    pub kind: u32,
    /// The CPU: where the task starts, or which one the pause freed.
    pub cpu: u16,
    /// The caller's task id.
    pub task_id: u32,
    /// Work, MI: the task's (start), or what is left of it (preempt).
    pub work: u64,
    /// `QG_CLASS_*` (`QG_CLASS_BE` for a preemption).
    pub task_class: u32,
    /// The task's flow, or `QG_NO_FLOW`.
    pub flow: u16,
    /// Start: the expected end at the CPU's speed, ticks: the exact end of its work rounded up
    /// to a tick (a task started at the tick its CPU's previous task ended goes on in that tick,
    /// so it can end earlier than its own run time rounded up, even in the tick it starts);
    /// saturating. Preempt: 0.
    pub finish: u64,
}

/// A task that ended: the result of `qg_scheduler_complete`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct qg_completion {
    /// The CPU.
    pub cpu: u16,
    /// The caller's task id.
    pub task_id: u32,
    /// Its work as last started, MI.
    pub work: u64,
    /// `QG_CLASS_*`.
    pub task_class: u32,
    /// Its flow, or `QG_NO_FLOW`.
    pub flow: u16,
    /// Its last start, ticks.
    pub started: u64,
}

fn class(c: Class) -> u32 {
    match c {
        Class::Gs => QG_CLASS_GS,
        Class::Be => QG_CLASS_BE,
    }
}

fn flow(f: Option<FlowId>) -> u16 {
    f.map_or(QG_NO_FLOW, FlowId::get)
}

impl From<Decision> for qg_decision {
    fn from(d: Decision) -> Self {
        match d {
            Decision::Start {
                cpu,
                task,
                class: c,
                flow: f,
                finish,
            } => Self {
                kind: QG_DECISION_START,
                cpu,
                task_id: task.id,
                work: task.work.get(),
                task_class: class(c),
                flow: flow(f),
                finish: finish.get(),
            },
            Decision::Preempt { cpu, task } => Self {
                kind: QG_DECISION_PREEMPT,
                cpu,
                task_id: task.id,
                work: task.work.get(),
                task_class: QG_CLASS_BE,
                flow: QG_NO_FLOW,
                finish: 0,
            },
        }
    }
}

impl From<Completion> for qg_completion {
    fn from(c: Completion) -> Self {
        Self {
            cpu: c.cpu,
            task_id: c.task.id,
            work: c.task.work.get(),
            task_class: class(c.class),
            flow: flow(c.flow),
            started: c.started.get(),
        }
    }
}

fn kind(code: u32) -> Result<Kind, qg_status> {
    Ok(match code {
        QG_KIND_GS => Kind::Gs,
        QG_KIND_BE => Kind::Be,
        QG_KIND_GS_BE_EQUAL => Kind::GsBeEqual,
        QG_KIND_GS_BE_PRIORITY => Kind::GsBePriority { preemptive: false },
        QG_KIND_GS_BE_PRIORITY_PREEMPTIVE => Kind::GsBePriority { preemptive: true },
        _ => return Err(QG_ERR_ARGUMENT),
    })
}

fn discipline(code: u32) -> Result<Discipline, qg_status> {
    match code {
        QG_DISCIPLINE_WFQ => Ok(Discipline::Wfq),
        QG_DISCIPLINE_SCFQ => Ok(Discipline::Scfq),
        _ => Err(QG_ERR_ARGUMENT),
    }
}

/// A `QG_KNOWLEDGE_*` code, with the window of `QG_KNOWLEDGE_WINDOW`, as the kernel's
/// [`Knowledge`]: the one conversion behind `qg_registration` and `qg_bucket_config`.
/// `QG_ERR_ARGUMENT` for an unknown code.
pub(crate) fn knowledge(code: u32, window: u16) -> Result<Knowledge, qg_status> {
    Ok(match code {
        QG_KNOWLEDGE_EXACT => Knowledge::Exact,
        QG_KNOWLEDGE_CONSERVATIVE => Knowledge::Conservative,
        QG_KNOWLEDGE_CONSERVATIVE_FEEDBACK => Knowledge::ConservativeFeedback,
        QG_KNOWLEDGE_WINDOW => Knowledge::Window(window),
        QG_KNOWLEDGE_AGGRESSIVE => Knowledge::Aggressive,
        _ => return Err(QG_ERR_ARGUMENT),
    })
}

/// Makes `storage` a scheduler configured by `*config`.
///
/// Errors: `QG_ERR_NULL` / `QG_ERR_MISALIGNED` for `storage`, `config` or `config->cpu_mips`;
/// `QG_ERR_SIZE` if `size < QG_SCHEDULER_SIZE`; `QG_ERR_ARGUMENT` for an unknown kind or
/// discipline; `QG_ERR_PARAM_CAPACITY` (no CPU, more than `QG_MAX_CPUS`, a zero capacity),
/// `QG_ERR_PARAM_MAX_WORK`, `QG_ERR_PARAM_FLOWS`. On error nothing is written (every argument
/// is checked first): storage holding a live scheduler still holds it, unchanged, and other
/// storage stays uninitialised.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `storage` must be valid for reads and writes of `size` bytes, zeroed or written by this
/// API; `config` must point to a readable `qg_scheduler_config` whose `cpu_mips` holds `cpus`
/// readable values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_scheduler_init(
    storage: *mut qg_scheduler,
    size: usize,
    config: *const qg_scheduler_config,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::init(storage, size, |slot| {
            let c = instance::read(config)?;
            // `Mips` is a `#[repr(transparent)]` newtype over `u64`: the caller's array of MIPS
            // is an array of `Mips` as it stands, read in place.
            let mips = c.cpu_mips.cast::<Mips>();
            let cpus = instance::slice(mips, c.cpus, QG_MAX_CPUS, QG_ERR_PARAM_CAPACITY)?;
            let (kind, discipline) = (kind(c.kind)?, discipline(c.discipline)?);
            let max_task = Work::new(c.max_task);
            Ok(Scheduler::init(
                slot,
                kind,
                discipline,
                cpus,
                max_task,
                c.max_flows,
            )?)
        })
    }
}

/// Registers a guaranteed-service user and writes its flow id to `*flow`.
///
/// Errors: the pointer checks; `QG_ERR_ARGUMENT` for an unknown knowledge code;
/// `QG_ERR_WRONG_CLASS` at a BE resource; `QG_ERR_PARAM_*` for a bad registration;
/// `QG_ERR_TASK_TOO_LARGE` (Eq. 2); `QG_ERR_RATE_EXCEEDS_SHARE` (Eq. 1); `QG_ERR_FULL` (every flow
/// taken, or fewer than `entries` queue entries free and not set aside).
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `scheduler` as for every call (see docs/firmware.md); `registration` readable; `flow` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_scheduler_register(
    scheduler: *mut qg_scheduler,
    registration: *const qg_registration,
    flow: *mut u16,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::answer(scheduler, flow, |s: &mut Scheduler| {
            let r = instance::read(registration)?;
            let reg = Registration {
                weight: r.weight,
                rho: Mips::new(r.rho),
                sigma: Work::new(r.sigma),
                imax: Work::new(r.imax),
                knowledge: knowledge(r.knowledge, r.window)?,
                oversize: Oversize::Refuse,
                entries: r.entries,
            };
            Ok(Some(s.register(reg)?.get()))
        })
    }
}

/// Deregisters a guaranteed-service user that has nothing queued or running.
///
/// Errors: the pointer checks; `QG_ERR_UNKNOWN`; `QG_ERR_BUSY`.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `scheduler` as for every call (see docs/firmware.md).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_scheduler_deregister(
    scheduler: *mut qg_scheduler,
    flow: u16,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::with(scheduler, |s: &mut Scheduler| {
            Ok(done(s.deregister(FlowId::new(flow)).map(|_| ())))
        })
    }
}

/// A guaranteed-service task of user `flow` arrives at `now` (ticks).
///
/// Errors: the pointer checks; `QG_ERR_WRONG_CLASS`, `QG_ERR_UNKNOWN`, `QG_ERR_TASK_TOO_LARGE`
/// (above the user's `imax`, whatever its knowledge mode), `QG_ERR_PARAM_WORK`, `QG_ERR_FULL`,
/// `QG_ERR_TIME_WENT_BACKWARDS`. A task charged by a `qg_bucket` and then refused here (or sent
/// best effort instead) goes back with `qg_bucket_withdraw`.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `scheduler` as for every call (see docs/firmware.md).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_scheduler_submit_gs(
    scheduler: *mut qg_scheduler,
    now: u64,
    flow: u16,
    task_id: u32,
    work: u64,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        submit(scheduler, task_id, work, |s, task| {
            s.submit_gs(Ticks::new(now), FlowId::new(flow), task)
        })
    }
}

/// A best-effort task arrives at `now` (ticks).
///
/// Errors: the pointer checks; `QG_ERR_WRONG_CLASS`, `QG_ERR_PARAM_WORK`,
/// `QG_ERR_TASK_TOO_LARGE` (above `max_task`), `QG_ERR_FULL`, `QG_ERR_TIME_WENT_BACKWARDS`; at
/// GS_BE_EQUAL, `QG_ERR_RATE_EXCEEDS_SHARE` when its temporary registration fails (Eq. 1).
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `scheduler` as for every call (see docs/firmware.md).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_scheduler_submit_be(
    scheduler: *mut qg_scheduler,
    now: u64,
    task_id: u32,
    work: u64,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        submit(scheduler, task_id, work, |s, task| {
            s.submit_be(Ticks::new(now), task)
        })
    }
}

/// The next thing to do at `now`: `QG_OK` with the decision in `*decision`, or `QG_NONE` when
/// there is nothing to do (`*decision` untouched). Call until `QG_NONE`.
///
/// Errors: the pointer checks; `QG_ERR_TIME_WENT_BACKWARDS`.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `scheduler` as for every call (see docs/firmware.md); `decision` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_scheduler_next(
    scheduler: *mut qg_scheduler,
    now: u64,
    decision: *mut qg_decision,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::answer(scheduler, decision, |s: &mut Scheduler| {
            Ok(s.next_decision(Ticks::new(now))?.map(|d| {
                trace!("qosgate: {}", d);
                qg_decision::from(d)
            }))
        })
    }
}

/// The task on `cpu` ended at `now`; its record goes to `*completion` unless that is null.
///
/// Errors: the pointer checks; `QG_ERR_UNKNOWN` (no such CPU), `QG_ERR_IDLE`,
/// `QG_ERR_TIME_WENT_BACKWARDS`.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `scheduler` as for every call (see docs/firmware.md); `completion` null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_scheduler_complete(
    scheduler: *mut qg_scheduler,
    now: u64,
    cpu: u16,
    completion: *mut qg_completion,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::report(scheduler, completion, |s: &mut Scheduler| {
            let c = s.complete(Ticks::new(now), cpu)?;
            trace!("qosgate: {}", c);
            Ok(c.into())
        })
    }
}

/// The running task that ends first: `QG_OK` with its CPU and end (ticks) in `*cpu` and `*at`,
/// or `QG_NONE` if no CPU runs a task.
///
/// Errors: the pointer checks.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `scheduler` as for every call (see docs/firmware.md); `cpu` and `at` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_scheduler_next_finish(
    scheduler: *mut qg_scheduler,
    cpu: *mut u16,
    at: *mut u64,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::with(scheduler, |s: &mut Scheduler| {
            let (cpu, at) = (instance::output(cpu)?, instance::output(at)?);
            match s.next_finish() {
                Some((c, t)) => {
                    cpu.write(c);
                    at.write(t.get());
                    Ok(QG_OK)
                }
                None => Ok(QG_NONE),
            }
        })
    }
}

/// Hands the task `task_id` of `work` MI to `submit` (a GS or BE submission) on the scheduler
/// in `scheduler`.
///
/// # Safety
/// As `instance::with`.
unsafe fn submit(
    scheduler: *mut qg_scheduler,
    task_id: u32,
    work: u64,
    submit: impl FnOnce(&mut Scheduler, Task) -> Result<(), Refused<Task>>,
) -> qg_status {
    let task = Task {
        id: task_id,
        work: Work::new(work),
    };
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::with(scheduler, |s: &mut Scheduler| {
            Ok(done(submit(s, task).map_err(|r| r.reason)))
        })
    }
}
