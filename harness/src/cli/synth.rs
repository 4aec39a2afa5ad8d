//! `qosgate synth`: a seeded synthetic trace in the Standard Workload Format.

use std::io::Write;

use anyhow::{Context, Result};
use clap::Args;

use crate::workload::synth;

/// Options of `qosgate synth` (model in harness/src/workload/synth.rs).
#[derive(Debug, Clone, Args)]
pub struct SynthArgs {
    /// Jobs.
    #[arg(long, default_value_t = 100_000)]
    pub jobs: u64,
    /// Nodes of the cluster.
    #[arg(long, default_value_t = 1024)]
    pub nodes: u32,
    /// Offered load: node-seconds asked for over node-seconds available.
    #[arg(long, default_value_t = 0.9)]
    pub load: f64,
    /// Seed of the generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs `qosgate synth`.
///
/// Errors: zero nodes, a load that is not a positive number, a failed write.
pub fn exec(args: &SynthArgs, out: &mut dyn Write) -> Result<()> {
    anyhow::ensure!(args.nodes > 0, "--nodes must be at least 1");
    anyhow::ensure!(
        args.load.is_finite() && args.load > 0.0,
        "--load {} must be a positive number",
        args.load
    );
    let p = synth::Params {
        jobs: args.jobs,
        nodes: args.nodes,
        load: args.load,
        seed: args.seed,
    };
    out.write_all(synth::to_swf(&p, &synth::generate(&p)).as_bytes())
        .context("writing the trace")?;
    out.flush().context("writing output")
}
