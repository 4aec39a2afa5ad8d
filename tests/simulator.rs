//! The grid simulator (`harness/src/models/grid/`) on random scenarios: random resources (every
//! type, WFQ or SCFQ, one to three CPUs), random GS users (every workload-knowledge mode, rho
//! within the resources' capacity, workloads of mean 0.8 `I_max` (exponential ones exceed it),
//! every rule for tasks above it) and BE users, random distributions and deadlines.
//!
//! Checked on every run's records (the event log):
//! - every task created appears exactly once, numbered in creation order;
//! - a completed task's times are in order: created <= released <= arrived <= started <=
//!   finished <= returned; a failed task was handled as BE at a GS_BE_EQUAL resource;
//! - **every task handled as GS of a user with a guarantee completed within the bound the kernel
//!   guaranteed it at its resource** (from its arrival there), and within the end-to-end delay
//!   planned for it;
//! - a GS user's task above its `I_max` is handled as GS only if the user admits such tasks
//!   (`oversize = "admit"`, and such a user has no guarantee), and never above its resource's
//!   `max_task_mi`; with `oversize = "reject"` it is rejected, naming the rule;
//! - the same scenario and replication give the same records (byte-identical JSON).
//!
//! Scenarios where a GS user cannot register anywhere are refused by the simulator (an error
//! naming the user) and rejected here.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use qosgate_harness::config::Header;
use qosgate_harness::models::Model;
use qosgate_harness::models::grid::metrics::Metrics;
use qosgate_harness::models::grid::record::{Outcome, TaskClass, TaskRecord};
use qosgate_harness::models::grid::scenario::{
    Discipline, Dist, Knowledge, Meta, MetaOrder, Network, Oversize, ResourceConfig, ResourceKind,
    Scenario, UserClass, UserConfig,
};
use qosgate_harness::models::grid::{Grid, simulate_into};

/// 64 cases per property, or `PROPTEST_CASES`.
fn cases() -> u32 {
    qosgate_testkit::proptest_cases(64)
}

fn kind() -> impl Strategy<Value = ResourceKind> {
    prop_oneof![
        Just(ResourceKind::Gs),
        Just(ResourceKind::Be),
        Just(ResourceKind::GsBeEqual),
        Just(ResourceKind::GsBePriority),
        Just(ResourceKind::GsBePriorityPreemptive),
    ]
}

fn resource(i: usize) -> impl Strategy<Value = ResourceConfig> {
    (
        kind(),
        prop_oneof![Just(Discipline::Wfq), Just(Discipline::Scfq)],
        prop::collection::vec(10_000u64..200_000, 1..=3),
        2u16..=6,
    )
        .prop_map(move |(kind, discipline, cpus, max_users)| ResourceConfig {
            name: format!("R{i}"),
            kind,
            discipline,
            cpus,
            max_task_mi: 100_000_000,
            max_users,
        })
}

fn dist(mean: f64) -> impl Strategy<Value = Dist> {
    prop_oneof![
        Just(Dist::Fixed(mean)),
        (0.0..0.5f64).prop_map(move |s| Dist::Uniform {
            min: mean * (1.0 - s),
            max: mean * (1.0 + s),
        }),
        Just(Dist::Exponential { mean }),
    ]
}

