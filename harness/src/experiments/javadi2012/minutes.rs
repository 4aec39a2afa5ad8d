//! The saturated reading (erratum E20): Table I's durations read in minutes, the one unit under
//! which the paper's factors and a positive Eq. 5 appear. Table I prints no unit; the text's
//! seconds stay the main reading (E16's calibration), and this part shows, beside it, what the
//! other reading gives and what it costs against Table III.
//!
//! Read in minutes, the offered load at beta 0.25 is about 144 % of the local cluster
//! (saturated: a request that stays local waits for the queue, and some never finish), and
//! Eq. 5 as printed (E15's `eta`) sends a share of the requests to the cloud. NoR, and ARS and
//! ADS following Eq. 5, at Table III's short and medium durations (at its large one the work
//! exceeds both providers together), under EASY backfilling only: conservative and
//! selective backfilling re-place every reservation of a saturated queue at each freeing
//! (about 20 s a replication, against 0.1 s under EB). Every statement is in the literal mode:
//! no printed number is changed, only the unit the paper leaves out.

use super::claim3::cost_points;
use super::measure::*;
use super::params::{BETA_MODERATE, TABLE3_FACTORS, TABLE3_THETAS};
use crate::experiments::Runs;
use crate::report::Section;

/// The index of EB in Table III's scheduler rows.
const EB: usize = 2;

/// Table III's short and medium durations (its rows 0 and 1). At its large duration (theta 3.4)
/// in minutes the offered work exceeds the two providers together: Eq. 5 has no routing.
const THETAS: [f64; 2] = [TABLE3_THETAS[0], TABLE3_THETAS[1]];

/// NoR, and ARS and ADS with Eq. 5, under EB at `theta` (durations in minutes).
fn at(b: Brokering, theta: f64) -> Variant {
    Variant {
        minutes: true,
        ..Variant::new(b, Route::Eq5, PolicyName::Easy, BETA_MODERATE, theta)
    }
}

/// NoR, ARS and ADS at Table III's short and medium durations, in minutes.
pub(super) fn variants() -> Vec<Variant> {
    THETAS
        .iter()
        .flat_map(|&t| [Brokering::Nor, Brokering::Ars, Brokering::Ads].map(|b| at(b, t)))
        .collect()
}

/// The figure and statements, from the runs of [`variants`].
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let rows = THETAS.map(|t| format!("theta {t} min"));
    let mut values = vec![Vec::new(); 4];
    let mut paper = vec![Vec::new(); 4];
    for (ti, &t) in THETAS.iter().enumerate() {
        for (bi, b) in ADAPTIVE.into_iter().enumerate() {
            for (mi, f) in [AWRT.plain, SLOWDOWN.plain].into_iter().enumerate() {
                values[2 * bi + mi].push(estimate(factor(runs, &at(b, t), f)));
                paper[2 * bi + mi].push(Some(TABLE3_FACTORS[ti][EB][bi][mi]));
            }
        }
    }
    let fig = Figure::bars(
        "minutes",
        "Durations in minutes (E20): improvement factors NoR / policy under EB with Eq. 5's \
         routing, beta = 0.25",
    )
    .groups("request duration (lognormal theta, minutes)", rows)
    .y("improvement factor (ratio of the means over paired replications)")
    .all_series(
        ["ARS AWRT", "ARS Sld", "ADS AWRT", "ADS Sld"]
            .into_iter()
            .zip(values),
    )
    .paper(paper)
    .decimals(2);
    Section {
        heading: "Durations in minutes (E20): where the paper's factors appear, and their cost"
            .into(),
        figures: vec![fig],
        statements: vec![redirects(runs), factors(runs), cost(runs)],
        ..Default::default()
    }
}

/// The unfinished requests of `b`'s runs at `theta`, as evidence.
fn unfinished_at(runs: &Runs<Metrics>, b: Brokering, theta: f64) -> String {
    let n = runs.level(&at(b, theta), unfinished).map(|i| i.estimate);
    let all = runs
        .level(&at(b, theta), |m| Some(m.requests as f64))
        .map(|i| i.estimate);
    match (n, all) {
        (Some(n), Some(all)) if all > 0.0 => format!("{:.1} % ({n:.0})", n / all * 100.0),
        _ => "n/a".to_owned(),
    }
}

