//! Tests of leases and preemption (`kernel/src/lease/`,
//! `kernel/src/lease/preempt.rs`).
//!
//! - Candidate-set selection against brute force: on up to 10 candidates, every subset is
//!   enumerated, the candidate sets are filtered by the module's definition (type tier,
//!   minimality), ordered, truncated to the bound, and each policy's key is applied; the kernel
//!   must return exactly that set. MOV and MLIP are also checked against their plain meaning
//!   (least overhead, fewest leases over every subset of the tier that frees enough nodes).
//! - Haizea's timing by hand: suspensions that end exactly at a reservation's start, immediate
//!   requests, resume overhead, exact remaining work, cancellation, migration, rejection.
//! - Random job sets through the lease manager, checked against the event trace alone: nodes in
//!   use never exceed the cluster, every lease is submitted once, starts at most once, ends
//!   exactly once, runs exactly its work (plus the stated overheads), resumes with exactly its
//!   remaining work, is preempted only if preemptable and only with Haizea's timing; the slot
//!   table holds exactly the live reservations; the accounts add up.

use std::collections::BTreeMap;
use std::iter::Sum;
use std::ops::Mul;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use qosgate_kernel::lease::preempt::{
    Candidate, Choice, Class, MAX_CANDIDATES, Policy, Preference, Take, select,
};
use qosgate_kernel::lease::{
    Action, Admission, Cause, End, Event, Kind, LeaseId, Manager, Notice, Overheads, Queue, Rules,
    Spec, State, Stop,
};
use qosgate_kernel::units::{Nodes, TICKS_PER_SECOND, Ticks};
use qosgate_kernel::{Error, Param, Refused};
use qosgate_testkit::leases;

/// 256 cases per property, or `PROPTEST_CASES` for a deeper run.
fn cases() -> u32 {
    qosgate_testkit::proptest_cases(256)
}

/// Seconds in ticks.
const fn s(secs: u64) -> Ticks {
    Ticks::from_secs(secs)
}

const T0: Ticks = Ticks::ZERO;

/// `a + b`, in a test where it cannot overflow.
fn plus(a: Ticks, b: Ticks) -> Ticks {
    a.checked_add(b).expect("no overflow in the test's times")
}

// ---------------------------------------------------------------------------------------------
// Candidate-set selection against brute force.
// ---------------------------------------------------------------------------------------------

const CLASSES: [Class; 4] = [
    Class::Cancelable,
    Class::Suspendable,
    Class::Migratable,
    Class::NonPreemptable,
];

/// A candidate set as counts of leases per kind.
type Counts = Vec<u32>;

/// `per(kind) x count`, summed over the kinds of the set `x`.
fn total<T: From<u32> + Mul<Output = T> + Sum>(
    cands: &[Candidate],
    x: &Counts,
    per: impl Fn(&Candidate) -> T,
) -> T {
    cands.iter().zip(x).map(|(c, &n)| per(c) * T::from(n)).sum()
}

fn nodes_of(cands: &[Candidate], x: &Counts) -> u64 {
    total(cands, x, |c| u64::from(c.nodes))
}

fn overhead_of(cands: &[Candidate], x: &Counts) -> u128 {
    total(cands, x, |c| u128::from(c.overhead))
}

fn leases_of(x: &Counts) -> u64 {
    x.iter().map(|&n| u64::from(n)).sum()
}

/// The tier of the module's definition, by brute force.
fn tier(cands: &[Candidate], need: u64, preference: Preference) -> Option<Class> {
    let held = |k: Class| -> u64 {
        cands
            .iter()
            .filter(|c| c.class <= k)
            .map(|c| u64::from(c.nodes) * u64::from(c.count))
            .sum()
    };
    match preference {
        Preference::Tiers => CLASSES[..3].iter().copied().find(|&k| held(k) >= need),
        Preference::Flat => Some(Class::Migratable).filter(|&k| held(k) >= need),
    }
}

/// Every set of leases of the tier's kinds (at most each kind's count) that frees at least
/// `need` nodes.
fn sufficient(cands: &[Candidate], need: u64, tier: Class) -> Vec<Counts> {
    let mut all: Vec<Counts> = vec![vec![]];
    for c in cands {
        let most = if c.class <= tier { c.count } else { 0 };
        all = all
            .into_iter()
            .flat_map(|x| {
                (0..=most).map(move |n| {
                    let mut x = x.clone();
                    x.push(n);
                    x
                })
            })
            .collect();
    }
    all.retain(|x| nodes_of(cands, x) >= need);
    all
}

/// Without any one of its leases the set is short (sums are monotone).
fn is_minimal(cands: &[Candidate], x: &Counts, need: u64) -> bool {
    let smallest = cands
        .iter()
        .zip(x)
        .filter(|&(_, &n)| n > 0)
        .map(|(c, _)| u64::from(c.nodes))
        .min()
        .unwrap_or(0);
    nodes_of(cands, x) - smallest < need
}

/// The policy's choice, written from the module's definition: the minimal sufficient sets of
/// the tier, in enumeration order, the first `bound` of them, then the policy's key.
fn brute_select(
    cands: &[Candidate],
    need: Nodes,
    policy: Policy,
    preference: Preference,
    bound: usize,
) -> Result<Choice, Error> {
    if need == 0 {
        return Err(Error::InvalidParameter(Param::Capacity));
    }
    let need = u64::from(need);
    let tier = tier(cands, need, preference).ok_or(Error::NotFree)?;
    let mut minimal: Vec<Counts> = sufficient(cands, need, tier)
        .into_iter()
        .filter(|x| is_minimal(cands, x, need))
        .collect();
    // Positions: nodes descending, then less valuable class, then index. More leases of the
    // first kind (in that order) on which two sets differ: enumerated first.
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(cands[i].nodes), cands[i].class, i));
    let rank = |x: &Counts| -> Vec<u32> { order.iter().map(|&i| x[i]).collect() };
    minimal.sort_by_key(|x| std::cmp::Reverse(rank(x)));
    let complete = minimal.len() <= bound;
    minimal.truncate(bound);
    let oh = |x: &Counts| overhead_of(cands, x);
    let len = |x: &Counts| u128::from(leases_of(x));
    let key = |x: &Counts| -> (u128, u128) {
        match policy {
            Policy::Mov => (oh(x), len(x)),
            Policy::Mlip | Policy::Moml => (len(x), oh(x)),
        }
    };
    let eligible: Vec<&Counts> = match policy {
        Policy::Moml => {
            let mut o: Vec<u128> = minimal.iter().map(oh).collect();
            o.sort();
            // Lower median: the ceil(K/2)-th smallest.
            let alpha = o[(o.len() - 1) / 2];
            minimal.iter().filter(|x| oh(x) <= alpha).collect()
        }
        _ => minimal.iter().collect(),
    };
    // min_by_key keeps the first of equal keys: the set enumerated first.
    let best = *eligible.iter().min_by_key(|x| key(x)).unwrap();
    Ok(Choice {
        take: Take::from_counts(best).unwrap(),
        tier,
        leases: leases_of(best),
        nodes: nodes_of(cands, best),
        overhead: oh(best),
        sets: minimal.len(),
        complete,
    })
}

