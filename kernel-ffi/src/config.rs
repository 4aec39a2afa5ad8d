//! The configuration the C API is built for: the kernel's reference configuration
//! ([`qosgate_kernel::footprint`]). Capacities are const generics in the kernel, so a C library
//! fixes them; these constants state them in the header (cbindgen copies literals only, so each
//! is checked here against the kernel's).

use qosgate_kernel::footprint;

/// Users (flows) a scheduler registers at most.
pub const QG_MAX_USERS: usize = 64;
/// Tasks a scheduler queues at most, per queue (fair queue, best-effort FIFO).
pub const QG_MAX_QUEUE: usize = 256;
/// CPUs of one scheduler at most.
pub const QG_MAX_CPUS: usize = 32;
/// Clusters of a PAP solve or a dispatcher at most.
pub const QG_MAX_CLUSTERS: usize = 8;
/// Request types of an RTDP dispatcher at most.
pub const QG_MAX_REQUEST_TYPES: usize = 4;
/// Breakpoints of a slot table.
pub const QG_SLOT_BREAKPOINTS: usize = 256;
/// Jobs (waiting and running) of a backfilling scheduler at most.
pub const QG_BACKFILL_JOBS: usize = 64;

const _: () = assert!(
    QG_MAX_USERS == footprint::USERS
        && QG_MAX_QUEUE == footprint::QUEUE
        && QG_MAX_CPUS == footprint::CPUS
        && QG_MAX_CLUSTERS == footprint::RESOURCES
        && QG_MAX_REQUEST_TYPES == footprint::REQUEST_TYPES
        && QG_SLOT_BREAKPOINTS == footprint::QUEUE
        && QG_BACKFILL_JOBS == footprint::CLUSTER_JOBS,
    "the C API's capacities must be the kernel's reference configuration"
);

/// The scheduler behind `qg_scheduler`.
/// cbindgen:ignore
pub(crate) type Scheduler = footprint::ReferenceResource;
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
pub(crate) type Backfill = footprint::ReferenceBackfill;
