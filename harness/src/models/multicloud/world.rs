//! One replication of the multi-cloud model: the applications arrive at their clouds, every
//! placement is decided by the kernel's list scheduler (or E25's FCFS), every cloud runs its
//! leases with the kernel's lease manager (reservations preempting best effort) and maps them
//! onto its servers with the kernel's mapping; the world moves time, transfers datasets and
//! records.
//!
//! # Life of a task
//! 1. **Placed.** DCLS / DCMMS place every task of an application when it arrives
//!    ([`qosgate_kernel::listsched::Scheduler`], asking each cloud's planning profile for its
//!    ERAT, with the origin's feedback factors); FCFS places each task when it becomes ready
//!    (its predecessors finished), in (application arrival, task) order, on the cloud of
//!    earliest start (`fcfs = "earliest_start"`) or on its application's own cloud
//!    (`"home_cloud"`). A placement on a cloud the application has not used yet starts its
//!    dataset's transfer there (`dataset_s`): tasks there cannot start before it arrives.
//!    Every placement takes the next number of the run's assignment order.
//! 2. **Submitted** to its cloud: an AR application's entry tasks at once, as reservations at
//!    their planned start; every other task when its predecessors have finished and its
//!    dataset is there: a later task of an AR application as a zero-notice reservation, a
//!    best-effort task as a suspendable lease. Best-effort leases start first come, first
//!    served: under `queue = "ready"` each joins its cloud's lease queue when submitted; under
//!    `"assigned"` it waits in the cloud's list in assignment order, and the first of that list
//!    joins the lease queue when the queue is empty and the task's VMs are free for its whole
//!    run (so a task assigned earlier that becomes ready overtakes the later ones still
//!    waiting, and none overtakes it). A lease runs for `image_s + ETM`.
//! 3. **Run.** A reservation preempts running best-effort leases (suspended: they store their
//!    image, `image_s`, and later resume, paying `image_s` again). Leases that start at one
//!    instant are mapped onto servers together (the energy-aware Algorithm 5, or a baseline;
//!    Algorithm 4 for reservations, with the VMs of the leases they suspend counted free).
//! 4. **Finished**: the origin's feedback factor for that cloud is replaced (DCLS, DCMMS), with
//!    `delta_tau` measured from the instant the scenario's `feedback_from` names (its actual
//!    start, its planned ERAT, or the later of that and its submission:
//!    [`FeedbackFrom::instant`](super::scenario::FeedbackFrom::instant), the instant and the
//!    factor recorded), and successors whose predecessors have all finished become ready.
//!
//! A reservation a cloud refuses (its VMs are held by other reservations at that instant)
//! rejects its task, and with it the application: its other tasks are cancelled (their leases
//! end, their VMs are freed) and recorded as rejected with the reason. Every task and every
//! application ends exactly once.
//!
//! # Energy
//! Each cloud integrates its active servers (hosting at least one VM) over time, from 0 to the
//! run's end (the last task's end); the metrics turn that into energy with the scenario's
//! powers.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context, Result, anyhow, bail};
use qosgate_kernel::Error;
use qosgate_kernel::dag::{TaskId, Tasks};
use qosgate_kernel::lease::{
    Class, End, Event as LeaseEvent, Kind, LeaseId, Notice, Overheads, Policy, Rules, Spec, State,
};
use qosgate_kernel::listsched::{Alpha, Clouds, Decision, Etm, Feedback, Rule, Scheduler};
use qosgate_kernel::mapping::{BATCH, Fit, Part};
use qosgate_kernel::units::Ticks;

use super::apps::{self, App};
use super::capacity::{CLOUDS, Leases, Racks};
use super::dataset::Dataset;
use super::profile::{Profile, Promise};
use super::record::{AppRecord, CloudUse, Outcome, Run, TaskRecord};
use super::scenario::{
    FcfsCloud, MappingKind, PreemptionKind, QueueOrder, Scenario, SchedulerKind,
};
use crate::des::boxed::boxed;
use crate::des::queue::Queue;
use crate::des::rng::replication_seed;
use crate::des::time::{secs, ticks};

/// What happens next.
#[derive(Debug, Clone, Copy)]
enum Event {
    /// Application `0` arrives.
    Arrive(usize),
    /// Cloud `0`'s lease manager has a transition due.
    Wake(usize),
    /// Application `0`'s dataset reaches cloud `1`.
    Dataset(usize, usize),
}