fn candidate() -> impl Strategy<Value = Candidate> {
    // Few distinct values, so that ties in nodes and overheads are common; most kinds hold one
    // lease, some none or several.
    let nodes = prop_oneof![0..=3u32, 0..=6u32];
    let overhead = prop_oneof![Just(0u64), 1..=3u64, 1..=8u64];
    let count = prop_oneof![6 => Just(1u32), 1 => Just(0u32), 2 => 2..=3u32];
    (0..4usize, nodes, overhead, count).prop_map(|(k, nodes, o, count)| Candidate {
        class: CLASSES[k],
        nodes,
        overhead: o * 10,
        count,
    })
}

fn policy() -> impl Strategy<Value = Policy> {
    prop_oneof![Just(Policy::Moml), Just(Policy::Mov), Just(Policy::Mlip)]
}

fn preference() -> impl Strategy<Value = Preference> {
    prop_oneof![Just(Preference::Tiers), Just(Preference::Flat)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// With room for every candidate set, and with a bound of 5 sets and of 1, each policy
    /// under each preference returns exactly the set, tier, family size and completeness of
    /// the brute force over every count vector; NotFree and a zero need agree too.
    #[test]
    fn each_policy_picks_exactly_the_set_its_definition_gives(
        cands in prop::collection::vec(candidate(), 0..=7),
        need in 0..=16u32,
        policy in policy(),
        preference in preference(),
    ) {
        for bound in [1usize, 5] {
            let brute = brute_select(&cands, need, policy, preference, bound);
            let kernel = match bound {
                1 => select::<1>(&cands, need, policy, preference),
                _ => select::<5>(&cands, need, policy, preference),
            };
            prop_assert_eq!(kernel, brute);
        }
        let all = brute_select(&cands, need, policy, preference, 1 << 20);
        prop_assert_eq!(select::<4096>(&cands, need, policy, preference), all);
    }

    /// The plain meaning, independent of the enumeration: MOV frees enough nodes at the least
    /// overhead and MLIP with the fewest leases of any sufficient set of the tier; MOML's
    /// set costs at most the lower median of the minimal sets' overheads and has the fewest
    /// leases of those that do; every policy's set is minimal, takes no more leases of a kind
    /// than it has, holds no non-preemptable lease, and (preference on) holds a lease of a
    /// class only if the less valuable classes together are short of `need`
    /// (`qosgate_testkit::leases::choice`).
    #[test]
    fn choices_are_minimal_optimal_and_prefer_less_valuable_types(
        cands in prop::collection::vec(candidate(), 1..=7),
        need in 1..=16u32,
        policy in policy(),
        preference in preference(),
    ) {
        let preemptable: u64 = cands
            .iter()
            .filter(|c| c.class.is_preemptable())
            .map(|c| u64::from(c.nodes) * u64::from(c.count))
            .sum();
        let choice = match select::<4096>(&cands, need, policy, preference) {
            Ok(choice) => choice,
            Err(e) => {
                prop_assert_eq!(e, Error::NotFree);
                if preference == Preference::Flat {
                    prop_assert!(preemptable < u64::from(need));
                }
                return Ok(());
            }
        };
        leases::choice(&cands, need, preference, &choice).map_err(TestCaseError::fail)?;
        if let Some(fewest) = leases::fewest_leases(&cands, choice.tier, need) {
            prop_assert!(choice.leases >= fewest);
        }
        let need = u64::from(need);
        prop_assert!(choice.complete);
        let all = sufficient(&cands, need, choice.tier);
        let minimal: Vec<&Counts> = all.iter().filter(|x| is_minimal(&cands, x, need)).collect();
        prop_assert_eq!(choice.sets, minimal.len());
        let chosen: Counts = (0..cands.len()).map(|k| choice.take.get(k)).collect();
        prop_assert!(minimal.contains(&&chosen));
        match policy {
            Policy::Mov => prop_assert_eq!(choice.overhead, all.iter().map(|x| overhead_of(&cands, x)).min().unwrap()),
            Policy::Mlip => {
                prop_assert_eq!(choice.leases, all.iter().map(leases_of).min().unwrap());
                prop_assert_eq!(Some(choice.leases), leases::fewest_leases(&cands, choice.tier, need as Nodes));
            }
            Policy::Moml => {
                // At least half of the minimal family costs no less than the choice: with the
                // overheads sorted, the choice is at most the lower median (the ceil(K/2)-th),
                // so the floor(K/2) + 1 sets from the median up cost at least as much.
                let k = minimal.len();
                let costlier = minimal.iter().filter(|x| overhead_of(&cands, x) >= choice.overhead).count();
                prop_assert!(costlier > k / 2, "{} of {} minimal sets cost at least {}", costlier, k, choice.overhead);
                // The lower median itself, and the fewest leases of the sets at most that dear.
                let mut overheads: Vec<u128> = minimal.iter().map(|x| overhead_of(&cands, x)).collect();
                overheads.sort_unstable();
                let median = overheads[(k - 1) / 2];
                prop_assert!(choice.overhead <= median);
                let fewest = minimal
                    .iter()
                    .filter(|x| overhead_of(&cands, x) <= median)
                    .map(|x| leases_of(x))
                    .min()
                    .unwrap();
                prop_assert_eq!(choice.leases, fewest);
            }
        }
    }
}

fn take(counts: &[u32]) -> Take {
    Take::from_counts(counts).unwrap()
}

const TIERS: Preference = Preference::Tiers;

/// Need 2 nodes. Minimal sets, in order: {A} 40, {B} 200, {C} 300, {c,d} 2, {c,e} 2, {d,e} 2.
/// Sorted overheads 2, 2, 2, 40, 200, 300: the lower median is 2 (the third), the upper 40.
/// MOML with the lower median keeps only the pairs and takes the first; with the upper median
/// (or any median reaching 40) it would take {A}, with one lease.
#[test]
fn moml_takes_the_lower_median_of_an_even_family() {
    let c = |nodes, overhead| Candidate::one(Class::Suspendable, nodes, overhead);
    let cands = [c(2, 40), c(2, 200), c(2, 300), c(1, 1), c(1, 1), c(1, 1)];
    let pick = |p| select::<64>(&cands, 2, p, TIERS).unwrap();
    let moml = pick(Policy::Moml);
    assert_eq!((moml.sets, moml.complete), (6, true));
    assert_eq!((moml.take, moml.overhead), (take(&[0, 0, 0, 1, 1]), 2));
    assert_eq!(pick(Policy::Mlip).take, take(&[1]));
    assert_eq!(pick(Policy::Mov).take, take(&[0, 0, 0, 1, 1]));
}

/// Ties in the first key fall to the second before the enumeration order (an instance found
/// by searching small ones). Need 6 nodes of leases of nodes 1, 3, 3, 1, 3, 4 and overheads
/// 0, 3, 3, 2, 3, 4. Minimal sets in order: {5,1} 7, {5,2} 7, {5,4} 7, {5,0,3} 6, {1,2} 6,
/// {1,4} 6, {2,4} 6. MOV's least overhead, 6, is tied between {5,0,3} (three leases,
/// enumerated first) and three pairs: fewer leases wins, then the first pair, {1,2}.
#[test]
fn second_keys_break_ties_before_the_enumeration_order() {
    let nodes = [1, 3, 3, 1, 3, 4];
    let overheads = [0, 3, 3, 2, 3, 4];
    let cands: Vec<Candidate> = nodes
        .iter()
        .zip(overheads)
        .map(|(&nodes, overhead)| Candidate::one(Class::Cancelable, nodes, overhead))
        .collect();
    let mov = select::<64>(&cands, 6, Policy::Mov, TIERS).unwrap();
    assert_eq!((mov.take, mov.overhead, mov.sets), (take(&[0, 1, 1]), 6, 7));
}

#[test]
fn selection_never_reaches_past_its_tier_or_its_capacity() {
    let c = |class, nodes| Candidate::one(class, nodes, 0);
    // Two 1-node cancelables suffice for 2 nodes: the 2-node suspendable (one lease, as cheap)
    // is not a candidate for any policy.
    let cands = [
        c(Class::Suspendable, 2),
        c(Class::Cancelable, 1),
        c(Class::Cancelable, 1),
    ];
    for p in [Policy::Moml, Policy::Mov, Policy::Mlip] {
        let choice = select::<8>(&cands, 2, p, TIERS).unwrap();
        assert_eq!(choice.take, take(&[0, 1, 1]));
        assert_eq!(choice.tier, Class::Cancelable);
    }
    // Three nodes: the cancelables are short, so the tier is Suspendable; minimal sets are
    // {S, C1} and {S, C2}.
    let choice = select::<8>(&cands, 3, Policy::Mlip, TIERS).unwrap();
    assert_eq!((choice.take, choice.sets), (take(&[1, 1]), 2));
    // Non-preemptable nodes never count.
    let cands = [c(Class::NonPreemptable, 9), c(Class::Migratable, 1)];
    assert_eq!(
        select::<8>(&cands, 2, Policy::Mov, TIERS),
        Err(Error::NotFree)
    );
    let many = vec![c(Class::Cancelable, 1); MAX_CANDIDATES + 1];
    assert_eq!(select::<8>(&many, 1, Policy::Mov, TIERS), Err(Error::Full));
    assert_eq!(
        select::<8>(&many[..MAX_CANDIDATES], 64, Policy::Mov, TIERS)
            .unwrap()
            .sets,
        1
    );
}

// ---------------------------------------------------------------------------------------------
// Haizea's timing, by hand.
// ---------------------------------------------------------------------------------------------

type M = Manager<16, 32>;

fn manager(nodes: Nodes, policy: Policy) -> M {
    M::new(nodes, Overheads::PAPER, policy).unwrap()
}

fn external(class: Class, nodes: Nodes, work: Ticks) -> Spec {
    Spec {
        nodes,
        work,
        kind: Kind::External {
            class,
            deadline: None,
        },
    }
}

fn local(nodes: Nodes, work: Ticks) -> Spec {
    Spec {
        nodes,
        work,
        kind: Kind::Local,
    }
}

/// State changes as `(id, at, from, to, remaining)`.
type Change = (LeaseId, Ticks, State, State, Ticks);

fn changes(events: &[Event]) -> Vec<Change> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Changed {
                id,
                at,
                from,
                to,
                remaining,
            } => Some((id, at, from, to, remaining)),
            _ => None,
        })
        .collect()
}

