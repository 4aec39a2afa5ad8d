//! Preemption as a pure plan: the running leases that may be stopped ([`Targets`]), how many of
//! their nodes must be freed and over which window ([`need`]), and which ones to stop
//! ([`plan`], through [`preempt::select`]). Nothing here touches a manager: the plan is computed
//! from plain data (a slot table, a list of targets, the request), and
//! [`Manager`](super::Manager) applies it in a separate step (trims the chosen leases'
//! reservations, reserves the request's, marks the chosen leases as stopping).
//!
//! # Steps
//! 1. **Targets** ([`Target::new`], collected into [`Targets`]): a running lease with no stop
//!    pending, with the timing of its stop (Haizea's: see the module [`lease`](super)), or none
//!    if stopping it would free nothing.
//! 2. **Need** ([`need`]): how many of the targets' nodes must be freed, and the window the
//!    request may occupy.
//! 3. **Choice** ([`plan`]): [`preempt::select`] over the targets' [`Candidate`]s, with at most
//!    [`SEARCH`] sets enumerated, under a [`Policy`]; the request then starts at its instant, or
//!    (immediate) when the last chosen lease has released its nodes.
//!
//! Each step takes and returns plain values, so each can be replaced or tested alone.
//!
//! # Units
//! Instants and durations in [`Ticks`], nodes in [`Nodes`], overheads in node-ticks (`u64`,
//! saturating). Free counts are `i64`: the sums are of at most [`MAX_CANDIDATES`] `u32`s.
//!
//! # Invariants
//! - [`Targets`] holds at most [`MAX_CANDIDATES`] targets, its candidate `k` and timing `k`
//!   describing the same lease (they are pushed together or not at all).
//! - A [`Plan`]'s choice frees at least `need.nodes > 0` nodes, and its span is
//!   `[start, start + work)` with `start` in the need's window (for `work >= 1`, which the
//!   manager checks).
//!
//! # Cost and memory
//! `B` breakpoints, `n <= 64` targets. [`need`] is `O((B + n) n)` (the free count at each
//! instant where it may change, each `O(log B + n)`); [`plan`] adds the selection (see
//! [`crate::preempt`], at most about 33,000 steps). No recursion, no allocation. [`Targets`] is
//! 3,088 bytes (a 16-byte [`Candidate`] and a 32-byte timing per target), a [`Plan`] 96 bytes
//! on x86-64. Stack on `thumbv7em` (opt-level `s`): [`plan`] itself about 200 bytes, then
//! [`preempt::select`] 2.8 KiB (2 KiB of it MOML's overheads, `16 SEARCH` bytes) plus up to
//! 1.4 KiB in its sort. The caller holds the [`Targets`]: fill it in place
//! ([`Targets::push`]) rather than return one by value, which copies it through a temporary.

use heapless::Vec;

use super::{Action, LeaseId, Overheads};
use crate::error::Error;
use crate::preempt::{self, Candidate, Choice, Class, MAX_CANDIDATES, Policy};
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

/// When a target's stop would run: the part of a [`Target`] that [`preempt::select`] does not
/// read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Timing {
    id: LeaseId,
    begin: Ticks,
    release: Ticks,
    run_end: Ticks,
}

/// The targets of one preemption, at most [`MAX_CANDIDATES`], in the order they were pushed
/// (the order [`preempt::select`] breaks ties by): the candidates `select` reads, and beside
/// each its timing.
#[derive(Clone, Debug, Default)]
pub struct Targets {
    candidates: Vec<Candidate, MAX_CANDIDATES>,
    timings: Vec<Timing, MAX_CANDIDATES>,
}

impl Targets {
    /// No target.
    pub const fn new() -> Self {
        Self {
            candidates: Vec::new(),
            timings: Vec::new(),
        }
    }

    /// Adds a target; hands it back if [`MAX_CANDIDATES`] are held already.
    pub fn push(&mut self, t: Target) -> Result<(), Target> {
        if self.timings.is_full() {
            return Err(t);
        }
        let candidate = Candidate {
            class: t.class,
            nodes: t.nodes,
            overhead: t.overhead,
        };
        let timing = Timing {
            id: t.id,
            begin: t.begin,
            release: t.release,
            run_end: t.run_end,
        };
        // Cannot fail: both hold as many as `timings`, which has room.
        self.candidates.push(candidate).map_err(|_| t)?;
        self.timings.push(timing).map_err(|_| t)
    }

    /// The number of targets.
    pub fn len(&self) -> usize {
        self.timings.len()
    }

    /// Whether there is no target.
    pub fn is_empty(&self) -> bool {
        self.timings.is_empty()
    }

