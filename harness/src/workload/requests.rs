//! Parallel requests for virtual machines, as javadi2012 generates them (Sec. VI-A, Table I): the
//! DAS-2 *parallel job* model of the Grid Workloads Archive. A request arrives, asks for `v` VMs
//! (all at once, on one provider) for `d` seconds.
//!
//! - Inter-arrival times: [`RequestModel::interarrival`], seconds (Table I: Weibull of scale
//!   23.375 and shape 0.2-0.3), divided by [`RequestModel::load_scale`] (1 is the paper's rate;
//!   2 doubles it with the same draws).
//! - Sizes: the DAS-2 two-stage log-uniform rule ([`super::das2`]; Table I: `l = 0.8`, `m = 3.5`,
//!   `h = 6`, `q = 0.9`, `P_one = 0.02`, `P_pow2 = 0.78`), cut to its `cap` and to the smallest
//!   provider.
//! - Durations: [`RequestModel::duration`], seconds on nodes of [`RequestModel::reference_mips`]
//!   (Table I: lognormal, `theta = 2.5-3.5`, `sigma = 1.7`; javadi2012's nodes run 1000 MIPS).
//!
//! # Whole seconds
//! The replay's clock counts whole seconds: arrival instants (the running sum of the
//! inter-arrival draws) are rounded to the nearest second, so requests closer than that share an
//! instant and keep their order; a duration is rounded to the nearest second and is at least 1 s.
//! The moments the broker uses ([`RequestModel::arrival_rate`], ...) are the distributions' own.
//!
//! # Draws
//! Three streams of the replication's seed: arrivals `SplitMix::for_entity(seed, 0)`, sizes
//! `for_entity(seed, 1)` (three draws each), durations `for_entity(seed, 2)`. Request `i`'s size
//! and duration are therefore the same whatever the arrival process: runs that differ only in
//! the inter-arrival distribution or the load scale share them (common random numbers).

use serde::{Deserialize, Serialize};

use super::das2::{Das2Params, Das2Size};
use super::dist::{Dist, DistError, Distribution};
use crate::des::rng::SplitMix;

/// The request workload (module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestModel {
    /// Time between two arrivals, seconds (before the load scale).
    pub interarrival: Dist,
    /// Arrival-rate multiplier: every inter-arrival draw is divided by it (default 1).
    #[serde(default = "one")]
    pub load_scale: f64,
    /// VMs per request: the DAS-2 rule (its `cap` is cut further to the smallest provider).
    pub size: Das2Params,
    /// Run time on a node of `reference_mips`, seconds.
    pub duration: Dist,
    /// The speed the durations are measured at, MIPS (javadi2012: 1000).
    pub reference_mips: f64,
    /// A request is planned with `ceil(run x estimate_factor)` seconds, `>= 1` (default 1:
    /// exact estimates, which javadi2012 does not discuss).
    #[serde(default = "one")]
    pub estimate_factor: f64,
}

fn one() -> f64 {
    1.0
}

/// One request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// Number, from 0 in arrival order.
    pub id: u64,
    /// Arrival at the broker, whole seconds.
    pub arrival_s: u64,
    /// VMs, all needed at once.
    pub vms: u32,
    /// Run time on a node of the reference speed, whole seconds, `>= 1`.
    pub duration_s: u64,
}

/// javadi2012 Table I's sizes: `l = 0.8`, `m = 3.5`, `h = 6` (at most 64 VMs), `q = 0.9`,
/// `P_one = 0.02`, `P_pow2 = 0.78`.
pub const TABLE1_SIZES: Das2Params = Das2Params {
    low: 0.8,
    mid: 3.5,
    high: 6.0,
    q: 0.9,
    p_one: 0.02,
    p_pow2: 0.78,
    cap: 64,
};

/// javadi2012 Table I's scale of the Weibull inter-arrival times, seconds.
pub const TABLE1_INTERARRIVAL_SCALE_S: f64 = 23.375;

/// javadi2012 Table I's `sigma` of the lognormal durations.
pub const TABLE1_DURATION_LOG_SD: f64 = 1.7;

/// The nodes' speed in javadi2012 (Sec. VI-B), MIPS: the durations' reference.
pub const TABLE1_MIPS: f64 = 1000.0;

impl RequestModel {
    /// javadi2012 Table I at Weibull shape `beta` and lognormal `theta`: inter-arrival times
    /// Weibull(23.375, `beta`), [`TABLE1_SIZES`], durations lognormal(`theta`, 1.7) seconds at
    /// 1000 MIPS, the paper's rate (`load_scale` 1) and exact estimates.
    pub fn table1(beta: f64, theta: f64) -> Self {
        RequestModel {
            interarrival: Dist::Weibull {
                scale: TABLE1_INTERARRIVAL_SCALE_S,
                shape: beta,
            },
            load_scale: 1.0,
            size: TABLE1_SIZES,
            duration: Dist::Lognormal {
                log_mean: theta,
                log_sd: TABLE1_DURATION_LOG_SD,
            },
            reference_mips: TABLE1_MIPS,
            estimate_factor: 1.0,
        }
    }

    /// The size model, cut to `cap` VMs (and to the rule's own cap if smaller).
    ///
    /// Errors: those of [`Das2Size::new`], naming the parameter.
    pub fn sizes(&self, cap: u32) -> Result<Das2Size, DistError> {
        Das2Size::new(Das2Params {
            cap: self.size.cap.min(cap),
            ..self.size
        })
    }

    /// `lambda`: arrivals per second, `load_scale / E[I]`.
    pub fn arrival_rate(&self) -> f64 {
        self.load_scale / self.interarrival.mean()
    }

