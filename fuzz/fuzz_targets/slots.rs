//! Slot table: a `SlotTable<12>` of arbitrary size (0 nodes and `u32::MAX` included) driven by a
//! sequence of reserve, release, node-down, node-up, earliest-fit, min-free and overcommitted
//! calls at arbitrary instants (0, 1, `u64::MAX`, huge durations), against a model that keeps the
//! list of applied intervals and evaluates the profile by summing them.
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
use qosgate_kernel::slots::{Request, SlotTable, Span, Step};
use qosgate_kernel::units::{Nodes, Ticks};
use qosgate_kernel::{Error, Param, Refused};

const B: usize = 12;
const MAX: Ticks = Ticks::MAX;

#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Reserve,
    Release,
    Down,
    Up,
}

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

/// Applied intervals: `(kind, start, end, nodes)` with `kind` Reserve or Down (releases and
/// repairs are stored as negative amounts).
struct Model {
    nodes: Nodes,
    applied: Vec<(bool, Ticks, Ticks, i64)>,
}

impl Model {
    fn counts(&self, t: Ticks) -> (i64, i64) {
        let (mut d, mut r) = (0, 0);
        for &(down, s, e, n) in &self.applied {
            if s <= t && t < e {
                if down {
                    d += n;
                } else {
                    r += n;
                }
            }
        }
        (d, r)
    }

    fn free(&self, t: Ticks) -> i64 {
        let (d, r) = self.counts(t);
        i64::from(self.nodes) - d - r
    }

    /// Every instant at which the profile may change, sorted, below MAX.
    fn cuts(&self) -> Vec<Ticks> {
        let mut v: Vec<Ticks> = vec![0];
        for &(_, s, e, _) in &self.applied {
            v.push(s);
            v.push(e);
        }
        v.retain(|&t| t < MAX);
        v.sort_unstable();
        v.dedup();
        v
    }

    fn steps(&self) -> Vec<Step> {
        let mut prev = (0, 0);
        let mut out = vec![];
        for t in self.cuts() {
            let c = self.counts(t);
            if c != prev {
                out.push(Step {
                    at: t,
                    down: c.0 as Nodes,
                    reserved: c.1 as Nodes,
                });
                prev = c;
            }
        }
        out
    }

    /// Step starts inside `[start, end)`, `start` first.
    fn instants(&self, start: Ticks, end: Ticks) -> Vec<Ticks> {
        let mut v = vec![start];
        v.extend(self.cuts().into_iter().filter(|&t| start < t && t < end));
        v
    }

    fn apply(&mut self, kind: Kind, s: Ticks, e: Ticks, n: Nodes) -> Result<Option<Span>, Error> {
        if s >= e {
            return Err(Error::InvalidParameter(Param::Delay));
        }
        if n == 0 {
            return Err(Error::InvalidParameter(Param::Capacity));
        }
        if n > self.nodes {
            return Err(Error::TaskTooLarge);
        }
        let n64 = i64::from(n);
        for t in self.instants(s, e) {
            let (d, r) = self.counts(t);
            let free = i64::from(self.nodes) - d - r;
            match kind {
                Kind::Reserve if free < n64 => return Err(Error::NotFree),
                Kind::Release if r < n64 => return Err(Error::NotReserved),
                Kind::Down if d + n64 > i64::from(self.nodes) => {
                    return Err(Error::InvalidParameter(Param::Capacity));
                }
                Kind::Up if d < n64 => return Err(Error::NotReserved),
                _ => {}
            }
        }
        let rec = match kind {
            Kind::Reserve => (false, s, e, n64),
            Kind::Release => (false, s, e, -n64),
            Kind::Down => (true, s, e, n64),
            Kind::Up => (true, s, e, -n64),
        };
        self.applied.push(rec);
        if self.steps().len() > B {
            self.applied.pop();
            return Err(Error::Full);
        }
        // First to last instant of [s, e) with free < 0.
        let cuts = self.instants(s, e);
        let mut span: Option<Span> = None;
        for (i, &t) in cuts.iter().enumerate() {
            if self.free(t) < 0 {
                let to = cuts.get(i + 1).copied().unwrap_or(e);
                span.get_or_insert(Span { start: t, end: to }).end = to;
            }
        }
        Ok(span)
    }

