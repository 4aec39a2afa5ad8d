//! Backfilling: a `Backfill<6, 14>` under any policy, on a cluster of any size, driven by an
//! arbitrary sequence of submit, schedule, complete, interrupt, cancel, node-down and node-up
//! calls at arbitrary instants (time may go backwards, durations may overflow). Nodes go down
//! until further notice or until an expected return (the table has room for three), and come
//! back early, on time, late, or with a return they were not taken down with.
//!
//! Checked after every call:
//! - a refused call changes nothing (the scheduler equals its copy from before the call);
//! - the accounts add up: `submitted == waiting + running + completed + cancelled`, and the
//!   fuzzer's own count of successful calls agrees with each counter;
//! - the profile is exactly the sum of its parts: at every breakpoint from `now` on, the
//!   reserved count is the nodes of the running jobs (until their planned ends) plus those of the
//!   reserved waiting jobs (over their reservations), and the down count is the fuzzer's (the
//!   nodes it took down whose expected return is later);
//! - nothing is overcommitted: no instant from `now` on has more nodes reserved than are up;
//! - conservative, after a submit or a pass (which place every job after nodes were freed): a
//!   waiting job without a reservation has no start at all (too few nodes up), unless a submit
//!   left the re-placement pass and its placement to the next call ([`Backfill::unsettled`]
//!   jobs wait for it); after a pass none does. Checked while all
//!   times and estimates stay below 2^50, so that no reservation nears the end of time: there a
//!   job's only room may be taken by a job placed after it in the same pass;
//! - every started job fitted: it was waiting, and its start is the call's `now`;
//! - the waiting queue stays in `(submit, id)` order.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use common::Num;
use fixed::types::U16F16;
use libfuzzer_sys::fuzz_target;
use qosgate_kernel::Error;
use qosgate_kernel::backfill::{Backfill, Job, JobId, Policy};
use qosgate_kernel::units::Ticks;

/// Room for three expected returns.
type Sched = Backfill<6, 17>;

#[derive(Arbitrary, Debug)]
enum Op {
    Submit { nodes: Num, estimate: Num, id: u8 },
    Schedule,
    Complete { which: u8 },
    Interrupt { which: u8 },
    Cancel { which: u8 },
    /// Down until `back` after the call's instant (`None`: until further notice).
    Down { count: Num, back: Option<Num> },
    /// Up, with the `which`-th return the fuzzer holds (`None`: until further notice).
    Up { count: Num, which: Option<u8> },
}

#[derive(Arbitrary, Debug)]
struct Step {
    /// Time from the previous call: forwards, or (rarely) backwards.
    dt: Num,
    back: bool,
    op: Op,
}

#[derive(Arbitrary, Debug)]
struct Input {
    policy: u8,
    threshold: u32,
    nodes: Num,
    steps: Vec<Step>,
}

#[derive(Default)]
struct Counts {
    submitted: u64,
    completed: u64,
    cancelled: u64,
    interrupted: u64,
    /// Nodes taken down, by expected return.
    down: Vec<(Ticks, u64)>,
}

impl Counts {
    /// Nodes down at `t`: taken down, with a later expected return.
    fn down_at(&self, t: Ticks) -> u64 {
        self.down.iter().filter(|d| d.0 > t).map(|d| d.1).sum()
    }

    /// `count` nodes taken down until `back` come back.
    fn up(&mut self, mut count: u64, back: Ticks) {
        for d in self.down.iter_mut().filter(|d| d.0 == back) {
            let n = d.1.min(count);
            d.1 -= n;
            count -= n;
        }
        assert_eq!(count, 0, "the kernel brought up nodes the fuzzer did not take down");
    }
}

fn check(s: &Sched, c: &Counts, placed: bool) {
    let a = s.accounts();
    let held = (s.waiting().len() + s.running_len()) as u64;
    assert_eq!(a.submitted, held + a.completed + a.cancelled, "{a:?}");
    assert_eq!(
        (a.submitted, a.completed, a.cancelled, a.interrupted),
        (c.submitted, c.completed, c.cancelled, c.interrupted)
    );
    let now = s.now();
    let table = s.table();
    let instants =
        core::iter::once(now).chain(table.steps().iter().map(|st| st.at).filter(|&t| t > now));
    for t in instants {
        let running: u64 = s
            .running()
            .filter(|(_, r)| r.start <= t && t < r.planned_end)
            .map(|(_, r)| u64::from(r.job.nodes))
            .sum();
        let waiting: u64 = s
            .waiting()
            .iter()
            .filter_map(|w| w.reservation.map(|st| (st, w.job)))
            .filter(|&(st, j)| st <= t && t < st.saturating_add(j.estimate))
            .map(|(_, j)| u64::from(j.nodes))
            .sum();
        let (down, reserved) = table.counts_at(t);
        assert_eq!(u64::from(reserved), running + waiting, "reserved at {t}");
        assert_eq!(u64::from(down), c.down_at(t), "down at {t}");
        assert!(table.free_at(t) >= 0, "overcommitted at {t}");
    }
    assert!(
        table.steps().iter().all(|st| st.at == Ticks::ZERO || st.at > now),
        "a breakpoint in (0, now]: {:?}",
        table.steps()
    );
    let far = Ticks::new(1 << 50);
    let near_the_end = now >= far
        || s.waiting().iter().any(|w| w.job.estimate >= far)
        || s.running().any(|(_, r)| r.job.estimate >= far);
    if placed && s.unsettled() == 0 && !near_the_end && s.policy() == Policy::Conservative {
        for w in s.waiting().iter().filter(|w| w.reservation.is_none()) {
            let fit = table.earliest_fit(now, w.job.nodes, w.job.estimate);
            assert_eq!(fit, Ok(None), "an unplaced job could be placed: {w:?}");
        }
    }
    assert!(
        s.waiting()
            .iter()
            .zip(s.waiting().iter().skip(1))
            .all(|(a, b)| (a.job.submit, a.job.id) <= (b.job.submit, b.job.id))
    );
}

