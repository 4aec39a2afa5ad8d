//! Seed 004's grid as a simulation: users, the central meta-scheduler, resources, links.
//!
//! The kernel decides everything a scheduler decides (conformance and withholding, registration,
//! delay bounds, the resources' local scheduling, best-effort ordering and assignment); this
//! module only moves time, creates work and records what happened.
//!
//! # The model (seed 004 Sec. 5.1, 6.1-6.2)
//! - **Users** create tasks: workloads and inter-arrival times drawn from their distributions
//!   (one [`SplitMix`] stream per user, seeded from the replication's seed and the user's index),
//!   from time 0 while the creation time is before the horizon. Every task travels to the
//!   meta-scheduler (one hop of the network).
//! - **Registration.** At time 0, in scenario order, each GS user registers with the first
//!   resource (in scenario order) that serves GS tasks and admits it (Eq. 1, 2: the kernel's
//!   [`Resource::register`](qosgate_kernel::resource::Resource::register)). If every GS-capable resource refuses it, the scenario is an
//!   error (an overloaded grid); if there is none, its tasks are handled as best effort.
//! - **GS tasks** wait in their user's FIFO input queue at the meta-scheduler, which enforces
//!   (rho, sigma) with one kernel [`Bucket`] per registration. When a task heads the queue, the
//!   meta-scheduler asks each registered resource (in registration order) for the task's
//!   conformance (the withholding time `T`) and the kernel's delay bound at the resource
//!   (Current basis), and picks the first where the end-to-end bound `T + d + bound + d` (send,
//!   execute, return the results) meets the task's deadline (Eq. 7). The task is then released
//!   after `T` (backlogged if `T > 0` or it waited behind others), charged, and sent. If a bucket
//!   waits for workload feedback (`Window(n)`), the task waits for it. If no resource meets the
//!   deadline, the task is handled as best effort (Sec. 3.2: "schedules it like a BE task").
//!   Without exact workload knowledge, the meta-scheduler plans with the user's `I_max` and
//!   learns the real workload when the task ends (feedback reaches it one hop later); under
//!   full-aggressive submission, which has no bound, it plans with the bound of conforming
//!   tasks, which it cannot tell from the others. A task's recorded `bound` is what the
//!   meta-scheduler planned with: a guarantee only with exact knowledge and a task within the
//!   user's `I_max`. An exact user that admits larger tasks (`oversize = "admit"`) charges them
//!   their real work and sends them under the same planning; one that refuses them (Eq. 4, the
//!   default) finds no resource for them, and they go as best effort.
//! - **BE tasks** are collected by the meta-scheduler and dispatched at the end of each
//!   collection period (EDF/EST or WFQ/EST: the kernel's [`MetaScheduler`](qosgate_kernel::meta::MetaScheduler)), to the resource
//!   where they would start earliest. The start estimate of a resource is its backlog: the work
//!   queued there and left on its CPUs, over its total capacity (a fluid estimate, refreshed
//!   before every dispatch).
//! - **Resources** run the kernel's [`Resource`](qosgate_kernel::resource::Resource): the four types, WFQ or SCFQ, one or many CPUs.
//!   A BE task a GS_BE_EQUAL resource cannot admit fails (Sec. 6.3). A BE resource takes a BE
//!   task of any size; the others only up to their `I_r^max` (Sec. 3.4).
//! - **Links**: every hop takes `bytes × 8 / bandwidth` (zero propagation).
//!
//! # Order of events
//! By time; at one instant, in the order they were scheduled ([`crate::des::queue`]).

use anyhow::{Context, Result, anyhow, bail};
use qosgate_kernel::Error;
use qosgate_kernel::bound::BoundSpec;
use qosgate_kernel::bucket::{self, Bucket, Charge, Conformance};
use qosgate_kernel::fairq::{self, FlowId};
use qosgate_kernel::meta::{BeTask, Order};
use qosgate_kernel::registry::{RateBasis, Registration};
use qosgate_kernel::resource::{Class, Decision, Kind, Task};
use qosgate_kernel::units::{MAX_TASK_WORK, Mips, TICKS_PER_SECOND, Ticks, Work};
use std::collections::VecDeque;

