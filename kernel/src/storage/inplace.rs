//! In-place construction: the one place in the kernel with `unsafe` code.
//!
//! The kernel's large structures (a backfilling scheduler, a resource, a lease manager, a slot
//! table) each have an `init` that writes the structure into a caller's
//! [`MaybeUninit`] field by field, so that it is never built in a temporary and moved: a C
//! caller's storage or a harness's `Box::new_uninit()` receives it directly. An empty
//! `heapless` container is written as itself (`Vec::new()`), whose buffer is uninitialised: an
//! optimised build stores only its length, an unoptimised one passes each container field (never
//! the whole structure) through a temporary. `new` is `init` into a local, so both build the same
//! value.
//!
//! An `init` names every field of its structure in an exhaustive pattern after the writes, so a
//! field added later and not written is a compile error, not uninitialised memory.

use core::mem::MaybeUninit;

/// The uninitialised place `*field`, for an `init` to write.
///
/// # Safety
/// `field` must be valid and aligned for writes of an `F` for `'a` and not accessed otherwise
/// meanwhile: a field of a `MaybeUninit` the caller holds by `&'a mut`, reached with
/// `&raw mut (*slot.as_mut_ptr()).field` (no reference to uninitialised memory is made).
pub(crate) unsafe fn field<'a, F>(field: *mut F) -> &'a mut MaybeUninit<F> {
    // SAFETY: `MaybeUninit<F>` has `F`'s layout and makes no claim about the contents; validity,
    // alignment and exclusivity are the caller's guarantee.
    unsafe { &mut *field.cast::<MaybeUninit<F>>() }
}

/// The value an `init` writes into a slot, returned by value: what a `new` returns.
///
/// Errors: `init`'s.
///
/// # Safety
/// `init` must have initialised the whole slot whenever it returns `Ok`.
pub(crate) unsafe fn by_value<T, E>(
    init: impl FnOnce(&mut MaybeUninit<T>) -> Result<&mut T, E>,
) -> Result<T, E> {
    let mut slot = MaybeUninit::uninit();
    init(&mut slot)?;
    // SAFETY: `init` returned `Ok`, so it initialised the slot (the caller's guarantee).
    Ok(unsafe { slot.assume_init() })
}
