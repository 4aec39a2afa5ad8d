//! The runner every reproduction shares: a plan of the (variant, replication) pairs, simulated
//! in parallel (rayon) whole or by shard, or read back from run files; the metrics handed to the
//! parts' judges by variant.
//!
//! Replications: a variant whose model says it is deterministic ([`Model::deterministic`])
//! runs once by default (every replication would be the same run); a random one
//! [`Experiment::DEFAULT_REPLICATIONS`] times; `Options::replications` runs every variant that
//! many times. Replication `k` of a variant is the model's replication `k` of its scenario, so
//! results do not depend on which other variants run, on the thread count or on the shard that
//! ran them: a reproduction judged from its shards' run files ([`Plan::merge`]) is the
//! reproduction run whole, byte for byte.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use anyhow::{Context, Result, bail, ensure};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::runfile::{self, Line, Replications, StoredRun, VERSION};
use super::shard::Shard;
use super::{Experiment, Part};
use crate::models::Model;
use crate::report::stats::Estimate;
use crate::report::{Parameters, Report};

/// The metrics of every replication of every variant, by the variant's key (its `Debug` form).
#[derive(Debug)]
pub struct Runs<M>(BTreeMap<String, Vec<M>>);

impl<M> Runs<M> {
    /// No runs at all: every estimate is missing (for tests of the judges).
    pub fn empty() -> Self {
        Runs(BTreeMap::new())
    }

    /// The estimate of `f` at `variant` over the replications where `f` is defined; `None`
    /// if the variant has no runs or `f` is undefined in all of them.
    pub fn estimate(
        &self,
        variant: &impl std::fmt::Debug,
        f: impl Fn(&M) -> Option<f64>,
    ) -> Option<Estimate> {
        let samples: Vec<f64> = self.0.get(&key(variant))?.iter().filter_map(f).collect();
        Estimate::of(&samples)
    }

    /// The estimate of `f(a) - f(b)` over paired replications: replication `k` of `a` against
    /// replication `k` of `b`, over the `k` where both are defined. Variants of one scenario
    /// family draw the same random numbers in replication `k` (common random numbers), so the
    /// paired difference is far tighter than the difference of two estimates. A variant with
    /// one run against one with more is deterministic (the runner runs those once): its one
    /// value pairs with every replication of the other.
    pub fn difference(
        &self,
        a: &impl std::fmt::Debug,
        b: &impl std::fmt::Debug,
        f: impl Fn(&M) -> Option<f64>,
    ) -> Option<Estimate> {
        self.paired(a, b, |x, y| Some(f(x)? - f(y)?))
    }

    /// The estimate of `f(a) / f(b)` over paired replications, as [`Runs::difference`] pairs
    /// them (a replication where `f(b)` is 0 is left out).
    pub fn ratio(
        &self,
        a: &impl std::fmt::Debug,
        b: &impl std::fmt::Debug,
        f: impl Fn(&M) -> Option<f64>,
    ) -> Option<Estimate> {
        self.paired(a, b, |x, y| {
            let (x, y) = (f(x)?, f(y)?);
            (y != 0.0).then(|| x / y)
        })
    }

    /// The estimate of `g(replication k of a, replication k of b)` over the `k` where it is
    /// defined, paired as [`Runs::difference`] pairs (a ratio of two metrics, for instance).
    pub fn paired(
        &self,
        a: &impl std::fmt::Debug,
        b: &impl std::fmt::Debug,
        g: impl Fn(&M, &M) -> Option<f64>,
    ) -> Option<Estimate> {
        let (a, b) = (self.0.get(&key(a))?, self.0.get(&key(b))?);
        let n = if a.len() == 1 || b.len() == 1 {
            a.len().max(b.len())
        } else {
            a.len().min(b.len())
        };
        let samples: Vec<f64> = (0..n).filter_map(|k| g(pick(a, k), pick(b, k))).collect();
        Estimate::of(&samples)
    }

