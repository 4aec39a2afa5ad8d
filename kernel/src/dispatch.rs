//! Dispatch of requests to clusters: the billiard sequence (salehi2012 Eq. 20, javadi2012 Eq. 7),
//! RTDP (salehi2012 Algorithm 2), Bernoulli random dispatch (PAP-RND of salehi2012, ARS of
//! javadi2012) and plain cyclic round robin (RR of salehi2012 Sec. 5.2.1).
//!
//! All three take the routing probabilities `P_j` an allocation policy worked out (PAP, the broker)
//! and decide, one request at a time, which cluster gets it. The billiard sequence does so
//! deterministically and keeps every cluster's count within a constant of `n P_j`; random dispatch
//! draws each request independently, so its counts wander like `sqrt(n)`.
//!
//! # The billiard sequence (E5)
//! Request `n + 1` goes to `argmin_j (X_j + Y_j) / P_j` over the clusters with `P_j > 0`, ties to
//! the lowest index; then `Y_j += 1`. `Y_j` counts the requests sent to `j`; `X_j = 1` for the
//! fastest cluster (the caller names it) and `0` elsewhere. So the first requests go to every other
//! cluster in index order, then the fastest joins in. A cluster with `P_j = 0` is never chosen; if
//! the fastest cluster has `P_j = 0`, `X` has no effect.
//!
//! # RTDP (Algorithm 2)
//! One billiard sequence per request type `i`, with `P_j^i = P_j x share(i)` and its own counters
//! `Y_j^i`; the `X_j` are shared. For a given type, `share(i)` is a positive constant factor of
//! every `P_j^i`, so it divides every `(X_j + Y_j^i) / P_j^i` alike and **never changes the
//! argmin**: each type follows exactly the billiard sequence of `P` (its k-th request goes where
//! the k-th decision of [`Billiard`] goes). The shares only matter through zero: a type of share
//! 0 has `P_j^i = 0` everywhere, Algorithm 2 picks no cluster for it, and [`Rtdp::dispatch`]
//! refuses it ([`DispatchError::ZeroShare`]). Shares need not sum to 1.
//!
//! # Integer form, and why it never overflows
//! Configuration arrives as `f64` and is converted once, at set-up: every `P_j` must be finite and
//! `>= 0` with a positive sum; `q_j = P_j / sum P`. Each cluster with `q_j > 0` gets a reciprocal
//! `inv_j`, an integer proportional to `1 / q_j`, and a key `key_j = (X_j + Y_j) inv_j`: a
//! decision is an argmin over the keys (`O(N)` comparisons) and one addition `key_j += inv_j`:
//! no multiplication, no division, no float. This is stride scheduling, or a fair queue's finish
//! tags with a fixed task size.
//!
//! Keys are `u64` and may wrap; they are compared by the sign of their wrapping difference (as
//! [`crate::vtime`] does), which is exact while all live keys lie within `2^63` of each other.
//! They always do, so the state never needs renormalising and **any number of decisions** is
//! exact, with no error path: with `K_j = (X_j + Y_j) / P_j` (`P` the effective probabilities
//! below, `N'` clusters with `P_j > 0`, `X* = 1` if the fastest has `P > 0`, else `0`), after `n`
//! decisions every `K_j` lies in `[n - N' + 1 + X*, n + X* - 1 + 1/P_j]` (the proof is that of
//! the bounds below), so the keys span at most `inv_max + (N' - 2) inv_min`. Set-up checks that
//! this is below `2^63` (it is by construction: `inv_j <= 2^62` and `N' <= 2^14`).
//!
//! # Effective probabilities and rounding
//! The sequence is the *exact* billiard sequence of the effective probabilities
//! `P'_j = (1 / inv_j) / sum_k (1 / inv_k)`, computed in one of two ways:
//! - **Exact rationals** (when possible): if every `q_j` is within a relative `2^-36` of a
//!   fraction `a_j / b_j` with `b_j <= 2^16` (continued fractions), the fractions sum to exactly
//!   1 over a common denominator `D <= 2^32`, and `M = lcm(D q_j)` keeps the keys' span in range,
//!   then `inv_j = M / (D q_j)` exactly: `P'_j = a_j / b_j`, and exact ties of the real-valued
//!   sequence stay ties (for `P = 0.5, 0.3, 0.2`: `inv = 6, 10, 15`).
//! - **Fixed point** otherwise: `inv_j = round(2^32 / q_j)` (nearest), so `|P'_j - q_j| <=
//!   q_j 2^-31`; equal `P_j` get equal reciprocals (their ties stay exact), but a tie between
//!   unequal ones may be broken by rounding.
//!
//! [`Billiard::is_exact`] says which. Either way `|P'_j - q_j| <= q_j 2^-31`. A cluster with
//! `0 < q_j < 2^-30` ([`MIN_PROBABILITY`]) is refused ([`DispatchError::ProbabilityTooSmall`]):
//! it would stretch the keys' span beyond range.
//!
//! # Balance (the guarantees)
//! Let `Y_j(n)` be the requests sent to `j` after `n` decisions. For every `n` and `j` with
//! `P'_j > 0` (proved in the doc of [`Billiard`]):
//!
//! ```text
//! -X_j - (N' - 2 + 1 - X*) P'_j  <=  Y_j(n) - n P'_j  <=  1 - X_j - (1 - X*) P'_j
//! ```
//!
//! which implies E5's `-1 - (N - 1) P'_j <= Y_j(n) - n P'_j <= 1 + P'_j` with a
//! margin of at least `P'_j` on each side. Against the caller's normalised `q_j` the drift
//! `n |P'_j - q_j| <= n q_j 2^-31` eats at most that margin in `2^31` decisions, so E5's bound also
//! holds against `q` for the first `2^31` decisions (and forever in the exact case). Under RTDP
//! the same holds per type, with `n` the number of requests of that type.
//!
//! # Bernoulli random dispatch
//! [`Bernoulli`] maps a uniform `u32` draw supplied by the caller (the kernel owns no random
//! number generator) through a cumulative table in units of `2^-32`: cluster `j` gets the draws in
//! `[end_{j-1}, end_j)`, `end_j = round(2^32 sum_{k <= j} q_k)`. Its effective probability is
//! `width_j / 2^32`, within `2^-32` of `q_j`; clusters with `P_j = 0` have width 0 and are never
//! picked, and every positive one (`q_j >= 2^-30`) has width `>= 3`. `O(log N)` per draw.
//!
//! # Errors
//! Set-up returns a [`DispatchError`]: [`DispatchError::Invalid`] (the crate's shared
//! [`Invalid`], checked by the shared `check` module) for an input of the wrong shape or value,
//! named with its cluster or type index; a cause of the dispatcher's own otherwise. A billiard
//! decision cannot fail; an RTDP decision fails only for an unknown or zero-share type.
//! Nothing is changed on error.
//!
//! # Memory
//! Capacities are const generics: `N` clusters (at most [`MAX_CLUSTERS`]) and `T` request types.
//! [`Billiard<N>`] holds a cluster index, a reciprocal and a key per cluster: `18 N + 16`
//! bytes at most (160 for `N = 8` on x86_64); [`Rtdp<N, T>`] holds the reciprocals and a key per cluster and type:
//! `10 N + 8 N T + T + 24` at most (360 for `<8, 4>`, 2,712 for `<64, 4>`); [`Bernoulli<N>`] is
//! `4 N + 4` (36 for `N = 8`); [`RoundRobin<N>`] is `2 N + 6` (22 for `N = 8`); [`DispatchError`]
//! is 8. No heap.

