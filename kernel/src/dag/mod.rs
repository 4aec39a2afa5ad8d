//! DAG applications of gandhimathi2013 (Sec. 2.4, 3.1.1): tasks and their precedence, the earliest
//! and latest start times, the critical nodes and the CNPT listing of Algorithm 1, as read in E21.
//!
//! An application is a [`Dag`] of at most [`MAX_TASKS`] (64) tasks. Tasks are numbered from 0
//! in the order they are added, and a task's predecessors are earlier tasks: the numbering is a
//! topological order, so a cycle cannot be built and no call has to detect one. Sets of tasks
//! are [`Tasks`], a 64-bit set.
//!
//! - [`Dag`]: the tasks with their predecessor and successor sets.
//! - [`Priorities`]: `EST`, `LST` and the critical nodes from each task's average execution
//!   time `AT` (Eq. 2, 3).
//! - [`cnpt`]: the task list of Algorithm 1 (every task exactly once, each after its
//!   predecessors), which the cloud list scheduler ([`crate::listsched`]) follows.
//!
//! # Units
//! Times (`AT`, `EST`, `LST`) are in [`Ticks`](crate::units::Ticks) (µs); a caller that thinks in
//! seconds converts at its edge. Nothing is rounded: an average `AT` is kept as its sum and
//! count ([`Mean`]), and `EST` and `LST` are counted in `1 / scale` tick with `scale` the least
//! common multiple of the counts ([`Exact`]), so "`EST = LST`" is exact (the bounds are in
//! [`Priorities`]' module: no application over three clouds overflows).
//!
//! # Memory and cost
//! `size_of::<Dag>()` is 1,032 bytes, [`Priorities`] 2,064 and [`Listing`] 72 on x86-64. With
//! `n` tasks: [`Dag::push`] is `O(n)` bit operations (one per predecessor), [`Priorities::new`]
//! `O(n^2)` bit operations (each task reads its predecessors' and successors' times), and
//! [`cnpt`] `O(n^2)`: at most `2 n` stack steps, each scanning one predecessor set. No
//! recursion, no allocation; the stack of Algorithm 1 holds at most `n` entries.

mod cnpt;
mod graph;
mod priority;

pub use cnpt::{Listing, cnpt};
pub use graph::{Dag, MAX_TASKS, TaskId, Tasks};
pub use priority::{Exact, Mean, Priorities};
