//! The runner every reproduction shares: a plan of the (variant, replication) pairs, simulated
//! in parallel (rayon) whole or by shard, or read back from run files; the metrics handed to the
//! parts' judges by variant.
//!
//! Replications: a variant whose model says it is deterministic ([`Model::deterministic`])
//! runs once by default (every replication would be the same run). A random one runs by
//! precision ([`Precision`]): `first` times, then, while a claim of a part reading it is
//! unsettled (undecided and at least half its margin wide, [`crate::report::statement`]),
//! twice as many, up to the paper's cap ([`Plan::grow`], driven by
//! [`super::Paper::reproduce`]). `Options::replications` runs every variant that many times
//! instead, and so do shards and stored runs (the cap, without it), whose plan must be known
//! before anything runs. Replication `k` of a variant is the model's replication `k` of its
//! scenario, so results do not depend on which other variants run, on the thread count, on the
//! rounds that ran them or on the shard: a reproduction judged from its shards' run files
//! ([`Plan::merge`]) is the reproduction run whole at the same counts, byte for byte.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use anyhow::{Context, Result, bail, ensure};
use rayon::prelude::*;
use serde_json::value::RawValue;

use super::runfile::{self, Line, Replications, StoredRun, VERSION};
use super::shard::Shard;
use super::{Experiment, Part};
use crate::experiments::Simulation;
use crate::models::{AnyScenario, Model, ScenarioFile};
use crate::report::progress::Progress;
use crate::report::statement::{Interval, Method};
use crate::report::stats::{Estimate, t975};
use crate::report::{Parameters, Replicated, Report, Section};

/// The metrics of every replication of every variant, by the variant's key ([`key`]: its
/// parameters as JSON), with which variants are deterministic. A read of a variant that has no
/// runs gives nothing and is remembered: the runner turns it into an error naming the variant
/// (a judge reading a variant its part did not run is a bug, not a missing value).
#[derive(Debug)]
pub struct Runs<M> {
    by_key: BTreeMap<String, Vec<M>>,
    /// The keys of the deterministic variants (their one run is exact).
    fixed: BTreeSet<String>,
    /// Keys read that have no runs.
    unknown: RefCell<BTreeSet<String>>,
}

impl<M> Runs<M> {
    /// No runs at all: every estimate is missing (for tests of the judges).
    pub fn empty() -> Self {
        Runs {
            by_key: BTreeMap::new(),
            fixed: BTreeSet::new(),
            unknown: RefCell::new(BTreeSet::new()),
        }
    }

    /// The runs of `variant`, remembering a variant without any.
    fn get(&self, variant: &impl serde::Serialize) -> Option<&Vec<M>> {
        let k = key(variant);
        let runs = self.by_key.get(&k);
        if runs.is_none() {
            self.unknown.borrow_mut().insert(k);
        }
        runs
    }

    /// The variants read that have no runs, forgotten as they are returned.
    pub fn take_unknown(&self) -> BTreeSet<String> {
        std::mem::take(&mut self.unknown.borrow_mut())
    }

    /// Whether `variant` is deterministic (its one run is exact).
    fn is_fixed(&self, variant: &impl serde::Serialize) -> bool {
        self.fixed.contains(&key(variant))
    }

    /// The mean of `f` at `variant` with its 95 % interval (Student t); exact for a
    /// deterministic variant; one replication of a random one has no interval (infinitely
    /// wide). `None` without a defined value.
    pub fn level(
        &self,
        variant: &impl serde::Serialize,
        f: impl Fn(&M) -> Option<f64>,
    ) -> Option<Interval> {
        let samples: Vec<f64> = self.get(variant)?.iter().filter_map(f).collect();
        interval(&samples, self.is_fixed(variant), Method::Mean)
    }

