//! Workload allocation of external requests to clusters: PAP (salehi2012 Sec. 3-4, Algorithm 1,
//! corrected by E1-E3) and the baselines RR, LRF and BCF (Sec. 5.2.1, Eq. 25-27).
//!
//! # Model and units
//! A gateway receives external requests at rate `Lambda` and splits them over `N` clusters; cluster
//! `j` gets `lambda_hat_j` (requests per unit time) on top of its own local requests. Each cluster
//! is an M/G/1 queue in which local requests preempt external ones (salehi2012 Eq. 4):
//!
//! | symbol | field | meaning (salehi2012 Table 1) | unit |
//! | --- | --- | --- | --- |
//! | `theta_j` | [`Cluster::theta`] | mean service time of an external request | time |
//! | `omega_j` | [`Cluster::omega`] | second moment of that service time | time^2 |
//! | `lambda_j` | [`Cluster::local_rate`] | arrival rate of local requests | 1/time |
//! | `tau_j` | [`Cluster::tau`] | mean service time of a local request | time |
//! | `mu_j` | [`Cluster::mu`] | second moment of that service time | time^2 |
//! | `rho_j` | [`Cluster::rho`] | `tau_j lambda_j`, the local load | 1 |
//! | `lambda_hat_j` | output | external rate sent to cluster `j` | 1/time |
//! | `z` | output | the Lagrange multiplier: the common marginal cost `d/dx [x T_j(x)]` | time |
//!
//! Any time unit works as long as it is the same for every input (seconds, hours). Note that
//! `mu_j` is a *second moment* here (salehi2012), not a service rate as in [`crate::broker`].
//!
//! # Objective (Eq. 3, 4 with E3)
//! `T = (1/Lambda) sum_j lambda_hat_j T_j`, with
//! `T_j(x) = (theta_j + (x omega_j + lambda_j mu_j) / (2 (1 - rho_j - theta_j x))) / (1 - rho_j)`.
//! The printed Table 1 has `lambda_j` in the first term of `m_j`; E3 corrects it to `lambda_hat_j`,
//! so `kappa_j m_j = lambda_hat_j omega_j + lambda_j mu_j`. See [`objective`],
//! [`Cluster::response_time`] and [`Cluster::marginal_cost`].
//!
//! # The solution (E1, E2)
//! `x T_j(x)` is convex on `0 <= x < (1 - rho_j)/theta_j`, so the optimum is a water-filling: every
//! cluster that gets load has the same marginal cost `z`, and a cluster whose marginal cost at zero
//! load, `psi_j` (Eq. 14), is `>= z` gets nothing. With `a = 1 - rho_j`, E1's corrected Eq. 7 is
//!
//! ```text
//! lambda_hat_j(z) = a/theta_j - (1/theta_j) sqrt( a (omega_j a + theta_j lambda_j mu_j)
//!                                                 / (2 theta_j a z + omega_j - 2 theta_j^2) )
//! ```
//!
//! (the printed numerator `a (omega_j a) + theta_j lambda_j mu_j` is wrong: only E1's form is zero
//! at `z = psi_j`). The kernel evaluates it in an algebraically equal form without cancellation:
//! with `d = z - psi_j >= 0`, `c = omega_j + theta_j lambda_j mu_j / a` and
//! `q = c / (2 theta_j a d + c)`,
//! `lambda_hat_j(z) = (a / theta_j) (1 - q) / (1 + sqrt(q))` (equal to `(a - a sqrt(q)) / theta_j`,
//! and `a sqrt(q)` is E1's square root). See [`Cluster::lambda_hat_at`].
//!
//! E2's water-filling: sort by `psi_j` ascending (ties to the lower index); with
//! `L_k(z) = sum_{j <= k} lambda_hat_j(z)`, the active set is `1..k` for the largest `k` with
//! `L_k(psi_k) <= Lambda` (found by binary search: `L_k(psi_k)` does not decrease with `k`); then
//! `z` solves `L_k(z) = Lambda` on `[psi_k, psi_{k+1})`, or on `[psi_N, ub)` with
//! `ub - psi_N = psi_N 2^k` for the smallest `k` that brackets the root: what doubling from
//! `psi_N` finds (Algorithm 1's `ub = 2 lb`), found by a binary search over the exponent `k`.
//! The solve works on the offset `t = z - psi_k`, so tiny loads are resolved as finely as large
//! ones.
//!
//! # Precision, work per call and complexity
//! `epsilon` is **relative**: [`pap`] stops when `|sum_j lambda_hat_j - Lambda| <= epsilon Lambda`,
//! the sum taken in index order over the returned rates (exactly what a caller recomputes).
//! `epsilon` must lie in [`MIN_EPSILON`]`..=`[`MAX_EPSILON`]. The root is found by a safeguarded
//! Newton iteration inside the bisection bracket of E2 (a Newton step that would leave the bracket
//! becomes a bisection step; `L_k` is concave in `z`, so Newton from the left never overshoots,
//! but it may creep: on a rate that saturates as `1 - (1 + g t)^(-1/2)`, Newton from far below
//! the root only triples `t` a step). [`PapError::NoConvergence`] if `ub` overflows, or if no
//! `f64` is left strictly inside the bracket before `|f| <= epsilon Lambda`.
//!
//! **Work per call**, in evaluations of `f(t) = L_k(psi_k + t) - Lambda`, each one rate per
//! active cluster (a square root and three divisions), at most [`MAX_EVALUATIONS`] = 154 for
//! any `N` and any input ([`pap_with_stats`] counts them):
//!
//! 1. the active set: `ceil(log2 N)` prefix evaluations of `L_k(psi_k)` (at most `N` rates each),
//!    counted apart;
//! 2. `f(0)`: 1;
//! 3. the upper bound, when every cluster is active: at most [`MAX_BOUND_EVALUATIONS`] = 12.
//!    Every operation of a rate rounds monotonically, so the computed `f` does not decrease in
//!    `t`, "`psi_N 2^k` overflows or `f(psi_N 2^k) >= 0`" does not decrease in `k`, and a binary
//!    search over `k < MAX_DOUBLINGS` finds the `k` of the doubling loop it replaced, to the
//!    bit, in `ceil(log2(MAX_DOUBLINGS + 1))` probes; then `f` at the bracket's lower end if it
//!    is not `0`: 1;
//! 4. the bracket steps: at most [`MAX_ITERATIONS`] = [`FREE_ITERATIONS`] + 2 x 62 = 140. Count
//!    the bracket's width in `f64` values, `w = bits(t_hi) - bits(t_lo)` (`0 <= t_lo < t_hi`
//!    finite, so `w < 2^63`). Every step evaluates a point strictly inside and narrows the
//!    bracket. The first [`FREE_ITERATIONS`] steps are the safeguarded Newton's; from then on
//!    the steps go in rounds: a round that starts at width `W` takes the step Newton chooses; if
//!    that leaves `w` with `2 w > W`, a bisection of the width follows (to the `f64`
//!    `bits(t_lo) + floor(w / 2)`), leaving at most `ceil(w / 2) <= floor(W / 2)` as
//!    `w <= W - 1`. A round is at most two steps and halves the width, so after 62 rounds the
//!    width is at most 1, no `f64` lies strictly inside, and the search ends. The loop's cap,
//!    one step past this bound, is never what stops it.
//!
//! So `1 + 12 + 1 + 140 = 154` evaluations, `154 N + N ceil(log2 N)` rate evaluations (1,256
//! for `N = 8`). The adversarial search of `kernel/tests/pap_work.rs` finds inputs that take
//! 145. An input that converges within `FREE_ITERATIONS + 1` steps never meets the safeguard:
//! typical inputs take 4-8 steps at `epsilon = 1e-9` (at most 13 in 200,000 draws of the
//! property tests' instances).
//! Cost besides: `O(N^2)` comparisons to sort (insertion sort, `N` is small).
//! Memory: the stack holds a few `[f64; N]`; nothing allocates.
//!
//! # Workload helpers
//! [`mean_service_time`] (Eq. 16, 17) and [`second_moment`] (Eq. 18, 19) turn a workload's mean
//! size, mean duration and coefficient of variation into the cluster parameters above. The
//! workload models themselves (salehi2012's DAS-2 sizes, Eq. 28-29, and lognormal durations,
//! Eq. 30) generate workloads, which is the harness's business (`qosgate_harness::workload`).
//!
//! # Errors
//! A bad input is [`PapError::Invalid`] naming it (the crate's shared [`Invalid`], checked by
//! the shared `check` module); every other refusal is a cause of PAP's own ([`PapError`]).
//! Nothing panics.

