//! kokkinos2009's grid as a simulation: users, the central meta-scheduler, resources, links.
//!
//! The kernel decides everything a scheduler decides (conformance and withholding, registration,
//! delay bounds, queue entries, the resources' local scheduling, best-effort ordering and
//! assignment); this module only moves time, creates work and records what happened.
//!
//! # The model (kokkinos2009 Sec. 5.1, 6.1-6.2)
//! - **Users** create tasks: workloads and inter-arrival times drawn from their distributions
//!   (one [`SplitMix`] stream per user, seeded from the replication's seed and the user's index),
//!   from time 0 while the creation time is before the horizon. Every task travels to the
//!   meta-scheduler (one hop of the network).
//! - **Registration.** At time 0, in scenario order, each GS user registers with the first
//!   resource (in scenario order) that serves GS tasks and admits it (Eq. 1, 2: the kernel's
//!   [`Resource::register`](qosgate_kernel::resource::Resource::register)), setting aside its
//!   queue entries there (below). If every GS-capable resource refuses it, the scenario is an
//!   error (an overloaded grid); if there is none, its tasks are handled as best effort.
//! - **GS tasks** wait in their user's FIFO input queue at the meta-scheduler, which enforces
//!   (rho, sigma) with one kernel [`Bucket`] per registration. When a task heads the queue, the
//!   meta-scheduler asks each registered resource (in registration order) for the task's
//!   conformance (the withholding time `T`) and the kernel's delay bound at the resource
//!   (Current basis), and picks the first where the end-to-end bound `T + d + bound + d` (send,
//!   execute, return the results) meets the task's deadline (Eq. 7). The task is then released
//!   after `T` (backlogged if `T > 0` or it waited behind others), charged, and sent. If a bucket
//!   waits for workload feedback (`Window(n)`, or 65,535 tasks awaiting it), or the registration
//!   has as many tasks on their way or waiting as it has queue entries, the task waits. If no
//!   resource meets the deadline, the task is handled as best effort (Sec. 3.2: "schedules it
//!   like a BE task"); so is a task that finds its user's input queue full
//!   ([`capacity::INPUT`] tasks). Without exact workload knowledge, the meta-scheduler plans
//!   with the user's `I_max` and learns the real workload when the task ends (feedback reaches
//!   it one hop later). A task's `resource_bound` is the bound the kernel guarantees it at its
//!   resource; its `planned_bound` the end-to-end delay planned with. Users without a guarantee
//!   (full-aggressive submission, oversized tasks admitted) have no `resource_bound`; the
//!   meta-scheduler plans them with the bound conforming tasks would have, which it cannot tell
//!   from the others (it "handles many tasks as GS tasks ... even when their deadlines cannot
//!   actually be met"). A task that waits at the head of its user's queue for a queue entry or
//!   for feedback records that wait as its `hold`.
//! - **Tasks above the user's `I_max`** never run as GS under a guarantee (the kernel's
//!   resource refuses them whatever the user knows). The scenario's `oversize` rule says what
//!   becomes of them: `best_effort` (the default; Sec. 3.2) hands them to the meta-scheduler as
//!   BE, `reject` rejects them, `admit` serves them as GS up to the resource's `max_task_mi` and
//!   takes the user's guarantee away. An exact user's oversized task is caught at the
//!   meta-scheduler; other users' at the resource, whose refusal sends it back one hop (as BE)
//!   and withdraws its charge from the bucket ([`Bucket::withdraw`]).
//! - **Queue entries.** A GS registration sets aside `queue_entries` of its resource's queue
//!   (default: [`default_entries`]), which best-effort tasks never take, and the meta-scheduler
//!   never has more of the registration's tasks on their way to the resource or waiting there
//!   than that: a GS task it releases always finds an entry, whatever the best-effort load.
//! - **BE tasks** are collected by the meta-scheduler and dispatched at the end of each
//!   collection period (EDF/EST or WFQ/EST: the kernel's
//!   [`MetaScheduler`](qosgate_kernel::meta::MetaScheduler)), to the resource where they would
//!   start earliest. The start estimate of a resource is its backlog: the work queued there and
//!   left on its CPUs, over its total capacity (a fluid estimate, refreshed before every
//!   dispatch). Its room is the entries a BE task may take there less the BE tasks on their way
//!   to it: a resource without room is passed over, and when none that takes the next task has
//!   room, the tasks wait at the meta-scheduler (up to [`capacity::BATCH`] of them; a BE task
//!   finding the batch full is rejected) and are dispatched again at the end of the period in
//!   which a task ends somewhere (only an end frees an entry).
//! - **Resources** run the kernel's [`Resource`](qosgate_kernel::resource::Resource): the four
//!   types, WFQ or SCFQ, one or many CPUs. A BE task a GS_BE_EQUAL resource cannot admit (Eq. 1,
//!   or no free flow slot) fails (Sec. 6.3). A BE resource takes a BE task of any size; the
//!   others only up to their `I_r^max` (Sec. 3.4). A task that finds no entry free (which the
//!   room above prevents) is rejected.
//! - **Links**: every hop takes `bytes × 8 / bandwidth` (zero propagation).
//!
//! # Order of events
//! By time; at one instant, in the order they were scheduled ([`crate::des::queue`]).
//!
//! # Memory
//! A task lives in a slot (about 100 bytes) from its creation to its end; then the metrics'
//! [`Tally`] counts it, its record goes to the caller's sink if there is one, and the slot is
//! reused. The kernel structures come from, and go back to, the thread's [`Spares`]. What the run
//! holds is the tasks alive at once (bounded by the queues above, the CPUs, and the tasks on the
//! links), never the tasks of the whole horizon.

