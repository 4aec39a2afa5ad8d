//! The cost- and failure-aware broker of javadi2012 (Sec. IV-A, V): routing probabilities `P_i` of
//! requests over `n` providers (Eq. 5 with E15's `eta_i`), and the service models of
//! Eq. 8-13 that give each provider's `(mu_i, C_Si^2)`.
//!
//! # Model and units
//! Requests arrive with inter-arrival times `I` of mean `1/lambda` and variance `sigma_I^2`. The
//! broker sends each one to provider `i` with probability `P_i`; provider `i` is a GI/GI/1 queue
//! with service rate `mu_i` (mean service time `1/mu_i`), squared coefficient of variation of the
//! service time `C_Si^2`, and a cost `K_i` per request per unit time.
//!
//! | symbol | field | unit |
//! | --- | --- | --- |
//! | `lambda` | `arrival_rate` | requests / time |
//! | `sigma_I^2` | `arrival_variance` | time^2 |
//! | `mu_i` | [`Provider::mu`] | requests / time |
//! | `C_Si^2` | [`Provider::cs2`] | 1 |
//! | `K_i` | [`Provider::cost`] | money / time (any common unit) |
//!
//! Note that `mu_i` is a *rate* here, not a second moment as in [`crate::allocate`].
//!
//! # Objective (Eq. 1, 3, 4 with E14)
//! `min sum_i K_i E[T_i]` over `P` with `sum_i P_i = 1`, `P_i >= 0`, where (Kingman, with E14's
//! `+`: the printed minus makes the waiting time negative for `C_S > C_I`)
//! `E[T_i] = 1/mu_i + (C_Ii^2 + C_Si^2) / (2 (mu_i - P_i lambda))` and
//! `C_Ii^2 = 1 + P_i (lambda^2 sigma_I^2 - 1)` (Eq. 4). The sum runs over *all* providers,
//! including those with `P_i = 0`, as Eq. 1 is written. See [`objective`].
//!
//! # Solution (Eq. 5 with E15)
//! With `eta_i = 1 + C_Si^2 + mu_i (lambda^2 sigma_I^2 - 1) / lambda` (E15; the printed Eq. 6 is
//! wrong) and `w_i = sqrt(K_i eta_i)`, the stationary point over an active set `A` is Eq. 5:
//! `P_i = mu_i / lambda - ((sum_A mu - lambda) / lambda) w_i / sum_A w`. Each term of Eq. 1 is
//! convex in `P_i` iff `eta_i > 0`, which [`route`] requires. Eq. 5 can give `P_i <= 0`; E15 drops
//! such providers and re-solves. That fixed point is the water-filling
//! `P_i = max(0, mu_i - w_i c) / lambda` with `c` such that `sum_i P_i = 1`, which [`route`]
//! computes in one pass: providers sorted by `mu_i / w_i` descending (ties to the lower index)
//! enter the active set while `mu_i / w_i > c`. No-Redirection (all load on the local cluster) is
//! the case where the cloud drops out; [`no_redirection`] is also provided as the seed's baseline.
//!
//! Stability: every provider used must have `lambda P_i < mu_i`; with the water-filling this holds
//! iff `sum_i mu_i > lambda`, else [`BrokerError::Overload`].
//!
//! # Scale invariance
//! Scaling every time by `s` (`mu_i -> mu_i / s`, `lambda -> lambda / s`, `sigma_I^2 -> s^2
//! sigma_I^2`, and the service models' times alike) and every cost by any `k > 0` leaves `P`
//! unchanged (javadi2012 Sec. V-A relies on this).
//!
//! # Complexity and memory
//! `O(n^2)` comparisons (insertion sort) and `O(n)` arithmetic; no iteration, so no cap is needed.
//! The stack holds a few `[f64; N]`; nothing allocates.
//!
//! # Errors
//! A bad input is [`BrokerError::Invalid`] naming it (the crate's shared [`Invalid`], checked by
//! the shared `check` module); every other refusal is a cause of the broker's own
//! ([`BrokerError`]). Nothing panics.

use core::fmt;

use heapless::Vec;

use crate::check;
use crate::error::{Invalid, wraps_invalid};

/// One provider as the broker sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Provider {
    /// `mu_i`: service rate, requests per time unit, `> 0`.
    pub mu: f64,
    /// `C_Si^2`: squared coefficient of variation of the service time, `>= 0`.
    pub cs2: f64,
    /// `K_i`: cost per request per time unit, `> 0`.
    pub cost: f64,
}