use core::fmt;

use crate::check;
use crate::error::{Invalid, wraps_invalid};

/// The smallest relative precision [`pap`] accepts: the sum of `N` rates is only known to about
/// `N` ulps, and `1e-12` leaves room for thousands of clusters.
pub const MIN_EPSILON: f64 = 1e-12;
/// The largest relative precision [`pap`] accepts.
pub const MAX_EPSILON: f64 = 0.5;
/// The exponents searched for the upper bound `ub` when every cluster is active: `ub - psi_N`
/// is `psi_N 2^k` for some `k < MAX_DOUBLINGS` (enough to go from the smallest subnormal to the
/// largest finite `f64`). A binary search over `k` finds it in [`MAX_BOUND_EVALUATIONS`].
pub const MAX_DOUBLINGS: u32 = 2100;
/// The most evaluations of `L_k` the search for the upper bound makes (a binary search over the
/// exponent `k` in `0..MAX_DOUBLINGS`): `ceil(log2(MAX_DOUBLINGS + 1))`.
pub const MAX_BOUND_EVALUATIONS: u32 = 12;
/// The steps of the root search taken as the safeguarded Newton iteration chooses them; after
/// them, every round of at most two steps halves the bracket (module docs). Inputs that converge
/// within `FREE_ITERATIONS + 1` steps never see the safeguard.
pub const FREE_ITERATIONS: u32 = 16;
/// The most steps of the root search: [`FREE_ITERATIONS`], then at most 62 rounds of two steps
/// (a bracket is at most `2^63 - 1` `f64` values wide, and each round halves it until no value
/// lies strictly inside). The loop's own cap is one step past it, never reached by the proof,
/// so that a test counting the steps would see the proof fail.
pub const MAX_ITERATIONS: u32 = FREE_ITERATIONS + 2 * 62;
/// The most evaluations of `L_k(psi_k + t)` one [`pap`] call makes, each one rate per active
/// cluster: one at `t = 0`, [`MAX_BOUND_EVALUATIONS`] for the upper bound, one at the bracket's
/// lower end and [`MAX_ITERATIONS`] steps. Add `ceil(log2 N)` prefix evaluations for the active
/// set. [`pap_with_stats`] counts them.
pub const MAX_EVALUATIONS: u32 = 2 + MAX_BOUND_EVALUATIONS + MAX_ITERATIONS;

/// One cluster as PAP sees it (salehi2012 Table 1; units in the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Cluster {
    /// `theta_j`: mean service time of an external request, `> 0`.
    pub theta: f64,
    /// `omega_j`: second moment of the external service time, `>= theta_j^2`.
    pub omega: f64,
    /// `lambda_j`: arrival rate of local requests, `>= 0`.
    pub local_rate: f64,
    /// `tau_j`: mean service time of a local request, `>= 0`, with `tau_j lambda_j < 1`.
    pub tau: f64,
    /// `mu_j`: second moment of the local service time, `>= tau_j^2`.
    pub mu: f64,
}

/// An input of [`pap`], [`objective`], a baseline or a workload helper, as [`Invalid`] names it
/// (indices are positions in the slice passed, from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Input {
    /// The list of clusters (of a baseline: its local rates or speeds, one per cluster).
    Clusters,
    /// The external arrival rate `Lambda`, `>= 0`.
    ExternalRate,
    /// The precision `epsilon`, in [`MIN_EPSILON`]`..=`[`MAX_EPSILON`].
    Epsilon,
    /// `theta_j` of cluster `j`, `> 0`.
    Theta(usize),
    /// `omega_j` of cluster `j`, `>= 0`.
    Omega(usize),
    /// `lambda_j` (local rate) of cluster `j`, `>= 0`.
    LocalRate(usize),
    /// `tau_j` of cluster `j`, `>= 0`.
    Tau(usize),
    /// `mu_j` of cluster `j`, `>= 0`.
    Mu(usize),
    /// The given loads of [`objective`], one per cluster.
    LambdaHats,
    /// A given `lambda_hat_j` ([`objective`]), `>= 0`.
    LambdaHat(usize),
    /// A cluster's total speed (BCF, Eq. 27), `>= 0`.
    Speed(usize),
    /// The mean number of VMs of a request (Eq. 16, 17), `>= 0`.
    MeanVms,
    /// The mean duration of a request (Eq. 16, 17), `>= 0`.
    MeanDuration,
    /// A cluster's total speed `S` in a service time (Eq. 16, 17), `> 0`.
    TotalSpeed,
    /// The mean of a service time (Eq. 18, 19), `>= 0`.
    Mean,
    /// The coefficient of variation of a service time (Eq. 18, 19), `>= 0`.
    Cv,
}

