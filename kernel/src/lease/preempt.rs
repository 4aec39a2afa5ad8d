//! Preemption: which running leases to preempt for a request that does not fit
//! (salehi2011 Sec. III and Algorithm 1, salehi2012 Sec. 2.1).
//!
//! A local request (salehi2012) or an advance reservation (gandhimathi2013) that finds too few free
//! nodes may preempt external leases. The caller describes the leases it could preempt as
//! [`Candidate`]s, one per *kind*: a class, a lease size in nodes, the overhead of preempting one
//! such lease, and how many leases of that kind there are. It says how many nodes it needs, and
//! [`select`] returns the *candidate set* to preempt (how many leases of each kind), chosen by
//! one of the three policies of salehi2011:
//!
//! - [`Policy::Mov`]: the set of least total overhead;
//! - [`Policy::Mlip`]: the set of fewest leases;
//! - [`Policy::Moml`] (Algorithm 1): `alpha` = the median of the sets' total overheads; among
//!   the sets whose overhead is at most `alpha`, the one of fewest leases.
//!
//! # Units
//! Nodes are [`Nodes`]; a candidate's overhead is a `u64` per lease in any unit the caller
//! chooses (the lease manager, [`crate::lease`], uses node-ticks: the lease's nodes times the
//! per-VM time its preemption costs). Totals are summed in `u128` and node counts in saturating
//! `u64`, so they never overflow.
//!
//! # Candidate sets
//! Leases of one kind are interchangeable: every criterion (nodes, overhead, count, class) sees
//! them alike. A *candidate set* is therefore a number `x_k` of leases of each kind `k`, `0 <=
//! x_k <= count_k` (a multiset); two sets that differ only by exchanging leases of one kind are
//! the same set. (With every `count_k = 1` these are plain subsets of the candidates. Counting
//! the exchanges as distinct sets would fill the family with copies of one choice, and weigh
//! MOML's median by how many leases happen to be alike; Algorithm 1 leaves the family open, E12.)
//! 1. **Type preference** ([`Preference::Tiers`]; salehi2012 Sec. 4.2: "more valuable leases would
//!    be preempted if and only if there are no (sufficient) leases of less valuable request
//!    types"). Classes in increasing value: [`Class::Cancelable`] < [`Class::Suspendable`] <
//!    [`Class::Migratable`]; [`Class::NonPreemptable`] is never preempted. The *tier* is the
//!    least valuable class `c` such that the candidates of class at most `c` hold at least
//!    `need` nodes together. A set may contain only leases of class at most the tier: a more
//!    valuable type is touched only if the less valuable types alone cannot free enough.
//!    With [`Preference::Flat`] every preemptable class is admitted alike (the tier is
//!    `Migratable`): with cancellation costing nothing and the preference on, MOV, MLIP and
//!    MOML pick the same set whenever the Cancelable leases suffice (E12), so a
//!    comparison of the policies needs it off.
//! 2. **Minimality**: a candidate set frees at least `need` nodes and no smaller set inside it
//!    does (removing any one lease leaves it short). Kinds of zero nodes or zero count are in
//!    no minimal set.
//! 3. **Enumeration order**: the admitted kinds are ordered by nodes, largest first (ties: less
//!    valuable class first, then lower slice index). Sets are enumerated depth first, taking as
//!    many leases of a kind as can still be useful before fewer: of two sets, the one with more
//!    leases of the first kind (in that order) on which they differ comes first. The first set
//!    is therefore the greedy largest-first set, which has the fewest leases.
//! 4. **Bound**: at most `SETS` sets (a const generic of [`select`]) are enumerated: the *family*
//!    is the first `SETS` minimal sets in this order. [`Choice::complete`] says whether that was
//!    all of them; when it is, every policy's choice is exact over all minimal sets.
//!
//! # Policies and tie-breaks
//! Every policy picks from the family by a key; remaining ties go to the set enumerated first.
//! - `Mov`: least overhead, then fewest leases.
//! - `Mlip`: fewest leases, then least overhead.
//! - `Moml`: `alpha` is the *lower median* of the family's overheads: sorted ascending
//!   `o_1 <= ... <= o_K`, `alpha = o_ceil(K/2)` (an overhead of some set, so at least half of the
//!   family qualifies; Algorithm 1 leaves even `K` open). Among the sets with overhead `<= alpha`:
//!   fewest leases, then least overhead (Algorithm 1 keeps the first of the fewest; we prefer the
//!   cheaper of them, then the first).
//!
//! Since overheads are non-negative, the least overhead and the fewest leases over all sufficient
//! sets of the admitted kinds are attained by minimal sets: with a complete family, `Mov` and
//! `Mlip` are optimal over every set that frees enough nodes within the tier.
//!
//! # Errors
//! - `InvalidParameter(Capacity)`: `need` is zero;
//! - [`Error::Full`]: more than [`MAX_CANDIDATES`] kinds;
//! - [`Error::NotFree`]: the admitted candidates together hold fewer than `need` nodes.
//!
//! # Cost and memory
//! `n <= 64` kinds, `m <= n` of them admitted, `K <= SETS` sets enumerated. Sorting is
//! `O(m log m)`. The depth-first search prunes every branch whose remaining kinds cannot reach
//! `need`, and tries at each kind only the counts that can still reach it; it stops adding
//! leases once a set suffices, and takes at most `ceil(r / nodes)` leases of a kind when `r`
//! nodes are missing. So every branch it enters leads to a set, each set it reaches is minimal
//! (the last lease added is of the smallest kind in the set, and before it the set was short),
//! and it takes at most `2 m + 2` steps per set: worst case `O(n log n + (2 m + 2) (K + 1))` per
//! call (about 33,000 steps at `m = 64`, `K = 256`), twice that for `Moml` (one pass for the
//! median, one to choose), whatever the counts. With `Candidate`s built from a cluster's running
//! leases by (class, nodes), `n` is at most `sqrt(6 N)` for a cluster of `N` nodes (distinct
//! sizes of one class sum to at most `N`), so 64 kinds hold every cluster of up to 682 nodes.
//! No recursion, no allocation. Stack: about 2 KiB, plus `16 SETS` bytes for `Moml`'s
//! overheads (4 KiB at `SETS = 256`); a [`Choice`] is 296 bytes.

