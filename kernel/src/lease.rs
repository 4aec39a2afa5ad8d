//! Leases of one cluster: admission, start, completion and preemption with Haizea's timing
//! (issue 4, Kernel items 3 and 4; seed 000 Sec. 2.1 and 5, seed 001 Sec. III, seed 003 Sec. 2.2).
//!
//! A [`Manager`] owns the [`SlotTable`] of one cluster of identical nodes and a fixed table of
//! live leases. The caller passes `now` into every call and drives time with
//! [`Manager::next_event`] and [`Manager::advance`]; everything that happens is reported, with
//! its instant, through an `out: FnMut(Event)` callback. The kernel has no clock.
//!
//! # Units
//! Times and durations in [`Ticks`] (µs); a lease's `work` is its run time on this cluster, in
//! ticks (the caller converts MI with [`crate::units::exec_ticks`]). Nodes are [`Nodes`].
//! Overheads ([`Overheads`]) default to the paper's (seed 000 Sec. 5, after Sotomayor et al.):
//! suspend 160 s, resume 126 s, migrate 372.5 s, cancel 0.
//!
//! # Kinds of lease ([`Kind`])
//! - [`Kind::Local`]: a local request (seed 000). Never preempted. Starts now if it fits, else
//!   preempts external leases (below), else waits for its earliest fit (a reservation).
//! - [`Kind::External`] of a [`Class`] (seed 000 Sec. 2.1):
//!   best effort (`Cancelable`, `Suspendable`) is queued and started first come, first served
//!   (strict order of submission: the head of the queue starts as soon as its whole run fits;
//!   no lease overtakes it); deadline-constrained (`Migratable`, `NonPreemptable`, "DC") starts
//!   at its earliest fit if that meets its `deadline` (an instant by which it must complete), or
//!   now if it has none; otherwise it is **rejected** ("DC requests are rejected if there is
//!   not enough resources for them to start").
//! - [`Kind::Reservation`]: an advance reservation (seed 003). Never preempted. With
//!   [`Notice::At`] (non-zero advance notice) it must start exactly at its instant: it fits,
//!   or preempts, or is rejected. With [`Notice::Zero`] it starts as soon as possible, like a
//!   local request.
//!
//! # Preemption
//! A local request or a reservation that does not fit preempts running `Cancelable`,
//! `Suspendable` and `Migratable` leases (never `NonPreemptable`, local or reservation leases),
//! chosen by [`crate::preempt::select`] under the manager's [`Policy`] (MOML, MOV or MLIP),
//! which prefers less valuable types (Cancelable, then Suspendable, then Migratable). A
//! candidate's overhead is node-ticks: its nodes times the per-VM time its preemption costs
//! ([`Overheads::cost`]: `t_c`, `t_s + t_r`, `t_m`). At most [`MAX_CANDIDATES`] candidates are
//! considered, less valuable classes first, then in submission order; at most [`SEARCH`]
//! candidate sets are enumerated.
//!
//! **Timing (Haizea's convention).** A lease preempted for a request that starts at `s` stops so
//! that its stop action (suspension `t_s`, migration `t_m`, cancellation `t_c`) *ends at `s`*:
//! it runs until `s - t`, which is when its work stops counting, holds its nodes during
//! `[s - t, s)`, and releases them at `s`. For a request with no start time (local, zero
//! notice) the action begins at once and the request starts when the last chosen lease has
//! released its nodes (`now + max t`). A suspended lease is re-queued in its submission place;
//! when its turn comes and nodes are free for `t_r + remaining`, it pays the resume overhead
//! `t_r` (holding its nodes) and then runs exactly its remaining work. A cancelled lease ends
//! `Cancelled`; a migrated lease ends `Migrated` and the [`Event`] hands its remaining work back
//! to the caller, who decides where it goes (a new lease elsewhere).
//!
//! A running lease is a candidate only if it is not already being preempted; for a reservation
//! with notice, only if its action can end at `s` without beginning before `now`; and only if
//! the action frees something: the lease would still be running when the action ends, and it
//! started before that instant (a lease started at this very instant is not cancelled at it).
//!
//! **How many nodes to free.** Preempting a lease frees its nodes from its release to its end.
//! Let `W` be the window the request may occupy (`[s, s + work)`, or
//! `[now, now + max t + work)` for an immediate request) and `g(t)` the free nodes at `t` if
//! every candidate were preempted. The request fits after preempting a set `P` if the kept
//! candidates hold at most `min_W g - nodes` nodes: so `need = sum(candidates) - (min_W g -
//! nodes)`. Every candidate runs at `W`'s first instant, so this is exact whenever `g` is
//! smallest there: for a reservation with notice, when no other reservation begins (and no
//! node goes down) inside `W`; for an immediate request, when in addition no lease that cannot
//! be preempted ends while the stop actions run. Otherwise it is safe (the request always
//! fits) but may preempt more than needed.
//!
//! If preemption cannot make room, a local or zero-notice request is reserved at its earliest
//! fit without preemption, and a reservation with notice is rejected (seed 003: "the only case
//! where an AR task is rejected").
//!
//! # States ([`State`]) and events ([`Event`])
//! `Queued` (best effort, waiting), `Reserved` (nodes held from a future instant), `Running`,
//! `Stopping(action)` (suspending, migrating or cancelling: nodes held, no work done),
//! `Suspended` (queued with remaining work), `Resuming` (paying `t_r`), `Done(end)`.
//! Every change is an [`Event::Changed`] with its instant; submission is [`Event::Submitted`]
//! and every preemption decision an [`Event::Preempted`] (emitted at the decision, with the
//! action's instants). `Changed` events come in non-decreasing instants.
//!
//! # Invariants
//! - Every submitted lease ends exactly once, as `Completed`, `Cancelled` (by preemption or the
//!   caller), `Migrated`, `Rejected` (a DC request that could not start in time, a
//!   reservation whose nodes are held by non-preemptable leases) or `Failed` (reported by the
//!   caller); [`Accounts`] counts them, and `submitted = ended + live` at all times.
//! - `done + remaining = work` for every lease; a completed lease ran exactly `work` ticks, in
//!   at most one run plus one run per suspension. (A queued lease whose run would end past
//!   `Ticks::MAX` never starts: it waits until the caller cancels it.)
//! - The slot table holds exactly the live leases' reservations (`Reserved`, `Running`,
//!   `Stopping`, `Resuming` each hold one interval; `Queued` and `Suspended` none), so nodes in
//!   use never exceed the cluster's, and it needs at most `2 LEASES` breakpoints (checked at
//!   compile time: `BREAKPOINTS >= 2 LEASES`).
//!
//! # Errors
//! A refused submission hands the [`Spec`] back in [`Refused`]: `TimeWentBackwards`;
//! `InvalidParameter(Capacity)` (no nodes), [`Error::TaskTooLarge`] (more nodes than the
//! cluster), `InvalidParameter(Work)` (no work), `InvalidParameter(Delay)` (a deadline on a
//! best-effort lease, a reservation in the past); [`Error::Overflow`] (an end past
//! `Ticks::MAX`); [`Error::Full`] (`LEASES` live leases, or no lease id left). A rejection is
//! not a refusal: the lease gets an id and ends `Rejected`.
//!
//! # Cost and memory
//! `L` = `LEASES`, `B` = `BREAKPOINTS`. `advance` makes at most six transitions per lease per
//! call (stops are only decided by `submit`), each `O(L)`, and starts queued leases in `O(L + B)`
//! each: `O(L (L + B))` per call. `submit` adds one preemption: collecting candidates `O(L)`,
//! the need `O((B + 64) 64)`, the selection (see [`crate::preempt`], at most about 33,000 steps),
//! applying `O(64 B)`. No recursion, no allocation. Memory: a [`Lease`] is 120 bytes and
//! `size_of::<Manager<64, 128>>()` is 9,856 bytes, on x86-64 and `thumbv7em` alike (64 leases,
//! the slot table's 2,064, about 100 more); an [`Event`] is 64 bytes. A preemption uses about
//! 6.5 KiB of stack: 3.5 KiB for the candidates and their timings, 1.2 KiB for the search and
//! 2 KiB for MOML's overheads (`16 SEARCH` bytes).

