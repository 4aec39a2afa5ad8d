//! A minimal discrete-event driver for one kernel [`Resource`], shared by the property tests.
//!
//! Guaranteed-service users are greedy: each submits its next task at the first instant its
//! leaky bucket allows (after an optional idle gap), so a full bucket is emptied in one burst and
//! then refilled exactly at rate. Each user charges its tasks in its own workload-knowledge mode
//! and, where the mode takes feedback, reports each task's real work a fixed delay after it ends
//! (a task the resource refuses is withdrawn from the bucket at once). A user's tasks may be
//! larger than its `I_max` (an adversarial neighbour): an exact user that refuses them sends them
//! as best effort; the others find the resource refusing them ([`Error::TaskTooLarge`]) and send
//! them as best effort then. Best-effort tasks also arrive at given times. At each instant the
//! driver processes completions, feedback, then arrivals, then asks the resource for decisions
//! until it has none, as a firmware or the harness would.
//!
//! A scenario is written in plain numbers (the units are in each field's doc), as a strategy
//! draws them; the driver converts them to the kernel's units when it runs it.

use std::collections::HashMap;

use qosgate_kernel::Error;
use qosgate_kernel::bound::{BoundSpec, entries_needed};
use qosgate_kernel::bucket::{Bucket, Charge, Conformance, Knowledge, Oversize};
use qosgate_kernel::fairq::{Discipline, FlowId};
use qosgate_kernel::registry::{RateBasis, Registration};
use qosgate_kernel::resource::{Class, Decision, Kind, Resource, Task};
use qosgate_kernel::units::{Mips, Ticks, Work};

/// The resource under test: 8 flows, 256 queued tasks per queue, 16 CPUs.
pub type Res = Resource<8, 256, 16>;

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
    /// How its bucket charges its tasks.
    pub knowledge: Knowledge,
    /// Whether its registration admits tasks above `imax`.
    pub oversize: Oversize,
    /// Ticks from a task's end to its real work reaching the bucket (feedback modes).
    pub feedback_delay: u64,
    /// Whether it sets aside queue entries when the scenario runs reserving.
    pub reserves: bool,
    /// (size in percent of imax, above 100 for a task larger than `imax`; idle gap before
    /// submission in ticks), per task.
    pub tasks: Vec<(u64, u64)>,
}

impl User {
    /// A user that knows its workloads exactly and refuses larger tasks, with rho at
    /// `rho_pct` % of its share, sigma = `m` imax, and `tasks`.
    pub fn exact(weight: u16, rho_pct: u64, m: u64, imax: u64, tasks: &[(u64, u64)]) -> Self {
        Self {
            weight,
            rho_pct,
            m,
            imax,
            knowledge: Knowledge::Exact,
            oversize: Oversize::Refuse,
            feedback_delay: 0,
            reserves: true,
            tasks: tasks.to_vec(),
        }
    }

    /// Whether the kernel gives this user a bound: any mode but full aggressive, and larger
    /// tasks refused.
    pub fn guaranteed(&self) -> bool {
        self.knowledge != Knowledge::Aggressive && self.oversize == Oversize::Refuse
    }

    fn size(&self, k: usize) -> Work {
        Work::new((self.imax * self.tasks[k].0 / 100).max(1))
    }

    /// What the user tells its bucket of task `k`: its size with exact knowledge; otherwise it
    /// does not know it, and says `I_max` (the bucket charges by its mode whatever it is told).
    fn declared(&self, k: usize) -> Work {
        match self.knowledge {
            Knowledge::Exact => self.size(k),
            _ => Work::new(self.imax),
        }
    }

    /// Whether task `k` is within `imax`.
    fn conforming(&self, k: usize) -> bool {
        self.size(k) <= Work::new(self.imax)
    }
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
    /// Its user's bound, if the user has one.
    pub bound: Option<Ticks>,
}

impl GsRecord {
    /// Its time at the resource, from arrival to completion.
    pub fn delay(&self) -> Ticks {
        self.finished.saturating_sub(self.arrived)
    }