/// One cloud.
struct Cloud {
    name: String,
    servers: Box<Racks>,
    leases: Box<Leases>,
    profile: Profile,
    /// Whether the profile was built since the cloud last changed (a lease event, a
    /// submission, a promise made or dropped).
    fresh: bool,
    /// Live leases' tasks.
    tasks: BTreeMap<LeaseId, (usize, TaskId)>,
    /// Tasks placed here and not yet submitted, by (planned start, application, task).
    promised: BTreeSet<(Ticks, usize, TaskId)>,
    /// `queue = "assigned"`: best-effort tasks submitted here and not yet given to the lease
    /// manager, by their place in the assignment order.
    waiting: BTreeMap<u64, (usize, TaskId)>,
    /// The instant a `Wake` is scheduled for.
    wake: Option<Ticks>,
    /// Integration of the servers' use up to `since`.
    since: Ticks,
    active_ticks: u128,
    vm_ticks: u128,
    vms_in_use: u64,
    preemptions: u64,
    batches: u64,
    batched: u64,
}

impl Cloud {
    /// Integrates the servers' use up to `now`.
    fn account(&mut self, now: Ticks) {
        let dt = u128::from(now.saturating_sub(self.since).get());
        self.active_ticks += u128::from(self.servers.active()) * dt;
        self.vm_ticks += u128::from(self.vms_in_use) * dt;
        self.since = self.since.max(now);
    }
}

/// A task's state.
#[derive(Debug, Clone, Default)]
struct TaskState {
    cloud: Option<usize>,
    placed: Option<Ticks>,
    /// Its place in the run's assignment order.
    order: u64,
    planned_start: Ticks,
    /// Its run on its cloud: `image_s + ETM`.
    planned_run: Ticks,
    lease: Option<LeaseId>,
    submitted: Option<Ticks>,
    started: Option<Ticks>,
    finished: Option<Ticks>,
    /// The instant its feedback's `delta_tau` ran from (the scenario's `feedback_from`), once
    /// finished.
    feedback_from: Option<Ticks>,
    /// The feedback factor its completion set (DCLS, DCMMS).
    factor: Option<f64>,
    /// The VMs it holds now, by server.
    parts: Vec<Part>,
    preemptions: u32,
    ended: bool,
}

/// An application's state.
#[derive(Debug, Clone)]
struct AppState {
    tasks: Vec<TaskState>,
    finished: Tasks,
    /// When its dataset is (or will be) at each cloud.
    dataset: [Option<Ticks>; CLOUDS],
    ended: bool,
}

/// A lease started at this instant, waiting to be mapped onto servers.
struct Start {
    app: usize,
    task: TaskId,
    vms: u32,
}

/// One replication.
pub struct World<'s> {
    s: &'s Scenario,
    apps: Vec<App>,
    state: Vec<AppState>,
    clouds: Vec<Cloud>,
    queue: Queue<Event>,
    feedback: Feedback<CLOUDS>,
    fit: Fit,
    image: Ticks,
    dataset: Ticks,
    /// FCFS: tasks that became ready at this instant.
    ready: Vec<(usize, TaskId)>,
    /// Placements so far (the next one's place in the assignment order).
    assigned: u64,
    task_records: Vec<TaskRecord>,
    app_records: Vec<AppRecord>,
    end: Ticks,
}