fn user(i: usize) -> impl Strategy<Value = UserConfig> {
    (
        any::<bool>(),
        1u16..=3,
        1_000u64..30_000,
        1u64..=4,
        1_000_000u64..50_000_000,
        10.0..400.0f64,
        50.0..3_000.0f64,
        proptest::option::of(prop_oneof![
            Just(Oversize::BestEffort),
            Just(Oversize::Reject),
            Just(Oversize::Admit)
        ]),
        prop_oneof![
            3 => Just(Knowledge::Exact),
            1 => Just(Knowledge::Conservative),
            1 => Just(Knowledge::ConservativeFeedback),
            1 => (1u16..=4).prop_map(Knowledge::Window),
            1 => Just(Knowledge::Aggressive),
        ],
    )
        .prop_flat_map(
            move |(gs, weight, rho, m, imax, gap, deadline, oversize, knowledge)| {
                (
                    dist(imax as f64 * 0.8),
                    dist(gap),
                    proptest::option::of(0.0..gap)
                        .prop_map(move |p| p.map(|max| Dist::Uniform { min: 0.0, max })),
                )
                    .prop_map(move |(workload, interarrival, phase_s)| {
                        UserConfig {
                            name: format!("U{i}"),
                            class: if gs { UserClass::Gs } else { UserClass::Be },
                            weight,
                            rho_mips: gs.then_some(rho),
                            sigma_mi: gs.then_some(m * imax),
                            max_task_mi: gs.then_some(imax),
                            knowledge: gs.then_some(knowledge),
                            oversize: oversize.filter(|_| gs),
                            queue_entries: None,
                            workload,
                            interarrival,
                            phase_s,
                            deadline_s: deadline,
                        }
                    })
            },
        )
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        (1usize..=3).prop_flat_map(|n| (0..n).map(resource).collect::<Vec<_>>()),
        (1usize..=4).prop_flat_map(|n| (0..n).map(user).collect::<Vec<_>>()),
        prop_oneof![Just(MetaOrder::Edf), Just(MetaOrder::Wfq)],
        any::<u64>(),
    )
        .prop_map(|(mut resources, users, order, seed)| {
            // Someone must take best effort: the last resource serves it if none does.
            if resources.iter().all(|r| r.kind == ResourceKind::Gs) {
                resources.last_mut().unwrap().kind = ResourceKind::Be;
            }
            Scenario {
                header: Header::single("random", seed),
                horizon_s: 3_000.0,
                warmup_s: 0.0,
                meta: Meta {
                    order,
                    collection_period_s: 1.0,
                },
                network: Network {
                    bandwidth_bps: 1e6,
                    input_bytes: 1000,
                    output_bytes: 1000,
                },
                resources,
                users,
            }
        })
}

/// Replication 0 of `s` and every task's record, in task order. Checks on the way that the
/// metrics the run tallied are those of its records (taken in the order the tasks ended), and
/// that a run without a sink (which makes no record) tallies the same.
fn records(s: &Scenario) -> anyhow::Result<Vec<TaskRecord>> {
    let mut records = Vec::new();
    let run = simulate_into(
        s,
        0,
        Some(&mut |r: &TaskRecord| {
            records.push(r.clone());
            Ok(())
        }),
    )?;
    assert_eq!(
        run.tasks,
        records.len() as u64,
        "one record per task created"
    );
    assert_eq!(run.metrics, Metrics::compute(s, &records));
    let unrecorded = Grid::simulate(s, 0)?;
    assert_eq!(
        (unrecorded.metrics, unrecorded.events),
        (run.metrics, run.events)
    );
    records.sort_by_key(|r| r.task);
    Ok(records)
}

