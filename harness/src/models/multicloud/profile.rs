//! A cloud's planning profile: how its manager answers "the earliest resource available time"
//! (ERAT, gandhimathi2013 Sec. 2.1 and 3.1.4) for a task of `w` VMs running `D`: the earliest
//! instant from which `w` VMs stay free for `D` in the profile (the kernel's
//! [`SlotTable::earliest_fit`](qosgate_kernel::slots::SlotTable::earliest_fit)).
//!
//! The profile is the cloud's own view of its future, built from what its manager knows:
//! 1. the VMs its live leases hold (running, suspending, resuming, and reservations from their
//!    start), exactly as its lease manager's slot table holds them;
//! 2. its queue of best-effort leases (waiting or suspended), first come, first served, then
//!    (under `queue = "assigned"`) its best-effort tasks waiting in assignment order: each at
//!    its earliest fit no earlier than the one before it (none overtakes another);
//! 3. the tasks promised to it but not yet submitted (waiting for predecessors or their
//!    dataset), in the order of their planned starts, each at its earliest fit from its planned
//!    start (or now, if that has passed).
//!
//! A second profile holds only the advance reservations (1 and 3, reservations only): a
//! reservation preempts best-effort leases, so its ERAT is its earliest fit among reservations.
//! A reservation's hold is added to the first profile as far as it fits there (the best-effort
//! leases it would overlap will be suspended, so they no longer hold those VMs).
//!
//! The world rebuilds a cloud's profiles ([`Profile::rebuild`]) before it asks the cloud
//! anything after the cloud changed (a lease started, ended, was submitted or preempted); while
//! one application is being scheduled, each decision is added to its cloud's profile
//! ([`Profile::hold`]), so the next question sees it. The profile is an estimate: reservations
//! arriving later preempt leases, predecessors finish late, the queue does not start leases at
//! their projected instants. That gap is what DCLS and DCMMS's feedback factors measure.

use anyhow::{Context, Result, anyhow};
use qosgate_kernel::lease::{Kind, State};
use qosgate_kernel::units::Ticks;

use super::capacity::{Leases, Plan};
use crate::des::boxed::boxed;

/// A task promised to the cloud but not yet submitted to its lease manager.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Promise {
    /// It cannot start before this (its planned start).
    pub not_before: Ticks,
    /// Whether it is an advance reservation.
    pub reservation: bool,
    /// VMs.
    pub width: u32,
    /// Its run here (image transfer and execution).
    pub run: Ticks,
}

/// The two profiles of one cloud (see the module's documentation).
#[derive(Debug)]
pub struct Profile {
    nodes: u32,
    all: Box<Plan>,
    reserved: Box<Plan>,
}

impl Profile {
    /// Empty profiles of a cloud of `nodes` VMs.
    ///
    /// Errors: `nodes` is zero.
    pub fn new(nodes: u32) -> Result<Self> {
        Ok(Self {
            nodes,
            all: boxed(|slot| Plan::init(slot, nodes)).context("a cloud without VMs")?,
            reserved: boxed(|slot| Plan::init(slot, nodes)).context("a cloud without VMs")?,
        })
    }

    /// The earliest instant from `from` at which `width` VMs are free for `run`, among every
    /// hold (best effort) or among reservations only (`reservation`); `None` if the cloud
    /// cannot take the task (too few VMs).
    pub fn erat(&self, reservation: bool, from: Ticks, width: u32, run: Ticks) -> Option<Ticks> {
        let table = if reservation {
            &self.reserved
        } else {
            &self.all
        };
        table.earliest_fit(from, width, run).ok().flatten()
    }

    /// Adds a decision: `width` VMs over `[start, end)` (see the module's documentation for a
    /// reservation's).
    ///
    /// Errors: the VMs are not free there (the caller asked for the ERAT first), or a profile
    /// is full.
    pub fn hold(&mut self, reservation: bool, start: Ticks, end: Ticks, width: u32) -> Result<()> {
        if start >= end {
            return Ok(());
        }
        let refused = |r: qosgate_kernel::Refused<_>| anyhow!("planning profile: {}", r.reason);
        if reservation {
            self.reserved.reserve(start, end, width).map_err(refused)?;
            let room = self.all.min_free(start, end)?.clamp(0, i64::from(width));
            if room > 0 {
                self.all.reserve(start, end, room as u32).map_err(refused)?;
            }
        } else {
            self.all.reserve(start, end, width).map_err(refused)?;
        }
        Ok(())
    }

    /// Rebuilds both profiles at `now` from the cloud's lease manager (its leases' holds, then
    /// its queue, a suspended lease paying `resume` again), the best-effort tasks `waiting` to
    /// join that queue (VMs and run, in their order) and its `promises` (in the order given: by
    /// planned start).
    ///
    /// Errors: a profile is full (more breakpoints than the model's capacity).
    pub fn rebuild(
        &mut self,
        now: Ticks,
        leases: &Leases,
        resume: Ticks,
        waiting: impl Iterator<Item = (u32, Ticks)>,
        promises: impl Iterator<Item = Promise>,
    ) -> Result<()> {
        for table in [&mut self.all, &mut self.reserved] {
            clear(table, self.nodes)?;
        }
        for l in leases.leases() {
            let Some(h) = l.hold() else { continue };
            let start = h.start.max(now);
            if start < h.end {
                let reservation = matches!(l.spec().kind, Kind::Reservation(_));
                self.hold(reservation, start, h.end, l.spec().nodes)?;
            }
        }
        let queue = leases.leases().iter().filter_map(|l| match l.state() {
            State::Queued => Some((l.spec().nodes, l.remaining())),
            State::Suspended => Some((l.spec().nodes, l.remaining().saturating_add(resume))),
            _ => None,
        });
        let mut previous = now;
        for (width, run) in queue.chain(waiting) {
            if let Some(s) = self.erat(false, previous, width, run) {
                self.hold(false, s, s.saturating_add(run), width)?;
                previous = s;
            }
        }
        for p in promises {
            let from = p.not_before.max(now);
            if let Some(s) = self.erat(p.reservation, from, p.width, p.run) {
                self.hold(p.reservation, s, s.saturating_add(p.run), p.width)?;
            }
        }
        Ok(())
    }
}

/// Empties `table`. Every hold of a profile ends before the end of time, so forgetting the
/// history before `Ticks::MAX` drops every breakpoint in place (no 256 KiB table is built and
/// moved); a table that still holds something is replaced.
fn clear(table: &mut Plan, nodes: u32) -> Result<()> {
    table.forget_before(Ticks::MAX);
    if !table.is_empty() {
        *table = Plan::new(nodes)?;
    }
    Ok(())
}
