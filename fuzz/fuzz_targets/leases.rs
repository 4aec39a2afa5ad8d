//! Leases and preemption: a `Manager<8, 16>` of arbitrary size (0 and `u32::MAX` nodes
//! included), arbitrary overheads (0, huge, `u64::MAX`) and rules (policy, class preference,
//! first-come-first-served or conservative queue, local requests waiting or rejected), driven
//! by submissions of
//! every kind (local, the four external types with and without deadlines, reservations with zero
//! and arbitrary notice, edge sizes and works), time steps, steps to the next event, cancellations
//! and failures; and `preempt::select` on arbitrary kind lists (up to 70, so `Full` too, with
//! counts of 0 to 3 leases).
//!
//! Checked after every step: the slot table holds exactly the live leases' reservations, the
//! plans table exactly the waiting leases' plans, and no instant from now on is over-reserved
//! by the two; holds match states; `done + remaining = work`; the
//! accounts add up (`submitted = ended + live`); the live leases are exactly those the events
//! submitted and did not end (no lease lost, none ended twice); a refused submission hands the
//! request back and changes nothing; preemptions only touch preemptable leases; under
//! `Admission::Wait` no local request with a fit is rejected. For `select`: the set takes at most each
//! kind's count, frees enough nodes, is minimal, holds no non-preemptable lease and (preference
//! on) no lease of a class whose less valuable classes suffice; MLIP's set has the fewest
//! leases when the family is complete; `NotFree` exactly when the admitted nodes are short.
#![no_main]

mod common;

use std::collections::BTreeSet;

use arbitrary::Arbitrary;
use common::Num;
use libfuzzer_sys::fuzz_target;
use qosgate_kernel::lease::preempt::{
    Candidate, Class, MAX_CANDIDATES, Policy, Preference, select,
};
use qosgate_kernel::lease::{
    Admission, End, Event, Kind, LeaseId, Manager, Notice, Overheads, Queue, Rules, Spec, State,
};
use qosgate_kernel::units::{Nodes, Ticks};
use qosgate_kernel::{Error, Refused};
use qosgate_testkit::leases;

type M = Manager<8, 16>;

#[derive(Arbitrary, Debug, Clone, Copy)]
enum K {
    Local,
    External(u8, Option<Num>),
    Zero,
    At(Num),
}

#[derive(Arbitrary, Debug)]
enum Op {
    Submit {
        gap: Num,
        nodes: Num,
        work: Num,
        kind: K,
    },
    Advance(Num),
    Next,
    Cancel(u8),
    Fail(u8),
    Select {
        cands: Vec<(u8, u8, Num, u8)>,
        need: Num,
        policy: u8,
        flat: bool,
    },
}

#[derive(Arbitrary, Debug)]
struct Input {
    nodes: Num,
    overheads: [Num; 4],
    policy: u8,
    /// Bit 0: conservative queue; bit 1: reject local requests; bit 2: no class preference.
    rules: u8,
    ops: Vec<Op>,
}

const CLASSES: [Class; 4] = [
    Class::Cancelable,
    Class::Suspendable,
    Class::Migratable,
    Class::NonPreemptable,
];

fn policy(p: u8) -> Policy {
    [Policy::Moml, Policy::Mov, Policy::Mlip][usize::from(p % 3)]
}

fn preference(flat: bool) -> Preference {
    if flat {
        Preference::Flat
    } else {
        Preference::Tiers
    }
}

fn rules(p: u8, bits: u8) -> Rules {
    Rules {
        policy: policy(p),
        preference: preference(bits & 4 != 0),
        queue: if bits & 1 != 0 {
            Queue::Conservative
        } else {
            Queue::Fcfs
        },
        local: if bits & 2 != 0 {
            Admission::Reject
        } else {
            Admission::Wait
        },
    }
}

/// The low 32 bits: 0, 1, 2 and small counts often, `u32::MAX` through `Num::Max`.
fn nodes(n: Num) -> Nodes {
    n.get() as Nodes
}

fn spec(now: Ticks, nodes_: Num, work: Num, kind: K) -> Spec {
    let kind = match kind {
        K::Local => Kind::Local,
        K::External(c, d) => Kind::External {
            class: CLASSES[usize::from(c % 4)],
            deadline: d.map(|d| now.saturating_add(d.ticks())),
        },
        K::Zero => Kind::Reservation(Notice::Zero),
        K::At(x) => Kind::Reservation(Notice::At(now.saturating_add(x.ticks()))),
    };
    Spec {
        nodes: nodes(nodes_),
        work: work.ticks(),
        kind,
    }
}

/// The manager's state, for "a refusal changes nothing".
fn snapshot(
    m: &M,
) -> (
    Vec<qosgate_kernel::lease::Lease>,
    Vec<qosgate_kernel::slots::Step>,
    Vec<qosgate_kernel::slots::Step>,
) {
    (
        m.leases().to_vec(),
        m.table().steps().to_vec(),
        m.plans().steps().to_vec(),
    )
}

/// The manager's invariants (`qosgate_testkit::leases::manager`), and its live leases are
/// exactly those the events submitted and did not end.
fn check(m: &M, live: &BTreeSet<LeaseId>) {
    leases::manager(m).unwrap();
    let ids: BTreeSet<LeaseId> = m.leases().iter().map(|l| l.id()).collect();
    assert_eq!(&ids, live, "live leases differ from the events");
}

