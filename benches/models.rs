//! Criterion benchmarks of whole replications of the simulated models, from scenario to
//! records. Criterion reports the time per replication and, as throughput, events per second.
//!
//! - `hybrid` (`harness/src/models/hybrid/`): one two-month replication of javadi2012's system
//!   (`javadi2012-eb-ars`: EASY backfilling, ARS with the cloud share of Table III's cost at
//!   beta 0.25, theta 3.0; about 9,500 requests and 8,500 node failures and repairs), and the
//!   same under conservative backfilling (`javadi2012-cb-ars`).
//! - `federation` (`harness/src/models/federation/`): one two-day replication of salehi2012's
//!   federation at the calibrated fixed point under PAP-RTDP (about 7,000 requests), and at the
//!   literal fixed point under RR (about 145,000 requests on clusters loaded 8-10 times over by
//!   their local users). Withdrawals of unstarted best-effort leases for local requests happen
//!   only at the literal local axis' top point (1.4 million requests, about 200 s a
//!   replication: too long for criterion); the count printed before each case says so.
//!
//! Before measuring, each case runs one replication alone and prints its counts and the
//! process's peak resident memory (`VmHWM` of `/proc/self/status`, Linux; the peak of
//! everything the benchmark has run so far, so the first case's figure is one replication's).
//!
//! Run with `cargo bench --bench models` (one group: `cargo bench --bench models -- federation`).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use qosgate_harness::experiments::federation::presets as federation_presets;
use qosgate_harness::experiments::javadi2012::presets;
use qosgate_harness::models::Model;
use qosgate_harness::models::federation::Federation;
use qosgate_harness::models::hybrid::Hybrid;

/// The process's peak resident set, kB, if the system says (`VmHWM`).
fn peak_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Benchmarks one replication of each of `cases` (a preset's name and scenario) in the group
/// `name`, after printing what `counts` says of one run and the peak memory so far.
fn replications<M: Model>(
    c: &mut Criterion,
    name: &str,
    cases: Vec<(&str, M::Scenario)>,
    counts: impl Fn(&M::Run) -> String,
) {
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for (preset, scenario) in cases {
        let run = M::simulate(&scenario, 0).unwrap();
        eprintln!(
            "{preset}: {}, {} events; peak resident memory so far: {}",
            counts(&run),
            M::events(&run),
            peak_kb().map_or_else(|| "unknown".to_owned(), |kb| format!("{kb} kB"))
        );
        group.throughput(Throughput::Elements(M::events(&run)));
        group.bench_function(preset, |b| {
            b.iter(|| black_box(M::events(&M::simulate(black_box(&scenario), 0).unwrap())))
        });
    }
    group.finish();
}

fn hybrid(c: &mut Criterion) {
    let cases = ["javadi2012-eb-ars", "javadi2012-cb-ars"]
        .map(|p| (p, presets::get(p).unwrap()))
        .into();
    replications::<Hybrid>(c, "hybrid", cases, |run| {
        format!(
            "{} requests, {} node events",
            run.records.len(),
            run.node_events
        )
    });
}

fn federation(c: &mut Criterion) {
    let cases = ["salehi2012-calibrated-pap-rtdp", "salehi2012-literal-rr"]
        .map(|p| (p, federation_presets::get(p).unwrap()))
        .into();
    replications::<Federation>(c, "federation", cases, |run| {
        let withdrawn: u64 = run.records.iter().map(|r| u64::from(r.withdrawals)).sum();
        format!(
            "{} requests, {withdrawn} withdrawn for local requests",
            run.records.len()
        )
    });
}

criterion_group!(benches, hybrid, federation);
criterion_main!(benches);
