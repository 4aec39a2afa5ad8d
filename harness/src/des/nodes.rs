//! A cluster's nodes by name. The kernel counts nodes; a model names them, so that a failure
//! hits the job on the failed node and a schedule can say which nodes each run held (a Batsim
//! `jobs.csv`, a Gantt chart). The trace replay names them as it goes ([`NodeMap`]); the lease
//! replay names them afterwards from the intervals its leases held nodes ([`place`]).
//!
//! # Rule
//! Nodes are numbered `0 .. nodes`. A run that starts takes the lowest-numbered idle up nodes
//! and holds them until it ends (its job completes, or a failure or a suspension stops it); a
//! job that runs again starts on whatever nodes are then the lowest idle ones.
//!
//! # Invariants ([`NodeMap`])
//! Every node is exactly one of idle, held by one running job, or down and not held; a down
//! node is never given to a job; the idle set counts what the kernel thinks is free only while
//! the kernel and the replay agree (the replay checks it on every start, and fails naming the
//! job if they do not). `tests/backfill.rs` checks on random traces, with and without failures,
//! that no node is ever held by two runs at once, and `tests/leases.rs` the same of [`place`].

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::ops::Range;

/// A set of nodes as disjoint, non-adjacent ranges `[start, end)` in increasing order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeSet {
    ranges: Vec<Range<u32>>,
}

impl NodeSet {
    /// Its ranges, in increasing order.
    pub fn ranges(&self) -> &[Range<u32>] {
        &self.ranges
    }

    /// The number of nodes.
    pub fn len(&self) -> u32 {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }

    /// Whether it holds no node.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Its nodes, in increasing order.
    pub fn nodes(&self) -> impl Iterator<Item = u32> + '_ {
        self.ranges.iter().flat_map(Clone::clone)
    }

    /// Adds `r` after every range held (`r.start` beyond them), merging it with the last one if
    /// they touch.
    fn push(&mut self, r: Range<u32>) {
        match self.ranges.last_mut() {
            Some(last) if last.end == r.start => last.end = r.end,
            _ => self.ranges.push(r),
        }
    }
}

/// The interval-set text of Batsim and evalys (procset): ranges separated by spaces, each
/// `first-last` (both included) or a single node, `0-3 7 9-10`; the empty set is empty text.
impl fmt::Display for NodeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.ranges.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            if r.end - r.start == 1 {
                write!(f, "{}", r.start)?;
            } else {
                write!(f, "{}-{}", r.start, r.end - 1)?;
            }
        }
        Ok(())
    }
}

/// The idle up nodes: disjoint, non-adjacent ranges keyed by their start (`start -> end`), so
/// that taking the lowest `k` nodes and giving a job's nodes back cost a step per range, not
/// per node.
#[derive(Debug, Clone, Default)]
struct Idle {
    ranges: BTreeMap<u32, u32>,
    len: u32,
}

impl Idle {
    /// The lowest `k` idle nodes, removed from the set; `None` (and nothing removed) if fewer
    /// than `k` are idle.
    fn take_lowest(&mut self, k: u32) -> Option<NodeSet> {
        if k > self.len {
            return None;
        }
        let mut set = NodeSet::default();
        let mut left = k;
        while left > 0 {
            let (start, end) = self.ranges.pop_first()?;
            let n = (end - start).min(left);
            set.push(start..start + n);
            if start + n < end {
                self.ranges.insert(start + n, end);
            }
            left -= n;
        }
        self.len -= k;
        Some(set)
    }

    /// Adds the range `r` of nodes, none of them idle already, merging it with its neighbours.
    fn insert(&mut self, r: Range<u32>) {
        self.len += r.end - r.start;
        let (mut start, mut end) = (r.start, r.end);
        if let Some((&s, &e)) = self.ranges.range(..start).next_back()
            && e == start
        {
            self.ranges.remove(&s);
            start = s;
        }
        if let Some(e) = self.ranges.remove(&end) {
            end = e;
        }
        self.ranges.insert(start, end);
    }

    /// Removes `node` if it is idle; returns whether it was.
    fn remove(&mut self, node: u32) -> bool {
        let Some((&s, &e)) = self.ranges.range(..=node).next_back() else {
            return false;
        };
        if node >= e {
            return false;
        }
        self.ranges.remove(&s);
        if s < node {
            self.ranges.insert(s, node);
        }
        if node + 1 < e {
            self.ranges.insert(node + 1, e);
        }
        self.len -= 1;
        true
    }
}

