//! Trace replay on one cluster: drives the kernel's [`Backfill`] scheduler through a job list
//! (an SWF trace or a generated one), optionally with node failures, and measures the result.
//!
//! # Semantics (README "Trace replay")
//! Jobs are taken in `(submit, id)` order. Time advances from one instant to the next at which
//! something happens (an arrival, a completion, a failure or a repair). At each instant, in
//! this order:
//! 1. every job whose run ends then completes (the kernel frees the unused rest of its estimate);
//! 2. every node failure of that instant: the job running on the node (if any) is interrupted and
//!    checkpointed, then the node goes down; then every repair;
//! 3. the arrivals of that instant are submitted, in `(submit, id)` order;
//! 4. one scheduling pass (the kernel's, by policy: see [`qosgate_kernel::backfill`]).
//!
//! A job runs for `min(run time, estimate)` (the SWF reader's `run`) and is planned with its
//! estimate. It occupies the lowest-numbered idle up nodes when it starts ([`crate::des::nodes`]),
//! and a failure hits the job on the failed node. An interrupted job resumes later with exactly
//! its remaining run time. Each run of a job on its nodes is a [`Placement`]. The kernel knows a
//! job by its index in `(submit, id)` order ([`Instant::jobs`]).
//!
//! Times are whole seconds here and microsecond ticks in the kernel
//! ([`qosgate_kernel::units::TICKS_PER_SECOND`]).
//!
//! # Capacity
//! The scheduler holds at most a given number of admitted and unfinished jobs (waiting or
//! running); a replay that needs more stops with a [`QueueFull`] error naming the job and the
//! instant. [`replay`] and [`replay_in`] build a scheduler of a compiled capacity ([`QUEUE`]
//! jobs, about 14 MB, or the caller's) and let the observer see it after every instant.
//! [`replay_limited`], what `qosgate backfill` runs, takes any limit up to [`MAX_QUEUE`] and
//! builds the smallest of its [`TIERS`] that the replay needs, so that a small trace costs a
//! small scheduler. Each is built in place on the heap (the kernel's `Backfill::init`), so the
//! replay runs on the calling thread.

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use anyhow::{Context, Result, ensure};
use qosgate_kernel::backfill::{Backfill, Handle, Job, JobId, Pass, Policy};
use qosgate_kernel::units::{Nodes, Ticks};
use serde::Serialize;

use crate::des::boxed::boxed;
use crate::des::nodes::{NodeError, NodeMap, NodeSet};
use crate::des::time::ticks_exact;
use crate::workload::swf;
use crate::workload::swf_schedule::Filled;

/// Admitted and unfinished jobs the replay scheduler holds at most, by default.
pub const QUEUE: usize = 1 << 16;
/// Distinct expected returns of failed nodes the replay's scheduler has room for at once
/// ([`Returns`]): one per node of a cluster of 64 that fail at different instants.
pub const RETURNS: usize = 64;
/// Breakpoints of its slot table (the kernel's minimum for [`QUEUE`], and room for
/// [`RETURNS`] expected returns).
pub const BREAKPOINTS: usize = 2 * QUEUE + 2 + RETURNS;
/// The replay's scheduler.
pub type Scheduler = Backfill<QUEUE, BREAKPOINTS>;
/// The largest capacity [`replay_limited`] takes.
pub const MAX_QUEUE: usize = 1 << 20;

/// A job arrived with the scheduler holding `capacity` admitted and unfinished jobs: the replay
/// needs a larger queue ([`replay_limited`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueueFull {
    /// The job's number.
    pub job: u64,
    /// Its submit time, seconds.
    pub at: u64,
    /// The queue's capacity, jobs.
    pub capacity: usize,
}

impl std::fmt::Display for QueueFull {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "job {} arrives at {} s with {} jobs waiting or running, the queue's capacity",
            self.job, self.at, self.capacity
        )
    }
}

impl std::error::Error for QueueFull {}

pub use crate::workload::failures::NodeEvent;

/// What the scheduler is told of a failed node's return: how its plan counts the node
/// ([`Backfill::node_down`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Returns {
    /// Nothing: a failed node is down until further notice, so no job holds a place that needs
    /// it, and a job that needs more nodes than are up has no reservation.
    Unknown,
    /// The failure model's mean unavailable interval, this many seconds (`>= 1`): a node is
    /// expected back that long after it fails and, while it is still down at its expected
    /// return, that long after each (the mean renewed: the scheduler knows only the mean).
    Mean(u64),
    /// The trace's own repair instant: the scheduler knows when each node comes back (an
    /// oracle, the most any prediction could tell it).
    Known,
}

