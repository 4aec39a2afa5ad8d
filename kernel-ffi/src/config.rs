//! The capacities the C library is built for: a preset, chosen at build time.
//!
//! Capacities are const generics in the kernel, so a C library fixes them. Two presets, each a
//! named kernel configuration ([`qosgate_kernel::footprint`]):
//!
//! | constant | `reference` (default) | `small` (feature `small`) |
//! | --- | --- | --- |
//! | `QG_MAX_USERS` | 64 | 8 |
//! | `QG_MAX_QUEUE` | 256 | 32 |
//! | `QG_MAX_CPUS` | 32 | 1 |
//! | `QG_MAX_CLUSTERS` | 8 | 4 |
//! | `QG_MAX_REQUEST_TYPES` | 4 | 4 |
//! | `QG_SLOT_BREAKPOINTS` | 256 | 32 |
//! | `QG_BACKFILL_JOBS` | 64 | 16 |
//!
//! The header states both presets: cbindgen copies literals only, so each constant (and each
//! storage size) is written out per preset under `#[cfg(feature = "small")]`, which the header
//! turns into `#if defined(QG_CAPACITY_SMALL)`. A C program compiled with `-DQG_CAPACITY_SMALL`
//! matches a library built with the feature; the header's `qg_abi_matches()` is false for a
//! mismatched pair, since every capacity sets the size of some struct it compares. Each
//! constant is checked here against its kernel configuration, and each storage size against
//! the kernel structure (`instance`), so a header that disagrees with the library it describes
//! is a build error on the preset and target that disagree.

/// The kernel configuration of the preset.
#[cfg(not(feature = "small"))]
mod kernel {
    pub(super) use qosgate_kernel::footprint::{
        CLUSTER_JOBS, CPUS, QUEUE, REQUEST_TYPES, RESOURCES, ReferenceBackfill as Backfill,
        ReferenceResource as Resource, USERS,
    };
}
/// The kernel configuration of the preset.
#[cfg(feature = "small")]
mod kernel {
    pub(super) use qosgate_kernel::footprint::small::{
        CLUSTER_JOBS, CPUS, QUEUE, REQUEST_TYPES, RESOURCES, SmallBackfill as Backfill,
        SmallResource as Resource, USERS,
    };
}

/// Users (flows) a scheduler registers at most.
#[cfg(not(feature = "small"))]
pub const QG_MAX_USERS: usize = 64;
/// Users (flows) a scheduler registers at most.
#[cfg(feature = "small")]
pub const QG_MAX_USERS: usize = 8;

/// Tasks a scheduler queues at most, per queue (fair queue, best-effort FIFO).
#[cfg(not(feature = "small"))]
pub const QG_MAX_QUEUE: usize = 256;
/// Tasks a scheduler queues at most, per queue (fair queue, best-effort FIFO).
#[cfg(feature = "small")]
pub const QG_MAX_QUEUE: usize = 32;

/// CPUs of one scheduler at most.
#[cfg(not(feature = "small"))]
pub const QG_MAX_CPUS: usize = 32;
/// CPUs of one scheduler at most.
#[cfg(feature = "small")]
pub const QG_MAX_CPUS: usize = 1;

/// Clusters of a PAP solve or a dispatcher at most.
#[cfg(not(feature = "small"))]
pub const QG_MAX_CLUSTERS: usize = 8;
/// Clusters of a PAP solve or a dispatcher at most.
#[cfg(feature = "small")]
pub const QG_MAX_CLUSTERS: usize = 4;

/// Request types of an RTDP dispatcher at most (the same in both presets).
pub const QG_MAX_REQUEST_TYPES: usize = 4;

/// Breakpoints of a slot table.
#[cfg(not(feature = "small"))]
pub const QG_SLOT_BREAKPOINTS: usize = 256;
/// Breakpoints of a slot table.
#[cfg(feature = "small")]
pub const QG_SLOT_BREAKPOINTS: usize = 32;

/// Jobs (waiting and running) of a backfilling scheduler at most.
#[cfg(not(feature = "small"))]
pub const QG_BACKFILL_JOBS: usize = 64;
/// Jobs (waiting and running) of a backfilling scheduler at most.
#[cfg(feature = "small")]
pub const QG_BACKFILL_JOBS: usize = 16;

const _: () = assert!(
    QG_MAX_USERS == kernel::USERS
        && QG_MAX_QUEUE == kernel::QUEUE
        && QG_MAX_CPUS == kernel::CPUS
        && QG_MAX_CLUSTERS == kernel::RESOURCES
        && QG_MAX_REQUEST_TYPES == kernel::REQUEST_TYPES
        && QG_SLOT_BREAKPOINTS == kernel::QUEUE
        && QG_BACKFILL_JOBS == kernel::CLUSTER_JOBS,
    "the C API's capacities must be the kernel configuration of its preset"
);

/// The scheduler behind `qg_scheduler`.
/// cbindgen:ignore
pub(crate) type Scheduler = kernel::Resource;
/// The dispatcher behind `qg_billiard`.
/// cbindgen:ignore
pub(crate) type Billiard = qosgate_kernel::dispatch::Billiard<QG_MAX_CLUSTERS>;
/// The dispatcher behind `qg_rtdp`.
/// cbindgen:ignore
pub(crate) type Rtdp = qosgate_kernel::dispatch::Rtdp<QG_MAX_CLUSTERS, QG_MAX_REQUEST_TYPES>;
/// The slot table behind `qg_slot_table`.
/// cbindgen:ignore
pub(crate) type SlotTable = qosgate_kernel::slots::SlotTable<QG_SLOT_BREAKPOINTS>;
/// The backfilling scheduler behind `qg_backfill`.
/// cbindgen:ignore
pub(crate) type Backfill = kernel::Backfill;