use heapless::Vec;

use crate::error::{Error, Param};
use crate::units::Nodes;

/// The most kinds [`select`] accepts.
pub const MAX_CANDIDATES: usize = 64;

/// A lease's preemption class (salehi2012 Sec. 2.1), in increasing value: the order in which
/// leases are preempted. Local leases are `NonPreemptable`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Class {
    /// Best effort, terminated when preempted (no duration or deadline guaranteed).
    Cancelable,
    /// Best effort, suspended when preempted and resumed later with its remaining work.
    Suspendable,
    /// Deadline-constrained, migrated when preempted (the caller decides where).
    Migratable,
    /// Deadline-constrained, never preempted.
    NonPreemptable,
}

impl Class {
    /// The three classes that may be preempted, least valuable first.
    pub const PREEMPTABLE: [Class; 3] = [Class::Cancelable, Class::Suspendable, Class::Migratable];

    /// Whether a lease of this class may be preempted.
    pub const fn is_preemptable(self) -> bool {
        !matches!(self, Class::NonPreemptable)
    }
}

/// A kind of lease that could be preempted: `count` interchangeable leases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Candidate {
    /// Their class; `NonPreemptable` candidates are never chosen.
    pub class: Class,
    /// Nodes the preemption of one of them frees.
    pub nodes: Nodes,
    /// What preempting one of them costs (non-negative, in the caller's unit).
    pub overhead: u64,
    /// How many such leases there are.
    pub count: u32,
}

impl Candidate {
    /// A single lease (a kind of count 1).
    pub const fn one(class: Class, nodes: Nodes, overhead: u64) -> Self {
        Self {
            class,
            nodes,
            overhead,
            count: 1,
        }
    }
}

/// How a candidate set is chosen (salehi2011 Sec. III).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Policy {
    /// Median overhead, then fewest leases (Algorithm 1).
    Moml,
    /// Minimum overhead value.
    Mov,
    /// Minimum number of leases preempted.
    Mlip,
}

