//! Broker: arbitrary floats (NaN, +-inf, zeros, subnormals, huge ratios) for the arrivals and for
//! every provider, given directly or through the service models of Eq. 8-13, never panic; every
//! error is the documented one, and every `Ok` routing is a probability vector (each `P_i` in
//! `[0, 1]`, sum 1 within 1e-9) with `lambda P_i < mu_i`, whose Eq. 1 is defined. On well-scaled
//! inputs (every value within 1e-3..1e3, load at most 0.999 of `sum mu`) no pairwise shift of probability lowers Eq. 1 by more
//! than a relative 1e-9, and the routing equals E15's drop-and-re-solve.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use common::{Float, within};
use libfuzzer_sys::fuzz_target;
use qosgate_kernel::broker::{
    BrokerError, Input, Provider, ReliableCloud, TransientCluster, no_redirection, objective, route,
};
use qosgate_kernel::{Invalid, Problem};
use qosgate_testkit::broker::drop_and_resolve;
use qosgate_testkit::transfer::no_pairwise_transfer_lowers;

const N: usize = 8;

#[derive(Arbitrary, Debug, Clone, Copy)]
enum FProvider {
    Direct { mu: Float, cs2: Float, cost: Float },
    Cluster { m: [Float; 8], cost: Float },
    Cloud { m: [Float; 5], cost: Float },
}

