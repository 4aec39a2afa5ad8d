//! The lease manager of one cluster: admission ([`Manager::submit`]), time
//! ([`Manager::next_event`], [`Manager::advance`]), the best-effort queue (first come, first
//! served, or conservative backfilling with plans: [`Queue`]), the caller's cancellations and
//! failures, and the application of preemption plans (made by [`plan`](fn@super::plan)).
//!
//! # Invariants (besides the module's)
//! - `leases` holds the live leases in submission order, so in increasing id: a lease is found
//!   by binary search.
//! - `table` holds exactly the reservations of the leases in states that hold nodes
//!   ([`Lease::hold`]); `plans` exactly the plans of the waiting leases ([`Lease::plan`]; none
//!   under [`Queue::Fcfs`]); the two stacked never promise more than the cluster from `now` on.
//! - `targets` is scratch space: only a preemption reads it, after filling it.
//! - `now` never decreases; `next_id` is the id the next accepted submission gets.
//!
//! # Memory
//! `size_of::<Manager<L, B>>()` is `136 L` (the leases, and a run end per lease for a
//! preemption) `+ 32 B + 32` (the two tables) plus about 2,730 bytes (the preemption's kinds
//! and the rest): 15,552 bytes for `Manager<64, 128>` on x86-64.

use core::mem::MaybeUninit;

use heapless::Vec;

use super::preempt::{Class, MAX_CANDIDATES, Policy};
use super::{
    Accounts, Action, Admission, Cause, Demand, End, Event, Kind, Lease, LeaseId, Notice,
    Overheads, Plan, Queue, Rules, Spec, State, Stop, Target, Targets, plan,
};
use crate::error::{Error, Param, Refused};
use crate::slots::{SlotTable, Span};
use crate::storage::{inplace, vecops};
use crate::units::{Nodes, Ticks};

/// What admission decided for a request.
enum Placement {
    /// Best effort: wait, with a plan (conservative backfilling) or without.
    Wait(Option<Span>),
    Hold(Span),
    Reject(Error),
}

/// Which waiting leases the next re-placement pass places (conservative backfilling).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    /// None.
    Idle,
    /// Those without a plan (displaced by a lease that holds nodes, or suspended).
    Unplaced,
    /// Those, and every plan that the nodes freed early over this span could bring forward.
    Freed(Span),
}

impl Pass {
    /// This pass and `other`'s together.
    fn and(self, other: Pass) -> Pass {
        match (self, other) {
            (Pass::Freed(a), Pass::Freed(b)) => Pass::Freed(Span {
                start: a.start.min(b.start),
                end: a.end.max(b.end),
            }),
            (Pass::Freed(a), _) | (_, Pass::Freed(a)) => Pass::Freed(a),
            (Pass::Unplaced, _) | (_, Pass::Unplaced) => Pass::Unplaced,
            (Pass::Idle, Pass::Idle) => Pass::Idle,
        }
    }
}

/// The leases of one cluster of identical nodes: at most `LEASES` live leases, slot tables of
/// `BREAKPOINTS` breakpoints (see the module's documentation).
#[derive(Clone, Debug)]
pub struct Manager<const LEASES: usize, const BREAKPOINTS: usize> {
    table: SlotTable<BREAKPOINTS>,
    plans: SlotTable<BREAKPOINTS>,
    leases: Vec<Lease, LEASES>,
    targets: Targets<LEASES>,
    overheads: Overheads,
    rules: Rules,
    now: Ticks,
    next_id: u32,
    accounts: Accounts,
    pass: Pass,
}

impl<const LEASES: usize, const BREAKPOINTS: usize> Manager<LEASES, BREAKPOINTS> {
    /// A cluster of `nodes` idle nodes at time 0, preempting by `policy` under the other
    /// default [`Rules`] ([`Rules::new`]).
    ///
    /// Errors: `InvalidParameter(Capacity)` if `nodes` is zero.
    pub fn new(nodes: Nodes, overheads: Overheads, policy: Policy) -> Result<Self, Error> {
        Self::with_rules(nodes, overheads, Rules::new(policy))
    }

    /// A cluster of `nodes` idle nodes at time 0 under `rules`.
    ///
    /// Errors: `InvalidParameter(Capacity)` if `nodes` is zero.
    #[allow(unsafe_code)]
    pub fn with_rules(nodes: Nodes, overheads: Overheads, rules: Rules) -> Result<Self, Error> {
        // SAFETY: `init` initialises the slot when it returns `Ok`.
        unsafe { inplace::by_value(|slot| Self::init(slot, nodes, overheads, rules)) }
    }

