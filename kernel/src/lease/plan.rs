//! Preemption as a pure plan: the running leases that may be stopped ([`Targets`]), how many of
//! their nodes must be freed and over which window ([`need`]), and how many of each kind to stop
//! ([`plan`], through [`preempt::select`]). Nothing here touches a manager: the plan is computed
//! from plain data (a slot table, the targets, the request), and [`Manager`](super::Manager)
//! applies it in a separate step (picks the leases, trims their reservations, reserves the
//! request's, marks the chosen leases as stopping).
//!
//! # Steps
//! 1. **Targets** ([`Target::new`], collected into [`Targets`]): a running lease with no stop
//!    pending, with the timing of its stop (Haizea's: see the module [`lease`](super)), or none
//!    if stopping it would free nothing. Targets alike in class, nodes, overhead and timing form
//!    one *kind*: one [`Candidate`] with a count.
//! 2. **Need** ([`need`]): how many of the targets' nodes must be freed, and the window the
//!    request may occupy.
//! 3. **Choice** ([`plan`]): [`preempt::select`] over the kinds, with at most [`SEARCH`] sets
//!    enumerated, under a [`Policy`] and a [`Preference`]; the request then starts at its
//!    instant, or (immediate) when the last chosen lease has released its nodes. Which leases of
//!    a kind go is the manager's rule (the oldest first).
//!
//! Each step takes and returns plain values, so each can be replaced or tested alone.
//!
//! # Units
//! Instants and durations in [`Ticks`], nodes in [`Nodes`], overheads in node-ticks (`u64`,
//! saturating). Free counts are `i64`; node sums `u64`.
//!
//! # Invariants
//! - [`Targets`] holds at most [`MAX_CANDIDATES`] kinds and `N` targets; kind `k`'s count is
//!   the number of targets pushed into it, and every target pushed is in exactly one kind and
//!   has one run end among the targets' ends.
//! - A [`Plan`]'s choice frees at least `need.nodes > 0` nodes, and its span is
//!   `[start, start + work)` with `start` in the need's window (for `work >= 1`, which the
//!   manager checks).
//!
//! # Cost and memory
//! `B` breakpoints, `n` targets in `g` kinds (`g <= 64`; at most `sqrt(6 N)` for a cluster of
//! `N` nodes when overheads are per node, see [`crate::lease::preempt`]). [`Targets::push`] is `O(g)`;
//! [`need`] is `O((B + n) log (B + n))` (the targets' run ends sorted once, then one sweep over
//! the window, the free count read at each instant where it may change); [`plan`] adds the
//! selection ([`crate::lease::preempt`], at most about 33,000 steps). No recursion, no allocation.
//! `size_of::<Targets<N>>()` is `2,584 + 16 N` bytes (a 24-byte [`Candidate`] and a 16-byte
//! timing per kind, a 16-byte run end per target), a [`Plan`] 352 bytes on x86-64. The manager
//! keeps its [`Targets`] (capacity: its lease count) as scratch space, so a preemption's stack
//! is [`preempt::select`]'s (about 2.5 KiB, plus `16 SEARCH` bytes for MOML) and a few hundred
//! bytes more.

use heapless::Vec;

use super::preempt::{self, Candidate, Choice, Class, MAX_CANDIDATES, Policy, Preference};
use super::{Action, LeaseId, Overheads};
use crate::error::Error;
use crate::slots::{SlotTable, Span};
use crate::units::{Nodes, Ticks};

/// Candidate sets enumerated per preemption (the `SETS` bound of [`preempt::select`]).
pub const SEARCH: usize = 128;

/// A request that preempts: `nodes` nodes for `work` ticks, decided at `now`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Demand {
    /// The instant of the decision: no stop action begins before it.
    pub now: Ticks,
    /// The instant the request must start (a reservation with notice), or `None`: as soon as
    /// the stopped leases release their nodes (a local request, a zero-notice reservation).
    pub at: Option<Ticks>,
    /// Nodes it needs.
    pub nodes: Nodes,
    /// Its run time.
    pub work: Ticks,
}

/// A running lease that a preemption may stop, and when its stop would run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Target {
    /// The lease.
    pub id: LeaseId,
    /// Its class: what stopping it does ([`Action::of`]) and how valuable it is.
    pub class: Class,
    /// Nodes its preemption frees.
    pub nodes: Nodes,
    /// What preempting it costs, in node-ticks.
    pub overhead: u64,
    /// When its stop action would begin: its work stops counting.
    pub begin: Ticks,
    /// When its stop action would end: its nodes are free from here.
    pub release: Ticks,
    /// When its run ends if it is not preempted: its nodes are free from here anyway.
    pub run_end: Ticks,
}

