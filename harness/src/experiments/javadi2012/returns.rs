//! What the local scheduler knows of a failed node's return (erratum E18). The paper is silent;
//! the main reading tells the scheduler nothing (a failed node is down until further notice,
//! as a batch scheduler sees it), so a request wider than the nodes up holds no reservation and
//! never blocks a backfilled one: CB, SB and EB then schedule alike. Beside it, the scheduler
//! is told a return (the kernel's expected return: the plan counts the node up from then on, a
//! wide request holds its place, and backfilled requests must end before it):
//! - `mean`: the failures' mean unavailable interval after the failure (Table II's `t_u`,
//!   10.22 h), renewed while the node is still down: what a scheduler knowing Table II could
//!   plan with;
//! - `known`: the instant the node comes back (an oracle, the most a prediction could give).
//!
//! At the highest arrival rate (beta 0.30, theta 3.0): NoR and the calibrated ARS and ADS under
//! CB, SB and EB in each reading. The figure gives NoR's AWRT per scheduler and reading; Claim
//! 1's `fig3.eb-gains-most` is judged again in the two other readings.

use super::claim1::{at_highest, eb_gains_most};
use super::measure::*;
use crate::experiments::Runs;
use crate::report::Section;

/// The three readings, the main one first.
const READINGS: [ExpectedReturn; 3] = [
    ExpectedReturn::Unknown,
    ExpectedReturn::Mean,
    ExpectedReturn::Known,
];

/// NoR, ARS and ADS under CB, SB and EB in each reading.
pub(super) fn variants() -> Vec<Variant> {
    let mut out = Vec::new();
    for r in READINGS {
        for s in SCHEDULERS {
            for b in [Brokering::Nor, Brokering::Ars, Brokering::Ads] {
                out.push(at_highest(b, s, r));
            }
        }
    }
    out
}

/// The figure and statements, from the runs of [`variants`].
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let readings = READINGS.map(|r| format!("return {}", r.name()));
    let series = SCHEDULERS.map(|s| {
        let values = READINGS.map(|r| runs.estimate(&at_highest(Brokering::Nor, s, r), AWRT.plain));
        (scheduler_name(s), values)
    });
    let fig = Figure::bars(
        "returns",
        "NoR's AWRT by scheduler and by what the scheduler knows of a failed node's return \
         (beta 0.30, theta 3.0)",
    )
    .groups("what the local scheduler is told (E18)", readings)
    .y(AWRT_LABEL)
    .all_series(series)
    .decimals(0);
    Section {
        heading: "A failed node's expected return (E18): can the schedulers differ?".into(),
        figures: vec![fig],
        statements: vec![
            eb_gains_most(runs, ExpectedReturn::Mean),
            eb_gains_most(runs, ExpectedReturn::Known),
        ],
        ..Default::default()
    }
}