use anyhow::{Context, Result, anyhow, bail};
use qosgate_kernel::Error;
use qosgate_kernel::bound::entries_needed;
use qosgate_kernel::bucket::{self, Bucket, Charge, Conformance};
use qosgate_kernel::fairq::FlowId;
use qosgate_kernel::meta::{BeTask, Order};
use qosgate_kernel::registry::{RateBasis, Registration};
use qosgate_kernel::resource::{Class, Decision, Task};
use qosgate_kernel::units::{MAX_TASK_WORK, Mips, TICKS_PER_SECOND, Ticks, Work};
use std::collections::{BTreeMap, VecDeque};
use std::ops::{Index, IndexMut};

use super::capacity::{self, META_USERS, Meta, Res};
use super::metrics::{Ended, Run, Tally};
use super::record::{Outcome, TaskClass, TaskRecord};
use super::reuse::Spares;
use super::scenario::{
    Discipline, Knowledge, MetaOrder, Oversize, ResourceKind, Scenario, UserClass, UserConfig,
};
use crate::des::queue::Queue;
use crate::des::rng::{SplitMix, replication_seed};
use crate::des::time::{secs, ticks};

/// Where each task's record goes when the task ends (besides the metrics).
pub type Sink<'a> = &'a mut (dyn FnMut(&TaskRecord) -> Result<()> + Send);

/// A live task's slot; the kernel knows the task by it.
type Slot = u32;

/// Something that happens.
#[derive(Clone, Copy, Debug)]
enum Event {
    /// A user creates its next task.
    Create(usize),
    /// A task reaches the meta-scheduler.
    AtMeta(Slot),
    /// The head of a user's input queue is released (its withholding time is over).
    Release(usize),
    /// The meta-scheduler's collection period ends.
    Collect,
    /// A task reaches a resource.
    Arrive(Slot),
    /// A CPU's task ends; `generation` tells a stale end (the task was paused) from a real one.
    Finish {
        resource: u16,
        cpu: u16,
        generation: u64,
    },
    /// A task's real workload reaches the meta-scheduler.
    Feedback(Slot),
    /// A task's results reach its user.
    Return(Slot),
}

/// A user's registration at a resource, as the meta-scheduler keeps it.
struct Registered {
    resource: usize,
    flow: FlowId,
    bucket: Bucket,
    /// The largest task the resource serves as GS for it (its `I_max`, or the resource's
    /// `I_r^max` if it admits larger tasks).
    largest_gs_task: Work,
    /// Queue entries set aside at the resource.
    entries: usize,
    /// Tasks released to it that have not started there yet (on their way, or waiting).
    waiting: usize,
}

/// A user at run time.
struct User {
    cfg: UserConfig,
    rng: SplitMix,
    registrations: Vec<Registered>,
    /// GS tasks waiting at the meta-scheduler, oldest first; the head may be scheduled for
    /// release (`releasing`).
    input: VecDeque<Slot>,
    releasing: bool,
    /// The user's id at the meta-scheduler (every user can have BE tasks).
    meta_user: FlowId,
    /// Its tasks' deadline, from creation.
    deadline: Ticks,
    /// Its row and its tasks' class in the metrics' tally.
    row: Option<usize>,
}

/// A task at run time, kept small (about 100 bytes): under overload tens of thousands are alive
/// at once, and each event touches one that has not been touched for a while.
struct TaskState {
    /// Its number, in creation order from 0.
    number: u64,
    work: Work,
    created: Ticks,
    /// Its user (an index below [`capacity::META_USERS`]).
    user: u16,
    handled: TaskClass,
    /// The site it was sent to.
    resource: Option<u16>,
    /// The registration it is planned for (then released to), of its user's.
    plan: Option<u16>,
    /// What its registration's bucket charged at its release.
    charge: Option<Charge>,
    steps: Steps,
    backlogged: bool,
    /// Refused as GS at its resource after its bucket charged it: its `Feedback` event
    /// withdraws the charge instead of reporting work.
    unserved: bool,
    /// A `Feedback` event still names it: it ends with that event.
    feedback_pending: bool,
    /// How it ended (its reason, if any, waits in `World::reasons` while `feedback_pending`).
    outcome: Option<Outcome>,
}

impl TaskState {
    /// The user's index.
    fn user(&self) -> usize {
        usize::from(self.user)
    }

    /// The site it was sent to.
    fn site(&self) -> Option<usize> {
        self.resource.map(usize::from)
    }

    /// Its registration and charge, once released to a registration.
    fn charged(&self) -> Option<(usize, Charge)> {
        Some((usize::from(self.plan?), self.charge?))
    }
}

/// The steps of a task with a recorded instant (or, for the bounds, a length), in ticks.
#[derive(Clone, Copy)]
enum Step {
    Released,
    Arrived,
    Started,
    Finished,
    Returned,
    /// The end-to-end delay planned with, from creation.
    Bound,
    /// The bound guaranteed at the resource, from arrival (users with a guarantee).
    ResourceBound,
    /// When it first waited at the head of its user's queue for an entry or feedback.
    Held,
    /// When the meta-scheduler planned its release.
    Planned,
}

/// One `Option<Ticks>` per [`Step`], packed: the values and a bit per step reached.
#[derive(Default)]
struct Steps {
    at: [Ticks; 9],
    reached: u16,
}

impl Steps {
    fn get(&self, step: Step) -> Option<Ticks> {
        let i = step as usize;
        (self.reached & (1 << i) != 0).then(|| self.at[i])
    }

    fn set(&mut self, step: Step, t: Ticks) {
        let i = step as usize;
        self.at[i] = t;
        self.reached |= 1 << i;
    }
}

/// The live tasks by slot; a slot is free again once its task has ended (no event names it).
#[derive(Default)]
struct Tasks {
    slots: Vec<Option<TaskState>>,
    free: Vec<Slot>,
}

impl Tasks {
    fn insert(&mut self, task: TaskState) -> Result<Slot> {
        if let Some(slot) = self.free.pop() {
            self.slots[slot as usize] = Some(task);
            return Ok(slot);
        }
        let slot = Slot::try_from(self.slots.len()).context("more than 2^32 tasks alive")?;
        self.slots.push(Some(task));
        Ok(slot)
    }

