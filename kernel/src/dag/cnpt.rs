//! Algorithm 1 of gandhimathi2013 (the CNPT listing), as read in E21.
//!
//! ```text
//! push the critical nodes on stack S in decreasing (LST, id): the smallest on top
//! while S is not empty:
//!     t = top(S)
//!     U = predecessors of t not yet listed
//!     if U is not empty: push argmin over U of (LST, id)
//!     else: pop t; list it unless already listed
//! ```
//!
//! "Un-stacked" in the paper means "not yet listed" (E21). The stack is run here as one
//! depth-first pass per critical node, in increasing (LST, id): exactly the order in which the
//! paper's initial stack surfaces them, since a critical node below the top is reached only when
//! everything above it is listed and popped. A task pushed as a predecessor is always listed
//! before the task below it resumes, and no task above it can need it again (it would be its
//! own ancestor), so the stack holds a chain of distinct tasks: at most `n` entries.
//!
//! # Guarantees
//! Every task is listed exactly once, and after all its predecessors (a task is listed only when
//! none of its predecessors is unlisted). Every exit task is critical ([`super::Priorities`]),
//! and every task is an ancestor of an exit, so the critical roots reach every task; the
//! remaining tasks are also taken as roots, in increasing (LST, id), which only matters for
//! priorities that are not this DAG's, and keeps the listing complete for any input.

use heapless::Vec;

use super::graph::{Dag, MAX_TASKS, TaskId, Tasks};
use super::priority::Priorities;
use crate::error::Error;

/// The tasks of an application in the order Algorithm 1 lists them.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Listing {
    order: Vec<TaskId, MAX_TASKS>,
}

impl Listing {
    /// The tasks, first listed first.
    pub fn as_slice(&self) -> &[TaskId] {
        &self.order
    }

    /// The `i`-th task listed.
    pub fn get(&self, i: usize) -> Option<TaskId> {
        self.order.get(i).copied()
    }

    /// The number of tasks listed.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether nothing is listed.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

/// The CNPT listing of `dag` under `priorities` (which should be `dag`'s; see the module's
/// guarantees). `O(n^2)` for `n` tasks (each stack step scans one predecessor set).
///
/// Errors: [`Error::Full`] cannot occur (the stack and the list hold at most `n <= 64`
/// entries, as the module shows); it is returned rather than a panic path.
pub fn cnpt(dag: &Dag, priorities: &Priorities) -> Result<Listing, Error> {
    // Exact: every LST of one `Priorities` is in the same unit.
    let key = |v: TaskId| (priorities.lst(v).units(), v);
    let mut listing = Listing::default();
    let mut listed = Tasks::EMPTY;
    let mut stack: Vec<TaskId, MAX_TASKS> = Vec::new();
    // Roots: the critical nodes, then (only for foreign priorities) whatever is left.
    for pass in [priorities.critical(), dag.tasks()] {
        let mut roots: Vec<TaskId, MAX_TASKS> = pass.minus(listed).iter().collect();
        roots.sort_unstable_by_key(|&v| key(v));
        for &root in &roots {
            if listed.contains(root) {
                continue;
            }
            stack.push(root).map_err(|_| Error::Full)?;
            while let Some(&t) = stack.last() {
                let unlisted = dag.preds(t).minus(listed);
                match argmin(unlisted, key) {
                    Some(u) => stack.push(u).map_err(|_| Error::Full)?,
                    None => {
                        stack.pop();
                        if !listed.contains(t) {
                            listed.insert(t);
                            listing.order.push(t).map_err(|_| Error::Full)?;
                        }
                    }
                }
            }
        }
    }
    Ok(listing)
}

/// The task of `set` with the smallest `key`, if any.
fn argmin<K: Ord>(set: Tasks, key: impl Fn(TaskId) -> K) -> Option<TaskId> {
    set.iter().min_by_key(|&v| key(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dag::Mean;
    use crate::units::Ticks;

    /// E21's golden DAG (tasks 1-6 as 0-5): 1 -> {2, 3, 4}, {2, 3} -> 5, {4, 5} -> 6, with AT
    /// the row means of the ETM (A, B, C) of E21 in thirds of a second.
    #[test]
    fn golden_dag_lists_1_3_2_5_4_6() {
        let p = |vs: &[u8]| {
            vs.iter()
                .fold(Tasks::EMPTY, |s, &v| s.union(Tasks::one(TaskId::new(v))))
        };
        let dag =
            Dag::from_preds(&[p(&[]), p(&[0]), p(&[0]), p(&[0]), p(&[1, 2]), p(&[3, 4])]).unwrap();
        let mut at = [Mean::ZERO; MAX_TASKS];
        for (v, sum) in [22, 12, 18, 15, 18, 18].into_iter().enumerate() {
            at[v] = Mean::whole(Ticks::new(sum));
        }
        let prio = Priorities::new(&dag, &at).unwrap();
        assert_eq!(prio.critical(), p(&[0, 2, 4, 5]));
        let list = cnpt(&dag, &prio).unwrap();
        assert!(
            list.as_slice()
                .iter()
                .map(|v| v.get())
                .eq([0, 2, 1, 4, 3, 5])
        );
    }
}
