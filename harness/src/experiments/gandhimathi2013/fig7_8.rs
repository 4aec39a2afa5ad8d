//! Claim 1: Figs. 7-8 of gandhimathi2013 (the criteria and margins are in the parent module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::report::Section;

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

/// The figures and statements, from the runs of [`variants`].
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
        heading: "Claim 1 (Figs. 7-8): DCMMS before DCLS before FCFS; the feedback matters under \
                  contention"
            .into(),
        figures: vec![fig7, fig8],
        statements: judged(runs, statements),
        ..Default::default()
    }
}

/// Why a balancing FCFS can match the plans.
const LIGHT: &str = "where the clouds are lightly loaded it places tasks as well as the static \
                     plans do, and the feedback (alpha > 0) slows the plans (the statements on \
                     the feedback below).";
/// Why FCFS at home can match them.
const AT_HOME: &str = "where applications rarely overlap, staying at home costs it little, and \
                       the feedback (alpha > 0) slows the plans (the statements on the feedback \
                       below).";

/// Table 3 at gaps / 1 (the loose situation): the feedback's change at alpha 1, DMMS's, the
/// larger of the two the paper calls no significant impact, percent.
const INSIGNIFICANT_PCT: f64 = 8.32;

/// The statements under reading `r`.
fn statements(runs: &Runs<Metrics>, r: Reading) -> Vec<Statement> {
    let mode = r.mode;
    // `a`'s time over `b`'s (ratio of means) at every alpha, loose and tight.
    let ratios = |a: SchedulerKind, b: Option<SchedulerKind>| {
        let mut points = Vec::new();
        for (situation, divisor) in SITUATIONS {
            for &pct in &ALPHAS_PCT {
                let x = r.at(a, pct, divisor);
                let y = r.at(b.unwrap_or(SchedulerKind::Fcfs), pct, divisor);
                let (plain, censored) = timed(runs, &[x, y], |f| runs.ratio_of_means(&x, &y, f));
                points.push((format!("{situation} {}", alpha(pct)), plain, censored));
            }
        }
        points
    };
    let fcfs_why = why_fcfs(r, LIGHT, AT_HOME);
    let read = |ss: &[SchedulerKind], with_zero: bool| {
        let mut v = Vec::new();
        for (_, divisor) in SITUATIONS {
            for &s in ss {
                v.extend(
                    ALPHAS_PCT
                        .iter()
                        .filter(|&&a| with_zero || a > 0 || s == SchedulerKind::Fcfs)
                        .map(|&a| r.at(s, a, divisor)),
                );
            }
        }
        v
    };
    let beats = |slug: &str, text: &str, a, b: Option<SchedulerKind>, value: f64, words: &str| {
        let names = format!(
            "{}'s average application execution time over {}'s",
            scheduler_name(a),
            b.map_or("FCFS", scheduler_name)
        );
        let mut c = claim(
            id(mode, "fig7-8", slug),
            text,
            &format!("{names} (ratio of means, paired), at every alpha, loose and tight"),
            Margin::at_most(value, "x", Source::Paper(words.into())),
        )
        .mode(mode);
        for (label, plain, censored) in ratios(a, b) {
            c = c.point_censored(label, plain, censored);
        }
        let censoring = unfinished_text(runs, &read(&[a, b.unwrap_or(SchedulerKind::Fcfs)], true));
        match b {
            None => failing_for(c.evidence(censoring).why(&fcfs_why).done(), LIGHT_LOAD),
            Some(_) => failing_for(
                c.evidence(censoring).why(DCMMS_DCLS_WHY).done(),
                DCMMS_LIKE_DCLS,
            ),
        }
    };
    // The feedback: `s` at each alpha > 0 against alpha 0 at `divisor`.
    let feedback = |divisor: u32, as_pct: fn(Interval) -> Interval| {
        let mut points = Vec::new();
        for s in DYNAMIC {
            let zero = r.at(s, 0, divisor);
            for &pct in &ALPHAS_PCT[1..] {
                let x = r.at(s, pct, divisor);
                let (plain, censored) = timed(runs, &[x, zero], |f| {
                    runs.ratio_of_means(&x, &zero, f).map(as_pct)
                });
                points.push((
                    format!("{} {}", scheduler_name(s), alpha(pct)),
                    plain,
                    censored,
                ));
            }
        }
        points
    };
    let mut loose = claim(
        id(mode, "fig7", "feedback-insignificant-loose"),
        "In the loose situation the dynamic procedure does not impact the execution time \
         significantly (Fig. 7). DCLS and DCMMS only: the same runs in both modes.",
        "loose: the change of DCLS's and DCMMS's average execution time at each alpha > 0 from \
         alpha 0, 100 (T(alpha) / T(0) - 1) (ratio of means, paired)",
        Margin::within(
            INSIGNIFICANT_PCT,
            "%",
            Source::Paper(
                "Table 3 at gaps / 1, the loose situation: alpha 1 changes DLS by -6.63 % and \
                 DMMS by -8.32 %, which Fig. 7's text calls no significant impact"
                    .into(),
            ),
        ),
    )
    .mode(mode);
    for (label, plain, censored) in feedback(LOOSE, change_pct) {
        loose = loose.point_censored(label, plain, censored);
    }
    let mut tight = claim(
        id(mode, "fig8", "feedback-shortens-tight"),
        "The dynamic procedure works more significantly in the tight situation: it shortens the \
         execution time (Fig. 8). DCLS and DCMMS only: the same runs in both modes.",
        "tight: the saving of DCLS's and DCMMS's average execution time at each alpha > 0 over \
         alpha 0, 100 (1 - T(alpha) / T(0)) (ratio of means, paired)",
        Margin::at_least(
            INSIGNIFICANT_PCT,
            "%",
            Source::Paper(
                "significant: beyond the -8.32 % that Table 3 at gaps / 1 shows and the paper \
                 calls insignificant (Table 3 at gaps / 100, Fig. 8's alpha 0 and 1: 30.69 % \
                 and 40.23 %)"
                    .into(),
            ),
        ),
    )
    .mode(mode);
    for (label, plain, censored) in feedback(TIGHT, saving_pct) {
        tight = tight.point_censored(label, plain, censored);
    }
    vec![
        beats(
            "dcmms-beats-dcls",
            "DCMMS has the shorter average execution time; DCMMS still outperforms DCLS \
             (Figs. 7-8).",
            SchedulerKind::Dcmms,
            Some(SchedulerKind::Dcls),
            DCMMS_OVER_DCLS,
            DCMMS_OVER_DCLS_WORDS,
        ),
        beats(
            "dcmms-beats-fcfs",
            "DCMMS has the shorter average execution time; DCMMS still outperforms FCFS \
             (Figs. 7-8).",
            SchedulerKind::Dcmms,
            None,
            params::TABLE4[1][0],
            "Tables 4-5 (their 20 % column is Figs. 7-8 at alpha 0.8): DCMMS at most 0.77 of \
             FCFS's time, its smallest gain (Table 4 at 0 %)",
        ),
        beats(
            "dcls-beats-fcfs",
            "DCLS outperforms FCFS (Figs. 7-8).",
            SchedulerKind::Dcls,
            None,
            params::TABLE4[0][0],
            "Tables 4-5 (their 20 % column is Figs. 7-8 at alpha 0.8): DCLS at most 0.81 of \
             FCFS's time, its smallest gain (Table 4 at 0 %)",
        ),
        failing_for(
            loose
                .evidence(unfinished_text(runs, &read(&DYNAMIC, true)))
                .why(&why_feedback(runs, r, LOOSE))
                .done(),
            FEEDBACK_SHORTENS_NOTHING,
        ),
        failing_for(
            tight
                .evidence(unfinished_text(runs, &read(&DYNAMIC, true)))
                .why(&why_feedback(runs, r, TIGHT))
                .done(),
            FEEDBACK_SHORTENS_NOTHING,
        ),
    ]
}