    /// What [`preempt::select`] weighs: index `k` is target `k`.
    pub fn candidates(&self) -> &[Candidate] {
        &self.candidates
    }

    /// Target `k`, if there is one.
    pub fn get(&self, k: usize) -> Option<Target> {
        let c = self.candidates.get(k)?;
        let t = self.timings.get(k)?;
        Some(Target {
            id: t.id,
            class: c.class,
            nodes: c.nodes,
            overhead: c.overhead,
            begin: t.begin,
            release: t.release,
            run_end: t.run_end,
        })
    }

    /// The targets, in order.
    pub fn iter(&self) -> impl Iterator<Item = Target> + '_ {
        (0..self.len()).filter_map(|k| self.get(k))
    }

    /// `(nodes, run_end)` of every target.
    fn runs(&self) -> impl Iterator<Item = (Nodes, Ticks)> + '_ {
        self.candidates
            .iter()
            .zip(&self.timings)
            .map(|(c, t)| (c.nodes, t.run_end))
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
/// target's reservation in it), and its window.
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
pub fn need<const B: usize>(
    table: &SlotTable<B>,
    targets: &Targets,
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
    let g = |t: Ticks| -> i64 {
        let back: i64 = targets
            .runs()
            .filter(|&(_, end)| end > t)
            .map(|(nodes, _)| i64::from(nodes))
            .sum();
        table.free_at(t) + back
    };
    let instants = core::iter::once(w0)
        .chain(table.steps().iter().map(|s| s.at))
        .chain(targets.runs().map(|(_, end)| end))
        .filter(|&t| w0 <= t && t < w1);
    let g_min = instants.map(g).min().unwrap_or(i64::MIN);
    let slack = g_min - i64::from(demand.nodes);
    if slack < 0 {
        return Err(Error::NotFree);
    }
    let total: i64 = targets.runs().map(|(nodes, _)| i64::from(nodes)).sum();
    let nodes = Nodes::try_from(total - slack)
        .ok()
        .filter(|&n| n > 0)
        .ok_or(Error::NotFree)?;
    Ok(Need {
        nodes,
        window: Span { start: w0, end: w1 },
    })
}

/// A decided preemption, not yet applied: which targets to stop and where the request goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Plan {
    /// What had to be freed.
    pub need: Need,
    /// The chosen set: indices into the [`Targets`] the plan was made from.
    pub choice: Choice,
    /// The request's reservation, `[start, start + work)`.
    pub span: Span,
}

impl Plan {
    /// The chosen targets, in order, from the `targets` the plan was made from.
    pub fn chosen<'a>(&self, targets: &'a Targets) -> impl Iterator<Item = Target> + 'a {
        let set = self.choice.set;
        set.iter().filter_map(|k| targets.get(k))
    }
}