impl FProvider {
    /// The provider, or the service model's error.
    fn get(self) -> Result<Provider, BrokerError> {
        match self {
            FProvider::Direct { mu, cs2, cost } => Ok(Provider {
                mu: mu.get(),
                cs2: cs2.get(),
                cost: cost.get(),
            }),
            FProvider::Cluster { m, cost } => {
                let c = TransientCluster {
                    work: m[0].get(),
                    nodes: m[1].get(),
                    speed: m[2].get(),
                    transfer: m[3].get(),
                    availability_mean: m[4].get(),
                    availability_variance: m[5].get(),
                    unavailability_mean: m[6].get(),
                    unavailability_variance: m[7].get(),
                };
                let s = c.service()?;
                assert!(s.mu.is_finite() && s.mu > 0.0 && s.cs2.is_finite() && s.cs2 >= 0.0);
                Ok(s.with_cost(cost.get()))
            }
            FProvider::Cloud { m, cost } => {
                let c = ReliableCloud {
                    work: m[0].get(),
                    nodes: m[1].get(),
                    speed: m[2].get(),
                    transfer: m[3].get(),
                    cs2: m[4].get(),
                };
                let s = c.service()?;
                assert!(s.mu.is_finite() && s.mu > 0.0);
                assert_eq!(s.cs2, c.cs2);
                Ok(s.with_cost(cost.get()))
            }
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Rate {
    Raw(Float),
    /// `lambda = f * sum mu`, `f = k / 2^32`.
    Fraction(u32),
}

#[derive(Arbitrary, Debug)]
struct In {
    providers: Vec<FProvider>,
    rate: Rate,
    variance: Float,
    /// `sigma_I^2 = ca2 / lambda^2` instead of `variance` (a squared CV of arrivals).
    ca2: Option<Float>,
    local: u8,
}

fn well_scaled(l: f64, v: f64, ps: &[Provider]) -> bool {
    let ok = |x: f64| within(x, 1e-3, 1e3);
    // Near overload the slacks mu_i - lambda P_i are tiny and Eq. 1 is ill-conditioned.
    let total_mu: f64 = ps.iter().map(|p| p.mu).sum();
    ok(l)
        && l <= 0.999 * total_mu
        && ok(v)
        && ps
            .iter()
            .all(|p| ok(p.mu) && (p.cs2 == 0.0 || ok(p.cs2)) && ok(p.cost))
}

fn run(input: In) {
    let mut ps = Vec::new();
    for p in input.providers.iter().take(N + 1) {
        match p.get() {
            Ok(p) => ps.push(p),
            // A model error names a model field, or the model's result is out of range.
            Err(BrokerError::Invalid(Invalid {
                input: Input::Model(_),
                ..
            })) => return,
            Err(BrokerError::Overflow) => return,
            Err(e) => panic!("a service model returned {e:?}"),
        }
    }
    let total_mu: f64 = ps.iter().map(|p| p.mu).sum();
    let l = match input.rate {
        Rate::Raw(x) => x.get(),
        Rate::Fraction(k) => f64::from(k) / 4_294_967_296.0 * total_mu,
    };
    let v = match input.ca2 {
        Some(c) => c.get() / (l * l),
        None => input.variance.get(),
    };
    match route::<N>(l, v, &ps) {
        Ok(r) => {
            assert!(!ps.is_empty() && ps.len() <= N);
            assert!(l.is_finite() && l > 0.0 && v.is_finite() && v >= 0.0);
            assert_eq!(r.len(), ps.len());
            let sum: f64 = r.p().iter().sum();
            assert!((sum - 1.0).abs() <= 1e-9, "sum {sum}");
            for (i, &p) in r.p().iter().enumerate() {
                assert!((0.0..=1.0).contains(&p), "P {p}");
                assert!(l * p < ps[i].mu, "provider {i} unstable");
            }
            match objective(l, v, &ps, r.p()) {
                Ok(_) => {}
                Err(BrokerError::Overflow) => return,
                Err(e) => panic!("Eq. 1 of an Ok routing: {e:?}"),
            }
            if well_scaled(l, v, &ps) {
                let want = drop_and_resolve(l, v, &ps);
                for (i, (&p, &q)) in r.p().iter().zip(&want).enumerate() {
                    assert!((p - q).abs() <= 1e-6, "provider {i}: {p} vs E15's {q}");
                }
                no_pairwise_transfer_lowers(
                    r.p(),
                    &ps.iter().map(|p| p.mu / l).collect::<Vec<_>>(),
                    &[1e-3, 0.5, 0.999],
                    1e-9,
                    |q| objective(l, v, &ps, q).ok(),
                )
                .unwrap();
            }
        }
        Err(e) => match e {
            BrokerError::Invalid(Invalid { input, problem }) => {
                let value = match input {
                    Input::Providers => {
                        let empty = problem == Problem::Empty;
                        assert!(if empty { ps.is_empty() } else { ps.len() > N });
                        return;
                    }
                    Input::ArrivalRate => l,
                    Input::ArrivalVariance => v,
                    Input::Mu(i) => ps[i].mu,
                    Input::Cs2(i) => ps[i].cs2,
                    Input::Cost(i) => ps[i].cost,
                    other => panic!("route never names {other:?}"),
                };
                match problem {
                    Problem::NotFinite => assert!(!value.is_finite(), "{input:?}"),
                    Problem::Negative => assert!(value < 0.0, "{input:?}"),
                    Problem::NotPositive => assert_eq!(value, 0.0, "{input:?}"),
                    _ => panic!("route never finds {input:?} {problem:?}"),
                }
                // Only the rate, mu and the cost must be positive.
                if problem == Problem::NotPositive {
                    assert!(matches!(
                        input,
                        Input::ArrivalRate | Input::Mu(_) | Input::Cost(_)
                    ));
                }
            }
            BrokerError::EtaNotPositive { provider } => {
                let p = &ps[provider];
                let eta = 1.0 + p.cs2 + p.mu * (l * l * v - 1.0) / l;
                assert!(
                    eta <= 1e-9 * (1.0 + p.cs2 + p.mu / l) || eta.is_nan(),
                    "eta {eta}"
                );
            }
            BrokerError::Overload => assert!(total_mu <= l * (1.0 + 1e-12)),
            BrokerError::Unstable { .. } | BrokerError::Overflow => {
                // Rounding at extreme ratios; never on well-scaled inputs.
                assert!(!well_scaled(l, v, &ps), "{e:?} on a well-scaled instance");
            }
            other => panic!("route never returns {other:?}"),
        },
    }

    // No-Redirection: Ok iff inputs valid and lambda < mu_local.
    let local = usize::from(input.local);
    if let Ok(r) = no_redirection::<N>(l, v, &ps, local) {
        assert_eq!(r.p()[local], 1.0);
        assert!(l < ps[local].mu);
        assert_eq!(r.p().iter().sum::<f64>(), 1.0);
    }
}

fuzz_target!(|input: In| run(input));
