//! PAP: arbitrary floats (NaN, +-inf, zeros, subnormals, huge ratios) for every cluster field, the
//! external rate and epsilon never panic or hang; every error is the documented one for the input,
//! and every `Ok` allocation satisfies the guarantees of `allocate::pap`: rates finite, `>= 0`,
//! below capacity, zero outside the active set, summing to `Lambda` within `epsilon Lambda`;
//! active rates are E1's `lambda_hat_j(z)`, inactive clusters have `psi_j >= z`; Eq. 3 is defined.
//! On well-scaled inputs (every parameter within 1e-6..1e6, `rho <= 0.999`, load `<= 0.999` of
//! capacity, and 0 or `>= 1e-6` of it) the solver must converge. The baselines run on the same inputs.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use common::{Float, within};
use libfuzzer_sys::fuzz_target;
use qosgate_kernel::allocate::{
    Cluster, Input, MAX_EPSILON, MIN_EPSILON, PapError, biggest_cluster_first, least_rate_first,
    objective, pap, round_robin,
};
use qosgate_kernel::{Invalid, Problem};

const N: usize = 8;

#[derive(Arbitrary, Debug, Clone, Copy)]
struct FCluster {
    theta: Float,
    omega: Float,
    local_rate: Float,
    tau: Float,
    mu: Float,
    /// Build omega and mu from coefficients of variation instead (valid moments).
    from_cv: bool,
}

