//! The hybrid-cloud model (`qosgate_harness::models::hybrid`): a hand-worked two-provider run,
//! and properties on random scenarios: every request ends once with consistent times, the
//! accounts add up, the broker follows its routing, common random numbers make the cloud's usage
//! independent of the scheduler, and runs are deterministic.

use proptest::prelude::*;
use qosgate_harness::config::Header;
use qosgate_harness::models::Model;
use qosgate_harness::models::ScenarioFile;
use qosgate_harness::models::hybrid::Hybrid;
use qosgate_harness::models::hybrid::metrics::Metrics;
use qosgate_harness::models::hybrid::record::{Outcome, Provider};
use qosgate_harness::models::hybrid::scenario::{
    Broker, Brokering, Cloud, Cluster, ExpectedReturn, Failures, PolicyName, Price, Routing,
    Scenario, Scheduler,
};
use qosgate_harness::models::hybrid::world;
use qosgate_harness::workload::das2::Das2Params;
use qosgate_harness::workload::dist::Dist;
use qosgate_harness::workload::failures::{Fit, Process};
use qosgate_harness::workload::requests::RequestModel;
use qosgate_testkit::cli::scratch;

/// javadi2012's prices.
fn price() -> Price {
    Price {
        vm_hour_usd: 0.085,
        boot_s: 80.0,
        data_in_gb: 0.08,
        usd_per_gb: 0.1,
    }
}

/// Four requests of 2 VMs for 150 s at 100, 200, 300, 400 s; 4 nodes on each side; the cloud
/// 50 s away; the local cluster up [0, 250), down [250, 350), up 250 s, down 100 s, ...; ADS
/// with P = (0.5, 0.5) under EASY.
fn golden(drain_s: u64) -> Scenario {
    Scenario {
        header: Header::single("golden", 1),
        horizon_s: 450,
        warmup_s: 0,
        drain_s,
        workload: RequestModel {
            interarrival: Dist::Fixed(100.0),
            load_scale: 1.0,
            size: Das2Params {
                low: 1.0,
                mid: 1.0,
                high: 1.0,
                q: 1.0,
                p_one: 0.0,
                p_pow2: 1.0,
                cap: 64,
            },
            duration: Dist::Fixed(150.0),
            reference_mips: 1000.0,
            estimate_factor: 1.0,
        },
        local: Cluster {
            nodes: 4,
            mips: 1000.0,
            transfer_s: 0,
            cost: 1.0,
        },
        cloud: Cloud {
            nodes: 4,
            mips: 1000.0,
            transfer_s: 50,
            cost: 5.0,
            cs2: 1.0,
        },
        failures: Some(Failures {
            available: Some(Dist::Fixed(250.0)),
            unavailable: Some(Dist::Fixed(100.0)),
            groups: 1,
            burn_in_s: 0,
            trace: None,
            expected_return: ExpectedReturn::Unknown,
        }),
        scheduler: Scheduler {
            policy: PolicyName::Easy,
            selective_threshold: 2.0,
        },
        broker: Broker {
            policy: Brokering::Ads,
            routing: Routing::CloudShare(0.5),
        },
        price: price(),
    }
}

