//! Slot table: a `SlotTable<12>` of arbitrary size (0 nodes and `u32::MAX` included) driven by a
//! sequence of reserve, release, node-down, node-up, earliest-fit, min-free and overcommitted
//! calls at arbitrary instants (0, 1, `u64::MAX`, huge durations), against a model that keeps the
//! list of applied intervals and evaluates the profile by summing them (`qosgate_testkit::slots`,
//! shared with the property tests).
//!
//! Checked after every step: the table's breakpoints are exactly the model's minimal profile
//! (sorted, adjacent steps differ, nothing at `u64::MAX`), `free_at` agrees at every breakpoint
//! and next to it; every refusal carries the model's reason and the request, and changes nothing;
//! `node_down` reports the model's overcommitted span; `earliest_fit` returns exactly the model's
//! earliest feasible start; `min_free` and `overcommitted` agree with the model.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use common::Num;
use libfuzzer_sys::fuzz_target;
use qosgate_kernel::Refused;
use qosgate_kernel::slots::{Request, SlotTable};
use qosgate_kernel::units::{Nodes, Ticks};
use qosgate_testkit::slots::{Kind, Model};

const B: usize = 12;
const MAX: Ticks = Ticks::MAX;

#[derive(Arbitrary, Debug)]
enum Time {
    Num(Num),
    /// An instant the table already knows (a breakpoint), shifted by -1, 0 or +1.
    Known(u8, i8),
}

#[derive(Arbitrary, Debug)]
enum Op {
    Mutate {
        kind: Kind,
        start: Time,
        end: Time,
        nodes: Num,
    },
    /// An interval given by a start and a length (which may overflow).
    MutateLen {
        kind: Kind,
        start: Time,
        len: Num,
        nodes: Num,
    },
    /// Undo an earlier successful mutation, or part of it.
    Undo {
        which: u8,
        trim: u8,
    },
    Fit {
        from: Time,
        nodes: Num,
        duration: Num,
    },
    MinFree {
        start: Time,
        end: Time,
    },
    Overcommitted(Time),
}

#[derive(Arbitrary, Debug)]
struct Input {
    nodes: Num,
    ops: Vec<Op>,
}

fn time(t: &Time, table: &SlotTable<B>) -> Ticks {
    match *t {
        Time::Num(n) => n.ticks(),
        Time::Known(i, d) => {
            let steps = table.steps();
            let base = if steps.is_empty() {
                0
            } else {
                steps[usize::from(i) % steps.len()].at.get()
            };
            Ticks::new(base.saturating_add_signed(i64::from(d.signum())))
        }
    }
}

fn nodes(n: Num) -> Nodes {
    // The low 32 bits: 0, 1, 2 and small counts often, `u32::MAX` through `Num::Max`.
    n.get() as Nodes
}

fn check(t: &SlotTable<B>, m: &Model) {
    let want = m.steps();
    assert_eq!(t.steps(), &want[..], "breakpoints differ from the model");
    assert!(t.len() <= B);
    assert!(t.steps().windows(2).all(|w| w[0].at < w[1].at));
    assert!(t.steps().iter().all(|s| s.at < MAX && s.down <= t.nodes()));
    for s in t.steps() {
        let tick = Ticks::new(1);
        for x in [s.at.saturating_sub(tick), s.at, s.at.saturating_add(tick)] {
            assert_eq!(t.free_at(x), m.free_at(x), "free_at({x})");
        }
    }
    assert_eq!(t.free_at(MAX), m.free_at(MAX));
    assert_eq!(t.free_at(Ticks::ZERO), m.free_at(Ticks::ZERO));
}

fuzz_target!(|input: Input| {
    let n = nodes(input.nodes);
    let Ok(mut t) = SlotTable::<B>::new(n) else {
        assert_eq!(n, 0);
        return;
    };
    assert_eq!(t.nodes(), n);
    let mut m = Model::new(n, B);
    let mut done: Vec<(Kind, Ticks, Ticks, Nodes)> = vec![];
    for op in input.ops.iter().take(64) {
        let before = t.clone();
        let mutation = match op {
            Op::Mutate {
                kind,
                start,
                end,
                nodes: k,
            } => Some((*kind, time(start, &t), time(end, &t), nodes(*k))),
            Op::MutateLen {
                kind,
                start,
                len,
                nodes: k,
            } => {
                let s = time(start, &t);
                Some((*kind, s, s.saturating_add(len.ticks()), nodes(*k)))
            }
            Op::Undo { which, trim } if !done.is_empty() => {
                let (kind, s, e, k) = done[usize::from(*which) % done.len()];
                // Undo the tail [s + trim, e) (early completion / repair).
                let trim = Ticks::new(u64::from(*trim));
                let s2 = s.saturating_add(trim).min(e.saturating_sub(Ticks::new(1)));
                Some((kind.inverse(), s2.max(s), e, k))
            }
            Op::Undo { .. } => None,
            Op::Fit {
                from,
                nodes: k,
                duration,
            } => {
                let (f, k, d) = (time(from, &t), nodes(*k), duration.ticks());
                let got = t.earliest_fit(f, k, d);
                assert_eq!(got, m.earliest_fit(f, k, d), "earliest_fit({f}, {k}, {d})");
                if let Ok(Some(s)) = got {
                    assert!(s >= f);
                    let end = s.checked_add(d).expect("a fit ends within the clock");
                    assert!(t.min_free(s, end).unwrap() >= i64::from(k));
                }
                None
            }
            Op::MinFree { start, end } => {
                let (s, e) = (time(start, &t), time(end, &t));
                assert_eq!(t.min_free(s, e), m.min_free(s, e));
                None
            }
            Op::Overcommitted(from) => {
                let f = time(from, &t);
                assert_eq!(t.overcommitted(f), m.overcommitted(f));
                None
            }
        };
        if let Some((kind, s, e, k)) = mutation {
            let want = m.apply(kind, s, e, k);
            let got = kind.apply_to(&mut t, s, e, k);
            match (got, want) {
                (Ok(g), Ok(w)) => {
                    if kind == Kind::Down {
                        assert_eq!(g, w, "overcommitted span");
                    }
                    if kind == Kind::Reserve {
                        assert!(t.min_free(s, e).unwrap() >= 0);
                    }
                    done.push((kind, s, e, k));
                }
                (Err(Refused { reason, item }), Err(w)) => {
                    assert_eq!(reason, w);
                    assert_eq!(
                        item,
                        Request {
                            start: s,
                            end: e,
                            nodes: k
                        }
                    );
                    assert_eq!(t, before, "a refusal changed the table");
                }
                (g, w) => panic!("{kind:?} [{s}, {e}) x{k}: table {g:?}, model {w:?}"),
            }
        }
        check(&t, &m);
    }
});
