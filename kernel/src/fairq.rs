//! Weighted fair queueing of tasks across flows: WFQ (PGPS) and SCFQ, one structure.
//!
//! Each flow (a registered user, or a temporary best-effort user) has a weight `w` and a FIFO of
//! tasks. A task of work `L` arriving on flow `f` gets the finish tag
//!
//! ```text
//! F = max(v, F_last(f)) + L / w          (virtual time: MI per unit weight)
//! ```
//!
//! and the task with the smallest tag is served next (ties to the lower flow index, then FIFO).
//! The disciplines differ only in the system virtual time `v`:
//!
//! - [`Discipline::Wfq`] (PGPS, Parekh-Gallager; Demers-Keshav-Shenker): `v` is the virtual time of
//!   the fluid GPS system of capacity `C`, emulated exactly: it grows at `C / W_B` MI per unit
//!   weight per second, `W_B` the total weight of flows backlogged *in GPS*, and a flow leaves
//!   the GPS backlog when `v` reaches its last finish tag. Delay latency `L_i/g + L_max/C`.
//! - [`Discipline::Scfq`] (Golestani 1994): `v` is the tag of the task most recently started (the
//!   one "in service"); no fluid emulation. Latency `L_i/g + sum_{j != i} L_j / C` (larger).
//!
//! See [`crate::bound`] for the bounds and E28 for why they differ.
//!
//! # Invariants
//! - A flow is in the `ready` tree iff it has queued tasks, keyed by its head task's tag.
//! - The flows' FIFOs and the side FIFO draw on one pool of `QUEUE` entries; `len` counts the
//!   entries of the flows.
//! - WFQ: a flow is in the `gps` set iff it is backlogged in GPS, keyed by its last finish tag;
//!   `gps_weight` is the sum of those flows' weights; `v` never passes a key in `gps`.
//! - SCFQ: `v` is at most every queued tag, so tags of started tasks never decrease.
//! - No live time (`v`, queued tags, GPS keys) passes `latest`, the largest finish tag given so
//!   far (each queued tag and GPS key is one; WFQ's `v` never passes a GPS key, SCFQ's is a
//!   dequeued tag), and `latest` lies within [`MAX_SPAN`] after the oldest live time,
//!   `min(v, smallest queued tag)`, which never moves back, so wrap-around comparisons are
//!   exact. Enqueue checks it before anything moves: a task is refused with
//!   [`Error::Overflow`] if its tag could end more than `MAX_SPAN` after the oldest live time,
//!   its start taken with `v` as far as the fluid clock can move it by `now` (a raw unit per
//!   unit of service at most, and not past `latest`; exact under SCFQ and when no time passed).
//!   With tasks up to [`crate::units::MAX_TASK_WORK`] that takes about 2^23 / w maximal tasks
//!   queued at once.
//! - `occupancy.total_weight` is the sum of weights of open and closing flows. A closed flow that is still
//!   backlogged in GPS stays *closing* (its weight still counts, and its GPS entry is marked
//!   closing) until GPS finishes its work; then its slot is free, though its state still reads
//!   `Closing` (a slot is free iff its state is `Free`, or `Closing` and the flow is not in GPS).
//! - Each GPS entry holds its flow's weight ([`GpsSet`]): the fluid clock's departures read the
//!   set only.
//!
//! # Cost and memory
//! Enqueue and dequeue are `O(log FLOWS)` in the ready set, a tournament tree (`tree.rs`, a
//! fixed `ceil(log2 FLOWS)` comparisons per change); under WFQ an enqueue also moves the flow's
//! key in the GPS set ([`GpsSet`]: `O(log FLOWS)` in the heap, `O(FLOWS)` in the list). Tags
//! need no division. WFQ's fluid clock costs, per GPS departure a call passes (at most
//! `FLOWS` per call, amortised one per task), a removal from the GPS set ([`GpsSet`]:
//! `O(log FLOWS)` in the heap, `O(1)` in the list), a 64 x 32-bit product and a comparison, and
//! two divisions per call, 64-bit or short ones (16 steps of a 32-bit division).
//! Opening a flow takes the lowest free slot from a 64-bit map of chunks of `ceil(FLOWS / 64)`
//! slots (`O(FLOWS / 64)`, one slot a chunk up to 64 flows); the side FIFO's operations are `O(1)`.
//! Memory: see [`core::mem::size_of`] in the README.
//!
//! # The side FIFO
//! Tasks outside the fair ordering (a resource's best-effort FIFO, [`crate::resource`]) can wait
//! in the queue's side FIFO, which shares the `QUEUE` entries with the flows: `QUEUE` bounds all
//! waiting tasks together. The side FIFO is served only when the caller pops it.

use core::mem::MaybeUninit;
use core::num::NonZeroU32;

use heapless::Vec;

use crate::error::{Error, Param, Refused};
use crate::storage::inplace;
use crate::storage::pool::{Fifo, Pool};
use crate::storage::tree::FlowTree;
use crate::units::{MAX_CAPACITY, Mips, TICKS_PER_SECOND, Ticks, Weight, Work};
use crate::vtime::{FRAC_BITS, InvWeight, MAX_SPAN, VirtualTime};
use crate::wide;

/// `10^6 = 2^6 15,625` ticks a second: the fluid clock's service, `elapsed C 2^16 / 10^6` raw
/// units, is `elapsed C 2^SERVICE_SHIFT / SERVICE_DIVISOR`.
const SERVICE_SHIFT: u32 = FRAC_BITS - TICKS_PER_SECOND.trailing_zeros();
const SERVICE_DIVISOR: u32 = (TICKS_PER_SECOND >> TICKS_PER_SECOND.trailing_zeros()) as u32;
const _SERVICE_EXACT: () = assert!(
    TICKS_PER_SECOND.trailing_zeros() <= FRAC_BITS && SERVICE_DIVISOR < wide::SMALL_DIVISOR
);

crate::handle::handle! {
    /// A flow of a [`FairQueue`] (a user of a resource, a registered flow of a
    /// [`Resource`](crate::resource::Resource)), handed out by [`FairQueue::open`]: the index of
    /// its slot, below the queue's `FLOWS` capacity, reused once the flow is closed.
    /// `usize::from` gives the index into per-flow tables.
    FlowId(u16) as index
}

/// The fair-queueing discipline of a resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Discipline {
    /// Weighted fair queueing: packet-by-packet GPS with exact fluid emulation.
    Wfq,
    /// Self-clocked fair queueing (Golestani).
    Scfq,
}

/// A task taken from the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Dequeued<T> {
    /// Its flow.
    pub flow: FlowId,
    /// The caller's item.
    pub item: T,
    /// Its work, MI.
    pub work: Work,
    /// Its finish tag.
    pub finish: VirtualTime,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FlowState {
    Free,
    Open,
    Closing,
}

