//! Criterion benchmarks of trace replay (`harness/src/replay.rs` driving the kernel's
//! `backfill` module): replay throughput in jobs per second on the generated trace of
//! `qosgate synth` (harness/src/synth.rs) on 1,024 nodes at offered load 0.8, seed 1.
//!
//! - `replay/easy/100000` and `replay/conservative/100000`: the 100,000-job trace;
//! - `replay/easy/1000000`: the 1,000,000-job trace (the target: under 3 s);
//! - `replay/easy-named/100000`: the 100,000-job trace naming every run's nodes
//!   (`Naming::Named`, what `--jobs-csv` and `--gantt` need): what naming costs.
//!
//! Each iteration replays the whole trace from the jobs in memory (no parsing, no output): the
//! driver's event loop, node bookkeeping and the kernel's passes. Run with
//! `cargo bench --bench replay`; criterion reports the time per replay and the throughput.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use qosgate_harness::models::cluster::replay::{self, Naming};
use qosgate_harness::workload::synth::{self, Params};
use qosgate_kernel::backfill::Policy;

const NODES: u32 = 1024;
const LOAD: f64 = 0.8;

fn replay_throughput(c: &mut Criterion) {
    let mut group = c.benchmark_group("replay");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    for (policy, name, jobs, naming) in [
        (Policy::Easy, "easy", 100_000u64, Naming::Counted),
        (
            Policy::Conservative,
            "conservative",
            100_000,
            Naming::Counted,
        ),
        (Policy::Easy, "easy", 1_000_000, Naming::Counted),
        (Policy::Easy, "easy-named", 100_000, Naming::Named),
    ] {
        let trace = synth::generate(&Params {
            jobs,
            nodes: NODES,
            load: LOAD,
            seed: 1,
        })
        .unwrap();
        group.throughput(Throughput::Elements(jobs));
        group.measurement_time(Duration::from_secs(if jobs > 100_000 { 40 } else { 15 }));
        group.bench_function(BenchmarkId::new(name, jobs), |b| {
            b.iter(|| {
                let out =
                    replay::replay(black_box(&trace), policy, NODES, &[], naming, |_| {}).unwrap();
                black_box(out.summary.jobs)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, replay_throughput);
criterion_main!(benches);