use heapless::Vec;

use crate::error::{Error, Param, Refused};
use crate::preempt::{self, Candidate, MAX_CANDIDATES};
pub use crate::preempt::{Class, Policy};
use crate::slots::{SlotTable, Span};
use crate::units::{Nodes, TICKS_PER_SECOND, Ticks};
use crate::vecops;

/// A lease's handle: submission order, from 0, never reused.
pub type LeaseId = u32;

/// Candidate sets enumerated per preemption (the `SETS` bound of [`preempt::select`]).
pub const SEARCH: usize = 128;

/// Per-VM times of preemption actions, in ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Overheads {
    /// Suspending a VM (`t_s`).
    pub suspend: Ticks,
    /// Resuming a suspended VM (`t_r`).
    pub resume: Ticks,
    /// Migrating a VM away.
    pub migrate: Ticks,
    /// Cancelling (terminating) a VM.
    pub cancel: Ticks,
}

impl Overheads {
    /// Seed 000 Sec. 5: suspend 160 s, resume 126 s, migrate 372.5 s, cancel negligible (0).
    pub const PAPER: Overheads = Overheads {
        suspend: 160 * TICKS_PER_SECOND,
        resume: 126 * TICKS_PER_SECOND,
        migrate: 372 * TICKS_PER_SECOND + TICKS_PER_SECOND / 2,
        cancel: 0,
    };