    /// Whether it took longer than its user's bound.
    pub fn over_bound(&self) -> bool {
        self.bound.is_some_and(|b| self.delay() > b)
    }
}

/// What happened.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Each user's bound inputs, as the kernel gave them after every registration.
    pub specs: Vec<BoundSpec>,
    pub gs: Vec<GsRecord>,
    /// Per user, its rate rho, MIPS.
    pub rho: Vec<u64>,
    /// Per user, the (instant, real work in MI) of every task the resource took as GS.
    pub released: Vec<Vec<(Ticks, u64)>>,
    pub be_submitted: usize,
    pub be_completed: usize,
    pub be_refused: usize,
    /// GS tasks refused for their size (then sent as best effort).
    pub oversized: usize,
    /// GS tasks refused for want of a queue entry (users without reserved entries).
    pub gs_refused_full: usize,
    pub preemptions: usize,
}

/// Never, as an instant.
const NEVER: Ticks = Ticks::MAX;

struct Live {
    flow: FlowId,
    bucket: Bucket,
    /// Whether the user set aside queue entries (a refusal for want of one is then a failure).
    reserved: bool,
    next: usize,
    /// The earliest instant of the next task (its gap after the previous one's submission).
    earliest: Ticks,
    /// When the next task conforms; [`NEVER`] while it waits for feedback.
    ready_at: Ticks,
    bound: Option<Ticks>,
}

/// A task the resource took as GS, until its feedback is given.
struct InFlight {
    user: usize,
    arrived: Ticks,
    receipt: Charge,
    work: Work,
}

impl Scenario {
    /// Runs the scenario to the end and returns every GS task with its bound on `basis`
    /// (computed once all GS users have registered; none registers later).
    ///
    /// Panics (failing the test) if the kernel loses a task, refuses a GS task of a
    /// guaranteed user within its `I_max` for anything but want of an entry, or breaks Eq. 1 at
    /// registration.
    pub fn run_on(&self, basis: RateBasis) -> Outcome {
        self.run_inner(basis, false)
            .expect("without reservations every registration fits")
    }

    /// [`Scenario::run`] with every guaranteed GS user that [`User::reserves`] setting aside the queue entries
    /// [`entries_needed`] gives it: its tasks start at most its reserved-basis bound after the
    /// bucket charged them (they arrive at that instant), and none is smaller than its smallest
    /// task. Panics as `run_on` does, and also if a guaranteed user's conforming task is refused
    /// for want of an entry, whatever the best-effort load. `None` if the entries needed exceed
    /// the queue.
    pub fn run_reserving(&self) -> Option<Outcome> {
        self.run_inner(RateBasis::Current, true)
    }

    /// [`Scenario::run_on`] the current basis, the tighter one.
    pub fn run(&self) -> Outcome {
        self.run_on(RateBasis::Current)
    }

