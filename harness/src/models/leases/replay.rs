//! Replaying a lease workload on one cluster: every request of a [`Workload`] is submitted at its
//! arrival to the kernel's lease manager ([`qosgate_kernel::lease::Manager`]), time moves on the
//! [`des`](crate::des) queue from one arrival or kernel transition to the next, and the kernel's
//! events become one [`Record`] per lease.
//!
//! # How a request becomes a kernel lease
//! | LWF request | kernel [`Kind`](qosgate_kernel::lease::Kind) | what happens |
//! | --- | --- | --- |
//! | `<start/>`, preemptible | external, `Suspendable` | queued first come, first served; starts when its whole run fits; suspended and resumed when preempted |
//! | `<start/>`, not preemptible | external, `NonPreemptable`, deadline at the end of the kernel's clock | reserved at its earliest fit when it arrives; never preempted |
//! | `<now/>`, not preemptible | external, `NonPreemptable`, no deadline | starts at its arrival or is rejected; preempts nothing |
//! | `<exact time=T/>`, not preemptible | reservation at `T` (non-zero notice) | starts exactly at `T`, suspending preemptible leases if needed, or is rejected |
//! | `<now/>` or `<exact/>`, preemptible | none | rejected by the replay: the kernel never preempts reservations or immediate leases (Haizea supports only non-preemptible ARs) |
//!
//! A lease of `N` VMs takes `N` nodes, one VM per node; with a `<site>`, a VM that needs more of
//! a resource than a node has is rejected by the replay, and so is a lease wider than the
//! cluster (the kernel refuses it). A lease's `work` is its requested duration.
//!
//! # Time
//! Instants are the kernel's ticks (µs) from the workload's start; records give seconds. At each
//! instant the kernel first makes every transition due (completions, suspensions, resumptions,
//! queued leases starting), then the requests arriving then are submitted in `(arrival, file
//! order)`; the kernel starts queued leases after each submission. Suspension and resumption
//! take the [`Params::overheads`] per VM, with Haizea's timing: a lease preempted for a
//! reservation at `s` is suspended over `[s - t_s, s)`, and pays `t_r` when it resumes before
//! running exactly its remaining work.
//!
//! # The drain
//! Without [`Params::until`], the replay runs until no transition remains: every lease has
//! completed or been rejected, unless a queued lease's run would end past the kernel's clock
//! (it never starts). With `until = U`, arrivals after `U` are never submitted and the replay
//! stops after the transitions at `U`. Every lease still live then, and every request not
//! submitted, ends [`Outcome::Unfinished`] with its state as the reason.
//!
//! # Accounts
//! Every request gets exactly one [`Outcome`] and a reason. [`Accounts`] counts them
//! (`leases = completed + rejected + unfinished`) and the preemptions; the replay checks them
//! against the kernel's own accounts (submitted, completed, rejected, preemptions, live) and
//! fails if they differ.
//!
//! # Capacity
//! The kernel's manager holds at most [`LEASES`] live leases (queued, reserved, running or
//! suspended); a replay that needs more stops with an error naming the instant and the lease.
//! [`replay_in`] takes other capacities.

use std::collections::BTreeSet;

use anyhow::{Context, Result, bail, ensure};
use qosgate_kernel::Error;
use qosgate_kernel::lease::{
    Action, Class, End, Event, Kind as KernelKind, LeaseId, Manager, Notice, Overheads, Policy,
    Rules, Spec, State,
};
use qosgate_kernel::units::{Nodes, Ticks};
use serde::Serialize;

use crate::des::boxed::boxed;
use crate::des::nodes::Hold;
use crate::des::queue::Queue;
use crate::des::time::secs;
use crate::workload::lwf::{Request, Start, Workload};

/// Live leases the replay's manager holds at most.
pub const LEASES: usize = 4096;
/// Breakpoints of its slot table (the kernel's minimum for [`LEASES`]).
pub const BREAKPOINTS: usize = 2 * LEASES;

