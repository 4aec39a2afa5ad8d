//! One replication of a federation on the event queue: the gateway, the clusters' lease
//! managers (the kernel's), the local users, and the records.
//!
//! # What happens
//! - **External requests** arrive at the gateway from each stream of `external.interarrival_s`
//!   during `[0, horizon)` (each stream's first arrival one inter-arrival time after 0). Each
//!   draws its type (by the shares), size, duration and, deadline-constrained, its deadline
//!   (`arrival + deadline_factor x duration`), and the gateway's dispatcher picks a cluster.
//!   It is submitted there as the kernel's external lease of its class; a deadline-constrained
//!   one must start at once or is rejected (salehi2012 Sec. 2.1).
//!   A best-effort one goes to the cluster's manager only while it holds fewer than
//!   `rules.best_effort_queue` best-effort leases waiting (queued or suspended), and nothing
//!   waits before it at the gateway; otherwise it waits in the gateway's queue for that cluster,
//!   in arrival order, and is submitted when one of them starts or ends. Best effort is never
//!   rejected.
//! - **Local requests** arrive at each cluster with local users, Non-preemptable with priority
//!   (the kernel's local leases, under the scenario's rules: preempting, then waiting or
//!   rejected). Priority holds for the lease table too: a local request that finds it full
//!   withdraws the best-effort lease submitted last among those that never ran (the kernel
//!   cancels it at the caller's request) and puts its request back at the head of the gateway's
//!   queue for that cluster, until it fits.
//! - **Refusals**: a request is refused for space (rejected without a lease, `refused`) only
//!   when its cluster's table is full and holds no best-effort lease that never ran: a local
//!   request, a deadline-constrained one or a migration.
//! - **Time** at a cluster moves by its manager's next transition: the world keeps one wake-up
//!   armed per cluster, at [`Manager::next_event`](qosgate_kernel::lease::Manager::next_event);
//!   a wake-up that is no longer the armed one is stale and skipped.
//! - **Migration**: a Migratable lease preempted at a cluster ends there `Migrated` when its
//!   migration (`migrate_s` per VM) ends; the gateway then dispatches its remaining work again,
//!   by its policy, as a request of its type; if the policy picks the cluster it left, it goes
//!   to the next cluster in index order (with one cluster, back to it). It is submitted there
//!   with its deadline: the kernel reserves it at its earliest fit that finishes by then, or
//!   rejects it.
//! - The run ends when no event is left: every request has ended (no cut-off).
//!
//! # Seeds
//! Replication `k` draws from `seed + k`: stream 0 gives the external requests' types, sizes
//! and durations (three, two... draws each, in arrival order), stream 1 the gateway's random
//! dispatch, stream `2 + i` the inter-arrival times of external stream `i`, and for cluster `j`
//! stream `1000 + 2 j` its local inter-arrival times and `1001 + 2 j` its local sizes and
//! durations. The workload is therefore the same under every gateway policy and cluster rule
//! (common random numbers), and only the dispatch draws differ.

use std::collections::VecDeque;

use anyhow::{Context, Result, bail, ensure};
use qosgate_kernel::Error;
use qosgate_kernel::lease::{Cause, Class, End, Event, Kind, LeaseId, Overheads, Spec, State};
use qosgate_kernel::units::Ticks;

use qosgate_kernel::lease::Manager;

use super::capacity;
use super::gateway::{Dispatcher, Split};
use super::record::{ClusterAccount, Outcome, Record, Run, Type};
use super::scenario::{Das2Size, Dist, Scenario, lease_ticks};
use crate::des::boxed::boxed;
use crate::des::queue::Queue;
use crate::des::rng::{SplitMix, replication_seed};
use crate::des::time::{secs, ticks};

/// What the event queue holds.
#[derive(Debug, Clone, Copy)]
enum Ev {
    /// The next external arrival of stream `i`.
    External(usize),
    /// The next local arrival at cluster `j`.
    Local(usize),
    /// Cluster `j`'s armed wake-up.
    Wake(usize),
    /// Record `r`'s migrated lease, `remaining` ticks of work, left cluster `from`.
    Migrate {
        record: usize,
        from: usize,
        remaining: Ticks,
    },
}

/// A kernel lease's request, and since when it runs.
#[derive(Debug, Clone, Copy)]
struct Lease {
    record: usize,
    nodes: u32,
    work: Ticks,
    /// While `Running`: the instant its current run began.
    running_since: Option<Ticks>,
}

