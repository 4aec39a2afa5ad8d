//! In-place construction: `init` into storage holding stray bytes builds the structure `new`
//! returns, `reset` brings a used structure back to it, and both refuse what `new` refuses.

use std::mem::{MaybeUninit, size_of};

use qosgate_kernel::backfill::{Backfill, Job, JobId, Policy};
use qosgate_kernel::fairq::Discipline;
use qosgate_kernel::lease::preempt::Policy as Preempt;
use qosgate_kernel::lease::{Manager, Overheads, Rules};
use qosgate_kernel::resource::{Kind, Resource, Task};
use qosgate_kernel::slots::SlotTable;
use qosgate_kernel::units::{Mips, Ticks, Work};
use qosgate_kernel::{Error, Param};

/// An uninitialised box whose bytes are all `0xA5`: what a reused buffer may hold.
fn dirty<T>() -> Box<MaybeUninit<T>> {
    let mut b = Box::<T>::new_uninit();
    // SAFETY: the box owns `size_of::<T>()` writable bytes; `MaybeUninit` accepts any.
    unsafe {
        b.as_mut_ptr()
            .cast::<u8>()
            .write_bytes(0xA5, size_of::<T>())
    };
    b
}

const CAPACITY: Error = Error::InvalidParameter(Param::Capacity);

#[test]
fn a_slot_table_built_in_place_is_new_and_reset_brings_it_back() {
    type T = SlotTable<8>;
    let mut slot = dirty::<T>();
    let table = T::init(&mut slot, 5).unwrap();
    assert_eq!(*table, T::new(5).unwrap());
    table.reserve(Ticks::new(1), Ticks::new(9), 3).unwrap();
    assert_ne!(*table, T::new(5).unwrap());
    assert_eq!(table.reset(0), Err(CAPACITY));
    assert_eq!(table.len(), 2, "a refused reset changes nothing");
    table.reset(7).unwrap();
    assert_eq!(*table, T::new(7).unwrap());
    assert_eq!(T::init(&mut dirty::<T>(), 0).map(|_| ()), Err(CAPACITY));
}

#[test]
fn a_backfill_built_in_place_is_new_and_reset_brings_it_back() {
    type B = Backfill<4, 10>;
    let mut slot = dirty::<B>();
    let b = B::init(&mut slot, Policy::Easy, 4).unwrap();
    assert_eq!(*b, B::new(Policy::Easy, 4).unwrap());
    let job = Job {
        id: JobId::new(1),
        submit: Ticks::ZERO,
        nodes: 2,
        estimate: Ticks::new(10),
    };
    b.submit(Ticks::ZERO, job).unwrap();
    b.schedule(Ticks::ZERO, |_| {}).unwrap();
    assert_eq!(b.running().count(), 1);
    assert_eq!(b.reset(Policy::Fcfs, 0), Err(CAPACITY));
    assert_eq!(b.running().count(), 1, "a refused reset changes nothing");
    b.reset(Policy::Conservative, 6).unwrap();
    assert_eq!(*b, B::new(Policy::Conservative, 6).unwrap());
    assert_eq!(
        B::init(&mut dirty::<B>(), Policy::Easy, 0).map(|_| ()),
        Err(CAPACITY)
    );
}

#[test]
fn a_resource_and_a_manager_built_in_place_are_new() {
    type R = Resource<4, 16, 2>;
    let cpus = [Mips::new(10), Mips::new(20)];
    let args = (Kind::Be, Discipline::Wfq, &cpus[..], Work::new(100), 4);
    let mut slot = dirty::<R>();
    let r = R::init(&mut slot, args.0, args.1, args.2, args.3, args.4).unwrap();
    let fresh = R::new(args.0, args.1, args.2, args.3, args.4).unwrap();
    // Neither derives `PartialEq`; their `Debug` shows every element in use and every scalar.
    assert_eq!(format!("{r:?}"), format!("{fresh:?}"));
    r.submit_be(
        Ticks::ZERO,
        Task {
            id: 1,
            work: Work::new(5),
        },
    )
    .unwrap();
    assert_ne!(format!("{r:?}"), format!("{fresh:?}"));
    let err = R::init(&mut dirty::<R>(), args.0, args.1, &[], args.3, args.4).map(|_| ());
    assert_eq!(err, Err(CAPACITY));

    type M = Manager<4, 8>;
    let (overheads, rules) = (Overheads::default(), Rules::new(Preempt::Moml));
    let mut slot = dirty::<M>();
    let m = M::init(&mut slot, 6, overheads, rules).unwrap();
    let fresh = M::with_rules(6, overheads, rules).unwrap();
    assert_eq!(format!("{m:?}"), format!("{fresh:?}"));
    let err = M::init(&mut dirty::<M>(), 0, overheads, rules).map(|_| ());
    assert_eq!(err, Err(CAPACITY));
}