/// A change of a node's state, in the order the replay applies them: `back` is the expected
/// return the scheduler is told, in seconds (`u64::MAX`: until further notice).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Change {
    at: u64,
    node: u32,
    kind: ChangeKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ChangeKind {
    /// The node fails, expected back at `back`.
    Fail { back: u64 },
    /// The node is still down at its expected return: expected back at `back` now.
    Overdue { back: u64 },
    /// The node comes back; `back` is the expected return it was last given.
    Repair { back: u64 },
}

/// The changes `failures` make under `returns`, in time order (within an instant, in the
/// failures' order, an expected return that passed first). A failure the trace never repairs
/// is down until further notice under every reading.
fn changes(failures: &[NodeEvent], returns: Returns) -> Vec<Change> {
    let mut sorted = failures.to_vec();
    sorted.sort();
    // The instant each failure is repaired: the node's next event, if it comes back then.
    let mut repair = vec![None; sorted.len()];
    let mut open: HashMap<u32, usize> = HashMap::new();
    for (i, e) in sorted.iter().enumerate() {
        if e.up {
            if let Some(d) = open.remove(&e.node) {
                repair[d] = Some(e.at);
            }
        } else {
            open.insert(e.node, i);
        }
    }
    let mut out = Vec::with_capacity(sorted.len());
    let mut last_back: HashMap<u32, u64> = HashMap::new();
    for (e, fixed) in sorted.iter().zip(repair) {
        let node = e.node;
        if e.up {
            let back = last_back.remove(&node).unwrap_or(u64::MAX);
            out.push(Change {
                at: e.at,
                node,
                kind: ChangeKind::Repair { back },
            });
            continue;
        }
        // The first expected return, and the last one the node is given before it is back.
        let (first, last) = match (returns, fixed) {
            (Returns::Unknown, _) | (_, None) => (u64::MAX, u64::MAX),
            (Returns::Known, Some(up)) => (up, up),
            (Returns::Mean(mean), Some(up)) => {
                let mean = mean.max(1);
                let first = e.at.saturating_add(mean);
                let mut back = first;
                while back < up {
                    let later = back.saturating_add(mean);
                    out.push(Change {
                        at: back,
                        node,
                        kind: ChangeKind::Overdue { back: later },
                    });
                    back = later;
                }
                (first, back)
            }
        };
        last_back.insert(node, last);
        out.push(Change {
            at: e.at,
            node,
            kind: ChangeKind::Fail { back: first },
        });
    }
    // Stable: an expected return pushed before its failure sorts after it only by time.
    out.sort_by_key(|c| (c.at, !matches!(c.kind, ChangeKind::Overdue { .. })));
    out
}

/// One scheduled job. Serialised in the outputs' vocabulary (docs/outputs.md): `job`,
/// `arrival`, `start`, `end`, `procs`, `run_s`, `estimate_s`, `interruptions`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Record {
    /// Job number.
    #[serde(rename = "job")]
    pub id: u64,
    /// Submit time, seconds.
    #[serde(rename = "arrival")]
    pub submit: u64,
    /// First start, seconds.
    pub start: u64,
    /// Completion, seconds.
    pub end: u64,
    /// Processors (nodes).
    pub procs: u32,
    /// Its run time, seconds (`end - start` without interruptions).
    #[serde(rename = "run_s")]
    pub run: u64,
    /// What the scheduler planned it with, seconds (`>= run`).
    #[serde(rename = "estimate_s")]
    pub estimate: u64,
    /// Times a failure interrupted it.
    pub interruptions: u32,
}

/// What a replay measured.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, serde::Deserialize)]
pub struct Summary {
    /// Jobs scheduled (all of them complete).
    pub jobs: u64,
    /// Sum of `procs × run` over `nodes × (last end − first submit)`.
    pub utilization: f64,
    /// Mean of `first start − submit`, seconds.
    #[serde(rename = "mean_wait_s", alias = "mean_wait")]
    pub mean_wait: f64,
    /// Mean bounded slowdown with a 10 s bound, javadi2012 Eq. 15:
    /// `(w + max(d, 10)) / max(d, 10)` with `w = end − submit − d`, `d` the run time.
    pub mean_bounded_slowdown: f64,
    /// Average weighted response time, javadi2012 Eq. 14: `Σ d v (end − submit) / Σ d v`,
    /// seconds.
    #[serde(rename = "awrt_s", alias = "awrt")]
    pub awrt: f64,
    /// Last completion, seconds.
    #[serde(rename = "makespan_s", alias = "makespan")]
    pub makespan: u64,
    /// Interruptions by failures.
    pub interruptions: u64,
}

