//! Workloads: what the models are fed.
//!
//! - [`dist`]: the distributions of inter-arrival times, durations and work (fixed, uniform,
//!   exponential, Weibull, lognormal, hyperexponential), each with its mean and variance, and
//!   [`dist::Dist`], how a scenario file spells one.
//! - [`das2`]: the DAS-2 two-stage log-uniform request sizes (errata E6, E7) with their exact
//!   mean (not salehi2012's Eq. 28).
//! - [`failures`]: node failures: the alternating available / unavailable process of groups of
//!   nodes, matched to javadi2012's Table II (Weibull, lognormal or hyperexponential), and the
//!   [`failures::NodeEvent`]s a replay takes.
//! - [`fta`]: failure traces of the Failure Trace Archive (tabular event format), and the
//!   window of one a replication replays from a random starting point.
//! - [`outages`]: where a replication's node outages come from: the process or a trace.
//! - [`requests`]: javadi2012's parallel requests (Table I's DAS-2 model: Weibull arrivals,
//!   DAS-2 sizes, lognormal durations) with the moments the broker needs.
//! - [`swf`]: the Standard Workload Format (Parallel Workloads Archive): a strict or
//!   skip-invalid reader with every skip counted by reason, and a writer.
//! - [`swf_schedule`]: a replayed schedule written back as SWF (the input with wait and run
//!   times filled in).
//! - [`lines`]: text input split into lines a large chunk at a time (the trace readers' hot loop).
//! - [`lwf`]: Haizea's lease workloads (LWF, XML): the subset `qosgate leases` replays, every
//!   error with its line and column.
//! - [`synth`]: seeded synthetic job traces (`qosgate synth`), the replay benchmarks' load.
//!
//! Generating workloads is the harness's business: the kernel only schedules what it is handed.
pub mod das2;
pub mod dist;
pub mod failures;
pub mod fta;
pub mod lines;
pub mod lwf;
pub mod outages;
pub mod requests;
pub mod swf;
pub mod swf_schedule;
pub mod synth;