fn stops(events: &[Event]) -> Vec<(LeaseId, Stop)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Preempted { id, stop } => Some((id, stop)),
            _ => None,
        })
        .collect()
}

/// Advances through every event until nothing is left.
fn drain(m: &mut M, log: &mut Vec<Event>) {
    while let Some(t) = m.next_event() {
        m.advance(t, &mut |e| log.push(e)).unwrap();
    }
}

use State::{Queued, Reserved, Resuming, Running, Stopping, Suspended};

/// 4 nodes under `policy`, and the lease `be` it runs from 0: Suspendable, 4 nodes, 1000 s.
fn suspendable_running(policy: Policy) -> (M, Vec<Event>, LeaseId) {
    let mut m = manager(4, policy);
    let mut log = vec![];
    let be = m
        .submit(T0, external(Class::Suspendable, 4, BE_WORK), &mut |e| {
            log.push(e)
        })
        .unwrap();
    (m, log, be)
}

/// The work of [`suspendable_running`]'s lease.
const BE_WORK: Ticks = s(1000);

/// The changes when lease `by`, of `work`, preempts [`suspendable_running`]'s lease `be`: `be`
/// runs from 0 until `stop`, is suspended over `[stop, by_start)`, `by` runs
/// `[by_start, by_start + work)`; then `be` resumes (`t_r` of [`Overheads::PAPER`]) and runs
/// exactly the work it had left at `stop`.
fn suspended_around(
    be: LeaseId,
    by: LeaseId,
    stop: Ticks,
    by_start: Ticks,
    work: Ticks,
) -> Vec<Change> {
    let left = BE_WORK.checked_sub(stop).unwrap();
    let by_end = by_start.checked_add(work).unwrap();
    let resumed = by_end.checked_add(Overheads::PAPER.resume).unwrap();
    let done = resumed.checked_add(left).unwrap();
    let suspend = Stopping(Action::Suspend);
    vec![
        (be, T0, Queued, Running, BE_WORK),
        (be, stop, Running, suspend, left),
        (be, by_start, suspend, Suspended, left),
        (by, by_start, Reserved, Running, work),
        (by, by_end, Running, State::Done(End::Completed), T0),
        (be, by_end, Suspended, Resuming, left),
        (be, resumed, Resuming, Running, left),
        (be, done, Running, State::Done(End::Completed), T0),
    ]
}