impl<'s> World<'s> {
    /// Replication `k` of `s`, ready to run.
    ///
    /// Errors: a trace that cannot be read or is too short; a cloud the kernel refuses.
    pub fn new(s: &'s Scenario, k: u32) -> Result<Self> {
        let apps = apps::build(s, replication_seed(s.header.seed, k))?;
        let image = ticks(s.image_s);
        let overheads = Overheads {
            suspend: image,
            resume: image,
            migrate: image,
            cancel: Ticks::ZERO,
        };
        let policy = match s.preemption {
            PreemptionKind::Mlip => Policy::Mlip,
            PreemptionKind::Moml => Policy::Moml,
            PreemptionKind::Mov => Policy::Mov,
        };
        let mut clouds = Vec::new();
        for (i, c) in s.clouds.iter().enumerate() {
            let nodes = c.servers.checked_mul(u32::from(c.vms_per_server));
            let nodes = nodes.ok_or_else(|| anyhow!("clouds[{i}]: too many VMs"))?;
            clouds.push(Cloud {
                name: c.name.clone(),
                servers: Box::new(
                    Racks::new(c.servers as usize, c.vms_per_server)
                        .map_err(|e| anyhow!("clouds[{i}]: servers: {e}"))?,
                ),
                leases: boxed(|slot| Leases::init(slot, nodes, overheads, Rules::new(policy)))
                    .map_err(|e| anyhow!("clouds[{i}]: leases: {e}"))?,
                profile: Profile::new(nodes)?,
                fresh: false,
                tasks: BTreeMap::new(),
                promised: BTreeSet::new(),
                waiting: BTreeMap::new(),
                wake: None,
                since: Ticks::ZERO,
                active_ticks: 0,
                vm_ticks: 0,
                vms_in_use: 0,
                preemptions: 0,
                batches: 0,
                batched: 0,
            });
        }
        let state = apps
            .iter()
            .map(|a| AppState {
                tasks: vec![TaskState::default(); a.tasks.len()],
                finished: Tasks::EMPTY,
                dataset: std::array::from_fn(|j| (j == a.origin).then_some(a.arrival)),
                ended: false,
            })
            .collect();
        let mut queue = Queue::default();
        for a in &apps {
            queue.at(a.arrival, Event::Arrive(a.id));
        }
        let alpha = match s.scheduler {
            SchedulerKind::Fcfs => Alpha::ZERO,
            SchedulerKind::Dcls | SchedulerKind::Dcmms => {
                Alpha::from_f64(s.alpha).map_err(|e| anyhow!("alpha: {e}"))?
            }
        };
        Ok(Self {
            s,
            apps,
            state,
            clouds,
            queue,
            feedback: Feedback::new(alpha),
            fit: match s.mapping {
                MappingKind::EnergyAware => Fit::EnergyAware,
                MappingKind::FirstFit => Fit::FirstFit,
                MappingKind::FirstFitTask => Fit::FirstFitTask,
                MappingKind::WorstFit => Fit::WorstFit,
            },
            image,
            dataset: ticks(s.dataset_s),
            ready: Vec::new(),
            assigned: 0,
            task_records: Vec::new(),
            app_records: Vec::new(),
            end: Ticks::ZERO,
        })
    }

    /// Runs the replication to its end: every application ended.
    ///
    /// Errors: a kernel refusal the model does not expect (named), or a capacity exceeded.
    pub fn run(mut self) -> Result<Run> {
        while let Some(event) = self.queue.pop() {
            let now = self.queue.now();
            match event {
                Event::Arrive(a) => self.arrive(now, a)?,
                Event::Wake(c) => {
                    if self.clouds[c].wake == Some(now) {
                        self.clouds[c].wake = None;
                        let mut events = Vec::new();
                        self.clouds[c]
                            .leases
                            .advance(now, &mut |e| events.push(e))
                            .map_err(|e| anyhow!("cloud {}: {e}", self.clouds[c].name))?;
                        self.process(now, c, events)?;
                    }
                }
                Event::Dataset(a, c) => self.submit_ready(now, a, |t| t.cloud == Some(c))?,
            }
            self.dispatch(now)?;
            self.feed(now)?;
            self.arm();
        }
        let open = self.state.iter().filter(|a| !a.ended).count();
        if open > 0 {
            bail!("{open} applications never ended (the model lost track of a task)");
        }
        let end = self.end;
        let clouds = self
            .clouds
            .iter_mut()
            .map(|c| {
                c.account(end);
                CloudUse {
                    name: c.name.clone(),
                    servers: c.servers.len() as u32,
                    active_server_s: c.active_ticks as f64 / 1e6,
                    vm_s: c.vm_ticks as f64 / 1e6,
                    preemptions: c.preemptions,
                    batches: c.batches,
                    batched: c.batched,
                }
            })
            .collect();
        Ok(Run {
            tasks: self.task_records,
            apps: self.app_records,
            clouds,
            end_s: secs(end),
            events: self.queue.processed(),
        })
    }

    /// Schedules each cloud's next lease transition.
    fn arm(&mut self) {
        for (c, cloud) in self.clouds.iter_mut().enumerate() {
            if let Some(t) = cloud.leases.next_event()
                && cloud.wake != Some(t)
            {
                cloud.wake = Some(t);
                self.queue.at(t, Event::Wake(c));
            }
        }
    }

    fn arrive(&mut self, now: Ticks, a: usize) -> Result<()> {
        match self.s.scheduler {
            SchedulerKind::Fcfs => {
                let entries = self.apps[a].dag.entries();
                self.ready.extend(entries.iter().map(|v| (a, v)));
                Ok(())
            }
            SchedulerKind::Dcls => self.place_app(now, a, Rule::List),
            SchedulerKind::Dcmms => self.place_app(now, a, Rule::MinMin),
        }
    }