    fn remove(&mut self, slot: Slot) -> Option<TaskState> {
        let task = self.slots.get_mut(slot as usize)?.take()?;
        self.free.push(slot);
        Some(task)
    }

    /// Tasks alive.
    fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

impl Index<Slot> for Tasks {
    type Output = TaskState;
    fn index(&self, slot: Slot) -> &TaskState {
        self.slots[slot as usize]
            .as_ref()
            .expect("an event names a live task")
    }
}

impl IndexMut<Slot> for Tasks {
    fn index_mut(&mut self, slot: Slot) -> &mut TaskState {
        self.slots[slot as usize]
            .as_mut()
            .expect("an event names a live task")
    }
}

/// A resource at run time.
struct Site {
    name: String,
    kind: ResourceKind,
    discipline: Discipline,
    max_users: u16,
    res: Box<Res>,
    /// Work queued (submitted, not started), MI.
    queued_work: u128,
    /// Speed of each CPU.
    speeds: Vec<Mips>,
    /// Per CPU, while it runs a task: (task, expected end).
    cpus: Vec<Option<(Slot, Ticks)>>,
    generation: Vec<u64>,
    /// The meta-scheduler's slot, if it serves best effort.
    slot: Option<u16>,
    /// BE tasks dispatched to it that have not arrived yet.
    in_flight: usize,
    /// Its row in the metrics' tally.
    row: Option<usize>,
}

/// One replication of a scenario.
pub struct World<'a> {
    queue: Queue<Event>,
    users: Vec<User>,
    tasks: Tasks,
    /// Tasks created so far.
    created: u64,
    sites: Vec<Site>,
    meta: Box<Meta>,
    collect_pending: bool,
    period: Ticks,
    horizon: Ticks,
    hop_in: Ticks,
    hop_out: Ticks,
    registrations: Vec<(String, String)>,
    tally: Tally,
    /// The reasons of tasks that ended early while a `Feedback` event still names them.
    reasons: BTreeMap<Slot, String>,
    sink: Option<Sink<'a>>,
}

fn discipline_name(d: Discipline) -> &'static str {
    match d {
        Discipline::Wfq => "wfq",
        Discipline::Scfq => "scfq",
    }
}

/// The queue entries a GS user sets aside at `res` when its scenario does not say: the most its
/// tasks can need there, [`entries_needed`] with the smallest value of its workload
/// distribution (at least 1 MI) and a stay of one hop (`hop`) plus its bound on the reserved
/// basis (which holds for the life of the registration), but no more than an even share of
/// half the queue, `QUEUE / (2 max_users)`, so that however many users register, best effort
/// keeps at least half. The count rests on every task the user sends starting within that
/// stay, so the share is taken instead where that can fail or the count is unbounded: the
/// bucket bounds no count (`aggressive`), the user has no bound (it admits tasks above its
/// `I_max`, and the workload can exceed `max_task_mi`), or the workload has no positive
/// smallest value (exponential and the like). Tasks the count does not cover may find the
/// entries in use and wait at the meta-scheduler (their `hold`); they are never refused.
pub fn default_entries(res: &Res, reg: &Registration, user: &UserConfig, hop: Ticks) -> u16 {
    let share = capacity::QUEUE / (2 * usize::from(res.max_flows().max(1)));
    let refuses_larger = reg.oversize == bucket::Oversize::Refuse;
    let covered = refuses_larger || user.workload.largest() <= reg.imax.get() as f64;
    let smallest = Work::new(user.workload.smallest().round().max(1.0) as u64);
    let needed = res
        .reserved_spec(reg)
        .at_resource()
        .ok()
        .filter(|_| covered)
        .and_then(|d| {
            entries_needed(
                reg.sigma,
                reg.rho,
                reg.knowledge,
                reg.imax,
                smallest,
                hop.saturating_add(d),
            )
            .ok()
            .flatten()
        });
    let entries = needed.map_or(share as u64, |n| n.min(share as u64));
    u16::try_from(entries.max(1)).unwrap_or(u16::MAX)
}