impl Target {
    /// The target that lease `id`, of `class`, running on `nodes` nodes over its reservation
    /// `run` (no stop pending), would be for `demand`; `None` if it cannot be one: it is
    /// `NonPreemptable`, its stop would have to begin before `demand.now` or past `Ticks::MAX`,
    /// or it would free nothing (it would not be running when its stop ends, or would not yet
    /// have started).
    pub fn new(
        id: LeaseId,
        class: Class,
        nodes: Nodes,
        run: Span,
        overheads: &Overheads,
        demand: &Demand,
    ) -> Option<Target> {
        let action = Action::of(class)?;
        let stop = overheads.stop(action);
        let (begin, release) = match demand.at {
            Some(s) => (s.checked_sub(stop).filter(|&b| b >= demand.now)?, s),
            None => (demand.now, demand.now.checked_add(stop)?),
        };
        if release <= run.start || release >= run.end {
            return None;
        }
        Some(Target {
            id,
            class,
            nodes,
            overhead: u64::from(nodes).saturating_mul(overheads.cost(action).get()),
            begin,
            release,
            run_end: run.end,
        })
    }
}

/// When the stop of every target of one kind would run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Timing {
    begin: Ticks,
    release: Ticks,
}

/// The targets of one preemption, by kind (at most [`MAX_CANDIDATES`] kinds, in the order their
/// first target was pushed: the order [`preempt::select`] breaks ties by), and every target's
/// run end (at most `N` targets).
#[derive(Clone, Debug, Default)]
pub struct Targets<const N: usize> {
    candidates: Vec<Candidate, MAX_CANDIDATES>,
    timings: Vec<Timing, MAX_CANDIDATES>,
    /// `(run_end, nodes)` of every target, in any order ([`need`] sorts them).
    ends: Vec<(Ticks, u64), N>,
}

impl<const N: usize> Targets<N> {
    /// No target.
    pub const fn new() -> Self {
        Self {
            candidates: Vec::new(),
            timings: Vec::new(),
            ends: Vec::new(),
        }
    }

    /// Forgets every target.
    pub fn clear(&mut self) {
        self.candidates.clear();
        self.timings.clear();
        self.ends.clear();
    }

    /// The kind of `t`: the index of its [`Candidate`], if one like it was pushed. `O(g)`.
    pub fn kind_of(&self, t: &Target) -> Option<usize> {
        self.candidates
            .iter()
            .zip(&self.timings)
            .position(|(c, tm)| {
                (c.class, c.nodes, c.overhead, tm.begin, tm.release)
                    == (t.class, t.nodes, t.overhead, t.begin, t.release)
            })
    }

    /// Adds a target to its kind (a new kind if it is the first of its like); hands it back if
    /// `N` targets, or [`MAX_CANDIDATES`] kinds and none is like it, are held already.
    pub fn push(&mut self, t: Target) -> Result<(), Target> {
        if self.ends.is_full() {
            return Err(t);
        }
        let k = match self.kind_of(&t) {
            Some(k) => k,
            None => {
                let candidate = Candidate {
                    class: t.class,
                    nodes: t.nodes,
                    overhead: t.overhead,
                    count: 0,
                };
                self.candidates.push(candidate).map_err(|_| t)?;
                let timing = Timing {
                    begin: t.begin,
                    release: t.release,
                };
                // Cannot fail: both hold as many kinds.
                self.timings.push(timing).map_err(|_| t)?;
                self.candidates.len() - 1
            }
        };
        let Some(c) = self.candidates.get_mut(k) else {
            return Err(t);
        };
        // At most N <= u32::MAX targets... or refuse.
        c.count = c.count.checked_add(1).ok_or(t)?;
        // Cannot fail: checked not full above.
        self.ends
            .push((t.run_end, u64::from(t.nodes)))
            .map_err(|_| t)
    }

    /// The number of targets.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no target.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// What [`preempt::select`] weighs: kind `k` is candidate `k`.
    pub fn candidates(&self) -> &[Candidate] {
        &self.candidates
    }

