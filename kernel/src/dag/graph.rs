//! The DAG itself: tasks numbered in a topological order, their predecessor and successor sets.
//!
//! # Invariants
//! - `len <= MAX_TASKS`; every task `v < len` has predecessors among `0..v` only, so the graph
//!   is acyclic and `0, 1, ..., len - 1` is a topological order.
//! - `succs[u]` holds `v` exactly when `preds[v]` holds `u`; entries at and beyond `len` are
//!   empty.

use crate::error::Error;

/// The most tasks an application has: one bit of a [`Tasks`] word each.
pub const MAX_TASKS: usize = 64;

crate::handle::handle! {
    /// A task of a [`Dag`], handed out by [`Dag::push`]: its number, `0 .. MAX_TASKS`, in the
    /// order tasks were added (a topological order). `usize::from` gives the index into
    /// per-task tables.
    TaskId(u8) as index
}

/// A set of tasks of one [`Dag`], one bit per task (bit `v` for task `v`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Tasks(u64);

impl Tasks {
    /// No task.
    pub const EMPTY: Self = Self(0);

    /// The set whose bit `v` is set for each task `v` in it.
    pub const fn from_bits(bits: u64) -> Self {
        Self(bits)
    }

    /// The bits of the set.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Tasks `0 .. n` (every task when `n >= MAX_TASKS`).
    pub const fn first(n: usize) -> Self {
        if n >= MAX_TASKS {
            Self(u64::MAX)
        } else {
            Self((1u64 << n) - 1)
        }
    }

    /// `{v}`; empty when `v >= MAX_TASKS`.
    pub const fn one(v: TaskId) -> Self {
        match 1u64.checked_shl(v.get() as u32) {
            Some(bit) => Self(bit),
            None => Self::EMPTY,
        }
    }

    /// Whether `v` is in the set.
    pub const fn contains(self, v: TaskId) -> bool {
        self.0 & Self::one(v).0 != 0
    }

    /// Adds `v` (nothing if `v >= MAX_TASKS`).
    pub fn insert(&mut self, v: TaskId) {
        self.0 |= Self::one(v).0;
    }

    /// The tasks in either set.
    pub const fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// The tasks of `self` that are not in `other`.
    pub const fn minus(self, other: Self) -> Self {
        Self(self.0 & !other.0)
    }

    /// Whether every task of `self` is in `other`.
    pub const fn is_subset(self, other: Self) -> bool {
        self.0 & !other.0 == 0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of tasks in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The smallest task in the set.
    pub const fn lowest(self) -> Option<TaskId> {
        if self.0 == 0 {
            None
        } else {
            Some(TaskId::new(self.0.trailing_zeros() as u8))
        }
    }

    /// The tasks in increasing order.
    pub fn iter(self) -> impl Iterator<Item = TaskId> {
        let mut rest = self;
        core::iter::from_fn(move || {
            let v = rest.lowest()?;
            rest = rest.minus(Self::one(v));
            Some(v)
        })
    }
}

/// An application: at most [`MAX_TASKS`] tasks, each added after its predecessors.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Dag {
    preds: [Tasks; MAX_TASKS],
    succs: [Tasks; MAX_TASKS],
    len: u8,
}

impl Default for Dag {
    fn default() -> Self {
        Self::new()
    }
}

impl Dag {
    /// The application of no task.
    pub const fn new() -> Self {
        Self {
            preds: [Tasks::EMPTY; MAX_TASKS],
            succs: [Tasks::EMPTY; MAX_TASKS],
            len: 0,
        }
    }

    /// The application whose task `v` has the predecessors `preds[v]`.
    ///
    /// Errors: those of [`Dag::push`], for the first task that fails.
    pub fn from_preds(preds: &[Tasks]) -> Result<Self, Error> {
        let mut dag = Self::new();
        for &p in preds {
            dag.push(p)?;
        }
        Ok(dag)
    }

    /// Adds a task whose predecessors are `preds` (tasks already added) and returns its number.
    /// `O(1)` word operations plus one per predecessor.
    ///
    /// Errors (nothing added): [`Error::Full`] if the application has [`MAX_TASKS`] tasks;
    /// [`Error::Unknown`] if `preds` names a task not yet added (which is also how a cycle
    /// would have to start).
    pub fn push(&mut self, preds: Tasks) -> Result<TaskId, Error> {
        let v = TaskId::new(self.len);
        if usize::from(v) >= MAX_TASKS {
            return Err(Error::Full);
        }
        if !preds.is_subset(self.tasks()) {
            return Err(Error::Unknown);
        }
        let slot = self.preds.get_mut(usize::from(v)).ok_or(Error::Full)?;
        *slot = preds;
        for u in preds.iter() {
            if let Some(s) = self.succs.get_mut(usize::from(u)) {
                s.insert(v);
            }
        }
        self.len = self.len.saturating_add(1);
        Ok(v)
    }

    /// The number of tasks.
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the application has no task.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every task.
    pub const fn tasks(&self) -> Tasks {
        Tasks::first(self.len as usize)
    }

    /// The immediate predecessors of `v` (empty for a task not in the application).
    pub fn preds(&self, v: TaskId) -> Tasks {
        self.preds.get(usize::from(v)).copied().unwrap_or_default()
    }

    /// The immediate successors of `v` (empty for a task not in the application).
    pub fn succs(&self, v: TaskId) -> Tasks {
        self.succs.get(usize::from(v)).copied().unwrap_or_default()
    }

    /// The entry tasks: those without predecessors.
    pub fn entries(&self) -> Tasks {
        self.select(|dag, v| dag.preds(v).is_empty())
    }

    /// The exit tasks: those without successors.
    pub fn exits(&self) -> Tasks {
        self.select(|dag, v| dag.succs(v).is_empty())
    }

    /// The tasks `v` for which `keep(self, v)` holds.
    fn select(&self, keep: impl Fn(&Self, TaskId) -> bool) -> Tasks {
        let mut set = Tasks::EMPTY;
        for v in self.tasks().iter() {
            if keep(self, v) {
                set.insert(v);
            }
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn t(n: u8) -> TaskId {
        TaskId::new(n)
    }

    #[test]
    fn a_task_may_only_follow_tasks_already_added() {
        let mut dag = Dag::new();
        assert_eq!(dag.push(Tasks::EMPTY), Ok(t(0)));
        assert_eq!(dag.push(Tasks::one(t(1))), Err(Error::Unknown));
        assert_eq!(dag.push(Tasks::one(t(0))), Ok(t(1)));
        assert_eq!(dag.succs(t(0)), Tasks::one(t(1)));
        assert_eq!(dag.entries(), Tasks::one(t(0)));
        assert_eq!(dag.exits(), Tasks::one(t(1)));
        for _ in 2..MAX_TASKS {
            dag.push(Tasks::EMPTY).unwrap();
        }
        let full = dag.clone();
        assert_eq!(dag.push(Tasks::EMPTY), Err(Error::Full));
        assert_eq!(dag, full);
        assert_eq!(dag.tasks(), Tasks::from_bits(u64::MAX));
    }

    #[test]
    fn a_set_iterates_in_increasing_order() {
        let s = Tasks::from_bits(0b1010_0110 | 1 << 63);
        assert!(s.iter().map(TaskId::get).eq([1, 2, 5, 7, 63]));
        assert_eq!(s.len(), 5);
        assert!(!Tasks::one(t(64)).contains(t(64)));
    }
}