impl<'a> World<'a> {
    /// The world of `scenario`'s replication `k`: resources built (from `spares` where it has
    /// them), users registered. Each task's record goes to `sink`, if any, when the task ends.
    pub fn new(
        scenario: &Scenario,
        k: u32,
        sink: Option<Sink<'a>>,
        spares: &mut Spares,
    ) -> Result<Self> {
        let seed = replication_seed(scenario.header.seed, k);
        let bits = |bytes: u64| bytes as f64 * 8.0 / scenario.network.bandwidth_bps;
        let hop_in = ticks(bits(scenario.network.input_bytes));
        let hop_out = ticks(bits(scenario.network.output_bytes));
        let order = match scenario.meta.order {
            MetaOrder::Edf => Order::Edf,
            MetaOrder::Wfq => Order::Wfq,
        };
        let be_capacity: u64 = scenario
            .resources
            .iter()
            .filter(|r| r.kind != ResourceKind::Gs)
            .flat_map(|r| r.cpus.iter())
            .sum();
        let mut meta = spares
            .meta(order, Mips::new(be_capacity.max(1)))
            .map_err(|e| anyhow!("the meta-scheduler: {e}"))?;
        if scenario.resources.len() >= usize::from(u16::MAX) || scenario.users.len() > META_USERS {
            bail!(
                "{} resources and {} users: the simulator takes fewer than {} resources and at \
                 most {META_USERS} users",
                scenario.resources.len(),
                scenario.users.len(),
                u16::MAX
            );
        }
        let tally = Tally::new(scenario);
        let mut sites = Vec::with_capacity(scenario.resources.len());
        for r in &scenario.resources {
            let cpus: Vec<Mips> = r.cpus.iter().map(|&c| Mips::new(c)).collect();
            let res = spares
                .resource(
                    r.kind.into(),
                    r.discipline.into(),
                    &cpus,
                    Work::new(r.max_task_mi),
                    r.max_users,
                )
                .map_err(|e| anyhow!("resource {}: {e}", r.name))?;
            let slot = if r.kind == ResourceKind::Gs {
                None
            } else {
                let speed = Mips::new(r.cpus.iter().sum());
                // A BE resource takes any task (Sec. 3.4 checks size only where GS is served).
                let takes = if r.kind == ResourceKind::Be {
                    MAX_TASK_WORK
                } else {
                    Work::new(r.max_task_mi)
                };
                Some(
                    meta.add_slot(speed, takes)
                        .map_err(|e| anyhow!("resource {} at the meta-scheduler: {e}", r.name))?,
                )
            };
            sites.push(Site {
                name: r.name.clone(),
                kind: r.kind,
                discipline: r.discipline,
                max_users: r.max_users,
                res,
                queued_work: 0,
                speeds: cpus,
                cpus: vec![None; r.cpus.len()],
                generation: vec![0; r.cpus.len()],
                slot,
                in_flight: 0,
                row: tally.resource_row(&r.name),
            });
        }
        let mut users = Vec::with_capacity(scenario.users.len());
        let mut registrations = Vec::new();
        for (i, u) in scenario.users.iter().enumerate() {
            let meta_user = meta
                .add_user(u.weight)
                .map_err(|e| anyhow!("user {} at the meta-scheduler: {e}", u.name))?;
            let mut user = User {
                cfg: u.clone(),
                rng: SplitMix::for_entity(seed, i as u64),
                registrations: Vec::new(),
                input: VecDeque::new(),
                releasing: false,
                meta_user,
                deadline: ticks(u.deadline_s),
                row: tally.user_row(&u.name),
            };
            if u.class == UserClass::Gs {
                register(u, &mut sites, hop_in, &mut user, &mut registrations)?;
            }
            users.push(user);
        }
        if let Some(full) = sites
            .iter()
            .find(|s| s.slot.is_some() && s.res.be_room() == 0)
        {
            bail!(
                "resource {}: the GS users' queue_entries take its whole queue ({} entries): \
                 best-effort tasks could never wait there",
                full.name,
                capacity::QUEUE
            );
        }
        let mut queue = Queue::default();
        let horizon = ticks(scenario.horizon_s);
        for (i, user) in users.iter_mut().enumerate() {
            let first = match &user.cfg.phase_s {
                Some(phase) => ticks(phase.sample(&mut user.rng)),
                None => Ticks::ZERO,
            };
            if first < horizon {
                queue.at(first, Event::Create(i));
            }
        }
        Ok(Self {
            queue,
            users,
            tasks: Tasks::default(),
            created: 0,
            sites,
            meta,
            collect_pending: false,
            period: ticks(scenario.meta.collection_period_s).max(Ticks::new(1)),
            horizon,
            hop_in,
            hop_out,
            registrations,
            tally,
            reasons: BTreeMap::new(),
            sink,
        })
    }

    /// Runs until no event is left, then leaves its kernel structures to `spares`.
    ///
    /// Errors: the sink's, or an internal inconsistency (a task that never ended, a kernel
    /// refusal the model cannot explain), named.
    pub fn run(mut self, spares: &mut Spares) -> Result<Run> {
        while let Some(event) = self.queue.pop() {
            self.handle(event)?;
        }
        let alive = self.tasks.live();
        if alive > 0 {
            bail!("{alive} tasks never ended");
        }
        for site in self.sites {
            spares.keep_resource(site.res);
        }
        spares.keep_meta(self.meta);
        Ok(Run {
            metrics: self.tally.finish(),
            tasks: self.created,
            events: self.queue.processed(),
            registrations: self.registrations,
            end_s: secs(self.queue.now()),
        })
    }

    fn handle(&mut self, event: Event) -> Result<()> {
        let now = self.queue.now();
        match event {
            Event::Create(u) => self.create(u, now),
            Event::AtMeta(t) => {
                let user = self.tasks[t].user();
                if self.tasks[t].handled == TaskClass::Be {
                    return self.hand_to_best_effort(t, now);
                }
                if self.users[user].input.len() >= capacity::INPUT {
                    // No room to hold it for a guarantee: the rule for any GS task the
                    // meta-scheduler cannot serve as such (Sec. 3.2).
                    self.tasks[t].handled = TaskClass::Be;
                    return self.hand_to_best_effort(t, now);
                }
                self.users[user].input.push_back(t);
                self.serve_input(user, now)
            }
            Event::Release(u) => self.release(u, now),
            Event::Collect => self.collect(now),
            Event::Arrive(t) => self.arrive(t, now),
            Event::Finish {
                resource,
                cpu,
                generation,
            } => {
                let resource = usize::from(resource);
                if self.sites[resource].generation[usize::from(cpu)] != generation {
                    return Ok(());
                }
                self.finish(resource, cpu, now)
            }
            Event::Feedback(t) => self.feedback(t, now),
            Event::Return(t) => {
                let task = &mut self.tasks[t];
                task.steps.set(Step::Returned, now);
                task.outcome = Some(Outcome::Completed);
                if task.feedback_pending {
                    return Ok(());
                }
                self.end(t, None)
            }
        }
    }

    fn create(&mut self, u: usize, now: Ticks) -> Result<()> {
        let user = &mut self.users[u];
        // A task has work; a gap is at least one tick.
        let work = Work::new(user.cfg.workload.sample(&mut user.rng).round().max(1.0) as u64);
        let gap = ticks(user.cfg.interarrival.sample(&mut user.rng)).max(Ticks::new(1));
        let handled = if user.cfg.class == UserClass::Gs && !user.registrations.is_empty() {
            TaskClass::Gs
        } else {
            TaskClass::Be
        };
        let t = self.tasks.insert(TaskState {
            number: self.created,
            // Fewer than `META_USERS` users (checked by `World::new`).
            user: u as u16,
            work,
            created: now,
            handled,
            resource: None,
            plan: None,
            charge: None,
            steps: Steps::default(),
            backlogged: false,
            unserved: false,
            feedback_pending: false,
            outcome: None,
        })?;
        self.created += 1;
        self.queue.after(self.hop_in, Event::AtMeta(t));
        if now.saturating_add(gap) < self.horizon {
            self.queue.after(gap, Event::Create(u));
        }
        Ok(())
    }