/// A best-effort request waiting at the gateway for room at its cluster.
#[derive(Debug, Clone, Copy)]
struct Held {
    record: usize,
    spec: Spec,
}

/// A cluster's local users.
struct Local {
    arrivals: SplitMix,
    attributes: SplitMix,
    interarrival: Dist,
    size: Das2Size,
    duration: Dist,
}

/// One replication, with clusters of `L` live leases and `B` breakpoints (the federation's
/// [`capacity::LEASES`] and [`capacity::BREAKPOINTS`] unless a test asks for a smaller table).
pub struct World<
    's,
    const L: usize = { capacity::LEASES },
    const B: usize = { capacity::BREAKPOINTS },
> {
    s: &'s Scenario,
    queue: Queue<Ev>,
    horizon: Ticks,
    overheads: Overheads,
    clusters: Vec<Box<Manager<L, B>>>,
    /// Each cluster's armed wake-up.
    armed: Vec<Option<Ticks>>,
    /// Each cluster's kernel leases, by lease id.
    leases: Vec<Vec<Lease>>,
    /// Each cluster's queue at the gateway: best-effort requests waiting for room there.
    held: Vec<VecDeque<Held>>,
    /// `rules.best_effort_queue`.
    best_effort_queue: usize,
    /// Each cluster's nodes held now (by running, stopping and resuming leases).
    in_use: Vec<u32>,
    accounts: Vec<ClusterAccount>,
    records: Vec<Record>,
    ended: Vec<bool>,
    split: Split,
    dispatcher: Dispatcher,
    dispatch: SplitMix,
    attributes: SplitMix,
    streams: Vec<SplitMix>,
    size: Das2Size,
    /// Cumulative type shares (Cancelable, Suspendable, Migratable, Non-preemptable).
    cumulative: [f64; 4],
    locals: Vec<Option<Local>>,
}

impl<'s, const L: usize, const B: usize> World<'s, L, B> {
    /// Replication `k` of `s`, with the gateway's `split`, ready to run.
    ///
    /// Errors: a scenario the kernel refuses (named).
    pub fn new(s: &'s Scenario, k: u32, split: Split) -> Result<Self> {
        let seed = replication_seed(s.header.seed, k);
        let overheads = s.overheads.kernel();
        let rules = s.rules.kernel();
        let mut clusters = Vec::with_capacity(s.clusters.len());
        let mut locals = Vec::with_capacity(s.clusters.len());
        for (j, c) in s.clusters.iter().enumerate() {
            let m = boxed(|slot| Manager::init(slot, c.nodes, overheads, rules))
                .with_context(|| format!("cluster {}", c.name))?;
            clusters.push(m);
            locals.push(match &c.local {
                Some(l) => Some(Local {
                    arrivals: SplitMix::for_entity(seed, 1000 + 2 * j as u64),
                    attributes: SplitMix::for_entity(seed, 1001 + 2 * j as u64),
                    interarrival: l.interarrival_s.clone(),
                    size: l.size.model(c.nodes)?,
                    duration: l.duration_s.clone(),
                }),
                None => None,
            });
        }
        let smallest = s.clusters.iter().map(|c| c.nodes).min().unwrap_or(1);
        let shares = s.external.shares.values();
        let total: f64 = shares.iter().sum();
        let mut cumulative = [0.0; 4];
        let mut acc = 0.0;
        for (c, v) in cumulative.iter_mut().zip(shares) {
            acc += v / total;
            *c = acc;
        }
        let dispatcher = Dispatcher::new(s.gateway.policy, &split, &shares)?;
        let n = s.clusters.len();
        Ok(Self {
            s,
            queue: Queue::default(),
            horizon: ticks(s.horizon_s),
            overheads,
            clusters,
            armed: vec![None; n],
            leases: vec![Vec::new(); n],
            held: vec![VecDeque::new(); n],
            best_effort_queue: s.rules.best_effort_queue as usize,
            in_use: vec![0; n],
            accounts: vec![ClusterAccount::default(); n],
            records: Vec::new(),
            ended: Vec::new(),
            split,
            dispatcher,
            dispatch: SplitMix::for_entity(seed, 1),
            attributes: SplitMix::for_entity(seed, 0),
            streams: (0..s.external.interarrival_s.len())
                .map(|i| SplitMix::for_entity(seed, 2 + i as u64))
                .collect(),
            size: s.external.size.model(smallest)?,
            cumulative,
            locals,
        })
    }

