//! A tournament (winner) tree of flow indices keyed by virtual time: the fair queue's ready set.
//!
//! Flows `0..N` are the leaves; each internal node holds the winner (the smaller key, ties to
//! the lower flow, as in [`heap`](super::heap)) of its two children, so the root holds the minimum.
//! Layout: node `i` has children `2i` and `2i + 1`, internal nodes are `1..N`, flow `f` is leaf
//! `N + f`; this is a tree for any `N`, not only powers of two.
//!
//! # Invariants
//! - `present[f]` iff flow `f` is in the tree; `keys[f]` is then its key. Flows at or above
//!   `present.len()` are not in the tree.
//! - Once anything was inserted, `win` has `N` entries and every internal node's entry is the
//!   winner of its children (`NONE` for a subtree with no flow in it).
//!
//! # Cost and memory
//! Changing or removing a key replays the `ceil(log2 N)` matches on the flow's path to the root:
//! one key comparison per level, its outcome taken by a select rather than a branch, and no
//! early exit, so the cost is fixed. Inserting a flow stops at the first level where it loses and the winner does not
//! change. Peeking is `O(1)`. The first insertion writes `NONE` to every internal node: `O(N)`
//! once. Memory: `11 N` bytes (8 per key, 1 per presence flag, 2 per internal node) and three
//! lengths; a new tree writes only the lengths.
//!
//! # Why a tree here and a heap for GPS
//! In a backlogged fair queue every dequeue raises the root's key (the flow's next tag), which
//! in a heap sifts down through a chain of dependent loads and comparisons. A tree replays the
//! path instead: the sibling winners along it are loaded independently of each other, and only
//! the comparisons chain. WFQ's GPS set is used differently (a departure removes the minimum, an
//! arrival inserts a key that usually stays near the bottom), which a heap does in a few levels,
//! and a tree in a whole path: it stays a [`FlowHeap`](super::heap::FlowHeap). Measured with
//! `cargo bench --bench kernel` (x86_64), the tree took an enqueue + dequeue pair at 8 / 64 /
//! 1024 flows from 43.3 / 55.1 / 82.6 ns to 34.3 / 39.7 / 53.2 ns under SCFQ and from 44.4 /
//! 98.2 / 149 ns to 41.5 / 82.8 / 126 ns under WFQ, and cut 448 B from a scheduler. On the
//! Cortex-M3 (64 flows, `firmware/`), whose cheap branches the heap's early exits suit better, it
//! costs about 5 % more instructions per `qg_scheduler_submit_gs` (609 to 640) and 8 % per
//! `qg_scheduler_next` (983 to 1,058), and 0.6 KiB of flash.

use heapless::Vec;

use super::heap::{NONE, less};
use crate::vtime::VirtualTime;

/// A tournament tree over flow indices `0..N` (`N < 65,535`).
#[derive(Clone, Debug)]
pub(crate) struct FlowTree<const N: usize> {
    /// Each flow's key (meaningful while it is present).
    keys: Vec<VirtualTime, N>,
    /// Whether each flow is in the tree.
    present: Vec<bool, N>,
    /// Winners of the internal nodes `1..N` (index 0 unused); empty until the first insertion.
    win: Vec<u16, N>,
}

impl<const N: usize> FlowTree<N> {
    const CAPACITY_FITS: () = assert!(N < NONE as usize, "at most 65,534 flows");

    /// An empty tree.
    pub(crate) const fn new() -> Self {
        let () = Self::CAPACITY_FITS;
        Self {
            keys: Vec::new(),
            present: Vec::new(),
            win: Vec::new(),
        }
    }

    /// The flow with the smallest key, and that key.
    pub(crate) fn peek(&self) -> Option<(u16, VirtualTime)> {
        let (key, flow) = self.entry(1)?;
        Some((flow, key))
    }

    /// Inserts `flow` with `key`, or moves it to `key` if present. Ignores `flow >= N`.
    pub(crate) fn set(&mut self, flow: u16, key: VirtualTime) {
        let f = usize::from(flow);
        if f >= N {
            return;
        }
        if self.win.len() < N && self.win.resize(N, NONE).is_err() {
            return;
        }
        if f >= self.keys.len()
            && (self.keys.resize(f + 1, VirtualTime::ZERO).is_err()
                || self.present.resize(f + 1, false).is_err())
        {
            return;
        }
        let Some(p) = self.present.get_mut(f) else {
            return;
        };
        let inserted = !core::mem::replace(p, true);
        if let Some(k) = self.keys.get_mut(f) {
            *k = key;
        }
        self.update(f, inserted);
    }

