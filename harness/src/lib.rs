//! The std side of qosgate: the `qosgate` command line's library and everything it drives
//! around the kernel: workloads, simulated systems, the papers' experiments and their reports.
//!
//! The module map, from the edge inwards:
//! - [`cli`]: the command line, the only module that knows clap; one file per subcommand.
//! - [`experiments`]: the registry of reproduced papers and the runner they share (whole, or in
//!   shards whose run files are judged together); one folder per paper (`kokkinos2009`:
//!   kokkinos2009's grid, presets, bounds and claims; `javadi2012`: javadi2012's hybrid cloud).
//! - [`models`]: the simulated systems, each a scenario schema, a world, records and metrics
//!   (`grid`: kokkinos2009's grid; `federation`: salehi2012 and salehi2011's federation of
//!   clusters; `cluster`: trace replay under backfilling; `leases`: lease workload replay through
//!   the kernel's lease manager; `hybrid`: javadi2012's failure-prone cluster and reliable cloud
//!   behind a broker; `multicloud`: gandhimathi2013's federation of IaaS clouds).
//! - [`gateway`]: the gateway's solvers and dispatch sequences as a user asks for them (JSON
//!   problems, option lists).
//! - [`workload`]: distributions (with their means and variances, and how scenario files
//!   spell them), DAS-2 request sizes, javadi2012's requests, node failures (a synthetic process
//!   and FTA traces), SWF traces, Haizea's LWF lease workloads and synthetic workloads.
//! - [`input`]: every input file's size and line limits, and the capped whole-file reader.
//! - [`config`]: TOML scenario files with `file:line:column` diagnostics, for every model.
//! - [`des`]: the discrete-event core: the event queue, seeded streams, time conversions, the
//!   simulation thread.
//! - [`report`]: estimates, tables, figures (CSV, SVG), verdicts, reports and their pages
//!   (HTML).
//! - [`output`]: output paths checked before any work, and folders and files written whole
//!   (a temporary sibling renamed into place).
//!
//! Dependencies point down this list (a model never imports an experiment, nothing but
//! [`cli`] imports clap). The binary (the workspace's root package, `src/main.rs`) only parses
//! the command line, calls [`cli::run()`] and turns an error into a message and an exit code.

pub mod cli;
pub mod config;
pub mod des;
pub mod experiments;
pub mod gateway;
pub mod input;
pub mod models;
pub mod output;
pub mod report;
pub mod workload;
