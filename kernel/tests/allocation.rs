//! Property tests of the gateway solvers: PAP workload allocation (salehi2012 Algorithm 1,
//! E1-E3) and the cost/failure-aware broker (javadi2012 Eq. 5, E15). The command
//! `qosgate solve pap|broker` is tested end to end in `tests/solve.rs`.
//!
//! Instances are feasible by construction: each cluster's local load `rho_j` is drawn in
//! `[0, 0.95]`, moments satisfy `omega >= theta^2` and `mu >= tau^2` through a coefficient of
//! variation, and the external rate is a fraction in `(0, 0.98)` of the total external capacity
//! `sum (1 - rho_j) / theta_j`. Broker instances have `lambda` a fraction of `sum mu_i` and
//! `lambda^2 sigma_I^2 >= 1` (so every `eta_i > 0`).
//!
//! Optimality is checked without trusting the solver's algebra: no feasible transfer of load
//! between two clusters (or probability between two providers), of several sizes and in both
//! directions, lowers the objective (Eq. 3, resp. Eq. 1) by more than a relative `1e-12`
//! (rounding of the objective itself). The objectives are convex, so this is the optimality
//! condition; the planted-bug checks in the report show these tests fail on the printed formulas.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use qosgate_kernel::allocate::{
    self, Allocation, Cluster, Input, MAX_BOUND_EVALUATIONS, MAX_EPSILON, MAX_EVALUATIONS,
    MAX_ITERATIONS, MIN_EPSILON, PapError, biggest_cluster_first, least_rate_first,
    mean_service_time, pap, pap_with_stats, round_robin, second_moment,
};
use qosgate_kernel::broker::{
    self, BrokerError, ModelField, Provider, ReliableCloud, TransientCluster, no_redirection, route,
};
use qosgate_kernel::{Invalid, Problem};
use qosgate_testkit::broker::{E17_CLUSTER, drop_and_resolve};
use qosgate_testkit::transfer::no_pairwise_transfer_lowers;

const N: usize = 16;

/// The transfers tried between two clusters or providers, as fractions of the most that fits.
const FRACTIONS: [f64; 4] = [1e-3, 0.1, 0.5, 0.999];

/// PAP's refusal of `input` for `problem`.
fn pap_invalid(input: Input, problem: Problem) -> PapError {
    PapError::Invalid(Invalid { input, problem })
}

/// The broker's refusal of `input` for `problem`.
fn broker_invalid(input: broker::Input, problem: Problem) -> BrokerError {
    BrokerError::Invalid(Invalid { input, problem })
}

/// 1024 cases per property, or `PROPTEST_CASES` for a deeper run.
fn cases() -> u32 {
    qosgate_testkit::proptest_cases(1024)
}

/// A log-uniform draw in `[lo, hi]`.
fn log_uniform(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo.ln()..=hi.ln()).prop_map(f64::exp)
}

fn cluster() -> impl Strategy<Value = Cluster> {
    (
        log_uniform(0.05, 20.0),
        0.0..2.0f64,
        log_uniform(0.05, 20.0),
        0.0..0.95f64,
        0.0..2.0f64,
    )
        .prop_map(|(theta, cv_ext, tau, rho, cv_loc)| Cluster {
            theta,
            omega: theta * theta * (1.0 + cv_ext * cv_ext),
            local_rate: rho / tau,
            tau,
            mu: tau * tau * (1.0 + cv_loc * cv_loc),
        })
}

fn capacity(cs: &[Cluster]) -> f64 {
    cs.iter().map(Cluster::capacity).sum()
}

/// Clusters, `Lambda` (a fraction of capacity, sometimes 0), epsilon.
fn pap_instance() -> impl Strategy<Value = (Vec<Cluster>, f64, f64)> {
    pap_instance_loaded(0.0)
}

/// As [`pap_instance`], with `Lambda` at least `min_load` of capacity.
fn pap_instance_loaded(min_load: f64) -> impl Strategy<Value = (Vec<Cluster>, f64, f64)> {
    (
        prop::collection::vec(cluster(), 1..=8),
        prop_oneof![
            1 => Just(min_load),
            8 => (min_load + 1e-3)..0.98f64,
            1 => 0.9..0.999f64
        ],
        prop_oneof![Just(1e-9), Just(MIN_EPSILON), log_uniform(1e-12, 1e-3)],
    )
        .prop_map(|(cs, f, eps)| {
            let l = f * capacity(&cs);
            (cs, l, eps)
        })
}