use super::capacity::{Meta, Res};
use super::record::{Outcome, Run, TaskClass, TaskRecord};
use super::scenario::{
    Discipline, Knowledge, MetaOrder, Oversize, ResourceKind, Scenario, UserClass, UserConfig,
};
use crate::des::queue::Queue;
use crate::des::rng::{SplitMix, replication_seed};
use crate::des::time::{secs, ticks};

/// Something that happens.
#[derive(Clone, Copy, Debug)]
enum Event {
    /// A user creates its next task.
    Create(usize),
    /// A task reaches the meta-scheduler.
    AtMeta(usize),
    /// The head of a user's input queue is released (its withholding time is over).
    Release(usize),
    /// The meta-scheduler's collection period ends.
    Collect,
    /// A task reaches a resource.
    Arrive(usize),
    /// A CPU's task ends; `generation` tells a stale end (the task was paused) from a real one.
    Finish {
        resource: usize,
        cpu: u16,
        generation: u64,
    },
    /// A task's real workload reaches the meta-scheduler.
    Feedback(usize),
    /// A task's results reach its user.
    Return(usize),
}

/// A user at run time.
struct User {
    cfg: UserConfig,
    rng: SplitMix,
    /// GS registrations: (resource, flow, bucket).
    registrations: Vec<(usize, FlowId, Bucket)>,
    /// GS tasks waiting at the meta-scheduler, oldest first; the head may be scheduled for
    /// release (`releasing`).
    input: VecDeque<usize>,
    releasing: bool,
    /// The user's id at the meta-scheduler (every user can have BE tasks).
    meta_user: FlowId,
}

/// A task at run time.
struct TaskState {
    user: usize,
    work: Work,
    created: Ticks,
    deadline: Ticks,
    handled: TaskClass,
    resource: Option<usize>,
    /// Bucket charge and registration, for feedback.
    charge: Option<(usize, Charge)>,
    /// The registration it was released to, and its release time.
    release: Option<(usize, Ticks)>,
    released: Option<Ticks>,
    arrived: Option<Ticks>,
    started: Option<Ticks>,
    finished: Option<Ticks>,
    returned: Option<Ticks>,
    bound: Option<Ticks>,
    backlogged: bool,
    outcome: Option<(Outcome, Option<String>)>,
}

/// A resource at run time.
struct Site {
    name: String,
    kind: ResourceKind,
    discipline: Discipline,
    res: Box<Res>,
    /// Work queued (submitted, not started), MI.
    queued_work: u128,
    /// Speed of each CPU.
    speeds: Vec<Mips>,
    /// Per CPU, while it runs a task: (task, expected end).
    cpus: Vec<Option<(usize, Ticks)>>,
    generation: Vec<u64>,
    /// The meta-scheduler's slot, if it serves best effort.
    slot: Option<u16>,
}

/// One replication of a scenario.
pub struct World {
    queue: Queue<Event>,
    users: Vec<User>,
    tasks: Vec<TaskState>,
    sites: Vec<Site>,
    meta: Box<Meta>,
    collect_pending: bool,
    period: Ticks,
    horizon: Ticks,
    hop_in: Ticks,
    hop_out: Ticks,
    registrations: Vec<(String, String)>,
}

fn kind_of(k: ResourceKind) -> Kind {
    match k {
        ResourceKind::Gs => Kind::Gs,
        ResourceKind::Be => Kind::Be,
        ResourceKind::GsBeEqual => Kind::GsBeEqual,
        ResourceKind::GsBePriority => Kind::GsBePriority { preemptive: false },
        ResourceKind::GsBePriorityPreemptive => Kind::GsBePriority { preemptive: true },
    }
}

fn discipline_name(d: Discipline) -> &'static str {
    match d {
        Discipline::Wfq => "wfq",
        Discipline::Scfq => "scfq",
    }
}