fn check(s: &Scenario) -> Result<(), TestCaseError> {
    // An overloaded grid (a GS user no resource admits) is refused: a valid answer, but not a
    // run to check.
    let run = records(s).map_err(|e| {
        let msg = format!("{e:#}");
        if msg.contains("cannot register") {
            TestCaseError::reject(msg)
        } else {
            TestCaseError::fail(msg)
        }
    })?;
    for (i, r) in run.iter().enumerate() {
        prop_assert_eq!(r.task, i as u64);
        let user = s.users.iter().find(|u| u.name == r.user).unwrap();
        if r.outcome == Outcome::Completed {
            let times = [
                Some(r.created),
                r.released,
                r.arrived,
                r.started,
                r.finished,
                r.returned,
            ];
            prop_assert!(times.iter().all(Option::is_some), "{:?}", r);
            prop_assert!(
                times.windows(2).all(|w| w[0] <= w[1]),
                "times out of order: {:?}",
                r
            );
        }
        if r.outcome == Outcome::Failed {
            prop_assert_eq!(r.handled_as, TaskClass::Be);
            let res = s
                .resources
                .iter()
                .find(|x| Some(&x.name) == r.resource.as_ref());
            prop_assert_eq!(
                res.map(|x| x.kind),
                Some(ResourceKind::GsBeEqual),
                "{:?}",
                r
            );
        }
        let admits = user.oversize == Some(Oversize::Admit);
        if r.handled_as == TaskClass::Gs {
            prop_assert_eq!(r.outcome, Outcome::Completed, "{:?}", r);
            let guaranteed = !admits && user.knowledge != Some(Knowledge::Aggressive);
            prop_assert_eq!(r.resource_bound.is_some(), guaranteed, "{:?}", r);
            prop_assert!(!r.over_bound(), "over its bound at the resource: {:?}", r);
            if guaranteed {
                let delay = r.delay().unwrap();
                prop_assert!(delay <= r.planned_bound.unwrap() + 1e-6, "{:?}", r);
            }
            if r.workload_mi > user.max_task_mi.unwrap() {
                // Above I_max (Eq. 4) only when the user admits it, and never above the
                // resource's largest task.
                prop_assert!(admits, "{:?}", r);
                let res = s
                    .resources
                    .iter()
                    .find(|x| Some(&x.name) == r.resource.as_ref());
                prop_assert!(r.workload_mi <= res.unwrap().max_task_mi, "{:?}", r);
            }
        } else {
            prop_assert_eq!(
                (r.planned_bound, r.resource_bound, r.hold),
                (None, None, None)
            );
        }
        if r.reason
            .as_deref()
            .is_some_and(|w| w.contains("oversize rule is reject"))
        {
            prop_assert_eq!(user.oversize, Some(Oversize::Reject));
            prop_assert!(r.workload_mi > user.max_task_mi.unwrap(), "{:?}", r);
            prop_assert_eq!(r.handled_as, TaskClass::Be);
        }
    }
    let again = records(s).map_err(|e| TestCaseError::fail(format!("{e:#}")))?;
    let json = |rs: &[TaskRecord]| serde_json::to_string(rs).unwrap();
    prop_assert_eq!(json(&run), json(&again), "not deterministic");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn random_scenarios_keep_the_event_log_invariants(s in scenario()) {
        check(&s)?;
    }
}