/// Applies events to the set of live ids: each submitted once, ended once.
fn track(live: &mut BTreeSet<LeaseId>, ended: &mut BTreeSet<LeaseId>, log: &[Event]) {
    for e in log {
        match *e {
            Event::Submitted { id, state, .. } => {
                assert!(
                    !live.contains(&id) && !ended.contains(&id),
                    "id {id} reused"
                );
                if matches!(state, State::Done(_)) {
                    ended.insert(id);
                } else {
                    live.insert(id);
                }
            }
            Event::Changed { id, to, .. } => {
                assert!(live.contains(&id), "event for lease {id} not live");
                if matches!(to, State::Done(_)) {
                    live.remove(&id);
                    assert!(ended.insert(id), "lease {id} ended twice");
                }
            }
            Event::Preempted { id, stop } => {
                assert!(live.contains(&id));
                assert!(live.contains(&stop.by), "preempted for a lease not live");
            }
        }
    }
}

fn check_select(cands: &[Candidate], need: Nodes, p: Policy, pref: Preference) {
    let got = select::<16>(cands, need, p, pref);
    let preemptable: u64 = cands
        .iter()
        .filter(|c| c.class.is_preemptable())
        .map(|c| u64::from(c.nodes) * u64::from(c.count))
        .sum();
    let choice = match got {
        Err(Error::Full) => return assert!(cands.len() > MAX_CANDIDATES),
        Err(Error::InvalidParameter(_)) => return assert_eq!(need, 0),
        Err(Error::NotFree) => return assert!(preemptable < u64::from(need)),
        Err(e) => panic!("unexpected {e:?}"),
        Ok(c) => c,
    };
    assert!(cands.len() <= MAX_CANDIDATES && need > 0);
    leases::choice(cands, need, pref, &choice).unwrap();
    assert!(choice.sets >= 1 && choice.sets <= 16);
    if p == Policy::Mlip && choice.complete {
        let fewest = leases::fewest_leases(cands, choice.tier, need);
        assert_eq!(Some(choice.leases), fewest);
    }
}

fuzz_target!(|input: Input| {
    let [s, r, mi, c] = input.overheads.map(Num::ticks);
    let o = Overheads {
        suspend: s,
        resume: r,
        migrate: mi,
        cancel: c,
    };
    let n = nodes(input.nodes);
    let rules = rules(input.policy, input.rules);
    let Ok(mut m) = M::with_rules(n, o, rules) else {
        assert_eq!(n, 0);
        return;
    };
    let mut live = BTreeSet::new();
    let mut ended = BTreeSet::new();
    let mut now = Ticks::ZERO;
    for op in input.ops.iter().take(48) {
        let mut log = vec![];
        match op {
            Op::Submit {
                gap,
                nodes: k,
                work,
                kind,
            } => {
                now = now.saturating_add(gap.ticks());
                m.advance(now, &mut |e| log.push(e)).unwrap();
                track(&mut live, &mut ended, &log);
                log.clear();
                let spec = spec(now, *k, *work, *kind);
                let before = snapshot(&m);
                let fit = m.table().earliest_fit(now, spec.nodes, spec.work);
                match m.submit(now, spec, &mut |e| log.push(e)) {
                    Ok(id) => {
                        let rejected = log.iter().any(|e| {
                            matches!(e, Event::Submitted { id: i, state: State::Done(End::Rejected(_)), .. } if *i == id)
                        });
                        let waits = spec.kind == Kind::Local && rules.local == Admission::Wait;
                        assert!(
                            !(rejected && waits && matches!(fit, Ok(Some(_)))),
                            "a local request with a fit rejected while local requests wait"
                        );
                    }
                    Err(Refused { reason, item }) => {
                        assert_eq!(item, spec);
                        assert_eq!(snapshot(&m), before, "a refused {reason:?} changed state");
                        assert!(log.is_empty());
                    }
                }
            }
            Op::Advance(d) => {
                now = now.saturating_add(d.ticks());
                m.advance(now, &mut |e| log.push(e)).unwrap();
            }
            Op::Next => {
                if let Some(t) = m.next_event() {
                    assert!(t >= now, "an event in the past");
                    now = t;
                    m.advance(now, &mut |e| log.push(e)).unwrap();
                }
            }
            Op::Cancel(i) | Op::Fail(i) => {
                let id = match m.leases().len() {
                    0 => LeaseId::new(u32::from(*i)),
                    len => m.leases()[usize::from(*i) % len].id(),
                };
                let known = m.lease(id).is_some();
                let res = if matches!(op, Op::Cancel(_)) {
                    m.cancel(now, id, &mut |e| log.push(e))
                } else {
                    m.fail(now, id, &mut |e| log.push(e))
                };
                assert_eq!(res.is_ok(), known, "{res:?}");
            }
            Op::Select {
                cands,
                need,
                policy: p,
                flat,
            } => {
                let cands: Vec<Candidate> = cands
                    .iter()
                    .take(MAX_CANDIDATES + 6)
                    .map(|&(class, k, oh, count)| Candidate {
                        class: CLASSES[usize::from(class % 4)],
                        nodes: Nodes::from(k % 16),
                        overhead: oh.get(),
                        count: u32::from(count % 4),
                    })
                    .collect();
                check_select(&cands, nodes(*need) % 64, policy(*p), preference(*flat));
            }
        }
        track(&mut live, &mut ended, &log);
        check(&m, &live);
    }
    // Drain: every lease ends (a bounded number of events per lease).
    let mut steps = 0;
    while let Some(t) = m.next_event() {
        let mut log = vec![];
        m.advance(t, &mut |e| log.push(e)).unwrap();
        track(&mut live, &mut ended, &log);
        check(&m, &live);
        steps += 1;
        assert!(steps <= 8 * 8 * 6, "drain does not end");
    }
    // Leases that could never run (an end past Ticks::MAX) may stay queued; all others ended.
    assert!(
        m.leases()
            .iter()
            .all(|l| matches!(l.state(), State::Queued | State::Suspended))
    );
    let a = m.accounts();
    assert_eq!(a.submitted as usize, live.len() + ended.len());
});