/// A provider's service: rate and squared coefficient of variation, from a service model.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Service {
    /// `mu`: service rate, requests per time unit.
    pub mu: f64,
    /// `C_S^2`.
    pub cs2: f64,
}

impl Service {
    /// The provider with this service and cost `K`.
    pub fn with_cost(self, cost: f64) -> Provider {
        Provider {
            mu: self.mu,
            cs2: self.cs2,
            cost,
        }
    }
}

/// The failure-prone local cluster of javadi2012 Sec. V-A: `M_s` transient processors (Kleinrock
/// and Korfhage, Eq. 8-12). Times in one unit throughout (e.g. seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TransientCluster {
    /// `W`: mean request size (`V D`, work units), `> 0`.
    pub work: f64,
    /// `M_s`: number of nodes, `> 0`.
    pub nodes: f64,
    /// `tau_s`: speed of one node, work units per time unit, `> 0`.
    pub speed: f64,
    /// `L_s`: time to transfer the application to the cluster, `>= 0`.
    pub transfer: f64,
    /// `t_a`: mean length of an availability interval, `> 0`.
    pub availability_mean: f64,
    /// `sigma_a^2`: variance of an availability interval, `>= 0`.
    pub availability_variance: f64,
    /// `t_u`: mean length of an unavailability interval, `>= 0`.
    pub unavailability_mean: f64,
    /// `sigma_u^2`: variance of an unavailability interval, `>= 0`.
    pub unavailability_variance: f64,
}

/// The reliable public cloud of javadi2012 Sec. V-B (Eq. 13). Times in one unit throughout.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ReliableCloud {
    /// `W`: mean request size, work units, `> 0`.
    pub work: f64,
    /// `M_c`: number of nodes, `> 0`.
    pub nodes: f64,
    /// `tau_c`: speed of one node, work units per time unit, `> 0`.
    pub speed: f64,
    /// `L_c`: time to transfer the application to the cloud, `>= 0`.
    pub transfer: f64,
    /// `C_Sc^2`, `>= 0`; the paper uses 1 ([`ReliableCloud::PAPER_CS2`]) as the minimum for
    /// performance variability.
    pub cs2: f64,
}

impl ReliableCloud {
    /// The paper's `C_Sc = 1`.
    pub const PAPER_CS2: f64 = 1.0;
}

/// A service-model field, as [`Input::Model`] names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ModelField {
    /// Mean request size `W`, `> 0`.
    Work,
    /// Node count `M`, `> 0`.
    Nodes,
    /// Node speed `tau`, `> 0`.
    Speed,
    /// Transfer time `L`, `>= 0`.
    Transfer,
    /// `t_a`, `> 0`.
    AvailabilityMean,
    /// `sigma_a^2`, `>= 0`.
    AvailabilityVariance,
    /// `t_u`, `>= 0`.
    UnavailabilityMean,
    /// `sigma_u^2`, `>= 0`.
    UnavailabilityVariance,
    /// The cloud's `C_S^2`, `>= 0`.
    Cs2,
}

/// An input of [`route`], [`objective`], [`no_redirection`], [`eta`] or a service model, as
/// [`Invalid`] names it (indices are positions in the slice, from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Input {
    /// The list of providers (`1 ..= N` of them).
    Providers,
    /// `lambda`, `> 0`.
    ArrivalRate,
    /// `sigma_I^2`, `>= 0`.
    ArrivalVariance,
    /// `mu_i`, `> 0`.
    Mu(usize),
    /// `C_Si^2`, `>= 0`.
    Cs2(usize),
    /// `K_i`, `> 0`.
    Cost(usize),
    /// The given routing of [`objective`], one `P_i` per provider.
    Routing,
    /// A given `P_i`, in `[0, 1]`.
    P(usize),
    /// The local provider of [`no_redirection`], an index below the number of providers.
    Local,
    /// A field of a service model ([`TransientCluster`], [`ReliableCloud`]).
    Model(ModelField),
}

/// Why the broker or a service model refused its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum BrokerError {
    /// An input's shape or value is wrong (see [`Input`] for what each must be).
    Invalid(Invalid<Input>),
    /// `eta_i <= 0` (E15): Eq. 1 is not convex in `P_i` under the heavy-traffic approximation
    /// (very regular arrivals, `lambda^2 sigma_I^2 < 1`, at a fast provider), so Eq. 5 is not a
    /// minimum.
    EtaNotPositive {
        /// The provider.
        provider: usize,
    },
    /// `sum_i mu_i <= lambda`: no routing keeps every provider stable.
    Overload,
    /// `lambda P_i >= mu_i` for this provider.
    Unstable {
        /// The provider.
        provider: usize,
    },
    /// The given `P` does not sum to 1 (within `1e-9`).
    NotProbability,
    /// An intermediate or a result (`eta_i`, the water level, a service model's `mu` or
    /// `C_S^2`) is not a finite `f64` of the sign it must have: the inputs span too many orders
    /// of magnitude.
    Overflow,
}

