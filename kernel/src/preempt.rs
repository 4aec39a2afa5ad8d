//! Preemption: which running leases to preempt for a request that does not fit (issue 4, Kernel
//! item 4; seed 001 Sec. III and Algorithm 1, seed 000 Sec. 2.1).
//!
//! A local request (seed 000) or an advance reservation (seed 003) that finds too few free nodes
//! may preempt external leases. The caller lists the leases it could preempt as [`Candidate`]s
//! (class, nodes, overhead) and says how many nodes it needs; [`select`] returns the *candidate
//! set* to preempt, chosen by one of the three policies of seed 001:
//!
//! - [`Policy::Mov`]: the set of least total overhead;
//! - [`Policy::Mlip`]: the set of fewest leases;
//! - [`Policy::Moml`] (Algorithm 1): `alpha` = the median of the sets' total overheads; among
//!   the sets whose overhead is at most `alpha`, the one of fewest leases.
//!
//! # Units
//! Nodes are [`Nodes`]; a candidate's overhead is a `u64` in any unit the caller chooses (the
//! lease manager, [`crate::lease`], uses node-ticks: the lease's nodes times the per-VM time its
//! preemption costs). Totals are summed in `u128`, so they never overflow (64 x `u64::MAX`).
//!
//! # Candidate sets
//! 1. **Type preference** (seed 000 Sec. 4.2: "more valuable leases would be preempted if and only
//!    if there are no (sufficient) leases of less valuable request types"). Classes in increasing
//!    value: [`Class::Cancelable`] < [`Class::Suspendable`] < [`Class::Migratable`];
//!    [`Class::NonPreemptable`] is never preempted. The *tier* is the least valuable class `k`
//!    such that the candidates of class at most `k` hold at least `need` nodes together. A set may
//!    contain only leases of class at most the tier: a more valuable type is touched only if the
//!    less valuable types alone cannot free enough. (Every sufficient set then contains at least
//!    one lease of the tier's class.)
//! 2. **Minimality**: a candidate set frees at least `need` nodes and no proper subset does (a set
//!    that preempts a lease it does not need is never a candidate). Candidates of zero nodes are
//!    in no minimal set.
//! 3. **Enumeration order**: the tier's candidates are ordered by nodes, largest first (ties: less
//!    valuable class first, then lower slice index). Sets are enumerated depth first, including a
//!    candidate before excluding it: of two sets, the one that contains the first candidate (in
//!    that order) on which they differ comes first. The first set is therefore the greedy
//!    largest-first set, which has the fewest leases.
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
//! subsets of the tier are attained by minimal sets: with a complete family, `Mov` and `Mlip`
//! are optimal over every set that frees enough nodes within the tier.
//!
//! # Errors
//! - `InvalidParameter(Capacity)`: `need` is zero;
//! - [`Error::Full`]: more than [`MAX_CANDIDATES`] candidates (a set is a 64-bit mask);
//! - [`Error::NotFree`]: the preemptable candidates together hold fewer than `need` nodes.
//!
//! # Cost and memory
//! `n <= 64` candidates, `m <= n` of them in the tier, `K <= SETS` sets enumerated. Sorting is
//! `O(m log m)`. The depth-first search prunes every branch whose remaining candidates cannot
//! reach `need`, and stops including candidates once a set suffices; with candidates in
//! decreasing node order, every set it reaches is minimal (the last candidate added is the
//! smallest, and before it the sum was short). So each branch leads to a set, and the search
//! takes at most `2 m + 2` steps per set: worst case `O(n log n + (2 m + 2) (K + 1))` per call
//! (about 33,000 steps at `m = 64`, `K = 256`), twice that for `Moml` (one pass for the median,
//! one to choose). No recursion, no allocation. Stack: about 1.2 KiB, plus `16 SETS` bytes for
//! `Moml`'s overheads (4 KiB at `SETS = 256`).

use heapless::Vec;

use crate::error::{Error, Param};
use crate::units::Nodes;

/// The most candidates [`select`] accepts: a set is a `u64` bitmask over the slice.
pub const MAX_CANDIDATES: usize = 64;

/// A lease's preemption class (seed 000 Sec. 2.1), in increasing value: the order in which
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

/// A lease that could be preempted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Candidate {
    /// Its class; `NonPreemptable` candidates are never chosen.
    pub class: Class,
    /// Nodes its preemption frees.
    pub nodes: Nodes,
    /// What preempting it costs (non-negative, in the caller's unit).
    pub overhead: u64,
}

/// How a candidate set is chosen (seed 001 Sec. III).
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

/// A set of candidates: bit `i` stands for `candidates[i]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Set(u64);

