//! The DAS-2 request-size model (errata E6, E7; salehi2012 Table 2, javadi2012 Table I): how many
//! VMs (or processors) a request asks for.
//!
//! # The rule
//! Let `x` be the log2 of a size: with probability `q` uniform on `[l, m)`, else uniform on
//! `[m, h)` (two-stage log-uniform). Then the size is 1 with probability `P_one`, `2^ceil(x)`
//! with probability `P_pow2`, and `round(2^x)` otherwise (half away from zero); in every case at
//! most the cluster size `cap`.
//!
//! # Its mean
//! [`Das2Size::mean`] is the exact mean of that rule. Both `2^ceil(x)` and `round(2^x)` are step
//! functions of `x` (the first steps at the integers, the second at `log2(n + 1/2)`), so the
//! mean is a finite sum over the steps in `[l, h)`, each value weighted by its step's share of
//! its stage (at most `2^20 + 23` steps, [`MAX_LOG2_SIZE`]); the variance is the same sum of
//! squared deviations.
//!
//! salehi2012 computes the mean as `2^x` at the mean `r` of `x` instead (Eq. 28 and 29,
//! [`Das2Size::eq28_mean`]). That is not the mean: by Jensen's inequality `2^r` is below the
//! mean of `2^x`, and `2^ceil(r)` jumps where `r` crosses an integer (at `m = 2.68` on the Grid
//! row). At the Grid row of Table 2 with `m = 2.5` (`P_one = 0.2`, `P_pow2 = 0.5`) Eq. 28 gives
//! 3.33 VMs and the exact mean is 5.70 (E7).
//!
//! # Draws
//! Three [`SplitMix::unit`] draws per size, in this order: the stage, the position `x` in it,
//! then the kind of size (one, power of two, rounded).

use serde::{Deserialize, Serialize};

use super::dist::{DistError, Distribution, Param, finite, non_negative, ordered, probability};
use crate::des::rng::SplitMix;

/// The largest `h` accepted: sizes up to `2^20` (1,048,576 VMs), and exact moments summed over
/// at most about `2^20` steps.
pub const MAX_LOG2_SIZE: f64 = 20.0;

/// The parameters of [`Das2Size`], named as in salehi2012 Table 2 (and so in scenario files).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Das2Params {
    /// `l`: the lower end of the first stage, log2 of a size, `>= 0`.
    pub low: f64,
    /// `m`: where the first stage ends and the second begins, `l <= m`.
    pub mid: f64,
    /// `h`: the upper end of the second stage, `m <= h <= 20`.
    pub high: f64,
    /// `q`: the probability of the first stage, in `[0, 1]`.
    pub q: f64,
    /// `P_one`: the probability of a size of 1.
    pub p_one: f64,
    /// `P_pow2`: the probability of a power of two (`P_one + P_pow2 <= 1`).
    pub p_pow2: f64,
    /// The cluster size: larger sizes are cut to it, `>= 1`.
    pub cap: u32,
}

/// Request sizes of the DAS-2 model (module docs); a [`Distribution`] of whole numbers in
/// `1 ..= cap`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Das2Size {
    p: Das2Params,
}

impl Das2Size {
    /// The model of `p`.
    ///
    /// Errors, naming the parameter: [`DistError::Order`] unless `low <= mid <= high`;
    /// [`DistError::NotFinite`]; [`DistError::OutOfRange`] for `low < 0`,
    /// `high > `[`MAX_LOG2_SIZE`], a probability outside `[0, 1]`, or `cap = 0`;
    /// [`DistError::SizeShares`] if `P_one + P_pow2 > 1`.
    pub fn new(p: Das2Params) -> Result<Self, DistError> {
        ordered((Param::Low, p.low), (Param::Mid, p.mid))?;
        ordered((Param::Mid, p.mid), (Param::High, p.high))?;
        non_negative(Param::Low, p.low)?;
        finite(Param::Mid, p.mid)?;
        if finite(Param::High, p.high)? > MAX_LOG2_SIZE {
            return Err(DistError::OutOfRange {
                param: Param::High,
                value: p.high,
                allowed: "<= 20",
            });
        }
        probability(Param::Q, p.q)?;
        probability(Param::POne, p.p_one)?;
        probability(Param::PPow2, p.p_pow2)?;
        if p.p_one + p.p_pow2 > 1.0 {
            return Err(DistError::SizeShares {
                sum: p.p_one + p.p_pow2,
            });
        }
        if p.cap == 0 {
            return Err(DistError::OutOfRange {
                param: Param::Cap,
                value: 0.0,
                allowed: ">= 1",
            });
        }
        Ok(Self { p })
    }