#[test]
fn suspension_ends_exactly_when_the_reservation_starts() {
    let (mut m, mut log, be) = suspendable_running(Policy::Moml);
    // A reservation for [500 s, 600 s) submitted at 10 s: the suspension runs [340 s, 500 s).
    let ar = Spec {
        nodes: 4,
        work: s(100),
        kind: Kind::Reservation(Notice::At(s(500))),
    };
    let ar = m.submit(s(10), ar, &mut |e| log.push(e)).unwrap();
    let stop = Stop {
        by: ar,
        action: Action::Suspend,
        begin: s(340),
        end: s(500),
    };
    assert_eq!(stops(&log), [(be, stop)]);
    drain(&mut m, &mut log);
    // Work counts until 340 s (660 s remain); resume at 600 s pays 126 s; then exactly 660 s,
    // to 1386 s.
    assert_eq!(
        changes(&log),
        suspended_around(be, ar, s(340), s(500), s(100))
    );
    let a = m.accounts();
    assert_eq!(
        (a.submitted, a.completed, a.preemptions, a.ended()),
        (2, 2, 1, 2)
    );
    assert!(m.table().is_empty());
}

#[test]
fn an_immediate_local_request_starts_when_the_suspension_ends() {
    let (mut m, mut log, be) = suspendable_running(Policy::Mov);
    let lo = m
        .submit(s(100), local(2, s(50)), &mut |e| log.push(e))
        .unwrap();
    // No start time: the suspension begins now and the local request waits for its end.
    assert_eq!(m.lease(lo).unwrap().hold().unwrap().start, s(260));
    drain(&mut m, &mut log);
    // 4 nodes are free again only when the local request ends, at 310 s: `be` resumes then,
    // runs from 436 s and ends at 1336 s.
    assert_eq!(
        changes(&log),
        suspended_around(be, lo, s(100), s(260), s(50))
    );
}

#[test]
fn less_valuable_leases_go_first_and_cancellation_is_instant() {
    // MLIP alone would take the single 2-node suspendable lease; the type preference takes
    // the two 1-node cancelable ones, and cancelling costs no time.
    let mut m = manager(4, Policy::Mlip);
    let mut log = vec![];
    let mut push = |e| log.push(e);
    let c1 = m
        .submit(T0, external(Class::Cancelable, 1, s(1000)), &mut push)
        .unwrap();
    let c2 = m
        .submit(T0, external(Class::Cancelable, 1, s(1000)), &mut push)
        .unwrap();
    let su = m
        .submit(T0, external(Class::Suspendable, 2, s(1000)), &mut push)
        .unwrap();
    let lo = m.submit(s(100), local(2, s(10)), &mut push).unwrap();
    let cancelled = State::Done(End::Cancelled(Cause::Preempted(lo)));
    assert_eq!(
        changes(&log)[3..],
        [
            (c1, s(100), Running, Stopping(Action::Cancel), s(900)),
            (c1, s(100), Stopping(Action::Cancel), cancelled, s(900)),
            (c2, s(100), Running, Stopping(Action::Cancel), s(900)),
            (c2, s(100), Stopping(Action::Cancel), cancelled, s(900)),
            (lo, s(100), Reserved, Running, s(10)),
        ]
    );
    assert_eq!(m.lease(su).unwrap().state(), Running);
    assert_eq!(m.accounts().cancelled, 2);
}

#[test]
fn migration_hands_back_the_remaining_work() {
    let mut m = manager(4, Policy::Moml);
    let mut log = vec![];
    let mi = Spec {
        nodes: 4,
        work: s(1000),
        kind: Kind::External {
            class: Class::Migratable,
            deadline: Some(s(5000)),
        },
    };
    let mi = m.submit(T0, mi, &mut |e| log.push(e)).unwrap();
    let lo = m
        .submit(s(100), local(4, s(10)), &mut |e| log.push(e))
        .unwrap();
    drain(&mut m, &mut log);
    let gone = plus(s(472), Ticks::new(TICKS_PER_SECOND / 2));
    assert_eq!(
        changes(&log)[1..],
        [
            (mi, s(100), Running, Stopping(Action::Migrate), s(900)),
            (
                mi,
                gone,
                Stopping(Action::Migrate),
                State::Done(End::Migrated),
                s(900)
            ),
            (lo, gone, Reserved, Running, s(10)),
            (
                lo,
                plus(gone, s(10)),
                Running,
                State::Done(End::Completed),
                T0
            ),
        ]
    );
    assert_eq!(m.accounts().migrated, 1);
}

#[test]
fn dc_requests_are_rejected_when_they_cannot_start_in_time() {
    let mut m = manager(4, Policy::Moml);
    let mut log = vec![];
    let mut push = |e| log.push(e);
    let dc = |class, deadline| Spec {
        nodes: 2,
        work: s(100),
        kind: Kind::External { class, deadline },
    };
    m.submit(T0, external(Class::NonPreemptable, 3, s(1000)), &mut push)
        .unwrap();
    // Only one node is free until 1000 s.
    let a = m
        .submit(s(1), dc(Class::NonPreemptable, None), &mut push)
        .unwrap();
    let b = m
        .submit(s(1), dc(Class::Migratable, Some(s(1099))), &mut push)
        .unwrap();
    let c = m
        .submit(s(1), dc(Class::Migratable, Some(s(1100))), &mut push)
        .unwrap();
    let submitted: Vec<_> = log
        .iter()
        .filter_map(|e| match *e {
            Event::Submitted { id, state, .. } => Some((id, state)),
            _ => None,
        })
        .collect();
    assert_eq!(
        submitted[1..],
        [
            (a, State::Done(End::Rejected(Error::NotFree))),
            (b, State::Done(End::Rejected(Error::DeadlineUnmet))),
            (c, Reserved),
        ]
    );
    assert_eq!(m.lease(c).unwrap().hold().unwrap().start, s(1000));
    let acc = m.accounts();
    assert_eq!((acc.submitted, acc.rejected, acc.ended()), (4, 2, 2));
}

