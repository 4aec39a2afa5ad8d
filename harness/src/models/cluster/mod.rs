//! One cluster replaying a job trace: the kernel's backfilling scheduler driven through an SWF
//! trace or a generated job list, with optional node failures.
//!
//! - [`replay`]: the replay driver and its per-job records and summary metrics.
//! - [`summary`]: what `qosgate backfill` prints and writes.
pub mod replay;
pub mod summary;