    /// The work the meta-scheduler plans with: the real one with exact knowledge, else `I_max`.
    fn planned_work(&self, t: Slot) -> Work {
        let task = &self.tasks[t];
        let cfg = &self.users[task.user()].cfg;
        match (cfg.knowledge, cfg.max_task_mi) {
            (Some(k), Some(imax)) if k != Knowledge::Exact => Work::new(imax),
            _ => task.work,
        }
    }

    /// Decides for the head of user `u`'s input queue, if nothing is pending for it.
    fn serve_input(&mut self, u: usize, now: Ticks) -> Result<()> {
        while !self.users[u].releasing {
            let Some(&t) = self.users[u].input.front() else {
                return Ok(());
            };
            let work = self.planned_work(t);
            let task = &self.tasks[t];
            let deadline = task.created.saturating_add(self.users[u].deadline);
            // Some registration could take the task later: feedback is awaited, or its queue
            // entries are all in use.
            let mut waits = false;
            let mut too_large = false;
            let mut chosen = None;
            for (k, reg) in self.users[u].registrations.iter().enumerate() {
                if reg.waiting >= reg.entries {
                    waits = true;
                    continue;
                }
                // A task the resource would refuse as GS (Eq. 4, or above I_r^max when the user
                // admits larger ones): known here only with exact knowledge.
                if work > reg.largest_gs_task {
                    too_large = true;
                    continue;
                }
                let wait = match reg.bucket.check(now, work) {
                    Ok(Conformance::Now) => Ticks::ZERO,
                    Ok(Conformance::After(w)) => w,
                    // Window(n), or the bucket's count of tasks awaiting feedback is full.
                    Ok(Conformance::OnFeedback) | Err(Error::Full) => {
                        waits = true;
                        continue;
                    }
                    // Eq. 4: a task above the registration's I_max.
                    Err(Error::TaskTooLarge) => {
                        too_large = true;
                        continue;
                    }
                    Err(e) => bail!(
                        "conformance of task {} of user {} at {}: {e}",
                        task.number,
                        self.users[u].cfg.name,
                        self.sites[reg.resource].name
                    ),
                };
                let res = &self.sites[reg.resource].res;
                let what = |e| anyhow!("bound of user {u} at resource {}: {e}", reg.resource);
                let guaranteed = match res.bound_spec(reg.flow, RateBasis::Current) {
                    Ok(spec) => match spec.at_resource() {
                        Ok(b) => Some(b),
                        Err(Error::NoBound) => None,
                        Err(_) => continue,
                    },
                    Err(e) => return Err(what(e)),
                };
                // Without a guarantee (full-aggressive submission, oversized tasks admitted),
                // plan with the kernel's estimate (see the module doc).
                let at_resource = match guaranteed {
                    Some(b) => b,
                    None => match res.estimate_spec(reg.flow, RateBasis::Current) {
                        Ok(spec) => match spec.at_resource() {
                            Ok(b) => b,
                            Err(_) => continue,
                        },
                        Err(e) => return Err(what(e)),
                    },
                };
                let end = now
                    .saturating_add(wait)
                    .saturating_add(self.hop_in)
                    .saturating_add(at_resource)
                    .saturating_add(self.hop_out);
                if end <= deadline {
                    chosen = Some((k, wait, end, guaranteed));
                    break;
                }
            }
            match chosen {
                Some((k, wait, end, guaranteed)) => {
                    let task = &mut self.tasks[t];
                    // `end >= now >= created`.
                    task.steps
                        .set(Step::Bound, end.saturating_sub(task.created));
                    task.steps.set(Step::Planned, now);
                    if let Some(b) = guaranteed {
                        task.steps.set(Step::ResourceBound, b);
                    }
                    task.backlogged |= wait > Ticks::ZERO;
                    // Fewer registrations than sites.
                    task.plan = Some(k as u16);
                    self.users[u].releasing = true;
                    self.queue.after(wait, Event::Release(u));
                }
                None if waits => {
                    // Wait for feedback (Window(n)) or for an entry to free.
                    let task = &mut self.tasks[t];
                    task.backlogged = true;
                    if task.steps.get(Step::Held).is_none() {
                        task.steps.set(Step::Held, now);
                    }
                    return Ok(());
                }
                None => {
                    self.users[u].input.pop_front();
                    self.tasks[t].handled = TaskClass::Be;
                    if too_large && self.users[u].cfg.oversize == Some(Oversize::Reject) {
                        let reason = self.oversize_reason(t);
                        self.end_early(t, Outcome::Rejected, reason)?;
                    } else {
                        self.hand_to_best_effort(t, now)?;
                    }
                    // Tasks behind it waited for this decision.
                    for &t in &self.users[u].input {
                        self.tasks[t].backlogged = true;
                    }
                }
            }
        }
        Ok(())
    }

    fn release(&mut self, u: usize, now: Ticks) -> Result<()> {
        let t = *self.users[u]
            .input
            .front()
            .context("a release with an empty input queue")?;
        self.users[u].releasing = false;
        let work = self.planned_work(t);
        let k = usize::from(self.tasks[t].plan.context("a release without a plan")?);
        let reg = &mut self.users[u].registrations[k];
        let charge = match reg.bucket.charge(now, work) {
            Ok(charge) => charge,
            // Feedback during the wait left a debt (a task ran longer than it was charged for):
            // the task is planned again, as the head of the queue.
            Err(Error::NonConforming) => {
                self.tasks[t].plan = None;
                return self.serve_input(u, now);
            }
            Err(e) => bail!("charging task {} at its release: {e}", self.tasks[t].number),
        };
        reg.waiting += 1;
        let r = reg.resource;
        self.users[u].input.pop_front();
        let task = &mut self.tasks[t];
        task.charge = Some(charge);
        task.steps.set(Step::Released, now);
        // Fewer than `u16::MAX` sites (checked by `World::new`).
        task.resource = Some(r as u16);
        self.queue.after(self.hop_in, Event::Arrive(t));
        for &t in &self.users[u].input {
            self.tasks[t].backlogged = true;
        }
        self.serve_input(u, now)
    }