    /// Its parameters.
    pub fn params(&self) -> Das2Params {
        self.p
    }

    /// One size, `1 ..= cap` (three draws of `rng`).
    pub fn size(&self, rng: &mut SplitMix) -> u32 {
        let p = &self.p;
        let x = if rng.unit() < p.q {
            p.low + (p.mid - p.low) * rng.unit()
        } else {
            p.mid + (p.high - p.mid) * rng.unit()
        };
        let u = rng.unit();
        let size = if u < p.p_one {
            1.0
        } else if u < p.p_one + p.p_pow2 {
            x.ceil().exp2()
        } else {
            x.exp2().round()
        };
        // `size <= 2^20` (`x < h <= 20`), so the cast is exact.
        size.min(f64::from(p.cap)) as u32
    }

    /// Eq. 29: `r = (q l + m + (1 - q) h) / 2`, the mean of `x = log2` of a size before
    /// rounding (exact: each stage's mean is its midpoint).
    pub fn mean_log2(&self) -> f64 {
        let p = &self.p;
        (p.q * p.low + p.mid + (1.0 - p.q) * p.high) / 2.0
    }

    /// Eq. 28 as printed, `P_one + 2^ceil(r) P_pow2 + 2^r (1 - P_one - P_pow2)` with
    /// `r` = [`Das2Size::mean_log2`], without the cap: salehi2012's figure for the mean, which is
    /// **not** the mean ([`Distribution::mean`] is; module docs).
    pub fn eq28_mean(&self) -> f64 {
        let (p, r) = (&self.p, self.mean_log2());
        p.p_one + r.ceil().exp2() * p.p_pow2 + r.exp2() * (1.0 - (p.p_one + p.p_pow2))
    }

    /// `E[g(S)]` for the size `S`, exactly: a sum over the steps of both size rules.
    fn expect(&self, g: impl Fn(f64) -> f64) -> f64 {
        let p = &self.p;
        let mut pow2 = 0.0;
        let mut rounded = 0.0;
        for (weight, a, b) in [(p.q, p.low, p.mid), (1.0 - p.q, p.mid, p.high)] {
            if weight > 0.0 {
                let (w, r) = self.stage(a, b, &g);
                pow2 += weight * w;
                rounded += weight * r;
            }
        }
        p.p_one * g(1.0) + p.p_pow2 * pow2 + (1.0 - p.p_one - p.p_pow2) * rounded
    }

    /// The means of `g(min(2^ceil(x), cap))` and of `g(min(round(2^x), cap))` over `x` uniform
    /// on `[a, b)` (at `a` if the stage is a point), `0 <= a <= b <= 20`.
    fn stage(&self, a: f64, b: f64, g: &impl Fn(f64) -> f64) -> (f64, f64) {
        let cap = f64::from(self.p.cap);
        if b <= a {
            return (g(a.ceil().exp2().min(cap)), g(a.exp2().round().min(cap)));
        }
        // 2^ceil(x) = 2^k on (k - 1, k]; `a, b <= 20`, so k fits an i32.
        let mut pow2 = 0.0;
        for k in (a.ceil() as i32)..=(b.ceil() as i32) {
            let k = f64::from(k);
            let (lo, hi) = (a.max(k - 1.0), b.min(k));
            if hi > lo {
                pow2 += g(k.exp2().min(cap)) * (hi - lo);
            }
        }
        // round(2^x) = n on [log2(n - 1/2), log2(n + 1/2)), from n = round(2^a) >= 1; every
        // n >= cap gives cap, from log2(cap - 1/2) to b.
        let mut rounded = 0.0;
        let first = a.exp2().round().min(cap) as u32;
        let last = b.exp2().round().min(cap) as u32;
        for n in first..=last {
            let v = f64::from(n);
            let lo = a.max((v - 0.5).log2());
            let hi = if n == self.p.cap {
                b
            } else {
                b.min((v + 0.5).log2())
            };
            if hi > lo {
                rounded += g(v) * (hi - lo);
            }
        }
        (pow2 / (b - a), rounded / (b - a))
    }
}