    /// `f(a) - f(b)` over paired replications with its 95 % interval: replication `k` of `a`
    /// against replication `k` of `b`, over the `k` where both are defined. Variants of one
    /// scenario family draw the same random numbers in replication `k` (common random
    /// numbers), so the paired difference is far tighter than the difference of two levels. A
    /// deterministic variant's one run pairs with every replication of the other. Exact when
    /// both are deterministic.
    pub fn diff(
        &self,
        a: &impl serde::Serialize,
        b: &impl serde::Serialize,
        f: impl Fn(&M) -> Option<f64>,
    ) -> Option<Interval> {
        let samples: Vec<f64> = self
            .pairs(a, b)?
            .filter_map(|(x, y)| Some(f(x)? - f(y)?))
            .collect();
        let exact = self.is_fixed(a) && self.is_fixed(b);
        interval(&samples, exact, Method::PairedDifference)
    }

    /// The ratio of the means of `f` at `a` and at `b` over paired replications (where both
    /// are defined), with its 95 % interval by the delta method:
    /// `R = mean(x) / mean(y)`, `var(R) ~ (s_x^2 - 2 R s_xy + R^2 s_y^2) / (n mean(y)^2)`.
    /// Not the mean of per-replication ratios, which is biased upward. `None` without pairs or
    /// with `mean(y) = 0`.
    pub fn ratio_of_means(
        &self,
        a: &impl serde::Serialize,
        b: &impl serde::Serialize,
        f: impl Fn(&M) -> Option<f64>,
    ) -> Option<Interval> {
        let pairs: Vec<(f64, f64)> = self
            .pairs(a, b)?
            .filter_map(|(x, y)| Some((f(x)?, f(y)?)))
            .collect();
        let n = pairs.len();
        if n == 0 {
            return None;
        }
        let nf = n as f64;
        let (mx, my) = (
            pairs.iter().map(|p| p.0).sum::<f64>() / nf,
            pairs.iter().map(|p| p.1).sum::<f64>() / nf,
        );
        if my == 0.0 {
            return None;
        }
        let r = mx / my;
        let exact = self.is_fixed(a) && self.is_fixed(b);
        if exact || n == 1 {
            return Some(spread(r, exact, n, Method::RatioOfMeans));
        }
        let cov = |u: fn(&(f64, f64)) -> f64, v: fn(&(f64, f64)) -> f64, mu, mv| {
            pairs.iter().map(|p| (u(p) - mu) * (v(p) - mv)).sum::<f64>() / (nf - 1.0)
        };
        let (sxx, syy, sxy) = (
            cov(|p| p.0, |p| p.0, mx, mx),
            cov(|p| p.1, |p| p.1, my, my),
            cov(|p| p.0, |p| p.1, mx, my),
        );
        let var = ((sxx - 2.0 * r * sxy + r * r * syy) / (nf * my * my)).max(0.0);
        let h = t975(n - 1) * var.sqrt();
        Some(Interval {
            estimate: r,
            low: r - h,
            high: r + h,
            n,
            method: Method::RatioOfMeans,
        })
    }

    /// `g` of replication `k` of every variant of `vs` together (common random numbers, as
    /// [`Runs::diff`] pairs two), over the `k` where it is defined, with its 95 % interval:
    /// a difference of differences, a difference relative to a third metric, ... Exact when
    /// every variant is deterministic.
    pub fn combined<V: serde::Serialize>(
        &self,
        vs: &[V],
        g: impl Fn(&[&M]) -> Option<f64>,
    ) -> Option<Interval> {
        let runs: Vec<&Vec<M>> = vs.iter().map(|v| self.get(v)).collect::<Option<_>>()?;
        let lens = || runs.iter().map(|r| r.len());
        let n = if lens().all(|l| l == 1) {
            1
        } else {
            lens().filter(|&l| l > 1).min().unwrap_or(0)
        };
        let samples: Vec<f64> = (0..n)
            .filter_map(|k| g(&runs.iter().map(|r| pick(r, k)).collect::<Vec<_>>()))
            .collect();
        let exact = vs.iter().all(|v| self.is_fixed(v));
        interval(&samples, exact, Method::PairedDifference)
    }

