//! Fair queue: a `FairQueue<u32, 8, 32>` (WFQ with either GPS set, or SCFQ) driven by a sequence
//! of opens, closes, enqueues and dequeues, and pushes and pops of the side FIFO, against a model
//! of the tasks queued on each flow and in the side FIFO (which share the 32 entries).
//! See `fuzz/README.md` for the list of invariants.
#![no_main]

mod common;

use std::collections::{HashMap, VecDeque};

use arbitrary::Arbitrary;
use common::{D, Num, Num16};
use libfuzzer_sys::fuzz_target;
use qosgate_kernel::fairq::{Discipline, FairQueue, FlowId, GpsHeap, GpsSet, GpsSorted};
use qosgate_kernel::units::{MAX_CAPACITY, Mips, Ticks, Work};
use qosgate_kernel::vtime::{InvWeight, MAX_SPAN, VirtualTime};
use qosgate_kernel::{Error, Param, Refused};

const FLOWS: usize = 8;
const QUEUE: usize = 32;
/// The queue, WFQ's GPS flows in a `G`: both sets, the default heap and the sorted list, meet
/// the same model.
type Q<G> = FairQueue<u32, FLOWS, QUEUE, G>;

#[derive(Arbitrary, Debug)]
struct Input {
    discipline: D,
    /// WFQ's GPS flows in a [`GpsSorted`] rather than the default [`GpsHeap`].
    sorted: bool,
    capacity: Num,
    ops: Vec<Op>,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Open(Num16),
    Close(u8),
    Enqueue {
        dt: Num,
        flow: u8,
        work: Num,
    },
    /// An enqueue at an instant before the queue's clock (when there is one).
    EnqueueStale {
        back: Num,
        flow: u8,
        work: Num,
    },
    Dequeue {
        dt: Num,
    },
    /// Dequeue until empty, at one instant.
    Drain {
        dt: Num,
    },
    /// A task into the side FIFO, at its back or its front.
    PushSide {
        work: Num,
        front: bool,
    },
    PopSide,
}

