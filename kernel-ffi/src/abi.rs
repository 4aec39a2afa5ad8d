//! The ABI's identity: [`QG_ABI_VERSION`], [`qg_abi_version`] and [`qg_sizeof`], which the
//! header's `static inline bool qg_abi_matches(void)` (`cbindgen.toml`'s `trailer`) compares
//! with what the caller was compiled against.
//!
//! # Why a start-up check, not a check in every `init`
//! A C caller compiled against another header than the library's (a stale copy, another
//! release) misreads structs silently: `qg_registration` gained `entries` in its padding, so its
//! size did not change, and no `init` could tell. The check has to compare the caller's header
//! with the library, so the caller's compiler must supply the header's side: either every
//! `qg_*_init` takes the version (zlib's `deflateInit` macro style), which changes every
//! `init`'s signature (itself the largest ABI break the API could make) and still leaves the
//! stateless `qg_pap_solve` and the structs passed after `init` unchecked, or the header carries
//! an inline function that the caller's compiler builds from the caller's own copy of the
//! header. The header does the latter: `qg_abi_matches()` compares `QG_ABI_VERSION` and the
//! `sizeof` of every struct of the header with the library's, in one call a firmware's start-up
//! makes first (`if (!qg_abi_matches()) { halt }`), before any object exists.
//!
//! # When the version goes up
//! [`QG_ABI_VERSION`] goes up by one whenever the header changes incompatibly: a struct's
//! fields, their order, types or meaning; a constant's or an enumeration code's value or
//! meaning (`QG_KIND_*`, `QG_OBJECT_*`, status codes, capacities, storage sizes); a function's
//! parameters, return type or contract. Additions (a new function, a new status or
//! enumeration code, a new `QG_OBJECT_*`) leave it as it is.
//!
//! # Capacity presets
//! The version names the header, not the capacity preset ([`crate::config`]): one header holds
//! both presets' capacities and storage sizes, and the caller's `QG_CAPACITY_SMALL` selects one.
//! `qg_abi_matches()` tells a caller of one preset from a library of the other by the sizes
//! alone: every capacity sets the size of a struct it compares (`qg_scheduler`, `qg_billiard`,
//! `qg_rtdp`, `qg_allocation`, `qg_slot_table`, `qg_backfill`).

use core::mem::size_of;

use crate::backfill::{qg_backfill, qg_ended, qg_job, qg_started};
use crate::bucket::{qg_bucket, qg_bucket_config, qg_charge, qg_conformance};
use crate::dispatch::{qg_billiard, qg_rtdp};
use crate::pap::{qg_allocation, qg_cluster};
use crate::scheduler::{
    qg_completion, qg_decision, qg_registration, qg_scheduler, qg_scheduler_config,
};
use crate::slots::qg_slot_table;

/// The header's ABI version: `qg_abi_version()` returns the library's. It goes up whenever a
/// struct, a constant or enumeration value, or a function's signature or contract of the header
/// changes incompatibly (additions leave it).
pub const QG_ABI_VERSION: u32 = 5;

/// A struct of the header, for `qg_sizeof`: a `QG_OBJECT_*` code (a plain `uint32_t`, as every
/// code the API takes: answered, not trusted, 0 for a code that names no struct).
pub type qg_object = u32;

/// `qg_scheduler` (storage).
pub const QG_OBJECT_SCHEDULER: qg_object = 0;

/// `qg_bucket` (storage).
pub const QG_OBJECT_BUCKET: qg_object = 1;

/// `qg_billiard` (storage).
pub const QG_OBJECT_BILLIARD: qg_object = 2;

/// `qg_rtdp` (storage).
pub const QG_OBJECT_RTDP: qg_object = 3;

/// `qg_slot_table` (storage).
pub const QG_OBJECT_SLOT_TABLE: qg_object = 4;

/// `qg_backfill` (storage).
pub const QG_OBJECT_BACKFILL: qg_object = 5;

/// `qg_scheduler_config` (input).
pub const QG_OBJECT_SCHEDULER_CONFIG: qg_object = 6;

/// `qg_registration` (input).
pub const QG_OBJECT_REGISTRATION: qg_object = 7;

/// `qg_decision` (output).
pub const QG_OBJECT_DECISION: qg_object = 8;

