//! Slot table: the free-node profile of one cluster over future time.
//!
//! A cluster has `nodes` identical nodes. Over future time the table keeps two step functions,
//! `down(t)` (nodes failed or taken out of service) and `reserved(t)` (nodes promised to
//! reservations: running jobs, queued jobs' reservations under conservative backfilling, advance
//! reservations), and derives
//!
//! ```text
//! free(t) = nodes - down(t) - reserved(t)
//! ```
//!
//! Every operation takes explicit times (the kernel has no clock). Intervals are half-open,
//! `[start, end)`, with `start < end <= Ticks::MAX`; `end == Ticks::MAX` means "until further
//! notice". The instant `Ticks::MAX` itself belongs to no interval: nothing can be scheduled
//! there and the table stores no breakpoint at it ([`SlotTable::free_at`] reports the last step).
//!
//! # Units
//! Times and durations in [`Ticks`] (µs, see [`crate::units`]); node counts in [`Nodes`] (`u32`, see [`crate::units`]).
//! Free counts are [`i64`], since a failure may drive them negative (below).
//!
//! # Operations
//! - [`SlotTable::reserve`] adds to `reserved` over an interval. It is a *request*: refused
//!   ([`Error::NotFree`]) if `free` would go below zero at any instant of the interval.
//! - [`SlotTable::release`] takes a reservation (or part of one) back: early completion of a job
//!   reserved over `[s, e)` that ends at `now` is `release(now, e, n)`; cancelling a queued job's
//!   reservation is `release(s, e, n)`. Refused ([`Error::NotReserved`]) where fewer than `n` nodes
//!   are reserved, so `reserved` never goes negative and `free` never exceeds `nodes - down`.
//! - [`SlotTable::node_down`] adds to `down` over an interval (a failure, from its instant to the
//!   expected repair or `Ticks::MAX`; or planned maintenance). It is a *fact*, not a request:
//!   it is applied even where `free` becomes negative, i.e. where the failure hits nodes that
//!   reservations hold. It returns the [`Span`] of the interval where `free < 0` after the
//!   failure, so that the caller can stop (javadi2012: a failure stops the whole request) or
//!   requeue the reservations that overlap it and [`release`](SlotTable::release) them, which
//!   brings `free` back to `>= 0`. It is refused only if more nodes would be down than exist.
//! - [`SlotTable::node_up`] takes a down interval (or part of one) back: a repair at `t` of a
//!   failure recorded until `Ticks::MAX` is `node_up(t, Ticks::MAX, n)`.
//! - [`SlotTable::forget_before`] drops the history before an instant (the counts there read as
//!   at that instant), so that a table driven forward in time keeps only the breakpoints it needs.
//! - [`SlotTable::earliest_fit`], [`SlotTable::min_free`], [`SlotTable::free_at`] read.
//!
//! Keeping `down` and `reserved` apart (rather than one `free` function) lets every operation
//! check exactly what it undoes: a release can never free more than was reserved, a repair never
//! more than was down, and the overcommitment a failure causes stays visible (`free < 0`) until
//! the caller resolves it. Backfilling (conservative, EASY), advance reservations (gandhimathi2013)
//! and failures (javadi2012) are built on these four mutations and `earliest_fit`.
//!
//! # Invariants
//! The table stores *breakpoints* `(at, down, reserved)`: from `at` until the next breakpoint,
//! `down(t)` and `reserved(t)` take these values; before the first breakpoint both are zero.
//! - times are strictly increasing, and below `Ticks::MAX`;
//! - the table is minimal: the first breakpoint differs from `(0, 0)` and adjacent breakpoints
//!   differ in `(down, reserved)`, so an empty cluster holds no breakpoint and every operation
//!   that undoes another restores the same table;
//! - `0 <= down(t) <= nodes` and `0 <= reserved(t)`; `free(t) >= 0` except where a
//!   [`node_down`](SlotTable::node_down) overcommitted it (then `free(t) >= -reserved(t)`);
//!   with no failure, `0 <= free(t) <= nodes`.
//!
//! # Errors
//! Mutations take a [`Request`] and, if they cannot apply it, return it in [`Refused`] with the
//! reason; nothing is half-applied (every check runs before the first write):
//! - `InvalidParameter(Delay)`: `start >= end`; `InvalidParameter(Capacity)`: `nodes == 0`;
//! - [`Error::TaskTooLarge`]: `nodes` exceeds the cluster's;
//! - [`Error::NotFree`]: `reserve` where fewer than `nodes` nodes are free at some instant;
//! - [`Error::NotReserved`]: `release` / `node_up` of more than is reserved / down at some instant;
//! - `InvalidParameter(Capacity)`: `node_down` that would put more than `nodes` nodes down;
//! - [`Error::Full`]: the result would need more than `BREAKPOINTS` breakpoints.
//!
//! # Cost and memory
//! `B` is the current number of breakpoints (at most `BREAKPOINTS`). `free_at` is `O(log B)`;
//! `min_free` and the checks of the mutations are `O(log B + k)`, `k` the breakpoints inside the
//! interval; a mutation's commit shifts the array for at most two insertions or removals, `O(B)`
//! element moves. `earliest_fit` is `O(log B + k)`, `k` the breakpoints it passes,
//! at most `B`. No division, no recursion, no allocation, no panic path (no index the compiler
//! cannot prove in range). The code is written once for every capacity, over a slice or a
//! [`VecView`] of the breakpoints: a program with tables of two capacities carries one copy.
//! Memory: `size_of::<SlotTable<B>>() == 16 B + 16` bytes on x86-64, `thumbv6m` and
//! `thumbv7em` alike (a [`Step`] is 16 bytes, 8-aligned; 1,040 bytes for `B = 64`, 65,552 for
//! `B = 4096`); a [`Request`] is 24 bytes. A reservation of `[s, e)` needs at most two
//! breakpoints, so `B = 2 J + 2 F` holds `J` reservations and `F` failures in the worst case.

