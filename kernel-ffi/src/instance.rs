//! Caller-provided storage, and every check this crate makes on a pointer it is handed.
//!
//! An object of type `T` (a kernel structure in the configuration of the capacity preset, [`crate::config`]) lives in storage
//! the caller declares: an opaque struct of the header (`qg_scheduler`, ...) whose size and
//! alignment are those of [`Instance<T>`] (checked at compile time, see [`Object::LAYOUT`]).
//! `init` checks every argument, builds the value in place, then writes the tag, [`Object::TAG`];
//! a refused `init` writes nothing, so storage that held a live object still holds it. Every
//! other call reads the tag first and refuses storage that does not carry its type's tag
//! (`QG_ERR_UNINITIALISED`), so a call on zeroed storage, on an object of another type or on
//! storage whose first `init` failed is an error code, not a read of an invalid value.
//!
//! While a call runs the caller's callbacks ([`report_guarded`]), the tag is [`BUSY`]: a call on
//! the same storage from inside a callback, `init` included, is refused with `QG_ERR_BUSY` before
//! it forms any reference to the object, so it cannot alias the running call's.
//!
//! This module and `panic` are the only places with `unsafe` operations of their own;
//! the `extern "C"` functions call into here and forward their callers' guarantees.

use core::mem::{MaybeUninit, align_of, size_of};

use crate::status::qg_status::{self, *};

/// The layout of a storage: the tag, then room for the object. The tag is `T::TAG` exactly
/// when `init` built the object in place there (the kernel's `init`, which writes only its
/// lengths and scalars: no temporary copy of the object on the stack, see docs/firmware.md).
#[repr(C)]
pub(crate) struct Instance<T: Object> {
    tag: u64,
    value: MaybeUninit<T>,
}

/// The tag of storage whose object is running a caller's callback ([`report_guarded`]): no
/// object type's tag.
const BUSY: u64 = u64::from_be_bytes(*b"qgbusy!!");

/// An object the C API keeps in caller-provided storage.
pub(crate) trait Object: Sized {
    /// The header's opaque storage type for it.
    type Storage;
    /// The tag `init` writes: distinct per object type, never zero.
    const TAG: u64;
    /// Compile-time proof that the storage has exactly the instance's size and at least its
    /// alignment (evaluated wherever the object is used, so a stale header constant is a build
    /// error on the target that disagrees).
    const LAYOUT: () = assert!(
        size_of::<Instance<Self>>() == size_of::<Self::Storage>()
            && align_of::<Instance<Self>>() <= align_of::<Self::Storage>(),
        "the header's storage size or alignment does not match the object"
    );
}

/// The Rust side of the header's storage type `$storage` (a `[u8; $size]` struct) for objects
/// of type `$object`: `$storage::zeroed()`, and `$object`'s [`Object`] impl with its tag, the
/// eight ASCII bytes `$tag` read as a big-endian `u64`.
///
/// The struct and its size constants stay written out in each module: they are the header's,
/// and cbindgen reads the source without expanding macros.
macro_rules! storage {
    ($storage:ident[$size:ident] holds $object:ty, tag $tag:literal) => {
        impl $storage {
            /// Zeroed storage, as C's static storage is: it holds no object
            /// (`QG_ERR_UNINITIALISED`) until its `init` succeeds.
            pub const fn zeroed() -> Self {
                Self {
                    _opaque: [0; $size],
                }
            }
        }

        impl $crate::instance::Object for $object {
            type Storage = $storage;
            const TAG: u64 = u64::from_be_bytes(*$tag);
        }
    };
}

pub(crate) use storage;