/// Worked by hand. The billiard with `X_c = 1` sends requests 0, 1, 3 to the local cluster and
/// 2 to the cloud (keys `(X + Y) / P`: L 0 < C 2; tie 2 = 2 to the lower index, L; C 2 < L 4;
/// tie 4 = 4, L). Local: r0 runs [100, 250) and ends as the cluster fails at 250 (completions
/// come first); r1 starts at 200, is interrupted at 250 with 100 s left, resumes at 350, ends at
/// 450; r3 runs [400, 550). Cloud: r2 arrives at 300, is queued at 350, runs [350, 500).
/// Response times 150, 250, 200, 150: AWRT (equal weights) 187.5 s; waits 0, 100, 50, 0:
/// slowdown (1 + 5/3 + 4/3 + 1) / 4 = 1.25. Eq. 19: 2 VMs x 1 h + 80 s of boot, at 0.085 USD,
/// plus 0.08 GB at 0.1 USD: 0.179889 USD.
#[test]
fn a_hand_worked_two_provider_run() {
    let s = golden(1000);
    s.validate().unwrap();
    let run = Hybrid::simulate(&s, 0).unwrap();
    let got: Vec<_> = run
        .records
        .iter()
        .map(|r| {
            (
                r.provider,
                r.arrival_s,
                r.queued_s,
                r.start_s,
                r.end_s,
                r.interruptions,
                r.outcome,
            )
        })
        .collect();
    use Outcome::Completed as C;
    use Provider::{Cloud as Cl, Local as L};
    assert_eq!(
        got,
        [
            (L, 100, 100, 100, 250, 0, C),
            (L, 200, 200, 200, 450, 1, C),
            (Cl, 300, 350, 350, 500, 0, C),
            (L, 400, 400, 400, 550, 0, C),
        ]
    );
    let m = Hybrid::metrics(&s, &run);
    assert_eq!((m.requests, m.completed, m.local, m.cloud), (4, 4, 3, 1));
    assert_eq!((m.interruptions, m.cloud_vm_hours), (1, 2));
    assert_eq!(m.awrt_s, Some(187.5));
    assert!((m.slowdown.unwrap() - 1.25).abs() < 1e-12);
    assert!((m.cost_usd - ((2.0 + 80.0 / 3600.0) * 0.085 + 0.008)).abs() < 1e-12);
    assert_eq!(m.awrt_cloud_s, Some(200.0));
    // With no drain the failures stop at the horizon (450 s): r2 and r3 end later and are
    // reported unfinished, left out of the response times.
    let s = golden(0);
    let run = Hybrid::simulate(&s, 0).unwrap();
    let m = Hybrid::metrics(&s, &run);
    assert_eq!((m.completed, m.unfinished), (2, 2));
    assert_eq!(m.awrt_s, Some(200.0));
    // Beside them, at their lower bounds (the end of the run, 450 s, minus the arrival): r2
    // 150 s, r3 50 s, waits 0. AWRT (150 + 250 + 150 + 50) / 4 = 150 s; slowdown (1 + 5/3 + 1
    // + 1) / 4 = 7/6 (without them, (1 + 5/3) / 2 = 4/3).
    assert_eq!(m.unfinished_lower_s, Some(100.0));
    assert_eq!(m.awrt_with_unfinished_s, Some(150.0));
    assert!((m.slowdown.unwrap() - 4.0 / 3.0).abs() < 1e-12);
    assert!((m.slowdown_with_unfinished.unwrap() - 7.0 / 6.0).abs() < 1e-12);
    let complete = Hybrid::metrics(&golden(1000), &Hybrid::simulate(&golden(1000), 0).unwrap());
    assert_eq!(complete.unfinished_lower_s, None);
    assert_eq!(complete.awrt_with_unfinished_s, complete.awrt_s);
    let late: Vec<u64> = run
        .records
        .iter()
        .filter(|r| r.outcome == Outcome::Unfinished)
        .map(|r| r.id)
        .collect();
    assert_eq!(late, [2, 3]);
    assert!(
        run.records[3]
            .reason
            .as_deref()
            .unwrap()
            .contains("finished at 550 s")
    );
}