impl Set {
    /// The set whose members are the one bits of `bits`.
    pub const fn from_bits(bits: u64) -> Self {
        Set(bits)
    }

    /// The bitmask.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Whether candidate `i` is in the set (false for `i >= 64`).
    pub fn contains(self, i: usize) -> bool {
        u32::try_from(i)
            .ok()
            .and_then(|i| self.0.checked_shr(i))
            .is_some_and(|b| b & 1 == 1)
    }

    /// The number of members.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The members' indices, increasing.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..MAX_CANDIDATES).filter(move |&i| self.contains(i))
    }
}

/// The set [`select`] chose, and what it knows about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Choice {
    /// The leases to preempt (indices into the candidate slice).
    pub set: Set,
    /// The most valuable class the search admitted (see the module's type preference).
    pub tier: Class,
    /// Nodes the set frees (at least `need`).
    pub nodes: u64,
    /// The set's total overhead.
    pub overhead: u128,
    /// How many candidate sets were enumerated (the family's size, at most `SETS`).
    pub sets: usize,
    /// Whether the family holds every minimal set of the tier (the bound was not reached).
    pub complete: bool,
}

/// The tier's candidates in enumeration order, with suffix sums of their nodes.
struct Domain {
    tier: Class,
    /// Slice indices, in enumeration order.
    order: Vec<u8, MAX_CANDIDATES>,
    /// `suffix[p]`: nodes of the candidates at positions `p..`.
    suffix: [u64; MAX_CANDIDATES + 1],
}

impl Domain {
    fn new(candidates: &[Candidate], need: u64) -> Result<Self, Error> {
        let held = |k: Class| -> u64 {
            candidates
                .iter()
                .filter(|c| c.class <= k)
                .map(|c| u64::from(c.nodes))
                .sum()
        };
        let tier = Class::PREEMPTABLE
            .into_iter()
            .find(|&k| held(k) >= need)
            .ok_or(Error::NotFree)?;
        let mut order: Vec<u8, MAX_CANDIDATES> = candidates
            .iter()
            .zip(0u8..)
            .filter(|(c, _)| c.class <= tier && c.nodes > 0)
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
                .map_or(0, |c| u64::from(c.nodes));
            let next = suffix.get(p + 1).copied().unwrap_or(0);
            if let Some(s) = suffix.get_mut(p) {
                *s = next + nodes;
            }
        }
        Ok(Self {
            tier,
            order,
            suffix,
        })
    }

    /// Visits the first `cap` minimal sets in enumeration order, each with its nodes and
    /// overhead. Returns how many it visited and whether that was all of them.
    fn enumerate(
        &self,
        candidates: &[Candidate],
        need: u64,
        cap: usize,
        mut visit: impl FnMut(Set, u64, u128),
    ) -> (usize, bool) {
        let at = |p: usize| {
            self.order
                .get(p)
                .and_then(|&i| candidates.get(usize::from(i)).map(|c| (i, c)))
        };
        let suffix = |p: usize| self.suffix.get(p).copied().unwrap_or(0);
        // The positions included so far, and the running totals of the set they form.
        let mut stack = [0usize; MAX_CANDIDATES];
        let mut depth = 0usize;
        let (mut set, mut nodes, mut overhead) = (0u64, 0u64, 0u128);
        let mut p = 0usize;
        let mut visited = 0usize;
        loop {
            // Invariant: nodes < need. Include position p if the branch can still reach need.
            match at(p).filter(|_| nodes + suffix(p) >= need) {
                Some((i, c)) => {
                    let bit = 1u64.checked_shl(u32::from(i)).unwrap_or(0);
                    let (n, o) = (
                        nodes + u64::from(c.nodes),
                        overhead + u128::from(c.overhead),
                    );
                    if n >= need {
                        // A minimal set; then the branch without p.
                        if visited == cap {
                            return (visited, false);
                        }
                        visit(Set(set | bit), n, o);
                        visited += 1;
                    } else if let Some(slot) = stack.get_mut(depth) {
                        *slot = p;
                        depth += 1;
                        set |= bit;
                        nodes = n;
                        overhead = o;
                    }
                    p += 1;
                }
                None => {
                    // Backtrack: drop the last included position and take its exclude branch.
                    let Some(top) = depth.checked_sub(1) else {
                        return (visited, true);
                    };
                    depth = top;
                    let q = stack.get(top).copied().unwrap_or(0);
                    if let Some((i, c)) = at(q) {
                        set &= !1u64.checked_shl(u32::from(i)).unwrap_or(0);
                        nodes -= u64::from(c.nodes);
                        overhead -= u128::from(c.overhead);
                    }
                    p = q + 1;
                }
            }
        }
    }
}