/// Which node runs which job ([module rule](self)). Every operation costs a step per range of
/// nodes, never a step per node: a replay that names nodes stays as fast as one that counts them.
#[derive(Debug, Clone)]
pub struct NodeMap {
    nodes: u32,
    /// Down nodes.
    down: BTreeSet<u32>,
    idle: Idle,
    /// The ranges held: `start -> (end, job)`.
    busy: BTreeMap<u32, (u32, usize)>,
    /// The nodes of each job, by its index (empty while it holds none).
    held: Vec<NodeSet>,
}

/// Why a node event could not be applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeError {
    /// The node number is not below the cluster's size.
    Unknown,
    /// The node fails while down, or comes back while up.
    AlreadyThere,
}

impl NodeMap {
    /// `nodes` nodes, all up and idle.
    pub fn new(nodes: u32) -> Self {
        let mut idle = Idle::default();
        if nodes > 0 {
            idle.insert(0..nodes);
        }
        Self {
            nodes,
            down: BTreeSet::new(),
            idle,
            busy: BTreeMap::new(),
            held: Vec::new(),
        }
    }

    /// Nodes of the cluster.
    pub fn count(&self) -> u32 {
        self.nodes
    }

    /// Idle up nodes.
    pub fn idle(&self) -> u32 {
        self.idle.len
    }

    /// Job `job` (holding none) starts on `procs` nodes: it takes the lowest idle ones,
    /// returned; `None` (and nothing taken) if fewer are idle.
    pub fn take(&mut self, job: usize, procs: u32) -> Option<&NodeSet> {
        let set = self.idle.take_lowest(procs)?;
        for r in set.ranges() {
            self.busy.insert(r.start, (r.end, job));
        }
        if self.held.len() <= job {
            self.held.resize_with(job + 1, NodeSet::default);
        }
        self.held[job] = set;
        Some(&self.held[job])
    }

    /// Job `job`'s run ends: its nodes that are up become idle. Returns the nodes it held
    /// (empty if it held none).
    pub fn give_back(&mut self, job: usize) -> NodeSet {
        let set = self
            .held
            .get_mut(job)
            .map(std::mem::take)
            .unwrap_or_default();
        for r in set.ranges() {
            self.busy.remove(&r.start);
            let mut from = r.start;
            for &n in self.down.range(r.clone()) {
                if from < n {
                    self.idle.insert(from..n);
                }
                from = n + 1;
            }
            if from < r.end {
                self.idle.insert(from..r.end);
            }
        }
        set
    }

    /// The job running on `node`, if any.
    pub fn owner(&self, node: u32) -> Option<usize> {
        let (_, &(end, job)) = self.busy.range(..=node).next_back()?;
        (node < end).then_some(job)
    }

    /// Node `node` goes down (`up == false`) or comes back (`up == true`). A node that fails
    /// while held stays held (the caller interrupts its job and gives its nodes back); a node
    /// that comes back is idle.
    ///
    /// Errors: an unknown node; a failure of a down node or a repair of an up one.
    pub fn set_up(&mut self, node: u32, up: bool) -> Result<(), NodeError> {
        if node >= self.nodes {
            return Err(NodeError::Unknown);
        }
        if up {
            if !self.down.remove(&node) {
                return Err(NodeError::AlreadyThere);
            }
            if self.owner(node).is_none() {
                self.idle.insert(node..node + 1);
            }
        } else {
            if !self.down.insert(node) {
                return Err(NodeError::AlreadyThere);
            }
            self.idle.remove(node);
        }
        Ok(())
    }
}

/// An interval in which something holds `count` nodes, `[start, end)` (any time unit).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hold {
    /// Start.
    pub start: f64,
    /// End (`>= start`).
    pub end: f64,
    /// Nodes held.
    pub count: u32,
}