    /// How long `action` holds the lease's nodes before releasing them.
    pub const fn stop(&self, action: Action) -> Ticks {
        match action {
            Action::Cancel => self.cancel,
            Action::Suspend => self.suspend,
            Action::Migrate => self.migrate,
        }
    }

    /// The per-VM time a preemption by `action` costs in all (what the policies weigh):
    /// `t_c`, `t_s + t_r` (saturating), `t_m`.
    pub const fn cost(&self, action: Action) -> Ticks {
        match action {
            Action::Suspend => self.suspend.saturating_add(self.resume),
            _ => self.stop(action),
        }
    }
}

impl Default for Overheads {
    fn default() -> Self {
        Self::PAPER
    }
}

/// What preempting a lease does to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Action {
    /// Terminate it (Cancelable).
    Cancel,
    /// Suspend it and re-queue it with its remaining work (Suspendable).
    Suspend,
    /// Hand it back to the caller with its remaining work (Migratable).
    Migrate,
}

impl Action {
    /// The action for a lease of `class`; `None` for `NonPreemptable`.
    pub const fn of(class: Class) -> Option<Action> {
        match class {
            Class::Cancelable => Some(Action::Cancel),
            Class::Suspendable => Some(Action::Suspend),
            Class::Migratable => Some(Action::Migrate),
            Class::NonPreemptable => None,
        }
    }
}

/// When an advance reservation starts (seed 003).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Notice {
    /// Zero advance notice: as soon as possible, preempting best-effort leases.
    Zero,
    /// Non-zero advance notice: exactly at this instant.
    At(Ticks),
}

/// Who asks for a lease, and on what terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Kind {
    /// A local request: never preempted; preempts external leases.
    Local,
    /// An external request of one of seed 000's four types. `deadline` (an instant by which it
    /// must complete) applies to the DC types (`Migratable`, `NonPreemptable`) only.
    External {
        /// Its type.
        class: Class,
        /// Completion deadline of a DC lease; `None`: it must start at once.
        deadline: Option<Ticks>,
    },
    /// An advance reservation: never preempted; preempts external leases.
    Reservation(Notice),
}

/// A lease request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Spec {
    /// Nodes (VMs), at least 1 and at most the cluster's.
    pub nodes: Nodes,
    /// Run time on this cluster, ticks, at least 1.
    pub work: Ticks,
    /// Its kind.
    pub kind: Kind,
}

impl Spec {
    /// Its preemption class: local leases and reservations are `NonPreemptable`.
    pub const fn class(&self) -> Class {
        match self.kind {
            Kind::External { class, .. } => class,
            Kind::Local | Kind::Reservation(_) => Class::NonPreemptable,
        }
    }
}

/// Why a lease was cancelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Cause {
    /// Preempted for this lease.
    Preempted(LeaseId),
    /// The caller cancelled it.
    Caller,
}

/// How a lease ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum End {
    /// It ran all its work.
    Completed,
    /// Terminated before completing.
    Cancelled(Cause),
    /// Preempted and handed back to the caller with its remaining work.
    Migrated,
    /// Never started: [`Error::NotFree`] (no room when it had to start) or
    /// [`Error::DeadlineUnmet`] (its earliest fit ends after its deadline).
    Rejected(Error),
    /// The caller reported that it failed (its nodes failed).
    Failed,
}

/// Where a lease is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum State {
    /// Best effort, waiting for nodes; never ran.
    Queued,
    /// Nodes reserved from a future instant.
    Reserved,
    /// Running: its work counts.
    Running,
    /// Its preemption action runs: nodes held, no work done.
    Stopping(Action),
    /// Suspended: queued again with its remaining work, holding no node.
    Suspended,
    /// Paying the resume overhead before running its remaining work.
    Resuming,
    /// Ended.
    Done(End),
}

/// A decided preemption of a running lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Stop {
    /// The request it is preempted for.
    pub by: LeaseId,
    /// What happens to it.
    pub action: Action,
    /// When the action begins: its work stops counting.
    pub begin: Ticks,
    /// When the action ends and its nodes are free.
    pub end: Ticks,
}