use core::mem::MaybeUninit;

use heapless::{Vec, VecView};

use crate::error::{Error, Param, Refused};
use crate::storage::{inplace, vecops};
use crate::units::{Nodes, Ticks};

/// One breakpoint: from `at` until the next one, `down` nodes are down and `reserved` reserved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Step {
    /// The instant from which these counts hold.
    pub at: Ticks,
    /// Nodes down.
    pub down: Nodes,
    /// Nodes reserved.
    pub reserved: Nodes,
}

/// `nodes` nodes over `[start, end)`: what a mutation is asked to apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Request {
    /// First instant.
    pub start: Ticks,
    /// First instant after the interval (`Ticks::MAX`: until further notice).
    pub end: Ticks,
    /// Nodes.
    pub nodes: Nodes,
}

/// A half-open interval `[start, end)` of time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Span {
    /// First instant.
    pub start: Ticks,
    /// First instant after it.
    pub end: Ticks,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Reserve,
    Release,
    Down,
    Up,
}

/// The free-node profile of a cluster, in at most `BREAKPOINTS` breakpoints.
///
/// The methods are thin: the work is done once for every capacity, over a slice (reads) or a
/// [`VecView`] (mutations) of the breakpoints, so that a program holding tables of several
/// capacities carries one copy of the code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotTable<const BREAKPOINTS: usize> {
    nodes: Nodes,
    steps: Vec<Step, BREAKPOINTS>,
}

impl<const BREAKPOINTS: usize> SlotTable<BREAKPOINTS> {
    const HAS_ROOM: () = assert!(BREAKPOINTS >= 2, "a reservation needs two breakpoints");

    /// A cluster of `nodes` nodes, all up and free at every instant.
    ///
    /// Errors: `InvalidParameter(Capacity)` if `nodes` is zero.
    #[allow(unsafe_code)]
    pub fn new(nodes: Nodes) -> Result<Self, Error> {
        // SAFETY: `init` initialises the slot when it returns `Ok`.
        unsafe { inplace::by_value(|slot| Self::init(slot, nodes)) }
    }

    /// Writes [`SlotTable::new`]'s table into `slot`, in place: only its node count and the
    /// length of its (empty) breakpoints, not the `BREAKPOINTS` entries. On an error nothing is
    /// written to `slot` (every argument is checked first).
    ///
    /// Errors: those of [`SlotTable::new`].
    #[allow(unsafe_code)]
    pub fn init(slot: &mut MaybeUninit<Self>, nodes: Nodes) -> Result<&mut Self, Error> {
        let () = Self::HAS_ROOM;
        Self::check(nodes)?;
        let p = slot.as_mut_ptr();
        // SAFETY: `p` is `slot`'s, valid and aligned for writes of `Self`; each field is reached
        // as a raw place, and after the writes every field is initialised (the pattern names
        // them all).
        let table = unsafe {
            (&raw mut (*p).nodes).write(nodes);
            (&raw mut (*p).steps).write(Vec::new());
            slot.assume_init_mut()
        };
        let Self { nodes: _, steps: _ } = table;
        Ok(table)
    }

    /// Makes this the table [`SlotTable::new`] makes for `nodes`, in place (its breakpoints
    /// cleared, none of them written): `O(1)`. On an error nothing changes.
    ///
    /// Errors: those of [`SlotTable::new`].
    pub fn reset(&mut self, nodes: Nodes) -> Result<(), Error> {
        Self::check(nodes)?;
        self.nodes = nodes;
        self.steps.clear();
        Ok(())
    }

    /// `InvalidParameter(Capacity)` for zero nodes.
    fn check(nodes: Nodes) -> Result<(), Error> {
        if nodes == 0 {
            return Err(Error::InvalidParameter(Param::Capacity));
        }
        Ok(())
    }

    /// The cluster's size.
    pub fn nodes(&self) -> Nodes {
        self.nodes
    }