/// How to replay a workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Params {
    /// Nodes of the cluster; `None`: the site's.
    pub nodes: Option<Nodes>,
    /// How the kernel chooses the leases to preempt.
    pub policy: Policy,
    /// Per-VM times of suspension and resumption (the others are unused: no lease of a
    /// workload is cancelable or migratable).
    pub overheads: Overheads,
    /// Stop after this instant; `None`: when no transition remains.
    pub until: Option<Ticks>,
}

/// What kind of lease a request is (by its `<start>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// `<start/>`.
    BestEffort,
    /// `<start><now/></start>`.
    Immediate,
    /// `<start><exact/></start>`: an advance reservation.
    #[serde(rename = "ar")]
    Reservation,
}

impl Kind {
    /// The request's kind.
    pub fn of(r: &Request) -> Self {
        match r.start {
            Start::BestEffort => Self::BestEffort,
            Start::Now => Self::Immediate,
            Start::Exact(_) => Self::Reservation,
        }
    }

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::BestEffort => "best-effort",
            Self::Immediate => "immediate",
            Self::Reservation => "ar",
        }
    }
}

/// How a lease ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// It ran its whole requested duration.
    Completed,
    /// It never ran: the kernel or the replay turned it down.
    Rejected,
    /// Still queued, reserved, running or suspended when the replay stopped, or never
    /// submitted (it arrives after `until`).
    Unfinished,
}

impl Outcome {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::Completed => "completed",
            Self::Rejected => "rejected",
            Self::Unfinished => "unfinished",
        }
    }
}

/// One suspension of a lease.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Preemption {
    /// The lease it was suspended for (its label).
    pub by: String,
    /// The suspension, `[begin, end)` in seconds: its work stops at `begin`, its nodes are free
    /// at `end` (the start of the lease it made room for).
    pub suspend: [f64; 2],
    /// The resumption, `[begin, end)` in seconds: it holds its nodes again from `begin` and
    /// runs its remaining work from `end`; `None` if it did not resume before the replay
    /// stopped.
    pub resume: Option<[f64; 2]>,
}

/// One lease request and what became of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Record {
    /// Its label: its `id`, or `#n` for the file's `n`-th request without one.
    pub lease: String,
    /// Its position among the file's lease requests, from 1.
    pub request: usize,
    /// Its kind (`type` in the outputs).
    #[serde(rename = "type")]
    pub kind: Kind,
    /// Whether it may be preempted.
    pub preemptible: bool,
    /// VMs, one per node.
    pub nodes: Nodes,
    /// Arrival, seconds.
    pub arrival: f64,
    /// An advance reservation's start, seconds.
    pub requested_start: Option<f64>,
    /// Requested duration, seconds.
    #[serde(rename = "duration_s")]
    pub duration: f64,
    /// How it ended.
    pub outcome: Outcome,
    /// Why, in words.
    pub reason: String,
    /// When it first ran, seconds.
    pub start: Option<f64>,
    /// When it completed, seconds.
    pub end: Option<f64>,
    /// Its suspensions, in order.
    pub preemptions: Vec<Preemption>,
}

impl Record {
    /// The intervals it held its nodes, seconds, each with whether a suspension ended it (its
    /// nodes are free at the suspension's end): from its start to its first suspension's end,
    /// from each resumption's begin to the next suspension's end, and from the last to its end,
    /// or to `last` (the replay's last instant) if it never ended. None if it never started.
    pub fn holds(&self, last: f64) -> Vec<(Hold, bool)> {
        let count = self.nodes;
        let hold = |start, end| Hold { start, end, count };
        let Some(mut from) = self.start else {
            return Vec::new();
        };
        let mut holds = Vec::with_capacity(self.preemptions.len() + 1);
        for p in &self.preemptions {
            holds.push((hold(from, p.suspend[1]), true));
            match p.resume {
                Some([begin, _]) => from = begin,
                None => return holds,
            }
        }
        holds.push((hold(from, self.end.unwrap_or(last)), false));
        holds
    }
}

