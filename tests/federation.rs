//! The federation model (`harness/src/models/federation/`): hand-worked small federations whose
//! every instant is computed in the comments, random federations on which every request ends
//! once and the accounts add up (per cluster, per type, and against the kernel's own counts),
//! determinism, and the scenario file's round trip and errors.

use proptest::prelude::*;
use qosgate_harness::config::Header;
use qosgate_harness::des::time::secs;
use qosgate_harness::models::Model;
use qosgate_harness::models::ScenarioFile;
use qosgate_harness::models::federation::Federation;
use qosgate_harness::models::federation::gateway::{fastest, split};
use qosgate_harness::models::federation::metrics::Metrics;
use qosgate_harness::models::federation::record::{Outcome, Record, Run, Type};
use qosgate_harness::models::federation::scenario::{
    ClusterConfig, ClusterRules, Das2Config, Dist, External, Gateway, GatewayPolicy, LocalRule,
    LocalWorkload, PapConfig, PapUnits, PreemptionPolicy, PreferenceRule, QueueRule, Scenario,
    SizeMean, TypeShares, VmOverheads, lease_ticks, to_toml,
};
use qosgate_harness::models::federation::world::World;

/// Every request of one size: `2^x` VMs (`x` a whole number), as a DAS-2 model of one point.
fn size(log2: f64) -> Das2Config {
    Das2Config {
        low: log2,
        mid: log2,
        high: log2,
        q: 1.0,
        p_one: 0.0,
        p_pow2: 1.0,
    }
}

fn shares(c: f64, s: f64, m: f64, n: f64) -> TypeShares {
    TypeShares {
        cancelable: c,
        suspendable: s,
        migratable: m,
        non_preemptable: n,
    }
}

fn cluster(name: &str, nodes: u32, local: Option<LocalWorkload>) -> ClusterConfig {
    ClusterConfig {
        name: name.into(),
        nodes,
        mips: 1000,
        local,
    }
}

fn local(every_s: f64, log2: f64, duration_s: f64) -> Option<LocalWorkload> {
    Some(LocalWorkload {
        interarrival_s: Dist::Fixed(every_s),
        size: size(log2),
        duration_s: Dist::Fixed(duration_s),
    })
}

/// A federation with fixed workloads: external requests every `every_s` seconds of `2^log2`
/// VMs for `duration_s`, of the types `shares` allows, until `horizon_s`.
fn scenario(
    policy: GatewayPolicy,
    every_s: f64,
    log2: f64,
    duration_s: f64,
    shares: TypeShares,
    clusters: Vec<ClusterConfig>,
) -> Scenario {
    Scenario {
        header: Header::single("hand-worked", 1),
        horizon_s: 1500.0,
        gateway: Gateway {
            policy,
            pap: PapConfig {
                epsilon: 0.001,
                external_cv: 0.5,
                local_cv: 0.1,
                units: PapUnits::PerNode,
                size_mean: SizeMean::Exact,
            },
        },
        external: External {
            interarrival_s: vec![Dist::Fixed(every_s)],
            size: size(log2),
            duration_s: Dist::Fixed(duration_s),
            shares,
            deadline_factor: 3.0,
        },
        overheads: VmOverheads {
            suspend_s: 10.0,
            resume_s: 7.0,
            migrate_s: 20.0,
            cancel_s: 0.0,
        },
        rules: ClusterRules {
            queue: QueueRule::Conservative,
            local: LocalRule::Reject,
            preemption: PreemptionPolicy::Moml,
            preference: PreferenceRule::Tiers,
            best_effort_queue: 64,
        },
        clusters,
    }
}

fn simulate(s: &Scenario) -> Run {
    s.validate().unwrap();
    Federation::simulate(s, 0).unwrap()
}

/// `(kind, clusters, start, end, outcome, preemptions, migrations)` of a record.
type Seen = (Type, Vec<usize>, Option<f64>, f64, Outcome, u32, u32);

fn seen(r: &Record) -> Seen {
    (
        r.kind,
        r.clusters.clone(),
        r.start,
        r.end,
        r.outcome,
        r.preemptions,
        r.migrations,
    )
}

