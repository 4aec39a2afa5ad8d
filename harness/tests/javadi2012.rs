//! `qosgate reproduce javadi2012` end to end: every statement's verdict pinned by name, and the
//! files of every figure.
//!
//! Seed 002's statistical verdicts rest on heavy-tailed failures (a group of nodes down for
//! weeks keeps every 64-VM request waiting), so several change with the replication count: at
//! the default 20 replications and the fixed seed they are pinned below as [`Full`]; the
//! others ([`Any`]) were the same at 1, 2, 3, 5, 10 and 20 replications when this table was
//! written. A debug build (CI's `cargo test --workspace`) runs one replication of every variant
//! and checks the [`Any`] statements; an optimised build (`cargo test --release`) also runs the
//! default reproduction (about 75 s of CPU) and checks every statement. A change of any verdict
//! is a change of the reproduction's result: update this table with it and say why.

use serde_json::Value;

use qosgate_testkit::cli::{run, stderr, stdout};

/// Whether a verdict holds at any replication count or only at the default one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stability {
    /// The same at every replication count tried (1-20).
    Any,
    /// Pinned at the default 20 replications only.
    Full,
}
use Stability::{Any, Full};

/// Every statement of `qosgate reproduce javadi2012` at the default replications, with its
/// verdict.
const VERDICTS: [(&str, Stability, bool); 28] = [
    (
        "(calibrated) ARS and ADS give a lower AWRT than NoR at every arrival rate (Fig. 3).",
        Full,
        true,
    ),
    (
        "(literal) ARS and ADS give a lower AWRT than NoR at every arrival rate (Fig. 3).",
        Any,
        false,
    ),
    (
        "(calibrated) ARS and ADS give a lower slowdown than NoR at every arrival rate (Fig. 5).",
        Full,
        true,
    ),
    (
        "(literal) ARS and ADS give a lower slowdown than NoR at every arrival rate (Fig. 5).",
        Any,
        false,
    ),
    (
        "(both modes) NoR's AWRT rises with the arrival rate (Fig. 3).",
        Any,
        false,
    ),
    (
        "(calibrated) The largest AWRT improvement factors of adaptive brokering are 3.4, 3.7 and 5.1 under CB, SB and EB (Fig. 3).",
        Any,
        false,
    ),
    (
        "(calibrated) EASY backfilling gains the most from adaptive brokering (Fig. 3).",
        Any,
        false,
    ),
    (
        "(calibrated) Adaptive brokering cuts the slowdown by up to 4, 4 and 10.9 times under CB, SB and EB (Fig. 5).",
        Any,
        false,
    ),
    (
        "(calibrated) The slowdown gap between NoR and adaptive brokering grows with the arrival rate (Fig. 5).",
        Full,
        true,
    ),
    (
        "(calibrated) ARS and ADS give a lower AWRT than NoR for every request duration (Fig. 4).",
        Full,
        true,
    ),
    (
        "(literal) ARS and ADS give a lower AWRT than NoR for every request duration (Fig. 4).",
        Any,
        false,
    ),
    (
        "(calibrated) ARS and ADS give a lower slowdown than NoR for every request duration (Fig. 6).",
        Full,
        true,
    ),
    (
        "(literal) ARS and ADS give a lower slowdown than NoR for every request duration (Fig. 6).",
        Any,
        false,
    ),
    (
        "(calibrated) ADS achieves almost the same performance as ARS for every scheduling algorithm (Figs. 3-6).",
        Full,
        true,
    ),
    (
        "(calibrated) Under selective backfilling ADS improves AWRT over ARS by 5.8 % on average (Fig. 4).",
        Full,
        true,
    ),
    (
        "(calibrated) The slowdown falls as the request duration grows (Fig. 6).",
        Full,
        true,
    ),
    (
        "(calibrated) The EC2 cost per month rises with the request duration (Table III).",
        Any,
        true,
    ),
    (
        "(calibrated) The EC2 cost per month is 728, 1194 and 1434 USD (ARS; ADS alike) for short, medium and large requests (Table III).",
        Any,
        true,
    ),
    (
        "(literal) The EC2 cost per month is 728, 1194 and 1434 USD (ARS; ADS alike) for short, medium and large requests (Table III).",
        Any,
        false,
    ),
    (
        "(calibrated) The Cloud usage (H_c of Eq. 19) is the same for all scheduling algorithms (Sec. VI-C).",
        Any,
        true,
    ),
    (
        "(calibrated) Adaptive brokering improves AWRT by Table III's factors.",
        Any,
        false,
    ),
    (
        "(calibrated) Adaptive brokering improves slowdown by Table III's factors.",
        Any,
        false,
    ),
    (
        "(calibrated) ADS costs slightly less than ARS in almost all cases (Table III).",
        Full,
        true,
    ),
    (
        "(literal) Eq. 5 redirects part of the requests to the cloud at the paper's parameters (Sec. V-VI: ARS and ADS differ from NoR only if it does).",
        Any,
        false,
    ),
    (
        "(calibrated, share sweep) Spending more on the cloud buys a larger improvement (Table III, Sec. VI-C).",
        Any,
        true,
    ),
    (
        "(calibrated, share sweep) By spending more, adaptive brokering improves AWRT up to 5.90 times and the slowdown up to 17.61 times (Sec. VI-C, Table III).",
        Any,
        false,
    ),
    (
        "(calibrated, load sweep) The gap between NoR and adaptive brokering grows with the arrival rate (Sec. VI-C on Fig. 5).",
        Full,
        true,
    ),
    (
        "(literal, load sweep) The routing probabilities adapt to the arrival rate and redirect more requests to the cloud as it rises (Sec. VI-C).",
        Any,
        false,
    ),
];