impl Input {
    /// Whether this is a parameter of the workload helpers (Eq. 16-19).
    pub fn is_workload(self) -> bool {
        matches!(
            self,
            Input::MeanVms | Input::MeanDuration | Input::TotalSpeed | Input::Mean | Input::Cv
        )
    }
}

/// Why PAP, a baseline or a helper refused its input. Indices are positions in the slice (from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PapError {
    /// An input's shape or value is wrong (see [`Input`] for what each must be).
    Invalid(Invalid<Input>),
    /// `omega_j < theta_j^2`: no distribution has these moments.
    OmegaBelowThetaSquared {
        /// The cluster.
        cluster: usize,
    },
    /// `mu_j < tau_j^2`: no distribution has these moments.
    MuBelowTauSquared {
        /// The cluster.
        cluster: usize,
    },
    /// `rho_j = tau_j lambda_j >= 1`: local load alone saturates the cluster (E2).
    Saturated {
        /// The cluster.
        cluster: usize,
    },
    /// A derived quantity (`psi_j`, the capacity `(1 - rho_j)/theta_j`, or
    /// `omega_j + theta_j lambda_j mu_j / (1 - rho_j)`) is not a finite positive `f64`: the
    /// cluster's parameters span too many orders of magnitude.
    OutOfRange {
        /// The cluster.
        cluster: usize,
    },
    /// `Lambda >= sum_j (1 - rho_j)/theta_j`: the clusters cannot carry the external load (E2).
    Infeasible,
    /// A given load makes `u_j = rho_j + theta_j lambda_hat_j >= 1` ([`objective`]).
    Unstable {
        /// The cluster.
        cluster: usize,
    },
    /// The iteration caps were hit, or `f64` cannot resolve the root to `epsilon`.
    NoConvergence,
    /// Every cluster's speed is zero: BCF has nothing to share the load in proportion to.
    AllSpeedsZero,
    /// A sum of the inputs (LRF's local rates, BCF's speeds) or a helper's result is not a
    /// finite `f64`.
    Overflow,
}

wraps_invalid!(PapError, Input);

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Input::Clusters => f.write_str("clusters"),
            Input::ExternalRate => f.write_str("external rate"),
            Input::Epsilon => write!(
                f,
                "epsilon (relative precision, in [{MIN_EPSILON:e}, {MAX_EPSILON}])"
            ),
            Input::Theta(j) => write!(f, "cluster {j}: theta"),
            Input::Omega(j) => write!(f, "cluster {j}: omega"),
            Input::LocalRate(j) => write!(f, "cluster {j}: local rate"),
            Input::Tau(j) => write!(f, "cluster {j}: tau"),
            Input::Mu(j) => write!(f, "cluster {j}: mu"),
            Input::LambdaHats => f.write_str("lambda_hat values (one per cluster)"),
            Input::LambdaHat(j) => write!(f, "cluster {j}: lambda_hat"),
            Input::Speed(j) => write!(f, "cluster {j}: speed"),
            Input::MeanVms => f.write_str("mean VMs"),
            Input::MeanDuration => f.write_str("mean duration"),
            Input::TotalSpeed => f.write_str("total speed"),
            Input::Mean => f.write_str("mean service time"),
            Input::Cv => f.write_str("coefficient of variation"),
        }
    }
}

impl fmt::Display for PapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PapError::Invalid(e) => write!(f, "{e}"),
            PapError::OmegaBelowThetaSquared { cluster } => {
                write!(f, "cluster {cluster}: omega < theta^2")
            }
            PapError::MuBelowTauSquared { cluster } => write!(f, "cluster {cluster}: mu < tau^2"),
            PapError::Saturated { cluster } => write!(
                f,
                "cluster {cluster}: saturated by local load (rho = tau * local rate >= 1)"
            ),
            PapError::OutOfRange { cluster } => write!(
                f,
                "cluster {cluster}: parameters span too many orders of magnitude for f64"
            ),
            PapError::Infeasible => f.write_str(
                "infeasible: external rate >= total external capacity sum (1 - rho_j) / theta_j",
            ),
            PapError::Unstable { cluster } => {
                write!(f, "cluster {cluster}: utilisation >= 1 at this load")
            }
            PapError::NoConvergence => f.write_str("no convergence within the iteration caps"),
            PapError::AllSpeedsZero => f.write_str("every cluster's speed is zero"),
            PapError::Overflow => f.write_str("a sum or result is not a finite f64"),
        }
    }
}

impl core::error::Error for PapError {}

/// Rates per cluster: the result of [`pap`] and of the baselines. `len()` is the number of
/// clusters given; entries past it are zero and not part of the allocation.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Allocation<const N: usize> {
    lambda_hat: [f64; N],
    active: [bool; N],
    len: usize,
    z: Option<f64>,
}

impl<const N: usize> Allocation<N> {
    /// `lambda_hat_j` for each cluster, in the order given; each `>= 0`.
    pub fn lambda_hat(&self) -> &[f64] {
        self.lambda_hat.get(..self.len()).unwrap_or(&[])
    }

    /// Whether cluster `j` is in the active set. PAP: the water-filling set `1..k` of E2, whose
    /// rates may be zero only at its boundary (`Lambda = 0`, or `z` exactly at some `psi_j`);
    /// every cluster outside it gets exactly `0`. Baselines: `lambda_hat_j > 0`.
    pub fn active(&self) -> &[bool] {
        self.active.get(..self.len()).unwrap_or(&[])
    }

    /// The Lagrange multiplier `z` of PAP (time units); `None` for the baselines.
    pub fn z(&self) -> Option<f64> {
        self.z
    }

    /// The number of clusters, at most `N`.
    pub fn len(&self) -> usize {
        // `len <= N` always; the `min` lets the compiler see it where the slices are used.
        self.len.min(N)
    }

    /// Whether there are no clusters (never, for a successful call).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `sum_j lambda_hat_j`, in index order.
    pub fn total(&self) -> f64 {
        self.lambda_hat().iter().sum()
    }

    fn empty(len: usize) -> Self {
        Self {
            lambda_hat: [0.0; N],
            active: [false; N],
            len,
            z: None,
        }
    }
}

/// Per-cluster constants derived once from a checked [`Cluster`].
#[derive(Clone, Copy, Debug, Default)]
struct Derived {
    /// `a = 1 - rho`.
    a: f64,
    /// `psi` (Eq. 14).
    psi: f64,
    /// The capacity `a / theta`.
    cap: f64,
    /// `2 theta a / c`, with `c = omega + theta lambda mu / a`: `q = 1 / (1 + g d)`.
    g: f64,
    /// `a^2 / c`: the slope `d lambda_hat / dz = (a^2 / c) q^{3/2}`.
    slope: f64,
}

