//! Criterion benchmarks of preemption (`kernel/src/lease/`, with its selection in `preempt.rs`).
//!
//! - `leases/select/{moml,mov,mlip}/{8,16,32}`: one `preempt::select` with the lease manager's
//!   bound (`SEARCH` = 128 candidate sets) over 8, 16 or 32 running leases (a fixed mix of
//!   cancelable and suspendable leases of 1 to 8 nodes, overheads in node-ticks of the paper's
//!   times) that must free half of the nodes they hold. There are more minimal sets than the
//!   bound from 16 candidates on, so the search runs to its cap: the worst case per call.
//!   MOML enumerates twice (median, then choice).
//! - `leases/preempt_resume/{8,32}`: one full cycle on a manager of 8 or 32 nodes, each running
//!   a 1-node suspendable lease that never ends: a local request for half the nodes arrives,
//!   preempts (MOML), the suspensions run, the local request runs and completes, the suspended
//!   leases resume and run again. The cycle is `submit` plus every `advance` to the next event
//!   until all leases run again; the manager keeps its state from one iteration to the next.
//! - `leases/scale/{preempt_cycle,next_event,queue_cancel}/{256,1024}`: a manager holding 256
//!   or 1,024 live leases, half of them running (one node each, never ending, on a cluster of
//!   as many nodes) and half queued behind them. `preempt_cycle` is the cycle above with a local
//!   request for 16 nodes (16 suspensions, then every transition until as many leases run
//!   again; the driver's own check of that is a scan of the leases per transition);
//!   `next_event` one call; `queue_cancel` a best-effort submission (queued at the back) and
//!   its cancellation. What a decision costs as the manager fills up.
//!
//! Run with `cargo bench --bench leases`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use qosgate_kernel::lease::preempt::{Candidate, Preference, select};
use qosgate_kernel::lease::{
    Action, Class, Event, Kind, Manager, Overheads, Policy, SEARCH, Spec, State,
};
use qosgate_kernel::units::Ticks;

/// `n` running leases: classes alternate in runs (C, S, S, C, S, ...), nodes 1 to 8.
fn candidates(n: usize) -> (Vec<Candidate>, u32) {
    let o = Overheads::PAPER;
    let cands: Vec<Candidate> = (0..n as u64)
        .map(|i| {
            let nodes = (1 + i * 5 % 8) as u32;
            let (class, action) = if i % 3 == 0 {
                (Class::Cancelable, Action::Cancel)
            } else {
                (Class::Suspendable, Action::Suspend)
            };
            Candidate::one(class, nodes, u64::from(nodes) * o.cost(action).get())
        })
        .collect();
    let held: u32 = cands.iter().map(|c| c.nodes).sum();
    (cands, held / 2)
}

fn select_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("leases/select");
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_millis(500));
    for (name, policy) in [
        ("moml", Policy::Moml),
        ("mov", Policy::Mov),
        ("mlip", Policy::Mlip),
    ] {
        for n in [8usize, 16, 32] {
            let (cands, need) = candidates(n);
            let choice = select::<SEARCH>(&cands, need, policy, Preference::Tiers).unwrap();
            // From 16 candidates on, the search runs to its cap.
            assert_eq!(
                choice.complete,
                n < 16,
                "{n} candidates: {} sets",
                choice.sets
            );
            group.bench_function(BenchmarkId::new(name, n), |b| {
                b.iter(|| {
                    select::<SEARCH>(
                        black_box(&cands),
                        black_box(need),
                        policy,
                        Preference::Tiers,
                    )
                })
            });
        }
    }
    group.finish();
}

/// A cluster of `nodes` nodes, each running a 1-node suspendable lease that never ends, and
/// `queued` more such leases queued behind them, in a manager of room for `L` leases; each
/// cycle a local request for `local` nodes preempts some of them.
struct Cycle<const L: usize, const B: usize> {
    m: Box<Manager<L, B>>,
    now: Ticks,
    nodes: u32,
    local: u32,
    events: usize,
}