    /// The breakpoints, in increasing time (see the module's invariants).
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The number of breakpoints in use.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether the table holds no breakpoint (every node up and free at every instant).
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    fn profile(&self) -> Profile<'_> {
        Profile {
            nodes: self.nodes,
            steps: &self.steps,
        }
    }

    /// `(down, reserved)` at instant `t`. `O(log B)`.
    pub fn counts_at(&self, t: Ticks) -> (Nodes, Nodes) {
        self.profile().counts_at(t)
    }

    /// Free nodes at instant `t`: negative where a failure overcommitted reservations. `O(log B)`.
    pub fn free_at(&self, t: Ticks) -> i64 {
        let (d, r) = self.counts_at(t);
        free_of(self.nodes, d, r)
    }

    /// The smallest free count over `[start, end)`. `O(log B + k)`.
    ///
    /// Errors: `InvalidParameter(Delay)` if `start >= end`.
    pub fn min_free(&self, start: Ticks, end: Ticks) -> Result<i64, Error> {
        self.profile().min_free(start, end)
    }

    /// The nodes that come back at `at`: by how many the down count falls there (at
    /// `Ticks::MAX`, which no interval contains: the nodes down until further notice, the count
    /// just before it). `O(log B)`.
    pub fn returning(&self, at: Ticks) -> Nodes {
        let before = self.counts_at(Ticks::new(at.get().saturating_sub(1))).0;
        let after = if at == Ticks::MAX {
            0
        } else {
            self.counts_at(at).0
        };
        before.saturating_sub(after)
    }

    /// The returns after `after` up to `until` (both instants, `after < t <= until`): the
    /// breakpoints at which the down count falls, each counted once however many nodes come back
    /// there. A node taken down until an expected return holds one such breakpoint until then.
    /// `O(log B + k)`, `k` the breakpoints passed.
    pub fn returns(&self, after: Ticks, until: Ticks) -> usize {
        let ((mut down, _), later) = self.profile().split(after);
        let mut n = 0;
        for s in later.iter().take_while(|s| s.at <= until) {
            if s.down < down {
                n += 1;
            }
            down = s.down;
        }
        n
    }

    /// The earliest `s >= from` such that at least `nodes` nodes are free at every instant of
    /// `[s, s + duration)`, or `None` if there is none with `s + duration <= Ticks::MAX` (a
    /// failure or reservation "until further notice" may block every later start).
    /// `O(log B + k)`, `k` the breakpoints passed: at most `B`.
    ///
    /// Errors: `InvalidParameter(Capacity)` if `nodes` is zero, `InvalidParameter(Delay)` if
    /// `duration` is zero, [`Error::TaskTooLarge`] if `nodes` exceeds the cluster's,
    /// [`Error::Overflow`] if `from + duration` exceeds `Ticks::MAX`.
    pub fn earliest_fit(
        &self,
        from: Ticks,
        nodes: Nodes,
        duration: Ticks,
    ) -> Result<Option<Ticks>, Error> {
        self.profile().earliest_fit(from, nodes, duration)
    }

    /// This table with `above` stacked on it: both read as one table of this table's cluster,
    /// their counts summed at every instant (`above`'s own cluster size is not read). For a
    /// scheduler that keeps firm reservations in one table and tentative ones in another.
    pub fn stacked<'a, const ABOVE: usize>(&'a self, above: &'a SlotTable<ABOVE>) -> Stacked<'a> {
        Stacked {
            below: self.profile(),
            above: above.profile(),
        }
    }

    /// Where a job of `nodes` nodes that holds `[held, held + duration)` could start earlier:
    /// the earliest `s` in `[from, held)` such that at least `nodes` nodes are free at every
    /// instant of `[s, min(s + duration, held))`, or `None` if there is none. Taking the job out
    /// and placing it again from `from` gives exactly this start, or `held` if this is `None`,
    /// provided no instant of `[held, held + duration)` is overcommitted (after the job is taken
    /// out, its own nodes are free there). `O(log B + k)`, `k` the breakpoints in
    /// `[from, held)`, without the two table updates of taking the job out and putting it back.
    pub fn earlier_start(
        &self,
        from: Ticks,
        nodes: Nodes,
        duration: Ticks,
        held: Ticks,
    ) -> Option<Ticks> {
        self.earlier_start_before(from, nodes, duration, held, held)
    }

    /// [`earlier_start`](Self::earlier_start) among the starts before `before` only: its
    /// answer if that is before `before`, else `None`. A caller that knows no start from
    /// `before` on can fit (e.g. no node was freed there since the job was placed at its
    /// earliest start) reads the breakpoints only up to `before` and on to the end of the run of
    /// free steps in progress there, or to the first free step after it: `O(log B + k)`, `k`
    /// the breakpoints read.
    pub fn earlier_start_before(
        &self,
        from: Ticks,
        nodes: Nodes,
        duration: Ticks,
        held: Ticks,
        before: Ticks,
    ) -> Option<Ticks> {
        if from >= held || from >= before || nodes > self.nodes {
            return None;
        }
        let limit = u64::from(self.nodes - nodes);
        let fits = |s: &Step| used(s.down, s.reserved) <= limit;
        let all: &[Step] = &self.steps;
        // The breakpoints after `from`: found from the front, where a scheduler's `from` (its
        // present, the past forgotten) is.
        let i = first_after(all, from);
        let (d0, r0) = counts(i.checked_sub(1).and_then(|j| all.get(j)));
        // The breakpoints in (from, held).
        let later = all.get(i..)?;
        let steps = later.get(..later.partition_point(|s| s.at < held))?;
        // One pass over them, each step read once: the start of the run of free steps in
        // progress (if any), ended by the first step that does not fit; a run that reaches
        // `held` fits (from there on the job's own nodes are free).
        let mut candidate = (used(d0, r0) <= limit).then_some(from);
        for s in steps {
            match candidate {
                None if fits(s) => {
                    if s.at >= before {
                        return None;
                    }
                    candidate = Some(s.at);
                }
                Some(start) if !fits(s) => {
                    if s.at.get().saturating_sub(start.get()) >= duration.get() {
                        return candidate;
                    }
                    candidate = None;
                }
                _ => {}
            }
        }
        candidate
    }

    /// Reserves `nodes` nodes over `[start, end)`.
    ///
    /// Errors (the request handed back, the table unchanged): see the module's list;
    /// [`Error::NotFree`] if fewer than `nodes` nodes are free at some instant of the interval.
    pub fn reserve(
        &mut self,
        start: Ticks,
        end: Ticks,
        nodes: Nodes,
    ) -> Result<(), Refused<Request>> {
        self.apply(Kind::Reserve, Request { start, end, nodes })
            .map(|_| ())
    }

    /// Releases `nodes` reserved nodes over `[start, end)` (early completion, cancellation,
    /// preemption).
    ///
    /// Errors (the request handed back, the table unchanged): see the module's list;
    /// [`Error::NotReserved`] if fewer than `nodes` nodes are reserved at some instant of the interval.
    pub fn release(
        &mut self,
        start: Ticks,
        end: Ticks,
        nodes: Nodes,
    ) -> Result<(), Refused<Request>> {
        self.apply(Kind::Release, Request { start, end, nodes })
            .map(|_| ())
    }

    /// Takes `nodes` nodes down over `[start, end)`, even where they are reserved. Returns the
    /// span from the first to the last instant of `[start, end)` where `free < 0` afterwards
    /// (reservations the failure hits), or `None` if every reservation still has its nodes.
    ///
    /// Errors (the request handed back, the table unchanged): see the module's list;
    /// `InvalidParameter(Capacity)` if more than the cluster's nodes would be down at some instant.
    pub fn node_down(
        &mut self,
        start: Ticks,
        end: Ticks,
        nodes: Nodes,
    ) -> Result<Option<Span>, Refused<Request>> {
        self.apply(Kind::Down, Request { start, end, nodes })
    }

    /// Brings `nodes` down nodes back up over `[start, end)` (a repair).
    ///
    /// Errors (the request handed back, the table unchanged): see the module's list;
    /// [`Error::NotReserved`] if fewer than `nodes` nodes are down at some instant of the interval.
    pub fn node_up(
        &mut self,
        start: Ticks,
        end: Ticks,
        nodes: Nodes,
    ) -> Result<(), Refused<Request>> {
        self.apply(Kind::Up, Request { start, end, nodes })
            .map(|_| ())
    }

    /// The first span at or after `from` where `free < 0` (a failure hit reservations that the
    /// caller has not yet released), clamped to start at `from` (`None` from `Ticks::MAX`, which no
    /// interval contains). `O(log B + k)`.
    pub fn overcommitted(&self, from: Ticks) -> Option<Span> {
        self.profile().overcommitted(from)
    }

    /// Forgets the history before `t`: afterwards the counts at every instant before `t` read as
    /// the counts at `t`, and every instant from `t` on is unchanged. A scheduler that only plans
    /// from its current time calls this as time advances, so that breakpoints of the past
    /// (completed jobs, repaired failures) do not accumulate. Releasing a reservation that began
    /// before `t` and still holds at `t` still succeeds, since its nodes are counted back to time 0.
    /// `O(B)` (one shift of the array); never needs room.
    pub fn forget_before(&mut self, t: Ticks) {
        forget_before(self.steps.as_mut_view(), t);
    }

    /// Check, then commit, one mutation. Returns the overcommitted span inside the request (of
    /// a failure: a reserve or release reports none, its callers discard it).
    fn apply(&mut self, kind: Kind, req: Request) -> Result<Option<Span>, Refused<Request>> {
        apply(self.nodes, self.steps.as_mut_view(), kind, req)
    }
}

