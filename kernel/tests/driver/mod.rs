//! A minimal discrete-event driver for one kernel [`Resource`], shared by the property tests.
//!
//! Guaranteed-service users are greedy but conforming: each submits its next task at the first
//! instant its exact-mode leaky bucket allows (after an optional idle gap), so a full bucket is
//! emptied in one burst and then refilled exactly at rate. Best-effort tasks arrive at given
//! times. At each instant the driver processes completions, then arrivals, then asks the resource
//! for decisions until it has none, as a firmware or the harness would.
//!
//! A scenario is written in plain numbers (the units are in each field's doc), as a strategy
//! draws them; the driver converts them to the kernel's units when it runs it.

use qosgate_kernel::Error;
use qosgate_kernel::bound::{BoundSpec, entries_needed};
use qosgate_kernel::bucket::{Bucket, Conformance, Knowledge, Oversize};
use qosgate_kernel::fairq::{Discipline, FlowId};
use qosgate_kernel::registry::{RateBasis, Registration};
use qosgate_kernel::resource::{Class, Decision, Kind, Resource, Task};
use qosgate_kernel::units::{Mips, Ticks, Work};

/// The resource under test: 8 flows, 256 queued tasks per queue, 4 CPUs.
pub type Res = Resource<8, 256, 4>;

/// One guaranteed-service user.
#[derive(Clone, Debug)]
pub struct User {
    pub weight: u16,
    /// rho as a percentage (1..=100) of the largest rate Eq. 1 can allow it.
    pub rho_pct: u64,
    /// sigma = m * imax.
    pub m: u64,
    /// The largest task, MI.
    pub imax: u64,
    /// (size in percent of imax, idle gap before submission in ticks), per task.
    pub tasks: Vec<(u64, u64)>,
}

/// A resource and its load.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub kind: Kind,
    pub discipline: Discipline,
    /// The CPUs' capacities, MIPS.
    pub cpus: Vec<u64>,
    /// The resource's largest task, MI.
    pub max_task: u64,
    /// Weight units left free for temporary BE users (GS_BE_EQUAL).
    pub be_room: u64,
    pub users: Vec<User>,
    /// (arrival in ticks, work in MI) of best-effort tasks, arrival-sorted.
    pub be: Vec<(u64, u64)>,
}

/// One finished GS task.
#[derive(Clone, Copy, Debug)]
pub struct GsRecord {
    pub user: usize,
    pub arrived: Ticks,
    pub finished: Ticks,
    pub bound: Ticks,
}

impl GsRecord {
    /// Its time at the resource, from arrival to completion.
    pub fn delay(&self) -> Ticks {
        self.finished.saturating_sub(self.arrived)
    }
}

/// What happened.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Each user's bound inputs, as the kernel gave them after every registration.
    pub specs: Vec<BoundSpec>,
    pub gs: Vec<GsRecord>,
    pub be_submitted: usize,
    pub be_completed: usize,
    pub be_refused: usize,
    pub preemptions: usize,
}

struct Live {
    flow: FlowId,
    bucket: Bucket,
    next: usize,
    ready_at: Ticks,
    bound: Ticks,
}

impl Scenario {
    /// Runs the scenario to the end and returns every GS task with its bound on `basis`
    /// (computed once all GS users have registered; none registers later).
    ///
    /// Panics (failing the test) if the kernel loses a task, refuses a conforming GS task, or
    /// breaks Eq. 1 at registration.
    pub fn run_on(&self, basis: RateBasis) -> Outcome {
        self.run_inner(basis, false)
            .expect("without reservations every registration fits")
    }

    /// [`Scenario::run`] with every GS user setting aside the queue entries
    /// [`entries_needed`] gives it: its tasks start at most its reserved-basis bound after the
    /// bucket charged them (they arrive at that instant), and none is smaller than its smallest
    /// task. Panics as `run_on` does, so a conforming GS task refused for want of an entry fails
    /// the test whatever the best-effort load. `None` if the entries needed exceed the queue.
    pub fn run_reserving(&self) -> Option<Outcome> {
        self.run_inner(RateBasis::Current, true)
    }

