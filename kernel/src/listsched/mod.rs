//! List scheduling of one DAG application over `K` clouds (gandhimathi2013 Sec. 3.1, Algorithms
//! 2-3, Eq. 5 and 8, as read in E22): CLS, CMMS, and their dynamic forms DCLS and DCMMS.
//!
//! A [`Scheduler`] assigns every task of a [`Dag`] to a cloud, one decision per
//! [`Scheduler::step`]. For task `v` on cloud `j`:
//!
//! ```text
//! D(v, j)      = image + ETM[v][j]                          (SI/b + ETM)
//! ready(v)     = max(now, planned finish of every predecessor)
//! ERAT(v, j)   = the caller's answer for v on j, no earlier than ready(v)
//! tau(v, j)    = ERAT(v, j) + (1 + fd_j) D(v, j)           (Eq. 5; Eq. 8 with the factors fd)
//! ```
//!
//! `tau` is compared exactly (the factors are exact fractions, [`feedback`]), so two clouds
//! that score the same go to the lower one whatever their factors are.
//!
//! - [`Rule::List`] (CLS, Algorithm 2): tasks in the CNPT order ([`crate::dag::cnpt`]); each to
//!   the cloud of smallest `tau`.
//! - [`Rule::MinMin`] (CMMS, Algorithm 3): among the tasks whose predecessors are all assigned,
//!   the (task, cloud) pair of smallest `tau`.
//!
//! With every factor zero these are CLS and CMMS; with the factors of a
//! [`Feedback`] they are DCLS and DCMMS, and `alpha = 0` (every factor zero)
//! makes the two decide identically. Ties go to the lowest index: the lowest cloud, and for
//! CMMS the lowest task first.
//!
//! **The planned schedule.** The chosen pair is held ([`Clouds::hold`]) from `ERAT` to
//! `ERAT + D`: that interval is the task's planned run, `ERAT + D` its planned finish, which its
//! successors' `ready` uses. The factor only rates clouds (Eq. 8 calls `tau_fd` the objective); it
//! does not stretch the plan.
//!
//! # The caller's side ([`Clouds`])
//! The kernel keeps no cloud state. The caller answers `erat(task, cloud, ready)`: when the
//! cloud could start the task at the earliest, no earlier than `ready` (its queue and planning
//! profile, the dataset transfer to a cloud the application has not used yet, an advance
//! reservation's instant), or `None` if it cannot take it. It then records each decision in
//! `hold`. An answer may change only through a `hold` on the same cloud: CMMS keeps the answers
//! of the other clouds from one step to the next and asks again only the cloud it last chose
//! (and every cloud for tasks that became ready).
//!
//! # Units and memory
//! Instants and durations in [`Ticks`] (µs). `size_of::<Scheduler<3>>()` is 7,520 bytes on
//! x86-64: the decisions (64 x 56 bytes), CMMS's cache of answers (`64 x 8 K` bytes), the
//! priorities (2,064), the factors (`32 K`) and the listing (72); the [`Dag`] and [`Etm`] are
//! borrowed. Rating a candidate exactly takes about 200 bytes of stack (two objectives and their
//! 320-bit cross products).
//!
//! # Cost per call
//! [`Scheduler::new`]: `O(n^2 + 64 K)` (priorities and the listing). One CLS step: `K` questions
//! to the caller and `O(K + n)` work. One CMMS step: at most `r + K m` questions (`r` ready
//! tasks, `m` of them newly ready) and `O(n K)` work. No recursion, no allocation.

mod etm;
pub mod feedback;
mod wide;

pub use etm::Etm;
pub use feedback::{Alpha, Factor, Feedback};

use crate::dag::{Dag, Listing, MAX_TASKS, Priorities, TaskId, Tasks, cnpt};
use crate::error::Error;
use crate::units::Ticks;
use feedback::Tau;

/// Which list scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Rule {
    /// CLS (Algorithm 2): CNPT order, each task to its best cloud.
    List,
    /// CMMS (Algorithm 3): the best (ready task, cloud) pair first.
    MinMin,
}

/// One assignment of a task to a cloud.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Decision {
    /// The task.
    pub task: TaskId,
    /// The cloud, `0 .. K`.
    pub cloud: usize,
    /// Its predecessors' latest planned finish, or `now`.
    pub ready: Ticks,
    /// Its planned start: the cloud's ERAT.
    pub start: Ticks,
    /// Its planned finish, `start + D`.
    pub finish: Ticks,
    /// The `tau` (or `tau_fd`) it won with, rounded up to a tick (the comparison was exact).
    pub objective: Ticks,
}

/// The clouds as the scheduler sees them (see the module's documentation).
pub trait Clouds {
    /// The earliest resource available time of `task` on `cloud`, no earlier than `ready`
    /// (an earlier answer is read as `ready`), or `None` if the cloud cannot take the task.
    fn erat(&self, task: TaskId, cloud: usize, ready: Ticks) -> Option<Ticks>;