wraps_invalid!(BrokerError, Input);

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Input::Providers => f.write_str("providers"),
            Input::ArrivalRate => f.write_str("arrival rate"),
            Input::ArrivalVariance => f.write_str("arrival variance"),
            Input::Mu(i) => write!(f, "provider {i}: mu"),
            Input::Cs2(i) => write!(f, "provider {i}: cs2"),
            Input::Cost(i) => write!(f, "provider {i}: cost"),
            Input::Routing => f.write_str("P values (one per provider)"),
            Input::P(i) => write!(f, "provider {i}: P (in [0, 1])"),
            Input::Local => f.write_str("the local provider's index"),
            Input::Model(m) => write!(f, "service model: {m}"),
        }
    }
}

impl fmt::Display for ModelField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ModelField::Work => "work",
            ModelField::Nodes => "nodes",
            ModelField::Speed => "speed",
            ModelField::Transfer => "transfer",
            ModelField::AvailabilityMean => "availability_mean",
            ModelField::AvailabilityVariance => "availability_variance",
            ModelField::UnavailabilityMean => "unavailability_mean",
            ModelField::UnavailabilityVariance => "unavailability_variance",
            ModelField::Cs2 => "cs2",
        })
    }
}

impl fmt::Display for BrokerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BrokerError::Invalid(e) => write!(f, "{e}"),
            BrokerError::EtaNotPositive { provider } => write!(
                f,
                "provider {provider}: eta <= 0 (arrivals too regular for the heavy-traffic model)"
            ),
            BrokerError::Overload => f.write_str("overload: sum of mu <= arrival rate"),
            BrokerError::Unstable { provider } => {
                write!(f, "provider {provider}: arrival rate * P >= mu")
            }
            BrokerError::NotProbability => f.write_str("P does not sum to 1"),
            BrokerError::Overflow => f.write_str("an intermediate or a result is out of f64 range"),
        }
    }
}

impl core::error::Error for BrokerError {}

/// Routing probabilities: the result of [`route`] and [`no_redirection`]. Entries past `len()` are
/// zero and not part of the routing.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Routing<const N: usize> {
    p: [f64; N],
    len: usize,
}

impl<const N: usize> Routing<N> {
    /// `P_i` for each provider, in the order given: each in `[0, 1]`, summing to 1 up to rounding.
    pub fn p(&self) -> &[f64] {
        self.p.get(..self.len).unwrap_or(&[])
    }

