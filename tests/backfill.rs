//! Trace replay (`harness/src/models/cluster/replay.rs`) through the backfilling kernel
//! (`kernel/src/backfill/`, whose own unit tests are in `kernel/tests/backfill.rs`).
//!
//! - `replay_matches_the_reference_model`: random job sets replayed under each policy give
//!   exactly the start times of an independent, per-second model of the rules. The model
//!   states EASY's rule literally (a later job may start now if it ends by the head's reserved
//!   start or leaves the head enough nodes at that start), where the kernel keeps the head's
//!   reservation in its profile and asks "fits now": the test shows the two agree.
//! - `replay_keeps_every_promise`: on the same job sets, without the model: every job starts once,
//!   after its submit, and ends after exactly its run time; no more nodes are in use than exist;
//!   conservative never moves a reservation later; EASY never moves the head's start later.
//! - `failures_checkpoint_and_resume_exactly`: random node failures and repairs: every job runs
//!   for exactly its run time in total, however often it is interrupted; nodes in use plus nodes
//!   down never exceed the cluster; the accounts add up at every instant.
//! - The real traces (the committed cut-downs, and the full traces when `QOSGATE_TRACES` names
//!   them) under every policy, and the replay's error messages.

use std::collections::HashMap;
use std::path::Path;

use fixed::types::U16F16;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use qosgate_harness::models::cluster::replay::{self, Naming, NodeEvent, Outcome, Returns};
use qosgate_harness::workload::{swf, swf_schedule};
use qosgate_kernel::backfill::{JobId, Policy};
use qosgate_kernel::units::Ticks;
use qosgate_testkit::traces::{fixture, full_traces};

/// 256 cases per property, or `PROPTEST_CASES` for a deeper run.
fn cases() -> u32 {
    qosgate_testkit::proptest_cases(256)
}

/// Selective thresholds of the tests, as (numerator, denominator) and as the kernel's fixed point.
const THRESHOLDS: [(u64, u64); 3] = [(1, 1), (3, 2), (3, 1)];

fn policy(which: usize) -> Policy {
    match which {
        0 => Policy::Fcfs,
        1 => Policy::Easy,
        2 => Policy::Conservative,
        k => {
            let (num, den) = THRESHOLDS[(k - 3) % THRESHOLDS.len()];
            Policy::Selective(U16F16::from_num(num) / U16F16::from_num(den))
        }
    }
}

/// The per-second reference model of the replay rules.
struct Model<'a> {
    jobs: &'a [swf::Job],
    nodes: i64,
    /// (job index, start, planned end, actual end).
    running: Vec<(usize, u64, u64, u64)>,
    /// (job index, reservation start).
    waiting: Vec<(usize, Option<u64>)>,
}