    /// Replication `k` of `a` with replication `k` of `b`, as [`Runs::diff`] pairs them.
    fn pairs<'a>(
        &'a self,
        a: &impl serde::Serialize,
        b: &impl serde::Serialize,
    ) -> Option<impl Iterator<Item = (&'a M, &'a M)>> {
        let (a, b) = (self.get(a)?, self.get(b)?);
        let n = if a.len() == 1 || b.len() == 1 {
            a.len().max(b.len())
        } else {
            a.len().min(b.len())
        };
        Some((0..n).map(move |k| (pick(a, k), pick(b, k))))
    }

    /// The estimate of `f` at `variant` over the replications where `f` is defined; `None`
    /// if the variant has no runs or `f` is undefined in all of them.
    pub fn estimate(
        &self,
        variant: &impl serde::Serialize,
        f: impl Fn(&M) -> Option<f64>,
    ) -> Option<Estimate> {
        let samples: Vec<f64> = self.get(variant)?.iter().filter_map(f).collect();
        Estimate::of(&samples)
    }

    /// The mean of `f` at `variant` (NaN when undefined: every comparison with it fails).
    pub fn mean(&self, variant: &impl serde::Serialize, f: impl Fn(&M) -> Option<f64>) -> f64 {
        self.estimate(variant, f).map_or(f64::NAN, |e| e.mean)
    }
}

/// Replication `k` of `runs`, or its only run (a deterministic variant's).
fn pick<M>(runs: &[M], k: usize) -> &M {
    if runs.len() == 1 { &runs[0] } else { &runs[k] }
}

/// The interval of the mean of `samples`: exact (`exact`: a deterministic value), Student t,
/// or, for one sample of a random variant, infinitely wide (no spread to estimate from).
fn interval(samples: &[f64], exact: bool, method: Method) -> Option<Interval> {
    let e = Estimate::of(samples)?;
    Some(match e.half_width {
        Some(h) if !exact => Interval {
            estimate: e.mean,
            low: e.mean - h,
            high: e.mean + h,
            n: e.n,
            method,
        },
        _ => spread(e.mean, exact, e.n, method),
    })
}

/// `value` exact, or with no interval at all (infinitely wide).
fn spread(value: f64, exact: bool, n: usize, method: Method) -> Interval {
    if exact {
        Interval {
            n,
            ..Interval::exact(value)
        }
    } else {
        Interval {
            estimate: value,
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
            n,
            method,
        }
    }
}

/// The key runs are stored under: the variant's parameters as JSON (a variant whose parameters
/// do not serialize has the key `?`, which no run has).
pub fn key(variant: &impl serde::Serialize) -> String {
    serde_json::to_string(variant).unwrap_or_else(|_| "?".to_owned())
}

/// Replications by precision: each random variant runs `first` times, then twice as many while a
/// claim reading it is unsettled, up to `cap`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Precision {
    /// The first batch.
    pub first: u32,
    /// The most (the paper's own count where it states one).
    pub cap: u32,
}

/// What a reproduction runs: every distinct variant of its parts once (in the order the parts
/// first name it) with its scenario, and every (variant, replication) pair in plan order.
pub struct Plan<'p, E: Experiment> {
    parts: &'p [Part<E>],
    /// The variants' keys, in plan order.
    keys: Vec<String>,
    /// Their scenarios.
    scenarios: Vec<<E::Model as Model>::Scenario>,
    /// Their scenarios' fingerprints ([`runfile::fingerprint`]).
    fingerprints: Vec<String>,
    /// Whether each is deterministic.
    fixed: Vec<bool>,
    /// The parts (indices into `parts`) that name each.
    parts_of: Vec<Vec<usize>>,
    /// The runs: (variant index, replication), replications of a variant ascending.
    jobs: Vec<(usize, u32)>,
    /// Replications of each variant planned so far.
    counts: Vec<u32>,
    /// The counts a fixed plan was made with (what run files record); `None` for a plan by
    /// precision.
    replications: Option<Replications>,
    /// Replications by precision.
    precision: Precision,
}

/// One simulated run.
pub struct Done<M> {
    /// Its position in the plan.
    pub job: usize,
    /// Its metrics.
    pub metrics: M,
    /// Simulation events processed.
    pub events: u64,
    /// Its own wall time (simulation and metrics), seconds.
    pub wall_s: f64,
}

/// At most this many problems of a merge are listed (then how many more).
const LISTED: usize = 12;

