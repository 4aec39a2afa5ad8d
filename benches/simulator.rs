//! Criterion benchmark of the grid simulator (`harness/src/models/grid/`): events per second on a
//! large kokkinos2009 scenario, the `kokkinos2009-gbp` preset with BE user U4 at 55 s per task (the
//! paper's heaviest load) over a horizon of 2,000,000 s (about 41,000 tasks and 261,000 events;
//! up to 33,000 tasks alive at once). One iteration is one replication, from scenario to
//! metrics, as `qosgate reproduce` runs it (no task records, kernel structures reused from the
//! previous iteration); criterion reports the time per replication and, as throughput, events
//! per second.
//!
//! Run with `cargo bench --bench simulator`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use qosgate_harness::experiments::kokkinos2009::presets;
use qosgate_harness::models::Model;
use qosgate_harness::models::grid::Grid;
use qosgate_harness::models::grid::scenario::Dist;

fn simulator(c: &mut Criterion) {
    let mut scenario = presets::get("kokkinos2009-gbp").unwrap();
    scenario.horizon_s = 2_000_000.0;
    let u4 = scenario.users.iter_mut().find(|u| u.name == "U4").unwrap();
    u4.interarrival = Dist::Fixed(55.0);
    let events = Grid::simulate(&scenario, 0).unwrap().events;
    let mut group = c.benchmark_group("simulator");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(events));
    group.bench_function("kokkinos2009_gbp_u4_55s", |b| {
        b.iter(|| black_box(Grid::simulate(black_box(&scenario), 0).unwrap().events))
    });
    group.finish();
}

criterion_group!(benches, simulator);
criterion_main!(benches);
