//! Flow indices sorted by virtual time in a doubly linked list, the smallest first: WFQ's GPS
//! set where a call's worst case matters more than its mean ([`crate::fairq::GpsSorted`]).
//!
//! The smallest keys are the first flows, so a fluid clock that passes `d` GPS departures in one
//! call takes them in one pass of `d` steps and cuts the list once ([`SortedFlows::pop_while`]),
//! where a heap sifts each departure down `log2 N` levels (on a Cortex-M3 at 64 flows, 64
//! departures with the clock's work around them and the call's own in 3,565 instructions,
//! against about 400 a departure with the heap). Each node holds its flow's [`Member`] (weight and closing
//! mark), so a departure reads the node it steps over and nothing else. A key that
//! changes is unlinked and walked to its new place from the end of the list
//! nearer it in virtual time, a load and a comparison a step: in a backlogged queue a new finish
//! tag lands half-way on average (measured: 30 of 63 flows, 502 of 1,021), so this is `O(N)`
//! steps per change, cheap for tens of flows and dear for thousands, where
//! [`FlowHeap`](super::heap::FlowHeap) is `O(log N)` (on x86_64, callgrind, a WFQ enqueue +
//! dequeue pair at 64 / 1,024 flows cost 1.5 / 8.1 times the heap's instructions).
//!
//! # Invariants
//! - A flow is in the set iff its node's `prev` is not [`OUT`]; following `next` from `first`
//!   visits exactly the flows in the set, in ascending [`less`] order of `(key, flow)`, and ends
//!   at `last`.
//!
//! # Memory
//! `16 N` bytes (a key, two links and a [`Member`] per flow) and two indices; a new set writes
//! only its length: a node is written when its flow first joins.

use heapless::Vec;

use super::Member;
use super::heap::{NONE, less};
use crate::units::Weight;
use crate::vtime::VirtualTime;

/// A `prev` link that marks a flow not in the set.
const OUT: u16 = NONE - 1;

#[derive(Clone, Copy, Debug)]
struct Node {
    key: VirtualTime,
    /// The flow before this one, `NONE` for the first, or [`OUT`].
    prev: u16,
    /// The flow after this one, or `NONE` for the last.
    next: u16,
    /// In the padding after the links.
    member: Member,
}

const OUT_NODE: Node = Node {
    key: VirtualTime::ZERO,
    prev: OUT,
    next: NONE,
    member: Member {
        weight: 0,
        closing: false,
    },
};

/// A set of flows `0..N` (`N < 65,534`) sorted by key, the smallest first.
#[derive(Clone, Debug)]
pub struct SortedFlows<const N: usize> {
    /// A node per flow; flows at or above its length have never been in the set.
    nodes: Vec<Node, N>,
    first: u16,
    last: u16,
}

impl<const N: usize> SortedFlows<N> {
    const CAPACITY_FITS: () = assert!(N < OUT as usize, "at most 65,533 flows");

    /// An empty set.
    pub(crate) const fn new() -> Self {
        let () = Self::CAPACITY_FITS;
        Self {
            nodes: Vec::new(),
            first: NONE,
            last: NONE,
        }
    }

    pub(crate) fn contains(&self, flow: u16) -> bool {
        self.nodes
            .get(usize::from(flow))
            .is_some_and(|n| n.prev != OUT)
    }

    /// The flow with the smallest key, and that key.
    #[cfg(test)]
    fn peek(&self) -> Option<(u16, VirtualTime)> {
        let n = self.nodes.get(usize::from(self.first))?;
        Some((self.first, n.key))
    }

    /// Takes the flows out from the first while `depart(flow, key)` says so: it sees each flow
    /// before the flow leaves, and no flow after it said no. A step is a load of the node and a
    /// store of its mark; the list is cut once, after the last flow that leaves.
    pub(crate) fn pop_while(&mut self, mut depart: impl FnMut(u16, VirtualTime, Member) -> bool) {
        let mut first = self.first;
        while let Some(n) = self.nodes.get_mut(usize::from(first)) {
            if !depart(first, n.key, n.member) {
                break;
            }
            n.prev = OUT;
            first = n.next;
        }
        self.first = first;
        match self.nodes.get_mut(usize::from(first)) {
            Some(n) => n.prev = NONE,
            None => self.last = NONE,
        }
    }

    /// Marks `flow`, if in the set, closing (its [`Member::closing`]).
    pub(crate) fn mark_closing(&mut self, flow: u16) {
        if let Some(n) = self
            .nodes
            .get_mut(usize::from(flow))
            .filter(|n| n.prev != OUT)
        {
            n.member.closing = true;
        }
    }

    /// Inserts `flow` with `key` and weight `weight` (not closing), or moves it there if
    /// present. Ignores `flow >= N`.
    pub(crate) fn set(&mut self, flow: u16, key: VirtualTime, weight: Weight) {
        if !self.reserve(flow) {
            return;
        }
        if self.contains(flow) {
            self.unlink(flow);
        }
        // Walk from the end nearer the new key in virtual time: a step for a key at either end.
        let from_last = match (self.key_of(self.first), self.key_of(self.last)) {
            (Some(lo), Some(hi)) => hi.since(key) <= key.since(lo),
            _ => true,
        };
        let (before, after) = if from_last {
            // The last flow not after the new key: the new node goes after it.
            let mut before = self.last;
            while let Some(n) = self.nodes.get(usize::from(before)) {
                if !less((key, flow), (n.key, before)) {
                    break;
                }
                before = n.prev;
            }
            let after = self
                .nodes
                .get(usize::from(before))
                .map_or(self.first, |n| n.next);
            (before, after)
        } else {
            // The first flow after the new key: the new node goes before it.
            let mut after = self.first;
            while let Some(n) = self.nodes.get(usize::from(after)) {
                if less((key, flow), (n.key, after)) {
                    break;
                }
                after = n.next;
            }
            let before = self
                .nodes
                .get(usize::from(after))
                .map_or(self.last, |n| n.prev);
            (before, after)
        };
        let member = Member {
            weight,
            closing: false,
        };
        self.link(flow, before, after, key, member);
    }