use core::fmt;
use core::num::NonZeroU64;

use crate::check;
use crate::error::{Invalid, wraps_invalid};

/// The most clusters any dispatcher accepts (`2^14`), whatever its capacity `N`.
pub const MAX_CLUSTERS: usize = 1 << 14;

/// The smallest positive normalised probability `q_j = P_j / sum P` accepted: `2^-30`
/// (about 9.3e-10).
pub const MIN_PROBABILITY: f64 = 1.0 / (1u64 << 30) as f64;

/// `2^32`: the fixed-point scale of the reciprocals and of the Bernoulli table.
const SCALE: f64 = 4_294_967_296.0;
/// Largest denominator tried when looking for exact rational probabilities.
const MAX_DENOMINATOR: u64 = 1 << 16;
/// Largest common denominator `D` of the exact rational form.
const MAX_COMMON: u64 = 1 << 32;
/// Largest reciprocal of the exact rational form (the fixed-point ones are `<= 2^62` too).
const MAX_INV: u64 = 1 << 62;
/// Relative tolerance of the rational snap: well below the fixed point's `2^-31`, well above the
/// `f64` error of `q_j` (a few units of `2^-53` per cluster summed).
const SNAP_TOLERANCE: f64 = 1.0 / (1u64 << 36) as f64;

/// An input of a dispatcher's set-up, as [`Invalid`] names it (indices are 0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Input {
    /// The probability list: `1 ..= N` entries (and at most [`MAX_CLUSTERS`]).
    Probabilities,
    /// `P_j`, finite and `>= 0`.
    Probability(u16),
    /// The fastest cluster's index, below the number of clusters.
    Fastest,
    /// The share list of RTDP: `1 ..= T` entries.
    Shares,
    /// `share(i)`, finite and `>= 0`.
    Share(u16),
}

/// Why a dispatcher could not be set up, or a request not dispatched. Indices are 0-based.
///
/// `repr(u8)`: a discriminant byte of its own. Packed into the niche of [`Problem`] instead (6
/// bytes), it changed the layout of `Result<Rtdp, DispatchError>` so that the C API's
/// `qg_rtdp_init` copied the dispatcher in unaligned pieces: 8 % more instructions on a
/// Cortex-M3, and a frame 320 B larger.
///
/// [`Problem`]: crate::Problem
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum DispatchError {
    /// An input's shape or value is wrong (see [`Input`] for what each must be).
    Invalid(Invalid<Input>),
    /// Every `P_j` is zero.
    AllProbabilitiesZero,
    /// `P_j / sum P` is positive but below [`MIN_PROBABILITY`].
    ProbabilityTooSmall(u16),
    /// Every share is zero.
    AllSharesZero,
    /// The request type is not below the number of types.
    UnknownType,
    /// The request type's share is zero: `P_j^i = 0` for every cluster, so Algorithm 2 has no
    /// cluster to pick.
    ZeroShare,
}