    fn feedback(&mut self, t: Slot, now: Ticks) -> Result<()> {
        let task = &mut self.tasks[t];
        task.feedback_pending = false;
        let (u, work, charge, ended) = (
            task.user(),
            task.work,
            task.charged(),
            task.outcome.is_some(),
        );
        if let Some((k, charge)) = charge {
            let bucket = &mut self.users[u].registrations[k].bucket;
            if self.tasks[t].unserved {
                bucket.withdraw(now, charge)
            } else {
                bucket.feedback(now, charge, work)
            }
            .map_err(|e| anyhow!("feedback of task {}: {e}", self.tasks[t].number))?;
        }
        if ended {
            let reason = self.reasons.remove(&t);
            self.end(t, reason)?;
        }
        self.serve_input(u, now)
    }

    fn hand_to_best_effort(&mut self, t: Slot, now: Ticks) -> Result<()> {
        let task = &self.tasks[t];
        let be = BeTask {
            id: t,
            user: self.users[task.user()].meta_user,
            work: task.work,
            deadline: task
                .created
                .saturating_add(self.users[task.user()].deadline),
        };
        match self.meta.submit(now, be) {
            Ok(()) => {
                self.schedule_collect(now);
                Ok(())
            }
            Err(refused) => {
                let reason = match refused.reason {
                    Error::Full => format!(
                        "the meta-scheduler's batch is full ({} best-effort tasks wait for a \
                         resource with room)",
                        capacity::BATCH
                    ),
                    e => e.to_string(),
                };
                self.end_early(t, Outcome::Rejected, reason)
            }
        }
    }

    /// Schedules the next collection at the end of the current period, unless one is pending.
    fn schedule_collect(&mut self, now: Ticks) {
        if !self.collect_pending {
            self.collect_pending = true;
            let period = self.period.get();
            let next = Ticks::new((now.get() / period + 1) * period);
            self.queue.at(next, Event::Collect);
        }
    }

    /// Ends task `t` now, before it ran, with `outcome` and `reason`; a `Feedback` event still
    /// naming it ends it instead.
    fn end_early(&mut self, t: Slot, outcome: Outcome, reason: String) -> Result<()> {
        let task = &mut self.tasks[t];
        task.outcome = Some(outcome);
        if task.feedback_pending {
            self.reasons.insert(t, reason);
            return Ok(());
        }
        self.end(t, Some(reason))
    }

    /// Task `t` has ended (`reason`: why, if it did not complete): the tally counts it, its
    /// record goes to the sink, its slot is free.
    fn end(&mut self, t: Slot, reason: Option<String>) -> Result<()> {
        let task = self.tasks.remove(t).context("ending a task twice")?;
        let outcome = task
            .outcome
            .with_context(|| format!("task {} never ended", task.number))?;
        let user = &self.users[task.user()];
        let site = task.site().map(|r| &self.sites[r]);
        let opt = |step| task.steps.get(step).map(secs);
        self.tally.add_ended(&Ended {
            user: user.row,
            resource: site.and_then(|s| s.row),
            class: class_of(user.cfg.class),
            handled_as: task.handled,
            outcome,
            backlogged: task.backlogged,
            over_bound: task.handled == TaskClass::Gs && over_bound(&task.steps),
            created: secs(task.created),
            started: opt(Step::Started),
            finished: opt(Step::Finished),
            returned: opt(Step::Returned),
            workload_mi: task.work.get(),
            deadline: secs(user.deadline),
        });
        if self.sink.is_none() {
            return Ok(());
        }
        let record = self.record(&task, outcome, reason);
        self.sink.as_mut().map_or(Ok(()), |sink| sink(&record))
    }

    fn collect(&mut self, now: Ticks) -> Result<()> {
        self.collect_pending = false;
        for site in &self.sites {
            let Some(slot) = site.slot else { continue };
            let running: u128 = site
                .cpus
                .iter()
                .zip(&site.speeds)
                .filter_map(|(c, mips)| {
                    c.map(|(_, end)| {
                        u128::from(end.saturating_sub(now).get()) * u128::from(mips.get())
                    })
                })
                .sum::<u128>()
                / u128::from(TICKS_PER_SECOND);
            let capacity = u128::from(site.res.capacity().get());
            let backlog = (site.queued_work + running) * u128::from(TICKS_PER_SECOND) / capacity;
            let ready = now.saturating_add(Ticks::new(u64::try_from(backlog).unwrap_or(u64::MAX)));
            let room = site.res.be_room().saturating_sub(site.in_flight);
            self.meta
                .set_ready(slot, ready)
                .and_then(|()| {
                    self.meta
                        .set_room(slot, u32::try_from(room).unwrap_or(u32::MAX))
                })
                .map_err(|e| anyhow!("slot of {}: {e}", site.name))?;
        }
        while let Some(a) = self
            .meta
            .dispatch(now)
            .map_err(|e| anyhow!("best-effort dispatch: {e}"))?
        {
            let t = a.task.id;
            let r = self
                .sites
                .iter()
                .position(|s| s.slot == Some(a.slot))
                .context("an assignment to an unknown slot")?;
            self.sites[r].in_flight += 1;
            let task = &mut self.tasks[t];
            // Fewer than `u16::MAX` sites (checked by `World::new`).
            task.resource = Some(r as u16);
            task.steps.set(Step::Released, now);
            self.queue.after(self.hop_in, Event::Arrive(t));
        }
        // Tasks no resource had room for wait until a task ends somewhere (`finish`).
        Ok(())
    }