/// Whether a replay names nodes ([`crate::des::nodes`]): what [`Outcome::placements`] and
/// the schedule files need, at a cost (about half the replay's time again in
/// `benches/replay.rs`, `replay/easy-named`).
/// A replay under failures always follows which node runs which job, since a failure hits one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Naming {
    /// Nodes are counted, as the kernel does; [`Outcome::placements`] is empty.
    Counted,
    /// Each run's nodes are named and recorded in [`Outcome::placements`].
    Named,
}

/// One run of a job on named nodes: a job has one per start (more than one only if failures
/// interrupted it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The job: its index in [`Outcome::records`].
    pub job: usize,
    /// Start of the run, seconds.
    pub start: u64,
    /// End of the run (the job's completion, or the failure that interrupted it), seconds.
    pub end: u64,
    /// The nodes it held, as many as the job's processors.
    pub nodes: NodeSet,
    /// Whether a failure ended it (else it completed the job).
    pub interrupted: bool,
}

/// A replay's result: one record per job in `(submit, id)` order, the runs on named nodes, and
/// the summary.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The jobs, in `(submit, id)` order.
    pub records: Vec<Record>,
    /// Every run of every job, in the order the runs ended (ties in the order of the jobs'
    /// records); a job's last one completed it. Empty unless the replay was [`Naming::Named`].
    pub placements: Vec<Placement>,
    /// Aggregates.
    pub summary: Summary,
}

impl Outcome {
    /// Every run on its named nodes, as a Gantt chart draws it (empty unless the replay was
    /// [`Naming::Named`]).
    pub fn gantt_runs(&self) -> Vec<crate::report::gantt::Run<'_>> {
        self.placements
            .iter()
            .map(|p| crate::report::gantt::Run {
                job: p.job,
                start: p.start as f64,
                end: p.end as f64,
                nodes: p.nodes.ranges(),
                interrupted: p.interrupted,
            })
            .collect()
    }

    /// What each job's line gets when the schedule is written back as SWF, by job number.
    pub fn swf_fields(&self) -> HashMap<u64, Filled> {
        self.records
            .iter()
            .map(|r| {
                let job = swf::Job {
                    id: r.id,
                    submit: r.submit,
                    run: r.run,
                    estimate: r.estimate,
                    procs: r.procs,
                };
                let wait = r.start - r.submit;
                (r.id, Filled { job, wait })
            })
            .collect()
    }
}

/// The bound of the bounded slowdown, seconds.
pub const SLOWDOWN_BOUND: u64 = 10;

/// What the observer sees after each instant's scheduling pass (`Q` and `B` are the
/// scheduler's capacities: [`QUEUE`] and [`BREAKPOINTS`] unless [`replay_in`] chose others).
pub struct Instant<'a, const Q: usize = QUEUE, const B: usize = BREAKPOINTS> {
    /// The instant, seconds.
    pub at: u64,
    /// The scheduler after the pass.
    pub scheduler: &'a Backfill<Q, B>,
    /// The jobs in `(submit, id)` order: the kernel's [`JobId`] of a job is its index here.
    pub jobs: &'a [swf::Job],
    /// What the pass did.
    pub pass: Pass,
}

fn ticks(secs: u64) -> Result<Ticks> {
    ticks_exact(secs).with_context(|| {
        format!(
            "{secs} s is beyond the kernel's clock ({} s): the schedule runs past it",
            u64::MAX / qosgate_kernel::units::TICKS_PER_SECOND
        )
    })
}

/// Replays `jobs` on `nodes` nodes under `policy`, with the node `failures` (empty for none),
/// naming nodes or not. Calls `observe` after every instant's pass.
///
/// Errors: a job wider than the cluster, a zero run time or estimate, a run time longer than
/// the estimate, a failure of an unknown,
/// already failed or already repaired node, a queue beyond [`QUEUE`] jobs, jobs left when no
/// event remains (failed nodes that never come back); each names the job or event and the
/// instant.
pub fn replay(
    jobs: &[swf::Job],
    policy: Policy,
    nodes: Nodes,
    failures: &[NodeEvent],
    naming: Naming,
    observe: impl FnMut(&Instant),
) -> Result<Outcome> {
    replay_in::<QUEUE, BREAKPOINTS>(
        jobs,
        policy,
        nodes,
        failures,
        Returns::Unknown,
        naming,
        observe,
    )
}