impl<'p, E: Experiment> Plan<'p, E> {
    /// The fixed plan of `parts` at `replications` (`None`: every random
    /// variant at the paper's cap, every deterministic one once): for shards and stored runs.
    ///
    /// Errors: zero replications, or a variant whose scenario cannot be built.
    pub fn new(parts: &'p [Part<E>], replications: Option<u32>, seed: Option<u64>) -> Result<Self> {
        if let Some(n) = replications {
            crate::config::check_replications(n)
                .map_err(|m| anyhow::anyhow!("--replications: {m}"))?;
        }
        let replications = Replications {
            random: replications.unwrap_or(E::REPLICATIONS.cap),
            fixed: replications.unwrap_or(1),
        };
        Self::with(parts, replications, Some(replications), seed)
    }

    /// The plan by precision of `parts`: every random variant `first` times (then
    /// [`Plan::grow`]), every deterministic one once.
    ///
    /// Errors: a variant whose scenario cannot be built.
    pub fn by_precision(parts: &'p [Part<E>], seed: Option<u64>) -> Result<Self> {
        let first = Replications {
            random: E::REPLICATIONS.first,
            fixed: 1,
        };
        Self::with(parts, first, None, seed)
    }

    fn with(
        parts: &'p [Part<E>],
        counts: Replications,
        replications: Option<Replications>,
        seed: Option<u64>,
    ) -> Result<Self> {
        let mut keys: Vec<String> = Vec::new();
        let mut scenarios = Vec::new();
        for v in parts.iter().flat_map(|p| &p.variants) {
            let k = key(v);
            if !keys.contains(&k) {
                let mut scenario = v.scenario()?;
                if let Some(base) = seed {
                    scenario.reseed(base);
                }
                scenarios.push(scenario);
                keys.push(k);
            }
        }
        let fixed: Vec<bool> = scenarios.iter().map(E::Model::deterministic).collect();
        let parts_of = keys
            .iter()
            .map(|k| {
                (0..parts.len())
                    .filter(|&p| parts[p].variants.iter().any(|v| key(v) == *k))
                    .collect()
            })
            .collect();
        let counts: Vec<u32> = fixed
            .iter()
            .map(|&f| if f { counts.fixed } else { counts.random })
            .collect();
        let jobs = counts
            .iter()
            .enumerate()
            .flat_map(|(v, &n)| (0..n).map(move |k| (v, k)))
            .collect();
        Ok(Plan {
            parts,
            fingerprints: scenarios.iter().map(runfile::fingerprint).collect(),
            keys,
            scenarios,
            fixed,
            parts_of,
            jobs,
            counts,
            replications,
            precision: E::REPLICATIONS,
        })
    }

    /// Doubles the replications (up to the cap) of the random variants of the parts whose
    /// `sections` hold an unsettled statement, appending their new runs to the plan; the jobs
    /// added, in plan order (none: every part is settled or at its cap).
    pub fn grow(&mut self, sections: &[Section]) -> Vec<usize> {
        let mut grown: BTreeSet<usize> = BTreeSet::new();
        for (part, section) in self.parts.iter().zip(sections) {
            if section.statements.iter().all(|s| s.settled) {
                continue;
            }
            for v in &part.variants {
                if let Some(i) = self.keys.iter().position(|k| *k == key(v)) {
                    grown.insert(i);
                }
            }
        }
        let start = self.jobs.len();
        for i in grown {
            let n = self.counts[i];
            if self.fixed[i] || n >= self.precision.cap {
                continue;
            }
            let more = n.saturating_mul(2).min(self.precision.cap);
            self.jobs.extend((n..more).map(|k| (i, k)));
            self.counts[i] = more;
        }
        (start..self.jobs.len()).collect()
    }

    /// Every job of the plan.
    pub fn all_jobs(&self) -> Vec<usize> {
        (0..self.jobs.len()).collect()
    }

    /// How many runs the plan holds.
    pub fn len(&self) -> usize {
        self.jobs.len()
    }

