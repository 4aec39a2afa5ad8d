//! The runner every reproduction shares: variants built once, every (variant, replication)
//! pair simulated in parallel (rayon), the metrics handed back by variant, the parts judged.
//!
//! Replications: a variant whose model says it is deterministic ([`Model::deterministic`])
//! runs once by default (every replication would be the same run); a random one
//! [`Experiment::DEFAULT_REPLICATIONS`] times; `Options::replications` runs every variant that
//! many times. Replication `k` of a variant is the model's replication `k` of its scenario, so
//! results do not depend on which other variants run or on the thread count.

use std::collections::BTreeMap;
use std::time::Instant;

use anyhow::{Context, Result, ensure};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::{Experiment, Options, Part};
use crate::models::Model;
use crate::report::Report;
use crate::report::stats::Estimate;

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
        let (a, b) = (self.0.get(&key(a))?, self.0.get(&key(b))?);
        let n = if a.len() == 1 || b.len() == 1 {
            a.len().max(b.len())
        } else {
            a.len().min(b.len())
        };
        let samples: Vec<f64> = (0..n)
            .filter_map(|k| Some(f(pick(a, k))? - f(pick(b, k))?))
            .collect();
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

/// Runs `parts` of `experiment` and judges them.
///
/// Errors: zero replications, a scenario or simulation error (named by its scenario and
/// replication), a broken progress bar template.
pub fn run<E: Experiment>(experiment: &E, parts: &[Part<E>], options: &Options) -> Result<Report> {
    ensure!(
        options.replications != Some(0),
        "--replications must be at least 1"
    );
    let random_replications = options.replications.unwrap_or(E::DEFAULT_REPLICATIONS);
    let fixed_replications = options.replications.unwrap_or(1);
    // Each distinct variant once, in the order the parts first name it.
    let mut keys: Vec<String> = Vec::new();
    let mut scenarios = Vec::new();
    for v in parts.iter().flat_map(|p| &p.variants) {
        let k = key(v);
        if !keys.contains(&k) {
            scenarios.push(experiment.scenario(v)?);
            keys.push(k);
        }
    }
    let jobs: Vec<(usize, u32)> = scenarios
        .iter()
        .enumerate()
        .flat_map(|(v, s)| {
            let n = if E::Model::deterministic(s) {
                fixed_replications
            } else {
                random_replications
            };
            (0..n).map(move |k| (v, k))
        })
        .collect();
    let bar = if options.progress {
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
    let start = Instant::now();
    let done: Vec<(usize, _, u64)> = jobs
        .par_iter()
        .map(|&(v, k)| {
            let scenario = &scenarios[v];
            let run = E::Model::simulate(scenario, k).with_context(|| {
                format!("simulating {} (replication {k})", E::Model::name(scenario))
            })?;
            bar.inc(1);
            Ok((v, E::Model::metrics(scenario, &run), E::Model::events(&run)))
        })
        .collect::<Result<_>>()?;
    bar.finish_and_clear();
    let wall_s = start.elapsed().as_secs_f64();
    let events = done.iter().map(|d| d.2).sum();
    let mut runs = Runs(BTreeMap::new());
    // `collect` keeps the jobs' order: replications stay in order within a variant.
    for (v, m, _) in done {
        runs.0
            .entry(keys[v].clone())
            .or_insert_with(Vec::new)
            .push(m);
    }
    Ok(Report {
        paper: E::ID,
        title: E::TITLE,
        random_replications,
        fixed_replications,
        runs: jobs.len(),
        variants: scenarios.len(),
        events,
        wall_s,
        sections: parts.iter().map(|p| (p.judge)(&runs)).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