/// What happened, reported through the `out` callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Event {
    /// A lease got an id; `state` is `Queued`, `Reserved` or `Done(Rejected(_))`.
    Submitted {
        /// The lease.
        id: LeaseId,
        /// Submission instant.
        at: Ticks,
        /// Its request.
        spec: Spec,
        /// Its first state.
        state: State,
    },
    /// A lease changed state at `at`. `to == Done(Migrated)` hands back `remaining` work.
    Changed {
        /// The lease.
        id: LeaseId,
        /// The instant of the change.
        at: Ticks,
        /// Its state before.
        from: State,
        /// Its state after.
        to: State,
        /// Its remaining work after the change (ticks).
        remaining: Ticks,
    },
    /// A running lease will be preempted (decided at the submission of `stop.by`).
    Preempted {
        /// The lease preempted.
        id: LeaseId,
        /// How and when.
        stop: Stop,
    },
}

/// One live lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Lease {
    id: LeaseId,
    spec: Spec,
    state: State,
    done: Ticks,
    hold: Option<Span>,
    /// `Reserved`: unused; `Running`: when the current run began; `Stopping`: when the action
    /// ends; `Resuming`: when the run begins.
    mark: Ticks,
    stop: Option<Stop>,
}

impl Lease {
    /// Its id.
    pub fn id(&self) -> LeaseId {
        self.id
    }

    /// Its request.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// Its state.
    pub fn state(&self) -> State {
        self.state
    }

    /// Run time completed before its current run began (while `Running` since `t`, it has
    /// done `done() + (now - t)`).
    pub fn done(&self) -> Ticks {
        self.done
    }

    /// `work - done()`.
    pub fn remaining(&self) -> Ticks {
        self.spec.work.saturating_sub(self.done)
    }

    /// The interval of its reservation in the slot table, if it holds nodes (`Reserved`,
    /// `Running`, `Stopping`, `Resuming`).
    pub fn hold(&self) -> Option<Span> {
        self.hold
    }

    /// Its pending or current preemption.
    pub fn stop(&self) -> Option<Stop> {
        self.stop
    }

    /// The instant of its next transition, if it has one by itself (queued and suspended
    /// leases wait for nodes).
    fn next(&self) -> Option<Ticks> {
        match self.state {
            State::Reserved => self.hold.map(|h| h.start),
            State::Running => Some(match self.stop {
                Some(stop) => stop.begin,
                None => self.mark.saturating_add(self.remaining()),
            }),
            State::Stopping(_) | State::Resuming => Some(self.mark),
            State::Queued | State::Suspended | State::Done(_) => None,
        }
    }
}

/// Counts of leases by outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Accounts {
    /// Leases given an id.
    pub submitted: u64,
    /// Ended `Completed`.
    pub completed: u64,
    /// Ended `Cancelled` (preempted or by the caller).
    pub cancelled: u64,
    /// Ended `Migrated`.
    pub migrated: u64,
    /// Ended `Rejected`.
    pub rejected: u64,
    /// Ended `Failed`.
    pub failed: u64,
    /// Preemptions decided (a lease may be suspended and preempted again).
    pub preemptions: u64,
}

impl Accounts {
    /// Leases that ended, whatever the outcome.
    pub fn ended(&self) -> u64 {
        [
            self.completed,
            self.cancelled,
            self.migrated,
            self.rejected,
            self.failed,
        ]
        .iter()
        .fold(0u64, |a, &b| a.saturating_add(b))
    }

    fn count(&mut self, end: End) {
        let n = match end {
            End::Completed => &mut self.completed,
            End::Cancelled(_) => &mut self.cancelled,
            End::Migrated => &mut self.migrated,
            End::Rejected(_) => &mut self.rejected,
            End::Failed => &mut self.failed,
        };
        *n = n.saturating_add(1);
    }
}

/// A running lease that could be preempted, and when its action would run.
#[derive(Clone, Copy)]
struct Victim {
    index: usize,
    nodes: Nodes,
    action: Action,
    begin: Ticks,
    release: Ticks,
    run_end: Ticks,
}

/// What admission decided for a request.
enum Placement {
    Queue,
    Hold(Span),
    Reject(Error),
}

/// The leases of one cluster of identical nodes: at most `LEASES` live leases, a slot table of
/// `BREAKPOINTS` breakpoints (see the module's documentation).
#[derive(Clone, Debug)]
pub struct Manager<const LEASES: usize, const BREAKPOINTS: usize> {
    table: SlotTable<BREAKPOINTS>,
    leases: Vec<Lease, LEASES>,
    overheads: Overheads,
    policy: Policy,
    now: Ticks,
    next_id: LeaseId,
    accounts: Accounts,
}