impl World {
    /// The world of `scenario`'s replication `k`: resources built, users registered.
    pub fn new(scenario: &Scenario, k: u32) -> Result<Self> {
        let seed = replication_seed(scenario.seed, k);
        let bits = |bytes: u64| bytes as f64 * 8.0 / scenario.network.bandwidth_bps;
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
        let mut meta = Box::new(
            Meta::new(order, Mips::new(be_capacity.max(1)))
                .map_err(|e| anyhow!("the meta-scheduler: {e}"))?,
        );
        let mut sites = Vec::with_capacity(scenario.resources.len());
        for r in &scenario.resources {
            let discipline = match r.discipline {
                Discipline::Wfq => fairq::Discipline::Wfq,
                Discipline::Scfq => fairq::Discipline::Scfq,
            };
            let cpus: Vec<Mips> = r.cpus.iter().map(|&c| Mips::new(c)).collect();
            let res = Res::new(
                kind_of(r.kind),
                discipline,
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
                res: Box::new(res),
                queued_work: 0,
                speeds: cpus,
                cpus: vec![None; r.cpus.len()],
                generation: vec![0; r.cpus.len()],
                slot,
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
            };
            if u.class == UserClass::Gs {
                let (Some(rho), Some(sigma), Some(imax), Some(knowledge)) =
                    (u.rho_mips, u.sigma_mi, u.max_task_mi, u.knowledge)
                else {
                    bail!(
                        "GS user {} needs rho_mips, sigma_mi, max_task_mi and knowledge",
                        u.name
                    );
                };
                let oversize = u.oversize.unwrap_or(Oversize::Refuse).into();
                let reg = Registration {
                    weight: u.weight,
                    rho: Mips::new(rho),
                    sigma: Work::new(sigma),
                    imax: Work::new(imax),
                    knowledge: knowledge.into(),
                    oversize,
                    entries: 0,
                };
                let mut refusals = Vec::new();
                for (r, site) in sites.iter_mut().enumerate() {
                    if site.kind == ResourceKind::Be {
                        continue;
                    }
                    match site.res.register(reg) {
                        Ok(flow) => {
                            let bucket = Bucket::new(
                                Ticks::ZERO,
                                reg.rho,
                                reg.sigma,
                                reg.imax,
                                reg.knowledge,
                            )
                            .map_err(|e| anyhow!("user {}'s (rho, sigma): {e}", u.name))?
                            .with_oversize(oversize);
                            user.registrations.push((r, flow, bucket));
                            registrations.push((u.name.clone(), site.name.clone()));
                            break;
                        }
                        Err(e) => refusals.push(format!("{}: {e}", site.name)),
                    }
                }
                // A GS user with no GS-capable resource at all is handled as best effort (the
                // BE scenario of Table 6 has none); one that every such resource refuses is an
                // overloaded grid, an error.
                if user.registrations.is_empty() && !refusals.is_empty() {
                    bail!(
                        "GS user {} (rho {rho} MIPS, I_max {imax} MI, weight {}) cannot register: {}",
                        u.name,
                        u.weight,
                        refusals.join("; ")
                    );
                }
            }
            users.push(user);
        }
        let hop_in = ticks(bits(scenario.network.input_bytes));
        let hop_out = ticks(bits(scenario.network.output_bytes));
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
        // About how many tasks the horizon holds: room for them up front.
        let expected: f64 = scenario
            .users
            .iter()
            .map(|u| scenario.horizon_s / u.interarrival.mean().max(f64::MIN_POSITIVE) + 1.0)
            .sum();
        Ok(Self {
            queue,
            users,
            tasks: Vec::with_capacity(expected.min(1e7) as usize),
            sites,
            meta,
            collect_pending: false,
            period: ticks(scenario.meta.collection_period_s).max(Ticks::new(1)),
            horizon: ticks(scenario.horizon_s),
            hop_in,
            hop_out,
            registrations,
        })
    }

