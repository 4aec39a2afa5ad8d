//! A resource's local scheduler (kokkinos2009 Sec. 3.4, 5.2): which task runs next, on which CPU.
//!
//! | [`Kind`] | guaranteed-service (GS) tasks | best-effort (BE) tasks |
//! | --- | --- | --- |
//! | `Gs` | fair queue (WFQ or SCFQ) | refused ([`Error::WrongClass`]) |
//! | `Be` | refused | FCFS |
//! | `GsBeEqual` | fair queue | fair queue, each task a temporary user of the smallest GS weight, admitted only if Eq. 1 still holds for everyone (else [`Error::RateExceedsShare`]) |
//! | `GsBePriority { preemptive: false }` | fair queue, served first | FCFS, served when no GS task waits |
//! | `GsBePriority { preemptive: true }` | as above, and a GS arrival pauses a running BE task | paused tasks resume first, with their remaining work |
//!
//! A resource has one or more CPUs of given capacities; a task goes to the first free CPU in
//! round-robin order (Sec. 5.2), starting after the CPU that took the previous task. Fair-queue
//! virtual time runs at the total capacity `C'`; bounds use the slowest CPU `C_min` (Eq. 10).
//!
//! # Exact service
//! A CPU of `C` MIPS serves exactly `C` MI a second while it is busy: a task started at the tick
//! its CPU's previous task ended starts at that task's exact end, inside the tick
//! ([`exec_ticks_after`]), so run times are not rounded one by one; each end is reported as the
//! exact end rounded up to its tick. (Rounding each task up would make the CPU slower than
//! the capacity Eq. 1 admits rates against, and a user with `rho` equal to it would fall behind
//! without bound.) A task that arrived at that very tick may so start up to one tick before its
//! arrival, which is the same as its arriving that much earlier: its own bound, counted from its
//! real arrival, and the others' (which do not depend on their neighbours' arrivals) hold.
//!
//! # Tasks above the maximum
//! A GS task larger than its user's `I_max` is refused ([`Error::TaskTooLarge`]) whatever the
//! user's workload knowledge (the resource sees every task's work), unless the registration
//! admits such tasks ([`Oversize::Admit`]): then tasks up to the resource's `I_r^max` are
//! served, the admitting user has no bound ([`Error::NoBound`] from [`BoundSpec::at_resource`]), and
//! every other user's bound counts its maximum task as `I_r^max`. So no user's tasks, whatever
//! their size or knowledge, can push another user past its bound. What becomes of a refused
//! task (best effort, or nothing) is the caller's rule.
//!
//! # Driving it
//! The resource is a state machine with no clock. The caller reports arrivals
//! ([`Resource::submit_gs`], [`Resource::submit_be`]) and completions ([`Resource::complete`]),
//! and asks [`Resource::next_decision`] what to do until it answers `None`; each answer is one
//! [`Decision`]. Times passed in must not decrease. A simulator processes, at each instant,
//! completions first, then arrivals, then decisions; [`Resource::next_finish`] tells when the next
//! running task ends.
//!
//! # Invariants
//! - Every task handed in is, at any moment, queued, running, or was returned in a [`Completion`]
//!   or a [`Refused`]: [`Resource::counts`] adds up.
//! - At most `QUEUE` tasks wait, GS and BE together: the BE FIFO is the fair queue's side FIFO
//!   and shares its entries.
//! - At a preemptive resource, waiting tasks plus running BE tasks never exceed `QUEUE`, so a
//!   running BE task can always be paused back into the queue: a GS arrival never waits for a BE
//!   task.
//! - **Reserved entries.** Each GS registration sets aside
//!   [`entries`](crate::registry::Registration::entries) of the queue. The entries set aside and
//!   not in use, `sum over GS users of max(entries - waiting tasks, 0)`, never exceed the room
//!   (the free entries, less at a preemptive resource one per running BE task): a BE task takes
//!   an entry only from the room beyond them ([`Resource::be_room`]), and so does a GS task
//!   whose user already has `entries` tasks waiting. So a GS task of a user with fewer than
//!   `entries` tasks waiting is never refused for want of an entry, whatever the best-effort
//!   load. Every change keeps the invariant: a task within its user's reservation takes one
//!   reserved entry (both sides fall by one); a start frees one entry and gives back at most one
//!   reserved; a BE start or a pause moves one entry between the queue and a running BE task; a
//!   registration sets aside only room that is free now.
//! - At most `max_flows` flow slots are in use (GS users, temporary BE users, closing flows).
//!
//! Memory: a [`FairQueue`] of `FLOWS` flows and `QUEUE` waiting tasks (the BE FIFO included), a
//! [`Registry`] of `FLOWS` users and `CPUS` CPU slots; no heap. Keeping the reserved entries
//! costs a counter and `O(1)` per call.

use core::mem::MaybeUninit;
use core::num::NonZeroU64;

use heapless::Vec;

use crate::bound::BoundSpec;
use crate::bucket::{Knowledge, Oversize};
use crate::error::{Error, Param, Refused};
use crate::fairq::{Discipline, FairQueue, FlowId, GpsHeap, GpsSet};
use crate::registry::{RateBasis, Registration, Registry};
use crate::storage::inplace;
use crate::units::{MAX_TASK_WORK, Mips, Ticks, Work, exec_ticks_after, work_in};
use crate::wide;

/// The resource types of Sec. 3.4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Kind {
    /// Guaranteed service only.
    Gs,
    /// Best effort only, FCFS.
    Be,
    /// Both, BE tasks as temporary fair-queue users.
    GsBeEqual,
    /// Both, GS first; `preemptive` pauses running BE tasks for arriving GS tasks.
    GsBePriority {
        /// Whether a GS arrival pauses a running BE task.
        preemptive: bool,
    },
}

impl Kind {
    fn serves_gs(self) -> bool {
        self != Kind::Be
    }
}

impl core::fmt::Display for Kind {
    /// The paper's names: `GS`, `BE`, `GS_BE_EQUAL`, `GS_BE_PRIORITY pr.` / `n.pr.`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Kind::Gs => "GS",
            Kind::Be => "BE",
            Kind::GsBeEqual => "GS_BE_EQUAL",
            Kind::GsBePriority { preemptive: true } => "GS_BE_PRIORITY pr.",
            Kind::GsBePriority { preemptive: false } => "GS_BE_PRIORITY n.pr.",
        })
    }
}

/// A task's service class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Class {
    /// Guaranteed service.
    Gs,
    /// Best effort.
    Be,
}