impl Model<'_> {
    fn used(&self, t: u64) -> i64 {
        let run: i64 = self
            .running
            .iter()
            .filter(|r| r.1 <= t && t < r.2)
            .map(|r| i64::from(self.jobs[r.0].procs))
            .sum();
        let res: i64 = self
            .waiting
            .iter()
            .filter_map(|&(i, s)| s.map(|s| (i, s)))
            .filter(|&(i, s)| s <= t && t < s + self.jobs[i].estimate)
            .map(|(i, _)| i64::from(self.jobs[i].procs))
            .sum();
        run + res
    }

    fn free(&self, t: u64) -> i64 {
        self.nodes - self.used(t)
    }

    fn fits(&self, s: u64, i: usize) -> bool {
        let j = &self.jobs[i];
        (s..s + j.estimate).all(|t| self.free(t) >= i64::from(j.procs))
    }

    fn earliest(&self, from: u64, i: usize) -> u64 {
        (from..).find(|&s| self.fits(s, i)).unwrap_or(from)
    }

    fn start(&mut self, k: usize, now: u64, starts: &mut HashMap<u64, u64>) {
        let (i, _) = self.waiting.remove(k);
        let j = &self.jobs[i];
        self.running.push((i, now, now + j.estimate, now + j.run));
        starts.insert(j.id, now);
    }

    /// Start time of every job under `policy`.
    fn run(jobs: &[swf::Job], nodes: u32, policy: Policy) -> HashMap<u64, u64> {
        let mut m = Model {
            jobs,
            nodes: i64::from(nodes),
            running: Vec::new(),
            waiting: Vec::new(),
        };
        let mut order: Vec<usize> = (0..jobs.len()).collect();
        order.sort_by_key(|&i| (jobs[i].submit, jobs[i].id));
        let mut next = 0;
        let mut starts = HashMap::new();
        while next < order.len() || !m.running.is_empty() {
            let now = order
                .get(next)
                .map(|&i| jobs[i].submit)
                .into_iter()
                .chain(m.running.iter().map(|r| r.3))
                .min()
                .unwrap();
            // 1. Completions.
            let before = m.running.len();
            m.running.retain(|r| r.3 != now);
            let completed = m.running.len() < before;
            // 2. Re-placement.
            let reserving = matches!(policy, Policy::Conservative | Policy::Selective(_));
            if completed && reserving {
                for k in 0..m.waiting.len() {
                    if let (i, Some(old)) = m.waiting[k] {
                        m.waiting[k].1 = None;
                        let new = m.earliest(now, i);
                        assert!(new <= old, "the model moved a reservation later");
                        m.waiting[k].1 = Some(new);
                    }
                }
            }
            // 3. Arrivals.
            while let Some(&i) = order.get(next).filter(|&&i| jobs[i].submit == now) {
                let res = (policy == Policy::Conservative).then(|| m.earliest(now, i));
                m.waiting.push((i, res));
                next += 1;
            }
            // 4. The pass.
            match policy {
                Policy::Fcfs | Policy::Easy => {
                    while !m.waiting.is_empty() && m.fits(now, m.waiting[0].0) {
                        m.start(0, now, &mut starts);
                    }
                    if policy == Policy::Easy && !m.waiting.is_empty() {
                        let head = m.waiting[0].0;
                        let mut k = 1;
                        while k < m.waiting.len() {
                            let i = m.waiting[k].0;
                            let shadow = m.earliest(now, head);
                            let extra = m.free(shadow) - i64::from(jobs[head].procs);
                            let ends_before = now + jobs[i].estimate <= shadow;
                            let leaves_enough = i64::from(jobs[i].procs) <= extra;
                            if m.fits(now, i) && (ends_before || leaves_enough) {
                                m.start(k, now, &mut starts);
                            } else {
                                k += 1;
                            }
                        }
                    }
                }
                Policy::Conservative => {
                    let mut k = 0;
                    while k < m.waiting.len() {
                        if m.waiting[k].1 == Some(now) {
                            m.start(k, now, &mut starts);
                        } else {
                            k += 1;
                        }
                    }
                }
                Policy::Selective(threshold) => {
                    for k in 0..m.waiting.len() {
                        let i = m.waiting[k].0;
                        let (wait, est) = (now - jobs[i].submit, jobs[i].estimate);
                        let (num, den) = THRESHOLDS
                            .into_iter()
                            .find(|&(n, d)| U16F16::from_num(n) / U16F16::from_num(d) == threshold)
                            .unwrap();
                        if m.waiting[k].1.is_none() && (wait + est) * den >= num * est {
                            m.waiting[k].1 = Some(m.earliest(now, i));
                        }
                    }
                    let mut k = 0;
                    while k < m.waiting.len() {
                        let (i, res) = m.waiting[k];
                        let go = match res {
                            Some(s) => s == now,
                            None => m.fits(now, i),
                        };
                        if go {
                            m.start(k, now, &mut starts);
                        } else {
                            k += 1;
                        }
                    }
                }
            }
        }
        starts
    }
}

/// Capacities of the tests' scheduler: every random job set fits (at most 12 jobs).
const Q: usize = 16;
const B: usize = 2 * Q + 2;