    fn arrive(&mut self, t: Slot, now: Ticks) -> Result<()> {
        let task = &mut self.tasks[t];
        task.steps.set(Step::Arrived, now);
        let r = task.site().context("an arrival without a resource")?;
        let kt = Task {
            id: t,
            work: task.work,
        };
        let site = &mut self.sites[r];
        let submitted = match task.handled {
            TaskClass::Gs => {
                let k = task.charged().map_or(0, |c| c.0);
                let flow = self.users[task.user()].registrations[k].flow;
                site.res.submit_gs(now, flow, kt).map_err(|e| e.reason)
            }
            TaskClass::Be => {
                site.in_flight = site.in_flight.saturating_sub(1);
                if site.res.be_room() == 0 {
                    Err(Error::Full)
                } else {
                    site.res.submit_be(now, kt).map_err(|e| e.reason)
                }
            }
        };
        let reason = match submitted {
            Ok(()) => {
                site.queued_work += u128::from(kt.work.get());
                return self.decide(r, now);
            }
            Err(e) => e,
        };
        // Which limit refused it: at GS_BE_EQUAL a BE task with room in the queue needs a flow
        // slot (the kernel's `Full` then) and Eq. 1: those are the paper's failed BE tasks.
        let as_gs = task.handled == TaskClass::Gs;
        let dropped_by_equal =
            !as_gs && site.kind == ResourceKind::GsBeEqual && site.res.be_room() > 0;
        let oversized = as_gs && reason == Error::TaskTooLarge;
        let (outcome, reason) = match reason {
            Error::Full if dropped_by_equal => (
                Outcome::Failed,
                format!(
                    "{} has no free flow slot (max_users {})",
                    site.name, site.max_users
                ),
            ),
            Error::RateExceedsShare if dropped_by_equal => (Outcome::Failed, reason.to_string()),
            Error::Full => (
                Outcome::Rejected,
                format!("{}'s queue is full: no entry this task may take", site.name),
            ),
            e => (Outcome::Rejected, e.to_string()),
        };
        // A charged GS task that was not served withdraws its charge (one hop later, as
        // feedback would come): without that, a bucket waiting for feedback (Window(n)) would
        // wait for ever.
        let u = task.user();
        let mut woken = false;
        if let (true, Some((k, _))) = (as_gs, task.charged()) {
            task.unserved = true;
            task.feedback_pending = true;
            self.queue.after(self.hop_out, Event::Feedback(t));
            woken = self.entry_freed(u, k);
        }
        if oversized && self.users[u].cfg.oversize != Some(Oversize::Reject) {
            // Above what the resource serves as GS for this user: back to the meta-scheduler,
            // as best effort.
            let task = &mut self.tasks[t];
            task.handled = TaskClass::Be;
            task.resource = None;
            self.queue.after(self.hop_out, Event::AtMeta(t));
        } else {
            let reason = if oversized {
                // Not served as GS after all, like an exact user's oversized task.
                self.tasks[t].handled = TaskClass::Be;
                self.oversize_reason(t)
            } else {
                reason
            };
            self.end_early(t, outcome, reason)?;
        }
        if woken {
            self.serve_input(u, now)?;
        }
        Ok(())
    }

    /// Why task `t`, above what its user's registration serves as GS, was rejected.
    fn oversize_reason(&self, t: Slot) -> String {
        let task = &self.tasks[t];
        let cfg = &self.users[task.user()].cfg;
        format!(
            "its {} MI are above {}'s max_task_mi ({} MI) and its oversize rule is reject",
            task.work.get(),
            cfg.name,
            cfg.max_task_mi.unwrap_or(0)
        )
    }

    /// One task of user `u`'s registration `k` left the count of those on their way or
    /// waiting; whether the user's next task was waiting for that.
    fn entry_freed(&mut self, u: usize, k: usize) -> bool {
        let reg = &mut self.users[u].registrations[k];
        let was_full = reg.waiting >= reg.entries;
        reg.waiting = reg.waiting.saturating_sub(1);
        was_full
    }

    fn finish(&mut self, r: usize, cpu: u16, now: Ticks) -> Result<()> {
        let site = &mut self.sites[r];
        let done = site
            .res
            .complete(now, cpu)
            .map_err(|e| anyhow!("completion at {} CPU {cpu}: {e}", site.name))?;
        site.cpus[usize::from(cpu)] = None;
        let t = done.task.id;
        let task = &mut self.tasks[t];
        task.steps.set(Step::Finished, now);
        self.queue.after(self.hop_out, Event::Return(t));
        if task.charged().is_some() && done.class == Class::Gs {
            task.feedback_pending = true;
            self.queue.after(self.hop_out, Event::Feedback(t));
        }
        self.decide(r, now)?;
        // A task ended: its CPU took the next waiting task, so its queue has an entry free. BE
        // tasks that found no room try again at the end of this period.
        if !self.meta.is_empty() {
            self.schedule_collect(now);
        }
        Ok(())
    }

    /// Applies the resource's decisions at `now` until it has none; then lets users whose
    /// next task waited for a queue entry try again.
    fn decide(&mut self, r: usize, now: Ticks) -> Result<()> {
        let mut woken = Vec::new();
        loop {
            let site = &mut self.sites[r];
            let decision = site
                .res
                .next_decision(now)
                .map_err(|e| anyhow!("decision at {}: {e}", site.name))?;
            match decision {
                None => break,
                Some(Decision::Start {
                    cpu,
                    task,
                    finish,
                    class,
                    ..
                }) => {
                    let c = usize::from(cpu);
                    site.queued_work = site.queued_work.saturating_sub(u128::from(task.work.get()));
                    site.cpus[c] = Some((task.id, finish));
                    site.generation[c] += 1;
                    let generation = site.generation[c];
                    let t = &mut self.tasks[task.id];
                    if t.steps.get(Step::Started).is_none() {
                        t.steps.set(Step::Started, now);
                    }
                    if let (Class::Gs, Some((k, _))) = (class, t.charged()) {
                        let u = t.user();
                        if self.entry_freed(u, k) {
                            woken.push(u);
                        }
                    }
                    self.queue.at(
                        finish,
                        Event::Finish {
                            // Fewer than `u16::MAX` sites (checked by `World::new`).
                            resource: r as u16,
                            cpu,
                            generation,
                        },
                    );
                }
                Some(Decision::Preempt { cpu, task }) => {
                    let c = usize::from(cpu);
                    site.cpus[c] = None;
                    site.generation[c] += 1;
                    site.queued_work += u128::from(task.work.get());
                }
            }
        }
        for u in woken {
            self.serve_input(u, now)?;
        }
        Ok(())
    }

