//! `qosgate leases`: Haizea lease workloads (LWF) replayed through the kernel's lease manager.
//!
//! The workloads in `tests/data/lwf/` are hand-written in Haizea's documented format (the
//! manual's XML appendix; `preemption.lwf` is Haizea's own first example). The timings below
//! are worked out by hand from the rules of `docs/leases.md`: the kernel's defaults suspend a
//! VM in `t_s` = 160 s and resume it in `t_r` = 126 s; a lease suspended for a reservation at
//! `s` stops working at `s - t_s`, frees its nodes at `s`, and when it resumes holds its nodes
//! `t_r` before running exactly the work it had left.
//!
//! `tests/data/lwf/bad/` holds one bad file per kind of error, each checked with its position.

use std::path::PathBuf;
use std::process::Output;

use proptest::prelude::*;
use qosgate_harness::des::nodes::{self, Hold};
use qosgate_harness::models::leases::replay::{self, Outcome, Params};
use qosgate_harness::workload::lwf;
use qosgate_kernel::lease::{Overheads, Policy};
use qosgate_kernel::units::Ticks;
use qosgate_testkit::cli::{run, scratch, stderr, stdout};
use qosgate_testkit::lwf::{Lease, When, to_lwf};
use serde_json::{Value, json};

fn data(name: &str) -> String {
    let p: PathBuf = [env!("CARGO_MANIFEST_DIR"), "data", "lwf", name]
        .iter()
        .collect();
    p.display().to_string()
}

fn qosgate(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_qosgate-e2e"), args)
}

/// `qosgate leases --lwf tests/data/lwf/FILE --json EXTRA..`, parsed.
fn leases(file: &str, extra: &[&str]) -> Value {
    let path = data(file);
    let mut args = vec!["leases", "--lwf", path.as_str(), "--json"];
    args.extend_from_slice(extra);
    let o = qosgate(&args);
    assert!(o.status.success(), "exit {:?}: {}", o.status, stderr(&o));
    serde_json::from_str(&stdout(&o)).expect("leases --json prints one JSON value")
}

/// The record of lease `id`.
fn lease<'a>(v: &'a Value, id: &str) -> &'a Value {
    v["leases"]
        .as_array()
        .expect("a `leases` array")
        .iter()
        .find(|l| l["lease"] == id)
        .unwrap_or_else(|| panic!("no lease {id} in {v}"))
}

/// `(outcome, start, end)` of lease `id`, times in seconds.
fn run_of(v: &Value, id: &str) -> (String, Value, Value) {
    let l = lease(v, id);
    (
        l["outcome"].as_str().unwrap().to_owned(),
        l["start"].clone(),
        l["end"].clone(),
    )
}

fn completed(start: f64, end: f64) -> (String, Value, Value) {
    ("completed".into(), json!(start), json!(end))
}

fn rejected() -> (String, Value, Value) {
    ("rejected".into(), Value::Null, Value::Null)
}

/// The suspensions of lease `id`: `(for, [begin, end], [begin, end] or null)`.
fn suspensions(v: &Value, id: &str) -> Vec<Value> {
    lease(v, id)["preemptions"].as_array().unwrap().clone()
}

/// Haizea's example, 4 nodes. Lease 1 (best effort, 1 node, 3600 s) starts at 0. At 900 s the
/// AR (lease 2) asks for all 4 nodes over [1800, 3600): 900 s of notice, more than t_s, so
/// lease 1 is suspended over [1800 - 160, 1800) = [1640, 1800), having run 1640 s (1960 s
/// left). The AR runs [1800, 3600); lease 1 resumes over [3600, 3726) and runs its 1960 s:
/// it ends at 5686.
#[test]
fn an_ar_suspends_a_running_best_effort_lease_with_haizeas_timing() {
    let v = leases("preemption.lwf", &[]);
    assert_eq!(v["nodes"], 4);
    assert_eq!(
        (v["suspend_s"].clone(), v["resume_s"].clone()),
        (json!(160.0), json!(126.0))
    );
    assert_eq!(run_of(&v, "1"), completed(0.0, 5686.0));
    assert_eq!(
        suspensions(&v, "1"),
        [json!({"by": "2", "suspend": [1640.0, 1800.0], "resume": [3600.0, 3726.0]})]
    );
    assert_eq!(run_of(&v, "2"), completed(1800.0, 3600.0));
    assert_eq!(lease(&v, "2")["requested_start"], 1800.0);
    assert_eq!(
        v["accounts"],
        json!({"leases": 2, "completed": 2, "rejected": 0, "unfinished": 0, "preemptions": 1})
    );
}

