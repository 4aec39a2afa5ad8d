//! Criterion benchmark of the LWF reader (`harness/src/workload/lwf.rs`): leases read per
//! second from the text of a generated Haizea workload (`qosgate_testkit::lwf::to_lwf`, 64 nodes,
//! best-effort leases of 1 to 8 VMs every 400 s), parsing and checking included, no replay.
//!
//! - `lwf/read/10000` and `lwf/read/100000`: reading is linear in the file's size (positions
//!   come from a line index, duplicate ids from a map), so the two rates should match.
//!
//! Run with `cargo bench --bench lwf`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use qosgate_harness::workload::lwf;
use qosgate_testkit::lwf::{Lease, When, to_lwf};

/// `n` best-effort leases, one every 400 s.
fn workload(n: u32) -> String {
    let leases: Vec<Lease> = (0..n)
        .map(|i| Lease {
            arrival: i * 400,
            when: When::BestEffort,
            preemptible: true,
            nodes: u16::try_from(1 + i % 8).unwrap_or(1),
            duration: 300 + 60 * (i % 30),
        })
        .collect();
    to_lwf(64, &leases)
}

fn read_throughput(c: &mut Criterion) {
    let mut group = c.benchmark_group("lwf");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    for n in [10_000u32, 100_000] {
        let text = workload(n);
        group.throughput(Throughput::Elements(u64::from(n)));
        group.measurement_time(Duration::from_secs(10));
        group.bench_function(BenchmarkId::new("read", n), |b| {
            b.iter(|| {
                let w = lwf::parse(black_box(text.as_bytes())).unwrap();
                black_box(w.requests.len())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, read_throughput);
criterion_main!(benches);