impl<const L: usize, const B: usize> Cycle<L, B> {
    fn new(nodes: u32, queued: u32, local: u32) -> Self {
        let mut m = Box::new(Manager::new(nodes, Overheads::PAPER, Policy::Moml).unwrap());
        for _ in 0..nodes + queued {
            m.submit(Ticks::ZERO, forever(Class::Suspendable), &mut |_| {})
                .unwrap();
        }
        Self {
            m,
            now: Ticks::ZERO,
            nodes,
            local,
            events: 0,
        }
    }

    /// The local request, then every transition until as many leases run as before (the
    /// suspended ones resumed).
    fn step(&mut self) {
        self.now = self.now.saturating_add(Ticks::from_secs(1_000));
        let local = Spec {
            nodes: self.local,
            work: Ticks::from_secs(10),
            kind: Kind::Local,
        };
        let mut events = 0usize;
        let mut count = |_: Event| events += 1;
        self.m.submit(self.now, local, &mut count).unwrap();
        let nodes = self.nodes as usize;
        while let Some(t) = self.m.next_event().filter(|_| {
            let running = self
                .m
                .leases()
                .iter()
                .filter(|l| l.state() == State::Running);
            running.count() != nodes
        }) {
            self.now = t;
            self.m.advance(t, &mut count).unwrap();
        }
        self.events = events;
    }
}

fn forever(class: Class) -> Spec {
    Spec {
        nodes: 1,
        work: Ticks::new(1 << 60),
        kind: Kind::External {
            class,
            deadline: None,
        },
    }
}

fn cycle_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("leases/preempt_resume");
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_millis(500));
    for nodes in [8u32, 32] {
        let mut cycle = Cycle::<64, 128>::new(nodes, 0, nodes / 2);
        cycle.step();
        // Per cycle: the submission, a preemption and stop per lease, the local start and end,
        // and a suspension, resume and run per preempted lease.
        assert!(
            cycle.events >= 3 + 5 * nodes as usize / 2,
            "{}",
            cycle.events
        );
        group.bench_function(BenchmarkId::from_parameter(nodes), |b| {
            b.iter(|| {
                cycle.step();
                black_box(cycle.events)
            })
        });
        assert_eq!(cycle.m.accounts().preemptions % u64::from(nodes / 2), 0);
    }
    group.finish();
}

/// Nodes a local request of the scale benchmark preempts.
const PREEMPTED: u32 = 16;

/// The scale benchmarks on `L - 1` live leases (half running on as many nodes, half queued),
/// in a manager of room for `L` (one more, for `queue_cancel`).
fn scale_one<const L: usize, const B: usize>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
) {
    let live = L - 1;
    let half = (live / 2) as u32;
    let mut s = Cycle::<L, B>::new(half, half, PREEMPTED);
    s.step();
    assert!(s.events >= 3 + 5 * PREEMPTED as usize, "{}", s.events);
    group.bench_function(BenchmarkId::new("preempt_cycle", live), |b| {
        b.iter(|| {
            s.step();
            black_box(s.events)
        })
    });
    group.bench_function(BenchmarkId::new("next_event", live), |b| {
        b.iter(|| black_box(s.m.next_event()))
    });
    let now = s.now;
    group.bench_function(BenchmarkId::new("queue_cancel", live), |b| {
        b.iter(|| {
            let id =
                s.m.submit(now, forever(Class::Cancelable), &mut |_| {})
                    .unwrap();
            s.m.cancel(now, id, &mut |_| {}).unwrap();
        })
    });
    assert_eq!(s.m.leases().len(), live);
}

fn scale_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("leases/scale");
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_millis(500));
    scale_one::<257, 514>(&mut group);
    scale_one::<1025, 2050>(&mut group);
    group.finish();
}

criterion_group!(benches, select_bench, cycle_bench, scale_bench);
criterion_main!(benches);
