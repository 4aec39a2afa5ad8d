//! Memory of every kernel structure, fixed at compile time, for the reference configuration
//! (and the [`small`] one, for a single-CPU resource on a small microcontroller).
//!
//! The reference configuration is 64 users, 8 resources (clusters), 256 queued tasks per queue, up
//! to 32 CPUs per resource (the paper's largest resource has 30) and 4 request types. A gateway holds one [`Bucket`] per
//! (user, resource) registration, one [`ReferenceResource`] per resource it schedules locally,
//! and one [`ReferenceMeta`] for best-effort traffic. [`SIZES`] lists `size_of` for each, on
//! the target it is compiled for; the README quotes the figures for x86_64 and thumbv7em.

use core::mem::size_of;

use crate::allocate::Allocation;
use crate::backfill::Backfill;
use crate::broker::Routing;
use crate::bucket::Bucket;
use crate::dag::{Dag, Listing};
use crate::dispatch::{Bernoulli, Billiard, RoundRobin, Rtdp};
use crate::fairq::{FairQueue, GpsSorted};
use crate::lease::Manager;
use crate::listsched::{Etm, Feedback, Scheduler};
use crate::mapping::Servers;
use crate::meta::MetaScheduler;
use crate::registry::Registry;
use crate::resource::Resource;
use crate::slots::SlotTable;

/// Users (flows) per resource in the reference configuration.
pub const USERS: usize = 64;
/// Resources a gateway schedules in the reference configuration.
pub const RESOURCES: usize = 8;
/// Request types of RTDP in the reference configuration.
pub const REQUEST_TYPES: usize = 4;
/// Queued tasks per queue in the reference configuration.
pub const QUEUE: usize = 256;
/// CPUs per resource in the reference configuration.
pub const CPUS: usize = 32;

/// A resource's local scheduler in the reference configuration, as a gateway holds it: WFQ's
/// GPS flows in a [`GpsSorted`] (bounded work per call; see [`crate::fairq::GpsSet`]).
pub type ReferenceResource = Resource<USERS, QUEUE, CPUS, GpsSorted<USERS>>;
/// The fair queue inside it (items are task ids and classes).
pub type ReferenceFairQueue =
    FairQueue<(u32, crate::resource::Class), USERS, QUEUE, GpsSorted<USERS>>;
/// The registry inside it.
pub type ReferenceRegistry = Registry<USERS>;
/// Jobs a cluster's backfilling scheduler holds (waiting or running), and leases its lease
/// manager holds, in the reference configuration.
pub const CLUSTER_JOBS: usize = 64;
/// A cluster's backfilling scheduler in the reference configuration (the smallest table allowed;
/// no room for a search index, which a queue of at most 128 jobs never builds).
pub type ReferenceBackfill = Backfill<CLUSTER_JOBS, { 2 * CLUSTER_JOBS + 2 }, 0>;
/// A cluster's lease manager in the reference configuration (the smallest table allowed).
pub type ReferenceLeases = Manager<CLUSTER_JOBS, { 2 * CLUSTER_JOBS }>;
/// A best-effort meta-scheduler over the reference grid.
pub type ReferenceMeta = MetaScheduler<USERS, QUEUE, RESOURCES>;

/// The small configuration: one single-CPU resource for a few users, and a few clusters, as a
/// gateway on a small microcontroller holds them (the C library's `small` capacity preset).
/// The reference configuration's relations hold here too: a slot table has as many breakpoints
/// as a queue has tasks, and a backfilling table is the smallest its jobs allow.
pub mod small {
    use crate::backfill::Backfill;
    use crate::fairq::GpsSorted;
    use crate::resource::Resource;

    /// Users (flows) per resource.
    pub const USERS: usize = 8;
    /// Resources (clusters) a gateway dispatches to.
    pub const RESOURCES: usize = 4;
    /// Request types of RTDP: the reference's four (a type costs one `u64` key per cluster).
    pub const REQUEST_TYPES: usize = 4;
    /// Queued tasks per queue, and breakpoints of a slot table.
    pub const QUEUE: usize = 32;
    /// CPUs per resource.
    pub const CPUS: usize = 1;
    /// Jobs a cluster's backfilling scheduler holds (waiting or running).
    pub const CLUSTER_JOBS: usize = 16;

