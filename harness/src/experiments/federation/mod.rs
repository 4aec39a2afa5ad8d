//! The federation experiments that salehi2012 and salehi2011 share: salehi2011 is the short
//! form of salehi2012 (the same federation, gateway policies and workload), so both papers run
//! the scenarios built here and judge them with the same measures.
//!
//! - [`params`]: salehi2012's Table 2 and Sec. 5.2, each number with its source, and the one
//!   calibration.
//! - [`presets`]: [`presets::Variant`], one point of the figures, its scenario, the presets, and
//!   every choice the paper leaves open.
//! - [`measure`]: the axes, the figures, the effects the claims are judged on and their margins.

pub mod measure;
pub mod params;
pub mod presets;

/// Replications a preset scenario asks for (`qosgate run --preset`); a reproduction's are its
/// experiment's [`super::Experiment::REPLICATIONS`].
pub const PRESET_REPLICATIONS: u32 = 3;
