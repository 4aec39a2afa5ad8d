//! `qosgate bounds`: the registrations, rates and delay bounds of a grid scenario's GS users
//! ([`crate::models::grid::bounds`]); without a file, of kokkinos2009's grid.

use std::io::Write;

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

use super::write_json;
use crate::experiments::kokkinos2009::{params, presets};
use crate::models::grid::bounds::{self, About, GsGrid};
use crate::models::grid::scenario;

/// The preset whose grid `qosgate bounds` describes without a file: kokkinos2009's grid (Tables
/// 2-5, the registrations of Sec. 6.4) with the CPUs of its multi-CPU experiment, so both
/// layouts differ.
pub const DEFAULT_PRESET: &str = "kokkinos2009-gbp-multi";

/// Options of `qosgate bounds`.
#[derive(Debug, Clone, Args)]
pub struct BoundsArgs {
    /// A grid scenario file (`model = "grid"`, or no `model` key): its GS users, registered
    /// where the simulator registers them. Default: kokkinos2009's grid (the preset
    /// `kokkinos2009-gbp-multi`).
    #[arg(value_name = "SCENARIO.toml")]
    pub scenario: Option<PathBuf>,

    /// Print one JSON object (with a `rows` array) instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Flow limit of every resource rebuilt (1 to 16), whatever the scenario's `max_users`: the
    /// most users registered at once. Also sets the SCFQ Reserved-basis bound, which assumes
    /// every other flow slot may hold a maximal task.
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
/// Errors: an out-of-range option, a scenario file that cannot be read, is not a grid
/// scenario or is refused (located), a kernel refusal (named), a failed write.
pub fn exec(args: &BoundsArgs, out: &mut dyn Write) -> Result<()> {
    let cfg = bounds::Config::from_args(args.max_users, args.pipelined_delay)?;
    let scenario = match &args.scenario {
        Some(path) => scenario::load(path)?,
        None => presets::get(DEFAULT_PRESET)?,
    };
    let grid = GsGrid::of(&scenario)
        .with_context(|| format!("the registrations of scenario {}", scenario.header.name))?;
    let about = match &args.scenario {
        Some(path) => About::file(&path.display().to_string(), &grid),
        None => params::grid().about(),
    };
    let rep = bounds::compute(&grid, about, &cfg)?;
    if args.json {
        write_json(&rep, true, out)
    } else {
        out.write_all(bounds::bounds_table(&rep).as_bytes())
            .context("writing the table")?;
        out.flush().context("writing output")
    }
}