/// A task as the resource sees it: the caller's id and the work left to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Task {
    /// The caller's identifier, returned unchanged in every decision.
    pub id: u32,
    /// Work, MI (the remaining work after a pause).
    pub work: Work,
}

/// What the resource decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Decision {
    /// Start `task` on `cpu` now; at that CPU's speed it ends at `finish`.
    Start {
        /// CPU index.
        cpu: u16,
        /// The task.
        task: Task,
        /// Its class.
        class: Class,
        /// Its flow (GS user, or temporary user at GS_BE_EQUAL).
        flow: Option<FlowId>,
        /// Expected end, ticks (saturating).
        finish: Ticks,
    },
    /// The BE task on `cpu` was paused and queued again with `task.work` left to do.
    Preempt {
        /// CPU index, now free.
        cpu: u16,
        /// The paused task, with its remaining work.
        task: Task,
    },
}

/// A task that ended on a CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Completion {
    /// CPU index.
    pub cpu: u16,
    /// The task, as last started.
    pub task: Task,
    /// Its class.
    pub class: Class,
    /// Its flow, if it had one (a temporary flow is closed by the completion).
    pub flow: Option<FlowId>,
    /// When it started (its last start, after any pause).
    pub started: Ticks,
}

/// How many tasks are where.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Counts {
    /// In the fair queue (GS tasks, and BE tasks at GS_BE_EQUAL).
    pub queued_gs: usize,
    /// In the BE FIFO.
    pub queued_be: usize,
    /// On a CPU.
    pub running: usize,
}

#[derive(Clone, Copy, Debug)]
struct Running {
    task: Task,
    class: Class,
    flow: Option<FlowId>,
    started: Ticks,
    /// Instructions of it done before `started`, in the tick its CPU's previous task ended.
    lead: u64,
    finish: Ticks,
    /// Instructions by which `finish` overshoots its exact end.
    over: u64,
}

#[derive(Clone, Copy, Debug)]
struct Cpu {
    mips: Mips,
    running: Option<Running>,
    /// When idle: the tick its last task ended at, and the instructions of that tick it left
    /// unused (the lead of a task started there at that tick; see "Exact service").
    ended: Ticks,
    unused: u64,
}

/// Makes `list` the idle CPUs of the given capacities (as many as fit: the callers check that
/// all do).
fn fill_cpus<const CPUS: usize>(list: &mut Vec<Cpu, CPUS>, cpus: &[Mips]) {
    list.clear();
    for &mips in cpus {
        if list
            .push(Cpu {
                mips,
                running: None,
                ended: Ticks::ZERO,
                unused: 0,
            })
            .is_err()
        {
            break;
        }
    }
}

/// Item of the fair queue: the task id and its class (BE at GS_BE_EQUAL and in the side FIFO).
type Queued = (u32, Class);

/// One resource with up to `FLOWS` users, `QUEUE` waiting tasks and `CPUS` CPUs; its fair
/// queue keeps WFQ's GPS flows in a `G` ([`GpsSet`]: the default for throughput, [`GpsSorted`]
/// for bounded work per call).
///
/// [`GpsSorted`]: crate::fairq::GpsSorted
#[derive(Clone, Debug)]
pub struct Resource<const FLOWS: usize, const QUEUE: usize, const CPUS: usize, G = GpsHeap<FLOWS>> {
    kind: Kind,
    max_task: Work,
    max_flows: u16,
    capacity: Mips,
    cpu_min: Mips,
    cpus: Vec<Cpu, CPUS>,
    /// Where the round-robin search for a CPU starts; `cpus.len()` means CPU 0.
    next_cpu: usize,
    /// The GS tasks' fair queue; its side FIFO is the BE FIFO.
    fair: FairQueue<Queued, FLOWS, QUEUE, G>,
    registry: Registry<FLOWS>,
    /// Entries set aside for GS users and not in use (see "Reserved entries").
    reserve_left: u16,
    now: Ticks,
}