/// Checks `storage` and `size`, has `build` read the caller's arguments and build the object in
/// the storage (the kernel's in-place `init`, or a small object written whole), and tags the
/// storage if that succeeds.
///
/// Errors: `QG_ERR_NULL`, `QG_ERR_MISALIGNED`, `QG_ERR_SIZE` if `size` is below the storage
/// size; `QG_ERR_BUSY` if the storage's object is running a callback; `build`'s errors. On any
/// error nothing is written: a live object in the storage stays as it was, and storage that held
/// none stays uninitialised.
///
/// # Safety
/// A non-null, aligned `storage` must be valid for reads and writes of `size` bytes, zeroed or
/// written by this API only; `build` must return `Ok` only once it has initialised its slot (it
/// returns what a kernel `init` or `MaybeUninit::write` returned), and must not write the slot
/// before it returns an error (it checks every argument first, as the kernel's `init` does).
pub(crate) unsafe fn init<T: Object>(
    storage: *mut T::Storage,
    size: usize,
    build: impl FnOnce(&mut MaybeUninit<T>) -> Result<&mut T, qg_status>,
) -> qg_status {
    let () = T::LAYOUT;
    let p = storage.cast::<Instance<T>>();
    if let Err(e) = check(p) {
        return e;
    }
    if size < size_of::<Instance<T>>() {
        return QG_ERR_SIZE;
    }
    // SAFETY: non-null and aligned (checked), readable initialised memory (the caller's
    // guarantee), so the tag is a valid `u64`; read through a raw place, forming no reference.
    if unsafe { (&raw const (*p).tag).read() } == BUSY {
        return QG_ERR_BUSY;
    }
    // SAFETY: `p` is non-null and aligned (checked), and the caller guarantees `size` writable
    // bytes, at least the instance's (checked), not otherwise accessed during the call (no call
    // is running a callback on it: checked). The value is a `MaybeUninit`, valid whatever it
    // holds. An old object, if any, is overwritten without being dropped, and only once `build`
    // has checked its arguments: kernel structures own no resources.
    let value = unsafe { &mut (*p).value };
    if let Err(e) = build(value) {
        return e;
    }
    // SAFETY: as above; `build` has returned, and with it its borrow of the value.
    unsafe { (&raw mut (*p).tag).write(T::TAG) };
    QG_OK
}

/// The object in `storage`, if `storage` carries `T`'s tag.
///
/// Errors: `QG_ERR_NULL`, `QG_ERR_MISALIGNED`, `QG_ERR_UNINITIALISED`, `QG_ERR_BUSY` (the
/// object is running a callback: this is a call from inside it).
///
/// # Safety
/// A non-null, aligned `storage` must be valid for reads and writes of `T::Storage`, hold no
/// other reference for `'a` (but that of a call running a callback, which the tag reveals), and
/// have been zero-initialised or written by this API only.
pub(crate) unsafe fn get<'a, T: Object>(storage: *mut T::Storage) -> Result<&'a mut T, qg_status> {
    let () = T::LAYOUT;
    let p = storage.cast::<Instance<T>>();
    check(p)?;
    // SAFETY: non-null and aligned (checked); the caller guarantees the storage is readable and
    // initialised memory (zeroed or written by `init`), so the tag is a valid `u64`. The tag is
    // read through a raw place: a running call's reference covers only the value.
    let tag = unsafe { (&raw const (*p).tag).read() };
    if tag != T::TAG {
        return Err(refused(tag));
    }
    // SAFETY: only `init` writes the tag `T::TAG`, and only after building the object in the
    // same storage; the caller guarantees exclusive access for `'a`.
    Ok(unsafe { (*p).value.assume_init_mut() })
}

/// A copy of the caller's input `*p`.
///
/// Errors: `QG_ERR_NULL`, `QG_ERR_MISALIGNED`.
///
/// # Safety
/// A non-null, aligned `p` must be valid for reads of a `U`.
pub(crate) unsafe fn read<U: Copy>(p: *const U) -> Result<U, qg_status> {
    check(p)?;
    // SAFETY: non-null and aligned (checked), readable (the caller's guarantee).
    Ok(unsafe { p.read() })
}

/// The caller's array of `len` elements, at most `max`; empty for `len == 0` whatever the
/// pointer. `len` is checked before the slice is formed, so that no length, however large, makes
/// a slice the caller's memory cannot hold.
///
/// Errors: `too_long` if `len > max`; `QG_ERR_NULL`, `QG_ERR_MISALIGNED` (for `len > 0`).
///
/// # Safety
/// For `0 < len <= max`, a non-null, aligned `p` must be valid for reads of `len` elements, not
/// written during the call; `max` elements of `U` must fit in `isize::MAX` bytes.
pub(crate) unsafe fn slice<'a, U>(
    p: *const U,
    len: usize,
    max: usize,
    too_long: qg_status,
) -> Result<&'a [U], qg_status> {
    if len > max {
        return Err(too_long);
    }
    if len == 0 {
        return Ok(&[]);
    }
    check(p)?;
    // SAFETY: non-null and aligned (checked); `len <= max` elements (checked), so at most
    // `isize::MAX` bytes, readable and not mutated for the call (the caller's guarantee).
    Ok(unsafe { core::slice::from_raw_parts(p, len) })
}