impl<const LEASES: usize, const BREAKPOINTS: usize> Manager<LEASES, BREAKPOINTS> {
    /// A cluster of `nodes` idle nodes at time 0.
    ///
    /// Errors: `InvalidParameter(Capacity)` if `nodes` is zero.
    pub fn new(nodes: Nodes, overheads: Overheads, policy: Policy) -> Result<Self, Error> {
        const {
            assert!(LEASES >= 1, "room for one lease");
            assert!(
                BREAKPOINTS >= 2 * LEASES,
                "every live lease may need two breakpoints"
            );
        };
        Ok(Self {
            table: SlotTable::new(nodes)?,
            leases: Vec::new(),
            overheads,
            policy,
            now: 0,
            next_id: 0,
            accounts: Accounts::default(),
        })
    }

    /// The cluster's nodes.
    pub fn nodes(&self) -> Nodes {
        self.table.nodes()
    }

    /// The latest `now` seen.
    pub fn now(&self) -> Ticks {
        self.now
    }

    /// The overheads in force.
    pub fn overheads(&self) -> &Overheads {
        &self.overheads
    }

    /// The preemption policy in force.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The slot table: exactly the live leases' reservations.
    pub fn table(&self) -> &SlotTable<BREAKPOINTS> {
        &self.table
    }

    /// The live leases, in submission order.
    pub fn leases(&self) -> &[Lease] {
        &self.leases
    }

    /// The live lease `id`, if any. `O(L)`.
    pub fn lease(&self, id: LeaseId) -> Option<&Lease> {
        self.leases.iter().find(|l| l.id == id)
    }

    /// The counts of outcomes.
    pub fn accounts(&self) -> Accounts {
        self.accounts
    }

    /// The instant of the next transition, if any: call [`advance`](Self::advance) with it.
    /// `O(L)`.
    pub fn next_event(&self) -> Option<Ticks> {
        self.leases.iter().filter_map(Lease::next).min()
    }

    /// Processes every transition up to and including `now`, each at its own instant, starting
    /// queued leases as nodes free up.
    ///
    /// Errors: [`Error::TimeWentBackwards`] if `now` is before an earlier call's.
    pub fn advance(&mut self, now: Ticks, out: &mut impl FnMut(Event)) -> Result<(), Error> {
        if now < self.now {
            return Err(Error::TimeWentBackwards);
        }
        self.run(now, out);
        self.now = now;
        Ok(())
    }

    /// Submits a request at `now` (after advancing to `now`) and returns its id. It is queued,
    /// reserved (now or later, preempting leases if needed) or rejected; see the module's
    /// documentation for the rules.
    ///
    /// Errors (the request handed back, no lease created; the advance to `now` stands): see the
    /// module's list.
    pub fn submit(
        &mut self,
        now: Ticks,
        spec: Spec,
        out: &mut impl FnMut(Event),
    ) -> Result<LeaseId, Refused<Spec>> {
        let refuse = |reason| Refused::new(reason, spec);
        if now < self.now {
            return Err(refuse(Error::TimeWentBackwards));
        }
        self.validate(now, &spec).map_err(refuse)?;
        self.run(now, out);
        self.now = now;
        if self.leases.is_full() {
            return Err(refuse(Error::Full));
        }
        let id = self.next_id;
        let next = id.checked_add(1).ok_or(refuse(Error::Full))?;
        let placement = self.place(now, id, &spec).map_err(refuse)?;
        self.next_id = next;
        self.accounts.submitted = self.accounts.submitted.saturating_add(1);
        let (state, hold) = match placement {
            Placement::Queue => (State::Queued, None),
            Placement::Hold(span) => (State::Reserved, Some(span)),
            Placement::Reject(e) => (State::Done(End::Rejected(e)), None),
        };
        out(Event::Submitted {
            id,
            at: now,
            spec,
            state,
        });
        if let State::Done(end) = state {
            self.accounts.count(end);
        } else {
            // Cannot fail: checked not full above.
            let _ = self.leases.push(Lease {
                id,
                spec,
                state,
                done: 0,
                hold,
                mark: now,
                stop: None,
            });
        }
        for l in &self.leases {
            if let Some(stop) = l.stop.filter(|s| s.by == id) {
                out(Event::Preempted { id: l.id, stop });
            }
        }
        self.settle(now, out);
        Ok(id)
    }

    /// Cancels a live lease at `now` (after advancing to `now`): it ends `Cancelled(Caller)`
    /// and its nodes are free from `now`. Preemptions already decided for it stand.
    ///
    /// Errors: [`Error::TimeWentBackwards`]; [`Error::Unknown`] if no live lease has this id.
    pub fn cancel(
        &mut self,
        now: Ticks,
        id: LeaseId,
        out: &mut impl FnMut(Event),
    ) -> Result<(), Error> {
        self.end_now(now, id, End::Cancelled(Cause::Caller), out)
    }

