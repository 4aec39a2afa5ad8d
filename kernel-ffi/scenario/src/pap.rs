//! Step 3: PAP for the three clusters of the README's `qosgate solve pap` example, external rate
//! 2, epsilon 1e-9 (to 1e-12 relative; the Cortex-M3's soft float gives the same digits).

use qosgate_ffi::config::QG_MAX_CLUSTERS;
use qosgate_ffi::pap::*;
use qosgate_ffi::qg_status::*;

use crate::check::{Failure, ensure, expect};

/// The clusters of the PAP solve (the README's `qosgate solve pap` example).
pub const PAP_CLUSTERS: [qg_cluster; 3] = [
    qg_cluster {
        theta: 1.0,
        omega: 1.25,
        local_rate: 0.2,
        tau: 2.0,
        mu: 4.04,
    },
    qg_cluster {
        theta: 0.5,
        omega: 0.3125,
        local_rate: 0.6,
        tau: 1.0,
        mu: 1.01,
    },
    qg_cluster {
        theta: 0.25,
        omega: 0.078125,
        local_rate: 0.5,
        tau: 0.5,
        mu: 0.2525,
    },
];
/// PAP's external rate.
pub const PAP_RATE: f64 = 2.0;
/// PAP's relative precision.
pub const PAP_EPSILON: f64 = 1e-9;
/// The multiplier z PAP finds.
pub const PAP_Z: f64 = 2.9154119893606305;
/// The rates PAP finds.
pub const PAP_LAMBDA_HAT: [f64; 3] = [0.01680750746731439, 0.0, 1.9831924925287816];
/// The active set PAP finds.
pub const PAP_ACTIVE: [bool; 3] = [true, false, true];
/// How far (relative) a result may be from the values above: they are printed to 17 digits,
/// and a soft-float target rounds like the host, so this only absorbs printing.
pub const PAP_TOLERANCE: f64 = 1e-12;

/// Solves, and checks the multiplier, the rates and the active set.
#[inline(never)]
pub(crate) fn run() -> Result<qg_allocation, Failure> {
    let mut a = qg_allocation {
        z: 0.0,
        lambda_hat: [0.0; QG_MAX_CLUSTERS],
        active: [false; QG_MAX_CLUSTERS],
        clusters: 0,
    };
    let n = PAP_CLUSTERS.len();
    // SAFETY: the clusters are a constant array of `n` values; `a` a live local.
    let st = unsafe { qg_pap_solve(PAP_CLUSTERS.as_ptr(), n, PAP_RATE, PAP_EPSILON, &mut a) };
    expect("PAP solves", st, QG_OK)?;
    let near = |x: f64, want: f64| (x - want).abs() <= PAP_TOLERANCE * want.abs().max(1.0);
    ensure("PAP: three clusters", a.clusters == 3)?;
    ensure("PAP: z", near(a.z, PAP_Z))?;
    for j in 0..n {
        ensure("PAP: rates", near(a.lambda_hat[j], PAP_LAMBDA_HAT[j]))?;
        ensure("PAP: active set", a.active[j] == PAP_ACTIVE[j])?;
    }
    let total: f64 = a.lambda_hat.iter().sum();
    ensure(
        "PAP: rates add up",
        (total - PAP_RATE).abs() <= PAP_EPSILON * PAP_RATE,
    )?;
    Ok(a)
}