    /// Whether the plan holds no run (no part has a variant).
    pub fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }

    /// Simulates the runs of `shard` in parallel, in plan order, each planned and reported
    /// done to `progress` (with the parts that name its variant).
    ///
    /// Errors: a simulation error (named by its scenario and replication).
    pub fn simulate(
        &self,
        shard: Shard,
        progress: &Progress,
    ) -> Result<Vec<Done<<E::Model as Model>::Metrics>>> {
        let jobs: Vec<usize> = (0..self.jobs.len()).filter(|&i| shard.holds(i)).collect();
        self.simulate_jobs(&jobs, progress)
    }

    /// Simulates the runs `jobs` (plan indices) in parallel, in their order.
    ///
    /// Errors: those of [`Plan::simulate`].
    pub fn simulate_jobs(
        &self,
        jobs: &[usize],
        progress: &Progress,
    ) -> Result<Vec<Done<<E::Model as Model>::Metrics>>> {
        for &job in jobs {
            progress.plan(&self.parts_of[self.jobs[job].0]);
        }
        // `collect` keeps the jobs' order.
        jobs.par_iter()
            .map(|&job| {
                let (v, k) = self.jobs[job];
                let scenario = &self.scenarios[v];
                let start = Instant::now();
                let run = E::Model::simulate(scenario, k)
                    .with_context(|| format!("simulating {} (replication {k})", scenario.name()))?;
                let metrics = E::Model::metrics(scenario, &run);
                progress.done(&self.parts_of[v]);
                Ok(Done {
                    job,
                    metrics,
                    events: E::Model::events(&run),
                    wall_s: start.elapsed().as_secs_f64(),
                })
            })
            .collect()
    }

    /// The run-file lines of `done`, simulated as `shard` ([`runfile::Line`]).
    ///
    /// Errors: a plan by precision (its counts are not known before it runs), metrics that
    /// cannot be written as JSON.
    pub fn lines(
        &self,
        shard: Shard,
        done: &[Done<<E::Model as Model>::Metrics>],
    ) -> Result<Vec<String>> {
        let replications = self
            .replications
            .context("a plan by precision writes no run file: give it fixed counts")?;
        done.iter()
            .map(|d| {
                let (v, k) = self.jobs[d.job];
                let metrics = serde_json::to_string(&d.metrics).with_context(|| {
                    format!(
                        "writing the metrics of {} replication {k} as JSON",
                        self.keys[v]
                    )
                })?;
                let seed = self.scenarios[v].seed(k);
                let line = Line {
                    check: runfile::check(&self.keys[v], k, seed, d.events, &metrics),
                    paper: E::ID.to_owned(),
                    qosgate: VERSION.to_owned(),
                    replications,
                    shard,
                    variant: self.keys[v].clone(),
                    scenario: self.fingerprints[v].clone(),
                    replication: k,
                    seed,
                    events: d.events,
                    wall_s: d.wall_s,
                    metrics: RawValue::from_string(metrics)?,
                };
                serde_json::to_string(&line).with_context(|| {
                    format!(
                        "writing the run of {} replication {k} as JSON",
                        self.keys[v]
                    )
                })
            })
            .collect()
    }

    /// The plan's runs from run-file lines, in plan order: every line must be a run of this
    /// plan (this paper, this qosgate version, these replication counts, a planned variant and
    /// replication, the same scenario and seed), read once, and every run must be there.
    ///
    /// Errors: every problem, each line named by `path:line` (the first dozen, then a count):
    /// the missing runs first (with the shard that should hold each, when the files agree on a
    /// shard count), then each foreign run, duplicate (both places named) and metrics that do
    /// not parse.
    pub fn merge(&self, stored: Vec<StoredRun>) -> Result<Vec<Done<<E::Model as Model>::Metrics>>> {
        let index: BTreeMap<(&str, u32), usize> = self
            .jobs
            .iter()
            .enumerate()
            .map(|(i, &(v, k))| ((self.keys[v].as_str(), k), i))
            .collect();
        let mut found: Vec<Option<(String, Done<_>)>> = Vec::new();
        found.resize_with(self.jobs.len(), || None);
        let mut problems = Vec::new();
        let mut counts = BTreeSet::new();
        for StoredRun { origin, line } in stored {
            let at = |what: String| format!("{origin}: {what}");
            if line.paper != E::ID {
                problems.push(at(format!("a run of {}, not of {}", line.paper, E::ID)));
                continue;
            }
            if line.qosgate != VERSION {
                problems.push(at(format!(
                    "a run of qosgate {}; this is qosgate {VERSION}: simulate it again",
                    line.qosgate
                )));
                continue;
            }
            let Some(mine) = self.replications else {
                bail!("a plan by precision merges no run file: give it fixed counts");
            };
            if line.replications != mine {
                problems.push(at(format!(
                    "a run of a reproduction with {} replication(s) of each random variant and {} \
                     of each deterministic one; this one has {} and {} (--replications)",
                    line.replications.random, line.replications.fixed, mine.random, mine.fixed
                )));
                continue;
            }
            let Some(&job) = index.get(&(line.variant.as_str(), line.replication)) else {
                problems.push(at(format!(
                    "{} replication {} is not a run of this reproduction of {} (another --only?)",
                    line.variant,
                    line.replication,
                    E::ID
                )));
                continue;
            };
            let (v, k) = self.jobs[job];
            if line.scenario != self.fingerprints[v] || line.seed != self.scenarios[v].seed(k) {
                problems.push(at(format!(
                    "{} replication {k} was simulated from another scenario or seed than this \
                     build's (scenario {}, seed {}; here {}, {})",
                    line.variant,
                    line.scenario,
                    line.seed,
                    self.fingerprints[v],
                    self.scenarios[v].seed(k)
                )));
                continue;
            }
            if let Some((first, _)) = &found[job] {
                problems.push(format!(
                    "{first} and {origin}: both hold {} replication {k}",
                    line.variant
                ));
                continue;
            }
            let metrics = match serde_json::from_str(line.metrics.get()) {
                Ok(m) => m,
                Err(e) => {
                    problems.push(at(format!("the metrics do not parse: {e}")));
                    continue;
                }
            };
            counts.insert(line.shard.count());
            found[job] = Some((
                origin,
                Done {
                    job,
                    metrics,
                    events: line.events,
                    wall_s: line.wall_s,
                },
            ));
        }
        let missing: Vec<usize> = (0..found.len()).filter(|&i| found[i].is_none()).collect();
        if !missing.is_empty() {
            let count = match counts.iter().collect::<Vec<_>>()[..] {
                [&n] => Shard::new(0, n).ok(),
                _ => None,
            };
            let runs: Vec<String> = missing
                .iter()
                .map(|&i| {
                    let (v, k) = self.jobs[i];
                    match count {
                        Some(s) => format!(
                            "{} replication {k} (shard {}/{})",
                            self.keys[v],
                            s.of(i),
                            s.count()
                        ),
                        None => format!("{} replication {k}", self.keys[v]),
                    }
                })
                .collect();
            // First: the one problem a merge of too few shards has.
            problems.insert(
                0,
                format!(
                    "missing {} of the {} runs of {}: {}",
                    missing.len(),
                    self.jobs.len(),
                    E::ID,
                    listed(&runs)
                ),
            );
        }
        if !problems.is_empty() {
            bail!(
                "the run files do not make one reproduction of {}:\n  {}",
                E::ID,
                listed_lines(&problems)
            );
        }
        Ok(found.into_iter().flatten().map(|(_, d)| d).collect())
    }

    /// The report of every run of the plan, `done` in plan order.
    ///
    /// Errors: `done` is not every run of the plan, in order (a bug of the caller).
    pub fn judge(
        &self,
        parameters: Vec<Parameters>,
        done: &[Done<<E::Model as Model>::Metrics>],
    ) -> Result<Report> {
        ensure!(
            done.len() == self.jobs.len() && done.iter().enumerate().all(|(i, d)| d.job == i),
            "judging {} of {}: the runs are not the plan's {} runs in order",
            done.len(),
            E::ID,
            self.jobs.len()
        );
        let events = done.iter().map(|d| d.events).sum();
        let mut runs = Runs::empty();
        // Replications of a variant in ascending order, whatever round added them.
        let mut order: Vec<&Done<_>> = done.iter().collect();
        order.sort_by_key(|d| (self.jobs[d.job].0, self.jobs[d.job].1));
        for d in order {
            let (v, _) = self.jobs[d.job];
            runs.by_key
                .entry(self.keys[v].clone())
                .or_insert_with(Vec::new)
                .push(d.metrics.clone());
        }
        runs.fixed = self
            .keys
            .iter()
            .zip(&self.fixed)
            .filter(|(_, f)| **f)
            .map(|(k, _)| k.clone())
            .collect();
        let mut seeds: Vec<u64> = self
            .jobs
            .iter()
            .map(|&(v, k)| self.scenarios[v].seed(k))
            .collect();
        seeds.sort_unstable();
        seeds.dedup();
        let mut sections: Vec<Section> =
            self.parts.iter().map(|p| p.judge.section(&runs)).collect();
        for (section, part) in sections.iter_mut().zip(self.parts) {
            section.replications = self.random_counts(part.variants.iter().map(key));
            // A figure of fewer replications than the paper's default says so.
            let ran = section.replications[0];
            section.figures = std::mem::take(&mut section.figures)
                .into_iter()
                .map(|f| f.replicated(ran, self.precision.first))
                .collect();
        }
        let unknown = runs.take_unknown();
        ensure!(
            unknown.is_empty(),
            "a judge of {} read variants its parts do not run (a bug): {}",
            E::ID,
            unknown.into_iter().collect::<Vec<_>>().join("; ")
        );
        Ok(Report {
            paper: E::ID,
            citation: E::PAPER,
            title: E::TITLE,
            parameters,
            replications: match self.replications {
                Some(r) => Replicated::Fixed {
                    random: r.random,
                    fixed: r.fixed,
                },
                None => Replicated::ByPrecision {
                    first: self.precision.first,
                    cap: self.precision.cap,
                    used: self.random_counts(self.keys.iter().cloned()),
                },
            },
            runs: self.jobs.len(),
            variants: self.keys.len(),
            events,
            seeds: ranges(&seeds),
            variant_keys: self.keys.clone(),
            sections,
        })
    }
}