    /// Runs the replication to its end.
    ///
    /// Errors: a kernel refusal that is not a full cluster, or a request left without an
    /// outcome (both bugs, named).
    pub fn run(mut self) -> Result<Run> {
        for i in 0..self.streams.len() {
            let gap = self.s.external.interarrival_s[i].sample(&mut self.streams[i]);
            self.arrive(ticks(gap), Ev::External(i));
        }
        for j in 0..self.locals.len() {
            if let Some(l) = &mut self.locals[j] {
                let gap = l.interarrival.sample(&mut l.arrivals);
                self.arrive(ticks(gap), Ev::Local(j));
            }
        }
        let mut makespan = Ticks::ZERO;
        while let Some(ev) = self.queue.pop() {
            let now = self.queue.now();
            makespan = now;
            match ev {
                Ev::External(i) => self.external(now, i)?,
                Ev::Local(j) => self.local(now, j)?,
                Ev::Wake(j) => {
                    if self.armed[j] == Some(now) {
                        self.armed[j] = None;
                        let mut log = Vec::new();
                        self.clusters[j].advance(now, &mut |e| log.push(e))?;
                        self.apply(j, &log)?;
                        self.drain(now, j)?;
                    }
                }
                Ev::Migrate {
                    record,
                    from,
                    remaining,
                } => self.migrate(now, record, from, remaining)?,
            }
        }
        for (j, m) in self.clusters.iter().enumerate() {
            let name = &self.s.clusters[j].name;
            ensure!(
                m.leases().is_empty(),
                "cluster {name}: {} leases never ended",
                m.leases().len()
            );
            // The kernel's own counts are the records'.
            let (k, a) = (m.accounts(), &self.accounts[j]);
            let kernel = (
                k.submitted,
                k.completed,
                k.rejected,
                k.cancelled,
                k.migrated,
                k.preemptions,
            );
            let ours = (
                a.leases,
                a.completed,
                a.rejected,
                a.cancelled + a.withdrawn,
                a.migrated,
                a.preemptions,
            );
            ensure!(
                kernel == ours && k.failed == 0,
                "cluster {name}: the kernel counts (submitted, completed, rejected, cancelled, \
                 migrated, preemptions) {kernel:?}, the records {ours:?}"
            );
        }
        if let Some(h) = self.held.iter().flatten().next() {
            bail!("request {} still waits at the gateway", h.record);
        }
        if let Some(r) = self.ended.iter().position(|&e| !e) {
            bail!("request {r} has no outcome");
        }
        let run = Run {
            records: self.records,
            clusters: self.accounts,
            nodes: self.s.clusters.iter().map(|c| c.nodes).collect(),
            shares: self.split.shares,
            fallback: self.split.fallback,
            makespan: secs(makespan),
            horizon: self.s.horizon_s,
            events: self.queue.processed(),
        };
        run.check()?;
        Ok(run)
    }

    /// Schedules an arrival `gap` after now, if it falls before the horizon.
    fn arrive(&mut self, gap: Ticks, ev: Ev) {
        let at = self.queue.now().saturating_add(gap);
        if at < self.horizon {
            self.queue.at(at, ev);
        }
    }

    fn external(&mut self, now: Ticks, i: usize) -> Result<()> {
        let gap = self.s.external.interarrival_s[i].sample(&mut self.streams[i]);
        self.arrive(ticks(gap), Ev::External(i));
        let u = self.attributes.unit();
        let t = self.cumulative.iter().position(|&c| u < c).unwrap_or(3);
        let nodes = self.size.size(&mut self.attributes);
        let duration = self.s.external.duration_s.sample(&mut self.attributes);
        let kind = Type::EXTERNAL[t];
        let deadline = matches!(kind, Type::Migratable | Type::NonPreemptable)
            .then(|| secs(now) + self.s.external.deadline_factor * duration);
        let record = self.open(now, kind, nodes, duration, deadline);
        let j = self.dispatcher.dispatch(t, self.dispatch.next_u32())?;
        let spec = Spec {
            nodes,
            work: lease_ticks(duration),
            kind: Kind::External {
                class: class(kind),
                deadline: None,
            },
        };
        if kind.is_best_effort() {
            self.held[j].push_back(Held { record, spec });
            self.drain(now, j)
        } else {
            self.submit(now, j, record, spec)
        }
    }

