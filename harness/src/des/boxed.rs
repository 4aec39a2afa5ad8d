//! The kernel's large structures built in place on the heap.
//!
//! A kernel structure's `init` writes it field by field into a `MaybeUninit` (only lengths and
//! scalars in an optimised build), so a model boxes it without building it on the stack first:
//! a 9 MB backfilling scheduler needs no stack of its size, and models run on ordinary threads.

use std::mem::MaybeUninit;

/// The structure `init` builds (a kernel `init`, such as `Backfill::init`), in a box.
///
/// Errors: `init`'s.
///
/// # Panics
/// If `init` returns a reference to anything but its slot (a bug: kernel `init`s return the
/// slot they initialised).
pub fn boxed<T, E>(
    init: impl FnOnce(&mut MaybeUninit<T>) -> Result<&mut T, E>,
) -> Result<Box<T>, E> {
    let mut slot = Box::<T>::new_uninit();
    let at = slot.as_ptr();
    let built: *const T = init(&mut slot)?;
    assert!(std::ptr::eq(built, at), "an init returned another place");
    // SAFETY: `init` returned a `&mut T` to the slot itself: safe code can only make one to a
    // valid `T`, so the slot is initialised.
    Ok(unsafe { slot.assume_init() })
}
