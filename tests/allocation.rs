//! The DAS-2 workload helpers of the gateway solvers (seed 002 Eq. 28-30) and the moments they
//! feed. The solvers' property tests are in `kernel/tests/allocation.rs`; these stay here until
//! the helpers move to the harness's workload module (issue 12).

use qosgate_kernel::allocate::{
    PapError, das2_mean_log2_size, das2_mean_vms, lognormal_mean, mean_service_time, second_moment,
};

#[test]
fn das2_helpers_match_eq28_to_30() {
    // Seed 002 Table I: l = 0.8, m = 3.5, h = 6, q = 0.9, P_one = 0.02, P_pow2 = 0.78.
    let r = das2_mean_log2_size(0.8, 3.5, 6.0, 0.9).unwrap();
    assert!((r - 2.41).abs() < 1e-12);
    let v = das2_mean_vms(r, 0.02, 0.78).unwrap();
    let want = 0.02 + 8.0 * 0.78 + 2f64.powf(2.41) * 0.2;
    assert!((v - want).abs() < 1e-12, "{v} vs {want}");
    let d = lognormal_mean(5.0, 1.7).unwrap();
    assert!((d - (5.0f64 + 1.445).exp()).abs() < 1e-9);
    assert_eq!(second_moment(2.0, 0.5), Ok(5.0));
    assert_eq!(mean_service_time(5.0, 420.0, 2100.0), Ok(1.0));
    assert_eq!(
        das2_mean_log2_size(3.0, 2.0, 6.0, 0.5),
        Err(PapError::InvalidWorkload)
    );
    assert_eq!(das2_mean_vms(1.0, 0.6, 0.6), Err(PapError::InvalidWorkload));
}
