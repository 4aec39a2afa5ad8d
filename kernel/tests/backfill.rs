//! Unit tests of the backfilling kernel (`kernel/src/backfill/`): typed errors that change
//! nothing, an interrupted job's place and remaining estimate, and the conservative and
//! selective re-placement pass against a plain re-placement of every reserved job (an oracle). The replay of job sets and
//! traces through it, against an independent model, is tested in `tests/backfill.rs`.

use fixed::types::U16F16;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use qosgate_kernel::backfill::{Backfill, Handle, Job, JobId, Policy};
use qosgate_kernel::slots::SlotTable;
use qosgate_kernel::units::Ticks;
use qosgate_kernel::{Error, Param};

fn t(ticks: u64) -> Ticks {
    Ticks::new(ticks)
}

fn job(id: u64, nodes: u32, estimate: u64) -> Job {
    Job {
        id: JobId::new(id),
        submit: Ticks::ZERO,
        nodes,
        estimate: t(estimate),
    }
}

#[test]
fn bad_jobs_and_calls_are_typed_errors_that_change_nothing() {
    let mut b = Backfill::<2, 6>::new(Policy::Conservative, 4).unwrap();
    let refused = |r: Result<(), qosgate_kernel::Refused<Job>>| r.unwrap_err().reason;
    assert_eq!(
        refused(b.submit(t(0), job(1, 0, 5))),
        Error::InvalidParameter(Param::Capacity)
    );
    assert_eq!(
        refused(b.submit(t(0), job(1, 1, 0))),
        Error::InvalidParameter(Param::Delay)
    );
    assert_eq!(refused(b.submit(t(0), job(1, 5, 5))), Error::TaskTooLarge);
    assert_eq!(
        refused(b.submit(t(1), job(1, 1, u64::MAX))),
        Error::Overflow
    );
    b.submit(t(10), job(1, 4, 5)).unwrap();
    assert_eq!(
        refused(b.submit(t(9), job(3, 1, 1))),
        Error::TimeWentBackwards
    );
    b.submit(t(10), job(2, 4, 5)).unwrap();
    assert_eq!(refused(b.submit(t(10), job(3, 1, 1))), Error::Full);
    assert_eq!(b.accounts().submitted, 2);
    // Job 1 starts at 10, job 2 is reserved after it.
    let mut started = Vec::new();
    b.schedule(t(10), |s| started.push(s)).unwrap();
    assert_eq!(started.len(), 1);
    assert_eq!(b.waiting().first().unwrap().reservation, Some(t(15)));
    let h = started[0].handle;
    assert_eq!(b.interrupt(t(15), h), Err(Error::Idle));
    assert_eq!(b.node_down(t(11), 1, Ticks::MAX), Err(Error::NotFree));
    assert_eq!(b.node_up(t(11), 1, Ticks::MAX), Err(Error::NotReserved));
    assert_eq!(b.cancel(t(11), JobId::new(99)), Err(Error::Unknown));
    assert_eq!(b.schedule(t(9), |_| {}), Err(Error::TimeWentBackwards));
    // Completing early at 12 moves job 2's reservation to 12; a stale handle is unknown.
    let ended = b.complete(t(12), h).unwrap();
    assert!(!ended.overran);
    assert_eq!(b.complete(t(12), h), Err(Error::Unknown));
    b.schedule(t(12), |s| started.push(s)).unwrap();
    assert_eq!(started.len(), 2);
    assert_eq!(started[1].run.start, t(12));
    assert_eq!(b.accounts().completed, 1);
}

#[test]
fn an_interrupted_job_waits_at_its_place_with_its_remaining_estimate() {
    let mut b = Backfill::<4, 10>::new(Policy::Easy, 2).unwrap();
    b.submit(t(0), job(1, 2, 100)).unwrap();
    let mut started = Vec::new();
    b.schedule(t(0), |s| started.push(s)).unwrap();
    b.submit(
        t(5),
        Job {
            submit: t(5),
            ..job(2, 1, 10)
        },
    )
    .unwrap();
    // A node fails at 30: job 1 stops with 70 left and heads the queue again, before job 2.
    let left = b.interrupt(t(30), started[0].handle).unwrap();
    assert_eq!(left.estimate, t(70));
    b.node_down(t(30), 1, Ticks::MAX).unwrap();
    let ids: Vec<u64> = b.waiting().iter().map(|w| w.job.id.get()).collect();
    assert_eq!(ids, [1, 2]);
    // Only one node is up: job 2 backfills, job 1 cannot start until the repair.
    let pass = b.schedule(t(30), |s| started.push(s)).unwrap();
    assert_eq!((pass.started, pass.head), (1, None));
    b.node_up(t(50), 1, Ticks::MAX).unwrap();
    b.complete(t(50), started[1].handle).unwrap();
    b.schedule(t(50), |s| started.push(s)).unwrap();
    assert_eq!(started[2].run.planned_end, t(120));
    assert_eq!(b.accounts().interrupted, 1);
}

/// A step of [`the_re_placement_pass_is_a_plain_re_placement_in_queue_order`], after a gap:
/// submit a job (nodes, estimate), complete the `k`-th running job (modulo their count) early,
/// or cancel the `k`-th waiting job.
#[derive(Clone, Debug)]
enum Step {
    Submit(u64, u32, u64),
    Complete(u64, usize),
    Cancel(u64, usize),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (0..4u64, 1..=6u32, 1..=20u64).prop_map(|(g, n, e)| Step::Submit(g, n, e)),
        3 => (0..6u64, 0..8usize).prop_map(|(g, k)| Step::Complete(g, k)),
        1 => (0..6u64, 0..8usize).prop_map(|(g, k)| Step::Cancel(g, k)),
    ]
}