/// Counts of outcomes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Accounts {
    /// Requests in the workload.
    pub leases: u64,
    /// Ended `completed`.
    pub completed: u64,
    /// Ended `rejected`.
    pub rejected: u64,
    /// Ended `unfinished`.
    pub unfinished: u64,
    /// Suspensions decided, over all leases.
    pub preemptions: u64,
}

/// A replay's result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Replay {
    /// Nodes of the cluster.
    pub nodes: Nodes,
    /// One record per request, by arrival (ties in file order).
    pub records: Vec<Record>,
    /// The counts.
    pub accounts: Accounts,
    /// The instant the replay stopped, seconds: [`Params::until`] if leases were still live
    /// then (they hold their nodes until it), else its last transition.
    pub last: f64,
}

/// Replays `workload` under `params` with room for [`LEASES`] live leases.
///
/// Errors: no cluster size (no site and no `params.nodes`) or zero nodes; more live leases than
/// [`LEASES`]; an inconsistency between the kernel's events and accounts and the records (a
/// bug, named).
pub fn replay(workload: &Workload, params: &Params) -> Result<Replay> {
    replay_in::<LEASES, BREAKPOINTS>(workload, params)
}

/// [`replay`] with a manager of `L` live leases and `B` breakpoints (`B >= 2 L`): smaller ones
/// are cheaper to build, for tests and fuzzing.
///
/// Errors: those of [`replay`], with `L` for [`LEASES`].
pub fn replay_in<const L: usize, const B: usize>(
    workload: &Workload,
    params: &Params,
) -> Result<Replay> {
    Driver::<L, B>::run(workload, params)
}

/// What the queue wakes the driver for.
enum Wake {
    /// Request `i` (an index into the workload's requests) arrives.
    Arrive(usize),
    /// The kernel has a transition due.
    Kernel,
}

/// A suspension as the kernel's events tell it, in ticks.
struct Suspension {
    by: usize,
    begin: Ticks,
    end: Ticks,
    resume: Option<Ticks>,
    run: Option<Ticks>,
}

/// What the driver knows of a request.
#[derive(Default)]
struct Track {
    kernel: Option<LeaseId>,
    start: Option<Ticks>,
    end: Option<(Ticks, Outcome, String)>,
    suspensions: Vec<Suspension>,
}

struct Driver<'w, const L: usize, const B: usize> {
    workload: &'w Workload,
    params: &'w Params,
    manager: Box<Manager<L, B>>,
    tracks: Vec<Track>,
    /// The request of each kernel id.
    requests: Vec<usize>,
    /// Requests the replay rejected without the kernel (it never saw them).
    turned_down: u64,
    queue: Queue<Wake>,
    pending: BTreeSet<Ticks>,
}

impl<'w, const L: usize, const B: usize> Driver<'w, L, B> {
    fn run(workload: &'w Workload, params: &'w Params) -> Result<Replay> {
        let nodes = match (params.nodes, &workload.site) {
            (Some(n), _) => n,
            (None, Some(site)) => Nodes::try_from(site.nodes()).with_context(|| {
                format!(
                    "the site has {} nodes, more than {}",
                    site.nodes(),
                    Nodes::MAX
                )
            })?,
            (None, None) => bail!("the workload has no <site>: the cluster's nodes must be given"),
        };
        ensure!(nodes >= 1, "the cluster needs at least one node");
        let rules = Rules::new(params.policy);
        let manager = boxed(|slot| Manager::<L, B>::init(slot, nodes, params.overheads, rules))
            .map_err(|e| anyhow::anyhow!("setting up the lease manager: {e}"))?;
        let mut queue = Queue::default();
        for (i, r) in workload.requests.iter().enumerate() {
            if params.until.is_none_or(|u| r.arrival <= u) {
                queue.at(r.arrival, Wake::Arrive(i));
            }
        }
        let mut d = Self {
            workload,
            params,
            manager,
            tracks: workload.requests.iter().map(|_| Track::default()).collect(),
            requests: Vec::new(),
            turned_down: 0,
            queue,
            pending: BTreeSet::new(),
        };
        while let Some(wake) = d.queue.pop() {
            let now = d.queue.now();
            let mut events = Vec::new();
            match wake {
                Wake::Arrive(i) => d.arrive(i, now, &mut events)?,
                Wake::Kernel => {
                    d.pending.remove(&now);
                    d.manager
                        .advance(now, &mut |e| events.push(e))
                        .map_err(|e| anyhow::anyhow!("advancing to {} s: {e}", secs(now)))?;
                }
            }
            d.record(&events)?;
            if let Some(t) = d.manager.next_event()
                && params.until.is_none_or(|u| t <= u)
                && d.pending.insert(t)
            {
                d.queue.at(t, Wake::Kernel);
            }
        }
        d.finish()
    }

