//! Claim 3: Tables 4-5 of seed 003 (the criteria are in the parent module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::report::stats::Estimate;
use crate::report::{Section, verdict};

/// FCFS, DCLS and DCMMS (alpha 0.8) at every AR share, loose and tight, under every reading.
pub(super) fn variants() -> Vec<Variant> {
    let mut v = Vec::new();
    for (_, divisor) in SITUATIONS {
        for &ar in &AR_SHARES_PCT {
            v.extend(
                ALL.iter()
                    .map(|&s| Variant::new(s, params::ALPHA_TABLES_PCT, divisor).with_ar(ar)),
            );
        }
    }
    under_every_reading(&v)
}

/// `s`'s execution time over FCFS's at `divisor` and `ar` percent reservations under `r`
/// (paired).
fn ratio(
    runs: &Runs<Metrics>,
    r: Reading,
    s: SchedulerKind,
    divisor: u32,
    ar: u8,
) -> Option<Estimate> {
    let at = |s| r.at(s, params::ALPHA_TABLES_PCT, divisor).with_ar(ar);
    runs.ratio(&at(s), &at(SchedulerKind::Fcfs), hours)
}

/// Table 4 or 5 (`divisor`) in `mode`, beside the `paper`'s.
fn table(
    runs: &Runs<Metrics>,
    (id, title): (&'static str, &str),
    mode: Mode,
    divisor: u32,
    paper: &[[f64; 5]; 2],
) -> Figure {
    let r = Reading::main(mode);
    let fcfs = match mode {
        Mode::Literal => "FCFS (earliest start)",
        Mode::Calibrated => "FCFS (home cloud)",
    };
    Figure {
        id,
        title: format!("{title} ({} mode: {fcfs})", mode.name()),
        x_label: "applications that are advance reservations, %".into(),
        y_label: "average application execution time / FCFS's".into(),
        groups: AR_SHARES_PCT.iter().map(|a| format!("{a} %")).collect(),
        x_values: Some(AR_SHARES_PCT.iter().map(|&a| f64::from(a)).collect()),
        series: ALL.iter().map(|&s| scheduler_name(s).to_owned()).collect(),
        values: ALL
            .iter()
            .map(|&s| {
                AR_SHARES_PCT
                    .iter()
                    .map(|&a| ratio(runs, r, s, divisor, a))
                    .collect()
            })
            .collect(),
        paper: Some(vec![
            vec![Some(1.0); 5],
            paper[0].iter().map(|&x| Some(x)).collect(),
            paper[1].iter().map(|&x| Some(x)).collect(),
        ]),
        decimals: 3,
    }
}

/// The figures and verdicts, from the runs of [`variants`].
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let mut figures = Vec::new();
    for (mode, ids) in MODES.into_iter().zip([
        ["table4", "table5"],
        ["table4-calibrated", "table5-calibrated"],
    ]) {
        figures.push(table(
            runs,
            (
                ids[0],
                "Table 4: execution time over FCFS's by share of reservations, loose (alpha 0.8)",
            ),
            mode,
            LOOSE,
            &params::TABLE4,
        ));
        figures.push(table(
            runs,
            (
                ids[1],
                "Table 5: execution time over FCFS's by share of reservations, tight (alpha 0.8)",
            ),
            mode,
            TIGHT,
            &params::TABLE5,
        ));
    }
    Section {
        heading: "Claim 3 (Tables 4-5): more reservations, and contention, favour DCLS and \
                  DCMMS over FCFS"
            .into(),
        figures,
        statements: judged(runs, statements, &[true; 4]),
        ..Default::default()
    }
}