fn replay_small(
    jobs: &[swf::Job],
    policy: Policy,
    nodes: u32,
    failures: &[NodeEvent],
    observe: impl FnMut(&replay::Instant<Q, B>) + Send,
) -> Outcome {
    replay::replay_in::<Q, B>(
        jobs,
        policy,
        nodes,
        failures,
        Returns::Unknown,
        Naming::Named,
        observe,
    )
    .unwrap()
}

/// Random job sets on a small cluster: `(nodes, jobs)`.
fn job_set() -> impl Strategy<Value = (u32, Vec<swf::Job>)> {
    (1u32..=8).prop_flat_map(|nodes| {
        let job = (0u64..30, 1u64..=10, 0u64..=10, 1..=nodes);
        (
            Just(nodes),
            prop::collection::vec(job, 1..=12).prop_map(|v| {
                v.into_iter()
                    .enumerate()
                    .map(|(k, (submit, run, slack, procs))| swf::Job {
                        // Ids out of submit order, so that ties are broken by id.
                        id: (k as u64 * 7) % 13,
                        submit,
                        run,
                        estimate: run + slack,
                        procs,
                    })
                    .collect()
            }),
        )
    })
}

fn distinct_ids(jobs: &mut [swf::Job]) {
    for (k, j) in jobs.iter_mut().enumerate() {
        j.id = j.id * 100 + k as u64;
    }
}

/// Checks what every replay must satisfy, whatever the policy: one record per job, start after
/// submit, end after exactly the run time (without failures), at most `nodes` nodes in use.
fn check_records(jobs: &[swf::Job], nodes: u32, out: &Outcome) -> Result<(), TestCaseError> {
    prop_assert_eq!(out.records.len(), jobs.len());
    let by_id: HashMap<u64, &swf::Job> = jobs.iter().map(|j| (j.id, j)).collect();
    for r in &out.records {
        let j = by_id[&r.id];
        prop_assert!(r.start >= j.submit, "job {} starts before its submit", r.id);
        prop_assert_eq!(
            r.end - r.start,
            j.run,
            "job {} ran for the wrong time",
            r.id
        );
    }
    let mut edges: Vec<(u64, i64)> = out
        .records
        .iter()
        .flat_map(|r| [(r.start, i64::from(r.procs)), (r.end, -i64::from(r.procs))])
        .collect();
    edges.sort_by_key(|&(t, d)| (t, d));
    let mut used = 0;
    for (t, d) in edges {
        used += d;
        prop_assert!(used <= i64::from(nodes), "{used} nodes in use at {t}");
    }
    check_placements(nodes, &[], out)
}