    /// The mean of `f` at `variant` (NaN when undefined: every comparison with it fails).
    pub fn mean(&self, variant: &impl std::fmt::Debug, f: impl Fn(&M) -> Option<f64>) -> f64 {
        self.estimate(variant, f).map_or(f64::NAN, |e| e.mean)
    }
}

/// Replication `k` of `runs`, or its only run (a deterministic variant's).
fn pick<M>(runs: &[M], k: usize) -> &M {
    if runs.len() == 1 { &runs[0] } else { &runs[k] }
}

/// The key runs are stored under.
fn key(variant: &impl std::fmt::Debug) -> String {
    format!("{variant:?}")
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
    /// The runs: (variant index, replication), by variant, replications ascending.
    jobs: Vec<(usize, u32)>,
    replications: Replications,
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
    /// The plan of `parts` of `experiment` at `replications` (`None`: the defaults).
    ///
    /// Errors: zero replications, or a variant the experiment cannot build a scenario for.
    pub fn new(experiment: &E, parts: &'p [Part<E>], replications: Option<u32>) -> Result<Self> {
        if let Some(n) = replications {
            crate::config::check_replications(n)
                .map_err(|m| anyhow::anyhow!("--replications: {m}"))?;
        }
        let replications = Replications {
            random: replications.unwrap_or(E::DEFAULT_REPLICATIONS),
            fixed: replications.unwrap_or(1),
        };
        let mut keys: Vec<String> = Vec::new();
        let mut scenarios = Vec::new();
        for v in parts.iter().flat_map(|p| &p.variants) {
            let k = key(v);
            if !keys.contains(&k) {
                scenarios.push(experiment.scenario(v)?);
                keys.push(k);
            }
        }
        let jobs = scenarios
            .iter()
            .enumerate()
            .flat_map(|(v, s)| {
                let n = if E::Model::deterministic(s) {
                    replications.fixed
                } else {
                    replications.random
                };
                (0..n).map(move |k| (v, k))
            })
            .collect();
        Ok(Plan {
            parts,
            fingerprints: scenarios.iter().map(runfile::fingerprint).collect(),
            keys,
            scenarios,
            jobs,
            replications,
        })
    }

    /// How many runs the plan holds.
    pub fn len(&self) -> usize {
        self.jobs.len()
    }

    /// Whether the plan holds no run (no part has a variant).
    pub fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }

    /// Simulates the runs of `shard` in parallel, in plan order; a progress bar on standard
    /// error if `progress`.
    ///
    /// Errors: a simulation error (named by its scenario and replication), a broken progress
    /// bar template.
    pub fn simulate(
        &self,
        shard: Shard,
        progress: bool,
    ) -> Result<Vec<Done<<E::Model as Model>::Metrics>>> {
        let jobs: Vec<usize> = (0..self.jobs.len()).filter(|&i| shard.holds(i)).collect();
        let bar = if progress {
            ProgressBar::new(jobs.len() as u64).with_style(
                ProgressStyle::with_template(&format!(
                    "reproduce {} {{bar:40}} {{pos}}/{{len}} runs, {{elapsed}}",
                    E::ID
                ))
                .context("the progress bar's template")?,
            )
        } else {
            ProgressBar::hidden()
        };
        // `collect` keeps the jobs' order.
        let done = jobs
            .par_iter()
            .map(|&job| {
                let (v, k) = self.jobs[job];
                let scenario = &self.scenarios[v];
                let start = Instant::now();
                let run = E::Model::simulate(scenario, k).with_context(|| {
                    format!("simulating {} (replication {k})", E::Model::name(scenario))
                })?;
                let metrics = E::Model::metrics(scenario, &run);
                bar.inc(1);
                Ok(Done {
                    job,
                    metrics,
                    events: E::Model::events(&run),
                    wall_s: start.elapsed().as_secs_f64(),
                })
            })
            .collect::<Result<_>>()?;
        bar.finish_and_clear();
        Ok(done)
    }

    /// The run-file lines of `done`, simulated as `shard` ([`runfile::Line`]).
    ///
    /// Errors: metrics that cannot be written as JSON.
    pub fn lines(
        &self,
        shard: Shard,
        done: &[Done<<E::Model as Model>::Metrics>],
    ) -> Result<Vec<String>> {
        done.iter()
            .map(|d| {
                let (v, k) = self.jobs[d.job];
                let line = Line {
                    paper: E::ID.to_owned(),
                    qosgate: VERSION.to_owned(),
                    replications: self.replications,
                    shard,
                    variant: self.keys[v].clone(),
                    scenario: self.fingerprints[v].clone(),
                    replication: k,
                    seed: E::Model::seed(&self.scenarios[v], k),
                    events: d.events,
                    wall_s: d.wall_s,
                    metrics: &d.metrics,
                };
                serde_json::to_string(&line).with_context(|| {
                    format!(
                        "writing the metrics of {} replication {k} as JSON",
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
            if line.replications != self.replications {
                problems.push(at(format!(
                    "a run of a reproduction with {} replication(s) of each random variant and {} \
                     of each deterministic one; this one has {} and {} (--replications)",
                    line.replications.random,
                    line.replications.fixed,
                    self.replications.random,
                    self.replications.fixed
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
            if line.scenario != self.fingerprints[v]
                || line.seed != E::Model::seed(&self.scenarios[v], k)
            {
                problems.push(at(format!(
                    "{} replication {k} was simulated from another scenario or seed than this \
                     build's (scenario {}, seed {}; here {}, {})",
                    line.variant,
                    line.scenario,
                    line.seed,
                    self.fingerprints[v],
                    E::Model::seed(&self.scenarios[v], k)
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
        done: Vec<Done<<E::Model as Model>::Metrics>>,
    ) -> Result<Report> {
        ensure!(
            done.len() == self.jobs.len() && done.iter().enumerate().all(|(i, d)| d.job == i),
            "judging {} of {}: the runs are not the plan's {} runs in order",
            done.len(),
            E::ID,
            self.jobs.len()
        );
        let events = done.iter().map(|d| d.events).sum();
        let mut runs = Runs(BTreeMap::new());
        for d in done {
            let (v, _) = self.jobs[d.job];
            runs.0
                .entry(self.keys[v].clone())
                .or_insert_with(Vec::new)
                .push(d.metrics);
        }
        let mut seeds: Vec<u64> = self
            .jobs
            .iter()
            .map(|&(v, k)| E::Model::seed(&self.scenarios[v], k))
            .collect();
        seeds.sort_unstable();
        seeds.dedup();
        Ok(Report {
            paper: E::ID,
            title: E::TITLE,
            parameters,
            random_replications: self.replications.random,
            fixed_replications: self.replications.fixed,
            runs: self.jobs.len(),
            variants: self.keys.len(),
            events,
            seeds: ranges(&seeds),
            variant_keys: self.keys.clone(),
            sections: self.parts.iter().map(|p| (p.judge)(&runs)).collect(),
        })
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
        runs.0.insert(key(&"v"), vec![Some(1.0), None, Some(3.0)]);
        let e = runs.estimate(&"v", |m| *m).unwrap();
        assert_eq!((e.mean, e.n), (2.0, 2));
        assert!(runs.estimate(&"w", |m| *m).is_none());
        assert!(runs.mean(&"w", |m| *m).is_nan());
        runs.0
            .insert(key(&"u"), vec![Some(0.5), Some(9.0), Some(1.0)]);
        // Pairs (1, 0.5) and (3, 1): replication 1 is undefined in "v".
        let d = runs.difference(&"v", &"u", |m| *m).unwrap();
        assert_eq!((d.mean, d.n), (1.25, 2));
        assert!(runs.difference(&"v", &"w", |m| *m).is_none());
        // One deterministic run pairs with every replication of the other.
        runs.0.insert(key(&"d"), vec![Some(1.0)]);
        let d = runs.difference(&"v", &"d", |m| *m).unwrap();
        assert_eq!((d.mean, d.n), (1.0, 2));
    }
}
