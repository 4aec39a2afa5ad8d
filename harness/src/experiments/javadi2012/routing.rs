//! The routing claim: what Eq. 5 gives at the paper's parameters (literal mode), beside the
//! cloud shares Table III's costs imply (calibrated mode) (errata E15, E16).

use super::measure::*;
use super::params::calibrated_share;
use super::params::{BETA_MODERATE, BETAS, LOAD_SCALES, TABLE3_THETAS, THETA_MEDIUM, THETAS};
use crate::experiments::Runs;
use crate::experiments::Simulation;
use crate::models::hybrid::scenario::Routed;
use crate::report::Section;
use crate::report::stats::Estimate;
use qosgate_kernel::broker;

/// "Part of the requests": at least this share of them.
pub(super) const SOME_SHARE: f64 = 0.01;

/// The literal points: ARS with Eq. 5 under EB at every beta, every theta and every load scale.
fn points() -> Vec<(String, Variant)> {
    let at = |beta, theta, scale| Variant {
        load_scale: scale,
        ..Variant::new(Brokering::Ars, Route::Eq5, PolicyName::Easy, beta, theta)
    };
    let mut out: Vec<(String, Variant)> = BETAS
        .iter()
        .map(|&b| (format!("beta {b}"), at(b, THETA_MEDIUM, 1.0)))
        .collect();
    out.extend(
        THETAS
            .iter()
            .map(|&t| (format!("theta {t}"), at(BETA_MODERATE, t, 1.0))),
    );
    out.extend(
        LOAD_SCALES[1..]
            .iter()
            .map(|&x| (format!("{x}x the rate"), at(BETA_MODERATE, THETA_MEDIUM, x))),
    );
    out
}

/// The literal ARS runs whose routing is measured.
pub(super) fn variants() -> Vec<Variant> {
    points().into_iter().map(|(_, v)| v).collect()
}

/// Eq. 5's `P_c` before providers with a share `<= 0` are dropped, with E15's `eta` or the
/// printed Eq. 6 (`eta_i = lambda (lambda^2 sigma_I^2 + lambda^2 + C_Si^2 - lambda mu_i)`);
/// `None` where an `eta` is not positive (Eq. 5 then has no real value).
pub(super) fn unconstrained(r: &Routed, costs: [f64; 2], printed: bool) -> Option<f64> {
    let (l, v) = (r.arrival_rate, r.arrival_variance);
    let services = [r.local, r.cloud];
    let eta = |i: usize| {
        let s = services[i];
        if printed {
            Some(l * (l * l * v + l * l + s.cs2 - l * s.mu))
        } else {
            broker::eta(l, v, &s.with_cost(costs[i])).ok()
        }
    };
    let w: Vec<f64> = (0..2)
        .map(|i| eta(i).filter(|e| *e > 0.0).map(|e| (costs[i] * e).sqrt()))
        .collect::<Option<Vec<f64>>>()?;
    let total_mu = r.local.mu + r.cloud.mu;
    Some(r.cloud.mu / l - (total_mu - l) / l * w[1] / (w[0] + w[1]))
}

fn one(x: Option<f64>) -> Option<Estimate> {
    x.and_then(|x| Estimate::of(&[x]))
}

