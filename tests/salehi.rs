//! salehi2012 and salehi2011 reproduced (`qosgate reproduce salehi2012`, `salehi2011`): judged
//! through the binary from committed run files, and the run files held to what the model simulates
//! now. Their outcomes at the defaults are pinned with every paper's (`tests/outcomes.rs`,
//! `tests/outcomes/salehi2012.toml`, `salehi2011.toml`).
//!
//! A default reproduction takes tens of minutes (replications by precision, up to the paper's
//! 100), too long for a debug test. So the runs of one replication of every variant are
//! committed (`tests/data/salehi/*.jsonl`, written by `qosgate reproduce <paper>
//! --replications 1 --runs tests/data/salehi`), and:
//! - [`one_stored_replication_decides_nothing`] judges them with `--from`: every statement of
//!   the paper is there, by id, and every claim is inconclusive with a note that more
//!   replications are needed (one random replication has no interval; the merge refuses runs
//!   of a scenario that changed since, so a change of scenario fails here until the files are
//!   written again);
//! - [`the_stored_runs_are_what_the_model_simulates_now`] simulates some of those runs again
//!   and compares their metrics with the stored ones, to the bit (a change of the model or the
//!   kernel that alters results fails here).

use std::path::{Path, PathBuf};

use qosgate_harness::experiments;
use qosgate_harness::experiments::Simulation;
use qosgate_harness::experiments::federation::presets::Variant;
use qosgate_harness::experiments::salehi2011::presets::{ClusterVariant, Variant as Salehi2011};
use qosgate_harness::models::Model;
use qosgate_harness::models::federation::Federation;
use qosgate_harness::models::federation::metrics::Metrics;
use qosgate_harness::models::federation::scenario::{
    GatewayPolicy, PreemptionPolicy, PreferenceRule,
};
use qosgate_harness::report::Mode;
use qosgate_testkit::cli::{run_ok, scratch};

/// The committed run files.
fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/salehi")
}

/// `qosgate reproduce <paper> --replications 1 --from <its run file>`: the statements of its
/// summary.json.
fn judged(paper: &str) -> Vec<serde_json::Value> {
    let out_dir = scratch(paper);
    let runs = data().join(format!("{paper}.jsonl"));
    let (runs, out) = (
        runs.to_str().expect("UTF-8"),
        out_dir.to_str().expect("UTF-8"),
    );
    let args = [
        "reproduce",
        paper,
        "--replications",
        "1",
        "--from",
        runs,
        "--out",
        out,
    ];
    run_ok(env!("CARGO_BIN_EXE_qosgate-e2e"), &args);
    let text = std::fs::read_to_string(out_dir.join("summary.json")).unwrap();
    let summary: serde_json::Value = serde_json::from_str(&text).unwrap();
    let _ = std::fs::remove_dir_all(&out_dir);
    summary["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["statements"].as_array().unwrap().clone())
        .collect()
}

/// Judged from one stored replication of every variant, each paper's statements are all there,
/// in order, and every one is a claim left inconclusive with a note: one replication of a
/// random variant has no interval, so nothing is decided on it.
#[test]
fn one_stored_replication_decides_nothing() {
    for paper in ["salehi2012", "salehi2011"] {
        let statements = judged(paper);
        let ids: Vec<&str> = statements
            .iter()
            .map(|s| s["id"].as_str().unwrap())
            .collect();
        let expected: Vec<String> = experiments::paper(paper)
            .unwrap()
            .statements()
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        assert_eq!(ids, expected, "{paper}");
        for s in &statements {
            assert_eq!(s["kind"], "claim", "{}", s["id"]);
            assert_eq!(s["outcome"], "inconclusive", "{}", s["id"]);
            assert!(
                s["note"]
                    .as_str()
                    .is_some_and(|n| n.contains("more would be needed")),
                "{}: {}",
                s["id"],
                s["note"]
            );
        }
    }
}

/// The stored metrics of replication 0 of `variant` in `paper`'s run file, read as
/// [`Metrics`] (a file stored under older key names reads through their aliases).
fn stored(paper: &str, variant: &impl serde::Serialize) -> Metrics {
    let key = serde_json::to_string(variant).unwrap();
    let text = std::fs::read_to_string(data().join(format!("{paper}.jsonl"))).unwrap();
    text.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|l| l["variant"] == key && l["replication"] == 0)
        .map(|l| serde_json::from_value(l["metrics"].clone()).unwrap())
        .unwrap_or_else(|| panic!("no stored run of {key}"))
}

/// Some stored runs simulated again (the calibrated fixed points, which are quick) give the
/// same metrics, to the bit.
#[test]
fn the_stored_runs_are_what_the_model_simulates_now() {
    for policy in GatewayPolicy::ALL {
        let v = Variant::fixed(Mode::Calibrated, policy);
        let run = Federation::simulate(&v.scenario().unwrap(), 0).unwrap();
        assert_eq!(Metrics::compute(&run), stored("salehi2012", &v), "{v:?}");
    }
    for policy in PreemptionPolicy::ALL {
        let v = Salehi2011::Cluster(ClusterVariant::fixed(
            Mode::Calibrated,
            policy,
            PreferenceRule::Flat,
        ));
        let run = Federation::simulate(&v.scenario().unwrap(), 0).unwrap();
        assert_eq!(Metrics::compute(&run), stored("salehi2011", &v), "{v:?}");
    }
}