    /// Reports that a live lease failed at `now` (its nodes failed): it ends `Failed` and its
    /// reservation is released. Taking the nodes down is the caller's business.
    ///
    /// Errors: [`Error::TimeWentBackwards`]; [`Error::Unknown`] if no live lease has this id.
    pub fn fail(
        &mut self,
        now: Ticks,
        id: LeaseId,
        out: &mut impl FnMut(Event),
    ) -> Result<(), Error> {
        self.end_now(now, id, End::Failed, out)
    }

    fn end_now(
        &mut self,
        now: Ticks,
        id: LeaseId,
        end: End,
        out: &mut impl FnMut(Event),
    ) -> Result<(), Error> {
        if now < self.now {
            return Err(Error::TimeWentBackwards);
        }
        self.run(now, out);
        self.now = now;
        let i = self
            .leases
            .iter()
            .position(|l| l.id == id)
            .ok_or(Error::Unknown)?;
        if let Some(l) = self.leases.get_mut(i).filter(|l| l.state == State::Running) {
            // Its work counts until now.
            l.done = l.done.saturating_add(now.saturating_sub(l.mark));
        }
        self.finish(i, now, end, out);
        self.settle(now, out);
        Ok(())
    }

    fn validate(&self, now: Ticks, spec: &Spec) -> Result<(), Error> {
        if spec.nodes == 0 {
            return Err(Error::InvalidParameter(Param::Capacity));
        }
        if spec.nodes > self.table.nodes() {
            return Err(Error::TaskTooLarge);
        }
        if spec.work == 0 {
            return Err(Error::InvalidParameter(Param::Work));
        }
        let start = match spec.kind {
            Kind::External {
                class: Class::Cancelable | Class::Suspendable,
                deadline: Some(_),
            } => return Err(Error::InvalidParameter(Param::Delay)),
            Kind::Reservation(Notice::At(s)) if s < now => {
                return Err(Error::InvalidParameter(Param::Delay));
            }
            Kind::Reservation(Notice::At(s)) => s,
            _ => now,
        };
        start
            .checked_add(spec.work)
            .map(|_| ())
            .ok_or(Error::Overflow)
    }

    /// Decides where a request goes; reserves its nodes (preempting if needed) when it holds.
    fn place(&mut self, now: Ticks, id: LeaseId, spec: &Spec) -> Result<Placement, Error> {
        match spec.kind {
            Kind::External {
                class: Class::Cancelable | Class::Suspendable,
                ..
            } => Ok(Placement::Queue),
            Kind::External { deadline, .. } => {
                match self.table.earliest_fit(now, spec.nodes, spec.work)? {
                    Some(s) if deadline.is_none() && s != now => {
                        Ok(Placement::Reject(Error::NotFree))
                    }
                    Some(s) if deadline.is_some_and(|d| s.saturating_add(spec.work) > d) => {
                        Ok(Placement::Reject(Error::DeadlineUnmet))
                    }
                    Some(s) => self.hold(s, spec),
                    None => Ok(Placement::Reject(Error::NotFree)),
                }
            }
            Kind::Local | Kind::Reservation(Notice::Zero) => {
                if self.fits(now, spec)? {
                    return self.hold(now, spec);
                }
                if let Ok(span) = self.preempt(now, id, spec, None) {
                    return Ok(Placement::Hold(span));
                }
                match self.table.earliest_fit(now, spec.nodes, spec.work)? {
                    Some(s) => self.hold(s, spec),
                    None => Ok(Placement::Reject(Error::NotFree)),
                }
            }
            Kind::Reservation(Notice::At(s)) => {
                if self.fits(s, spec)? {
                    return self.hold(s, spec);
                }
                match self.preempt(now, id, spec, Some(s)) {
                    Ok(span) => Ok(Placement::Hold(span)),
                    Err(Error::NotFree) => Ok(Placement::Reject(Error::NotFree)),
                    Err(e) => Err(e),
                }
            }
        }
    }

    fn fits(&self, start: Ticks, spec: &Spec) -> Result<bool, Error> {
        let end = start.checked_add(spec.work).ok_or(Error::Overflow)?;
        Ok(self.table.min_free(start, end)? >= i64::from(spec.nodes))
    }

    fn hold(&mut self, start: Ticks, spec: &Spec) -> Result<Placement, Error> {
        let end = start.checked_add(spec.work).ok_or(Error::Overflow)?;
        self.table
            .reserve(start, end, spec.nodes)
            .map_err(|r| r.reason)?;
        Ok(Placement::Hold(Span { start, end }))
    }