    /// Records `decision` (its planned run on its cloud).
    ///
    /// Errors: the caller's; the scheduler then records nothing and returns the error.
    fn hold(&mut self, decision: &Decision) -> Result<(), Error>;
}

/// The list scheduling of one application over `K` clouds.
#[derive(Clone, Debug)]
pub struct Scheduler<'a, const K: usize> {
    dag: &'a Dag,
    etm: &'a Etm<K>,
    rule: Rule,
    now: Ticks,
    image: Ticks,
    factors: [Factor; K],
    listing: Listing,
    priorities: Priorities,
    /// Decisions in the order taken, and each task's by task.
    order: heapless::Vec<TaskId, MAX_TASKS>,
    decided: [Option<Decision>; MAX_TASKS],
    assigned: Tasks,
    /// CMMS: `answer[v][j]` is cloud `j`'s ERAT for `v`, valid for the tasks in `known[j]`
    /// that are not in `refused[j]` (the cloud answered `None`).
    answer: [[Ticks; K]; MAX_TASKS],
    known: [Tasks; K],
    refused: [Tasks; K],
}

impl<'a, const K: usize> Scheduler<'a, K> {
    /// The scheduling of `dag` at `now` under `rule`, with run times `etm`, the image transfer
    /// time `image` (SI/b) added to each, and the factors the origin keeps for each cloud
    /// (all [`Factor::ZERO`] for CLS and CMMS).
    ///
    /// Errors: [`Error::TaskTooLarge`] if some task of `dag` has no cloud that can run it;
    /// [`Error::Overflow`] if the priorities do not fit in ticks.
    pub fn new(
        now: Ticks,
        dag: &'a Dag,
        etm: &'a Etm<K>,
        image: Ticks,
        rule: Rule,
        factors: [Factor; K],
    ) -> Result<Self, Error> {
        if dag.tasks().iter().any(|v| etm.average(v).is_none()) {
            return Err(Error::TaskTooLarge);
        }
        let priorities = Priorities::new(dag, &etm.averages())?;
        let listing = cnpt(dag, &priorities)?;
        Ok(Self {
            dag,
            etm,
            rule,
            now,
            image,
            factors,
            listing,
            priorities,
            order: heapless::Vec::new(),
            decided: [None; MAX_TASKS],
            assigned: Tasks::EMPTY,
            answer: [[Ticks::ZERO; K]; MAX_TASKS],
            known: [Tasks::EMPTY; K],
            refused: [Tasks::EMPTY; K],
        })
    }

    /// The CNPT listing (the order CLS follows).
    pub fn listing(&self) -> &Listing {
        &self.listing
    }

    /// `EST`, `LST` and the critical nodes the listing came from.
    pub fn priorities(&self) -> &Priorities {
        &self.priorities
    }

    /// Whether every task is assigned.
    pub fn is_done(&self) -> bool {
        self.assigned == self.dag.tasks()
    }

