//! Node failures of a failure-prone cluster: when each node goes down and comes back
//! ([`NodeEvent`], what the trace replay takes), from a synthetic process matched to measured
//! moments ([`Process`]); [`super::outages`] chooses between it and a trace.
//!
//! # The synthetic process
//! The nodes are split into `groups` groups; each group alternates between *available* and
//! *unavailable* intervals drawn independently from two distributions ([`Process::available`],
//! [`Process::unavailable`], seconds), and every node of a group goes down and comes back at the
//! same instants: failures are correlated within a group (a rack, a switch, a power feed) and
//! independent between groups. Node `n` of `N` belongs to group `floor(n groups / N)`, so 64
//! nodes in 8 groups are 8 groups of 8 contiguous nodes; `groups = N` makes every node
//! independent, `groups = 1` makes the cluster fail as one.
//!
//! Why groups (erratum E17): with Table II's moments a node is up a fraction
//! `22.25 / (22.25 + 10.22) = 0.685` of the time, so 64 independent nodes are all up with
//! probability `0.685^64 ~ 3e-11`, and a request for all 64 VMs (3.1 % of javadi2012's requests)
//! would almost never run. In 8 groups of 8 the chance is `0.685^8 = 0.049`.
//!
//! Each group starts available at `-burn_in_s` and only what happens from time 0 on is kept (a
//! group down at 0 goes down at 0), so the state at 0 is close to the process's stationary one.
//! At `horizon` every node still down comes back: after the horizon the cluster is reliable, so
//! a replay can always finish its jobs (the caller reports those that finish late).
//!
//! Intervals are whole seconds, the replay's clock: each draw is rounded to the nearest second,
//! and at least 1 s (a zero-length interval would put a node's down and up at one instant). With
//! Table II's Weibull fits the rounding moves the means by less than 1e-4 %.
//!
//! # Draws
//! Group `g` draws from its own stream, `SplitMix::for_entity(seed, g)`: an available interval,
//! then an unavailable one, and so on, each as [`Dist::sample`] draws it. Groups never share a
//! stream, so changing the number of groups changes every group's draws but nothing else.
//!
//! # Table II (javadi2012, Grid'5000)
//! [`TABLE2`] holds the measured moments; [`Fit`] matches a distribution to a mean and a
//! standard deviation: a Weibull (shape from the coefficient of variation, then scale; E17:
//! shape 0.57702 and scale 50,496 s available, 0.34928 and 7,263.8 s unavailable), a lognormal
//! (`sigma^2 = ln(1 + CV^2)`, `mu = ln(mean) - sigma^2 / 2`) or a two-phase hyperexponential with
//! balanced means (`p_1 m_1 = p_2 m_2`; needs `CV >= 1`, which Table II has). [`Process::table2`]
//! builds the process from one of them.

use std::fmt;

use super::dist::{Dist, Phase};
use crate::des::rng::SplitMix;

/// A node failing or coming back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct NodeEvent {
    /// When, seconds.
    pub at: u64,
    /// Which node, `0 .. nodes`.
    pub node: u32,
    /// `true`: the node comes back; `false`: it fails.
    pub up: bool,
}

/// Mean and standard deviation of the available and unavailable intervals, hours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Moments {
    /// `t_a`, the mean available interval, hours.
    pub available_mean_h: f64,
    /// `sigma_a`, hours.
    pub available_sd_h: f64,
    /// `t_u`, the mean unavailable interval, hours.
    pub unavailable_mean_h: f64,
    /// `sigma_u`, hours.
    pub unavailable_sd_h: f64,
}

impl Moments {
    /// The share of time a node is up, `t_a / (t_a + t_u)`.
    pub fn availability(&self) -> f64 {
        self.available_mean_h / (self.available_mean_h + self.unavailable_mean_h)
    }
}

/// javadi2012 Table II: the failure model of a 64-node Grid'5000 cluster.
pub const TABLE2: Moments = Moments {
    available_mean_h: 22.25,
    available_sd_h: 41.09,
    unavailable_mean_h: 10.22,
    unavailable_sd_h: 40.75,
};