/// A flow id: mostly a valid slot, sometimes just past the end, sometimes far out.
fn flow_id(raw: u8) -> FlowId {
    match raw {
        255 => FlowId::new(u16::MAX),
        254 => FlowId::new(1000),
        r => FlowId::new(u16::from(r % (FLOWS as u8 + 1))),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// Never opened, or released for sure (SCFQ close).
    Free,
    Open {
        weight: u16,
    },
    /// Closed under WFQ: released now or later, when GPS has served it; its weight may still count.
    Closed {
        weight: u16,
    },
}

#[derive(Clone, Copy, Debug)]
struct Queued {
    item: u32,
    work: u64,
    tag: VirtualTime,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    Queued,
    Dequeued,
    Refused,
}

struct Model {
    discipline: Discipline,
    /// GPS's rate, MIPS.
    capacity: u64,
    now: u64,
    /// The queue's own clock: the latest instant it has been advanced to.
    clock: u64,
    slots: [Slot; FLOWS],
    queues: [VecDeque<Queued>; FLOWS],
    /// Tag of the last task accepted on the flow since it was opened.
    last: [Option<VirtualTime>; FLOWS],
    /// The side FIFO: (item, work).
    side: VecDeque<(u32, u64)>,
    fate: HashMap<u32, Fate>,
    next_item: u32,
    v: VirtualTime,
    /// The largest tag given so far (0 before the first).
    latest: VirtualTime,
}

impl Model {
    fn len(&self) -> usize {
        self.queues.iter().map(VecDeque::len).sum()
    }

    /// Tasks waiting, on flows and in the side FIFO: they share the `QUEUE` entries.
    fn waiting(&self) -> usize {
        self.len() + self.side.len()
    }

    fn invariants<G: GpsSet<FLOWS>>(&mut self, q: &Q<G>) {
        let len = self.len();
        assert_eq!(q.len(), len, "len differs from the model");
        assert_eq!(q.is_empty(), len == 0);
        assert_eq!(
            q.side_len(),
            self.side.len(),
            "side_len differs from the model"
        );
        assert_eq!(q.available(), QUEUE - self.waiting(), "available entries");
        assert_eq!(q.discipline(), self.discipline);
        let queued = self.fate.values().filter(|f| **f == Fate::Queued).count();
        assert_eq!(queued, self.waiting(), "model bookkeeping");
        let (mut open_w, mut closed_w) = (0u32, 0u32);
        for f in 0..FLOWS {
            let id = FlowId::new(f as u16);
            assert_eq!(q.flow_len(id), self.queues[f].len(), "flow_len({f})");
            match self.slots[f] {
                Slot::Open { weight } => {
                    assert!(q.is_open(id));
                    assert_eq!(q.weight(id), Some(weight));
                    open_w += u32::from(weight);
                }
                Slot::Closed { weight } => {
                    assert!(!q.is_open(id));
                    assert_eq!(q.weight(id), None);
                    closed_w += u32::from(weight);
                }
                Slot::Free => {
                    assert!(!q.is_open(id));
                    assert_eq!(q.weight(id), None);
                }
            }
        }
        for id in [FLOWS as u16, 1000, u16::MAX].map(FlowId::new) {
            assert_eq!(q.flow_len(id), 0);
            assert!(!q.is_open(id));
        }
        let open_n = self
            .slots
            .iter()
            .filter(|s| matches!(s, Slot::Open { .. }))
            .count();
        let closed_n = self
            .slots
            .iter()
            .filter(|s| matches!(s, Slot::Closed { .. }))
            .count();
        let in_use = q.in_use();
        assert!(
            in_use >= open_n && in_use <= open_n + closed_n,
            "in_use {in_use}"
        );
        if self.discipline == Discipline::Scfq {
            assert_eq!(in_use, open_n);
        }
        let tw = q.total_weight();
        assert!(
            tw >= open_w,
            "total weight {tw} below the open flows' {open_w}"
        );
        match self.discipline {
            Discipline::Scfq => assert_eq!(tw, open_w, "SCFQ releases closed flows at once"),
            Discipline::Wfq => assert!(tw <= open_w + closed_w, "weight of unknown flows"),
        }
        // The system virtual time never goes back.
        let v = q.virtual_time();
        assert!(
            v.since(self.v) >= 0,
            "virtual time went back: {:?} -> {v:?}",
            self.v
        );
        self.v = v;
        // Every live tag lies within MAX_SPAN of v (module doc), so comparisons are exact; SCFQ's
        // v is at most every queued tag.
        for e in self.queues.iter().flatten() {
            let d = e.tag.since(v);
            assert!(
                d.unsigned_abs() <= MAX_SPAN,
                "queued tag {:?} is {d} units from v {v:?}",
                e.tag
            );
            if self.discipline == Discipline::Scfq {
                assert!(d >= 0, "SCFQ: queued tag {:?} behind v {v:?}", e.tag);
            }
        }
    }

    fn open<G: GpsSet<FLOWS>>(&mut self, q: &mut Q<G>, w: u16) {
        let got = q.open(w);
        if w == 0 {
            assert_eq!(got, Err(Error::InvalidParameter(Param::Weight)));
            return;
        }
        let first_free = self.slots.iter().position(|s| *s == Slot::Free);
        match got {
            Ok(id) => {
                let f = usize::from(id);
                assert!(f < FLOWS, "flow id {id} out of range");
                assert!(
                    !matches!(self.slots[f], Slot::Open { .. }),
                    "open handed out the open flow {id}"
                );
                // The first free slot: nothing known-free comes before it.
                if let Some(ff) = first_free {
                    assert!(f <= ff, "open skipped free slot {ff} for {f}");
                }
                if self.discipline == Discipline::Scfq {
                    assert_eq!(Some(f), first_free, "SCFQ: not the first free slot");
                }
                // A reused closed slot was released: so were no others, but its weight is gone.
                self.slots[f] = Slot::Open { weight: w };
                self.queues[f].clear();
                self.last[f] = None;
            }
            Err(e) => {
                assert_eq!(e, Error::Full);
                assert_eq!(first_free, None, "Full with a free slot");
                assert_eq!(q.in_use(), FLOWS);
            }
        }
    }

    fn close<G: GpsSet<FLOWS>>(&mut self, q: &mut Q<G>, id: FlowId) {
        let got = q.close(id);
        let f = usize::from(id);
        match self.slots.get(f) {
            Some(Slot::Open { weight }) => {
                if self.queues[f].is_empty() {
                    assert_eq!(got, Ok(()));
                    self.slots[f] = match self.discipline {
                        Discipline::Scfq => Slot::Free,
                        Discipline::Wfq => Slot::Closed { weight: *weight },
                    };
                } else {
                    assert_eq!(got, Err(Error::Busy));
                }
            }
            _ => assert_eq!(got, Err(Error::Unknown)),
        }
    }

    fn enqueue<G: GpsSet<FLOWS>>(&mut self, q: &mut Q<G>, now: u64, id: FlowId, work: u64) {
        let item = self.next_item;
        self.next_item += 1;
        let len = q.len();
        // The fluid clock at `now`, which the enqueue tags by (GPS is not observable otherwise):
        // a copy of the queue brought to `now`.
        let at_now = {
            let mut probe = q.clone();
            let moved = probe.peek(Ticks::new(now)).is_ok();
            moved.then(|| probe.virtual_time())
        };
        let before = q.virtual_time();
        let got = q.enqueue(Ticks::new(now), id, Work::new(work), item);
        let f = usize::from(id);
        let refused = |got: Result<VirtualTime, Refused<u32>>, want: Error| {
            assert_eq!(got, Err(Refused { reason: want, item }), "enqueue");
            assert_eq!(q.len(), len, "a refused enqueue changed len");
        };
        let weight = match self.slots.get(f) {
            Some(Slot::Open { weight }) => *weight,
            _ => {
                refused(got, Error::Unknown);
                self.fate.insert(item, Fate::Refused);
                return;
            }
        };
        self.fate.insert(item, Fate::Refused);
        if work == 0 {
            return refused(got, Error::InvalidParameter(Param::Work));
        }
        if self.waiting() == QUEUE {
            return refused(got, Error::Full);
        }
        if now < self.clock {
            return refused(got, Error::TimeWentBackwards);
        }
        let v = at_now.expect("the clock moves to a later now");
        assert!(v.since(self.v) >= 0, "virtual time went back");
        let span = InvWeight::new(weight).unwrap().span(Work::new(work));
        let starts: &[VirtualTime] = match (self.discipline, self.last[f]) {
            (_, None) => &[v],
            (Discipline::Scfq, Some(last)) if !self.queues[f].is_empty() => &[last.max(v)],
            (Discipline::Scfq, Some(_)) => &[v],
            // WFQ: max(v, F_last) if the flow is backlogged in GPS, else v; GPS is not observable.
            (Discipline::Wfq, Some(last)) => &[last.max(v), v],
        };
        // The kernel keeps every live time within MAX_SPAN after the oldest one, min(v, the
        // smallest queued tag): before the clock moves, it refuses a task whose tag could end
        // more than MAX_SPAN after the oldest, its start taken with v as far as GPS's service by
        // now can move it (a raw unit per unit of service, not past the largest tag given).
        let oldest = self
            .queues
            .iter()
            .filter_map(|q| q.front())
            .map(|e| e.tag)
            .fold(self.v, Ord::min);
        let service = match self.discipline {
            Discipline::Wfq => {
                u128::from(now - self.clock) * u128::from(self.capacity << 16) / 1_000_000
            }
            Discipline::Scfq => 0,
        };
        let room = self.latest.since(self.v).max(0) as u64;
        let reach = self
            .v
            .wrapping_add(u64::try_from(service).unwrap_or(u64::MAX).min(room));
        let too_far = |start: VirtualTime| {
            span > MAX_SPAN || start.wrapping_add(span).since(oldest) as u64 > MAX_SPAN
        };
        // Whether the flow is backlogged before the clock moves is not observable under WFQ:
        // the decision is known when both readings agree.
        let bounds: &[VirtualTime] = match (self.discipline, self.last[f]) {
            (_, None) => &[reach],
            (Discipline::Scfq, Some(last)) if !self.queues[f].is_empty() => &[last.max(reach)],
            (Discipline::Scfq, Some(_)) => &[reach],
            (Discipline::Wfq, Some(last)) => &[last.max(reach), reach],
        };
        let refusals = bounds.iter().filter(|b| too_far(**b)).count();
        if refusals == bounds.len() || (got.is_err() && refusals > 0) {
            refused(got, Error::Overflow);
            // A refused task leaves the clock where it was.
            assert_eq!(
                q.virtual_time(),
                before,
                "a refused enqueue moved the clock"
            );
            return;
        }
        let tag = got.unwrap_or_else(|r| {
            panic!("refused {r:?} though its tag fits (v {v:?}, span {span})")
        });
        assert!(
            starts.iter().any(|s| s.wrapping_add(span) == tag),
            "tag {tag:?}: not start + L/w (v {v:?}, span {span}, starts {starts:?})"
        );
        if let Some(prev) = self.queues[f].back() {
            assert!(tag > prev.tag, "tags of one flow must increase");
        }
        self.queues[f].push_back(Queued { item, work, tag });
        self.last[f] = Some(tag);
        self.latest = self.latest.max(tag);
        self.fate.insert(item, Fate::Queued);
        assert_eq!(q.virtual_time(), v, "the clock is at now");
        (self.clock, self.v) = (now, v);
    }

    fn dequeue<G: GpsSet<FLOWS>>(&mut self, q: &mut Q<G>, now: u64) -> bool {
        let got = q
            .dequeue(Ticks::new(now))
            .expect("dequeue at a monotone clock");
        self.clock = self.clock.max(now);
        let Some(d) = got else {
            assert_eq!(self.len(), 0, "dequeue returned None with tasks queued");
            return false;
        };
        let f = usize::from(d.flow);
        assert!(f < FLOWS);
        let head = self.queues[f]
            .pop_front()
            .unwrap_or_else(|| panic!("dequeued from flow {f}, which the model has empty"));
        // Per-flow FIFO: it is the oldest task of its flow.
        assert_eq!(d.item, head.item, "flow {f} out of FIFO order");
        assert_eq!((d.work.get(), d.finish), (head.work, head.tag));
        assert_eq!(self.fate.insert(d.item, Fate::Dequeued), Some(Fate::Queued));
        // Smallest finish tag first, ties to the lower flow.
        for (g, qg) in self.queues.iter().enumerate() {
            if let Some(h) = qg.front()
                && g != f
            {
                assert!(
                    h.tag > d.finish || (h.tag == d.finish && g > f),
                    "served flow {f} tag {:?} before flow {g} tag {:?}",
                    d.finish,
                    h.tag
                );
            }
        }
        true
    }
}

fn run(input: Input) {
    if input.sorted {
        run_with::<GpsSorted<FLOWS>>(input);
    } else {
        run_with::<GpsHeap<FLOWS>>(input);
    }
}

fn run_with<G: GpsSet<FLOWS>>(input: Input) {
    let discipline = input.discipline.get();
    let capacity = input.capacity.get();
    let max = MAX_CAPACITY.get();
    let valid = (1..=max).contains(&capacity);
    let mut q = match Q::<G>::new(discipline, Mips::new(capacity)) {
        Ok(q) => {
            assert!(valid, "capacity {capacity} accepted");
            q
        }
        Err(e) => {
            assert!(!valid, "capacity {capacity} refused");
            assert_eq!(e, Error::InvalidParameter(Param::Capacity));
            Q::<G>::new(discipline, Mips::new(capacity.clamp(1, max))).unwrap()
        }
    };
    let mut m = Model {
        discipline,
        capacity: capacity.clamp(1, max),
        now: 0,
        clock: 0,
        slots: [Slot::Free; FLOWS],
        queues: Default::default(),
        last: [None; FLOWS],
        side: VecDeque::new(),
        fate: HashMap::new(),
        next_item: 0,
        v: q.virtual_time(),
        latest: VirtualTime::ZERO,
    };
    m.invariants(&q);
    for op in input.ops {
        match op {
            Op::Open(w) => m.open(&mut q, w.get()),
            Op::Close(f) => m.close(&mut q, flow_id(f)),
            Op::Enqueue { dt, flow, work } => {
                m.now = m.now.saturating_add(dt.get());
                m.enqueue(&mut q, m.now, flow_id(flow), work.get());
            }
            Op::EnqueueStale { back, flow, work } => {
                let back = back.get().max(1);
                if let Some(t) = m.clock.checked_sub(back) {
                    m.enqueue(&mut q, t, flow_id(flow), work.get());
                }
            }
            Op::Dequeue { dt } => {
                m.now = m.now.saturating_add(dt.get());
                m.dequeue(&mut q, m.now);
            }
            Op::PushSide { work, front } => m.push_side(&mut q, work.get(), front),
            Op::PopSide => {
                m.pop_side(&mut q);
            }
            Op::Drain { dt } => {
                m.now = m.now.saturating_add(dt.get());
                let mut n = 0;
                while m.dequeue(&mut q, m.now) {
                    n += 1;
                    assert!(n <= QUEUE, "drain did not end");
                    m.invariants(&q);
                }
            }
        }
        m.invariants(&q);
    }
    // Conservation: everything handed in is queued, was dequeued exactly once, or came back.
    while m.dequeue(&mut q, m.now) {}
    while m.pop_side(&mut q) {}
    assert!(m.fate.values().all(|f| *f != Fate::Queued));
    assert_eq!(m.fate.len() as u32, m.next_item);
}

impl Model {
    fn push_side<G: GpsSet<FLOWS>>(&mut self, q: &mut Q<G>, work: u64, front: bool) {
        let item = self.next_item;
        self.next_item += 1;
        let got = if front {
            q.push_side_front(Work::new(work), item)
        } else {
            q.push_side(Work::new(work), item)
        };
        if self.waiting() == QUEUE {
            assert_eq!(
                got,
                Err(Refused {
                    reason: Error::Full,
                    item
                }),
                "push_side"
            );
            self.fate.insert(item, Fate::Refused);
            return;
        }
        assert_eq!(got, Ok(()), "push_side with {} waiting", self.waiting());
        if front {
            self.side.push_front((item, work));
        } else {
            self.side.push_back((item, work));
        }
        self.fate.insert(item, Fate::Queued);
    }

    fn pop_side<G: GpsSet<FLOWS>>(&mut self, q: &mut Q<G>) -> bool {
        let got = q.pop_side().map(|(item, work)| (item, work.get()));
        assert_eq!(got, self.side.pop_front(), "pop_side");
        if let Some((item, _)) = got {
            assert_eq!(self.fate.insert(item, Fate::Dequeued), Some(Fate::Queued));
        }
        got.is_some()
    }
}

fuzz_target!(|input: Input| run(input));