/// The caller's output `*p`, checked before anything changes so that a bad output pointer
/// cannot leave a call half-applied.
///
/// Errors: `QG_ERR_NULL`, `QG_ERR_MISALIGNED`.
///
/// # Safety
/// A non-null, aligned `p` must be valid for writes of a `U`, and not accessed otherwise for
/// `'a`.
pub(crate) unsafe fn output<'a, U>(p: *mut U) -> Result<&'a mut MaybeUninit<U>, qg_status> {
    check(p)?;
    // SAFETY: non-null and aligned (checked); writable and not aliased for `'a` (the caller's
    // guarantee). `MaybeUninit` makes no claim about the current contents.
    Ok(unsafe { &mut *p.cast::<MaybeUninit<U>>() })
}

/// [`output`] for an optional output: `None` for a null `p`.
///
/// Errors: `QG_ERR_MISALIGNED`.
///
/// # Safety
/// As [`output`], for a non-null `p`.
pub(crate) unsafe fn optional_output<'a, U>(
    p: *mut U,
) -> Result<Option<&'a mut MaybeUninit<U>>, qg_status> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: forwarded from this function's contract.
    unsafe { output(p) }.map(Some)
}

/// Why storage with `tag`, not the object's, is refused: one function out of line, so that each
/// call pays a comparison and a branch for it, not the test for [`BUSY`] too.
#[cold]
#[inline(never)]
fn refused(tag: u64) -> qg_status {
    if tag == BUSY {
        QG_ERR_BUSY
    } else {
        QG_ERR_UNINITIALISED
    }
}

fn check<U>(p: *const U) -> Result<(), qg_status> {
    if p.is_null() {
        Err(QG_ERR_NULL)
    } else if !p.is_aligned() {
        Err(QG_ERR_MISALIGNED)
    } else {
        Ok(())
    }
}

/// Runs `f` on the object in `storage` and returns its status (`QG_OK`, `QG_NONE` or an error).
///
/// # Safety
/// As [`get`].
pub(crate) unsafe fn with<T: Object>(
    storage: *mut T::Storage,
    f: impl FnOnce(&mut T) -> Result<qg_status, qg_status>,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    let r = unsafe { get::<T>(storage) }.and_then(f);
    r.unwrap_or_else(|e| e)
}

/// Runs `f` on the object in `storage` and writes its answer to `*out`: `QG_OK`, or `QG_NONE`
/// (`*out` untouched) when it has none. `out` is checked before `f` runs.
///
/// Errors: those of [`get`] and [`output`], and `f`'s.
///
/// # Safety
/// As [`get`] for `storage`, as [`output`] for `out`.
pub(crate) unsafe fn answer<T: Object, U>(
    storage: *mut T::Storage,
    out: *mut U,
    f: impl FnOnce(&mut T) -> Result<Option<U>, qg_status>,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        with(storage, |object: &mut T| {
            let out = output(out)?;
            Ok(match f(object)? {
                Some(u) => {
                    out.write(u);
                    QG_OK
                }
                None => QG_NONE,
            })
        })
    }
}

/// Runs `f` on the object in `storage` and writes its result to `*out` unless `out` is null.
/// `out` is checked before `f` runs.
///
/// Errors: those of [`get`] and [`optional_output`], and `f`'s.
///
/// # Safety
/// As [`get`] for `storage`, as [`optional_output`] for `out`.
pub(crate) unsafe fn report<T: Object, U>(
    storage: *mut T::Storage,
    out: *mut U,
    f: impl FnOnce(&mut T) -> Result<U, qg_status>,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        with(storage, |object: &mut T| {
            let out = optional_output(out)?;
            let u = f(object)?;
            if let Some(out) = out {
                out.write(u);
            }
            Ok(QG_OK)
        })
    }
}

/// [`report`], with the storage tagged [`BUSY`] while `f` runs: for a call that runs the
/// caller's callbacks, so that a callback's call on the same storage is refused with
/// `QG_ERR_BUSY` and changes nothing (instead of reaching the object while `f` holds it).
///
/// Errors: those of [`report`].
///
/// # Safety
/// As [`report`].
pub(crate) unsafe fn report_guarded<T: Object, U>(
    storage: *mut T::Storage,
    out: *mut U,
    f: impl FnOnce(&mut T) -> Result<U, qg_status>,
) -> qg_status {
    let tag = |tag: u64| {
        // SAFETY: called only inside `report`'s closure, so `storage` was checked (non-null,
        // aligned) and holds `T`; the tag is written through a raw place, outside the value
        // that `object` borrows.
        unsafe { (&raw mut (*storage.cast::<Instance<T>>()).tag).write(tag) }
    };
    // SAFETY: forwarded from this function's contract.
    unsafe {
        report(storage, out, |object: &mut T| {
            tag(BUSY);
            let r = f(object);
            tag(T::TAG);
            r
        })
    }
}
