//! The event queue of the discrete-event simulator: integer time (the kernel's µs ticks) and a
//! documented total order.
//!
//! Events are processed by time; events at the same instant in the order they were scheduled
//! (a sequence number breaks the tie). Nothing else (no hash, no address) decides the order, so
//! one seed gives the same run on any machine.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use qosgate_kernel::units::Ticks;

/// A scheduled event: its time and sequence number packed into one key, `at << 64 | seq`, so
/// that one 128-bit comparison orders by time, then scheduling order.
struct Entry<E> {
    key: u128,
    event: E,
}

impl<E> Entry<E> {
    fn at(&self) -> Ticks {
        // The high half is the time.
        Ticks::new((self.key >> 64) as u64)
    }
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl<E> Eq for Entry<E> {}

impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<E> Ord for Entry<E> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key.cmp(&other.key)
    }
}

/// Pending events, earliest first, ties in scheduling order.
pub struct Queue<E> {
    heap: BinaryHeap<Reverse<Entry<E>>>,
    seq: u64,
    now: Ticks,
    processed: u64,
}

impl<E> Default for Queue<E> {
    fn default() -> Self {
        Self {
            heap: BinaryHeap::new(),
            seq: 0,
            now: Ticks::ZERO,
            processed: 0,
        }
    }
}

impl<E> Queue<E> {
    /// The time of the event being processed (zero before the first).
    pub fn now(&self) -> Ticks {
        self.now
    }

    /// Events taken so far.
    pub fn processed(&self) -> u64 {
        self.processed
    }

    /// Schedules `event` at `at`, which must not be before [`now`](Self::now) (it is clamped to
    /// it: the past cannot be scheduled).
    pub fn at(&mut self, at: Ticks, event: E) {
        let at = at.max(self.now);
        self.heap.push(Reverse(Entry {
            key: u128::from(at.get()) << 64 | u128::from(self.seq),
            event,
        }));
        self.seq += 1;
    }

    /// Schedules `event` `delay` ticks from now (saturating).
    pub fn after(&mut self, delay: Ticks, event: E) {
        self.at(self.now.saturating_add(delay), event);
    }

    /// The next event, advancing the clock to it.
    pub fn pop(&mut self) -> Option<E> {
        let Reverse(e) = self.heap.pop()?;
        self.now = e.at();
        self.processed += 1;
        Some(e.event)
    }
}

#[cfg(test)]
mod tests {
    use super::Queue;
    use qosgate_kernel::units::Ticks;

    fn t(ticks: u64) -> Ticks {
        Ticks::new(ticks)
    }

    #[test]
    fn events_come_by_time_then_in_scheduling_order() {
        let mut q = Queue::default();
        q.at(t(5), "b");
        q.at(t(3), "a");
        q.at(t(5), "c");
        assert_eq!(q.pop(), Some("a"));
        assert_eq!(q.now(), t(3));
        q.after(t(2), "d");
        q.at(t(1), "e");
        let rest: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        // "e" was scheduled in the past: clamped to now (3), so it comes first.
        assert_eq!(rest, ["e", "b", "c", "d"]);
        assert_eq!(q.processed(), 5);
    }

    proptest::proptest! {
        /// Any interleaving of scheduling and taking gives the events by time, then in
        /// scheduling order: the order of a sorted map keyed by (time, scheduling number).
        #[test]
        fn the_queue_takes_events_as_a_sorted_map_would(
            ops in proptest::collection::vec(proptest::option::of(0u64..20), 0..300)
        ) {
            let mut q = Queue::default();
            let mut reference = std::collections::BTreeMap::new();
            let mut n = 0u32;
            for op in ops {
                match op {
                    Some(delay) => {
                        let at = q.now().get() + delay;
                        q.after(t(delay), n);
                        reference.insert((at, n), n);
                        n += 1;
                    }
                    None => {
                        let want = reference.pop_first();
                        proptest::prop_assert_eq!(q.pop(), want.map(|e| e.1));
                        if let Some(((at, _), _)) = want {
                            proptest::prop_assert_eq!(q.now(), t(at));
                        }
                    }
                }
            }
            let rest: Vec<u32> = std::iter::from_fn(|| q.pop()).collect();
            let want: Vec<u32> = reference.into_values().collect();
            proptest::prop_assert_eq!(rest, want);
        }
    }
}