/// Two clusters A and B of 2 nodes, round robin, one Migratable request (2 VMs, 100 s) at
/// 1000 s; a local request (2 VMs, 50 s) at A at 1050 s. The external request goes to A (round
/// robin starts at 0) and runs from 1000. The local request preempts it: its migration (20 s)
/// runs [1050, 1070), it has done 50 s; the local request runs [1070, 1120). At 1070 the
/// gateway dispatches its remaining 50 s again: round robin's next is B, free: it runs [1070,
/// 1120) there (its deadline, 1000 + 3 x 100, is met). Overhead 2 x 20 = 40 node-s; computation
/// time counts each request once where it first ran, 2 x 100 + 2 x 50 at A, 300 node-s: Eq. 21
/// gives 1 - 40 / 300 = 86.67 %. Work done 300 node-s, all before the horizon, over 4 nodes x
/// the 1500 s horizon: 5 %.
#[test]
fn a_preempted_migratable_lease_finishes_at_the_next_cluster() {
    let s = scenario(
        GatewayPolicy::Rr,
        1000.0,
        1.0,
        100.0,
        shares(0.0, 0.0, 1.0, 0.0),
        vec![
            cluster("A", 2, local(1050.0, 1.0, 50.0)),
            cluster("B", 2, None),
        ],
    );
    let run = simulate(&s);
    let records: Vec<Seen> = run.records.iter().map(seen).collect();
    assert_eq!(
        records,
        [
            (
                Type::Migratable,
                vec![0, 1],
                Some(1000.0),
                1120.0,
                Outcome::Completed,
                1,
                1
            ),
            (
                Type::Local,
                vec![0],
                Some(1070.0),
                1120.0,
                Outcome::Completed,
                0,
                0
            ),
        ]
    );
    assert_eq!(run.records[0].overhead_node_s, 40.0);
    let m = Metrics::compute(&run);
    assert_eq!(
        (m.vms_preempted, m.leases_preempted, m.migrations),
        (2, 1, 1)
    );
    assert!((m.utilization.unwrap() - 100.0 * (1.0 - 40.0 / 300.0)).abs() < 1e-9);
    assert_eq!(
        (
            run.clusters[0].computation_node_s,
            run.clusters[1].computation_node_s
        ),
        (300.0, 0.0)
    );
    assert!((m.occupancy.unwrap() - 5.0).abs() < 1e-9);
    assert_eq!((m.migration_pct, m.response_s), (Some(100.0), Some(120.0)));
    assert_eq!(
        (run.clusters[0].migrated, run.clusters[1].completed),
        (1, 1)
    );
}

/// One cluster of 4 nodes. Local requests (4 VMs, 600 s) every 515 s: at 515 and 1030. A
/// Cancelable request (4 VMs, 100 s) at 1000 is planned behind the first local one, [1115,
/// 1215). The second local request cannot start and nothing running can be preempted: rejected,
/// and the external request runs as planned (response 215 s). If local requests wait instead,
/// the second is reserved at 1115 and takes the plan's nodes: the plan moves behind it, [1715,
/// 1815).
#[test]
fn a_local_request_that_cannot_start_is_rejected_or_displaces_plans() {
    let mut s = scenario(
        GatewayPolicy::Rr,
        1000.0,
        2.0,
        100.0,
        shares(1.0, 0.0, 0.0, 0.0),
        vec![cluster("C", 4, local(515.0, 2.0, 600.0))],
    );
    let outcomes = |run: &Run| -> Vec<Seen> { run.records.iter().map(seen).collect() };
    let first = (
        Type::Local,
        vec![0],
        Some(515.0),
        1115.0,
        Outcome::Completed,
        0,
        0,
    );
    let run = simulate(&s);
    assert_eq!(
        outcomes(&run),
        [
            first.clone(),
            (
                Type::Cancelable,
                vec![0],
                Some(1115.0),
                1215.0,
                Outcome::Completed,
                0,
                0
            ),
            (Type::Local, vec![0], None, 1030.0, Outcome::Rejected, 0, 0),
        ]
    );
    assert_eq!(
        run.records[2].reason,
        "rejected at C: no room, even after preemption"
    );
    assert_eq!(Metrics::compute(&run).local_rejection_pct, Some(50.0));
    s.rules.local = LocalRule::Wait;
    let run = simulate(&s);
    assert_eq!(
        outcomes(&run),
        [
            first,
            (
                Type::Cancelable,
                vec![0],
                Some(1715.0),
                1815.0,
                Outcome::Completed,
                0,
                0
            ),
            (
                Type::Local,
                vec![0],
                Some(1115.0),
                1715.0,
                Outcome::Completed,
                0,
                0
            ),
        ]
    );
}

