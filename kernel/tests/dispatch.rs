//! Property tests of the kernel's dispatch module (billiard sequence, RTDP, Bernoulli dispatch,
//! round robin;
//! salehi2012 Eq. 20 and Algorithm 2, javadi2012 Eq. 7, E5). The command
//! `qosgate sequence billiard|rtdp` is tested end to end in `tests/sequence.rs`.
//!
//! Bounds are checked after *every* decision, in two forms: E5's bound against the caller's
//! normalised probabilities `q_j` (what the issue asks for), and the tighter bound proved in
//! `kernel/src/dispatch.rs` against the effective probabilities `P'_j` (from the reciprocals the
//! kernel exposes). Sequences are also compared with reference implementations written here:
//! exact rational arithmetic for small integer weights (the exact path), and `u128` products of
//! the kernel's own reciprocals (the fixed-point path).

use proptest::prelude::*;
use proptest::test_runner::{RngAlgorithm, TestCaseError, TestRng};
use qosgate_kernel::dispatch::{
    Bernoulli, Billiard, DispatchError, Input, MIN_PROBABILITY, RoundRobin, Rtdp,
};
use qosgate_kernel::{Invalid, Problem};

/// Cluster capacity of the dispatchers under test.
const N: usize = 8;
/// Request-type capacity of the RTDP under test.
const T: usize = 4;
/// Slack for `f64` evaluation of the bounds (`n <= 10^5`: the rounding of `n P` is ~1e-11).
const EPS: f64 = 1e-9;

/// 256 cases per property, or `PROPTEST_CASES` for a deeper run.
fn cases() -> u32 {
    qosgate_testkit::proptest_cases(256)
}

fn normalised(p: &[f64]) -> Vec<f64> {
    let s: f64 = p.iter().sum();
    p.iter().map(|&x| x / s).collect()
}

/// `P'_j = (1 / inv_j) / sum_k (1 / inv_k)` from the kernel's reciprocals (0 where `P_j = 0`).
fn effective(inv: &[Option<u64>]) -> Vec<f64> {
    let h: f64 = inv.iter().flatten().map(|&i| 1.0 / i as f64).sum();
    inv.iter()
        .map(|i| i.map_or(0.0, |i| (1.0 / i as f64) / h))
        .collect()
}

/// The context of a bound check: probabilities, effective probabilities, fastest cluster.
struct Bounds {
    q: Vec<f64>,
    pe: Vec<f64>,
    fastest: usize,
}

impl Bounds {
    fn of(p: &[f64], inv: &[Option<u64>], fastest: usize) -> Self {
        Self {
            q: normalised(p),
            pe: effective(inv),
            fastest,
        }
    }

    /// E5 against `q` and the tight bound against `P'`, for counts `y` after `n` decisions.
    fn check(&self, y: &[u64], n: u64) -> Result<(), TestCaseError> {
        let big_n = self.q.len() as f64;
        let active = self.pe.iter().filter(|&&x| x > 0.0).count() as f64;
        let x_star = if self.pe[self.fastest] > 0.0 {
            1.0
        } else {
            0.0
        };
        for (j, &yj) in y.iter().enumerate() {
            let (q, pe) = (self.q[j], self.pe[j]);
            let x = if j == self.fastest { 1.0 } else { 0.0 };
            let d = yj as f64 - n as f64 * q;
            prop_assert!(
                -1.0 - (big_n - 1.0) * q - EPS <= d && d <= 1.0 + q + EPS,
                "E5 bound broken: cluster {j}, n {n}, Y {yj}, q {q}, Y - nq = {d}"
            );
            if pe == 0.0 {
                prop_assert_eq!(yj, 0, "cluster {} has P = 0 but was chosen", j);
                continue;
            }
            let d = yj as f64 - n as f64 * pe;
            let hi = 1.0 - x - (1.0 - x_star) * pe;
            let lo = -x - (active - 1.0 - x_star) * pe;
            prop_assert!(
                lo - EPS <= d && d <= hi + EPS,
                "tight bound broken: cluster {j}, n {n}, Y {yj}, P' {pe}: {lo} <= {d} <= {hi}"
            );
        }
        Ok(())
    }
}

