//! Unit tests of the backfilling kernel (`kernel/src/backfill.rs`): typed errors that change
//! nothing, and an interrupted job's place and remaining estimate. The replay of job sets and
//! traces through it, against an independent model, is tested in `harness/tests/backfill.rs`.

use qosgate_kernel::backfill::{Backfill, Job, Policy};
use qosgate_kernel::units::Ticks;
use qosgate_kernel::{Error, Param};

fn t(ticks: u64) -> Ticks {
    Ticks::new(ticks)
}

fn job(id: u64, nodes: u32, estimate: u64) -> Job {
    Job {
        id,
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
    assert_eq!(b.node_down(t(11), 1), Err(Error::NotFree));
    assert_eq!(b.node_up(t(11), 1), Err(Error::NotReserved));
    assert_eq!(b.cancel(t(11), 99), Err(Error::Unknown));
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
    b.node_down(t(30), 1).unwrap();
    let ids: Vec<u64> = b.waiting().iter().map(|w| w.job.id).collect();
    assert_eq!(ids, [1, 2]);
    // Only one node is up: job 2 backfills, job 1 cannot start until the repair.
    let pass = b.schedule(t(30), |s| started.push(s)).unwrap();
    assert_eq!((pass.started, pass.head), (1, None));
    b.node_up(t(50), 1).unwrap();
    b.complete(t(50), started[1].handle).unwrap();
    b.schedule(t(50), |s| started.push(s)).unwrap();
    assert_eq!(started[2].run.planned_end, t(120));
    assert_eq!(b.accounts().interrupted, 1);
}