/// Seconds per hour.
const HOUR: f64 = 3600.0;

/// The default burn-in, seconds: 30 days, about 22 mean cycles of Table II.
pub const DEFAULT_BURN_IN_S: u64 = 30 * 86_400;

/// The default number of groups (of 8 nodes each on javadi2012's 64 nodes).
pub const DEFAULT_GROUPS: u32 = 8;

/// A family of distributions matched to a mean and a standard deviation (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Weibull: shape from the coefficient of variation (bisection), then scale.
    Weibull,
    /// Lognormal: `sigma^2 = ln(1 + CV^2)`, `mu = ln(mean) - sigma^2 / 2`.
    Lognormal,
    /// Two-phase hyperexponential with balanced means (`CV >= 1`).
    Hyperexponential,
}

/// Why a fit or a process was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum FailureError {
    /// A mean or standard deviation that is not finite and positive.
    Moments {
        /// The mean given.
        mean: f64,
        /// The standard deviation given.
        sd: f64,
    },
    /// A coefficient of variation the family cannot have: below 1 for the hyperexponential,
    /// outside about `[0.02, 1e5]` for the Weibull (shapes `[0.05, 100]`).
    Cv {
        /// The family.
        fit: Fit,
        /// `sd / mean`.
        cv: f64,
    },
    /// An interval distribution with an impossible parameter, or whose mean is not finite and
    /// positive.
    Interval {
        /// `available` or `unavailable`.
        which: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// A group count outside `1 ..= nodes`.
    Groups {
        /// The groups asked for.
        groups: u32,
        /// The nodes.
        nodes: u32,
    },
}

impl fmt::Display for FailureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Moments { mean, sd } => write!(
                f,
                "mean {mean} and standard deviation {sd}: both must be finite and > 0"
            ),
            Self::Cv { fit, cv } => write!(f, "no {fit} has a coefficient of variation of {cv}"),
            Self::Interval { which, problem } => write!(f, "{which}: {problem}"),
            Self::Groups { groups, nodes } => {
                write!(
                    f,
                    "{groups} failure groups for {nodes} nodes: need 1 ..= {nodes}"
                )
            }
        }
    }
}

impl std::error::Error for FailureError {}

impl fmt::Display for Fit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Smallest and largest Weibull shape the fit searches.
const SHAPES: (f64, f64) = (0.05, 100.0);

/// The squared coefficient of variation of a Weibull of shape `k`:
/// `G(1 + 2/k) / G(1 + 1/k)^2 - 1`, decreasing in `k`.
fn weibull_cv2(k: f64) -> f64 {
    let g1 = libm::tgamma(1.0 + 1.0 / k);
    libm::tgamma(1.0 + 2.0 / k) / (g1 * g1) - 1.0
}

impl Fit {
    /// Every family, in the order the command line lists them.
    pub const ALL: [Fit; 3] = [Fit::Weibull, Fit::Lognormal, Fit::Hyperexponential];

