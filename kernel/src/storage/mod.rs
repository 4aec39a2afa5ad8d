//! The kernel's own fixed-capacity containers, crate-private: the fair queue's GPS sets
//! ([`heap`], [`sorted`]) and ready set ([`tree`]) of flows keyed by virtual time, the pool its flows' FIFOs
//! share ([`pool`]), and the `heapless::Vec` operations that cannot panic ([`vecops`]) that the
//! slot table, the backfilling queue and the lease table keep their order with; and the
//! in-place construction of the large structures ([`inplace`]), the kernel's only `unsafe` code.

pub(crate) mod heap;
#[allow(unsafe_code)]
pub(crate) mod inplace;
pub(crate) mod pool;
pub(crate) mod sorted;
pub(crate) mod tree;
pub(crate) mod vecops;

use crate::units::Weight;

/// What a GPS set ([`heap`], [`sorted`]) keeps for each flow besides its key: the flow's weight
/// and whether it is closing, so that the fluid clock's departures read nothing else.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Member {
    pub(crate) weight: Weight,
    /// The flow was closed while in the set: its slot is free when it leaves.
    pub(crate) closing: bool,
}