/// What the re-placement pass must leave: every reserved waiting job, in queue order, taken
/// out of `table` and put back at its earliest start from `now` (an unreserved one stays so).
fn re_placed<const B: usize>(
    table: &SlotTable<B>,
    waiting: &[(Job, Option<Ticks>)],
    now: Ticks,
) -> Vec<Option<Ticks>> {
    let mut table = table.clone();
    let end = |s: Ticks, j: &Job| t(s.get() + j.estimate.get());
    let mut again = |j: &Job, s: Ticks| {
        table.release(s, end(s, j), j.nodes).unwrap();
        let s = table.earliest_fit(now, j.nodes, j.estimate).unwrap()?;
        table.reserve(s, end(s, j), j.nodes).unwrap();
        Some(s)
    };
    waiting
        .iter()
        .map(|(j, r)| r.and_then(|s| again(j, s)))
        .collect()
}

/// The driver of the property below: a scheduler on 6 nodes, its running jobs and whether a
/// job ended or left since the last pass.
struct Run {
    b: Backfill<16, 34>,
    running: Vec<(Handle, Ticks)>,
    freed: bool,
}

impl Run {
    /// One pass at `now`; checks each reserved waiting job's reservation (or start) against
    /// [`re_placed`] if a job ended or left since the last pass, else against its own.
    fn pass(&mut self, now: Ticks) -> Result<(), TestCaseError> {
        let waiting: Vec<(Job, Option<Ticks>)> = self
            .b
            .waiting()
            .iter()
            .map(|w| (w.job, w.reservation))
            .collect();
        let want = if std::mem::take(&mut self.freed) {
            re_placed(self.b.table(), &waiting, now)
        } else {
            waiting.iter().map(|w| w.1).collect()
        };
        let mut started = Vec::new();
        self.b.schedule(now, |s| started.push(s)).unwrap();
        // The counts up to `now` are those at `now`: no breakpoint in (0, now].
        let steps = self.b.table().steps();
        prop_assert!(
            steps.iter().all(|s| s.at == t(0) || s.at > now),
            "{:?}",
            steps
        );
        for ((job, held), want) in waiting.iter().zip(want) {
            let left = self.b.waiting().iter().find(|w| w.job.id == job.id);
            let got = match (left, started.iter().find(|s| s.handle.id() == job.id)) {
                (Some(w), _) => w.reservation,
                (None, Some(s)) => Some(s.run.start),
                (None, None) => None,
            };
            if held.is_some() {
                prop_assert_eq!(got, want, "job {} at {}", job.id, now);
            }
        }
        self.running
            .extend(started.iter().map(|s| (s.handle, s.run.planned_end)));
        Ok(())
    }

    /// Completes every job at its planned end and runs a pass at every reservation's start,
    /// up to `until`, as a replay does.
    fn run_to(&mut self, until: Ticks) -> Result<(), TestCaseError> {
        loop {
            let ends = self.running.iter().map(|r| r.1);
            let starts = self.b.waiting().iter().filter_map(|w| w.reservation);
            let Some(next) = ends.chain(starts).min().filter(|&at| at <= until) else {
                return Ok(());
            };
            while let Some(k) = self.running.iter().position(|r| r.1 == next) {
                let (h, _) = self.running.swap_remove(k);
                self.b.complete(next, h).unwrap();
                self.freed = true;
            }
            self.pass(next)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Conservative and selective: through any run of submissions, early completions and
    /// cancellations, every pass leaves each reserved waiting job exactly the reservation (or
    /// the start) that a plain re-placement of every reserved job in queue order gives if a
    /// job ended or left since the last pass, and its own reservation if none did.
    #[test]
    fn the_re_placement_pass_is_a_plain_re_placement_in_queue_order(
        steps in prop::collection::vec(step(), 1..80),
        selective in any::<bool>(),
    ) {
        let policy = if selective {
            Policy::Selective(U16F16::from_num(2))
        } else {
            Policy::Conservative
        };
        let mut run = Run { b: Backfill::new(policy, 6).unwrap(), running: vec![], freed: false };
        let (mut now, mut id) = (t(0), 0);
        for step in steps {
            let gap = match step {
                Step::Submit(g, ..) | Step::Complete(g, _) | Step::Cancel(g, _) => g,
            };
            now = t(now.get() + gap);
            run.run_to(now)?;
            match step {
                Step::Submit(_, nodes, estimate) => {
                    id += 1;
                    let job = Job { id: JobId::new(id), submit: now, nodes, estimate: t(estimate) };
                    // A full scheduler hands the job back: nothing to check.
                    let _ = run.b.submit(now, job);
                }
                Step::Complete(_, k) if !run.running.is_empty() => {
                    let (h, _) = run.running.swap_remove(k % run.running.len());
                    run.b.complete(now, h).unwrap();
                    run.freed = true;
                }
                Step::Cancel(_, k) if !run.b.waiting().is_empty() => {
                    let id = run.b.waiting().get(k % run.b.waiting().len()).unwrap().job.id;
                    run.b.cancel(now, id).unwrap();
                    run.freed = true;
                }
                _ => {}
            }
            run.pass(now)?;
        }
    }
}