    /// How long task `t` waited at the head of its user's queue for an entry or feedback.
    fn hold(&self, t: &TaskState) -> Ticks {
        match (t.steps.get(Step::Held), t.steps.get(Step::Planned)) {
            (Some(held), Some(planned)) => planned.saturating_sub(held),
            _ => Ticks::ZERO,
        }
    }

    /// The record of task `t`, ended with `outcome` (and `reason`).
    fn record(&self, t: &TaskState, outcome: Outcome, reason: Option<String>) -> TaskRecord {
        let opt = |step| t.steps.get(step).map(secs);
        let gs = t.handled == TaskClass::Gs;
        let user = &self.users[t.user()];
        let site = t.site().map(|r| &self.sites[r]);
        let discipline = site.map(|s| match t.handled {
            TaskClass::Gs => discipline_name(s.discipline),
            TaskClass::Be if s.kind == ResourceKind::GsBeEqual => discipline_name(s.discipline),
            TaskClass::Be => "fcfs",
        });
        TaskRecord {
            task: t.number,
            user: user.cfg.name.clone(),
            class: class_of(user.cfg.class),
            handled_as: t.handled,
            resource: site.map(|s| s.name.clone()),
            discipline: discipline.map(str::to_owned),
            created: secs(t.created),
            released: opt(Step::Released),
            arrived: opt(Step::Arrived),
            started: opt(Step::Started),
            finished: opt(Step::Finished),
            returned: opt(Step::Returned),
            workload_mi: t.work.get(),
            deadline: secs(user.deadline),
            planned_bound: gs.then(|| opt(Step::Bound)).flatten(),
            resource_bound: gs.then(|| opt(Step::ResourceBound)).flatten(),
            hold: gs.then(|| self.hold(t)).map(secs),
            backlogged: t.backlogged,
            outcome,
            reason,
        }
    }
}

/// Whether a task took longer from its arrival to its finish than the bound guaranteed it.
fn over_bound(steps: &Steps) -> bool {
    match (
        steps.get(Step::Arrived),
        steps.get(Step::Finished),
        steps.get(Step::ResourceBound),
    ) {
        (Some(a), Some(f), Some(b)) => f.saturating_sub(a) > b,
        _ => false,
    }
}

/// The class of a user's tasks.
fn class_of(c: UserClass) -> TaskClass {
    match c {
        UserClass::Gs => TaskClass::Gs,
        UserClass::Be => TaskClass::Be,
    }
}

/// Registers GS user `u` with the first resource (in scenario order) that serves GS tasks and
/// admits it, setting aside its queue entries there, and records the registration.
///
/// Errors: no such resource refuses it while one exists (an overloaded grid), or its (rho,
/// sigma) is not a bucket's.
fn register(
    u: &UserConfig,
    sites: &mut [Site],
    hop: Ticks,
    user: &mut User,
    registrations: &mut Vec<(String, String)>,
) -> Result<()> {
    let contract = u.registration()?;
    let (rho, sigma, imax) = (
        contract.rho.get(),
        contract.sigma.get(),
        contract.imax.get(),
    );
    let mut refusals = Vec::new();
    for (r, site) in sites.iter_mut().enumerate() {
        if site.kind == ResourceKind::Be {
            continue;
        }
        let mut reg = contract;
        reg.entries = u
            .queue_entries
            .unwrap_or_else(|| default_entries(&site.res, &reg, u, hop));
        match site.res.register(reg) {
            Ok(flow) => {
                // A guarantee the clock cannot express is no guarantee: refused up front.
                if let Err(Error::Overflow) = site
                    .res
                    .bound_spec(flow, RateBasis::Current)
                    .and_then(|b| b.at_resource())
                {
                    bail!(
                        "GS user {}: its delay bound at {} does not fit the clock (about 584,000 \
                         years): sigma_mi {sigma} MI against rho_mips {rho} MIPS",
                        u.name,
                        site.name
                    );
                }
                let bucket = Bucket::new(Ticks::ZERO, reg.rho, reg.sigma, reg.imax, reg.knowledge)
                    .map_err(|e| anyhow!("user {}'s (rho, sigma): {e}", u.name))?
                    .with_oversize(reg.oversize);
                user.registrations.push(Registered {
                    resource: r,
                    flow,
                    bucket,
                    largest_gs_task: reg.largest_gs_task(site.res.max_task()),
                    entries: usize::from(reg.entries),
                    waiting: 0,
                });
                registrations.push((u.name.clone(), site.name.clone()));
                return Ok(());
            }
            Err(Error::Full) if usize::from(reg.entries) > site.res.be_room() => {
                refusals.push(format!(
                    "{}: its {} queue entries are not free",
                    site.name, reg.entries
                ))
            }
            Err(e) => refusals.push(format!("{}: {e}", site.name)),
        }
    }
    // A GS user with no GS-capable resource at all is handled as best effort (the BE scenario
    // of Table 6 has none); one that every such resource refuses is an overloaded grid, an
    // error.
    if !refusals.is_empty() {
        bail!(
            "GS user {} (rho {rho} MIPS, I_max {imax} MI, weight {}) cannot register: {}",
            u.name,
            u.weight,
            refusals.join("; ")
        );
    }
    Ok(())
}
