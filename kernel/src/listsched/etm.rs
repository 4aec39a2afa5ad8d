//! The execution time matrix (gandhimathi2013 Sec. 2.4): the run time of each task of an
//! application on each of `K` clouds, or that the cloud cannot run it (more VMs than it has).
//!
//! # Units and invariants
//! Times in [`Ticks`] (µs). A time is at least one tick; a cloud that cannot run a task has
//! no time for it (stored as zero, which is never a time). `size_of::<Etm<K>>()` is
//! `512 K` bytes (1,536 for three clouds).

use crate::dag::{MAX_TASKS, Mean, TaskId};
use crate::error::{Error, Param};
use crate::units::Ticks;

/// The run time of each task (`0 .. MAX_TASKS`) on each of `K` clouds.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Etm<const K: usize> {
    times: [[Ticks; K]; MAX_TASKS],
}

impl<const K: usize> Default for Etm<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const K: usize> Etm<K> {
    /// The matrix in which no cloud can run any task.
    pub const fn new() -> Self {
        Self {
            times: [[Ticks::ZERO; K]; MAX_TASKS],
        }
    }

    /// Sets the run time of `task` on `cloud`: `Some(time)`, or `None` if the cloud cannot run
    /// it.
    ///
    /// Errors (nothing changed): [`Error::Unknown`] if `task >= MAX_TASKS` or `cloud >= K`;
    /// `InvalidParameter(Work)` for a time of zero.
    pub fn set(&mut self, task: TaskId, cloud: usize, time: Option<Ticks>) -> Result<(), Error> {
        if time == Some(Ticks::ZERO) {
            return Err(Error::InvalidParameter(Param::Work));
        }
        let slot = self
            .times
            .get_mut(usize::from(task))
            .and_then(|row| row.get_mut(cloud))
            .ok_or(Error::Unknown)?;
        *slot = time.unwrap_or(Ticks::ZERO);
        Ok(())
    }

    /// The run time of `task` on `cloud`, if the cloud can run it.
    pub fn get(&self, task: TaskId, cloud: usize) -> Option<Ticks> {
        self.times
            .get(usize::from(task))
            .and_then(|row| row.get(cloud))
            .copied()
            .filter(|&t| t != Ticks::ZERO)
    }

    /// `AT(task)`: the mean run time over the clouds that can run it, exact (the sum and the
    /// count, below `K 2^64` ticks and at most `K`); `None` if none can. `O(K)`.
    pub fn average(&self, task: TaskId) -> Option<Mean> {
        let (sum, n) = (0..K)
            .filter_map(|j| self.get(task, j))
            .fold((0u128, 0u64), |(s, n), t| {
                (s.saturating_add(u128::from(t.get())), n.saturating_add(1))
            });
        Mean::new(sum, n)
    }

    /// `AT` of every task ([`Mean::ZERO`] for a task no cloud can run), as
    /// [`crate::dag::Priorities`] takes them. `O(64 K)`.
    pub fn averages(&self) -> [Mean; MAX_TASKS] {
        let mut at = [Mean::ZERO; MAX_TASKS];
        for (v, slot) in at.iter_mut().enumerate() {
            *slot = self.average(TaskId::new(v as u8)).unwrap_or(Mean::ZERO);
        }
        at
    }
}
