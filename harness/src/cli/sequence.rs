//! `qosgate sequence billiard|rtdp`: dispatch sequences, printed as one compact JSON array of
//! 0-based cluster indices and a newline.

use std::io::{BufWriter, Write};

use anyhow::{Context, Result};
use clap::{Arg, Args, Subcommand};

use crate::gateway::sequence;

/// `qosgate sequence ...`
#[derive(Debug, Subcommand)]
pub enum SequenceCommand {
    /// The first N clusters of the billiard sequence for probabilities P (salehi2012 Eq. 20).
    Billiard(BilliardArgs),
    /// The cluster RTDP picks for each request type in turn (salehi2012 Algorithm 2).
    Rtdp(RtdpArgs),
}

/// Options of `qosgate sequence billiard`.
#[derive(Debug, Clone, Args)]
pub struct BilliardArgs {
    /// Dispatch probabilities, comma-separated (e.g. 0.5,0.3,0.2).
    #[arg(long, comma_list())]
    pub p: Vec<f64>,
    /// Index of the fastest cluster (X_j = 1 there, erratum E5); default 0.
    #[arg(long, value_name = "J", allow_negative_numbers = true)]
    pub fastest: Option<usize>,
    /// How many decisions to print.
    #[arg(short = 'n', value_name = "N", allow_negative_numbers = true)]
    pub n: u64,
}

/// Options of `qosgate sequence rtdp`.
#[derive(Debug, Clone, Args)]
pub struct RtdpArgs {
    /// Cluster dispatch probabilities P_j, comma-separated.
    #[arg(long, comma_list())]
    pub p: Vec<f64>,
    /// Share of each request type, comma-separated (P_j^i = P_j x share(i)).
    #[arg(long, comma_list())]
    pub shares: Vec<f64>,
    /// The request types in arrival order, comma-separated indices into --shares.
    #[arg(long, comma_list())]
    pub types: Vec<usize>,
    /// Index of the fastest cluster; default 0.
    #[arg(long, value_name = "J", allow_negative_numbers = true)]
    pub fastest: Option<usize>,
}

/// The settings of a list option (`--p 0.5,0.3,0.2`): required, its values split at commas,
/// and a value may start with `-` (a negative number reaches the check that names it).
trait CommaList {
    fn comma_list(self) -> Self;
}

impl CommaList for Arg {
    fn comma_list(self) -> Self {
        self.value_delimiter(',')
            .required(true)
            .allow_hyphen_values(true)
    }
}

/// Runs `qosgate sequence billiard|rtdp`.
///
/// Errors: a bad option (named in the message), or a failed write. Nothing is printed on a bad
/// `--types` entry.
pub fn exec(cmd: &SequenceCommand, out: &mut dyn Write) -> Result<()> {
    match cmd {
        SequenceCommand::Billiard(args) => {
            let picks = sequence::billiard(&args.p, args.fastest)?;
            write_array(
                out,
                picks.take(usize::try_from(args.n).unwrap_or(usize::MAX)),
            )
        }
        SequenceCommand::Rtdp(args) => write_array(
            out,
            sequence::rtdp(&args.p, &args.shares, &args.types, args.fastest)?,
        ),
    }
}

/// Writes `[a,b,...]` and a newline, streaming (the billiard's `-n` may be large).
fn write_array(out: &mut dyn Write, items: impl IntoIterator<Item = usize>) -> Result<()> {
    let mut w = BufWriter::new(out);
    w.write_all(b"[").context("writing output")?;
    for (i, j) in items.into_iter().enumerate() {
        if i > 0 {
            w.write_all(b",").context("writing output")?;
        }
        write!(w, "{j}").context("writing output")?;
    }
    w.write_all(b"]\n").context("writing output")?;
    w.flush().context("writing output")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_print_as_compact_json_arrays() {
        let mut out = Vec::new();
        let cmd = SequenceCommand::Billiard(BilliardArgs {
            p: vec![0.5, 0.3, 0.2],
            fastest: None,
            n: 10,
        });
        exec(&cmd, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "[1,2,0,1,0,2,0,1,0,0]\n");
        let mut out = Vec::new();
        let cmd = SequenceCommand::Billiard(BilliardArgs {
            p: vec![1.0],
            fastest: None,
            n: 0,
        });
        exec(&cmd, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "[]\n");
    }
}