/// [`replay`] with a queue of `queue` admitted and unfinished jobs (`1 ..=` [`MAX_QUEUE`]): a
/// job arriving with `queue` jobs waiting or running stops the replay with [`QueueFull`].
///
/// The scheduler is sized to the replay, not to `queue`: it is built with the first capacity of
/// [`TIERS`] that holds twice the jobs waiting or running at once (so that the kernel's queue
/// rarely compacts), and the replay starts again with the next capacity when one does not: a
/// trace that never has more than a few hundred jobs in the system replays on a scheduler of
/// about 100 KiB, whatever `queue` allows. The replay is deterministic, so a restart changes
/// nothing but the time it takes. A long trace starts on a tier that holds at least one job in
/// 100 of its own, up to 4,096 jobs, since a restart late in it would repeat most of it.
///
/// Errors: `queue` out of range, and those of [`replay`].
pub fn replay_limited(
    jobs: &[swf::Job],
    policy: Policy,
    nodes: Nodes,
    failures: &[NodeEvent],
    queue: usize,
    naming: Naming,
) -> Result<Outcome> {
    ensure!(
        (1..=MAX_QUEUE).contains(&queue),
        "a queue of {queue} jobs: it must hold 1 to {MAX_QUEUE}"
    );
    macro_rules! on_tier {
        ($tier:expr, $room:expr) => {
            Driver::<{ $tier }, { 2 * $tier + 2 }>::run(
                jobs,
                policy,
                nodes,
                (failures, Returns::Unknown),
                Limits { queue, room: $room },
                naming,
                |_| {},
            )
        };
    }
    // A restart late in a long trace repeats most of it: long traces start on a tier that
    // holds one job in JOBS_PER_HELD of theirs.
    let mut needed = (jobs.len() / JOBS_PER_HELD).min(FIRST_ROOM).min(queue);
    for tier in TIERS {
        if tier / 2 < needed && tier != TIER_6 {
            continue;
        }
        // A tier that holds `queue` jobs twice over is the last one needed.
        let room = (tier / 2 < queue).then_some(tier / 2);
        let outcome = match tier {
            TIER_0 => on_tier!(TIER_0, room),
            TIER_1 => on_tier!(TIER_1, room),
            TIER_2 => on_tier!(TIER_2, room),
            TIER_3 => on_tier!(TIER_3, room),
            TIER_4 => on_tier!(TIER_4, room),
            TIER_5 => on_tier!(TIER_5, room),
            _ => on_tier!(TIER_6, room),
        };
        match outcome.map_err(|e| e.downcast::<Outgrown>()) {
            Err(Ok(outgrown)) => needed = outgrown.projected.min(queue),
            Err(Err(e)) => return Err(e),
            Ok(done) => return Ok(done),
        }
    }
    // The last tier holds MAX_QUEUE jobs twice over: never outgrown.
    Err(Outgrown { projected: needed }.into())
}

/// [`replay_limited`] starts on a tier that holds at least one job in this many of the trace's.
const JOBS_PER_HELD: usize = 100;
/// ... up to this many held jobs: a trace that holds more finds out, and starts again on the
/// tier it needs, early enough, while a long trace that holds few stays on a small tier.
const FIRST_ROOM: usize = TIER_2 / 2;

const TIER_0: usize = 1 << 9;
const TIER_1: usize = 1 << 11;
const TIER_2: usize = 1 << 13;
const TIER_3: usize = 1 << 15;
const TIER_4: usize = 1 << 17;
const TIER_5: usize = 1 << 19;
const TIER_6: usize = 2 * MAX_QUEUE;

/// The capacities [`replay_limited`] builds its scheduler with, smallest first (about 212
/// bytes a job: 110 KiB to 445 MiB).
pub const TIERS: [usize; 7] = [TIER_0, TIER_1, TIER_2, TIER_3, TIER_4, TIER_5, TIER_6];

/// A replay needs a larger tier: more jobs waiting or running than half its capacity.
#[derive(Debug, Clone, Copy)]
struct Outgrown {
    /// The held jobs, scaled from the part of the trace replayed to all of it (the next tier
    /// holds twice this, if one does).
    projected: usize,
}