wraps_invalid!(DispatchError, Input);

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Probabilities => f.write_str("probabilities"),
            Self::Probability(j) => write!(f, "P_{j}"),
            Self::Fastest => f.write_str("the fastest cluster's index"),
            Self::Shares => f.write_str("request-type shares"),
            Self::Share(i) => write!(f, "share of request type {i}"),
        }
    }
}

impl fmt::Display for DispatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Invalid(e) => write!(f, "{e}"),
            Self::AllProbabilitiesZero => f.write_str("every probability P_j is zero"),
            Self::ProbabilityTooSmall(j) => {
                write!(f, "P_{j} is positive but below 2^-30 of the total")
            }
            Self::AllSharesZero => f.write_str("every request type's share is zero"),
            Self::UnknownType => f.write_str("unknown request type"),
            Self::ZeroShare => f.write_str("request type has share zero: no cluster to pick"),
        }
    }
}

impl core::error::Error for DispatchError {}

/// Checks that every value is finite and `>= 0` (each named by `input(index)`) with at least one
/// positive (else `all_zero`); returns `(max, sum of value / max)`. The sum lies in `[1, len]`,
/// so it cannot overflow.
fn validate(
    values: &[f64],
    input: fn(u16) -> Input,
    all_zero: DispatchError,
) -> Result<(f64, f64), DispatchError> {
    let mut max = 0.0f64;
    for (i, &v) in values.iter().enumerate() {
        // Callers check `values.len() <= MAX_CLUSTERS` (or `T`, reported saturated) first.
        let i = u16::try_from(i).unwrap_or(u16::MAX);
        max = max.max(check::non_negative(v, input(i))?);
    }
    if max <= 0.0 {
        return Err(all_zero);
    }
    let sum = values.iter().map(|&v| v / max).sum();
    Ok((max, sum))
}

