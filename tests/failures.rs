//! Node failures (`qosgate_harness::workload::{failures, fta}`): property tests against
//! independent per-second models.
//!
//! - FTA traces written from random events read back as the union of each node's outages, and
//!   the trace's own writer round-trips; a bad line anywhere is named by its line number (strict)
//!   or counted once (skip-invalid), leaving the rest as it was.
//! - A trace's window is, second by second, the trace read from the offset and wrapped around.
//! - The synthetic process: every node of a group shares its state at every instant, and the
//!   events keep the replay's invariants (`qosgate_testkit::failures`).
//! - `qosgate backfill --failures FILE|MODEL` end to end: every job completes, the report counts
//!   the outages and interruptions, the seed decides, bad traces are named by file and line.

use std::process::Output;

use proptest::prelude::*;
use qosgate_harness::workload::failures::{Fit, Process};
use qosgate_harness::workload::fta::{Options, read};
use qosgate_testkit::cli::{run, scratch, stderr, stdout};
use qosgate_testkit::failures::{events, trace};
use qosgate_testkit::traces::fixture;
use serde_json::Value;

fn qosgate(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_qosgate-e2e"), args)
}

/// `qosgate backfill --policy POLICY --json` on the SDSC-SP2 cut-down (284 jobs on 128 nodes)
/// with `extra` arguments: the JSON report.
fn backfill(policy: &str, extra: &[&str]) -> Value {
    let swf = fixture("SDSC-SP2-1998-first300.swf").display().to_string();
    let mut args = vec!["backfill", "--policy", policy, "--swf", &swf, "--json"];
    args.extend_from_slice(extra);
    let o = qosgate(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// Under every Table II fit and policy, every job completes; the failures are reported; the
/// same seed gives the same report, another seed another; one group of 128 nodes fails as one.
#[test]
fn backfill_under_synthetic_failures_completes_every_job_and_reports_them() {
    for (fit, policy) in [
        ("weibull", "easy"),
        ("lognormal", "conservative"),
        ("hyperexponential", "selective"),
    ] {
        let v = backfill(policy, &["--failures", fit]);
        assert_eq!(v["summary"]["jobs"], 284, "{fit} {policy}");
        let f = &v["failures"];
        assert_eq!(f["source"], fit);
        assert_eq!(f["nodes_failing"], 128, "{fit}: {f}");
        assert!(f["outages"].as_u64().unwrap() >= 128, "{fit}: {f}");
        assert!(
            v["summary"]["interruptions"].as_u64().unwrap() > 0,
            "{fit}: {v}"
        );
    }
    let a = backfill("easy", &["--failures", "weibull", "--failure-seed", "9"]);
    assert_eq!(
        a,
        backfill("easy", &["--failures", "weibull", "--failure-seed", "9"])
    );
    assert_ne!(
        a,
        backfill("easy", &["--failures", "weibull", "--failure-seed", "10"])
    );
    let one = backfill("easy", &["--failures", "weibull", "--failure-groups", "1"]);
    let (outages, down) = (
        &one["failures"]["outages"],
        &one["failures"]["down_node_hours"],
    );
    assert_eq!(outages.as_u64().unwrap() % 128, 0, "{outages}");
    assert!(down.as_f64().unwrap() > 0.0);
    let none = backfill("easy", &[]);
    assert!(none.get("failures").is_none());
    assert_eq!(none["summary"]["interruptions"], 0);
}

/// An FTA trace: its window is replayed (every job completes); a bad line stops the command
/// with `file:line`, or is skipped with `--skip-invalid`; more groups than nodes is refused.
#[test]
fn backfill_replays_an_fta_trace_and_names_its_bad_lines() {
    let dir = scratch("fta-cli");
    let good = dir.join("g5k.tab");
    // Every node of 128 down for a day in every ten, the trace ten days long.
    let lines: String = (0..128)
        .map(|n| format!("{n} 0 {} {}\n", 86_400 * (n % 10), 86_400 * (n % 10 + 1)))
        .collect();
    std::fs::write(&good, format!("{lines}0 1 0 864000\n")).unwrap();
    let v = backfill("easy", &["--failures", good.to_str().unwrap()]);
    assert_eq!(v["summary"]["jobs"], 284);
    assert_eq!(v["failures"]["nodes_failing"], 128);
    let bad = dir.join("bad.tab");
    std::fs::write(&bad, format!("{lines}5 0 10\n")).unwrap();
    let swf = fixture("SDSC-SP2-1998-first300.swf").display().to_string();
    let args = ["backfill", "--policy", "easy", "--swf", &swf, "--failures"];
    let o = qosgate(&[&args[..], &[bad.to_str().unwrap()]].concat());
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains(&format!("{}:129: expected 9 fields", bad.display())),
        "{}",
        stderr(&o)
    );
    let o = qosgate(&[&args[..], &[bad.to_str().unwrap(), "--skip-invalid"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let o = qosgate(&[&args[..], &["weibull", "--failure-groups", "129"]].concat());
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("129 failure groups for 128 nodes"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An event line: (node id, type, start, length), times small enough for per-second models.
fn event() -> impl Strategy<Value = (u64, u8, i64, i64)> {
    (
        0u64..5,
        prop_oneof![4 => Just(0u8), 2 => Just(1u8), 1 => Just(7u8)],
        0i64..300,
        0i64..60,
    )
}

/// The lines of `evs`, alternating the nine-field tab form and the four-field form.
fn text(evs: &[(u64, u8, i64, i64)]) -> Vec<String> {
    evs.iter()
        .enumerate()
        .map(|(i, &(node, kind, start, len))| {
            if i % 2 == 0 {
                format!(
                    "{i}\t1\t{node}\t1\tn{node}\t{kind}\t{start}\t{}\t0",
                    start + len
                )
            } else {
                format!("{node} {kind} {start}.0 {}", start + len)
            }
        })
        .collect()
}

/// Whether node `node` is down at second `t` by the events themselves (type 0, `[start, end)`).
fn down_in(evs: &[(u64, u8, i64, i64)], node: u64, t: i64) -> bool {
    evs.iter()
        .any(|&(n, k, s, l)| n == node && k == 0 && s <= t && t < s + l)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A trace read from random events holds, for every node and second, exactly the union of
    /// its type-0 events, spans from the first start to the last end of types 0 and 1, keeps its
    /// invariants, and reads back the same from its own writer.
    #[test]
    fn a_trace_is_the_union_of_its_outages_and_round_trips(
        evs in prop::collection::vec(event(), 1..30),
    ) {
        let lines = text(&evs);
        let got = read(lines.join("\n").as_bytes(), &Options::default());
        let counted: Vec<_> = evs.iter().filter(|e| e.1 <= 1).collect();
        let Ok(t) = got else {
            // Only a trace whose events of type 0 and 1 span no time is refused.
            let lo = counted.iter().map(|e| e.2).min();
            let hi = counted.iter().map(|e| e.2 + e.3).max();
            prop_assert!(lo.is_none() || lo == hi, "{got:?}");
            return Ok(());
        };
        trace(&t, &Options::default()).map_err(TestCaseError::fail)?;
        prop_assert_eq!(t.first, counted.iter().map(|e| e.2).min().unwrap());
        prop_assert_eq!(t.last, counted.iter().map(|e| e.2 + e.3).max().unwrap());
        for node in 0..5 {
            let mine = t.nodes.iter().find(|n| n.id == node);
            for s in t.first..t.last {
                let held = mine.is_some_and(|n| n.down.iter().any(|&(a, b)| a <= s && s < b));
                prop_assert_eq!(held, down_in(&evs, node, s), "node {} second {}", node, s);
            }
        }
        let back = read(t.to_tab().as_bytes(), &Options::default()).unwrap();
        prop_assert_eq!((&back.nodes, back.first, back.last), (&t.nodes, t.first, t.last));
    }

    /// A bad line at any position: strict mode names exactly that line; skip-invalid counts it
    /// once and reads the rest as if it were not there.
    #[test]
    fn a_bad_line_is_named_by_its_position_or_counted(
        evs in prop::collection::vec((0u64..5, Just(0u8), 0i64..300, 1i64..60), 1..20),
        at in any::<prop::sample::Index>(),
        bad in prop_oneof![
            Just("3 0 10"), Just("x 0 1 2"), Just("3 0 9 8"), Just("-4 0 1 2"),
            Just("1 0 1e300 2"), Just("1\t2\t3\t4\t5\t0\tnan\t9\t0")
        ],
    ) {
        let mut lines = text(&evs);
        lines.insert(0, "# comment".into());
        let i = 1 + at.index(lines.len());
        lines.insert(i, bad.into());
        let joined = lines.join("\n");
        let e = read(joined.as_bytes(), &Options::default()).unwrap_err();
        prop_assert_eq!(e.line, Some(i as u64 + 1), "{}", e);
        let lenient = Options { skip_invalid: true };
        let t = read(joined.as_bytes(), &lenient).unwrap();
        trace(&t, &lenient).map_err(TestCaseError::fail)?;
        prop_assert_eq!(t.invalid.total(), 1);
        lines.remove(i);
        let clean = read(lines.join("\n").as_bytes(), &Options::default()).unwrap();
        prop_assert_eq!(t.nodes, clean.nodes);
    }

    /// A window is, at every simulated second, the trace at `first + (offset + s) mod span`,
    /// node by node (cluster nodes beyond the trace's never down), with the replay's invariants.
    #[test]
    fn a_window_is_the_trace_read_from_its_offset_wrapped(
        evs in prop::collection::vec((0u64..4, Just(0u8), 0i64..200, 1i64..50), 1..15),
        offset in 0u64..1000,
        horizon in 1u64..700,
        nodes in 1u32..6,
    ) {
        let t = read(text(&evs).join("\n").as_bytes(), &Options::default()).unwrap();
        let ev = t.window(nodes, offset, horizon);
        events(&ev, nodes, horizon).map_err(TestCaseError::fail)?;
        let span = t.span();
        for (n, node) in (0..nodes).zip(t.nodes.iter().map(Some).chain(std::iter::repeat(None))) {
            let mut down = false;
            let mut it = ev.iter().filter(|e| e.node == n).peekable();
            for s in 0..horizon {
                while let Some(e) = it.next_if(|e| e.at == s) {
                    down = !e.up;
                }
                let r = t.first + ((offset + s) % span) as i64;
                let want = node.is_some_and(|nd| nd.down.iter().any(|&(a, b)| a <= r && r < b));
                prop_assert_eq!(down, want, "node {} second {}", n, s);
            }
        }
    }

    /// The synthetic process: node `n` is in group `floor(n groups / nodes)`, all nodes of a
    /// group fail and come back together, and the events keep the replay's invariants.
    #[test]
    fn the_nodes_of_a_group_share_their_state(
        nodes in 1u32..70,
        groups in 1u32..70,
        seed in any::<u64>(),
        days in 1u64..40,
        fit in prop_oneof![Just(Fit::Weibull), Just(Fit::Lognormal), Just(Fit::Hyperexponential)],
    ) {
        let groups = groups.min(nodes);
        let p = Process::table2(fit, groups).unwrap();
        p.check(nodes).unwrap();
        let horizon = days * 86_400;
        let ev = p.events(nodes, horizon, seed);
        events(&ev, nodes, horizon).map_err(TestCaseError::fail)?;
        let of = |n: u32| -> Vec<(u64, bool)> {
            ev.iter().filter(|e| e.node == n).map(|e| (e.at, e.up)).collect()
        };
        for n in 0..nodes {
            let g = p.group_of(n, nodes);
            prop_assert_eq!(g, (u64::from(n) * u64::from(groups) / u64::from(nodes)) as u32);
            let first = (0..nodes).find(|&m| p.group_of(m, nodes) == g).unwrap();
            prop_assert_eq!(of(n), of(first), "node {} and node {} of group {}", n, first, g);
        }
    }
}