    /// `weibull`, `lognormal` or `hyperexponential`.
    pub fn name(self) -> &'static str {
        match self {
            Fit::Weibull => "weibull",
            Fit::Lognormal => "lognormal",
            Fit::Hyperexponential => "hyperexponential",
        }
    }

    /// The family called `name` ([`Fit::name`]).
    pub fn named(name: &str) -> Option<Fit> {
        Fit::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The distribution of this family with mean `mean` and standard deviation `sd` (any unit;
    /// the result is in the same unit).
    ///
    /// Errors: [`FailureError::Moments`] unless both are finite and positive;
    /// [`FailureError::Cv`] for a coefficient of variation the family cannot have.
    pub fn matched(self, mean: f64, sd: f64) -> Result<Dist, FailureError> {
        if !(mean.is_finite() && mean > 0.0 && sd.is_finite() && sd > 0.0) {
            return Err(FailureError::Moments { mean, sd });
        }
        let cv = sd / mean;
        let cv2 = cv * cv;
        match self {
            Fit::Weibull => {
                let (lo, hi) = SHAPES;
                if !(weibull_cv2(hi)..=weibull_cv2(lo)).contains(&cv2) {
                    return Err(FailureError::Cv { fit: self, cv });
                }
                // Bisection on ln(shape): 200 halvings of a bracket of ln(2000) reach f64's
                // resolution long before the end.
                let (mut a, mut b) = (lo.ln(), hi.ln());
                for _ in 0..200 {
                    let m = 0.5 * (a + b);
                    if weibull_cv2(m.exp()) > cv2 {
                        a = m;
                    } else {
                        b = m;
                    }
                }
                let shape = (0.5 * (a + b)).exp();
                let scale = mean / libm::tgamma(1.0 + 1.0 / shape);
                Ok(Dist::Weibull { scale, shape })
            }
            Fit::Lognormal => {
                let s2 = cv2.ln_1p();
                Ok(Dist::Lognormal {
                    log_mean: mean.ln() - s2 / 2.0,
                    log_sd: s2.sqrt(),
                })
            }
            Fit::Hyperexponential => {
                if cv < 1.0 {
                    return Err(FailureError::Cv { fit: self, cv });
                }
                let p = (1.0 + ((cv2 - 1.0) / (cv2 + 1.0)).sqrt()) / 2.0;
                Ok(Dist::Hyperexponential {
                    phases: vec![
                        Phase {
                            probability: p,
                            mean: mean / (2.0 * p),
                        },
                        Phase {
                            probability: 1.0 - p,
                            mean: mean / (2.0 * (1.0 - p)),
                        },
                    ],
                })
            }
        }
    }
}

/// The synthetic failure process of a cluster (module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct Process {
    /// Lengths of the available intervals, seconds.
    pub available: Dist,
    /// Lengths of the unavailable intervals, seconds.
    pub unavailable: Dist,
    /// Groups of nodes that fail together, `1 ..= nodes`.
    pub groups: u32,
    /// Seconds the process runs before time 0.
    pub burn_in_s: u64,
}

impl Process {
    /// Table II's moments fitted by `fit` ([`Fit::matched`], in seconds), in `groups` groups,
    /// with [`DEFAULT_BURN_IN_S`].
    ///
    /// Errors: none for the families of [`Fit::ALL`] (Table II's coefficients of variation are
    /// within every family's range); the type is kept for other moments.
    pub fn table2(fit: Fit, groups: u32) -> Result<Self, FailureError> {
        let m = TABLE2;
        Ok(Self {
            available: fit.matched(m.available_mean_h * HOUR, m.available_sd_h * HOUR)?,
            unavailable: fit.matched(m.unavailable_mean_h * HOUR, m.unavailable_sd_h * HOUR)?,
            groups,
            burn_in_s: DEFAULT_BURN_IN_S,
        })
    }

    /// Checks the process for a cluster of `nodes` nodes.
    ///
    /// Errors: [`FailureError::Interval`] for a distribution with an impossible parameter
    /// ([`Dist::check`]) or a mean that is not finite and positive (every interval would be
    /// rounded up to 1 s); [`FailureError::Groups`] unless `1 <= groups <= nodes`.
    pub fn check(&self, nodes: u32) -> Result<(), FailureError> {
        for (which, d) in [
            ("available", &self.available),
            ("unavailable", &self.unavailable),
        ] {
            let problem = match d.check() {
                Err(e) => Some(format!("{}: {e}", d.key(e.param()))),
                Ok(()) if !(d.mean().is_finite() && d.mean() > 0.0) => Some(format!(
                    "the mean is {} s: it must be finite and > 0",
                    d.mean()
                )),
                Ok(()) => None,
            };
            if let Some(problem) = problem {
                return Err(FailureError::Interval { which, problem });
            }
        }
        if self.groups == 0 || self.groups > nodes {
            return Err(FailureError::Groups {
                groups: self.groups,
                nodes,
            });
        }
        Ok(())
    }