/// A random small hybrid cloud: Table I's workload (its arrival rate scaled), a few nodes per
/// side, Table II's failures fitted by some family in some groups, any scheduler and broker.
fn scenario() -> impl Strategy<Value = Scenario> {
    (
        (4u32..17, 4u32..17, 1u32..17),
        (0.2f64..0.3, 2.5f64..3.5, 1.0f64..4.0),
        (0usize..3, 0usize..4, 0usize..3, 0.0f64..1.0),
        (1u64..4, 0u64..2, 0u64..3, 0u64..200, 0..i64::MAX as u64),
    )
        .prop_map(
            |((local, cloud, groups), (shape, theta, scale), (fit, pol, brk, share), t)| {
                let (days, warmup, drain, transfer, seed) = t;
                let p = Process::table2(Fit::ALL[fit], groups.min(local)).unwrap();
                Scenario {
                    header: Header::single("random", seed),
                    horizon_s: days * 86_400,
                    warmup_s: warmup * 86_400 / 2,
                    drain_s: drain * 86_400,
                    workload: RequestModel {
                        load_scale: scale,
                        ..RequestModel::table1(shape, theta)
                    },
                    local: Cluster {
                        nodes: local,
                        mips: 1000.0,
                        transfer_s: 0,
                        cost: 1.0,
                    },
                    cloud: Cloud {
                        nodes: cloud,
                        mips: 500.0,
                        transfer_s: transfer,
                        cost: 5.0,
                        cs2: 1.0,
                    },
                    failures: Some(Failures {
                        available: Some(p.available),
                        unavailable: Some(p.unavailable),
                        groups: p.groups,
                        burn_in_s: 86_400,
                        trace: None,
                        expected_return: ExpectedReturn::Unknown,
                    }),
                    scheduler: Scheduler {
                        policy: [
                            PolicyName::Fcfs,
                            PolicyName::Easy,
                            PolicyName::Conservative,
                            PolicyName::Selective,
                        ][pol],
                        selective_threshold: 2.0,
                    },
                    broker: Broker {
                        policy: [Brokering::Nor, Brokering::Ars, Brokering::Ads][brk],
                        routing: Routing::CloudShare(share),
                    },
                    price: price(),
                }
            },
        )
}

/// The metrics' accounts: every measured request completed or unfinished, local or cloud.
fn accounts_add_up(m: &Metrics) -> bool {
    m.requests == m.completed + m.unfinished && m.requests == m.local + m.cloud
}