#[derive(Clone, Copy, Debug)]
struct Flow {
    state: FlowState,
    weight: Weight,
    inv: InvWeight,
    last_finish: VirtualTime,
    fifo: Fifo,
}

/// What is left of the service a call of the fluid clock gives GPS, in raw units of virtual
/// time times weight ([`FairQueue::fluid`]): each departure's cost is taken from it.
trait Budget: Copy {
    /// Takes `ahead w` if that much is left (`ahead < 2^64`, `w < 2^32`).
    fn take(&mut self, ahead: u64, w: u32) -> bool;
    /// How far what is left moves `v` at GPS weight `w`: `self / w`, rounded down.
    fn over(self, w: NonZeroU32) -> u64;
}

/// A budget for a call where all GPS could take is below 2^64, so every cost is: the product
/// is one 64-bit multiplication, exact without an overflow check.
impl Budget for u64 {
    #[inline(always)]
    fn take(&mut self, ahead: u64, w: u32) -> bool {
        let cost = ahead.wrapping_mul(u64::from(w));
        if cost > *self {
            return false;
        }
        *self -= cost;
        true
    }

    fn over(self, w: NonZeroU32) -> u64 {
        wide::div_saturating_by_u32(u128::from(self), w)
    }
}

/// A budget below 2^96, `hi 2^64 + lo`, for a call where GPS could take 2^64 units or more.
#[derive(Clone, Copy)]
struct Wide {
    hi: u32,
    lo: u64,
}

impl Wide {
    /// `units` below 2^96 (saturated there).
    fn new(units: u128) -> Self {
        Self {
            hi: u32::try_from(units >> 64).unwrap_or(u32::MAX),
            lo: units as u64,
        }
    }

    fn get(self) -> u128 {
        (u128::from(self.hi) << 64) | u128::from(self.lo)
    }
}

impl Budget for Wide {
    /// The product formed from two 32 x 32-bit ones in 64-bit arithmetic, `ahead w = (hi w +
    /// (lo w >> 32)) 2^32 + (lo w mod 2^32)` with `ahead = hi 2^32 + lo` (a `u128` product is a
    /// library call on a Cortex-M0), then subtracted as a `u128` whose top word is zero (a
    /// 96-bit subtraction; in two explicit halves it measured 6,260 instructions for
    /// `submit_be`'s worst case on the M3 against 4,754).
    #[inline(always)]
    fn take(&mut self, ahead: u64, w: u32) -> bool {
        let w = u64::from(w);
        let low = (ahead & 0xffff_ffff) * w;
        // Below (2^32 - 1)^2 + 2^32: no overflow.
        let high = (ahead >> 32) * w + (low >> 32);
        let cost = (u128::from(high >> 32) << 64) | u128::from((high << 32) | (low & 0xffff_ffff));
        match self.get().checked_sub(cost) {
            Some(left) => {
                *self = Self::new(left);
                true
            }
            None => false,
        }
    }

    fn over(self, w: NonZeroU32) -> u64 {
        wide::div_saturating_by_u32(self.get(), w)
    }
}

/// The flow slots taken: the open and closing flows' weights and count, and where the free
/// slots are, so that [`FairQueue::open`] finds the lowest in `O(FLOWS / 64)` steps.
#[derive(Clone, Copy, Debug)]
struct Occupancy {
    /// The sum of the open and closing flows' weights.
    total_weight: u32,
    /// Open and closing flows.
    in_use: u16,
    /// Bit `c % 32` of word `c / 32` is set iff chunk `c` of the slots used so far holds a free
    /// one: slots `c K .. c K + K` with `K = ceil(FLOWS / 64)`, one slot a chunk up to 64 flows.
    /// (Two words: a 64-bit shift by a variable amount is ten Cortex-M3 instructions.)
    free: [u32; 2],
}

impl Occupancy {
    const EMPTY: Self = Self {
        total_weight: 0,
        in_use: 0,
        free: [0; 2],
    };

    /// Frees `flow`'s slot, in chunk `c` ([`FairQueue::release`]), and marks it `Free`.
    fn free(&mut self, flow: &mut Flow, c: usize) {
        self.vacate(flow.weight, c);
        flow.state = FlowState::Free;
    }

    /// Counts the slot of a flow of weight `weight`, in chunk `c`, free (its state not written:
    /// a closing flow GPS has finished, see the invariants).
    fn vacate(&mut self, weight: Weight, c: usize) {
        self.total_weight -= u32::from(weight);
        self.in_use -= 1;
        self.mark(c, true);
    }

    /// Sets or clears chunk `c`'s bit (`c < 64`, as every chunk index is: the word is picked by
    /// bit 5 alone, which needs no bounds check).
    fn mark(&mut self, c: usize, free: bool) {
        let word = &mut self.free[(c / 32) & 1];
        let bit = 1 << (c % 32);
        if free {
            *word |= bit;
        } else {
            *word &= !bit;
        }
    }

    /// The lowest chunk with a free slot, if any.
    fn lowest(&self) -> Option<usize> {
        match self.free {
            [0, 0] => None,
            [0, high] => Some(32 + high.trailing_zeros() as usize),
            [low, _] => Some(low.trailing_zeros() as usize),
        }
    }
}

const FREE_FLOW: Flow = Flow {
    state: FlowState::Free,
    weight: 0,
    inv: InvWeight::ONE,
    last_finish: VirtualTime::ZERO,
    fifo: Fifo::EMPTY,
};

#[derive(Clone, Copy, Debug)]
struct Entry<T> {
    item: T,
    work: Work,
    /// Finish tag (unused in the side FIFO).
    finish: VirtualTime,
}

impl<T> Entry<T> {
    fn side(work: Work, item: T) -> Self {
        Self {
            item,
            work,
            finish: VirtualTime::ZERO,
        }
    }
}

pub use crate::storage::heap::FlowHeap as GpsHeap;
pub use crate::storage::sorted::SortedFlows as GpsSorted;