impl FCluster {
    fn get(self) -> Cluster {
        let (theta, tau) = (self.theta.get(), self.tau.get());
        if self.from_cv {
            let (a, b) = (self.omega.get(), self.mu.get());
            Cluster {
                theta,
                omega: theta * theta * (1.0 + a * a),
                local_rate: self.local_rate.get(),
                tau,
                mu: tau * tau * (1.0 + b * b),
            }
        } else {
            Cluster {
                theta,
                omega: self.omega.get(),
                local_rate: self.local_rate.get(),
                tau,
                mu: self.mu.get(),
            }
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Load {
    /// `Lambda` as given.
    Raw(Float),
    /// `Lambda = f * capacity`, with `f = k / 2^32`.
    Fraction(u32),
}

#[derive(Arbitrary, Debug)]
struct In {
    clusters: Vec<FCluster>,
    load: Load,
    epsilon: Float,
    speeds: Vec<Float>,
}

fn well_scaled(c: &Cluster) -> bool {
    let ok = |x: f64| x == 0.0 || within(x, 1e-6, 1e6);
    ok(c.theta)
        && c.theta > 0.0
        && ok(c.omega)
        && ok(c.local_rate)
        && ok(c.tau)
        && ok(c.mu)
        && c.rho() <= 0.999
}

fn run(input: In) {
    let cs: Vec<Cluster> = input.clusters.iter().take(N + 1).map(|c| c.get()).collect();
    let cap: f64 = cs.iter().map(Cluster::capacity).sum();
    let l = match input.load {
        Load::Raw(x) => x.get(),
        Load::Fraction(k) => f64::from(k) / 4_294_967_296.0 * cap,
    };
    let eps = input.epsilon.get();
    let r = pap::<N>(&cs, l, eps);
    match r {
        Ok(a) => {
            assert!(!cs.is_empty() && cs.len() <= N);
            assert!(l.is_finite() && l >= 0.0 && l < cap);
            assert!((MIN_EPSILON..=MAX_EPSILON).contains(&eps));
            assert_eq!(a.len(), cs.len());
            let z = a.z().expect("z");
            assert!(z.is_finite() && z > 0.0, "z = {z}");
            let sum: f64 = a.lambda_hat().iter().sum();
            let err = (sum - l).abs();
            assert!(
                err <= eps * l || err / l <= eps,
                "sum {sum} vs {l}, eps {eps}"
            );
            for (j, c) in cs.iter().enumerate() {
                c.check(j).expect("an Ok input passes its checks");
                let x = a.lambda_hat()[j];
                assert!(x.is_finite() && x >= 0.0, "rate {x}");
                assert!(
                    x <= c.capacity(),
                    "rate {x} above capacity {}",
                    c.capacity()
                );
                if a.active()[j] {
                    // z is psi_k + t rounded to f64 (the rates come from the exact offset t), so
                    // the rate lies between E1's rates at z's neighbours.
                    let (lo, hi) = (c.lambda_hat_at(z.next_down()), c.lambda_hat_at(z.next_up()));
                    let tol = 1e-6 * hi.max(l);
                    assert!(
                        lo - tol <= x && x <= hi + tol,
                        "cluster {j}: {x} outside E1's [{lo}, {hi}] around z = {z}"
                    );
                } else {
                    assert_eq!(x, 0.0);
                    assert!(c.psi() >= z * (1.0 - 1e-9), "inactive {j} below z");
                }
            }
            match objective(&cs, a.lambda_hat()) {
                Ok(t) => assert!(t.is_finite() && t >= 0.0),
                Err(PapError::OutOfRange { .. }) => {}
                // A rate within rounding of a capacity can make 1 - rho - theta x round to 0.
                Err(PapError::Unstable { cluster }) => {
                    let c = &cs[cluster];
                    let x = a.lambda_hat()[cluster];
                    assert!(x >= c.capacity() * (1.0 - 1e-9), "{c:?} at {x}");
                }
                Err(e) => panic!("objective of an Ok allocation: {e:?}"),
            }
        }
        Err(e) => {
            match e {
                PapError::Invalid(Invalid { input, problem }) => match (input, problem) {
                    (Input::Clusters, Problem::Empty) => assert!(cs.is_empty()),
                    (Input::Clusters, Problem::TooMany) => assert!(cs.len() > N),
                    (Input::ExternalRate, Problem::NotFinite) => assert!(!l.is_finite()),
                    (Input::ExternalRate, Problem::Negative) => assert!(l < 0.0),
                    (Input::Epsilon, Problem::NotFinite) => assert!(!eps.is_finite()),
                    (Input::Epsilon, Problem::OutOfRange) => {
                        assert!(!(MIN_EPSILON..=MAX_EPSILON).contains(&eps))
                    }
                    (
                        Input::Theta(_)
                        | Input::Omega(_)
                        | Input::LocalRate(_)
                        | Input::Tau(_)
                        | Input::Mu(_),
                        _,
                    ) => {
                        // A cluster's own error: the first failing cluster's check says the same.
                        let first = cs.iter().enumerate().find_map(|(j, c)| c.check(j).err());
                        assert_eq!(Some(e), first);
                    }
                    _ => panic!("pap never returns {e:?}"),
                },
                PapError::Infeasible => assert!(l >= cap || !cap.is_finite() || cap.is_nan()),
                PapError::NoConvergence => {
                    let load = l == 0.0 || (l >= 1e-6 * cap && l <= 0.999 * cap);
                    let scaled = cs.iter().all(well_scaled) && load;
                    assert!(!scaled, "no convergence on a well-scaled instance");
                }
                PapError::Unstable { .. } | PapError::AllSpeedsZero | PapError::Overflow => {
                    panic!("pap never returns {e:?}")
                }
                PapError::OmegaBelowThetaSquared { .. }
                | PapError::MuBelowTauSquared { .. }
                | PapError::Saturated { .. }
                | PapError::OutOfRange { .. } => {
                    // A cluster's own error: the first failing cluster's check says the same.
                    let first = cs.iter().enumerate().find_map(|(j, c)| c.check(j).err());
                    assert_eq!(Some(e), first);
                }
            }
        }
    }

    // Baselines: never panic; Ok results sum to Lambda (relative 1e-12; a subnormal Lambda / N
    // underflows, hence the absolute floor).
    let n = cs.len();
    let rates: Vec<f64> = cs.iter().map(|c| c.local_rate).collect();
    let speeds: Vec<f64> = input.speeds.iter().take(n).map(|s| s.get()).collect();
    for b in [
        round_robin::<N>(n, l),
        least_rate_first::<N>(&rates, l),
        biggest_cluster_first::<N>(&speeds, l),
    ]
    .into_iter()
    .flatten()
    {
        let t = b.total();
        assert!(b.lambda_hat().iter().all(|x| *x >= 0.0));
        if t.is_finite() && l.is_finite() {
            assert!(
                (t - l).abs() <= 1e-12 * l + 1e-300,
                "baseline total {t} vs {l}"
            );
        }
    }
}

fuzz_target!(|input: In| run(input));