#[test]
fn short_notice_reservation_cannot_wait_for_a_suspension() {
    let mut m = manager(4, Policy::Moml);
    let mut log = vec![];
    m.submit(T0, external(Class::Suspendable, 4, s(1000)), &mut |e| {
        log.push(e)
    })
    .unwrap();
    let ar = |at| Spec {
        nodes: 4,
        work: s(10),
        kind: Kind::Reservation(Notice::At(at)),
    };
    // 100 s of notice < t_s = 160 s: the suspension cannot end in time, nothing else can free.
    let r = m.submit(s(10), ar(s(110)), &mut |e| log.push(e)).unwrap();
    assert!(matches!(
        log.last(),
        Some(Event::Submitted { id, state: State::Done(End::Rejected(Error::NotFree)), .. }) if *id == r
    ));
    // 160 s of notice is exactly enough: the suspension begins now.
    let r = m.submit(s(10), ar(s(170)), &mut |e| log.push(e)).unwrap();
    assert_eq!(m.leases()[0].stop().unwrap().begin, s(10));
    assert_eq!(m.lease(r).unwrap().state(), Reserved);
}

#[test]
fn a_local_request_waits_behind_non_preemptable_leases() {
    let mut m = manager(4, Policy::Mov);
    let mut log = vec![];
    let mut push = |e| log.push(e);
    m.submit(T0, external(Class::NonPreemptable, 3, s(1000)), &mut push)
        .unwrap();
    m.submit(T0, external(Class::Suspendable, 1, s(1000)), &mut push)
        .unwrap();
    // Even preempting the suspendable lease leaves 1 node: it waits for 1000 s instead.
    let lo = m.submit(s(5), local(2, s(10)), &mut push).unwrap();
    assert_eq!(m.lease(lo).unwrap().hold().unwrap().start, s(1000));
    assert_eq!(m.accounts().preemptions, 0);
}

#[test]
fn refusals_hand_the_request_back_and_change_nothing() {
    let mut m: Manager<2, 4> = Manager::new(4, Overheads::default(), Policy::Moml).unwrap();
    let mut push = |_| {};
    let ok = local(1, s(1));
    let refused = |reason, item| Err(Refused { reason, item });
    let tick = Ticks::new(1);
    let bad = local(0, tick);
    assert_eq!(
        m.submit(T0, bad, &mut push),
        refused(Error::InvalidParameter(Param::Capacity), bad)
    );
    let bad = local(5, tick);
    assert_eq!(
        m.submit(T0, bad, &mut push),
        refused(Error::TaskTooLarge, bad)
    );
    let bad = local(1, T0);
    assert_eq!(
        m.submit(T0, bad, &mut push),
        refused(Error::InvalidParameter(Param::Work), bad)
    );
    let bad = Spec {
        kind: Kind::External {
            class: Class::Suspendable,
            deadline: Some(Ticks::new(9)),
        },
        ..ok
    };
    assert_eq!(
        m.submit(T0, bad, &mut push),
        refused(Error::InvalidParameter(Param::Delay), bad)
    );
    let bad = local(1, Ticks::MAX);
    let (t4, t5, t6) = (Ticks::new(4), Ticks::new(5), Ticks::new(6));
    m.submit(t5, ok, &mut push).unwrap();
    assert_eq!(m.submit(t5, bad, &mut push), refused(Error::Overflow, bad));
    let bad = Spec {
        kind: Kind::Reservation(Notice::At(t4)),
        ..ok
    };
    assert_eq!(
        m.submit(t5, bad, &mut push),
        refused(Error::InvalidParameter(Param::Delay), bad)
    );
    assert_eq!(
        m.submit(t4, ok, &mut push),
        refused(Error::TimeWentBackwards, ok)
    );
    m.submit(t5, ok, &mut push).unwrap();
    assert_eq!(m.submit(t5, ok, &mut push), refused(Error::Full, ok));
    assert_eq!(
        m.cancel(t5, LeaseId::new(99), &mut push),
        Err(Error::Unknown)
    );
    assert_eq!(m.advance(t4, &mut push), Err(Error::TimeWentBackwards));
    m.cancel(t6, LeaseId::new(0), &mut push).unwrap();
    m.fail(t6, LeaseId::new(1), &mut push).unwrap();
    let a = m.accounts();
    assert_eq!(
        (a.submitted, a.cancelled, a.failed, a.ended()),
        (2, 1, 1, 2)
    );
    assert!(m.table().is_empty() && m.leases().is_empty());
    assert!(M::new(0, Overheads::PAPER, Policy::Mov).is_err());
}

/// Reference configuration: 64 live leases, 128 breakpoints (the least the manager accepts
/// for them, `2 LEASES`). A lease is 120 bytes on a 64-bit host; the manager is the leases and
/// a 16-byte run end per lease (its preemption scratch), the two slot tables (16 bytes per
/// breakpoint + 16 each), 2,584 bytes of preemption kinds, plus about 100 bytes.
#[test]
fn footprint_of_the_reference_configuration() {
    use qosgate_kernel::lease::Lease;
    use std::mem::size_of;
    assert!(size_of::<Lease>() <= 120);
    assert!(size_of::<Manager<64, 128>>() <= 136 * 64 + 2 * (16 * 128 + 16) + 2_584 + 160);
}

// ---------------------------------------------------------------------------------------------
// Random job sets through the manager, checked against the trace.
// ---------------------------------------------------------------------------------------------

/// One thing the driver does, after advancing to the next submission instant.
#[derive(Clone, Debug)]
enum Op {
    /// After `gap`, submit `spec`; `offset` ticks shift a reservation's start.
    Submit {
        gap: Ticks,
        spec: Spec,
        offset: Ticks,
    },
    Cancel {
        gap: Ticks,
        pick: usize,
    },
}