/// How WFQ keeps the flows backlogged in its GPS clock, in the order GPS finishes them: a
/// choice between the mean and the worst case of a call, with the same results.
///
/// - [`GpsHeap`] (the default): a binary heap. A task that joins a flow moves its key in
///   `O(log FLOWS)`; a GPS departure is a heap removal, `O(log FLOWS)`, so a call that comes
///   after GPS has finished many flows pays one per flow (about 400 instructions each on a
///   Cortex-M3 at 64 flows: `qg_scheduler_next` after 64 departures took 26,078 with it, in
///   the clock before its departures were taken in one pass).
/// - [`GpsSorted`]: a list sorted by key. The departures are the first flows, taken out in
///   one pass and cut from the list once (the same call: 3,565 instructions, 4,278 when every
///   departure costs 2^64 units of service or more and frees a closing flow's slot),
///   and a key that moves walks the list from its nearer end, `O(FLOWS)`: a new key lands
///   half-way on average, so a WFQ enqueue + dequeue pair costs 1.5 times the heap's
///   instructions at 64 flows on x86_64 and 8.1 times at 1,024, and the firmware's
///   steady-state `qg_scheduler_submit_gs` 848 instructions on average (704 with the heap,
///   measured before the one-pass departures).
///
/// The C library's scheduler uses [`GpsSorted`] (bounded work per call); the harness, the
/// default. Sealed: the two are the kernel's.
pub trait GpsSet<const N: usize>: gps_set::Ops<N> {}

impl<const N: usize> GpsSet<N> for GpsHeap<N> {}
impl<const N: usize> GpsSet<N> for GpsSorted<N> {}

/// The operations the fluid clock needs of a [`GpsSet`], out of reach outside the kernel.
mod gps_set {
    use crate::storage::Member;
    use crate::storage::heap::FlowHeap;
    use crate::storage::sorted::SortedFlows;
    use crate::units::Weight;
    use crate::vtime::VirtualTime;

    pub trait Ops<const N: usize>: Clone + core::fmt::Debug {
        /// The empty set (only its lengths written).
        fn empty() -> Self;
        fn contains(&self, flow: u16) -> bool;
        /// Takes the flows out in key order (ties to the lower flow) while `depart(flow, key,
        /// member)` says so: it sees each flow before the flow leaves, and no flow after it
        /// said no.
        fn pop_while(&mut self, depart: impl FnMut(u16, VirtualTime, Member) -> bool);
        /// Inserts `flow` with `key` and weight `weight` (not closing), or moves it there.
        fn set(&mut self, flow: u16, key: VirtualTime, weight: Weight);
        /// Marks `flow`, if in the set, closing.
        fn mark_closing(&mut self, flow: u16);
    }

    impl<const N: usize> Ops<N> for FlowHeap<N> {
        #[inline(always)]
        fn empty() -> Self {
            FlowHeap::new()
        }
        fn contains(&self, flow: u16) -> bool {
            FlowHeap::contains(self, flow)
        }
        fn pop_while(&mut self, depart: impl FnMut(u16, VirtualTime, Member) -> bool) {
            FlowHeap::pop_while(self, depart);
        }
        fn set(&mut self, flow: u16, key: VirtualTime, weight: Weight) {
            FlowHeap::set(self, flow, key, weight);
        }
        fn mark_closing(&mut self, flow: u16) {
            FlowHeap::mark_closing(self, flow);
        }
    }

    impl<const N: usize> Ops<N> for SortedFlows<N> {
        #[inline(always)]
        fn empty() -> Self {
            SortedFlows::new()
        }
        fn contains(&self, flow: u16) -> bool {
            SortedFlows::contains(self, flow)
        }
        fn pop_while(&mut self, depart: impl FnMut(u16, VirtualTime, Member) -> bool) {
            SortedFlows::pop_while(self, depart);
        }
        fn set(&mut self, flow: u16, key: VirtualTime, weight: Weight) {
            SortedFlows::set(self, flow, key, weight);
        }
        fn mark_closing(&mut self, flow: u16) {
            SortedFlows::mark_closing(self, flow);
        }
    }
}

/// A fair queue of at most `QUEUE` tasks over at most `FLOWS` flows, WFQ's GPS flows kept in a
/// `G` ([`GpsSet`]).
#[derive(Clone, Debug)]
pub struct FairQueue<T, const FLOWS: usize, const QUEUE: usize, G = GpsHeap<FLOWS>> {
    discipline: Discipline,
    capacity: Mips,
    /// The flow slots used so far (slots are taken lowest first); the rest are free.
    flows: Vec<Flow, FLOWS>,
    pool: Pool<Entry<T>, QUEUE>,
    side: Fifo,
    /// Entries in the flows' FIFOs.
    len: u16,
    ready: FlowTree<FLOWS>,
    v: VirtualTime,
    /// The largest finish tag given so far (0 before the first): see the invariants.
    latest: VirtualTime,
    gps: G,
    gps_weight: u32,
    occupancy: Occupancy,
    at: Ticks,
}

/// `InvalidParameter(Capacity)` unless `capacity` is in `1 ..= MAX_CAPACITY`.
pub(crate) fn check_capacity(capacity: Mips) -> Result<(), Error> {
    if capacity == Mips::ZERO || capacity > MAX_CAPACITY {
        return Err(Error::InvalidParameter(Param::Capacity));
    }
    Ok(())
}

impl core::fmt::Display for Discipline {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Discipline::Wfq => "WFQ",
            Discipline::Scfq => "SCFQ",
        })
    }
}

