//! Workloads: what the models are fed.
//!
//! - [`swf`]: the Standard Workload Format (Parallel Workloads Archive): a strict or
//!   skip-invalid reader with every skip counted by reason, and a writer.
//! - [`synth`]: seeded synthetic job traces (`qosgate synth`), the replay benchmarks' load.
//!
//! Generating workloads is the harness's business: the kernel only schedules what it is handed.
pub mod swf;
pub mod synth;