    /// Whether `flow` can have a node (below `N`), writing the nodes up to it on first use.
    fn reserve(&mut self, flow: u16) -> bool {
        let f = usize::from(flow);
        f < self.nodes.len() || self.nodes.resize(f + 1, OUT_NODE).is_ok()
    }

    fn key_of(&self, flow: u16) -> Option<VirtualTime> {
        self.nodes.get(usize::from(flow)).map(|n| n.key)
    }

    /// Links `flow` with `key` between `before` and `after` (`NONE` for the ends).
    fn link(&mut self, flow: u16, before: u16, after: u16, key: VirtualTime, member: Member) {
        if let Some(n) = self.nodes.get_mut(usize::from(flow)) {
            *n = Node {
                key,
                prev: before,
                next: after,
                member,
            };
        }
        match self.nodes.get_mut(usize::from(before)) {
            Some(b) => b.next = flow,
            None => self.first = flow,
        }
        match self.nodes.get_mut(usize::from(after)) {
            Some(a) => a.prev = flow,
            None => self.last = flow,
        }
    }

    /// Takes `flow` out of the list if it is in it.
    fn unlink(&mut self, flow: u16) {
        let Some(n) = self
            .nodes
            .get_mut(usize::from(flow))
            .filter(|n| n.prev != OUT)
        else {
            return;
        };
        let (prev, next) = (n.prev, n.next);
        n.prev = OUT;
        match self.nodes.get_mut(usize::from(prev)) {
            Some(p) => p.next = next,
            None => self.first = next,
        }
        match self.nodes.get_mut(usize::from(next)) {
            Some(x) => x.prev = prev,
            None => self.last = prev,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec::Vec;

    fn t(bits: u64) -> VirtualTime {
        VirtualTime::from_bits(bits)
    }

    /// The model's flows, sorted as the set sorts them: `(key, flow)`.
    fn sorted(model: &[Option<u64>; 13]) -> Vec<(u64, u16)> {
        let mut all: Vec<(u64, u16)> = (0..13u16)
            .filter_map(|g| model[usize::from(g)].map(|k| (k, g)))
            .collect();
        all.sort();
        all
    }

    /// The weight the tests give flow `g`.
    fn weight(g: u16) -> Weight {
        7 * g + 3
    }

    /// Takes out the first `n` flows (all of them for `usize::MAX`), as `(key, flow)`, and the
    /// member each was handed over with.
    fn take(s: &mut SortedFlows<13>, n: usize) -> (Vec<(u64, u16)>, Vec<Member>) {
        let (mut taken, mut members) = (Vec::new(), Vec::new());
        s.pop_while(|g, key, member| {
            let more = taken.len() < n;
            if more {
                taken.push((key.to_bits(), g));
                members.push(member);
            }
            more
        });
        (taken, members)
    }

    /// The members the model expects for `taken`.
    fn members(taken: &[(u64, u16)], closing: &[bool; 13]) -> Vec<Member> {
        taken
            .iter()
            .map(|&(_, g)| Member {
                weight: weight(g),
                closing: closing[usize::from(g)],
            })
            .collect()
    }

    proptest::proptest! {
        /// After any insertions, key changes (up or down), closing marks and takings of the
        /// first flows, the set holds the model's flows, `peek` is the smallest `(key, flow)`,
        /// and taking them out gives them in sorted order, each with its weight and mark; 13
        /// flows.
        #[test]
        fn agrees_with_sorting(
            ops in proptest::collection::vec((0u16..13, 0u64..40, 0u8..5), 0..200)
        ) {
            let mut s = SortedFlows::<13>::new();
            let mut model: [Option<u64>; 13] = [None; 13];
            let mut closing = [false; 13];
            for (f, k, op) in ops {
                match op {
                    0 => {
                        let mut expect = sorted(&model);
                        expect.truncate((k % 4) as usize);
                        let (taken, got) = take(&mut s, (k % 4) as usize);
                        proptest::prop_assert_eq!(&taken, &expect);
                        proptest::prop_assert_eq!(got, members(&taken, &closing));
                        for (_, g) in taken {
                            model[usize::from(g)] = None;
                        }
                    }
                    1 => {
                        s.mark_closing(f);
                        closing[usize::from(f)] = model[usize::from(f)].is_some();
                    }
                    _ => {
                        s.set(f, t(k), weight(f));
                        model[usize::from(f)] = Some(k);
                        closing[usize::from(f)] = false;
                    }
                }
                let min = sorted(&model).first().map(|&(k, g)| (g, t(k)));
                proptest::prop_assert_eq!(s.peek(), min);
                for g in 0..13u16 {
                    proptest::prop_assert_eq!(s.contains(g), model[usize::from(g)].is_some());
                }
            }
            let (taken, got) = take(&mut s, usize::MAX);
            proptest::prop_assert_eq!(&taken, &sorted(&model));
            proptest::prop_assert_eq!(got, members(&taken, &closing));
            proptest::prop_assert_eq!(s.peek(), None);
        }
    }
}