    fn min_free(&self, s: Ticks, e: Ticks) -> Result<i64, Error> {
        if s >= e {
            return Err(Error::InvalidParameter(Param::Delay));
        }
        Ok(self
            .instants(s, e)
            .into_iter()
            .map(|t| self.free(t))
            .min()
            .unwrap())
    }

    fn earliest_fit(&self, from: Ticks, n: Nodes, dur: Ticks) -> Result<Option<Ticks>, Error> {
        if n == 0 {
            return Err(Error::InvalidParameter(Param::Capacity));
        }
        if dur == 0 {
            return Err(Error::InvalidParameter(Param::Delay));
        }
        if n > self.nodes {
            return Err(Error::TaskTooLarge);
        }
        if from.checked_add(dur).is_none() {
            return Err(Error::Overflow);
        }
        // The earliest feasible start is `from` or a step start after it.
        let mut cands = vec![from];
        cands.extend(self.cuts().into_iter().filter(|&t| t > from));
        Ok(cands.into_iter().find(|&s| {
            s.checked_add(dur)
                .is_some_and(|e| self.min_free(s, e).unwrap() >= i64::from(n))
        }))
    }

    fn overcommitted(&self, from: Ticks) -> Option<Span> {
        let mut cuts = self.instants(from, MAX);
        cuts.push(MAX);
        let mut span: Option<Span> = None;
        for w in cuts.windows(2) {
            if self.free(w[0]) < 0 {
                span.get_or_insert(Span {
                    start: w[0],
                    end: w[1],
                })
                .end = w[1];
            } else if span.is_some() {
                break;
            }
        }
        span
    }
}

fn time(t: &Time, table: &SlotTable<B>) -> Ticks {
    match *t {
        Time::Num(n) => n.get(),
        Time::Known(i, d) => {
            let steps = table.steps();
            let base = if steps.is_empty() {
                0
            } else {
                steps[usize::from(i) % steps.len()].at
            };
            base.saturating_add_signed(i64::from(d.signum()))
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
        for x in [s.at.saturating_sub(1), s.at, s.at.saturating_add(1)] {
            assert_eq!(t.free_at(x), m.free(x.min(MAX - 1)), "free_at({x})");
        }
    }
    assert_eq!(t.free_at(MAX), m.free(MAX - 1));
    assert_eq!(t.free_at(0), m.free(0));
}

fuzz_target!(|input: Input| {
    let n = nodes(input.nodes);
    let Ok(mut t) = SlotTable::<B>::new(n) else {
        assert_eq!(n, 0);
        return;
    };
    assert_eq!(t.nodes(), n);
    let mut m = Model {
        nodes: n,
        applied: vec![],
    };
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
                Some((*kind, s, s.saturating_add(len.get()), nodes(*k)))
            }
            Op::Undo { which, trim } if !done.is_empty() => {
                let (kind, s, e, k) = done[usize::from(*which) % done.len()];
                let undo = match kind {
                    Kind::Reserve => Kind::Release,
                    Kind::Release => Kind::Reserve,
                    Kind::Down => Kind::Up,
                    Kind::Up => Kind::Down,
                };
                // Undo the tail [s + trim, e) (early completion / repair).
                let s2 = s.saturating_add(u64::from(*trim)).min(e.saturating_sub(1));
                Some((undo, s2.max(s), e, k))
            }
            Op::Undo { .. } => None,
            Op::Fit {
                from,
                nodes: k,
                duration,
            } => {
                let (f, k, d) = (time(from, &t), nodes(*k), duration.get());
                let got = t.earliest_fit(f, k, d);
                assert_eq!(got, m.earliest_fit(f, k, d), "earliest_fit({f}, {k}, {d})");
                if let Ok(Some(s)) = got {
                    assert!(s >= f);
                    assert!(t.min_free(s, s + d).unwrap() >= i64::from(k));
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
            let got = match kind {
                Kind::Reserve => t.reserve(s, e, k).map(|()| None),
                Kind::Release => t.release(s, e, k).map(|()| None),
                Kind::Down => t.node_down(s, e, k),
                Kind::Up => t.node_up(s, e, k).map(|()| None),
            };
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
