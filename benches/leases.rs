//! Criterion benchmarks of preemption (`kernel/src/preempt.rs`, `kernel/src/lease.rs`).
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
//!
//! Run with `cargo bench --bench leases`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use qosgate_kernel::lease::{
    Action, Class, Event, Kind, Manager, Overheads, Policy, SEARCH, Spec, State,
};
use qosgate_kernel::preempt::{Candidate, select};
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
            Candidate {
                class,
                nodes,
                overhead: u64::from(nodes) * o.cost(action).get(),
            }
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
            let choice = select::<SEARCH>(&cands, need, policy).unwrap();
            // From 16 candidates on, the search runs to its cap.
            assert_eq!(
                choice.complete,
                n < 16,
                "{n} candidates: {} sets",
                choice.sets
            );
            group.bench_function(BenchmarkId::new(name, n), |b| {
                b.iter(|| select::<SEARCH>(black_box(&cands), black_box(need), policy))
            });
        }
    }
    group.finish();
}

/// A cluster of `nodes` nodes, each running a 1-node suspendable lease that never ends.
struct Cycle {
    m: Box<Manager<64, 128>>,
    now: Ticks,
    nodes: u32,
    events: usize,
}

impl Cycle {
    fn new(nodes: u32) -> Self {
        let mut m = Box::new(Manager::new(nodes, Overheads::PAPER, Policy::Moml).unwrap());
        let forever = Spec {
            nodes: 1,
            work: Ticks::new(1 << 60),
            kind: Kind::External {
                class: Class::Suspendable,
                deadline: None,
            },
        };
        for _ in 0..nodes {
            m.submit(Ticks::ZERO, forever, &mut |_| {}).unwrap();
        }
        Self {
            m,
            now: Ticks::ZERO,
            nodes,
            events: 0,
        }
    }

    fn step(&mut self) {
        self.now = self.now.saturating_add(Ticks::from_secs(1_000));
        let local = Spec {
            nodes: self.nodes / 2,
            work: Ticks::from_secs(10),
            kind: Kind::Local,
        };
        let mut events = 0usize;
        let mut count = |_: Event| events += 1;
        self.m.submit(self.now, local, &mut count).unwrap();
        while let Some(t) = self.m.next_event().filter(|_| {
            self.m.leases().len() != self.nodes as usize
                || self.m.leases().iter().any(|l| l.state() != State::Running)
        }) {
            self.now = t;
            self.m.advance(t, &mut count).unwrap();
        }
        self.events = events;
    }
}

fn cycle_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("leases/preempt_resume");
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_millis(500));
    for nodes in [8u32, 32] {
        let mut cycle = Cycle::new(nodes);
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

criterion_group!(benches, select_bench, cycle_bench);
criterion_main!(benches);
