//! A binary min-heap of flow indices keyed by virtual time, with key update and removal.
//!
//! Each flow `0..N` is in the heap at most once, so the heap never overflows and needs no
//! lazy-deletion slack. Order: smaller key first (wrap-around order of [`VirtualTime`]), ties to
//! the lower flow index, so equal tags are served deterministically. Every operation is
//! `O(log N)`: at most 2 key comparisons per level going down, 1 going up (the first insertion
//! of a flow above all earlier ones also records `NONE` for the flows between: `O(N)` once);
//! memory is `22 N` bytes (16 per inline `(key, flow)` entry, 2 per position, 4 per flow's
//! [`Member`]: its weight and closing mark) and three lengths. A new heap writes only the
//! lengths.
//!
//! The fair queue keeps WFQ's GPS set in one (see [`tree`](super::tree) for why not its ready set):
//! a GPS departure removes the root, so most of the work is sifting down, where which child is
//! smaller is a coin toss to a branch predictor. `sift_down` therefore picks the child by a
//! select, not a branch. When this heap also held the ready set, that took a WFQ enqueue +
//! dequeue pair at 64 / 1024 flows from 124 / 189 to 98.2 / 149 ns (`cargo bench --bench
//! kernel`, x86_64), and the Cortex-M3's `qg_scheduler_next` (64 flows, `firmware/`) from 1,022
//! to 983 instructions. A 4-ary heap picked the same way was about 10 % faster again on x86_64,
//! but took 1,146 instructions on the Cortex-M3, which has no misprediction to save.

use heapless::Vec;

use super::Member;
use crate::units::Weight;
use crate::vtime::VirtualTime;

/// No flow, or no position.
pub(crate) const NONE: u16 = u16::MAX;

/// A min-heap over flow indices `0..N` (`N < 65,535`), keys stored inline with their flow so a
/// comparison reads one contiguous entry.
#[derive(Clone, Debug)]
pub struct FlowHeap<const N: usize> {
    heap: Vec<(VirtualTime, u16), N>,
    /// Each flow's index in `heap`, or `NONE`; flows at or above `pos.len()` were never in it.
    pos: Vec<u16, N>,
    /// Each flow's [`Member`] (meaningful while it is in the heap), as long as `pos`.
    members: Vec<Member, N>,
}

impl<const N: usize> FlowHeap<N> {
    const CAPACITY_FITS: () = assert!(N < NONE as usize, "at most 65,534 flows");

    pub(crate) const fn new() -> Self {
        let () = Self::CAPACITY_FITS;
        Self {
            heap: Vec::new(),
            pos: Vec::new(),
            members: Vec::new(),
        }
    }

    pub(crate) fn contains(&self, flow: u16) -> bool {
        self.pos.get(usize::from(flow)).is_some_and(|&p| p != NONE)
    }

    /// The flow with the smallest key, and that key.
    pub(crate) fn peek(&self) -> Option<(u16, VirtualTime)> {
        let &(key, flow) = self.heap.first()?;
        Some((flow, key))
    }

    /// Takes the flows out in key order (ties to the lower flow) while `depart(flow, key,
    /// member)` says so: it sees each flow before the flow leaves, and no flow after it said no.
    pub(crate) fn pop_while(&mut self, mut depart: impl FnMut(u16, VirtualTime, Member) -> bool) {
        while let Some((flow, key)) = self.peek() {
            let member = self.members.get(usize::from(flow)).copied();
            if !depart(flow, key, member.unwrap_or_default()) {
                break;
            }
            self.remove(flow);
        }
    }

    /// Marks `flow`, if in the heap, closing (its [`Member::closing`]).
    pub(crate) fn mark_closing(&mut self, flow: u16) {
        if self.contains(flow)
            && let Some(m) = self.members.get_mut(usize::from(flow))
        {
            m.closing = true;
        }
    }

    /// Inserts `flow` with `key` and weight `weight` (not closing), or moves it to `key` if
    /// present. Ignores `flow >= N`.
    pub(crate) fn set(&mut self, flow: u16, key: VirtualTime, weight: Weight) {
        let f = usize::from(flow);
        if f >= self.pos.len()
            && (self.pos.resize(f + 1, NONE).is_err()
                || self.members.resize(f + 1, Member::default()).is_err())
        {
            return;
        }
        if let Some(m) = self.members.get_mut(f) {
            *m = Member {
                weight,
                closing: false,
            };
        }
        let Some(&at) = self.pos.get(f) else {
            return;
        };
        if at == NONE {
            // Each flow below N is in the heap at most once, so there is room.
            let at = self.heap.len();
            if self.heap.push((key, flow)).is_ok() {
                self.sift_up(at, (key, flow));
            }
        } else {
            let at = usize::from(at);
            let Some(&(old, _)) = self.heap.get(at) else {
                return;
            };
            if key < old {
                self.sift_up(at, (key, flow));
            } else {
                self.sift_down(at, (key, flow));
            }
        }
    }

