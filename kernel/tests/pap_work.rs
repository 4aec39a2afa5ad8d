//! PAP's work per call: the evaluations [`pap_with_stats`] counts against the bound the module
//! docs of `qosgate_kernel::allocate` prove, on property-test instances and in an adversarial
//! search for the costliest input.
//!
//! The search (`cargo test --release -p qosgate-kernel --test pap_work -- --ignored --nocapture`)
//! draws inputs at random and hill-climbs from them over the cluster parameters (`N = 1..8`,
//! parameters spread over the whole `f64` range, local loads near 0 and near 1, external loads
//! near 0, subnormal, anywhere and near capacity, epsilon at [`MIN_EPSILON`] and `1e-9`),
//! keeping a change that does not lower the evaluation count. It prints the costliest input
//! found as a Rust literal. `PAP_SEARCH_STARTS` sets the number of restarts (default 400) and
//! `PAP_SEARCH_SEED` the generator's seed (default 1); `PAP_SEARCH_CLUSTERS` fixes `N`.

use qosgate_kernel::allocate::{
    Cluster, MAX_BOUND_EVALUATIONS, MAX_EVALUATIONS, MAX_ITERATIONS, MIN_EPSILON, PapStats,
    pap_with_stats,
};

/// The largest `N` searched.
const N: usize = 8;

/// splitmix64: a small deterministic generator, so that a search can be repeated.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Genes per cluster; then `LOAD_GENES` for the external load and epsilon.
const CLUSTER_GENES: usize = 5;
const LOAD_GENES: usize = 3;
const GENES: usize = N * CLUSTER_GENES + LOAD_GENES;

/// An input as genes in `[0, 1)` and the number of clusters they describe.
#[derive(Clone, Copy)]
struct Genome {
    n: usize,
    genes: [f64; GENES],
}

/// `2^x` (`powf` is enough for drawing inputs).
fn pow2(x: f64) -> f64 {
    2f64.powf(x)
}

/// A local load `rho` in `[0, 1)` from a gene: a quarter zero, a quarter `1 - 2^-(0..60)`, the
/// rest uniform.
fn rho_of(g: f64) -> f64 {
    if g < 0.25 {
        0.0
    } else if g < 0.5 {
        1.0 - pow2(-(g - 0.25) * 4.0 * 60.0)
    } else {
        (g - 0.5) * 2.0
    }
}

/// A second moment `>= mean^2` from a gene: half the time `mean^2 (1 + cv^2)` with `cv` in
/// `2^-60..2^60`, half the time `max(mean^2, 2^e)` with `e` anywhere in `-1074..1023` (so that
/// it can exceed `mean^2` by any factor `f64` holds).
fn second_moment(mean: f64, g: f64) -> f64 {
    if g < 0.5 {
        let cv = pow2((g * 2.0 - 0.5) * 120.0);
        mean * mean * (1.0 + cv * cv)
    } else {
        (mean * mean).max(pow2(-1074.0 + (g - 0.5) * 2.0 * 2097.0))
    }
}

impl Genome {
    /// Random genes for `n` clusters, or a random count; a quarter of the time every cluster
    /// the same.
    fn random(rng: &mut Rng, n: Option<usize>) -> Self {
        let mut genes = [0.0; GENES];
        for g in &mut genes {
            *g = rng.unit();
        }
        if rng.below(4) == 0 {
            let (first, rest) = genes.split_at_mut(CLUSTER_GENES);
            for cluster in rest.chunks_exact_mut(CLUSTER_GENES).take(N - 1) {
                cluster.copy_from_slice(first);
            }
        }
        Genome {
            n: n.unwrap_or_else(|| 1 + rng.below(N)),
            genes,
        }
    }

    /// One gene redrawn, nudged or copied from another cluster, or (unless `fixed`) the
    /// cluster count changed.
    fn mutate(&self, rng: &mut Rng, fixed: bool) -> Self {
        let mut m = *self;
        match rng.below(8) {
            0 if !fixed => m.n = 1 + rng.below(N),
            1 => {
                // Copy one cluster's genes over another's (ties in psi, equal clusters).
                let (a, b) = (rng.below(N), rng.below(N));
                for i in 0..CLUSTER_GENES {
                    m.genes[b * CLUSTER_GENES + i] = m.genes[a * CLUSTER_GENES + i];
                }
            }
            2 => {
                let i = rng.below(GENES);
                m.genes[i] = rng.unit();
            }
            _ => {
                let i = rng.below(GENES);
                let scale = pow2(-(rng.unit() * 40.0));
                let g = m.genes[i] + (rng.unit() - 0.5) * scale;
                m.genes[i] = g.clamp(0.0, 1.0 - f64::EPSILON);
            }
        }
        m
    }

    fn clusters(&self) -> Vec<Cluster> {
        (0..self.n)
            .map(|j| {
                let g = &self.genes[j * CLUSTER_GENES..(j + 1) * CLUSTER_GENES];
                let theta = pow2((g[0] - 0.5) * 2040.0);
                let tau = pow2((g[2] - 0.5) * 2040.0);
                let rho = rho_of(g[3]);
                Cluster {
                    theta,
                    omega: second_moment(theta, g[1]),
                    local_rate: rho / tau,
                    tau,
                    mu: second_moment(tau, g[4]),
                }
            })
            .collect()
    }

