//! javadi2012's numbers (Javadi, Thulasiraman and Buyya 2012), each with its table or section,
//! the choices made where the paper is silent (erratum E18), and the calibration of the
//! cloud share from Table III's costs (E16).

use anyhow::{Result, anyhow};

use crate::models::hybrid::scenario::{MONTH_S, Price};
use crate::workload::das2::Das2Size;
use crate::workload::dist::Distribution;
use crate::workload::failures::DEFAULT_GROUPS;
use crate::workload::requests::{RequestModel, TABLE1_DURATION_LOG_SD, TABLE1_SIZES};

/// Table I: the Weibull shapes `beta` of the inter-arrival times, 0.2-0.3 (Figs. 3 and 5); the
/// arrival rate rises with `beta` (the mean is `23.375 G(1 + 1/beta)`: 2,805 s at 0.2, 216 s at
/// 0.3).
pub const BETAS: [f64; 5] = [0.2, 0.225, 0.25, 0.275, 0.3];

/// Sec. VI-C: the "moderate" arrival rate of Figs. 4, 6 and Table III.
pub const BETA_MODERATE: f64 = 0.25;

/// Table I: the lognormal `theta` of the durations, 2.5-3.5 (Figs. 4 and 6), with Table III's
/// 3.4.
pub const THETAS: [f64; 6] = [2.5, 2.75, 3.0, 3.25, 3.4, 3.5];

/// Sec. VI-C: the "medium" durations of Figs. 3 and 5.
pub const THETA_MEDIUM: f64 = 3.0;

/// Table III's durations: short, medium, large.
pub const TABLE3_THETAS: [f64; 3] = [2.5, 3.0, 3.4];

/// Table III: EC2 cost per month, USD, `[ARS, ADS]` at each of [`TABLE3_THETAS`].
pub const TABLE3_COST: [[f64; 2]; 3] = [[728.40, 724.20], [1193.60, 1191.60], [1434.40, 1423.80]];

/// Table III: improvement factors (NoR / policy), `[theta][CB, SB, EB][ARS, ADS][AWRT, Sld]`.
pub const TABLE3_FACTORS: [[[[f64; 2]; 2]; 3]; 3] = [
    [
        [[2.00, 1.99], [2.04, 1.98]],
        [[2.37, 2.14], [2.06, 2.12]],
        [[2.16, 3.35], [1.98, 3.13]],
    ],
    [
        [[2.75, 3.13], [2.89, 3.35]],
        [[3.33, 3.78], [3.05, 3.78]],
        [[4.10, 9.44], [4.06, 9.58]],
    ],
    [
        [[3.69, 4.46], [3.11, 3.93]],
        [[4.65, 5.88], [5.05, 5.97]],
        [[5.90, 17.61], [5.36, 15.97]],
    ],
];

/// Sec. VI-C on Fig. 3: the largest AWRT improvement factors of adaptive brokering over NoR,
/// `[CB, SB, EB]`.
pub const FIG3_MAX_FACTORS: [f64; 3] = [3.4, 3.7, 5.1];

/// Sec. VI-C on Fig. 5: the slowdown improvement factors, `[CB, SB, EB]`.
pub const FIG5_MAX_FACTORS: [f64; 3] = [4.0, 4.0, 10.9];

/// Sec. VI-C on Fig. 4: ADS's average AWRT improvement over ARS under selective backfilling.
pub const SB_ADS_GAIN: f64 = 0.058;

/// Sec. VI-B: nodes of the local cluster and of the cloud.
pub const NODES: u32 = 64;
/// Sec. VI-B: MIPS of every node (both providers).
pub const MIPS: f64 = 1000.0;
/// Sec. VI-B: `L_c`, seconds (80 MB over 10 Mb/s); `L_s = 0`.
pub const CLOUD_TRANSFER_S: u64 = 64;
/// Sec. VI-B: `K_s`.
pub const LOCAL_COST: f64 = 1.0;
/// Sec. VI-B: `K_c` (five times `K_s`).
pub const CLOUD_COST: f64 = 5.0;
/// Sec. V-B: `C_Sc = 1`.
pub const CLOUD_CS2: f64 = 1.0;

/// Sec. VI-B, Eq. 19: EC2's prices (0.085 USD per VM-hour for a small instance, 80 s of boot,
/// 80 MB in per request, taken as 0.08 GB, at 0.1 USD per GB).
pub const PRICE: Price = Price {
    vm_hour_usd: 0.085,
    boot_s: 80.0,
    data_in_gb: 0.08,
    usd_per_gb: 0.1,
};