/// Two slot tables of one cluster read as one ([`SlotTable::stacked`]): at every instant their
/// `down` and `reserved` counts are summed. Reads only; each table is changed on its own.
/// Every read walks the two breakpoint lists merged: `O(log B + k)` as on one table, `B` and
/// `k` counting both tables' breakpoints.
#[derive(Clone, Copy)]
pub struct Stacked<'a> {
    below: Profile<'a>,
    above: Profile<'a>,
}

impl Stacked<'_> {
    /// Nodes used (down or reserved, in either table) at `t`, and the merged breakpoints after
    /// `t` with the used count from each.
    fn from(&self, t: Ticks) -> (u64, impl Iterator<Item = (Ticks, u64)> + '_) {
        let (a0, a) = self.below.from(t);
        let (b0, b) = self.above.from(t);
        let merged = Merge {
            a: a.peekable(),
            b: b.peekable(),
            used: (a0, b0),
        };
        (a0.saturating_add(b0), merged)
    }

    /// Free nodes at `t` (negative where the two tables together promise more than the
    /// cluster). `O(log B)`.
    pub fn free_at(&self, t: Ticks) -> i64 {
        free_with(self.below.nodes, self.from(t).0)
    }

    /// The smallest free count over `[start, end)`, as [`SlotTable::min_free`].
    ///
    /// Errors: `InvalidParameter(Delay)` if `start >= end`.
    pub fn min_free(&self, start: Ticks, end: Ticks) -> Result<i64, Error> {
        if start >= end {
            return Err(Error::InvalidParameter(Param::Delay));
        }
        let (used, later) = self.from(start);
        Ok(least_free(self.below.nodes, end, used, later))
    }

    /// The largest free count over `[start, end)`. `O(log B + k)`.
    ///
    /// Errors: `InvalidParameter(Delay)` if `start >= end`.
    pub fn max_free(&self, start: Ticks, end: Ticks) -> Result<i64, Error> {
        if start >= end {
            return Err(Error::InvalidParameter(Param::Delay));
        }
        let (used, later) = self.from(start);
        let least = later
            .take_while(|&(at, _)| at < end)
            .map(|(_, u)| u)
            .fold(used, u64::min);
        Ok(free_with(self.below.nodes, least))
    }

    /// The earliest fit from `from`, as [`SlotTable::earliest_fit`], with the same errors.
    pub fn earliest_fit(
        &self,
        from: Ticks,
        nodes: Nodes,
        duration: Ticks,
    ) -> Result<Option<Ticks>, Error> {
        let limit = fit_limit(self.below.nodes, from, nodes, duration)?;
        let (used, later) = self.from(from);
        Ok(first_fit(limit, from, used, later, duration))
    }
}

