//! Criterion benchmarks of the kernel's per-task paths.
//!
//! - `bucket/check_charge`, `bucket/check`: one leaky-bucket conformance check (and charge) of an
//!   `Exact` bucket that keeps conforming, with a fake clock advancing 4 ticks per iteration.
//! - `fairq/{wfq,scfq}/pair/{8,64,1024}`: one `dequeue` + one `enqueue` on a fair queue kept in
//!   steady state (every flow backlogged with 2 tasks), the fake clock advancing by the execution
//!   time of each task at the queue's capacity, so the WFQ fluid clock keeps pace with service;
//!   `fairq/wfq-sorted/pair/{8,64,1024}` the same with WFQ's GPS flows in `GpsSorted` (the C
//!   library's) instead of the default heap.
//! - `registry/admissible/{8,64}`: the Eq. 1/2 admission test of a newcomer against `N - 1`
//!   users registered through `Resource::register`.
//!
//! The state of each benchmark (bucket, queue, clock) lives outside the timed closure, so it
//! carries over from one criterion sample to the next instead of being rebuilt per sample.
//!
//! Run with `cargo bench --bench kernel`.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, criterion_group, criterion_main};
use qosgate_kernel::bucket::{Bucket, Conformance, Knowledge, Oversize};
use qosgate_kernel::fairq::{Discipline, FairQueue, FlowId, GpsHeap, GpsSet, GpsSorted};
use qosgate_kernel::registry::Registration;
use qosgate_kernel::resource::{Kind, Resource};
use qosgate_kernel::units::{Mips, Ticks, Work, exec_ticks};

/// Capacity of the benchmarked resource (R1 of kokkinos2009 Table 3).
const CAPACITY: Mips = Mips::new(780_000);
/// Fake-clock step of the bucket benchmarks, ticks. The fake clocks count plain ticks and hand
/// the kernel `Ticks::new(now)`, as a firmware's timer would.
const BUCKET_STEP: u64 = 4;
/// Tasks kept queued on every flow of the fair-queue benchmarks.
const PER_FLOW: usize = 2;
/// Length of the precomputed ring of task sizes (a power of two).
const WORKS: usize = 4096;

fn configure(group: &mut BenchmarkGroup<'_, WallTime>) {
    group.measurement_time(Duration::from_secs(2));
    group.warm_up_time(Duration::from_millis(500));
}

/// Task sizes 1, 2, 3 MI in turn: at `CAPACITY` MIPS, 4 ticks refill 3.12 MI, so every task of an
/// `Exact` bucket of rate `CAPACITY` conforms.
fn bucket_work(i: u64) -> Work {
    Work::new(1 + i % 3)
}

fn new_bucket() -> Bucket {
    Bucket::new(
        Ticks::ZERO,
        CAPACITY,
        Work::new(1_000),
        Work::new(100),
        Knowledge::Exact,
    )
    .expect("valid bucket")
}

fn bucket(c: &mut Criterion) {
    // The pattern must keep conforming, or the benchmark would time the refusal path.
    let mut b = new_bucket();
    for i in 1..=1_000_000u64 {
        let now = Ticks::new(i * BUCKET_STEP);
        assert_eq!(b.check(now, bucket_work(i)), Ok(Conformance::Now));
        b.charge(now, bucket_work(i)).expect("conforms");
    }

    let mut group = c.benchmark_group("bucket");
    configure(&mut group);

    let mut b = new_bucket();
    let mut i = 0u64;
    group.bench_function("check_charge", |bencher| {
        bencher.iter(|| {
            i += 1;
            let now = black_box(Ticks::new(i * BUCKET_STEP));
            let work = black_box(bucket_work(i));
            let c = b.check(now, work);
            let r = b.charge(now, work);
            black_box((c, r))
        });
    });
    let submitted: u64 = (1..=i).map(|i| bucket_work(i).get()).sum();
    assert_eq!(b.submitted(), Work::new(submitted));

    let b = new_bucket();
    let mut i = 0u64;
    group.bench_function("check", |bencher| {
        bencher.iter(|| {
            i += 1;
            black_box(&b).check(
                black_box(Ticks::new(i * BUCKET_STEP)),
                black_box(bucket_work(i)),
            )
        });
    });

    group.finish();
}

/// Weight of flow `i`: 1 to 7.
fn flow_weight(i: usize) -> u16 {
    1 + (i % 7) as u16
}

/// The `i`-th task size, 1,000 to 5,999 MI, and its execution time at `CAPACITY` in ticks.
fn task(i: usize) -> (Work, u64) {
    let work = Work::new(1_000 + (i as u64 * 7919) % 5_000);
    let ticks = exec_ticks(work, CAPACITY).expect("capacity is not zero");
    (work, ticks.get())
}

/// A queue of `F` flows of weights `1 + i % 7`, each holding `PER_FLOW` tasks, at time `now`.
fn steady_queue<const F: usize, const Q: usize, G: GpsSet<F>>(
    discipline: Discipline,
    tasks: &[(Work, u64)],
    now: Ticks,
) -> FairQueue<u32, F, Q, G> {
    assert!(
        F * PER_FLOW <= Q,
        "queue too small for {PER_FLOW} tasks per flow"
    );
    let mut q = FairQueue::new(discipline, CAPACITY).expect("capacity is not zero");
    for i in 0..F {
        assert_eq!(q.open(flow_weight(i)), Ok(FlowId::new(i as u16)));
    }
    let mut k = 0;
    for _ in 0..PER_FLOW {
        for flow in 0..F {
            q.enqueue(now, FlowId::new(flow as u16), tasks[k % WORKS].0, k as u32)
                .expect("queued");
            k += 1;
        }
    }
    q
}

