//! Dispatch: arbitrary probability vectors (NaN, +-inf, -0, 0, subnormal, huge, tiny ratios),
//! arbitrary fastest index, shares and request types, and long decision runs of `Billiard`,
//! `Rtdp` and `Bernoulli`. Checks: set-up returns a value or the documented error (and errors
//! only when the input is bad); every decision picks a cluster with `P_j > 0`; the E5 bound
//! `-1 - (N-1) q_j <= Y_j(n) - n q_j <= 1 + q_j` holds after every billiard decision and per type
//! under RTDP; RTDP follows the billiard sequence per type; refused RTDP requests change nothing;
//! Bernoulli widths sum to `2^32` and are zero exactly for `P_j = 0`.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use common::Num;
use libfuzzer_sys::fuzz_target;
use qosgate_kernel::dispatch::{self, Bernoulli, Billiard, DispatchError, MIN_PROBABILITY, Rtdp};
use qosgate_kernel::{Invalid, Problem};

const N: usize = 8;
const T: usize = 4;
/// Upper bound on decisions per input (keeps executions fast).
const BUDGET: u32 = 1 << 16;
/// `f64` slack of the bound check (`n <= 2^16`).
const EPS: f64 = 1e-8;

/// A probability that reaches the edges often.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Prob {
    Zero,
    NegZero,
    One,
    Nan,
    Inf,
    NegInf,
    MinPositive,
    Subnormal,
    Max,
    /// `2^-(k % 64)`: tiny ratios, around the 2^-30 floor.
    InvPow2(u8),
    /// A small integer weight (the exact rational path).
    Int(u8),
    Raw(f64),
    /// An arbitrary integer, as f64.
    Wide(Num),
}

