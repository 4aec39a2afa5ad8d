//! Earliest and latest start times and the critical nodes (gandhimathi2013 Sec. 3.1.1, Eq. 2-3 as
//! read in E21), in exact arithmetic.
//!
//! With `AT(v)` the average execution time of task `v` (over the clouds that can run it:
//! [`crate::listsched::Etm::averages`]):
//!
//! ```text
//! EST(v) = 0                                   for an entry task
//!        = max over predecessors u of EST(u) + AT(u)
//! LST(v) = EST(v)                              for an exit task
//!        = min over successors s of LST(s) - AT(v)
//! CN     = { v : EST(v) = LST(v) }
//! ```
//!
//! # Exactness
//! An average is a [`Mean`], `total / count` ticks, kept as the pair: nothing is rounded. All
//! times of one application are counted in one unit, `1 / scale` tick, where `scale` is the
//! least common multiple of its tasks' counts (at most 6 for three clouds; 1 when every average
//! is a whole number of ticks), so every `AT` is a whole number of units and `EST`, `LST` and
//! the test `EST = LST` are integer arithmetic: exact.
//!
//! # Bounds
//! Units are `u128`. With `count <= K` clouds and times below `2^64` ticks, `AT < K 2^64` ticks
//! and `EST, LST < 64 K 2^64` ticks, that is below `2^(70 + log2(K)) scale` units: for three
//! clouds (`scale <= 6`) below `2^75`, so no application of three clouds overflows.
//! [`Error::Overflow`] is returned when `scale` exceeds `u64` or a time exceeds `u128` units
//! (only for many more clouds).
//!
//! # Invariants
//! `0 <= EST(v) <= LST(v)` for every task (by induction from the exits: `LST(s) >= EST(s) >=
//! EST(v) + AT(v)` for every successor `s`), so `LST` never underflows, and every exit task is
//! critical.

use super::graph::{Dag, MAX_TASKS, TaskId, Tasks};
use crate::error::Error;
use crate::units::Ticks;

/// An exact average time: `total / count` ticks (µs), `count >= 1`. Equality is of the pair,
/// not of the value (`2 / 2` is not `1 / 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Mean {
    total: u128,
    count: u64,
}

impl Mean {
    /// Zero ticks.
    pub const ZERO: Self = Self { total: 0, count: 1 };

    /// `total / count` ticks, or `None` if `count` is zero.
    pub const fn new(total: u128, count: u64) -> Option<Self> {
        if count == 0 {
            None
        } else {
            Some(Self { total, count })
        }
    }

    /// A whole number of ticks.
    pub const fn whole(t: Ticks) -> Self {
        Self {
            total: t.get() as u128,
            count: 1,
        }
    }

    /// The sum of the times averaged, ticks.
    pub const fn total(self) -> u128 {
        self.total
    }

    /// How many times were averaged (at least one).
    pub const fn count(self) -> u64 {
        self.count
    }
}

/// A time of exactly `units / scale` ticks (µs): an `EST` or `LST` of [`Priorities`]. Every time
/// of one `Priorities` has the same `scale`, so two of them are equal exactly when their units
/// are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Exact {
    units: u128,
    scale: u64,
}

impl Exact {
    /// The time in units of `1 / scale` tick.
    pub const fn units(self) -> u128 {
        self.units
    }

    /// Units per tick (at least one).
    pub const fn scale(self) -> u64 {
        self.scale
    }
}

/// `EST`, `LST` and the critical nodes of one [`Dag`] under given average times.
///
/// `size_of` is 2,064 bytes on x86-64 (two `u128` per task, the scale and the critical set).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Priorities {
    /// In units of `1 / scale` tick.
    est: [u128; MAX_TASKS],
    lst: [u128; MAX_TASKS],
    scale: u64,
    critical: Tasks,
}

impl Priorities {
    /// The times of `dag` with `at[v]` the average execution time of task `v` (entries beyond
    /// the application's tasks are not read). `O(n^2)` for `n` tasks.
    ///
    /// Errors: [`Error::Overflow`] if the common unit or a time does not fit (see the module's
    /// bounds; never for three clouds).
    pub fn new(dag: &Dag, at: &[Mean; MAX_TASKS]) -> Result<Self, Error> {
        let mean = |v: TaskId| at.get(usize::from(v)).copied().unwrap_or(Mean::ZERO);
        let mut scale: u64 = 1;
        for v in dag.tasks().iter() {
            scale = lcm(scale, mean(v).count).ok_or(Error::Overflow)?;
        }
        // `AT` of every task in units: `total (scale / count)`, exact since `count | scale`.
        let mut units = [0u128; MAX_TASKS];
        for v in dag.tasks().iter() {
            let m = mean(v);
            let per = u128::from(scale / m.count);
            set(
                &mut units,
                v,
                m.total.checked_mul(per).ok_or(Error::Overflow)?,
            );
        }
        let at = |v: TaskId| get(&units, v);
        let mut est = [0u128; MAX_TASKS];
        // Tasks are numbered in a topological order: predecessors come first.
        for v in dag.tasks().iter() {
            let mut e = 0;
            for u in dag.preds(v).iter() {
                let ready = get(&est, u).checked_add(at(u)).ok_or(Error::Overflow)?;
                e = e.max(ready);
            }
            set(&mut est, v, e);
        }
        let mut lst = [0u128; MAX_TASKS];
        for i in (0..dag.len()).rev() {
            let v = TaskId::new(i as u8);
            let succs = dag.succs(v);
            let l = if succs.is_empty() {
                get(&est, v)
            } else {
                let mut l = u128::MAX;
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
        Ok(Self {
            est,
            lst,
            scale,
            critical,
        })
    }

    /// `EST(v)` (zero for a task not in the application).
    pub fn est(&self, v: TaskId) -> Exact {
        self.exact(get(&self.est, v))
    }

    /// `LST(v)` (zero for a task not in the application).
    pub fn lst(&self, v: TaskId) -> Exact {
        self.exact(get(&self.lst, v))
    }

    /// The critical nodes: `EST = LST`, exactly.
    pub fn critical(&self) -> Tasks {
        self.critical
    }

    fn exact(&self, units: u128) -> Exact {
        Exact {
            units,
            scale: self.scale,
        }
    }
}

/// The least common multiple of `a, b >= 1`, or `None` if it exceeds `u64`.
fn lcm(a: u64, b: u64) -> Option<u64> {
    let (mut x, mut y) = (a, b);
    // Euclid: at most about 93 steps for `u64`.
    while y != 0 {
        (x, y) = (y, x % y);
    }
    (a / x.max(1)).checked_mul(b)
}

fn get(times: &[u128; MAX_TASKS], v: TaskId) -> u128 {
    times.get(usize::from(v)).copied().unwrap_or(0)
}

fn set(times: &mut [u128; MAX_TASKS], v: TaskId, t: u128) {
    if let Some(slot) = times.get_mut(usize::from(v)) {
        *slot = t;
    }
}
