//! `qosgate bounds`: the kokkinos2009 grid's registrations, rates and delay bounds.

use std::io::Write;

use anyhow::{Context, Result};
use clap::Args;

use super::write_json;
use crate::experiments::kokkinos2009::{bounds, params};

/// Options of `qosgate bounds`.
#[derive(Debug, Clone, Args)]
pub struct BoundsArgs {
    /// Print one JSON object (with a `rows` array) instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Flow limit of every resource: the most users registered at once (1 to 16). Also sets the
    /// SCFQ Reserved-basis bound, which assumes every other flow slot may hold a maximal task.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 8,
        allow_negative_numbers = true
    )]
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

/// Runs `qosgate bounds`.
///
/// Errors: an out-of-range option, a kernel refusal (named), a failed write.
pub fn exec(args: &BoundsArgs, out: &mut dyn Write) -> Result<()> {
    let cfg = bounds::Config::from_args(args.max_users, args.pipelined_delay)?;
    let rep = bounds::compute(&params::seed004(), &cfg)?;
    if args.json {
        write_json(&rep, true, out)
    } else {
        out.write_all(bounds::bounds_table(&rep).as_bytes())
            .context("writing the table")?;
        out.flush().context("writing output")
    }
}