/// One cluster of 4 nodes; Cancelable requests (4 VMs, 100 s) at 1000; a local request (4 VMs,
/// 10 s) every 1030 s. At 1030 it preempts the external lease, which is cancelled at once
/// (cancelling costs nothing): 4 VMs preempted, no overhead, Eq. 21 at 100 %. AWRT has no
/// completed best-effort request to average.
#[test]
fn a_cancelable_lease_preempted_for_a_local_request_ends_cancelled() {
    let s = scenario(
        GatewayPolicy::PapRtdp,
        1000.0,
        2.0,
        100.0,
        shares(1.0, 0.0, 0.0, 0.0),
        vec![cluster("C", 4, local(1030.0, 2.0, 10.0))],
    );
    let run = simulate(&s);
    let e = &run.records[0];
    assert_eq!(
        (e.outcome, e.end, e.preemptions),
        (Outcome::Cancelled, 1030.0, 1)
    );
    assert_eq!(e.reason, "cancelled at C: preempted for request 1");
    let m = Metrics::compute(&run);
    assert_eq!(
        (m.vms_preempted, m.utilization, m.awrt_s),
        (4, Some(100.0), None)
    );
    assert_eq!(run.shares, vec![1.0]);
}

/// One replication of `s` with clusters of `L` live leases (`2 L` breakpoints).
fn simulate_in<const L: usize, const B: usize>(s: &Scenario) -> Run {
    s.validate().unwrap();
    World::<L, B>::new(s, 0, split(s).unwrap())
        .unwrap()
        .run()
        .unwrap()
}

/// Local requests come first for the lease table. One cluster C of 2 nodes whose manager holds
/// 3 live leases; Cancelable requests (2 VMs, 100 s) at 10, 20, 30 and 40 (A, B, C, D); a local
/// request (2 VMs, 50 s) at 45. A runs [10, 110); B and C are planned [110, 210) and [210, 310);
/// the table is full, so D waits at the gateway. At 45 the local request finds the table full:
/// it withdraws C (submitted last, never ran), whose request goes back to the head of the
/// gateway's queue, then preempts A (cancelled at once) and runs [45, 95). B's plan moves to
/// [95, 195); C is submitted again at once (planned [195, 295)), and D when B starts at 95
/// ([295, 395)). Nothing is refused; C's one withdrawal is counted at the cluster and in its
/// record, and the kernel counts it cancelled by the caller. With the federation's table (256)
/// nothing is withdrawn and every start is the same.
#[test]
fn a_local_request_withdraws_an_unstarted_best_effort_lease_from_a_full_table() {
    let mut s = scenario(
        GatewayPolicy::Rr,
        10.0,
        1.0,
        100.0,
        shares(1.0, 0.0, 0.0, 0.0),
        vec![cluster("C", 2, local(45.0, 1.0, 50.0))],
    );
    s.horizon_s = 50.0;
    s.rules.best_effort_queue = 3;
    let run = simulate_in::<3, 6>(&s);
    let records: Vec<Seen> = run.records.iter().map(seen).collect();
    let cancelable = |start: f64, end: f64| {
        (
            Type::Cancelable,
            vec![0],
            Some(start),
            end,
            Outcome::Completed,
            0,
            0,
        )
    };
    assert_eq!(
        records,
        [
            (
                Type::Cancelable,
                vec![0],
                Some(10.0),
                45.0,
                Outcome::Cancelled,
                1,
                0
            ),
            cancelable(95.0, 195.0),
            cancelable(195.0, 295.0),
            cancelable(295.0, 395.0),
            (
                Type::Local,
                vec![0],
                Some(45.0),
                95.0,
                Outcome::Completed,
                0,
                0
            ),
        ]
    );
    let withdrawals: Vec<u32> = run.records.iter().map(|r| r.withdrawals).collect();
    assert_eq!(withdrawals, [0, 0, 1, 0, 0]);
    let a = &run.clusters[0];
    assert_eq!(
        (a.leases, a.refused, a.completed, a.cancelled, a.withdrawn),
        (6, 0, 4, 1, 1)
    );
    let roomy = simulate(&s);
    let starts = |run: &Run| run.records.iter().map(|r| r.start).collect::<Vec<_>>();
    assert_eq!(starts(&roomy), starts(&run));
    assert_eq!(
        (roomy.clusters[0].withdrawn, roomy.clusters[0].leases),
        (0, 5)
    );
}