/// The best rational approximation `a / b` of `q` in `(0, 1]` with `b <= MAX_DENOMINATOR` within
/// a relative [`SNAP_TOLERANCE`], by continued fractions.
fn snap(q: f64) -> Option<(u64, NonZeroU64)> {
    // Convergents h_n / k_n, with h_{-2} = 0, h_{-1} = 1, k_{-2} = 1, k_{-1} = 0.
    let (mut h2, mut h1, mut k2, mut k1) = (0u64, 1u64, 1u64, 0u64);
    let mut x = q;
    for _ in 0..48 {
        let a = libm::floor(x);
        if !(0.0..=MAX_DENOMINATOR as f64).contains(&a) {
            return None;
        }
        let a = a as u64;
        let h = a.checked_mul(h1)?.checked_add(h2)?;
        let k = a.checked_mul(k1)?.checked_add(k2)?;
        if k > MAX_DENOMINATOR {
            return None;
        }
        if libm::fabs(q - h as f64 / k as f64) <= q * SNAP_TOLERANCE {
            // k = 0 never passes the test above (h / 0 is infinite or NaN).
            return NonZeroU64::new(k).map(|k| (h, k));
        }
        let frac = x - a as f64;
        if frac <= 0.0 {
            return None;
        }
        x = 1.0 / frac;
        (h2, h1, k2, k1) = (h1, h, k1, k);
    }
    None
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn lcm(a: u64, b: u64) -> Option<u64> {
    (a / gcd(a, b).max(1)).checked_mul(b)
}

/// `a < b` in the wrap-around order of keys (exact while they lie within `2^63`; see the module
/// doc).
#[inline(always)]
fn before(a: u64, b: u64) -> bool {
    (a.wrapping_sub(b) as i64) < 0
}

/// The accessors [`Billiard`] and [`Rtdp`] share, over their fields `rec: Reciprocals<N>` and
/// `fastest: u16`.
macro_rules! cluster_accessors {
    () => {
        /// Number of clusters, including those with `P_j = 0`.
        pub fn clusters(&self) -> usize {
            usize::from(self.rec.clusters)
        }

        /// The fastest cluster (`X_j = 1`).
        pub fn fastest(&self) -> usize {
            usize::from(self.fastest)
        }

        /// `inv_j` (for an [`Rtdp`], the same for every request type); `None` if `P_j = 0` or
        /// `cluster` is out of range. The effective probability is `(1 / inv_j) / sum_k (1 /
        /// inv_k)`.
        pub fn reciprocal(&self, cluster: usize) -> Option<u64> {
            self.rec.reciprocal(cluster)
        }

        /// Whether the effective probabilities are exact rationals (see the module doc).
        pub fn is_exact(&self) -> bool {
            self.rec.exact
        }
    };
}

/// The clusters with `P_j > 0`, in index order, and their reciprocals `inv_j`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
struct Reciprocals<const N: usize> {
    /// Cluster index of each active slot, increasing.
    cluster: [u16; N],
    /// `inv` of each active slot, in `1 ..= 2^62`.
    inv: [u64; N],
    /// Active slots (clusters with `P_j > 0`), `>= 1`.
    len: u16,
    /// Clusters, including those with `P_j = 0`.
    clusters: u16,
    /// Whether `inv` is the exact rational form.
    exact: bool,
}

impl<const N: usize> Reciprocals<N> {
    fn new(p: &[f64]) -> Result<Self, DispatchError> {
        check::entries(p.len(), N.min(MAX_CLUSTERS), Input::Probabilities)?;
        let (max, sum) = validate(p, Input::Probability, DispatchError::AllProbabilitiesZero)?;
        let mut r = Self {
            cluster: [0; N],
            inv: [0; N],
            len: 0,
            // p.len() <= MAX_CLUSTERS = 2^14.
            clusters: p.len() as u16,
            exact: false,
        };
        let mut len = 0usize;
        for (j, &pj) in p.iter().enumerate() {
            if pj > 0.0 {
                let j = j as u16;
                if (pj / max) / sum < MIN_PROBABILITY {
                    return Err(DispatchError::ProbabilityTooSmall(j));
                }
                if let Some(c) = r.cluster.get_mut(len) {
                    *c = j;
                }
                len += 1;
            }
        }
        r.len = len as u16;
        let q = |slot: usize| {
            r.cluster
                .get(slot)
                .and_then(|&j| p.get(usize::from(j)))
                .map_or(0.0, |&pj| (pj / max) / sum)
        };
        let inv = match Self::exact_inverse(len, q) {
            Some(inv) => {
                r.exact = true;
                inv
            }
            None => {
                let mut inv = [0u64; N];
                for (slot, v) in inv.iter_mut().enumerate().take(len) {
                    // q >= 2^-30, so 2^32 / q <= 2^62 (and >= 2^32): the conversion is exact.
                    *v = libm::round(SCALE / q(slot)) as u64;
                }
                inv
            }
        };
        r.inv = inv;
        if !Self::span_fits(&r.inv[..len.min(N)]) {
            // Unreachable by the argument in the module doc; refuse rather than risk it.
            let worst = r.inv[..len.min(N)]
                .iter()
                .zip(r.cluster.iter())
                .max_by_key(|(inv, _)| **inv)
                .map_or(0, |(_, &j)| j);
            return Err(DispatchError::ProbabilityTooSmall(worst));
        }
        Ok(r)
    }

    /// The exact rational reciprocals, if every `q` snaps to a fraction and the result fits.
    fn exact_inverse(len: usize, q: impl Fn(usize) -> f64) -> Option<[u64; N]> {
        let mut common = 1u64;
        for slot in 0..len {
            let (_, b) = snap(q(slot))?;
            common = lcm(common, b.get()).filter(|&d| d <= MAX_COMMON)?;
        }
        // Numerators over the common denominator (none is zero), then their lcm M:
        // inv_j = M / w_j.
        let mut w = [NonZeroU64::MIN; N];
        let (mut total, mut m) = (0u64, 1u64);
        for (slot, wj) in w.iter_mut().enumerate().take(len) {
            let (a, b) = snap(q(slot))?;
            *wj = NonZeroU64::new(a.checked_mul(common / b)?)?;
            total = total.checked_add(wj.get())?;
            m = lcm(m, wj.get()).filter(|&m| m <= MAX_INV)?;
        }
        if total != common {
            return None;
        }
        let mut inv = [0u64; N];
        for (v, &wj) in inv.iter_mut().zip(w.iter()).take(len) {
            *v = m / wj;
        }
        Self::span_fits(inv.get(..len)?).then_some(inv)
    }

    /// Whether `inv_max + (N' - 2) inv_min < 2^63`: the keys' span stays comparable.
    fn span_fits(inv: &[u64]) -> bool {
        let (Some(&lo), Some(&hi)) = (inv.iter().min(), inv.iter().max()) else {
            return false;
        };
        let span = match inv.len() {
            0 | 1 => Some(0),
            n => (n as u64 - 2)
                .checked_mul(lo)
                .and_then(|s| s.checked_add(hi)),
        };
        span.is_some_and(|s| s < 1 << 63)
    }

    /// [`Reciprocals::new`] plus the fastest cluster's index, checked: the set-up shared by
    /// [`Billiard`] and [`Rtdp`]. Errors: those of `new`, [`DispatchError::Invalid`]
    /// (`Fastest`) for an index not below the number of clusters.
    fn with_fastest(p: &[f64], fastest: usize) -> Result<(Self, u16), DispatchError> {
        let rec = Self::new(p)?;
        let fastest = check::index(fastest, usize::from(rec.clusters), Input::Fastest)?;
        // Below `clusters`, a u16.
        Ok((rec, fastest as u16))
    }

    /// Initial keys `X_j inv_j`, with `X_j = 1` for `fastest` only.
    fn initial_keys(&self, fastest: u16) -> [u64; N] {
        let mut key = [0u64; N];
        for ((k, &j), &inv) in key.iter_mut().zip(&self.cluster).zip(&self.inv) {
            if j == fastest {
                *k = inv;
            }
        }
        // Slots past `len` hold cluster 0 (unused); clear them.
        for k in key.iter_mut().skip(usize::from(self.len)) {
            *k = 0;
        }
        key
    }

    fn reciprocal(&self, cluster: usize) -> Option<u64> {
        let slot = self
            .cluster
            .get(..usize::from(self.len))?
            .iter()
            .position(|&j| usize::from(j) == cluster)?;
        self.inv.get(slot).copied()
    }

    /// One billiard decision on `key` (the keys of the active slots): the slot with the smallest
    /// key (ties to the lowest), whose key then advances by its reciprocal. Returns the cluster.
    #[inline(always)]
    fn decide(&self, key: &mut [u64; N]) -> usize {
        let len = usize::from(self.len);
        let keys = key.get_mut(..len).unwrap_or_default();
        let mut best = 0usize;
        let mut min = keys.first().copied().unwrap_or(0);
        for (slot, &k) in keys.iter().enumerate().skip(1) {
            if before(k, min) {
                best = slot;
                min = k;
            }
        }
        if let (Some(k), Some(&inv)) = (keys.get_mut(best), self.inv.get(best)) {
            *k = k.wrapping_add(inv);
        }
        self.cluster.get(best).map_or(0, |&j| usize::from(j))
    }
}

/// The billiard sequence of one set of probabilities (salehi2012 Eq. 20; E5).
///
/// # Bounds (proof)
/// Write `P` for the effective probabilities (see the module doc), `K_j = (X_j + Y_j) / P_j` and
/// sums over the `N'` clusters with `P_j > 0`. Since `sum P_j K_j = sum (X_j + Y_j) = X* + n`, the
/// smallest key, the one chosen at decision `n + 1`, is at most `n + X*`; after the decision it is
/// at most `n + X* + 1/P_j`. Keys of clusters not chosen stay put while `n` grows, so for all `n`:
/// `Y_j(n) - n P_j <= 1 - X_j - (1 - X*) P_j`. For the lower bound fix `j` and `n`: every other
/// cluster `k` last chosen at some decision before `n` had then a key `<= K_j` at that time `<=
/// K_j(n)`, so `Y_k(n) <= P_k K_j(n) + 1 - X_k` (also when `Y_k = 0`). Summing over `k != j`,
/// `n - Y_j <= (1 - P_j) K_j(n) + N' - 1 - X* + X_j`, which rearranges to
/// `Y_j(n) - n P_j >= -X_j - (N' - 1 - X*) P_j`. Neither step depends on how ties are broken.
///
/// `O(N')` comparisons and one addition per decision, no multiplication or division; never fails.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Billiard<const N: usize> {
    rec: Reciprocals<N>,
    key: [u64; N],
    fastest: u16,
}