    /// The group of node `node` of `nodes` (`floor(node groups / nodes)`).
    pub fn group_of(&self, node: u32, nodes: u32) -> u32 {
        (u64::from(node) * u64::from(self.groups) / u64::from(nodes.max(1))) as u32
    }

    /// Group `group`'s intervals from the stream of `seed` (module docs: one stream per group).
    pub fn intervals(&self, seed: u64, group: u32) -> Intervals<'_> {
        Intervals {
            process: self,
            rng: SplitMix::for_entity(seed, u64::from(group)),
        }
    }

    /// Every node's failures and repairs in `[0, horizon]` on a cluster of `nodes` nodes, drawn
    /// from the streams of `seed`, sorted by `(at, node, up)`. For each node the events alternate,
    /// a failure first; a node down at `horizon` comes back at `horizon`. The caller has checked
    /// the process ([`Process::check`]); an unchecked one gives whatever its draws give.
    ///
    /// Cost: one pass per group over its intervals up to `burn_in_s + horizon` (at most one
    /// interval per second); the result holds two events per node and outage.
    pub fn events(&self, nodes: u32, horizon: u64, seed: u64) -> Vec<NodeEvent> {
        let groups = self.groups.clamp(1, nodes.max(1));
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); groups as usize];
        for n in 0..nodes {
            members[(self.group_of(n, nodes).min(groups - 1)) as usize].push(n);
        }
        let (begin, end) = (self.burn_in_s, self.burn_in_s.saturating_add(horizon));
        let mut out = Vec::new();
        for (g, group) in (0..groups).zip(&members) {
            let mut draws = self.intervals(seed, g);
            // Time from the start of the burn-in.
            let mut t = 0u64;
            while t < end {
                let (up, down) = draws.cycle();
                let fail = t.saturating_add(up);
                let repair = fail.saturating_add(down);
                let (from, to) = (fail.max(begin), repair.min(end));
                if from < to {
                    for &n in group {
                        out.push(NodeEvent {
                            at: from - begin,
                            node: n,
                            up: false,
                        });
                        out.push(NodeEvent {
                            at: to - begin,
                            node: n,
                            up: true,
                        });
                    }
                }
                t = repair;
            }
        }
        out.sort_unstable();
        out
    }
}

/// What a list of failures amounts to, for reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct Tally {
    /// Outages (a node going down and coming back).
    pub outages: u64,
    /// Nodes that fail at least once.
    pub nodes_failing: u32,
    /// Node-hours down.
    pub down_node_hours: f64,
}

impl Tally {
    /// The tally of `events` (sorted, alternating per node, as [`Process::events`] gives them).
    pub fn of(events: &[NodeEvent]) -> Self {
        let mut since = std::collections::BTreeMap::new();
        let mut t = Tally::default();
        for e in events {
            if e.up {
                if let Some(from) = since.insert(e.node, None).flatten() {
                    t.down_node_hours += (e.at - from) as f64 / HOUR;
                    t.outages += 1;
                }
            } else if since.insert(e.node, Some(e.at)).is_none() {
                t.nodes_failing += 1;
            }
        }
        t
    }
}

/// One group's alternating intervals, whole seconds ([`Process::intervals`]).
pub struct Intervals<'a> {
    process: &'a Process,
    rng: SplitMix,
}

impl Intervals<'_> {
    /// The next available interval and the unavailable one after it, seconds (each at least 1).
    pub fn cycle(&mut self) -> (u64, u64) {
        let up = whole_seconds(self.process.available.sample(&mut self.rng));
        let down = whole_seconds(self.process.unavailable.sample(&mut self.rng));
        (up, down)
    }
}

