//! Claim 2: Table 3 of gandhimathi2013 (the criteria and margins are in the parent module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::report::Section;
use crate::report::stats::Estimate;

/// DCLS and DCMMS, alpha 0 (DLS, DMMS) and 1 (FDLS, FDMMS), at every divisor of Table 3, in
/// either queue order (the mode does not touch them).
pub(super) fn variants() -> Vec<Variant> {
    let mut v = Vec::new();
    for &divisor in &DIVISORS {
        for s in DYNAMIC {
            v.push(Variant::new(s, 0, divisor));
            v.push(Variant::new(s, 100, divisor));
        }
    }
    under_every_reading(&v)
}

/// The feedback's improvement for `s` at `divisor` under `r`: `100 (1 - T(alpha 1) / T(alpha
/// 0))`, the ratio of the means over paired replications (delta method), with `f` the time.
fn improvement(
    runs: &Runs<Metrics>,
    r: Reading,
    s: SchedulerKind,
    divisor: u32,
    f: Metric,
) -> Option<Interval> {
    runs.ratio_of_means(&r.at(s, 100, divisor), &r.at(s, 0, divisor), f)
        .map(saving_pct)
}

/// The improvements of DCLS and DCMMS (rows) at every divisor under `r`, for the figure.
fn improvements(runs: &Runs<Metrics>, r: Reading) -> Vec<Vec<Option<Estimate>>> {
    DYNAMIC
        .iter()
        .map(|&s| {
            DIVISORS
                .iter()
                .map(|&d| estimate(improvement(runs, r, s, d, hours)))
                .collect()
        })
        .collect()
}

/// The figures and statements, from the runs of [`variants`].
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let divisors = DIVISORS.map(f64::from);
    let columns = [
        ("DLS", SchedulerKind::Dcls, 0),
        ("FDLS (alpha 1)", SchedulerKind::Dcls, 100),
        ("DMMS", SchedulerKind::Dcmms, 0),
        ("FDMMS (alpha 1)", SchedulerKind::Dcmms, 100),
    ];
    let table3 = Figure::lines(
        "table3",
        "Table 3: average application execution time without and with the feedback",
    )
    .x("arrival gaps divided by", divisors, Ticks::Plain)
    .y("average application execution time, h (paper: units not stated)")
    .all_series(columns.map(|(name, s, a)| {
        (
            name,
            DIVISORS.map(|d| runs.estimate(&Variant::new(s, a, d), hours)),
        )
    }))
    .paper(
        (0..4)
            .map(|c| params::TABLE3.iter().map(|row| Some(row[c])).collect())
            .collect(),
    )
    .decimals(2);
    let gain = Figure::lines("table3-improvement", "Table 3: the feedback's improvement")
        .x("arrival gaps divided by", divisors, Ticks::Plain)
        .y("improvement of alpha 1 over alpha 0, %")
        .all_series(
            ["DLS -> FDLS", "DMMS -> FDMMS"]
                .into_iter()
                .zip(improvements(runs, Reading::main(Mode::Literal))),
        )
        .paper(
            (0..2)
                .map(|c| {
                    params::TABLE3_IMPROVEMENT
                        .iter()
                        .map(|row| Some(row[c]))
                        .collect()
                })
                .collect(),
        );
    Section {
        heading: "Claim 2 (Table 3): the feedback's improvement grows with contention".into(),
        figures: vec![table3, gain],
        statements: judged(runs, statements),
        ..Default::default()
    }
}

/// Table 3's smallest step of the improvement from one divisor to the next, points (DLS, /20
/// to /40: 7.37 to 10.90 %).
const SMALLEST_STEP: f64 = 3.5;
/// Table 3 at / 100: the smaller improvement, DLS's, percent.
const HEAVY_PCT: f64 = 30.69;

/// The statements under reading `r`.
fn statements(runs: &Runs<Metrics>, r: Reading) -> Vec<Statement> {
    let mode = r.mode;
    let mut read = Vec::new();
    for s in DYNAMIC {
        for &d in &DIVISORS {
            read.extend([r.at(s, 0, d), r.at(s, 100, d)]);
        }
    }
    let censoring = unfinished_text(runs, &read);
    let mut grows = claim(
        id(mode, "table3", "improvement-grows"),
        "The improvement caused by the feedback procedure increases as the resource contention \
         becomes heavier (Table 3: -6.6 % to 30.7 % for DLS, -8.3 % to 40.2 % for DMMS as the \
         gaps shrink 1 to 100 times). DCLS and DCMMS only: the same runs in both modes.",
        "for DLS and DMMS, the improvement 100 (1 - T(alpha 1) / T(alpha 0)) at each divisor \
         of the arrival gaps minus at the divisor before (1, 20, 40, 60, 80, 100), points \
         (ratios of means, delta method)",
        Margin::at_least(
            SMALLEST_STEP,
            "points",
            Source::Paper(
                "Table 3 rises at every step, by 3.5 points at least (DLS, / 20 to / 40: 7.37 \
                 to 10.90 %)"
                    .into(),
            ),
        ),
    )
    .mode(mode);
    for s in DYNAMIC {
        for w in DIVISORS.windows(2) {
            let vs = [
                r.at(s, 100, w[1]),
                r.at(s, 0, w[1]),
                r.at(s, 100, w[0]),
                r.at(s, 0, w[0]),
            ];
            // 100 (1 - m0 / m1) - 100 (1 - m2 / m3).
            let step = |f| of_means(runs, &vs, f, |m| 100.0 * (m[2] / m[3] - m[0] / m[1]));
            let (plain, censored) = timed(runs, &vs, step);
            grows = grows.point_censored(
                format!("{} / {} - / {}", scheduler_name(s), w[1], w[0]),
                plain,
                censored,
            );
        }
    }
    let mut heavy = claim(
        id(mode, "table3", "feedback-improves-heavy-contention"),
        "Under heavy contention the feedback shortens the execution time (Table 3 at 100: 30.7 % \
         and 40.2 %). DCLS and DCMMS only: the same runs in both modes.",
        "the improvement 100 (1 - T(alpha 1) / T(alpha 0)) of DLS and DMMS at arrival gaps / \
         100, % (ratio of means, delta method)",
        Margin::at_least(
            HEAVY_PCT,
            "%",
            Source::Paper("Table 3 at / 100: 30.69 % (DLS) and 40.23 % (DMMS)".into()),
        ),
    )
    .mode(mode);
    for s in DYNAMIC {
        let vs = [r.at(s, 100, TIGHT), r.at(s, 0, TIGHT)];
        let (plain, censored) = timed(runs, &vs, |f| improvement(runs, r, s, TIGHT, f));
        heavy = heavy.point_censored(format!("{} / {TIGHT}", scheduler_name(s)), plain, censored);
    }
    let why = why_feedback(runs, r, TIGHT);
    vec![
        failing_for(
            grows.evidence(censoring.clone()).why(&why).done(),
            FEEDBACK_SHORTENS_NOTHING,
        ),
        failing_for(
            heavy.evidence(censoring).why(&why).done(),
            FEEDBACK_SHORTENS_NOTHING,
        ),
    ]
}
