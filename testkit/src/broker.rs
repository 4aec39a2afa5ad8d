//! E15 literally: Eq. 5 with E15's `eta` over the active set, drop every provider
//! with `P_i <= 0`, re-solve, until nothing is dropped. The reference for the kernel's one-pass
//! water-filling ([`qosgate_kernel::broker::route`]).

use qosgate_kernel::broker::{Provider, TransientCluster};

/// E17's Grid'5000 cluster: a request of 100 node-hours on 64 nodes of speed 1, 0.1 h of
/// transfer, and the failure trace's availability and unavailability moments (means in hours,
/// variances in hours², as standard deviations squared).
pub const E17_CLUSTER: TransientCluster = TransientCluster {
    work: 100.0,
    nodes: 64.0,
    speed: 1.0,
    transfer: 0.1,
    availability_mean: 22.25,
    availability_variance: 41.09 * 41.09,
    unavailability_mean: 10.22,
    unavailability_variance: 40.75 * 40.75,
};

/// The routing probabilities of E15's drop-and-re-solve for arrivals of rate `l` and variance
/// `v` (`sigma_I^2`), one per provider (0 for a dropped one). Meaningful on the inputs `route`
/// accepts; each round drops at least one provider or ends, so at most `ps.len() + 1` rounds.
pub fn drop_and_resolve(l: f64, v: f64, ps: &[Provider]) -> Vec<f64> {
    let w: Vec<f64> = ps
        .iter()
        .map(|p| (p.cost * (1.0 + p.cs2 + p.mu * (l * l * v - 1.0) / l)).sqrt())
        .collect();
    let mut active = vec![true; ps.len()];
    loop {
        let mu: f64 = (0..ps.len()).filter(|&i| active[i]).map(|i| ps[i].mu).sum();
        let ws: f64 = (0..ps.len()).filter(|&i| active[i]).map(|i| w[i]).sum();
        let p: Vec<f64> = (0..ps.len())
            .map(|i| {
                if active[i] {
                    ps[i].mu / l - (mu - l) / l * w[i] / ws
                } else {
                    0.0
                }
            })
            .collect();
        let drop: Vec<usize> = (0..ps.len())
            .filter(|&i| active[i] && p[i] <= 0.0)
            .collect();
        if drop.is_empty() {
            return p;
        }
        for i in drop {
            active[i] = false;
        }
    }
}
