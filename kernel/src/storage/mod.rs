//! The kernel's own fixed-capacity containers, crate-private: the fair queue's GPS set
//! ([`heap`]) and ready set ([`tree`]) of flows keyed by virtual time, the pool its flows' FIFOs
//! share ([`pool`]), and the `heapless::Vec` operations that cannot panic ([`vecops`]) that the
//! slot table, the backfilling queue and the lease table keep their order with.

pub(crate) mod heap;
pub(crate) mod pool;
pub(crate) mod tree;
pub(crate) mod vecops;