impl<E: Experiment> Plan<'_, E> {
    /// Draws the schedules of `report`'s parts ([`Part::schedules`]), each from replication 0
    /// of its variant simulated again: once, after the last round of judging, whether the runs
    /// were simulated here or read from run files.
    ///
    /// Errors: a drawn variant the plan does not run (a bug), a simulation or drawing error.
    pub fn draw(&self, report: &mut Report) -> Result<()> {
        for (section, part) in report.sections.iter_mut().zip(self.parts) {
            for drawn in &part.schedules {
                let wanted = key(&drawn.variant);
                let v = self
                    .keys
                    .iter()
                    .position(|k| *k == wanted)
                    .with_context(|| {
                        format!(
                            "{} draws the schedule of a variant its part does not run (a bug): \
                         {wanted}",
                            E::ID
                        )
                    })?;
                let scenario = &self.scenarios[v];
                section.schedules.push(
                    (drawn.draw)(scenario)
                        .with_context(|| format!("drawing the schedule of {}", scenario.name()))?,
                );
            }
        }
        Ok(())
    }

    /// The fewest and most replications of the random variants among `keys` (`[0, 0]`: none).
    fn random_counts(&self, keys: impl Iterator<Item = String>) -> [u32; 2] {
        let counts: Vec<u32> = keys
            .filter_map(|k| self.keys.iter().position(|x| *x == k))
            .filter(|&i| !self.fixed[i])
            .map(|i| self.counts[i])
            .collect();
        [
            counts.iter().copied().min().unwrap_or(0),
            counts.iter().copied().max().unwrap_or(0),
        ]
    }
}