impl std::fmt::Display for Outgrown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the scheduler's capacity was outgrown")
    }
}

impl std::error::Error for Outgrown {}

/// [`replay`] with a scheduler of `Q` admitted jobs and `B` breakpoints (`B >= 2 Q + 2`):
/// smaller ones are cheaper to build, for small traces and tests; and with what the scheduler
/// is told of a failed node's return (`returns`: [`replay`] tells it nothing). A scheduler
/// told of returns needs room for the distinct ones pending at once: `B - (2 Q + 2)` of them
/// ([`RETURNS`] in [`BREAKPOINTS`]).
///
/// Errors: those of [`replay`], with `Q` for [`QUEUE`]; more distinct expected returns pending
/// at once than the scheduler has room for.
pub fn replay_in<const Q: usize, const B: usize>(
    jobs: &[swf::Job],
    policy: Policy,
    nodes: Nodes,
    failures: &[NodeEvent],
    returns: Returns,
    naming: Naming,
    observe: impl FnMut(&Instant<Q, B>),
) -> Result<Outcome> {
    let limits = Limits {
        queue: Q,
        room: None,
    };
    Driver::<Q, B>::run(
        jobs,
        policy,
        nodes,
        (failures, returns),
        limits,
        naming,
        observe,
    )
}

/// A job's state in the driver under failures (its first start is in its [`Record`]).
#[derive(Clone, Copy)]
struct Progress {
    /// Seconds of its run still to go.
    left: u64,
    /// Start of the current run, seconds.
    since: u64,
    /// Starts so far: a completion event carries the count it was scheduled under.
    starts: u32,
    handle: Option<Handle>,
}

/// A run's planned completion in the driver: ordered by `(end, job, starts)`, which no two
/// runs share.
#[derive(Clone, Copy)]
struct Ending {
    /// The instant the run ends, seconds.
    end: u64,
    /// The job, by index.
    job: usize,
    /// The job's starts when this run began: under failures, a completion whose count is not
    /// the job's is stale.
    starts: u32,
    /// To complete it.
    handle: Handle,
}

impl Ending {
    fn key(&self) -> (u64, usize, u32) {
        (self.end, self.job, self.starts)
    }
}