    /// When the stops of kind `k`'s targets would end (their nodes free), if there is a kind `k`.
    pub fn release(&self, k: usize) -> Option<Ticks> {
        self.timings.get(k).map(|t| t.release)
    }
}

/// How many of the targets' nodes a request needs freed, and the window it may occupy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Need {
    /// Nodes to free, at least 1.
    pub nodes: Nodes,
    /// `W`: `[s, s + work)`, or `[now, r + work)` for an immediate request, `r` the latest
    /// release of any target (`now` if there is none).
    pub window: Span,
}

/// The nodes `demand` needs freed among `targets` in `table` (the cluster's profile with every
/// target's reservation in it), and its window. Sorts the targets' run ends in place (their
/// order is not part of the targets' meaning).
///
/// Preempting a target frees its nodes from its release to its run's end. Let `W` be the window
/// the request may occupy: `[s, s + work)`, or for an immediate request `[now, r + work)`, `r`
/// the latest release of any target; and `g(t)` the free nodes at `t` if every target were
/// preempted (the table's free count plus the nodes of every target whose run has not ended by
/// `t`). The request fits after preempting a set `P` if the kept targets hold at most
/// `min_W g - nodes` nodes: so `need = sum(targets) - (min_W g - nodes)`. Every target runs at
/// `W`'s first instant, so this is exact whenever `g` is smallest there: for a reservation with
/// notice, when no other reservation begins (and no node goes down) inside `W`; for an
/// immediate request, when in addition no lease that cannot be preempted ends while the stop
/// actions run. Otherwise it is safe (the request always fits) but may preempt more than
/// needed. `g` is evaluated where it may change: `W`'s start, the table's breakpoints and the
/// targets' run ends inside `W`.
///
/// Errors: [`Error::NotFree`] if preempting every target would not make room, or if nothing
/// needs to be freed (no target, or the request fits without preempting);
/// [`Error::Overflow`] if the window would end past `Ticks::MAX`.
pub fn need<const B: usize, const N: usize>(
    table: &SlotTable<B>,
    targets: &mut Targets<N>,
    demand: &Demand,
) -> Result<Need, Error> {
    let w0 = demand.at.unwrap_or(demand.now);
    let latest = targets.timings.iter().map(|t| t.release).max();
    let w1 = demand
        .at
        .or(latest)
        .unwrap_or(w0)
        .checked_add(demand.work)
        .ok_or(Error::Overflow)?;
    targets.ends.sort_unstable_by_key(|e| e.0);
    let ends = targets.ends.as_slice();
    let total = ends.iter().fold(0u64, |a, e| a.saturating_add(e.1));
    // The targets' nodes still held at `t`: `total` less those whose runs ended by `t`; the
    // sweep below asks at increasing instants, so a cursor over the sorted ends suffices.
    let mut cursor = 0usize;
    let mut ended = 0u64;
    let mut held_at = |t: Ticks| {
        while let Some(&(_, nodes)) = ends.get(cursor).filter(|e| e.0 <= t) {
            ended = ended.saturating_add(nodes);
            cursor += 1;
        }
        i64::try_from(total - ended).unwrap_or(i64::MAX)
    };
    let steps = table.steps();
    let from = steps.partition_point(|s| s.at <= w0);
    let mut instants = Merged {
        a: steps
            .get(from..)
            .unwrap_or(&[])
            .iter()
            .map(|s| s.at)
            .peekable(),
        b: ends
            .get(ends.partition_point(|e| e.0 <= w0)..)
            .unwrap_or(&[])
            .iter()
            .map(|e| e.0)
            .peekable(),
    };
    let mut g_min = table.free_at(w0).saturating_add(held_at(w0));
    while let Some(t) = instants.next().filter(|&t| t < w1) {
        g_min = g_min.min(table.free_at(t).saturating_add(held_at(t)));
    }
    let slack = g_min - i64::from(demand.nodes);
    if slack < 0 {
        return Err(Error::NotFree);
    }
    let total = i64::try_from(total).unwrap_or(i64::MAX);
    let nodes = Nodes::try_from(total - slack)
        .ok()
        .filter(|&n| n > 0)
        .ok_or(Error::NotFree)?;
    Ok(Need {
        nodes,
        window: Span { start: w0, end: w1 },
    })
}

/// Two increasing sequences of instants merged into one (equal instants once).
struct Merged<A: Iterator<Item = Ticks>, B: Iterator<Item = Ticks>> {
    a: core::iter::Peekable<A>,
    b: core::iter::Peekable<B>,
}