/// One dequeue at `now` (ticks), then an enqueue of task `k` on the flow just served. Returns
/// the clock after the new task's execution time.
fn pair<const F: usize, const Q: usize, G: GpsSet<F>>(
    q: &mut FairQueue<u32, F, Q, G>,
    now: u64,
    (work, ticks): (Work, u64),
    k: u32,
) -> u64 {
    let at = Ticks::new(now);
    let d = q
        .dequeue(at)
        .expect("clock is monotonic")
        .expect("queue is backlogged");
    let tag = q.enqueue(at, d.flow, work, k).expect("queued");
    black_box((d, tag));
    now + ticks
}

fn fairq_pair<const F: usize, const Q: usize, G: GpsSet<F>>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    discipline: Discipline,
    name: &str,
) {
    let tasks: Vec<(Work, u64)> = (0..WORKS).map(task).collect();

    // Steady-state check: after every pair, every flow holds PER_FLOW tasks again, and a long run
    // stays clear of errors (a refused task or a time error would panic in `pair`). The benchmark
    // then continues on the same queue and clock.
    let mut q = Box::new(steady_queue::<F, Q, G>(discipline, &tasks, Ticks::ZERO));
    let mut now = 0;
    let mut k = 0usize;
    for _ in 0..200_000 {
        now = pair(&mut q, now, tasks[k % WORKS], k as u32);
        k += 1;
    }
    assert!((0..F).all(|f| q.flow_len(FlowId::new(f as u16)) == PER_FLOW));

    group.bench_function(BenchmarkId::new(format!("{name}/pair"), F), |bencher| {
        bencher.iter(|| {
            now = pair(black_box(&mut *q), now, tasks[k % WORKS], k as u32);
            k = k.wrapping_add(1);
        });
    });
    assert!((0..F).all(|f| q.flow_len(FlowId::new(f as u16)) == PER_FLOW));
}

fn fairq(c: &mut Criterion) {
    let mut group = c.benchmark_group("fairq");
    configure(&mut group);
    for (discipline, name) in [(Discipline::Wfq, "wfq"), (Discipline::Scfq, "scfq")] {
        fairq_pair::<8, 256, GpsHeap<8>>(&mut group, discipline, name);
        fairq_pair::<64, 256, GpsHeap<64>>(&mut group, discipline, name);
        fairq_pair::<1024, 4096, GpsHeap<1024>>(&mut group, discipline, name);
    }
    fairq_pair::<8, 256, GpsSorted<8>>(&mut group, Discipline::Wfq, "wfq-sorted");
    fairq_pair::<64, 256, GpsSorted<64>>(&mut group, Discipline::Wfq, "wfq-sorted");
    fairq_pair::<1024, 4096, GpsSorted<1024>>(&mut group, Discipline::Wfq, "wfq-sorted");
    group.finish();
}

/// Largest task of the benchmarked resource and of its users, MI.
const MAX_TASK: Work = Work::new(5_000);

/// `registry/admissible/{8,64}`: `Registry::<N>::admissible` for a newcomer with `N - 1` users
/// registered, every one of which still fits (so the scan covers every user).
///
/// The `N - 1` users are registered through the public path, `Resource::register`, on a one-CPU
/// GS resource of `CAPACITY` MIPS, and the benchmark reads the resource's registry.
fn registry_admission(c: &mut Criterion) {
    fn admissible<const N: usize>(group: &mut BenchmarkGroup<'_, WallTime>) {
        // N - 1 users of weights 1 + i % 7, each with rho at its share of the total weight W
        // that includes the newcomer, so Eq. 1 holds for everybody, newcomer included.
        let newcomer_weight = flow_weight(N - 1);
        let total_weight: u32 = (0..N - 1).map(|i| u32::from(flow_weight(i))).sum();
        let w_after = u64::from(total_weight) + u64::from(newcomer_weight);
        let gs = |w: u16| Registration {
            weight: w,
            rho: Mips::new((CAPACITY.get() * u64::from(w) / w_after).max(1)),
            sigma: Work::new(2 * MAX_TASK.get()),
            imax: MAX_TASK,
            knowledge: Knowledge::Exact,
            oversize: Oversize::Refuse,
            entries: 0,
        };
        let mut resource =
            Resource::<N, 16, 1>::new(Kind::Gs, Discipline::Wfq, &[CAPACITY], MAX_TASK, N as u16)
                .expect("valid resource");
        for i in 0..N - 1 {
            assert_eq!(
                resource.register(gs(flow_weight(i))),
                Ok(FlowId::new(i as u16))
            );
        }
        let registry = resource.registry();
        let newcomer = gs(newcomer_weight);
        assert_eq!(registry.len(), N - 1);
        assert_eq!(
            registry.admissible(CAPACITY, total_weight, MAX_TASK, &newcomer),
            Ok(())
        );
        group.bench_function(BenchmarkId::new("admissible", N), |bencher| {
            bencher.iter(|| {
                black_box(registry).admissible(
                    black_box(CAPACITY),
                    black_box(total_weight),
                    black_box(MAX_TASK),
                    black_box(&newcomer),
                )
            });
        });
    }

    let mut group = c.benchmark_group("registry");
    configure(&mut group);
    admissible::<8>(&mut group);
    admissible::<64>(&mut group);
    group.finish();
}

criterion_group!(benches, bucket, fairq, registry_admission);
criterion_main!(benches);