/// The same with Haizea's own overheads for a 1024 MB VM at 32 MB/s: t_s = t_r = 32 s.
/// Suspended over [1768, 1800) with 1832 s left; resumed over [3600, 3632); ends at 5464.
/// `leases --gantt`: the chart draws each interval a lease held nodes (the preempted lease's
/// run before its suspension in grey).
#[test]
fn a_gantt_chart_draws_every_interval_a_lease_held_nodes() {
    let dir = scratch("leases-gantt");
    let svg = dir.join("g.svg");
    let o = qosgate(&[
        "leases",
        "--lwf",
        &data("preemption.lwf"),
        "--gantt",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.contains(" runs on "), "{svg:.300}");
    assert!(svg.contains("#A0A0A0"), "no suspended run drawn");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `leases --jobs-csv`: Batsim's jobs.csv, a row per interval a lease held nodes. Lease 1 (one
/// node) runs from 0 until its suspension ends at 1800 (killed, then resubmitted as `1#1`); it
/// resumes at 3600 and ends at 5686 (126 s of resumption and the 1960 s left); lease 2, the AR,
/// holds all four nodes over [1800, 3600). Stopped at 2000 s, lease 2 is still running and lease
/// 1, suspended, has no second row.
#[test]
fn batsim_jobs_csv_has_a_row_per_interval_a_lease_held_nodes() {
    let dir = scratch("leases-jobs-csv");
    let csv = dir.join("jobs.csv");
    let lwf = data("preemption.lwf");
    let rows = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["leases", "--lwf", &lwf];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--jobs-csv", csv.to_str().unwrap()]);
        let o = qosgate(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = std::fs::read_to_string(&csv).unwrap();
        let mut lines = text.lines().map(str::to_owned);
        assert!(
            lines
                .next()
                .unwrap()
                .starts_with("job_id,workload_name,profile,")
        );
        lines.collect()
    };
    assert_eq!(
        rows(&[]),
        [
            "1,preemption,delay,0,1,3600,0,COMPLETED_KILLED,0,1800,1800,0,1800,1,0,-1,",
            "1#1,preemption,delay,1800,1,3600,1,COMPLETED_SUCCESSFULLY,3600,2086,5686,1800,3886,\
             1.862895493767977,0,-1,",
            "2,preemption,delay,900,4,1800,1,COMPLETED_SUCCESSFULLY,1800,1800,3600,900,2700,1.5,\
             0-3,-1,",
        ]
    );
    assert_eq!(
        rows(&["--until", "2000"]),
        [
            "1,preemption,delay,0,1,3600,0,COMPLETED_KILLED,0,1800,1800,0,1800,1,0,-1,",
            "2,preemption,delay,900,4,1800,0,RUNNING,1800,200,2000,900,1100,5.5,0-3,-1,",
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn suspend_and_resume_times_come_from_the_options() {
    let v = leases("preemption.lwf", &["--suspend", "32", "--resume", "32"]);
    assert_eq!(run_of(&v, "1"), completed(0.0, 5464.0));
    assert_eq!(
        suspensions(&v, "1"),
        [json!({"by": "2", "suspend": [1768.0, 1800.0], "resume": [3600.0, 3632.0]})]
    );
    assert_eq!(run_of(&v, "2"), completed(1800.0, 3600.0));
}

/// 4 nodes. AR 1 holds 2 nodes over [600, 1800). Best-effort lease 2 (4 nodes, 300 s) fits
/// before it: [0, 300). Immediate lease 3 (2 nodes, 600 s) arrives at 300, when lease 2 ends
/// (completions come before arrivals): [300, 900). Immediate lease 4 (3 nodes) at 360 finds 2
/// free: rejected. Immediate lease 5 (2 nodes, 900 s) at 900, when lease 3 ends: [900, 1800).
/// Non-preemptible best-effort lease 6 (4 nodes, 600 s) at 1200 is reserved at its earliest
/// fit, when leases 1 and 5 end: [1800, 2400).
#[test]
fn immediate_leases_start_at_their_arrival_or_are_rejected() {
    let v = leases("immediate.lwf", &[]);
    assert_eq!(run_of(&v, "1"), completed(600.0, 1800.0));
    assert_eq!(run_of(&v, "2"), completed(0.0, 300.0));
    assert_eq!(run_of(&v, "3"), completed(300.0, 900.0));
    assert_eq!(run_of(&v, "4"), rejected());
    assert!(
        lease(&v, "4")["reason"]
            .as_str()
            .unwrap()
            .contains("too few free nodes at its arrival"),
        "{}",
        lease(&v, "4")
    );
    assert_eq!(run_of(&v, "5"), completed(900.0, 1800.0));
    assert_eq!(run_of(&v, "6"), completed(1800.0, 2400.0));
    assert_eq!(lease(&v, "6")["type"], "best-effort");
    assert_eq!(v["accounts"]["completed"], 5);
    assert_eq!(v["accounts"]["rejected"], 1);
    assert_eq!(v["accounts"]["preemptions"], 0);
}

/// 4 nodes. AR 1 holds 3 nodes over [3600, 7200); best-effort lease 2 runs on all 4 over
/// [0, 1800). AR 3 arrives at 600 for one node from 660 (`+00:01:00`): lease 2's suspension
/// would have to begin at 660 - 160 = 500, before now, so nothing can be suspended:
/// rejected. AR 4 wants 2 nodes over [5400, 7200), where AR 1 leaves one: rejected.
#[test]
fn an_ar_is_rejected_when_its_nodes_are_held_or_its_notice_is_too_short() {
    let v = leases("rejected-ar.lwf", &[]);
    assert_eq!(run_of(&v, "1"), completed(3600.0, 7200.0));
    assert_eq!(run_of(&v, "2"), completed(0.0, 1800.0));
    assert_eq!(run_of(&v, "3"), rejected());
    assert_eq!(lease(&v, "3")["requested_start"], 660.0);
    assert_eq!(
        lease(&v, "3")["reason"],
        "too few free nodes at its start (660 s), and its notice (60 s) is shorter than a \
         suspension (160 s)"
    );
    assert_eq!(run_of(&v, "4"), rejected());
    assert_eq!(
        lease(&v, "4")["reason"],
        "too few nodes at its start (5400 s), even suspending preemptible leases"
    );
    assert!(suspensions(&v, "2").is_empty());
    assert_eq!(
        v["accounts"],
        json!({"leases": 4, "completed": 2, "rejected": 2, "unfinished": 0, "preemptions": 0})
    );
}

/// 6 nodes held by best-effort leases 1 (4 nodes), 2 and 3 (1 node each), all [0, 3600). AR 4
/// needs 2 nodes over [1200, 1800). The minimal sets are {1} (4 x 286 node-seconds of
/// overhead) and {2, 3} (2 x 286). MLIP takes {1}; MOV the cheaper {2, 3}; MOML's alpha is the
/// lower median of (572, 1144), 572, so it takes {2, 3} too. Each suspended lease stops over
/// [1040, 1200) with 2560 s left, resumes over [1800, 1926) and ends at 4486.
#[test]
fn the_policy_chooses_the_leases_to_suspend() {
    let suspended = |v: &Value| -> Vec<&str> {
        ["1", "2", "3"]
            .into_iter()
            .filter(|id| !suspensions(v, id).is_empty())
            .collect()
    };
    let one = json!({"by": "4", "suspend": [1040.0, 1200.0], "resume": [1800.0, 1926.0]});
    for (policy, expected) in [
        ("mlip", vec!["1"]),
        ("mov", vec!["2", "3"]),
        ("moml", vec!["2", "3"]),
    ] {
        let v = leases("policies.lwf", &["--policy", policy]);
        assert_eq!(suspended(&v), expected, "{policy}");
        for id in ["1", "2", "3"] {
            let end = if expected.contains(&id) {
                4486.0
            } else {
                3600.0
            };
            assert_eq!(run_of(&v, id), completed(0.0, end), "{policy} lease {id}");
            if expected.contains(&id) {
                assert_eq!(
                    suspensions(&v, id),
                    std::slice::from_ref(&one),
                    "{policy} lease {id}"
                );
            }
        }
        assert_eq!(run_of(&v, "4"), completed(1200.0, 1800.0));
        assert_eq!(v["policy"], policy);
    }
}

/// Stopped at 2000 s, Haizea's example has lease 1 suspended (never resumed) and the AR
/// running: both unfinished, with their state as the reason.
#[test]
fn leases_live_when_the_replay_stops_are_reported_unfinished() {
    let v = leases("preemption.lwf", &["--until", "2000"]);
    let l1 = lease(&v, "1");
    assert_eq!(l1["outcome"], "unfinished");
    assert_eq!(
        l1["reason"],
        "suspended, waiting to resume, when the replay stopped at 2000 s"
    );
    assert_eq!(
        suspensions(&v, "1"),
        [json!({"by": "2", "suspend": [1640.0, 1800.0], "resume": null})]
    );
    assert_eq!(
        lease(&v, "2")["reason"],
        "running when the replay stopped at 2000 s"
    );
    assert_eq!(lease(&v, "2")["start"], 1800.0);
    assert_eq!(
        v["accounts"],
        json!({"leases": 2, "completed": 0, "rejected": 0, "unfinished": 2, "preemptions": 1})
    );
    // Before the AR arrives it is never submitted.
    let v = leases("preemption.lwf", &["--until", "600"]);
    assert_eq!(
        lease(&v, "2")["reason"],
        "it arrives at 900 s, after the replay stopped"
    );
    assert_eq!(
        lease(&v, "1")["reason"],
        "running when the replay stopped at 600 s"
    );
}

/// `--nodes` replaces the site's: on 5 nodes the AR fits beside lease 1, which is never
/// suspended; on 3 the AR is wider than the cluster and rejected by the replay.
#[test]
fn nodes_override_the_site() {
    let v = leases("preemption.lwf", &["--nodes", "5"]);
    assert_eq!(run_of(&v, "1"), completed(0.0, 3600.0));
    assert_eq!(run_of(&v, "2"), completed(1800.0, 3600.0));
    assert_eq!(v["accounts"]["preemptions"], 0);
    let v = leases("preemption.lwf", &["--nodes", "3"]);
    assert_eq!(run_of(&v, "2"), rejected());
    assert_eq!(
        lease(&v, "2")["reason"],
        "it needs 4 nodes; the cluster has 3"
    );
    assert_eq!(run_of(&v, "1"), completed(0.0, 3600.0));
}

/// The table lists every lease and its suspensions, then the accounts.
#[test]
fn the_text_report_lists_every_lease_its_suspensions_and_the_accounts() {
    let path = data("preemption.lwf");
    let o = qosgate(&["leases", "--lwf", &path]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            "{path} (preemption): 2 leases on 4 nodes, policy moml, suspend 160 s, resume 126 s"
        )
    );
    let words = |l: &str| l.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
    let row = |first: &str| {
        lines
            .iter()
            .map(|l| words(l))
            .find(|w| w.first().map(String::as_str) == Some(first))
            .unwrap_or_else(|| panic!("no row {first} in\n{text}"))
    };
    assert_eq!(
        row("1")[..8],
        ["1", "best-effort", "1", "0", "0", "5686", "1", "completed"]
    );
    assert_eq!(
        row("2")[..8],
        ["2", "ar", "4", "900", "1800", "3600", "0", "completed"]
    );
    assert!(
        text.contains("1      2      1640 - 1800  3600 - 3726"),
        "{text}"
    );
    assert_eq!(
        lines.last().copied(),
        Some("accounts: 2 leases = 2 completed + 0 rejected + 0 unfinished; 1 preemption")
    );
}

/// Every file of `tests/data/lwf/bad/` fails with its own message, at its line and column,
/// and exit code 1.
#[test]
fn every_bad_file_is_named_with_its_line_and_column() {
    let cases = [
        (
            "not-well-formed.lwf",
            "20:3: not well-formed XML: expected 'lease-requests' tag, not 'lease-request'",
        ),
        ("not-utf8.lwf", "2:26: the text is not UTF-8"),
        (
            "root.lwf",
            "2:1: the root element is <workload>, not <lease-workload>",
        ),
        (
            "duration.lwf",
            "17:25: <duration> time: `1 hour` is not a time: expected HH:MM:SS or \
             DD:HH:MM:SS, with up to 6 decimals",
        ),
        ("numnodes.lwf", "15:36: numnodes 0 is not in 1..=4294967295"),
        (
            "preemptible.lwf",
            "14:34: preemptible `maybe` is not true, false, yes or no",
        ),
        ("no-duration.lwf", "14:7: <lease> has no <duration>"),
        (
            "unknown-element.lwf",
            "17:9: unknown element <durration> in <lease>; expected <nodes>, <start>, \
             <duration>, <software>",
        ),
        (
            "deadline.lwf",
            "18:9: <deadline>: deadline leases are not supported (the replay has advance \
             reservations, best-effort and immediate leases)",
        ),
        (
            "ar-before-arrival.lwf",
            "16:29: the reservation starts at 600 s, before its arrival at 1200 s",
        ),
        (
            "resource-type.lwf",
            "15:50: resource type `GPU` is not one of the site's: CPU Memory",
        ),
        (
            "duplicate-id.lwf",
            "21:18: lease id 1 is already the id of the lease requested at 13:5",
        ),
        (
            "heterogeneous-site.lwf",
            "7:7: this node-set's capacity differs from the one at 6:7: the replay's cluster \
             has identical nodes",
        ),
    ];
    let dir = data("bad");
    let files = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(files, cases.len(), "a case for every file of {dir}");
    for (file, message) in cases {
        let path = data(&format!("bad/{file}"));
        let o = qosgate(&["leases", "--lwf", &path]);
        assert_eq!(o.status.code(), Some(1), "{file}: {}", stdout(&o));
        assert_eq!(
            stderr(&o),
            format!("qosgate: error: {path}:{message}\n"),
            "{file}"
        );
        assert!(o.stdout.is_empty(), "{file}");
    }
}

/// A site of 2 nodes with 1024 MB each, for the replay's own rejections.
fn site_of_two(requests: &str) -> String {
    format!(
        "<lease-workload><site><resource-types names=\"CPU Memory\"/><nodes>\
         <node-set numnodes=\"2\"><res type=\"CPU\" amount=\"100\"/>\
         <res type=\"Memory\" amount=\"1024\"/></node-set></nodes></site>\
         <lease-requests>{requests}</lease-requests></lease-workload>"
    )
}

fn params() -> Params {
    Params {
        nodes: None,
        policy: Policy::Moml,
        overheads: Overheads::default(),
        until: None,
    }
}

fn request(id: u32, preemptible: bool, memory: u32, start: &str) -> String {
    format!(
        "<lease-request arrival=\"00:00:00\"><lease id=\"{id}\" preemptible=\"{preemptible}\">\
         <nodes><node-set numnodes=\"1\"><res type=\"Memory\" amount=\"{memory}\"/></node-set>\
         </nodes>{start}<duration time=\"00:01:00\"/></lease></lease-request>"
    )
}

/// A VM larger than a node, a preemptible AR and a preemptible immediate lease are rejected by
/// the replay with the reason; the kernel never sees them, and the accounts still add up.
#[test]
fn leases_the_kernel_cannot_take_are_rejected_with_a_reason() {
    let text = site_of_two(
        &[
            request(1, false, 2048, "<start/>"),
            request(2, true, 512, "<start><exact time=\"00:10:00\"/></start>"),
            request(3, true, 512, "<start><now/></start>"),
            request(4, false, 1024, "<start><now/></start>"),
        ]
        .concat(),
    );
    let w = lwf::parse(text.as_bytes()).unwrap();
    let r = replay::replay(&w, &params()).unwrap();
    let reasons: Vec<(&str, Outcome, &str)> = r
        .records
        .iter()
        .map(|l| (l.lease.as_str(), l.outcome, l.reason.as_str()))
        .collect();
    assert_eq!(
        reasons,
        [
            (
                "1",
                Outcome::Rejected,
                "a VM of its node-set at 1:270 needs 2048 Memory; a node has 1024"
            ),
            (
                "2",
                Outcome::Rejected,
                "a preemptible ar lease is not supported: the kernel never preempts immediate \
                 leases or reservations"
            ),
            (
                "3",
                Outcome::Rejected,
                "a preemptible immediate lease is not supported: the kernel never preempts \
                 immediate leases or reservations"
            ),
            ("4", Outcome::Completed, "ran its 60 s"),
        ]
    );
    qosgate_testkit::lwf::replay(&w, &params(), &r).unwrap();
}

/// Without a site the cluster's size must be given; with it, any VM fits a node.
#[test]
fn a_workload_without_a_site_needs_the_cluster_size() {
    let text = format!(
        "<lease-workload><lease-requests>{}</lease-requests></lease-workload>",
        request(7, true, 1_000_000, "<start/>")
    );
    let w = lwf::parse(text.as_bytes()).unwrap();
    let e = replay::replay(&w, &params()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the workload has no <site>: the cluster's nodes must be given"
    );
    let p = Params {
        nodes: Some(1),
        ..params()
    };
    let r = replay::replay(&w, &p).unwrap();
    assert_eq!(r.records[0].outcome, Outcome::Completed);
    assert_eq!(r.records[0].end, Some(60.0));
}

fn arb_lease() -> impl Strategy<Value = Lease> {
    let when = prop_oneof![
        3 => Just(When::BestEffort),
        1 => Just(When::Now),
        3 => (0u32..=120).prop_map(|m| When::After(m * 10)),
    ];
    (
        0u32..=120,
        when,
        prop::bool::weighted(0.8),
        1u16..=7,
        1u32..=720,
    )
        .prop_map(|(arrival, when, preemptible, nodes, duration)| Lease {
            // Multiples of 30 s, so that arrivals, ends and overheads coincide often.
            arrival: arrival * 30,
            // Reservations and immediate leases are not preemptible in a supported workload.
            preemptible: preemptible && when == When::BestEffort,
            when,
            nodes,
            duration: duration * 10,
        })
}

fn arb_params() -> impl Strategy<Value = Params> {
    let policy = prop_oneof![Just(Policy::Moml), Just(Policy::Mov), Just(Policy::Mlip)];
    (
        policy,
        0u64..=300,
        0u64..=300,
        prop::option::weighted(0.2, 0u64..=4000),
    )
        .prop_map(|(policy, s, r, until)| Params {
            nodes: None,
            policy,
            overheads: Overheads {
                suspend: Ticks::from_secs(s),
                resume: Ticks::from_secs(r),
                ..Overheads::default()
            },
            until: until.map(Ticks::from_secs),
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random workloads, written as LWF and read back: every lease ends with one outcome and a
    /// reason, the accounts add up (the replay checks them against the kernel's too), a
    /// completed lease ran exactly its duration around its suspensions, suspensions and
    /// resumptions take t_s and t_r and end when their reservation starts, reservations and
    /// immediate leases start when they asked, and nodes are never over-used.
    #[test]
    fn random_workloads_replay_with_every_lease_accounted_for(
        nodes in 1u32..=6,
        leases in prop::collection::vec(arb_lease(), 0..=14),
        params in arb_params(),
    ) {
        let text = to_lwf(nodes, &leases);
        let w = lwf::parse(text.as_bytes()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        qosgate_testkit::lwf::workload(&w).map_err(TestCaseError::fail)?;
        // Read back as written, in order of arrival (ties in file order).
        let mut written: Vec<(usize, &Lease)> = leases.iter().enumerate().collect();
        written.sort_by_key(|(_, l)| l.arrival);
        prop_assert_eq!(w.requests.len(), leases.len());
        for (r, (i, l)) in w.requests.iter().zip(written) {
            let arrival = Ticks::from_secs(l.arrival.into());
            let start = match l.when {
                When::BestEffort => lwf::Start::BestEffort,
                When::Now => lwf::Start::Now,
                When::After(d) => lwf::Start::Exact(arrival.saturating_add(Ticks::from_secs(d.into()))),
            };
            prop_assert_eq!(
                (r.number, r.id, r.arrival, r.start, r.preemptible, r.nodes, r.duration),
                (i + 1, Some(i as u64 + 1), arrival, start, l.preemptible, u32::from(l.nodes),
                 Ticks::from_secs(l.duration.into()))
            );
        }
        let r = replay::replay_in::<16, 32>(&w, &params)
            .map_err(|e| TestCaseError::fail(format!("{e:#}")))?;
        qosgate_testkit::lwf::replay(&w, &params, &r).map_err(TestCaseError::fail)?;
        // The intervals the leases held nodes (`Record::holds`, what `leases --gantt` draws)
        // fit the cluster at every instant, so nodes can be named for them.
        let holds: Vec<Hold> =
            r.records.iter().flat_map(|l| l.holds(r.last)).map(|(h, _)| h).collect();
        prop_assert!(nodes::place(&holds, r.nodes).is_ok(), "{:?}", holds);
        for rec in &r.records {
            prop_assert!(!rec.reason.is_empty(), "{:?}", rec);
        }
        if params.until.is_none() {
            prop_assert_eq!(r.accounts.unfinished, 0);
        }
    }
}
