//! The lease manager of one cluster: admission ([`Manager::submit`]), time
//! ([`Manager::next_event`], [`Manager::advance`]), the first-come-first-served queue of best
//! effort, the caller's cancellations and failures, and the application of preemption plans
//! (made by [`super::plan`]).
//!
//! # Invariants (besides the module's)
//! - `leases` holds the live leases in submission order, so in increasing id: a plan's targets
//!   are found by binary search.
//! - The slot table holds exactly the live leases' reservations ([`Lease::hold`]).
//! - `now` never decreases; `next_id` is the id the next accepted submission gets.
//!
//! # Memory
//! `size_of::<Manager<L, B>>()` is `120 L` (the leases) `+ 16 B + 16` (the table) plus about
//! 100 bytes; 9,856 bytes for `Manager<64, 128>`, on x86-64 and `thumbv7em` alike.

use heapless::Vec;

use super::{
    Accounts, Action, Cause, Demand, End, Event, Kind, Lease, LeaseId, Notice, Overheads, Plan,
    Spec, State, Stop, Target, Targets, plan,
};
use crate::error::{Error, Param, Refused};
use crate::preempt::{Class, Policy};
use crate::slots::{SlotTable, Span};
use crate::units::{Nodes, Ticks};
use crate::vecops;

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
            now: Ticks::ZERO,
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
                done: Ticks::ZERO,
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
    /// their nodes), reserves its nodes and returns its reservation. All or nothing: a
    /// [`plan`] over the live leases' targets ([`collect`](Self::collect)), then
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
        let mut targets = Targets::new();
        self.collect(&demand, &mut targets);
        let plan = plan(&self.table, &targets, &demand, self.policy)?;
        self.apply(by, spec.nodes, &targets, &plan)?;
        Ok(plan.span)
    }

    /// Pushes onto `targets` the live leases `demand` may preempt: running with no stop
    /// pending, each as a [`Target`] if it can be one; less valuable classes first, then in
    /// submission order; until `targets` is full. `O(L)`. (Filled in place: [`Targets`] is
    /// 3 KiB, which a returned value would copy through a temporary on the stack.)
    fn collect(&self, demand: &Demand, targets: &mut Targets) {
        for class in Class::PREEMPTABLE {
            for l in &self.leases {
                let Some(run) = l.hold else { continue };
                if l.state != State::Running || l.stop.is_some() || l.spec.class() != class {
                    continue;
                }
                let target = Target::new(l.id, class, l.spec.nodes, run, &self.overheads, demand);
                if target.is_some_and(|t| targets.push(t).is_err()) {
                    return;
                }
            }
        }
    }

    /// Applies `plan`, made from `targets`, for request `by` of `nodes` nodes: trims every
    /// chosen lease's reservation to its release, reserves the request's span, and marks each
    /// chosen lease to stop ([`Lease::stop`]). All or nothing: if the table refuses, it is
    /// restored and the error returned. `O(64 (B + log L))`.
    fn apply(
        &mut self,
        by: LeaseId,
        nodes: Nodes,
        targets: &Targets,
        plan: &Plan,
    ) -> Result<(), Error> {
        let mut trimmed = 0usize;
        let mut applied = Ok(());
        for t in plan.chosen(targets) {
            if let Err(r) = self.table.release(t.release, t.run_end, t.nodes) {
                applied = Err(r.reason);
                break;
            }
            trimmed += 1;
        }
        if applied.is_ok() {
            applied = self
                .table
                .reserve(plan.span.start, plan.span.end, nodes)
                .map_err(|r| r.reason);
        }
        if let Err(e) = applied {
            for t in plan.chosen(targets).take(trimmed) {
                // Cannot fail: it restores the table as it was (same nodes, same breakpoints).
                let _ = self.table.reserve(t.release, t.run_end, t.nodes);
            }
            return Err(e);
        }
        for t in plan.chosen(targets) {
            let (Some(action), Ok(i)) = (
                Action::of(t.class),
                self.leases.binary_search_by_key(&t.id, |l| l.id),
            ) else {
                continue;
            };
            if let Some(l) = self.leases.get_mut(i) {
                l.hold = l.hold.map(|h| Span {
                    start: h.start,
                    end: t.release,
                });
                l.stop = Some(Stop {
                    by,
                    action,
                    begin: t.begin,
                    end: t.release,
                });
                self.accounts.preemptions = self.accounts.preemptions.saturating_add(1);
            }
        }
        Ok(())
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
        let mut m = Manager::new(nodes, OVERHEADS, Policy::Moml).unwrap();
        let mut log = Log::new();
        for &(now, s) in requests {
            m.submit(t(now), s, &mut |e| log.push(e).unwrap()).unwrap();
        }
        (m, log)
    }

    /// [`submitted`], then every transition left.
    fn drained(nodes: Nodes, requests: &[(u64, Spec)]) -> (Cluster, Log) {
        let (mut m, mut log) = submitted(nodes, requests);
        while let Some(t) = m.next_event() {
            m.advance(t, &mut |e| log.push(e).unwrap()).unwrap();
        }
        (m, log)
    }

    /// `(id, at, from, to, remaining)` of every state change, in order.
    fn changes(log: &Log) -> Vec<(LeaseId, u64, State, State, u64), 32> {
        log.iter()
            .filter_map(|e| match *e {
                Event::Changed {
                    id,
                    at,
                    from,
                    to,
                    remaining,
                } => Some((id, at.get(), from, to, remaining.get())),
                _ => None,
            })
            .collect()
    }

    fn preempted(log: &Log) -> Vec<(LeaseId, Stop), 8> {
        log.iter()
            .filter_map(|e| match *e {
                Event::Preempted { id, stop } => Some((id, stop)),
                _ => None,
            })
            .collect()
    }

    fn first_state(log: &Log, of: LeaseId) -> Option<State> {
        log.iter().find_map(|e| match *e {
            Event::Submitted { id, state, .. } if id == of => Some(state),
            _ => None,
        })
    }

    fn hold(m: &Cluster, id: LeaseId) -> Option<(u64, u64)> {
        m.lease(id)
            .and_then(Lease::hold)
            .map(|h| (h.start.get(), h.end.get()))
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
            by: 1,
            action: Action::Cancel,
            begin: t(10),
            end: t(13),
        };
        assert_eq!(preempted(&log), [(0, stop)]);
        let cancelled = Done(End::Cancelled(Cause::Preempted(1)));
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
}