/// The breakpoints of two profiles merged: at each instant where either changes, the sum of
/// their used counts.
struct Merge<A: Iterator<Item = (Ticks, u64)>, B: Iterator<Item = (Ticks, u64)>> {
    a: core::iter::Peekable<A>,
    b: core::iter::Peekable<B>,
    /// The used counts of each in force before the next breakpoint.
    used: (u64, u64),
}

impl<A: Iterator<Item = (Ticks, u64)>, B: Iterator<Item = (Ticks, u64)>> Iterator for Merge<A, B> {
    type Item = (Ticks, u64);

    fn next(&mut self) -> Option<(Ticks, u64)> {
        let ta = self.a.peek().map(|s| s.0);
        let tb = self.b.peek().map(|s| s.0);
        let at = match (ta, tb) {
            (Some(x), Some(y)) => x.min(y),
            (Some(x), None) => x,
            (None, Some(y)) => y,
            (None, None) => return None,
        };
        if let Some((_, u)) = self.a.next_if(|s| s.0 == at) {
            self.used.0 = u;
        }
        if let Some((_, u)) = self.b.next_if(|s| s.0 == at) {
            self.used.1 = u;
        }
        Some((at, self.used.0.saturating_add(self.used.1)))
    }
}

/// The index of the first step after `t` (`at > t`), searched from the front: `O(log i)`, `i`
/// the index found (the steps are in increasing time).
fn first_after(steps: &[Step], t: Ticks) -> usize {
    partition_from_front(steps, |s| s.at <= t)
}

/// [`slice::partition_point`] searched from the front, for a scheduler's breakpoints, where the
/// present (its past forgotten) is the front: `O(log i)`, `i` the index found. `before` holds
/// for a prefix of `steps` and for no step after it.
fn partition_from_front(steps: &[Step], before: impl Fn(&Step) -> bool) -> usize {
    // Every step before `lo` is in the prefix; the one at `probe`, if any, is not.
    let mut lo = 0;
    let mut probe = 0;
    while steps.get(probe).is_some_and(&before) {
        lo = probe.saturating_add(1);
        probe = probe.saturating_mul(2).saturating_add(1);
    }
    let hi = probe.min(steps.len());
    lo + steps
        .get(lo..hi)
        .map_or(0, |window| window.partition_point(before))
}

/// Nodes used (down or reserved) by these counts.
fn used(d: Nodes, r: Nodes) -> u64 {
    u64::from(d) + u64::from(r)
}

/// Free nodes of a cluster of `cluster` nodes where `used` are down or reserved.
fn free_with(cluster: Nodes, used: u64) -> i64 {
    i64::from(cluster) - i64::try_from(used).unwrap_or(i64::MAX)
}