impl Distribution for Das2Size {
    /// The exact mean of the rule (module docs), not Eq. 28.
    fn mean(&self) -> f64 {
        self.expect(|s| s)
    }
    fn variance(&self) -> f64 {
        let m = self.mean();
        self.expect(|s| (s - m) * (s - m))
    }
    fn sample(&self, rng: &mut SplitMix) -> f64 {
        f64::from(self.size(rng))
    }
}

#[cfg(test)]
mod tests {
    use super::super::dist::tests::{assert_moments, draws};
    use super::*;

    /// salehi2012 Table 2's Grid row (external requests) at `m`: `l = 0.8`, `h = 6`, `q = 0.9`,
    /// `P_one = 0.2`, `P_pow2 = 0.5`; sizes up to `2^6`.
    fn grid(mid: f64) -> Das2Params {
        crate::experiments::federation::params::external_size(mid).params(64)
    }

    /// Table 2's C256 row: `l = 0.8`, `m = 4.5`, `h = 8`, `q = 0.9`, `P_one = 0.3`,
    /// `P_pow2 = 0.6`, 256 VMs.
    fn c256() -> Das2Params {
        Das2Params {
            low: 0.8,
            mid: 4.5,
            high: 8.0,
            q: 0.9,
            p_one: 0.3,
            p_pow2: 0.6,
            cap: 256,
        }
    }

    /// The exact mean where erratum E7 states it (two decimals at the Grid row, as E7 prints it;
    /// three significant digits at C256), and Eq. 28 beside it.
    #[test]
    fn the_exact_mean_is_e7s_and_not_eq28s() {
        let d = Das2Size::new(grid(2.5)).unwrap();
        assert_eq!(format!("{:.2}", d.mean()), "5.70");
        assert_eq!(format!("{:.2}", d.eq28_mean()), "3.33");
        let d = Das2Size::new(c256()).unwrap();
        assert_eq!(format!("{:.1}", d.mean()), "16.4");
        assert_eq!(format!("{:.1}", d.eq28_mean()), "10.7");
        // E7: the text's "an average of 5 VMs" needs m = 2.12 with the exact mean; Eq. 28 jumps
        // at m = 2.68 (ceil(r) goes from 2 to 3), the exact mean does not.
        let at = |m: f64| Das2Size::new(grid(m)).unwrap();
        assert!((at(2.12).mean() - 5.0).abs() < 0.01, "{}", at(2.12).mean());
        assert!(at(2.69).eq28_mean() - at(2.67).eq28_mean() > 1.0);
        assert!(at(2.69).mean() - at(2.67).mean() < 0.1);
    }

    /// 10^6 sizes against the exact mean and variance. Sizes lie in `[1, 64]`, so every moment
    /// is finite; `mu4` for the variance's band is the exact fourth central moment.
    #[test]
    fn draws_match_the_exact_moments() {
        for (what, p, seed) in [
            ("grid m = 2.5", grid(2.5), 21),
            ("grid m = 3.5", grid(3.5), 22),
            ("c256", c256(), 23),
            // A cap that binds: the rounded sizes above 16 are cut to it.
            (
                "grid capped at 16",
                Das2Params {
                    cap: 16,
                    ..grid(3.5)
                },
                24,
            ),
        ] {
            let d = Das2Size::new(p).unwrap();
            let xs = draws(&d, seed);
            assert!(
                xs.iter()
                    .all(|&s| s >= 1.0 && s <= f64::from(p.cap) && s.fract() == 0.0)
            );
            let m = d.mean();
            let mu4 = d.expect(|s| (s - m).powi(4));
            assert_moments(what, &xs, m, d.variance(), mu4);
        }
    }

