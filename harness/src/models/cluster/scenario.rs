//! Cluster scenario files: what `qosgate run` replays for `model = "cluster"`, in TOML: an SWF
//! trace on one cluster under a backfilling policy, optionally under node failures (what
//! `qosgate backfill` does from its options). The format, key by key, is in
//! `docs/trace-replay.md`.
//!
//! - [`Scenario::parse`](crate::models::ScenarioFile::parse) reads a file into a checked [`Scenario`]: every problem is
//!   `file:line:column: key: what is wrong` ([`crate::config`]).
//! - [`to_toml`] writes a scenario that [`Scenario::parse`](crate::models::ScenarioFile::parse) reads back unchanged.
//! - [`Scheduler`] and [`PolicyName`]: the backfilling policy, shared with the hybrid model.

use std::path::PathBuf;

use anyhow::{Context, Result};
use fixed::types::U16F16;
use qosgate_kernel::backfill::Policy;
use serde::{Deserialize, Serialize};

use super::replay::{MAX_QUEUE, QUEUE};
use crate::config::{self, Header, Problem, Problems};
use crate::workload::failures::Fit;

/// Node failures to replay a trace under.
#[derive(Debug, Clone)]
pub struct Failures {
    /// A Table II fit's name ([`Fit::name`]), else the path of an FTA trace.
    pub spec: String,
    /// Groups of nodes that fail together (synthetic process only).
    pub groups: u32,
    /// Seed of the process's draws, or of the trace's starting point.
    pub seed: u64,
}

/// A cluster scenario. Its header's seed is that of the failures of the first replication (the
/// process's draws, or the failure trace's starting point), unused without failures; so
/// replications differ only under failures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Name, description, base seed and replications (the file's first keys: see
    /// [`Header`]).
    #[serde(skip)]
    pub header: Header,
    /// The job trace, in the Standard Workload Format: a path, relative to the directory
    /// `qosgate` runs in.
    pub trace: PathBuf,
    /// Nodes of the cluster (default: the trace header's `MaxProcs`, else `MaxNodes`); wider
    /// jobs are skipped and counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u32>,
    /// Skip and count the trace's bad lines instead of refusing the first one.
    #[serde(default)]
    pub skip_invalid: bool,
    /// Jobs waiting or running at once at most, `1 ..=` [`MAX_QUEUE`] (default [`QUEUE`]).
    #[serde(default = "default_queue")]
    pub queue: usize,
    /// The backfilling policy.
    pub scheduler: Scheduler,
    /// Node failures; none: a reliable cluster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failures: Option<FailureConfig>,
}

fn default_queue() -> usize {
    QUEUE
}

/// A backfilling scheduler (javadi2012 Sec. IV-C).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scheduler {
    /// The policy.
    pub policy: PolicyName,
    /// Selective backfilling's expected-slowdown threshold, `[0, 65535]` (default 2).
    #[serde(default = "default_threshold")]
    pub selective_threshold: f64,
}

fn default_threshold() -> f64 {
    2.0
}

impl Scheduler {
    /// The kernel's policy.
    ///
    /// Errors: a selective threshold that is not a number in `[0, 65535]`.
    pub fn kernel(&self) -> Result<Policy> {
        Ok(match self.policy {
            PolicyName::Fcfs => Policy::Fcfs,
            PolicyName::Easy => Policy::Easy,
            PolicyName::Conservative => Policy::Conservative,
            PolicyName::Selective => {
                let t = self.selective_threshold;
                let fixed = U16F16::checked_from_num(t)
                    .filter(|_| t.is_finite())
                    .with_context(|| format!("scheduler.selective_threshold {t}"))?;
                Policy::Selective(fixed)
            }
        })
    }

    /// Records a selective threshold outside `[0, 65535]` at `path`.
    pub fn check(&self, p: &mut Problems, path: &str) {
        let t = self.selective_threshold;
        if U16F16::checked_from_num(t).is_none() || !t.is_finite() || t < 0.0 {
            p.add(path, format!("must be in [0, 65535], got {t}"));
        }
    }
}

/// A backfilling policy's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum PolicyName {
    /// First come, first served.
    Fcfs,
    /// EASY (javadi2012's EB): only the queue's head holds a reservation.
    Easy,
    /// Conservative (CB): every waiting job holds a reservation.
    Conservative,
    /// Selective (SB): a job gets a reservation once its expected slowdown reaches the
    /// threshold.
    Selective,
}