/// Runs `qosgate reproduce javadi2012 [--replications N] --out DIR` into a fresh directory;
/// returns the directory and the summary.
fn reproduce(replications: Option<u32>) -> (std::path::PathBuf, Value) {
    let tag = replications.map_or_else(|| "default".to_owned(), |n| n.to_string());
    let dir = std::env::temp_dir().join(format!("qosgate-javadi-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut args = vec!["reproduce".to_owned(), "javadi2012".to_owned()];
    if let Some(n) = replications {
        args.extend(["--replications".to_owned(), n.to_string()]);
    }
    args.extend(["--out".to_owned(), dir.display().to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(env!("CARGO_BIN_EXE_qosgate"), &args);
    assert!(o.status.success(), "qosgate failed: {}", stderr(&o));
    assert!(stdout(&o).contains("claims hold."), "{}", stdout(&o));
    let summary = std::fs::read_to_string(dir.join("summary.json")).expect("summary.json");
    (dir, serde_json::from_str(&summary).expect("a JSON summary"))
}

/// `(claim, holds)` of every verdict of `summary`, in order.
fn verdicts(summary: &Value) -> Vec<(String, bool)> {
    summary["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .flat_map(|s| s["verdicts"].as_array().expect("verdicts").iter())
        .map(|v| {
            (
                v["claim"].as_str().expect("a claim").to_owned(),
                v["holds"].as_bool().expect("holds"),
            )
        })
        .collect()
}

/// Every statement of [`VERDICTS`] of the kinds `kinds` is there once with its pinned verdict,
/// and no statement is unpinned.
fn assert_pinned(got: &[(String, bool)], kinds: &[Stability]) {
    assert_eq!(got.len(), VERDICTS.len(), "{got:?}");
    for (claim, _) in got {
        assert!(
            VERDICTS.iter().any(|(c, _, _)| c == claim),
            "unpinned statement {claim:?}"
        );
    }
    for (claim, kind, holds) in VERDICTS {
        if kinds.contains(&kind) {
            let found: Vec<bool> = got.iter().filter(|v| v.0 == claim).map(|v| v.1).collect();
            assert_eq!(found, [holds], "the verdict of {claim:?}");
        }
    }
}

/// One replication of every variant: every figure has its CSV (a row per group and series) and
/// SVG, and the statements that do not depend on the replication count have their pinned
/// verdicts.
#[test]
fn one_replication_writes_every_figure_and_keeps_the_stable_verdicts() {
    let (dir, summary) = reproduce(Some(1));
    let sections = summary["sections"].as_array().unwrap();
    assert_eq!(sections.len(), 5, "claims 1-3, the routing and the sweeps");
    for fig in sections
        .iter()
        .flat_map(|s| s["figures"].as_array().unwrap())
    {
        let id = fig["id"].as_str().unwrap();
        let rows =
            fig["groups"].as_array().unwrap().len() * fig["series"].as_array().unwrap().len();
        let csv = std::fs::read_to_string(dir.join(format!("{id}.csv"))).unwrap();
        assert_eq!(csv.lines().count(), rows + 1, "{id}.csv");
        assert!(dir.join(format!("{id}.svg")).is_file(), "{id}.svg");
    }
    assert_pinned(&verdicts(&summary), &[Any]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The default reproduction (20 replications): every statement has its pinned verdict. Only in
/// an optimised build, where it takes about a minute of CPU.
#[test]
fn every_verdict_at_the_default_replications_is_the_pinned_one() {
    if cfg!(debug_assertions) {
        eprintln!(
            "javadi2012's default reproduction is checked in optimised builds only: run `cargo \
             test --release -p qosgate-harness --test javadi2012`"
        );
        return;
    }
    let (dir, summary) = reproduce(None);
    assert_eq!(summary["random_replications"], 20);
    assert_pinned(&verdicts(&summary), &[Any, Full]);
    std::fs::remove_dir_all(&dir).unwrap();
}