/// Names the nodes of each of `holds` on a cluster of `nodes` nodes by the [module rule](self),
/// taking the holds in time order: at one instant, the holds that end give their nodes back
/// before those that start take theirs, which take them in the order given. Returns each hold's
/// nodes, in the order of `holds` (none for an empty one, `end <= start`).
///
/// Errors: the index of the first hold that finds too few idle nodes (more nodes held at once
/// than the cluster has).
pub fn place(holds: &[Hold], nodes: u32) -> Result<Vec<NodeSet>, usize> {
    // (time, 0 = end or 1 = start, hold): ends sort first at an instant.
    let mut edges: Vec<(f64, u8, usize)> = holds
        .iter()
        .enumerate()
        .filter(|(_, h)| h.end > h.start)
        .flat_map(|(i, h)| [(h.start, 1, i), (h.end, 0, i)])
        .collect();
    edges.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut map = NodeMap::new(nodes);
    let mut sets = vec![NodeSet::default(); holds.len()];
    for (_, edge, i) in edges {
        if edge == 1 {
            map.take(i, holds[i].count).ok_or(i)?;
        } else {
            sets[i] = map.give_back(i);
        }
    }
    Ok(sets)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The set of the ranges `[first, end)` given as pairs.
    fn set(ranges: &[(u32, u32)]) -> NodeSet {
        NodeSet {
            ranges: ranges.iter().map(|&(a, b)| a..b).collect(),
        }
    }

    #[test]
    fn a_set_prints_as_batsim_interval_text() {
        assert_eq!(set(&[(0, 4), (7, 8), (9, 11)]).to_string(), "0-3 7 9-10");
        assert_eq!(set(&[]).to_string(), "");
        assert_eq!(set(&[(0, 4), (7, 8)]).len(), 5);
    }

    #[test]
    fn jobs_take_the_lowest_idle_nodes_and_give_them_back_merged() {
        let mut m = NodeMap::new(10);
        assert_eq!(m.take(0, 3).cloned(), Some(set(&[(0, 3)])));
        assert_eq!(m.take(1, 2).cloned(), Some(set(&[(3, 5)])));
        assert_eq!(m.give_back(0), set(&[(0, 3)]));
        // Idle: 0-2 and 5-9; four nodes span both ranges.
        assert_eq!(m.take(2, 4).cloned(), Some(set(&[(0, 3), (5, 6)])));
        assert_eq!(m.take(3, 5), None, "four idle nodes for five");
        assert_eq!(m.idle(), 4);
        m.give_back(1);
        m.give_back(2);
        assert_eq!(m.idle.ranges, BTreeMap::from([(0, 10)]));
        assert_eq!(m.idle(), 10);
    }

    #[test]
    fn holds_are_placed_in_time_order_ends_first() {
        let hold = |start, end, count| Hold { start, end, count };
        // The second hold starts when the first ends and takes its nodes; the third overlaps.
        let holds = [hold(0.0, 5.0, 3), hold(5.0, 9.0, 3), hold(2.0, 8.0, 1)];
        let sets = place(&holds, 4).unwrap();
        assert_eq!(sets, [set(&[(0, 3)]), set(&[(0, 3)]), set(&[(3, 4)])]);
        // An empty hold holds nothing, and leaves nothing held.
        let with_empty = [hold(1.0, 1.0, 4), hold(1.0, 2.0, 4)];
        assert_eq!(place(&with_empty, 4).unwrap(), [set(&[]), set(&[(0, 4)])]);
        assert_eq!(place(&holds, 3), Err(2), "four nodes held at 2.0 on three");
    }

    #[test]
    fn a_down_node_is_never_given_and_rejoins_idle_when_repaired() {
        let mut m = NodeMap::new(6);
        m.set_up(1, false).unwrap();
        assert_eq!(m.take(0, 3).cloned(), Some(set(&[(0, 1), (2, 4)])));
        // A held node fails: it stays held until the job gives it back, then stays out.
        m.set_up(2, false).unwrap();
        assert_eq!(m.owner(2), Some(0));
        assert_eq!(m.give_back(0), set(&[(0, 1), (2, 4)]));
        assert_eq!(m.owner(2), None);
        assert_eq!(m.idle.ranges, BTreeMap::from([(0, 1), (3, 6)]));
        m.set_up(1, true).unwrap();
        m.set_up(2, true).unwrap();
        assert_eq!(m.idle.ranges, BTreeMap::from([(0, 6)]));
        assert_eq!(m.set_up(2, true), Err(NodeError::AlreadyThere));
        assert_eq!(m.set_up(6, false), Err(NodeError::Unknown));
    }
}
