//! One replication of the hybrid cloud: the requests, the broker's decisions, and the two
//! providers' schedules.
//!
//! 1. The requests of `[0, horizon_s)` are generated ([`RequestModel::generate`]: streams 0-2 of
//!    the replication's seed).
//! 2. The broker decides each request's provider when it arrives, in arrival order, with the
//!    routing of [`Scenario::routing`]: NoR sends every request to the local cluster; ARS asks
//!    the kernel's [`Bernoulli`] dispatcher with one uniform `u32` per request from
//!    `SplitMix::for_entity(seed, 3)`; ADS follows the kernel's [`Billiard`] sequence with the
//!    cloud as its "fastest" provider (`X_c = 1`, javadi2012 Sec. V).
//! 3. The broker observes no queue (javadi2012's "non-observable queues"): its decisions depend on
//!    the requests alone. So each provider is simulated on its own as the trace replay of the
//!    requests sent to it ([`replay`]: the kernel's backfilling, failures and checkpointing),
//!    each request joining the provider's queue its transfer time after its arrival. The local
//!    cluster replays the failures of [`Scenario::failure_source`] over
//!    `[0, horizon_s + drain_s]`, drawn from the seed `SplitMix::for_entity(seed, 4).next_u64()`,
//!    then runs failure-free; the cloud never fails.
//! 4. A request that completes after `horizon_s + drain_s` is [`Outcome::Unfinished`].
//!
//! Every stream depends on the scenario's seed and the replication only, never on the
//! scheduler or the broker: runs that differ in those share their requests and failures (common
//! random numbers), and ARS and ADS at the same routing see the same requests.

use anyhow::{Context, Result, anyhow, ensure};
use qosgate_kernel::backfill::Policy;
use qosgate_kernel::dispatch::{Bernoulli, Billiard};

use super::record::{Outcome, Provider, RequestRecord, Run};
use super::scenario::{Brokering, CLOUD, LOCAL, Scenario};
use crate::des::rng::{SplitMix, replication_seed};
use crate::models::cluster::replay::{self, Naming, NodeEvent, Returns};
use crate::workload::requests::{Request, RequestModel};
use crate::workload::swf::Job;

/// The stream of ARS's draws.
const ARS_STREAM: u64 = 3;
/// The stream the failures' seed is drawn from.
const FAILURE_STREAM: u64 = 4;

/// Replication `k` of `s`, steps 1-3 before the replays: the requests, the routing, each
/// provider's jobs and the local cluster's failures.
struct Routed {
    requests: Vec<Request>,
    /// The routing's shares.
    p: [f64; 2],
    local_jobs: Vec<Job>,
    cloud_jobs: Vec<Job>,
    failures: Vec<NodeEvent>,
    /// The end of the drain, seconds.
    until: u64,
}

impl Routed {
    /// Errors: a workload or routing the scenario's checks should have refused, an
    /// unreadable failure trace.
    fn of(s: &Scenario, k: u32) -> Result<Self> {
        let seed = replication_seed(s.header.seed, k);
        let requests = s
            .workload
            .generate(s.cap(), s.horizon_s, seed)
            .map_err(|e| anyhow!("workload.size: {e}"))?;
        let p = s.routing()?.p;
        let providers = route(s.broker.policy, p, requests.len(), seed)?;
        let until = s.horizon_s.saturating_add(s.drain_s);
        let failures = match s.failure_source()? {
            Some(source) => {
                let failure_seed = SplitMix::for_entity(seed, FAILURE_STREAM).next_u64();
                source.events(s.local.nodes, until, failure_seed)
            }
            None => Vec::new(),
        };
        let jobs = |which: Provider, mips: f64, transfer_s: u64| -> Vec<Job> {
            requests
                .iter()
                .zip(&providers)
                .filter(|(_, p)| **p == which)
                .map(|(r, _)| job(&s.workload, r, mips, transfer_s))
                .collect()
        };
        Ok(Routed {
            local_jobs: jobs(Provider::Local, s.local.mips, s.local.transfer_s),
            cloud_jobs: jobs(Provider::Cloud, s.cloud.mips, s.cloud.transfer_s),
            requests,
            p,
            failures,
            until,
        })
    }
}

/// The local cluster's schedule in replication `k` of `s`, its nodes named
/// ([`replay::Outcome::placements`]): what [`simulate`] replays there.
///
/// Errors: those of [`simulate`].
pub fn local_schedule(s: &Scenario, k: u32) -> Result<replay::Outcome> {
    let r = Routed::of(s, k)?;
    replay_provider(
        &r.local_jobs,
        s.policy()?,
        s.local.nodes,
        (&r.failures, s.returns()?),
        Naming::Named,
    )
    .context("the local cluster")
}

