//! Dispatch sequences of the kernel's [`dispatch`](qosgate_kernel::dispatch) module, as
//! `qosgate sequence billiard|rtdp` computes them.
//!
//! [`billiard`] gives the billiard sequence of probabilities `p` (salehi2012 Eq. 20, erratum E5);
//! [`rtdp`] the clusters RTDP (salehi2012 Algorithm 2) picks for each request type in turn.
//! A bad input is an error whose message names the command line option (`--p`, `--shares`,
//! `--types`, `--fastest`) and the value at fault.
//!
//! Capacities: at most [`CLUSTERS`] clusters and [`TYPES`] request types.

use anyhow::{Result, anyhow};
use qosgate_kernel::dispatch::{Billiard, DispatchError, Input, Rtdp};
use qosgate_kernel::{Invalid, Problem};

/// The most clusters `qosgate sequence` accepts.
pub const CLUSTERS: usize = 256;
/// The most request types `qosgate sequence rtdp` accepts.
pub const TYPES: usize = 32;

/// The billiard sequence of `p` (cluster `fastest`, default 0, has `X_j = 1`): an endless
/// iterator of 0-based cluster indices.
///
/// Errors: a bad `p` or `fastest` (named in the message).
pub fn billiard(p: &[f64], fastest: Option<usize>) -> Result<impl Iterator<Item = usize>> {
    let fastest = fastest.unwrap_or(0);
    let mut b =
        Billiard::<CLUSTERS>::new(p, fastest).map_err(|e| set_up_error(e, p, &[], fastest))?;
    Ok(std::iter::repeat_with(move || b.dispatch()))
}

/// The cluster RTDP picks for each request type of `types`, in order, with cluster
/// probabilities `p` and type shares `shares`.
///
/// Errors: a bad `p`, `shares`, `fastest` or `types` entry (named in the message).
pub fn rtdp(
    p: &[f64],
    shares: &[f64],
    types: &[usize],
    fastest: Option<usize>,
) -> Result<Vec<usize>> {
    let fastest = fastest.unwrap_or(0);
    // 64 KiB of keys: on the heap rather than the stack.
    let mut r = Box::new(
        Rtdp::<CLUSTERS, TYPES>::new(p, shares, fastest)
            .map_err(|e| set_up_error(e, p, shares, fastest))?,
    );
    types
        .iter()
        .enumerate()
        .map(|(pos, &kind)| {
            r.dispatch(kind).map_err(|e| match e {
                DispatchError::UnknownType => anyhow!(
                    "--types: entry {pos} is request type {kind}, but --shares lists {} \
                     type(s) (0-based)",
                    shares.len()
                ),
                DispatchError::ZeroShare => anyhow!(
                    "--types: entry {pos} is request type {kind}, whose share in --shares is \
                     0: RTDP has no cluster for it"
                ),
                e => anyhow!("--types: entry {pos}: {e}"),
            })
        })
        .collect()
}

/// The set-up error, with the option and value at fault.
fn set_up_error(e: DispatchError, p: &[f64], shares: &[f64], fastest: usize) -> anyhow::Error {
    use DispatchError as E;
    let at = |v: &[f64], i: u16| v.get(usize::from(i)).copied().unwrap_or(f64::NAN);
    match e {
        E::Invalid(invalid) => bad_input(invalid, p, shares, fastest),
        E::ProbabilityTooSmall(j) => anyhow!(
            "--p: entry {j} is {}, positive but below 2^-30 of the total (use 0 to exclude \
             the cluster)",
            at(p, j)
        ),
        E::AllProbabilitiesZero => anyhow!("--p: every probability is zero"),
        E::AllSharesZero => anyhow!("--shares: every share is zero"),
        E::UnknownType | E::ZeroShare => anyhow!("{e}"),
    }
}

/// A bad input of the set-up, named by its option and, for an entry, its value.
fn bad_input(e: Invalid<Input>, p: &[f64], shares: &[f64], fastest: usize) -> anyhow::Error {
    let at = |v: &[f64], i: u16| v.get(usize::from(i)).copied().unwrap_or(f64::NAN);
    match (e.input, e.problem) {
        (Input::Probabilities, Problem::Empty) => anyhow!("--p: no probabilities given"),
        (Input::Probabilities, _) => anyhow!("--p: {} clusters, at most {CLUSTERS}", p.len()),
        (Input::Probability(j), _) => anyhow!("--p: entry {j} is {}: {e}", at(p, j)),
        (Input::Fastest, _) => anyhow!(
            "--fastest: cluster {fastest} does not exist (--p lists {} cluster(s), 0-based)",
            p.len()
        ),
        (Input::Shares, Problem::Empty) => anyhow!("--shares: no shares given"),
        (Input::Shares, _) => {
            anyhow!("--shares: {} request types, at most {TYPES}", shares.len())
        }
        (Input::Share(i), _) => anyhow!("--shares: entry {i} is {}: {e}", at(shares, i)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn billiard_gives_the_papers_sequence() {
        let first: Vec<usize> = billiard(&[0.5, 0.3, 0.2], None).unwrap().take(10).collect();
        assert_eq!(first, [1, 2, 0, 1, 0, 2, 0, 1, 0, 0]);
    }

    #[test]
    fn bad_inputs_name_the_option() {
        let e = billiard(&[0.5, f64::NAN], None).err().unwrap().to_string();
        assert!(e.starts_with("--p: entry 1 is NaN"), "{e}");
        let e = billiard(&[0.5], Some(3)).err().unwrap().to_string();
        assert!(e.starts_with("--fastest: cluster 3"), "{e}");
        let e = rtdp(&[1.0], &[1.0, 0.0], &[0, 1], None)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("--types: entry 1 is request type 1"), "{e}");
    }
}