impl Derived {
    /// `lambda_hat(psi + d)` and its derivative in `d`, for `d >= 0`.
    #[inline]
    fn rate(&self, d: f64) -> (f64, f64) {
        let e = self.g * d;
        // q = 1/(1+e) and r = 1 - q = 1/(1 + 1/e), both without cancellation (e = 0 gives r = 0,
        // e = inf gives q = 0, r = 1).
        let q = 1.0 / (1.0 + e);
        let r = 1.0 / (1.0 + 1.0 / e);
        let sq = libm::sqrt(q);
        (self.cap * r / (1.0 + sq), self.slope * q * sq)
    }
}

impl Cluster {
    /// `rho_j = tau_j lambda_j`, the utilisation by local requests.
    pub fn rho(&self) -> f64 {
        self.tau * self.local_rate
    }

    /// The largest external rate the cluster can take, `(1 - rho_j) / theta_j` (requests per time).
    pub fn capacity(&self) -> f64 {
        (1.0 - self.rho()) / self.theta
    }

    /// `psi_j` (Eq. 9, 14): the marginal cost `d/dx [x T_j(x)]` at `x = 0`, i.e. the `z` at which
    /// E1's `lambda_hat_j(z)` is zero: `lambda_j mu_j / (2 (1 - rho_j)^2) + theta_j / (1 - rho_j)`.
    pub fn psi(&self) -> f64 {
        let a = 1.0 - self.rho();
        self.local_rate * self.mu / (2.0 * a * a) + self.theta / a
    }

    /// Checks every precondition of E2 for this cluster (index `j` is used in the errors).
    ///
    /// Errors: [`PapError::Invalid`] for a field that is not finite or negative, or a zero
    /// `theta_j` ([`Problem::NotPositive`](crate::Problem::NotPositive)); [`PapError::OmegaBelowThetaSquared`];
    /// [`PapError::MuBelowTauSquared`]; [`PapError::Saturated`] if `rho_j >= 1`;
    /// [`PapError::OutOfRange`] if a derived constant overflows or vanishes.
    pub fn check(&self, j: usize) -> Result<(), PapError> {
        self.derive(j).map(|_| ())
    }

    fn derive(&self, j: usize) -> Result<Derived, PapError> {
        // Every field is finite and non-negative before theta is found zero.
        let theta = check::non_negative(self.theta, Input::Theta(j))?;
        let omega = check::non_negative(self.omega, Input::Omega(j))?;
        let lambda = check::non_negative(self.local_rate, Input::LocalRate(j))?;
        let tau = check::non_negative(self.tau, Input::Tau(j))?;
        let mu = check::non_negative(self.mu, Input::Mu(j))?;
        let theta = check::positive(theta, Input::Theta(j))?;
        if omega < theta * theta {
            return Err(PapError::OmegaBelowThetaSquared { cluster: j });
        }
        if mu < tau * tau {
            return Err(PapError::MuBelowTauSquared { cluster: j });
        }
        let rho = tau * lambda;
        if rho.is_nan() || rho >= 1.0 {
            return Err(PapError::Saturated { cluster: j });
        }
        let a = 1.0 - rho;
        let cap = a / theta;
        let psi = self.psi();
        let c = omega + theta * lambda * mu / a;
        let g = 2.0 * theta * a / c;
        let slope = a * a / c;
        let ok = |x: f64| x.is_finite() && x > 0.0;
        if !(ok(cap) && ok(psi) && ok(c) && ok(g) && ok(slope)) {
            return Err(PapError::OutOfRange { cluster: j });
        }
        Ok(Derived {
            a,
            psi,
            cap,
            g,
            slope,
        })
    }

    /// E1's corrected closed form `lambda_hat_j(z)` (Eq. 7 corrected, see the module docs): the
    /// external rate at which the cluster's marginal cost equals `z`; `0` for `z <= psi_j` (and
    /// for NaN), approaching [`Cluster::capacity`] as `z` grows. Meaningful for a cluster that
    /// passes [`Cluster::check`].
    pub fn lambda_hat_at(&self, z: f64) -> f64 {
        match self.derive(0) {
            Ok(d) if z > d.psi => d.rate(z - d.psi).0,
            _ => 0.0,
        }
    }

    /// `T_j` (Eq. 4 with E3): the mean response time of external requests at external rate `x`.
    ///
    /// Errors: those of [`Cluster::check`]; [`PapError::Invalid`] (`LambdaHat(0)`) for an `x`
    /// that is not finite or negative; [`PapError::Unstable`] (`cluster: 0`) if
    /// `rho_j + theta_j x >= 1`.
    pub fn response_time(&self, x: f64) -> Result<f64, PapError> {
        let d = self.derive(0)?;
        let x = check::non_negative(x, Input::LambdaHat(0))?;
        let s = d.a - self.theta * x;
        if s <= 0.0 {
            return Err(PapError::Unstable { cluster: 0 });
        }
        let t = (self.theta + (x * self.omega + self.local_rate * self.mu) / (2.0 * s)) / d.a;
        if t.is_finite() {
            Ok(t)
        } else {
            Err(PapError::OutOfRange { cluster: 0 })
        }
    }

    /// The marginal cost `d/dx [x T_j(x)] = (1/a) [theta - omega/(2 theta) + (omega a^2/theta +
    /// lambda mu a) / (2 s^2)]`, `a = 1 - rho_j`, `s = a - theta_j x` (E1). At the optimum it
    /// equals `z` on every active cluster and is `>= z` on the others. Errors as
    /// [`Cluster::response_time`].
    pub fn marginal_cost(&self, x: f64) -> Result<f64, PapError> {
        let d = self.derive(0)?;
        let x = check::non_negative(x, Input::LambdaHat(0))?;
        let (a, th, om) = (d.a, self.theta, self.omega);
        let s = a - th * x;
        if s <= 0.0 {
            return Err(PapError::Unstable { cluster: 0 });
        }
        let m = (th - om / (2.0 * th)
            + (om * a * a / th + self.local_rate * self.mu * a) / (2.0 * s * s))
            / a;
        if m.is_finite() {
            Ok(m)
        } else {
            Err(PapError::OutOfRange { cluster: 0 })
        }
    }
}

