//! `qosgate synth`: a seeded synthetic trace in the Standard Workload Format.

use std::io::Write;

use anyhow::{Context, Result};
use clap::Args;

use crate::workload::synth;

/// Options of `qosgate synth` (model in harness/src/workload/synth.rs).
#[derive(Debug, Clone, Args)]
pub struct SynthArgs {
    /// Jobs.
    #[arg(long, default_value_t = 100_000, allow_negative_numbers = true)]
    pub jobs: u64,
    /// Nodes of the cluster.
    #[arg(long, default_value_t = 1024, allow_negative_numbers = true)]
    pub nodes: u32,
    /// Offered load: node-seconds asked for over node-seconds available.
    #[arg(long, default_value_t = 0.9, allow_negative_numbers = true)]
    pub load: f64,
    /// Seed of the generator.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
}

/// Runs `qosgate synth`.
///
/// Errors: zero nodes, a load that is not a positive number or too low for the kernel's clock,
/// too many jobs (each names its option), a failed write.
pub fn exec(args: &SynthArgs, out: &mut dyn Write) -> Result<()> {
    let p = synth::Params {
        jobs: args.jobs,
        nodes: args.nodes,
        load: args.load,
        seed: args.seed,
    };
    let jobs = synth::generate(&p).with_context(|| {
        format!(
            "--jobs {} --nodes {} --load {:?}",
            args.jobs, args.nodes, args.load
        )
    })?;
    out.write_all(synth::to_swf(&p, &jobs).as_bytes())
        .context("writing the trace")?;
    out.flush().context("writing output")
}