    /// Submits request `i` at `now`, or rejects it if the kernel cannot take it.
    fn arrive(&mut self, i: usize, now: Ticks, events: &mut Vec<Event>) -> Result<()> {
        let r = &self.workload.requests[i];
        let kind = match (r.start, r.preemptible) {
            (Start::BestEffort, true) => KernelKind::External {
                class: Class::Suspendable,
                deadline: None,
            },
            (Start::BestEffort, false) => KernelKind::External {
                class: Class::NonPreemptable,
                deadline: Some(Ticks::MAX),
            },
            (Start::Now, false) => KernelKind::External {
                class: Class::NonPreemptable,
                deadline: None,
            },
            (Start::Exact(s), false) => KernelKind::Reservation(Notice::At(s)),
            (Start::Now | Start::Exact(_), true) => {
                let what = Kind::of(r).name();
                return self.turn_down(
                    i,
                    now,
                    format!(
                        "a preemptible {what} lease is not supported: the kernel never preempts \
                         immediate leases or reservations"
                    ),
                );
            }
        };
        if let Some(why) = self.oversized(r) {
            return self.turn_down(i, now, why);
        }
        let spec = Spec {
            nodes: r.nodes,
            work: r.duration,
            kind,
        };
        let expected = u32::try_from(self.requests.len()).ok().map(LeaseId::new);
        match self.manager.submit(now, spec, &mut |e| events.push(e)) {
            Ok(id) => {
                ensure!(
                    Some(id) == expected,
                    "lease {} got kernel id {id}, not {expected:?}",
                    r.label()
                );
                self.requests.push(i);
                self.tracks[i].kernel = Some(id);
                Ok(())
            }
            Err(refused) => match refused.reason {
                Error::TaskTooLarge => self.turn_down(
                    i,
                    now,
                    format!(
                        "it needs {} nodes; the cluster has {}",
                        r.nodes,
                        self.manager.nodes()
                    ),
                ),
                Error::Overflow => {
                    self.turn_down(i, now, "its end lies beyond the kernel's clock".into())
                }
                Error::Full => bail!(
                    "lease {} at {} s: the lease manager holds at most {L} live leases",
                    r.label(),
                    secs(now)
                ),
                e => bail!(
                    "the kernel refused lease {} at {} s: {e}",
                    r.label(),
                    secs(now)
                ),
            },
        }
    }

    /// Why no node can hold one of `r`'s VMs, if so (only with a site).
    fn oversized(&self, r: &Request) -> Option<String> {
        let site = self.workload.site.as_ref()?;
        let node = site.node_sets.first()?;
        r.node_sets.iter().find_map(|set| {
            set.resources
                .iter()
                .find(|res| res.amount > node.amount(&res.kind))
                .map(|res| {
                    format!(
                        "a VM of its node-set at {} needs {} {}; a node has {}",
                        set.at,
                        res.amount,
                        res.kind,
                        node.amount(&res.kind)
                    )
                })
        })
    }

    /// Ends request `i` as rejected by the replay itself (the kernel never saw it).
    fn turn_down(&mut self, i: usize, now: Ticks, why: String) -> Result<()> {
        self.turned_down += 1;
        self.tracks[i].end = Some((now, Outcome::Rejected, why));
        Ok(())
    }