/// Sec. VI-B: two months of workload (60 days), seconds.
pub const HORIZON_S: u64 = 60 * 86_400;
/// Sec. VI-B: the first week is a warm-up, seconds.
pub const WARMUP_S: u64 = 7 * 86_400;
/// Not in the paper (E18): the failures go on 30 days after the last arrival, seconds; what
/// completes later is reported unfinished.
pub const DRAIN_S: u64 = 30 * 86_400;
/// Not in the paper (E18): the seed of replication 0.
pub const SEED: u64 = 2012;
/// E17: groups of nodes that fail together (8 groups of 8), and the counts reported beside.
pub const GROUPS: u32 = DEFAULT_GROUPS;
/// The group counts of the sensitivity figure.
pub const GROUP_COUNTS: [u32; 4] = [1, 4, 8, 64];
/// The calibrated share sweep.
pub const SHARES: [f64; 5] = [0.1, 0.2, 0.3, 0.4, 0.5];
/// The load-scale sweep: arrival rates 1, 2, 4 and 8 times the paper's (at 8x, about 19 % of
/// the cluster), under EB only: the three schedulers give the same factors at the paper's rate,
/// and conservative and selective backfilling's passes grow with the queue (one replication at
/// 8x takes about a second under them, against 0.1 s under EB).
pub const LOAD_SCALES: [f64; 4] = [1.0, 2.0, 4.0, 8.0];

/// `E[ceil(D / 1 h)]` for durations lognormal(`theta`, 1.7) seconds: `sum_{k >= 0} P(D > k h)`,
/// summed until the terms fall below `1e-15` (at most a million hours).
fn mean_billed_hours(theta: f64, log_sd: f64) -> f64 {
    let mut sum = 1.0;
    for k in 1..1_000_000u32 {
        let z = ((f64::from(k) * 3600.0).ln() - theta) / (log_sd * std::f64::consts::SQRT_2);
        let tail = 0.5 * libm::erfc(z);
        sum += tail;
        if tail < 1e-15 {
            break;
        }
    }
    sum
}

/// The expected Eq. 19 cost of one cloud request at `theta`, USD: `C_p (E[V] E[ceil(D / 1 h)] +
/// H_u) + B_in C_x` (sizes and durations independent; the exact mean size, E7).
///
/// Errors: none for Table I's sizes (the type is the size rule's).
pub fn cost_per_cloud_request(theta: f64) -> Result<f64> {
    let v = Das2Size::new(TABLE1_SIZES)
        .map_err(|e| anyhow!("Table I sizes: {e}"))?
        .mean();
    let Price {
        vm_hour_usd,
        boot_s,
        data_in_gb,
        usd_per_gb,
    } = PRICE;
    let hours = v * mean_billed_hours(theta, TABLE1_DURATION_LOG_SD) + boot_s / 3600.0;
    Ok(vm_hour_usd * hours + data_in_gb * usd_per_gb)
}

/// Table III's monthly cost at `theta` (the mean of ARS's and ADS's), linear between the printed
/// durations and, beyond them, along the nearest segment.
pub fn table3_cost(theta: f64) -> f64 {
    let cost = TABLE3_COST.map(|[a, b]| (a + b) / 2.0);
    let seg = if theta <= TABLE3_THETAS[1] { 0 } else { 1 };
    let (t0, t1) = (TABLE3_THETAS[seg], TABLE3_THETAS[seg + 1]);
    cost[seg] + (cost[seg + 1] - cost[seg]) * (theta - t0) / (t1 - t0)
}

/// The calibrated mode's cloud share at `theta` (E16): the share of the requests of a month at
/// the moderate rate whose expected Eq. 19 cost is Table III's ([`table3_cost`]), at most 1.
///
/// Errors: those of [`cost_per_cloud_request`].
pub fn calibrated_share(theta: f64) -> Result<f64> {
    let per_month = MONTH_S * RequestModel::table1(BETA_MODERATE, theta).arrival_rate();
    Ok((table3_cost(theta) / (per_month * cost_per_cloud_request(theta)?)).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// E16: Table III's costs imply cloud shares of about 0.18, 0.30 and 0.36.
    #[test]
    fn table3_costs_imply_e16s_shares() {
        let shares = TABLE3_THETAS.map(|t| calibrated_share(t).unwrap());
        for (got, want) in shares.iter().zip([0.18, 0.30, 0.36]) {
            assert!((got - want).abs() < 0.015, "{shares:?}");
        }
        assert_eq!(table3_cost(3.0), (1193.60 + 1191.60) / 2.0);
        assert!(table3_cost(3.5) > table3_cost(3.4));
        assert!(table3_cost(2.75) > table3_cost(2.5) && table3_cost(2.75) < table3_cost(3.0));
        // Almost every request is billed one hour per VM.
        assert!((1.0..1.01).contains(&mean_billed_hours(3.0, 1.7)));
    }
}
