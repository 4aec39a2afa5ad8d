//! The end-to-end tests: the `qosgate` binary and the harness feeding the kernel, across crates.
//!
//! One test binary (`cargo test -p qosgate-tests --test e2e`) with a module per subject, so that the
//! harness and its dependencies are linked once per profile rather than once per file; a module
//! runs alone as `cargo test -p qosgate-tests --test e2e cli::` (a test as `... cli::name`). The papers'
//! pinned outcomes and the full-trace checks are `#[ignore]`d here and run optimised by `.ci/run`
//! (`cargo test --release -p qosgate-tests --test e2e -- --ignored`; see `outcomes`).

/// Trace replay through the backfilling kernel.
mod backfill;
/// The `qosgate` binary's commands and their errors.
mod cli;
/// The harness-level numbers of `docs/errata.md`.
mod errata;
/// Node failures: the generators and the FTA reader.
mod failures;
/// The federation model (salehi2012, salehi2011).
mod federation;
/// gandhimathi2013 through the binary.
mod gandhimathi2013;
/// The hybrid-cloud model (javadi2012).
mod hybrid;
/// `qosgate reproduce javadi2012` end to end.
mod javadi2012;
/// `qosgate leases`: Haizea lease workloads through the lease manager.
mod leases;
/// The corpus of malformed and extreme inputs.
mod malformed;
/// The multi-cloud DAG model (gandhimathi2013).
mod multicloud;
/// Every paper's outcomes, pinned.
mod outcomes;
/// Every model's outputs against `docs/outputs.md`.
mod outputs;
/// The paper registry through the command line.
mod registry;
/// kokkinos2009's metrics on hand-made records.
mod reproduce;
/// salehi2012 and salehi2011 reproduced.
mod salehi;
/// Scenario files and presets.
mod scenario;
/// `qosgate sequence`: billiard and RTDP sequences.
mod sequence;
/// Sharded reproductions.
mod shards;
/// The grid simulator (kokkinos2009) on random scenarios.
mod simulator;
/// `qosgate solve`: PAP and the broker.
mod solve;
/// The SWF reader on real traces.
mod swf;
/// `qosgate verify`: delays against independently recomputed bounds.
mod verify;