fuzz_target!(|input: Input| {
    let policy = match input.policy % 4 {
        0 => Policy::Fcfs,
        1 => Policy::Easy,
        2 => Policy::Conservative,
        _ => Policy::Selective(U16F16::from_bits(input.threshold)),
    };
    let nodes = u32::try_from(input.nodes.get() % 64).unwrap_or(0);
    let Ok(mut s) = Sched::new(policy, nodes) else {
        assert_eq!(nodes, 0);
        return;
    };
    let mut c = Counts::default();
    let mut now = Ticks::ZERO;
    for step in input.steps.iter().take(200) {
        let t = if step.back {
            now.saturating_sub(step.dt.ticks())
        } else {
            now.saturating_add(Ticks::new(step.dt.get() % 1000))
        };
        let before = s.clone();
        let result: Result<(), Error> = match step.op {
            Op::Submit {
                nodes,
                estimate,
                id,
            } => {
                let job = Job {
                    id: JobId::new(u64::from(id)),
                    submit: t,
                    nodes: u32::try_from(nodes.get()).unwrap_or(u32::MAX),
                    estimate: estimate.ticks(),
                };
                let r = s.submit(t, job);
                if let Err(refused) = &r {
                    assert_eq!(refused.item, job);
                } else {
                    c.submitted += 1;
                }
                r.map_err(|r| r.reason)
            }
            Op::Schedule => {
                let waiting: Vec<Job> = s.waiting().iter().map(|w| w.job).collect();
                let mut started = Vec::new();
                let r = s.schedule(t, |st| started.push(st));
                for st in &started {
                    assert_eq!(st.run.start, t);
                    assert!(waiting.iter().any(|j| j.id == st.run.job.id));
                    assert_eq!(st.handle.id(), st.run.job.id);
                }
                r.map(|_| ())
            }
            Op::Complete { which } => {
                let handle = s.running().nth(usize::from(which) % 8).map(|(h, _)| h);
                match handle {
                    Some(h) => {
                        let r = s.complete(t, h).map(|_| ());
                        if r.is_ok() {
                            c.completed += 1;
                        }
                        r
                    }
                    None => Ok(()),
                }
            }
            Op::Interrupt { which } => {
                let handle = s.running().nth(usize::from(which) % 8).map(|(h, _)| h);
                match handle {
                    Some(h) => {
                        let r = s.interrupt(t, h).map(|job| {
                            assert!(job.estimate > Ticks::ZERO);
                        });
                        if r.is_ok() {
                            c.interrupted += 1;
                        }
                        r
                    }
                    None => Ok(()),
                }
            }
            Op::Cancel { which } => {
                let id = s
                    .waiting()
                    .get(usize::from(which) % 8)
                    .map_or(JobId::new(u64::from(which)), |w| w.job.id);
                let r = s.cancel(t, id).map(|_| ());
                if r.is_ok() {
                    c.cancelled += 1;
                }
                r
            }
            Op::Down { count, back } => {
                let count = u32::try_from(count.get()).unwrap_or(u32::MAX);
                let back = back.map_or(Ticks::MAX, |b| t.saturating_add(b.ticks()));
                let r = s.node_down(t, count, back);
                if r.is_ok() {
                    c.down.push((back, u64::from(count)));
                }
                r
            }
            Op::Up { count, which } => {
                let count = u32::try_from(count.get()).unwrap_or(u32::MAX);
                let back = which.map_or(Ticks::MAX, |k| {
                    let n = c.down.len().max(1);
                    c.down.get(usize::from(k) % n).map_or(Ticks::MAX, |d| d.0)
                });
                let r = s.node_up(t, count, back);
                if r.is_ok() && back > t {
                    c.up(u64::from(count), back);
                }
                r
            }
        };
        let placed = result.is_ok() && matches!(step.op, Op::Submit { .. } | Op::Schedule);
        if result.is_ok() && matches!(step.op, Op::Schedule) {
            assert_eq!(s.unsettled(), 0, "a pass left jobs unplaced");
        }
        match result {
            Ok(()) => now = now.max(t),
            Err(_) => assert_eq!(s, before, "a refused {:?} changed the scheduler", step.op),
        }
        check(&s, &c, placed);
    }
});
