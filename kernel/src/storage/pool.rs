//! A fixed pool of `N` entries threaded into FIFOs by 16-bit links.
//!
//! Several [`Fifo`]s draw their entries from one [`Pool`], so they share its capacity: a fair
//! queue's flows and a resource's best-effort queue hold at most `N` tasks between them, instead
//! of `N` each.
//!
//! # Invariants
//! - Slots are handed out in index order and then reused: `entries` and `next` hold the slots
//!   used so far (the same number), and the slots beyond have never been used. A new pool
//!   writes nothing but two lengths, so building one costs no time and no stack.
//! - Every slot used so far is either on the free list (entry `None`) or in exactly one FIFO
//!   (entry `Some`).
//! - A FIFO of `len > 0` entries starts at `head`, follows `next` for `len - 1` links and ends at
//!   `tail`; the tail's link is `NIL`. An empty FIFO's `head` and `tail` are `NIL`.
//! - `used` is the number of slots in FIFOs.
//!
//! A FIFO must only ever be used with the pool that filled it. Nothing here panics: an index
//! that breaks the invariants reads as an empty slot.
//!
//! # Cost and memory
//! Every operation is `O(1)`. Memory: `N (size_of::<Option<E>>() + 2)` bytes, two lengths and
//! 4 bytes, plus 6 bytes per FIFO.

use heapless::Vec;

/// The link that ends a list.
const NIL: u16 = u16::MAX;

/// A FIFO of entries held in a [`Pool`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fifo {
    head: u16,
    tail: u16,
    len: u16,
}

impl Fifo {
    /// The empty FIFO.
    pub(crate) const EMPTY: Self = Self {
        head: NIL,
        tail: NIL,
        len: 0,
    };

    /// Entries in the FIFO.
    pub(crate) fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the FIFO holds nothing.
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// `N` entry slots (`N < 65,535`) and the links that chain them into FIFOs.
#[derive(Clone, Debug)]
pub(crate) struct Pool<E, const N: usize> {
    entries: Vec<Option<E>, N>,
    /// The next slot in the same FIFO, or in the free list.
    next: Vec<u16, N>,
    /// The first released slot, or `NIL`.
    free: u16,
    used: u16,
}

impl<E: Copy, const N: usize> Pool<E, N> {
    const CAPACITY_FITS: () = assert!(N > 0 && N < NIL as usize, "1 ..= 65,534 entries");

    /// An empty pool: every slot free.
    pub(crate) const fn new() -> Self {
        let () = Self::CAPACITY_FITS;
        Self {
            entries: Vec::new(),
            next: Vec::new(),
            free: NIL,
            used: 0,
        }
    }

    /// Frees every slot, writing only the lengths (no entry): the pool [`Pool::new`] makes.
    /// `O(1)`.
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.next.clear();
        self.free = NIL;
        self.used = 0;
    }

    /// Free slots.
    pub(crate) fn available(&self) -> usize {
        N - usize::from(self.used)
    }

    /// Appends `entry` to `fifo`; hands it back if the pool is full.
    pub(crate) fn push_back(&mut self, fifo: &mut Fifo, entry: E) -> Result<(), E> {
        let slot = self.take_free(entry)?;
        if fifo.is_empty() {
            fifo.head = slot;
        } else {
            self.link(fifo.tail, slot);
        }
        fifo.tail = slot;
        fifo.len += 1;
        Ok(())
    }

    /// Puts `entry` at the front of `fifo`; hands it back if the pool is full.
    pub(crate) fn push_front(&mut self, fifo: &mut Fifo, entry: E) -> Result<(), E> {
        let slot = self.take_free(entry)?;
        if fifo.is_empty() {
            fifo.tail = slot;
        } else {
            self.link(slot, fifo.head);
        }
        fifo.head = slot;
        fifo.len += 1;
        Ok(())
    }

    /// The entry at the front of `fifo`.
    pub(crate) fn front(&self, fifo: &Fifo) -> Option<&E> {
        self.entries.get(usize::from(fifo.head))?.as_ref()
    }

    /// Takes the entry at the front of `fifo` and frees its slot.
    pub(crate) fn pop_front(&mut self, fifo: &mut Fifo) -> Option<E> {
        let slot = fifo.head;
        let entry = self.entries.get_mut(usize::from(slot))?.take()?;
        let after = self.link(slot, self.free);
        self.free = slot;
        self.used -= 1;
        fifo.len -= 1;
        if fifo.len == 0 {
            *fifo = Fifo::EMPTY;
        } else {
            fifo.head = after;
        }
        Some(entry)
    }

    /// Stores `entry` in a released slot, or else in a slot never used, with the link `NIL`, and
    /// returns the slot.
    fn take_free(&mut self, entry: E) -> Result<u16, E> {
        let slot = match self.entries.get_mut(usize::from(self.free)) {
            Some(cell @ None) => {
                *cell = Some(entry);
                let slot = self.free;
                self.free = self.link(slot, NIL);
                slot
            }
            _ => {
                let slot = self.entries.len() as u16;
                self.entries.push(Some(entry)).map_err(|_| entry)?;
                // Both vectors have the same length and capacity, so this push succeeds too.
                let _ = self.next.push(NIL);
                slot
            }
        };
        self.used += 1;
        Ok(slot)
    }

    /// Points `slot`'s link at `to` and returns the link it held (`NIL` for no such slot).
    fn link(&mut self, slot: u16, to: u16) -> u16 {
        self.next
            .get_mut(usize::from(slot))
            .map_or(NIL, |l| core::mem::replace(l, to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec::Vec;

    fn drain(p: &mut Pool<u32, 4>, f: &mut Fifo) -> Vec<u32> {
        core::iter::from_fn(|| p.pop_front(f)).collect()
    }

    #[test]
    fn fifos_share_the_pool_and_keep_their_order() {
        let mut p = Pool::<u32, 4>::new();
        let (mut a, mut b) = (Fifo::EMPTY, Fifo::EMPTY);
        p.push_back(&mut a, 1).unwrap();
        p.push_back(&mut b, 10).unwrap();
        p.push_back(&mut a, 2).unwrap();
        p.push_front(&mut b, 9).unwrap();
        assert_eq!(p.available(), 0);
        assert_eq!(p.push_back(&mut a, 3), Err(3));
        assert_eq!(p.push_front(&mut b, 8), Err(8));
        assert_eq!(p.front(&b), Some(&9));
        assert_eq!(drain(&mut p, &mut b), [9, 10]);
        assert_eq!(b, Fifo::EMPTY);
        p.push_back(&mut a, 3).unwrap();
        p.push_front(&mut a, 0).unwrap();
        assert_eq!(drain(&mut p, &mut a), [0, 1, 2, 3]);
        assert_eq!((p.available(), a.len()), (4, 0));
    }

    #[test]
    fn every_slot_is_reused() {
        let mut p = Pool::<u32, 4>::new();
        let mut f = Fifo::EMPTY;
        for round in 0..10u32 {
            for i in 0..4 {
                p.push_back(&mut f, round * 4 + i).unwrap();
            }
            assert_eq!(p.push_back(&mut f, 99), Err(99));
            let want: Vec<u32> = (round * 4..round * 4 + 4).collect();
            assert_eq!(drain(&mut p, &mut f), want);
        }
    }
}