/// The runs on named nodes (`harness/src/des/nodes.rs`): each holds as many
/// distinct nodes of the cluster as its job's processors; no node is held by two runs at once,
/// nor while it is down under `failures`; a job's runs add up to its run time, the last
/// completes it and the others were interrupted (one per interruption).
fn check_placements(
    nodes: u32,
    failures: &[NodeEvent],
    out: &Outcome,
) -> Result<(), TestCaseError> {
    // Per node: the intervals it is held, and those it is down.
    let mut held: HashMap<u32, Vec<(u64, u64)>> = HashMap::new();
    let mut runs: HashMap<usize, Vec<&replay::Placement>> = HashMap::new();
    for p in &out.placements {
        let r = &out.records[p.job];
        prop_assert_eq!(p.nodes.len(), r.procs, "job {} holds the wrong count", r.id);
        for n in p.nodes.nodes() {
            prop_assert!(n < nodes, "job {} holds node {n} of {nodes}", r.id);
            held.entry(n).or_default().push((p.start, p.end));
        }
        runs.entry(p.job).or_default().push(p);
    }
    for (n, mut spans) in held {
        spans.sort_unstable();
        for w in spans.windows(2) {
            prop_assert!(
                w[0].1 <= w[1].0,
                "node {n} held twice: {:?} and {:?}",
                w[0],
                w[1]
            );
        }
        let mut down_since = None;
        for f in failures.iter().filter(|f| f.node == n) {
            match (f.up, down_since.take()) {
                (false, _) => down_since = Some(f.at),
                (true, Some(from)) => {
                    for &(s, e) in &spans {
                        prop_assert!(e <= from || s >= f.at, "node {n} held while down");
                    }
                }
                (true, None) => {}
            }
        }
    }
    for (i, r) in out.records.iter().enumerate() {
        let mine = runs.remove(&i).unwrap_or_default();
        prop_assert_eq!(
            mine.len() as u32,
            r.interruptions + 1,
            "job {}'s runs",
            r.id
        );
        let (last, before) = mine.split_last().expect("at least one run");
        prop_assert!(
            !last.interrupted && last.end == r.end,
            "job {}'s last run",
            r.id
        );
        prop_assert!(before.iter().all(|p| p.interrupted), "job {}'s runs", r.id);
        let ran: u64 = mine.iter().map(|p| p.end - p.start).sum();
        prop_assert_eq!(ran, r.run, "job {} ran for the wrong time", r.id);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn replay_matches_the_reference_model((nodes, mut jobs) in job_set(), which in 0usize..6) {
        distinct_ids(&mut jobs);
        let policy = policy(which);
        let out = replay_small(&jobs, policy, nodes, &[], |_| {});
        let model = Model::run(&jobs, nodes, policy);
        for r in &out.records {
            prop_assert_eq!(r.start, model[&r.id], "job {} under {:?}", r.id, policy);
        }
    }

    #[test]
    fn replay_keeps_every_promise((nodes, mut jobs) in job_set(), which in 0usize..6) {
        distinct_ids(&mut jobs);
        let policy = policy(which);
        let mut reserved: HashMap<JobId, Ticks> = HashMap::new();
        let mut head: Option<(JobId, Ticks)> = None;
        let mut broken: Vec<String> = Vec::new();
        let out = replay_small(&jobs, policy, nodes, &[], |at| {
            let s = at.scheduler;
            for w in s.waiting() {
                if let Some(start) = w.reservation {
                    if let Some(&old) = reserved.get(&w.job.id)
                        && start > old
                    {
                        broken.push(format!("job {} moved from {old} to {start}", w.job.id));
                    }
                    reserved.insert(w.job.id, start);
                }
            }
            // The head's earliest start in the profile after the pass (what EASY protects).
            let now = Ticks::from_secs(at.at);
            let fit = s.waiting().first().and_then(|w| {
                let fit = s.table().earliest_fit(now, w.job.nodes, w.job.estimate);
                fit.ok().flatten().map(|t| (w.job.id, t))
            });
            if let (Some((id, t)), Some((old_id, old))) = (fit, head)
                && policy == Policy::Easy
                && id == old_id
                && t > old
            {
                broken.push(format!("head {id} moved from {old} to {t}"));
            }
            if at.pass.head.is_some() && at.pass.head != fit {
                broken.push(format!("pass reports head {:?}, profile {:?}", at.pass.head, fit));
            }
            head = fit;
            let a = s.accounts();
            let held = (s.waiting().len() + s.running_len()) as u64;
            if a.submitted != held + a.completed + a.cancelled {
                broken.push(format!("accounts {a:?} with {held} held"));
            }
        });
        prop_assert!(broken.is_empty(), "{:?}", broken);
        check_records(&jobs, nodes, &out)?;
    }

    #[test]
    fn failures_checkpoint_and_resume_exactly(
        (nodes, mut jobs) in job_set(),
        which in 0usize..6,
        outages in prop::collection::vec((0u64..60, 1u64..15, 0u32..8), 0..6),
    ) {
        distinct_ids(&mut jobs);
        let policy = policy(which);
        // Each outage takes one node down for a while; overlapping outages of a node merge away.
        let mut failures = Vec::new();
        let mut busy_until: HashMap<u32, u64> = HashMap::new();
        let mut sorted = outages.clone();
        sorted.sort();
        for (at, len, node) in sorted {
            let node = node % nodes;
            if busy_until.get(&node).is_some_and(|&u| u >= at) {
                continue;
            }
            failures.push(NodeEvent { at, node, up: false });
            failures.push(NodeEvent { at: at + len, node, up: true });
            busy_until.insert(node, at + len);
        }
        let mut ran: HashMap<u64, u64> = HashMap::new();
        let mut last: Option<(u64, Vec<u64>)> = None;
        let mut broken: Vec<String> = Vec::new();
        let out = replay_small(&jobs, policy, nodes, &failures, |at| {
            let s = at.scheduler;
            if let Some((t, running)) = last.take() {
                for id in running {
                    *ran.entry(id).or_default() += at.at - t;
                }
            }
            let in_use: u32 = s.running().map(|(_, r)| r.job.nodes).sum();
            let (down, _) = s.table().counts_at(Ticks::from_secs(at.at));
            if in_use + down > nodes {
                broken.push(format!("{in_use} in use and {down} down at {}", at.at));
            }
            // The counts up to now are those at now: no breakpoint in (0, now].
            let now = Ticks::from_secs(at.at);
            if s.table().steps().iter().any(|st| st.at != Ticks::ZERO && st.at <= now) {
                broken.push(format!("breakpoints {:?} at {now}", s.table().steps()));
            }
            let a = s.accounts();
            let held = (s.waiting().len() + s.running_len()) as u64;
            if a.submitted != held + a.completed + a.cancelled {
                broken.push(format!("accounts {a:?} with {held} held"));
            }
            let trace_id = |h: qosgate_kernel::backfill::Handle| at.jobs[h.id().get() as usize].id;
            last = Some((at.at, s.running().map(|(h, _)| trace_id(h)).collect()));
        });
        prop_assert!(broken.is_empty(), "{:?}", broken);
        prop_assert_eq!(out.records.len(), jobs.len());
        for j in &jobs {
            prop_assert_eq!(ran.get(&j.id).copied().unwrap_or(0), j.run, "job {}", j.id);
        }
        let interruptions: u64 = out.records.iter().map(|r| u64::from(r.interruptions)).sum();
        prop_assert_eq!(interruptions, out.summary.interruptions);
        check_placements(nodes, &failures, &out)?;
    }
}

/// Replays `trace` under `policy` on its machine, without failures, naming nodes.
fn replay_named(trace: &swf::Trace, policy: Policy) -> anyhow::Result<Outcome> {
    replay::replay(
        &trace.jobs,
        policy,
        trace.machine_procs,
        &[],
        Naming::Named,
        |_| {},
    )
}

/// Replays the first `first` jobs of the trace at `path` (read strictly, with the machine size
/// `procs` if given) under FCFS, EASY, conservative and selective backfilling, and checks the
/// promises of `check_records`.
fn replay_trace(path: &Path, procs: Option<u32>, first: usize) {
    let options = swf::Options {
        skip_invalid: false,
        machine_procs: procs,
    };
    let mut trace = swf::read_path(path, &options).unwrap();
    trace.jobs.truncate(first);
    for which in 0..4 {
        let policy = policy(which);
        let out = replay_named(&trace, policy)
            .unwrap_or_else(|e| panic!("{} under {policy:?}: {e:#}", path.display()));
        check_records(&trace.jobs, trace.machine_procs, &out)
            .unwrap_or_else(|e| panic!("{} under {policy:?}: {e}", path.display()));
    }
}

/// The committed cut-downs (300 jobs of each trace) under every policy (the CLI's scheduler):
/// the promises of `check_records` on real workloads.
#[test]
fn trace_cut_downs_replay_under_every_policy() {
    for (name, procs) in [
        ("SDSC-SP2-1998-first300.swf", None),
        ("HPC2N-2002-subset3171-first300.swf", None),
        ("NASA-iPSC-1993-3.1-cln-first300.swf", None),
        ("SDSC-BLUE-2000-30days-first300.swf", Some(1152)),
        ("lublin_256-first300.swf", None),
    ] {
        replay_trace(&fixture(name), procs, usize::MAX);
    }
}

/// `qosgate backfill --swf-out`: a replayed cut-down written back as SWF
/// (`harness/src/workload/swf_schedule.rs`) reads back, with no machine size given, as the same
/// jobs on the same machine, replays as the same schedule, and its wait fields are the
/// replay's waits.
#[test]
fn a_schedule_written_as_swf_reads_back_as_the_same_schedule() {
    for (name, procs) in [
        ("SDSC-SP2-1998-first300.swf", None),
        ("SDSC-BLUE-2000-30days-first300.swf", Some(1152)),
        ("LLNL-Thunder-2007-1.1-cln-first1000.swf", Some(1024)),
    ] {
        let path = fixture(name);
        let options = swf::Options {
            skip_invalid: false,
            machine_procs: procs,
        };
        let trace = swf::read_path(&path, &options).unwrap();
        for policy in [Policy::Easy, Policy::Conservative] {
            let out = replay_named(&trace, policy).unwrap();
            let fields = out.swf_fields();
            let schedule = swf_schedule::Schedule {
                machine_procs: trace.machine_procs,
                note: "a test's schedule",
                jobs: &fields,
            };
            let mut written = Vec::new();
            let filled =
                swf_schedule::write(std::fs::File::open(&path).unwrap(), &schedule, &mut written)
                    .unwrap();
            assert_eq!(filled, trace.jobs.len(), "{name}");
            let written = String::from_utf8(written).unwrap();
            let again = swf::parse_str(&written, &swf::Options::default()).unwrap();
            assert_eq!(again.machine_procs, trace.machine_procs, "{name}");
            assert_eq!(again.jobs, trace.jobs, "{name}");
            assert_eq!(
                again.data_lines,
                trace.jobs.len() as u64,
                "{name}: skipped lines kept"
            );
            let replayed = replay_named(&again, policy).unwrap();
            assert_eq!(replayed.records, out.records, "{name} under {policy:?}");
            let by_id: HashMap<u64, &replay::Record> =
                out.records.iter().map(|r| (r.id, r)).collect();
            for line in written
                .lines()
                .filter(|l| !l.starts_with(';') && !l.is_empty())
            {
                let f: Vec<u64> = line
                    .split_whitespace()
                    .take(3)
                    .map(|x| x.parse::<f64>().unwrap() as u64)
                    .collect();
                let r = by_id[&f[0]];
                assert_eq!(f[2], r.start - r.submit, "{name}: job {}'s wait", r.id);
            }
        }
    }
}

/// The same on the full traces, which `QOSGATE_TRACES` names. The Lublin trace overloads its
/// 256 nodes and its queue grows to thousands of jobs (a conservative replay of all 10,000 takes
/// 1.4 s optimised): its first 2,500 jobs keep this test quick in a debug build.
#[test]
#[ignore = "needs the full traces: QOSGATE_TRACES naming their directory"]
fn full_traces_replay_under_every_policy() {
    let dir = full_traces();
    for (name, procs, first) in [
        ("SDSC-SP2-1998-first5000.swf", None, usize::MAX),
        ("HPC2N-2002-subset3171.swf", None, usize::MAX),
        ("NASA-iPSC-1993-3.1-cln.swf", None, usize::MAX),
        ("SDSC-BLUE-2000-30days-subset.swf", Some(1152), usize::MAX),
        ("lublin_256.swf", None, 2500),
    ] {
        replay_trace(&dir.join(name), procs, first);
    }
}

#[test]
fn replay_errors_name_the_job_or_node() {
    let jobs = [swf::Job {
        id: 7,
        submit: 3,
        run: 5,
        estimate: 5,
        procs: 9,
    }];
    let e = replay::replay(&jobs, Policy::Easy, 8, &[], Naming::Named, |_| {}).unwrap_err();
    assert!(format!("{e:#}").contains("job 7"), "{e:#}");
    // A run past its estimate would hold nodes the kernel's plan has given away.
    let long = [swf::Job {
        procs: 2,
        run: 6,
        ..jobs[0]
    }];
    let e = replay::replay(&long, Policy::Easy, 8, &[], Naming::Named, |_| {}).unwrap_err();
    assert!(
        format!("{e:#}").contains("job 7 runs 6 s, past its estimate"),
        "{e:#}"
    );
    let fail = [NodeEvent {
        at: 1,
        node: 8,
        up: false,
    }];
    let e = replay::replay(&[], Policy::Easy, 8, &fail, Naming::Named, |_| {}).unwrap_err();
    assert!(format!("{e:#}").contains("node 8"), "{e:#}");
}

/// The queue's capacity is the caller's; the job that finds it full is named, with
/// the capacity, and a larger queue replays the same jobs to the end.
#[test]
fn a_full_queue_names_the_job_and_its_capacity() {
    let jobs: Vec<swf::Job> = (1..=5)
        .map(|id| swf::Job {
            id,
            submit: 0,
            run: 10,
            estimate: 10,
            procs: 4,
        })
        .collect();
    let e = replay::replay_limited(&jobs, Policy::Easy, 4, &[], 3, Naming::Named).unwrap_err();
    let full = e.downcast_ref::<replay::QueueFull>().expect("a QueueFull");
    assert_eq!(
        *full,
        replay::QueueFull {
            job: 4,
            at: 0,
            capacity: 3
        }
    );
    let done = replay::replay_limited(&jobs, Policy::Easy, 4, &[], 5, Naming::Named).unwrap();
    assert_eq!(done.summary.makespan, 50);
    assert!(replay::replay_limited(&jobs, Policy::Easy, 4, &[], 0, Naming::Named).is_err());
    let big = replay::replay_limited(
        &jobs,
        Policy::Easy,
        4,
        &[],
        replay::MAX_QUEUE,
        Naming::Named,
    )
    .unwrap();
    assert_eq!(big.records, done.records);
}

/// `replay_limited` builds the smallest capacity tier the replay needs and starts
/// again on a larger one when the jobs held outgrow half of it. A burst of 1,200 jobs (more than
/// the first two tiers hold) replays to the same records as the fixed-capacity [`replay::replay`]
/// under every policy, and a limit between tiers still stops at the job that finds it full.
#[test]
fn a_replay_that_outgrows_its_first_tiers_keeps_its_schedule_and_its_limit() {
    let jobs: Vec<swf::Job> = (1..=1_200u64)
        .map(|id| swf::Job {
            id,
            submit: id / 100,
            run: 5 + id % 17,
            estimate: 5 + id % 17 + id % 23,
            procs: 1 + (id % 7) as u32,
        })
        .collect();
    for which in 0..4 {
        let policy = policy(which);
        let tiered =
            replay::replay_limited(&jobs, policy, 8, &[], replay::MAX_QUEUE, Naming::Named)
                .unwrap();
        let mut held = 0;
        let fixed = replay::replay_in::<2048, 4098>(
            &jobs,
            policy,
            8,
            &[],
            Returns::Unknown,
            Naming::Named,
            |i| {
                held = held.max(i.scheduler.waiting().len() + i.scheduler.running_len());
            },
        )
        .unwrap();
        assert!(held > replay::TIERS[1] / 2, "{held} jobs held: no restart");
        assert_eq!(tiered.records, fixed.records, "{policy:?}");
    }
    let e = replay::replay_limited(&jobs, Policy::Easy, 8, &[], 1_100, Naming::Named).unwrap_err();
    let full = e.downcast_ref::<replay::QueueFull>().expect("a QueueFull");
    assert_eq!(full.capacity, 1_100);
}
