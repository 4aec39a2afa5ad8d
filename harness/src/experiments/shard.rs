//! Shards: the `K`-th of `N` disjoint, deterministic slices of a reproduction's runs
//! (`qosgate reproduce <paper> --shard K/N --runs DIR`), for running one reproduction as `N`
//! jobs, on one machine or as a cluster's job array.
//!
//! A reproduction's runs are its (variant, replication) pairs in plan order: the variants in the
//! order the parts first name them, replications `0, 1, ...` within each
//! ([`super::runner::Plan`]). The plan depends only on the paper, `--only` and `--replications`,
//! never on the machine or the thread count. Shard `K` of `N` holds the runs whose index `i` in
//! that order has `i mod N = K`, so:
//! - the shards are disjoint and together hold every run once;
//! - they are balanced: their sizes differ by at most one run, and round robin deals each
//!   variant's replications, the costly variants' and the cheap ones', to every shard in turn.

use std::fmt;
use std::str::FromStr;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

/// Shard `index` of `count` (0-based: `0/4` to `3/4`, as Slurm numbers an array's tasks).
///
/// Invariant: `index < count` (so `count >= 1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Shard {
    index: u32,
    count: u32,
}

impl Shard {
    /// Every run: shard `0/1`.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`.
    ///
    /// Errors: `count` 0, or `index` not below it.
    pub fn new(index: u32, count: u32) -> Result<Self> {
        if count == 0 {
            bail!("a run is cut into at least 1 shard, not 0");
        }
        if index >= count {
            bail!(
                "shard {index} of {count} does not exist: shards are numbered 0 to {}",
                count - 1
            );
        }
        Ok(Shard { index, count })
    }

    /// Its number, `0..count`.
    pub fn index(self) -> u32 {
        self.index
    }

    /// How many shards the runs are cut into.
    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether the run at `position` (0-based, in plan order) is this shard's.
    pub fn holds(self, position: usize) -> bool {
        self.of(position) == self.index
    }

    /// The number of the shard of `count` that holds the run at `position`.
    pub fn of(self, position: usize) -> u32 {
        // `count` fits in u32, so the remainder does.
        (position % self.count as usize) as u32
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = anyhow::Error;

    /// `K/N`, as `--shard` takes it.
    fn from_str(s: &str) -> Result<Self> {
        let Some((k, n)) = s.split_once('/') else {
            bail!("shard {s:?}: expected K/N, the K-th (0-based) of N shards, as 2/4");
        };
        let number = |what: &str, v: &str| {
            v.trim()
                .parse::<u32>()
                .with_context(|| format!("shard {s:?}: {what} {v:?} is not a whole number"))
        };
        Shard::new(number("K", k)?, number("N", n)?)
    }
}

impl TryFrom<String> for Shard {
    type Error = anyhow::Error;

    fn try_from(s: String) -> Result<Self> {
        s.parse()
    }
}

impl From<Shard> for String {
    fn from(s: Shard) -> String {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_as_k_of_n_and_refuse_the_impossible() {
        let s: Shard = "2/4".parse().unwrap();
        assert_eq!((s.index(), s.count(), s.to_string()), (2, 4, "2/4".into()));
        assert_eq!("0/1".parse::<Shard>().unwrap(), Shard::WHOLE);
        for (bad, says) in [
            ("4/4", "numbered 0 to 3"),
            ("0/0", "at least 1 shard"),
            ("1", "expected K/N"),
            ("a/4", "K \"a\" is not a whole number"),
            ("1/-4", "N \"-4\""),
        ] {
            let e = format!("{:#}", bad.parse::<Shard>().unwrap_err());
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn every_position_belongs_to_exactly_one_shard() {
        for count in 1..=7 {
            for position in 0..50 {
                let owners: Vec<u32> = (0..count)
                    .filter(|&k| Shard::new(k, count).unwrap().holds(position))
                    .collect();
                assert_eq!(owners, [Shard::new(0, count).unwrap().of(position)]);
            }
        }
    }
}
