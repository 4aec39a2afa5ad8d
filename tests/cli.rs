//! End-to-end tests of the `qosgate` binary: `qosgate bounds` (of kokkinos2009's grid and of a
//! scenario file), `qosgate backfill`, and the
//! replication limit of `qosgate run` and `qosgate reproduce`.

use std::process::Output;

use qosgate_testkit::cli::{run, run_with_stdin, scratch, stderr, stdout};
use qosgate_testkit::traces::fixture;
use serde_json::Value;

fn qosgate(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_qosgate-e2e"), args)
}

fn bounds_json(extra: &[&str]) -> Value {
    let mut args = vec!["bounds", "--json"];
    args.extend_from_slice(extra);
    let o = qosgate(&args);
    assert!(o.status.success(), "exit {:?}: {}", o.status, stderr(&o));
    serde_json::from_str(&stdout(&o)).expect("bounds --json prints one JSON value")
}

/// The rows as a list, with each row's fields as a JSON object.
fn rows(v: &Value) -> &Vec<Value> {
    v["rows"].as_array().expect("a `rows` array")
}

/// The row of `user` in the combination (`kind`, `discipline`, `layout`).
fn row<'a>(v: &'a Value, user: &str, kind: &str, discipline: &str, layout: &str) -> &'a Value {
    let matches: Vec<&Value> = rows(v)
        .iter()
        .filter(|r| {
            r["user"] == user
                && r["kind"] == kind
                && r["discipline"] == discipline
                && r["layout"] == layout
        })
        .collect();
    assert_eq!(
        matches.len(),
        1,
        "one row for {user} {kind} {discipline} {layout}"
    );
    matches[0]
}

fn secs(r: &Value, field: &str) -> f64 {
    r[field]
        .as_f64()
        .unwrap_or_else(|| panic!("{field} is a number in {r}"))
}

const USERS: [&str; 3] = ["U1", "U2", "U3"];
const KINDS: [&str; 4] = [
    "gs",
    "gs_be_equal",
    "gs_be_priority_non_preemptive",
    "gs_be_priority_preemptive",
];
const DISCIPLINES: [&str; 2] = ["wfq", "scfq"];
const LAYOUTS: [&str; 2] = ["single", "multi"];
const BASES: [&str; 2] = ["reserved", "current"];

#[test]
fn json_has_a_row_per_user_and_combination_with_bounds() {
    let v = bounds_json(&[]);
    assert_eq!(rows(&v).len(), 3 * 16);
    assert_eq!(v["max_users"], 8);
    for u in USERS {
        for k in KINDS {
            for d in DISCIPLINES {
                for l in LAYOUTS {
                    let r = row(&v, u, k, d, l);
                    assert_eq!(r["registered"], true, "{r}");
                    assert_eq!(r["outcome"], "ok");
                    assert!(r["g_reserved_mips"].as_u64().unwrap() > 0);
                    assert!(r["g_current_mips"].as_u64() >= r["g_reserved_mips"].as_u64());
                    for b in BASES {
                        // d = 0 by default: end to end = at the resource.
                        assert_eq!(r[format!("bound_{b}_s")], r[format!("end_to_end_{b}_s")]);
                    }
                    let dl = secs(r, "deadline_1_10x_end_to_end_current_s");
                    let e2e = secs(r, "end_to_end_current_s");
                    assert!(dl >= 1.1 * e2e - 1e-6 && dl <= 1.1 * e2e + 1e-6, "{r}");
                }
            }
        }
    }
    // The worked example: U1 alone at R1, GS, WFQ, one CPU, current basis (g = C = 780,000):
    // ceil(sigma / g) + ceil(I / g) + ceil(I_r / C) = 2691.666667 + 2 x 538.333334 s.
    let r = row(&v, "U1", "gs", "wfq", "single");
    assert_eq!(r["g_current_mips"], 780_000);
    assert_eq!(r["bound_current_s"], 3768.333335);
}

#[test]
fn reserved_basis_bounds_are_never_below_current_basis_bounds() {
    let v = bounds_json(&[]);
    for r in rows(&v) {
        for what in ["bound", "end_to_end"] {
            let res = secs(r, &format!("{what}_reserved_s"));
            let cur = secs(r, &format!("{what}_current_s"));
            assert!(res >= cur, "{what}: reserved {res} < current {cur} in {r}");
        }
    }
}