/// `whole` is a mean of the two parts: between them when both exist, the one that exists
/// otherwise, absent when neither does.
fn mean_of_parts(whole: Option<f64>, a: Option<f64>, b: Option<f64>) -> bool {
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0);
    match (whole, a, b) {
        (None, None, None) => true,
        (Some(w), Some(x), None) | (Some(w), None, Some(x)) => close(w, x),
        (Some(w), Some(x), Some(y)) => {
            (w >= x.min(y) || close(w, x.min(y))) && (w <= x.max(y) || close(w, x.max(y)))
        }
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every request has one record, in id order, with its times in order: queued its transfer
    /// after its arrival, started no earlier, ended no earlier than its run after its start
    /// (later only if interrupted, which only the local cluster does); unfinished exactly when it
    /// ended after the drain; NoR sends nothing to the cloud; ADS keeps the billiard's balance;
    /// and the accounts add up.
    #[test]
    fn every_request_ends_once_and_the_accounts_add_up(s in scenario()) {
        s.validate().unwrap();
        let run = Hybrid::simulate(&s, 0).unwrap();
        let until = s.horizon_s + s.drain_s;
        for (i, r) in run.records.iter().enumerate() {
            prop_assert_eq!(r.id, i as u64);
            prop_assert!(r.arrival_s < s.horizon_s);
            prop_assert!(r.vms >= 1 && r.vms <= s.local.nodes.min(s.cloud.nodes));
            let transfer = match r.provider {
                Provider::Local => s.local.transfer_s,
                Provider::Cloud => s.cloud.transfer_s,
            };
            prop_assert_eq!(r.queued_s, r.arrival_s + transfer);
            prop_assert!(r.start_s >= r.queued_s && r.end_s >= r.start_s + r.run_s, "{:?}", r);
            if r.interruptions == 0 {
                prop_assert_eq!(r.end_s, r.start_s + r.run_s);
            }
            prop_assert!(r.provider == Provider::Local || r.interruptions == 0);
            prop_assert_eq!(r.outcome == Outcome::Unfinished, r.end_s > until);
            prop_assert_eq!(r.reason.is_some(), r.outcome == Outcome::Unfinished);
        }
        let cloud = run.records.iter().filter(|r| r.provider == Provider::Cloud).count() as f64;
        let n = run.records.len() as f64;
        match s.broker.policy {
            Brokering::Nor => prop_assert_eq!(cloud, 0.0),
            Brokering::Ads => prop_assert!((cloud - n * run.p_cloud).abs() <= 2.0),
            Brokering::Ars => {}
        }
        let m = Hybrid::metrics(&s, &run);
        prop_assert!(accounts_add_up(&m), "{:?}", m);
        let measured = || run.records.iter().filter(|r| r.arrival_s >= s.warmup_s);
        prop_assert_eq!(m.requests, measured().count() as u64);
        let wide = measured().filter(|r| 2 * r.vms > s.local.nodes).count() as u64;
        prop_assert_eq!(m.wide, wide);
        // Each metric of every request is a (weighted) mean of the narrow and the wide ones.
        for (whole, narrow, wide) in [
            (m.awrt_s, m.awrt_narrow_s, m.awrt_wide_s),
            (m.slowdown, m.slowdown_narrow, m.slowdown_wide),
            (m.awrt_with_unfinished_s, m.awrt_narrow_with_unfinished_s, m.awrt_wide_with_unfinished_s),
            (m.slowdown_with_unfinished, m.slowdown_narrow_with_unfinished, m.slowdown_wide_with_unfinished),
        ] {
            prop_assert!(mean_of_parts(whole, narrow, wide), "{:?} of {:?}, {:?}", whole, narrow, wide);
        }
    }

    /// Under common random numbers the scheduler changes no routing and no run time: the cloud
    /// gets the same requests and bills the same hours and cost under every policy; the same
    /// scenario and replication give the same records.
    #[test]
    fn cloud_usage_does_not_depend_on_the_scheduler(s in scenario()) {
        let base = Hybrid::metrics(&s, &Hybrid::simulate(&s, 1).unwrap());
        for policy in [PolicyName::Fcfs, PolicyName::Easy, PolicyName::Conservative, PolicyName::Selective] {
            let other = Scenario { scheduler: Scheduler { policy, selective_threshold: 2.0 }, ..s.clone() };
            let m = Hybrid::metrics(&other, &Hybrid::simulate(&other, 1).unwrap());
            prop_assert_eq!((m.cloud, m.cloud_vm_hours, m.cost_usd), (base.cloud, base.cloud_vm_hours, base.cost_usd));
        }
        prop_assert_eq!(Hybrid::simulate(&s, 1).unwrap().records, Hybrid::simulate(&s, 1).unwrap().records);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// The local cluster's schedule a report draws (`world::local_schedule`, nodes named) is the
    /// one the run has: the same requests with the same start and end; every run of a request on
    /// the nodes it asked for, no node held by two runs at once, and a request's runs after the
    /// first only where it was interrupted.
    #[test]
    fn the_drawn_local_schedule_is_the_runs(s in scenario()) {
        let run = Hybrid::simulate(&s, 0).unwrap();
        let drawn = world::local_schedule(&s, 0).unwrap();
        let local: Vec<(u64, u64, u64)> = run
            .records
            .iter()
            .filter(|r| r.provider == Provider::Local)
            .map(|r| (r.id, r.start_s, r.end_s))
            .collect();
        let mut named: Vec<(u64, u64, u64)> =
            drawn.records.iter().map(|r| (r.id, r.start, r.end)).collect();
        named.sort_unstable();
        prop_assert_eq!(named, local);
        let mut runs_of = vec![0u32; drawn.records.len()];
        for p in &drawn.placements {
            let r = &drawn.records[p.job];
            prop_assert_eq!(p.nodes.len(), r.procs);
            runs_of[p.job] += 1;
        }
        for (r, &n) in drawn.records.iter().zip(&runs_of) {
            prop_assert_eq!(n, 1 + r.interruptions, "request {}", r.id);
        }
        let mut edges: Vec<(u64, bool, u32)> = Vec::new();
        for p in &drawn.placements {
            for node in p.nodes.nodes() {
                edges.push((p.start, true, node));
                edges.push((p.end, false, node));
            }
        }
        // Ends before starts at one instant: a node freed at t may be taken at t.
        edges.sort_unstable();
        let mut held = std::collections::HashSet::new();
        for (t, start, node) in edges {
            if start {
                prop_assert!(held.insert(node), "node {} held twice at {}", node, t);
            } else {
                held.remove(&node);
            }
        }
    }
}

/// The example of `docs/hybrid-scenarios.md` is a valid scenario, and `qosgate run` runs it: the
/// JSON summary's accounts add up in every replication.
#[test]
fn the_documented_example_runs() {
    let doc = include_str!("../docs/hybrid-scenarios.md");
    let start = doc.find("```toml\n").expect("a TOML block") + "```toml\n".len();
    let text = &doc[start..start + doc[start..].find("```").unwrap()];
    let s = qosgate_harness::models::parse(text, "example.toml").unwrap();
    assert_eq!(s.model(), "hybrid");
    let dir = scratch("hybrid-doc");
    let path = dir.join("example.toml");
    std::fs::write(&path, text).unwrap();
    let o = qosgate_testkit::cli::run(
        env!("CARGO_BIN_EXE_qosgate-e2e"),
        &[
            "run",
            path.to_str().unwrap(),
            "--replications",
            "2",
            "--json",
        ],
    );
    assert!(o.status.success(), "{}", qosgate_testkit::cli::stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&qosgate_testkit::cli::stdout(&o)).unwrap();
    let reps = v["per_replication"].as_array().unwrap();
    assert_eq!(reps.len(), 2);
    for m in reps {
        let m: Metrics = serde_json::from_value(m.clone()).unwrap();
        assert!(accounts_add_up(&m) && m.requests > 1000, "{m:?}");
        // Eq. 5 at the paper's parameters sends nothing to the cloud (erratum E16).
        assert_eq!((m.p_cloud, m.cloud), (0.0, 0));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A Failure Trace Archive trace as the local cluster's failures: each replication reads it from
/// its own starting point (so the interruptions differ), the requests still all end once, Eq. 5
/// takes the trace's complete intervals as Table II's moments, and a bad trace is named by file
/// and line.
#[test]
fn a_trace_drives_the_local_clusters_failures() {
    let dir = scratch("hybrid-trace");
    let trace = dir.join("four.tab");
    // Four nodes, each down 2 h in every 6 h over 10 days, at staggered phases.
    let mut lines = String::new();
    for node in 0..4u64 {
        for cycle in 0..40u64 {
            let start = cycle * 21_600 + node * 3_600;
            lines.push_str(&format!("{node} 0 {start} {}\n", start + 7_200));
        }
    }
    std::fs::write(&trace, &lines).unwrap();
    let s = Scenario {
        failures: Some(Failures {
            available: None,
            unavailable: None,
            groups: 8,
            burn_in_s: 0,
            trace: Some(trace.display().to_string()),
            expected_return: ExpectedReturn::Unknown,
        }),
        horizon_s: 3 * 86_400,
        broker: Broker {
            policy: Brokering::Ars,
            routing: Routing::Eq5,
        },
        ..golden(86_400)
    };
    s.validate().unwrap();
    let [ta, va, tu, vu] = s.failure_moments().unwrap();
    assert_eq!([ta, va, tu, vu], [14_400.0, 0.0, 7_200.0, 0.0]);
    s.routing().unwrap();
    let runs: Vec<_> = (0..4).map(|k| Hybrid::simulate(&s, k).unwrap()).collect();
    for run in &runs {
        let m = Hybrid::metrics(&s, run);
        assert!(accounts_add_up(&m) && m.requests > 2000, "{m:?}");
        assert!(run.node_events > 0);
    }
    let interruptions: Vec<u32> = runs
        .iter()
        .map(|r| r.records.iter().map(|x| x.interruptions).sum())
        .collect();
    assert!(
        interruptions.windows(2).any(|w| w[0] != w[1]),
        "{interruptions:?}"
    );
    std::fs::write(&trace, format!("{lines}3 0 oops 5\n")).unwrap();
    let e = format!("{:#}", Hybrid::simulate(&s, 0).unwrap_err());
    assert!(
        e.contains(&format!("{}:161: event_start_time", trace.display())),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
