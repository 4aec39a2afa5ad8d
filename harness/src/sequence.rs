//! `qosgate sequence billiard|rtdp`: dispatch sequences of the kernel's [`dispatch`](qosgate_kernel::dispatch) module.
//!
//! Both print one compact JSON array of 0-based cluster indices and a newline. `billiard` prints
//! the first `N` decisions of the billiard sequence of `--p` (seed 000 Eq. 20, `SPEC-NOTES` N7);
//! `rtdp` prints the cluster RTDP (seed 000 Algorithm 2) picks for each request type of `--types`
//! in turn. A bad input is an error whose message names the option and the value at fault.
//!
//! Capacities: at most [`CLUSTERS`] clusters and [`TYPES`] request types.

use std::io::{BufWriter, Write};

use anyhow::{Context, Result, anyhow};
use qosgate_kernel::dispatch::{Billiard, DispatchError, Rtdp};

use crate::cli::{BilliardArgs, RtdpArgs};

/// The most clusters `qosgate sequence` accepts.
pub const CLUSTERS: usize = 256;
/// The most request types `qosgate sequence rtdp` accepts.
pub const TYPES: usize = 32;

/// `qosgate sequence billiard`: the first `-n` clusters of the billiard sequence.
///
/// Errors: a bad `--p` or `--fastest` (named in the message), or a failed write.
pub fn run_billiard(args: &BilliardArgs, out: &mut dyn Write) -> Result<()> {
    let fastest = args.fastest.unwrap_or(0);
    let mut b = Billiard::<CLUSTERS>::new(&args.p, fastest)
        .map_err(|e| set_up_error(e, &args.p, &[], fastest))?;
    write_array(out, (0..args.n).map(|_| b.dispatch()))
}

/// `qosgate sequence rtdp`: the cluster chosen for each request type of `--types`, in order.
///
/// Errors: a bad `--p`, `--shares`, `--fastest` or `--types` entry (named in the message), or a
/// failed write. Nothing is printed on a bad `--types` entry.
pub fn run_rtdp(args: &RtdpArgs, out: &mut dyn Write) -> Result<()> {
    let fastest = args.fastest.unwrap_or(0);
    // 64 KiB of keys: on the heap rather than the stack.
    let mut r = Box::new(
        Rtdp::<CLUSTERS, TYPES>::new(&args.p, &args.shares, fastest)
            .map_err(|e| set_up_error(e, &args.p, &args.shares, fastest))?,
    );
    let mut picks = Vec::with_capacity(args.types.len());
    for (pos, &kind) in args.types.iter().enumerate() {
        let j = r.dispatch(kind).map_err(|e| match e {
            DispatchError::UnknownType => anyhow!(
                "--types: entry {pos} is request type {kind}, but --shares lists {} type(s) \
                 (0-based)",
                args.shares.len()
            ),
            DispatchError::ZeroShare => anyhow!(
                "--types: entry {pos} is request type {kind}, whose share in --shares is 0: \
                 RTDP has no cluster for it"
            ),
            e => anyhow!("--types: entry {pos}: {e}"),
        })?;
        picks.push(j);
    }
    write_array(out, picks)
}

/// The set-up error, with the option and value at fault.
fn set_up_error(e: DispatchError, p: &[f64], shares: &[f64], fastest: usize) -> anyhow::Error {
    use DispatchError as E;
    let at = |v: &[f64], i: u16| v.get(usize::from(i)).copied().unwrap_or(f64::NAN);
    match e {
        E::NoClusters => anyhow!("--p: no probabilities given"),
        E::TooManyClusters => anyhow!("--p: {} clusters, at most {CLUSTERS}", p.len()),
        E::ProbabilityNotFinite(j) | E::ProbabilityNegative(j) => {
            anyhow!("--p: entry {j} is {}: {e}", at(p, j))
        }
        E::ProbabilityTooSmall(j) => anyhow!(
            "--p: entry {j} is {}, positive but below 2^-30 of the total (use 0 to exclude \
             the cluster)",
            at(p, j)
        ),
        E::AllProbabilitiesZero => anyhow!("--p: every probability is zero"),
        E::FastestOutOfRange => anyhow!(
            "--fastest: cluster {fastest} does not exist (--p lists {} cluster(s), 0-based)",
            p.len()
        ),
        E::NoTypes => anyhow!("--shares: no shares given"),
        E::TooManyTypes => anyhow!("--shares: {} request types, at most {TYPES}", shares.len()),
        E::ShareNotFinite(i) | E::ShareNegative(i) => {
            anyhow!("--shares: entry {i} is {}: {e}", at(shares, i))
        }
        E::AllSharesZero => anyhow!("--shares: every share is zero"),
        E::UnknownType | E::ZeroShare => anyhow!("{e}"),
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

    fn billiard(p: &[f64], fastest: Option<usize>, n: u64) -> Result<String> {
        let mut out = Vec::new();
        let args = BilliardArgs {
            p: p.to_vec(),
            fastest,
            n,
        };
        run_billiard(&args, &mut out)?;
        Ok(String::from_utf8(out).expect("UTF-8"))
    }

    #[test]
    fn billiard_prints_a_compact_json_array() {
        assert_eq!(
            billiard(&[0.5, 0.3, 0.2], None, 10).unwrap(),
            "[1,2,0,1,0,2,0,1,0,0]\n"
        );
        assert_eq!(billiard(&[1.0], None, 0).unwrap(), "[]\n");
    }

    #[test]
    fn bad_inputs_name_the_option() {
        let e = billiard(&[0.5, f64::NAN], None, 1).unwrap_err().to_string();
        assert!(e.starts_with("--p: entry 1 is NaN"), "{e}");
        let e = billiard(&[0.5], Some(3), 1).unwrap_err().to_string();
        assert!(e.starts_with("--fastest: cluster 3"), "{e}");
        let args = RtdpArgs {
            p: vec![1.0],
            shares: vec![1.0, 0.0],
            types: vec![0, 1],
            fastest: None,
        };
        let e = run_rtdp(&args, &mut Vec::new()).unwrap_err().to_string();
        assert!(e.starts_with("--types: entry 1 is request type 1"), "{e}");
    }
}