fn solve(cs: &[Cluster], l: f64, eps: f64) -> Allocation<N> {
    pap::<N>(cs, l, eps).unwrap_or_else(|e| panic!("{e} on feasible {cs:?}, Lambda {l}"))
}

/// Eq. 3 as the solution's own `Lambda = sum lambda_hat` sees it.
fn t(cs: &[Cluster], x: &[f64]) -> f64 {
    allocate::objective(cs, x).expect("a stable allocation has an objective")
}

fn provider() -> impl Strategy<Value = Provider> {
    (
        log_uniform(0.01, 100.0),
        0.0..4.0f64,
        log_uniform(0.01, 100.0),
    )
        .prop_map(|(mu, cs2, cost)| Provider { mu, cs2, cost })
}

/// Providers, lambda, sigma_I^2 (with `lambda^2 sigma_I^2 = ca2 >= 1`).
fn broker_instance() -> impl Strategy<Value = (Vec<Provider>, f64, f64)> {
    (
        prop::collection::vec(provider(), 1..=8),
        prop_oneof![4 => 0.01..0.95f64, 1 => 0.95..0.999f64],
        1.0..10.0f64,
    )
        .prop_map(|(ps, f, ca2)| {
            let l = f * ps.iter().map(|p| p.mu).sum::<f64>();
            (ps, l, ca2 / (l * l))
        })
}