    /// The number of providers.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no providers (never, for a successful call).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

fn check_arrivals(rate: f64, variance: f64) -> Result<(f64, f64), Invalid<Input>> {
    let l = check::positive(rate, Input::ArrivalRate)?;
    let v = check::non_negative(variance, Input::ArrivalVariance)?;
    Ok((l, v))
}

fn check_provider(i: usize, p: &Provider) -> Result<(), Invalid<Input>> {
    check::positive(p.mu, Input::Mu(i))?;
    check::non_negative(p.cs2, Input::Cs2(i))?;
    check::positive(p.cost, Input::Cost(i))?;
    Ok(())
}

/// The checks [`route`] and [`no_redirection`] start with: `1 ..= N` providers, the arrivals
/// and every provider; returns `(lambda, sigma_I^2)`.
fn check_inputs<const N: usize>(
    rate: f64,
    variance: f64,
    providers: &[Provider],
) -> Result<(f64, f64), Invalid<Input>> {
    check::entries(providers.len(), N, Input::Providers)?;
    let arrivals = check_arrivals(rate, variance)?;
    for (i, p) in providers.iter().enumerate() {
        check_provider(i, p)?;
    }
    Ok(arrivals)
}

/// E15's `eta_i = 1 + C_Si^2 + mu_i (lambda^2 sigma_I^2 - 1) / lambda` (the printed Eq. 6 is not
/// the minimiser's). Errors: [`BrokerError::Invalid`] for the arrivals or the provider (named
/// with index 0), or [`BrokerError::Overflow`] if the result is not finite.
pub fn eta(
    arrival_rate: f64,
    arrival_variance: f64,
    provider: &Provider,
) -> Result<f64, BrokerError> {
    let (l, v) = check_arrivals(arrival_rate, arrival_variance)?;
    check_provider(0, provider)?;
    eta_unchecked(l, v, provider)
}

fn eta_unchecked(l: f64, v: f64, p: &Provider) -> Result<f64, BrokerError> {
    // lambda^2 sigma_I^2 = (lambda sigma_I)^2, formed so that it overflows only if the true value does.
    let ls = l * libm::sqrt(v);
    let e = 1.0 + p.cs2 + p.mu * (ls * ls - 1.0) / l;
    if e.is_finite() {
        Ok(e)
    } else {
        Err(BrokerError::Overflow)
    }
}

/// The broker (javadi2012 Eq. 5 with E15's `eta_i`, water-filled): the routing `P` over `providers`
/// that minimises Eq. 1 for arrivals of rate `arrival_rate` (`lambda`) and inter-arrival variance
/// `arrival_variance` (`sigma_I^2`). Providers whose Eq. 5 share would be `<= 0` get exactly 0.
///
/// Guarantees on `Ok`: every `P_i` in `[0, 1]`; `sum_i P_i = 1` up to a few ulps (the result is
/// rescaled by its sum); `lambda P_i < mu_i` for every provider.
///
/// Errors: [`BrokerError::Invalid`] for no providers or more than `N`, and for `lambda`,
/// `sigma_I^2` or a provider's field out of its range; [`BrokerError::EtaNotPositive`];
/// [`BrokerError::Overload`] if `sum_i mu_i <= lambda`; [`BrokerError::Unstable`] if rounding
/// leaves a provider at `lambda P_i >= mu_i` (only at extreme ratios of costs or rates, where the
/// exact optimum keeps a provider stable by less than `f64` resolves); [`BrokerError::Overflow`]
/// if an intermediate overflows.
pub fn route<const N: usize>(
    arrival_rate: f64,
    arrival_variance: f64,
    providers: &[Provider],
) -> Result<Routing<N>, BrokerError> {
    let n = providers.len();
    let (l, v) = check_inputs::<N>(arrival_rate, arrival_variance, providers)?;
    // Each provider with its index, mu_i, w_i and mu_i / w_i (n <= N: each has its slot).
    let mut ranked = Vec::<Ranked, N>::new();
    let mut total_mu = 0.0;
    for (i, p) in providers.iter().enumerate() {
        let e = eta_unchecked(l, v, p)?;
        if e <= 0.0 {
            return Err(BrokerError::EtaNotPositive { provider: i });
        }
        let wi = libm::sqrt(p.cost) * libm::sqrt(e);
        let r = p.mu / wi;
        if !(wi.is_finite() && wi > 0.0 && r.is_finite() && r > 0.0) {
            return Err(BrokerError::Overflow);
        }
        let _ = ranked.push(Ranked {
            index: i,
            mu: p.mu,
            w: wi,
            ratio: r,
        });
        total_mu += p.mu;
    }
    if !total_mu.is_finite() {
        return Err(BrokerError::Overflow);
    }
    if total_mu <= l {
        return Err(BrokerError::Overload);
    }
    // Sort by mu / w descending, ties to the lower index (insertion sort: stable).
    let order = ranked.as_mut_slice();
    for i in 1..order.len() {
        let mut k = i;
        while k > 0 && order[k].ratio > order[k - 1].ratio {
            order.swap(k - 1, k);
            k -= 1;
        }
    }
    let order: &[Ranked] = order;
    // The active set is the longest prefix whose next provider still has mu / w above the level
    // c_k = (sum_{<=k} mu - lambda) / sum_{<=k} w of the prefix before it: G(r_k) < lambda.
    let (mut m_sum, mut w_sum) = (0.0f64, 0.0f64);
    let mut k = 0;
    for r in order {
        let g = m_sum - w_sum * r.ratio;
        if k > 0 && g >= l {
            break;
        }
        m_sum += r.mu;
        w_sum += r.w;
        k += 1;
    }
    let c = (m_sum - l) / w_sum;
    if !c.is_finite() {
        return Err(BrokerError::Overflow);
    }
    if c <= 0.0 {
        // sum mu > lambda, yet the level rounds to 0: the active providers' exact shares leave
        // them a slack below f64's resolution (extreme cost or rate ratios).
        let first = order.first().map_or(0, |r| r.index);
        return Err(BrokerError::Unstable { provider: first });
    }
    let mut out = Routing::<N> {
        p: [0.0; N],
        len: n,
    };
    let mut sum = 0.0;
    for r in order.iter().take(k) {
        let y = r.mu - r.w * c;
        let p = if y > 0.0 { y / l } else { 0.0 };
        // Always there: index < n <= N.
        if let Some(slot) = out.p.get_mut(r.index) {
            *slot = p;
        }
        sum += p;
    }
    if !(sum.is_finite() && sum > 0.0) {
        return Err(BrokerError::Overflow);
    }
    for (i, (p, provider)) in out.p.iter_mut().zip(providers).enumerate() {
        *p = (*p / sum).min(1.0);
        if l * *p >= provider.mu {
            return Err(BrokerError::Unstable { provider: i });
        }
    }
    Ok(out)
}

/// A provider as [`route`] ranks them.
#[derive(Clone, Copy)]
struct Ranked {
    /// Its index in the slice given.
    index: usize,
    /// `mu_i`.
    mu: f64,
    /// `w_i = sqrt(K_i eta_i)`.
    w: f64,
    /// `mu_i / w_i`, the ranking key.
    ratio: f64,
}

/// The No-Redirection baseline (javadi2012 Sec. VI): every request to provider `local`.
///
/// Errors: as [`route`]'s input checks; [`BrokerError::Invalid`] (`Local`) if `local >= n`;
/// [`BrokerError::Unstable`] if `lambda >= mu_local`.
pub fn no_redirection<const N: usize>(
    arrival_rate: f64,
    arrival_variance: f64,
    providers: &[Provider],
    local: usize,
) -> Result<Routing<N>, BrokerError> {
    let n = providers.len();
    let (l, _) = check_inputs::<N>(arrival_rate, arrival_variance, providers)?;
    let local = check::index(local, n, Input::Local)?;
    let mu = providers.get(local).map_or(0.0, |p| p.mu);
    if l >= mu {
        return Err(BrokerError::Unstable { provider: local });
    }
    let mut out = Routing::<N> {
        p: [0.0; N],
        len: n,
    };
    // `local < n <= N`: the slot exists.
    if let Some(p) = out.p.get_mut(local) {
        *p = 1.0;
    }
    Ok(out)
}

/// Eq. 1 with Eq. 3 (E14's `+`) and Eq. 4: `sum_i K_i E[T_i]` over all providers for routing `p`.
///
/// Errors: [`BrokerError::Invalid`] for a routing that is not one `P_i` per provider
/// (`Routing`), no providers, the arrivals or a provider as [`route`], a `P_i` that is not
/// finite or outside `[0, 1]`; [`BrokerError::NotProbability`] if `|sum_i P_i - 1| > 1e-9`;
/// [`BrokerError::Unstable`] if `lambda P_i >= mu_i`; [`BrokerError::Overflow`] if the sum
/// overflows.
pub fn objective(
    arrival_rate: f64,
    arrival_variance: f64,
    providers: &[Provider],
    p: &[f64],
) -> Result<f64, BrokerError> {
    check::same_length(p.len(), providers.len(), Input::Routing)?;
    check::entries(providers.len(), usize::MAX, Input::Providers)?;
    let (l, v) = check_arrivals(arrival_rate, arrival_variance)?;
    let ls = l * libm::sqrt(v);
    let ci_excess = ls * ls - 1.0;
    let mut sum_p = 0.0;
    let mut total = 0.0;
    for (i, (pr, &pi)) in providers.iter().zip(p).enumerate() {
        check_provider(i, pr)?;
        check::in_range(pi, 0.0, 1.0, Input::P(i))?;
        sum_p += pi;
        let slack = pr.mu - pi * l;
        if slack <= 0.0 {
            return Err(BrokerError::Unstable { provider: i });
        }
        let ci2 = 1.0 + pi * ci_excess;
        total += pr.cost * (1.0 / pr.mu + (ci2 + pr.cs2) / (2.0 * slack));
    }
    if (sum_p - 1.0).abs() > 1e-9 {
        return Err(BrokerError::NotProbability);
    }
    if total.is_finite() {
        Ok(total)
    } else {
        Err(BrokerError::Overflow)
    }
}

/// A service model's field `x`, `> 0`.
fn model_positive(x: f64, field: ModelField) -> Result<f64, Invalid<Input>> {
    check::positive(x, Input::Model(field))
}

/// A service model's field `x`, `>= 0`.
fn model_non_negative(x: f64, field: ModelField) -> Result<f64, Invalid<Input>> {
    check::non_negative(x, Input::Model(field))
}

fn service(mean: f64, cs2: f64) -> Result<Service, BrokerError> {
    let mu = 1.0 / mean;
    if mean.is_finite() && mean > 0.0 && mu.is_finite() && mu > 0.0 && cs2.is_finite() {
        Ok(Service { mu, cs2 })
    } else {
        Err(BrokerError::Overflow)
    }
}

impl TransientCluster {
    /// Eq. 8-12: `mu_s = 1 / ((W / (M_s tau_s)) (t_a + t_u) / t_a + L_s)` and `C_Ss^2` from Eq. 9,
    /// `(sigma_f / f)^2 = sigma_b^2 / (b W')`, with `W' = W / tau_s` (node-time of work),
    /// `b = M_s t_a / (t_a + t_u)` (Eq. 10) and
    /// `sigma_b^2 = M_s (sigma_a^2 t_u^2 + sigma_u^2 t_a^2) / (t_a + t_u)^3` (Eq. 11). `M_s` cancels:
    /// `C_Ss^2 = (sigma_a^2 U^2 + sigma_u^2 A^2) / (t_a W')` with `A = t_a / (t_a + t_u)`,
    /// `U = 1 - A`.
    ///
    /// As the paper says ("nothing but Equation (9)"), `C_Ss` is the coefficient of variation of
    /// the Kleinrock completion time alone: the transfer time `L_s` adds to the mean (Eq. 12) but
    /// the paper does not fold it into `C_Ss`.
    ///
    /// Errors: [`BrokerError::Invalid`] naming the first field out of its range (see the
    /// fields), or [`BrokerError::Overflow`] if `mu` or `C_S^2` overflows or vanishes.
    pub fn service(&self) -> Result<Service, BrokerError> {
        let w = model_positive(self.work, ModelField::Work)?;
        let m = model_positive(self.nodes, ModelField::Nodes)?;
        let tau = model_positive(self.speed, ModelField::Speed)?;
        let l = model_non_negative(self.transfer, ModelField::Transfer)?;
        let ta = model_positive(self.availability_mean, ModelField::AvailabilityMean)?;
        let va = model_non_negative(self.availability_variance, ModelField::AvailabilityVariance)?;
        let tu = model_non_negative(self.unavailability_mean, ModelField::UnavailabilityMean)?;
        let vu = model_non_negative(
            self.unavailability_variance,
            ModelField::UnavailabilityVariance,
        )?;
        let work_time = w / tau;
        let cycle = ta + tu;
        let a = ta / cycle;
        let u = tu / cycle;
        let mean = work_time / m / a + l;
        let cs2 = (va * u * u + vu * a * a) / (ta * work_time);
        service(mean, cs2)
    }
}

impl ReliableCloud {
    /// Eq. 13: `mu_c = 1 / (W / (M_c tau_c) + L_c)`, with the given `C_Sc^2` (the paper: 1).
    ///
    /// Errors: [`BrokerError::Invalid`] naming the first field out of its range, or
    /// [`BrokerError::Overflow`] if `mu` overflows or vanishes.
    pub fn service(&self) -> Result<Service, BrokerError> {
        let w = model_positive(self.work, ModelField::Work)?;
        let m = model_positive(self.nodes, ModelField::Nodes)?;
        let tau = model_positive(self.speed, ModelField::Speed)?;
        let l = model_non_negative(self.transfer, ModelField::Transfer)?;
        let cs2 = model_non_negative(self.cs2, ModelField::Cs2)?;
        service(w / tau / m + l, cs2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_symmetric_providers_split_evenly() {
        let p = Provider {
            mu: 2.0,
            cs2: 1.0,
            cost: 1.0,
        };
        let r = route::<2>(1.0, 1.0, &[p, p]).unwrap();
        assert_eq!(r.p(), &[0.5, 0.5]);
    }

    #[test]
    fn overload_and_caps() {
        let p = Provider {
            mu: 1.0,
            cs2: 1.0,
            cost: 1.0,
        };
        assert_eq!(route::<2>(2.0, 0.25, &[p, p]), Err(BrokerError::Overload));
        let too_many = Invalid {
            input: Input::Providers,
            problem: crate::Problem::TooMany,
        };
        assert_eq!(
            route::<1>(0.5, 4.0, &[p, p]),
            Err(BrokerError::Invalid(too_many))
        );
    }
}