/// The figure and the claim (the routing's inputs come from the scenarios, the routing used
/// from the literal runs).
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let pts = points();
    let routed: Vec<Option<Routed>> = pts
        .iter()
        .map(|(_, v)| v.scenario().ok().and_then(|s| s.routing().ok()))
        .collect();
    let costs = [super::params::LOCAL_COST, super::params::CLOUD_COST];
    let share = |v: &Variant| {
        TABLE3_THETAS
            .contains(&v.theta)
            .then(|| calibrated_share(v.theta).ok())
            .flatten()
    };
    let measured = |m: &Metrics| m.cloud_share();
    let series: Vec<(&str, Vec<Option<Estimate>>)> = vec![
        (
            "P_c of Eq. 5 (E15's eta)",
            routed.iter().map(|r| one(r.map(|r| r.p[1]))).collect(),
        ),
        (
            "before dropping (E15's eta)",
            routed
                .iter()
                .map(|r| one(r.and_then(|r| unconstrained(&r, costs, false))))
                .collect(),
        ),
        (
            "before dropping (printed eta)",
            routed
                .iter()
                .map(|r| one(r.and_then(|r| unconstrained(&r, costs, true))))
                .collect(),
        ),
        (
            "cloud share of the literal runs",
            pts.iter()
                .map(|(_, v)| runs.estimate(v, measured))
                .collect(),
        ),
        (
            "share of Table III's cost",
            pts.iter().map(|(_, v)| one(share(v))).collect(),
        ),
    ];
    let fig = Figure::bars(
        "routing",
        "Eq. 5's routing at the paper's parameters (ARS, EB), beside Table III's shares",
    )
    .groups(
        "operating point (theta 3.0 and beta 0.25 unless named)",
        pts.iter().map(|(g, _)| g.as_str()),
    )
    .y("P_c, the share of requests sent to the cloud")
    .all_series(series)
    .decimals(3);
    let sent: Vec<String> = pts
        .iter()
        .filter(|(_, v)| runs.level(v, measured).is_some_and(|i| i.estimate > 0.0))
        .map(|(g, _)| g.clone())
        .collect();
    let moderate = pts
        .iter()
        .position(|(g, _)| g == "theta 3")
        .and_then(|i| routed[i]);
    let inputs = moderate.map_or_else(
        || "Eq. 5's inputs: n/a.".to_owned(),
        |r| {
            format!(
                "At beta 0.25, theta 3.0: lambda {:.3e} /s, sigma_I^2 {:.3e} s^2, W {:.0} MI, \
                 mu_s {:.4e} /s (C_Ss^2 {:.2e}), mu_c {:.4e} /s (C_Sc^2 1), K_s 1, K_c 5; Eq. 5 \
                 before dropping gives P_c = {} (E15's eta) and {} (printed eta), so the cloud \
                 drops out: P = ({}, {}).",
                r.arrival_rate,
                r.arrival_variance,
                r.work_mi,
                r.local.mu,
                r.local.cs2,
                r.cloud.mu,
                num(unconstrained(&r, costs, false), 3),
                num(unconstrained(&r, costs, true), 3),
                r.p[0],
                r.p[1]
            )
        },
    );
    let implied: Vec<String> = TABLE3_THETAS
        .iter()
        .map(|&t| num(calibrated_share(t).ok(), 3))
        .collect();
    let statement = claim(
        id(Mode::Literal, "routing.eq5-redirects"),
        "Eq. 5 redirects part of the requests to the cloud at the paper's parameters (Sec. V-VI: \
         ARS and ADS differ from NoR only if it does).",
        "the share of the measured requests the literal ARS runs (Eq. 5 with E15's eta, EB) send \
         to the cloud, at every beta, theta and load scale of the sweeps",
        Margin::at_least(
            SOME_SHARE,
            "of the requests",
            Source::Practical(format!(
                "\"part of the requests\": at least {:.0} % of them (Table III's costs imply 18-36 \
                 %)",
                SOME_SHARE * 100.0
            )),
        ),
    )
    .mode(Mode::Literal)
    .points(
        pts.iter()
            .map(|(g, v)| (g.clone(), runs.level(v, measured))),
    )
    .cause(EQ5_NO_CLOUD)
    .evidence(format!(
        "{inputs} Runs sending requests to the cloud: {}. Table III's costs imply shares of {} at \
         theta 2.5 / 3.0 / 3.4 (the calibrated mode).",
        if sent.is_empty() {
            "none".to_owned()
        } else {
            sent.join(", ")
        },
        implied.join(" / ")
    ))
    .why(
        "Erratum E16: at 0.3-9 % load the local cluster's service rate (Eq. 12) is far above \
         the arrival rate, and the cloud costs 5 times more, so Eq. 5 gives P_c < 0 and the cloud \
         drops out (E15), with the printed eta too.",
    )
    .done();
    Section {
        heading: "Routing (Eq. 5, errata E15, E16): literal against calibrated".into(),
        figures: vec![fig],
        statements: vec![statement],
        ..Default::default()
    }
}