fn eq1(l: f64, v: f64, ps: &[Provider], p: &[f64]) -> f64 {
    broker::objective(l, v, ps, p).expect("a stable routing has an objective")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn pap_rates_are_nonnegative_sum_to_lambda_and_vanish_outside_the_active_set(
        (cs, l, eps) in pap_instance()
    ) {
        let a = solve(&cs, l, eps);
        prop_assert_eq!(a.len(), cs.len());
        let sum: f64 = a.lambda_hat().iter().sum();
        prop_assert!((sum - l).abs() <= eps * l, "sum {} vs {} (eps {})", sum, l, eps);
        for (j, (&x, &act)) in a.lambda_hat().iter().zip(a.active()).enumerate() {
            prop_assert!(x >= 0.0 && x.is_finite());
            prop_assert!(x < cs[j].capacity(), "cluster {} over capacity", j);
            if !act {
                prop_assert_eq!(x, 0.0);
            }
        }
        prop_assert!(a.active().iter().any(|&b| b));
    }

    #[test]
    fn pap_equalises_marginal_costs_and_leaves_out_only_clusters_dearer_than_z(
        (cs, l, eps) in pap_instance()
    ) {
        let a = solve(&cs, l, eps);
        let z = a.z().expect("PAP reports z");
        for (j, c) in cs.iter().enumerate() {
            let x = a.lambda_hat()[j];
            if a.active()[j] {
                // The rate is E1's lambda_hat_j(z) ...
                let want = c.lambda_hat_at(z);
                prop_assert!((x - want).abs() <= 1e-9 * want.max(l).max(1e-300), "{} vs {}", x, want);
                // ... at which the marginal cost is z (up to rounding of the closed form).
                if x > 1e-6 * l {
                    let m = c.marginal_cost(x).unwrap();
                    prop_assert!((m - z).abs() <= 1e-6 * z, "cluster {}: marginal {} vs z {}", j, m, z);
                }
            } else {
                prop_assert!(c.psi() >= z * (1.0 - 1e-12), "inactive {} has psi {} < z {}", j, c.psi(), z);
            }
        }
    }

    #[test]
    fn no_pairwise_transfer_of_pap_load_lowers_eq3((cs, l, eps) in pap_instance_loaded(1e-6)) {
        let a = solve(&cs, l, eps);
        let capacity: Vec<f64> = cs.iter().map(Cluster::capacity).collect();
        no_pairwise_transfer_lowers(a.lambda_hat(), &capacity, &FRACTIONS, 1e-12, |y| Some(t(&cs, y)))
            .map_err(TestCaseError::fail)?;
    }

    #[test]
    fn pap_is_never_worse_than_round_robin_lrf_or_bcf(
        (cs, l, _eps) in pap_instance_loaded(1e-6),
        speeds in prop::collection::vec(log_uniform(1.0, 1e4), 8),
    ) {
        let best = t(&cs, solve(&cs, l, 1e-12).lambda_hat());
        let rates: Vec<f64> = cs.iter().map(|c| c.local_rate).collect();
        for base in [
            round_robin::<N>(cs.len(), l).unwrap(),
            least_rate_first::<N>(&rates, l).unwrap(),
            biggest_cluster_first::<N>(&speeds[..cs.len()], l).unwrap(),
        ] {
            prop_assert!((base.total() - l).abs() <= 1e-12 * l);
            // A baseline that overloads a cluster (a load on it with no slack `1 - rho_j -
            // theta_j x_j` left) has no Eq. 3 and is refused naming the first such cluster;
            // otherwise PAP wins.
            let overloaded = cs.iter().zip(base.lambda_hat()).position(|(c, &x)| {
                x > 0.0 && 1.0 - c.rho() - c.theta * x <= 0.0
            });
            match (allocate::objective(&cs, base.lambda_hat()), overloaded) {
                (Ok(other), None) => {
                    prop_assert!(best <= other * (1.0 + 1e-9), "PAP {} > baseline {}", best, other);
                }
                (got, Some(cluster)) => prop_assert_eq!(got, Err(PapError::Unstable { cluster })),
                (got, None) => prop_assert!(false, "a stable baseline has no Eq. 3: {:?}", got),
            }
        }
    }

    /// Changing the time unit by `s` (theta, tau times `s`; omega, mu times `s^2`; local rates and
    /// `Lambda` divided by `s`) divides every rate by `s`, multiplies `z` by `s`, and keeps the
    /// active set and the shares `lambda_hat_j / Lambda`. (Scaling service times alone changes
    /// `rho_j` and is not an invariance.)
    #[test]
    fn pap_shares_do_not_depend_on_the_time_unit(
        (cs, l, _eps) in pap_instance(),
        s in log_uniform(1e-3, 1e3),
    ) {
        let a = solve(&cs, l, 1e-12);
        let scaled: Vec<Cluster> = cs.iter().map(|c| Cluster {
            theta: c.theta * s,
            omega: c.omega * s * s,
            local_rate: c.local_rate / s,
            tau: c.tau * s,
            mu: c.mu * s * s,
        }).collect();
        let b = solve(&scaled, l / s, 1e-12);
        prop_assert_eq!(a.active(), b.active());
        for (x, y) in a.lambda_hat().iter().zip(b.lambda_hat()) {
            prop_assert!((x - y * s).abs() <= 1e-8 * l, "{} vs {}", x, y * s);
        }
        let (za, zb) = (a.z().unwrap(), b.z().unwrap());
        prop_assert!((za * s - zb).abs() <= 1e-6 * zb, "{} vs {}", za * s, zb);
    }

    #[test]
    fn pap_does_not_depend_on_the_order_of_clusters((cs, l, _eps) in pap_instance()) {
        let a = solve(&cs, l, 1e-12);
        let rev: Vec<Cluster> = cs.iter().rev().copied().collect();
        let b = solve(&rev, l, 1e-12);
        let n = cs.len();
        for j in 0..n {
            let (x, y) = (a.lambda_hat()[j], b.lambda_hat()[n - 1 - j]);
            prop_assert!((x - y).abs() <= 1e-8 * l.max(1e-300), "{} vs {}", x, y);
        }
    }

    /// Each precondition of E2, broken in one cluster of a feasible instance, gives its own error
    /// naming that cluster.
    #[test]
    fn each_broken_pap_precondition_has_its_typed_error(
        (cs, l, eps) in pap_instance(),
        pick in any::<prop::sample::Index>(),
        how in 0..9usize,
    ) {
        let j = pick.index(cs.len());
        let mut bad = cs.clone();
        let c = &mut bad[j];
        let want = match how {
            0 => { c.theta = f64::NAN; pap_invalid(Input::Theta(j), Problem::NotFinite) }
            1 => { c.omega = f64::INFINITY; pap_invalid(Input::Omega(j), Problem::NotFinite) }
            2 => { c.local_rate = -1.0; pap_invalid(Input::LocalRate(j), Problem::Negative) }
            3 => { c.mu = -0.0 - 1e-300; pap_invalid(Input::Mu(j), Problem::Negative) }
            4 => { c.theta = 0.0; c.omega = 1.0; pap_invalid(Input::Theta(j), Problem::NotPositive) }
            5 => { c.omega = c.theta * c.theta * 0.999; PapError::OmegaBelowThetaSquared { cluster: j } }
            6 => { c.mu = c.tau * c.tau * 0.999; PapError::MuBelowTauSquared { cluster: j } }
            7 => { c.local_rate = 1.0; c.tau = 1.0; c.mu = 1.5; PapError::Saturated { cluster: j } }
            _ => { c.local_rate = 2.0 / c.tau; PapError::Saturated { cluster: j } }
        };
        prop_assert_eq!(pap::<N>(&bad, l, eps), Err(want));
    }

    /// The work of a call stays within the bounds the module docs prove (`kernel/tests/pap_work.rs`
    /// searches for the costliest input), and counting it changes nothing.
    #[test]
    fn pap_work_stays_within_its_stated_bound(
        (cs, l, eps) in pap_instance(),
        near in prop_oneof![Just(None), (1u64..1 << 20).prop_map(Some)],
    ) {
        // Also at a few ulps under capacity, where the upper bound is far above psi_N.
        let l = near.map_or(l, |ulps| f64::from_bits(capacity(&cs).to_bits() - ulps));
        let (got, stats) = pap_with_stats::<N>(&cs, l, eps);
        prop_assert_eq!(got, pap::<N>(&cs, l, eps));
        prop_assert!(stats.evaluations <= MAX_EVALUATIONS, "{:?}", stats);
        prop_assert!(stats.bound_evaluations <= MAX_BOUND_EVALUATIONS, "{:?}", stats);
        prop_assert!(stats.iterations <= MAX_ITERATIONS, "{:?}", stats);
        prop_assert!(stats.prefix_evaluations <= cs.len().next_power_of_two().ilog2(), "{:?}", stats);
    }

    #[test]
    fn pap_refuses_infeasible_external_load((cs, _l, eps) in pap_instance(), f in 1.0..3.0f64) {
        prop_assert_eq!(pap::<N>(&cs, f * capacity(&cs), eps), Err(PapError::Infeasible));
    }

    #[test]
    fn broker_routing_is_a_stable_probability_vector((ps, l, v) in broker_instance()) {
        let r = route::<N>(l, v, &ps).unwrap();
        let sum: f64 = r.p().iter().sum();
        prop_assert!((sum - 1.0).abs() <= 1e-12, "sum {}", sum);
        for (i, &p) in r.p().iter().enumerate() {
            prop_assert!((0.0..=1.0).contains(&p));
            prop_assert!(l * p < ps[i].mu, "provider {} overloaded", i);
        }
    }

    #[test]
    fn broker_equals_e15_drop_and_resolve((ps, l, v) in broker_instance()) {
        let r = route::<N>(l, v, &ps).unwrap();
        let want = drop_and_resolve(l, v, &ps);
        for (i, (&p, &q)) in r.p().iter().zip(&want).enumerate() {
            prop_assert!((p - q).abs() <= 1e-9, "provider {}: {} vs {}", i, p, q);
        }
    }

    #[test]
    fn no_pairwise_shift_of_probability_lowers_eq1((ps, l, v) in broker_instance()) {
        let r = route::<N>(l, v, &ps).unwrap();
        let capacity: Vec<f64> = ps.iter().map(|p| p.mu / l).collect();
        no_pairwise_transfer_lowers(r.p(), &capacity, &FRACTIONS, 1e-12, |q| Some(eq1(l, v, &ps, q)))
            .map_err(TestCaseError::fail)?;
    }

    /// Changing the time unit by `s` (`mu`, `lambda` divided by `s`, `sigma_I^2` times `s^2`,
    /// `C_S^2` unchanged) and every cost by `k` leaves `P` unchanged.
    #[test]
    fn broker_routing_does_not_depend_on_time_unit_or_currency(
        (ps, l, v) in broker_instance(),
        s in log_uniform(1e-3, 1e3),
        k in log_uniform(1e-3, 1e3),
    ) {
        let a = route::<N>(l, v, &ps).unwrap();
        let scaled: Vec<Provider> = ps.iter().map(|p| Provider {
            mu: p.mu / s, cs2: p.cs2, cost: p.cost * k,
        }).collect();
        let b = route::<N>(l / s, v * s * s, &scaled).unwrap();
        for (x, y) in a.p().iter().zip(b.p()) {
            prop_assert!((x - y).abs() <= 1e-9, "{} vs {}", x, y);
        }
    }

    #[test]
    fn each_broken_broker_precondition_has_its_typed_error(
        (ps, l, v) in broker_instance(),
        pick in any::<prop::sample::Index>(),
        how in 0..8usize,
    ) {
        let i = pick.index(ps.len());
        let mut bad = ps.clone();
        let (mut l2, mut v2) = (l, v);
        let want = match how {
            0 => { bad[i].mu = f64::NAN; broker_invalid(broker::Input::Mu(i), Problem::NotFinite) }
            1 => { bad[i].mu = 0.0; broker_invalid(broker::Input::Mu(i), Problem::NotPositive) }
            2 => { bad[i].cs2 = -0.5; broker_invalid(broker::Input::Cs2(i), Problem::Negative) }
            3 => { bad[i].cost = 0.0; broker_invalid(broker::Input::Cost(i), Problem::NotPositive) }
            4 => { l2 = 0.0; broker_invalid(broker::Input::ArrivalRate, Problem::NotPositive) }
            5 => { v2 = f64::NEG_INFINITY; broker_invalid(broker::Input::ArrivalVariance, Problem::NotFinite) }
            6 => { l2 = ps.iter().map(|p| p.mu).sum::<f64>() * 1.01; BrokerError::Overload }
            _ => {
                // Deterministic arrivals (sigma_I = 0) at a provider 10x faster than the load:
                // eta = 1 + cs2 - mu / lambda < 0.
                v2 = 0.0;
                bad[i].mu = 10.0 * l * (2.0 + bad[i].cs2);
                let first = bad.iter().position(|p| 1.0 + p.cs2 - p.mu / l <= 0.0);
                prop_assert!(first.is_some_and(|f| f <= i));
                BrokerError::EtaNotPositive { provider: first.unwrap() }
            }
        };
        prop_assert_eq!(route::<N>(l2, v2, &bad), Err(want));
    }
}