    #[test]
    fn a_point_stage_gives_its_sizes() {
        // x = 3 always: size 1 with P_one, else 2^3 either way.
        let d = Das2Size::new(Das2Params {
            low: 3.0,
            mid: 3.0,
            high: 3.0,
            q: 0.5,
            p_one: 0.25,
            p_pow2: 0.25,
            cap: 64,
        })
        .unwrap();
        assert_eq!(d.mean(), 0.25 + 8.0 * 0.75);
        assert_eq!(d.variance(), 0.25 * 0.75 * 49.0);
        // x uniform on [2, 3) only (q = 1), every size rounded: round(2^x) is 4 up to
        // log2(4.5), 5 up to log2(5.5), ..., 8 from log2(7.5).
        let d = Das2Size::new(Das2Params {
            low: 2.0,
            mid: 3.0,
            high: 5.0,
            q: 1.0,
            p_one: 0.0,
            p_pow2: 0.0,
            cap: 64,
        })
        .unwrap();
        let steps = [4.5f64, 5.5, 6.5, 7.5];
        let mut want = 0.0;
        let mut lo = 2.0;
        for (n, edge) in (4..=7).zip(steps) {
            want += f64::from(n) * (edge.log2() - lo);
            lo = edge.log2();
        }
        want += 8.0 * (3.0 - lo);
        assert!((d.mean() - want).abs() < 1e-12, "{} vs {want}", d.mean());
    }

    /// javadi2012 Table I (`l = 0.8`, `m = 3.5`, `h = 6`, `q = 0.9`, `P_one = 0.02`,
    /// `P_pow2 = 0.78`): Eq. 29 and Eq. 28 as printed (the kernel's former
    /// `das2_mean_log2_size` and `das2_mean_vms`).
    #[test]
    fn eq28_and_eq29_are_as_printed() {
        let d = Das2Size::new(super::super::requests::TABLE1_SIZES).unwrap();
        assert!((d.mean_log2() - 2.41).abs() < 1e-12);
        let want = 0.02 + 8.0 * 0.78 + 2f64.powf(2.41) * 0.2;
        assert!((d.eq28_mean() - want).abs() < 1e-12, "{}", d.eq28_mean());
        assert!(d.mean() > d.eq28_mean());
    }

    #[test]
    fn bad_parameters_are_named() {
        let named = |p: Das2Params| Das2Size::new(p).map_err(|e| e.param());
        assert_eq!(
            named(Das2Params {
                low: 3.0,
                mid: 2.0,
                ..grid(2.5)
            }),
            Err(Param::Low)
        );
        assert_eq!(
            named(Das2Params {
                mid: 7.0,
                ..grid(2.5)
            }),
            Err(Param::Mid)
        );
        assert_eq!(
            named(Das2Params {
                low: -0.5,
                ..grid(2.5)
            }),
            Err(Param::Low)
        );
        assert_eq!(
            named(Das2Params {
                high: f64::NAN,
                ..grid(2.5)
            }),
            Err(Param::High)
        );
        assert_eq!(
            named(Das2Params {
                high: 21.0,
                ..grid(2.5)
            }),
            Err(Param::High)
        );
        assert_eq!(
            named(Das2Params {
                q: 1.5,
                ..grid(2.5)
            }),
            Err(Param::Q)
        );
        assert_eq!(
            named(Das2Params {
                p_one: -0.1,
                ..grid(2.5)
            }),
            Err(Param::POne)
        );
        assert_eq!(
            named(Das2Params {
                cap: 0,
                ..grid(2.5)
            }),
            Err(Param::Cap)
        );
        assert_eq!(
            Das2Size::new(Das2Params {
                p_one: 0.6,
                p_pow2: 0.6,
                ..grid(2.5)
            }),
            Err(DistError::SizeShares { sum: 1.2 })
        );
        assert_eq!(
            Das2Size::new(Das2Params {
                p_one: 0.6,
                p_pow2: 0.6,
                ..grid(2.5)
            })
            .unwrap_err()
            .to_string(),
            "p_one + p_pow2 is 1.2, above 1"
        );
    }
}