fn class() -> impl Strategy<Value = Class> {
    (0..4usize).prop_map(|k| CLASSES[k])
}

fn op(nodes: Nodes) -> impl Strategy<Value = Op> {
    let kind = prop_oneof![
        3 => Just(Kind::Local),
        6 => (class(), prop_oneof![Just(None), (1..=3000u64).prop_map(Some)])
            .prop_map(|(class, d)| Kind::External { class, deadline: d.map(s) }),
        1 => Just(Kind::Reservation(Notice::Zero)),
        2 => (0..=600u64).prop_map(|x| Kind::Reservation(Notice::At(s(x)))),
    ];
    prop_oneof![
        12 => (0..=400u64, 1..=nodes, 1..=900u64, kind, 0..=50u64).prop_map(|(gap, n, w, kind, offset)| {
            // Deadlines of best-effort leases are refused; keep them only for DC classes.
            let kind = match kind {
                Kind::External { class: c @ (Class::Cancelable | Class::Suspendable), .. } =>
                    Kind::External { class: c, deadline: None },
                k => k,
            };
            let offset = Ticks::new(offset);
            Op::Submit { gap: s(gap), spec: Spec { nodes: n, work: plus(s(w), offset), kind }, offset }
        }),
        1 => (0..=400u64, 0..64usize).prop_map(|(gap, pick)| Op::Cancel { gap: s(gap), pick }),
    ]
}

fn overheads() -> impl Strategy<Value = Overheads> {
    prop_oneof![
        2 => Just(Overheads::PAPER),
        3 => (0..=200u64, 0..=200u64, 0..=400u64, 0..=3u64).prop_map(|(a, b, c, d)| Overheads {
            suspend: s(a),
            resume: s(b),
            migrate: s(c),
            cancel: s(d),
        }),
    ]
}

fn rules() -> impl Strategy<Value = Rules> {
    let queue = prop_oneof![Just(Queue::Fcfs), Just(Queue::Conservative)];
    let local = prop_oneof![Just(Admission::Wait), Just(Admission::Reject)];
    (policy(), preference(), queue, local).prop_map(|(policy, preference, queue, local)| Rules {
        policy,
        preference,
        queue,
        local,
    })
}

fn scenario() -> impl Strategy<Value = (Nodes, Overheads, Rules, Vec<Op>)> {
    (1..=8u32, overheads(), rules()).prop_flat_map(|(n, o, r)| {
        (
            Just(n),
            Just(o),
            Just(r),
            prop::collection::vec(op(n), 1..40),
        )
    })
}

/// Everything the trace says about one lease.
#[derive(Default, Debug)]
struct Life {
    spec: Option<Spec>,
    submitted_at: Ticks,
    state: Option<State>,
    since: Ticks,
    starts: u32,
    ends: u32,
    ran: Ticks,
    /// Remaining work when the lease last entered `Running`.
    run_remaining: Ticks,
    stops: Vec<Stop>,
    /// Instants at which its run began (first start or after a resume).
    run_starts: Vec<Ticks>,
    end: Option<End>,
    remaining: Ticks,
}

fn holds_nodes(s: State) -> bool {
    matches!(s, Running | Stopping(_) | Resuming)
}

/// The manager's own state (`qosgate_testkit::leases::manager`, shared with the fuzz target).
fn check_manager(m: &Manager<32, 64>) -> Result<(), TestCaseError> {
    qosgate_testkit::leases::manager(m).map_err(TestCaseError::fail)
}

fn run_scenario(nodes: Nodes, o: Overheads, rules: Rules, ops: &[Op]) -> Result<(), TestCaseError> {
    let mut m: Manager<32, 64> = Manager::with_rules(nodes, o, rules).unwrap();
    let mut log: Vec<Event> = vec![];
    let mut now = T0;
    let mut dc_checks = vec![];
    for op in ops {
        let gap = match op {
            Op::Submit { gap, .. } | Op::Cancel { gap, .. } => *gap,
        };
        let at = plus(now, gap);
        while let Some(t) = m.next_event().filter(|&t| t <= at) {
            m.advance(t, &mut |e| log.push(e)).unwrap();
            check_manager(&m)?;
        }
        m.advance(at, &mut |e| log.push(e)).unwrap();
        now = at;
        match op {
            Op::Submit { spec, offset, .. } => {
                let mut spec = *spec;
                if let Kind::Reservation(Notice::At(x)) = spec.kind {
                    spec.kind = Kind::Reservation(Notice::At(plus(plus(now, x), *offset)));
                }
                if let Kind::External {
                    deadline: Some(d),
                    class,
                } = spec.kind
                {
                    spec.kind = Kind::External {
                        class,
                        deadline: Some(plus(now, d)),
                    };
                }
                // What the slot table promised a DC request before its submission.
                let fit = m.table().earliest_fit(now, spec.nodes, spec.work).unwrap();
                match m.submit(now, spec, &mut |e| log.push(e)) {
                    Ok(id) => {
                        if let Kind::External {
                            class: Class::Migratable | Class::NonPreemptable,
                            deadline,
                        } = spec.kind
                        {
                            dc_checks.push((id, fit, deadline, now));
                        }
                    }
                    Err(r) => prop_assert_eq!(r.reason, Error::Full),
                }
            }
            Op::Cancel { pick, .. } => {
                if !m.leases().is_empty() {
                    let id = m.leases()[pick % m.leases().len()].id();
                    m.cancel(now, id, &mut |e| log.push(e)).unwrap();
                }
            }
        }
        check_manager(&m)?;
    }
    while let Some(t) = m.next_event() {
        m.advance(t, &mut |e| log.push(e)).unwrap();
        check_manager(&m)?;
    }
    prop_assert!(m.leases().is_empty(), "leases left: {:?}", m.leases());
    check_trace(nodes, &o, &log, &m)?;
    check_local_admission(rules.local, &log)?;
    // DC admission: rejected exactly when the earliest fit misses the start or the deadline.
    let ends: BTreeMap<LeaseId, State> = log
        .iter()
        .filter_map(|e| match *e {
            Event::Submitted { id, state, .. } => Some((id, state)),
            _ => None,
        })
        .collect();
    for (id, fit, deadline, at) in dc_checks {
        let work = log
            .iter()
            .find_map(|e| match *e {
                Event::Submitted { id: i, spec, .. } if i == id => Some(spec.work),
                _ => None,
            })
            .unwrap();
        let ok = match (fit, deadline) {
            (Some(f), None) => f == at,
            (Some(f), Some(d)) => plus(f, work) <= d,
            (None, _) => false,
        };
        prop_assert_eq!(
            !matches!(ends[&id], State::Done(End::Rejected(_))),
            ok,
            "DC {} admission",
            id
        );
    }
    Ok(())
}

