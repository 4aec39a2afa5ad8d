//! Seconds and ticks: scenarios and reports speak seconds (`f64` or whole `u64`), the kernel
//! speaks µs ticks ([`TICKS_PER_SECOND`]). Conversions happen here, at the edge of a model.

use qosgate_kernel::units::{TICKS_PER_SECOND, Ticks};

/// `secs` seconds as ticks, rounded to the nearest tick.
///
/// The caller keeps `secs` finite, `>= 0` and below the scenario's stated maximum (the grid's
/// `MAX_SECONDS`, 1e12 s), so the product fits a `u64`; beyond that the cast saturates.
pub fn ticks(secs: f64) -> Ticks {
    Ticks::new((secs * TICKS_PER_SECOND as f64).round() as u64)
}

/// Whole seconds as ticks, or `None` if they overflow the kernel's clock (about 1.8e13 s).
pub fn ticks_exact(secs: u64) -> Option<Ticks> {
    secs.checked_mul(TICKS_PER_SECOND).map(Ticks::new)
}

/// `t` ticks as seconds (exact for any `t` below 2^53 ticks, about 285 years).
pub fn secs(t: Ticks) -> f64 {
    t.get() as f64 / TICKS_PER_SECOND as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_round_to_the_nearest_tick_and_back() {
        assert_eq!(ticks(1.5), Ticks::new(1_500_000));
        assert_eq!(ticks(0.000_000_4), Ticks::ZERO);
        assert_eq!(ticks(0.000_000_6), Ticks::new(1));
        assert_eq!(secs(ticks(546.0)), 546.0);
        assert_eq!(ticks_exact(3), Some(Ticks::new(3_000_000)));
        assert_eq!(ticks_exact(u64::MAX / 1000), None);
    }
}