#[test]
fn e1_closed_form_checks_out_numerically_on_the_salehi2012_clusters() {
    // salehi2012 Sec. 5.2: duration 420 s, 5 VMs, speeds 64x2000, 128x3000, 256x2100 MIPS,
    // alpha = 0.5, beta = 0.1, local rate 0.12 per cluster, Eq. 16-19 as printed.
    let speeds = [64.0 * 2000.0, 128.0 * 3000.0, 256.0 * 2100.0];
    let cs: Vec<Cluster> = speeds
        .iter()
        .map(|&s| {
            let theta = mean_service_time(5.0, 420.0, s).unwrap();
            let tau = mean_service_time(5.0, 420.0, s).unwrap();
            Cluster {
                theta,
                omega: second_moment(theta, 0.5).unwrap(),
                local_rate: 0.12,
                tau,
                mu: second_moment(tau, 0.1).unwrap(),
            }
        })
        .collect();
    let l = 0.15;
    let a = pap::<3>(&cs, l, 1e-12).unwrap();
    let z = a.z().unwrap();
    // E1 as a formula, evaluated here independently of the kernel.
    for (c, &x) in cs.iter().zip(a.lambda_hat()) {
        let r = 1.0 - c.tau * c.local_rate;
        let num = r * (c.omega * r + c.theta * c.local_rate * c.mu);
        let den = 2.0 * c.theta * r * z + c.omega - 2.0 * c.theta * c.theta;
        let n1 = (r / c.theta - (num / den).sqrt() / c.theta).max(0.0);
        assert!((x - n1).abs() <= 1e-9 * l, "{x} vs {n1}");
    }
    assert!((a.total() - l).abs() <= 1e-12 * l);
}