    /// Removes `flow` if present.
    pub(crate) fn remove(&mut self, flow: u16) {
        let f = usize::from(flow);
        if let Some(p @ true) = self.present.get_mut(f) {
            *p = false;
            self.update(f, false);
        }
    }

    /// The winner of node `c` (leaves are `N + flow`) with its key; `None` for an empty subtree.
    #[inline(always)]
    fn entry(&self, c: usize) -> Option<(VirtualTime, u16)> {
        let w = if c >= N {
            let f = c - N;
            if self.present.get(f) != Some(&true) {
                return None;
            }
            f as u16
        } else {
            *self.win.get(c)?
        };
        Some((*self.keys.get(usize::from(w))?, w))
    }

    /// Replays the matches on the path from leaf `N + f` to the root; after an insertion, only
    /// up to the first node whose winner stays the same.
    fn update(&mut self, f: usize, inserted: bool) {
        let mut i = N + f;
        let mut cur = self.entry(i);
        while i > 1 {
            let other = self.entry(i ^ 1);
            cur = match (cur, other) {
                (Some(a), Some(b)) => Some(if less(b, a) { b } else { a }),
                (a, None) => a,
                (None, b) => b,
            };
            i /= 2;
            let w = cur.map_or(NONE, |(_, w)| w);
            let Some(slot) = self.win.get_mut(i) else {
                break;
            };
            // A flow just inserted that lost here leaves the winner, and all above, unchanged.
            if core::mem::replace(slot, w) == w && inserted {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec::Vec;

    fn drain<const N: usize>(t: &mut FlowTree<N>) -> Vec<u16> {
        let mut out = Vec::new();
        while let Some((f, _)) = t.peek() {
            out.push(f);
            t.remove(f);
        }
        out
    }

    #[test]
    fn pops_in_key_order_with_ties_to_the_lower_flow() {
        // 5 leaves: not a power of two, so leaves sit at two depths.
        let mut t = FlowTree::<5>::new();
        assert_eq!(t.peek(), None);
        for (f, k) in [(3, 5), (1, 5), (0, 9), (4, 1), (2, 3)] {
            t.set(f, VirtualTime::from_bits(k));
        }
        assert_eq!(t.peek(), Some((4, VirtualTime::from_bits(1))));
        t.set(0, VirtualTime::from_bits(2)); // decrease
        t.set(4, VirtualTime::from_bits(6)); // increase
        t.remove(2);
        t.remove(2); // absent: nothing happens
        t.set(9, VirtualTime::ZERO); // beyond the capacity: ignored
        assert_eq!(drain(&mut t), [0, 1, 3, 4]);
        assert_eq!(t.peek(), None);
    }

    #[test]
    fn one_flow_is_its_own_root() {
        let mut t = FlowTree::<1>::new();
        t.set(0, VirtualTime::from_bits(7));
        assert_eq!(t.peek(), Some((0, VirtualTime::from_bits(7))));
        t.remove(0);
        assert_eq!(t.peek(), None);
    }

    proptest::proptest! {
        /// After any sequence of insertions, key changes and removals, the root is the minimum
        /// and draining gives the sorted order; 37 leaves, so the tree is not complete.
        #[test]
        fn agrees_with_sorting(ops in proptest::collection::vec((0u16..37, 0u64..50, proptest::bool::ANY), 0..256)) {
            let mut t = FlowTree::<37>::new();
            let mut model: [Option<u64>; 37] = [None; 37];
            for (f, k, del) in ops {
                if del { t.remove(f); model[usize::from(f)] = None; }
                else { t.set(f, VirtualTime::from_bits(k)); model[usize::from(f)] = Some(k); }
                let min = model.iter().enumerate().filter_map(|(f, k)| k.map(|k| (k, f as u16))).min();
                proptest::prop_assert_eq!(t.peek(), min.map(|(k, f)| (f, VirtualTime::from_bits(k))));
            }
            let mut expect: Vec<(u64, u16)> = model.iter().enumerate()
                .filter_map(|(f, k)| k.map(|k| (k, f as u16))).collect();
            expect.sort();
            let got = drain(&mut t);
            proptest::prop_assert_eq!(got, expect.into_iter().map(|(_, f)| f).collect::<Vec<_>>());
        }
    }
}
