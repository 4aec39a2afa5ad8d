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
//! **How many nodes to free.** Preempting a lease frees its nodes from its release to its end;
//! [`need`] computes how many must be freed over the window the request may occupy (exact when
//! the free count is smallest at the window's start, safe otherwise).
//!
//! If preemption cannot make room, a local or zero-notice request is reserved at its earliest
//! fit without preemption, and a reservation with notice is rejected (seed 003: "the only case
//! where an AR task is rejected").
//!
//! **Plan, then apply.** A preemption is computed as a pure [`plan`] from plain data (the slot
//! table, the [`Targets`] collected from the running leases, the [`Demand`]): targets, then the
//! [`Need`], then the choice. The manager then applies the [`Plan`] in a separate step: it trims
//! the chosen leases' reservations to their releases, reserves the request's, and marks the
//! chosen leases with their [`Stop`]. Either step fails without changing anything.
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
//! each: `O(L (L + B))` per call. `submit` adds one preemption: collecting targets `O(L)`,
//! the need `O((B + 64) 64)`, the selection (see [`crate::preempt`], at most about 33,000 steps),
//! applying `O(64 (B + log L))`. No recursion, no allocation. Memory: a [`Lease`] is 120 bytes
//! and `size_of::<Manager<64, 128>>()` is 9,856 bytes, on x86-64 and `thumbv7em` alike (64
//! leases, the slot table's 2,064, about 100 more); an [`Event`] is 64 bytes. A preemption's
//! frames take about 6.2 KiB of stack on `thumbv7em` at opt-level `s` (measured from the
//! prologues): 3.3 KiB in the manager's, mostly the 3 KiB of [`Targets`]; 0.2 KiB for the
//! [`plan`]; 2.8 KiB for the selection, 2 KiB of it MOML's overheads (`16 SEARCH` bytes); and
//! up to 1.4 KiB more in the selection's sort.
//!
//! [`Error::Full`]: crate::Error::Full
//! [`Error::Overflow`]: crate::Error::Overflow
//! [`Error::TaskTooLarge`]: crate::Error::TaskTooLarge
//! [`MAX_CANDIDATES`]: crate::preempt::MAX_CANDIDATES
//! [`Nodes`]: crate::units::Nodes
//! [`Refused`]: crate::Refused
//! [`SlotTable`]: crate::slots::SlotTable
//! [`Ticks`]: crate::units::Ticks

mod lifecycle;
mod manager;
mod preemption;
mod spec;
mod stop;

pub use lifecycle::{Accounts, Cause, End, Event, Lease, State};
pub use manager::Manager;
pub use preemption::{Demand, Need, Plan, SEARCH, Target, Targets, need, plan};
pub use spec::{Kind, LeaseId, Notice, Spec};
pub use stop::{Action, Overheads, Stop};

pub use crate::preempt::{Class, Policy};

/// What the unit tests of the manager and of the preemption plan share.
#[cfg(test)]
mod fixture {
    use super::Overheads;
    use crate::units::Ticks;

    /// Per-VM overheads small enough to follow by hand: `t_s = 10`, `t_r = 7`, `t_m = 20`,
    /// `t_c = 3`.
    pub(super) const OVERHEADS: Overheads = Overheads {
        suspend: t(10),
        resume: t(7),
        migrate: t(20),
        cancel: t(3),
    };

    /// `ticks` ticks: the tests count time in plain ticks.
    pub(super) const fn t(ticks: u64) -> Ticks {
        Ticks::new(ticks)
    }
}
