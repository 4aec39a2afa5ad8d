//! Criterion benchmarks of the configuration-time solvers.
//!
//! - `pap/{3,8,64}`: one full PAP solve (`allocate::pap`, validation, sort, active set, root) for
//!   3, 8 and 64 heterogeneous clusters at 60 % of their total external capacity, epsilon 1e-9
//!   relative (the target: under 5 µs for 8 clusters). Clusters are spread so that some
//!   stay out of the active set.
//! - `pap_near_capacity/8`: the same 8 clusters at 99.9 % of capacity (the upper bound `ub` far above `psi_N`, found by a search over its exponent).
//! - `broker/{2,16}`: one `broker::route` for 2 and 16 providers at 70 % of `sum mu`, with
//!   bursty arrivals (`lambda^2 sigma_I^2 = 4`); the 2-provider case is javadi2012's cluster +
//!   cloud built from the service models of Eq. 8-13.
//!
//! Run with `cargo bench --bench solvers`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use qosgate_kernel::allocate::{Cluster, pap};
use qosgate_kernel::broker::{Provider, ReliableCloud, route};
use qosgate_testkit::broker::E17_CLUSTER;

fn clusters(n: usize) -> Vec<Cluster> {
    (0..n)
        .map(|j| {
            let f = j as f64;
            let theta = 0.5 + 0.37 * (f * 1.7).sin().abs() + 0.05 * f;
            let tau = 0.4 + 0.3 * (f * 0.9).cos().abs();
            let rho = 0.1 + 0.8 * ((f * 2.3).sin() * 0.5 + 0.5);
            Cluster {
                theta,
                omega: 1.25 * theta * theta,
                local_rate: rho / tau,
                tau,
                mu: 1.01 * tau * tau,
            }
        })
        .collect()
}

fn providers(n: usize) -> Vec<Provider> {
    if n == 2 {
        let cluster = E17_CLUSTER;
        let cloud = ReliableCloud {
            work: 100.0,
            nodes: 64.0,
            speed: 1.0,
            transfer: 0.5,
            cs2: ReliableCloud::PAPER_CS2,
        };
        return vec![
            cluster.service().unwrap().with_cost(1.0),
            cloud.service().unwrap().with_cost(4.0),
        ];
    }
    (0..n)
        .map(|i| {
            let f = i as f64;
            Provider {
                mu: 1.0 + 3.0 * (f * 1.3).sin().abs(),
                cs2: 0.5 + (f * 0.7).cos().abs(),
                cost: 1.0 + 5.0 * (f * 2.1).sin().abs(),
            }
        })
        .collect()
}

fn bench_pap(c: &mut Criterion) {
    let mut group = c.benchmark_group("pap");
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_millis(500));
    for n in [3usize, 8, 64] {
        let cs = clusters(n);
        let cap: f64 = cs.iter().map(Cluster::capacity).sum();
        let l = 0.6 * cap;
        let a = pap::<64>(&cs, l, 1e-9).expect("feasible");
        let active = a.active().iter().filter(|&&b| b).count();
        eprintln!("pap/{n}: {active} of {n} clusters active");
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| pap::<64>(black_box(&cs), black_box(l), black_box(1e-9)))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("pap_near_capacity");
    group.measurement_time(Duration::from_secs(3));
    let cs = clusters(8);
    let cap: f64 = cs.iter().map(Cluster::capacity).sum();
    group.bench_function("8", |b| {
        b.iter(|| pap::<64>(black_box(&cs), black_box(0.999 * cap), black_box(1e-9)))
    });
    group.finish();
}

fn bench_broker(c: &mut Criterion) {
    let mut group = c.benchmark_group("broker");
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_millis(500));
    for n in [2usize, 16] {
        let ps = providers(n);
        let l = 0.7 * ps.iter().map(|p| p.mu).sum::<f64>();
        let v = 4.0 / (l * l);
        route::<16>(l, v, &ps).expect("stable");
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| route::<16>(black_box(l), black_box(v), black_box(&ps)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_pap, bench_broker);
criterion_main!(benches);