/// A scenario written to TOML reads back unchanged; a bad value is named by its line and key.
#[test]
fn a_scenario_round_trips_and_bad_values_are_located() {
    let s = scenario(
        GatewayPolicy::PapRnd,
        10.0,
        1.0,
        100.0,
        shares(1.0, 1.0, 1.0, 1.0),
        vec![
            cluster("A", 8, local(30.0, 1.0, 50.0)),
            cluster("B", 16, None),
        ],
    );
    let text = to_toml(&s);
    assert_eq!(Scenario::parse(&text, "f.toml").unwrap(), s);
    let bad = text.replace("nodes = 16", "nodes = 0");
    let e = Scenario::parse(&bad, "f.toml").err().unwrap().to_string();
    assert!(
        e.starts_with("f.toml:") && e.contains(": clusters[1].nodes: must be 1 to 682, got 0"),
        "{e}"
    );
    let bad = text.replace("[overheads]\n", "[overheads]\nextra = 1\n");
    assert_ne!(bad, text);
    assert!(Scenario::parse(&bad, "f.toml").is_err());
}

/// The gateway's split. Two alike clusters: PAP gives each half, and the first is RTDP's
/// fastest (ties to the lower index); BCF shares in proportion to `M_j s_j`. A cluster whose
/// local load alone saturates it (`rho = 2 x 100 / 4 / 10 = 5`) gets nothing, and the flag
/// says so; an external load beyond every cluster's capacity is split in proportion to the
/// capacities, flagged.
#[test]
fn the_gateway_splits_by_pap_and_falls_back_when_pap_refuses() {
    let two = |a: Option<LocalWorkload>| {
        scenario(
            GatewayPolicy::PapRtdp,
            100.0,
            1.0,
            100.0,
            shares(1.0, 1.0, 1.0, 1.0),
            vec![cluster("A", 4, a), cluster("B", 4, None)],
        )
    };
    let even = split(&two(None)).unwrap();
    assert_eq!(
        (even.shares.clone(), even.fallback.clone()),
        (vec![0.5, 0.5], None)
    );
    assert_eq!(fastest(&even), 0);
    let mut bcf = two(None);
    bcf.gateway.policy = GatewayPolicy::BcfRnd;
    bcf.clusters[1].mips = 3000;
    assert_eq!(split(&bcf).unwrap().shares, vec![0.25, 0.75]);
    let saturated = split(&two(local(10.0, 1.0, 100.0))).unwrap();
    assert_eq!(saturated.shares, vec![0.0, 1.0]);
    let flag = saturated.fallback.unwrap();
    assert!(
        flag.contains("saturated") && flag.contains("A (rho 5.000)"),
        "{flag}"
    );
    // theta = 2 x 100 / 4 = 50 s: each cluster takes at most 0.02 requests/s.
    let mut heavy = two(None);
    heavy.external.interarrival_s = vec![Dist::Fixed(10.0)];
    let over = split(&heavy).unwrap();
    assert_eq!(over.shares, vec![0.5, 0.5]);
    assert!(
        over.fallback
            .unwrap()
            .contains("in proportion to the external capacities")
    );
}

// ---------------------------------------------------------------------------------------------
// Random federations.
// ---------------------------------------------------------------------------------------------

fn policy() -> impl Strategy<Value = GatewayPolicy> {
    (0..5usize).prop_map(|i| GatewayPolicy::ALL[i])
}

fn rules() -> impl Strategy<Value = ClusterRules> {
    (any::<bool>(), any::<bool>(), 0..3usize, any::<bool>()).prop_map(|(q, l, p, f)| ClusterRules {
        queue: if q {
            QueueRule::Conservative
        } else {
            QueueRule::Fcfs
        },
        local: if l {
            LocalRule::Reject
        } else {
            LocalRule::Wait
        },
        preemption: PreemptionPolicy::ALL[p],
        preference: if f {
            PreferenceRule::Flat
        } else {
            PreferenceRule::Tiers
        },
        best_effort_queue: 64,
    })
}