/// Checks an earliest-fit query (see [`SlotTable::earliest_fit`]'s errors) and returns the most
/// nodes that may be used at an instant where `nodes` more must fit.
fn fit_limit(cluster: Nodes, from: Ticks, nodes: Nodes, duration: Ticks) -> Result<u64, Error> {
    if nodes == 0 {
        return Err(Error::InvalidParameter(Param::Capacity));
    }
    if duration == Ticks::ZERO {
        return Err(Error::InvalidParameter(Param::Delay));
    }
    if nodes > cluster {
        return Err(Error::TaskTooLarge);
    }
    if from.checked_add(duration).is_none() {
        return Err(Error::Overflow);
    }
    Ok(u64::from(cluster - nodes))
}

/// The earliest instant from `from` where the used count stays at most `limit` for `duration`:
/// `used` is the count at `from`, `later` the breakpoints after it (increasing instants, each
/// with the count from there). The last count holds until `Ticks::MAX`, the end of schedulable
/// time.
fn first_fit(
    limit: u64,
    from: Ticks,
    used: u64,
    later: impl Iterator<Item = (Ticks, u64)>,
    duration: Ticks,
) -> Option<Ticks> {
    let mut candidate = (used <= limit).then_some(from);
    for (at, used) in later {
        // The run of fitting steps from the candidate reaches `at` (> candidate).
        if let Some(c) = candidate.filter(|&c| at.get() - c.get() >= duration.get()) {
            return Some(c);
        }
        if used > limit {
            candidate = None;
        } else if candidate.is_none() {
            candidate = Some(at);
        }
    }
    candidate.filter(|&c| u64::MAX - c.get() >= duration.get())
}

/// The smallest free count from the start of a window to `end`: `used` is the count at its
/// start, `later` the breakpoints after it.
fn least_free(
    cluster: Nodes,
    end: Ticks,
    used: u64,
    later: impl Iterator<Item = (Ticks, u64)>,
) -> i64 {
    let most = later
        .take_while(|&(at, _)| at < end)
        .map(|(_, u)| u)
        .fold(used, u64::max);
    free_with(cluster, most)
}

/// Free nodes of a cluster of `cluster` nodes with these counts.
fn free_of(cluster: Nodes, down: Nodes, reserved: Nodes) -> i64 {
    i64::from(cluster) - i64::from(down) - i64::from(reserved)
}

/// `(down, reserved)` of a breakpoint, or zeros for none (before the first breakpoint).
fn counts(step: Option<&Step>) -> (Nodes, Nodes) {
    step.map_or((0, 0), |s| (s.down, s.reserved))
}

/// The breakpoints of a table of any capacity and its cluster's size: the reads, and the checks
/// of a mutation, are written once over this view.
#[derive(Clone, Copy)]
struct Profile<'a> {
    nodes: Nodes,
    steps: &'a [Step],
}

impl<'a> Profile<'a> {
    /// The counts in force at `t` and the breakpoints after it (`at > t`). `O(log B)`, searched
    /// from the front (`O(log i)`, `i` the breakpoints up to `t`).
    fn split(&self, t: Ticks) -> ((Nodes, Nodes), &'a [Step]) {
        let i = first_after(self.steps, t);
        // `first_after` never exceeds the length: the fallback is never taken.
        let (past, later) = self.steps.split_at_checked(i).unwrap_or((self.steps, &[]));
        (counts(past.last()), later)
    }

    fn counts_at(&self, t: Ticks) -> (Nodes, Nodes) {
        self.split(t).0
    }

    fn free_of(&self, down: Nodes, reserved: Nodes) -> i64 {
        free_of(self.nodes, down, reserved)
    }

    /// The steps covering `[start, end)` as `(from, to, down, reserved)`, `from` clamped to
    /// `start` and `to` to `end`.
    fn covering(
        &self,
        start: Ticks,
        end: Ticks,
    ) -> impl Iterator<Item = (Ticks, Ticks, Nodes, Nodes)> + 'a {
        let ((d0, r0), later) = self.split(start);
        let inner = later.iter().take_while(move |s| s.at < end);
        let head = core::iter::once((start, d0, r0));
        let all = head.chain(inner.map(|s| (s.at, s.down, s.reserved)));
        let nexts = later
            .iter()
            .map(move |s| s.at.min(end))
            .chain(core::iter::once(end));
        all.zip(nexts).map(|((from, d, r), to)| (from, to, d, r))
    }

    /// The used count at `t` and the breakpoints after it, each with its used count. `O(log B)`.
    fn from(&self, t: Ticks) -> (u64, impl Iterator<Item = (Ticks, u64)> + 'a) {
        let ((d, r), later) = self.split(t);
        (
            used(d, r),
            later.iter().map(|s| (s.at, used(s.down, s.reserved))),
        )
    }

    fn min_free(&self, start: Ticks, end: Ticks) -> Result<i64, Error> {
        if start >= end {
            return Err(Error::InvalidParameter(Param::Delay));
        }
        let (used, later) = self.from(start);
        Ok(least_free(self.nodes, end, used, later))
    }

    fn earliest_fit(
        &self,
        from: Ticks,
        nodes: Nodes,
        duration: Ticks,
    ) -> Result<Option<Ticks>, Error> {
        let limit = fit_limit(self.nodes, from, nodes, duration)?;
        let (used, later) = self.from(from);
        Ok(first_fit(limit, from, used, later, duration))
    }

    fn overcommitted(&self, from: Ticks) -> Option<Span> {
        let mut span: Option<Span> = None;
        // The instant Ticks::MAX is in no interval: from == MAX covers nothing.
        for (at, to, d, r) in self.covering(from, Ticks::MAX).filter(|c| c.0 < c.1) {
            if self.free_of(d, r) < 0 {
                let s = span.get_or_insert(Span { start: at, end: to });
                s.end = to;
            } else if span.is_some() {
                break;
            }
        }
        span
    }
}