impl<A: Iterator<Item = Ticks>, B: Iterator<Item = Ticks>> Iterator for Merged<A, B> {
    type Item = Ticks;

    fn next(&mut self) -> Option<Ticks> {
        let t = match (self.a.peek(), self.b.peek()) {
            (Some(&x), Some(&y)) => x.min(y),
            (Some(&x), None) => x,
            (None, Some(&y)) => y,
            (None, None) => return None,
        };
        while self.a.next_if_eq(&t).is_some() {}
        while self.b.next_if_eq(&t).is_some() {}
        Some(t)
    }
}

/// A decided preemption, not yet applied: how many targets of each kind to stop and where the
/// request goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Plan {
    /// What had to be freed.
    pub need: Need,
    /// The chosen set: leases of each kind of the [`Targets`] the plan was made from.
    pub choice: Choice,
    /// The request's reservation, `[start, start + work)`.
    pub span: Span,
}

/// Plans the preemption of some of `targets` so that `demand` fits in `table` (steps 2 and 3
/// of the module), choosing the set by `policy` under `preference`.
///
/// Errors: those of [`need`]; [`Error::NotFree`] from [`preempt::select`] (the targets of the
/// admitted classes hold too few nodes); [`Error::Overflow`] if the request would end past
/// `Ticks::MAX`.
pub fn plan<const B: usize, const N: usize>(
    table: &SlotTable<B>,
    targets: &mut Targets<N>,
    demand: &Demand,
    policy: Policy,
    preference: Preference,
) -> Result<Plan, Error> {
    let need = need(table, targets, demand)?;
    let choice = preempt::select::<SEARCH>(targets.candidates(), need.nodes, policy, preference)?;
    let start = match demand.at {
        Some(s) => s,
        None => choice
            .take
            .iter()
            .filter_map(|(k, _)| targets.release(k))
            .max()
            .unwrap_or(demand.now),
    };
    let end = start.checked_add(demand.work).ok_or(Error::Overflow)?;
    Ok(Plan {
        need,
        choice,
        span: Span { start, end },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lease::fixture::{OVERHEADS, t};
    use crate::lease::preempt::Take;

    const TIERS: Preference = Preference::Tiers;

    fn take(counts: &[u32]) -> Take {
        Take::from_counts(counts).unwrap()
    }

    const fn run(start: u64, end: u64) -> Span {
        Span {
            start: t(start),
            end: t(end),
        }
    }

    fn demand(now: u64, at: Option<u64>, nodes: Nodes, work: u64) -> Demand {
        Demand {
            now: t(now),
            at: at.map(t),
            nodes,
            work: t(work),
        }
    }

    /// A target given as plain data, its stop beginning at `begin` and ending at `release`.
    const fn target(id: u32, class: Class, nodes: Nodes, begin: u64, release: u64) -> Target {
        Target {
            id: LeaseId::new(id),
            class,
            nodes,
            overhead: nodes as u64,
            begin: t(begin),
            release: t(release),
            run_end: t(100),
        }
    }

    /// For a reservation at 100, a suspension (10) runs `[90, 100)` and costs 2 VMs x (10 + 7)
    /// = 34; a migration (20) decided at 80 begins exactly at 80, not at 81. For an immediate
    /// request at 50 a cancellation (3) runs `[50, 53)`: a lease whose run ends at 53 gains
    /// nothing (it ends then anyway), one that ends at 54 does; a lease that starts at 53 is
    /// not stopped at its start. A non-preemptable lease is never a target.
    #[test]
    fn a_target_stops_so_that_its_action_ends_at_the_start() {
        let new = |class, at, now, run| {
            Target::new(
                LeaseId::new(7),
                class,
                2,
                run,
                &OVERHEADS,
                &demand(now, at, 1, 1),
            )
        };
        let suspended = new(Class::Suspendable, Some(100), 50, run(0, 200)).unwrap();
        assert_eq!(
            (
                suspended.begin,
                suspended.release,
                suspended.overhead,
                suspended.run_end
            ),
            (t(90), t(100), 34, t(200))
        );
        let migrated = new(Class::Migratable, Some(100), 80, run(0, 200)).unwrap();
        assert_eq!(
            (migrated.begin, migrated.release, migrated.overhead),
            (t(80), t(100), 40)
        );
        assert_eq!(new(Class::Migratable, Some(100), 81, run(0, 200)), None);
        let cancelled = new(Class::Cancelable, None, 50, run(0, 54)).unwrap();
        assert_eq!(
            (cancelled.begin, cancelled.release, cancelled.overhead),
            (t(50), t(53), 6)
        );
        assert_eq!(new(Class::Cancelable, None, 50, run(0, 53)), None);
        assert_eq!(new(Class::Cancelable, None, 50, run(53, 90)), None);
        assert_eq!(new(Class::NonPreemptable, Some(100), 0, run(0, 200)), None);
    }

    /// Targets alike in class, nodes, overhead and timing are one kind: its count grows. At
    /// most [`MAX_CANDIDATES`] kinds: a target of a new kind is handed back then, while one of
    /// a known kind still joins it; and at most `N` targets.
    #[test]
    fn targets_of_one_kind_are_counted_together() {
        let nth = |k: u32| Target {
            id: LeaseId::new(k),
            class: Class::PREEMPTABLE[k as usize % 3],
            nodes: k + 1,
            overhead: u64::from(k) * 3,
            begin: t(u64::from(k)),
            release: t(u64::from(k) + 10),
            run_end: t(u64::from(k) + 20),
        };
        let mut targets = Targets::<100>::new();
        for k in 0..MAX_CANDIDATES as u32 {
            targets.push(nth(k)).unwrap();
        }
        let extra = nth(99);
        assert_eq!(targets.push(extra), Err(extra));
        let again = Target {
            id: LeaseId::new(500),
            run_end: t(7),
            ..nth(5)
        };
        targets.push(again).unwrap();
        assert_eq!((targets.len(), targets.candidates().len()), (65, 64));
        assert_eq!(targets.kind_of(&again), Some(5));
        for (k, c) in (0u32..).zip(targets.candidates()) {
            let n = nth(k);
            assert_eq!(
                (c.class, c.nodes, c.overhead),
                (n.class, n.nodes, n.overhead)
            );
            assert_eq!(c.count, if k == 5 { 2 } else { 1 });
            assert_eq!(targets.release(k as usize), Some(n.release));
        }
        let mut two = Targets::<2>::new();
        two.push(nth(1)).unwrap();
        two.push(nth(1)).unwrap();
        assert_eq!(two.push(nth(1)), Err(nth(1)));
        two.clear();
        assert!(two.is_empty() && two.candidates().is_empty());
    }

    /// A cluster of 10 nodes: a Cancelable lease A (2 nodes) and a Suspendable lease B (4)
    /// run until 100, a non-preemptable lease holds 2 until 1000, and a reservation holds 2
    /// over `[30, 80)`. Free: 2 on `[0, 30)`, 0 on `[30, 80)`, 2 on `[80, 100)`.
    fn cluster() -> SlotTable<16> {
        let mut table = SlotTable::new(10).unwrap();
        for (start, end, nodes) in [(0, 100, 2), (0, 100, 4), (0, 1000, 2), (30, 80, 2)] {
            table.reserve(t(start), t(end), nodes).unwrap();
        }
        table
    }

    fn targets(of: &[Target]) -> Targets<8> {
        let mut targets = Targets::new();
        for &t in of {
            targets.push(t).unwrap();
        }
        targets
    }

    /// A reservation at 20 for 20 ticks, `W = [20, 40)`, with A (stop `[20, 20)`) and B
    /// (`[15, 20)`) as targets: `g(20) = 2 + 6 = 8` but `g(30) = 0 + 6 = 6`, the bottleneck
    /// inside `W`. For 5 nodes the slack is `6 - 5 = 1`, so `need = 6 - 1 = 5`: A alone (2) is
    /// short and B alone (4) too, so both go, though `g(20)` alone would ask for 3 (B).
    /// For 3 nodes, `need = 6 - 3 = 3`: B, since A alone (the less valuable tier) is short.
    #[test]
    fn the_need_is_taken_at_the_bottleneck_of_the_window() {
        let mut t = targets(&[
            target(0, Class::Cancelable, 2, 20, 20),
            target(1, Class::Suspendable, 4, 15, 20),
        ]);
        let five = demand(10, Some(20), 5, 20);
        assert_eq!(
            need(&cluster(), &mut t, &five),
            Ok(Need {
                nodes: 5,
                window: run(20, 40)
            })
        );
        let p = plan(&cluster(), &mut t, &five, Policy::Moml, TIERS).unwrap();
        assert_eq!((p.choice.take, p.span), (take(&[1, 1]), run(20, 40)));
        let three = demand(10, Some(20), 3, 20);
        let three = plan(&cluster(), &mut t, &three, Policy::Moml, TIERS).unwrap();
        assert_eq!((three.need.nodes, three.choice.take), (3, take(&[0, 1])));
    }

    /// An immediate request at 10, A stopping over `[10, 10)` and B over `[10, 15)`: `W` runs
    /// from 10 to the latest release plus the work. 5 nodes for 20: `W = [10, 35)` holds the
    /// bottleneck at 30 (`g = 6`), `need = 5`, both go, and the request starts when the last
    /// releases its nodes, at 15: `[15, 35)`. 3 nodes for 10: `W = [10, 25)`, `g = 8`
    /// throughout, `need = 6 - 5 = 1`: A alone, which is free at once: `[10, 20)`.
    #[test]
    fn an_immediate_request_starts_when_the_chosen_leases_release_their_nodes() {
        let mut t = targets(&[
            target(0, Class::Cancelable, 2, 10, 10),
            target(1, Class::Suspendable, 4, 10, 15),
        ]);
        let both = plan(
            &cluster(),
            &mut t,
            &demand(10, None, 5, 20),
            Policy::Mov,
            TIERS,
        )
        .unwrap();
        assert_eq!(both.need.window, run(10, 35));
        assert_eq!((both.choice.take, both.span), (take(&[1, 1]), run(15, 35)));
        let one = plan(
            &cluster(),
            &mut t,
            &demand(10, None, 3, 10),
            Policy::Mov,
            TIERS,
        )
        .unwrap();
        assert_eq!(
            one.need,
            Need {
                nodes: 1,
                window: run(10, 25)
            }
        );
        assert_eq!((one.choice.take, one.span), (take(&[1]), run(10, 20)));
    }

    /// With no target, or too few nodes behind them (7 > `g_min = 6`), or nothing to free (1
    /// node for 5 ticks fits in the 2 free), there is no plan; a run past `Ticks::MAX`
    /// overflows.
    #[test]
    fn no_plan_when_preemption_cannot_help() {
        let mut t = targets(&[
            target(0, Class::Cancelable, 2, 20, 20),
            target(1, Class::Suspendable, 4, 15, 20),
        ]);
        let table = cluster();
        let at20 = |nodes| demand(10, Some(20), nodes, 20);
        let mut none = Targets::<1>::new();
        assert_eq!(need(&table, &mut none, &at20(5)), Err(Error::NotFree));
        assert_eq!(need(&table, &mut t, &at20(7)), Err(Error::NotFree));
        assert_eq!(
            need(&table, &mut t, &demand(10, None, 1, 5)),
            Err(Error::NotFree)
        );
        let forever = demand(10, Some(20), 5, u64::MAX);
        assert_eq!(
            plan(&table, &mut t, &forever, Policy::Mlip, TIERS),
            Err(Error::Overflow)
        );
    }

    /// Three Cancelable targets on a full cluster of 8, each freeing its nodes at 10: X (4
    /// nodes, overhead 400), Y and Z (2 nodes, 10 each: one kind of two). A reservation of 4
    /// nodes at 10 needs `8 - (8 - 4) = 4`. The minimal sets are {X} (400) and {Y, Z} (20):
    /// MLIP takes {X}, MOV {Y, Z}, and MOML too (the lower median of 20 and 400 is 20).
    #[test]
    fn the_policy_chooses_among_plain_candidates() {
        let mut table = SlotTable::<8>::new(8).unwrap();
        table.reserve(t(0), t(100), 8).unwrap();
        let mut t = targets(&[
            Target {
                overhead: 400,
                ..target(0, Class::Cancelable, 4, 10, 10)
            },
            Target {
                overhead: 10,
                ..target(1, Class::Cancelable, 2, 10, 10)
            },
            Target {
                overhead: 10,
                ..target(2, Class::Cancelable, 2, 10, 10)
            },
        ]);
        let d = demand(10, Some(10), 4, 10);
        let mut pick = |policy| plan(&table, &mut t, &d, policy, TIERS).unwrap().choice.take;
        assert_eq!(pick(Policy::Mlip), take(&[1]));
        assert_eq!(pick(Policy::Mov), take(&[0, 2]));
        assert_eq!(pick(Policy::Moml), take(&[0, 2]));
    }
}
