//! Seed 003 through the `qosgate` binary: `qosgate dag` on N13's golden DAG and the Fig. 5
//! feedback example (by hand), its errors, the presets, and `qosgate reproduce
//! gandhimathi2013`: claim 3 in both modes (one replication), and every verdict pinned at the
//! default 10 replications (release builds only; `.ci/run` runs it).

use std::process::Output;

use qosgate_testkit::cli::{run, run_with_stdin, stderr, stdout};
use serde_json::{Value, json};

fn qosgate(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_qosgate"), args)
}

/// `qosgate dag - --json` on `input`.
fn dag(input: &Value) -> Result<Value, String> {
    let o = run_with_stdin(
        env!("CARGO_BIN_EXE_qosgate"),
        &["dag", "-", "--json"],
        input.to_string().as_bytes(),
    );
    if o.status.success() {
        Ok(serde_json::from_str(&stdout(&o)).expect("dag --json prints one JSON value"))
    } else {
        Err(stderr(&o))
    }
}

/// N13's DAG: 1 -> {2, 3, 4}, {2, 3} -> 5, {4, 5} -> 6, ETM rows (A, B, C), SI/b = 1.
fn n13() -> Value {
    json!({
        "image_s": 1,
        "clouds": ["A", "B", "C"],
        "tasks": [
            {"id": "1", "etm_s": [8, 9, 5]},
            {"id": "2", "preds": ["1"], "etm_s": [6, 4, 2]},
            {"id": "3", "preds": ["1"], "etm_s": [9, 7, 2]},
            {"id": "4", "preds": ["1"], "etm_s": [8, 3, 4]},
            {"id": "5", "preds": ["2", "3"], "etm_s": [5, 8, 5]},
            {"id": "6", "preds": ["4", "5"], "etm_s": [9, 4, 5]}
        ]
    })
}

