//! A lease's life: its [`State`]s, how it ends ([`End`], [`Cause`]), what the manager reports
//! ([`Event`]), the record of a live lease ([`Lease`]) and the counts of outcomes ([`Accounts`]).
//!
//! # Units
//! Instants and run times in [`Ticks`] (µs). A [`Lease`] is 120 bytes and an [`Event`] 64, on
//! x86-64 and `thumbv7em` alike; [`Accounts`] is seven `u64`s.
//!
//! # Invariants
//! - `done + remaining = work` for every lease ([`Lease::remaining`] is `work - done`, and
//!   `done` never exceeds `work`).
//! - A lease holds a reservation ([`Lease::hold`]) exactly in the states that hold nodes:
//!   `Reserved`, `Running`, `Stopping`, `Resuming`. `Queued` and `Suspended` hold none; under
//!   conservative backfilling they may have a *plan* ([`Lease::plan`]), a tentative
//!   reservation that starts them when it begins.
//! - `Accounts::submitted = ended() + live` (the manager's live leases), and every count only
//!   grows (saturating).

use super::{Action, LeaseId, Spec, Stop};
use crate::error::Error;
use crate::slots::Span;
use crate::units::Ticks;

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
    pub(super) id: LeaseId,
    pub(super) spec: Spec,
    pub(super) state: State,
    /// Run time completed before the current run began.
    pub(super) done: Ticks,
    /// In the states that hold nodes, its reservation in the manager's table; while `Queued`
    /// or `Suspended`, its plan (conservative backfilling), if it has one.
    pub(super) span: Option<Span>,
    /// `Reserved`: unused; `Running`: when the current run began; `Stopping`: when the action
    /// ends; `Resuming`: when the run begins.
    pub(super) mark: Ticks,
    pub(super) stop: Option<Stop>,
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

    /// Whether its state holds nodes: `Reserved`, `Running`, `Stopping`, `Resuming`.
    pub fn holds_nodes(&self) -> bool {
        matches!(
            self.state,
            State::Reserved | State::Running | State::Stopping(_) | State::Resuming
        )
    }

    /// The interval of its reservation in the slot table, if it holds nodes (`Reserved`,
    /// `Running`, `Stopping`, `Resuming`).
    pub fn hold(&self) -> Option<Span> {
        self.span.filter(|_| self.holds_nodes())
    }

    /// Its plan, while it waits (`Queued`, `Suspended`) under conservative backfilling: the
    /// interval over which it will run (after `t_r` for a suspended lease), if it has been
    /// placed.
    pub fn plan(&self) -> Option<Span> {
        self.span.filter(|_| !self.holds_nodes())
    }

    /// Its pending or current preemption.
    pub fn stop(&self) -> Option<Stop> {
        self.stop
    }

    /// The instant of its next transition, if it has one by itself (queued and suspended
    /// leases without a plan wait for nodes).
    pub(super) fn next(&self) -> Option<Ticks> {
        match self.state {
            State::Reserved | State::Queued | State::Suspended => self.span.map(|h| h.start),
            State::Running => Some(match self.stop {
                Some(stop) => stop.begin,
                None => self.mark.saturating_add(self.remaining()),
            }),
            State::Stopping(_) | State::Resuming => Some(self.mark),
            State::Done(_) => None,
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

    /// Counts one lease that ended so.
    pub(super) fn count(&mut self, end: End) {
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
