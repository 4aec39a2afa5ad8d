//! `qg_billiard` and `qg_rtdp`: the billiard sequence and RTDP of [`qosgate_kernel::dispatch`]
//! for up to `QG_MAX_CLUSTERS` clusters (8, or 4 in the small preset: [`crate::config`]) and
//! `QG_MAX_REQUEST_TYPES` (4) request types.
//!
//! Set-up converts the probabilities once (floating point); each decision is then an argmin over
//! the clusters with `P_j > 0`: at most `QG_MAX_CLUSTERS - 1` integer comparisons and one
//! addition, no multiplication, no division, no float, and it cannot fail (RTDP: unless the type
//! is unknown or has share zero).

use crate::config::{Billiard, QG_MAX_CLUSTERS, QG_MAX_REQUEST_TYPES, Rtdp};
use crate::instance::{self, storage};
use crate::log::trace;
use crate::status::qg_status::{self, *};

/// Storage for one billiard dispatcher: declare it `static` (or zero it) and pass it to
/// `qg_billiard_init` with `sizeof`.
#[repr(C, align(8))]
pub struct qg_billiard {
    _opaque: [u8; QG_BILLIARD_SIZE],
}

/// Bytes of a `qg_billiard` (the same on 32- and 64-bit targets; reference capacities).
#[cfg(not(feature = "small"))]
pub const QG_BILLIARD_SIZE: usize = 168;
/// Bytes of a `qg_billiard` (the same on 32- and 64-bit targets; small capacities).
#[cfg(feature = "small")]
pub const QG_BILLIARD_SIZE: usize = 96;

storage!(qg_billiard[QG_BILLIARD_SIZE] holds Billiard, tag b"qgbilld1");

/// Storage for one RTDP dispatcher: declare it `static` (or zero it) and pass it to
/// `qg_rtdp_init` with `sizeof`.
#[repr(C, align(8))]
pub struct qg_rtdp {
    _opaque: [u8; QG_RTDP_SIZE],
}

/// Bytes of a `qg_rtdp` (the same on 32- and 64-bit targets; reference capacities).
#[cfg(not(feature = "small"))]
pub const QG_RTDP_SIZE: usize = 368;
/// Bytes of a `qg_rtdp` (the same on 32- and 64-bit targets; small capacities).
#[cfg(feature = "small")]
pub const QG_RTDP_SIZE: usize = 200;

storage!(qg_rtdp[QG_RTDP_SIZE] holds Rtdp, tag b"qgrtdp 1");

const TOO_MANY_CLUSTERS: qg_status = QG_ERR_DISPATCH_TOO_MANY_CLUSTERS;
const TOO_MANY_TYPES: qg_status = QG_ERR_DISPATCH_TOO_MANY_TYPES;

/// Makes `storage` the billiard sequence of probabilities `p[0..clusters]` (any non-negative
/// scale) with `X_fastest = 1`.
///
/// Errors: the pointer checks (`QG_ERR_SIZE` if `size < QG_BILLIARD_SIZE`); the
/// `QG_ERR_DISPATCH_*` codes of the set-up (`TOO_MANY_CLUSTERS` above `QG_MAX_CLUSTERS`,
/// checked before `p` is read). On error nothing is written: storage holding a live dispatcher
/// still holds it, unchanged, and other storage stays uninitialised.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `storage` must be valid for reads and writes of `size` bytes, zeroed or written by this
/// API; `p` must hold `clusters` readable values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_billiard_init(
    storage: *mut qg_billiard,
    size: usize,
    p: *const f64,
    clusters: usize,
    fastest: usize,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::init(storage, size, |slot| {
            let p = instance::slice(p, clusters, QG_MAX_CLUSTERS, TOO_MANY_CLUSTERS)?;
            Ok(slot.write(Billiard::new(p, fastest)?))
        })
    }
}

/// The cluster (0-based) of the next request, written to `*cluster`.
///
/// Errors: the pointer checks.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `billiard` as for every call (see docs/firmware.md); `cluster` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_billiard_next(
    billiard: *mut qg_billiard,
    cluster: *mut u32,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::answer(billiard, cluster, |b: &mut Billiard| {
            let j = b.dispatch();
            trace!("qosgate: billiard -> {}", j);
            // j < QG_MAX_CLUSTERS.
            Ok(Some(j as u32))
        })
    }
}

/// Makes `storage` RTDP over probabilities `p[0..clusters]` with request-type shares
/// `shares[0..types]` (any non-negative scale) and `X_fastest = 1`.
///
/// Errors: the pointer checks (`QG_ERR_SIZE` if `size < QG_RTDP_SIZE`); the
/// `QG_ERR_DISPATCH_*` codes of the set-up (`TOO_MANY_CLUSTERS` above `QG_MAX_CLUSTERS`,
/// `TOO_MANY_TYPES` above `QG_MAX_REQUEST_TYPES`, both checked before the arrays are read). On
/// error nothing is written: storage holding a live dispatcher still holds it, unchanged, and
/// other storage stays uninitialised.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `storage` must be valid for reads and writes of `size` bytes, zeroed or written by this
/// API; `p` and `shares` must hold `clusters` and `types` readable values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_rtdp_init(
    storage: *mut qg_rtdp,
    size: usize,
    p: *const f64,
    clusters: usize,
    shares: *const f64,
    types: usize,
    fastest: usize,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::init(storage, size, |slot| {
            let (p, shares) = (
                instance::slice(p, clusters, QG_MAX_CLUSTERS, TOO_MANY_CLUSTERS)?,
                instance::slice(shares, types, QG_MAX_REQUEST_TYPES, TOO_MANY_TYPES)?,
            );
            Ok(slot.write(Rtdp::new(p, shares, fastest)?))
        })
    }
}

/// The cluster (0-based) of the next request of type `request_type`, written to `*cluster`.
///
/// Errors: the pointer checks; `QG_ERR_DISPATCH_UNKNOWN_TYPE`, `QG_ERR_DISPATCH_ZERO_SHARE`.
///
/// Context: ISR-safe; non-blocking; bounded time; no global state; one call at a time per object.
///
/// # Safety
/// `rtdp` as for every call (see docs/firmware.md); `cluster` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qg_rtdp_next(
    rtdp: *mut qg_rtdp,
    request_type: u32,
    cluster: *mut u32,
) -> qg_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        instance::answer(rtdp, cluster, |r: &mut Rtdp| {
            let kind = usize::try_from(request_type).map_err(|_| QG_ERR_DISPATCH_UNKNOWN_TYPE)?;
            let j = r.dispatch(kind)?;
            trace!("qosgate: rtdp type {} -> {}", request_type, j);
            // j < QG_MAX_CLUSTERS.
            Ok(Some(j as u32))
        })
    }
}
