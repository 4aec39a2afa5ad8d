//! The kernel structures a replication leaves for the next one on the same thread.
//!
//! A resource's scheduler ([`Res`], about 218 KB at the simulator's capacities) and the
//! meta-scheduler ([`Meta`], about 416 KB) are mostly queue entries a replication may never use.
//! Built anew for each replication (in place, [`boxed`]: only lengths and scalars are written),
//! each would still be a fresh allocation of that size, whose pages go back to the system when
//! it is freed and fault in again for the next one. So [`simulate_into`](super::simulate_into) takes a [`Spares`] from its thread
//! ([`take`]) for the replication and puts it back afterwards ([`keep`]); the replication takes
//! its structures from it and empties them with the kernel's `reset`, which writes only lengths
//! and scalars and gives the structure a new one would be: the runs are the same, byte for byte.
//!
//! Memory: per thread that has run a replication, the structures of its largest replication
//! (one `Res` per resource, one `Meta` per ordering used), kept until the thread ends.

use std::cell::RefCell;

use qosgate_kernel::Error;
use qosgate_kernel::fairq::Discipline;
use qosgate_kernel::meta::Order;
use qosgate_kernel::resource::Kind;
use qosgate_kernel::units::{Mips, Work};

use super::capacity::{Meta, Res};
use crate::des::boxed::boxed;

/// Kernel structures free for the next replication.
#[derive(Default)]
pub struct Spares {
    resources: Vec<Box<Res>>,
    metas: Vec<Box<Meta>>,
}

thread_local! {
    static SPARES: RefCell<Spares> = RefCell::default();
}

/// The calling thread's spares (none the first time).
pub fn take() -> Spares {
    SPARES.with(|s| std::mem::take(&mut *s.borrow_mut()))
}

/// Leaves `spares` to the calling thread's next replication.
pub fn keep(spares: Spares) {
    SPARES.with(|s| *s.borrow_mut() = spares);
}

impl Spares {
    /// A resource as [`Res::new`] makes it: a spare one reset, or a new one.
    ///
    /// Errors: those of [`Res::new`].
    pub fn resource(
        &mut self,
        kind: Kind,
        discipline: Discipline,
        cpus: &[Mips],
        max_task: Work,
        max_flows: u16,
    ) -> Result<Box<Res>, Error> {
        match self.resources.pop() {
            Some(mut res) => {
                res.reset(kind, discipline, cpus, max_task, max_flows)?;
                Ok(res)
            }
            // A new one, built in place on the heap.
            None => boxed(|slot| Res::init(slot, kind, discipline, cpus, max_task, max_flows)),
        }
    }

    /// A meta-scheduler as [`Meta::new`] makes it: a spare one built for `order`, reset, or a
    /// new one (so a thread keeps at most one per ordering).
    ///
    /// Errors: those of [`Meta::new`].
    pub fn meta(&mut self, order: Order, capacity: Mips) -> Result<Box<Meta>, Error> {
        let same = self.metas.iter().position(|m| m.order() == order);
        match same.map(|i| self.metas.swap_remove(i)) {
            Some(mut meta) => {
                meta.reset(order, capacity)?;
                Ok(meta)
            }
            // A new one, built in place on the heap.
            None => boxed(|slot| Meta::init(slot, order, capacity)),
        }
    }

    /// Keeps `res` for the next replication.
    pub fn keep_resource(&mut self, res: Box<Res>) {
        self.resources.push(res);
    }

    /// Keeps `meta` for the next replication.
    pub fn keep_meta(&mut self, meta: Box<Meta>) {
        self.metas.push(meta);
    }
}