impl PartialEq for Ending {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Ending {}

impl PartialOrd for Ending {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ending {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

/// How many jobs a replay holds (waiting or running) at most.
#[derive(Debug, Clone, Copy)]
struct Limits {
    /// A job arriving with this many held stops the replay with [`QueueFull`].
    queue: usize,
    /// Held jobs at which the replay gives up with [`Outgrown`] (a larger tier is needed).
    room: Option<usize>,
}

/// The replay's state, with the scheduler it drives.
struct Driver<'a, const Q: usize, const B: usize> {
    sched: Box<Backfill<Q, B>>,
    /// The jobs in `(submit, id)` order: a job's index here is its kernel id.
    jobs: &'a [swf::Job],
    /// Held jobs (waiting or running) at which the replay gives up with [`Outgrown`].
    room: Option<usize>,
    /// One per job, by index, under failures only: without them a job runs once, for its whole
    /// run from its first start, and no completion is stale, so the records say it all (and a
    /// long trace saves the memory).
    progress: Option<Vec<Progress>>,
    /// Which job holds which node: `None` when nodes are only counted (no failures, and
    /// [`Naming::Counted`]).
    nodes: Option<NodeMap>,
    /// The runs ended so far ([`Naming::Named`] only).
    placements: Option<Vec<Placement>>,
    /// Completions, the earliest first.
    ends: BinaryHeap<Reverse<Ending>>,
    /// One per job, by index; `start` is the first start once the job has started.
    records: Vec<Record>,
    sums: Sums,
    interruptions: u64,
    /// Admitted and unfinished jobs at most.
    queue: usize,
}

impl<const Q: usize, const B: usize> Driver<'_, Q, B> {
    /// The replay on a scheduler of `Q` jobs, admitting at most `limits.queue.min(Q)` at once,
    /// and giving up with [`Outgrown`] once `limits.room` are held.
    fn run(
        jobs: &[swf::Job],
        policy: Policy,
        nodes: Nodes,
        (failures, returns): (&[NodeEvent], Returns),
        limits: Limits,
        naming: Naming,
        mut observe: impl FnMut(&Instant<Q, B>),
    ) -> Result<Outcome> {
        let key = |j: &swf::Job| (j.submit, j.id);
        // The SWF reader's jobs are in order already: copied only if they are not.
        let sorted: Cow<[swf::Job]> = if jobs.is_sorted_by_key(key) {
            Cow::Borrowed(jobs)
        } else {
            let mut sorted = jobs.to_vec();
            sorted.sort_by_key(key);
            Cow::Owned(sorted)
        };
        let sorted = &*sorted;
        let changes = changes(failures, returns);
        let sched = boxed(|slot| Backfill::<Q, B>::init(slot, policy, nodes))
            .context("a cluster needs nodes")?;
        let mut d = Driver {
            sched,
            jobs: sorted,
            room: limits.room,
            progress: (!failures.is_empty()).then(|| {
                sorted
                    .iter()
                    .map(|j| Progress {
                        left: j.run,
                        since: 0,
                        starts: 0,
                        handle: None,
                    })
                    .collect()
            }),
            nodes: (naming == Naming::Named || !failures.is_empty()).then(|| NodeMap::new(nodes)),
            placements: (naming == Naming::Named).then(|| Vec::with_capacity(sorted.len())),
            ends: BinaryHeap::new(),
            records: sorted
                .iter()
                .map(|j| Record {
                    id: j.id,
                    submit: j.submit,
                    start: 0,
                    end: 0,
                    procs: j.procs,
                    run: j.run,
                    estimate: j.estimate,
                    interruptions: 0,
                })
                .collect(),
            sums: Sums::default(),
            interruptions: 0,
            queue: limits.queue.min(Q),
        };
        let (mut next_job, mut next_change) = (0, 0);
        let mut started = Vec::new();
        loop {
            let candidates = [
                sorted.get(next_job).map(|j| j.submit),
                d.ends.peek().map(|Reverse(e)| e.end),
                changes.get(next_change).map(|c| c.at),
            ];
            let Some(now) = candidates.into_iter().flatten().min() else {
                break;
            };
            let t = ticks(now)?;
            d.complete(now, t)?;
            while let Some(c) = changes.get(next_change).filter(|c| c.at == now) {
                d.node_change(*c, t)?;
                next_change += 1;
            }
            while sorted.get(next_job).is_some_and(|j| j.submit == now) {
                d.submit(next_job, t)?;
                next_job += 1;
            }
            let pass = d
                .sched
                .schedule(t, |s| started.push(s.handle))
                .map_err(|e| anyhow::anyhow!("scheduling at {now} s: {e}"))?;
            for handle in started.drain(..) {
                d.started(now, handle)?;
            }
            observe(&Instant {
                at: now,
                scheduler: &d.sched,
                jobs: sorted,
                pass,
            });
        }
        let waiting = d.sched.waiting().len() + d.sched.running_len();
        ensure!(
            waiting == 0,
            "{waiting} jobs never completed: not enough nodes came back after the failures"
        );
        Ok(d.finish(nodes))
    }

    fn complete(&mut self, now: u64, t: Ticks) -> Result<()> {
        while let Some(&Reverse(e)) = self.ends.peek() {
            if e.end != now {
                break;
            }
            self.ends.pop();
            let starts = match &mut self.progress {
                Some(progress) => {
                    let p = &mut progress[e.job];
                    // An interrupted run's completion is stale.
                    if p.starts != e.starts || p.handle.is_none() {
                        continue;
                    }
                    p.handle = None;
                    p.starts
                }
                None => e.starts,
            };
            self.sched.complete(t, e.handle).map_err(|err| {
                anyhow::anyhow!("completing job {} at {now} s: {err}", self.jobs[e.job].id)
            })?;
            self.end_run(e.job, now, false);
            let r = &mut self.records[e.job];
            r.end = now;
            r.interruptions = starts.saturating_sub(1);
            self.sums.add(r);
        }
        Ok(())
    }