fn random_local(nodes: u32) -> impl Strategy<Value = Option<LocalWorkload>> {
    let high = f64::from(nodes).log2().max(0.5);
    prop::option::of(
        (5.0..200.0f64, 0.0..high, 2.0..300.0f64).prop_map(move |(every, x, d)| LocalWorkload {
            interarrival_s: Dist::Exponential { mean: every },
            size: Das2Config {
                low: 0.0,
                mid: x,
                high,
                q: 0.5,
                p_one: 0.3,
                p_pow2: 0.4,
            },
            duration_s: Dist::Lognormal {
                log_mean: d.ln(),
                log_sd: 1.0,
            },
        }),
    )
}

fn federation() -> impl Strategy<Value = Scenario> {
    let clusters = prop::collection::vec(1..=12u32, 1..=3).prop_flat_map(|sizes| {
        sizes
            .into_iter()
            .enumerate()
            .map(|(j, n)| {
                random_local(n).prop_map(move |l| ClusterConfig {
                    name: format!("C{j}"),
                    nodes: n,
                    mips: 1000 + 500 * j as u64,
                    local: l,
                })
            })
            .collect::<Vec<_>>()
    });
    (
        policy(),
        rules(),
        clusters,
        2.0..60.0f64,
        (0.1..1.0f64, 0.1..1.0f64, 0.1..1.0f64, 0.1..1.0f64),
        any::<u64>(),
        (0.0..30.0f64, 0.0..50.0f64, 0.0..80.0f64),
    )
        .prop_map(
            |(policy, rules, clusters, every, (c, s, m, n), seed, (sus, res, mig))| {
                let smallest = clusters.iter().map(|c| c.nodes).min().unwrap_or(1);
                let mut sc = scenario(policy, every, 0.0, 40.0, shares(c, s, m, n), clusters);
                sc.header.seed = seed >> 1;
                sc.horizon_s = 600.0;
                sc.rules = rules;
                sc.external.interarrival_s = vec![Dist::Exponential { mean: every }];
                sc.external.size = Das2Config {
                    low: 0.0,
                    mid: 0.5,
                    high: f64::from(smallest).log2().max(0.5),
                    q: 0.5,
                    p_one: 0.3,
                    p_pow2: 0.4,
                };
                sc.external.duration_s = Dist::Lognormal {
                    log_mean: 40f64.ln(),
                    log_sd: 1.0,
                };
                sc.overheads = VmOverheads {
                    suspend_s: sus,
                    resume_s: res,
                    migrate_s: mig,
                    cancel_s: 0.0,
                };
                sc
            },
        )
}

fn cases() -> u32 {
    qosgate_testkit::proptest_cases(64)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// On random federations (1-3 clusters of 1-12 nodes, every gateway policy, every cluster
    /// rule, random overheads, every type): every request ends once with one outcome and a
    /// reason (the run's own check, against the kernel's counts too, passes); per type the
    /// outcomes add up to the requests, and every external request of a type appears; times are
    /// in order; a request that never ran was rejected or cancelled before it started; only
    /// Migratable requests migrate; the same seed gives the same run.
    #[test]
    fn every_request_ends_once_and_the_accounts_add_up(s in federation()) {
        let run = simulate(&s);
        let again = Federation::simulate(&s, 0).unwrap();
        prop_assert_eq!(&run.records, &again.records);
        prop_assert_eq!(&run.clusters, &again.clusters);
        for t in Type::ALL {
            let of: Vec<&Record> = run.records.iter().filter(|r| r.kind == t).collect();
            let ended = |o: Outcome| of.iter().filter(|r| r.outcome == o).count();
            prop_assert_eq!(
                ended(Outcome::Completed) + ended(Outcome::Rejected) + ended(Outcome::Cancelled),
                of.len()
            );
        }
        for r in &run.records {
            prop_assert!(!r.clusters.is_empty() && !r.reason.is_empty(), "{:?}", r);
            prop_assert!(r.end >= r.arrival, "{:?}", r);
            if let Some(start) = r.start {
                prop_assert!(r.arrival <= start && start <= r.end, "{:?}", r);
            } else {
                prop_assert!(r.outcome != Outcome::Completed, "{:?}", r);
            }
            prop_assert!(r.migrations == 0 || r.kind == Type::Migratable, "{:?}", r);
            prop_assert!(r.preemptions == 0 || !matches!(r.kind, Type::Local | Type::NonPreemptable), "{:?}", r);
            if r.outcome == Outcome::Cancelled {
                prop_assert_eq!(r.kind, Type::Cancelable);
            }
        }
        let m = Metrics::compute(&run);
        for pct in [m.migration_pct, m.rejection_pct, m.local_rejection_pct, m.occupancy].into_iter().flatten() {
            prop_assert!((0.0..=100.0 + 1e-9).contains(&pct), "{:?}", m);
        }
        prop_assert!(m.utilization.is_none_or(|u| u <= 100.0), "{:?}", m);
        prop_assert_eq!(m.requests as usize, run.records.len());
    }
}