    /// The decisions so far, in the order taken.
    pub fn decisions(&self) -> impl Iterator<Item = Decision> + '_ {
        self.order.iter().filter_map(|&v| self.decision(v))
    }

    /// The decision for `task`, if taken.
    pub fn decision(&self, task: TaskId) -> Option<Decision> {
        self.decided.get(usize::from(task)).copied().flatten()
    }

    /// The latest planned finish (`now` before any decision).
    pub fn makespan(&self) -> Ticks {
        self.decisions()
            .map(|d| d.finish)
            .fold(self.now, Ticks::max)
    }

    /// Takes the next decision and holds it with the caller; `None` once every task is
    /// assigned. Each call is all or nothing.
    ///
    /// Errors (nothing recorded): [`Error::NotFree`] if no cloud can take the next task
    /// (CLS) or any ready task (CMMS); [`Error::Overflow`] if a planned finish exceeds
    /// `Ticks::MAX`; any error of [`Clouds::hold`]. ([`Error::Full`] cannot occur: a decision
    /// is only taken for a task not yet assigned, at most 64 of them.)
    pub fn step(&mut self, clouds: &mut impl Clouds) -> Result<Option<Decision>, Error> {
        if self.is_done() {
            return Ok(None);
        }
        let best = match self.rule {
            Rule::List => self.next_listed(clouds)?,
            Rule::MinMin => self.best_ready(clouds)?,
        };
        let decision = best.ok_or(Error::NotFree)?;
        let fresh = self.decision(decision.task).is_none() && !self.order.is_full();
        if !fresh {
            // Unreachable: a decision is only taken for an unassigned task of at most 64.
            return Err(Error::Full);
        }
        clouds.hold(&decision)?;
        if let Some(slot) = self.decided.get_mut(usize::from(decision.task)) {
            *slot = Some(decision);
        }
        // Cannot fail: checked above.
        let _ = self.order.push(decision.task);
        self.assigned.insert(decision.task);
        // The chosen cloud's answers may have changed.
        if let Some(k) = self.known.get_mut(decision.cloud) {
            *k = Tasks::EMPTY;
        }
        if let Some(r) = self.refused.get_mut(decision.cloud) {
            *r = Tasks::EMPTY;
        }
        Ok(Some(decision))
    }

    /// Steps until every task is assigned (at most 64 steps).
    ///
    /// Errors: the first step's that fails; the decisions before it stay recorded.
    pub fn run(&mut self, clouds: &mut impl Clouds) -> Result<(), Error> {
        for _ in 0..=MAX_TASKS {
            if self.step(clouds)?.is_none() {
                break;
            }
        }
        Ok(())
    }

    /// CLS: the next listed task on its best cloud.
    fn next_listed(&self, clouds: &impl Clouds) -> Result<Option<Decision>, Error> {
        let Some(v) = self.listing.get(self.order.len()) else {
            return Ok(None);
        };
        let ready = self.ready(v);
        let mut best = None;
        for j in self.hosts(v) {
            if let Some(start) = clouds.erat(v, j, ready) {
                best = better(best, self.rate(v, j, ready, start)?);
            }
        }
        Ok(best.map(|(d, _)| d))
    }

    /// CMMS: the best pair among the ready tasks, asking only what it does not know.
    fn best_ready(&mut self, clouds: &impl Clouds) -> Result<Option<Decision>, Error> {
        let ready_tasks = self.ready_tasks();
        for v in ready_tasks.iter() {
            let ready = self.ready(v);
            for j in self.hosts(v) {
                let known = self.known.get_mut(j);
                let refused = self.refused.get_mut(j);
                let answer = self
                    .answer
                    .get_mut(usize::from(v))
                    .and_then(|r| r.get_mut(j));
                if let (Some(known), Some(refused), Some(answer)) = (known, refused, answer)
                    && !known.contains(v)
                {
                    match clouds.erat(v, j, ready) {
                        Some(erat) => *answer = erat,
                        None => refused.insert(v),
                    }
                    known.insert(v);
                }
            }
        }
        let mut best = None;
        for v in ready_tasks.iter() {
            let ready = self.ready(v);
            for j in self.hosts(v) {
                let refused = self.refused.get(j).is_none_or(|r| r.contains(v));
                let answer = self.answer.get(usize::from(v)).and_then(|r| r.get(j));
                if let (false, Some(&start)) = (refused, answer) {
                    best = better(best, self.rate(v, j, ready, start)?);
                }
            }
        }
        Ok(best.map(|(d, _)| d))
    }

    /// The clouds whose ETM has a time for `v`, in increasing order.
    fn hosts(&self, v: TaskId) -> impl Iterator<Item = usize> + use<'a, K> {
        let etm = self.etm;
        (0..K).filter(move |&j| etm.get(v, j).is_some())
    }

    /// The tasks not assigned whose predecessors all are.
    fn ready_tasks(&self) -> Tasks {
        let mut ready = Tasks::EMPTY;
        for v in self.dag.tasks().minus(self.assigned).iter() {
            if self.dag.preds(v).is_subset(self.assigned) {
                ready.insert(v);
            }
        }
        ready
    }

    /// `max(now, planned finish of every assigned predecessor)`.
    fn ready(&self, v: TaskId) -> Ticks {
        self.dag
            .preds(v)
            .iter()
            .filter_map(|u| self.decision(u))
            .map(|d| d.finish)
            .fold(self.now, Ticks::max)
    }

    /// Task `v` on cloud `j` from `start` (no earlier than `ready`): its planned finish and
    /// its exact `tau_fd`.
    fn rate(
        &self,
        v: TaskId,
        j: usize,
        ready: Ticks,
        start: Ticks,
    ) -> Result<(Decision, Tau), Error> {
        let run = self.etm.get(v, j).ok_or(Error::TaskTooLarge)?;
        let d = self.image.checked_add(run).ok_or(Error::Overflow)?;
        let start = start.max(ready);
        let fd = self.factors.get(j).copied().unwrap_or(Factor::ZERO);
        let tau = fd.tau(start, d);
        let decision = Decision {
            task: v,
            cloud: j,
            ready,
            start,
            finish: start.checked_add(d).ok_or(Error::Overflow)?,
            objective: tau.ceil(),
        };
        Ok((decision, tau))
    }
}

/// The better of a best-so-far and a candidate rated after it: a strictly smaller objective
/// (compared exactly) wins, so ties stay with the earlier (lower) task and cloud.
fn better(best: Option<(Decision, Tau)>, candidate: (Decision, Tau)) -> Option<(Decision, Tau)> {
    match best {
        Some(b) if b.1 <= candidate.1 => Some(b),
        _ => Some(candidate),
    }
}
