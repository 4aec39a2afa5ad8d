//! A binary min-heap of flow indices keyed by virtual time, with key update and removal.
//!
//! Each flow `0..N` is in the heap at most once, so the heap never overflows and needs no
//! lazy-deletion slack. Order: smaller key first (wrap-around order of [`VirtualTime`]), ties to
//! the lower flow index, so equal tags are served deterministically. Every operation is
//! `O(log N)`; memory is `12 N + 2` bytes.

use crate::vtime::VirtualTime;

const NONE: u16 = u16::MAX;

/// A min-heap over flow indices `0..N` (`N < 65,535`).
#[derive(Clone, Debug)]
pub(crate) struct FlowHeap<const N: usize> {
    heap: [u16; N],
    pos: [u16; N],
    key: [VirtualTime; N],
    len: u16,
}

impl<const N: usize> FlowHeap<N> {
    const CAPACITY_FITS: () = assert!(N < NONE as usize, "at most 65,534 flows");

    pub(crate) const fn new() -> Self {
        let () = Self::CAPACITY_FITS;
        Self {
            heap: [0; N],
            pos: [NONE; N],
            key: [VirtualTime::ZERO; N],
            len: 0,
        }
    }

    pub(crate) fn contains(&self, flow: u16) -> bool {
        self.pos.get(usize::from(flow)).is_some_and(|&p| p != NONE)
    }

    /// The flow with the smallest key, and that key.
    pub(crate) fn peek(&self) -> Option<(u16, VirtualTime)> {
        (self.len > 0).then(|| (self.heap[0], self.key[usize::from(self.heap[0])]))
    }

    /// Inserts `flow` with `key`, or moves it to `key` if present. Ignores `flow >= N`.
    pub(crate) fn set(&mut self, flow: u16, key: VirtualTime) {
        let f = usize::from(flow);
        if f >= N {
            return;
        }
        self.key[f] = key;
        let at = if self.pos[f] == NONE {
            let at = self.len;
            self.heap[usize::from(at)] = flow;
            self.pos[f] = at;
            self.len += 1;
            at
        } else {
            self.pos[f]
        };
        let at = self.sift_up(at);
        self.sift_down(at);
    }

    /// Removes `flow` if present.
    pub(crate) fn remove(&mut self, flow: u16) {
        let Some(&at) = self.pos.get(usize::from(flow)) else {
            return;
        };
        if at == NONE {
            return;
        }
        self.len -= 1;
        let last = self.heap[usize::from(self.len)];
        self.pos[usize::from(flow)] = NONE;
        if last != flow {
            self.heap[usize::from(at)] = last;
            self.pos[usize::from(last)] = at;
            let at = self.sift_up(at);
            self.sift_down(at);
        }
    }

    fn less(&self, a: u16, b: u16) -> bool {
        let (ka, kb) = (self.key[usize::from(a)], self.key[usize::from(b)]);
        ka < kb || (ka == kb && a < b)
    }

    fn swap(&mut self, i: u16, j: u16) {
        self.heap.swap(usize::from(i), usize::from(j));
        self.pos[usize::from(self.heap[usize::from(i)])] = i;
        self.pos[usize::from(self.heap[usize::from(j)])] = j;
    }

    fn sift_up(&mut self, mut at: u16) -> u16 {
        while at > 0 {
            let parent = (at - 1) / 2;
            if !self.less(self.heap[usize::from(at)], self.heap[usize::from(parent)]) {
                break;
            }
            self.swap(at, parent);
            at = parent;
        }
        at
    }

    fn sift_down(&mut self, mut at: u16) {
        loop {
            let (l, r) = (2 * u32::from(at) + 1, 2 * u32::from(at) + 2);
            let mut best = at;
            for c in [l, r] {
                if c < u32::from(self.len) {
                    let c = c as u16;
                    if self.less(self.heap[usize::from(c)], self.heap[usize::from(best)]) {
                        best = c;
                    }
                }
            }
            if best == at {
                return;
            }
            self.swap(at, best);
            at = best;
        }
    }
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
            h.set(f, VirtualTime::from_bits(k));
        }
        h.set(0, VirtualTime::from_bits(2)); // decrease
        h.set(7, VirtualTime::from_bits(6)); // increase
        h.remove(2);
        assert_eq!(drain(&mut h), [0, 1, 3, 7]);
        assert_eq!(h.peek(), None);
        assert!(!h.contains(0));
    }

    proptest::proptest! {
        #[test]
        fn agrees_with_sorting(ops in proptest::collection::vec((0u16..16, 0u64..50, proptest::bool::ANY), 0..64)) {
            let mut h = FlowHeap::<16>::new();
            let mut model: [Option<u64>; 16] = [None; 16];
            for (f, k, del) in ops {
                if del { h.remove(f); model[usize::from(f)] = None; }
                else { h.set(f, VirtualTime::from_bits(k)); model[usize::from(f)] = Some(k); }
            }
            let mut expect: Vec<(u64, u16)> = model.iter().enumerate()
                .filter_map(|(f, k)| k.map(|k| (k, f as u16))).collect();
            expect.sort();
            let got = drain(&mut h);
            proptest::prop_assert_eq!(got, expect.into_iter().map(|(_, f)| f).collect::<Vec<_>>());
        }
    }
}