    /// The request of kernel lease `id`.
    fn request(&self, id: LeaseId) -> Result<usize> {
        usize::try_from(id.get())
            .ok()
            .and_then(|k| self.requests.get(k).copied())
            .with_context(|| format!("an event of unknown kernel lease {id}"))
    }

    /// Folds the kernel's events into the tracks.
    fn record(&mut self, events: &[Event]) -> Result<()> {
        for e in events {
            match *e {
                Event::Submitted { id, at, state, .. } => {
                    let i = self.request(id)?;
                    if let State::Done(end) = state {
                        self.ended(i, at, end)?;
                    }
                }
                Event::Preempted { id, stop } => {
                    let i = self.request(id)?;
                    let by = self.request(stop.by)?;
                    ensure!(
                        stop.action == Action::Suspend,
                        "lease {} preempted by {:?}: only suspensions are expected",
                        self.label(i),
                        stop.action
                    );
                    self.tracks[i].suspensions.push(Suspension {
                        by,
                        begin: stop.begin,
                        end: stop.end,
                        resume: None,
                        run: None,
                    });
                }
                Event::Changed {
                    id, at, from, to, ..
                } => {
                    let i = self.request(id)?;
                    if let State::Done(end) = to {
                        self.ended(i, at, end)?;
                        continue;
                    }
                    let track = &mut self.tracks[i];
                    match (from, to, track.suspensions.last_mut()) {
                        (State::Queued | State::Reserved, State::Running, _) => {
                            track.start = Some(at);
                        }
                        (State::Running, State::Stopping(_), Some(s)) if s.begin == at => {}
                        (State::Stopping(_), State::Suspended, Some(s)) if s.end == at => {}
                        (State::Suspended, State::Resuming, Some(s)) => s.resume = Some(at),
                        (State::Resuming, State::Running, Some(s)) => s.run = Some(at),
                        (from, to, _) => bail!(
                            "lease {} went from {from:?} to {to:?} at {} s, against its \
                             preemption plan",
                            self.label(i),
                            secs(at)
                        ),
                    }
                }
            }
        }
        Ok(())
    }

    /// Records how the kernel ended request `i`.
    fn ended(&mut self, i: usize, at: Ticks, end: End) -> Result<()> {
        let r = &self.workload.requests[i];
        let (outcome, why) = match end {
            End::Completed => {
                let runs = self.tracks[i].suspensions.len() + 1;
                let mut why = format!("ran its {} s", secs(r.duration));
                if runs > 1 {
                    why.push_str(&format!(" in {runs} runs"));
                }
                (Outcome::Completed, why)
            }
            End::Rejected(Error::NotFree) => (
                Outcome::Rejected,
                match r.start {
                    Start::Exact(s) => {
                        let notice = s.saturating_sub(r.arrival);
                        let suspend = self.params.overheads.suspend;
                        if notice < suspend {
                            format!(
                                "too few free nodes at its start ({} s), and its notice ({} s) \
                                 is shorter than a suspension ({} s)",
                                secs(s),
                                secs(notice),
                                secs(suspend)
                            )
                        } else {
                            format!(
                                "too few nodes at its start ({} s), even suspending preemptible \
                                 leases",
                                secs(s)
                            )
                        }
                    }
                    Start::Now => "too few free nodes at its arrival; an immediate lease \
                                   neither waits nor preempts"
                        .into(),
                    Start::BestEffort => "the kernel found no start for it".into(),
                },
            ),
            End::Rejected(e) => (Outcome::Rejected, format!("the kernel rejected it: {e}")),
            End::Cancelled(_) | End::Migrated | End::Failed => bail!(
                "lease {} ended {end:?} at {} s, which no lease of a workload can",
                r.label(),
                secs(at)
            ),
        };
        let track = &mut self.tracks[i];
        ensure!(
            track.end.is_none(),
            "lease {} ended twice (at {} s)",
            r.label(),
            secs(at)
        );
        track.end = Some((at, outcome, why));
        Ok(())
    }

