//! The discrete-event core every model runs on.
//!
//! - [`queue`]: the event queue: integer time (the kernel's µs ticks) and a documented total
//!   order (time, then scheduling order), so one seed gives the same run on any machine.
//! - [`rng`]: the seeded generator and the derivation of one independent stream per entity
//!   (user, node, cluster) from a replication's seed.
//! - [`time`]: seconds (scenarios, reports) to ticks (the kernel) and back, at the edge only.
//! - [`nodes`]: a cluster's nodes by name: which run holds which node (the kernel only counts
//!   them), for schedules written as Batsim files and Gantt charts.
//! - [`boxed`]: the kernel's large structures built in place on the heap (never on the stack),
//!   so that every model runs on the calling thread.
//!
//! A model owns its entities and its event type; this module knows nothing of grids, clusters
//! or papers.

pub mod boxed;
pub mod nodes;
pub mod queue;
pub mod rng;
pub mod time;