#[test]
fn dag_lists_n13_as_1_3_2_5_4_6_with_cls_22_and_cmms_23() {
    let out = dag(&n13()).unwrap();
    assert_eq!(out["cnpt"], json!(["1", "3", "2", "5", "4", "6"]));
    let critical: Vec<&str> = out["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["critical"] == true)
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(critical, ["1", "3", "5", "6"]);
    let makespans: Vec<f64> = out["schedules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["makespan_s"].as_f64().unwrap())
        .collect();
    // CLS, CMMS, and without feedback DCLS and DCMMS decide the same.
    assert_eq!(makespans, [22.0, 23.0, 22.0, 23.0]);
    // The example file of the README is the same DAG.
    let text = qosgate(&[
        "dag",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/examples/n13-dag.json"),
    ]);
    assert!(text.status.success(), "{}", stderr(&text));
    assert!(stdout(&text).contains("CNPT list: 1 3 2 5 4 6"));
}

/// Fig. 5: task k (ERAT 14 s everywhere, ETM (9, 10, 8)) after task i set fd_C = 0.5 alpha.
fn fig5_cloud_of_k(alpha: f64) -> (String, String) {
    let out = dag(&json!({
        "image_s": 1,
        "now_s": 14,
        "clouds": ["A", "B", "C"],
        "free_s": [14, 14, 14],
        "tasks": [{"id": "k", "etm_s": [9, 10, 8]}],
        "feedback": {"alpha": alpha,
                     "observed": [{"cloud": "C", "erat_s": 2, "finish_s": 14, "planned_s": 8}]}
    }))
    .unwrap();
    let cloud = |i: usize| {
        out["schedules"][i]["decisions"][0]["cloud"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    (cloud(0), cloud(2))
}

#[test]
fn dag_moves_fig5s_task_k_to_a_under_dcls_from_alpha_a_quarter() {
    assert_eq!(fig5_cloud_of_k(0.2), ("C".into(), "C".into()));
    assert_eq!(fig5_cloud_of_k(0.25), ("C".into(), "A".into()));
}

#[test]
fn dag_errors_name_the_task_or_cloud() {
    let mut bad = n13();
    bad["tasks"][2]["preds"] = json!(["4"]);
    let e = dag(&bad).unwrap_err();
    assert!(
        e.contains("tasks[2] (`3`): predecessor `4` is not a task listed before it"),
        "{e}"
    );
    let mut bad = n13();
    bad["tasks"][0]["etm_s"] = json!([null, null, null]);
    assert!(
        dag(&bad)
            .unwrap_err()
            .contains("tasks[0] (`1`): no cloud can run it")
    );
    let mut bad = n13();
    bad["feedback"] = json!({"alpha": 0.5, "observed": [{"cloud": "D", "erat_s": 0, "finish_s": 1, "planned_s": 1}]});
    assert!(
        dag(&bad)
            .unwrap_err()
            .contains("feedback.observed[0]: unknown cloud `D`")
    );
}

#[test]
fn every_preset_runs_and_reads_back_from_its_dump() {
    let o = qosgate(&["presets"]);
    let names: Vec<String> = stdout(&o)
        .lines()
        .filter(|l| l.starts_with("gandhimathi2013-"))
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect();
    assert_eq!(names.len(), 8, "{names:?}");
    let dir = std::env::temp_dir().join(format!("qosgate-g13-presets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let name = &names[0];
    let dump = qosgate(&["run", "--preset", name, "--dump"]);
    assert!(dump.status.success(), "{}", stderr(&dump));
    let file = dir.join("p.toml");
    std::fs::write(&file, stdout(&dump)).unwrap();
    let from_file = qosgate(&[
        "run",
        file.to_str().unwrap(),
        "--replications",
        "1",
        "--json",
    ]);
    let from_preset = qosgate(&["run", "--preset", name, "--replications", "1", "--json"]);
    assert!(from_file.status.success(), "{}", stderr(&from_file));
    let (a, b): (Value, Value) = (
        serde_json::from_str(&stdout(&from_file)).unwrap(),
        serde_json::from_str(&stdout(&from_preset)).unwrap(),
    );
    assert_eq!(a["per_replication"], b["per_replication"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The verdict of every statement of `qosgate reproduce gandhimathi2013` at its default 10
/// replications (seed 2013, the compiled cut-downs), by the paper's statement as the report
/// prints it with its mode (`(literal)`, `(calibrated)`, or `(both modes)` for the statements
/// that do not compare with FCFS), and whether it has an `Other reading:` (one of the other
/// readings, queue = "ready" or feedback_from = "ready", gives the opposite verdict). No smaller
/// number of replications gives the same verdicts (checked at 2, 3, 4 and 5 when this table
/// was written: one to three verdicts differ), so the table is pinned at 10, in release (about
/// 50 s of CPU). A change of any verdict is a change of the reproduction's result: update this
/// table with it and say why.
const VERDICTS: [(&str, bool, bool); 22] = [
    (
        "(literal) DCMMS has the shorter average execution time, in the loose and the tight \
         situation (Figs. 7-8: \"DCMMS still outperforms DCLS and FCFS\").",
        false,
        true,
    ),
    (
        "(calibrated) DCMMS has the shorter average execution time, in the loose and the \
         tight situation (Figs. 7-8: \"DCMMS still outperforms DCLS and FCFS\").",
        true,
        true,
    ),
    ("(literal) DCLS outperforms FCFS (Figs. 7-8).", true, true),
    (
        "(calibrated) DCLS outperforms FCFS (Figs. 7-8).",
        true,
        true,
    ),
    (
        "(both modes) In the loose situation the dynamic procedure does not impact the \
         execution time significantly (Fig. 7).",
        false,
        true,
    ),
    (
        "(both modes) The dynamic procedure works more significantly in the tight situation: \
         it shortens the execution time (Fig. 8).",
        false,
        false,
    ),
    (
        "(both modes) The improvement caused by the feedback procedure increases as the \
         resource contention becomes heavier (Table 3: -6.6 % to 30.7 % for DLS, -8.3 % to \
         40.2 % for DMMS as the gaps shrink 1 to 100 times).",
        false,
        false,
    ),
    (
        "(both modes) Under heavy contention the feedback shortens the execution time (Table \
         3 at 100: 30.7 % and 40.2 %).",
        false,
        false,
    ),
    (
        "(literal) DCLS and DCMMS shorten the average application execution time against FCFS \
         at every share of reservations, loose and tight (Tables 4-5: 0.27 to 0.81).",
        false,
        false,
    ),
    (
        "(calibrated) DCLS and DCMMS shorten the average application execution time against \
         FCFS at every share of reservations, loose and tight (Tables 4-5: 0.27 to 0.81).",
        false,
        false,
    ),
    (
        "(literal) A higher percentage of AR applications leads to a better improvement of \
         DCLS and DCMMS against FCFS (Tables 4-5).",
        false,
        false,
    ),
    (
        "(calibrated) A higher percentage of AR applications leads to a better improvement of \
         DCLS and DCMMS against FCFS (Tables 4-5).",
        false,
        false,
    ),
    (
        "(literal) The improvement is larger in the tight situation (Table 5 below Table 4 in \
         every cell).",
        true,
        true,
    ),
    (
        "(calibrated) The improvement is larger in the tight situation (Table 5 below Table 4 \
         in every cell).",
        true,
        true,
    ),
    (
        "(literal) DCMMS does better than DCLS (Tables 4-5: DCMMS's row below DCLS's).",
        false,
        false,
    ),
    (
        "(calibrated) DCMMS does better than DCLS (Tables 4-5: DCMMS's row below DCLS's).",
        false,
        false,
    ),
    (
        "(literal) Both DCLS and DCMMS can reduce energy consumption compared to the FCFS \
         algorithm (Figs. 9-10).",
        false,
        false,
    ),
    (
        "(calibrated) Both DCLS and DCMMS can reduce energy consumption compared to the FCFS \
         algorithm (Figs. 9-10).",
        false,
        false,
    ),
    (
        "(both modes) The energy-aware local mapping further reduces the energy consumption \
         in all three algorithms: against first-fit by VM.",
        false,
        false,
    ),
    (
        "(both modes) The energy-aware local mapping further reduces the energy consumption \
         in all three algorithms: against first-fit by task.",
        false,
        false,
    ),
    (
        "(both modes) The energy-aware local mapping further reduces the energy consumption \
         in all three algorithms: against worst-fit.",
        true,
        false,
    ),
    (
        "(both modes) The mapping changes energy, not the schedule (the paper's Figs. 7-8 and \
         9-10 share their runs).",
        true,
        false,
    ),
];

/// At seed 2013 and the default 10 replications, every statement's verdict (and whether another
/// reading flips it) is the one [`VERDICTS`] pins, none is unpinned, and every figure has its
/// CSV and SVG. Release only (`cargo test --release -p qosgate-harness --test
/// gandhimathi2013`): a debug build takes over ten minutes.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "10 replications of 256 variants: run with --release"
)]
fn every_verdict_at_ten_replications_is_the_pinned_one() {
    let (dir, o) = reproduce(&[]);
    let found: Vec<(String, bool, bool)> = verdicts(&dir)
        .into_iter()
        .map(|v| {
            (
                v["claim"].as_str().unwrap().to_owned(),
                v["holds"].as_bool().unwrap(),
                !v["other_reading"].is_null(),
            )
        })
        .collect();
    let pinned: Vec<(String, bool, bool)> = VERDICTS
        .iter()
        .map(|&(c, h, o)| (c.to_owned(), h, o))
        .collect();
    assert_eq!(found, pinned);
    assert!(stdout(&o).contains("Verdict: HOLDS"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every statement that compares with FCFS is judged in both modes, one after the other, and
/// the others once for both; the tables of claim 3 come in each mode; every figure has its CSV
/// and SVG (one replication of claim 3: cheap in a debug build).
#[test]
fn claim3_is_judged_in_both_modes_with_a_table_per_mode() {
    let (dir, _) = reproduce(&["--only", "claim3", "--replications", "1"]);
    let claims: Vec<String> = verdicts(&dir)
        .iter()
        .map(|v| v["claim"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(claims.len(), 8, "{claims:?}");
    for pair in claims.chunks(2) {
        let literal = pair[0].strip_prefix("(literal) ").unwrap();
        assert_eq!(pair[1].strip_prefix("(calibrated) "), Some(literal));
    }
    let summary = summary(&dir);
    let titles: Vec<&str> = summary["sections"][0]["figures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles.len(), 4);
    assert!(titles[..2].iter().all(|t| t.contains("literal mode")));
    assert!(titles[2..].iter().all(|t| t.contains("calibrated mode")));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `qosgate reproduce gandhimathi2013 ARGS --out DIR` into a fresh directory and checks
/// that it succeeded and wrote a CSV and an SVG per figure.
fn reproduce(args: &[&str]) -> (std::path::PathBuf, Output) {
    use std::sync::atomic::{AtomicU32, Ordering};
    static RUN: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "qosgate-g13-{}-{}",
        std::process::id(),
        RUN.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let mut all = vec![
        "reproduce",
        "gandhimathi2013",
        "--out",
        dir.to_str().unwrap(),
    ];
    all.extend_from_slice(args);
    let o = qosgate(&all);
    assert!(o.status.success(), "{}", stderr(&o));
    for section in summary(&dir)["sections"].as_array().unwrap() {
        for fig in section["figures"].as_array().unwrap() {
            let id = fig["id"].as_str().unwrap();
            for ext in ["csv", "svg"] {
                assert!(dir.join(format!("{id}.{ext}")).is_file(), "{id}.{ext}");
            }
        }
    }
    (dir, o)
}

/// The `summary.json` a reproduction wrote into `dir`.
fn summary(dir: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap()
}

/// Every verdict of the `summary.json` in `dir`, in the report's order.
fn verdicts(dir: &std::path::Path) -> Vec<Value> {
    summary(dir)["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["verdicts"].as_array().unwrap().clone())
        .collect()
}
