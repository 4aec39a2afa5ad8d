//! Earliest and latest start times and the critical nodes (gandhimathi2013 Sec. 3.1.1, Eq. 2-3 as
//! read in E21).
//!
//! With `AT(v)` the average execution time of task `v` (over the clouds that can run it:
//! [`crate::listsched::Etm::averages`]):
//!
//! ```text
//! EST(v) = 0                                   for an entry task
//!        = max over predecessors u of EST(u) + AT(u)
//! LST(v) = EST(v)                              for an exit task
//!        = min over successors s of LST(s) - AT(v)
//! CN     = { v : EST(v) = LST(v) }             (compared in integer ticks)
//! ```
//!
//! # Invariants
//! `0 <= EST(v) <= LST(v)` for every task (by induction from the exits: `LST(s) >= EST(s) >=
//! EST(v) + AT(v)` for every successor `s`), so `LST` never underflows, and every exit task is
//! critical.

use super::graph::{Dag, MAX_TASKS, TaskId, Tasks};
use crate::error::Error;
use crate::units::Ticks;

/// `EST`, `LST` and the critical nodes of one [`Dag`] under given average times.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Priorities {
    est: [Ticks; MAX_TASKS],
    lst: [Ticks; MAX_TASKS],
    critical: Tasks,
}

impl Priorities {
    /// The times of `dag` with `at[v]` the average execution time of task `v` (entries beyond
    /// the application's tasks are not read). `O(n^2)` for `n` tasks.
    ///
    /// Errors: [`Error::Overflow`] if an `EST(u) + AT(u)` exceeds `Ticks::MAX`.
    pub fn new(dag: &Dag, at: &[Ticks; MAX_TASKS]) -> Result<Self, Error> {
        let at = |v: TaskId| at.get(usize::from(v)).copied().unwrap_or(Ticks::ZERO);
        let mut est = [Ticks::ZERO; MAX_TASKS];
        // Tasks are numbered in a topological order: predecessors come first.
        for v in dag.tasks().iter() {
            let mut e = Ticks::ZERO;
            for u in dag.preds(v).iter() {
                let ready = get(&est, u).checked_add(at(u)).ok_or(Error::Overflow)?;
                e = e.max(ready);
            }
            set(&mut est, v, e);
        }
        let mut lst = [Ticks::ZERO; MAX_TASKS];
        for i in (0..dag.len()).rev() {
            let v = TaskId::new(i as u8);
            let succs = dag.succs(v);
            let l = if succs.is_empty() {
                get(&est, v)
            } else {
                let mut l = Ticks::MAX;
                for s in succs.iter() {
                    l = l.min(get(&lst, s).checked_sub(at(v)).ok_or(Error::Overflow)?);
                }
                l
            };
            set(&mut lst, v, l);
        }
        let mut critical = Tasks::EMPTY;
        for v in dag.tasks().iter() {
            if get(&est, v) == get(&lst, v) {
                critical.insert(v);
            }
        }
        Ok(Self { est, lst, critical })
    }

    /// `EST(v)` (zero for a task not in the application).
    pub fn est(&self, v: TaskId) -> Ticks {
        get(&self.est, v)
    }

    /// `LST(v)` (zero for a task not in the application).
    pub fn lst(&self, v: TaskId) -> Ticks {
        get(&self.lst, v)
    }

    /// The critical nodes: `EST = LST`.
    pub fn critical(&self) -> Tasks {
        self.critical
    }
}

fn get(times: &[Ticks; MAX_TASKS], v: TaskId) -> Ticks {
    times.get(usize::from(v)).copied().unwrap_or(Ticks::ZERO)
}

fn set(times: &mut [Ticks; MAX_TASKS], v: TaskId, t: Ticks) {
    if let Some(slot) = times.get_mut(usize::from(v)) {
        *slot = t;
    }
}
