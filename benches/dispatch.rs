//! Criterion benchmarks of the dispatch decisions (`kernel/src/dispatch.rs`).
//!
//! - `dispatch/billiard/{3,8,64}`: one billiard decision (argmin over the keys and one addition),
//!   fixed-point reciprocals (probabilities with no small rational form).
//! - `dispatch/billiard_exact/8`: the same with exact rational reciprocals (`1..=8` weights).
//! - `dispatch/rtdp/{3,8,64}`: one RTDP decision, 4 request types taken in a fixed rotation.
//! - `dispatch/bernoulli/8`: one random pick from a precomputed draw (the draws come from a ring
//!   filled before timing, so the generator is not timed).
//!
//! The dispatcher lives outside the timed closure and keeps its state from one sample to the
//! next, as it would in a gateway. Run with `cargo bench --bench dispatch`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use qosgate_kernel::dispatch::{Bernoulli, Billiard, Rtdp};

/// Capacity of the dispatchers (the largest size benchmarked).
const CAP: usize = 64;
/// Request types of the RTDP benchmark.
const TYPES: usize = 4;
/// Length of the ring of precomputed random draws (a power of two).
const DRAWS: usize = 4096;

/// `n` probabilities with no small rational form (the fixed-point path), fastest cluster 0.
fn probabilities(n: usize) -> Vec<f64> {
    (0..n)
        .map(|j| 1.0 + (j as f64 * 0.618_033_988_7).fract())
        .collect()
}

fn configure(c: &mut Criterion) -> criterion::BenchmarkGroup<'_, criterion::measurement::WallTime> {
    let mut group = c.benchmark_group("dispatch");
    group.measurement_time(Duration::from_secs(2));
    group.warm_up_time(Duration::from_millis(500));
    group
}

fn dispatch(c: &mut Criterion) {
    let mut group = configure(c);
    for n in [3usize, 8, 64] {
        let p = probabilities(n);
        let mut b = Billiard::<CAP>::new(&p, 0).expect("valid p");
        assert!(!b.is_exact());
        group.bench_function(BenchmarkId::new("billiard", n), |bch| {
            bch.iter(|| black_box(b.dispatch()))
        });
        let mut r = Rtdp::<CAP, TYPES>::new(&p, &[0.4, 0.3, 0.2, 0.1], 0).expect("valid p");
        let mut kind = 0usize;
        group.bench_function(BenchmarkId::new("rtdp", n), |bch| {
            bch.iter(|| {
                kind = (kind + 1) % TYPES;
                black_box(r.dispatch(black_box(kind)))
            })
        });
    }
    let weights: Vec<f64> = (1..=8).map(f64::from).collect();
    let mut exact = Billiard::<CAP>::new(&weights, 0).expect("valid p");
    assert!(exact.is_exact());
    group.bench_function(BenchmarkId::new("billiard_exact", 8), |bch| {
        bch.iter(|| black_box(exact.dispatch()))
    });

    let rnd = Bernoulli::<CAP>::new(&probabilities(8)).expect("valid p");
    let mut state = 0x1234_5678_9ABC_DEF0u64;
    let draws: Vec<u32> = (0..DRAWS)
        .map(|_| {
            // xorshift64*
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as u32
        })
        .collect();
    let mut i = 0usize;
    group.bench_function(BenchmarkId::new("bernoulli", 8), |bch| {
        bch.iter(|| {
            i = (i + 1) & (DRAWS - 1);
            black_box(rnd.pick(black_box(draws[i])))
        })
    });
    group.finish();
}

criterion_group!(benches, dispatch);
criterion_main!(benches);