impl PolicyName {
    /// The name as typed.
    pub fn name(self) -> &'static str {
        match self {
            Self::Fcfs => "fcfs",
            Self::Easy => "easy",
            Self::Conservative => "conservative",
            Self::Selective => "selective",
        }
    }
}

/// Node failures (what `qosgate backfill --failures` takes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailureConfig {
    /// A synthetic process fitted to javadi2012's Table II (`weibull`, `lognormal`,
    /// `hyperexponential`), else the path of a Failure Trace Archive trace.
    pub source: String,
    /// Groups of nodes that fail together under a synthetic process (default 8).
    #[serde(default = "default_groups")]
    pub groups: u32,
}

fn default_groups() -> u32 {
    8
}

impl Scenario {
    /// The failures of replication `k` (seed `seed + k`), if any.
    pub fn failures(&self, k: u32) -> Option<Failures> {
        self.failures.as_ref().map(|f| Failures {
            spec: f.source.clone(),
            groups: f.groups,
            seed: crate::des::rng::replication_seed(self.header.seed, k),
        })
    }
}

/// The scenario as a TOML file that [`Scenario::parse`](crate::models::ScenarioFile::parse) reads back unchanged.
pub fn to_toml(s: &Scenario) -> String {
    config::to_toml(
        "# qosgate cluster scenario (format: docs/trace-replay.md): an SWF trace replayed on one\n\
         # cluster under a backfilling policy.\n",
        "cluster",
        s,
    )
}

/// Every problem of `s`, in the order of its keys.
pub(super) fn check(s: &Scenario) -> Vec<Problem> {
    let mut p = Problems::default();
    p.header(&s.header);
    if s.trace.as_os_str().is_empty() {
        p.add("trace", "must name an SWF file");
    }
    if s.nodes == Some(0) {
        p.add("nodes", "must be at least 1");
    }
    if !(1..=MAX_QUEUE).contains(&s.queue) {
        p.add(
            "queue",
            format!("must hold 1 to {MAX_QUEUE} jobs, got {}", s.queue),
        );
    }
    s.scheduler.check(&mut p, "scheduler.selective_threshold");
    if let Some(f) = &s.failures {
        if f.source.trim().is_empty() {
            p.add(
                "failures.source",
                "must be weibull, lognormal, hyperexponential or a failure trace's path",
            );
        }
        if f.groups == 0 && Fit::named(&f.source).is_some() {
            p.add("failures.groups", "must be at least 1");
        }
    }
    p.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::ScenarioFile;

    fn example() -> Scenario {
        Scenario {
            header: Header {
                name: "sdsc-easy".into(),
                description: "SDSC-SP2 cut-down under EASY".into(),
                seed: 1,
                replications: 1,
            },
            trace: "data/traces/SDSC-SP2-1998-first300.swf".into(),
            nodes: Some(128),
            skip_invalid: false,
            queue: QUEUE,
            scheduler: Scheduler {
                policy: PolicyName::Easy,
                selective_threshold: 2.0,
            },
            failures: Some(FailureConfig {
                source: "weibull".into(),
                groups: 8,
            }),
        }
    }

    #[test]
    fn a_scenario_reads_back_unchanged() {
        let s = example();
        assert_eq!(Scenario::parse(&to_toml(&s), "x.toml").unwrap(), s);
        let reliable = Scenario {
            failures: None,
            nodes: None,
            ..example()
        };
        assert_eq!(
            Scenario::parse(&to_toml(&reliable), "x.toml").unwrap(),
            reliable
        );
    }

    #[test]
    fn every_problem_is_named_by_its_key_and_position() {
        let mut s = example();
        s.queue = 0;
        s.scheduler.selective_threshold = -1.0;
        s.failures = Some(FailureConfig {
            source: "weibull".into(),
            groups: 0,
        });
        let e = Scenario::parse(&to_toml(&s), "x.toml")
            .unwrap_err()
            .to_string();
        assert_eq!(e.lines().count(), 3, "{e}");
        assert!(e.contains(": queue: must hold 1 to"), "{e}");
        assert!(
            e.contains(": scheduler.selective_threshold: must be in [0, 65535], got -1"),
            "{e}"
        );
        assert!(e.contains(": failures.groups: must be at least 1"), "{e}");
        let unknown = to_toml(&example()).replace("queue =", "queues =");
        let e = Scenario::parse(&unknown, "y.toml").unwrap_err().to_string();
        assert!(e.starts_with("y.toml:") && e.contains("queues"), "{e}");
    }
}