    fn run_inner(&self, basis: RateBasis, reserve: bool) -> Option<Outcome> {
        let cpus: Vec<Mips> = self.cpus.iter().map(|&c| Mips::new(c)).collect();
        let max_task = Work::new(self.max_task);
        let mut res = Res::new(self.kind, self.discipline, &cpus, max_task, 8).unwrap();
        let capacity: u64 = self.cpus.iter().sum();
        let total_w: u64 =
            self.users.iter().map(|u| u64::from(u.weight)).sum::<u64>() + self.be_room;
        let mut live = Vec::new();
        let mut rhos = Vec::new();
        for u in &self.users {
            let cap = capacity * u64::from(u.weight) / total_w;
            let rho = (cap * u.rho_pct / 100).max(1);
            rhos.push(rho);
            let mut reg = Registration {
                weight: u.weight,
                rho: Mips::new(rho),
                sigma: Work::new(u.m * u.imax),
                imax: Work::new(u.imax),
                knowledge: u.knowledge,
                oversize: u.oversize,
                entries: 0,
            };
            let smallest = (0..u.tasks.len())
                .filter(|&k| u.conforming(k))
                .map(|k| u.size(k))
                .min();
            if let (true, Ok(stay), Some(smallest)) = (
                reserve && u.reserves,
                res.reserved_spec(&reg).at_resource(),
                smallest,
            ) && let Some(needed) =
                entries_needed(reg.sigma, reg.rho, reg.knowledge, reg.imax, smallest, stay).unwrap()
            {
                reg.entries = u16::try_from(needed).unwrap_or(u16::MAX);
            }
            let flow = match res.register(reg) {
                Ok(flow) => flow,
                Err(Error::Full) if reserve => return None,
                Err(e) => panic!("a planned registration fits Eq. 1: {e}"),
            };
            let bucket = Bucket::new(Ticks::ZERO, reg.rho, reg.sigma, reg.imax, u.knowledge)
                .unwrap()
                .with_oversize(u.oversize);
            live.push(Live {
                flow,
                bucket,
                reserved: reg.entries > 0,
                next: 0,
                earliest: Ticks::ZERO,
                ready_at: NEVER,
                bound: None,
            });
        }
        let mut out = Outcome {
            rho: rhos,
            released: vec![Vec::new(); self.users.len()],
            ..Outcome::default()
        };
        for (l, u) in live.iter_mut().zip(&self.users) {
            let spec = res.bound_spec(l.flow, basis).unwrap();
            assert!(
                spec.rate >= res.registry().get(l.flow).unwrap().rho,
                "Eq. 1: rho <= g"
            );
            l.bound = match spec.at_resource() {
                Ok(b) => Some(b),
                Err(Error::NoBound) => None,
                Err(e) => panic!("a bound's inputs are valid: {e}"),
            };
            assert_eq!(
                l.bound.is_some(),
                u.guaranteed(),
                "which users have a bound"
            );
            out.specs.push(spec);
        }
        for (i, l) in live.iter_mut().enumerate() {
            l.earliest = self.users[i]
                .tasks
                .first()
                .map_or(NEVER, |t| Ticks::new(t.1));
            schedule(&self.users[i], l, Ticks::ZERO);
        }

        let mut running: HashMap<u32, InFlight> = HashMap::new();
        // (due, user, receipt, real work; zero for a withdrawal).
        let mut feedback: Vec<(Ticks, usize, Charge, Work)> = Vec::new();
        let mut be_next = 0;
        let mut next_id = 0u32;
        loop {
            let t_gs = live.iter().map(|l| l.ready_at).min().filter(|&t| t < NEVER);
            let t_be = self.be.get(be_next).map(|b| Ticks::new(b.0));
            let t_done = res.next_finish().map(|f| f.1);
            let t_fb = feedback.iter().map(|f| f.0).min();
            let Some(t) = [t_gs, t_be, t_done, t_fb].into_iter().flatten().min() else {
                break;
            };

            while let Some((cpu, f)) = res.next_finish() {
                if f > t {
                    break;
                }
                let c = res.complete(t, cpu).unwrap();
                match c.class {
                    Class::Gs => {
                        let run = running.remove(&c.task.id).expect("a GS task ends once");
                        out.gs.push(GsRecord {
                            user: run.user,
                            arrived: run.arrived,
                            finished: t,
                            bound: live[run.user].bound,
                        });
                        let due = t.checked_add(Ticks::new(self.users[run.user].feedback_delay));
                        feedback.push((due.unwrap(), run.user, run.receipt, run.work));
                    }
                    Class::Be => out.be_completed += 1,
                }
            }
            let (now_due, later): (Vec<_>, Vec<_>) = feedback.drain(..).partition(|f| f.0 <= t);
            feedback = later;
            for (_, i, receipt, work) in now_due {
                let l = &mut live[i];
                if work == Work::ZERO {
                    l.bucket.withdraw(t, receipt).unwrap();
                } else {
                    l.bucket.feedback(t, receipt, work).unwrap();
                }
                schedule(&self.users[i], l, t);
            }
            for (i, l) in live.iter_mut().enumerate() {
                if l.ready_at != t {
                    continue;
                }
                let u = &self.users[i];
                let work = u.size(l.next);
                let receipt = match l.bucket.charge(t, u.declared(l.next)) {
                    Ok(r) => Some(r),
                    // An exact user that refuses larger tasks sends this one as best effort.
                    Err(Error::TaskTooLarge) => None,
                    // Feedback since the task was scheduled left a debt.
                    Err(Error::NonConforming) => {
                        schedule(u, l, t);
                        continue;
                    }
                    Err(e) => panic!("charging a task at its conforming instant: {e}"),
                };
                let task = Task { id: next_id, work };
                next_id += 1;
                let refused = match receipt {
                    None => Some(Error::TaskTooLarge),
                    Some(receipt) => match res.submit_gs(t, l.flow, task) {
                        Ok(()) => {
                            out.released[i].push((t, work.get()));
                            running.insert(
                                task.id,
                                InFlight {
                                    user: i,
                                    arrived: t,
                                    receipt,
                                    work,
                                },
                            );
                            None
                        }
                        Err(r) => {
                            l.bucket.withdraw(t, receipt).unwrap();
                            Some(r.reason)
                        }
                    },
                };
                match refused {
                    None => {}
                    Some(Error::TaskTooLarge) => {
                        assert!(!u.conforming(l.next) || u.oversize == Oversize::Admit);
                        out.oversized += 1;
                        out.be_submitted += 1;
                        if res.submit_be(t, task).is_err() {
                            out.be_refused += 1;
                        }
                    }
                    Some(Error::Full) if !(l.reserved && u.conforming(l.next)) => {
                        out.gs_refused_full += 1;
                    }
                    Some(e) => panic!("a GS task refused: {e}"),
                }
                l.next += 1;
                l.earliest = u
                    .tasks
                    .get(l.next)
                    .map_or(NEVER, |&(_, gap)| t.checked_add(Ticks::new(gap)).unwrap());
                schedule(u, l, t);
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
        assert!(running.is_empty(), "every GS task completed");
        assert_eq!(
            out.be_completed + out.be_refused,
            out.be_submitted,
            "no BE task lost"
        );
        for (l, u) in live.iter().zip(&self.users) {
            assert_eq!(l.next, u.tasks.len(), "every task of every user was sent");
        }
        Some(out)
    }
}

/// Schedules user `l`'s next task at the first instant at or after both `now` and its
/// earliest at which its bucket lets it go ([`NEVER`] while it waits for feedback, or after
/// its last task).
fn schedule(u: &User, l: &mut Live, now: Ticks) {
    if l.next >= u.tasks.len() {
        l.ready_at = NEVER;
        return;
    }
    let t = l.earliest.max(now);
    l.ready_at = match l.bucket.check(t, u.declared(l.next)) {
        Ok(Conformance::Now) | Err(Error::TaskTooLarge) => t,
        Ok(Conformance::After(w)) => t.checked_add(w).unwrap(),
        Ok(Conformance::OnFeedback) | Err(Error::Full) => NEVER,
        Err(e) => panic!("checking a task: {e}"),
    };
}

/// Whether `released` ((instant, work in MI), in order) keeps every interval `[s, t]` within
/// `burst + rho (t - s)` MI; else the first interval that breaks it, with its work.
pub fn envelope_breach(
    released: &[(Ticks, u64)],
    burst: u64,
    rho: u64,
) -> Option<(Ticks, Ticks, u64)> {
    // In instructions (MI x 10^6 = MIPS x ticks): exact.
    for (i, &(s, _)) in released.iter().enumerate() {
        let mut sum = 0u128;
        for &(t, w) in &released[i..] {
            sum += u128::from(w);
            let allowed =
                u128::from(burst) * 1_000_000 + u128::from(rho) * u128::from(t.get() - s.get());
            if sum * 1_000_000 > allowed {
                return Some((s, t, sum as u64));
            }
        }
    }
    None
}
