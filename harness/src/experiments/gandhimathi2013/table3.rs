//! Claim 2: Table 3 of seed 003 (the criteria are in the parent module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::report::stats::Estimate;
use crate::report::{Section, verdict};

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
/// 0))`, paired over replications.
fn improvement(
    runs: &Runs<Metrics>,
    r: Reading,
    s: SchedulerKind,
    divisor: u32,
) -> Option<Estimate> {
    saving(runs.ratio(&r.at(s, 100, divisor), &r.at(s, 0, divisor), hours))
}

/// The improvements of DCLS and DCMMS (rows) at every divisor under `r`.
fn improvements(runs: &Runs<Metrics>, r: Reading) -> Vec<Vec<Option<Estimate>>> {
    DYNAMIC
        .iter()
        .map(|&s| {
            DIVISORS
                .iter()
                .map(|&d| improvement(runs, r, s, d))
                .collect()
        })
        .collect()
}

/// The figures and verdicts, from the runs of [`variants`].
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let groups: Vec<String> = DIVISORS.iter().map(|d| d.to_string()).collect();
    let x_values = Some(DIVISORS.iter().map(|&d| f64::from(d)).collect());
    let columns = [
        ("DLS", SchedulerKind::Dcls, 0),
        ("FDLS (alpha 1)", SchedulerKind::Dcls, 100),
        ("DMMS", SchedulerKind::Dcmms, 0),
        ("FDMMS (alpha 1)", SchedulerKind::Dcmms, 100),
    ];
    let table3 = Figure {
        id: "table3",
        title: "Table 3: average application execution time without and with the feedback".into(),
        x_label: "arrival gaps divided by".into(),
        y_label: "average application execution time, h (paper: units not stated)".into(),
        groups: groups.clone(),
        x_values: x_values.clone(),
        series: columns.iter().map(|c| c.0.to_owned()).collect(),
        values: columns
            .iter()
            .map(|&(_, s, a)| {
                DIVISORS
                    .iter()
                    .map(|&d| runs.estimate(&Variant::new(s, a, d), hours))
                    .collect()
            })
            .collect(),
        paper: Some(
            (0..4)
                .map(|c| params::TABLE3.iter().map(|row| Some(row[c])).collect())
                .collect(),
        ),
        decimals: 2,
    };
    let gain = Figure {
        id: "table3-improvement",
        title: "Table 3: the feedback's improvement".into(),
        x_label: "arrival gaps divided by".into(),
        y_label: "improvement of alpha 1 over alpha 0, %".into(),
        groups,
        x_values,
        series: vec!["DLS -> FDLS".into(), "DMMS -> FDMMS".into()],
        values: improvements(runs, Reading::main(Mode::Literal)),
        paper: Some(
            (0..2)
                .map(|c| {
                    params::TABLE3_IMPROVEMENT
                        .iter()
                        .map(|row| Some(row[c]))
                        .collect()
                })
                .collect(),
        ),
        decimals: 1,
    };
    Section {
        heading: "Claim 2 (Table 3): the feedback's improvement grows with contention".into(),
        figures: vec![table3, gain],
        statements: judged(runs, statements, &[false, false]),
        ..Default::default()
    }
}

/// The two statements under reading `r`.
fn statements(runs: &Runs<Metrics>, r: Reading) -> Vec<Statement> {
    let improvements = improvements(runs, r);
    let (mut grow_bad, mut grow_ev, mut heavy_bad, mut heavy_ev) = (vec![], vec![], vec![], vec![]);
    for (s, imp) in DYNAMIC.iter().zip(&improvements) {
        let name = scheduler_name(*s);
        let means: Vec<f64> = imp.iter().map(|e| e.map_or(f64::NAN, |e| e.mean)).collect();
        if !increasing(&means) {
            grow_bad.push(name.to_owned());
        }
        grow_ev.push(format!(
            "{name}: {}",
            DIVISORS
                .iter()
                .zip(imp)
                .map(|(d, e)| format!("/{d} {} %", show(*e, 1)))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let last = imp.last().copied().flatten();
        // Improvement above 0 with its interval: alpha 1 below alpha 0 at divisor 100.
        if !last.is_some_and(|e| e.low() > 0.0 && e.half_width.is_some()) {
            heavy_bad.push(name.to_owned());
        }
        heavy_ev.push(format!("{name} at /100: {} %", show(last, 1)));
    }
    vec![
        verdict(
            "The improvement caused by the feedback procedure increases as the resource \
             contention becomes heavier (Table 3: -6.6 % to 30.7 % for DLS, -8.3 % to 40.2 % \
             for DMMS as the gaps shrink 1 to 100 times).",
            "For DLS and DMMS, the mean improvement 100 (1 - T(alpha 1) / T(alpha 0)) (paired \
             over replications) increases strictly from each divisor to the next (1, 20, 40, 60, \
             80, 100), as the printed table does.",
            &grow_bad,
            grow_ev.join("; "),
        )
        .because(&why_feedback(runs, r, TIGHT)),
        verdict(
            "Under heavy contention the feedback shortens the execution time (Table 3 at 100: \
             30.7 % and 40.2 %).",
            "At divisor 100, for DLS and DMMS, the improvement's 95 % interval lies above 0.",
            &heavy_bad,
            heavy_ev.join("; "),
        )
        .because(&why_feedback(runs, r, TIGHT)),
    ]
}