/// Replication `k` of `s`.
///
/// Errors: a workload or routing the scenario's checks should have refused, an unreadable
/// trace, or the replay's (a queue beyond its capacity), each named.
pub fn simulate(s: &Scenario, k: u32) -> Result<Run> {
    let Routed {
        requests,
        p,
        local_jobs,
        cloud_jobs,
        failures,
        until,
    } = Routed::of(s, k)?;
    let policy = s.policy()?;
    let local = replay_provider(
        &local_jobs,
        policy,
        s.local.nodes,
        (&failures, s.returns()?),
        Naming::Counted,
    )
    .context("the local cluster")?;
    let cloud = replay_provider(
        &cloud_jobs,
        policy,
        s.cloud.nodes,
        (&[], Returns::Unknown),
        Naming::Counted,
    )
    .context("the cloud")?;
    let mut records: Vec<Option<RequestRecord>> = vec![None; requests.len()];
    for (which, outcome) in [(Provider::Local, &local), (Provider::Cloud, &cloud)] {
        for r in &outcome.records {
            let req = usize::try_from(r.id)
                .ok()
                .and_then(|i| requests.get(i))
                .context("the replay returned an unknown request")?;
            let late = r.end > until;
            let slot = &mut records[req.id as usize];
            ensure!(slot.is_none(), "request {} ended twice", req.id);
            *slot = Some(RequestRecord {
                id: req.id,
                arrival_s: req.arrival_s,
                provider: which,
                vms: req.vms,
                run_s: r.run,
                queued_s: r.submit,
                start_s: r.start,
                end_s: r.end,
                interruptions: r.interruptions,
                outcome: if late {
                    Outcome::Unfinished
                } else {
                    Outcome::Completed
                },
                reason: late.then(|| {
                    format!(
                        "not finished by the end of the drain ({until} s, horizon + drain); it \
                         finished at {} s",
                        r.end
                    )
                }),
            });
        }
    }
    let records = records
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.with_context(|| format!("request {i} never ended")))
        .collect::<Result<Vec<_>>>()?;
    let starts: u64 = records.iter().map(|r| 1 + u64::from(r.interruptions)).sum();
    Ok(Run {
        p_cloud: p[CLOUD],
        node_events: failures.len() as u64,
        events: 2 * records.len() as u64 + starts + failures.len() as u64,
        records,
    })
}

/// Requests a provider's scheduler holds at first, waiting or running (about 1.1 MB).
const SMALL_QUEUE: usize = 1 << 13;

/// The replay of `jobs` on one provider: first with a scheduler of [`SMALL_QUEUE`] requests,
/// which is cheap to build; if its queue fills ([`replay::QueueFull`]), again with the replay's
/// full capacity ([`replay::QUEUE`]), which gives the same schedule wherever the small one
/// suffices. Any other error is the replay's own and is reported as it is.
fn replay_provider(
    jobs: &[Job],
    policy: Policy,
    nodes: u32,
    (failures, returns): (&[NodeEvent], Returns),
    naming: Naming,
) -> Result<replay::Outcome> {
    replay::replay_in::<SMALL_QUEUE, { 2 * SMALL_QUEUE + 2 + replay::RETURNS }>(
        jobs,
        policy,
        nodes,
        failures,
        returns,
        naming,
        |_| {},
    )
    .or_else(|e| {
        if e.chain().any(|c| c.is::<replay::QueueFull>()) {
            replay::replay_in::<{ replay::QUEUE }, { replay::BREAKPOINTS }>(
                jobs,
                policy,
                nodes,
                failures,
                returns,
                naming,
                |_| {},
            )
        } else {
            Err(e)
        }
    })
}

/// Request `r` as the replay takes it at a provider of `mips` reached after `transfer_s`.
fn job(w: &RequestModel, r: &Request, mips: f64, transfer_s: u64) -> Job {
    let run = w.run_s(r, mips);
    Job {
        id: r.id,
        submit: r.arrival_s.saturating_add(transfer_s),
        run,
        estimate: w.estimate_s(run),
        procs: r.vms,
    }
}

/// The provider of each of `n` requests, in arrival order, under `policy` with routing `p`
/// (`[P_s, P_c]`), for the replication seeded `seed`.
///
/// Errors: a routing the kernel's dispatchers refuse (named).
pub fn route(policy: Brokering, p: [f64; 2], n: usize, seed: u64) -> Result<Vec<Provider>> {
    let provider = |i: usize| {
        if i == LOCAL {
            Provider::Local
        } else {
            Provider::Cloud
        }
    };
    Ok(match policy {
        Brokering::Nor => vec![Provider::Local; n],
        Brokering::Ars => {
            let ars = Bernoulli::<2>::new(&p).map_err(|e| anyhow!("ARS dispatch: {e}"))?;
            let mut draws = SplitMix::for_entity(seed, ARS_STREAM);
            (0..n)
                .map(|_| provider(ars.pick(draws.next_u32())))
                .collect()
        }
        Brokering::Ads => {
            let mut ads =
                Billiard::<2>::new(&p, CLOUD).map_err(|e| anyhow!("ADS dispatch: {e}"))?;
            (0..n).map(|_| provider(ads.dispatch())).collect()
        }
    })
}