/// Which classes a candidate set may draw from (see the module's type preference).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Preference {
    /// Less valuable classes first: a class is touched only if the less valuable ones together
    /// cannot free enough (salehi2012 Sec. 4.2).
    #[default]
    Tiers,
    /// Every preemptable class alike: the policy alone chooses.
    Flat,
}

/// How many leases of each candidate a set preempts: entry `k` counts leases of
/// `candidates[k]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Take([u32; MAX_CANDIDATES]);

impl Default for Take {
    fn default() -> Self {
        Self::NONE
    }
}

impl Take {
    /// No lease.
    pub const NONE: Take = Take([0; MAX_CANDIDATES]);

    /// The set taking `counts[k]` leases of candidate `k`; `None` if there are more than
    /// [`MAX_CANDIDATES`] counts.
    pub fn from_counts(counts: &[u32]) -> Option<Self> {
        let mut take = Self::NONE;
        take.0.get_mut(..counts.len())?.copy_from_slice(counts);
        Some(take)
    }

    /// Leases of candidate `k` in the set (0 for `k >= 64`).
    pub fn get(&self, k: usize) -> u32 {
        self.0.get(k).copied().unwrap_or(0)
    }

    /// The leases in the set, of every candidate.
    pub fn leases(&self) -> u64 {
        self.0.iter().map(|&x| u64::from(x)).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&x| x == 0)
    }

    /// `(k, leases of candidate k)` for every candidate the set takes leases of, increasing `k`.
    pub fn iter(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        self.0.iter().copied().enumerate().filter(|&(_, x)| x > 0)
    }
}

/// The set [`select`] chose, and what it knows about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Choice {
    /// The leases to preempt, by candidate.
    pub take: Take,
    /// The most valuable class the search admitted (see the module's type preference).
    pub tier: Class,
    /// Leases in the set.
    pub leases: u64,
    /// Nodes the set frees (at least `need`).
    pub nodes: u64,
    /// The set's total overhead.
    pub overhead: u128,
    /// How many candidate sets were enumerated (the family's size, at most `SETS`).
    pub sets: usize,
    /// Whether the family holds every minimal set of the tier (the bound was not reached).
    pub complete: bool,
}

/// One step of a set under construction: `x` leases of the kind at position `p`.
type Taken = (u8, u32);

/// A set as the search builds it: the positions it takes leases of, increasing.
type Path = Vec<Taken, MAX_CANDIDATES>;

/// The admitted kinds in enumeration order, with suffix sums of the nodes they hold.
struct Domain {
    tier: Class,
    /// Slice indices, in enumeration order.
    order: Vec<u8, MAX_CANDIDATES>,
    /// `suffix[p]`: nodes held by the kinds at positions `p..` (saturating).
    suffix: [u64; MAX_CANDIDATES + 1],
}

/// Nodes of `count` leases of `nodes` nodes, saturating.
fn held_by(c: &Candidate) -> u64 {
    u64::from(c.nodes).saturating_mul(u64::from(c.count))
}

impl Domain {
    fn new(candidates: &[Candidate], need: u64, preference: Preference) -> Result<Self, Error> {
        let held = |k: Class| -> u64 {
            candidates
                .iter()
                .filter(|c| c.class <= k)
                .fold(0u64, |a, c| a.saturating_add(held_by(c)))
        };
        let tier = match preference {
            Preference::Tiers => Class::PREEMPTABLE.into_iter().find(|&k| held(k) >= need),
            Preference::Flat => Some(Class::Migratable).filter(|&k| held(k) >= need),
        }
        .ok_or(Error::NotFree)?;
        let mut order: Vec<u8, MAX_CANDIDATES> = candidates
            .iter()
            .zip(0u8..)
            .filter(|(c, _)| c.class <= tier && c.nodes > 0 && c.count > 0)
            .map(|(_, i)| i)
            .collect();
        let key = |i: &u8| {
            let c = candidates.get(usize::from(*i));
            (
                core::cmp::Reverse(c.map_or(0, |c| c.nodes)),
                c.map(|c| c.class),
                *i,
            )
        };
        // Keys are unique (they end with the index): the order is fully determined.
        order.sort_unstable_by_key(key);
        let mut suffix = [0u64; MAX_CANDIDATES + 1];
        for p in (0..order.len()).rev() {
            let nodes = order
                .get(p)
                .and_then(|&i| candidates.get(usize::from(i)))
                .map_or(0, held_by);
            let next = suffix.get(p + 1).copied().unwrap_or(0);
            if let Some(s) = suffix.get_mut(p) {
                *s = next.saturating_add(nodes);
            }
        }
        Ok(Self {
            tier,
            order,
            suffix,
        })
    }