impl<const N: usize> Billiard<N> {
    /// The sequence for probabilities `p` (any non-negative scale; normalised here), with
    /// `X_fastest = 1`. Set-up only: floating point, `O(N)` plus the rational search.
    ///
    /// Errors: [`DispatchError::Invalid`] for an empty `p`, more than `N` (or [`MAX_CLUSTERS`])
    /// entries, an entry that is not finite or negative, a `fastest` not below `p.len()`;
    /// [`DispatchError::AllProbabilitiesZero`], [`DispatchError::ProbabilityTooSmall`].
    pub fn new(p: &[f64], fastest: usize) -> Result<Self, DispatchError> {
        let (rec, fastest) = Reciprocals::with_fastest(p, fastest)?;
        Ok(Self {
            key: rec.initial_keys(fastest),
            rec,
            fastest,
        })
    }

    /// The cluster (0-based index into `p`) of the next request; never one with `P_j = 0`.
    #[inline]
    pub fn dispatch(&mut self) -> usize {
        self.rec.decide(&mut self.key)
    }

    cluster_accessors!();
}

/// Request Type Dispatch Policy (salehi2012 Algorithm 2): a billiard sequence per request type.
///
/// Per type, the bounds of [`Billiard`] hold with `n` the number of requests of that type (see the
/// module doc for why the shares do not change the sequence). `O(N')` per decision, like
/// [`Billiard`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Rtdp<const N: usize, const T: usize> {
    rec: Reciprocals<N>,
    key: [[u64; N]; T],
    /// Whether each type's share is positive.
    live: [bool; T],
    types: usize,
    fastest: u16,
}

impl<const N: usize, const T: usize> Rtdp<N, T> {
    /// RTDP for cluster probabilities `p`, request-type shares `shares` (any non-negative scale)
    /// and the fastest cluster.
    ///
    /// Errors: those of [`Billiard::new`]; [`DispatchError::Invalid`] for an empty `shares`,
    /// more than `T` entries, an entry that is not finite or negative;
    /// [`DispatchError::AllSharesZero`].
    pub fn new(p: &[f64], shares: &[f64], fastest: usize) -> Result<Self, DispatchError> {
        let (rec, fastest) = Reciprocals::with_fastest(p, fastest)?;
        check::entries(shares.len(), T, Input::Shares)?;
        validate(shares, Input::Share, DispatchError::AllSharesZero)?;
        let initial = rec.initial_keys(fastest);
        let mut live = [false; T];
        for (l, &s) in live.iter_mut().zip(shares) {
            *l = s > 0.0;
        }
        Ok(Self {
            key: [initial; T],
            rec,
            live,
            types: shares.len(),
            fastest,
        })
    }

