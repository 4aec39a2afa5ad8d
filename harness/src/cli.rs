//! The `qosgate` command line: clap derive types only, no behaviour.
//!
//! Each subcommand is one variant of [`Command`] holding its own `Args` struct; adding one (`run`,
//! `reproduce`, `solve`, `sequence`, `backfill`, ...) means a variant, an `Args` struct here and a
//! match arm in [`crate::run`].

use clap::{Args, Parser, Subcommand};

/// QoS-aware grid scheduling: delay bounds, fair queueing and the seed papers' experiments.
#[derive(Debug, Parser)]
#[command(name = "qosgate", version, arg_required_else_help = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Registration outcomes, guaranteed rates and delay bounds of the built-in seed-004 grid.
    Bounds(BoundsArgs),
    /// Gateway solvers: PAP workload allocation and cost/failure-aware brokering.
    #[command(subcommand)]
    Solve(SolveCommand),
    /// Dispatch sequences: billiard and RTDP.
    #[command(subcommand)]
    Sequence(SequenceCommand),
}

/// `qosgate solve ...`
#[derive(Debug, Subcommand)]
pub enum SolveCommand {
    /// PAP allocation of external requests to clusters (seed 000, Algorithm 1, SPEC-NOTES N1-N3).
    Pap(SolveArgs),
    /// Routing probabilities of the cost/failure-aware broker (seed 002 Eq. 5, SPEC-NOTES N4).
    Broker(SolveArgs),
}

/// Options of `qosgate solve pap|broker`.
#[derive(Debug, Clone, Args)]
pub struct SolveArgs {
    /// The problem, as JSON (schema in README.md); `-` reads standard input.
    #[arg(long, value_name = "FILE")]
    pub input: std::path::PathBuf,
}

/// `qosgate sequence ...`
#[derive(Debug, Subcommand)]
pub enum SequenceCommand {
    /// The first N clusters of the billiard sequence for probabilities P (seed 000 Eq. 20).
    Billiard(BilliardArgs),
    /// The cluster RTDP picks for each request type in turn (seed 000 Algorithm 2).
    Rtdp(RtdpArgs),
}

/// Options of `qosgate sequence billiard`.
#[derive(Debug, Clone, Args)]
pub struct BilliardArgs {
    /// Dispatch probabilities, comma-separated (e.g. 0.5,0.3,0.2).
    #[arg(
        long,
        value_delimiter = ',',
        required = true,
        allow_hyphen_values = true
    )]
    pub p: Vec<f64>,
    /// Index of the fastest cluster (X_j = 1 there, SPEC-NOTES N7); default 0.
    #[arg(long, value_name = "J")]
    pub fastest: Option<usize>,
    /// How many decisions to print.
    #[arg(short = 'n', value_name = "N")]
    pub n: u64,
}

/// Options of `qosgate sequence rtdp`.
#[derive(Debug, Clone, Args)]
pub struct RtdpArgs {
    /// Cluster dispatch probabilities P_j, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        required = true,
        allow_hyphen_values = true
    )]
    pub p: Vec<f64>,
    /// Share of each request type, comma-separated (P_j^i = P_j x share(i)).
    #[arg(
        long,
        value_delimiter = ',',
        required = true,
        allow_hyphen_values = true
    )]
    pub shares: Vec<f64>,
    /// The request types in arrival order, comma-separated indices into --shares.
    #[arg(long, value_delimiter = ',', required = true)]
    pub types: Vec<usize>,
    /// Index of the fastest cluster; default 0.
    #[arg(long, value_name = "J")]
    pub fastest: Option<usize>,
}

/// Options of `qosgate bounds`.
#[derive(Debug, Clone, Args)]
pub struct BoundsArgs {
    /// Print one JSON object (with a `rows` array) instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Flow limit of every resource: the most users registered at once (1 to 16). Also sets the
    /// SCFQ Reserved-basis bound, which assumes every other flow slot may hold a maximal task.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub max_users: u16,

    /// Transfer delay d to every resource, seconds; the end-to-end bound is
    /// max(T, d) + bound with withholding time T = 0 (pipelined form of Eq. 6).
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 0.0,
        allow_negative_numbers = true
    )]
    pub pipelined_delay: f64,
}