    /// Visits the first `cap` minimal sets in enumeration order, each with its path, nodes,
    /// overhead and leases. Returns how many it visited and whether that was all of them.
    fn enumerate(
        &self,
        candidates: &[Candidate],
        need: u64,
        cap: usize,
        mut visit: impl FnMut(&Path, u64, u128, u64),
    ) -> (usize, bool) {
        let at = |p: usize| {
            self.order
                .get(p)
                .and_then(|&i| candidates.get(usize::from(i)))
        };
        let suffix = |p: usize| self.suffix.get(p).copied().unwrap_or(0);
        // The kinds taken so far, and the running totals of the set they form.
        let mut path = Path::new();
        let (mut nodes, mut overhead, mut leases) = (0u64, 0u128, 0u64);
        let mut visited = 0usize;
        // The position to try, and the count to try there (`None`: as many as can be useful).
        let mut p = 0usize;
        let mut next: Option<u32> = None;
        loop {
            // Invariant: nodes < need, and the path's positions are below p.
            if let Some(c) = at(p).filter(|_| nodes.saturating_add(suffix(p)) >= need) {
                // nodes > 0 (zero-node kinds are not admitted), need > nodes.
                let n = u64::from(c.nodes);
                let missing = need - nodes;
                // At most `count`, a u32.
                let x = next.unwrap_or(missing.div_ceil(n).min(u64::from(c.count)) as u32);
                let gain = u64::from(x) * n;
                let cost = u128::from(x) * u128::from(c.overhead);
                if x > 0 && gain >= missing {
                    // A minimal set (the last kind, the smallest, makes it suffice); then the
                    // branches with fewer leases of this kind.
                    if visited == cap {
                        return (visited, false);
                    }
                    // Cannot fail: at most one entry per admitted kind.
                    let _ = path.push((p as u8, x));
                    visit(&path, nodes + gain, overhead + cost, leases + u64::from(x));
                    path.pop();
                    visited += 1;
                    next = Some(x - 1);
                    continue;
                }
                if (nodes + gain).saturating_add(suffix(p + 1)) >= need {
                    if x > 0 {
                        let _ = path.push((p as u8, x));
                        nodes += gain;
                        overhead += cost;
                        leases += u64::from(x);
                    }
                    p += 1;
                    next = None;
                    continue;
                }
                // Fewer leases of this kind cannot reach need either: back.
            }
            // Backtrack: drop the last kind taken and try one lease fewer of it.
            let Some((q, y)) = path.pop() else {
                return (visited, true);
            };
            if let Some(c) = at(usize::from(q)) {
                nodes -= u64::from(y) * u64::from(c.nodes);
                overhead -= u128::from(y) * u128::from(c.overhead);
                leases -= u64::from(y);
            }
            p = usize::from(q);
            next = Some(y - 1);
        }
    }

    /// The [`Take`] of a path.
    fn take(&self, path: &Path) -> Take {
        let mut take = Take::NONE;
        for &(p, x) in path {
            if let Some(slot) = self
                .order
                .get(usize::from(p))
                .and_then(|&i| take.0.get_mut(usize::from(i)))
            {
                *slot = x;
            }
        }
        take
    }
}

/// The best set seen so far by a key `(primary, secondary)`; the first of equal keys stays.
struct Best {
    key: (u128, u128),
    path: Path,
    nodes: u64,
    overhead: u128,
    leases: u64,
}

