//! Optimality of a split of load over places with capacities (PAP's allocation over clusters,
//! Eq. 3; the broker's routing over providers, Eq. 1): for a convex cost, the split is optimal
//! exactly when no transfer of load between two places lowers the cost, which is checked here
//! without trusting the solver's algebra.

use core::cmp::Ordering;

use crate::{Check, ensure};

/// No transfer from a place `i` with load to another place `j` lowers `cost` below
/// `base (1 - tolerance)`, `base` being the cost of `x`. Transfers of each fraction in
/// `fractions` of the most that fits are tried: `min(x_i, 0.999 (capacity_j - x_j))`, so `j` stays
/// strictly below its capacity. `cost` returns `None` where it is undefined (such a transfer is
/// passed over); it must be defined at `x`.
pub fn no_pairwise_transfer_lowers(
    x: &[f64],
    capacity: &[f64],
    fractions: &[f64],
    tolerance: f64,
    cost: impl Fn(&[f64]) -> Option<f64>,
) -> Check {
    ensure!(
        x.len() == capacity.len(),
        "{} loads, {} capacities",
        x.len(),
        capacity.len()
    );
    let Some(base) = cost(x) else {
        return Err(format!("the split {x:?} has no cost"));
    };
    for (i, &from) in x.iter().enumerate() {
        for (j, (&to, &cap)) in x.iter().zip(capacity).enumerate() {
            if i == j || from == 0.0 {
                continue;
            }
            let room = (cap - to) * 0.999;
            for &frac in fractions {
                let d = frac * from.min(room);
                if d <= 0.0 {
                    continue;
                }
                let mut y = x.to_vec();
                y[i] -= d;
                y[j] += d;
                if let Some(moved) = cost(&y) {
                    // NaN is no cost at all: a failure too.
                    ensure!(
                        moved
                            .partial_cmp(&(base * (1.0 - tolerance)))
                            .is_some_and(Ordering::is_ge),
                        "moving {d} from {i} to {j} lowers the cost from {base} to {moved}"
                    );
                }
            }
        }
    }
    Ok(())
}