    fn node_change(&mut self, c: Change, t: Ticks) -> Result<()> {
        let back = |secs: u64| {
            if secs == u64::MAX {
                Ok(Ticks::MAX)
            } else {
                ticks(secs)
            }
        };
        let up = matches!(c.kind, ChangeKind::Repair { .. });
        // Failures always name nodes (`Driver::run`).
        let owner = self.nodes.as_ref().and_then(|m| m.owner(c.node));
        if let (ChangeKind::Fail { .. }, Some(i)) = (c.kind, owner) {
            let progress = self
                .progress
                .as_mut()
                .context("failures without progress")?;
            let p = &mut progress[i];
            let handle = p.handle.take().context("a node's job is not running")?;
            self.sched.interrupt(t, handle).map_err(|e| {
                anyhow::anyhow!("interrupting job {} at {} s: {e}", self.jobs[i].id, c.at)
            })?;
            p.left -= c.at - p.since;
            self.interruptions += 1;
            self.end_run(i, c.at, true);
        }
        let map = self
            .nodes
            .as_mut()
            .context("failures without named nodes")?;
        if !matches!(c.kind, ChangeKind::Overdue { .. }) {
            map.set_up(c.node, up).map_err(|e| match e {
                NodeError::Unknown => anyhow::anyhow!(
                    "node {} of a failure at {} s does not exist ({} nodes)",
                    c.node,
                    c.at,
                    map.count()
                ),
                NodeError::AlreadyThere => anyhow::anyhow!(
                    "node {} {} at {} s, but it already is",
                    c.node,
                    if up { "comes back" } else { "fails" },
                    c.at
                ),
            })?;
        }
        let (what, changed) = match c.kind {
            ChangeKind::Fail { back: b } => ("failing", self.sched.node_down(t, 1, back(b)?)),
            ChangeKind::Overdue { back: b } => {
                ("expecting later", self.sched.node_down(t, 1, back(b)?))
            }
            ChangeKind::Repair { back: b } => ("repairing", self.sched.node_up(t, 1, back(b)?)),
        };
        changed.map_err(|e| anyhow::anyhow!("{what} node {} at {} s: {e}", c.node, c.at))
    }

    /// Job `i`'s run ends at `now` (`interrupted`: by a failure): its nodes are given back and
    /// the run is recorded.
    fn end_run(&mut self, i: usize, now: u64, interrupted: bool) {
        let Some(map) = &mut self.nodes else {
            return;
        };
        let nodes = map.give_back(i);
        let start = self.since(i);
        if let Some(placements) = &mut self.placements {
            placements.push(Placement {
                job: i,
                start,
                end: now,
                nodes,
                interrupted,
            });
        }
    }

    fn submit(&mut self, i: usize, t: Ticks) -> Result<()> {
        let j = self.jobs[i];
        ensure!(j.run > 0, "job {} has no run time", j.id);
        // The kernel plans a job to end by its estimate and gives its nodes to others from
        // then on: a longer run would hold nodes the plan has given away.
        ensure!(
            j.run <= j.estimate,
            "job {} runs {} s, past its estimate of {} s (a job runs at most its estimate: the \
             SWF reader cuts it)",
            j.id,
            j.run,
            j.estimate
        );
        let held = self.sched.waiting().len() + self.sched.running_len();
        if held >= self.queue {
            return Err(QueueFull {
                job: j.id,
                at: j.submit,
                capacity: self.queue,
            }
            .into());
        }
        if self.room.is_some_and(|room| held >= room) {
            // At the rate the held jobs grew so far, the most the whole trace will hold.
            let projected = held.saturating_mul(self.jobs.len()) / (i + 1);
            return Err(Outgrown { projected }.into());
        }
        let job = Job {
            id: JobId::new(i as u64),
            submit: t,
            nodes: j.procs,
            estimate: ticks(j.estimate)?,
        };
        self.sched.submit(t, job).map_err(|r| {
            anyhow::anyhow!(
                "job {} ({} procs, estimate {} s) refused at {} s: {}",
                j.id,
                j.procs,
                j.estimate,
                j.submit,
                r.reason
            )
        })
    }

    /// Start of job `i`'s current run, seconds.
    fn since(&self, i: usize) -> u64 {
        match &self.progress {
            Some(progress) => progress[i].since,
            None => self.records[i].start,
        }
    }

    fn started(&mut self, now: u64, handle: Handle) -> Result<()> {
        let i = usize::try_from(handle.id().get())
            .ok()
            .filter(|&i| i < self.jobs.len())
            .context("the scheduler started an unknown job")?;
        let j = self.jobs[i];
        let (starts, left) = match &mut self.progress {
            Some(progress) => {
                let p = &mut progress[i];
                p.starts += 1;
                p.since = now;
                p.handle = Some(handle);
                (p.starts, p.left)
            }
            None => (1, j.run),
        };
        if starts == 1 {
            self.records[i].start = now;
        }
        self.ends.push(Reverse(Ending {
            end: now + left,
            job: i,
            starts,
            handle,
        }));
        if let Some(map) = &mut self.nodes {
            let idle = map.idle();
            ensure!(
                map.take(i, j.procs).is_some(),
                "job {} started at {now} s with {idle} idle nodes for {}",
                j.id,
                j.procs
            );
        }
        Ok(())
    }