/// Eq. 3: the mean response time of external requests, `(1/Lambda) sum_j lambda_hat_j T_j`, with
/// `Lambda = sum_j lambda_hat_j` (in index order) and `T_j` from Eq. 4 with E3. Clusters with
/// `lambda_hat_j = 0` contribute nothing (even if saturated); an empty load gives `0`.
///
/// Errors: [`PapError::Invalid`] for loads that are not one per cluster (`LambdaHats`), or one
/// that is not finite or negative (`LambdaHat(j)`); a cluster's own errors ([`Cluster::check`],
/// except `Saturated` where `lambda_hat_j = 0`) with its index; [`PapError::Unstable`] if
/// `rho_j + theta_j lambda_hat_j >= 1`.
pub fn objective(clusters: &[Cluster], lambda_hat: &[f64]) -> Result<f64, PapError> {
    check::same_length(lambda_hat.len(), clusters.len(), Input::LambdaHats)?;
    let mut total = 0.0;
    for (j, (c, &x)) in clusters.iter().zip(lambda_hat).enumerate() {
        let x = check::non_negative(x, Input::LambdaHat(j))?;
        match c.derive(j) {
            Ok(_) => {}
            Err(PapError::Saturated { .. }) if x == 0.0 => {}
            Err(e) => return Err(e),
        }
        total += x;
        if !total.is_finite() {
            return Err(PapError::OutOfRange { cluster: j });
        }
    }
    if total == 0.0 {
        return Ok(0.0);
    }
    // Weights x / Lambda <= 1 first, so that x T_j cannot overflow where the mean does not.
    let mut mean = 0.0;
    for (j, (c, &x)) in clusters.iter().zip(lambda_hat).enumerate() {
        if x == 0.0 {
            continue;
        }
        let t = c.response_time(x).map_err(|e| match e {
            PapError::Unstable { .. } => PapError::Unstable { cluster: j },
            PapError::OutOfRange { .. } => PapError::OutOfRange { cluster: j },
            other => other,
        })?;
        mean += x / total * t;
        if !mean.is_finite() {
            return Err(PapError::OutOfRange { cluster: j });
        }
    }
    Ok(mean)
}

/// PAP (salehi2012 Algorithm 1, corrected by E1 and E2): the allocation of the external rate
/// `external_rate` (`Lambda`, requests per time unit) over `clusters` that minimises Eq. 3.
///
/// Guarantees on `Ok`: `lambda_hat_j >= 0`; `lambda_hat_j = 0` outside the active set;
/// `|sum_j lambda_hat_j - Lambda| <= epsilon Lambda` (relative; sum in index order); every active
/// cluster's rate is E1's `lambda_hat_j(z)`, so their marginal costs are equal and no inactive
/// cluster's `psi_j` is below `z`. The rates are computed from the offset `t = z - psi_k`, and the
/// returned `z` is `psi_k + t` rounded to `f64`: when `Lambda` is tiny next to the capacities, `z`
/// may round to `psi_k` although the rates are resolved. Caps, complexity and memory: module docs.
///
/// Errors: [`PapError::Invalid`] for no clusters or more than `N` (`Clusters`), a `Lambda` that
/// is not finite or negative, an `epsilon` that is not finite or outside its range; per
/// cluster, those of [`Cluster::check`]; [`PapError::Infeasible`] if
/// `Lambda >= sum_j (1 - rho_j)/theta_j`; [`PapError::NoConvergence`] if a cap is hit.
pub fn pap<const N: usize>(
    clusters: &[Cluster],
    external_rate: f64,
    epsilon: f64,
) -> Result<Allocation<N>, PapError> {
    pap_with_stats(clusters, external_rate, epsilon).0
}

/// The work one [`pap`] call did, in evaluations (see the module docs for the bounds). An
/// evaluation of `L_k(psi_k + t)` computes one rate per active cluster (a square root and three
/// divisions each); a prefix evaluation computes `L_k(psi_k)` for a prefix of at most `N`
/// clusters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PapStats {
    /// Prefix evaluations of the binary search for the active set (at most `ceil(log2 N)`).
    pub prefix_evaluations: u32,
    /// Evaluations of `L_k(psi_k + t)`, all phases: the one at `t = 0`, those of
    /// `bound_evaluations`, the one at the bracket's lower end (if it is not `0`) and those of
    /// `iterations`.
    pub evaluations: u32,
    /// Of `evaluations`: those spent finding the upper bound when every cluster is active.
    pub bound_evaluations: u32,
    /// Of `evaluations`: the steps of the root search in the bracket.
    pub iterations: u32,
}

/// [`pap`], and the work it did, counted whether it succeeded or not.
pub fn pap_with_stats<const N: usize>(
    clusters: &[Cluster],
    external_rate: f64,
    epsilon: f64,
) -> (Result<Allocation<N>, PapError>, PapStats) {
    let mut stats = PapStats::default();
    let result = pap_counted(clusters, external_rate, epsilon, &mut stats);
    (result, stats)
}

/// What an evaluation of `L_k(psi_k + t)` is for, as [`PapStats`] counts it.
#[derive(Clone, Copy)]
enum Phase {
    /// At `t = 0` or at the bracket's lower end.
    Ends,
    /// Finding the upper bound when every cluster is active.
    Bound,
    /// A step of the root search.
    Iteration,
}

