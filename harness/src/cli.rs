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
    /// Replay an SWF trace on one cluster under FCFS or EASY, conservative or selective
    /// backfilling (rules in README.md, "Trace replay").
    Backfill(BackfillArgs),
    /// Write a seeded synthetic trace (SWF) to standard output: the replay benchmarks' workload.
    Synth(SynthArgs),
    /// Simulate one scenario (a TOML file or a built-in preset) and print its metrics.
    Run(RunArgs),
    /// List the built-in scenarios.
    Presets,
    /// Reproduce a paper's experiments: tables against the paper's claims, CSV and SVG plots.
    Reproduce(ReproduceArgs),
}

/// Options of `qosgate run`.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// The scenario file (TOML).
    #[arg(
        value_name = "SCENARIO.toml",
        required_unless_present = "preset",
        conflicts_with = "preset"
    )]
    pub scenario: Option<std::path::PathBuf>,
    /// A built-in scenario instead of a file (`qosgate presets` lists them).
    #[arg(long, value_name = "NAME")]
    pub preset: Option<String>,
    /// Print the scenario as TOML and stop (to copy and edit a preset).
    #[arg(long)]
    pub dump: bool,
    /// Write one JSON object per task, when it ends, to this file (JSON lines).
    #[arg(long, value_name = "FILE.jsonl")]
    pub events: Option<std::path::PathBuf>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Write the summary as CSV and JSON into this directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
    /// Replications (default: the scenario's).
    #[arg(long, value_name = "N")]
    pub replications: Option<u32>,
}

/// Options of `qosgate reproduce`.
#[derive(Debug, Clone, Args)]
pub struct ReproduceArgs {
    /// Which paper: `kokkinos2009` (seed 004, Sec. 6.4).
    #[arg(value_name = "PAPER")]
    pub paper: String,
    /// Replications per point (default: the experiment's).
    #[arg(long, value_name = "N")]
    pub replications: Option<u32>,
    /// Write CSV and SVG files per figure into this directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
}

/// Options of `qosgate synth` (model in harness/src/synth.rs).
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

/// The scheduling policies of `qosgate backfill`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PolicyName {
    /// First come, first served.
    Fcfs,
    /// EASY: only the queue's head holds a reservation.
    Easy,
    /// Conservative: every waiting job holds a reservation.
    Conservative,
    /// Selective: a job gets a reservation once its expected slowdown reaches --threshold.
    Selective,
}

impl PolicyName {
    /// The name as typed.
    pub fn name(self) -> &'static str {
        match self {
            Self::Fcfs => "fcfs",
            Self::Easy => "easy",
            Self::Conservative => "conservative",
            Self::Selective => "selective",
        }
    }
}

/// Options of `qosgate backfill`.
#[derive(Debug, Clone, Args)]
pub struct BackfillArgs {
    /// The scheduling policy.
    #[arg(long, value_enum)]
    pub policy: PolicyName,
    /// The trace, in the Standard Workload Format.
    #[arg(long, value_name = "FILE")]
    pub swf: std::path::PathBuf,
    /// Nodes of the cluster (default: the header's MaxProcs, else MaxNodes). Jobs wider than
    /// this are skipped and counted.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u32>,
    /// Write one CSV row per scheduled job here: job_id,submit,start,end,procs.
    #[arg(long, value_name = "FILE.csv")]
    pub out: Option<std::path::PathBuf>,
    /// Skip and count bad lines instead of failing on the first one.
    #[arg(long)]
    pub skip_invalid: bool,
    /// Selective backfilling: the expected slowdown (wait + estimate) / estimate at which a
    /// waiting job gets a reservation.
    #[arg(
        long,
        value_name = "X",
        default_value_t = 2.0,
        allow_negative_numbers = true
    )]
    pub threshold: f64,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
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