    /// Rebuilds the planning profile of every cloud `asked` selects that changed since it was
    /// built (a cloud no one asks keeps its stale profile until someone does).
    fn refresh(&mut self, now: Ticks, asked: impl Fn(usize) -> bool) -> Result<()> {
        let resume = self.image;
        for c in 0..self.clouds.len() {
            if self.clouds[c].fresh || !asked(c) {
                continue;
            }
            let promises: Vec<Promise> = self.clouds[c]
                .promised
                .iter()
                .map(|&(start, a, v)| Promise {
                    not_before: start,
                    reservation: self.apps[a].reserve_at.is_some(),
                    width: self.apps[a].tasks[usize::from(v)].width,
                    run: self.state[a].tasks[usize::from(v)].planned_run,
                })
                .collect();
            let waiting: Vec<(u32, Ticks)> = self.clouds[c]
                .waiting
                .values()
                .map(|&(a, v)| {
                    (
                        self.apps[a].tasks[usize::from(v)].width,
                        self.state[a].tasks[usize::from(v)].planned_run,
                    )
                })
                .collect();
            let cloud = &mut self.clouds[c];
            cloud
                .profile
                .rebuild(
                    now,
                    &cloud.leases,
                    resume,
                    waiting.into_iter(),
                    promises.into_iter(),
                )
                .with_context(|| format!("cloud {}", cloud.name))?;
            cloud.fresh = true;
        }
        Ok(())
    }

    /// DCLS / DCMMS: places every task of application `a` at its arrival.
    fn place_app(&mut self, now: Ticks, a: usize, rule: Rule) -> Result<()> {
        self.refresh(now, |_| true)?;
        let app = &self.apps[a];
        let mut etm = Etm::<CLOUDS>::new();
        for (v, t) in app.tasks.iter().enumerate() {
            for (j, run) in t.run.iter().enumerate() {
                etm.set(TaskId::new(v as u8), j, *run)
                    .map_err(|e| anyhow!("application {a}, task {v}: {e}"))?;
            }
        }
        let factors = self
            .feedback
            .factors(app.origin)
            .ok_or_else(|| anyhow!("application {a}: origin {} is no cloud", app.origin))?;
        let dataset = self.dataset_of(a);
        let mut planner = Planner {
            now,
            app,
            clouds: &mut self.clouds,
            dataset,
            image: self.image,
            failure: None,
        };
        let decided: Result<Vec<Decision>, Error> =
            Scheduler::new(now, &app.dag, &etm, self.image, rule, factors).and_then(|mut s| {
                s.run(&mut planner)?;
                Ok(s.decisions().collect())
            });
        if let Some(e) = planner.failure.take() {
            return Err(e);
        }
        let dataset = planner.dataset.at;
        match decided {
            Ok(decisions) => {
                self.start_transfers(a, dataset);
                for d in decisions {
                    // A refused entry reservation rejects the application: place no more,
                    // and drop the holds of the decisions left from the profiles.
                    if self.state[a].ended {
                        for cloud in &mut self.clouds {
                            cloud.fresh = false;
                        }
                        break;
                    }
                    self.assign(now, a, d.task, d.cloud, d.start)?;
                }
                Ok(())
            }
            Err(e) => {
                // The decisions held before the failure are in the profiles: rebuild them.
                for cloud in &mut self.clouds {
                    cloud.fresh = false;
                }
                self.abort(now, a, format!("no placement: {e}"))
            }
        }
    }

    /// Where application `a`'s dataset is, and how long it takes to reach each cloud.
    fn dataset_of(&self, a: usize) -> Dataset<CLOUDS> {
        Dataset {
            at: self.state[a].dataset,
            transfer: [self.dataset; CLOUDS],
        }
    }

    /// Records the dataset's planned arrivals and schedules them.
    fn start_transfers(&mut self, a: usize, dataset: [Option<Ticks>; CLOUDS]) {
        for (c, (old, new)) in self.state[a].dataset.iter_mut().zip(dataset).enumerate() {
            if old.is_none()
                && let Some(t) = new
            {
                *old = Some(t);
                self.queue.at(t, Event::Dataset(a, c));
            }
        }
    }

