//! SplitMix64 (Steele, Lea and Flood 2014): the harness's seeded generator. The same seed gives
//! the same stream on every machine and every version, which is what reproducible workloads and
//! tests need (the kernel owns no generator: callers hand it their draws).
//!
//! A run seeded with `seed` gives replication `k` the seed `seed + k` ([`replication_seed`]) and
//! each of its entities (a user, a node, a cluster) its own stream ([`SplitMix::for_entity`]),
//! so adding draws to one entity never shifts another's.

/// The golden-ratio increment of SplitMix64; also spreads entity indices over seeds.
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// The seed of replication `k` of a run seeded with `seed` (wrapping).
pub fn replication_seed(seed: u64, k: u32) -> u64 {
    seed.wrapping_add(u64::from(k))
}

/// `seed` moved to the base seed `base` (`qosgate reproduce --seed`): one mixing function of
/// both, the same for every scenario, so scenarios that share a seed (common random numbers)
/// still share it.
pub fn rebase(seed: u64, base: u64) -> u64 {
    SplitMix(seed ^ base.wrapping_mul(GOLDEN)).next_u64()
}

/// A SplitMix64 stream; the field is its state (the seed, at first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The stream of entity `index` (0-based) in a replication seeded with `seed`.
    pub fn for_entity(seed: u64, index: u64) -> Self {
        SplitMix(seed ^ GOLDEN.wrapping_mul(index.wrapping_add(1)))
    }

    /// The next 64 uniform bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform `u32`: the high half of the next draw.
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// Uniform on `[0, 1)`, from the top 53 bits of the next draw.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix;

    /// The first outputs for seed 1234567, from the reference C implementation's published
    /// test vector.
    #[test]
    fn matches_the_reference_stream() {
        let mut g = SplitMix(1_234_567);
        let want = [
            6_457_827_717_110_365_317,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
        ];
        for w in want {
            assert_eq!(g.next_u64(), w);
        }
    }
}