    /// Preempts running leases so that `spec` can start at `at` (or as soon as they release
    /// their nodes), reserves its nodes and returns its reservation. All or nothing.
    fn preempt(
        &mut self,
        now: Ticks,
        by: LeaseId,
        spec: &Spec,
        at: Option<Ticks>,
    ) -> Result<Span, Error> {
        let mut candidates: Vec<Candidate, MAX_CANDIDATES> = Vec::new();
        let mut victims: Vec<Victim, MAX_CANDIDATES> = Vec::new();
        'collect: for class in Class::PREEMPTABLE {
            let Some(action) = Action::of(class) else {
                continue;
            };
            let stop = self.overheads.stop(action);
            let cost = self.overheads.cost(action);
            for (index, l) in self.leases.iter().enumerate() {
                let Some(hold) = l.hold else { continue };
                if l.state != State::Running || l.stop.is_some() || l.spec.class() != class {
                    continue;
                }
                let timing = match at {
                    Some(s) => s.checked_sub(stop).filter(|&b| b >= now).map(|b| (b, s)),
                    None => now.checked_add(stop).map(|r| (now, r)),
                };
                let Some((begin, release)) = timing else {
                    continue;
                };
                // Running without a pending stop: its reservation ends with its run.
                if release <= hold.start || release >= hold.end {
                    continue;
                }
                let candidate = Candidate {
                    class,
                    nodes: l.spec.nodes,
                    overhead: u64::from(l.spec.nodes).saturating_mul(cost),
                };
                let victim = Victim {
                    index,
                    nodes: l.spec.nodes,
                    action,
                    begin,
                    release,
                    run_end: hold.end,
                };
                if candidates.push(candidate).is_err() || victims.push(victim).is_err() {
                    break 'collect;
                }
            }
        }
        // The window the request may occupy, and the free nodes in it if all were preempted.
        let w0 = at.unwrap_or(now);
        let latest = victims.iter().map(|v| v.release).max().unwrap_or(w0);
        let w1 = at
            .unwrap_or(latest)
            .checked_add(spec.work)
            .ok_or(Error::Overflow)?;
        let g = |t: Ticks| -> i64 {
            let back: i64 = victims
                .iter()
                .filter(|v| v.run_end > t)
                .map(|v| i64::from(v.nodes))
                .sum();
            self.table.free_at(t) + back
        };
        let instants = core::iter::once(w0)
            .chain(self.table.steps().iter().map(|s| s.at))
            .chain(victims.iter().map(|v| v.run_end))
            .filter(|&t| w0 <= t && t < w1);
        let g_min = instants.map(g).min().unwrap_or(i64::MIN);
        let slack = g_min - i64::from(spec.nodes);
        if slack < 0 {
            return Err(Error::NotFree);
        }
        let total: i64 = victims.iter().map(|v| i64::from(v.nodes)).sum();
        let need = Nodes::try_from(total - slack)
            .ok()
            .filter(|&n| n > 0)
            .ok_or(Error::NotFree)?;
        let choice = preempt::select::<SEARCH>(&candidates, need, self.policy)?;
        let chosen = || choice.set.iter().filter_map(|k| victims.get(k).copied());
        let start = at.unwrap_or_else(|| chosen().map(|v| v.release).max().unwrap_or(now));
        let end = start.checked_add(spec.work).ok_or(Error::Overflow)?;
        // Apply: trim every chosen lease's reservation to its release, then reserve.
        let mut trimmed = 0usize;
        let mut applied = Ok(());
        for v in chosen() {
            if let Err(r) = self.table.release(v.release, v.run_end, v.nodes) {
                applied = Err(r.reason);
                break;
            }
            trimmed += 1;
        }
        if applied.is_ok() {
            applied = self
                .table
                .reserve(start, end, spec.nodes)
                .map_err(|r| r.reason);
        }
        if let Err(e) = applied {
            for v in chosen().take(trimmed) {
                // Cannot fail: it restores the table as it was (same nodes, same breakpoints).
                let _ = self.table.reserve(v.release, v.run_end, v.nodes);
            }
            return Err(e);
        }
        for v in chosen() {
            if let Some(l) = self.leases.get_mut(v.index) {
                l.hold = l.hold.map(|h| Span {
                    start: h.start,
                    end: v.release,
                });
                l.stop = Some(Stop {
                    by,
                    action: v.action,
                    begin: v.begin,
                    end: v.release,
                });
                self.accounts.preemptions = self.accounts.preemptions.saturating_add(1);
            }
        }
        Ok(Span { start, end })
    }

    /// Starts queued leases at `now`, then processes the transitions due at `now`.
    fn settle(&mut self, now: Ticks, out: &mut impl FnMut(Event)) {
        self.start_queue(now, out);
        self.run(now, out);
    }

    /// The earliest transition due at or before `until` (ties: submission order).
    fn due(&self, until: Ticks) -> Option<(usize, Ticks)> {
        self.leases
            .iter()
            .enumerate()
            .filter_map(|(i, l)| l.next().filter(|&t| t <= until).map(|t| (t, i)))
            .min()
            .map(|(t, i)| (i, t))
    }

    fn run(&mut self, until: Ticks, out: &mut impl FnMut(Event)) {
        while let Some((i, t)) = self.due(until) {
            self.step(i, t, out);
            if self.due(t).is_none() {
                // Every transition of instant t is done: nodes freed at t go to the queue.
                self.start_queue(t, out);
            }
        }
    }

    /// One transition of lease `i`, due at `t`.
    fn step(&mut self, i: usize, t: Ticks, out: &mut impl FnMut(Event)) {
        let Some(l) = self.leases.get_mut(i) else {
            return;
        };
        let from = l.state;
        match (l.state, l.stop) {
            (State::Reserved | State::Resuming, _) => {
                l.state = State::Running;
                l.mark = t;
            }
            (State::Running, Some(stop)) if stop.begin <= t => {
                l.done = l.done.saturating_add(t.saturating_sub(l.mark));
                l.state = State::Stopping(stop.action);
                l.mark = stop.end;
            }
            (State::Running, _) => {
                l.done = l.spec.work;
                return self.finish(i, t, End::Completed, out);
            }
            (State::Stopping(Action::Suspend), _) => {
                if let Some(h) = l.hold.take() {
                    // Cannot fail: the table holds this reservation.
                    let _ = self.table.release(h.start, h.end, l.spec.nodes);
                }
                l.stop = None;
                l.state = State::Suspended;
            }
            (State::Stopping(Action::Migrate), _) => {
                return self.finish(i, t, End::Migrated, out);
            }
            (State::Stopping(Action::Cancel), stop) => {
                let by = stop.map_or(Cause::Caller, |s| Cause::Preempted(s.by));
                return self.finish(i, t, End::Cancelled(by), out);
            }
            (State::Queued | State::Suspended | State::Done(_), _) => return,
        }
        out(Event::Changed {
            id: l.id,
            at: t,
            from,
            to: l.state,
            remaining: l.remaining(),
        });
    }

    /// Ends lease `i` at `t`: releases its reservation, removes it, counts it.
    fn finish(&mut self, i: usize, t: Ticks, end: End, out: &mut impl FnMut(Event)) {
        let Some(l) = vecops::remove(&mut self.leases, i) else {
            return;
        };
        if let Some(h) = l.hold {
            // Cannot fail: the table holds this reservation.
            let _ = self.table.release(h.start, h.end, l.spec.nodes);
        }
        self.accounts.count(end);
        out(Event::Changed {
            id: l.id,
            at: t,
            from: l.state,
            to: State::Done(end),
            remaining: l.remaining(),
        });
    }

    /// Starts queued and suspended leases at `t` in submission order while the head fits for
    /// its whole run (plus `t_r` for a suspended one).
    fn start_queue(&mut self, t: Ticks, out: &mut impl FnMut(Event)) {
        let resume = self.overheads.resume;
        while let Some(l) = self
            .leases
            .iter_mut()
            .find(|l| matches!(l.state, State::Queued | State::Suspended))
        {
            let from = l.state;
            let lead = if from == State::Suspended { resume } else { 0 };
            let Some(end) = t
                .checked_add(lead)
                .and_then(|x| x.checked_add(l.remaining()))
            else {
                return;
            };
            if self.table.reserve(t, end, l.spec.nodes).is_err() {
                return;
            }
            l.hold = Some(Span { start: t, end });
            l.mark = t.saturating_add(lead);
            l.state = if from == State::Queued {
                State::Running
            } else {
                State::Resuming
            };
            out(Event::Changed {
                id: l.id,
                at: t,
                from,
                to: l.state,
                remaining: l.remaining(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_overheads_in_ticks() {
        let o = Overheads::default();
        assert_eq!(o.suspend, 160_000_000);
        assert_eq!(o.resume, 126_000_000);
        assert_eq!(o.migrate, 372_500_000);
        assert_eq!(o.cancel, 0);
        assert_eq!(o.cost(Action::Suspend), 286_000_000);
    }
}