    /// `sigma_I^2`: the variance of the (scaled) inter-arrival time, seconds squared.
    pub fn arrival_variance(&self) -> f64 {
        self.interarrival.variance() / (self.load_scale * self.load_scale)
    }

    /// `V D`: the mean VMs times the mean duration, VM-seconds at the reference speed (sizes
    /// and durations are independent). The mean size is the exact one of the rule (E7), not
    /// javadi2012's Eq. 16-17.
    ///
    /// Errors: a size rule [`Das2Size::new`] refuses.
    pub fn mean_vm_seconds(&self, cap: u32) -> Result<f64, DistError> {
        Ok(self.sizes(cap)?.mean() * self.duration.mean())
    }

    /// `W`: the mean work of a request, MI (`V D` times the reference speed).
    ///
    /// Errors: as [`RequestModel::mean_vm_seconds`].
    pub fn mean_work_mi(&self, cap: u32) -> Result<f64, DistError> {
        Ok(self.mean_vm_seconds(cap)? * self.reference_mips)
    }

    /// The offered load on `nodes` nodes of the reference speed: `lambda V D / nodes`.
    ///
    /// Errors: as [`RequestModel::mean_vm_seconds`].
    pub fn offered_load(&self, nodes: u32) -> Result<f64, DistError> {
        Ok(self.arrival_rate() * self.mean_vm_seconds(nodes)? / f64::from(nodes))
    }

    /// The requests arriving in `[0, horizon_s)` of the replication seeded `seed`, sizes cut to
    /// `cap` (module docs: streams and rounding). The caller has checked the distributions; an
    /// inter-arrival distribution that draws only zeros would never reach the horizon, so the
    /// caller also keeps its mean positive.
    ///
    /// Errors: a size rule [`Das2Size::new`] refuses.
    pub fn generate(&self, cap: u32, horizon_s: u64, seed: u64) -> Result<Vec<Request>, DistError> {
        let sizes = self.sizes(cap)?;
        let mut arrivals = SplitMix::for_entity(seed, 0);
        let mut size_draws = SplitMix::for_entity(seed, 1);
        let mut duration_draws = SplitMix::for_entity(seed, 2);
        let mut out = Vec::new();
        let mut t = 0.0f64;
        loop {
            t += self.interarrival.sample(&mut arrivals) / self.load_scale;
            let arrival_s = t.round();
            if arrival_s.is_nan() || arrival_s >= horizon_s as f64 {
                return Ok(out);
            }
            let duration = self.duration.sample(&mut duration_draws).round().max(1.0);
            out.push(Request {
                id: out.len() as u64,
                arrival_s: arrival_s as u64,
                vms: sizes.size(&mut size_draws),
                duration_s: duration as u64,
            });
        }
    }

    /// The time request `r` runs on a node of `mips`, whole seconds: `ceil(d reference / mips)`,
    /// at least 1.
    pub fn run_s(&self, r: &Request, mips: f64) -> u64 {
        ((r.duration_s as f64 * self.reference_mips / mips).ceil() as u64).max(1)
    }

    /// What a request that runs `run_s` seconds is planned with: `ceil(run x estimate_factor)`.
    pub fn estimate_s(&self, run_s: u64) -> u64 {
        ((run_s as f64 * self.estimate_factor).ceil() as u64).max(run_s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers: at beta 0.25 and theta 3 the offered load is about 2.4 % of 64 nodes
    /// (a mean inter-arrival of 23.375 G(5) = 561 s).
    #[test]
    fn table1_offers_a_tiny_load() {
        let m = RequestModel::table1(0.25, 3.0);
        assert!((1.0 / m.arrival_rate() - 561.0).abs() < 1e-9);
        let load = m.offered_load(64).unwrap();
        assert!((0.022..0.026).contains(&load), "{load}");
        let doubled = RequestModel {
            load_scale: 2.0,
            ..m.clone()
        };
        assert!((doubled.offered_load(64).unwrap() - 2.0 * load).abs() < 1e-12);
        assert!((doubled.arrival_variance() * 4.0 - m.arrival_variance()).abs() < 1e-6);
    }

    /// Arrivals ascend within the horizon; sizes and durations are request `i`'s whatever the
    /// arrival process (common random numbers), and the arrival count follows the load scale.
    #[test]
    fn sizes_and_durations_do_not_depend_on_the_arrivals() {
        let a = RequestModel::table1(0.25, 3.0)
            .generate(64, 30 * 86_400, 9)
            .unwrap();
        let b = RequestModel {
            load_scale: 3.0,
            ..RequestModel::table1(0.2, 3.0)
        }
        .generate(64, 30 * 86_400, 9)
        .unwrap();
        assert!(a.windows(2).all(|w| w[0].arrival_s <= w[1].arrival_s));
        assert!(
            a.iter()
                .all(|r| r.arrival_s < 30 * 86_400 && (1..=64).contains(&r.vms))
        );
        let n = a.len().min(b.len());
        assert!(n > 1000, "{n}");
        for (x, y) in a.iter().zip(&b).take(n) {
            assert_eq!((x.id, x.vms, x.duration_s), (y.id, y.vms, y.duration_s));
        }
        // Beta 0.2 has a mean of 23.375 G(6) = 2805 s; at scale 3, 935 s: fewer than at 0.25.
        assert!(b.len() < a.len());
        let m = RequestModel::table1(0.25, 3.0);
        let r = a[0];
        assert_eq!(m.run_s(&r, 1000.0), r.duration_s);
        assert_eq!(m.run_s(&r, 2000.0), r.duration_s.div_ceil(2).max(1));
        assert_eq!(m.estimate_s(7), 7);
        let loose = RequestModel {
            estimate_factor: 1.5,
            ..m
        };
        assert_eq!(loose.estimate_s(7), 11);
    }
}
