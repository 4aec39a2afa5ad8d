//! One cluster replaying a lease workload (Haizea's LWF): the kernel's lease manager driven
//! through the requests of a [`Workload`](crate::workload::lwf::Workload), with preemption by
//! MOML, MOV or MLIP and Haizea's suspend / resume timing.
//!
//! - [`replay`]: the driver, its per-lease records and the accounts.
//! - [`summary`]: what `qosgate leases` prints.
pub mod replay;
pub mod summary;