/// [`SlotTable::forget_before`] on the breakpoints of a table of any capacity.
fn forget_before(steps: &mut VecView<Step>, t: Ticks) {
    let past = partition_from_front(steps, |s| s.at <= t);
    // The step in force at `t`; none: nothing before `t` to forget.
    let Some(&current) = past.checked_sub(1).and_then(|i| steps.get(i)) else {
        return;
    };
    if (current.down, current.reserved) == (0, 0) {
        // The counts at `t` are those before the first breakpoint: it goes too.
        vecops::drain_front(steps, past);
    } else {
        // The breakpoints after `t` keep their order; the current one moves to time 0.
        vecops::drain_front(steps, past - 1);
        if let Some(first) = steps.first_mut() {
            first.at = Ticks::ZERO;
        }
    }
}

/// [`SlotTable::apply`] on the breakpoints of a table of any capacity (`steps.capacity()` is the
/// table's `BREAKPOINTS`).
fn apply(
    cluster: Nodes,
    steps: &mut VecView<Step>,
    kind: Kind,
    req: Request,
) -> Result<Option<Span>, Refused<Request>> {
    let Request { start, end, nodes } = req;
    let refuse = |reason| Refused::new(reason, req);
    if start >= end {
        return Err(refuse(Error::InvalidParameter(Param::Delay)));
    }
    if nodes == 0 {
        return Err(refuse(Error::InvalidParameter(Param::Capacity)));
    }
    if nodes > cluster {
        return Err(refuse(Error::TaskTooLarge));
    }
    let change = |(d, r): (Nodes, Nodes)| changed(cluster, kind, nodes, d, r);
    // The breakpoints from `start` on: those in `[start, end)` are the first `inside` of them.
    let first = partition_from_front(steps, |s| s.at < start);
    let before = counts(first.checked_sub(1).and_then(|i| steps.get(i)));
    let from_start: &[Step] = steps.get(first..).unwrap_or(&[]);
    // `Ticks::MAX` holds no breakpoint: every one from `start` on is inside then.
    let inside = from_start.partition_point(|s| s.at < end);
    let has_start = from_start.first().is_some_and(|s| s.at == start);
    let at_start = if has_start {
        counts(from_start.first())
    } else {
        before
    };
    // The breakpoints strictly inside `(start, end)`, each the start of a step of the interval.
    let within = from_start
        .get(usize::from(has_start)..inside)
        .unwrap_or(&[]);
    // Check every step of the interval, and (a failure) find where free goes negative.
    let negative = match kind {
        // Only a failure reports a span: the other mutations check with one fold.
        Kind::Reserve => {
            let most = within
                .iter()
                .map(|s| used(s.down, s.reserved))
                .fold(used(at_start.0, at_start.1), u64::max);
            if free_with(cluster, most) < i64::from(nodes) {
                return Err(refuse(Error::NotFree));
            }
            None
        }
        Kind::Release => {
            let least = within
                .iter()
                .map(|s| s.reserved)
                .fold(at_start.1, Nodes::min);
            if least < nodes {
                return Err(refuse(Error::NotReserved));
            }
            None
        }
        Kind::Down | Kind::Up => {
            let mut negative: Option<Span> = None;
            let mut from = start;
            let ends = within.iter().map(|s| s.at).chain(core::iter::once(end));
            let counts_of =
                core::iter::once(at_start).chain(within.iter().map(|s| (s.down, s.reserved)));
            for (to, c) in ends.zip(counts_of) {
                let (d2, r2) = change(c).map_err(refuse)?;
                if free_of(cluster, d2, r2) < 0 {
                    let s = negative.get_or_insert(Span {
                        start: from,
                        end: to,
                    });
                    s.end = to;
                }
                from = to;
            }
            negative
        }
    };
    // Breakpoints needed at start and end afterwards, and the resulting length.
    let new_at_start = change(at_start).map_err(refuse)?;
    let need_start = new_at_start != before;
    let last = first + inside;
    let (need_end, has_end, old_at_end) = if end == Ticks::MAX {
        (false, false, (0, 0))
    } else {
        let before_end = counts(last.checked_sub(1).and_then(|i| steps.get(i)));
        let at_end = steps.get(last).filter(|s| s.at == end);
        let old_at_end = at_end.map_or(before_end, |s| (s.down, s.reserved));
        let new_before_end = change(before_end).map_err(refuse)?;
        (old_at_end != new_before_end, at_end.is_some(), old_at_end)
    };
    let len = steps.len() + usize::from(need_start) + usize::from(need_end)
        - usize::from(has_start)
        - usize::from(has_end);
    if len > steps.capacity() {
        return Err(refuse(Error::Full));
    }
    // Commit: shift the counts inside [start, end), then removals, then insertions (so the
    // array never holds more than max(old, new) breakpoints).
    if let Some(inner) = steps.get_mut(first..last) {
        match kind {
            // Cannot underflow or exceed the cluster: checked above for every step.
            Kind::Reserve => inner
                .iter_mut()
                .for_each(|s| s.reserved = s.reserved.saturating_add(nodes)),
            Kind::Release => inner
                .iter_mut()
                .for_each(|s| s.reserved = s.reserved.saturating_sub(nodes)),
            Kind::Down | Kind::Up => {
                for s in inner {
                    // Cannot fail: checked above for every step of the interval.
                    if let Ok((d, r)) = change((s.down, s.reserved)) {
                        s.down = d;
                        s.reserved = r;
                    }
                }
            }
        }
    }
    // Each removes or inserts only where the breakpoint is (or is not) already there, at the
    // index found above (a removal at the start moves the end's one place down); the
    // insertions cannot fail: the length was checked.
    if has_end && !need_end {
        vecops::remove(steps, last);
    }
    let removed_start = has_start && !need_start;
    if removed_start {
        vecops::remove(steps, first);
    }
    let step = |at, (down, reserved)| Step { at, down, reserved };
    if need_end && !has_end {
        let at = last - usize::from(removed_start);
        let _ = vecops::insert(steps, at, step(end, old_at_end));
    }
    if need_start && !has_start {
        let _ = vecops::insert(steps, first, step(start, new_at_start));
    }
    Ok(negative)
}

