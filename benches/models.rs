//! Criterion benchmark of the hybrid-cloud model (`harness/src/models/hybrid/`): one two-month
//! replication of javadi2012's system (`javadi2012-eb-ars`: EASY backfilling, ARS with the cloud
//! share of Table III's cost at beta 0.25, theta 3.0; about 9,500 requests and 8,500 node
//! failures and repairs), from scenario to records, and the same under conservative
//! backfilling (`javadi2012-cb-ars`). Criterion reports the time per replication and, as
//! throughput, events per second.
//!
//! Before measuring, each case runs one replication alone and prints the process's peak
//! resident memory (`VmHWM` of `/proc/self/status`, Linux; the peak of everything the
//! benchmark has run so far, so the first case's figure is one replication's).
//!
//! Run with `cargo bench --bench hybrid`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use qosgate_harness::experiments::javadi2012::presets;
use qosgate_harness::models::Model;
use qosgate_harness::models::hybrid::Hybrid;

/// The process's peak resident set, kB, if the system says (`VmHWM`).
fn peak_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn hybrid(c: &mut Criterion) {
    let mut group = c.benchmark_group("hybrid");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for preset in ["javadi2012-eb-ars", "javadi2012-cb-ars"] {
        let scenario = presets::get(preset).unwrap();
        let run = Hybrid::simulate(&scenario, 0).unwrap();
        eprintln!(
            "{preset}: {} requests, {} node events, {} events; peak resident memory so far: {}",
            run.records.len(),
            run.node_events,
            run.events,
            peak_kb().map_or_else(|| "unknown".to_owned(), |kb| format!("{kb} kB"))
        );
        group.throughput(Throughput::Elements(run.events));
        group.bench_function(preset, |b| {
            b.iter(|| black_box(Hybrid::simulate(black_box(&scenario), 0).unwrap().events))
        });
    }
    group.finish();
}

criterion_group!(benches, hybrid);
criterion_main!(benches);