    /// `Lambda` and epsilon, for clusters of total capacity `capacity`.
    fn load(&self, capacity: f64) -> (f64, f64) {
        let g = &self.genes[N * CLUSTER_GENES..];
        let x = g[1];
        let lambda = match (g[0] * 5.0) as usize {
            // A fraction 2^-(0..1100) of capacity, down to the subnormals.
            0 => capacity * pow2(-x * 1100.0),
            // A subnormal or tiny normal Lambda.
            1 => pow2(-1074.0 + x * 60.0),
            // Near capacity: 1 - 2^-(0..60).
            2 => capacity * (1.0 - pow2(-x * 60.0)),
            // The largest f64 below capacity, and a few ulps under it.
            3 => {
                let below =
                    f64::from_bits(capacity.to_bits().saturating_sub(1 + (x * 64.0) as u64));
                below.max(0.0)
            }
            _ => capacity * x,
        };
        let eps = if g[2] < 0.5 { MIN_EPSILON } else { 1e-9 };
        (lambda, eps)
    }

    /// The input and PAP's work on it, if the input is valid (a refusal for a bad input does
    /// no search and is skipped; `Infeasible` and `NoConvergence` after a search count).
    fn run(&self) -> Option<(Vec<Cluster>, f64, f64, PapStats)> {
        let cs = self.clusters();
        let capacity: f64 = cs.iter().map(Cluster::capacity).sum();
        if !capacity.is_finite() {
            return None;
        }
        let (lambda, eps) = self.load(capacity);
        let (result, stats) = pap_with_stats::<N>(&cs, lambda, eps);
        match result {
            Ok(_) | Err(qosgate_kernel::allocate::PapError::NoConvergence) => {
                Some((cs, lambda, eps, stats))
            }
            Err(_) => None,
        }
    }
}

/// The costliest input found: clusters, `Lambda`, epsilon and its work.
struct Worst {
    cs: Vec<Cluster>,
    lambda: f64,
    eps: f64,
    stats: PapStats,
}

/// `starts` hill climbs of `steps` mutations each, over `n` clusters (or any count).
fn search(seed: u64, starts: u32, steps: u32, n: Option<usize>) -> (Worst, [u32; 4]) {
    let mut rng = Rng(seed);
    let mut best: Option<Worst> = None;
    // The largest of each count seen on any input (not necessarily one input).
    let mut most = [0u32; 4];
    for _ in 0..starts {
        let mut cur = Genome::random(&mut rng, n);
        let mut cur_cost = cur.run().map_or(0, |r| r.3.evaluations);
        for _ in 0..steps {
            let cand = cur.mutate(&mut rng, n.is_some());
            let Some((cs, lambda, eps, stats)) = cand.run() else {
                continue;
            };
            most[0] = most[0].max(stats.evaluations);
            most[1] = most[1].max(stats.bound_evaluations);
            most[2] = most[2].max(stats.iterations);
            most[3] = most[3].max(stats.prefix_evaluations);
            if best
                .as_ref()
                .is_none_or(|b| stats.evaluations > b.stats.evaluations)
            {
                best = Some(Worst {
                    cs,
                    lambda,
                    eps,
                    stats,
                });
            }
            if stats.evaluations >= cur_cost {
                cur = cand;
                cur_cost = stats.evaluations;
            }
        }
    }
    (best.expect("the search ran some valid input"), most)
}

/// The largest counts of a search, each against its proven bound.
fn assert_within_bounds(most: [u32; 4]) {
    assert!(most[0] <= MAX_EVALUATIONS, "{most:?}");
    assert!(most[1] <= MAX_BOUND_EVALUATIONS, "{most:?}");
    assert!(most[2] <= MAX_ITERATIONS, "{most:?}");
    assert!(most[3] <= 3, "{most:?}");
}

/// A short search, run with the other tests.
#[test]
fn a_short_search_stays_within_the_bound() {
    let (_, most) = search(2, 40, 100, None);
    assert_within_bounds(most);
    let (_, most) = search(3, 20, 100, Some(N));
    assert_within_bounds(most);
}

#[test]
#[ignore = "a search of seconds to minutes: run it with --release --ignored --nocapture"]
fn search_for_the_costliest_input() {
    let starts = std::env::var("PAP_SEARCH_STARTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400);
    let seed = std::env::var("PAP_SEARCH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let n = std::env::var("PAP_SEARCH_CLUSTERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|n| (1..=N).contains(n));
    let (worst, most) = search(seed, starts, 400, n);
    println!(
        "most evaluations {} (bound search {}, iterations {}, prefix {}) on one input: {:?}",
        worst.stats.evaluations,
        worst.stats.bound_evaluations,
        worst.stats.iterations,
        worst.stats.prefix_evaluations,
        worst.stats,
    );
    println!(
        "largest seen on any input: evaluations {}, bound search {}, iterations {}, prefix {}",
        most[0], most[1], most[2], most[3]
    );
    println!(
        "bounds: evaluations {MAX_EVALUATIONS}, bound search {MAX_BOUND_EVALUATIONS}, \
         iterations {MAX_ITERATIONS}, prefix 3"
    );
    println!("external rate {:e}, epsilon {:e}", worst.lambda, worst.eps);
    for c in &worst.cs {
        println!(
            "Cluster {{ theta: {:e}, omega: {:e}, local_rate: {:e}, tau: {:e}, mu: {:e} }},",
            c.theta, c.omega, c.local_rate, c.tau, c.mu
        );
    }
    assert_within_bounds(most);
}
