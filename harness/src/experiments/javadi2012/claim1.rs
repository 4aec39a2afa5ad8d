//! Claim 1: Figs. 3 and 5 of seed 002, AWRT and bounded slowdown against the arrival rate
//! (the criteria are in the parent module's doc).

use super::measure::*;
use super::params::{BETAS, FIG3_MAX_FACTORS, FIG5_MAX_FACTORS};
use crate::experiments::Runs;
use crate::report::stats::Estimate;
use crate::report::{Section, Statement, verdict};

/// Every beta at theta 3.0: NoR, and ARS and ADS calibrated and literal, under CB, SB and EB.
pub(super) fn variants() -> Vec<Variant> {
    variants_at(&beta_points(), &[Route::Table3, Route::Eq5])
}

/// The largest improvement factor per scheduler over `points` and both adaptive policies,
/// calibrated, against the paper's `want`: failures and evidence.
pub(super) fn largest_factors(
    runs: &Runs<Metrics>,
    points: &[(f64, f64)],
    f: Metric,
    want: [f64; 3],
) -> (Vec<String>, String, [f64; 3]) {
    let (mut bad, mut ev) = (Vec::new(), Vec::new());
    let mut best = [f64::NAN; 3];
    for (i, s) in SCHEDULERS.into_iter().enumerate() {
        let mut top: Option<(String, Estimate)> = None;
        let mut missing = false;
        for &(beta, theta) in points {
            for b in ADAPTIVE {
                let v = Variant::new(b, Route::Table3, s, beta, theta);
                match factor(runs, &v, f) {
                    Some(e) if top.as_ref().is_none_or(|(_, t)| e.mean > t.mean) => {
                        top = Some((
                            format!("{} at beta {beta}, theta {theta}", brokering_name(b)),
                            e,
                        ));
                    }
                    Some(_) => {}
                    None => missing = true,
                }
            }
        }
        let name = scheduler_name(s);
        match top.filter(|_| !missing) {
            Some((at, e)) => {
                best[i] = e.mean;
                if !near(e.mean, want[i]) {
                    bad.push(format!("{name}: {} against {}", e.show(2), want[i]));
                }
                ev.push(format!("{name} {} ({at}; paper {})", e.show(2), want[i]));
            }
            None => {
                bad.push(format!("{name}: no data"));
                ev.push(format!("{name} n/a"));
            }
        }
    }
    (bad, format!("Largest factors: {}.", ev.join("; ")), best)
}

/// The figures and verdicts, from the runs of [`variants`].
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let points = beta_points();
    let (figs, mut verdicts) = Sweep {
        over_beta: true,
        figs: ["3", "5"],
        ids: [["fig3a", "fig3b", "fig3c"], ["fig5a", "fig5b", "fig5c"]],
    }
    .figures_and_verdicts(runs);
    verdicts.push(nor_rises(runs));
    let (bad, ev, best) = largest_factors(runs, &points, awrt, FIG3_MAX_FACTORS);
    verdicts.push(factor_verdict(
        "The largest AWRT improvement factors of adaptive brokering are 3.4, 3.7 and 5.1 under \
         CB, SB and EB (Fig. 3).",
        "AWRT",
        bad,
        ev.clone(),
    ));
    let eb_most = best[2] > best[0] && best[2] > best[1];
    verdicts.push(verdict(
        &in_mode(
            Route::Table3,
            "EASY backfilling gains the most from adaptive brokering (Fig. 3).",
        ),
        "Calibrated mode: EB's largest AWRT improvement factor (as in the statement before) is \
         above CB's and SB's.",
        &if eb_most {
            Vec::new()
        } else {
            vec![format!(
                "CB {}, SB {}, EB {}",
                V(best[0], 2),
                V(best[1], 2),
                V(best[2], 2)
            )]
        },
        ev,
    ));
    let (bad, ev, _) = largest_factors(runs, &points, slowdown, FIG5_MAX_FACTORS);
    verdicts.push(factor_verdict(
        "Adaptive brokering cuts the slowdown by up to 4, 4 and 10.9 times under CB, SB and EB \
         (Fig. 5).",
        "slowdown",
        bad,
        ev,
    ));
    verdicts.push(gap_grows(runs));
    Section {
        heading: "Claim 1 (Figs. 3, 5): AWRT and slowdown against the arrival rate".into(),
        figures: figs,
        statements: verdicts,
        ..Default::default()
    }
}