/// Eq. 5 sends requests to the cloud once durations are minutes.
fn redirects(runs: &Runs<Metrics>) -> Statement {
    let pts = THETAS.map(|t| {
        (
            format!("ARS at theta {t} min"),
            map(
                runs.level(&at(Brokering::Ars, t), |m| m.cloud_share()),
                |p| p * 100.0,
            ),
        )
    });
    claim(
        id(Mode::Literal, "minutes.eq5-redirects"),
        "The adaptive brokering redirects requests to the Cloud, which lowers AWRT (Sec. VI-C, \
         Fig. 3), with Table I's durations read in minutes.",
        "the share of ARS's requests that Eq. 5 (E15's eta) sends to the cloud, in %",
        Margin::at_least(
            1.0,
            "%",
            Source::Practical("a redirection that shows: at least 1 % of the requests".into()),
        ),
    )
    .mode(Mode::Literal)
    .points(pts)
    .evidence(format!(
        "Requests left unfinished: NoR {} at theta 2.5, {} at 3.0; ARS {}, {} (of a run's \
         requests). At theta 3.4 in minutes the offered work exceeds both providers together: \
         Eq. 5 has no routing.",
        unfinished_at(runs, Brokering::Nor, THETAS[0]),
        unfinished_at(runs, Brokering::Nor, THETAS[1]),
        unfinished_at(runs, Brokering::Ars, THETAS[0]),
        unfinished_at(runs, Brokering::Ars, THETAS[1]),
    ))
    .done()
}

/// Table III's EB factors (AWRT and slowdown, ARS and ADS) with durations in minutes.
fn factors(runs: &Runs<Metrics>) -> Statement {
    let mut pts = Vec::new();
    for (ti, &t) in THETAS.iter().enumerate() {
        for (bi, b) in ADAPTIVE.into_iter().enumerate() {
            for (mi, m) in [&AWRT, &SLOWDOWN].into_iter().enumerate() {
                let v = at(b, t);
                let want = TABLE3_FACTORS[ti][EB][bi][mi];
                let (plain, lower) = censored(runs, &[v, v.nor()], m, |f| factor(runs, &v, f));
                let off = |i| map(i, |x| (x / want - 1.0) * 100.0);
                pts.push((
                    format!(
                        "{} {} theta {t} min: factor {} (paper {want})",
                        brokering_name(b),
                        m.name,
                        plain.map_or_else(|| "n/a".to_owned(), |i| i.show(2))
                    ),
                    off(plain),
                    off(lower),
                ));
            }
        }
    }
    let b = claim(
        id(Mode::Literal, "minutes.table3.eb-factors"),
        "Adaptive brokering improves AWRT and slowdown by Table III's factors under EASY \
         backfilling (4.10 and 9.44 for ARS at the medium duration), with Table I's durations \
         read in minutes.",
        "each of Table III's 8 EB improvement factors at theta 2.5 and 3.0 NoR / policy (AWRT and slowdown, ARS and \
         ADS with Eq. 5's routing, ratio of the means over paired replications), in % off the \
         paper's",
        near_margin("factors"),
    )
    .mode(Mode::Literal);
    with_points(b, pts).done()
}

/// What the cloud costs with durations in minutes, against Table III.
fn cost(runs: &Runs<Metrics>) -> Statement {
    let pts = cost_points(runs, THETAS.len(), " min", at);
    claim(
        id(Mode::Literal, "minutes.table3.cost-as-printed"),
        "The EC2 cost per month is 728 and 1194 USD (ARS; ADS alike) for short and medium \
         requests (Table III), with Table I's durations read in minutes.",
        "the mean monthly cost (Eq. 19) of ARS and ADS with Eq. 5's routing under EB, in % off \
         Table III's",
        near_margin("costs"),
    )
    .mode(Mode::Literal)
    .points(pts)
    .why(
        "Erratum E20: in minutes a request runs 60 times longer and Eq. 5 sends a large share \
         of them to the cloud, so the cloud bills far more VM-hours than Table III's costs \
         allow; no one reading fits Table I, Table III's costs and its factors together.",
    )
    .done()
}