/// New `(down, reserved)` of a step of a cluster of `cluster` nodes, or why it is refused there.
fn changed(
    cluster: Nodes,
    kind: Kind,
    n: Nodes,
    d: Nodes,
    r: Nodes,
) -> Result<(Nodes, Nodes), Error> {
    match kind {
        Kind::Reserve => {
            if i64::from(cluster) - i64::from(d) - i64::from(r) < i64::from(n) {
                Err(Error::NotFree)
            } else {
                // free >= n implies r + n <= cluster - d, so no overflow.
                Ok((d, r + n))
            }
        }
        Kind::Release => r.checked_sub(n).map(|r| (d, r)).ok_or(Error::NotReserved),
        Kind::Down => match d.checked_add(n) {
            Some(d) if d <= cluster => Ok((d, r)),
            _ => Err(Error::InvalidParameter(Param::Capacity)),
        },
        Kind::Up => d.checked_sub(n).map(|d| (d, r)).ok_or(Error::NotReserved),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(ticks: u64) -> Ticks {
        Ticks::new(ticks)
    }

    #[test]
    fn conservative_backfilling_places_each_job_at_its_earliest_fit() {
        let mut table = SlotTable::<8>::new(4).unwrap();
        // A running job of 3 nodes until 10, then a queued 4-node job: it waits for 10.
        table.reserve(t(0), t(10), 3).unwrap();
        assert_eq!(table.earliest_fit(t(0), 4, t(5)), Ok(Some(t(10))));
        table.reserve(t(10), t(15), 4).unwrap();
        // A short 1-node job backfills now; a long one would delay the 4-node job.
        assert_eq!(table.earliest_fit(t(0), 1, t(10)), Ok(Some(t(0))));
        assert_eq!(table.earliest_fit(t(0), 1, t(11)), Ok(Some(t(15))));
        // The running job completes early at 6: its tail is released (a breakpoint at 6).
        assert_eq!(table.len(), 3);
        table.release(t(6), t(10), 3).unwrap();
        assert_eq!(table.earliest_fit(t(0), 4, t(4)), Ok(Some(t(6))));
        assert_eq!(table.len(), 4);
    }

    #[test]
    fn a_failure_reports_the_reservations_it_hits() {
        let mut table = SlotTable::<8>::new(4).unwrap();
        table.reserve(t(0), t(10), 4).unwrap();
        let hit = table.node_down(t(5), Ticks::MAX, 1).unwrap();
        assert_eq!(
            hit,
            Some(Span {
                start: t(5),
                end: t(10)
            })
        );
        assert_eq!(table.free_at(t(7)), -1);
        assert_eq!(table.free_at(t(12)), 3);
        // Stopping the request frees its nodes from the failure on.
        table.release(t(5), t(10), 4).unwrap();
        assert_eq!(table.overcommitted(t(0)), None);
        // A repair at 20.
        table.node_up(t(20), Ticks::MAX, 1).unwrap();
        assert_eq!(table.free_at(t(20)), 4);
        assert_eq!(
            table.node_up(t(20), t(30), 1),
            Err(Refused::new(
                Error::NotReserved,
                Request {
                    start: t(20),
                    end: t(30),
                    nodes: 1
                }
            ))
        );
    }
}
