//! Criterion benchmarks of the slot table (`kernel/src/slots.rs`).
//!
//! - `slots/fit_reserve_release/{64,256,4096}`: steady state of conservative backfilling on a
//!   1,024-node cluster whose profile holds that many breakpoints. The table is pre-filled with a
//!   rolling window of back-to-back reservations of more than half the cluster (so no two overlap
//!   and none fits in a gap: every `earliest_fit` scans the whole profile to its end). Each
//!   iteration completes the oldest reservation (`release`, at the front), then places a new job
//!   with `earliest_fit` from the released one's end and `reserve`s it (at the back): the number
//!   of breakpoints stays constant. The worst case of both calls: `O(B)` scan and two `O(B)`
//!   shifts of the array.
//!
//! - `slots/earliest_fit/{64,256,4096}`: the scan alone, on the same profile (it
//!   passes every breakpoint): from the oldest reservation's start.
//!
//! The table lives outside the timed closure and keeps its state from one sample to the next.
//! Run with `cargo bench --bench slots`.

use std::collections::VecDeque;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use qosgate_kernel::slots::SlotTable;
use qosgate_kernel::units::{Nodes, Ticks};

/// Capacity of the table (the largest size benchmarked, plus room for one transient job).
const CAP: usize = 4096 + 4;
const NODES: Nodes = 1024;
/// Job length and the gap that follows each (shorter than a job, so no job fits in a gap).
const LEN: Ticks = Ticks::new(10);
const GAP: Ticks = Ticks::new(3);

/// A node count above half the cluster, varying so that adjacent steps always differ.
fn width(i: u64) -> Nodes {
    NODES / 2 + 1 + (i * 37 % 500) as Nodes
}

struct Window {
    table: Box<SlotTable<CAP>>,
    live: VecDeque<(Ticks, Ticks, Nodes)>,
    next: u64,
}

impl Window {
    /// A profile of `breakpoints` breakpoints: `breakpoints / 2` jobs, each a step up and down.
    fn new(breakpoints: usize) -> Self {
        let mut w = Self {
            table: Box::new(SlotTable::new(NODES).unwrap()),
            live: VecDeque::new(),
            next: 0,
        };
        for _ in 0..breakpoints / 2 {
            w.place(Ticks::ZERO);
        }
        assert_eq!(w.table.len(), breakpoints);
        w
    }

    fn place(&mut self, from: Ticks) {
        let n = width(self.next);
        self.next += 1;
        let s = self.table.earliest_fit(from, n, LEN).unwrap().unwrap();
        // Leave a gap shorter than a job after the last one.
        let s = match self.live.back() {
            Some(&(_, e, _)) if s == e => s.saturating_add(GAP),
            _ => s,
        };
        let e = s.saturating_add(LEN);
        self.table.reserve(s, e, n).unwrap();
        self.live.push_back((s, e, n));
    }

    fn step(&mut self) {
        let (s, e, n) = self.live.pop_front().unwrap();
        self.table.release(s, e, n).unwrap();
        self.place(e);
    }
}

fn slots(c: &mut Criterion) {
    let mut group = c.benchmark_group("slots");
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_millis(500));
    for b in [64usize, 256, 4096] {
        let mut w = Window::new(b);
        group.bench_function(BenchmarkId::new("fit_reserve_release", b), |bench| {
            bench.iter(|| {
                w.step();
                black_box(w.table.len())
            })
        });
        assert_eq!(w.table.len(), b, "steady state");
        // The scan alone: the same profile, a fit from the oldest reservation's start, which
        // passes every breakpoint.
        let from = w.live.front().unwrap().0;
        group.bench_function(BenchmarkId::new("earliest_fit", b), |bench| {
            bench.iter(|| black_box(w.table.earliest_fit(black_box(from), NODES / 2 + 1, LEN)))
        });
    }
    group.finish();
}

criterion_group!(benches, slots);
criterion_main!(benches);