    /// A resource's local scheduler in the small configuration (GPS flows as in the
    /// reference's).
    pub type SmallResource = Resource<USERS, QUEUE, CPUS, GpsSorted<USERS>>;
    /// A cluster's backfilling scheduler in the small configuration (the smallest table
    /// allowed, no room for a search index).
    pub type SmallBackfill = Backfill<CLUSTER_JOBS, { 2 * CLUSTER_JOBS + 2 }, 0>;
}

/// Clouds of a federation in the reference configuration (gandhimathi2013 has three).
pub const CLOUDS: usize = 3;
/// Servers of one cloud in the reference configuration (gandhimathi2013's Thunder has 1,024).
pub const SERVERS: usize = 1024;

/// `(structure, bytes)` for each kernel structure in the reference configuration.
pub const SIZES: [(&str, usize); 20] = [
    ("Bucket (one per user and resource)", size_of::<Bucket>()),
    ("Registry<64>", size_of::<ReferenceRegistry>()),
    (
        "FairQueue<64 flows, 256 tasks>",
        size_of::<ReferenceFairQueue>(),
    ),
    (
        "Resource<64 users, 256 tasks, 32 CPUs>",
        size_of::<ReferenceResource>(),
    ),
    (
        "MetaScheduler<64 users, 256 tasks, 8 slots>",
        size_of::<ReferenceMeta>(),
    ),
    ("Billiard<8 clusters>", size_of::<Billiard<RESOURCES>>()),
    (
        "Rtdp<8 clusters, 4 types>",
        size_of::<Rtdp<RESOURCES, REQUEST_TYPES>>(),
    ),
    ("Bernoulli<8 clusters>", size_of::<Bernoulli<RESOURCES>>()),
    ("RoundRobin<8 clusters>", size_of::<RoundRobin<RESOURCES>>()),
    (
        "Allocation<8 clusters> (a PAP result)",
        size_of::<Allocation<RESOURCES>>(),
    ),
    (
        "Routing<8 providers> (a broker result)",
        size_of::<Routing<RESOURCES>>(),
    ),
    ("SlotTable<256 breakpoints>", size_of::<SlotTable<QUEUE>>()),
    (
        "Backfill<64 jobs, 130 breakpoints, 0> (one cluster)",
        size_of::<ReferenceBackfill>(),
    ),
    (
        "Manager<64 leases, 128 breakpoints> (one cluster)",
        size_of::<ReferenceLeases>(),
    ),
    ("Dag (64 tasks)", size_of::<Dag>()),
    ("Listing (64 tasks)", size_of::<Listing>()),
    ("Etm<3 clouds>", size_of::<Etm<CLOUDS>>()),
    (
        "Scheduler<3 clouds> (one application)",
        size_of::<Scheduler<'static, CLOUDS>>(),
    ),
    ("Feedback<3 clouds>", size_of::<Feedback<CLOUDS>>()),
    ("Servers<1024> (one cloud)", size_of::<Servers<SERVERS>>()),
];

#[cfg(test)]
mod tests {
    extern crate std;

    /// Prints the table (`cargo test -p qosgate-kernel footprint -- --nocapture`) and checks the
    /// budget: one reference resource fits in 24 KiB on a 64-bit host.
    #[test]
    fn reference_footprint_is_within_budget() {
        for (name, bytes) in super::SIZES {
            std::println!("{name:<48} {bytes:>7} B");
        }
        assert!(core::mem::size_of::<super::ReferenceResource>() <= 24 * 1024);
    }

    /// The small configuration's scheduler fits in 2 KiB and its backfilling in 4 KiB on a
    /// 64-bit host
    /// (`cargo test -p qosgate-kernel footprint -- --nocapture` prints them).
    #[test]
    fn small_footprint_is_within_budget() {
        use super::small::{SmallBackfill, SmallResource};
        let (resource, backfill) = (size_of::<SmallResource>(), size_of::<SmallBackfill>());
        std::println!(
            "{:<48} {resource:>7} B",
            "Resource<8 users, 32 tasks, 1 CPU> (small)"
        );
        std::println!(
            "{:<48} {backfill:>7} B",
            "Backfill<16 jobs, 34 breakpoints, 0> (small)"
        );
        assert!(resource <= 2 * 1024 && backfill <= 4 * 1024);
    }
}
