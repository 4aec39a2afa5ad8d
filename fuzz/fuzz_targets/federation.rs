//! The federation's lease path (`qosgate_harness::models::federation`): small federations of
//! arbitrary shape (1 to 3 clusters of 1 to 16 nodes, each with or without local users), every
//! gateway policy, every cluster rule (queue, local admission, preemption policy, class
//! preference), any type mix, arbitrary overheads (0 included) and short horizons, with
//! workloads of wide spread (exponential and lognormal, sizes up to the smallest cluster).
//!
//! Checked: the scenario passes the file checks or is refused by them (never a panic); a
//! simulation ends with every request ended exactly once with one outcome and a reason, and
//! every cluster's accounts equal to the records' and to the kernel's own counts (the run's own
//! check, `Run::check`, and the world's comparison with the kernel); the metrics' percentages
//! lie in [0, 100]; the same seed gives the same records.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qosgate_harness::config::Header;
use qosgate_harness::models::Model;
use qosgate_harness::models::ScenarioFile;
use qosgate_harness::models::federation::Federation;
use qosgate_harness::models::federation::metrics::Metrics;
use qosgate_harness::models::federation::scenario::{
    ClusterConfig, ClusterRules, Das2Config, Dist, External, Gateway, GatewayPolicy, LocalRule,
    LocalWorkload, PapConfig, PreemptionPolicy, PreferenceRule, QueueRule, Scenario, TypeShares,
    VmOverheads,
};

#[derive(Debug, Arbitrary)]
struct Cluster {
    nodes: u8,
    /// Mean local inter-arrival time, seconds; `None`: no local users.
    local_every: Option<u8>,
    local_duration: u8,
}

#[derive(Debug, Arbitrary)]
struct Input {
    seed: u32,
    clusters: Vec<Cluster>,
    policy: u8,
    rules: u8,
    shares: [u8; 4],
    every: u8,
    duration: u8,
    horizon: u8,
    overheads: [u8; 3],
    deadline: u8,
}

fn size(high: f64) -> Das2Config {
    Das2Config {
        low: 0.0,
        mid: high / 2.0,
        high,
        q: 0.5,
        p_one: 0.3,
        p_pow2: 0.4,
    }
}

fn scenario(input: &Input) -> Option<Scenario> {
    let clusters: Vec<ClusterConfig> = input
        .clusters
        .iter()
        .take(3)
        .enumerate()
        .map(|(j, c)| {
            let nodes = u32::from(c.nodes % 16) + 1;
            ClusterConfig {
                name: format!("C{j}"),
                nodes,
                mips: 1000 + 100 * j as u64,
                local: c.local_every.map(|every| LocalWorkload {
                    interarrival_s: Dist::Exponential {
                        mean: f64::from(every) + 1.0,
                    },
                    size: size(f64::from(nodes).log2()),
                    duration_s: Dist::Lognormal {
                        log_mean: (f64::from(c.local_duration) + 2.0).ln(),
                        log_sd: 1.2,
                    },
                }),
            }
        })
        .collect();
    let smallest = clusters.iter().map(|c| c.nodes).min()?;
    let [c, s, m, n] = input.shares.map(f64::from);
    let [sus, res, mig] = input.overheads.map(f64::from);
    Some(Scenario {
        header: Header::single("fuzz", u64::from(input.seed)),
        horizon_s: f64::from(input.horizon) * 4.0 + 1.0,
        gateway: Gateway {
            policy: GatewayPolicy::ALL[usize::from(input.policy % 5)],
            pap: PapConfig::default(),
        },
        external: External {
            interarrival_s: vec![Dist::Exponential {
                mean: f64::from(input.every) / 8.0 + 0.5,
            }],
            size: size(f64::from(smallest).log2()),
            duration_s: Dist::Lognormal {
                log_mean: (f64::from(input.duration) + 1.0).ln(),
                log_sd: 1.5,
            },
            shares: TypeShares {
                cancelable: c,
                suspendable: s,
                migratable: m,
                non_preemptable: n,
            },
            deadline_factor: 1.0 + f64::from(input.deadline) / 32.0,
        },
        overheads: VmOverheads {
            suspend_s: sus,
            resume_s: res,
            migrate_s: mig,
            cancel_s: 0.0,
        },
        rules: ClusterRules {
            queue: if input.rules & 1 == 0 {
                QueueRule::Conservative
            } else {
                QueueRule::Fcfs
            },
            local: if input.rules & 2 == 0 {
                LocalRule::Reject
            } else {
                LocalRule::Wait
            },
            preemption: PreemptionPolicy::ALL[usize::from(input.rules >> 2) % 3],
            preference: if input.rules & 32 == 0 {
                PreferenceRule::Tiers
            } else {
                PreferenceRule::Flat
            },
            // 1 to 4: short queues, so that best-effort requests wait at the gateway.
            best_effort_queue: u32::from(input.rules >> 6) + 1,
        },
        clusters,
    })
}

fuzz_target!(|input: Input| {
    let Some(s) = scenario(&input) else {
        return;
    };
    if s.validate().is_err() {
        return;
    }
    let run = Federation::simulate(&s, 0).expect("a checked federation simulates");
    let m = Metrics::compute(&run);
    for pct in [
        m.migration_pct,
        m.rejection_pct,
        m.local_rejection_pct,
        m.occupancy,
    ]
    .into_iter()
    .flatten()
    {
        assert!((0.0..=100.0 + 1e-9).contains(&pct), "{m:?}");
    }
    assert_eq!(m.requests as usize, run.records.len());
    let again = Federation::simulate(&s, 0).expect("a checked federation simulates");
    assert_eq!(run.records, again.records, "not deterministic");
});