impl Prob {
    fn get(self) -> f64 {
        match self {
            Prob::Zero => 0.0,
            Prob::NegZero => -0.0,
            Prob::One => 1.0,
            Prob::Nan => f64::NAN,
            Prob::Inf => f64::INFINITY,
            Prob::NegInf => f64::NEG_INFINITY,
            Prob::MinPositive => f64::MIN_POSITIVE,
            Prob::Subnormal => 5e-324,
            Prob::Max => f64::MAX,
            Prob::InvPow2(k) => 2f64.powi(-i32::from(k % 64)),
            Prob::Int(k) => f64::from(k),
            Prob::Raw(x) => x,
            Prob::Wide(n) => n.get() as f64,
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Input {
    p: Vec<Prob>,
    fastest: u16,
    shares: Vec<Prob>,
    /// Request types in arrival order (may be unknown or zero-share).
    kinds: Vec<u8>,
    /// Billiard decisions: `steps * 64`, within the budget.
    steps: u16,
    draws: Vec<u32>,
}

/// The error set-up must return for `p` (before the fastest check), or `None` if `p` is good.
fn expected_error(p: &[f64]) -> Option<DispatchError> {
    if p.is_empty() {
        return invalid(dispatch::Input::Probabilities, Problem::Empty);
    }
    if p.len() > N {
        return invalid(dispatch::Input::Probabilities, Problem::TooMany);
    }
    if let Some(i) = p.iter().position(|x| !x.is_finite() || *x < 0.0) {
        let problem = if p[i].is_finite() {
            Problem::Negative
        } else {
            Problem::NotFinite
        };
        return invalid(dispatch::Input::Probability(i as u16), problem);
    }
    let max = p.iter().cloned().fold(0.0, f64::max);
    if max == 0.0 {
        return Some(DispatchError::AllProbabilitiesZero);
    }
    let sum: f64 = p.iter().map(|x| x / max).sum();
    p.iter()
        .position(|&x| x > 0.0 && (x / max) / sum < MIN_PROBABILITY)
        .map(|i| DispatchError::ProbabilityTooSmall(i as u16))
}

/// Set-up's refusal of `input` for `problem`.
fn invalid(input: dispatch::Input, problem: Problem) -> Option<DispatchError> {
    Some(DispatchError::Invalid(Invalid { input, problem }))
}

/// E5 for counts `y` after `n` decisions, against `q` (the caller's normalised probabilities).
fn check_n7(y: &[u64], n: u64, q: &[f64]) {
    let big_n = q.len() as f64;
    for (j, (&yj, &qj)) in y.iter().zip(q).enumerate() {
        let d = yj as f64 - n as f64 * qj;
        assert!(
            -1.0 - (big_n - 1.0) * qj - EPS <= d && d <= 1.0 + qj + EPS,
            "E5 broken: cluster {j} n {n} Y {yj} q {qj} q-vector {q:?}"
        );
    }
}

fuzz_target!(|input: Input| {
    let p: Vec<f64> = input.p.iter().map(|x| x.get()).collect();
    let fastest = usize::from(input.fastest) % (p.len() + 2);
    let want = expected_error(&p).or_else(|| {
        if fastest >= p.len() {
            invalid(dispatch::Input::Fastest, Problem::OutOfRange)
        } else {
            None
        }
    });
    let billiard = Billiard::<N>::new(&p, fastest);
    assert_eq!(
        billiard.as_ref().err().copied(),
        want,
        "p {p:?} fastest {fastest}"
    );
    let Ok(mut b) = billiard else {
        assert_eq!(
            Bernoulli::<N>::new(&p).err().is_some(),
            expected_error(&p).is_some()
        );
        return;
    };
    let max = p.iter().cloned().fold(0.0, f64::max);
    let q: Vec<f64> = {
        let s: f64 = p.iter().map(|x| x / max).sum();
        p.iter().map(|x| (x / max) / s).collect()
    };

    // Billiard: a long run, E5 after every decision, never a zero cluster.
    let steps = (u32::from(input.steps) * 64).min(BUDGET);
    let mut seq = Vec::with_capacity(steps as usize);
    let mut y = vec![0u64; p.len()];
    for n in 1..=u64::from(steps) {
        let j = b.dispatch();
        assert!(p[j] > 0.0, "zero cluster {j} chosen, p {p:?}");
        y[j] += 1;
        seq.push(j);
        check_n7(&y, n, &q);
    }

    // RTDP: per-type E5 and the billiard sequence per type.
    let shares: Vec<f64> = input.shares.iter().map(|x| x.get()).collect();
    if let Ok(mut r) = Rtdp::<N, T>::new(&p, &shares, fastest) {
        // `seq` extended on demand: a clone of the billiard after its `steps` decisions.
        let mut reference = b.clone();
        let mut per_type: Vec<(u64, Vec<u64>)> = vec![(0, vec![0; p.len()]); shares.len()];
        for &k in input.kinds.iter().take(BUDGET as usize) {
            let k = usize::from(k) % (T + 1);
            let before = r.clone();
            match r.dispatch(k) {
                Ok(j) => {
                    assert!(k < shares.len() && shares[k] > 0.0);
                    let (n, y) = &mut per_type[k];
                    let expect = if let Some(&s) = seq.get(*n as usize) {
                        s
                    } else {
                        // Extend the reference sequence on demand.
                        while seq.len() <= *n as usize {
                            seq.push(reference.dispatch());
                        }
                        seq[*n as usize]
                    };
                    assert_eq!(j, expect, "type {k} request {n}");
                    *n += 1;
                    y[j] += 1;
                    check_n7(y, *n, &q);
                }
                Err(e) => {
                    let want = if k >= shares.len() {
                        DispatchError::UnknownType
                    } else {
                        DispatchError::ZeroShare
                    };
                    assert_eq!(e, want);
                    assert_eq!(r, before);
                }
            }
        }
    }

    // Bernoulli: widths cover 2^32, zero exactly for P = 0, draws land on positive clusters.
    let rnd = Bernoulli::<N>::new(&p).expect("valid p");
    let total: u64 = (0..p.len()).map(|j| rnd.width(j)).sum();
    assert_eq!(total, 1 << 32);
    for (j, &pj) in p.iter().enumerate() {
        assert_eq!(rnd.width(j) == 0, pj == 0.0, "cluster {j} p {p:?}");
    }
    for &d in input.draws.iter().take(4096) {
        assert!(p[rnd.pick(d)] > 0.0);
    }
});