    /// Removes `flow` if present.
    pub(crate) fn remove(&mut self, flow: u16) {
        let Some(slot) = self.pos.get_mut(usize::from(flow)) else {
            return;
        };
        let at = core::mem::replace(slot, NONE);
        if at == NONE {
            return;
        }
        // The last entry fills the hole, unless the hole was the last entry.
        let Some(moved) = self.heap.pop() else {
            return;
        };
        if let Some(&here) = self.heap.get(usize::from(at)) {
            let at = usize::from(at);
            if less(moved, here) {
                self.sift_up(at, moved);
            } else {
                self.sift_down(at, moved);
            }
        }
    }

    /// Places `e` at the hole `at`, moving parents down while `e` is smaller.
    fn sift_up(&mut self, mut at: usize, e: (VirtualTime, u16)) {
        while at > 0 {
            let parent = (at - 1) / 2;
            let Some(&p) = self.heap.get(parent) else {
                break;
            };
            if !less(e, p) {
                break;
            }
            self.put(at, p);
            at = parent;
        }
        self.put(at, e);
    }

    /// Places `e` at the hole `at`, moving the smaller child up while it is smaller than `e`.
    /// The smaller child is picked by an index computed from the comparison, not by a branch.
    fn sift_down(&mut self, mut at: usize, e: (VirtualTime, u16)) {
        loop {
            let left = 2 * at + 1;
            let Some(&l) = self.heap.get(left) else {
                break;
            };
            // With no right child, `l` stands in for it and loses the comparison.
            let r = self.heap.get(left + 1).copied().unwrap_or(l);
            let right_is_smaller = less(r, l);
            let child = left + usize::from(right_is_smaller);
            let c = if right_is_smaller { r } else { l };
            if !less(c, e) {
                break;
            }
            self.put(at, c);
            at = child;
        }
        self.put(at, e);
    }

    /// Stores `e` at `at` (below `len`) and records its position.
    fn put(&mut self, at: usize, e: (VirtualTime, u16)) {
        if let (Some(slot), Some(pos)) = (self.heap.get_mut(at), self.pos.get_mut(usize::from(e.1)))
        {
            *slot = e;
            *pos = at as u16;
        }
    }
}

/// Smaller key first; ties to the lower flow. Evaluated without branches (`&` and `|` on
/// booleans) so that `sift_down` can compute an index from it.
pub(crate) fn less(a: (VirtualTime, u16), b: (VirtualTime, u16)) -> bool {
    let d = a.0.since(b.0);
    (d < 0) | ((d == 0) & (a.1 < b.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec::Vec;

    fn drain<const N: usize>(h: &mut FlowHeap<N>) -> Vec<u16> {
        let mut out = Vec::new();
        while let Some((f, _)) = h.peek() {
            out.push(f);
            h.remove(f);
        }
        out
    }

    #[test]
    fn pops_in_key_order_with_ties_to_the_lower_flow() {
        let mut h = FlowHeap::<8>::new();
        for (f, k) in [(3, 5), (1, 5), (0, 9), (7, 1), (2, 3)] {
            h.set(f, VirtualTime::from_bits(k), 1);
        }
        h.set(0, VirtualTime::from_bits(2), 1); // decrease
        h.set(7, VirtualTime::from_bits(6), 1); // increase
        h.remove(2);
        assert_eq!(drain(&mut h), [0, 1, 3, 7]);
        assert_eq!(h.peek(), None);
        assert!(!h.contains(0));
    }

    proptest::proptest! {
        #[test]
        /// After any insertions, key changes, removals and closing marks, taking the flows out
        /// gives them in key order, each with its weight and mark.
        #[test]
        fn agrees_with_sorting(ops in proptest::collection::vec((0u16..64, 0u64..50, 0u8..4), 0..256)) {
            let mut h = FlowHeap::<64>::new();
            let mut model: [Option<u64>; 64] = [None; 64];
            let mut closing = [false; 64];
            let weight = |f: u16| 5 * f + 1;
            for (f, k, op) in ops {
                let g = usize::from(f);
                match op {
                    0 => { h.remove(f); model[g] = None; }
                    1 => { h.mark_closing(f); closing[g] = model[g].is_some(); }
                    _ => { h.set(f, VirtualTime::from_bits(k), weight(f)); model[g] = Some(k); closing[g] = false; }
                }
            }
            let mut expect: Vec<(u64, u16)> = model.iter().enumerate()
                .filter_map(|(f, k)| k.map(|k| (k, f as u16))).collect();
            expect.sort();
            let mut got = Vec::new();
            h.pop_while(|f, _, m| { got.push((f, m)); true });
            let want: Vec<(u16, Member)> = expect.into_iter()
                .map(|(_, f)| (f, Member { weight: weight(f), closing: closing[usize::from(f)] }))
                .collect();
            proptest::prop_assert_eq!(got, want);
            proptest::prop_assert_eq!(h.peek(), None);
        }
    }
}
