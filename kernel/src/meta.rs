//! The best-effort meta-scheduler of kokkinos2009 Sec. 3.3: WFQ/EST and EDF/EST.
//!
//! Best-effort tasks arriving during a collection period wait in the meta-scheduler. When the
//! period ends the caller (who owns the clock and the period, 1 s in the paper's experiments)
//! calls [`MetaScheduler::dispatch`] until it answers `None`; each call runs both phases for one
//! task:
//!
//! 1. **Ordering.** [`Order::Wfq`]: tasks are queued per user in a [`FairQueue`] with the users'
//!    weights, so the order is fair among *users*, not tasks; the queue's virtual time carries
//!    over between periods, so a user served a lot recently waits behind the others.
//!    [`Order::Edf`]: the task with the earliest deadline first (ties in arrival order).
//! 2. **Assignment (EST).** The task goes to the slot (a resource, or one CPU of it) where it can
//!    start earliest, given the start estimates the caller keeps up to date with
//!    [`MetaScheduler::set_ready`]; ties to the lower slot. The slot's estimate then moves to the
//!    task's expected end at that slot's speed. Only slots whose maximum task admits the task
//!    and that have room for it are considered.
//!
//! # Room
//! A slot's estimate would send work to a resource whose queue is full as readily as to any
//! other. The caller also tells each slot how many more tasks it can take
//! ([`MetaScheduler::set_room`]; unlimited until it does): an assignment takes one, and a slot
//! with none left is passed over, as if it could never start the task. When no slot that admits
//! the next task has room, [`MetaScheduler::dispatch`] leaves it (and everything behind it) in
//! the batch for a later dispatch, so best-effort work waits at the meta-scheduler rather than
//! being sent where it cannot wait.
//!
//! Memory: a fair queue of `USERS` flows and `BATCH` tasks or an EDF heap of `BATCH` tasks,
//! whichever is larger (an enum: only the chosen ordering's storage is used), and `SLOTS` slots. Both phases are `O(log BATCH + SLOTS)` per task.

use core::mem::MaybeUninit;

use heapless::Vec;
use heapless::binary_heap::{BinaryHeap, Min};

use crate::error::{Error, Param, Refused};
use crate::fairq::{Discipline, FairQueue, FlowId, check_capacity};
use crate::storage::inplace;
use crate::units::{MAX_TASK_WORK, Mips, Ticks, Weight, Work, exec_ticks};

/// The ordering phase's policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Order {
    /// Weighted fair queueing across users (WFQ/EST).
    Wfq,
    /// Earliest deadline first (EDF/EST).
    Edf,
}

/// A best-effort task waiting at the meta-scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BeTask {
    /// The caller's identifier.
    pub id: u32,
    /// The user, as returned by [`MetaScheduler::add_user`].
    pub user: FlowId,
    /// Work, MI.
    pub work: Work,
    /// Absolute deadline, ticks (used by [`Order::Edf`]).
    pub deadline: Ticks,
}

/// Where a task should go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Assignment {
    /// The task.
    pub task: BeTask,
    /// The slot chosen by EST.
    pub slot: u16,
    /// Its estimated start, ticks.
    pub start: Ticks,
}

#[derive(Clone, Copy, Debug)]
struct Slot {
    speed: Mips,
    max_task: Work,
    ready_at: Ticks,
    /// Tasks it can still take.
    room: u32,
}

/// EDF heap key: deadline, then arrival order.
type EdfKey = (Ticks, u32, u32, FlowId, Work);

/// The waiting tasks, in the structure the ordering needs (only one is ever used).
#[derive(Clone, Debug)]
enum Batch<const USERS: usize, const BATCH: usize> {
    Wfq(FairQueue<BeTask, USERS, BATCH>),
    Edf {
        heap: BinaryHeap<EdfKey, Min, BATCH>,
        /// Users added so far: ids `0..users`.
        users: u16,
        /// Arrival counter, the tie-break between equal deadlines.
        seq: u32,
    },
}