    fn run_inner(&self, basis: RateBasis, reserve: bool) -> Option<Outcome> {
        let cpus: Vec<Mips> = self.cpus.iter().map(|&c| Mips::new(c)).collect();
        let max_task = Work::new(self.max_task);
        let mut res = Res::new(self.kind, self.discipline, &cpus, max_task, 8).unwrap();
        let capacity: u64 = self.cpus.iter().sum();
        let total_w: u64 =
            self.users.iter().map(|u| u64::from(u.weight)).sum::<u64>() + self.be_room;
        let mut live = Vec::new();
        for u in &self.users {
            let cap = capacity * u64::from(u.weight) / total_w;
            let rho = (cap * u.rho_pct / 100).max(1);
            let mut reg = Registration {
                weight: u.weight,
                rho: Mips::new(rho),
                sigma: Work::new(u.m * u.imax),
                imax: Work::new(u.imax),
                knowledge: Knowledge::Exact,
                oversize: Oversize::Refuse,
                entries: 0,
            };
            if reserve {
                let stay = res.reserved_spec(&reg).at_resource().unwrap();
                let smallest = (0..u.tasks.len()).map(|k| size(u, k)).min().unwrap();
                let needed =
                    entries_needed(reg.sigma, reg.rho, reg.knowledge, reg.imax, smallest, stay)
                        .unwrap()
                        .unwrap();
                reg.entries = u16::try_from(needed).unwrap();
            }
            let flow = match res.register(reg) {
                Ok(flow) => flow,
                Err(Error::Full) if reserve => return None,
                Err(e) => panic!("a planned registration fits Eq. 1: {e}"),
            };
            let bucket =
                Bucket::new(Ticks::ZERO, reg.rho, reg.sigma, reg.imax, Knowledge::Exact).unwrap();
            live.push(Live {
                flow,
                bucket,
                next: 0,
                ready_at: Ticks::ZERO,
                bound: Ticks::ZERO,
            });
        }
        let mut out = Outcome::default();
        for l in &mut live {
            let spec = res.bound_spec(l.flow, basis).unwrap();
            assert!(
                spec.rate >= res.registry().get(l.flow).unwrap().rho,
                "Eq. 1: rho <= g"
            );
            l.bound = spec.at_resource().unwrap();
            out.specs.push(spec);
        }
        for (i, l) in live.iter_mut().enumerate() {
            schedule_next(&self.users[i], l, Ticks::ZERO);
        }

        let mut arrived: std::collections::HashMap<u32, (usize, Ticks)> = Default::default();
        let mut be_next = 0;
        let mut next_id = 0u32;
        loop {
            let t_gs = live
                .iter()
                .filter(|l| l.next < usize::MAX)
                .map(|l| l.ready_at)
                .min();
            let t_be = self.be.get(be_next).map(|b| Ticks::new(b.0));
            let t_done = res.next_finish().map(|f| f.1);
            let Some(t) = [t_gs, t_be, t_done].into_iter().flatten().min() else {
                break;
            };

            while let Some((cpu, f)) = res.next_finish() {
                if f > t {
                    break;
                }
                let c = res.complete(t, cpu).unwrap();
                match c.class {
                    Class::Gs => {
                        let (user, a) = arrived.remove(&c.task.id).expect("a GS task ends once");
                        out.gs.push(GsRecord {
                            user,
                            arrived: a,
                            finished: t,
                            bound: live[user].bound,
                        });
                    }
                    Class::Be => out.be_completed += 1,
                }
            }
            for (i, l) in live.iter_mut().enumerate() {
                if l.next == usize::MAX || l.ready_at != t {
                    continue;
                }
                let u = &self.users[i];
                let work = size(u, l.next);
                l.bucket
                    .charge(t, work)
                    .expect("scheduled at the first conforming instant");
                let task = Task { id: next_id, work };
                res.submit_gs(t, l.flow, task)
                    .expect("a conforming GS task is always accepted");
                arrived.insert(next_id, (i, t));
                next_id += 1;
                l.next += 1;
                schedule_next(u, l, t);
            }
            while let Some(&(at, work)) = self.be.get(be_next) {
                if Ticks::new(at) != t {
                    break;
                }
                be_next += 1;
                out.be_submitted += 1;
                let task = Task {
                    id: next_id,
                    work: Work::new(work),
                };
                if res.submit_be(t, task).is_err() {
                    out.be_refused += 1;
                }
                next_id += 1;
            }
            while let Some(d) = res.next_decision(t).unwrap() {
                if let Decision::Preempt { task, .. } = d {
                    assert!(task.work >= Work::new(1));
                    out.preemptions += 1;
                }
            }
        }
        let counts = res.counts();
        assert_eq!(
            (counts.queued_gs, counts.queued_be, counts.running),
            (0, 0, 0)
        );
        assert!(arrived.is_empty(), "every GS task completed");
        assert_eq!(
            out.be_completed + out.be_refused,
            out.be_submitted,
            "no BE task lost"
        );
        Some(out)
    }
}

impl Scenario {
    /// [`Scenario::run_on`] the current basis, the tighter one.
    pub fn run(&self) -> Outcome {
        self.run_on(RateBasis::Current)
    }
}

fn size(u: &User, k: usize) -> Work {
    Work::new((u.imax * u.tasks[k].0 / 100).max(1))
}

/// The first instant at or after `after + gap` at which the user's next task conforms.
fn schedule_next(u: &User, l: &mut Live, after: Ticks) {
    let Some(&(_, gap)) = u.tasks.get(l.next) else {
        l.next = usize::MAX;
        return;
    };
    let t = after.checked_add(Ticks::new(gap)).unwrap();
    l.ready_at = match l.bucket.check(t, size(u, l.next)).unwrap() {
        Conformance::Now => t,
        Conformance::After(w) => t.checked_add(w).unwrap(),
        Conformance::OnFeedback => unreachable!("exact mode never waits for feedback"),
    };
}