    /// FCFS: places the tasks that became ready, in (arrival, application, task) order, each on
    /// the cloud where it can start earliest (`fcfs = "earliest_start"`) or on its own
    /// (`"home_cloud"`).
    fn dispatch(&mut self, now: Ticks) -> Result<()> {
        if self.ready.is_empty() {
            return Ok(());
        }
        let mut ready = std::mem::take(&mut self.ready);
        ready.sort_unstable();
        ready.dedup();
        let mut asked = [false; CLOUDS];
        for &(a, v) in &ready {
            match self.home(a, v) {
                Some(h) => asked[h] = true,
                None => asked = [true; CLOUDS],
            }
        }
        self.refresh(now, |c| asked[c])?;
        for (a, v) in ready {
            if self.state[a].ended {
                continue;
            }
            let app = &self.apps[a];
            let spec = &app.tasks[usize::from(v)];
            let reservation = app.reserve_at.is_some();
            let entry_at = app.reserve_at.filter(|_| app.dag.preds(v).is_empty());
            let home = self.home(a, v);
            let mut best: Option<(Ticks, usize, Ticks)> = None;
            for (c, run) in spec.run.iter().enumerate() {
                let Some(run) = run.map(|r| r.saturating_add(self.image)) else {
                    continue;
                };
                if home.is_some_and(|h| h != c) {
                    continue;
                }
                let Some(data) = self.dataset_of(a).arrival(c, now) else {
                    continue;
                };
                let from = now.max(data).max(entry_at.unwrap_or(now));
                if let Some(start) = self.clouds[c]
                    .profile
                    .erat(reservation, from, spec.width, run)
                    && best.is_none_or(|(b, _, _)| start < b)
                {
                    best = Some((start, c, run));
                }
            }
            let Some((start, c, run)) = best else {
                self.abort(now, a, format!("task {v}: no cloud can take it"))?;
                continue;
            };
            self.clouds[c].profile.hold(
                reservation,
                start,
                start.saturating_add(run),
                spec.width,
            )?;
            let mut dataset = self.dataset_of(a);
            dataset.send(c, now);
            self.start_transfers(a, dataset.at);
            self.assign(now, a, v, c, start)?;
        }
        Ok(())
    }

    /// FCFS on home clouds: task `v` of `a`'s own cloud, if it can run the task.
    fn home(&self, a: usize, v: TaskId) -> Option<usize> {
        let app = &self.apps[a];
        let runs_at_home = app.tasks[usize::from(v)]
            .run
            .get(app.origin)
            .is_some_and(Option::is_some);
        (self.s.fcfs == FcfsCloud::HomeCloud && runs_at_home).then_some(app.origin)
    }

    /// Task `v` of `a` is placed on cloud `c` from `start`: submitted now if it can be,
    /// promised otherwise.
    fn assign(&mut self, now: Ticks, a: usize, v: TaskId, c: usize, start: Ticks) -> Result<()> {
        let run = self.apps[a].tasks[usize::from(v)].run[c]
            .ok_or_else(|| anyhow!("application {a}, task {v}: placed where it cannot run"))?;
        let t = &mut self.state[a].tasks[usize::from(v)];
        t.cloud = Some(c);
        t.placed = Some(now);
        t.order = self.assigned;
        self.assigned += 1;
        t.planned_start = start;
        t.planned_run = run.saturating_add(self.image);
        let entry_reservation =
            self.apps[a].reserve_at.is_some() && self.apps[a].dag.preds(v).is_empty();
        if entry_reservation || self.can_submit(now, a, v) {
            self.submit(now, a, v)
        } else {
            self.clouds[c].promised.insert((start, a, v));
            self.clouds[c].fresh = false;
            Ok(())
        }
    }

    /// Whether task `v` of `a` (placed, not yet submitted) has its predecessors finished and
    /// its dataset there.
    fn can_submit(&self, now: Ticks, a: usize, v: TaskId) -> bool {
        let st = &self.state[a];
        let t = &st.tasks[usize::from(v)];
        t.submitted.is_none()
            && !t.ended
            && t.cloud
                .and_then(|c| st.dataset[c])
                .is_some_and(|at| at <= now)
            && self.apps[a].dag.preds(v).is_subset(st.finished)
    }

    /// Submits every placed task of `a` that `which` selects and that can go now.
    fn submit_ready(
        &mut self,
        now: Ticks,
        a: usize,
        which: impl Fn(&TaskState) -> bool,
    ) -> Result<()> {
        for v in self.apps[a].dag.tasks().iter() {
            if self.state[a].ended {
                break;
            }
            if which(&self.state[a].tasks[usize::from(v)]) && self.can_submit(now, a, v) {
                self.submit(now, a, v)?;
            }
        }
        Ok(())
    }

    /// Hands task `v` of `a` to its cloud: to its lease manager, or (a best-effort task under
    /// `queue = "assigned"`) to its list of waiting tasks.
    fn submit(&mut self, now: Ticks, a: usize, v: TaskId) -> Result<()> {
        let t = &mut self.state[a].tasks[usize::from(v)];
        let c = t
            .cloud
            .ok_or_else(|| anyhow!("submitting an unplaced task"))?;
        t.submitted = Some(now);
        let (planned_start, order) = (t.planned_start, t.order);
        let cloud = &mut self.clouds[c];
        cloud.promised.remove(&(planned_start, a, v));
        cloud.fresh = false;
        if self.s.queue == QueueOrder::Assigned && self.apps[a].reserve_at.is_none() {
            cloud.waiting.insert(order, (a, v));
            return Ok(());
        }
        self.lease(now, a, v)
    }