#[test]
fn scfq_bounds_exceed_wfq_bounds_when_other_flows_may_hold_maximal_tasks() {
    let v = bounds_json(&[]);
    for u in USERS {
        for k in KINDS {
            for l in LAYOUTS {
                let wfq = row(&v, u, k, "wfq", l);
                let scfq = row(&v, u, k, "scfq", l);
                // Reserved basis: SCFQ blocks for (max_users - 1) = 7 maximal tasks, WFQ for one
                // (erratum E28), so SCFQ is strictly larger.
                assert!(
                    secs(scfq, "bound_reserved_s") > secs(wfq, "bound_reserved_s"),
                    "{u} {k} {l}"
                );
                // Current basis: SCFQ blocks for the tasks of the users registered now. In this
                // grid no resource has other users whose maxima add up to I_r^max (U1 is alone at
                // R1; U2 and U3 share R2 and are each smaller than I_r^max), so SCFQ's
                // current-basis bound is the smaller one; except at GS_BE_EQUAL, where a free
                // flow slot may hold a temporary BE user with a maximal task, as far as Eq. 1
                // admits them: at R2 (U2 and U3 use 22,472 of 520,000 MIPS) it admits many; at R1
                // (U1's rho is 768,473 of 780,000) none, so U1's SCFQ bound stays the smaller.
                let (s, w) = (secs(scfq, "bound_current_s"), secs(wfq, "bound_current_s"));
                if k == "gs_be_equal" && u != "U1" {
                    assert!(s > w, "{u} {k} {l}");
                } else {
                    assert!(s < w, "{u} {k} {l}");
                }
            }
        }
    }
    // With two flow slots, SCFQ's reserved basis assumes one other maximal task: exactly WFQ's
    // one I_r^max / C.
    let v = bounds_json(&["--max-users", "2"]);
    let wfq = row(&v, "U1", "gs", "wfq", "single");
    let scfq = row(&v, "U1", "gs", "scfq", "single");
    assert_eq!(scfq["bound_reserved_s"], wfq["bound_reserved_s"]);
}

#[test]
fn non_preemptive_priority_bounds_exceed_preemptive_ones() {
    let v = bounds_json(&[]);
    for u in USERS {
        for d in DISCIPLINES {
            for l in LAYOUTS {
                let np = row(&v, u, "gs_be_priority_non_preemptive", d, l);
                let pr = row(&v, u, "gs_be_priority_preemptive", d, l);
                for b in BASES {
                    let f = format!("bound_{b}_s");
                    assert!(secs(np, &f) > secs(pr, &f), "{u} {d} {l} {b}");
                }
            }
        }
    }
}

#[test]
fn pipelined_delay_is_added_to_every_end_to_end_bound() {
    let v = bounds_json(&["--pipelined-delay", "2.5"]);
    assert_eq!(v["transfer_delay_s"], 2.5);
    for r in rows(&v) {
        for b in BASES {
            let at = secs(r, &format!("bound_{b}_s"));
            let e2e = secs(r, &format!("end_to_end_{b}_s"));
            assert!((e2e - at - 2.5).abs() < 1e-6, "{r}");
        }
    }
}

#[test]
fn a_refused_registration_is_a_row_not_a_failure() {
    // One flow per resource: U3 finds R2 full (U2 registered first).
    let v = bounds_json(&["--max-users", "1"]);
    for r in rows(&v) {
        let refused = r["user"] == "U3";
        assert_eq!(r["registered"], !refused, "{r}");
        if refused {
            assert_eq!(r["outcome"], qosgate_kernel::Error::Full.to_string());
            assert!(r["g_current_mips"].is_null());
            assert!(r["bound_current_s"].is_null());
            assert!(r["deadline_1_10x_end_to_end_current_s"].is_null());
        }
    }
}