/// `x` seconds rounded to the nearest whole second, at least 1 (saturating at `u64::MAX`).
fn whole_seconds(x: f64) -> u64 {
    if x.is_nan() {
        1
    } else {
        (x.round() as u64).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::super::dist::tests::{DRAWS, sample_moments};
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs()
    }

    /// The fits reproduce erratum E17's numbers, and each has Table II's two moments.
    #[test]
    fn table2_fits_are_e17s_and_have_table2s_moments() {
        let p = Process::table2(Fit::Weibull, 8).unwrap();
        let Dist::Weibull { scale, shape } = p.available else {
            panic!("{:?}", p.available)
        };
        assert!(close(shape, 0.57702, 1e-4) && close(scale, 50_496.0, 1e-4));
        let Dist::Weibull { scale, shape } = p.unavailable else {
            panic!("{:?}", p.unavailable)
        };
        assert!(close(shape, 0.34928, 1e-4) && close(scale, 7_263.8, 1e-4));
        let p = Process::table2(Fit::Lognormal, 8).unwrap();
        let Dist::Lognormal { log_mean, log_sd } = p.available else {
            panic!()
        };
        // E17 gives ln hours: 2.36035, 1.21819.
        assert!(close(log_mean - HOUR.ln(), 2.36035, 1e-5) && close(log_sd, 1.21819, 1e-5));
        let Dist::Lognormal { log_mean, log_sd } = p.unavailable else {
            panic!()
        };
        assert!(close(log_mean - HOUR.ln(), 0.91074, 1e-5) && close(log_sd, 1.68143, 1e-5));
        for fit in Fit::ALL {
            let p = Process::table2(fit, 8).unwrap();
            p.check(64).unwrap();
            for (d, mean, sd) in [(&p.available, 22.25, 41.09), (&p.unavailable, 10.22, 40.75)] {
                assert!(close(d.mean(), mean * HOUR, 1e-9), "{fit}: {d:?}");
                assert!(close(d.variance().sqrt(), sd * HOUR, 1e-9), "{fit}: {d:?}");
            }
        }
    }

    #[test]
    fn impossible_fits_and_processes_are_refused() {
        assert_eq!(
            Fit::Hyperexponential.matched(10.0, 5.0),
            Err(FailureError::Cv {
                fit: Fit::Hyperexponential,
                cv: 0.5
            })
        );
        assert!(matches!(
            Fit::Weibull.matched(1.0, 1e9),
            Err(FailureError::Cv { .. })
        ));
        assert!(matches!(
            Fit::Lognormal.matched(0.0, 1.0),
            Err(FailureError::Moments { .. })
        ));
        let p = Process::table2(Fit::Weibull, 65).unwrap();
        assert_eq!(
            p.check(64).unwrap_err().to_string(),
            "65 failure groups for 64 nodes: need 1 ..= 64"
        );
        let bad = Process {
            unavailable: Dist::Weibull {
                scale: 1.0,
                shape: -1.0,
            },
            ..Process::table2(Fit::Weibull, 8).unwrap()
        };
        assert_eq!(
            bad.check(64).unwrap_err().to_string(),
            "unavailable: weibull.shape: shape must be > 0, got -1"
        );
    }

    /// 10^6 cycles of the generator under each fit: the mean of each kind of interval within 2 %
    /// of Table II's, its standard deviation within 10 %. For the lognormal fit the spread is
    /// checked on the log scale instead: its unavailable intervals have a kurtosis near 8e4, so
    /// the raw standard deviation of 10^6 draws wanders by about 14 % (one standard error);
    /// `ln X` of a lognormal is normal, with the fit's `log_sd` as its standard deviation.
    #[test]
    fn generated_intervals_have_table2s_moments() {
        for (seed, fit) in (40..).zip(Fit::ALL) {
            let p = Process::table2(fit, 1).unwrap();
            let mut draws = p.intervals(seed, 0);
            let (ups, downs): (Vec<f64>, Vec<f64>) = (0..DRAWS)
                .map(|_| {
                    let (u, d) = draws.cycle();
                    (u as f64, d as f64)
                })
                .unzip();
            for (xs, d, mean_h, sd_h) in [
                (&ups, &p.available, 22.25, 41.09),
                (&downs, &p.unavailable, 10.22, 40.75),
            ] {
                let (m, v) = sample_moments(xs);
                assert!(close(m, mean_h * HOUR, 0.02), "{fit}: mean {m}");
                if let Dist::Lognormal { log_sd, .. } = d {
                    let logs: Vec<f64> = xs.iter().map(|x| x.ln()).collect();
                    let (_, lv) = sample_moments(&logs);
                    assert!(
                        close(lv.sqrt(), *log_sd, 0.02),
                        "{fit}: log sd {}",
                        lv.sqrt()
                    );
                } else {
                    assert!(close(v.sqrt(), sd_h * HOUR, 0.10), "{fit}: sd {}", v.sqrt());
                }
            }
        }
    }

    /// Every node of a group fails and comes back at the same instants; each node alternates
    /// down, up; nothing happens after the horizon, where every node is up.
    #[test]
    fn a_group_shares_its_state_and_every_node_ends_up() {
        let p = Process::table2(Fit::Weibull, 8).unwrap();
        let horizon = 60 * 86_400;
        let events = p.events(64, horizon, 7);
        assert!(events.windows(2).all(|w| w[0] < w[1]));
        let per_node = |n: u32| -> Vec<(u64, bool)> {
            events
                .iter()
                .filter(|e| e.node == n)
                .map(|e| (e.at, e.up))
                .collect()
        };
        for n in 0..64 {
            let mine = per_node(n);
            assert!(!mine.is_empty(), "node {n} never fails in 60 days");
            assert_eq!(mine, per_node(n / 8 * 8), "node {n} and its group's first");
            for (i, &(at, up)) in mine.iter().enumerate() {
                assert_eq!(up, i % 2 == 1, "node {n}: event {i}");
                assert!(at <= horizon);
            }
        }
        // Groups are independent: group 0 and group 1 differ.
        assert_ne!(per_node(0), per_node(8));
        // The share of node-time down is near 1 - 0.685 (a loose check: 8 groups, 60 days).
        let down: u64 = (0..64)
            .map(|n| per_node(n).chunks(2).map(|c| c[1].0 - c[0].0).sum::<u64>())
            .sum();
        let share = down as f64 / (64.0 * horizon as f64);
        assert!((0.05..0.7).contains(&share), "{share}");
    }

    /// One group is the whole cluster; as many groups as nodes are independent nodes.
    #[test]
    fn one_group_fails_as_one_and_one_per_node_fails_alone() {
        let mut p = Process::table2(Fit::Hyperexponential, 1).unwrap();
        let events = p.events(4, 30 * 86_400, 3);
        let firsts: Vec<u64> = (0..4)
            .map(|n| events.iter().find(|e| e.node == n).unwrap().at)
            .collect();
        assert!(firsts.iter().all(|&t| t == firsts[0]));
        p.groups = 4;
        assert_eq!(
            (0..4).map(|n| p.group_of(n, 4)).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
        let events = p.events(4, 30 * 86_400, 3);
        let firsts: Vec<u64> = (0..4)
            .map(|n| events.iter().find(|e| e.node == n).map_or(0, |e| e.at))
            .collect();
        assert!(firsts.windows(2).any(|w| w[0] != w[1]), "{firsts:?}");
    }

    /// The same seed gives the same events; the burn-in shifts the window, so the state at 0
    /// differs with it.
    #[test]
    fn events_are_a_function_of_the_seed() {
        let p = Process::table2(Fit::Lognormal, 8).unwrap();
        assert_eq!(p.events(64, 86_400 * 10, 5), p.events(64, 86_400 * 10, 5));
        assert_ne!(p.events(64, 86_400 * 10, 5), p.events(64, 86_400 * 10, 6));
        let early = Process {
            burn_in_s: 0,
            ..p.clone()
        };
        assert_ne!(
            early.events(64, 86_400 * 10, 5),
            p.events(64, 86_400 * 10, 5)
        );
        // Without a burn-in every group starts available: nothing is down at 0.
        assert!(early.events(64, 86_400 * 10, 5).iter().all(|e| e.at > 0));
    }
}