/// `qg_completion` (output).
pub const QG_OBJECT_COMPLETION: qg_object = 9;

/// `qg_bucket_config` (input).
pub const QG_OBJECT_BUCKET_CONFIG: qg_object = 10;

/// `qg_conformance` (output).
pub const QG_OBJECT_CONFORMANCE: qg_object = 11;

/// `qg_charge` (output, then input).
pub const QG_OBJECT_CHARGE: qg_object = 12;

/// `qg_cluster` (input).
pub const QG_OBJECT_CLUSTER: qg_object = 13;

/// `qg_allocation` (output).
pub const QG_OBJECT_ALLOCATION: qg_object = 14;

/// `qg_job` (input).
pub const QG_OBJECT_JOB: qg_object = 15;

/// `qg_started` (a callback's input).
pub const QG_OBJECT_STARTED: qg_object = 16;

/// `qg_ended` (output).
pub const QG_OBJECT_ENDED: qg_object = 17;

/// The number of `QG_OBJECT_*` codes: they run from 0 to `QG_OBJECTS - 1`.
pub const QG_OBJECTS: qg_object = 18;

const _: () = assert!(QG_OBJECTS == QG_OBJECT_ENDED + 1);

/// The library's size of each struct, indexed by its `qg_object` code.
const SIZES: [usize; QG_OBJECTS as usize] = {
    let mut s = [0; QG_OBJECTS as usize];
    s[QG_OBJECT_SCHEDULER as usize] = size_of::<qg_scheduler>();
    s[QG_OBJECT_BUCKET as usize] = size_of::<qg_bucket>();
    s[QG_OBJECT_BILLIARD as usize] = size_of::<qg_billiard>();
    s[QG_OBJECT_RTDP as usize] = size_of::<qg_rtdp>();
    s[QG_OBJECT_SLOT_TABLE as usize] = size_of::<qg_slot_table>();
    s[QG_OBJECT_BACKFILL as usize] = size_of::<qg_backfill>();
    s[QG_OBJECT_SCHEDULER_CONFIG as usize] = size_of::<qg_scheduler_config>();
    s[QG_OBJECT_REGISTRATION as usize] = size_of::<qg_registration>();
    s[QG_OBJECT_DECISION as usize] = size_of::<qg_decision>();
    s[QG_OBJECT_COMPLETION as usize] = size_of::<qg_completion>();
    s[QG_OBJECT_BUCKET_CONFIG as usize] = size_of::<qg_bucket_config>();
    s[QG_OBJECT_CONFORMANCE as usize] = size_of::<qg_conformance>();
    s[QG_OBJECT_CHARGE as usize] = size_of::<qg_charge>();
    s[QG_OBJECT_CLUSTER as usize] = size_of::<qg_cluster>();
    s[QG_OBJECT_ALLOCATION as usize] = size_of::<qg_allocation>();
    s[QG_OBJECT_JOB as usize] = size_of::<qg_job>();
    s[QG_OBJECT_STARTED as usize] = size_of::<qg_started>();
    s[QG_OBJECT_ENDED as usize] = size_of::<qg_ended>();
    s
};

// Every code has its size: no struct is empty, so a 0 would be a code left out above.
const _: () = {
    let mut i = 0;
    while i < SIZES.len() {
        assert!(SIZES[i] > 0, "a QG_OBJECT_* code without its size");
        i += 1;
    }
};

/// The library's ABI version, `QG_ABI_VERSION` of the header it was built with. Compare it with
/// the caller's `QG_ABI_VERSION` through `qg_abi_matches()`, the first call at start-up.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; reentrant (no object).
#[unsafe(no_mangle)]
pub extern "C" fn qg_abi_version() -> u32 {
    QG_ABI_VERSION
}

/// The library's size in bytes of the struct `kind` (`QG_OBJECT_*`): a caller compiled against
/// the same header has `sizeof` equal to it for every kind (`qg_abi_matches()` checks them all).
/// 0 for a code that names no struct.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; reentrant (no object).
#[unsafe(no_mangle)]
pub extern "C" fn qg_sizeof(kind: qg_object) -> usize {
    SIZES.get(kind as usize).copied().unwrap_or(0)
}