    /// Writes [`Manager::with_rules`]'s manager into `slot`, in place: only lengths and scalars,
    /// none of the `LEASES` lease slots or `BREAKPOINTS` breakpoints, so that a manager far
    /// larger than a stack can be built in a static or on the heap. On an error `slot` holds no
    /// manager.
    ///
    /// Errors: those of [`Manager::with_rules`].
    #[allow(unsafe_code)]
    pub fn init(
        slot: &mut MaybeUninit<Self>,
        nodes: Nodes,
        overheads: Overheads,
        rules: Rules,
    ) -> Result<&mut Self, Error> {
        const {
            assert!(LEASES >= 1, "room for one lease");
            assert!(
                BREAKPOINTS >= 2 * LEASES,
                "every live lease may need two breakpoints"
            );
        };
        let p = slot.as_mut_ptr();
        // SAFETY: `p` is `slot`'s, valid and aligned for writes of `Self`; each field is reached
        // as a raw place, and once the tables' `init`s succeeded every field is initialised (the
        // pattern names them all).
        let manager = unsafe {
            SlotTable::init(inplace::field(&raw mut (*p).table), nodes)?;
            SlotTable::init(inplace::field(&raw mut (*p).plans), nodes)?;
            (&raw mut (*p).leases).write(Vec::new());
            (&raw mut (*p).targets).write(Targets::new());
            (&raw mut (*p).overheads).write(overheads);
            (&raw mut (*p).rules).write(rules);
            (&raw mut (*p).now).write(Ticks::ZERO);
            (&raw mut (*p).next_id).write(0);
            (&raw mut (*p).accounts).write(Accounts::default());
            (&raw mut (*p).pass).write(Pass::Idle);
            slot.assume_init_mut()
        };
        let Self {
            table: _,
            plans: _,
            leases: _,
            targets: _,
            overheads: _,
            rules: _,
            now: _,
            next_id: _,
            accounts: _,
            pass: _,
        } = manager;
        Ok(manager)
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
        self.rules.policy
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The slot table: exactly the reservations of the leases that hold nodes.
    pub fn table(&self) -> &SlotTable<BREAKPOINTS> {
        &self.table
    }

    /// The plans of the waiting leases (conservative backfilling; empty otherwise). Stacked on
    /// [`table`](Self::table), they never promise more than the cluster from `now` on.
    pub fn plans(&self) -> &SlotTable<BREAKPOINTS> {
        &self.plans
    }

    /// The live leases, in submission order.
    pub fn leases(&self) -> &[Lease] {
        &self.leases
    }

    /// The live lease `id`, if any. `O(log L)`.
    pub fn lease(&self, id: LeaseId) -> Option<&Lease> {
        let i = self.leases.binary_search_by_key(&id, |l| l.id).ok()?;
        self.leases.get(i)
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
    /// waiting leases as nodes free up.
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
        let id = LeaseId::new(self.next_id);
        let next = self.next_id.checked_add(1).ok_or(refuse(Error::Full))?;
        let placement = self.place(now, id, &spec).map_err(refuse)?;
        self.next_id = next;
        self.accounts.submitted = self.accounts.submitted.saturating_add(1);
        let (state, span) = match placement {
            Placement::Wait(plan) => (State::Queued, plan),
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
                done: Ticks::ZERO,
                span,
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
    /// and its nodes (or its plan) are free from `now`. Preemptions already decided for it
    /// stand.
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
    /// reservation (or plan) is released. Taking the nodes down is the caller's business.
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
            .binary_search_by_key(&id, |l| l.id)
            .map_err(|_| Error::Unknown)?;
        let Some(l) = self.leases.get_mut(i) else {
            return Err(Error::Unknown);
        };
        if l.state == State::Running {
            // Its work counts until now.
            l.done = l.done.saturating_add(now.saturating_sub(l.mark));
        }
        // Its nodes (or its plan) are free early: the plans may move earlier.
        let freed = l.span.filter(|s| s.end > now).map(|s| Span {
            start: s.start.max(now),
            end: s.end,
        });
        self.finish(i, now, end, out);
        if let Some(freed) = freed {
            self.pass = self.pass.and(Pass::Freed(freed));
        }
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
        if spec.work == Ticks::ZERO {
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
            } => Ok(Placement::Wait(match self.rules.queue {
                Queue::Fcfs => None,
                Queue::Conservative => self.plan_at(now, spec.nodes, spec.work),
            })),
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
                if spec.kind == Kind::Local && self.rules.local == Admission::Reject {
                    return Ok(Placement::Reject(Error::NotFree));
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

    /// Reserves `spec`'s nodes from `start` in the table (displacing the plans in the way).
    fn hold(&mut self, start: Ticks, spec: &Spec) -> Result<Placement, Error> {
        let end = start.checked_add(spec.work).ok_or(Error::Overflow)?;
        self.table
            .reserve(start, end, spec.nodes)
            .map_err(|r| r.reason)?;
        let span = Span { start, end };
        self.displace(span);
        Ok(Placement::Hold(span))
    }

    /// A plan of `nodes` nodes for `duration` at the earliest fit from `from` in the table and
    /// the plans stacked, entered in the plans; `None` if there is none (the run would end past
    /// `Ticks::MAX`, or the table is full). `O(B)`.
    fn plan_at(&mut self, from: Ticks, nodes: Nodes, duration: Ticks) -> Option<Span> {
        let stacked = self.table.stacked(&self.plans);
        let start = stacked.earliest_fit(from, nodes, duration).ok()??;
        let end = start.checked_add(duration)?;
        self.plans.reserve(start, end, nodes).ok()?;
        Some(Span { start, end })
    }

    /// After `span` was reserved in the table: while the table and the plans stacked promise
    /// more than the cluster somewhere in `span`, takes away the plan of the latest submitted
    /// waiting lease whose plan overlaps `span` (it is placed again by the next pass).
    /// `O(k (L + B))` for `k` plans taken away.
    fn displace(&mut self, span: Span) {
        loop {
            let stacked = self.table.stacked(&self.plans);
            if stacked.min_free(span.start, span.end).is_ok_and(|f| f >= 0) {
                return;
            }
            let Some(l) = self.leases.iter_mut().rev().find(|l| {
                l.plan()
                    .is_some_and(|p| p.start < span.end && span.start < p.end)
            }) else {
                return;
            };
            if let Some(p) = l.span.take() {
                // Cannot fail: the plans hold this plan.
                let _ = self.plans.release(p.start, p.end, l.spec.nodes);
            }
            self.pass = self.pass.and(Pass::Unplaced);
        }
    }

    /// Preempts running leases so that `spec` can start at `at` (or as soon as they release
    /// their nodes), reserves its nodes and returns its reservation. All or nothing: a
    /// [`plan`](fn@plan) over the live leases' targets ([`collect`](Self::collect)), then
    /// [`apply`](Self::apply).
    fn preempt(
        &mut self,
        now: Ticks,
        by: LeaseId,
        spec: &Spec,
        at: Option<Ticks>,
    ) -> Result<Span, Error> {
        let demand = Demand {
            now,
            at,
            nodes: spec.nodes,
            work: spec.work,
        };
        self.collect(&demand);
        let rules = self.rules;
        let plan = plan(
            &self.table,
            &mut self.targets,
            &demand,
            rules.policy,
            rules.preference,
        )?;
        let freed = self.apply(by, spec.nodes, &demand, &plan)?;
        self.displace(plan.span);
        // The chosen leases' nodes are free before their runs' ends.
        if let Some(freed) = freed {
            self.pass = self.pass.and(Pass::Freed(freed));
        }
        Ok(plan.span)
    }

    /// Fills the targets with the live leases `demand` may preempt: running with no stop
    /// pending, each as a [`Target`] if it can be one; less valuable classes first, then in
    /// submission order. A target of a new kind once [`MAX_CANDIDATES`] kinds are held is left
    /// out. `O(L g)`, `g <= 64` kinds.
    fn collect(&mut self, demand: &Demand) {
        self.targets.clear();
        for class in Class::PREEMPTABLE {
            for l in &self.leases {
                if let Some(t) = target(l, &self.overheads, demand).filter(|t| t.class == class) {
                    // A target of a new kind with every kind taken is left out.
                    let _ = self.targets.push(t);
                }
            }
        }
    }

    /// Applies `plan`, made from the targets, for request `by` of `nodes` nodes: trims every
    /// chosen lease's reservation to its release, reserves the request's span, and marks each
    /// chosen lease to stop ([`Lease::stop`]). Returns the span over which the chosen leases'
    /// nodes are freed before their runs' ends. All or nothing: if the table refuses, it is
    /// restored and the error returned. `O(L g + c B)`, `c` the leases chosen.
    fn apply(
        &mut self,
        by: LeaseId,
        nodes: Nodes,
        demand: &Demand,
        plan: &Plan,
    ) -> Result<Option<Span>, Error> {
        let Self {
            table,
            leases,
            targets,
            overheads,
            accounts,
            ..
        } = self;
        let mut trimmed = 0usize;
        let mut applied = Ok(());
        let mut pick = Picker::new(plan);
        for t in leases
            .iter()
            .filter_map(|l| pick.pick(l, targets, overheads, demand))
        {
            if let Err(r) = table.release(t.release, t.run_end, t.nodes) {
                applied = Err(r.reason);
                break;
            }
            trimmed += 1;
        }
        if applied.is_ok() {
            applied = table
                .reserve(plan.span.start, plan.span.end, nodes)
                .map_err(|r| r.reason);
        }
        if let Err(e) = applied {
            let mut pick = Picker::new(plan);
            let chosen = leases
                .iter()
                .filter_map(|l| pick.pick(l, targets, overheads, demand));
            for t in chosen.take(trimmed) {
                // Cannot fail: it restores the table as it was (same nodes, same breakpoints).
                let _ = table.reserve(t.release, t.run_end, t.nodes);
            }
            return Err(e);
        }
        let mut pick = Picker::new(plan);
        let mut freed: Option<Span> = None;
        for l in leases.iter_mut() {
            let Some(t) = pick.pick(l, targets, overheads, demand) else {
                continue;
            };
            freed = Some(freed.map_or(
                Span {
                    start: t.release,
                    end: t.run_end,
                },
                |f| Span {
                    start: f.start.min(t.release),
                    end: f.end.max(t.run_end),
                },
            ));
            let Some(action) = Action::of(t.class) else {
                continue;
            };
            l.span = l.span.map(|h| Span {
                start: h.start,
                end: t.release,
            });
            l.stop = Some(Stop {
                by,
                action,
                begin: t.begin,
                end: t.release,
            });
            accounts.preemptions = accounts.preemptions.saturating_add(1);
        }
        Ok(freed)
    }

    /// Starts waiting leases at `now` (the queue's discipline), then processes the transitions
    /// due at `now`.
    fn settle(&mut self, now: Ticks, out: &mut impl FnMut(Event)) {
        self.start_waiting(now, out);
        self.run(now, out);
    }

    /// The earliest transition due at or before `until` (ties: submission order). `O(L)`.
    fn due(&self, until: Ticks) -> Option<(usize, Ticks)> {
        self.leases
            .iter()
            .enumerate()
            .filter_map(|(i, l)| l.next().filter(|&t| t <= until).map(|t| (t, i)))
            .min()
            .map(|(t, i)| (i, t))
    }

    /// Every transition due up to `until`, in order; one scan of the leases per transition,
    /// and one more at the end of each instant.
    fn run(&mut self, until: Ticks, out: &mut impl FnMut(Event)) {
        let mut next = self.due(until);
        while let Some((i, t)) = next {
            self.step(i, t, out);
            next = self.due(until);
            if next.is_none_or(|(_, later)| later > t) {
                // Every transition of instant t is done: nodes freed at t go to the queue.
                self.start_waiting(t, out);
                next = self.due(until);
            }
        }
    }

    /// One transition of lease `i`, due at `t`.
    fn step(&mut self, i: usize, t: Ticks, out: &mut impl FnMut(Event)) {
        let resume = self.overheads.resume;
        let Some(l) = self.leases.get_mut(i) else {
            return;
        };
        let from = l.state;
        match (l.state, l.stop) {
            (State::Reserved | State::Resuming, _) => {
                l.state = State::Running;
                l.mark = t;
            }
            (State::Queued | State::Suspended, _) => {
                // Its plan begins: the nodes it was promised become a reservation.
                let Some(p) = l.span else { return };
                // Cannot fail: the plans hold this plan.
                let _ = self.plans.release(p.start, p.end, l.spec.nodes);
                if self.table.reserve(p.start, p.end, l.spec.nodes).is_err() {
                    // Not reachable while the invariants hold; wait for the next pass.
                    l.span = None;
                    self.pass = self.pass.and(Pass::Unplaced);
                    return;
                }
                if from == State::Queued {
                    l.state = State::Running;
                    l.mark = t;
                } else {
                    l.state = State::Resuming;
                    l.mark = t.saturating_add(resume);
                }
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
                if let Some(h) = l.span.take() {
                    // Cannot fail: the table holds this reservation.
                    let _ = self.table.release(h.start, h.end, l.spec.nodes);
                }
                l.stop = None;
                l.state = State::Suspended;
                if self.rules.queue == Queue::Conservative {
                    // Re-queued with a plan of its own, behind every plan in place.
                    self.pass = self.pass.and(Pass::Unplaced);
                }
            }
            (State::Stopping(Action::Migrate), _) => {
                return self.finish(i, t, End::Migrated, out);
            }
            (State::Stopping(Action::Cancel), stop) => {
                let by = stop.map_or(Cause::Caller, |s| Cause::Preempted(s.by));
                return self.finish(i, t, End::Cancelled(by), out);
            }
            (State::Done(_), _) => return,
        }
        out(Event::Changed {
            id: l.id,
            at: t,
            from,
            to: l.state,
            remaining: l.remaining(),
        });
    }

    /// Ends lease `i` at `t`: releases its reservation or plan, removes it, counts it.
    fn finish(&mut self, i: usize, t: Ticks, end: End, out: &mut impl FnMut(Event)) {
        let Some(l) = vecops::remove(&mut self.leases, i) else {
            return;
        };
        if let Some(h) = l.hold() {
            // Cannot fail: the table holds this reservation.
            let _ = self.table.release(h.start, h.end, l.spec.nodes);
        }
        if let Some(p) = l.plan() {
            // Cannot fail: the plans hold this plan.
            let _ = self.plans.release(p.start, p.end, l.spec.nodes);
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

    /// Starts or places waiting leases at `t`, by the queue's discipline.
    fn start_waiting(&mut self, t: Ticks, out: &mut impl FnMut(Event)) {
        match self.rules.queue {
            Queue::Fcfs => self.start_queue(t, out),
            Queue::Conservative => self.replan(t),
        }
    }

    /// Conservative backfilling's pass, if one is due, in submission order: places every
    /// waiting lease without a plan; after nodes came free early over a span ([`Pass::Freed`]),
    /// also takes out each plan that could use them and puts it back at its earliest fit from
    /// `t` (never later than it was, as its own place is free). A plan could use them only if
    /// somewhere in the span at least its nodes are free: the pass checks the largest free
    /// count there (`O(k)`), skips the plans wider than it, and widens the span by the place
    /// of every plan that moves (checking again). A lease whose run would end past
    /// `Ticks::MAX` stays without a plan. `O(L + p B + m k)`, `p` the leases placed, `m` the
    /// plans that moved.
    fn replan(&mut self, t: Ticks) {
        let pass = core::mem::replace(&mut self.pass, Pass::Idle);
        let mut freed = match pass {
            Pass::Idle => return,
            Pass::Unplaced => None,
            Pass::Freed(span) => Some(span),
        };
        let resume = self.overheads.resume;
        let room = |m: &Self, f: Option<Span>| -> i64 {
            let stacked = m.table.stacked(&m.plans);
            f.filter(|f| f.end > t)
                .and_then(|f| stacked.max_free(f.start.max(t), f.end).ok())
                .unwrap_or(0)
        };
        let mut free = room(self, freed);
        for i in 0..self.leases.len() {
            let Some(l) = self.leases.get_mut(i) else {
                break;
            };
            if l.holds_nodes() || (l.span.is_some() && free < i64::from(l.spec.nodes)) {
                continue;
            }
            let old = l.span.take();
            if let Some(p) = old {
                // Cannot fail: the plans hold this plan.
                let _ = self.plans.release(p.start, p.end, l.spec.nodes);
            }
            let lead = if l.state == State::Suspended {
                resume
            } else {
                Ticks::ZERO
            };
            let (nodes, run) = (l.spec.nodes, lead.checked_add(l.remaining()));
            let plan = run.and_then(|run| self.plan_at(t, nodes, run));
            if let Some(l) = self.leases.get_mut(i) {
                l.span = plan;
            }
            if let (Some(o), Some(p)) = (old, plan)
                && p.start < o.start
            {
                // It moved up: its old place is free now. (Placing a plan only takes nodes, so
                // between moves `free` may only overstate the room: a safe filter.)
                freed = Some(freed.map_or(o, |f| Span {
                    start: f.start.min(o.start),
                    end: f.end.max(o.end),
                }));
                free = room(self, freed);
            }
        }
    }

    /// Starts queued and suspended leases at `t` in submission order while the head fits for
    /// its whole run (plus `t_r` for a suspended one): first come, first served.
    fn start_queue(&mut self, t: Ticks, out: &mut impl FnMut(Event)) {
        let resume = self.overheads.resume;
        while let Some(l) = self
            .leases
            .iter_mut()
            .find(|l| matches!(l.state, State::Queued | State::Suspended))
        {
            let from = l.state;
            let lead = if from == State::Suspended {
                resume
            } else {
                Ticks::ZERO
            };
            let Some(end) = t
                .checked_add(lead)
                .and_then(|x| x.checked_add(l.remaining()))
            else {
                return;
            };
            if self.table.reserve(t, end, l.spec.nodes).is_err() {
                return;
            }
            l.span = Some(Span { start: t, end });
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

/// Lease `l` as a target for `demand` under `overheads`, if it can be one: running, no stop
/// pending, and [`Target::new`] accepts it.
fn target(l: &Lease, overheads: &Overheads, demand: &Demand) -> Option<Target> {
    if l.state != State::Running || l.stop.is_some() {
        return None;
    }
    Target::new(
        l.id,
        l.spec.class(),
        l.spec.nodes,
        l.span?,
        overheads,
        demand,
    )
}

/// Picks a plan's leases, offered in submission order: of every kind `k`, the first
/// `plan.choice.take.get(k)` targets of that kind (the oldest).
struct Picker {
    left: [u32; MAX_CANDIDATES],
}

impl Picker {
    fn new(plan: &Plan) -> Self {
        let mut left = [0u32; MAX_CANDIDATES];
        for (k, n) in left.iter_mut().enumerate() {
            *n = plan.choice.take.get(k);
        }
        Self { left }
    }

    /// `l` as a chosen target, if it is one. `O(g)`.
    fn pick<const N: usize>(
        &mut self,
        l: &Lease,
        targets: &Targets<N>,
        overheads: &Overheads,
        demand: &Demand,
    ) -> Option<Target> {
        let t = target(l, overheads, demand)?;
        let n = self.left.get_mut(targets.kind_of(&t)?)?;
        *n = n.checked_sub(1)?;
        Some(t)
    }
}

#[cfg(test)]
mod tests {
    use heapless::Vec;

    use super::*;
    use crate::lease::fixture::{OVERHEADS, t};
    use State::{Done, Queued, Reserved, Resuming, Running, Stopping, Suspended};

    /// Room for 8 leases; `t_s = 10`, `t_r = 7`, `t_m = 20`, `t_c = 3`.
    type Cluster = Manager<8, 16>;

    type Log = Vec<Event, 32>;

    const fn spec(nodes: Nodes, work: u64, kind: Kind) -> Spec {
        Spec {
            nodes,
            work: t(work),
            kind,
        }
    }

    fn external(class: Class, deadline: Option<u64>) -> Kind {
        Kind::External {
            class,
            deadline: deadline.map(t),
        }
    }

    /// A cluster of `nodes` nodes given each `(now, spec)` in turn (ids from 0), and its log.
    fn submitted(nodes: Nodes, requests: &[(u64, Spec)]) -> (Cluster, Log) {
        under(Rules::new(Policy::Moml), nodes, requests)
    }

    /// [`submitted`] under `rules`.
    fn under(rules: Rules, nodes: Nodes, requests: &[(u64, Spec)]) -> (Cluster, Log) {
        let mut m = Manager::with_rules(nodes, OVERHEADS, rules).unwrap();
        let mut log = Log::new();
        for &(now, s) in requests {
            m.submit(t(now), s, &mut |e| log.push(e).unwrap()).unwrap();
        }
        (m, log)
    }

    /// [`submitted`], then every transition left.
    fn drained(nodes: Nodes, requests: &[(u64, Spec)]) -> (Cluster, Log) {
        let (m, log) = submitted(nodes, requests);
        drain(m, log)
    }

    /// Every transition left.
    fn drain(mut m: Cluster, mut log: Log) -> (Cluster, Log) {
        while let Some(t) = m.next_event() {
            m.advance(t, &mut |e| log.push(e).unwrap()).unwrap();
        }
        (m, log)
    }

    /// Lease `n`'s handle.
    const fn id(n: u32) -> LeaseId {
        LeaseId::new(n)
    }

    /// `(id, at, from, to, remaining)` of every state change, in order.
    fn changes(log: &Log) -> Vec<(u32, u64, State, State, u64), 32> {
        log.iter()
            .filter_map(|e| match *e {
                Event::Changed {
                    id,
                    at,
                    from,
                    to,
                    remaining,
                } => Some((id.get(), at.get(), from, to, remaining.get())),
                _ => None,
            })
            .collect()
    }

    fn preempted(log: &Log) -> Vec<(u32, Stop), 8> {
        log.iter()
            .filter_map(|e| match *e {
                Event::Preempted { id, stop } => Some((id.get(), stop)),
                _ => None,
            })
            .collect()
    }

    fn first_state(log: &Log, of: u32) -> Option<State> {
        log.iter().find_map(|e| match *e {
            Event::Submitted { id, state, .. } if id.get() == of => Some(state),
            _ => None,
        })
    }

    /// `(start, end)` of lease `n`'s span as `which` reads it ([`Lease::hold`] or
    /// [`Lease::plan`]).
    fn span(m: &Cluster, n: u32, which: fn(&Lease) -> Option<Span>) -> Option<(u64, u64)> {
        m.lease(id(n))
            .and_then(which)
            .map(|s| (s.start.get(), s.end.get()))
    }

    fn hold(m: &Cluster, n: u32) -> Option<(u64, u64)> {
        span(m, n, Lease::hold)
    }

    fn plan(m: &Cluster, n: u32) -> Option<(u64, u64)> {
        span(m, n, Lease::plan)
    }

    /// 4 nodes. A Cancelable lease (0) of 4 nodes runs from 0 for 100. A local request (1) of
    /// 4 nodes for 50 at 10 preempts it at once: the cancellation runs `[10, 13)`, lease 0
    /// ends `Cancelled` at 13 with 90 left, and the request runs `[13, 63)`.
    #[test]
    fn a_cancelable_lease_is_cancelled() {
        let (m, log) = drained(
            4,
            &[
                (0, spec(4, 100, external(Class::Cancelable, None))),
                (10, spec(4, 50, Kind::Local)),
            ],
        );
        let stop = Stop {
            by: id(1),
            action: Action::Cancel,
            begin: t(10),
            end: t(13),
        };
        assert_eq!(preempted(&log), [(0, stop)]);
        let cancelled = Done(End::Cancelled(Cause::Preempted(id(1))));
        assert_eq!(
            changes(&log),
            [
                (0, 0, Queued, Running, 100),
                (0, 10, Running, Stopping(Action::Cancel), 90),
                (0, 13, Stopping(Action::Cancel), cancelled, 90),
                (1, 13, Reserved, Running, 50),
                (1, 63, Running, Done(End::Completed), 0),
            ]
        );
        let a = m.accounts();
        assert_eq!((a.cancelled, a.completed, a.preemptions), (1, 1, 1));
    }

    /// 4 nodes. A Suspendable lease (0) of 4 nodes runs from 0 for 100. At 30 a reservation
    /// (1) of 4 nodes for 20 at 60: the suspension (10) runs `[50, 60)`, so lease 0 has done
    /// 50 and has 50 left. The reservation runs `[60, 80)`; then lease 0 resumes, pays
    /// `t_r = 7` over `[80, 87)` and runs exactly its 50 left: `[87, 137)`.
    #[test]
    fn a_suspendable_lease_resumes_then_runs_exactly_its_remaining_work() {
        let (m, log) = drained(
            4,
            &[
                (0, spec(4, 100, external(Class::Suspendable, None))),
                (30, spec(4, 20, Kind::Reservation(Notice::At(t(60))))),
            ],
        );
        let suspend = Stopping(Action::Suspend);
        assert_eq!(
            changes(&log),
            [
                (0, 0, Queued, Running, 100),
                (0, 50, Running, suspend, 50),
                (0, 60, suspend, Suspended, 50),
                (1, 60, Reserved, Running, 20),
                (1, 80, Running, Done(End::Completed), 0),
                (0, 80, Suspended, Resuming, 50),
                (0, 87, Resuming, Running, 50),
                (0, 137, Running, Done(End::Completed), 0),
            ]
        );
        assert_eq!(m.accounts().completed, 2);
    }

    /// 2 nodes. A Migratable lease (0) of 2 nodes with no deadline starts at once, for 100.
    /// A local request (1) at 40: the migration (20) runs `[40, 60)`, lease 0 ends `Migrated`
    /// at 60 handing back the 60 it had left at 40, and the request runs `[60, 70)`.
    #[test]
    fn a_migratable_lease_hands_back_its_remaining_work() {
        let (m, log) = drained(
            2,
            &[
                (0, spec(2, 100, external(Class::Migratable, None))),
                (40, spec(2, 10, Kind::Local)),
            ],
        );
        let migrate = Stopping(Action::Migrate);
        assert_eq!(
            changes(&log),
            [
                (0, 0, Reserved, Running, 100),
                (0, 40, Running, migrate, 60),
                (0, 60, migrate, Done(End::Migrated), 60),
                (1, 60, Reserved, Running, 10),
                (1, 70, Running, Done(End::Completed), 0),
            ]
        );
        assert_eq!(m.accounts().migrated, 1);
    }

    /// 2 nodes held by a non-preemptable lease (0) over `[0, 100)`. A local request (1) at 10
    /// cannot preempt it: it waits for its earliest fit, `[100, 110)`. A reservation (2) at 50
    /// cannot have its node: rejected. Nothing is preempted; lease 0 runs all its work.
    #[test]
    fn a_non_preemptable_lease_is_never_chosen() {
        let requests = [
            (0, spec(2, 100, external(Class::NonPreemptable, None))),
            (10, spec(2, 10, Kind::Local)),
            (20, spec(1, 10, Kind::Reservation(Notice::At(t(50))))),
        ];
        let (m, _) = submitted(2, &requests);
        assert_eq!(hold(&m, 1), Some((100, 110)));
        let (m, log) = drained(2, &requests);
        assert_eq!(
            first_state(&log, 2),
            Some(Done(End::Rejected(Error::NotFree)))
        );
        assert!(preempted(&log).is_empty());
        assert!(changes(&log).contains(&(0, 100, Running, Done(End::Completed), 0)));
        let a = m.accounts();
        assert_eq!((a.preemptions, a.rejected, a.completed), (0, 1, 2));
    }

    /// 2 nodes held by a local lease (0) over `[0, 50)`: every DC request's earliest fit is
    /// 50. A Migratable one (1) of 10 that must end by 59 would end at 60: rejected; by 60 (2):
    /// reserved `[50, 60)`. A non-preemptable one without a deadline (3) must start now:
    /// rejected; with deadline 100 (4; 1 node free over `[50, 60)`): reserved `[50, 55)`.
    #[test]
    fn a_dc_request_is_rejected_when_it_cannot_start_in_time() {
        let dc = |class, deadline, work| (0, spec(1, work, external(class, deadline)));
        let (m, log) = submitted(
            2,
            &[
                (0, spec(2, 50, Kind::Local)),
                dc(Class::Migratable, Some(59), 10),
                dc(Class::Migratable, Some(60), 10),
                dc(Class::NonPreemptable, None, 5),
                dc(Class::NonPreemptable, Some(100), 5),
            ],
        );
        let rejected = |e| Some(Done(End::Rejected(e)));
        assert_eq!(first_state(&log, 1), rejected(Error::DeadlineUnmet));
        assert_eq!(first_state(&log, 2), Some(Reserved));
        assert_eq!(first_state(&log, 3), rejected(Error::NotFree));
        assert_eq!(first_state(&log, 4), Some(Reserved));
        assert_eq!((hold(&m, 2), hold(&m, 4)), (Some((50, 60)), Some((50, 55))));
        assert_eq!(m.accounts().rejected, 2);
    }

    /// Conservative backfilling's rules: plans, MOML, local requests wait.
    const CONSERVATIVE: Rules = Rules {
        queue: Queue::Conservative,
        ..Rules::new(Policy::Moml)
    };

    /// 4 nodes, conservative backfilling; every lease Suspendable (`t_s = 10`, `t_r = 7`). At
    /// 0: A (3 nodes, 100) runs `[0, 100)`; B (4, 50) is planned `[100, 150)`; C (1, 80) fits
    /// beside A and ends before B's plan: planned `[0, 80)`, it starts at once (first come,
    /// first served would hold it behind B until 150); D (1, 120) is planned `[150, 270)`.
    /// At 10 a local request (2 nodes, 20) preempts A (C alone is short): A is suspended over
    /// `[10, 20)`, the request runs `[20, 40)`. A's nodes are free from 20, so every plan is
    /// put back at its earliest fit: B at `[80, 130)` (when C ends), D at `[130, 250)`. At 20
    /// A, suspended with 90 left, is planned behind them: `t_r + 90 = 97` on 3 nodes fits
    /// from 130, beside D: it resumes at 130 and runs `[137, 227)`. (Transitions of one instant
    /// go in submission order: B starts at 80 before C, whose nodes are free at 80, ends.)
    #[test]
    fn conservative_backfilling_plans_every_queued_lease_and_moves_plans_earlier() {
        let be = |nodes, work| spec(nodes, work, external(Class::Suspendable, None));
        let requests = [
            (0, be(3, 100)),
            (0, be(4, 50)),
            (0, be(1, 80)),
            (0, be(1, 120)),
        ];
        let (m, _) = under(CONSERVATIVE, 4, &requests);
        assert_eq!(
            [plan(&m, 1), plan(&m, 3), hold(&m, 0), hold(&m, 2)],
            [
                Some((100, 150)),
                Some((150, 270)),
                Some((0, 100)),
                Some((0, 80))
            ]
        );
        let (mut m, mut log) = (m, Log::new());
        m.submit(t(10), spec(2, 20, Kind::Local), &mut |e| {
            log.push(e).unwrap()
        })
        .unwrap();
        assert_eq!(
            [plan(&m, 1), plan(&m, 3)],
            [Some((80, 130)), Some((130, 250))]
        );
        let (m, log) = drain(m, log);
        let suspend = Stopping(Action::Suspend);
        assert_eq!(
            changes(&log),
            [
                (0, 10, Running, suspend, 90),
                (0, 20, suspend, Suspended, 90),
                (4, 20, Reserved, Running, 20),
                (4, 40, Running, Done(End::Completed), 0),
                (1, 80, Queued, Running, 50),
                (2, 80, Running, Done(End::Completed), 0),
                (0, 130, Suspended, Resuming, 90),
                (1, 130, Running, Done(End::Completed), 0),
                (3, 130, Queued, Running, 120),
                (0, 137, Resuming, Running, 90),
                (0, 227, Running, Done(End::Completed), 0),
                (3, 250, Running, Done(End::Completed), 0),
            ]
        );
        assert_eq!((m.accounts().completed, m.accounts().preemptions), (5, 1));
        assert!(m.plans().is_empty() && m.table().is_empty());
    }

    /// 4 nodes held over `[0, 100)` by a non-preemptable lease (0); best-effort B and C (2
    /// nodes, 50 each) are planned side by side over `[100, 150)`. A local request (4 nodes,
    /// 30) at 10 cannot preempt anything. If it waits, it is reserved at its earliest fit in
    /// the table, `[100, 130)`, which takes the nodes of both plans: C's (the later) and then
    /// B's are taken away and placed again, in submission order, after it: `[130, 180)` both.
    /// If local requests that cannot start are rejected, it is, and the plans stay.
    #[test]
    fn a_local_request_displaces_plans_or_is_rejected() {
        let requests = [
            (0, spec(4, 100, external(Class::NonPreemptable, None))),
            (0, spec(2, 50, external(Class::Cancelable, None))),
            (0, spec(2, 50, external(Class::Suspendable, None))),
            (10, spec(4, 30, Kind::Local)),
        ];
        let (m, _) = under(CONSERVATIVE, 4, &requests);
        assert_eq!(hold(&m, 3), Some((100, 130)));
        assert_eq!([plan(&m, 1), plan(&m, 2)], [Some((130, 180)); 2]);
        let reject = Rules {
            local: Admission::Reject,
            ..CONSERVATIVE
        };
        let (m, log) = under(reject, 4, &requests);
        assert_eq!(
            first_state(&log, 3),
            Some(Done(End::Rejected(Error::NotFree)))
        );
        assert_eq!([plan(&m, 1), plan(&m, 2)], [Some((100, 150)); 2]);
        assert_eq!(m.accounts().rejected, 1);
    }

    /// Under the default rules a local request that neither fits nor can preempt waits (see
    /// [`a_non_preemptable_lease_is_never_chosen`]); with [`Admission::Reject`] it is rejected,
    /// but one that preemption serves still starts.
    #[test]
    fn rejecting_local_requests_spares_those_preemption_serves() {
        let reject = Rules {
            local: Admission::Reject,
            ..Rules::new(Policy::Mov)
        };
        let (m, log) = under(
            reject,
            4,
            &[
                (0, spec(2, 100, external(Class::NonPreemptable, None))),
                (0, spec(2, 100, external(Class::Cancelable, None))),
                (10, spec(2, 10, Kind::Local)),
                (10, spec(2, 10, Kind::Local)),
            ],
        );
        assert_eq!(first_state(&log, 2), Some(Reserved));
        assert_eq!(hold(&m, 2), Some((13, 23)));
        assert_eq!(
            first_state(&log, 3),
            Some(Done(End::Rejected(Error::NotFree)))
        );
    }

    /// A best-effort lease planned behind a non-preemptable one moves up when the caller
    /// cancels that lease early: at 30 its plan goes from `[100, 150)` to `[30, 80)`, and it
    /// starts then.
    #[test]
    fn a_cancellation_moves_plans_earlier() {
        let (mut m, mut log) = under(
            CONSERVATIVE,
            4,
            &[
                (0, spec(4, 100, external(Class::NonPreemptable, None))),
                (0, spec(4, 50, external(Class::Cancelable, None))),
            ],
        );
        assert_eq!(plan(&m, 1), Some((100, 150)));
        m.cancel(t(30), id(0), &mut |e| log.push(e).unwrap())
            .unwrap();
        assert_eq!((plan(&m, 1), hold(&m, 1)), (None, Some((30, 80))));
        assert!(changes(&log).contains(&(1, 30, Queued, Running, 50)));
    }
}
