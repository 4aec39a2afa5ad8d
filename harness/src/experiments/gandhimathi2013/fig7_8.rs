//! Claim 1: Figs. 7-8 of seed 003 (the criteria are in the parent module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::report::{Section, verdict};

/// FCFS, and DCLS and DCMMS at every alpha, loose and tight (20 % reservations), under every
/// reading.
pub(super) fn variants() -> Vec<Variant> {
    let mut v = Vec::new();
    for (_, divisor) in SITUATIONS {
        v.push(Variant::new(SchedulerKind::Fcfs, 0, divisor));
        for s in DYNAMIC {
            v.extend(ALPHAS_PCT.iter().map(|&a| Variant::new(s, a, divisor)));
        }
    }
    under_every_reading(&v)
}

/// The figures and verdicts, from the runs of [`variants`].
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let fig7 = over_alpha(
        runs,
        "fig7",
        "Fig. 7: average application execution time, loose situation",
        LOOSE,
    );
    let fig8 = over_alpha(
        runs,
        "fig8",
        "Fig. 8: average application execution time, tight situation",
        TIGHT,
    );
    Section {
        heading: "Claim 1 (Figs. 7-8): DCMMS <= DCLS <= FCFS; the feedback matters under \
                  contention"
            .into(),
        figures: vec![fig7, fig8],
        statements: judged(runs, statements, &[true, true, false, false]),
        ..Default::default()
    }
}

/// Why a balancing FCFS can match the plans.
const LIGHT_LOAD: &str = "where the clouds are lightly loaded it places tasks as well as the \
                          static plans do, and the feedback (alpha > 0) slows the plans (the \
                          statements on the feedback below).";
/// Why FCFS at home can match them.
const AT_HOME: &str = "where applications rarely overlap, staying at home costs it little, and \
                       the feedback (alpha > 0) slows the plans (the statements on the feedback \
                       below).";

/// The four statements under reading `r`.
fn statements(runs: &Runs<Metrics>, r: Reading) -> Vec<Statement> {
    let diff = |a: Variant, b: Variant| runs.difference(&a, &b, hours);
    let (mut mms_bad, mut ls_bad, mut mms_ev, mut ls_ev) = (vec![], vec![], vec![], vec![]);
    let (mut loose_bad, mut loose_ev, mut tight_bad, mut tight_ev) =
        (vec![], vec![], vec![], vec![]);
    for (situation, divisor) in SITUATIONS {
        let fcfs = r.at(SchedulerKind::Fcfs, 0, divisor);
        for &a in &ALPHAS_PCT {
            let at = |s| r.at(s, a, divisor);
            let (ls, mms) = (at(SchedulerKind::Dcls), at(SchedulerKind::Dcmms));
            let point = format!("{situation} alpha {:.1}", f64::from(a) / 100.0);
            let (m_l, m_f) = (diff(mms, ls), diff(mms, fcfs));
            if !(not_above(m_l) && not_above(m_f)) {
                mms_bad.push(point.clone());
            }
            mms_ev.push(format!(
                "{point}: DCMMS - DCLS {} h, DCMMS - FCFS {} h",
                show(m_l, 2),
                show(m_f, 2)
            ));
            let l_f = diff(ls, fcfs);
            if !not_above(l_f) {
                ls_bad.push(point.clone());
            }
            ls_ev.push(format!("{point}: DCLS - FCFS {} h", show(l_f, 2)));
        }
        for s in DYNAMIC {
            let zero = r.at(s, 0, divisor);
            let name = scheduler_name(s);
            let changes: Vec<_> = ALPHAS_PCT[1..]
                .iter()
                .map(|&a| (a, diff(r.at(s, a, divisor), zero)))
                .collect();
            let text = changes
                .iter()
                .map(|(a, d)| format!("{:.1}: {}", f64::from(*a) / 100.0, show(*d, 2)))
                .collect::<Vec<_>>()
                .join(", ");
            if divisor == LOOSE {
                for (a, d) in &changes {
                    if !around_zero(*d) {
                        loose_bad.push(format!("{name} alpha {:.1}", f64::from(*a) / 100.0));
                    }
                }
                loose_ev.push(format!("{name}, loose, alpha - alpha 0: {text} h"));
            } else {
                if !changes.iter().any(|(_, d)| below(*d)) {
                    tight_bad.push(format!("{name}: no alpha improves on 0"));
                }
                tight_ev.push(format!("{name}, tight, alpha - alpha 0: {text} h"));
            }
        }
    }
    vec![
        verdict(
            "DCMMS has the shorter average execution time, in the loose and the tight situation \
             (Figs. 7-8: \"DCMMS still outperforms DCLS and FCFS\").",
            "At every alpha (0, 0.2, ..., 1), loose and tight, the 95 % interval of the paired \
             difference of the mean application execution time DCMMS - DCLS, and DCMMS - FCFS, \
             reaches 0 or below (DCMMS is not above either).",
            &mms_bad,
            mms_ev.join("; "),
        )
        .because(&why_fcfs(r, LIGHT_LOAD, AT_HOME)),
        verdict(
            "DCLS outperforms FCFS (Figs. 7-8).",
            "At every alpha, loose and tight, the interval of the paired difference DCLS - FCFS \
             reaches 0 or below.",
            &ls_bad,
            ls_ev.join("; "),
        )
        .because(&why_fcfs(r, LIGHT_LOAD, AT_HOME)),
        verdict(
            "In the loose situation the dynamic procedure does not impact the execution time \
             significantly (Fig. 7).",
            "Loose: for DCLS and DCMMS at every alpha > 0, the interval of the paired difference \
             against alpha = 0 contains 0.",
            &loose_bad,
            loose_ev.join("; "),
        )
        .because(&why_feedback(runs, r, LOOSE)),
        verdict(
            "The dynamic procedure works more significantly in the tight situation: it shortens \
             the execution time (Fig. 8).",
            "Tight: for DCLS and for DCMMS, some alpha > 0 has a paired difference against alpha \
             = 0 whose interval lies below 0.",
            &tight_bad,
            tight_ev.join("; "),
        )
        .because(&why_feedback(runs, r, TIGHT)),
    ]
}