#[test]
fn table_output_names_users_resources_and_explains_itself() {
    let o = qosgate(&["bounds"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for needle in [
        "U1",
        "U2",
        "U3",
        "R1",
        "R2",
        "GS_BE_PRIORITY n.pr.",
        "SCFQ",
        "3768.333335",
        "Legend.",
        "C_min",
    ] {
        assert!(out.contains(needle), "table lacks {needle:?}:\n{out}");
    }
    let refused = stdout(&qosgate(&["bounds", "--max-users", "1"]));
    assert!(refused.contains("capacity full"));
    assert!(refused.contains("none"));
}

/// `qosgate bounds FILE` on a grid scenario: its GS users, registered where `qosgate run`
/// registers them; one CPU per resource gives the single layout only. Another model's file is
/// refused at its `model` key.
#[test]
fn bounds_of_a_scenario_file_follow_its_registrations() {
    let dir = std::env::temp_dir().join(format!("qosgate-cli-bounds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dump = |preset: &str| {
        let o = qosgate(&["run", "--preset", preset, "--dump"]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let gb = dump("kokkinos2009-gb");
    let path = dir.join("gb.toml");
    std::fs::write(&path, &gb).unwrap();
    let file = bounds_json(&[path.to_str().unwrap()]);
    assert_eq!(file["grid"], "kokkinos2009-gb");
    assert_eq!(
        rows(&file).len(),
        USERS.len() * KINDS.len() * DISCIPLINES.len()
    );
    // The paper's grid on one CPU each: the default table's single-layout rows.
    let paper = bounds_json(&[]);
    let single: Vec<&Value> = rows(&paper)
        .iter()
        .filter(|r| r["layout"] == "single")
        .collect();
    assert_eq!(rows(&file).iter().collect::<Vec<_>>(), single);

    // R1 twice as fast: U2 now fits beside U1 there (Eq. 1), and U3 does not.
    let fast = gb.replacen("cpus = [780000]", "cpus = [1560000]", 1);
    assert_ne!(fast, gb);
    std::fs::write(&path, &fast).unwrap();
    let file = bounds_json(&[path.to_str().unwrap()]);
    let placed = |u: &str| {
        let r = rows(&file).iter().find(|r| r["user"] == u).unwrap();
        r["resource"].as_str().unwrap().to_owned()
    };
    assert_eq!(
        [placed("U1"), placed("U2"), placed("U3")],
        ["R1", "R1", "R2"]
    );
    let o = qosgate(&["run", path.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let run: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        run["registrations"],
        serde_json::json!([
            {"user": "U1", "resource": "R1"},
            {"user": "U2", "resource": "R1"},
            {"user": "U3", "resource": "R2"}
        ])
    );

    let fed = dir.join("fed.toml");
    std::fs::write(&fed, dump("salehi2012-literal-rr")).unwrap();
    let o = qosgate(&["bounds", fed.to_str().unwrap()]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("fed.toml:") && e.contains("model: a grid scenario is needed here"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_command_lines_fail_with_a_message() {
    let o = qosgate(&["bounds", "--no-such-flag"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--no-such-flag"));

    let o = qosgate(&["bounds", "--max-users", "0"]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("--max-users 0") && e.contains("flow limit"),
        "{e}"
    );

    let o = qosgate(&["bounds", "--max-users", "17"]);
    assert!(!o.status.success());

    let o = qosgate(&["bounds", "--pipelined-delay", "-1"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--pipelined-delay"), "{}", stderr(&o));

    let o = qosgate(&["bounds", "--pipelined-delay", "inf"]);
    assert!(!o.status.success());
}

/// Every model, and every reproduction, refuses a replication count outside `1 ..= 10,000`
/// given on the command line, naming the option (`0` used to run one replication of the
/// federation, hybrid-cloud and multi-cloud models, and no count was too large).
#[test]
fn replications_outside_their_range_are_refused_naming_the_option() {
    let presets = [
        "kokkinos2009-gb",
        "salehi2012-literal-rr",
        "javadi2012-cb-ars",
        "gandhimathi2013-fcfs-loose",
    ];
    let commands = presets
        .iter()
        .map(|p| vec!["run", "--preset", p])
        .chain([vec!["reproduce", "kokkinos2009"]]);
    for command in commands {
        for n in ["0", "10001"] {
            let mut args = command.clone();
            args.extend(["--replications", n]);
            let o = qosgate(&args);
            let e = stderr(&o);
            assert!(!o.status.success(), "{args:?} ran");
            assert!(
                e.contains("--replications") && e.contains("1 to 10000"),
                "{args:?}: {e}"
            );
        }
    }
}

#[test]
fn no_arguments_prints_help_and_fails_and_version_works() {
    let o = qosgate(&[]);
    assert!(!o.status.success());
    let help = stderr(&o) + &stdout(&o);
    assert!(help.contains("Usage") && help.contains("bounds"), "{help}");

    let o = qosgate(&["--version"]);
    assert!(o.status.success());
    assert!(stdout(&o).starts_with("qosgate "), "{}", stdout(&o));
}

/// `presets --json` and `reproduce --list --json` list what their text forms list: the same
/// presets in the same order, each with its model; the same papers, each with its citation and
/// its parts' figures.
#[test]
fn the_lists_have_json_forms_with_the_same_entries() {
    let text = stdout(&qosgate(&["presets"]));
    let o = qosgate(&["presets", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let presets: Vec<Value> = serde_json::from_str(&stdout(&o)).unwrap();
    let names: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let json_names: Vec<&str> = presets
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(json_names, names);
    let models = [
        "grid",
        "federation",
        "cluster",
        "leases",
        "hybrid",
        "multicloud",
    ];
    assert!(
        presets
            .iter()
            .all(|p| models.contains(&p["model"].as_str().unwrap()))
    );

    let text = stdout(&qosgate(&["reproduce", "--list"]));
    let o = qosgate(&["reproduce", "--list", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let papers: Vec<Value> = serde_json::from_str(&stdout(&o)).unwrap();
    let ids: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with(' '))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let json_ids: Vec<&str> = papers.iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(json_ids, ids);
    for p in &papers {
        assert!(p["citation"]["year"].as_u64().unwrap() > 2000, "{p}");
        assert!(
            p["parts"].as_array().is_some_and(|parts| !parts.is_empty()),
            "{p}"
        );
    }
    assert!(
        !qosgate(&["reproduce", "kokkinos2009", "--json"])
            .status
            .success()
    );
}

/// A committed trace cut-down (`data/traces`), as a command-line argument.
fn trace(name: &str) -> String {
    fixture(name).display().to_string()
}

/// `backfill --json --out`: the CSV has one row per job and the summary's metrics are those
/// the rows give, recomputed here from their definitions (javadi2012 Eq. 14, 15). The trace is the
/// first 300 jobs of SDSC-SP2: 16 have no run time, 284 are kept (`tests/swf.rs`).
#[test]
fn backfill_writes_one_row_per_job_and_a_summary_the_rows_reproduce() {
    let dir = scratch("cli");
    let csv = dir.join("easy.csv");
    let swf = trace("SDSC-SP2-1998-first300.swf");
    let o = qosgate(&[
        "backfill",
        "--policy",
        "easy",
        "--swf",
        &swf,
        "--json",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "exit {:?}: {}", o.status, stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let s = &v["summary"];
    assert_eq!(v["nodes"], 128);
    assert_eq!(v["skipped"]["run_time"], 16);
    assert_eq!(s["jobs"], 284);
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("job,arrival,start,end,procs"));
    let rows: Vec<[f64; 5]> = lines
        .map(|l| {
            let f: Vec<f64> = l.split(',').map(|x| x.parse().unwrap()).collect();
            [f[0], f[1], f[2], f[3], f[4]]
        })
        .collect();
    assert_eq!(rows.len(), 284);
    assert!(
        rows.windows(2)
            .all(|w| (w[0][1], w[0][0]) < (w[1][1], w[1][0]))
    );
    assert!(rows.iter().all(|r| r[2] >= r[1] && r[3] > r[2]));
    let n = rows.len() as f64;
    let wait: f64 = rows.iter().map(|r| r[2] - r[1]).sum::<f64>() / n;
    let bsld: f64 = rows
        .iter()
        .map(|r| {
            let d = (r[3] - r[2]).max(10.0);
            (r[2] - r[1] + d) / d
        })
        .sum::<f64>()
        / n;
    let area: f64 = rows.iter().map(|r| (r[3] - r[2]) * r[4]).sum();
    let awrt: f64 = rows
        .iter()
        .map(|r| (r[3] - r[2]) * r[4] * (r[3] - r[1]))
        .sum::<f64>()
        / area;
    let first = rows.iter().map(|r| r[1]).fold(f64::MAX, f64::min);
    let last = rows.iter().map(|r| r[3]).fold(0.0, f64::max);
    let close = |a: f64, b: &Value| (a - b.as_f64().unwrap()).abs() <= 1e-9 * a.abs().max(1.0);
    assert!(
        close(wait, &s["mean_wait_s"]),
        "{wait} vs {}",
        s["mean_wait_s"]
    );
    assert!(close(bsld, &s["mean_bounded_slowdown"]), "{bsld}");
    assert!(close(awrt, &s["awrt_s"]), "{awrt} vs {}", s["awrt_s"]);
    assert!(close(area / (128.0 * (last - first)), &s["utilization"]));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `backfill --jobs-csv --swf-out --gantt` on the first 1,000 jobs of LLNL Thunder on 1,024 of
/// its processors: Batsim's `jobs.csv` has Batsim's header and a row per job whose waits average
/// to the summary's mean wait; the SWF schedule holds a data line per job; the Gantt chart has
/// the utilisation panel only (more than 1,000 runs would not be drawn, 987 are). A path in a
/// missing directory fails before the replay, naming its option.
#[test]
fn backfill_writes_the_schedule_for_batsim_swf_readers_and_people() {
    let dir = scratch("cli-schedule");
    let path = |name: &str| dir.join(name).display().to_string();
    let swf = trace("LLNL-Thunder-2007-1.1-cln-first1000.swf");
    let replay = [
        "backfill", "--policy", "easy", "--nodes", "1024", "--json", "--swf", &swf,
    ];
    let (jobs_csv, schedule, gantt) = (path("jobs.csv"), path("schedule.swf"), path("gantt.svg"));
    let files = [
        "--jobs-csv",
        &jobs_csv,
        "--swf-out",
        &schedule,
        "--gantt",
        &gantt,
    ];
    let o = qosgate(&[&replay[..], &files[..]].concat());
    assert!(o.status.success(), "exit {:?}: {}", o.status, stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let jobs = v["summary"]["jobs"].as_u64().unwrap();
    assert_eq!(jobs, 987);

    let csv = std::fs::read_to_string(dir.join("jobs.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some(
            "job_id,workload_name,profile,submission_time,requested_number_of_resources,\
             requested_time,success,final_state,starting_time,execution_time,finish_time,\
             waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata"
        )
    );
    let waits: Vec<f64> = lines
        .map(|l| l.split(',').nth(11).unwrap().parse().unwrap())
        .collect();
    assert_eq!(waits.len() as u64, jobs);
    let mean = waits.iter().sum::<f64>() / waits.len() as f64;
    assert!((mean - v["summary"]["mean_wait_s"].as_f64().unwrap()).abs() < 1e-6);

    let written = std::fs::read_to_string(dir.join("schedule.swf")).unwrap();
    let data = written.lines().filter(|l| !l.starts_with(';')).count();
    assert_eq!(data as u64, jobs);
    assert!(written.contains("; MaxProcs: 1024\n"));

    let svg = std::fs::read_to_string(dir.join("gantt.svg")).unwrap();
    assert!(svg.contains("987 runs on 1024 nodes"), "{svg:.300}");

    // The SWF schedule reads the trace twice: a pipe, empty the second time, is an error, not
    // a schedule without its jobs.
    let trace_text = std::fs::read(&swf).unwrap();
    let piped = [
        "backfill",
        "--policy",
        "easy",
        "--nodes",
        "1024",
        "--swf",
        "/dev/stdin",
    ];
    let o = run_with_stdin(
        env!("CARGO_BIN_EXE_qosgate-e2e"),
        &[&piped[..], &["--swf-out", &schedule][..]].concat(),
        &trace_text,
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("0 of the 987 jobs"), "{}", stderr(&o));

    let missing = path("missing/gantt.svg");
    let o = qosgate(&[&replay[..], &["--gantt", &missing][..]].concat());
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--gantt"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `qosgate run` on a cluster scenario file (`model = "cluster"`) replays what `qosgate
/// backfill` replays from the same settings: each replication's metrics are `backfill`'s with the
/// failure seed `seed + k`, and `--out`'s jobs.csv is replication 0's schedule, byte for byte
/// `backfill --jobs-csv`'s; `--dump` writes a file that reads back to the same run.
#[test]
fn a_cluster_scenario_runs_the_replay_backfill_runs() {
    let dir = std::env::temp_dir().join(format!("qosgate-cli-cluster-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let swf = trace("SDSC-SP2-1998-first300.swf");
    let file = dir.join("cluster.toml");
    let text = format!(
        "model = \"cluster\"\nname = \"sdsc\"\nseed = 5\nreplications = 2\ntrace = {swf:?}\n\
         [scheduler]\npolicy = \"conservative\"\n[failures]\nsource = \"lognormal\"\n"
    );
    std::fs::write(&file, text).unwrap();
    let run = |args: &[&str]| -> Value {
        let o = qosgate(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        serde_json::from_str(&stdout(&o)).unwrap()
    };
    let v = run(&["run", file.to_str().unwrap(), "--json"]);
    assert_eq!(
        (&v["scenario"], &v["replications"]),
        (&"sdsc".into(), &2.into())
    );
    let out = dir.join("out");
    let jobs_csv = dir.join("jobs.csv");
    run(&[
        "run",
        file.to_str().unwrap(),
        "--json",
        "--out",
        out.to_str().unwrap(),
    ]);
    for (k, seed) in ["5", "6"].into_iter().enumerate() {
        let b = run(&[
            "backfill",
            "--policy",
            "conservative",
            "--swf",
            &swf,
            "--failures",
            "lognormal",
            "--failure-seed",
            seed,
            "--json",
            "--jobs-csv",
            jobs_csv.to_str().unwrap(),
        ]);
        assert_eq!(v["per_replication"][k], b["summary"], "replication {k}");
        let same =
            std::fs::read(&jobs_csv).unwrap() == std::fs::read(out.join("jobs.csv")).unwrap();
        assert_eq!(same, k == 0, "jobs.csv against replication {k}");
    }
    let dumped = qosgate(&["run", file.to_str().unwrap(), "--dump"]);
    std::fs::write(&file, stdout(&dumped)).unwrap();
    assert_eq!(run(&["run", file.to_str().unwrap(), "--json"]), v);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `qosgate run` on a lease scenario file (`model = "leases"`) replays what `qosgate leases`
/// replays from the same settings, and `--events` writes its records.
#[test]
fn a_lease_scenario_runs_the_replay_leases_runs() {
    let dir = std::env::temp_dir().join(format!("qosgate-cli-leases-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lwf = concat!(env!("CARGO_MANIFEST_DIR"), "/data/lwf/preemption.lwf");
    let file = dir.join("leases.toml");
    let text = format!(
        "model = \"leases\"\nname = \"pre\"\nseed = 0\nreplications = 1\nworkload = {lwf:?}\n\
         policy = \"mov\"\nsuspend_s = 20\n"
    );
    std::fs::write(&file, text).unwrap();
    let events = dir.join("events.jsonl");
    let run = |args: &[&str]| -> Value {
        let o = qosgate(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        serde_json::from_str(&stdout(&o)).unwrap()
    };
    let v = run(&[
        "run",
        file.to_str().unwrap(),
        "--json",
        "--events",
        events.to_str().unwrap(),
    ]);
    let l = run(&[
        "leases",
        "--lwf",
        lwf,
        "--policy",
        "mov",
        "--suspend",
        "20",
        "--json",
    ]);
    assert_eq!(v["per_replication"][0], l["accounts"]);
    let lines = std::fs::read_to_string(&events).unwrap();
    let leases = l["leases"].as_array().unwrap();
    assert_eq!(lines.lines().count(), leases.len());
    for (line, lease) in lines.lines().zip(leases) {
        let mut record: Value = serde_json::from_str(line).unwrap();
        assert_eq!(record["replication"], 0);
        record.as_object_mut().unwrap().remove("replication");
        assert_eq!(&record, lease);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `backfill --parse-only --out`: the CSV has the replay's header and a row per job the replay
/// takes, in the same order, each started at its arrival and ended after its run (the EASY
/// replay's rows give the run: `end - start`), and the summary counts the trace's lines and jobs.
/// (`--parse-only` with a policy is refused: below.)
#[test]
fn backfill_parse_only_writes_every_job_at_its_arrival() {
    let dir = scratch("cli-parse-only");
    let (read, easy) = (dir.join("read.csv"), dir.join("easy.csv"));
    let swf = trace("SDSC-SP2-1998-first300.swf");
    for (mode, csv) in [
        (&["--parse-only"][..], &read),
        (&["--policy", "easy"][..], &easy),
    ] {
        let mut args = vec!["backfill", "--swf", &swf, "--out", csv.to_str().unwrap()];
        args.extend_from_slice(mode);
        let o = qosgate(&args);
        assert!(o.status.success(), "exit {:?}: {}", o.status, stderr(&o));
        assert!(
            stdout(&o).contains("300 data lines, 284 jobs"),
            "{}",
            stdout(&o)
        );
    }
    let rows = |path: &std::path::Path| -> Vec<Vec<u64>> {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("job,arrival,start,end,procs"));
        lines
            .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
            .collect()
    };
    let (read, easy) = (rows(&read), rows(&easy));
    assert_eq!(read.len(), 284);
    assert_eq!(read.len(), easy.len());
    for (r, e) in read.iter().zip(&easy) {
        assert_eq!((r[0], r[1], r[4]), (e[0], e[1], e[4]));
        assert_eq!(r[2], r[1]);
        assert_eq!(r[3] - r[2], e[3] - e[2]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn backfill_rejects_bad_options_with_a_message_naming_them() {
    let swf = trace("SDSC-SP2-1998-first300.swf");
    let cases: [(&[&str], &str); 4] = [
        (&["--policy", "lifo", "--swf", &swf], "lifo"),
        (&["--policy", "easy", "--swf", "no/such.swf"], "no/such.swf"),
        (
            &["--parse-only", "--policy", "easy", "--swf", &swf],
            "--policy",
        ),
        (
            &["--policy", "selective", "--threshold", "-1", "--swf", &swf],
            "--threshold",
        ),
    ];
    for (args, named) in cases {
        let o = qosgate(&[&["backfill"][..], args].concat());
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(named), "{args:?}: {}", stderr(&o));
    }
}

/// `--out DIR` over the folder of an earlier run writes it anew: a stale file of the earlier run
/// (here `stale.csv`, and an old `summary.json`) does not survive, and no temporary sibling is
/// left beside it; `--events FILE` leaves only the file.
#[test]
fn an_output_folder_written_anew_keeps_no_stale_file() {
    let root = scratch("cli-stale");
    let names = |dir: &std::path::Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let out = root.join("out");
    let events = root.join("events.jsonl");
    let (out_arg, events_arg) = (out.to_str().unwrap(), events.to_str().unwrap());
    for (command, files) in [
        (
            vec!["run", "--preset", "kokkinos2009-gb", "--replications", "1"],
            vec![
                "metrics.csv",
                "registrations.csv",
                "resources.csv",
                "summary.json",
                "users.csv",
            ],
        ),
        (
            vec![
                "reproduce",
                "kokkinos2009",
                "--only",
                "claim1",
                "--replications",
                "1",
            ],
            vec![
                "fig4.csv",
                "fig4.svg",
                "index.html",
                "summary.json",
                "timing.txt",
            ],
        ),
    ] {
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("summary.json"), "{}").unwrap();
        std::fs::write(out.join("stale.csv"), "an earlier run\n").unwrap();
        let mut args = command.clone();
        args.extend(["--out", out_arg]);
        if command[0] == "run" {
            args.extend(["--events", events_arg]);
        }
        let o = qosgate(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert_eq!(names(&out), files, "{args:?}");
        assert_ne!(
            std::fs::read_to_string(out.join("summary.json")).unwrap(),
            "{}"
        );
        assert_eq!(names(&root), ["events.jsonl", "out"], "{args:?}");
    }
    std::fs::remove_dir_all(&root).unwrap();
}

/// A folder's files by name, their bytes (`timing.txt`'s, which hold wall times, left out).
fn folder(dir: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            let bytes = if name == "timing.txt" {
                Vec::new()
            } else {
                std::fs::read(e.path()).unwrap()
            };
            (name, bytes)
        })
        .collect()
}

/// A reproduction killed (SIGKILL, no clean-up) at any moment of its run leaves the old folder
/// or the new one, never a mixture: `--out D` over an earlier run's folder, killed after delays
/// spread over a whole run (and a little past it), leaves `D` whole as the earlier run or as
/// the new one; or, killed between the two renames, no `D` and the earlier run whole as
/// `D.old-<pid>` beside the new one whole as `D.tmp-<pid>`. Nothing else is left beside `D`.
/// (Most kills land while the new folder is partly written: 26 of 32 in one debug run, so a
/// writer into `D` itself fails here.)
#[test]
fn a_killed_reproduction_leaves_the_old_folder_or_the_new_one() {
    use std::time::Instant;
    let root = scratch("cli-killed");
    let reproduce = |replications: &str, out: &std::path::Path| {
        let mut args = vec!["reproduce", "kokkinos2009", "--only", "claim1"];
        args.extend([
            "--replications",
            replications,
            "--out",
            out.to_str().unwrap(),
        ]);
        args.iter().map(|a| a.to_string()).collect::<Vec<_>>()
    };
    let (old_dir, new_dir) = (root.join("old"), root.join("new"));
    let old_args = reproduce("1", &old_dir);
    let o = qosgate(&old_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", stderr(&o));
    let started = Instant::now();
    let new_args = reproduce("2", &new_dir);
    let o = qosgate(&new_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", stderr(&o));
    let whole_run = started.elapsed();
    let (old, new) = (folder(&old_dir), folder(&new_dir));
    assert_ne!(
        old, new,
        "the two runs must differ for the test to tell them apart"
    );

    let out = root.join("out");
    let trials = 32u32;
    let mut seen = std::collections::BTreeMap::<&str, u32>::new();
    for trial in 0..trials {
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir(&out).unwrap();
        for name in old.keys() {
            std::fs::copy(old_dir.join(name), out.join(name)).unwrap();
        }
        let args = reproduce("2", &out);
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_qosgate-e2e"))
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let pid = child.id();
        std::thread::sleep(whole_run.mul_f64(1.1 * f64::from(trial) / f64::from(trials - 1)));
        let _ = child.kill();
        child.wait().unwrap();
        let sibling = |what: &str| root.join(format!("out.{what}-{pid}"));
        let (tmp, old_sibling) = (sibling("tmp"), sibling("old"));
        let state = if out.exists() {
            let now = folder(&out);
            assert!(
                now == old || now == new,
                "trial {trial}: `out` is a mixture"
            );
            assert!(!old_sibling.exists() || now == new, "trial {trial}");
            match (now == old, tmp.exists()) {
                (true, true) => "old, the new one partly written beside it",
                (true, false) => "old",
                (false, _) => "new",
            }
        } else {
            assert_eq!(
                folder(&old_sibling),
                old,
                "trial {trial}: the old folder aside"
            );
            assert_eq!(
                folder(&tmp),
                new,
                "trial {trial}: the new folder before its rename"
            );
            "between the renames"
        };
        *seen.entry(state).or_default() += 1;
        let mut left: Vec<_> = std::fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| ![&old_dir, &new_dir, &out, &tmp, &old_sibling].contains(&p))
            .collect();
        left.sort();
        assert!(left.is_empty(), "trial {trial}: also left {left:?}");
        for aside in [&tmp, &old_sibling] {
            let _ = std::fs::remove_dir_all(aside);
        }
    }
    eprintln!("{trials} kills over {whole_run:?}: {seen:?}");
    std::fs::remove_dir_all(&root).unwrap();
}

/// A name holding control characters (an escape sequence that would clear the screen) reaches
/// the terminal as escapes, in a table and in an error message; `--json` keeps it exact.
#[test]
fn control_characters_in_names_reach_the_terminal_as_escapes() {
    let dir = scratch("cli-escapes");
    let dumped = qosgate(&["run", "--preset", "kokkinos2009-gb", "--dump"]);
    let toml = stdout(&dumped)
        .replacen("name = \"kokkinos2009-gb\"", "name = \"x\\u001b[2Jy\"", 1)
        .replacen("name = \"U1\"", "name = \"U\\u001b[31m1\"", 1);
    let file = dir.join("escapes.toml");
    std::fs::write(&file, toml).unwrap();
    let f = file.to_str().unwrap();
    let o = qosgate(&["run", f, "--replications", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!o.stdout.contains(&0x1b), "{}", stdout(&o));
    let text = stdout(&o);
    assert!(text.starts_with("x\\u{1b}[2Jy: "), "{text}");
    assert!(text.contains("U\\u{1b}[31m1"), "{text}");
    let o = qosgate(&["run", f, "--replications", "1", "--json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["scenario"], "x\u{1b}[2Jy");
    let o = qosgate(&["backfill", "--policy", "easy", "--swf", "no\u{1b}[2J.swf"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!o.stderr.contains(&0x1b), "{}", stderr(&o));
    assert!(stderr(&o).contains("no\\u{1b}[2J.swf"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}
