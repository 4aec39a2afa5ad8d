//! Claim 4: Figs. 10-11 of seed 004 Sec. 6.4 (the criteria are in the parent module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::models::grid::metrics::Metrics;
use crate::report::{Section, verdict};

/// Figs. 10-11: Table 7's workloads x the seven knowledge methods.
pub(super) fn variants() -> Vec<Variant> {
    TABLE7
        .iter()
        .flat_map(|&w| METHODS.iter().map(move |&(k, _)| fig10_point(w, k)))
        .collect()
}

/// The figures and verdicts, from the runs of [`variants`].
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let figure = |id, title: &str, y: &str, f: fn(&Metrics) -> Option<f64>| Figure {
        id,
        title: title.into(),
        x_label: "GS workload scenario (Table 7)".into(),
        y_label: y.into(),
        groups: TABLE7
            .iter()
            .map(|&w| workload_name(w).to_owned())
            .collect(),
        series: METHODS.iter().map(|(_, n)| (*n).to_owned()).collect(),
        values: METHODS
            .iter()
            .map(|&(k, _)| {
                TABLE7
                    .iter()
                    .map(|&w| runs.estimate(&fig10_point(w, k), f))
                    .collect()
            })
            .collect(),
        paper: None,
        decimals: 1,
    };
    let fig10 = figure(
        "fig10",
        "Fig. 10: GS tasks missing their deadline, GBP, U4 at 1093 s/t",
        "missed deadlines, % of the GS users' tasks",
        gs_missed,
    );
    let fig11 = figure(
        "fig11",
        "Fig. 11: GS tasks handled as BE, GBP, U4 at 1093 s/t",
        "handled as BE, % of the GS users' tasks",
        gs_as_be,
    );

    // Per workload scenario: (failures, evidence) of each statement.
    let mut checks: [(Vec<String>, Vec<String>); 5] = Default::default();
    let name_of = |k: Knowledge| {
        METHODS
            .iter()
            .find(|(m, _)| *m == k)
            .map_or("?", |(_, n)| *n)
    };
    let windows = [5u16, 10, 20].map(Knowledge::Window);
    for &w in &TABLE7 {
        let miss = |k| runs.mean(&fig10_point(w, k), gs_missed);
        let as_be = |k| runs.mean(&fig10_point(w, k), gs_as_be);
        let wl = workload_name(w);
        let exact = miss(Knowledge::Exact);

        let fewer: Vec<&str> = METHODS
            .iter()
            .filter(|&&(k, _)| !le(exact, miss(k)))
            .map(|(_, n)| *n)
            .collect();
        if !fewer.is_empty() {
            checks[0]
                .0
                .push(format!("{wl}: {} miss less", fewer.join(", ")));
        }
        checks[0].1.push(format!(
            "{wl}: {}",
            METHODS
                .iter()
                .map(|&(k, n)| format!("{n} {}", V(miss(k), 1)))
                .collect::<Vec<_>>()
                .join(", ")
        ));

        for k in [Knowledge::Conservative, Knowledge::Aggressive] {
            if !le(as_be(k).abs(), 0.0) {
                checks[1]
                    .0
                    .push(format!("{wl}: {} {} %", name_of(k), V(as_be(k), 1)));
            }
        }
        checks[1].1.push(format!(
            "{wl}: Conservative {}, Full aggressive {}",
            V(as_be(Knowledge::Conservative), 1),
            V(as_be(Knowledge::Aggressive), 1)
        ));

        let fb = miss(Knowledge::ConservativeFeedback);
        let worse = miss(Knowledge::Conservative).min(miss(Knowledge::Aggressive));
        if !(le(exact, fb) && le(fb, worse)) {
            checks[2].0.push(wl.to_owned());
        }
        checks[2].1.push(format!(
            "{wl}: Exact {}, feedback {}, min(Conservative, Full aggressive) {}",
            V(exact, 1),
            V(fb, 1),
            V(worse, 1)
        ));

        for k in windows {
            if !le(miss(k), exact + 1.0) {
                checks[3].0.push(format!("{wl}: {}", name_of(k)));
            }
        }
        checks[3].1.push(format!(
            "{wl}: Exact {}, {}",
            V(exact, 1),
            windows
                .iter()
                .map(|&k| format!("{} {}", name_of(k), V(miss(k), 1)))
                .collect::<Vec<_>>()
                .join(", ")
        ));

        let handed = windows.map(as_be);
        let exact_be = as_be(Knowledge::Exact);
        if !(lt(exact_be, handed[0]) && lt(handed[0], handed[1]) && lt(handed[1], handed[2])) {
            checks[4].0.push(wl.to_owned());
        }
        checks[4].1.push(format!(
            "{wl}: Exact {}, windows 5/10/20 {} / {} / {}",
            V(exact_be, 1),
            V(handed[0], 1),
            V(handed[1], 1),
            V(handed[2], 1)
        ));
    }
    let statements = [
        (
            "Exact has the fewest misses (Fig. 10).",
            "For each of S0, S-10, S-30, Exact's GS miss % is no larger than any other method's.",
            "GS miss %",
        ),
        (
            "Conservative and Full aggressive never hand GS tasks to BE (Fig. 11).",
            "For each workload scenario, both hand 0 % of the GS users' tasks to BE.",
            "Handed to BE, %",
        ),
        (
            "Conservative with feedback lies between (Fig. 10).",
            "For each workload scenario, Exact <= feedback <= min(Conservative, Full aggressive) \
             in GS miss %.",
            "GS miss %",
        ),
        (
            "n-window (5, 10, 20) detects violations like Exact (Fig. 10).",
            "For each workload scenario, each window's GS miss % is at most 1 point above Exact's.",
            "GS miss %",
        ),
        (
            "n-window hands more tasks to BE than Exact, and more as n grows (Fig. 11).",
            "For each workload scenario, the % handed to BE rises strictly from Exact to window 5, \
             10 and 20.",
            "Handed to BE, %",
        ),
    ];
    Section {
        heading: "Claim 4 (Figs. 10-11): scheduling without a-priori workloads".into(),
        figures: vec![fig10, fig11],
        verdicts: statements
            .iter()
            .zip(checks)
            .map(|(&(claim, criterion, what), (bad, ev))| {
                verdict(
                    claim,
                    criterion,
                    &bad,
                    format!("{what}: {}.", ev.join("; ")),
                )
            })
            .collect(),
    }
}
