//! Leases and preemption: a `Manager<8, 16>` of arbitrary size (0 and `u32::MAX` nodes
//! included), arbitrary overheads (0, huge, `u64::MAX`) and policy, driven by submissions of
//! every kind (local, the four external types with and without deadlines, reservations with zero
//! and arbitrary notice, edge sizes and works), time steps, steps to the next event, cancellations
//! and failures; and `preempt::select` on arbitrary candidate lists (up to 70, so `Full` too).
//!
//! Checked after every step: the slot table holds exactly the live leases' reservations and no
//! instant from now on is over-reserved; holds match states; `done + remaining = work`; the
//! accounts add up (`submitted = ended + live`); the live leases are exactly those the events
//! submitted and did not end (no lease lost, none ended twice); a refused submission hands the
//! request back and changes nothing; preemptions only touch preemptable leases. For `select`:
//! the set frees enough nodes, is minimal, holds no non-preemptable lease and no lease of a class
//! whose less valuable classes suffice; MLIP's set has the fewest leases when the family is
//! complete; `NotFree` exactly when the preemptable nodes are short.
#![no_main]

mod common;

use std::collections::BTreeSet;

use arbitrary::Arbitrary;
use common::Num;
use libfuzzer_sys::fuzz_target;
use qosgate_kernel::lease::{Event, Kind, LeaseId, Manager, Notice, Overheads, Spec, State};
use qosgate_kernel::preempt::{Candidate, Class, MAX_CANDIDATES, Policy, select};
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
        cands: Vec<(u8, u8, Num)>,
        need: Num,
        policy: u8,
    },
}

#[derive(Arbitrary, Debug)]
struct Input {
    nodes: Num,
    overheads: [Num; 4],
    policy: u8,
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
) {
    (m.leases().to_vec(), m.table().steps().to_vec())
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

fn check_select(cands: &[Candidate], need: Nodes, p: Policy) {
    let got = select::<16>(cands, need, p);
    let preemptable: u64 = cands
        .iter()
        .filter(|c| c.class.is_preemptable())
        .map(|c| u64::from(c.nodes))
        .sum();
    let choice = match got {
        Err(Error::Full) => return assert!(cands.len() > MAX_CANDIDATES),
        Err(Error::InvalidParameter(_)) => return assert_eq!(need, 0),
        Err(Error::NotFree) => return assert!(preemptable < u64::from(need)),
        Err(e) => panic!("unexpected {e:?}"),
        Ok(c) => c,
    };
    assert!(cands.len() <= MAX_CANDIDATES && need > 0);
    leases::choice(cands, need, &choice).unwrap();
    assert!(choice.sets >= 1 && choice.sets <= 16);
    if p == Policy::Mlip && choice.complete {
        let fewest = leases::fewest_leases(cands, choice.tier, need);
        assert_eq!(Some(choice.set.len() as usize), fewest);
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
    let Ok(mut m) = M::new(n, o, policy(input.policy)) else {
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
                match m.submit(now, spec, &mut |e| log.push(e)) {
                    Ok(_) => {}
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
                    0 => LeaseId::from(*i),
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
            } => {
                let cands: Vec<Candidate> = cands
                    .iter()
                    .take(MAX_CANDIDATES + 6)
                    .map(|&(class, k, oh)| Candidate {
                        class: CLASSES[usize::from(class % 4)],
                        nodes: Nodes::from(k % 16),
                        overhead: oh.get(),
                    })
                    .collect();
                check_select(&cands, nodes(*need) % 64, policy(*p));
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