/// The best set seen so far by a key `(primary, secondary)`; the first of equal keys stays.
#[derive(Clone, Copy)]
struct Best {
    key: (u128, u128),
    set: Set,
    nodes: u64,
    overhead: u128,
}

fn keep_better(best: &mut Option<Best>, key: (u128, u128), set: Set, nodes: u64, overhead: u128) {
    if best.is_none_or(|b| key < b.key) {
        *best = Some(Best {
            key,
            set,
            nodes,
            overhead,
        });
    }
}

/// Chooses the leases to preempt so that at least `need` nodes are freed, by `policy`, among the
/// first `SETS` minimal candidate sets of the tier (see the module's documentation for the type
/// preference, the enumeration order, the tie-breaks and the worst case).
///
/// Errors: `InvalidParameter(Capacity)` if `need` is zero, [`Error::Full`] if there are more than
/// [`MAX_CANDIDATES`] candidates, [`Error::NotFree`] if the preemptable candidates hold fewer than
/// `need` nodes. `NonPreemptable` candidates are never chosen.
pub fn select<const SETS: usize>(
    candidates: &[Candidate],
    need: Nodes,
    policy: Policy,
) -> Result<Choice, Error> {
    const { assert!(SETS >= 1, "the family needs room for one set") };
    if need == 0 {
        return Err(Error::InvalidParameter(Param::Capacity));
    }
    if candidates.len() > MAX_CANDIDATES {
        return Err(Error::Full);
    }
    let need = u64::from(need);
    let domain = Domain::new(candidates, need)?;
    let mut best = None;
    let (sets, complete) = match policy {
        Policy::Mov | Policy::Mlip => {
            domain.enumerate(candidates, need, SETS, |set, nodes, overhead| {
                let len = u128::from(set.len());
                let key = if policy == Policy::Mov {
                    (overhead, len)
                } else {
                    (len, overhead)
                };
                keep_better(&mut best, key, set, nodes, overhead);
            })
        }
        Policy::Moml => {
            let mut overheads: Vec<u128, SETS> = Vec::new();
            let (sets, complete) = domain.enumerate(candidates, need, SETS, |_, _, o| {
                // Cannot fail: at most SETS sets are visited.
                let _ = overheads.push(o);
            });
            overheads.sort_unstable();
            let alpha = overheads
                .get(overheads.len().saturating_sub(1) / 2)
                .copied()
                .unwrap_or(0);
            domain.enumerate(candidates, need, SETS, |set, nodes, overhead| {
                if overhead <= alpha {
                    let key = (u128::from(set.len()), overhead);
                    keep_better(&mut best, key, set, nodes, overhead);
                }
            });
            (sets, complete)
        }
    };
    // The tier holds at least `need` nodes, so the family has at least one set.
    let best = best.ok_or(Error::NotFree)?;
    Ok(Choice {
        set: best.set,
        tier: domain.tier,
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
        Candidate {
            class,
            nodes,
            overhead,
        }
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
        let pick = |p| select::<16>(&cands, 6, p).unwrap();
        assert_eq!(pick(Policy::Mlip).set, Set(0b00001));
        assert_eq!(pick(Policy::Mov).set, Set(0b11100));
        let moml = pick(Policy::Moml);
        assert_eq!(moml.set, Set(0b00110));
        assert_eq!((moml.nodes, moml.overhead), (6, 11));
        assert_eq!((moml.sets, moml.complete, moml.tier), (5, true, S));
    }

    #[test]
    fn the_family_bound_is_reported() {
        let cands = [c(Class::Cancelable, 1, 0); 6];
        // Need 3 of 6 single nodes: C(6, 3) = 20 minimal sets.
        let all = select::<20>(&cands, 3, Policy::Mov).unwrap();
        assert_eq!((all.sets, all.complete), (20, true));
        let some = select::<19>(&cands, 3, Policy::Mov).unwrap();
        assert_eq!((some.sets, some.complete), (19, false));
        assert_eq!(some.set, Set(0b000111));
    }

    #[test]
    fn errors_are_typed() {
        let cands = [c(Class::NonPreemptable, 8, 0), c(Class::Migratable, 2, 5)];
        assert_eq!(select::<4>(&cands, 3, Policy::Moml), Err(Error::NotFree));
        assert_eq!(
            select::<4>(&cands, 0, Policy::Moml),
            Err(Error::InvalidParameter(Param::Capacity))
        );
        let many = [c(Class::Cancelable, 1, 0); MAX_CANDIDATES + 1];
        assert_eq!(select::<4>(&many, 1, Policy::Mlip), Err(Error::Full));
    }
}