    fn local(&mut self, now: Ticks, j: usize) -> Result<()> {
        let Some(l) = &mut self.locals[j] else {
            return Ok(());
        };
        let gap = ticks(l.interarrival.sample(&mut l.arrivals));
        let nodes = l.size.size(&mut l.attributes);
        let duration = l.duration.sample(&mut l.attributes);
        self.arrive(gap, Ev::Local(j));
        let record = self.open(now, Type::Local, nodes, duration, None);
        let spec = Spec {
            nodes,
            work: lease_ticks(duration),
            kind: Kind::Local,
        };
        self.submit(now, j, record, spec)
    }

    fn migrate(&mut self, now: Ticks, record: usize, from: usize, remaining: Ticks) -> Result<()> {
        let n = self.clusters.len();
        let mut j = self.dispatcher.dispatch(2, self.dispatch.next_u32())?;
        if j == from {
            j = (from + 1) % n;
        }
        let r = &self.records[record];
        let deadline = r.deadline.map(ticks);
        let spec = Spec {
            nodes: r.nodes,
            work: remaining.max(Ticks::new(1)),
            kind: Kind::External {
                class: Class::Migratable,
                deadline,
            },
        };
        self.submit(now, j, record, spec)
    }

    /// A new record, not yet ended.
    fn open(
        &mut self,
        now: Ticks,
        kind: Type,
        nodes: u32,
        duration: f64,
        deadline: Option<f64>,
    ) -> usize {
        let request = self.records.len();
        self.records.push(Record {
            request: request as u64,
            kind,
            arrival: secs(now),
            nodes,
            duration,
            deadline,
            clusters: Vec::new(),
            start: None,
            end: f64::NAN,
            outcome: Outcome::Rejected,
            reason: String::new(),
            refused: false,
            preemptions: 0,
            migrations: 0,
            withdrawals: 0,
            overhead_node_s: 0.0,
        });
        self.ended.push(false);
        request
    }

    /// Ends record `r` at `at`.
    fn close(&mut self, r: usize, at: Ticks, outcome: Outcome, reason: String) -> Result<()> {
        ensure!(!self.ended[r], "request {r} ended twice");
        self.ended[r] = true;
        let rec = &mut self.records[r];
        rec.end = secs(at);
        rec.outcome = outcome;
        rec.reason = reason;
        Ok(())
    }

    /// Submits record `r`'s lease `spec` at cluster `j` (a local, deadline-constrained or
    /// migrated request): a local request that finds the table full withdraws best-effort
    /// leases that never ran until it fits; a request that still finds it full is refused
    /// there. Then the gateway's queue for `j` is served.
    fn submit(&mut self, now: Ticks, j: usize, r: usize, spec: Spec) -> Result<()> {
        while !self.lodge(now, j, r, spec)? {
            let unstarted = (spec.kind == Kind::Local)
                .then(|| self.unstarted_best_effort(j))
                .flatten();
            match unstarted {
                Some(id) => {
                    let mut log = Vec::new();
                    self.clusters[j].cancel(now, id, &mut |e| log.push(e))?;
                    self.apply(j, &log)?;
                }
                None => {
                    self.accounts[j].refused += 1;
                    self.records[r].refused = true;
                    self.records[r].clusters.push(j);
                    let reason = format!(
                        "rejected: {} is full ({} live leases, none a best-effort lease that \
                         never ran)",
                        self.s.clusters[j].name, L
                    );
                    self.close(r, now, Outcome::Rejected, reason)?;
                    break;
                }
            }
        }
        self.drain(now, j)
    }

    /// Serves the gateway's queue for cluster `j`: submits its best-effort requests in order
    /// while the cluster holds fewer than `best_effort_queue` of them waiting and has room.
    fn drain(&mut self, now: Ticks, j: usize) -> Result<()> {
        while self.waiting_best_effort(j) < self.best_effort_queue {
            let Some(h) = self.held[j].pop_front() else {
                break;
            };
            if !self.lodge(now, j, h.record, h.spec)? {
                self.held[j].push_front(h);
                break;
            }
        }
        Ok(())
    }