    fn finish(self, nodes: Nodes) -> Outcome {
        let s = &self.sums;
        let n = s.jobs as f64;
        let first = s.first_submit.unwrap_or(0);
        let span = (s.makespan - first) as f64 * nodes as f64;
        let mean = |sum: f64| if s.jobs == 0 { 0.0 } else { sum / n };
        let summary = Summary {
            jobs: s.jobs,
            utilization: if span > 0.0 { s.area / span } else { 0.0 },
            mean_wait: mean(s.wait),
            mean_bounded_slowdown: mean(s.bounded_slowdown),
            awrt: if s.area > 0.0 {
                s.weighted_response / s.area
            } else {
                0.0
            },
            makespan: s.makespan,
            interruptions: self.interruptions,
        };
        Outcome {
            records: self.records,
            placements: self.placements.unwrap_or_default(),
            summary,
        }
    }
}

/// The summary's sums over the completed jobs, taken in the order they complete (a
/// floating-point sum depends on its order: this one is the replay's, whatever order the
/// records are kept in).
#[derive(Default)]
struct Sums {
    jobs: u64,
    first_submit: Option<u64>,
    makespan: u64,
    /// `Σ procs × run`, node-seconds.
    area: f64,
    /// `Σ (first start − submit)`, seconds.
    wait: f64,
    /// `Σ` bounded slowdown ([`Summary::mean_bounded_slowdown`]).
    bounded_slowdown: f64,
    /// `Σ procs × run × (end − submit)`.
    weighted_response: f64,
}

impl Sums {
    fn add(&mut self, r: &Record) {
        self.jobs += 1;
        self.first_submit = Some(self.first_submit.map_or(r.submit, |f| f.min(r.submit)));
        self.makespan = self.makespan.max(r.end);
        let area = r.procs as f64 * r.run as f64;
        self.area += area;
        self.wait += (r.start - r.submit) as f64;
        let d = r.run.max(SLOWDOWN_BOUND) as f64;
        self.bounded_slowdown += ((r.end - r.submit - r.run) as f64 + d) / d;
        self.weighted_response += area * (r.end - r.submit) as f64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(at: u64, node: u32, up: bool) -> NodeEvent {
        NodeEvent { at, node, up }
    }

    /// Node 0 is down over [10, 100), node 1 over [20, 35), node 2 from 50 for good. Told
    /// nothing, every failure is until further notice; told the returns, each failure names its
    /// repair; told a mean of 30 s, node 0 is expected at 40, then 70, then 100 (on time), node 1
    /// at 50 (it comes back early, at 35), and the node never repaired is until further notice.
    /// The repair always names the last return the node was given.
    #[test]
    fn each_reading_tells_the_scheduler_its_returns() {
        let failures = [
            event(10, 0, false),
            event(100, 0, true),
            event(20, 1, false),
            event(35, 1, true),
            event(50, 2, false),
        ];
        let kinds = |returns| -> Vec<(u64, u32, ChangeKind)> {
            changes(&failures, returns)
                .into_iter()
                .map(|c| (c.at, c.node, c.kind))
                .collect()
        };
        use ChangeKind::{Fail, Overdue, Repair};
        let never = u64::MAX;
        assert_eq!(
            kinds(Returns::Unknown),
            [
                (10, 0, Fail { back: never }),
                (20, 1, Fail { back: never }),
                (35, 1, Repair { back: never }),
                (50, 2, Fail { back: never }),
                (100, 0, Repair { back: never }),
            ]
        );
        assert_eq!(
            kinds(Returns::Known),
            [
                (10, 0, Fail { back: 100 }),
                (20, 1, Fail { back: 35 }),
                (35, 1, Repair { back: 35 }),
                (50, 2, Fail { back: never }),
                (100, 0, Repair { back: 100 }),
            ]
        );
        assert_eq!(
            kinds(Returns::Mean(30)),
            [
                (10, 0, Fail { back: 40 }),
                (20, 1, Fail { back: 50 }),
                (35, 1, Repair { back: 50 }),
                (40, 0, Overdue { back: 70 }),
                (50, 2, Fail { back: never }),
                (70, 0, Overdue { back: 100 }),
                (100, 0, Repair { back: 100 }),
            ]
        );
    }
}
