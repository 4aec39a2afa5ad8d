//! Lease scenario files: what `qosgate run` replays for `model = "leases"`, in TOML: a Haizea
//! lease workload (LWF) on one cluster through the kernel's lease manager (what `qosgate leases`
//! does from its options). The format, key by key, is in `docs/leases.md`.
//!
//! - [`Scenario::parse`](crate::models::ScenarioFile::parse) reads a file into a checked [`Scenario`]: every problem is
//!   `file:line:column: key: what is wrong` ([`crate::config`]).
//! - [`to_toml`] writes a scenario that [`Scenario::parse`](crate::models::ScenarioFile::parse) reads back unchanged.

use std::path::PathBuf;

use qosgate_kernel::lease::Overheads;
use serde::{Deserialize, Serialize};

use super::replay::Params;
use crate::config::{self, Header, Problem, Problems};
use crate::des::time::ticks;
pub use crate::models::federation::scenario::PreemptionPolicy;

/// The longest time a scenario states, seconds: well inside the kernel's clock.
pub const MAX_SECONDS: f64 = 1e12;

/// A lease scenario. The replay draws nothing: its header's seed is unused, and every
/// replication is the same replay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Name, description, base seed and replications (the file's first keys: see
    /// [`Header`]).
    #[serde(skip)]
    pub header: Header,
    /// The workload, in Haizea's LWF (XML): a path, relative to the directory `qosgate` runs in.
    pub workload: PathBuf,
    /// Nodes of the cluster (default: those of the file's site).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u32>,
    /// How the leases to suspend are chosen (default MOML).
    #[serde(default = "default_policy")]
    pub policy: PreemptionPolicy,
    /// Seconds to suspend one VM, `t_s` (default 160).
    #[serde(default = "default_suspend")]
    pub suspend_s: f64,
    /// Seconds to resume one VM, `t_r` (default 126).
    #[serde(default = "default_resume")]
    pub resume_s: f64,
    /// Stop after this instant, seconds from the workload's start; leases still live are
    /// reported unfinished. Default: when every lease has ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_s: Option<f64>,
}

fn default_policy() -> PreemptionPolicy {
    PreemptionPolicy::Moml
}

fn default_suspend() -> f64 {
    160.0
}

fn default_resume() -> f64 {
    126.0
}

impl Scenario {
    /// The replay's parameters (times rounded up to whole microseconds).
    pub fn params(&self) -> Params {
        Params {
            nodes: self.nodes,
            policy: self.policy.kernel(),
            overheads: Overheads {
                suspend: ticks(self.suspend_s),
                resume: ticks(self.resume_s),
                ..Overheads::default()
            },
            until: self.until_s.map(ticks),
        }
    }
}

/// The scenario as a TOML file that [`Scenario::parse`](crate::models::ScenarioFile::parse) reads back unchanged.
pub fn to_toml(s: &Scenario) -> String {
    config::to_toml(
        "# qosgate lease scenario (format: docs/leases.md): a Haizea LWF workload replayed on one\n\
         # cluster through the kernel's lease manager.\n",
        "leases",
        s,
    )
}

/// Every problem of `s`, in the order of its keys.
pub(super) fn check(s: &Scenario) -> Vec<Problem> {
    let mut p = Problems::default();
    p.header(&s.header);
    if s.workload.as_os_str().is_empty() {
        p.add("workload", "must name an LWF file");
    }
    if s.nodes == Some(0) {
        p.add("nodes", "must be at least 1");
    }
    p.seconds("suspend_s", s.suspend_s, true, MAX_SECONDS);
    p.seconds("resume_s", s.resume_s, true, MAX_SECONDS);
    if let Some(u) = s.until_s {
        p.seconds("until_s", u, true, MAX_SECONDS);
    }
    p.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::ScenarioFile;

    fn example() -> Scenario {
        Scenario {
            header: Header::single("preemption", 0),
            workload: "tests/data/lwf/preemption.lwf".into(),
            nodes: Some(4),
            policy: PreemptionPolicy::Mlip,
            suspend_s: 10.0,
            resume_s: 5.5,
            until_s: Some(3600.0),
        }
    }

    #[test]
    fn a_scenario_reads_back_unchanged_and_defaults_are_qosgate_leases() {
        let s = example();
        assert_eq!(Scenario::parse(&to_toml(&s), "x.toml").unwrap(), s);
        let short = "name = \"p\"\nseed = 0\nreplications = 1\nworkload = \"w.lwf\"\n";
        let d = Scenario::parse(short, "y.toml").unwrap();
        assert_eq!(
            (d.policy, d.suspend_s, d.resume_s, d.nodes, d.until_s),
            (PreemptionPolicy::Moml, 160.0, 126.0, None, None)
        );
    }

    #[test]
    fn every_problem_is_named_by_its_key_and_position() {
        let mut s = example();
        s.nodes = Some(0);
        s.resume_s = -1.0;
        let e = Scenario::parse(&to_toml(&s), "x.toml")
            .unwrap_err()
            .to_string();
        assert_eq!(e.lines().count(), 2, "{e}");
        assert!(e.contains(": nodes: must be at least 1"), "{e}");
        assert!(
            e.contains(": resume_s: must be >= 0 seconds, got -1"),
            "{e}"
        );
    }
}