    /// Runs until no event is left.
    pub fn run(mut self) -> Result<Run> {
        while let Some(event) = self.queue.pop() {
            self.handle(event)?;
        }
        let end_s = secs(self.queue.now());
        let events = self.queue.processed();
        let records = self.records()?;
        Ok(Run {
            records,
            events,
            registrations: self.registrations,
            end_s,
        })
    }

    fn handle(&mut self, event: Event) -> Result<()> {
        let now = self.queue.now();
        match event {
            Event::Create(u) => self.create(u, now),
            Event::AtMeta(t) => {
                let user = self.tasks[t].user;
                if self.tasks[t].handled == TaskClass::Gs {
                    self.users[user].input.push_back(t);
                    self.serve_input(user, now)
                } else {
                    self.hand_to_best_effort(t, now)
                }
            }
            Event::Release(u) => self.release(u, now),
            Event::Collect => self.collect(now),
            Event::Arrive(t) => self.arrive(t, now),
            Event::Finish {
                resource,
                cpu,
                generation,
            } => {
                if self.sites[resource].generation[usize::from(cpu)] != generation {
                    return Ok(());
                }
                self.finish(resource, cpu, now)
            }
            Event::Feedback(t) => self.feedback(t, now),
            Event::Return(t) => {
                self.tasks[t].returned = Some(now);
                self.tasks[t].outcome = Some((Outcome::Completed, None));
                Ok(())
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
        let t = self.tasks.len();
        self.tasks.push(TaskState {
            user: u,
            work,
            created: now,
            deadline: ticks(user.cfg.deadline_s),
            handled,
            resource: None,
            charge: None,
            release: None,
            released: None,
            arrived: None,
            started: None,
            finished: None,
            returned: None,
            bound: None,
            backlogged: false,
            outcome: None,
        });
        self.queue.after(self.hop_in, Event::AtMeta(t));
        if now.saturating_add(gap) < self.horizon {
            self.queue.after(gap, Event::Create(u));
        }
        Ok(())
    }

    /// The work the meta-scheduler plans with: the real one with exact knowledge, else `I_max`.
    fn planned_work(&self, t: usize) -> Work {
        let task = &self.tasks[t];
        let cfg = &self.users[task.user].cfg;
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
            let deadline = task.created.saturating_add(task.deadline);
            let mut waits_feedback = false;
            let mut chosen = None;
            for (k, (r, flow, bucket)) in self.users[u].registrations.iter().enumerate() {
                let wait = match bucket.check(now, work) {
                    Ok(Conformance::Now) => Ticks::ZERO,
                    Ok(Conformance::After(w)) => w,
                    Ok(Conformance::OnFeedback) => {
                        waits_feedback = true;
                        continue;
                    }
                    // Eq. 4 (a task above the registration's I_max) and the like.
                    Err(_) => continue,
                };
                let mut spec: BoundSpec = self.sites[*r]
                    .res
                    .bound_spec(*flow, RateBasis::Current)
                    .map_err(|e| anyhow!("bound of user {u} at resource {r}: {e}"))?;
                // Full-aggressive submission has no bound (Sec. 4.2); the meta-scheduler cannot
                // tell and plans with the one conforming tasks would have (it "handles many
                // tasks as GS tasks ... even when their deadlines cannot actually be met").
                if spec.knowledge == bucket::Knowledge::Aggressive {
                    spec.knowledge = bucket::Knowledge::Exact;
                }
                let Ok(at_resource) = spec.at_resource() else {
                    continue;
                };
                let end = now
                    .saturating_add(wait)
                    .saturating_add(self.hop_in)
                    .saturating_add(at_resource)
                    .saturating_add(self.hop_out);
                if end <= deadline {
                    chosen = Some((k, wait, end));
                    break;
                }
            }
            match chosen {
                Some((k, wait, end)) => {
                    let task = &mut self.tasks[t];
                    // `end >= now >= created`.
                    task.bound = Some(end.saturating_sub(task.created));
                    task.backlogged |= wait > Ticks::ZERO;
                    task.release = Some((k, now.saturating_add(wait)));
                    self.users[u].releasing = true;
                    self.queue.after(wait, Event::Release(u));
                }
                None if waits_feedback => {
                    // Wait for feedback on an outstanding task (Window(n)).
                    self.tasks[t].backlogged = true;
                    return Ok(());
                }
                None => {
                    self.users[u].input.pop_front();
                    self.tasks[t].handled = TaskClass::Be;
                    self.hand_to_best_effort(t, now)?;
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
        let (k, _) = self.tasks[t].release.context("a release without a plan")?;
        let (r, _, bucket) = &mut self.users[u].registrations[k];
        let r = *r;
        let charge = match bucket.charge(now, work) {
            Ok(charge) => charge,
            // Feedback during the wait left a debt (a task ran longer than it was charged for):
            // the task is planned again, as the head of the queue.
            Err(Error::NonConforming) => {
                self.tasks[t].release = None;
                return self.serve_input(u, now);
            }
            Err(e) => bail!("charging task {t} at its release: {e}"),
        };
        self.users[u].input.pop_front();
        let task = &mut self.tasks[t];
        task.charge = Some((k, charge));
        task.released = Some(now);
        task.resource = Some(r);
        self.queue.after(self.hop_in, Event::Arrive(t));
        for &t in &self.users[u].input {
            self.tasks[t].backlogged = true;
        }
        self.serve_input(u, now)
    }

    fn feedback(&mut self, t: usize, now: Ticks) -> Result<()> {
        let task = &self.tasks[t];
        let u = task.user;
        let Some((k, charge)) = task.charge else {
            return Ok(());
        };
        let work = task.work;
        let bucket = &mut self.users[u].registrations[k].2;
        bucket
            .feedback(now, charge, work)
            .map_err(|e| anyhow!("feedback of task {t}: {e}"))?;
        self.serve_input(u, now)
    }

    fn hand_to_best_effort(&mut self, t: usize, now: Ticks) -> Result<()> {
        let task = &self.tasks[t];
        let be = BeTask {
            id: u32::try_from(t).context("more than 2^32 tasks")?,
            user: self.users[task.user].meta_user,
            work: task.work,
            deadline: task.created.saturating_add(task.deadline),
        };
        match self.meta.submit(now, be) {
            Ok(()) => {
                if !self.collect_pending {
                    self.collect_pending = true;
                    let period = self.period.get();
                    let next = Ticks::new((now.get() / period + 1) * period);
                    self.queue.at(next, Event::Collect);
                }
                Ok(())
            }
            Err(refused) => {
                self.end_early(t, Outcome::Rejected, refused.reason);
                Ok(())
            }
        }
    }

    fn end_early(&mut self, t: usize, outcome: Outcome, reason: Error) {
        self.tasks[t].outcome = Some((outcome, Some(reason.to_string())));
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
            self.meta
                .set_ready(slot, ready)
                .map_err(|e| anyhow!("slot of {}: {e}", site.name))?;
        }
        while let Some(a) = self
            .meta
            .dispatch(now)
            .map_err(|e| anyhow!("best-effort dispatch: {e}"))?
        {
            let t = a.task.id as usize;
            let r = self
                .sites
                .iter()
                .position(|s| s.slot == Some(a.slot))
                .context("an assignment to an unknown slot")?;
            let task = &mut self.tasks[t];
            task.resource = Some(r);
            task.released = Some(now);
            self.queue.after(self.hop_in, Event::Arrive(t));
        }
        Ok(())
    }

    fn arrive(&mut self, t: usize, now: Ticks) -> Result<()> {
        let task = &mut self.tasks[t];
        task.arrived = Some(now);
        let r = task.resource.context("an arrival without a resource")?;
        let kt = Task {
            id: u32::try_from(t).context("more than 2^32 tasks")?,
            work: task.work,
        };
        let site = &mut self.sites[r];
        let submitted = match task.handled {
            TaskClass::Gs => {
                let flow = self.users[task.user].registrations[task.charge.map_or(0, |c| c.0)].1;
                site.res.submit_gs(now, flow, kt)
            }
            TaskClass::Be => site.res.submit_be(now, kt),
        };
        match submitted {
            Ok(()) => site.queued_work += u128::from(kt.work.get()),
            Err(refused) => {
                let outcome = match refused.reason {
                    Error::RateExceedsShare | Error::Full => Outcome::Failed,
                    _ => Outcome::Rejected,
                };
                self.end_early(t, outcome, refused.reason);
                // A charged GS task's account closes as if it had run: without that, a bucket
                // waiting for feedback (Window(n)) would wait for ever.
                if self.tasks[t].charge.is_some() {
                    self.queue.after(self.hop_out, Event::Feedback(t));
                }
                return Ok(());
            }
        }
        self.decide(r, now)
    }

    fn finish(&mut self, r: usize, cpu: u16, now: Ticks) -> Result<()> {
        let site = &mut self.sites[r];
        let done = site
            .res
            .complete(now, cpu)
            .map_err(|e| anyhow!("completion at {} CPU {cpu}: {e}", site.name))?;
        site.cpus[usize::from(cpu)] = None;
        let t = done.task.id as usize;
        self.tasks[t].finished = Some(now);
        self.queue.after(self.hop_out, Event::Return(t));
        if self.tasks[t].charge.is_some() && done.class == Class::Gs {
            self.queue.after(self.hop_out, Event::Feedback(t));
        }
        self.decide(r, now)
    }

    /// Applies the resource's decisions at `now` until it has none.
    fn decide(&mut self, r: usize, now: Ticks) -> Result<()> {
        loop {
            let site = &mut self.sites[r];
            let decision = site
                .res
                .next_decision(now)
                .map_err(|e| anyhow!("decision at {}: {e}", site.name))?;
            match decision {
                None => return Ok(()),
                Some(Decision::Start {
                    cpu, task, finish, ..
                }) => {
                    let c = usize::from(cpu);
                    site.queued_work = site.queued_work.saturating_sub(u128::from(task.work.get()));
                    site.cpus[c] = Some((task.id as usize, finish));
                    site.generation[c] += 1;
                    let generation = site.generation[c];
                    let t = &mut self.tasks[task.id as usize];
                    t.started.get_or_insert(now);
                    self.queue.at(
                        finish,
                        Event::Finish {
                            resource: r,
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
    }

    fn records(&self) -> Result<Vec<TaskRecord>> {
        let opt = |t: Option<Ticks>| t.map(secs);
        self.tasks
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let (outcome, reason) = t
                    .outcome
                    .clone()
                    .with_context(|| format!("task {i} never ended"))?;
                let user = &self.users[t.user].cfg;
                let site = t.resource.map(|r| &self.sites[r]);
                let discipline = site.map(|s| match t.handled {
                    TaskClass::Gs => discipline_name(s.discipline),
                    TaskClass::Be if s.kind == ResourceKind::GsBeEqual => {
                        discipline_name(s.discipline)
                    }
                    TaskClass::Be => "fcfs",
                });
                Ok(TaskRecord {
                    task: i as u64,
                    user: user.name.clone(),
                    class: match user.class {
                        UserClass::Gs => TaskClass::Gs,
                        UserClass::Be => TaskClass::Be,
                    },
                    handled_as: t.handled,
                    resource: site.map(|s| s.name.clone()),
                    discipline: discipline.map(str::to_owned),
                    created: secs(t.created),
                    released: opt(t.released),
                    arrived: opt(t.arrived),
                    started: opt(t.started),
                    finished: opt(t.finished),
                    returned: opt(t.returned),
                    workload_mi: t.work.get(),
                    deadline: secs(t.deadline),
                    bound: opt(t.bound),
                    backlogged: t.backlogged,
                    outcome,
                    reason,
                })
            })
            .collect()
    }
}