    /// `queue = "assigned"`: gives each cloud's first waiting tasks to its lease manager while
    /// its lease queue is empty and the first one's VMs are free for its whole run (it then
    /// starts at once).
    fn feed(&mut self, now: Ticks) -> Result<()> {
        for c in 0..self.clouds.len() {
            while let Some((&order, &(a, v))) = self.clouds[c].waiting.first_key_value() {
                let cloud = &self.clouds[c];
                let queued = cloud
                    .leases
                    .leases()
                    .iter()
                    .any(|l| matches!(l.state(), State::Queued | State::Suspended));
                let t = &self.state[a].tasks[usize::from(v)];
                let width = self.apps[a].tasks[usize::from(v)].width;
                let end = now.saturating_add(t.planned_run);
                let free = cloud.leases.table().min_free(now, end);
                if queued || free.map_or(true, |f| f < i64::from(width)) {
                    break;
                }
                self.clouds[c].waiting.remove(&order);
                self.lease(now, a, v)?;
            }
        }
        Ok(())
    }

    /// Gives task `v` of `a` (submitted) to its cloud's lease manager.
    fn lease(&mut self, now: Ticks, a: usize, v: TaskId) -> Result<()> {
        let app = &self.apps[a];
        let t = &self.state[a].tasks[usize::from(v)];
        let c = t
            .cloud
            .ok_or_else(|| anyhow!("submitting an unplaced task"))?;
        let kind = match app.reserve_at {
            Some(_) if app.dag.preds(v).is_empty() => {
                Kind::Reservation(Notice::At(t.planned_start.max(now)))
            }
            Some(_) => Kind::Reservation(Notice::Zero),
            None => Kind::External {
                class: Class::Suspendable,
                deadline: None,
            },
        };
        let spec = Spec {
            nodes: app.tasks[usize::from(v)].width,
            work: t.planned_run,
            kind,
        };
        let cloud = &mut self.clouds[c];
        cloud.fresh = false;
        let mut events = Vec::new();
        let id = cloud
            .leases
            .submit(now, spec, &mut |e| events.push(e))
            .map_err(|r| {
                anyhow!(
                    "cloud {}: lease refused ({}): raise the model's capacity",
                    cloud.name,
                    r.reason
                )
            })?;
        cloud.tasks.insert(id, (a, v));
        self.state[a].tasks[usize::from(v)].lease = Some(id);
        self.process(now, c, events)
    }