#[test]
fn printed_eq7_numerator_is_not_optimal_but_e1_is() {
    // The printed numerator (1-rho)(omega(1-rho)) + theta lambda mu gives a rate that is not zero
    // at psi_j, and an allocation at equal z that a pairwise transfer improves.
    let c = Cluster {
        theta: 1.0,
        omega: 2.0,
        local_rate: 0.5,
        tau: 1.0,
        mu: 3.0,
    };
    let r = 1.0 - c.rho();
    let z = c.psi();
    let printed = r / c.theta
        - ((r * (c.omega * r) + c.theta * c.local_rate * c.mu)
            / (2.0 * c.theta * r * z + c.omega - 2.0 * c.theta * c.theta))
            .sqrt()
            / c.theta;
    assert!(printed.abs() > 0.05, "printed form at psi: {printed}");
    assert_eq!(c.lambda_hat_at(z), 0.0);
}

#[test]
fn zero_external_load_allocates_nothing() {
    let cs = [
        Cluster {
            theta: 1.0,
            omega: 1.0,
            local_rate: 0.1,
            tau: 1.0,
            mu: 1.0,
        },
        Cluster {
            theta: 2.0,
            omega: 4.0,
            local_rate: 0.0,
            tau: 0.0,
            mu: 0.0,
        },
    ];
    let a = pap::<2>(&cs, 0.0, 1e-9).unwrap();
    assert_eq!(a.lambda_hat(), &[0.0, 0.0]);
    assert_eq!(a.z(), Some(cs[0].psi().min(cs[1].psi())));
}