    fn label(&self, i: usize) -> String {
        self.workload.requests[i].label()
    }

    /// Why request `i` is unfinished: its kernel state, or that it was never submitted.
    fn unfinished(&self, i: usize) -> String {
        let r = &self.workload.requests[i];
        let when = match self.params.until {
            Some(u) => format!("when the replay stopped at {} s", secs(u)),
            None => "when no event remained (its run would end beyond the kernel's clock)".into(),
        };
        let state = self.tracks[i]
            .kernel
            .and_then(|id| self.manager.lease(id))
            .map(|l| l.state());
        match state {
            None => format!(
                "it arrives at {} s, after the replay stopped",
                secs(r.arrival)
            ),
            Some(State::Queued) => format!("queued {when}"),
            Some(State::Reserved) => format!("reserved, not yet started, {when}"),
            Some(State::Running) => format!("running {when}"),
            Some(State::Stopping(_)) => format!("being suspended {when}"),
            Some(State::Suspended) => format!("suspended, waiting to resume, {when}"),
            Some(State::Resuming) => format!("resuming {when}"),
            Some(State::Done(end)) => format!("ended {end:?} without an event {when}"),
        }
    }

    /// The records and the accounts, checked against the kernel's.
    fn finish(self) -> Result<Replay> {
        let mut records = Vec::with_capacity(self.tracks.len());
        let mut a = Accounts {
            leases: self.tracks.len() as u64,
            ..Accounts::default()
        };
        for (i, (r, t)) in self.workload.requests.iter().zip(&self.tracks).enumerate() {
            let (end, outcome, reason) = match &t.end {
                Some((at, outcome, why)) => (
                    (*outcome == Outcome::Completed).then_some(*at),
                    *outcome,
                    why.clone(),
                ),
                None => (None, Outcome::Unfinished, self.unfinished(i)),
            };
            match outcome {
                Outcome::Completed => a.completed += 1,
                Outcome::Rejected => a.rejected += 1,
                Outcome::Unfinished => a.unfinished += 1,
            }
            a.preemptions += t.suspensions.len() as u64;
            let preemptions = t
                .suspensions
                .iter()
                .map(|s| Preemption {
                    by: self.label(s.by),
                    suspend: [secs(s.begin), secs(s.end)],
                    resume: s.resume.zip(s.run).map(|(b, e)| [secs(b), secs(e)]),
                })
                .collect();
            records.push(Record {
                lease: r.label(),
                request: r.number,
                kind: Kind::of(r),
                preemptible: r.preemptible,
                nodes: r.nodes,
                arrival: secs(r.arrival),
                requested_start: match r.start {
                    Start::Exact(s) => Some(secs(s)),
                    Start::BestEffort | Start::Now => None,
                },
                duration: secs(r.duration),
                outcome,
                reason,
                start: t.start.map(secs),
                end: end.map(secs),
                preemptions,
            });
        }
        let k = self.manager.accounts();
        let live = self.manager.leases().len() as u64;
        let checks = [
            ("submitted", k.submitted, self.requests.len() as u64),
            ("completed", k.completed, a.completed),
            ("rejected", k.rejected + self.turned_down, a.rejected),
            ("preemptions", k.preemptions, a.preemptions),
            ("submitted = ended + live", k.submitted, k.ended() + live),
            (
                "leases = completed + rejected + unfinished",
                a.leases,
                a.completed + a.rejected + a.unfinished,
            ),
        ];
        for (what, kernel, replay) in checks {
            ensure!(
                kernel == replay,
                "the accounts do not add up: {what}: {kernel} against {replay}"
            );
        }
        Ok(Replay {
            nodes: self.manager.nodes(),
            records,
            accounts: a,
            last: secs(match self.params.until {
                Some(u) if live > 0 => u.max(self.manager.now()),
                _ => self.manager.now(),
            }),
        })
    }
}