/// `items` joined by "; ", at most [`LISTED`] of them, then how many more.
fn listed(items: &[String]) -> String {
    let mut s = items[..items.len().min(LISTED)].join("; ");
    if items.len() > LISTED {
        s.push_str(&format!(" (and {} more)", items.len() - LISTED));
    }
    s
}

/// `items` one per line (indented), at most [`LISTED`] of them, then how many more.
pub(super) fn listed_lines(items: &[String]) -> String {
    let mut s = items[..items.len().min(LISTED)].join("\n  ");
    if items.len() > LISTED {
        s.push_str(&format!("\n  (and {} more)", items.len() - LISTED));
    }
    s
}

/// Sorted, distinct `values` as inclusive ranges of consecutive values.
fn ranges(values: &[u64]) -> Vec<[u64; 2]> {
    let mut out: Vec<[u64; 2]> = Vec::new();
    for &x in values {
        match out.last_mut() {
            Some(r) if r[1].checked_add(1) == Some(x) => r[1] = x,
            _ => out.push([x, x]),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_shown_as_runs_of_consecutive_values() {
        assert_eq!(ranges(&[]), Vec::<[u64; 2]>::new());
        assert_eq!(ranges(&[1, 2, 3, 7, 9, 10]), [[1, 3], [7, 7], [9, 10]]);
        assert_eq!(
            ranges(&[u64::MAX - 1, u64::MAX]),
            [[u64::MAX - 1, u64::MAX]]
        );
    }

    #[test]
    fn estimates_skip_undefined_replications_and_missing_variants() {
        let mut runs = Runs::<Option<f64>>::empty();
        runs.by_key
            .insert(key(&"v"), vec![Some(1.0), None, Some(3.0)]);
        let e = runs.estimate(&"v", |m| *m).unwrap();
        assert_eq!((e.mean, e.n), (2.0, 2));
        assert!(runs.estimate(&"w", |m| *m).is_none());
        assert!(runs.mean(&"w", |m| *m).is_nan());
        runs.by_key
            .insert(key(&"u"), vec![Some(0.5), Some(9.0), Some(1.0)]);
        // Pairs (1, 0.5) and (3, 1): replication 1 is undefined in "v".
        let d = runs.diff(&"v", &"u", |m| *m).unwrap();
        assert_eq!((d.estimate, d.n), (1.25, 2));
        assert!(runs.diff(&"v", &"w", |m| *m).is_none());
        // One deterministic run pairs with every replication of the other.
        runs.by_key.insert(key(&"d"), vec![Some(1.0)]);
        let d = runs.diff(&"v", &"d", |m| *m).unwrap();
        assert_eq!((d.estimate, d.n), (1.0, 2));
        // Every variant read without runs is remembered, once.
        assert_eq!(
            runs.take_unknown().into_iter().collect::<Vec<_>>(),
            [key(&"w")]
        );
        assert!(runs.take_unknown().is_empty());
    }

    /// Levels and paired differences carry Student t intervals; deterministic values are
    /// exact; one random replication has no interval; the ratio of means is the ratio of the
    /// means (not the mean of the ratios) with the delta method's interval.
    #[test]
    fn intervals_of_levels_differences_and_ratios_of_means() {
        let mut runs = Runs::<f64>::empty();
        runs.by_key.insert(key(&"a"), vec![2.0, 4.0, 6.0, 8.0]);
        runs.by_key.insert(key(&"b"), vec![1.0, 1.0, 2.0, 4.0]);
        runs.by_key.insert(key(&"one"), vec![5.0]);
        runs.by_key.insert(key(&"fixed"), vec![3.0]);
        runs.fixed.insert(key(&"fixed"));
        let f = |m: &f64| Some(*m);
        let a = runs.level(&"a", f).unwrap();
        assert_eq!((a.estimate, a.n, a.method), (5.0, 4, Method::Mean));
        // s = 2.582, t(3) = 3.182: half-width 4.108.
        assert!((a.high - a.estimate - 3.182 * (20.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-9);
        let one = runs.level(&"one", f).unwrap();
        assert!(one.low.is_infinite() && one.high.is_infinite());
        assert_eq!(runs.level(&"fixed", f).unwrap(), Interval::exact(3.0));
        let d = runs.diff(&"a", &"b", f).unwrap();
        assert_eq!((d.estimate, d.method), (3.0, Method::PairedDifference));
        // Pairs (1, 1) and (9, 3): the ratio of means is 5 / 2 = 2.5, the mean of the ratios 2.
        runs.by_key.insert(key(&"x"), vec![1.0, 9.0]);
        runs.by_key.insert(key(&"y"), vec![1.0, 3.0]);
        let r = runs.ratio_of_means(&"x", &"y", f).unwrap();
        assert_eq!((r.estimate, r.method), (2.5, Method::RatioOfMeans));
        assert!(r.low < r.estimate && r.estimate < r.high);
        assert!(runs.ratio_of_means(&"x", &"nothing", f).is_none());
    }
}