#[test]
fn pap_input_errors_are_typed() {
    let c = Cluster {
        theta: 1.0,
        omega: 1.0,
        local_rate: 0.1,
        tau: 1.0,
        mu: 1.0,
    };
    assert_eq!(
        pap::<2>(&[], 0.1, 1e-9),
        Err(pap_invalid(Input::Clusters, Problem::Empty))
    );
    assert_eq!(
        pap::<1>(&[c, c], 0.1, 1e-9),
        Err(pap_invalid(Input::Clusters, Problem::TooMany))
    );
    assert_eq!(
        pap::<2>(&[c], f64::NAN, 1e-9),
        Err(pap_invalid(Input::ExternalRate, Problem::NotFinite))
    );
    assert_eq!(
        pap::<2>(&[c], -1.0, 1e-9),
        Err(pap_invalid(Input::ExternalRate, Problem::Negative))
    );
    for (eps, problem) in [
        (0.0, Problem::OutOfRange),
        (1e-13, Problem::OutOfRange),
        (0.6, Problem::OutOfRange),
        (f64::NAN, Problem::NotFinite),
        (f64::INFINITY, Problem::NotFinite),
    ] {
        assert_eq!(
            pap::<2>(&[c], 0.1, eps),
            Err(pap_invalid(Input::Epsilon, problem)),
            "{eps}"
        );
    }
    assert!(pap::<2>(&[c], 0.1, MAX_EPSILON).is_ok());
    assert_eq!(
        allocate::objective(&[c], &[0.95]),
        Err(PapError::Unstable { cluster: 0 })
    );
    assert_eq!(
        allocate::objective(&[c], &[]),
        Err(pap_invalid(Input::LambdaHats, Problem::LengthMismatch))
    );
}

#[test]
fn baselines_follow_eq25_to_27() {
    let rr = round_robin::<4>(4, 2.0).unwrap();
    assert_eq!(rr.lambda_hat(), &[0.5; 4]);
    // Eq. 26 for N = 2 as printed: (1 - lambda_j / sum) Lambda.
    let lrf = least_rate_first::<4>(&[0.1, 0.3], 2.0).unwrap();
    assert!((lrf.lambda_hat()[0] - 1.5).abs() < 1e-15 && (lrf.lambda_hat()[1] - 0.5).abs() < 1e-15);
    // N = 3: normalised by N - 1 = 2 so that it sums to Lambda.
    let lrf = least_rate_first::<4>(&[0.1, 0.3, 0.6], 1.0).unwrap();
    assert!((lrf.total() - 1.0).abs() < 1e-15);
    assert!((lrf.lambda_hat()[0] - 0.45).abs() < 1e-15);
    let bcf = biggest_cluster_first::<4>(&[128_000.0, 384_000.0, 537_600.0], 1.0).unwrap();
    assert!((bcf.lambda_hat()[1] - 384_000.0 / 1_049_600.0).abs() < 1e-15);
    assert_eq!(bcf.z(), None);
    assert_eq!(
        round_robin::<2>(3, 1.0),
        Err(pap_invalid(Input::Clusters, Problem::TooMany))
    );
    assert_eq!(
        least_rate_first::<4>(&[0.1, -0.3], 1.0),
        Err(pap_invalid(Input::LocalRate(1), Problem::Negative))
    );
    assert_eq!(
        biggest_cluster_first::<4>(&[0.0, 0.0], 1.0),
        Err(PapError::AllSpeedsZero)
    );
    assert_eq!(
        biggest_cluster_first::<4>(&[f64::MAX, f64::MAX], 1.0),
        Err(PapError::Overflow)
    );
}