    /// The cluster for the next request of type `kind` (0-based index into `shares`).
    ///
    /// Errors: [`DispatchError::UnknownType`] if `kind >= types()`, [`DispatchError::ZeroShare`]
    /// if its share is zero. Nothing changes on error.
    #[inline]
    pub fn dispatch(&mut self, kind: usize) -> Result<usize, DispatchError> {
        if kind >= self.types {
            return Err(DispatchError::UnknownType);
        }
        match (self.live.get(kind), self.key.get_mut(kind)) {
            (Some(true), Some(key)) => Ok(self.rec.decide(key)),
            (Some(false), _) => Err(DispatchError::ZeroShare),
            _ => Err(DispatchError::UnknownType),
        }
    }

    cluster_accessors!();

    /// Number of request types, including those with share zero.
    pub fn types(&self) -> usize {
        self.types
    }
}

/// Round robin (salehi2012 Sec. 5.2.1, Eq. 25: "IGG distributes external requests between
/// different clusters in a round-robin fashion with a deterministic sequence"): the clusters with
/// `P_j > 0`, in index order, one request each, over and over (`0, 1, ..., N - 1, 0, 1, ...` when
/// every `P_j` is positive). The values of `P` only decide which clusters take part. A
/// [`Billiard`] with equal probabilities is not this sequence: its `X_j` term holds the fastest
/// cluster back at first (`0, 1, 0, 1, 2, ...` for three clusters with cluster 2 fastest).
///
/// `O(1)` per decision; never fails.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RoundRobin<const N: usize> {
    /// The clusters with `P_j > 0`, increasing.
    cluster: [u16; N],
    /// Entries of `cluster` in use, `>= 1`.
    len: u16,
    /// The entry of the next decision.
    next: u16,
    clusters: u16,
}

impl<const N: usize> RoundRobin<N> {
    /// Round robin over the clusters with `P_j > 0` (any non-negative scale).
    ///
    /// Errors: [`DispatchError::Invalid`] for an empty `p`, more than `N` (or
    /// [`MAX_CLUSTERS`]) entries, an entry that is not finite or negative;
    /// [`DispatchError::AllProbabilitiesZero`].
    pub fn new(p: &[f64]) -> Result<Self, DispatchError> {
        check::entries(p.len(), N.min(MAX_CLUSTERS), Input::Probabilities)?;
        validate(p, Input::Probability, DispatchError::AllProbabilitiesZero)?;
        let mut cluster = [0u16; N];
        let mut len = 0u16;
        // p.len() <= MAX_CLUSTERS = 2^14: every index is a u16.
        for (j, _) in p.iter().enumerate().filter(|(_, pj)| **pj > 0.0) {
            if let Some(c) = cluster.get_mut(usize::from(len)) {
                *c = j as u16;
                len += 1;
            }
        }
        Ok(Self {
            cluster,
            len,
            next: 0,
            clusters: p.len() as u16,
        })
    }

    /// The cluster (0-based index into `p`) of the next request; never one with `P_j = 0`.
    #[inline]
    pub fn dispatch(&mut self) -> usize {
        let j = self
            .cluster
            .get(usize::from(self.next))
            .copied()
            .unwrap_or(0);
        self.next = match self.next.checked_add(1) {
            Some(n) if n < self.len => n,
            _ => 0,
        };
        usize::from(j)
    }

    /// Number of clusters, including those with `P_j = 0`.
    pub fn clusters(&self) -> usize {
        usize::from(self.clusters)
    }
}

/// Bernoulli (random) dispatch: each request independently to cluster `j` with probability
/// `q_j`, driven by the caller's uniform draws (see the module doc). Stateless after set-up.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Bernoulli<const N: usize> {
    /// `end_j` for `j` below the last cluster with `P_j > 0`, non-decreasing, each `< 2^32`.
    end: [u32; N],
    /// Entries of `end` in use: the index of the last cluster with `P_j > 0`.
    ends: u16,
    clusters: u16,
}

impl<const N: usize> Bernoulli<N> {
    /// Random dispatch for probabilities `p` (any non-negative scale).
    ///
    /// Errors: as [`Billiard::new`], which has a `fastest` this has not.
    pub fn new(p: &[f64]) -> Result<Self, DispatchError> {
        // Validates p exactly as the billiard does (including the 2^-30 floor).
        let rec = Reciprocals::<N>::new(p)?;
        let (max, sum) = validate(p, Input::Probability, DispatchError::AllProbabilitiesZero)?;
        let last = rec
            .cluster
            .get(usize::from(rec.len).saturating_sub(1))
            .copied()
            .unwrap_or(0);
        let mut end = [0u32; N];
        let (mut acc, mut prev) = (0.0f64, 0u32);
        for (e, &pj) in end.iter_mut().zip(p).take(usize::from(last)) {
            acc += (pj / max) / sum;
            // Monotone and below 2^32: the last positive cluster keeps a width >= 3.
            let x = libm::round(acc * SCALE).min(f64::from(u32::MAX));
            prev = prev.max(x as u32);
            *e = prev;
        }
        Ok(Self {
            end,
            ends: last,
            clusters: rec.clusters,
        })
    }

