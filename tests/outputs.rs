//! Every model's outputs against docs/outputs.md: `qosgate run` with `--json`, `--events` and
//! `--out` on one scenario of each model, and every key they hold must be snake_case and
//! listed (backquoted) in docs/outputs.md; the summary has the common head, `metrics` as one
//! object of estimates and `per_replication` per replication; each event line has the common
//! fields with an outcome of the vocabulary; and each table's CSV has its JSON objects' keys.

use std::collections::BTreeSet;
use std::path::Path;

use qosgate_testkit::cli::{run, scratch, stderr, stdout};
use serde_json::Value;

/// docs/outputs.md, whose backquoted words are the vocabulary.
const DOC: &str = include_str!("../docs/outputs.md");

/// The outcomes an item may end with.
const OUTCOMES: [&str; 5] = ["completed", "rejected", "cancelled", "failed", "unfinished"];

fn documented() -> BTreeSet<&'static str> {
    DOC.split('`').skip(1).step_by(2).collect()
}

fn snake_case(key: &str) -> bool {
    key.starts_with(|c: char| c.is_ascii_lowercase())
        && key
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Every object key in `v`, at any depth.
fn keys(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.insert(k.clone());
                keys(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
        _ => {}
    }
}

/// A CSV file's header fields.
fn header(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let first = text.lines().next().unwrap_or_default();
    first.split(',').map(str::to_owned).collect()
}

/// Runs `scenario` (arguments naming a preset or a file) with every output and checks them.
fn check(name: &str, scenario: &[&str]) {
    let dir = scratch(&format!("outputs-{name}"));
    let (events, out) = (dir.join("events.jsonl"), dir.join("out"));
    let mut args = vec!["run"];
    args.extend_from_slice(scenario);
    args.extend([
        "--replications",
        "2",
        "--json",
        "--events",
        events.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let o = run(env!("CARGO_BIN_EXE_qosgate-e2e"), &args);
    assert!(o.status.success(), "{name}: {}", stderr(&o));
    let summary: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let doc = documented();
    let mut seen = BTreeSet::new();

    // The summary: the head, the metrics, every replication's metrics.
    for k in ["model", "scenario", "replications", "seed", "events"] {
        assert!(!summary[k].is_null(), "{name}: no `{k}`");
    }
    let metrics = summary["metrics"]
        .as_object()
        .expect("`metrics` is an object");
    assert!(!metrics.is_empty(), "{name}");
    for (k, e) in metrics {
        assert!(
            e.is_null() || (e["mean"].is_number() && e["n"].is_u64()),
            "{name}: metric {k} is {e}"
        );
    }
    assert_eq!(
        summary["per_replication"].as_array().map(Vec::len),
        Some(2),
        "{name}"
    );
    keys(&summary, &mut seen);

    // The events: the common fields, an outcome of the vocabulary.
    let text = std::fs::read_to_string(&events).unwrap();
    assert!(!text.is_empty(), "{name}: no event");
    for line in text.lines() {
        let e: Value = serde_json::from_str(line).unwrap();
        for k in ["replication", "arrival", "start", "end", "outcome"] {
            assert!(e.get(k).is_some(), "{name}: an event without `{k}`: {e}");
        }
        let outcome = e["outcome"].as_str().unwrap();
        assert!(OUTCOMES.contains(&outcome), "{name}: outcome {outcome}");
        keys(&e, &mut seen);
    }

    // The files: summary.json is what --json printed; each table's CSV has its JSON keys.
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(saved, summary, "{name}");
    let mut csvs = Vec::new();
    for entry in std::fs::read_dir(&out).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "csv") {
            csvs.push(path);
        }
    }
    assert!(
        csvs.iter().any(|p| p.ends_with("metrics.csv")),
        "{name}: no metrics.csv"
    );
    for path in &csvs {
        let fields = header(path);
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let plain: Vec<&str> = fields
            .iter()
            .filter(|f| !(f.ends_with("_hw") && fields.contains(&f[..f.len() - 3].to_owned())))
            .map(String::as_str)
            .collect();
        if let Some(rows) = summary[stem].as_array() {
            for row in rows {
                let row_keys: Vec<&str> = row.as_object().unwrap().keys().map(|k| &**k).collect();
                let mut sorted = plain.clone();
                sorted.sort_unstable();
                assert_eq!(row_keys, sorted, "{name}: {stem}.csv against `{stem}`");
            }
        }
        seen.extend(fields);
    }

    let bad: Vec<&String> = seen.iter().filter(|k| !snake_case(k)).collect();
    assert!(bad.is_empty(), "{name}: keys not snake_case: {bad:?}");
    let undocumented: Vec<&String> = seen
        .iter()
        .filter(|k| !doc.contains(k.as_str()))
        .filter(|k| !k.strip_suffix("_hw").is_some_and(|base| doc.contains(base)))
        .collect();
    assert!(
        undocumented.is_empty(),
        "{name}: keys missing from docs/outputs.md: {undocumented:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn grid() {
    check("grid", &["--preset", "kokkinos2009-gb"]);
}

#[test]
fn federation() {
    check("federation", &["--preset", "salehi2012-calibrated-rr"]);
}

#[test]
fn hybrid() {
    check("hybrid", &["--preset", "javadi2012-cb-nor"]);
}

#[test]
fn multicloud() {
    check("multicloud", &["--preset", "gandhimathi2013-fcfs-loose"]);
}

/// [`check`] on a scenario file holding `toml`.
fn check_file(name: &str, toml: &str) {
    let dir = scratch(&format!("outputs-{name}-file"));
    let file = dir.join(format!("{name}.toml"));
    std::fs::write(&file, toml).unwrap();
    check(name, &[file.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cluster() {
    let swf = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/traces/SDSC-SP2-1998-first300.swf"
    );
    check_file(
        "cluster",
        &format!(
            "model = \"cluster\"\nname = \"sdsc\"\nseed = 5\nreplications = 2\ntrace = {swf:?}\n\
             [scheduler]\npolicy = \"conservative\"\n[failures]\nsource = \"lognormal\"\n"
        ),
    );
}

#[test]
fn leases() {
    let lwf = concat!(env!("CARGO_MANIFEST_DIR"), "/data/lwf/preemption.lwf");
    check_file(
        "leases",
        &format!(
            "model = \"leases\"\nname = \"pre\"\nseed = 0\nreplications = 1\nworkload = {lwf:?}\n\
             policy = \"mov\"\nsuspend_s = 20\n"
        ),
    );
}
