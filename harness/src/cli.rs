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
