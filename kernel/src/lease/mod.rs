//! Leases of one cluster: admission, start, completion and preemption with Haizea's timing
//! (salehi2012 Sec. 2.1 and 5, salehi2011 Sec. III, gandhimathi2013 Sec. 2.2).
//!
//! A [`Manager`] owns the [`SlotTable`] of one cluster of identical nodes and a fixed table of
//! live leases. The caller passes `now` into every call and drives time with
//! [`Manager::next_event`] and [`Manager::advance`]; everything that happens is reported, with
//! its instant, through an `out: FnMut(Event)` callback. The kernel has no clock.
//!
//! # Units
//! Times and durations in [`Ticks`] (µs); a lease's `work` is its run time on this cluster, in
//! ticks (the caller converts MI with [`crate::units::exec_ticks`]). Nodes are [`Nodes`].
//! Overheads ([`Overheads`]) default to the paper's (salehi2012 Sec. 5, after Sotomayor et al.):
//! suspend 160 s, resume 126 s, migrate 372.5 s, cancel 0.
//!
//! # Kinds of lease ([`Kind`])
//! - [`Kind::Local`]: a local request (salehi2012). Never preempted. Starts now if it fits, else
//!   preempts external leases (below), else, by the manager's [`Admission`] rule, waits for its
//!   earliest fit (a reservation; the default) or is **rejected** (salehi2012 Sec. 5.3.3).
//! - [`Kind::External`] of a [`Class`] (salehi2012 Sec. 2.1): best effort (`Cancelable`,
//!   `Suspendable`) is queued, by the manager's [`Queue`] discipline:
//!   - [`Queue::Fcfs`] (the default): strict order of submission: the head of the queue starts
//!     as soon as its whole run fits; no lease overtakes it;
//!   - [`Queue::Conservative`] (conservative backfilling, salehi2012 Sec. 4.1): every queued
//!     lease gets a *plan* at its earliest fit, with the running leases, the reservations and
//!     every earlier plan in place, and starts when its plan begins; a later best-effort lease
//!     never delays it. Plans are tentative: a local, deadline-constrained or reserved lease
//!     placed over them takes their nodes, and the plans it overlaps are taken away, latest
//!     submitted first, until the rest fit, then placed again at their earliest fit. Whenever
//!     nodes come free before a run's planned end (a preemption, a cancellation or failure),
//!     every plan those nodes could serve (somewhere in the span they are freed over, at least
//!     its nodes are free) is taken out and put back at its earliest fit, in submission order:
//!     never later than it was; a plan that moves up frees its old place for the next. A
//!     suspended lease is planned anew (resume overhead included) behind every plan in place.
//!
//!   Deadline-constrained (`Migratable`, `NonPreemptable`, "DC") starts at its earliest fit if
//!   that meets its `deadline` (an instant by which it must complete), or now if it has none;
//!   otherwise it is **rejected** ("DC requests are rejected if there is not enough resources
//!   for them to start"). Fits are judged on the leases that hold nodes: plans give way.
//! - [`Kind::Reservation`]: an advance reservation (gandhimathi2013). Never preempted. With
//!   [`Notice::At`] (non-zero advance notice) it must start exactly at its instant: it fits,
//!   or preempts, or is rejected. With [`Notice::Zero`] it starts as soon as possible, like a
//!   local request that waits.
//!
//! # Preemption
//! A local request or a reservation that does not fit preempts running `Cancelable`,
//! `Suspendable` and `Migratable` leases (never `NonPreemptable`, local or reservation leases),
//! chosen by [`crate::lease::preempt::select`] under the manager's [`Policy`] (MOML, MOV or MLIP) and
//! [`Preference`] (by default less valuable types first: Cancelable, then Suspendable, then
//! Migratable; or every class alike). Running leases of one class and size are one *kind* of
//! candidate with a count (interchangeable for every policy; of a kind, the oldest go first); a
//! candidate's overhead is node-ticks: its nodes times the per-VM time its preemption costs
//! ([`Overheads::cost`]: `t_c`, `t_s + t_r`, `t_m`). Every running lease is considered, in at
//! most [`MAX_CANDIDATES`] kinds (less valuable classes first, then in submission order: always
//! enough for a cluster of up to 682 nodes, see [`crate::lease::preempt`]); at most [`SEARCH`] candidate
//! sets are enumerated.
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
//! If preemption cannot make room, a zero-notice request is reserved at its earliest fit
//! without preemption, a local request too (or rejected, by the [`Admission`] rule), and a
//! reservation with notice is rejected (gandhimathi2013: "the only case where an AR task is
//! rejected").
//!
//! **Plan, then apply.** A preemption is computed as a pure [`plan`](fn@plan) from plain data
//! (the slot table, the [`Targets`] collected from the running leases, the [`Demand`]): targets,
//! then the [`Need`], then the choice. The manager then applies the [`Plan`] in a separate step:
//! it picks the leases of each chosen kind, trims their reservations to their releases, reserves
//! the request's, and marks the chosen leases with their [`Stop`]. Either step fails without
//! changing anything.
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
//!   compile time: `BREAKPOINTS >= 2 LEASES`). A second table holds exactly the plans of the
//!   waiting leases (conservative backfilling), each beginning after `now`; stacked on the first
//!   it never promises more than the cluster from `now` on.
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
//! `L` = `LEASES`, `B` = `BREAKPOINTS`, `g <= 64` the kinds of a preemption. Per decision:
//! - a transition (a start, completion, stop, suspension, resumption) is `O(L + B)`: finding
//!   the next one is one scan of the leases (one more at the end of each instant), and a
//!   reservation or release shifts a table; [`Manager::next_event`] is `O(L)`;
//! - a submission that does not preempt is `O(L + B)` (validation, one earliest fit and one
//!   reservation); under conservative backfilling each plan it takes away adds `O(L + B)`, and
//!   placing that plan again `O(B)`;
//! - a preemption adds collecting the targets `O(L g)`, the need `O((B + L) log (B + L))`, the
//!   selection (see [`crate::lease::preempt`]: at most about 33,000 steps, independent of `L`),
//!   applying `O(L g + c B)` for `c` leases chosen;
//! - under conservative backfilling, the pass that follows nodes coming free early (a
//!   preemption, a cancellation, a failure) puts back each of the `Q <= L` plans the freed
//!   nodes could serve: `O(L + Q B)` at worst, the only step above `O(L)` per lease (a plan
//!   too wide for the largest free count of the freed span is skipped in `O(1)`); a suspension
//!   adds one plan, `O(B)`;
//! - first come, first served starts each queued lease in `O(L + B)`.
//!
//! An `advance` over `k` transitions is `k` times the transition's bound. Measured with `cargo
//! bench --bench leases -- scale` (x86-64, a shared 2-core VM): with 256 / 1,024 live leases (half
//! running one node each, half queued), a preemption cycle (a local request preempting 16
//! leases, then about 85 transitions until they run again) takes 50 / 192 µs, against 63 / 230
//! µs before (when a preemption saw only the first 64 running leases and each
//! transition scanned the leases twice); `next_event` 0.49 / 1.9 µs; a queued submission and
//! its cancellation 2.3 / 9.6 µs.
//!
//! No recursion, no allocation. Memory: a [`Lease`] is 120 bytes and
//! `size_of::<Manager<64, 128>>()` is 15,552 bytes on x86-64 (64 leases, two slot tables of
//! 2,064, the preemption's scratch [`Targets`] of 3,608, about 140 more); an [`Event`] is 64
//! bytes. The scratch lives in the manager so that a preemption's stack is only
//! [`crate::lease::preempt::select`]'s (about 2.5 KiB, plus `16 SEARCH` bytes for MOML) and a few
//! hundred bytes of frames.
//!
//! [`Error::Full`]: crate::Error::Full
//! [`Error::Overflow`]: crate::Error::Overflow
//! [`Error::TaskTooLarge`]: crate::Error::TaskTooLarge
//! [`MAX_CANDIDATES`]: crate::lease::preempt::MAX_CANDIDATES
//! [`Nodes`]: crate::units::Nodes
//! [`Refused`]: crate::Refused
//! [`SlotTable`]: crate::slots::SlotTable
//! [`Ticks`]: crate::units::Ticks

mod lifecycle;
mod manager;
mod plan;
pub mod preempt;
mod rules;
mod spec;
mod stop;

pub use lifecycle::{Accounts, Cause, End, Event, Lease, State};
pub use manager::Manager;
pub use plan::{Demand, Need, Plan, SEARCH, Target, Targets, need, plan};
pub use preempt::{Class, Policy, Preference};
pub use rules::{Admission, Queue, Rules};
pub use spec::{Kind, LeaseId, Notice, Spec};
pub use stop::{Action, Overheads, Stop};

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