impl<const FLOWS: usize, const QUEUE: usize, const CPUS: usize, G: GpsSet<FLOWS>>
    Resource<FLOWS, QUEUE, CPUS, G>
{
    /// A resource of type `kind` running `discipline`, with CPUs of the given capacities (MIPS),
    /// a maximum task `max_task` (MI, `I_r^max`) and at most `max_flows` users at once.
    ///
    /// Errors ([`Error::InvalidParameter`]): `Capacity` for no CPU, more than `CPUS`, a zero
    /// capacity or a total above [`MAX_CAPACITY`](crate::units::MAX_CAPACITY); `MaxWork` for `max_task` outside `1 ..= MAX_TASK_WORK`;
    /// `Flows` for `max_flows` outside `1 ..= FLOWS`.
    ///
    #[allow(unsafe_code)]
    pub fn new(
        kind: Kind,
        discipline: Discipline,
        cpus: &[Mips],
        max_task: Work,
        max_flows: u16,
    ) -> Result<Self, Error> {
        // SAFETY: `init` initialises the slot when it returns `Ok`.
        unsafe {
            inplace::by_value(|slot| Self::init(slot, kind, discipline, cpus, max_task, max_flows))
        }
    }

    /// Writes [`Resource::new`]'s resource into `slot`, in place: its CPU list and a few lengths
    /// and scalars; every queue, heap and registry starts as an empty, unwritten buffer. The C
    /// API's `qg_scheduler_init` builds its scheduler in the caller's storage this way. On an
    /// error nothing is written to `slot` (every argument is checked first): what it held, it
    /// still holds.
    ///
    /// Errors: those of [`Resource::new`].
    #[allow(unsafe_code)]
    pub fn init<'a>(
        slot: &'a mut MaybeUninit<Self>,
        kind: Kind,
        discipline: Discipline,
        cpus: &[Mips],
        max_task: Work,
        max_flows: u16,
    ) -> Result<&'a mut Self, Error> {
        let (capacity, cpu_min) = Self::check(cpus, max_task, max_flows)?;
        let p = slot.as_mut_ptr();
        // SAFETY: `p` is `slot`'s, valid and aligned for writes of `Self`; each field is reached
        // as a raw place, and once the fair queue's `init` succeeded every field is initialised
        // (the pattern names them all).
        let resource = unsafe {
            FairQueue::init(inplace::field(&raw mut (*p).fair), discipline, capacity)?;
            fill_cpus(inplace::field(&raw mut (*p).cpus).write(Vec::new()), cpus);
            (&raw mut (*p).kind).write(kind);
            (&raw mut (*p).max_task).write(max_task);
            (&raw mut (*p).max_flows).write(max_flows);
            (&raw mut (*p).capacity).write(capacity);
            (&raw mut (*p).cpu_min).write(cpu_min);
            (&raw mut (*p).next_cpu).write(0);
            (&raw mut (*p).registry).write(Registry::default());
            (&raw mut (*p).reserve_left).write(0);
            (&raw mut (*p).now).write(Ticks::ZERO);
            slot.assume_init_mut()
        };
        let Self {
            kind: _,
            max_task: _,
            max_flows: _,
            capacity: _,
            cpu_min: _,
            cpus: _,
            next_cpu: _,
            fair: _,
            registry: _,
            reserve_left: _,
            now: _,
        } = resource;
        Ok(resource)
    }

    /// Makes this the resource [`Resource::new`] makes with these arguments: every task and
    /// registration is dropped, and only lengths and scalars are written (none of the `QUEUE`
    /// queue entries), so that a caller running many short simulations reuses one resource
    /// instead of building one each time. `O(CPUS + FLOWS)`. On an error nothing changes.
    ///
    /// Errors: those of [`Resource::new`].
    pub fn reset(
        &mut self,
        kind: Kind,
        discipline: Discipline,
        cpus: &[Mips],
        max_task: Work,
        max_flows: u16,
    ) -> Result<(), Error> {
        let (capacity, cpu_min) = Self::check(cpus, max_task, max_flows)?;
        self.fair.reset(discipline, capacity)?;
        fill_cpus(&mut self.cpus, cpus);
        self.kind = kind;
        self.max_task = max_task;
        self.max_flows = max_flows;
        self.capacity = capacity;
        self.cpu_min = cpu_min;
        self.next_cpu = 0;
        self.registry = Registry::default();
        self.reserve_left = 0;
        self.now = Ticks::ZERO;
        Ok(())
    }

    /// The checks of [`Resource::new`]'s arguments; the total capacity and the slowest CPU.
    fn check(cpus: &[Mips], max_task: Work, max_flows: u16) -> Result<(Mips, Mips), Error> {
        let bad = |p| Error::InvalidParameter(p);
        if cpus.is_empty() || cpus.len() > CPUS || cpus.contains(&Mips::ZERO) {
            return Err(bad(Param::Capacity));
        }
        let capacity = cpus
            .iter()
            .try_fold(Mips::ZERO, |s, &c| s.checked_add(c))
            .ok_or(bad(Param::Capacity))?;
        if max_task == Work::ZERO || max_task > MAX_TASK_WORK {
            return Err(bad(Param::MaxWork));
        }
        if max_flows == 0 || usize::from(max_flows) > FLOWS {
            return Err(bad(Param::Flows));
        }
        Ok((capacity, cpus.iter().copied().min().unwrap_or(Mips::new(1))))
    }

    /// The resource type.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Total capacity `C'`, MIPS.
    pub fn capacity(&self) -> Mips {
        self.capacity
    }

    /// The slowest CPU `C_min`, MIPS.
    pub fn cpu_min(&self) -> Mips {
        self.cpu_min
    }

    /// The resource's maximum task `I_r^max`, MI.
    pub fn max_task(&self) -> Work {
        self.max_task
    }

    /// The most users (flows) registered at once, temporary BE users included.
    pub fn max_flows(&self) -> u16 {
        self.max_flows
    }

    /// Number of CPUs.
    pub fn cpus(&self) -> usize {
        self.cpus.len()
    }

    /// The registrations, temporary BE users included.
    pub fn registry(&self) -> &Registry<FLOWS> {
        &self.registry
    }

    /// Where the tasks are.
    pub fn counts(&self) -> Counts {
        Counts {
            queued_gs: self.fair.len(),
            queued_be: self.fair.side_len(),
            running: self.cpus.iter().filter(|c| c.running.is_some()).count(),
        }
    }

    /// Registers a GS user (Eq. 1, 2), sets aside its [`entries`](Registration::entries) of the
    /// queue, and returns its flow id. `O(FLOWS)`.
    ///
    /// Errors: [`Error::WrongClass`] at a BE resource; `InvalidParameter(Rate)` for `rho = 0`; those
    /// of [`Registry::admissible`]; [`Error::Full`] when `max_flows` users are registered, or
    /// when fewer than `entries` entries are free and not set aside ([`Self::be_room`]).
    pub fn register(&mut self, reg: Registration) -> Result<FlowId, Error> {
        if !self.kind.serves_gs() {
            return Err(Error::WrongClass);
        }
        if reg.is_temporary() {
            return Err(Error::InvalidParameter(Param::Rate));
        }
        if usize::from(reg.entries) > self.be_room() {
            return Err(Error::Full);
        }
        let flow = self.admit(reg)?;
        // `entries <= be_room() <= QUEUE - reserve_left < u16::MAX`.
        self.reserve_left = self.reserve_left.saturating_add(reg.entries);
        Ok(flow)
    }

    /// Deregisters a GS user that has nothing queued or running.
    ///
    /// Errors: [`Error::Unknown`] if `flow` is no GS registration; [`Error::Busy`] if it has work.
    pub fn deregister(&mut self, flow: FlowId) -> Result<Registration, Error> {
        match self.registry.get(flow) {
            Some(r) if !r.is_temporary() => {}
            _ => return Err(Error::Unknown),
        }
        if self
            .cpus
            .iter()
            .any(|c| c.running.is_some_and(|r| r.flow == Some(flow)))
        {
            return Err(Error::Busy);
        }
        self.fair.close(flow)?;
        let reg = self.registry.remove(flow).ok_or(Error::Unknown)?;
        // Nothing of the user waits (the queue closed): all its entries are unused.
        self.reserve_left = self.reserve_left.saturating_sub(reg.entries);
        Ok(reg)
    }

    /// A GS task of registered user `flow` arrives at `now`.
    ///
    /// Errors, with the task handed back: [`Error::WrongClass`] at a BE resource;
    /// [`Error::Unknown`] if `flow` is no GS registration; [`Error::TaskTooLarge`] above the
    /// user's `I_max` (Eq. 4), or, for a registration that admits larger tasks
    /// ([`Oversize::Admit`]), above the resource's `I_r^max`, whatever the user's workload
    /// knowledge (see "Tasks above the maximum"); `InvalidParameter(Work)` for zero work;
    /// [`Error::TimeWentBackwards`]; [`Error::Full`] when the user already has its
    /// [`entries`](Registration::entries) tasks waiting and no entry is free beyond those set
    /// aside for the others ([`Self::be_room`]; never while it has fewer); those of
    /// [`FairQueue::enqueue`].
    pub fn submit_gs(&mut self, now: Ticks, flow: FlowId, task: Task) -> Result<(), Refused<Task>> {
        if !self.kind.serves_gs() {
            return Err(Refused::new(Error::WrongClass, task));
        }
        let reg = match self.gs_registration(flow) {
            Ok(r) => *r,
            Err(e) => return Err(Refused::new(e, task)),
        };
        if task.work > reg.largest_gs_task(self.max_task) {
            return Err(Refused::new(Error::TaskTooLarge, task));
        }
        if task.work == Work::ZERO {
            return Err(Refused::new(Error::InvalidParameter(Param::Work), task));
        }
        self.enqueue(now, flow, task, Class::Gs)
    }

    /// A BE task arrives at `now`.
    ///
    /// Errors, with the task handed back: [`Error::WrongClass`] at a GS resource;
    /// `InvalidParameter(Work)` for zero work; [`Error::TaskTooLarge`] above `I_r^max` at a
    /// resource that also serves GS (Sec. 3.4 checks the size only there: `I_r^max` bounds what
    /// a BE task can hold a GS task up for), and above [`MAX_TASK_WORK`] at a BE resource;
    /// [`Error::Full`] when [`Self::be_room`] is 0 (at GS_BE_EQUAL, also when `max_flows` flows
    /// are open); [`Error::TimeWentBackwards`]; at GS_BE_EQUAL, those of
    /// [`Registry::admissible`] for its temporary registration (the paper's "failed" BE task).
    pub fn submit_be(&mut self, now: Ticks, task: Task) -> Result<(), Refused<Task>> {
        let refuse = |e| Err(Refused::new(e, task));
        if task.work == Work::ZERO {
            return refuse(Error::InvalidParameter(Param::Work));
        }
        let limit = if self.kind == Kind::Be {
            MAX_TASK_WORK
        } else {
            self.max_task
        };
        if task.work > limit {
            return refuse(Error::TaskTooLarge);
        }
        if now < self.now {
            return refuse(Error::TimeWentBackwards);
        }
        match self.kind {
            Kind::Gs => refuse(Error::WrongClass),
            Kind::GsBeEqual => {
                if self.be_room() == 0 {
                    return refuse(Error::Full);
                }
                let temp = Registration::temporary(self.registry.smallest_gs_weight(), task.work);
                let flow = match self.admit(temp) {
                    Ok(f) => f,
                    Err(e) => return refuse(e),
                };
                self.enqueue(now, flow, task, Class::Be).inspect_err(|_| {
                    // Nothing was queued on the new flow, so closing it cannot fail.
                    let _ = self.fair.close(flow);
                    self.registry.remove(flow);
                })
            }
            Kind::Be | Kind::GsBePriority { .. } => {
                if self.be_room() == 0 {
                    return refuse(Error::Full);
                }
                self.fair
                    .push_side(task.work, (task.id, Class::Be))
                    .map_err(|r| Refused::new(r.reason, task))?;
                self.now = now;
                Ok(())
            }
        }
    }

    /// The next thing to do at `now`: start a queued task on a free CPU, or (preemptive priority
    /// resource) pause a BE task so a waiting GS task can run. Call until it returns `None`.
    /// `O(log FLOWS + CPUS)`.
    ///
    /// Errors: [`Error::TimeWentBackwards`].
    pub fn next_decision(&mut self, now: Ticks) -> Result<Option<Decision>, Error> {
        if now < self.now {
            return Err(Error::TimeWentBackwards);
        }
        self.now = now;
        if let Some(cpu) = self.free_cpu() {
            return self.start_on(now, cpu);
        }
        if self.kind == (Kind::GsBePriority { preemptive: true }) && !self.fair.is_empty() {
            return Ok(self.preempt(now));
        }
        Ok(None)
    }

    /// The task on `cpu` ended at `now`. A temporary user's flow closes with it.
    ///
    /// Errors: [`Error::Unknown`] for no such CPU; [`Error::Idle`] if it runs nothing;
    /// [`Error::TimeWentBackwards`].
    pub fn complete(&mut self, now: Ticks, cpu: u16) -> Result<Completion, Error> {
        let slot = self.cpus.get_mut(usize::from(cpu)).ok_or(Error::Unknown)?;
        let run = slot.running.ok_or(Error::Idle)?;
        if now < self.now || now < run.started {
            return Err(Error::TimeWentBackwards);
        }
        slot.running = None;
        slot.ended = now;
        // A completion reported after its end leaves nothing of its tick to the next task.
        slot.unused = if now == run.finish { run.over } else { 0 };
        self.now = now;
        if let (Class::Be, Some(flow)) = (run.class, run.flow) {
            // A temporary flow holds exactly the task that just ended: nothing queued on it.
            let _ = self.fair.close(flow);
            self.registry.remove(flow);
        }
        Ok(Completion {
            cpu,
            task: run.task,
            class: run.class,
            flow: run.flow,
            started: run.started,
        })
    }

    /// The running task that ends first: `(cpu, finish)`, ties to the lower CPU.
    pub fn next_finish(&self) -> Option<(u16, Ticks)> {
        self.cpus
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.running.map(|r| (i as u16, r.finish)))
            .min_by_key(|&(i, f)| (f, i))
    }

    /// The guaranteed rate `g` of GS user `flow` on `basis`, MIPS rounded down (see
    /// [`crate::registry`]). On [`RateBasis::Current`], `g = C' w / W` with `W` the weight of every
    /// flow slot in use (closing WFQ flows included) and, at a GS_BE_EQUAL resource, every free
    /// slot counted as a temporary BE user of the smallest GS weight, up to the most weight
    /// Eq. 1 admits ([`Registry::max_total_weight`]): BE arrivals then cannot push the share
    /// below `g` before the next GS registration.
    ///
    /// Errors: [`Error::Unknown`] if `flow` is no GS registration.
    pub fn rate(&self, flow: FlowId, basis: RateBasis) -> Result<Mips, Error> {
        let reg = self.gs_registration(flow)?;
        Ok(match basis {
            RateBasis::Reserved => reg.rho,
            RateBasis::Current => {
                let total = u64::from(self.fair.total_weight());
                let w = if self.kind == Kind::GsBeEqual {
                    let free = usize::from(self.max_flows).saturating_sub(self.fair.in_use());
                    let be = free as u64 * u64::from(self.registry.smallest_gs_weight());
                    (total + be)
                        .min(self.registry.max_total_weight(self.capacity))
                        .max(total)
                } else {
                    total
                };
                let cw = u128::from(self.capacity.get()) * u128::from(reg.weight);
                Mips::new(wide::div_saturating(
                    cw,
                    NonZeroU64::new(w).unwrap_or(NonZeroU64::MIN),
                ))
            }
        })
    }

    /// The inputs of the delay bound of GS user `flow` at this resource on `basis`
    /// (see [`crate::registry`] for the bases; [`crate::bound`] for the formula).
    ///
    /// SCFQ's blocking term sums the maximum tasks of the flows that may be present: on
    /// [`RateBasis::Reserved`], every other flow slot with a maximal task (`(max_flows - 1) I_r`),
    /// so the bound survives later registrations; on [`RateBasis::Current`], the other GS users
    /// registered now, plus, at a GS_BE_EQUAL resource, a maximal task for every temporary BE
    /// user that can be present at once: the slots not held by a GS user, but no more than Eq. 1
    /// admits (temporary BE users come and go, each admitted only while Eq. 1 holds).
    ///
    /// Errors: [`Error::Unknown`] if `flow` is no GS registration.
    pub fn bound_spec(&self, flow: FlowId, basis: RateBasis) -> Result<BoundSpec, Error> {
        self.spec(flow, basis, Some(self.max_task))
    }

    /// What [`Resource::bound_spec`] would give if every user kept its tasks within its declared
    /// `I_max` and to its (rho, sigma) (full aggressive submission taken as exact): the paper's
    /// planning for a user the kernel gives no bound (full aggressive, or admitting larger
    /// tasks), an estimate and never a guarantee. A caller deciding whether such a user's task
    /// can meet a deadline (Eq. 7) plans with it; a user with a bound plans with its bound.
    ///
    /// Errors: [`Error::Unknown`] if `flow` is no GS registration.
    pub fn estimate_spec(&self, flow: FlowId, basis: RateBasis) -> Result<BoundSpec, Error> {
        let spec = self.spec(flow, basis, None)?;
        Ok(BoundSpec {
            knowledge: match spec.knowledge {
                Knowledge::Aggressive => Knowledge::Exact,
                k => k,
            },
            oversize: Oversize::Refuse,
            ..spec
        })
    }

    /// [`Resource::bound_spec`] with the other users' tasks up to `resource_max` where they
    /// admit larger ones, or (`None`) up to their declared `I_max`.
    fn spec(
        &self,
        flow: FlowId,
        basis: RateBasis,
        resource_max: Option<Work>,
    ) -> Result<BoundSpec, Error> {
        let reg = self.gs_registration(flow)?;
        let reserved = self.reserved_spec(reg);
        Ok(match basis {
            RateBasis::Reserved => reserved,
            RateBasis::Current => {
                let be_slots = match self.kind {
                    Kind::GsBeEqual => self.temporary_room(),
                    _ => 0,
                };
                let be = self.max_task.saturating_mul(be_slots);
                let others = match resource_max {
                    Some(max) => self.registry.others_imax(flow, max),
                    // Up to a zero maximum, a user's largest task is its declared `I_max`.
                    None => self.registry.others_imax(flow, Work::ZERO),
                };
                BoundSpec {
                    rate: self.rate(flow, basis)?,
                    others_imax: others.saturating_add(be),
                    ..reserved
                }
            }
        })
    }

    /// The inputs of the bound of a GS user registering with `reg` here, on
    /// [`RateBasis::Reserved`]: on that basis the bound depends on the registration and the
    /// resource alone, so it is known before the user registers (to size its
    /// [`entries`](Registration::entries) with [`crate::bound::entries_needed`]), and holds for
    /// the life of the registration.
    pub fn reserved_spec(&self, reg: &Registration) -> BoundSpec {
        BoundSpec {
            discipline: self.fair.discipline(),
            sigma: reg.sigma,
            imax: reg.imax,
            knowledge: reg.knowledge,
            oversize: reg.oversize,
            rate: reg.rho,
            cpu: self.cpu_min,
            cpus: self.cpus.len() as u16,
            capacity: self.capacity,
            resource_imax: self.max_task,
            others_imax: self
                .max_task
                .saturating_mul(u64::from(self.max_flows.saturating_sub(1))),
            residual: self.kind == (Kind::GsBePriority { preemptive: false }),
        }
    }

    /// How many temporary BE users a GS_BE_EQUAL resource can hold at once with its current GS
    /// users: the flow slots they leave free, and no more than Eq. 1 admits
    /// (`(max total weight - GS weight) / smallest GS weight`).
    fn temporary_room(&self) -> u64 {
        let free = usize::from(self.max_flows).saturating_sub(self.registry.gs_len()) as u64;
        let gs_weight: u64 = self
            .registry
            .iter()
            .filter(|(_, r)| !r.is_temporary())
            .map(|(_, r)| u64::from(r.weight))
            .sum();
        let weight_room = self
            .registry
            .max_total_weight(self.capacity)
            .saturating_sub(gs_weight)
            / u64::from(self.registry.smallest_gs_weight().max(1));
        free.min(weight_room)
    }

    fn gs_registration(&self, flow: FlowId) -> Result<&Registration, Error> {
        match self.registry.get(flow) {
            Some(r) if !r.is_temporary() => Ok(r),
            _ => Err(Error::Unknown),
        }
    }

    /// Opens a flow for `reg` if a slot is free under `max_flows` (slots of closing WFQ flows
    /// count: their weight still shares the CPUs) and Eq. 1, 2 hold.
    fn admit(&mut self, reg: Registration) -> Result<FlowId, Error> {
        if self.fair.in_use() >= usize::from(self.max_flows) {
            return Err(Error::Full);
        }
        self.registry
            .admissible(self.capacity, self.fair.total_weight(), self.max_task, &reg)?;
        let flow = self.fair.open(reg.weight)?;
        self.registry.insert(flow, reg);
        Ok(flow)
    }

    fn enqueue(
        &mut self,
        now: Ticks,
        flow: FlowId,
        task: Task,
        class: Class,
    ) -> Result<(), Refused<Task>> {
        if now < self.now {
            return Err(Refused::new(Error::TimeWentBackwards, task));
        }
        let reserved = class == Class::Gs && self.within_reservation(flow);
        let room = if reserved {
            self.room()
        } else {
            self.be_room()
        };
        if room == 0 {
            return Err(Refused::new(Error::Full, task));
        }
        self.fair
            .enqueue(now, flow, task.work, (task.id, class))
            .map_err(|r| Refused::new(r.reason, task))?;
        self.now = now;
        if reserved {
            // The invariant keeps `reserve_left <= room()`, and the task took one of those.
            self.reserve_left = self.reserve_left.saturating_sub(1);
        }
        Ok(())
    }

    /// Whether GS user `flow` has fewer tasks waiting than the entries set aside for it.
    fn within_reservation(&self, flow: FlowId) -> bool {
        self.registry
            .get(flow)
            .is_some_and(|r| self.fair.flow_len(flow) < usize::from(r.entries))
    }

    /// Entries a best-effort task may take now: the free entries, less (at a preemptive
    /// resource) one per running BE task, less the entries set aside for GS users and not in use.
    /// A GS task beyond its user's reservation takes its entry from this room too.
    pub fn be_room(&self) -> usize {
        self.room().saturating_sub(usize::from(self.reserve_left))
    }

    /// Entries a new waiting task may take: the free ones, less, at a preemptive resource, one
    /// per running BE task (its place if it is paused).
    fn room(&self) -> usize {
        let paused_later = match self.kind {
            Kind::GsBePriority { preemptive: true } => self
                .cpus
                .iter()
                .filter(|c| c.running.is_some_and(|r| r.class == Class::Be))
                .count(),
            _ => 0,
        };
        self.fair.available().saturating_sub(paused_later)
    }

    /// The first free CPU at or after the round-robin cursor.
    fn free_cpu(&self) -> Option<usize> {
        self.round_robin(|c| c.running.is_none())
    }

    /// The first CPU at or after the round-robin cursor for which `pick` holds.
    fn round_robin(&self, pick: impl Fn(&Cpu) -> bool) -> Option<usize> {
        let cursor = self.next_cpu.min(self.cpus.len());
        let (before, after) = self.cpus.split_at(cursor);
        match after.iter().position(&pick) {
            Some(k) => Some(cursor + k),
            None => before.iter().position(pick),
        }
    }

    fn start_on(&mut self, now: Ticks, cpu: usize) -> Result<Option<Decision>, Error> {
        let Some(c) = self.cpus.get_mut(cpu) else {
            return Ok(None);
        };
        let picked = match self.fair.dequeue(now)? {
            Some(d) => {
                let entries = self.registry.get(d.flow).map_or(0, |r| r.entries);
                if d.item.1 == Class::Gs && self.fair.flow_len(d.flow) < usize::from(entries) {
                    // One more of its entries is unused; the start freed one for it.
                    self.reserve_left = self.reserve_left.saturating_add(1);
                }
                Some((
                    Task {
                        id: d.item.0,
                        work: d.work,
                    },
                    d.item.1,
                    Some(d.flow),
                ))
            }
            None => self
                .fair
                .pop_side()
                .map(|((id, _), work)| (Task { id, work }, Class::Be, None)),
        };
        let Some((task, class, flow)) = picked else {
            return Ok(None);
        };
        let lead = if c.ended == now { c.unused } else { 0 };
        let (finish, over) = exec_ticks_after(task.work, c.mips, lead)
            .map_or((Ticks::MAX, 0), |(d, over)| (now.saturating_add(d), over));
        c.running = Some(Running {
            task,
            class,
            flow,
            started: now,
            lead,
            finish,
            over,
        });
        self.next_cpu = cpu + 1;
        Ok(Some(Decision::Start {
            cpu: cpu as u16,
            task,
            class,
            flow,
            finish,
        }))
    }

    /// Pauses the first BE task in round-robin order. [`Self::room`] kept a free entry for it at
    /// the head of the BE FIFO.
    fn preempt(&mut self, now: Ticks) -> Option<Decision> {
        let cpu = self.round_robin(|c| c.running.is_some_and(|r| r.class == Class::Be))?;
        let c = self.cpus.get_mut(cpu)?;
        let run = c.running?;
        let done = work_in(c.mips, now.saturating_sub(run.started), run.lead);
        // A task paused at its finish instant keeps 1 MI, so it is resumed rather than lost.
        let task = Task {
            id: run.task.id,
            work: run.task.work.saturating_sub(done).max(Work::new(1)),
        };
        self.fair
            .push_side_front(task.work, (task.id, Class::Be))
            .ok()?;
        c.running = None;
        // Paused at the tick: nothing of it is left over.
        c.ended = now;
        c.unused = 0;
        Some(Decision::Preempt {
            cpu: cpu as u16,
            task,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type R = Resource<8, 16, 4>;

    const T0: Ticks = Ticks::ZERO;

    fn secs(s: u64) -> Ticks {
        Ticks::from_secs(s)
    }

    fn task(id: u32, work: u64) -> Task {
        Task {
            id,
            work: Work::new(work),
        }
    }

    impl<const F: usize, const Q: usize, const C: usize> Resource<F, Q, C> {
        /// A resource with CPUs of `cpus` MIPS and a maximum task of `max_task` MI.
        fn with(
            kind: Kind,
            discipline: Discipline,
            cpus: &[u64],
            max_task: u64,
            max_flows: u16,
        ) -> Result<Self, Error> {
            let mut mips = Vec::<Mips, C>::new();
            for &c in cpus {
                mips.push(Mips::new(c)).map_err(|_| Error::Full)?;
            }
            Self::new(kind, discipline, &mips, Work::new(max_task), max_flows)
        }
    }

    fn gs(rho: u64) -> Registration {
        Registration {
            weight: 1,
            rho: Mips::new(rho),
            sigma: Work::new(100),
            imax: Work::new(50),
            knowledge: Knowledge::Exact,
            oversize: Oversize::Refuse,
            entries: 0,
        }
    }

    fn start<const F: usize, const Q: usize, const C: usize>(
        r: &mut Resource<F, Q, C>,
        now: Ticks,
    ) -> (u16, u32, Class) {
        match r.next_decision(now).unwrap() {
            Some(Decision::Start {
                cpu, task, class, ..
            }) => (cpu, task.id, class),
            d => panic!("expected a start, got {d:?}"),
        }
    }

    /// Sec. 3.4 checks a BE task's size only where it shares the resource with GS tasks.
    /// A used resource, reset, is the new one (its `Debug` shows every field), and a reset
    /// with a bad argument changes nothing.
    #[test]
    fn a_reset_resource_is_a_new_one() {
        extern crate std;
        use std::format;
        for (kind, discipline) in [
            (Kind::GsBeEqual, Discipline::Wfq),
            (Kind::GsBePriority { preemptive: true }, Discipline::Scfq),
        ] {
            let mut r = R::with(kind, discipline, &[10, 20], 100, 8).unwrap();
            let flow = r
                .register(Registration {
                    entries: 3,
                    ..gs(5)
                })
                .unwrap();
            r.submit_be(T0, task(1, 40)).unwrap();
            r.submit_be(T0, task(2, 40)).unwrap();
            r.submit_gs(T0, flow, task(3, 30)).unwrap();
            r.submit_gs(T0, flow, task(4, 30)).unwrap();
            while r.next_decision(T0).unwrap().is_some() {}
            r.complete(secs(2), 0).unwrap();
            while r.next_decision(secs(2)).unwrap().is_some() {}
            let used = format!("{r:?}");
            let mips = [Mips::new(7), Mips::new(9), Mips::new(11)];
            assert_eq!(
                r.reset(Kind::Be, Discipline::Scfq, &mips, Work::ZERO, 2),
                Err(Error::InvalidParameter(Param::MaxWork))
            );
            assert_eq!(format!("{r:?}"), used);
            r.reset(Kind::Gs, Discipline::Scfq, &mips, Work::new(50), 2)
                .unwrap();
            let new = R::new(Kind::Gs, Discipline::Scfq, &mips, Work::new(50), 2).unwrap();
            assert_eq!(format!("{r:?}"), format!("{new:?}"));
        }
    }

    #[test]
    fn only_resources_that_serve_gs_refuse_be_tasks_above_their_max() {
        let big = task(1, 101);
        for kind in [Kind::GsBeEqual, Kind::GsBePriority { preemptive: false }] {
            let mut r = R::with(kind, Discipline::Wfq, &[10], 100, 4).unwrap();
            assert_eq!(
                r.submit_be(T0, big).unwrap_err().reason,
                Error::TaskTooLarge,
                "{kind:?}"
            );
        }
        let mut be = R::with(Kind::Be, Discipline::Wfq, &[10], 100, 4).unwrap();
        be.submit_be(T0, big).unwrap();
        let beyond = Task {
            id: 2,
            work: Work::new(MAX_TASK_WORK.get() + 1),
        };
        assert_eq!(
            be.submit_be(T0, beyond).unwrap_err().reason,
            Error::TaskTooLarge
        );
    }

    #[test]
    fn priority_serves_gs_first_and_preemptive_pauses_be() {
        for preemptive in [false, true] {
            let mut r = R::with(
                Kind::GsBePriority { preemptive },
                Discipline::Wfq,
                &[10],
                100,
                4,
            )
            .unwrap();
            let u = r.register(gs(5)).unwrap();
            r.submit_be(T0, task(1, 100)).unwrap();
            assert_eq!(start(&mut r, T0), (0, 1, Class::Be));
            r.submit_gs(secs(2), u, task(2, 10)).unwrap();
            let d = r.next_decision(secs(2)).unwrap();
            if preemptive {
                // 2 s at 10 MIPS did 20 MI of the BE task's 100.
                assert_eq!(
                    d,
                    Some(Decision::Preempt {
                        cpu: 0,
                        task: task(1, 80)
                    })
                );
                assert_eq!(start(&mut r, secs(2)), (0, 2, Class::Gs));
                r.complete(secs(3), 0).unwrap();
                assert_eq!(start(&mut r, secs(3)), (0, 1, Class::Be));
            } else {
                assert_eq!(d, None);
                r.complete(secs(10), 0).unwrap();
                assert_eq!(start(&mut r, secs(10)), (0, 2, Class::Gs));
            }
        }
    }

    #[test]
    fn equal_admits_be_as_temporary_users_while_eq1_holds() {
        let mut r = R::with(Kind::GsBeEqual, Discipline::Scfq, &[10], 100, 8).unwrap();
        r.register(gs(5)).unwrap();
        // A BE user of weight 1 makes g = 5 for the GS user: still rho <= g.
        r.submit_be(T0, task(1, 7)).unwrap();
        assert_eq!(r.registry().len(), 2);
        // A second would make g = 10/3 < 5: the task fails with the reason and comes back.
        let t = task(2, 7);
        assert_eq!(
            r.submit_be(T0, t),
            Err(Refused {
                reason: Error::RateExceedsShare,
                item: t
            })
        );
        assert_eq!(start(&mut r, T0), (0, 1, Class::Be));
        let c = r.complete(secs(1), 0).unwrap();
        assert_eq!(c.class, Class::Be);
        assert_eq!(r.registry().len(), 1);
        r.submit_be(secs(1), t).unwrap();
    }

    #[test]
    fn multi_cpu_hands_tasks_out_round_robin() {
        let mut r = R::with(Kind::Be, Discipline::Wfq, &[1, 2, 3], 100, 1).unwrap();
        for id in 0..5 {
            r.submit_be(T0, task(id, 6)).unwrap();
        }
        assert_eq!(start(&mut r, T0).0, 0);
        assert_eq!(start(&mut r, T0).0, 1);
        assert_eq!(start(&mut r, T0).0, 2);
        assert_eq!(r.next_decision(T0), Ok(None));
        // CPU 2 (3 MIPS) ends first, at 2 s; CPU 1 next, at 3 s.
        assert_eq!(r.next_finish(), Some((2, secs(2))));
        r.complete(secs(2), 2).unwrap();
        r.complete(secs(3), 1).unwrap();
        // The cursor wrapped to CPU 0, which is busy: CPU 1 comes first, then CPU 2.
        assert_eq!(start(&mut r, secs(3)).0, 1);
        assert_eq!(start(&mut r, secs(3)).0, 2);
        assert_eq!(
            r.counts(),
            Counts {
                queued_gs: 0,
                queued_be: 0,
                running: 3
            }
        );
    }

    /// The resource sees every task's work, so Eq. 4 holds whatever the user knows: a task above
    /// the user's `I_max` is refused in every mode; a registration admitting larger tasks takes
    /// them up to the resource's `I_r^max`, and has no bound.
    #[test]
    fn tasks_above_the_maximum_are_refused_whatever_the_knowledge() {
        let mut r = R::with(Kind::Gs, Discipline::Scfq, &[10], 100, 3).unwrap();
        let exact = r.register(gs(2)).unwrap();
        let blind = r
            .register(Registration {
                knowledge: Knowledge::ConservativeFeedback,
                ..gs(2)
            })
            .unwrap();
        let admitting = r
            .register(Registration {
                oversize: Oversize::Admit,
                ..gs(2)
            })
            .unwrap();
        let big = task(1, 51);
        for flow in [exact, blind] {
            assert_eq!(
                r.submit_gs(T0, flow, big).unwrap_err().reason,
                Error::TaskTooLarge
            );
        }
        r.submit_gs(T0, admitting, big).unwrap();
        assert_eq!(
            r.submit_gs(T0, admitting, task(2, 101)).unwrap_err().reason,
            Error::TaskTooLarge
        );
        let spec = |f| r.bound_spec(f, RateBasis::Current).unwrap();
        assert_eq!(spec(admitting).at_resource(), Err(Error::NoBound));
        // SCFQ: the others count the admitting user's tasks as I_r^max = 100 MI.
        assert_eq!(spec(exact).others_imax, Work::new(150));
    }

    #[test]
    fn wrong_class_unknown_and_busy_are_reported() {
        let mut r = R::with(Kind::Gs, Discipline::Wfq, &[10], 100, 2).unwrap();
        let t = task(9, 5);
        assert_eq!(r.submit_be(T0, t).unwrap_err().reason, Error::WrongClass);
        assert_eq!(
            r.submit_gs(T0, FlowId::new(3), t).unwrap_err().reason,
            Error::Unknown
        );
        let u = r.register(gs(5)).unwrap();
        assert_eq!(
            r.submit_gs(T0, u, task(1, 51)).unwrap_err().reason,
            Error::TaskTooLarge
        );
        r.submit_gs(T0, u, t).unwrap();
        assert_eq!(r.deregister(u), Err(Error::Busy));
        start(&mut r, T0);
        assert_eq!(r.deregister(u), Err(Error::Busy));
        assert_eq!(r.complete(T0, 1), Err(Error::Unknown));
        r.complete(secs(1), 0).unwrap();
        assert_eq!(r.complete(secs(1), 0), Err(Error::Idle));
        // The resource's clock is at 1 s: an arrival dated earlier is refused (it would move the
        // clock back and let a CPU start a task before its previous one ended).
        assert_eq!(
            r.submit_gs(Ticks::new(500_000), u, t).unwrap_err().reason,
            Error::TimeWentBackwards
        );
        assert!(r.deregister(u).is_ok());
        assert_eq!(
            R::with(Kind::Gs, Discipline::Wfq, &[], 1, 1).unwrap_err(),
            Error::InvalidParameter(Param::Capacity)
        );
        let mut b = R::with(Kind::Be, Discipline::Wfq, &[1], 1, 1).unwrap();
        assert_eq!(b.register(gs(1)), Err(Error::WrongClass));
    }

    /// The entries a registration sets aside are never taken by BE tasks: with the rest of the
    /// queue full of BE tasks, the user still queues `entries` tasks; beyond them it competes
    /// for the free entries like a BE task.
    #[test]
    fn best_effort_never_takes_the_entries_set_aside_for_a_gs_user() {
        for kind in [
            Kind::GsBeEqual,
            Kind::GsBePriority { preemptive: false },
            Kind::GsBePriority { preemptive: true },
        ] {
            let mut r =
                Resource::<8, 8, 1>::with(kind, Discipline::Scfq, &[1_000], 100, 8).unwrap();
            let too_many = Registration {
                entries: 9,
                ..gs(5)
            };
            assert_eq!(r.register(too_many), Err(Error::Full), "{kind:?}");
            let u = r
                .register(Registration {
                    entries: 3,
                    ..gs(5)
                })
                .unwrap();
            assert_eq!(r.be_room(), 5, "{kind:?}");
            let mut id = 0;
            while r.submit_be(T0, task(id, 1)).is_ok() {
                id += 1;
            }
            assert_eq!((id, r.be_room()), (5, 0), "{kind:?}");
            for _ in 0..3 {
                r.submit_gs(T0, u, task(id, 1)).unwrap();
                id += 1;
            }
            let fourth = r.submit_gs(T0, u, task(id, 1));
            assert_eq!(fourth.unwrap_err().reason, Error::Full, "{kind:?}");
            // The GS task starts first (priority; at GS_BE_EQUAL equal tags go to flow 0). The
            // entry it frees is set aside again: BE may not take it, the user may.
            assert_eq!(start(&mut r, T0).2, Class::Gs, "{kind:?}");
            assert_eq!(r.be_room(), 0, "{kind:?}");
            let late = r.submit_be(T0, task(id, 1)).unwrap_err();
            assert_eq!(late.reason, Error::Full, "{kind:?}");
            r.submit_gs(T0, u, task(id, 1)).unwrap();
        }
    }

    #[test]
    fn deregistering_gives_the_set_aside_entries_back() {
        let mut r = Resource::<4, 8, 1>::with(Kind::Gs, Discipline::Wfq, &[10], 100, 4).unwrap();
        let u = r
            .register(Registration {
                entries: 6,
                ..gs(5)
            })
            .unwrap();
        assert_eq!(r.be_room(), 2);
        let v = r.register(Registration {
            entries: 3,
            ..gs(1)
        });
        assert_eq!(v, Err(Error::Full));
        r.deregister(u).unwrap();
        assert_eq!(r.be_room(), 8);
        r.register(Registration {
            entries: 8,
            ..gs(5)
        })
        .unwrap();
        assert_eq!(r.be_room(), 0);
    }

    #[test]
    fn gs_and_be_tasks_share_the_queue_and_a_paused_task_always_has_a_place() {
        for preemptive in [false, true] {
            let mut r = Resource::<4, 4, 2>::with(
                Kind::GsBePriority { preemptive },
                Discipline::Scfq,
                &[10, 10],
                100,
                4,
            )
            .unwrap();
            let u = r.register(gs(5)).unwrap();
            // Two BE tasks run; GS tasks then fill the four entries, less, at a preemptive
            // resource, the two kept for pausing the BE tasks.
            for id in 0..2 {
                r.submit_be(T0, task(id, 100)).unwrap();
            }
            start(&mut r, T0);
            start(&mut r, T0);
            let mut id = 10;
            while r.submit_gs(T0, u, task(id, 10)).is_ok() {
                id += 1;
            }
            assert_eq!(r.counts().queued_gs, if preemptive { 2 } else { 4 });
            assert_eq!(
                r.submit_be(T0, task(id, 1)).unwrap_err().reason,
                Error::Full
            );
            if preemptive {
                // Each BE task is paused into the entry kept for it, and a GS task takes its CPU.
                for _ in 0..2 {
                    let d = r.next_decision(secs(1)).unwrap();
                    assert!(matches!(d, Some(Decision::Preempt { .. })), "{d:?}");
                    assert_eq!(start(&mut r, secs(1)).2, Class::Gs);
                }
                assert_eq!(r.counts().queued_be, 2);
            }
        }
    }
}
