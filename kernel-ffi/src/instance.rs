//! Caller-provided storage, and every check this crate makes on a pointer it is handed.
//!
//! An object of type `T` (a kernel structure in the reference configuration) lives in storage
//! the caller declares: an opaque struct of the header (`qg_scheduler`, ...) whose size and
//! alignment are those of [`Instance<T>`] (checked at compile time, see [`Object::LAYOUT`]).
//! `init` writes the instance: a 64-bit tag, [`Object::TAG`], then the value. Every other call
//! reads the tag first and refuses storage that does not carry its type's tag
//! (`QG_ERR_UNINITIALISED`), so a call on zeroed storage, on an object of another type or on
//! storage whose `init` failed is an error code, not a read of an invalid value.
//!
//! This module and `panic` are the only places with `unsafe` operations of their own;
//! the `extern "C"` functions call into here and forward their callers' guarantees.

use core::mem::{MaybeUninit, align_of, size_of};
use core::ptr::{addr_of, addr_of_mut};

use crate::status::qg_status::{self, *};

/// The layout of an initialised storage: the tag, then the outcome of the kernel's
/// constructor. Keeping the `Result` itself lets `init` write the constructor's return value
/// straight into the storage: the kernel builds its structures by value, and a temporary copy of
/// a scheduler would take another 18 KiB of stack on a Cortex-M (see docs/firmware.md).
#[repr(C)]
pub(crate) struct Instance<T: Object> {
    tag: u64,
    value: Result<T, T::Error>,
}

/// An object the C API keeps in caller-provided storage.
pub(crate) trait Object: Sized {
    /// The header's opaque storage type for it.
    type Storage;
    /// The error of its constructor.
    type Error: Into<qg_status> + Copy;
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
/// of type `$object`: `$storage::zeroed()`, and `$object`'s [`Object`] impl with its
/// constructor's error and its tag, the eight ASCII bytes `$tag` read as a big-endian `u64`.
///
/// The struct and its size constants stay written out in each module: they are the header's,
/// and cbindgen reads the source without expanding macros.
macro_rules! storage {
    ($storage:ident[$size:ident] holds $object:ty, error $error:ty, tag $tag:literal) => {
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
            type Error = $error;
            const TAG: u64 = u64::from_be_bytes(*$tag);
        }
    };
}

pub(crate) use storage;

/// Checks `storage` and `size`, untags the storage, reads and checks the constructor's
/// arguments with `args`, writes the outcome of `make` (the kernel's constructor) into the
/// storage, and tags it if that is an object.
///
/// Errors: `QG_ERR_NULL`, `QG_ERR_MISALIGNED`, `QG_ERR_SIZE` if `size` is below the storage
/// size; `args`' and `make`'s errors. On any error after the storage checks, the storage is left
/// untagged (an object it held is gone).
///
/// # Safety
/// A non-null, aligned `storage` must be valid for writes of `size` bytes.
pub(crate) unsafe fn init<T: Object, A>(
    storage: *mut T::Storage,
    size: usize,
    args: impl FnOnce() -> Result<A, qg_status>,
    make: impl FnOnce(A) -> Result<T, T::Error>,
) -> qg_status {
    let () = T::LAYOUT;
    let p = storage.cast::<Instance<T>>();
    if let Err(e) = check(p) {
        return e;
    }
    if size < size_of::<Instance<T>>() {
        return QG_ERR_SIZE;
    }
    // SAFETY: `p` is non-null and aligned (checked), and the caller guarantees `size` writable
    // bytes, at least the instance's (checked), not otherwise accessed during the call.
    let (tag, value) = unsafe {
        (
            &mut *addr_of_mut!((*p).tag),
            &mut *addr_of_mut!((*p).value).cast::<MaybeUninit<Result<T, T::Error>>>(),
        )
    };
    *tag = 0;
    let args = match args() {
        Ok(a) => a,
        Err(e) => return e,
    };
    // Written through a reference, so that the compiler may build the value in place (the old
    // value, if any, is overwritten without being dropped: kernel structures own no resources).
    match value.write(make(args)) {
        Ok(_) => {
            *tag = T::TAG;
            QG_OK
        }
        Err(e) => (*e).into(),
    }
}

/// The object in `storage`, if `storage` carries `T`'s tag.
///
/// Errors: `QG_ERR_NULL`, `QG_ERR_MISALIGNED`, `QG_ERR_UNINITIALISED`.
///
/// # Safety
/// A non-null, aligned `storage` must be valid for reads and writes of `T::Storage`, hold no
/// other reference for `'a`, and have been zero-initialised or written by this API only.
pub(crate) unsafe fn get<'a, T: Object>(storage: *mut T::Storage) -> Result<&'a mut T, qg_status> {
    let () = T::LAYOUT;
    let p = storage.cast::<Instance<T>>();
    check(p)?;
    // SAFETY: non-null and aligned (checked); the caller guarantees the storage is readable and
    // initialised memory (zeroed or written by `init`), so the tag is a valid `u64`.
    let tag = unsafe { addr_of!((*p).tag).read() };
    if tag != T::TAG {
        return Err(QG_ERR_UNINITIALISED);
    }
    // SAFETY: only `init` writes the tag `T::TAG`, and only after writing an `Ok` value in the
    // same storage; the caller guarantees exclusive access for `'a`.
    match unsafe { &mut *addr_of_mut!((*p).value) } {
        Ok(value) => Ok(value),
        Err(_) => Err(QG_ERR_UNINITIALISED),
    }
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

/// The caller's array of `len` elements; empty for `len == 0` whatever the pointer.
///
/// Errors: `QG_ERR_NULL`, `QG_ERR_MISALIGNED` (for `len > 0`).
///
/// # Safety
/// For `len > 0`, a non-null, aligned `p` must be valid for reads of `len` elements, not written
/// during the call.
pub(crate) unsafe fn slice<'a, U>(p: *const U, len: usize) -> Result<&'a [U], qg_status> {
    if len == 0 {
        return Ok(&[]);
    }
    check(p)?;
    // SAFETY: non-null and aligned (checked); `len` readable elements, not mutated for the
    // call (the caller's guarantee).
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