/// [`pap`], counting its evaluations into `stats`.
fn pap_counted<const N: usize>(
    clusters: &[Cluster],
    external_rate: f64,
    epsilon: f64,
    stats: &mut PapStats,
) -> Result<Allocation<N>, PapError> {
    let n = clusters.len();
    check::entries(n, N, Input::Clusters)?;
    let big_lambda = check::non_negative(external_rate, Input::ExternalRate)?;
    check::in_range(epsilon, MIN_EPSILON, MAX_EPSILON, Input::Epsilon)?;
    let mut der = [Derived::default(); N];
    let mut capacity = 0.0;
    // n <= N: every cluster has its slot.
    for ((j, c), slot) in clusters.iter().enumerate().zip(der.iter_mut()) {
        *slot = c.derive(j)?;
        capacity += slot.cap;
    }
    let der = der.get(..n).unwrap_or(&[]);
    if big_lambda >= capacity {
        return Err(PapError::Infeasible);
    }

    // The clusters as (psi_j, j), sorted by psi ascending, ties to the lower index (insertion
    // sort: stable, no allocation; small keys, so that a swap moves 16 bytes).
    let mut by_psi = [(0.0f64, 0usize); N];
    for (slot, (j, d)) in by_psi.iter_mut().zip(der.iter().enumerate()) {
        *slot = (d.psi, j);
    }
    let by_psi = by_psi.get_mut(..n).unwrap_or(&mut []);
    for i in 1..by_psi.len() {
        let mut k = i;
        while k > 0 && by_psi[k].0 < by_psi[k - 1].0 {
            by_psi.swap(k - 1, k);
            k -= 1;
        }
    }
    let by_psi: &[(f64, usize)] = by_psi;
    // L_k(psi_k) for a sorted prefix 0..=k, psi_k that of its last cluster.
    let own_load = |prefix: &[(f64, usize)]| -> f64 {
        let z = prefix.last().map_or(0.0, |&(psi, _)| psi);
        prefix
            .iter()
            .filter_map(|&(_, j)| der.get(j))
            .map(|d| d.rate(z - d.psi).0)
            .sum()
    };
    // Largest 0-based k with L_k(psi_k) <= Lambda: lo is true (L_0(psi_0) = 0), hi is false.
    let (mut lo, mut hi) = (0usize, n);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        stats.prefix_evaluations += 1;
        if by_psi
            .get(..=mid)
            .is_some_and(|prefix| own_load(prefix) <= big_lambda)
        {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    // The active set, sorted prefix 0..=k (k = lo < n, so the fallback is never taken), and the
    // clusters after it.
    let (active_set, rest) = by_psi.split_at_checked(lo + 1).unwrap_or((by_psi, &[]));
    let base = active_set.last().map_or(0.0, |&(psi, _)| psi);

    let mut out = Allocation::<N>::empty(n);
    // Offsets psi_k - psi_j >= 0 of the active clusters, by original index (j < n <= N).
    let mut off = [0.0f64; N];
    for &(psi, j) in active_set {
        if let (Some(on), Some(o)) = (out.active.get_mut(j), off.get_mut(j)) {
            *on = true;
            *o = base - psi;
        }
    }
    let active = out.active;
    // L_k(psi_k + t) - Lambda and its derivative, writing the rates; summed in index order.
    // Counted in `stats`, under `phase`.
    let mut eval = |t: f64, rates: &mut [f64; N], phase: Phase| -> (f64, f64) {
        stats.evaluations += 1;
        match phase {
            Phase::Ends => {}
            Phase::Bound => stats.bound_evaluations += 1,
            Phase::Iteration => stats.iterations += 1,
        }
        let (mut sum, mut slope) = (0.0, 0.0);
        let clusters = der.iter().zip(&active).zip(&off).zip(rates.iter_mut());
        for (((d, &on), &o), rate) in clusters {
            if on {
                let (x, s) = d.rate(t + o);
                *rate = x;
                sum += x;
                slope += s;
            }
        }
        (sum - big_lambda, slope)
    };
    // |f| <= epsilon Lambda, also where epsilon Lambda underflows (a subnormal Lambda).
    let close = |f: f64| f.abs() <= epsilon * big_lambda || f.abs() / big_lambda <= epsilon;

    let mut rates = [0.0f64; N];
    let (f_lo, fp_lo) = eval(0.0, &mut rates, Phase::Ends);
    if close(f_lo) {
        out.lambda_hat = rates;
        out.z = Some(base);
        return Ok(out);
    }
    let (mut t_lo, mut t_hi) = if let Some(&(next, _)) = rest.first() {
        (0.0, next - base)
    } else {
        // Every cluster active: ub = psi_N + psi_N 2^k for the smallest k found by a search
        // over the exponent.
        let mut scratch = [0.0f64; N];
        upper_bound(base, |t| eval(t, &mut scratch, Phase::Bound).0)
            .ok_or(PapError::NoConvergence)?
    };
    if !(t_hi.is_finite() && t_hi > t_lo) {
        return Err(PapError::NoConvergence);
    }

    // Safeguarded Newton on [t_lo, t_hi]; f(t_lo) < 0 <= f(t_hi) up to rounding. The width of
    // the bracket is counted in f64 values, bits(t_hi) - bits(t_lo) (0 <= t_lo < t_hi, finite:
    // the bit patterns order as the values do, and the width is below 2^63). After
    // FREE_ITERATIONS steps, a step that did not halve the width it started from is followed by
    // a bisection of the width; the module docs derive the cap from it.
    let (mut t, mut f, mut fp) = if t_lo == 0.0 {
        (0.0, f_lo, fp_lo)
    } else {
        let (f, fp) = eval(t_lo, &mut rates, Phase::Ends);
        (t_lo, f, fp)
    };
    let mut steps = 0u32;
    // The width when the current round of (at most two) steps began; whether the last step was
    // a forced bisection.
    let (mut round_width, mut forced) = (u64::MAX, false);
    loop {
        if close(f) {
            let z = base + t;
            if !z.is_finite() {
                return Err(PapError::NoConvergence);
            }
            out.lambda_hat = rates;
            out.z = Some(z);
            return Ok(out);
        }
        if f < 0.0 {
            t_lo = t;
        } else {
            t_hi = t;
        }
        let width = t_hi.to_bits().saturating_sub(t_lo.to_bits());
        // No f64 lies strictly inside: the bracket cannot shrink further. By the module docs'
        // proof this ends the search within MAX_ITERATIONS steps; the cap, one step past it, is
        // never reached, and a test that counts the steps would see a broken proof rather than
        // have the cap hide it.
        if width < 2 || steps > MAX_ITERATIONS {
            return Err(PapError::NoConvergence);
        }
        let force = steps > FREE_ITERATIONS && !forced && width.saturating_mul(2) > round_width;
        if !force {
            round_width = width;
        }
        // The f64 halfway between t_lo and t_hi in the count of f64 values: geometric across
        // binades, arithmetic within one; strictly inside as the width is at least 2.
        let bisection = f64::from_bits(t_lo.to_bits() + width / 2);
        let next = if force {
            bisection
        } else {
            let newton = t - f / fp;
            let next = if fp > 0.0 && newton > t_lo && newton < t_hi {
                newton
            } else if t_lo > 0.0 && t_hi > 4.0 * t_lo {
                // Geometric midpoint: a bracket spanning many binades shrinks in O(log) steps.
                libm::sqrt(t_lo) * libm::sqrt(t_hi)
            } else {
                t_lo + (t_hi - t_lo) / 2.0
            };
            if next > t_lo && next < t_hi {
                next
            } else {
                bisection
            }
        };
        forced = force;
        t = next;
        steps += 1;
        (f, fp) = eval(t, &mut rates, Phase::Iteration);
    }
}

/// The bracket `(t_lo, t_hi)` of the root when every cluster is active: `t_hi = base 2^k` for
/// the smallest `k` in `0..MAX_DOUBLINGS` with `f(base 2^k) >= 0`, `t_lo = base 2^(k-1)` (`0`
/// for `k = 0`); `None` if there is no such `k` before `base 2^k` overflows.
///
/// `base > 0` is finite (`psi_N`), `f(0) < 0`, and `f` does not decrease: then the predicate
/// "`base 2^k` is not finite or `f(base 2^k) >= 0`" does not decrease in `k` either, and a binary
/// search over `k` finds the `k` that doubling `base` one step at a time finds (`base 2^k` is
/// exact: `scalbn` rounds only when the result overflows). It calls `f` at most
/// [`MAX_BOUND_EVALUATIONS`] times (`ceil(log2(MAX_DOUBLINGS + 1))`), fewer where a probe
/// overflows, instead of up to `MAX_DOUBLINGS`.
fn upper_bound(base: f64, mut f: impl FnMut(f64) -> f64) -> Option<(f64, f64)> {
    // (lo, hi): the predicate is false at lo (-1 stands for t = 0, where f < 0) and true at hi
    // (MAX_DOUBLINGS stands for "no k below the cap").
    let cap = i32::try_from(MAX_DOUBLINGS).unwrap_or(i32::MAX);
    let (mut lo, mut hi) = (-1i32, cap);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        let t = libm::scalbn(base, mid);
        if !t.is_finite() || f(t) >= 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let t_hi = libm::scalbn(base, hi);
    if hi >= cap || !t_hi.is_finite() {
        return None;
    }
    let t_lo = if lo < 0 { 0.0 } else { libm::scalbn(base, lo) };
    Some((t_lo, t_hi))
}

/// The checks every baseline starts with: `n` clusters (`1 ..= N`) and the external rate,
/// returned.
fn baseline_inputs<const N: usize>(n: usize, external_rate: f64) -> Result<f64, PapError> {
    check::entries(n, N, Input::Clusters)?;
    Ok(check::non_negative(external_rate, Input::ExternalRate)?)
}

/// `sum_j check(values[j], input(j))` in index order, or `Overflow` if it is not finite.
fn checked_sum(values: &[f64], input: fn(usize) -> Input) -> Result<f64, PapError> {
    let mut sum = 0.0;
    for (j, &x) in values.iter().enumerate() {
        sum += check::non_negative(x, input(j))?;
    }
    if sum.is_finite() {
        Ok(sum)
    } else {
        Err(PapError::Overflow)
    }
}

fn from_shares<const N: usize>(
    n: usize,
    big_lambda: f64,
    share: impl Fn(usize) -> f64,
) -> Allocation<N> {
    let mut out = Allocation::<N>::empty(n);
    let slots = out.lambda_hat.iter_mut().zip(out.active.iter_mut());
    for (j, (rate, active)) in slots.enumerate().take(n) {
        let x = big_lambda * share(j);
        *rate = x;
        *active = x > 0.0;
    }
    out
}

/// Round Robin (Eq. 25): `Lambda / N` to each of `clusters` clusters. Ignores capacity (a
/// baseline may overload a cluster; [`objective`] then reports [`PapError::Unstable`]).
///
/// Errors: [`PapError::Invalid`] for no clusters or more than `N`, and for a `Lambda` that is
/// not finite or negative.
pub fn round_robin<const N: usize>(
    clusters: usize,
    external_rate: f64,
) -> Result<Allocation<N>, PapError> {
    let l = baseline_inputs::<N>(clusters, external_rate)?;
    let n = clusters as f64;
    Ok(from_shares(clusters, l, |_| 1.0 / n))
}

/// Least Rate First (Eq. 26), normalised: `Lambda (1 - lambda_j / sum lambda) / (N - 1)`.
///
/// As printed, Eq. 26 hands out `(N - 1) Lambda` in total; dividing by `N - 1` keeps its ordering
/// and equals the printed form for `N = 2`. One cluster gets everything; if no cluster has local
/// load, every cluster gets `Lambda / N`.
///
/// Errors: [`PapError::Invalid`] for no clusters or more than `N`, and for a `Lambda` or a
/// local rate (`LocalRate(j)`) that is not finite or negative; [`PapError::Overflow`] if the
/// local rates' sum is not finite.
pub fn least_rate_first<const N: usize>(
    local_rates: &[f64],
    external_rate: f64,
) -> Result<Allocation<N>, PapError> {
    let n = local_rates.len();
    let l = baseline_inputs::<N>(n, external_rate)?;
    let sum = checked_sum(local_rates, Input::LocalRate)?;
    if n == 1 {
        return Ok(from_shares(1, l, |_| 1.0));
    }
    if sum == 0.0 {
        let nf = n as f64;
        return Ok(from_shares(n, l, |_| 1.0 / nf));
    }
    let m = (n - 1) as f64;
    Ok(from_shares(n, l, |j| {
        (1.0 - local_rates.get(j).copied().unwrap_or(0.0) / sum) / m
    }))
}

/// Biggest Cluster First (Eq. 27): `Lambda` in proportion to each cluster's total speed
/// `sum_i s_ij` (MIPS, or any common unit).
///
/// Errors: [`PapError::Invalid`] for no clusters or more than `N`, and for a `Lambda` or a
/// speed (`Speed(j)`) that is not finite or negative; [`PapError::AllSpeedsZero`];
/// [`PapError::Overflow`] if the speeds' sum is not finite.
pub fn biggest_cluster_first<const N: usize>(
    speeds: &[f64],
    external_rate: f64,
) -> Result<Allocation<N>, PapError> {
    let n = speeds.len();
    let l = baseline_inputs::<N>(n, external_rate)?;
    let sum = checked_sum(speeds, Input::Speed)?;
    if sum == 0.0 {
        return Err(PapError::AllSpeedsZero);
    }
    Ok(from_shares(n, l, |j| {
        speeds.get(j).copied().unwrap_or(0.0) / sum
    }))
}

/// `x`, a helper's result, if it is finite.
fn finite_result(x: f64) -> Result<f64, PapError> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(PapError::Overflow)
    }
}