/// `qosgate run` with the event log, through the binary.
fn run_preset(preset: &str, dir: &std::path::Path) -> (serde_json::Value, String) {
    let events = dir.join(format!("{preset}.jsonl"));
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_qosgate-e2e"))
        .args(["run", "--preset", preset, "--json", "--events"])
        .arg(&events)
        .output()
        .expect("running qosgate");
    assert!(
        o.status.success(),
        "{preset}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let summary = serde_json::from_slice(&o.stdout).expect("--json prints JSON");
    (summary, std::fs::read_to_string(&events).unwrap())
}

/// Every preset of Table 6 through the binary: the event log has every task once, in the
/// order they ended; every task handled as GS completed within its bound; the per-user counts
/// of the summary are those of the log; a second run writes the same bytes.
#[test]
fn presets_run_end_to_end_with_a_consistent_event_log() {
    let dir = std::env::temp_dir().join(format!("qosgate-sim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for preset in ["gb", "gbe", "gbp", "be"].map(|p| format!("kokkinos2009-{p}")) {
        let (summary, log) = run_preset(&preset, &dir);
        let lines: Vec<serde_json::Value> = log
            .lines()
            .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
            .collect();
        let mut tasks: Vec<u64> = lines.iter().map(|l| l["task"].as_u64().unwrap()).collect();
        tasks.sort_unstable();
        assert_eq!(
            tasks,
            (0..lines.len() as u64).collect::<Vec<_>>(),
            "{preset}"
        );
        let ended = |l: &serde_json::Value| {
            ["returned", "end", "at_resource", "released", "arrival"]
                .iter()
                .find_map(|k| l[*k].as_f64())
                .unwrap()
        };
        assert!(
            lines.windows(2).all(|w| ended(&w[0]) <= ended(&w[1])),
            "{preset}"
        );
        for l in &lines {
            if l["handled_as"] == "gs" {
                assert_eq!(l["outcome"], "completed", "{l}");
                let at = |k: &str| l[k].as_f64().unwrap();
                assert!(
                    at("end") - at("at_resource") <= at("resource_bound_s") + 1e-9,
                    "{l}"
                );
                let delay = at("returned") - at("arrival");
                assert!(delay <= at("planned_bound_s") + 1e-6, "{l}");
            }
        }
        for u in summary["users"].as_array().unwrap() {
            let name = u["user"].as_str().unwrap();
            let mine: Vec<_> = lines.iter().filter(|l| l["user"] == name).collect();
            assert_eq!(
                u["tasks"]["mean"].as_f64(),
                Some(mine.len() as f64),
                "{preset} {name}"
            );
            let failed = mine.iter().filter(|l| l["outcome"] == "failed").count();
            let pct = u["failed_pct"]["mean"].as_f64().unwrap();
            assert!((pct - 100.0 * failed as f64 / mine.len() as f64).abs() < 1e-9);
        }
        let (_, again) = run_preset(&preset, &dir);
        assert_eq!(log, again, "{preset}: not deterministic");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Bad scenarios are errors that name their cause, through the binary: an unknown preset, and a
/// grid where a GS user's rho exceeds every resource's share (an overloaded registration).
#[test]
fn bad_scenarios_are_named_errors() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_qosgate-e2e"))
        .args(["run", "--preset", "no-such-preset"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no-such-preset"));
    let mut s =
        qosgate_harness::experiments::kokkinos2009::presets::get("kokkinos2009-gbp").unwrap();
    s.users[0].rho_mips = Some(2_000_000);
    s.users[0].sigma_mi = Some(4_000_000_000);
    let e = records(&s).unwrap_err();
    let msg = format!("{e:#}");
    assert!(
        msg.contains("U1") && msg.contains("cannot register"),
        "{msg}"
    );
    // A GS user setting aside a whole queue leaves best effort nowhere to wait there.
    let mut s =
        qosgate_harness::experiments::kokkinos2009::presets::get("kokkinos2009-gbp").unwrap();
    s.users[0].queue_entries = Some(8192);
    let msg = format!("{:#}", records(&s).unwrap_err());
    assert!(
        msg.contains("resource R1") && msg.contains("take its whole queue"),
        "{msg}"
    );
}

/// A best-effort user flooding the GBP grid (U4 every second, 40,000 tasks
/// where the three resources queue 24,576) never pushes a guaranteed task out: every task
/// handled as GS completes within its bound, none fails, and the BE tasks that find every
/// queue full wait at the meta-scheduler or are rejected there (its batch full), by name.
#[test]
fn best_effort_flooding_every_queue_never_pushes_a_guaranteed_task_out() {
    let mut s =
        qosgate_harness::experiments::kokkinos2009::presets::get("kokkinos2009-gbp").unwrap();
    s.horizon_s = 40_000.0;
    let u4 = s.users.iter_mut().find(|u| u.name == "U4").unwrap();
    u4.interarrival = Dist::Fixed(1.0);
    let records = records(&s).unwrap();
    let gs: Vec<&TaskRecord> = records
        .iter()
        .filter(|r| r.handled_as == TaskClass::Gs)
        .collect();
    assert_eq!(gs.len(), 74 + 13 + 7, "U1-U3's tasks are all handled as GS");
    for r in &gs {
        assert_eq!(r.outcome, Outcome::Completed, "{r:?}");
        assert!(!r.over_bound(), "{r:?}");
        assert!(
            r.delay().unwrap() <= r.planned_bound.unwrap() + 1e-6,
            "{r:?}"
        );
    }
    assert!(records.iter().all(|r| r.outcome != Outcome::Failed));
    let waited = records
        .iter()
        .filter(|r| r.released.is_some_and(|at| at - r.created > 2.0))
        .count();
    let rejected: Vec<&TaskRecord> = records
        .iter()
        .filter(|r| r.outcome == Outcome::Rejected)
        .collect();
    assert!(waited > 0, "some BE tasks waited for room");
    assert!(!rejected.is_empty(), "the batch filled");
    for r in rejected {
        let reason = r.reason.as_deref().unwrap();
        assert!(
            reason.contains("meta-scheduler's batch is full"),
            "{reason}"
        );
    }
}