/// The verdict on the largest factors of `what`, calibrated.
pub(super) fn factor_verdict(claim: &str, what: &str, bad: Vec<String>, ev: String) -> Statement {
    verdict(
        &in_mode(Route::Table3, claim),
        &format!(
            "Calibrated mode: for each scheduler, the largest {what} improvement factor NoR / \
             policy (the mean over replications of the paired ratio, with its 95 % interval) \
             over the points of the figure and ARS and ADS lies within {:.0} % of the paper's.",
            NEAR * 100.0
        ),
        &bad,
        ev,
    )
    .because(
        "SPEC-NOTES N12: at 1-9 % load, routing a share P_c of the requests at random can cut \
         AWRT by about 1 / (1 - P_c) unless the cluster queues heavily (1.2-1.6 here).",
    )
}

/// NoR's AWRT at the highest arrival rate against the lowest, per scheduler.
fn nor_rises(runs: &Runs<Metrics>) -> Statement {
    let (lo, hi) = (BETAS[0], BETAS[BETAS.len() - 1]);
    let (mut bad, mut ev) = (Vec::new(), Vec::new());
    for s in SCHEDULERS {
        let at = |b| {
            Variant::new(
                Brokering::Nor,
                Route::Eq5,
                s,
                b,
                super::params::THETA_MEDIUM,
            )
        };
        let d = Paired::of(runs, &at(hi), &at(lo), awrt);
        if !d.above() {
            bad.push(format!("{}: {}", scheduler_name(s), d.show(1)));
        }
        ev.push(format!(
            "{}: {} s at beta {lo}, {} s at beta {hi}, difference {}",
            scheduler_name(s),
            V(runs.mean(&at(lo), awrt), 1),
            V(runs.mean(&at(hi), awrt), 1),
            d.show(1)
        ));
    }
    verdict(
        "(both modes) NoR's AWRT rises with the arrival rate (Fig. 3).",
        &format!(
            "NoR routes alike in both modes: under CB, SB and EB, NoR's AWRT at beta {hi} (the \
             highest rate) is above its AWRT at beta {lo} beyond the paired 95 % interval."
        ),
        &bad,
        format!("{}.", ev.join("; ")),
    )
}

/// The mean paired slowdown gap NoR - policy at the highest rate against the lowest.
fn gap_grows(runs: &Runs<Metrics>) -> Statement {
    let (lo, hi) = (BETAS[0], BETAS[BETAS.len() - 1]);
    let (mut bad, mut ev) = (Vec::new(), Vec::new());
    for s in SCHEDULERS {
        for b in ADAPTIVE {
            let at = |beta| Variant::new(b, Route::Table3, s, beta, super::params::THETA_MEDIUM);
            let gap = |beta| {
                let v = at(beta);
                Paired::of(runs, &v.nor(), &v, slowdown)
                    .0
                    .map_or(f64::NAN, |e| e.mean)
            };
            let (g0, g1) = (gap(lo), gap(hi));
            if !lt(g0, g1) {
                bad.push(format!("{} {}", scheduler_name(s), brokering_name(b)));
            }
            ev.push(format!(
                "{} {} {} -> {}",
                scheduler_name(s),
                brokering_name(b),
                V(g0, 2),
                V(g1, 2)
            ));
        }
    }
    verdict(
        &in_mode(
            Route::Table3,
            "The slowdown gap between NoR and adaptive brokering grows with the arrival rate \
             (Fig. 5).",
        ),
        &format!(
            "Calibrated mode: under CB, SB and EB, for ARS and ADS, the mean paired slowdown \
             difference NoR - policy at beta {hi} is larger than at beta {lo}."
        ),
        &bad,
        format!("Gap at beta {lo} -> {hi}: {}.", ev.join("; ")),
    )
}