    /// The cluster for a request, given a uniform draw over all of `u32` (from a 64-bit
    /// generator, take its high 32 bits). `O(log N)`, never a cluster with `P_j = 0`.
    #[inline]
    pub fn pick(&self, draw: u32) -> usize {
        self.end
            .get(..usize::from(self.ends))
            .unwrap_or_default()
            .partition_point(|&e| e <= draw)
    }

    /// How many of the `2^32` draws pick `cluster`: its effective probability times `2^32`.
    pub fn width(&self, cluster: usize) -> u64 {
        let ends = usize::from(self.ends);
        if cluster > ends {
            return 0;
        }
        let hi = if cluster == ends {
            1u64 << 32
        } else {
            self.end.get(cluster).map_or(0, |&e| u64::from(e))
        };
        let lo = match cluster.checked_sub(1) {
            Some(c) => self.end.get(c).map_or(0, |&e| u64::from(e)),
            None => 0,
        };
        hi.saturating_sub(lo)
    }

    /// Number of clusters, including those with `P_j = 0`.
    pub fn clusters(&self) -> usize {
        usize::from(self.clusters)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq<const N: usize>(b: &mut Billiard<N>, n: usize) -> [usize; 16] {
        let mut out = [usize::MAX; 16];
        for o in out.iter_mut().take(n) {
            *o = b.dispatch();
        }
        out
    }

    #[test]
    fn worked_example_keeps_the_exact_three_way_tie_at_ten() {
        // Keys (real): 0 -> 2,4,6,..; 1 -> 0,3.33,6.67,10; 2 -> 0,5,10. At n = 9 all three are 10
        // and the tie goes to cluster 0.
        let mut b = Billiard::<4>::new(&[0.5, 0.3, 0.2], 0).unwrap();
        assert!(b.is_exact());
        assert_eq!(
            (b.reciprocal(0), b.reciprocal(1), b.reciprocal(2)),
            (Some(6), Some(10), Some(15))
        );
        let s = seq(&mut b, 12);
        assert_eq!(&s[..12], &[1, 2, 0, 1, 0, 2, 0, 1, 0, 0, 1, 2]);
    }

    #[test]
    fn equal_probabilities_serve_the_others_first_then_cycle_by_index() {
        // Cluster 1 is the fastest: keys (0, 1, 0). Clusters 0 and 2 go first; then all keys are
        // equal and ties go to the lowest index.
        let mut b = Billiard::<4>::new(&[1.0, 1.0, 1.0], 1).unwrap();
        let s = seq(&mut b, 9);
        assert_eq!(&s[..9], &[0, 2, 0, 1, 2, 0, 1, 2, 0]);
    }

    #[test]
    fn irrational_looking_probabilities_use_fixed_point() {
        let b = Billiard::<4>::new(&[core::f64::consts::PI, 1.0], 0).unwrap();
        assert!(!b.is_exact());
        let q0 = core::f64::consts::PI / (core::f64::consts::PI + 1.0);
        assert_eq!(b.reciprocal(0), Some(libm::round(SCALE / q0) as u64));
    }

    #[test]
    fn zero_probability_clusters_have_no_reciprocal() {
        let b = Billiard::<4>::new(&[0.0, 2.0, 0.0, 2.0], 0).unwrap();
        assert_eq!(b.reciprocal(0), None);
        assert_eq!(b.reciprocal(1), Some(1));
        assert_eq!(b.reciprocal(9), None);
    }

    #[test]
    fn set_up_errors_name_the_input() {
        use crate::error::Problem::*;
        use DispatchError as E;
        use Input::*;
        let invalid = |input, problem| E::Invalid(Invalid { input, problem });
        assert_eq!(
            Billiard::<2>::new(&[], 0),
            Err(invalid(Probabilities, Empty))
        );
        assert_eq!(
            Billiard::<2>::new(&[1.0; 3], 0),
            Err(invalid(Probabilities, TooMany))
        );
        assert_eq!(
            Billiard::<3>::new(&[1.0, f64::NAN], 0),
            Err(invalid(Probability(1), NotFinite))
        );
        assert_eq!(
            Billiard::<3>::new(&[f64::INFINITY], 0),
            Err(invalid(Probability(0), NotFinite))
        );
        assert_eq!(
            Billiard::<3>::new(&[1.0, -0.1], 0),
            Err(invalid(Probability(1), Negative))
        );
        assert_eq!(
            Billiard::<3>::new(&[0.0, -0.0], 0),
            Err(E::AllProbabilitiesZero)
        );
        assert_eq!(
            Billiard::<3>::new(&[1.0, 1e-10], 0),
            Err(E::ProbabilityTooSmall(1))
        );
        assert_eq!(
            Billiard::<3>::new(&[1.0, 1.0], 2),
            Err(invalid(Fastest, OutOfRange))
        );
        assert_eq!(
            Rtdp::<3, 2>::new(&[1.0], &[], 0),
            Err(invalid(Shares, Empty))
        );
        assert_eq!(
            Rtdp::<3, 2>::new(&[1.0], &[1.0; 3], 0),
            Err(invalid(Shares, TooMany))
        );
        assert_eq!(
            Rtdp::<3, 2>::new(&[1.0], &[1.0, f64::NAN], 0),
            Err(invalid(Share(1), NotFinite))
        );
        assert_eq!(
            Rtdp::<3, 2>::new(&[1.0], &[-1.0], 0),
            Err(invalid(Share(0), Negative))
        );
        assert_eq!(Rtdp::<3, 2>::new(&[1.0], &[0.0], 0), Err(E::AllSharesZero));
        let mut r = Rtdp::<3, 2>::new(&[1.0, 1.0], &[1.0, 0.0], 0).unwrap();
        let before = r.clone();
        assert_eq!(r.dispatch(2), Err(E::UnknownType));
        assert_eq!(r.dispatch(1), Err(E::ZeroShare));
        assert_eq!(r, before);
        assert_eq!(r.dispatch(0), Ok(1));
    }

    #[test]
    fn huge_and_subnormal_inputs_are_handled() {
        assert!(Billiard::<3>::new(&[f64::MAX, f64::MAX, f64::MAX], 0).is_ok());
        assert_eq!(
            Billiard::<3>::new(&[f64::MAX, 5e-324], 0),
            Err(DispatchError::ProbabilityTooSmall(1))
        );
        let b = Billiard::<3>::new(&[5e-324, 5e-324], 1).unwrap();
        assert!(b.is_exact());
    }

    #[test]
    fn bernoulli_table_boundaries() {
        let b = Bernoulli::<4>::new(&[0.5, 0.0, 0.25, 0.25]).unwrap();
        assert_eq!(
            [b.width(0), b.width(1), b.width(2), b.width(3)],
            [1 << 31, 0, 1 << 30, 1 << 30]
        );
        assert_eq!(b.pick(0), 0);
        assert_eq!(b.pick((1 << 31) - 1), 0);
        assert_eq!(b.pick(1 << 31), 2);
        assert_eq!(b.pick(3 << 30), 3);
        assert_eq!(b.pick(u32::MAX), 3);
        // Trailing zero clusters are never picked.
        let b = Bernoulli::<3>::new(&[1.0, 0.0, 0.0]).unwrap();
        assert_eq!((b.pick(u32::MAX), b.width(0), b.width(1)), (0, 1 << 32, 0));
    }

    #[test]
    fn wrapped_keys_compare_correctly() {
        let mut b = Billiard::<2>::new(&[1.0, 1.0], 0).unwrap();
        // Put both keys just below the wrap point: the order must survive the wrap.
        b.key = [u64::MAX - 1, u64::MAX];
        let first = [b.dispatch(), b.dispatch(), b.dispatch(), b.dispatch()];
        // MAX-1 < MAX; then MAX = MAX (tie, 0); then 0 (wrapped) is after MAX, so 1.
        assert_eq!(first, [0, 0, 1, 0]);
    }

    /// Round robin cycles over the clusters with `P_j > 0` in index order, from the first; a
    /// billiard with equal probabilities does not (its fastest cluster waits a turn).
    #[test]
    fn round_robin_is_a_plain_cycle() {
        let mut rr = RoundRobin::<4>::new(&[1.0, 1.0, 1.0]).unwrap();
        let seq: heapless::Vec<usize, 7> = (0..7).map(|_| rr.dispatch()).collect();
        assert_eq!(seq, [0, 1, 2, 0, 1, 2, 0]);
        let mut b = Billiard::<4>::new(&[1.0, 1.0, 1.0], 2).unwrap();
        let seq: heapless::Vec<usize, 5> = (0..5).map(|_| b.dispatch()).collect();
        assert_eq!(seq, [0, 1, 0, 1, 2]);
        let mut skip = RoundRobin::<4>::new(&[0.0, 5.0, 0.0, 0.1]).unwrap();
        let seq: heapless::Vec<usize, 4> = (0..4).map(|_| skip.dispatch()).collect();
        assert_eq!(
            (seq.as_slice(), skip.clusters()),
            ([1, 3, 1, 3].as_slice(), 4)
        );
        assert_eq!(
            RoundRobin::<4>::new(&[0.0, 0.0]),
            Err(DispatchError::AllProbabilitiesZero)
        );
        assert!(matches!(
            RoundRobin::<2>::new(&[1.0; 3]),
            Err(DispatchError::Invalid(_))
        ));
        assert!(matches!(
            RoundRobin::<2>::new(&[f64::NAN]),
            Err(DispatchError::Invalid(_))
        ));
    }
}