/// Probability vectors: integer weights (the exact path), arbitrary floats (mostly the fixed-point
/// path), and zeros, 1 to `N` clusters, at least one of them positive. Set-up accepts them all
/// but for a ratio below `MIN_PROBABILITY` (an entry of `0.0..1.0` below about `1e-6` of the
/// largest: practically never), which the properties assume away with [`refusal`].
fn probabilities() -> impl Strategy<Value = Vec<f64>> {
    let positive = || {
        prop_oneof![
            3 => (1u32..=20).prop_map(f64::from),
            3 => 1e-4f64..1e3,
            1 => f64::MIN_POSITIVE..1.0,
        ]
    };
    let entry = prop_oneof![2 => Just(0.0), 7 => positive()];
    (
        prop::collection::vec(entry, 0..N),
        positive(),
        any::<prop::sample::Index>(),
    )
        .prop_map(|(mut p, x, at)| {
            p.insert(at.index(p.len() + 1), x);
            p
        })
}

/// The error set-up must give for `p` and `fastest`, written from the module's documentation
/// (checked in order), or `None` if `p` is a valid input. `Bernoulli::new` refuses the same but
/// has no fastest cluster: ask with `fastest = 0`.
fn refusal(p: &[f64], fastest: usize) -> Option<DispatchError> {
    let bad = |f: fn(&f64) -> bool| p.iter().position(f).map(|i| i as u16);
    let invalid = |input, problem| Some(DispatchError::Invalid(Invalid { input, problem }));
    if p.is_empty() {
        invalid(Input::Probabilities, Problem::Empty)
    } else if p.len() > N {
        invalid(Input::Probabilities, Problem::TooMany)
    } else if let Some(i) = bad(|x| !x.is_finite() || *x < 0.0) {
        let problem = if p[usize::from(i)].is_finite() {
            Problem::Negative
        } else {
            Problem::NotFinite
        };
        invalid(Input::Probability(i), problem)
    } else if p.iter().all(|&x| x == 0.0) {
        Some(DispatchError::AllProbabilitiesZero)
    } else {
        let max = p.iter().cloned().fold(0.0, f64::max);
        let sum: f64 = p.iter().map(|x| x / max).sum();
        match p
            .iter()
            .position(|&x| x > 0.0 && (x / max) / sum < MIN_PROBABILITY)
        {
            Some(i) => Some(DispatchError::ProbabilityTooSmall(i as u16)),
            None if fastest >= p.len() => invalid(Input::Fastest, Problem::OutOfRange),
            None => None,
        }
    }
}

/// A seeded generator for the deterministic sweeps (proptest's ChaCha: no other dependency).
fn rng(seed: u8) -> TestRng {
    TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32])
}