    /// Handles what cloud `c`'s lease manager reported at `now`.
    fn process(&mut self, now: Ticks, c: usize, events: Vec<LeaseEvent>) -> Result<()> {
        if events.is_empty() {
            return Ok(());
        }
        self.clouds[c].fresh = false;
        self.clouds[c].account(now);
        let mut reserved: Vec<Start> = Vec::new();
        let mut best_effort: Vec<Start> = Vec::new();
        let mut victims: Vec<Part> = Vec::new();
        let mut finished: Vec<(usize, TaskId, Ticks)> = Vec::new();
        let mut rejected: Vec<(usize, TaskId, String)> = Vec::new();
        for e in events {
            let (id, to, from, at) = match e {
                LeaseEvent::Submitted { id, state, .. } => (id, state, None, now),
                LeaseEvent::Changed {
                    id, from, to, at, ..
                } => (id, to, Some(from), at),
                LeaseEvent::Preempted { id, .. } => {
                    if let Some(&(a, v)) = self.clouds[c].tasks.get(&id) {
                        self.state[a].tasks[usize::from(v)].preemptions += 1;
                        self.clouds[c].preemptions += 1;
                    }
                    continue;
                }
            };
            let Some(&(a, v)) = self.clouds[c].tasks.get(&id) else {
                continue;
            };
            let vms = self.apps[a].tasks[usize::from(v)].width;
            let start = Start {
                app: a,
                task: v,
                vms,
            };
            match (from, to) {
                (Some(State::Reserved), State::Running) => {
                    self.state[a].tasks[usize::from(v)]
                        .started
                        .get_or_insert(at);
                    reserved.push(start);
                }
                (Some(State::Queued), State::Running) => {
                    self.state[a].tasks[usize::from(v)]
                        .started
                        .get_or_insert(at);
                    best_effort.push(start);
                }
                (Some(State::Suspended), State::Resuming) => best_effort.push(start),
                (Some(State::Stopping(_)), State::Suspended) => {
                    victims.append(&mut self.state[a].tasks[usize::from(v)].parts);
                }
                (_, State::Done(end)) => {
                    self.clouds[c].tasks.remove(&id);
                    let parts = std::mem::take(&mut self.state[a].tasks[usize::from(v)].parts);
                    self.release(c, &parts)?;
                    match end {
                        End::Completed => finished.push((a, v, at)),
                        End::Rejected(e) => rejected.push((
                            a,
                            v,
                            format!("cloud {} refused its reservation: {e}", self.clouds[c].name),
                        )),
                        // Cancelled by `abort`, which records it.
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        self.map(c, &reserved, &mut victims, true)?;
        self.release(c, &victims)?;
        self.map(c, &best_effort, &mut Vec::new(), false)?;
        for (a, v, at) in finished {
            self.finish(at, a, v)?;
        }
        for (a, v, reason) in rejected {
            self.abort(now, a, format!("task {v}: {reason}"))?;
        }
        Ok(())
    }

    /// Gives `parts` back to cloud `c`'s servers.
    fn release(&mut self, c: usize, parts: &[Part]) -> Result<()> {
        let cloud = &mut self.clouds[c];
        for p in parts {
            cloud
                .servers
                .release(p.server, p.vms)
                .map_err(|e| anyhow!("cloud {}: releasing {p:?}: {e}", cloud.name))?;
            cloud.vms_in_use = cloud.vms_in_use.saturating_sub(u64::from(p.vms));
        }
        Ok(())
    }

    /// Maps the leases that started together onto cloud `c`'s servers (reservations: Algorithm
    /// 4 with `victims`' VMs counted free, which are then consumed).
    fn map(
        &mut self,
        c: usize,
        starts: &[Start],
        victims: &mut Vec<Part>,
        reservations: bool,
    ) -> Result<()> {
        for batch in starts.chunks(BATCH) {
            let demands: Vec<u32> = batch.iter().map(|s| s.vms).collect();
            let mut parts: Vec<Part> = Vec::new();
            let cloud = &mut self.clouds[c];
            cloud.batches += 1;
            cloud.batched += batch.len() as u64;
            let placed = if reservations && !victims.is_empty() {
                let v = std::mem::take(victims);
                for p in &v {
                    cloud.vms_in_use = cloud.vms_in_use.saturating_sub(u64::from(p.vms));
                }
                cloud
                    .servers
                    .place_preempting(self.fit, &demands, &v, &mut |p| parts.push(p))
            } else {
                cloud
                    .servers
                    .place(self.fit, &demands, &mut |p| parts.push(p))
            };
            placed.map_err(|e| {
                anyhow!(
                    "cloud {}: mapping {demands:?} VMs onto servers with {} free: {e}",
                    cloud.name,
                    cloud.servers.free_vms()
                )
            })?;
            for p in parts {
                cloud.vms_in_use += u64::from(p.vms);
                let s = &batch[p.item];
                self.state[s.app].tasks[usize::from(s.task)].parts.push(p);
            }
        }
        Ok(())
    }

    /// Task `v` of `a` finished at `at`.
    fn finish(&mut self, at: Ticks, a: usize, v: TaskId) -> Result<()> {
        let origin = self.apps[a].origin;
        let t = &mut self.state[a].tasks[usize::from(v)];
        t.finished = Some(at);
        let c = t
            .cloud
            .ok_or_else(|| anyhow!("a task finished on no cloud"))?;
        // The one instant the scenario's reading measures delta_tau from: recorded, and given
        // to the kernel's feedback (DCLS, DCMMS).
        let from = self
            .s
            .feedback_from
            .instant(t.planned_start, t.submitted, t.started)
            .ok_or_else(|| anyhow!("a task finished without being submitted and started"))?;
        t.feedback_from = Some(from);
        if self.s.scheduler != SchedulerKind::Fcfs {
            let fd = self
                .feedback
                .complete(origin, c, from, at, t.planned_run)
                .map_err(|e| anyhow!("feedback: {e}"))?;
            t.factor = Some(fd.num() as f64 / fd.den() as f64);
        }
        self.state[a].finished.insert(v);
        self.end_task(at, a, v, Outcome::Completed, None);
        let done = self.state[a].finished;
        if done == self.apps[a].dag.tasks() {
            self.end_app(at, a, Outcome::Completed, None);
            return Ok(());
        }
        for s in self.apps[a].dag.succs(v).iter() {
            if self.apps[a].dag.preds(s).is_subset(done) {
                if self.s.scheduler == SchedulerKind::Fcfs {
                    self.ready.push((a, s));
                } else if self.can_submit(at, a, s) {
                    self.submit(at, a, s)?;
                }
            }
        }
        Ok(())
    }

    /// Application `a` cannot finish: every task not yet ended is cancelled and rejected.
    fn abort(&mut self, now: Ticks, a: usize, reason: String) -> Result<()> {
        if self.state[a].ended {
            return Ok(());
        }
        self.state[a].ended = true;
        for v in self.apps[a].dag.tasks().iter() {
            let t = &self.state[a].tasks[usize::from(v)];
            if t.ended {
                continue;
            }
            if let (Some(c), Some(id)) = (t.cloud, t.lease)
                && self.clouds[c].tasks.contains_key(&id)
            {
                let mut events = Vec::new();
                self.clouds[c]
                    .leases
                    .cancel(now, id, &mut |e| events.push(e))
                    .map_err(|e| anyhow!("cloud {}: cancelling: {e}", self.clouds[c].name))?;
                self.process(now, c, events)?;
            }
            let t = &self.state[a].tasks[usize::from(v)];
            if let Some(c) = t.cloud {
                let key = (t.planned_start, a, v);
                let order = t.order;
                self.clouds[c].promised.remove(&key);
                if self.clouds[c].waiting.get(&order) == Some(&(a, v)) {
                    self.clouds[c].waiting.remove(&order);
                }
                self.clouds[c].fresh = false;
            }
            self.end_task(now, a, v, Outcome::Rejected, Some(reason.clone()));
        }
        self.end_app(now, a, Outcome::Rejected, Some(reason));
        Ok(())
    }

    fn end_task(&mut self, at: Ticks, a: usize, v: TaskId, outcome: Outcome, why: Option<String>) {
        self.end = self.end.max(at);
        let app = &self.apps[a];
        let t = &mut self.state[a].tasks[usize::from(v)];
        t.ended = true;
        let s = |x: Option<Ticks>| x.map(secs);
        self.task_records.push(TaskRecord {
            app: a,
            task: v.get(),
            job: app.tasks[usize::from(v)].job,
            reservation: app.reserve_at.is_some(),
            arrival: secs(app.arrival),
            width: app.tasks[usize::from(v)].width,
            cloud: t.cloud,
            placed: s(t.placed),
            assigned: t.placed.map(|_| t.order),
            planned_start: t.placed.map(|_| secs(t.planned_start)),
            planned_finish: t
                .placed
                .map(|_| secs(t.planned_start.saturating_add(t.planned_run))),
            submitted: s(t.submitted),
            started: s(t.started),
            finished: s(t.finished),
            feedback_from: s(t.feedback_from),
            factor: t.factor,
            preemptions: t.preemptions,
            outcome,
            reason: why,
        });
    }

    fn end_app(&mut self, at: Ticks, a: usize, outcome: Outcome, why: Option<String>) {
        self.end = self.end.max(at);
        self.state[a].ended = true;
        let app = &self.apps[a];
        self.app_records.push(AppRecord {
            app: a,
            origin: app.origin,
            reservation: app.reserve_at.is_some(),
            tasks: app.tasks.len(),
            arrival: secs(app.arrival),
            finished: (outcome == Outcome::Completed).then(|| secs(at)),
            outcome,
            reason: why,
        });
    }
}

/// The clouds as one application's list scheduling sees them.
struct Planner<'w> {
    now: Ticks,
    app: &'w App,
    clouds: &'w mut Vec<Cloud>,
    /// Where the application's dataset is (or will be, once a task is placed there).
    dataset: Dataset<CLOUDS>,
    image: Ticks,
    /// A profile that could not take a decision (a capacity of the model).
    failure: Option<anyhow::Error>,
}

impl Clouds for Planner<'_> {
    fn erat(&self, task: TaskId, cloud: usize, ready: Ticks) -> Option<Ticks> {
        let spec = self.app.tasks.get(usize::from(task))?;
        let run = spec
            .run
            .get(cloud)
            .copied()
            .flatten()?
            .saturating_add(self.image);
        let data = self.dataset.arrival(cloud, self.now)?;
        let mut from = ready.max(data);
        if self.app.dag.preds(task).is_empty()
            && let Some(at) = self.app.reserve_at
        {
            from = from.max(at);
        }
        let reservation = self.app.reserve_at.is_some();
        self.clouds
            .get(cloud)?
            .profile
            .erat(reservation, from, spec.width, run)
    }

    fn hold(&mut self, d: &Decision) -> Result<(), Error> {
        let width = self.app.tasks[usize::from(d.task)].width;
        let reservation = self.app.reserve_at.is_some();
        if let Err(e) = self.clouds[d.cloud]
            .profile
            .hold(reservation, d.start, d.finish, width)
        {
            self.failure = Some(e);
            return Err(Error::Full);
        }
        self.dataset.send(d.cloud, self.now);
        Ok(())
    }
}