    /// Hands record `r`'s lease `spec` to cluster `j`'s manager, as a visit of `r` to `j`, and
    /// records what follows. Returns whether the manager took it (`false`: the table is full,
    /// and `r` has not visited `j`).
    ///
    /// Errors: any other refusal (a bug, named).
    fn lodge(&mut self, now: Ticks, j: usize, r: usize, spec: Spec) -> Result<bool> {
        self.records[r].clusters.push(j);
        let mut log = Vec::new();
        match self.clusters[j].submit(now, spec, &mut |e| log.push(e)) {
            Ok(id) => {
                ensure!(
                    id.get() as usize == self.leases[j].len(),
                    "cluster {j}: lease id {id} out of order"
                );
                self.leases[j].push(Lease {
                    record: r,
                    nodes: spec.nodes,
                    work: spec.work,
                    running_since: None,
                });
            }
            Err(refused) if refused.reason == Error::Full => {
                // The manager advanced to `now` before it found the table full: what that
                // reported is recorded all the same.
                self.records[r].clusters.pop();
                self.apply(j, &log)?;
                return Ok(false);
            }
            Err(refused) => bail!(
                "cluster {} refused request {r} ({:?}): {}",
                self.s.clusters[j].name,
                refused.item,
                refused.reason
            ),
        }
        self.apply(j, &log)?;
        Ok(true)
    }

    /// Best-effort leases waiting at cluster `j`'s manager (queued or suspended).
    fn waiting_best_effort(&self, j: usize) -> usize {
        self.clusters[j]
            .leases()
            .iter()
            .filter(|l| is_best_effort(l.spec().kind))
            .filter(|l| matches!(l.state(), State::Queued | State::Suspended))
            .count()
    }

    /// The best-effort lease at cluster `j` submitted last among those that never ran.
    fn unstarted_best_effort(&self, j: usize) -> Option<LeaseId> {
        self.clusters[j]
            .leases()
            .iter()
            .filter(|l| is_best_effort(l.spec().kind) && l.state() == State::Queued)
            .map(|l| l.id())
            .max()
    }

    /// Records what cluster `j`'s manager reported, then re-arms its wake-up.
    fn apply(&mut self, j: usize, log: &[Event]) -> Result<()> {
        let name = self.s.clusters[j].name.clone();
        // The instant of the last change: node use is checked when an instant is over (a start
        // and the end that frees its nodes may come in either order within one instant).
        let mut last_at = None;
        for e in log {
            if let Event::Changed { at, .. } = *e {
                if last_at.is_some_and(|t| t != at) {
                    self.check_nodes(j)?;
                }
                last_at = Some(at);
            }
            match *e {
                Event::Submitted {
                    id,
                    at,
                    spec,
                    state,
                } => {
                    self.accounts[j].leases += 1;
                    if let State::Done(End::Rejected(why)) = state {
                        let r = self.lease(j, id)?.record;
                        self.accounts[j].rejected += 1;
                        let reason = rejection(&name, spec.kind, why);
                        self.close(r, at, Outcome::Rejected, reason)?;
                    }
                }
                Event::Preempted { id, stop } => {
                    let l = self.lease(j, id)?;
                    let cost = f64::from(l.nodes) * secs(self.overheads.cost(stop.action));
                    let a = &mut self.accounts[j];
                    a.preemptions += 1;
                    a.vms_preempted += u64::from(l.nodes);
                    a.overhead_node_s += cost;
                    let rec = &mut self.records[l.record];
                    rec.preemptions += 1;
                    rec.overhead_node_s += cost;
                }
                Event::Changed {
                    id,
                    at,
                    from,
                    to,
                    remaining,
                } => {
                    let l = self.lease(j, id)?;
                    match (holds(from), holds(to)) {
                        (false, true) => self.in_use[j] += l.nodes,
                        (true, false) => {
                            self.in_use[j] =
                                self.in_use[j].checked_sub(l.nodes).with_context(|| {
                                    format!(
                                        "cluster {name}: lease {id} freed nodes it did not hold"
                                    )
                                })?;
                        }
                        _ => {}
                    }
                    // Work done before the horizon, run by run (occupancy's window).
                    if to == State::Running {
                        self.leases[j][id.get() as usize].running_since = Some(at);
                    } else if let Some(since) = l.running_since.filter(|_| from == State::Running) {
                        self.leases[j][id.get() as usize].running_since = None;
                        let within = at.min(self.horizon).saturating_sub(since.min(self.horizon));
                        self.accounts[j].window_work_node_s += f64::from(l.nodes) * secs(within);
                    }
                    if to == State::Running && self.records[l.record].start.is_none() {
                        // Eq. 22 counts a request once, at the cluster where it first ran.
                        self.accounts[j].computation_node_s += f64::from(l.nodes) * secs(l.work);
                        self.records[l.record].start = Some(secs(at));
                    }
                    let State::Done(end) = to else { continue };
                    let done = l.work.saturating_sub(remaining);
                    self.accounts[j].work_node_s += f64::from(l.nodes) * secs(done);
                    match end {
                        End::Completed => {
                            self.accounts[j].completed += 1;
                            let reason = format!("completed at {name}");
                            self.close(l.record, at, Outcome::Completed, reason)?;
                        }
                        End::Cancelled(Cause::Preempted(by)) => {
                            self.accounts[j].cancelled += 1;
                            let by = self.lease(j, by)?.record;
                            let reason = format!("cancelled at {name}: preempted for request {by}");
                            self.close(l.record, at, Outcome::Cancelled, reason)?;
                        }
                        End::Migrated => {
                            self.accounts[j].migrated += 1;
                            self.records[l.record].migrations += 1;
                            self.queue.at(
                                at,
                                Ev::Migrate {
                                    record: l.record,
                                    from: j,
                                    remaining,
                                },
                            );
                        }
                        End::Cancelled(Cause::Caller) if from == State::Queued => {
                            // Withdrawn for a local request (`submit`): back to the
                            // gateway's queue, at its head.
                            self.accounts[j].withdrawn += 1;
                            let rec = &mut self.records[l.record];
                            rec.withdrawals += 1;
                            rec.clusters.pop();
                            let spec = Spec {
                                nodes: l.nodes,
                                work: l.work,
                                kind: Kind::External {
                                    class: class(rec.kind),
                                    deadline: None,
                                },
                            };
                            self.held[j].push_front(Held {
                                record: l.record,
                                spec,
                            });
                        }
                        End::Rejected(_) | End::Cancelled(Cause::Caller) | End::Failed => {
                            bail!("cluster {name}: lease {id} ended {end:?} after it was admitted")
                        }
                    }
                }
            }
        }
        self.check_nodes(j)?;
        let next = self.clusters[j].next_event();
        if next.is_some() && next != self.armed[j] {
            self.armed[j] = next;
            if let Some(t) = next {
                self.queue.at(t, Ev::Wake(j));
            }
        }
        Ok(())
    }

