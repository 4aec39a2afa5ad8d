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
//! - **Local requests** arrive at each cluster with local users, Non-preemptable with priority
//!   (the kernel's local leases, under the scenario's rules: preempting, then waiting or
//!   rejected).
//! - **Time** at a cluster moves by its manager's next transition: the world keeps one wake-up
//!   armed per cluster, at [`Cluster::next_event`](qosgate_kernel::lease::Manager::next_event);
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

use anyhow::{Context, Result, bail, ensure};
use qosgate_kernel::Error;
use qosgate_kernel::lease::{Cause, Class, End, Event, Kind, LeaseId, Overheads, Spec, State};
use qosgate_kernel::units::Ticks;

use super::capacity::{self, Cluster};
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

/// A kernel lease's request.
#[derive(Debug, Clone, Copy)]
struct Lease {
    record: usize,
    nodes: u32,
    work: Ticks,
}

/// A cluster's local users.
struct Local {
    arrivals: SplitMix,
    attributes: SplitMix,
    interarrival: Dist,
    size: Das2Size,
    duration: Dist,
}

/// One replication.
pub struct World<'s> {
    s: &'s Scenario,
    queue: Queue<Ev>,
    horizon: Ticks,
    overheads: Overheads,
    clusters: Vec<Box<Cluster>>,
    /// Each cluster's armed wake-up.
    armed: Vec<Option<Ticks>>,
    /// Each cluster's kernel leases, by lease id.
    leases: Vec<Vec<Lease>>,
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

impl<'s> World<'s> {
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
            let m = boxed(|slot| Cluster::init(slot, c.nodes, overheads, rules))
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
                a.cancelled,
                a.migrated,
                a.preemptions,
            );
            ensure!(
                kernel == ours && k.failed == 0,
                "cluster {name}: the kernel counts (submitted, completed, rejected, cancelled, \
                 migrated, preemptions) {kernel:?}, the records {ours:?}"
            );
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
        let class = [
            Class::Cancelable,
            Class::Suspendable,
            Class::Migratable,
            Class::NonPreemptable,
        ][t];
        let spec = Spec {
            nodes,
            work: lease_ticks(duration),
            kind: Kind::External {
                class,
                deadline: None,
            },
        };
        self.submit(now, j, record, spec)
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

    /// Submits record `r`'s lease `spec` at cluster `j`.
    fn submit(&mut self, now: Ticks, j: usize, r: usize, spec: Spec) -> Result<()> {
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
                });
            }
            Err(refused) if refused.reason == Error::Full => {
                self.accounts[j].refused += 1;
                self.records[r].refused = true;
                let reason = format!(
                    "rejected: {} is full ({} live leases)",
                    self.s.clusters[j].name,
                    capacity::LEASES
                );
                self.close(r, now, Outcome::Rejected, reason)?;
            }
            Err(refused) => bail!(
                "cluster {} refused request {r} ({:?}): {}",
                self.s.clusters[j].name,
                refused.item,
                refused.reason
            ),
        }
        self.apply(j, &log)
    }

    /// Records what cluster `j`'s manager reported, then re-arms its wake-up.
    fn apply(&mut self, j: usize, log: &[Event]) -> Result<()> {
        let name = self.s.clusters[j].name.clone();
        for e in log {
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
                    if to == State::Running && matches!(from, State::Queued | State::Reserved) {
                        self.accounts[j].computation_node_s += f64::from(l.nodes) * secs(l.work);
                        self.records[l.record].start.get_or_insert(secs(at));
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
                        End::Rejected(_) | End::Cancelled(Cause::Caller) | End::Failed => {
                            bail!("cluster {name}: lease {id} ended {end:?} after it was admitted")
                        }
                    }
                }
            }
        }
        let next = self.clusters[j].next_event();
        if next.is_some() && next != self.armed[j] {
            self.armed[j] = next;
            if let Some(t) = next {
                self.queue.at(t, Ev::Wake(j));
            }
        }
        Ok(())
    }

    fn lease(&self, j: usize, id: LeaseId) -> Result<Lease> {
        self.leases[j]
            .get(id.get() as usize)
            .copied()
            .with_context(|| format!("cluster {j}: unknown lease {id}"))
    }
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