/// A uniform draw in `[0, 1)`: the top 53 bits of `g`'s next word.
fn unit(g: &mut TestRng) -> f64 {
    (g.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Small integer weights, at least one positive: the kernel must take its exact path.
fn weights() -> impl Strategy<Value = Vec<u64>> {
    prop::collection::vec(prop_oneof![1 => Just(0u64), 4 => 1u64..=20], 1..=N)
        .prop_filter("some weight positive", |w| w.iter().any(|&x| x > 0))
}

fn billiard(p: &[f64], fastest: usize) -> Result<Billiard<N>, DispatchError> {
    Billiard::new(p, fastest)
}

fn reciprocals(b: &Billiard<N>) -> Vec<Option<u64>> {
    (0..b.clusters()).map(|j| b.reciprocal(j)).collect()
}

/// Exact billiard over integer weights: `argmin (X_j + Y_j) / w_j` by `u128` cross products,
/// ties to the lowest index.
fn reference_exact(w: &[u64], fastest: usize, n: usize) -> Vec<usize> {
    let mut c: Vec<u64> = (0..w.len()).map(|j| u64::from(j == fastest)).collect();
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let mut best: Option<usize> = None;
        for j in (0..w.len()).filter(|&j| w[j] > 0) {
            best = match best {
                Some(b)
                    if u128::from(c[j]) * u128::from(w[b])
                        >= u128::from(c[b]) * u128::from(w[j]) =>
                {
                    Some(b)
                }
                _ => Some(j),
            };
        }
        let b = best.expect("a positive weight");
        c[b] += 1;
        out.push(b);
    }
    out
}

/// Billiard over the kernel's reciprocals: `argmin (X_j + Y_j) inv_j` in `u128`, ties lowest.
fn reference_inv(inv: &[Option<u64>], fastest: usize, n: usize) -> Vec<usize> {
    let mut c: Vec<u128> = (0..inv.len()).map(|j| u128::from(j == fastest)).collect();
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let b = (0..inv.len())
            .filter_map(|j| inv[j].map(|i| (c[j] * u128::from(i), j)))
            .min()
            .expect("a positive probability")
            .1;
        c[b] += 1;
        out.push(b);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Round robin: request `k` (from 0) goes to the `(k mod N')`-th cluster with `P_j > 0` in
    /// index order, so after `n` requests every such cluster has `floor(n / N')` or one more,
    /// and the others none.
    #[test]
    fn round_robin_cycles_over_the_clusters_with_load(p in probabilities(), n in 1usize..500) {
        prop_assume!(p.iter().any(|&x| x > 0.0));
        let mut rr = RoundRobin::<N>::new(&p).unwrap();
        let active: Vec<usize> = (0..p.len()).filter(|&j| p[j] > 0.0).collect();
        for k in 0..n {
            prop_assert_eq!(rr.dispatch(), active[k % active.len()]);
        }
    }

    /// E5: `-1 - (N-1) q_j <= Y_j(n) - n q_j <= 1 + q_j` after every decision, and the tighter
    /// proven bound against the effective probabilities; zero-probability clusters never chosen.
    #[test]
    fn billiard_counts_stay_within_the_e5_bound(p in probabilities(), f in 0usize..N, n in 1usize..3000) {
        let fastest = f % p.len();
        prop_assume!(refusal(&p, fastest).is_none());
        let mut b = billiard(&p, fastest).unwrap();
        let bounds = Bounds::of(&p, &reciprocals(&b), fastest);
        let mut y = vec![0u64; p.len()];
        for i in 1..=n as u64 {
            y[b.dispatch()] += 1;
            bounds.check(&y, i)?;
        }
    }

    /// With small integer weights the kernel's reciprocals are exact, and the sequence equals an
    /// exact rational billiard, exact ties (to the lowest index) included.
    #[test]
    fn billiard_with_integer_weights_equals_the_exact_rational_sequence(w in weights(), f in 0usize..N, n in 1usize..500) {
        let fastest = f % w.len();
        let p: Vec<f64> = w.iter().map(|&x| x as f64).collect();
        let mut b = billiard(&p, fastest).unwrap();
        prop_assert!(b.is_exact());
        let got: Vec<usize> = (0..n).map(|_| b.dispatch()).collect();
        prop_assert_eq!(got, reference_exact(&w, fastest, n));
    }

    /// On either path the sequence is the billiard of the kernel's own reciprocals, and those are
    /// within `q_j 2^-31` of the caller's probabilities.
    #[test]
    fn billiard_is_the_exact_sequence_of_its_effective_probabilities(p in probabilities(), f in 0usize..N, n in 1usize..500) {
        let fastest = f % p.len();
        prop_assume!(refusal(&p, fastest).is_none());
        let mut b = billiard(&p, fastest).unwrap();
        let inv = reciprocals(&b);
        let q = normalised(&p);
        for (j, pe) in effective(&inv).into_iter().enumerate() {
            prop_assert!((pe - q[j]).abs() <= q[j] * 2f64.powi(-31) + 1e-15, "cluster {}: P' {} vs q {}", j, pe, q[j]);
        }
        let got: Vec<usize> = (0..n).map(|_| b.dispatch()).collect();
        prop_assert_eq!(got, reference_inv(&inv, fastest, n));
    }

    /// The same input gives the same sequence, and a clone taken mid-way continues identically.
    #[test]
    fn billiard_and_rtdp_replay_deterministically(p in probabilities(), f in 0usize..N, n in 1usize..400, cut in 0usize..400) {
        let fastest = f % p.len();
        prop_assume!(refusal(&p, fastest).is_none());
        let mut a = billiard(&p, fastest).unwrap();
        let mut b = billiard(&p, fastest).unwrap();
        for _ in 0..cut.min(n) {
            prop_assert_eq!(a.dispatch(), b.dispatch());
        }
        let mut c = a.clone();
        for _ in cut.min(n)..n {
            let x = a.dispatch();
            prop_assert_eq!(x, b.dispatch());
            prop_assert_eq!(x, c.dispatch());
        }
        let mut r1 = Rtdp::<N, T>::new(&p, &[1.0, 2.0], fastest).unwrap();
        let mut r2 = r1.clone();
        for i in 0..n {
            prop_assert_eq!(r1.dispatch(i % 2), r2.dispatch(i % 2));
        }
    }

    /// RTDP: each type follows the billiard sequence of `P` on its own counter (shares never
    /// change the argmin), so E5 holds per type with `n` the type's own requests; zero-share and
    /// unknown types are refused without changing anything.
    #[test]
    fn rtdp_counts_stay_within_the_e5_bound_per_type(
        p in probabilities(),
        shares in prop::collection::vec(prop_oneof![1 => Just(0.0), 3 => 0.01f64..10.0], 1..=T),
        kinds in prop::collection::vec(0usize..=T, 1..1500),
        f in 0usize..N,
    ) {
        let fastest = f % p.len();
        prop_assume!(refusal(&p, fastest).is_none());
        let reference = billiard(&p, fastest).unwrap();
        let mut r = match Rtdp::<N, T>::new(&p, &shares, fastest) {
            Ok(r) => r,
            Err(e) => {
                prop_assert!(shares.iter().all(|&s| s == 0.0));
                prop_assert_eq!(e, DispatchError::AllSharesZero);
                return Ok(());
            }
        };
        let bounds = Bounds::of(&p, &reciprocals(&reference), fastest);
        let mut expected = reference.clone();
        let billiard_seq: Vec<usize> = (0..kinds.len()).map(|_| expected.dispatch()).collect();
        let mut y = vec![vec![0u64; p.len()]; shares.len()];
        let mut seen = vec![0usize; shares.len()];
        for &k in &kinds {
            let before = r.clone();
            match r.dispatch(k) {
                Ok(j) => {
                    prop_assert!(k < shares.len() && shares[k] > 0.0);
                    prop_assert_eq!(j, billiard_seq[seen[k]], "type {} request {}", k, seen[k]);
                    seen[k] += 1;
                    y[k][j] += 1;
                    bounds.check(&y[k], seen[k] as u64)?;
                }
                Err(e) => {
                    let want = if k >= shares.len() { DispatchError::UnknownType } else { DispatchError::ZeroShare };
                    prop_assert_eq!(e, want);
                    prop_assert!(k >= shares.len() || shares[k] == 0.0);
                    prop_assert_eq!(&r, &before);
                }
            }
        }
    }

    /// Bernoulli: the table covers all `2^32` draws, each cluster's width is within `2^-32` of
    /// `q_j` (zero for `P_j = 0`), and every draw, including each interval's ends, lands in a
    /// cluster of positive width.
    #[test]
    fn bernoulli_table_is_the_cumulative_of_p(p in probabilities(), draws in prop::collection::vec(any::<u32>(), 64)) {
        prop_assume!(refusal(&p, 0).is_none());
        let b = Bernoulli::<N>::new(&p).unwrap();
        let q = normalised(&p);
        let widths: Vec<u64> = (0..p.len()).map(|j| b.width(j)).collect();
        prop_assert_eq!(widths.iter().sum::<u64>(), 1u64 << 32);
        let mut lo = 0u64;
        for (j, &w) in widths.iter().enumerate() {
            prop_assert!((w as f64 / 2f64.powi(32) - q[j]).abs() <= 2f64.powi(-32) + 1e-12);
            prop_assert_eq!(w == 0, p[j] == 0.0, "cluster {} width {}", j, w);
            if w > 0 {
                prop_assert_eq!(b.pick(lo as u32), j);
                prop_assert_eq!(b.pick((lo + w - 1) as u32), j);
            }
            lo += w;
        }
        for d in draws {
            prop_assert!(p[b.pick(d)] > 0.0);
        }
    }

    /// Clusters with `P_j = 0` are never chosen by any dispatcher, wherever they sit.
    #[test]
    fn zero_probability_clusters_are_never_chosen(
        p in probabilities(),
        f in 0usize..N,
        draws in prop::collection::vec(any::<u32>(), 1000),
    ) {
        let fastest = f % p.len();
        prop_assume!(refusal(&p, fastest).is_none());
        let mut b = billiard(&p, fastest).unwrap();
        let mut r = Rtdp::<N, T>::new(&p, &[1.0], fastest).unwrap();
        let rnd = Bernoulli::<N>::new(&p).unwrap();
        for d in draws {
            prop_assert!(p[b.dispatch()] > 0.0);
            prop_assert!(p[r.dispatch(0).unwrap()] > 0.0);
            prop_assert!(p[rnd.pick(d)] > 0.0);
        }
    }

    /// Set-up refuses exactly the inputs the module doc lists, with the index at fault.
    #[test]
    fn bad_probabilities_get_the_documented_error(
        p in prop::collection::vec(prop_oneof![
            Just(f64::NAN), Just(f64::INFINITY), Just(f64::NEG_INFINITY), Just(-1.0), Just(-0.0),
            Just(0.0), Just(1e-300), Just(f64::MAX), Just(f64::MIN_POSITIVE), 0.0f64..1.0,
        ], 0..=N + 1),
        fastest in 0usize..=N + 1,
    ) {
        let got = Billiard::<N>::new(&p, fastest).map(|_| ());
        prop_assert_eq!(got, refusal(&p, fastest).map_or(Ok(()), Err));
        let got = Bernoulli::<N>::new(&p).map(|_| ());
        prop_assert_eq!(got, refusal(&p, 0).map_or(Ok(()), Err));
    }
}

/// Worked examples (also in the README): exact ties go to the lowest index.
#[test]
fn worked_examples_give_the_hand_computed_sequences() {
    let seq = |p: &[f64], fastest, n| {
        let mut b = billiard(p, fastest).unwrap();
        (0..n).map(|_| b.dispatch()).collect::<Vec<_>>()
    };
    // Keys X_j + Y_j over P_j: cluster 0 at 2, 4, 6, ...; 1 at 0, 3.33, 6.67, 10; 2 at 0, 5, 10.
    assert_eq!(seq(&[0.5, 0.3, 0.2], 0, 10), [1, 2, 0, 1, 0, 2, 0, 1, 0, 0]);
    // javadi2012's two-queue case (X_c = 1 for the cloud queue).
    assert_eq!(seq(&[0.25, 0.75], 1, 8), [0, 1, 1, 0, 1, 1, 1, 0]);
    assert_eq!(seq(&[0.0, 1.0, 0.0], 0, 3), [1, 1, 1]);
}

/// Worst deviations over a deterministic sweep (printed with `--nocapture`): how close the
/// sequence comes to the proven bound, the evidence that it cannot be tightened much.
#[test]
fn empirical_worst_deviation_is_within_the_proven_bound() {
    let mut g = rng(0x5E);
    let (mut worst_hi, mut worst_lo) = (f64::MIN, f64::MAX);
    // Smallest distance to the proven bound on each side, in requests, where that side is at
    // least one request away from zero.
    let (mut slack_hi, mut slack_lo) = (f64::MAX, f64::MAX);
    for case in 0..400 {
        let len = 2 + case % 7;
        let p: Vec<f64> = (0..len)
            .map(|_| match g.next_u64() % 4 {
                0 => (1 + g.next_u64() % 10) as f64,
                _ => 0.01 + unit(&mut g),
            })
            .collect();
        let fastest = (g.next_u64() % len as u64) as usize;
        let mut b = billiard(&p, fastest).unwrap();
        let pe = effective(&reciprocals(&b));
        let mut y = vec![0u64; len];
        for n in 1..=20_000u64 {
            y[b.dispatch()] += 1;
            for j in 0..len {
                let d = y[j] as f64 - n as f64 * pe[j];
                let x = if j == fastest { 1.0 } else { 0.0 };
                let hi = 1.0 - x;
                let lo = -x - (len as f64 - 2.0) * pe[j];
                assert!(lo - EPS <= d && d <= hi + EPS, "{p:?} j {j} n {n}: {d}");
                worst_hi = worst_hi.max(d);
                worst_lo = worst_lo.min(d);
                // Where the bound is at least one request (not the trivial 0 of some sides).
                if hi >= 1.0 {
                    slack_hi = slack_hi.min(hi - d);
                }
                if lo <= -1.0 {
                    slack_lo = slack_lo.min(d - lo);
                }
            }
        }
    }
    eprintln!(
        "billiard, 400 cases x 20,000 decisions, 2-8 clusters: Y - nP' in [{worst_lo:.4}, \
         {worst_hi:.4}]; closest approach to the proven bound: {slack_hi:.2e} (upper), \
         {slack_lo:.2e} (lower)"
    );
}

/// Max over clusters and over every prefix `n <= 100,000` of `|Y_j(n) - n q_j|`.
fn max_deviation(p: &[f64], mut next: impl FnMut() -> usize) -> f64 {
    let q = normalised(p);
    let mut y = vec![0u64; p.len()];
    let mut worst = 0.0f64;
    for n in 1..=100_000u64 {
        y[next()] += 1;
        for j in 0..p.len() {
            worst = worst.max((y[j] as f64 - n as f64 * q[j]).abs());
        }
    }
    worst
}

const BALANCE_CASES: [&[f64]; 4] = [
    &[0.5, 0.3, 0.2],
    &[0.25, 0.25, 0.25, 0.25],
    &[0.4, 0.0, 0.3, 0.2, 0.1],
    &[3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0],
];

/// The point of the billiard: over 100,000 requests its worst imbalance stays within E5's bound
/// (below 2 here), while Bernoulli dispatch's wanders like `sqrt(n)` (its standard deviation at
/// the end is 70 to 158 requests for the largest cluster of each case). Asserted: Bernoulli's is
/// more than 20 times the billiard's, for 3 seeds per case.
#[test]
fn billiard_is_far_better_balanced_than_bernoulli() {
    for p in BALANCE_CASES {
        let mut b = billiard(p, 0).unwrap();
        let bil = max_deviation(p, || b.dispatch());
        let q = normalised(p);
        let n7 = (0..p.len())
            .map(|j| (1.0 + q[j]).max(1.0 + (p.len() as f64 - 1.0) * q[j]))
            .fold(0.0, f64::max);
        assert!(bil <= n7 + EPS && bil < 2.0, "{p:?}: billiard {bil}");
        for seed in [1u8, 2, 3] {
            let rnd = Bernoulli::<N>::new(p).unwrap();
            let mut g = rng(seed);
            let ber = max_deviation(p, || rnd.pick(g.next_u32()));
            eprintln!("{p:?} seed {seed}: max |Y - nq| billiard {bil:.3}, Bernoulli {ber:.1}");
            assert!(
                ber > 20.0 * bil,
                "{p:?} seed {seed}: Bernoulli {ber} vs billiard {bil}"
            );
        }
    }
}

/// Bernoulli dispatch converges to `P`: over 100,000 draws of a seeded generator, every
/// cluster's count is within 4 standard deviations of the binomial (`n p (1 - p)`, with `p` the
/// effective width over `2^32`) plus one.
#[test]
fn bernoulli_frequencies_converge_to_p() {
    const DRAWS: u64 = 100_000;
    for p in BALANCE_CASES {
        let rnd = Bernoulli::<N>::new(p).unwrap();
        for seed in [11u8, 12, 13] {
            let mut g = rng(seed);
            let mut y = vec![0u64; p.len()];
            for _ in 0..DRAWS {
                y[rnd.pick(g.next_u32())] += 1;
            }
            for (j, &yj) in y.iter().enumerate() {
                let pj = rnd.width(j) as f64 / 2f64.powi(32);
                let mean = DRAWS as f64 * pj;
                let sd = (DRAWS as f64 * pj * (1.0 - pj)).sqrt();
                assert!(
                    (yj as f64 - mean).abs() <= 4.0 * sd + 1.0,
                    "{p:?} seed {seed} cluster {j}: {yj} draws, expected {mean:.0} +- {sd:.0}"
                );
            }
        }
    }
}

/// `size_of` of the public structures (printed with `--nocapture`); no heap anywhere.
#[test]
fn dispatcher_sizes_are_fixed_and_small() {
    use std::mem::size_of;
    let sizes = [
        ("Billiard<3>", size_of::<Billiard<3>>()),
        ("Billiard<8>", size_of::<Billiard<8>>()),
        ("Billiard<64>", size_of::<Billiard<64>>()),
        ("Rtdp<8, 4>", size_of::<Rtdp<8, 4>>()),
        ("Rtdp<64, 4>", size_of::<Rtdp<64, 4>>()),
        ("Bernoulli<8>", size_of::<Bernoulli<8>>()),
        ("Bernoulli<64>", size_of::<Bernoulli<64>>()),
        ("DispatchError", size_of::<DispatchError>()),
    ];
    for (name, bytes) in sizes {
        eprintln!("{name}: {bytes} bytes");
    }
    assert!(size_of::<DispatchError>() <= 8);
    assert!(size_of::<Billiard<8>>() <= 18 * 8 + 16);
    assert!(size_of::<Bernoulli<8>>() <= 4 * 8 + 4);
}