fn keep_better(best: &mut Option<Best>, key: (u128, u128), path: &Path, totals: (u64, u128, u64)) {
    if best.as_ref().is_none_or(|b| key < b.key) {
        *best = Some(Best {
            key,
            path: path.clone(),
            nodes: totals.0,
            overhead: totals.1,
            leases: totals.2,
        });
    }
}

/// Chooses the leases to preempt so that at least `need` nodes are freed, by `policy`, among the
/// first `SETS` minimal candidate sets of the kinds `preference` admits (see the module's
/// documentation for the type preference, the enumeration order, the tie-breaks and the worst
/// case).
///
/// Errors: `InvalidParameter(Capacity)` if `need` is zero, [`Error::Full`] if there are more than
/// [`MAX_CANDIDATES`] candidates, [`Error::NotFree`] if the admitted candidates hold fewer than
/// `need` nodes. `NonPreemptable` candidates are never chosen.
pub fn select<const SETS: usize>(
    candidates: &[Candidate],
    need: Nodes,
    policy: Policy,
    preference: Preference,
) -> Result<Choice, Error> {
    const { assert!(SETS >= 1, "the family needs room for one set") };
    if need == 0 {
        return Err(Error::InvalidParameter(Param::Capacity));
    }
    if candidates.len() > MAX_CANDIDATES {
        return Err(Error::Full);
    }
    let need = u64::from(need);
    let domain = Domain::new(candidates, need, preference)?;
    let mut best = None;
    let (sets, complete) = match policy {
        Policy::Mov | Policy::Mlip => {
            domain.enumerate(candidates, need, SETS, |path, nodes, overhead, leases| {
                let len = u128::from(leases);
                let key = if policy == Policy::Mov {
                    (overhead, len)
                } else {
                    (len, overhead)
                };
                keep_better(&mut best, key, path, (nodes, overhead, leases));
            })
        }
        Policy::Moml => {
            let mut overheads: Vec<u128, SETS> = Vec::new();
            let (sets, complete) = domain.enumerate(candidates, need, SETS, |_, _, o, _| {
                // Cannot fail: at most SETS sets are visited.
                let _ = overheads.push(o);
            });
            overheads.sort_unstable();
            let alpha = overheads
                .get(overheads.len().saturating_sub(1) / 2)
                .copied()
                .unwrap_or(0);
            domain.enumerate(candidates, need, SETS, |path, nodes, overhead, leases| {
                if overhead <= alpha {
                    let key = (u128::from(leases), overhead);
                    keep_better(&mut best, key, path, (nodes, overhead, leases));
                }
            });
            (sets, complete)
        }
    };
    // The admitted kinds hold at least `need` nodes, so the family has at least one set.
    let best = best.ok_or(Error::NotFree)?;
    Ok(Choice {
        take: domain.take(&best.path),
        tier: domain.tier,
        leases: best.leases,
        nodes: best.nodes,
        overhead: best.overhead,
        sets,
        complete,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn c(class: Class, nodes: Nodes, overhead: u64) -> Candidate {
        Candidate::one(class, nodes, overhead)
    }

    fn take(counts: &[u32]) -> Take {
        Take::from_counts(counts).unwrap()
    }

    /// Need 6 nodes: one 6-node lease (overhead 100), one of 4 (10), three of 2 (1 each).
    /// Minimal sets: {X} 100, {Y, Z1} 11, {Y, Z2} 11, {Y, Z3} 11, {Z1, Z2, Z3} 3. The lower
    /// median of (3, 11, 11, 11, 100) is 11: MOML keeps the four cheaper sets and takes the
    /// first of the two-lease ones; MLIP takes {X}, MOV {Z1, Z2, Z3}.
    #[test]
    fn the_three_policies_differ_on_one_instance() {
        use Class::Suspendable as S;
        let cands = [
            c(S, 6, 100),
            c(S, 4, 10),
            c(S, 2, 1),
            c(S, 2, 1),
            c(S, 2, 1),
        ];
        let pick = |p| select::<16>(&cands, 6, p, Preference::Tiers).unwrap();
        assert_eq!(pick(Policy::Mlip).take, take(&[1]));
        assert_eq!(pick(Policy::Mov).take, take(&[0, 0, 1, 1, 1]));
        let moml = pick(Policy::Moml);
        assert_eq!(moml.take, take(&[0, 1, 1]));
        assert_eq!((moml.leases, moml.nodes, moml.overhead), (2, 6, 11));
        assert_eq!((moml.sets, moml.complete, moml.tier), (5, true, S));
    }

    /// The same instance with the three 2-node leases as one kind of count 3: the sets that
    /// differ only by which of them they take are one set, so the family is {X}, {Y, Z},
    /// {Z, Z, Z}. MLIP and MOV choose as before; MOML's lower median is now 11 (of 3, 11, 100).
    #[test]
    fn leases_of_one_kind_are_interchangeable() {
        use Class::Suspendable as S;
        let z = Candidate {
            count: 3,
            ..c(S, 2, 1)
        };
        let cands = [c(S, 6, 100), c(S, 4, 10), z];
        let pick = |p| select::<16>(&cands, 6, p, Preference::Tiers).unwrap();
        assert_eq!(pick(Policy::Mlip).take, take(&[1]));
        let mov = pick(Policy::Mov);
        assert_eq!((mov.take, mov.leases, mov.sets), (take(&[0, 0, 3]), 3, 3));
        assert_eq!(pick(Policy::Moml).take, take(&[0, 1, 1]));
        // 256 one-node leases, 100 needed: one set, whatever the bound.
        let many = [Candidate {
            count: 256,
            ..c(Class::Cancelable, 1, 0)
        }];
        let all = select::<1>(&many, 100, Policy::Moml, Preference::Tiers).unwrap();
        assert_eq!((all.take, all.sets, all.complete), (take(&[100]), 1, true));
    }

    /// A cheap suspendable pair and one cancelable lease as large: with the preference on, the
    /// cancelable lease is the only candidate; with it off, MOV takes the cheaper pair.
    #[test]
    fn the_preference_can_be_switched_off() {
        let cands = [
            c(Class::Cancelable, 2, 50),
            c(Class::Suspendable, 1, 1),
            c(Class::Suspendable, 1, 1),
        ];
        let tiers = select::<8>(&cands, 2, Policy::Mov, Preference::Tiers).unwrap();
        assert_eq!((tiers.take, tiers.tier), (take(&[1]), Class::Cancelable));
        let flat = select::<8>(&cands, 2, Policy::Mov, Preference::Flat).unwrap();
        assert_eq!(
            (flat.take, flat.tier),
            (take(&[0, 1, 1]), Class::Migratable)
        );
        assert_eq!(
            select::<8>(&cands, 2, Policy::Mlip, Preference::Flat).map(|c| c.take),
            Ok(take(&[1]))
        );
    }

    #[test]
    fn the_family_bound_is_reported() {
        let cands = [c(Class::Cancelable, 1, 0); 6];
        // Need 3 of 6 single nodes: C(6, 3) = 20 minimal sets.
        let all = select::<20>(&cands, 3, Policy::Mov, Preference::Tiers).unwrap();
        assert_eq!((all.sets, all.complete), (20, true));
        let some = select::<19>(&cands, 3, Policy::Mov, Preference::Tiers).unwrap();
        assert_eq!((some.sets, some.complete), (19, false));
        assert_eq!(some.take, take(&[1, 1, 1]));
    }

    #[test]
    fn errors_are_typed() {
        let cands = [c(Class::NonPreemptable, 8, 0), c(Class::Migratable, 2, 5)];
        for preference in [Preference::Tiers, Preference::Flat] {
            assert_eq!(
                select::<4>(&cands, 3, Policy::Moml, preference),
                Err(Error::NotFree)
            );
        }
        assert_eq!(
            select::<4>(&cands, 0, Policy::Moml, Preference::Tiers),
            Err(Error::InvalidParameter(Param::Capacity))
        );
        let many = [c(Class::Cancelable, 1, 0); MAX_CANDIDATES + 1];
        assert_eq!(
            select::<4>(&many, 1, Policy::Mlip, Preference::Tiers),
            Err(Error::Full)
        );
    }
}