fn check_trace(
    nodes: Nodes,
    o: &Overheads,
    log: &[Event],
    m: &Manager<32, 64>,
) -> Result<(), TestCaseError> {
    let mut lives: BTreeMap<LeaseId, Life> = BTreeMap::new();
    let mut in_use: i64 = 0;
    let mut last_at = T0;
    let mut counted = [0u64; 5];
    let count = |counted: &mut [u64; 5], end: End| {
        counted[match end {
            End::Completed => 0,
            End::Cancelled(_) => 1,
            End::Migrated => 2,
            End::Rejected(_) => 3,
            End::Failed => 4,
        }] += 1;
    };
    for e in log {
        match *e {
            Event::Submitted {
                id,
                at,
                spec,
                state,
            } => {
                let life = lives.entry(id).or_default();
                prop_assert!(life.spec.is_none(), "submitted twice");
                prop_assert!(matches!(
                    state,
                    Queued | Reserved | State::Done(End::Rejected(_))
                ));
                life.spec = Some(spec);
                life.submitted_at = at;
                life.state = Some(state);
                life.since = at;
                life.remaining = spec.work;
                if let State::Done(end) = state {
                    life.ends += 1;
                    life.end = Some(end);
                    count(&mut counted, end);
                }
            }
            Event::Preempted { id, stop } => {
                let life = lives.get_mut(&id).unwrap();
                let spec = life.spec.unwrap();
                prop_assert_eq!(life.state, Some(Running), "preempted while not running");
                prop_assert_eq!(
                    Action::of(spec.class()),
                    Some(stop.action),
                    "{:?} preempted",
                    spec.class()
                );
                life.stops.push(stop);
            }
            Event::Changed {
                id,
                at,
                from,
                to,
                remaining,
            } => {
                // Nodes in use, checked whenever time moves on (all changes of an instant applied).
                if at > last_at {
                    prop_assert!(
                        in_use <= i64::from(nodes),
                        "{} nodes in use at {}",
                        in_use,
                        last_at
                    );
                    last_at = at;
                }
                let life = lives.get_mut(&id).unwrap();
                let spec = life.spec.unwrap();
                prop_assert_eq!(
                    life.state,
                    Some(from),
                    "lease {} changes from a state it is not in",
                    id
                );
                prop_assert!(life.ends == 0, "lease {} changes after its end", id);
                prop_assert!(at >= life.since);
                let held = i64::from(spec.nodes);
                if holds_nodes(from) {
                    in_use -= held;
                }
                if holds_nodes(to) {
                    in_use += held;
                }
                let spent = at.saturating_sub(life.since);
                match (from, to) {
                    (Queued | Reserved, Running) => {
                        life.starts += 1;
                        life.run_starts.push(at);
                    }
                    (Running, _) => {
                        life.ran = plus(life.ran, spent);
                        prop_assert!(spent <= life.run_remaining);
                        if to == State::Done(End::Completed) {
                            // The last run is exactly the work that remained.
                            prop_assert_eq!(spent, life.run_remaining, "run of {} not exact", id);
                        }
                        if let Stopping(action) = to {
                            let stop = *life.stops.last().unwrap();
                            prop_assert_eq!((stop.action, stop.begin), (action, at));
                        }
                    }
                    (Stopping(_), State::Done(End::Cancelled(Cause::Caller))) => {
                        prop_assert!(spent <= o.stop(life.stops.last().unwrap().action));
                    }
                    (Stopping(action), _) => {
                        // Every stop action holds the nodes for exactly its time.
                        prop_assert_eq!(spent, o.stop(action), "{:?} of {}", action, id);
                        let stop = *life.stops.last().unwrap();
                        prop_assert_eq!(stop.end, at);
                    }
                    (Resuming, Running) => {
                        prop_assert_eq!(spent, o.resume, "resume of {}", id);
                        prop_assert_eq!(
                            remaining,
                            life.remaining,
                            "remaining changed while suspended"
                        );
                        life.run_starts.push(at);
                    }
                    _ => {}
                }
                if to == Running {
                    life.run_remaining = remaining;
                }
                match to {
                    State::Done(end) => {
                        life.ends += 1;
                        life.end = Some(end);
                        count(&mut counted, end);
                        prop_assert_eq!(
                            spec.work.checked_sub(life.ran),
                            Some(remaining),
                            "work done + remaining of {}",
                            id
                        );
                        match end {
                            End::Completed => prop_assert_eq!(life.ran, spec.work),
                            End::Migrated => {
                                prop_assert!(remaining > T0 && spec.class() == Class::Migratable)
                            }
                            End::Cancelled(Cause::Preempted(_)) => {
                                prop_assert_eq!(spec.class(), Class::Cancelable)
                            }
                            _ => {}
                        }
                    }
                    Suspended => prop_assert_eq!(spec.class(), Class::Suspendable),
                    _ => {}
                }
                life.state = Some(to);
                life.since = at;
                life.remaining = remaining;
            }
        }
    }
    prop_assert!(in_use == 0, "{} nodes still in use at the end", in_use);
    for (id, life) in &lives {
        prop_assert_eq!(life.ends, 1, "lease {} ended {} times", id, life.ends);
        prop_assert!(
            life.starts <= 1,
            "lease {} started {} times",
            id,
            life.starts
        );
        // A lease that never started was rejected or cancelled by the caller before its start.
        if life.starts == 0 {
            prop_assert!(
                matches!(
                    life.end,
                    Some(End::Rejected(_) | End::Cancelled(Cause::Caller))
                ),
                "lease {} never started but ended {:?}",
                id,
                life.end
            );
            prop_assert_eq!(life.ran, T0);
        }
        // Preempted only for a local request or a reservation, with Haizea's timing.
        for stop in &life.stops {
            let by = &lives[&stop.by];
            let t = o.stop(stop.action);
            prop_assert_eq!(stop.end.checked_sub(stop.begin), Some(t));
            match by.spec.unwrap().kind {
                Kind::Reservation(Notice::At(at)) => {
                    prop_assert_eq!(stop.end, at, "suspension ends at the start")
                }
                Kind::Local | Kind::Reservation(Notice::Zero) => {
                    prop_assert_eq!(stop.begin, by.submitted_at)
                }
                Kind::External { .. } => prop_assert!(false, "an external lease preempted another"),
            }
            // The preemptor starts when the last of its victims has released its nodes.
            if let Some(&first) = by.run_starts.first() {
                let last_release = lives
                    .values()
                    .flat_map(|l| &l.stops)
                    .filter(|s| s.by == stop.by)
                    .map(|s| s.end)
                    .max()
                    .unwrap();
                if matches!(
                    by.spec.unwrap().kind,
                    Kind::Local | Kind::Reservation(Notice::Zero)
                ) {
                    prop_assert_eq!(first, last_release);
                } else {
                    prop_assert!(first >= last_release);
                }
            }
        }
    }
    let a = m.accounts();
    prop_assert_eq!(a.submitted, lives.len() as u64);
    prop_assert_eq!(
        [a.completed, a.cancelled, a.migrated, a.rejected, a.failed],
        counted
    );
    prop_assert_eq!(
        a.preemptions,
        lives.values().map(|l| l.stops.len() as u64).sum::<u64>()
    );
    Ok(())
}