/// Plans the preemption of some of `targets` so that `demand` fits in `table` (steps 2 and 3
/// of the module), choosing the set by `policy`.
///
/// Errors: those of [`need`]; [`Error::NotFree`] from [`preempt::select`] (the targets of
/// preemptable classes hold too few nodes); [`Error::Overflow`] if the request would end past
/// `Ticks::MAX`.
pub fn plan<const B: usize>(
    table: &SlotTable<B>,
    targets: &Targets,
    demand: &Demand,
    policy: Policy,
) -> Result<Plan, Error> {
    let need = need(table, targets, demand)?;
    let choice = preempt::select::<SEARCH>(targets.candidates(), need.nodes, policy)?;
    let start = match demand.at {
        Some(s) => s,
        None => choice
            .set
            .iter()
            .filter_map(|k| targets.get(k))
            .map(|t| t.release)
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
    const fn target(id: LeaseId, class: Class, nodes: Nodes, begin: u64, release: u64) -> Target {
        Target {
            id,
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
        let new =
            |class, at, now, run| Target::new(7, class, 2, run, &OVERHEADS, &demand(now, at, 1, 1));
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

    /// Targets hold at most [`MAX_CANDIDATES`], each read back as it was pushed, and hand
    /// `select` their class, nodes and overhead in the same order.
    #[test]
    fn targets_keep_each_candidate_with_its_timing() {
        let mut targets = Targets::new();
        let nth = |k: u32| Target {
            id: k,
            class: Class::PREEMPTABLE[k as usize % 3],
            nodes: k + 1,
            overhead: u64::from(k) * 3,
            begin: t(u64::from(k)),
            release: t(u64::from(k) + 10),
            run_end: t(u64::from(k) + 20),
        };
        for k in 0..MAX_CANDIDATES as u32 {
            targets.push(nth(k)).unwrap();
        }
        let extra = nth(99);
        assert_eq!(targets.push(extra), Err(extra));
        assert_eq!(targets.len(), MAX_CANDIDATES);
        for (k, t) in (0u32..).zip(targets.iter()) {
            assert_eq!(t, nth(k));
            let c = targets.candidates()[k as usize];
            assert_eq!(
                (c.class, c.nodes, c.overhead),
                (t.class, t.nodes, t.overhead)
            );
        }
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

    fn targets(of: &[Target]) -> Targets {
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
        let t = targets(&[
            target(0, Class::Cancelable, 2, 20, 20),
            target(1, Class::Suspendable, 4, 15, 20),
        ]);
        let five = demand(10, Some(20), 5, 20);
        assert_eq!(
            need(&cluster(), &t, &five),
            Ok(Need {
                nodes: 5,
                window: run(20, 40)
            })
        );
        let p = plan(&cluster(), &t, &five, Policy::Moml).unwrap();
        assert_eq!((p.choice.set.bits(), p.span), (0b11, run(20, 40)));
        let three = plan(&cluster(), &t, &demand(10, Some(20), 3, 20), Policy::Moml).unwrap();
        assert_eq!((three.need.nodes, three.choice.set.bits()), (3, 0b10));
        let chosen: heapless::Vec<LeaseId, 2> = three.chosen(&t).map(|t| t.id).collect();
        assert_eq!(chosen, [1]);
    }

    /// An immediate request at 10, A stopping over `[10, 10)` and B over `[10, 15)`: `W` runs
    /// from 10 to the latest release plus the work. 5 nodes for 20: `W = [10, 35)` holds the
    /// bottleneck at 30 (`g = 6`), `need = 5`, both go, and the request starts when the last
    /// releases its nodes, at 15: `[15, 35)`. 3 nodes for 10: `W = [10, 25)`, `g = 8`
    /// throughout, `need = 6 - 5 = 1`: A alone, which is free at once: `[10, 20)`.
    #[test]
    fn an_immediate_request_starts_when_the_chosen_leases_release_their_nodes() {
        let t = targets(&[
            target(0, Class::Cancelable, 2, 10, 10),
            target(1, Class::Suspendable, 4, 10, 15),
        ]);
        let both = plan(&cluster(), &t, &demand(10, None, 5, 20), Policy::Mov).unwrap();
        assert_eq!(both.need.window, run(10, 35));
        assert_eq!((both.choice.set.bits(), both.span), (0b11, run(15, 35)));
        let one = plan(&cluster(), &t, &demand(10, None, 3, 10), Policy::Mov).unwrap();
        assert_eq!(
            one.need,
            Need {
                nodes: 1,
                window: run(10, 25)
            }
        );
        assert_eq!((one.choice.set.bits(), one.span), (0b01, run(10, 20)));
    }

    /// With no target, or too few nodes behind them (7 > `g_min = 6`), or nothing to free (1
    /// node for 5 ticks fits in the 2 free), there is no plan; a run past `Ticks::MAX`
    /// overflows.
    #[test]
    fn no_plan_when_preemption_cannot_help() {
        let t = targets(&[
            target(0, Class::Cancelable, 2, 20, 20),
            target(1, Class::Suspendable, 4, 15, 20),
        ]);
        let table = cluster();
        let at20 = |nodes| demand(10, Some(20), nodes, 20);
        assert_eq!(need(&table, &Targets::new(), &at20(5)), Err(Error::NotFree));
        assert_eq!(need(&table, &t, &at20(7)), Err(Error::NotFree));
        assert_eq!(
            need(&table, &t, &demand(10, None, 1, 5)),
            Err(Error::NotFree)
        );
        let forever = demand(10, Some(20), 5, u64::MAX);
        assert_eq!(
            plan(&table, &t, &forever, Policy::Mlip),
            Err(Error::Overflow)
        );
    }

    /// Three Cancelable targets on a full cluster of 8, each freeing its nodes at 10: X (4
    /// nodes, overhead 400), Y and Z (2 nodes, 10 each). A reservation of 4 nodes at 10 needs
    /// `8 - (8 - 4) = 4`. The minimal sets are {X} (400) and {Y, Z} (20): MLIP takes {X},
    /// MOV {Y, Z}, and MOML too (the lower median of 20 and 400 is 20).
    #[test]
    fn the_policy_chooses_among_plain_candidates() {
        let mut table = SlotTable::<8>::new(8).unwrap();
        table.reserve(t(0), t(100), 8).unwrap();
        let t = targets(&[
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
        let pick = |policy| plan(&table, &t, &d, policy).unwrap().choice.set.bits();
        assert_eq!(pick(Policy::Mlip), 0b001);
        assert_eq!(pick(Policy::Mov), 0b110);
        assert_eq!(pick(Policy::Moml), 0b110);
    }
}