/// The four statements under reading `r`.
fn statements(runs: &Runs<Metrics>, r: Reading) -> Vec<Statement> {
    let mean = |s, d, a| ratio(runs, r, s, d, a).map_or(f64::NAN, |e| e.mean);
    let (mut beat_bad, mut beat_ev) = (vec![], vec![]);
    let (mut fall_bad, mut fall_ev) = (vec![], vec![]);
    let (mut tight_bad, mut tight_ev) = (vec![], vec![]);
    let (mut mms_bad, mut mms_ev) = (vec![], vec![]);
    for (situation, divisor) in SITUATIONS {
        for s in DYNAMIC {
            let name = scheduler_name(s);
            let row: Vec<Option<Estimate>> = AR_SHARES_PCT
                .iter()
                .map(|&a| ratio(runs, r, s, divisor, a))
                .collect();
            for (a, e) in AR_SHARES_PCT.iter().zip(&row) {
                if !e.is_some_and(|e| e.high() < 1.0 && e.half_width.is_some()) {
                    beat_bad.push(format!("{name} {situation} {a} %"));
                }
            }
            let shown = AR_SHARES_PCT
                .iter()
                .zip(&row)
                .map(|(a, e)| format!("{a} %: {}", show(*e, 3)))
                .collect::<Vec<_>>()
                .join(", ");
            beat_ev.push(format!("{name} {situation}: {shown}"));
            let means: Vec<f64> = row.iter().map(|e| e.map_or(f64::NAN, |e| e.mean)).collect();
            let reversed: Vec<f64> = means.iter().rev().copied().collect();
            if !increasing(&reversed) {
                fall_bad.push(format!("{name} {situation}"));
            }
            fall_ev.push(format!("{name} {situation}: {shown}"));
        }
    }
    for s in DYNAMIC {
        let name = scheduler_name(s);
        for &a in &AR_SHARES_PCT {
            let (l, t) = (mean(s, LOOSE, a), mean(s, TIGHT, a));
            if !increasing(&[t, l]) {
                tight_bad.push(format!("{name} {a} %"));
            }
            tight_ev.push(format!("{name} {a} %: tight {t:.3}, loose {l:.3}"));
        }
    }
    for (situation, divisor) in SITUATIONS {
        for &a in &AR_SHARES_PCT {
            let (ls, mms) = (
                mean(SchedulerKind::Dcls, divisor, a),
                mean(SchedulerKind::Dcmms, divisor, a),
            );
            if !at_most(mms, ls) {
                mms_bad.push(format!("{situation} {a} %"));
            }
            mms_ev.push(format!("{situation} {a} %: DCMMS {mms:.3}, DCLS {ls:.3}"));
        }
    }
    let reservations = "every scheduler starts a reservation at its asked instant (later \
                        tasks as soon as VMs allow, preempting best effort), so the more \
                        reservations, the less any scheduler decides and the closer the ratios \
                        come to 1; the paper's opposite trend needs an FCFS that serves \
                        reservations worse, which it does not describe.";
    vec![
        verdict(
            "DCLS and DCMMS shorten the average application execution time against FCFS at \
             every share of reservations, loose and tight (Tables 4-5: 0.27 to 0.81).",
            "For DCLS and DCMMS, loose and tight, at 0, 20, 50, 80 and 100 % reservations, \
             the 95 % interval of the paired ratio T / T(FCFS) lies below 1.",
            &beat_bad,
            beat_ev.join("; "),
        )
        .because(&why_fcfs(
            r,
            "where applications rarely overlap (loose: Sec. 4.1 says they mostly do not \
             contend) it places tasks as well as the plans, and the feedback at alpha 0.8 \
             slows DCLS and DCMMS (claim 1), so loose ratios come out at or above 1.",
            "loose, applications rarely overlap (Sec. 4.1), so staying at home costs it little, \
             and the feedback at alpha 0.8 slows DCLS and DCMMS (claim 1), so loose ratios \
             come out at or above 1.",
        )),
        verdict(
            "A higher percentage of AR applications leads to a better improvement of DCLS \
             and DCMMS against FCFS (Tables 4-5).",
            "For DCLS and DCMMS, loose and tight, the mean ratio T / T(FCFS) falls strictly \
             from each share of reservations to the next (0, 20, 50, 80, 100 %), as the \
             printed tables do.",
            &fall_bad,
            fall_ev.join("; "),
        )
        .because(&why_fcfs(r, reservations, reservations)),
        verdict(
            "The improvement is larger in the tight situation (Table 5 below Table 4 in \
             every cell).",
            "For DCLS and DCMMS at every share of reservations, the mean ratio is lower \
             tight than loose.",
            &tight_bad,
            tight_ev.join("; "),
        ),
        verdict(
            "DCMMS does better than DCLS (Tables 4-5: DCMMS's row below DCLS's).",
            "Loose and tight, at every share of reservations, DCMMS's mean ratio is at most \
             DCLS's.",
            &mms_bad,
            mms_ev.join("; "),
        )
        .because(
            "DCMMS and DCLS place an application's tasks in different orders (min-min, CNPT) \
             over the same profiles; with reservations their ratios fall within each other's \
             spread, where the paper has DCMMS 0.04-0.19 below.",
        ),
    ]
}