    /// Errors: cluster `j` holds more nodes than it has.
    fn check_nodes(&self, j: usize) -> Result<()> {
        let c = &self.s.clusters[j];
        ensure!(
            self.in_use[j] <= c.nodes,
            "cluster {}: {} of its {} nodes in use",
            c.name,
            self.in_use[j],
            c.nodes
        );
        Ok(())
    }

    fn lease(&self, j: usize, id: LeaseId) -> Result<Lease> {
        self.leases[j]
            .get(id.get() as usize)
            .copied()
            .with_context(|| format!("cluster {j}: unknown lease {id}"))
    }
}

/// Whether a lease in `state` holds its nodes now.
fn holds(state: State) -> bool {
    matches!(state, State::Running | State::Stopping(_) | State::Resuming)
}

/// The kernel's class of an external request's type.
fn class(kind: Type) -> Class {
    match kind {
        Type::Cancelable => Class::Cancelable,
        Type::Suspendable => Class::Suspendable,
        Type::Migratable => Class::Migratable,
        Type::NonPreemptable | Type::Local => Class::NonPreemptable,
    }
}

/// Whether a lease of `kind` is best effort (Cancelable or Suspendable).
fn is_best_effort(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::External {
            class: Class::Cancelable | Class::Suspendable,
            ..
        }
    )
}

/// Why the kernel rejected a lease of `kind` at cluster `name`.
fn rejection(name: &str, kind: Kind, why: Error) -> String {
    let what = match (kind, why) {
        (Kind::Local, _) => "no room, even after preemption",
        (Kind::External { deadline: None, .. }, _) => "no room to start at once",
        (Kind::External { .. }, Error::DeadlineUnmet) => "migrated, cannot finish by its deadline",
        (Kind::External { .. }, _) => "migrated, no room before its deadline",
        (Kind::Reservation(_), _) => "no room at its start",
    };
    format!("rejected at {name}: {what}")
}