/// Federations whose clusters (1-2 nodes) hold only 8 live leases, under heavy external load:
/// tables fill, local requests withdraw unstarted best-effort leases, best-effort requests wait
/// at the gateway. `best_effort_queue` is 1 to 8 (up to the whole table); half of them `plain` (local requests rejected
/// when they cannot start, no Suspendable or Migratable request).
fn crowded() -> impl Strategy<Value = Scenario> {
    (
        federation(),
        prop::collection::vec(1..=2u32, 3),
        1..=8u32,
        1.0..6.0f64,
        any::<bool>(),
    )
        .prop_map(|(mut s, nodes, queue, every, plain)| {
            if plain {
                s.rules.local = LocalRule::Reject;
                s.external.shares.suspendable = 0.0;
                s.external.shares.migratable = 0.0;
            }
            for (c, n) in s.clusters.iter_mut().zip(nodes) {
                c.nodes = n;
                if let Some(l) = &mut c.local {
                    l.size = size(0.0);
                }
            }
            s.external.size = size(0.0);
            s.external.interarrival_s = vec![Dist::Exponential { mean: every }];
            s.rules.best_effort_queue = queue;
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Local users first, on crowded tables: the run's own checks pass (every request ends
    /// once, the accounts add up against the kernel's, no cluster ever holds more nodes than
    /// it has, nothing is left at the gateway); no best-effort request is rejected; withdrawals
    /// add up; Eq. 22's computation time counts each request that ran once, at its full
    /// duration. Where nothing but running leases, their replacements and `best_effort_queue`
    /// queued leases can be in a table (local requests rejected when they cannot start, no
    /// Suspendable or Migratable request), `2 x nodes + best_effort_queue < 8` leaves room for
    /// every local request: none is refused.
    #[test]
    fn local_requests_come_first_for_the_lease_table(s in crowded()) {
        let run = simulate_in::<8, 16>(&s);
        prop_assert_eq!(&run.records, &simulate_in::<8, 16>(&s).records);
        for r in &run.records {
            if r.kind.is_best_effort() {
                prop_assert!(r.outcome != Outcome::Rejected, "{:?}", r);
            }
        }
        let withdrawn: u64 = run.clusters.iter().map(|a| a.withdrawn).sum();
        let withdrawals: u64 = run.records.iter().map(|r| u64::from(r.withdrawals)).sum();
        prop_assert_eq!(withdrawn, withdrawals);
        let computation: f64 = run.clusters.iter().map(|a| a.computation_node_s).sum();
        let ran: f64 = run
            .records
            .iter()
            .filter(|r| r.start.is_some())
            .map(|r| f64::from(r.nodes) * secs(lease_ticks(r.duration)))
            .sum();
        prop_assert!((computation - ran).abs() <= 1e-6 * ran.max(1.0), "{} vs {}", computation, ran);
        for a in &run.clusters {
            prop_assert!(a.window_work_node_s <= a.work_node_s + 1e-6, "{:?}", a);
        }
        let nodes = s.clusters.iter().map(|c| c.nodes).max().unwrap_or(0);
        let roomy = s.rules.local == LocalRule::Reject
            && s.external.shares.suspendable == 0.0
            && s.external.shares.migratable == 0.0
            && 2 * nodes + s.rules.best_effort_queue < 8;
        if roomy {
            prop_assert!(run.records.iter().all(|r| !r.refused), "{:?}", run.clusters);
        }
    }
}