/// The start, in seconds, of each best-effort lease `(gap, nodes, work)` (seconds) on a cluster
/// of `nodes` nodes, from a per-second usage array: under conservative backfilling each lease
/// takes the earliest second from its arrival at which it fits for its whole run beside every
/// earlier lease (nothing ends early, so nothing moves); first come, first served is the same
/// with no lease starting before the one submitted before it.
fn queue_model(nodes: Nodes, queue: Queue, leases: &[(u64, Nodes, u64)]) -> Vec<u64> {
    let horizon: u64 = leases.iter().map(|&(gap, _, work)| gap + work).sum::<u64>() + 1;
    let mut used = vec![0u32; horizon as usize];
    let mut starts: Vec<u64> = vec![];
    let mut arrival = 0u64;
    for &(gap, n, work) in leases {
        arrival += gap;
        let from = match queue {
            Queue::Fcfs => arrival.max(starts.last().copied().unwrap_or(0)),
            Queue::Conservative => arrival,
        };
        let start = (from..)
            .find(|&t| (t..t + work).all(|u| used[u as usize] + n <= nodes))
            .unwrap();
        for u in start..start + work {
            used[u as usize] += n;
        }
        starts.push(start);
    }
    starts
}

/// A local request that preemption cannot serve is rejected under [`Admission::Reject`] (and
/// never under [`Admission::Wait`]); under `Reject` one that is not rejected starts at once, or
/// when the last lease preempted for it has released its nodes: it never waits for a fit.
fn check_local_admission(local: Admission, log: &[Event]) -> Result<(), TestCaseError> {
    let mut submitted: BTreeMap<LeaseId, (Ticks, State)> = BTreeMap::new();
    let mut releases: BTreeMap<LeaseId, Ticks> = BTreeMap::new();
    for e in log {
        match *e {
            Event::Submitted {
                spec: Spec {
                    kind: Kind::Local, ..
                },
                id,
                at,
                state,
            } => {
                submitted.insert(id, (at, state));
            }
            Event::Preempted { stop, .. } => {
                let r = releases.entry(stop.by).or_insert(stop.end);
                *r = (*r).max(stop.end);
            }
            _ => {}
        }
    }
    for (id, (at, state)) in &submitted {
        let rejected = matches!(state, State::Done(End::Rejected(_)));
        if local == Admission::Wait {
            prop_assert!(!rejected, "local {} rejected under Wait", id);
            continue;
        }
        if rejected {
            continue;
        }
        let start = changes(log)
            .into_iter()
            .find(|c| c.0 == *id && c.3 == Running)
            .map(|c| c.1);
        // (One that never started was cancelled by the caller first: `check_trace`.)
        if let Some(start) = start {
            let expected = releases.get(id).copied().unwrap_or(*at);
            prop_assert_eq!(start, expected, "local {} under Reject", id);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Random mixes of local, external (four types, with and without deadlines) and advance
    /// reservations (zero and non-zero notice) on 1 to 8 nodes, with random overheads (zero
    /// included) and every policy; see the module's documentation for what is checked.
    #[test]
    fn every_lease_ends_once_with_its_exact_work_and_nodes_are_never_overused(
        (nodes, o, rules, ops) in scenario()
    ) {
        run_scenario(nodes, o, rules, &ops)?;
    }

    /// Best-effort leases alone (no lease that holds nodes by right, no cancellation, so no
    /// preemption and no early end), on 1 to 8 nodes: every lease starts exactly when a
    /// per-second model of its queue's discipline says, computed from the arrivals alone.
    #[test]
    fn best_effort_leases_start_as_their_queue_discipline_says(
        nodes in 1..=8u32,
        queue in prop_oneof![Just(Queue::Fcfs), Just(Queue::Conservative)],
        leases in prop::collection::vec((0..=30u64, 1..=8u32, 1..=50u64), 1..30),
    ) {
        let leases: Vec<(u64, Nodes, u64)> = leases
            .into_iter()
            .map(|(gap, n, work)| (gap, n.min(nodes), work))
            .collect();
        let rules = Rules { queue, ..Rules::new(Policy::Moml) };
        let mut m: Manager<32, 64> = Manager::with_rules(nodes, Overheads::PAPER, rules).unwrap();
        let mut log = vec![];
        let mut now = 0u64;
        for &(gap, n, work) in &leases {
            now += gap;
            m.submit(s(now), external(Class::Cancelable, n, s(work)), &mut |e| log.push(e)).unwrap();
            check_manager(&m)?;
        }
        while let Some(t) = m.next_event() {
            m.advance(t, &mut |e| log.push(e)).unwrap();
            check_manager(&m)?;
        }
        let starts: BTreeMap<LeaseId, Ticks> = changes(&log)
            .into_iter()
            .filter(|c| c.3 == Running)
            .map(|c| (c.0, c.1))
            .collect();
        let expected = queue_model(nodes, queue, &leases);
        for (id, start) in expected.iter().enumerate() {
            prop_assert_eq!(starts.get(&LeaseId::new(id as u32)).copied(), Some(s(*start)), "lease {}", id);
        }
    }
}