#[test]
fn service_models_follow_eq8_to_13() {
    // Grid'5000 failure moments (E17), hours; 64 nodes, a request of 100 node-hours at speed 1.
    let cl = E17_CLUSTER;
    let s = cl.service().unwrap();
    let (ta, tu) = (22.25, 10.22);
    let mean = 100.0 / 64.0 * (ta + tu) / ta + 0.1;
    assert!((s.mu - 1.0 / mean).abs() < 1e-12);
    // Eq. 9-11 directly: sigma_b^2 / (b W).
    let b = ta / (ta + tu) * 64.0;
    let sb2 = (41.09f64.powi(2) * tu * tu + 40.75f64.powi(2) * ta * ta) / (ta + tu).powi(3) * 64.0;
    assert!((s.cs2 - sb2 / (b * 100.0)).abs() < 1e-12 * s.cs2);
    let cloud = ReliableCloud {
        work: 100.0,
        nodes: 32.0,
        speed: 2.0,
        transfer: 0.5,
        cs2: ReliableCloud::PAPER_CS2,
    };
    let s = cloud.service().unwrap();
    assert_eq!(s.mu, 1.0 / (100.0 / 64.0 + 0.5));
    assert_eq!(s.cs2, 1.0);
    assert_eq!(
        TransientCluster {
            availability_mean: 0.0,
            ..cl
        }
        .service(),
        Err(broker_invalid(
            broker::Input::Model(ModelField::AvailabilityMean),
            Problem::NotPositive
        ))
    );
    assert_eq!(
        ReliableCloud {
            nodes: f64::NAN,
            ..cloud
        }
        .service(),
        Err(broker_invalid(
            broker::Input::Model(ModelField::Nodes),
            Problem::NotFinite
        ))
    );
}

#[test]
fn an_expensive_cloud_at_low_load_drops_out_to_no_redirection() {
    let local = Provider {
        mu: 10.0,
        cs2: 2.0,
        cost: 1.0,
    };
    let cloud = Provider {
        mu: 5.0,
        cs2: 1.0,
        cost: 50.0,
    };
    let (l, v) = (1.0, 1.0);
    let r = route::<2>(l, v, &[local, cloud]).unwrap();
    assert_eq!(r.p(), &[1.0, 0.0]);
    assert_eq!(r, no_redirection::<2>(l, v, &[local, cloud], 0).unwrap());
    // When the local cluster alone cannot carry the load, the cloud comes in.
    let r = route::<2>(12.0, 1.0 / 144.0, &[local, cloud]).unwrap();
    assert!(r.p()[1] > 0.0);
    assert_eq!(
        no_redirection::<2>(10.0, 0.01, &[local, cloud], 0),
        Err(BrokerError::Unstable { provider: 0 })
    );
}

#[test]
fn service_time_helpers_follow_eq16_to_19() {
    assert_eq!(second_moment(2.0, 0.5), Ok(5.0));
    assert_eq!(mean_service_time(5.0, 420.0, 2100.0), Ok(1.0));
    assert_eq!(
        mean_service_time(5.0, 420.0, 0.0),
        Err(pap_invalid(Input::TotalSpeed, Problem::NotPositive))
    );
    assert_eq!(
        mean_service_time(-5.0, 420.0, 1.0),
        Err(pap_invalid(Input::MeanVms, Problem::Negative))
    );
    assert_eq!(
        second_moment(2.0, f64::NAN),
        Err(pap_invalid(Input::Cv, Problem::NotFinite))
    );
    assert_eq!(second_moment(1e200, 1e200), Err(PapError::Overflow));
}