/// Eq. 16 / 17: a mean service time `v d / S` from the mean number of VMs `v`, the mean duration
/// `d` and the cluster's total speed `S = sum_i s_ij` (`theta_j` for external requests, `tau_j` for
/// local ones). Errors: [`PapError::Invalid`] unless `v, d >= 0` and `S > 0`, all finite
/// (`MeanVms`, `MeanDuration`, `TotalSpeed`); [`PapError::Overflow`] if the result is not.
pub fn mean_service_time(mean_vms: f64, mean_duration: f64, speed: f64) -> Result<f64, PapError> {
    let v = check::non_negative(mean_vms, Input::MeanVms)?;
    let d = check::non_negative(mean_duration, Input::MeanDuration)?;
    let s = check::positive(speed, Input::TotalSpeed)?;
    finite_result(v * d / s)
}

/// Eq. 18 / 19: the second moment `(cv m)^2 + m^2` of a service time of mean `m` and coefficient of
/// variation `cv` (`omega_j` from `theta_j` and `alpha_j`, `mu_j` from `tau_j` and `beta_j`;
/// salehi2012 uses `alpha = 0.5`, `beta = 0.1`). Always `>= m^2`. Errors: [`PapError::Invalid`]
/// unless `m, cv >= 0`, finite (`Mean`, `Cv`); [`PapError::Overflow`] if the result is not finite.
pub fn second_moment(mean: f64, cv: f64) -> Result<f64, PapError> {
    let m = check::non_negative(mean, Input::Mean)?;
    let s = check::non_negative(cv, Input::Cv)? * m;
    finite_result(s * s + m * m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Problem;

    fn c(theta: f64, lambda: f64, tau: f64) -> Cluster {
        Cluster {
            theta,
            omega: 1.25 * theta * theta,
            local_rate: lambda,
            tau,
            mu: 1.01 * tau * tau,
        }
    }

    #[test]
    fn corrected_closed_form_matches_the_printed_square_root_form_of_n1() {
        let cl = c(2.0, 0.12, 3.0);
        let a = 1.0 - cl.rho();
        for z in [cl.psi() * 1.01, cl.psi() * 2.0, cl.psi() * 100.0] {
            let num = a * (cl.omega * a + cl.theta * cl.local_rate * cl.mu);
            let den = 2.0 * cl.theta * a * z + cl.omega - 2.0 * cl.theta * cl.theta;
            let n1 = a / cl.theta - libm::sqrt(num / den) / cl.theta;
            let x = cl.lambda_hat_at(z);
            assert!(
                (x - n1).abs() <= 1e-12 * n1.abs().max(1e-300),
                "{x} vs {n1}"
            );
            // And z is the marginal cost at that rate.
            let m = cl.marginal_cost(x).unwrap();
            assert!((m - z).abs() <= 1e-9 * z, "{m} vs {z}");
        }
        assert_eq!(cl.lambda_hat_at(cl.psi()), 0.0);
    }

    /// The doubling loop that `upper_bound` replaced, as it was: `base` doubled one step at a
    /// time until `f >= 0`, at most `MAX_DOUBLINGS` times, giving up at overflow.
    fn doubling(base: f64, mut f: impl FnMut(f64) -> f64) -> Option<(f64, f64)> {
        let (mut t_lo, mut step) = (0.0, base);
        for _ in 0..MAX_DOUBLINGS {
            if !step.is_finite() {
                break;
            }
            if f(step) >= 0.0 {
                return Some((t_lo, step));
            }
            t_lo = step;
            step *= 2.0;
        }
        None
    }

    /// `upper_bound(base, f)`, checked against the doubling loop (the same bracket, to the bit)
    /// and against its bound on the calls of `f`.
    fn same_bracket_as_doubling(base: f64, f: impl Fn(f64) -> f64) {
        let mut calls = 0;
        let got = upper_bound(base, |t| {
            calls += 1;
            f(t)
        });
        let want = doubling(base, &f);
        let bits = |b: Option<(f64, f64)>| b.map(|(lo, hi)| (lo.to_bits(), hi.to_bits()));
        assert_eq!(bits(got), bits(want), "base {base:e}");
        assert!(
            calls <= MAX_BOUND_EVALUATIONS,
            "{calls} calls, base {base:e}"
        );
    }

    #[test]
    fn exponent_search_finds_the_doubling_loops_bracket_for_every_k() {
        let bases = [
            f64::from_bits(1),
            f64::from_bits(3),
            f64::MIN_POSITIVE / 3.0,
            f64::MIN_POSITIVE,
            1e-300,
            0.37,
            1.0,
            3.0,
            1e300,
            f64::MAX,
        ];
        assert_eq!(
            MAX_BOUND_EVALUATIONS,
            (MAX_DOUBLINGS + 1).next_power_of_two().ilog2()
        );
        for base in bases {
            // A step function of t whose first non-negative value is at each doubling, one ulp
            // below it and one ulp above it: every k the loop can return, and None.
            let mut step = base;
            let mut k = 0;
            while step.is_finite() {
                let below = f64::from_bits(step.to_bits() - 1);
                let above = f64::from_bits(step.to_bits() + 1);
                for threshold in [step, below, above] {
                    same_bracket_as_doubling(base, |t| if t >= threshold { 0.0 } else { -1.0 });
                }
                step *= 2.0;
                k += 1;
            }
            assert!(k <= 2098, "{k} doublings of {base:e} are finite");
            same_bracket_as_doubling(base, |_| -1.0);
            same_bracket_as_doubling(base, |t| if t >= f64::MAX { 0.0 } else { -1.0 });
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(512))]

        /// The same bracket on PAP's own `f`: `L(psi_N + t) - Lambda` of clusters that are all
        /// active, with `Lambda` anywhere up to one ulp under capacity.
        #[test]
        fn exponent_search_finds_the_doubling_loops_bracket_on_pap_instances(
            params in proptest::collection::vec(
                (-30.0..30.0f64, 0.0..60.0f64, -30.0..30.0f64, 0.0..0.999f64, 0.0..60.0f64),
                1..=8,
            ),
            load in 0.0..1.0f64,
            ulps in 1u64..1 << 40,
        ) {
            let mut der = [Derived::default(); 8];
            for (d, &(lt, lcv, ltau, rho, lcl)) in der.iter_mut().zip(&params) {
                let (theta, tau) = (libm::exp2(lt), libm::exp2(ltau));
                let c = Cluster {
                    theta,
                    omega: theta * theta * libm::exp2(lcv),
                    local_rate: rho / tau,
                    tau,
                    mu: tau * tau * libm::exp2(lcl),
                };
                let derived = c.derive(0);
                proptest::prop_assume!(derived.is_ok());
                *d = derived.unwrap_or_default();
            }
            let der = &der[..params.len()];
            let base = der.iter().map(|d| d.psi).fold(0.0, f64::max);
            let capacity: f64 = der.iter().map(|d| d.cap).sum();
            let own: f64 = der.iter().map(|d| d.rate(base - d.psi).0).sum();
            let under = f64::from_bits(capacity.to_bits().saturating_sub(ulps));
            let big_lambda = (own + load * (capacity - own)).min(under);
            proptest::prop_assume!(big_lambda > own);
            let f = |t: f64| der.iter().map(|d| d.rate(t + (base - d.psi)).0).sum::<f64>() - big_lambda;
            same_bracket_as_doubling(base, f);
        }
    }

    #[test]
    fn caps_and_errors() {
        let cl = [c(1.0, 0.1, 1.0), c(2.0, 0.2, 1.0)];
        let invalid = |input, problem| PapError::Invalid(Invalid { input, problem });
        assert_eq!(
            pap::<1>(&cl, 0.1, 1e-9),
            Err(invalid(Input::Clusters, Problem::TooMany))
        );
        assert_eq!(
            pap::<2>(&[], 0.1, 1e-9),
            Err(invalid(Input::Clusters, Problem::Empty))
        );
        assert_eq!(pap::<2>(&cl, 10.0, 1e-9), Err(PapError::Infeasible));
        assert_eq!(
            pap::<2>(&cl, 0.1, 0.0),
            Err(invalid(Input::Epsilon, Problem::OutOfRange))
        );
    }
}