/// A two-phase best-effort meta-scheduler for `USERS` users, `BATCH` waiting tasks and `SLOTS`
/// assignment targets.
#[derive(Clone, Debug)]
pub struct MetaScheduler<const USERS: usize, const BATCH: usize, const SLOTS: usize> {
    batch: Batch<USERS, BATCH>,
    slots: Vec<Slot, SLOTS>,
}

impl<const USERS: usize, const BATCH: usize, const SLOTS: usize>
    MetaScheduler<USERS, BATCH, SLOTS>
{
    /// An empty meta-scheduler. `capacity` (MIPS, usually the total capacity serving best effort)
    /// is the rate of the WFQ ordering's fluid clock.
    ///
    /// Errors: `InvalidParameter(Capacity)` for zero capacity.
    #[allow(unsafe_code)]
    pub fn new(order: Order, capacity: Mips) -> Result<Self, Error> {
        // SAFETY: `init` initialises the slot when it returns `Ok`.
        unsafe { inplace::by_value(|slot| Self::init(slot, order, capacity)) }
    }

    /// Writes [`MetaScheduler::new`]'s meta-scheduler into `slot`, in place. Its batch (an enum
    /// of the two orderings) is written as one value: an optimised build stores only its
    /// lengths and scalars, an unoptimised one passes the batch through a temporary. On an error
    /// `slot` holds no meta-scheduler.
    ///
    /// Errors: those of [`MetaScheduler::new`].
    #[allow(unsafe_code)]
    pub fn init(
        slot: &mut MaybeUninit<Self>,
        order: Order,
        capacity: Mips,
    ) -> Result<&mut Self, Error> {
        check_capacity(capacity)?;
        let batch = match order {
            Order::Wfq => Batch::Wfq(FairQueue::new(Discipline::Wfq, capacity)?),
            Order::Edf => Batch::Edf {
                heap: BinaryHeap::new(),
                users: 0,
                seq: 0,
            },
        };
        let p = slot.as_mut_ptr();
        // SAFETY: `p` is `slot`'s, valid and aligned for writes of `Self`; each field is reached
        // as a raw place, and after the writes every field is initialised (the pattern names
        // them all).
        let meta = unsafe {
            (&raw mut (*p).batch).write(batch);
            (&raw mut (*p).slots).write(Vec::new());
            slot.assume_init_mut()
        };
        let Self { batch: _, slots: _ } = meta;
        Ok(meta)
    }

    /// Makes this the meta-scheduler [`MetaScheduler::new`] makes with these arguments: every
    /// task, user and slot is dropped. With the ordering it was built for, only lengths and
    /// scalars are written (none of the `BATCH` entries), so that a caller running many short
    /// simulations reuses one meta-scheduler instead of building one each time:
    /// `O(USERS)`; with the other ordering, it is built anew. On an error nothing changes.
    ///
    /// Errors: those of [`MetaScheduler::new`].
    pub fn reset(&mut self, order: Order, capacity: Mips) -> Result<(), Error> {
        match (&mut self.batch, order) {
            (Batch::Wfq(fair), Order::Wfq) => fair.reset(Discipline::Wfq, capacity)?,
            (Batch::Edf { heap, users, seq }, Order::Edf) => {
                // The check `new` makes of the WFQ clock's rate, whichever the ordering.
                check_capacity(capacity)?;
                heap.clear();
                *users = 0;
                *seq = 0;
            }
            _ => return self.rebuild(order, capacity),
        }
        self.slots.clear();
        Ok(())
    }

    /// [`MetaScheduler::reset`] to the other ordering: built anew, through a temporary kept out
    /// of `reset`'s own stack frame (whose pages would otherwise be touched on every reset).
    #[cold]
    #[inline(never)]
    fn rebuild(&mut self, order: Order, capacity: Mips) -> Result<(), Error> {
        *self = Self::new(order, capacity)?;
        Ok(())
    }

    /// The ordering it was built for.
    pub fn order(&self) -> Order {
        match self.batch {
            Batch::Wfq(_) => Order::Wfq,
            Batch::Edf { .. } => Order::Edf,
        }
    }

    /// Adds a best-effort user of weight `w` (EDF ignores weights but checks them).
    ///
    /// Errors: `InvalidParameter(Weight)` for zero; [`Error::Full`] beyond `USERS` users.
    pub fn add_user(&mut self, w: Weight) -> Result<FlowId, Error> {
        match &mut self.batch {
            Batch::Wfq(fair) => fair.open(w),
            Batch::Edf { users, .. } => {
                if w == 0 {
                    return Err(Error::InvalidParameter(Param::Weight));
                }
                if usize::from(*users) >= USERS {
                    return Err(Error::Full);
                }
                *users += 1;
                Ok(FlowId::new(*users - 1))
            }
        }
    }

    /// Adds an assignment target of `speed` MIPS accepting tasks up to `max_task` MI; its start
    /// estimate is 0 and its room unlimited (`u32::MAX`). Errors: `InvalidParameter(Capacity)` or
    /// `(MaxWork)`; [`Error::Full`].
    pub fn add_slot(&mut self, speed: Mips, max_task: Work) -> Result<u16, Error> {
        if speed == Mips::ZERO {
            return Err(Error::InvalidParameter(Param::Capacity));
        }
        if max_task == Work::ZERO || max_task > MAX_TASK_WORK {
            return Err(Error::InvalidParameter(Param::MaxWork));
        }
        let id = self.slots.len() as u16;
        self.slots
            .push(Slot {
                speed,
                max_task,
                ready_at: Ticks::ZERO,
                room: u32::MAX,
            })
            .map_err(|_| Error::Full)?;
        Ok(id)
    }

    /// Sets when `slot` can next start a task (the caller's estimate, from the resource's state).
    /// Errors: [`Error::Unknown`].
    pub fn set_ready(&mut self, slot: u16, at: Ticks) -> Result<(), Error> {
        self.slots
            .get_mut(usize::from(slot))
            .ok_or(Error::Unknown)?
            .ready_at = at;
        Ok(())
    }

    /// Sets how many more tasks `slot` can take (the caller's count, from the resource's free
    /// queue entries and the tasks on their way to it). Errors: [`Error::Unknown`].
    pub fn set_room(&mut self, slot: u16, room: u32) -> Result<(), Error> {
        self.slots
            .get_mut(usize::from(slot))
            .ok_or(Error::Unknown)?
            .room = room;
        Ok(())
    }

    /// Tasks waiting for the next dispatch.
    pub fn len(&self) -> usize {
        match &self.batch {
            Batch::Wfq(fair) => fair.len(),
            Batch::Edf { heap, .. } => heap.len(),
        }
    }

    /// Whether no task waits.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Collects a task arriving at `now`.
    ///
    /// Errors, with the task handed back: [`Error::Unknown`] for an unknown user;
    /// `InvalidParameter(Work)` for zero work; [`Error::TaskTooLarge`] if no slot accepts it;
    /// [`Error::Full`]; those of [`FairQueue::enqueue`].
    pub fn submit(&mut self, now: Ticks, task: BeTask) -> Result<(), Refused<BeTask>> {
        let refuse = |e| Err(Refused::new(e, task));
        let known = match &self.batch {
            Batch::Wfq(fair) => fair.is_open(task.user),
            Batch::Edf { users, .. } => task.user.get() < *users,
        };
        if !known {
            return refuse(Error::Unknown);
        }
        if task.work == Work::ZERO {
            return refuse(Error::InvalidParameter(Param::Work));
        }
        if !self.slots.iter().any(|s| s.max_task >= task.work) {
            return refuse(Error::TaskTooLarge);
        }
        match &mut self.batch {
            Batch::Wfq(fair) => fair.enqueue(now, task.user, task.work, task).map(|_| ()),
            Batch::Edf { heap, seq, .. } => {
                let key = (task.deadline, *seq, task.id, task.user, task.work);
                heap.push(key)
                    .map_err(|_| Refused::new(Error::Full, task))?;
                *seq = seq.wrapping_add(1);
                Ok(())
            }
        }
    }

    /// Orders and assigns the next waiting task at `now` (the end of a collection period).
    /// `None` when no task waits, or when no slot that admits the next task has room: it then
    /// stays first in the batch.
    ///
    /// Errors: [`Error::TimeWentBackwards`] (WFQ ordering).
    pub fn dispatch(&mut self, now: Ticks) -> Result<Option<Assignment>, Error> {
        let next = match &mut self.batch {
            Batch::Wfq(fair) => fair.peek(now)?.map(|(t, _)| *t),
            Batch::Edf { heap, .. } => heap.peek().map(|&(deadline, _, id, user, work)| BeTask {
                id,
                user,
                work,
                deadline,
            }),
        };
        let Some(task) = next else {
            return Ok(None);
        };
        let best = self
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.max_task >= task.work && s.room > 0)
            .map(|(i, s)| (s.ready_at.max(now), i))
            .min();
        let Some((start, i)) = best else {
            return Ok(None);
        };
        // The task peeked above, taken now (the WFQ clock is already at `now`).
        match &mut self.batch {
            Batch::Wfq(fair) => {
                fair.dequeue(now)?;
            }
            Batch::Edf { heap, .. } => {
                heap.pop();
            }
        }
        if let Some(slot) = self.slots.get_mut(i) {
            let run = exec_ticks(task.work, slot.speed).unwrap_or(Ticks::MAX);
            slot.ready_at = start.saturating_add(run);
            slot.room = slot.room.saturating_sub(1);
        }
        Ok(Some(Assignment {
            task,
            slot: i as u16,
            start,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec::Vec;

    type Meta = MetaScheduler<4, 16, 2>;

    fn secs(s: u64) -> Ticks {
        Ticks::from_secs(s)
    }

    /// A task of `work` MI for `user`, due at `deadline` seconds.
    fn task(id: u32, user: FlowId, work: u64, deadline: u64) -> BeTask {
        BeTask {
            id,
            user,
            work: Work::new(work),
            deadline: secs(deadline),
        }
    }

    fn drain(m: &mut Meta, now: Ticks) -> Vec<(u32, u16, Ticks)> {
        core::iter::from_fn(|| m.dispatch(now).unwrap())
            .map(|a| (a.task.id, a.slot, a.start))
            .collect()
    }

    fn slot(m: &mut Meta, speed: u64, max_task: u64) -> Result<u16, Error> {
        m.add_slot(Mips::new(speed), Work::new(max_task))
    }

    /// A used meta-scheduler, reset to either ordering, is the new one (its `Debug` shows every
    /// field), and a reset with a bad argument changes nothing.
    #[test]
    fn a_reset_meta_scheduler_is_a_new_one() {
        use std::format;
        for (from, to) in [
            (Order::Wfq, Order::Wfq),
            (Order::Edf, Order::Edf),
            (Order::Wfq, Order::Edf),
            (Order::Edf, Order::Wfq),
        ] {
            let mut m = Meta::new(from, Mips::new(10)).unwrap();
            let (a, b) = (m.add_user(1).unwrap(), m.add_user(2).unwrap());
            slot(&mut m, 10, 100).unwrap();
            for id in 0..3 {
                m.submit(secs(1), task(id, a, 10, 5)).unwrap();
                m.submit(secs(1), task(10 + id, b, 20, 4)).unwrap();
            }
            m.dispatch(secs(2)).unwrap();
            let used = format!("{m:?}");
            assert_eq!(
                m.reset(to, Mips::ZERO),
                Err(Error::InvalidParameter(Param::Capacity))
            );
            assert_eq!(format!("{m:?}"), used);
            m.reset(to, Mips::new(30)).unwrap();
            assert_eq!(m.order(), to);
            let new = Meta::new(to, Mips::new(30)).unwrap();
            assert_eq!(format!("{m:?}"), format!("{new:?}"));
        }
    }

    #[test]
    fn wfq_orders_by_user_not_by_task() {
        let mut m = Meta::new(Order::Wfq, Mips::new(10)).unwrap();
        let (a, b) = (m.add_user(1).unwrap(), m.add_user(1).unwrap());
        slot(&mut m, 10, 100).unwrap();
        // User a floods four tasks before b's one; b is served second, not last.
        for id in 0..4 {
            m.submit(Ticks::ZERO, task(id, a, 10, 0)).unwrap();
        }
        m.submit(Ticks::ZERO, task(9, b, 10, 0)).unwrap();
        let order: Vec<u32> = drain(&mut m, secs(1)).iter().map(|x| x.0).collect();
        assert_eq!(order, [0, 9, 1, 2, 3]);
    }

    #[test]
    fn edf_orders_by_deadline_and_est_picks_the_earliest_start() {
        let mut m = Meta::new(Order::Edf, Mips::new(10)).unwrap();
        let u = m.add_user(1).unwrap();
        slot(&mut m, 10, 100).unwrap();
        slot(&mut m, 5, 20).unwrap();
        m.set_ready(0, secs(3)).unwrap();
        m.submit(Ticks::ZERO, task(1, u, 50, 9)).unwrap();
        m.submit(Ticks::ZERO, task(2, u, 10, 5)).unwrap();
        m.submit(Ticks::ZERO, task(3, u, 10, 5)).unwrap();
        // Task 2 (earliest deadline, first arrival) starts at once on slot 1 (free at 1 s) and
        // holds it 2 s; task 3 then starts on slot 1 at 3 s, tied with slot 0 (ready at 3 s):
        // the lower slot wins. Task 1 (50 MI) fits only slot 0, after task 3.
        assert_eq!(
            drain(&mut m, secs(1)),
            [(2, 1, secs(1)), (3, 0, secs(3)), (1, 0, secs(4))]
        );
    }

    /// A slot without room is passed over; when every slot that admits the next task is full,
    /// it waits in the batch (head of line) until the caller gives room again.
    #[test]
    fn full_slots_are_passed_over_and_the_task_waits_when_all_are_full() {
        for order in [Order::Edf, Order::Wfq] {
            let mut m = Meta::new(order, Mips::new(10)).unwrap();
            let u = m.add_user(1).unwrap();
            slot(&mut m, 10, 100).unwrap();
            slot(&mut m, 1, 100).unwrap();
            m.set_room(0, 1).unwrap();
            m.set_room(1, 1).unwrap();
            for id in 1..=3 {
                m.submit(Ticks::ZERO, task(id, u, 10, id.into())).unwrap();
            }
            // Task 1 to the fast slot; task 2 to the slow one (the fast one is full, though it
            // would start task 2 earlier); task 3 waits.
            assert_eq!(
                drain(&mut m, secs(1)),
                [(1, 0, secs(1)), (2, 1, secs(1))],
                "{order:?}"
            );
            assert_eq!(m.len(), 1);
            assert_eq!(m.set_room(2, 1), Err(Error::Unknown));
            m.set_room(1, 5).unwrap();
            assert_eq!(drain(&mut m, secs(2)), [(3, 1, secs(11))], "{order:?}");
        }
    }

    #[test]
    fn tasks_no_slot_accepts_are_refused_at_submission() {
        let mut m = Meta::new(Order::Edf, Mips::new(10)).unwrap();
        let u = m.add_user(1).unwrap();
        slot(&mut m, 10, 5).unwrap();
        let t = task(1, u, 6, 0);
        assert_eq!(
            m.submit(Ticks::ZERO, t),
            Err(Refused {
                reason: Error::TaskTooLarge,
                item: t
            })
        );
        let t = BeTask {
            user: FlowId::new(3),
            ..t
        };
        assert_eq!(m.submit(Ticks::ZERO, t).unwrap_err().reason, Error::Unknown);
        assert_eq!(
            slot(&mut m, 0, 5),
            Err(Error::InvalidParameter(Param::Capacity))
        );
    }
}