impl<T: Copy, const FLOWS: usize, const QUEUE: usize, G: GpsSet<FLOWS>>
    FairQueue<T, FLOWS, QUEUE, G>
{
    /// An empty queue at time 0. `capacity` (MIPS) is the fluid rate of WFQ's GPS; SCFQ ignores it.
    ///
    /// Errors: `InvalidParameter(Capacity)` if `capacity` is zero or above [`MAX_CAPACITY`].
    #[allow(unsafe_code)]
    pub fn new(discipline: Discipline, capacity: Mips) -> Result<Self, Error> {
        // SAFETY: `init` initialises the slot when it returns `Ok`.
        unsafe { inplace::by_value(|slot| Self::init(slot, discipline, capacity)) }
    }

    /// Writes [`FairQueue::new`]'s queue into `slot`, in place: only lengths and scalars, none
    /// of the `QUEUE` entries. On an error nothing is written to `slot` (every argument is
    /// checked first).
    ///
    /// Errors: those of [`FairQueue::new`].
    #[allow(unsafe_code)]
    pub fn init(
        slot: &mut MaybeUninit<Self>,
        discipline: Discipline,
        capacity: Mips,
    ) -> Result<&mut Self, Error> {
        check_capacity(capacity)?;
        let p = slot.as_mut_ptr();
        // SAFETY: `p` is `slot`'s, valid and aligned for writes of `Self`; each field is reached
        // as a raw place, and after the writes every field is initialised (the pattern names
        // them all).
        let queue = unsafe {
            (&raw mut (*p).discipline).write(discipline);
            (&raw mut (*p).capacity).write(capacity);
            (&raw mut (*p).flows).write(Vec::new());
            (&raw mut (*p).pool).write(Pool::new());
            (&raw mut (*p).side).write(Fifo::EMPTY);
            (&raw mut (*p).len).write(0);
            (&raw mut (*p).ready).write(FlowTree::new());
            (&raw mut (*p).v).write(VirtualTime::ZERO);
            (&raw mut (*p).latest).write(VirtualTime::ZERO);
            (&raw mut (*p).gps).write(G::empty());
            (&raw mut (*p).gps_weight).write(0);
            (&raw mut (*p).occupancy).write(Occupancy::EMPTY);
            (&raw mut (*p).at).write(Ticks::ZERO);
            slot.assume_init_mut()
        };
        let Self {
            discipline: _,
            capacity: _,
            flows: _,
            pool: _,
            side: _,
            len: _,
            ready: _,
            v: _,
            latest: _,
            gps: _,
            gps_weight: _,
            occupancy: _,
            at: _,
        } = queue;
        Ok(queue)
    }

    /// Empties the queue and makes it the one [`FairQueue::new`] makes with these arguments,
    /// writing only lengths and scalars (none of the `QUEUE` entries), so that a queue can be
    /// used again without the cost of building one: `O(FLOWS)`. On an error nothing changes.
    ///
    /// Errors: those of [`FairQueue::new`].
    pub fn reset(&mut self, discipline: Discipline, capacity: Mips) -> Result<(), Error> {
        check_capacity(capacity)?;
        self.discipline = discipline;
        self.capacity = capacity;
        self.flows.clear();
        self.pool.clear();
        self.side = Fifo::EMPTY;
        self.len = 0;
        self.ready = FlowTree::new();
        self.v = VirtualTime::ZERO;
        self.latest = VirtualTime::ZERO;
        self.gps = G::empty();
        self.gps_weight = 0;
        self.occupancy = Occupancy::EMPTY;
        self.at = Ticks::ZERO;
        Ok(())
    }

    /// The discipline.
    pub fn discipline(&self) -> Discipline {
        self.discipline
    }

    /// Tasks queued on flows (the side FIFO's are not counted).
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether no task is queued on a flow.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Entries free for tasks, on flows or in the side FIFO: `QUEUE` minus both queues' tasks.
    pub fn available(&self) -> usize {
        self.pool.available()
    }

    /// Tasks queued on `flow` (0 for an unknown flow).
    pub fn flow_len(&self, flow: FlowId) -> usize {
        self.flows
            .get(usize::from(flow))
            .map_or(0, |f| f.fifo.len())
    }

    /// Tasks in the side FIFO.
    pub fn side_len(&self) -> usize {
        self.side.len()
    }

    /// Appends `item` (a task of `work` MI) to the side FIFO.
    ///
    /// Errors, with the item handed back: [`Error::Full`] (`QUEUE` tasks waiting).
    pub fn push_side(&mut self, work: Work, item: T) -> Result<(), Refused<T>> {
        self.pool
            .push_back(&mut self.side, Entry::side(work, item))
            .map_err(|e| Refused::new(Error::Full, e.item))
    }

    /// Puts `item` (a task of `work` MI) at the front of the side FIFO.
    ///
    /// Errors, with the item handed back: [`Error::Full`] (`QUEUE` tasks waiting).
    pub fn push_side_front(&mut self, work: Work, item: T) -> Result<(), Refused<T>> {
        self.pool
            .push_front(&mut self.side, Entry::side(work, item))
            .map_err(|e| Refused::new(Error::Full, e.item))
    }

    /// Takes the task at the front of the side FIFO: `(item, work)`.
    pub fn pop_side(&mut self) -> Option<(T, Work)> {
        self.pool
            .pop_front(&mut self.side)
            .map(|e| (e.item, e.work))
    }

    /// The weight of an open flow.
    pub fn weight(&self, flow: FlowId) -> Option<Weight> {
        self.open_flow(flow).map(|f| f.weight)
    }

    /// Sum of the weights of open and closing flows.
    pub fn total_weight(&self) -> u32 {
        self.occupancy.total_weight
    }

    /// Flow slots taken: open flows plus closing ones.
    pub fn in_use(&self) -> usize {
        usize::from(self.occupancy.in_use)
    }

    /// Whether `flow` is open.
    pub fn is_open(&self, flow: FlowId) -> bool {
        self.open_flow(flow).is_some()
    }

    /// The system virtual time `v`.
    pub fn virtual_time(&self) -> VirtualTime {
        self.v
    }

    /// Opens a flow of weight `w` in the first free slot.
    ///
    /// Errors: `InvalidParameter(Weight)` for zero, [`Error::Full`] if all `FLOWS` slots are taken
    /// (closing flows hold theirs until GPS has served them).
    pub fn open(&mut self, w: Weight) -> Result<FlowId, Error> {
        let inv = InvWeight::new(w).ok_or(Error::InvalidParameter(Param::Weight))?;
        let flow = Flow {
            state: FlowState::Open,
            weight: w,
            inv,
            ..FREE_FLOW
        };
        let slot = match self.take_lowest_free() {
            Some((slot, free)) => {
                *free = flow;
                slot
            }
            None => {
                self.flows.push(flow).map_err(|_| Error::Full)?;
                self.flows.len() - 1
            }
        };
        self.occupancy.total_weight += u32::from(w);
        self.occupancy.in_use += 1;
        Ok(FlowId::new(slot as u16))
    }

    /// Slots per chunk of [`Occupancy::free`]: `ceil(FLOWS / 64)`, at least 1.
    const CHUNK: usize = if FLOWS > 64 { FLOWS.div_ceil(64) } else { 1 };

    /// The lowest free slot, if any, now counted as taken in [`Occupancy::free`] (the caller
    /// writes a flow into it): a search of one chunk and a check of the rest of it.
    fn take_lowest_free(&mut self) -> Option<(usize, &mut Flow)> {
        let chunk = self.occupancy.lowest()?;
        let start = chunk * Self::CHUNK;
        let end = (start + Self::CHUNK).min(self.flows.len());
        let slots = self.flows.get_mut(start..end)?;
        let gps = &self.gps;
        let free = |(i, f): (usize, &Flow)| match f.state {
            FlowState::Free => true,
            FlowState::Closing => !gps.contains((start + i) as u16),
            FlowState::Open => false,
        };
        let at = slots.iter().enumerate().position(free)?;
        if !slots.iter().enumerate().skip(at + 1).any(free) {
            self.occupancy.mark(chunk, false);
        }
        Some((start + at, slots.get_mut(at)?))
    }

    /// Closes an open flow that has no queued task. Its slot and weight are released at once, or,
    /// under WFQ, when GPS has finished the flow's work.
    ///
    /// Errors: [`Error::Unknown`] if the flow is not open; [`Error::Busy`] if tasks are queued on it.
    pub fn close(&mut self, flow: FlowId) -> Result<(), Error> {
        let f = self.open_flow(flow).ok_or(Error::Unknown)?;
        if !f.fifo.is_empty() {
            return Err(Error::Busy);
        }
        if !self.gps.contains(flow.get()) {
            self.release(flow);
        } else if let Some(f) = self.flows.get_mut(usize::from(flow)) {
            f.state = FlowState::Closing;
            self.gps.mark_closing(flow.get());
        }
        Ok(())
    }

    /// Queues `item` (a task of `work` MI) on `flow` at `now` and returns its finish tag.
    ///
    /// Errors, with the item handed back: [`Error::Unknown`] (flow not open),
    /// `InvalidParameter(Work)` (zero work), [`Error::Full`] (`QUEUE` tasks waiting, side FIFO
    /// included),
    /// [`Error::TimeWentBackwards`], [`Error::Overflow`] (the tag could end more than
    /// [`MAX_SPAN`] after the oldest live time: see the invariants). Every check comes before
    /// anything changes, so a refused task leaves the queue as it was, its fluid clock included.
    pub fn enqueue(
        &mut self,
        now: Ticks,
        flow: FlowId,
        work: Work,
        item: T,
    ) -> Result<VirtualTime, Refused<T>> {
        let refuse = |reason| Err(Refused::new(reason, item));
        let Some(&f) = self.open_flow(flow) else {
            return refuse(Error::Unknown);
        };
        if work == Work::ZERO {
            return refuse(Error::InvalidParameter(Param::Work));
        }
        if self.pool.available() == 0 {
            return refuse(Error::Full);
        }
        if now < self.at {
            return refuse(Error::TimeWentBackwards);
        }
        // The tag starts at `max(F_last, v)` for a backlogged flow and at `v` otherwise, with
        // `v` at `now`, at most `reach`: the check bounds it with `reach` before the clock moves.
        let service = self.service(now);
        let backlogged = |q: &Self| match q.discipline {
            Discipline::Wfq => q.gps.contains(flow.get()),
            Discipline::Scfq => !f.fifo.is_empty(),
        };
        let start = |backlogged: bool, v: VirtualTime| {
            if backlogged { f.last_finish.max(v) } else { v }
        };
        let span = f.inv.span(work);
        let latest_start = start(backlogged(self), self.reach(service));
        let oldest = self.ready.peek().map_or(self.v, |(_, k)| k.min(self.v));
        if span > MAX_SPAN || latest_start.wrapping_add(span).since(oldest) as u64 > MAX_SPAN {
            return refuse(Error::Overflow);
        }
        self.at = now;
        if let Some(service) = service {
            self.fluid(service);
        }
        let backlogged = backlogged(self);
        let start = start(backlogged, self.v);
        let finish = start.wrapping_add(span);
        let pushed = self.flows.get_mut(usize::from(flow)).map(|fl| {
            self.pool
                .push_back(&mut fl.fifo, Entry { item, work, finish })
                .map(|()| fl.last_finish = finish)
        });
        if !matches!(pushed, Some(Ok(()))) {
            // Unreachable: the flow is open and an entry is free.
            return refuse(Error::Full);
        }
        self.len += 1;
        self.latest = self.latest.max(finish);
        if f.fifo.is_empty() {
            self.ready.set(flow.get(), finish);
        }
        if self.discipline == Discipline::Wfq {
            if !backlogged {
                self.gps_weight += u32::from(f.weight);
            }
            self.gps.set(flow.get(), finish, f.weight);
        }
        Ok(finish)
    }

    /// The queued task [`Self::dequeue`] would take at `now`, left in place: `(item, work)`. Brings
    /// the fluid clock to `now` as `dequeue` would.
    ///
    /// Errors: [`Error::TimeWentBackwards`].
    pub fn peek(&mut self, now: Ticks) -> Result<Option<(&T, Work)>, Error> {
        self.advance(now)?;
        let Some((flow, _)) = self.ready.peek() else {
            return Ok(None);
        };
        let flow = FlowId::new(flow);
        Ok(self
            .flows
            .get(usize::from(flow))
            .and_then(|fl| self.pool.front(&fl.fifo))
            .map(|e| (&e.item, e.work)))
    }

    /// Takes the queued task with the smallest finish tag at `now`.
    ///
    /// Errors: [`Error::TimeWentBackwards`].
    pub fn dequeue(&mut self, now: Ticks) -> Result<Option<Dequeued<T>>, Error> {
        self.advance(now)?;
        let Some((flow, _)) = self.ready.peek() else {
            return Ok(None);
        };
        let flow = FlowId::new(flow);
        let popped = self
            .flows
            .get_mut(usize::from(flow))
            .and_then(|fl| Some((self.pool.pop_front(&mut fl.fifo)?, fl.fifo)));
        let Some((entry, fifo)) = popped else {
            // Unreachable by the ready-tree invariant; recover rather than panic.
            self.ready.remove(flow.get());
            return Ok(None);
        };
        self.len -= 1;
        match self.pool.front(&fifo) {
            Some(e) => self.ready.set(flow.get(), e.finish),
            None => self.ready.remove(flow.get()),
        }
        if self.discipline == Discipline::Scfq {
            self.v = self.v.max(entry.finish);
        }
        Ok(Some(Dequeued {
            flow,
            item: entry.item,
            work: entry.work,
            finish: entry.finish,
        }))
    }

    /// Brings the fluid clock to `now`. Errors: [`Error::TimeWentBackwards`].
    fn advance(&mut self, now: Ticks) -> Result<(), Error> {
        if now < self.at {
            return Err(Error::TimeWentBackwards);
        }
        if let Some(service) = self.service(now) {
            self.fluid(service);
        }
        self.at = now;
        Ok(())
    }

    /// The service GPS gives from `at` to `now` (not before `at`), in raw units of virtual time
    /// times weight, for [`Self::fluid`]; `None` under SCFQ, which has no fluid clock, and when
    /// no time passed (then WFQ has nothing to do either: a flow whose GPS departure falls
    /// exactly now starts its next task at `v` either way, `max(F_last, v) = v`).
    ///
    /// GPS serves `C` MI/s shared by the backlogged flows in proportion to their weights, so `v`
    /// grows by `C / W_B` per second. The clock counts the service of the elapsed time exactly,
    /// in raw units of virtual time (2^-16 MI per unit weight) times weight, which need no
    /// division per departure: `floor(elapsed C 2^16 / 10^6)`, one short division by 15,625
    /// (`10^6 = 2^6 15,625`, so `elapsed C 2^10 / 15,625`; [`wide::div_small`]). Flooring the
    /// service first loses nothing: every departure's share is a whole number of units, and
    /// `floor(floor(x / 10^6) / W) = floor(x / (10^6 W))`; the clock counted `elapsed C 2^16`
    /// before, and divided what was left by `10^6 W_B`, a 128-bit long division when the
    /// interval was long (about 1,500 instructions on a Cortex-M3, against 16 steps of a 32-bit
    /// division).
    fn service(&self, now: Ticks) -> Option<u128> {
        let elapsed = now.get().saturating_sub(self.at.get());
        if self.discipline == Discipline::Scfq || elapsed == 0 {
            return None;
        }
        // Below 2^64 * 2^50 (C <= MAX_CAPACITY = 2^40): no overflow.
        let scaled = u128::from(elapsed) * u128::from(self.capacity.get() << SERVICE_SHIFT);
        Some(wide::div_small(scaled, SERVICE_DIVISOR).map_or(0, |(q, _)| q))
    }

    /// The furthest `v` can be after [`Self::fluid`] gives `service`: each unit of service moves
    /// `v` by at most one raw unit (every weight is at least 1), and `v` never passes `latest`.
    fn reach(&self, service: Option<u128>) -> VirtualTime {
        let room = self.latest.since(self.v).max(0) as u64;
        let moved = service.map_or(0, |s| u64::try_from(s).unwrap_or(u64::MAX).min(room));
        self.v.wrapping_add(moved)
    }

    /// WFQ's fluid clock: gives GPS `service` ([`Self::service`]): at most one GPS departure per
    /// flow backlogged in GPS, each a removal from the GPS set, a 64 x 32-bit product and a
    /// comparison, then one division; a closing flow that leaves GPS is freed. Bringing `v` to
    /// the next departure takes `(key - v) W_B` of the service, and what is left when no
    /// departure is reached moves `v` by `service / W_B`, rounded down (GPS never runs ahead of
    /// the fluid system), a short division. The clock used to convert each departure into
    /// ticks, a division per departure; in a backlogged queue a call passes a departure almost
    /// every time, and those divisions were most of a WFQ enqueue + dequeue pair. The service is
    /// counted in 64 bits when all GPS could take is below 2^64, in 96 otherwise ([`Budget`]).
    fn fluid(&mut self, service: u128) {
        // All GPS could take, `(latest - v) W_B` (below 2^62 * 2^32): it bounds the cost of the
        // departures up to the last key (every key is at most `latest`, and `v` and `W_B` only
        // move towards it), so the service beyond it moves nothing.
        let room = self.latest.since(self.v).max(0) as u64;
        let all = u128::from(room) * u128::from(self.gps_weight);
        let service = service.min(all);
        match u64::try_from(all) {
            // Every cost, and the service, below 2^64.
            Ok(_) => self.depart(service as u64),
            Err(_) => self.depart(Wide::new(service)),
        }
    }

    /// [`Self::fluid`]'s departures, `left` the service.
    fn depart<B: Budget>(&mut self, mut left: B) {
        let (mut v, mut gps_weight) = (self.v, self.gps_weight);
        // A copy on the stack: its fields are reached from the stack pointer, not a register.
        let mut occupancy = self.occupancy;
        self.gps.pop_while(|flow, key, member| {
            // GPS never runs ahead of its keys (`v <= key`, see the invariants), so this is the
            // distance, at most `latest - v`.
            let ahead = key.since(v) as u64;
            if !left.take(ahead, gps_weight) {
                // The departure lies beyond the service, so `left / W_B < ahead`: `v` stays
                // below the key, as the GPS invariant asks. (A cost above the service is not
                // zero: `W_B > 0`.)
                if let Some(weight) = NonZeroU32::new(gps_weight) {
                    v = v.wrapping_add(left.over(weight));
                }
                return false;
            }
            v = key;
            gps_weight -= u32::from(member.weight);
            if member.closing {
                // GPS has finished a closed flow's work: its slot is free (its state stays
                // `Closing`, which out of GPS reads as free).
                occupancy.vacate(member.weight, usize::from(flow) / Self::CHUNK);
            }
            true
        });
        (self.v, self.gps_weight, self.occupancy) = (v, gps_weight, occupancy);
    }

    fn open_flow(&self, flow: FlowId) -> Option<&Flow> {
        self.flows
            .get(usize::from(flow))
            .filter(|f| f.state == FlowState::Open)
    }

    /// Frees `flow`'s slot. Only its state is written: [`Self::open`] writes a whole flow into
    /// the slot it takes, and nothing reads a free slot's other fields (its FIFO is empty, as
    /// [`Self::close`] requires).
    fn release(&mut self, flow: FlowId) {
        if let Some(f) = self.flows.get_mut(usize::from(flow)) {
            self.occupancy.free(f, usize::from(flow) / Self::CHUNK);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec::Vec;

    type Q = FairQueue<u32, 4, 16>;

    const T0: Ticks = Ticks::ZERO;

    fn w(mi: u64) -> Work {
        Work::new(mi)
    }

    fn secs(s: u64) -> Ticks {
        Ticks::from_secs(s)
    }

    fn drain(q: &mut Q, now: Ticks) -> Vec<u32> {
        core::iter::from_fn(|| q.dequeue(now).unwrap())
            .map(|d| d.item)
            .collect()
    }

    #[test]
    fn weights_share_service_in_proportion() {
        for d in [Discipline::Wfq, Discipline::Scfq] {
            let mut q = Q::new(d, Mips::new(1)).unwrap();
            let a = q.open(1).unwrap();
            let b = q.open(3).unwrap();
            for i in 0..4 {
                q.enqueue(T0, a, w(10), i).unwrap();
                q.enqueue(T0, b, w(10), 10 + i).unwrap();
            }
            // b's tags are 10/3 apart, a's 10 apart: three turns of b per turn of a; the tie at 10
            // goes to the lower flow.
            assert_eq!(drain(&mut q, T0), [10, 11, 0, 12, 13, 1, 2, 3], "{d:?}");
        }
    }

    #[test]
    fn refused_tasks_come_back_and_change_nothing() {
        let mut q = FairQueue::<u32, 2, 2>::new(Discipline::Wfq, Mips::new(1)).unwrap();
        let a = q.open(1).unwrap();
        let (t4, t5) = (Ticks::new(4), Ticks::new(5));
        q.enqueue(t5, a, w(1), 1).unwrap();
        q.enqueue(t5, a, w(1), 2).unwrap();
        assert_eq!(
            q.enqueue(t5, a, w(1), 3),
            Err(Refused {
                reason: Error::Full,
                item: 3
            })
        );
        assert_eq!(
            q.enqueue(t5, FlowId::new(1), w(1), 4).unwrap_err().reason,
            Error::Unknown
        );
        assert_eq!(q.enqueue(t4, a, w(1), 5).unwrap_err().reason, Error::Full);
        q.dequeue(t5).unwrap();
        assert_eq!(
            q.enqueue(t4, a, w(1), 5).unwrap_err().reason,
            Error::TimeWentBackwards
        );
        assert_eq!(
            q.enqueue(t5, a, w(0), 6).unwrap_err().reason,
            Error::InvalidParameter(Param::Work)
        );
        assert_eq!(q.len(), 1);
    }

    #[test]
    fn wfq_clock_follows_gps() {
        // Capacity 1 MIPS, two flows of weight 1, one task of 2 MI each at t=0. In GPS both are
        // served at 0.5 MIPS and finish at t=4 s, when V = 2 MI per unit weight.
        let mut q = Q::new(Discipline::Wfq, Mips::new(1)).unwrap();
        let a = q.open(1).unwrap();
        let b = q.open(1).unwrap();
        q.enqueue(T0, a, w(2), 0).unwrap();
        q.enqueue(T0, b, w(2), 1).unwrap();
        q.dequeue(secs(2)).unwrap();
        assert_eq!(q.virtual_time(), VirtualTime::from_bits(1 << 16));
        q.dequeue(secs(4)).unwrap();
        assert_eq!(q.virtual_time(), VirtualTime::from_bits(2 << 16));
        assert_eq!(q.gps_weight, 0);
        // Idle GPS: the clock stays where it stopped and a new task starts from it.
        assert_eq!(
            q.enqueue(secs(9), a, w(1), 2),
            Ok(VirtualTime::from_bits(3 << 16))
        );
    }

    #[test]
    fn one_advance_passes_several_gps_departures() {
        // 7 MIPS; flows of weights 1, 2, 4 with tasks of 6, 4, 4 MI at t = 0: finish tags 6, 2
        // and 1. In GPS v grows at 7 / 7 = 1 per second until the weight-4 flow leaves at v = 1
        // (t = 1 s), then at 7 / 3 until the weight-2 flow leaves at v = 2 (t = 10/7 s), then at
        // 7 per second: v = 2.5 at t = 1.5 s, with only the weight-1 flow left. One call at
        // 1.5 s passes both departures, and lands on v exactly.
        let mut q = Q::new(Discipline::Wfq, Mips::new(7)).unwrap();
        for (weight, work) in [(1, 6), (2, 4), (4, 4)] {
            let f = q.open(weight).unwrap();
            q.enqueue(T0, f, w(work), u32::from(weight)).unwrap();
        }
        q.dequeue(Ticks::new(1_500_000)).unwrap();
        assert_eq!(q.virtual_time(), VirtualTime::from_bits(5 << 15));
        assert_eq!(q.gps_weight, 1);
        // The last flow leaves at v = 6 (t = 2 s); GPS then idles and v stays.
        q.dequeue(secs(3)).unwrap();
        assert_eq!(q.virtual_time(), VirtualTime::from_bits(6 << 16));
        assert_eq!(q.gps_weight, 0);
    }

    /// Found by `cargo fuzz run fairq`: a tag more than 2^63 after a queued one would compare as
    /// earlier. The queue refuses it instead.
    #[test]
    fn tags_never_span_more_than_half_the_clock() {
        let mut q = Q::new(Discipline::Wfq, MAX_CAPACITY).unwrap();
        let (a, p) = (q.open(1).unwrap(), q.open(1).unwrap());
        q.enqueue(T0, a, w(1), 0).unwrap();
        q.enqueue(T0, p, w(1 << 46), 1).unwrap();
        let r = q.enqueue(secs(100), p, w(1 << 46), 2);
        assert_eq!(
            r,
            Err(Refused {
                reason: Error::Overflow,
                item: 2
            })
        );
        assert_eq!(drain(&mut q, secs(100)), [0, 1]);
    }

    /// A task refused for its tag, at a `now` by which GPS would have moved, leaves the clock as
    /// it was (the check comes before the clock moves): an earlier `now` is still accepted,
    /// with the tag it would have had, and GPS departs the same.
    #[test]
    fn a_refused_task_leaves_the_clock_where_it_was() {
        let mut q = FairQueue::<u32, 4, 256>::new(Discipline::Wfq, Mips::new(1)).unwrap();
        let (a, b, c) = (q.open(1).unwrap(), q.open(1).unwrap(), q.open(1).unwrap());
        q.enqueue(T0, a, w(1), 0).unwrap();
        for item in 1..=128 {
            q.enqueue(T0, b, w(1 << 39), item).unwrap();
        }
        // By 2 s GPS would have served flow a's 1 MI (it departs) and moved v: neither happens.
        let refused = q.enqueue(secs(2), b, w(1 << 39), 129);
        assert_eq!(refused.map_err(|r| r.reason), Err(Error::Overflow));
        assert_eq!((q.virtual_time(), q.gps_weight), (VirtualTime::ZERO, 2));
        // Unchanged, the clock takes 1 s: a's task is still in GPS at v = 0.5 (a and b share).
        assert_eq!(
            q.enqueue(secs(1), c, w(1), 130),
            Ok(VirtualTime::from_bits(3 << 15))
        );
        assert_eq!(q.gps_weight, 3);
    }

    #[test]
    fn closing_flow_keeps_its_weight_until_gps_serves_it() {
        let mut q = Q::new(Discipline::Wfq, Mips::new(1)).unwrap();
        let a = q.open(2).unwrap();
        q.enqueue(T0, a, w(4), 0).unwrap();
        assert_eq!(q.close(a), Err(Error::Busy));
        q.dequeue(T0).unwrap();
        q.close(a).unwrap();
        assert_eq!(q.total_weight(), 2);
        assert!(!q.is_open(a));
        q.dequeue(secs(3)).unwrap();
        assert_eq!(q.total_weight(), 2);
        q.dequeue(secs(4)).unwrap();
        assert_eq!(q.total_weight(), 0);
        assert_eq!(q.open(1), Ok(FlowId::new(0)));
    }

    /// The textbook fluid clock, kept simple: the backlogged flows' keys in a sorted list, and
    /// the service counted in ticks times raw units a second (`elapsed C 2^16`), each departure
    /// costing `(key - v) 10^6 W_B` of it.
    #[derive(Clone, Default)]
    struct Fluid {
        v: u64,
        at: u64,
        /// `(key, flow, weight)` of the backlogged flows.
        keys: Vec<(u64, u16, u16)>,
    }

    impl Fluid {
        /// Brings the clock to `now`; returns the flows that departed.
        fn advance(&mut self, now: u64, capacity: u64) -> Vec<u16> {
            let mut budget = u128::from(now - self.at) * u128::from(capacity << 16);
            self.at = now;
            self.keys.sort_unstable();
            let mut departed = Vec::new();
            while let Some(&(key, flow, _)) = self.keys.first() {
                let w: u128 = self.keys.iter().map(|e| u128::from(e.2)).sum();
                let scale = u128::from(TICKS_PER_SECOND) * w;
                let cost = u128::from(key - self.v) * scale;
                if cost > budget {
                    self.v += (budget / scale) as u64;
                    break;
                }
                budget -= cost;
                self.v = key;
                self.keys.remove(0);
                departed.push(flow);
            }
            departed
        }
    }

    /// The operations of [`the_clock_is_the_textbook_fluid_clock`], on a queue whose GPS set is
    /// a `G`: `(op, flow, work or weight, time step)`.
    fn follow_the_textbook<G: GpsSet<6>>(
        capacity: u64,
        ops: &[(u8, u16, u64, u64)],
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let mut q = FairQueue::<u32, 6, 64, G>::new(Discipline::Wfq, Mips::new(capacity)).unwrap();
        let mut model = Fluid::default();
        let mut weights = [0u16; 6];
        let mut closing = [false; 6];
        let mut now = 0u64;
        for &(op, f, x, dt) in ops {
            let flow = FlowId::new(f);
            match op {
                0 => {
                    let w = (x % 4 + 1) as u16;
                    if let Ok(id) = q.open(w) {
                        weights[usize::from(id)] = w;
                    }
                }
                1 => {
                    if q.close(flow).is_ok() && model.keys.iter().any(|e| e.1 == f) {
                        closing[usize::from(f)] = true;
                    }
                }
                2..=4 => {
                    let mut next = model.clone();
                    let departed = next.advance(now, capacity);
                    let last = model.keys.iter().find(|e| e.1 == f).map(|e| e.0);
                    // A refused task leaves the clock where it was.
                    if let Ok(tag) = q.enqueue(Ticks::new(now), flow, Work::new(x), 0) {
                        let backlogged = last.is_some() && !departed.contains(&f);
                        let start = if backlogged {
                            last.unwrap_or(0).max(next.v)
                        } else {
                            next.v
                        };
                        proptest::prop_assert_eq!(
                            tag.to_bits(),
                            start
                                + InvWeight::new(weights[usize::from(f)])
                                    .unwrap()
                                    .span(Work::new(x))
                        );
                        next.keys.retain(|e| e.1 != f);
                        next.keys.push((tag.to_bits(), f, weights[usize::from(f)]));
                        for d in departed {
                            closing[usize::from(d)] = false;
                        }
                        model = next;
                    }
                }
                5 => now += dt,
                _ => {
                    q.dequeue(Ticks::new(now)).unwrap();
                    for d in model.advance(now, capacity) {
                        closing[usize::from(d)] = false;
                    }
                }
            }
            proptest::prop_assert_eq!(q.virtual_time().to_bits(), model.v);
            let open: u32 = (0..6u16)
                .filter(|&i| q.is_open(FlowId::new(i)) || closing[usize::from(i)])
                .map(|i| u32::from(weights[usize::from(i)]))
                .sum();
            proptest::prop_assert_eq!(q.total_weight(), open);
        }
        Ok(())
    }

    proptest::proptest! {
        /// The budgets' take agrees with 128-bit arithmetic: the wide one for services below
        /// 2^96 and distances and weights of every size, the 64-bit one wherever the product
        /// fits 64 bits (as `fluid` chooses it). Shifted so that every size is reached.
        #[test]
        fn budgets_take_what_128_bits_take(
            left: u128, a: u64, w: u32, ls in 32u32..128, as_ in 0u32..64, ws in 0u32..32
        ) {
            let (left, ahead, w) = (left >> ls, a >> as_, w >> ws);
            let cost = u128::from(ahead) * u128::from(w);
            let expect = left.checked_sub(cost);
            let mut wide = Wide::new(left);
            proptest::prop_assert_eq!(wide.take(ahead, w), expect.is_some());
            proptest::prop_assert_eq!(wide.get(), expect.unwrap_or(left));
            if let (Ok(mut narrow), true) = (u64::try_from(left), cost <= u128::from(u64::MAX)) {
                proptest::prop_assert_eq!(narrow.take(ahead, w), expect.is_some());
                proptest::prop_assert_eq!(u128::from(narrow), expect.unwrap_or(left));
            }
        }
    }

    proptest::proptest! {
        /// Under any mix of flows, tasks, closings and instants, the queue's clock is the
        /// textbook fluid clock's exactly (its departures found in one pass with the service
        /// floored to whole units first), each tag starts at `max(v, F_last)` for a flow GPS
        /// still serves and at `v` otherwise, and a closing flow's weight leaves with its
        /// departure; with either GPS set.
        #[test]
        fn the_clock_is_the_textbook_fluid_clock(
            capacity in proptest::sample::select(&[1u64, 7, 6400, 1 << 30][..]),
            ops in proptest::collection::vec((0u8..8, 0u16..6, 1u64..5000, 0u64..3_000_000), 1..150),
        ) {
            follow_the_textbook::<GpsHeap<6>>(capacity, &ops)?;
            follow_the_textbook::<GpsSorted<6>>(capacity, &ops)?;
        }

        /// `open` takes the lowest free slot, or the next new one, whatever the slots freed
        /// before, with 200 flows (four slots a chunk of the free-slot map, the last chunk
        /// short); the count and total weight follow. `ops`: an open of that weight, or a close
        /// of that slot (an idle flow: its slot is free at once).
        #[test]
        fn open_takes_the_lowest_free_slot(
            ops in proptest::collection::vec((proptest::bool::ANY, 0u16..200, 1u16..9), 1..600),
        ) {
            let mut q = FairQueue::<u32, 200, 4>::new(Discipline::Wfq, Mips::new(1)).unwrap();
            let mut model: std::vec::Vec<Option<u16>> = std::vec::Vec::new();
            for (open, slot, weight) in ops {
                if open {
                    let lowest = model.iter().position(Option::is_none).unwrap_or(model.len());
                    let got = q.open(weight).map(usize::from);
                    if lowest == 200 {
                        proptest::prop_assert_eq!(got, Err(Error::Full));
                        continue;
                    }
                    proptest::prop_assert_eq!(got, Ok(lowest));
                    match model.get_mut(lowest) {
                        Some(s) => *s = Some(weight),
                        None => model.push(Some(weight)),
                    }
                } else if let Some(s) = model.get_mut(usize::from(slot)).filter(|s| s.is_some()) {
                    proptest::prop_assert_eq!(q.close(FlowId::new(slot)), Ok(()));
                    *s = None;
                } else {
                    proptest::prop_assert_eq!(q.close(FlowId::new(slot)), Err(Error::Unknown));
                }
                proptest::prop_assert_eq!(q.in_use(), model.iter().flatten().count());
                let total: u32 = model.iter().flatten().map(|&w| u32::from(w)).sum();
                proptest::prop_assert_eq!(q.total_weight(), total);
            }
        }
    }
}
