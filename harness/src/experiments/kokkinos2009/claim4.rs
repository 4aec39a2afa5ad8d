//! Claim 4: Figs. 10-11 of kokkinos2009 Sec. 6.4 (the criteria are in the parent module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::models::grid::metrics::Metrics;
use crate::report::Section;

/// How many points a window's miss % may exceed Exact's and still "detect like Exact".
const WINDOW_SLACK: f64 = 1.0;
/// Percentages this close, points, rank alike.
const CLOSE: f64 = 1.0;
/// "Never" hands tasks to BE: at most this %.
const NEVER: f64 = 0.1;

/// The series of Figs. 10-11 beside the seven methods: Exact with Eq. 4 applied to the draws.
const EQ4_SERIES: &str = "Exact, Eq. 4";

/// The other reading of Exact: a task above `I_max` (the exponential's mean) is refused by Eq. 4
/// and handled as best effort.
fn eq4_point(w: Workload) -> Variant {
    fig10_point_with(w, Knowledge::Exact, Oversize::BestEffort)
}

/// Figs. 10-11: Table 7's workloads x the seven knowledge methods, and Exact under Eq. 4.
pub(super) fn variants() -> Vec<Variant> {
    TABLE7
        .iter()
        .flat_map(|&w| {
            METHODS
                .iter()
                .map(move |&(k, _)| fig10_point(w, k))
                .chain([eq4_point(w)])
        })
        .collect()
}

/// The figures and statements, from the runs of [`variants`].
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let figure = |id, title: &str, y: &str, f: fn(&Metrics) -> Option<f64>| {
        let series = METHODS
            .iter()
            .map(|&(k, n)| (n, TABLE7.map(|w| fig10_point(w, k))))
            .chain([(EQ4_SERIES, TABLE7.map(eq4_point))])
            .map(|(n, points)| (n, points.map(|p| runs.estimate(&p, f))));
        Figure::bars(id, title)
            .groups("GS workload scenario (Table 7)", TABLE7.map(workload_name))
            .y(y)
            .all_series(series)
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

    let judged = statements(runs, |w| fig10_point(w, Knowledge::Exact));
    let other = statements(runs, eq4_point);
    Section {
        heading: "Claim 4 (Figs. 10-11): scheduling without a-priori workloads".into(),
        figures: vec![fig10, fig11],
        statements: judged
            .into_iter()
            .zip(other)
            .enumerate()
            .map(|(i, (s, eq4))| {
                // Statement (b) does not involve Exact: the other reading changes nothing.
                if i == 1 {
                    return s;
                }
                let note = format!(
                    "with Eq. 4 applied to the draws (Exact refuses a task above I_max, the \
                     exponential's mean: the '{EQ4_SERIES}' series) the claim is {}.",
                    eq4.outcome
                );
                Statement {
                    other_reading: Some(note),
                    ..s
                }
            })
            .collect(),
        ..Default::default()
    }
}

/// The five claims of Figs. 10-11, with `exact` giving Exact's variant per workload. Every
/// comparison is paired: the methods see the same workloads in replication `k`.
fn statements(runs: &Runs<Metrics>, exact: fn(Workload) -> Variant) -> Vec<Statement> {
    let p = |w, k| {
        if k == Knowledge::Exact {
            exact(w)
        } else {
            fig10_point(w, k)
        }
    };
    let name_of = |k: Knowledge| {
        METHODS
            .iter()
            .find(|(m, _)| *m == k)
            .map_or("?", |(_, n)| *n)
    };
    // f(a) - f(b) at every workload scenario, for every (a, b) of `pairs`.
    let diffs = |pairs: &[(Knowledge, Knowledge)], f: fn(&Metrics) -> Option<f64>| {
        TABLE7
            .iter()
            .flat_map(|&w| {
                pairs.iter().map(move |&(a, b)| {
                    let label = format!("{}: {} - {}", workload_name(w), name_of(a), name_of(b));
                    (label, runs.diff(&p(w, a), &p(w, b), f))
                })
            })
            .collect::<Vec<_>>()
    };
    let points = |f: fn(Knowledge) -> (Knowledge, Knowledge), ks: &[Knowledge]| {
        ks.iter().map(|&k| f(k)).collect::<Vec<_>>()
    };
    let exact_k = Knowledge::Exact;
    let others = [
        Knowledge::Conservative,
        Knowledge::ConservativeFeedback,
        Knowledge::Aggressive,
    ];
    let windows = [5u16, 10, 20].map(Knowledge::Window);
    let point = |slack: f64| {
        Source::Practical(format!(
            "miss or hand-off percentages within {slack} point rank alike"
        ))
    };
    let fewest = claim(
        "kokkinos2009.fig10.exact-fewest-misses",
        "Exact has the fewest misses (Fig. 10).",
        "the GS users' combined miss % under Exact minus under Conservative, Conservative with \
         feedback and Full aggressive (the windows are compared apart: Eq. 9 gives them longer \
         deadlines), per workload scenario",
        Margin::at_most(CLOSE, "points", point(CLOSE)),
    )
    .points(diffs(
        &points(|k| (Knowledge::Exact, k), &others),
        gs_missed,
    ))
    .done();
    let never = claim(
        "kokkinos2009.fig11.conservative-aggressive-no-be",
        "Conservative and Full aggressive never hand GS tasks to BE (Fig. 11).",
        "the % of the GS users' tasks Conservative and Full aggressive hand to BE, per workload \
         scenario",
        Margin::at_most(
            NEVER,
            "%",
            Source::Practical(format!("\"never\": at most {NEVER} % of the tasks")),
        ),
    )
    .points(TABLE7.iter().flat_map(|&w| {
        [Knowledge::Conservative, Knowledge::Aggressive].map(|k| {
            (
                format!("{}: {}", workload_name(w), name_of(k)),
                runs.level(&p(w, k), gs_as_be),
            )
        })
    }))
    .why(
        "the kernel serves no GS task above its resource's largest task (R1 and R2: \
         419,900,000 MI, U1's maximum; the paper's resources take any size), so that the other \
         users' bounds hold: U1's exponential draws above it (about 37 % of them in S0) go best \
         effort under every mode. Beyond that, full aggressive submission with exponential \
         workloads at mean rate rho makes the bucket's debt a zero-drift random walk (a spread \
         of about 19 tasks after 366, against sigma = 5 tasks), so some withholding is \
         unavoidable (errata E33, E34).",
    )
    .done();
    // Feedback between Exact and the worse of Conservative and Full aggressive, replication by
    // replication (no choice made on noisy means).
    let fb = Knowledge::ConservativeFeedback;
    let between: Vec<(String, Option<_>)> = TABLE7
        .iter()
        .flat_map(|&w| {
            let wl = workload_name(w);
            let below = runs.diff(&p(w, exact_k), &p(w, fb), gs_missed);
            let above = runs.combined(
                &[
                    p(w, fb),
                    p(w, Knowledge::Conservative),
                    p(w, Knowledge::Aggressive),
                ],
                |m| Some(gs_missed(m[0])? - gs_missed(m[1])?.max(gs_missed(m[2])?)),
            );
            [
                (format!("{wl}: Exact - feedback"), below),
                (format!("{wl}: feedback - the worse of the two"), above),
            ]
        })
        .collect();
    let lies_between = claim(
        "kokkinos2009.fig10.feedback-between",
        "Conservative with feedback lies between (Fig. 10).",
        "the GS users' combined miss % of Exact minus feedback's, and of feedback minus the worse \
         of Conservative and Full aggressive, per workload scenario",
        Margin::at_most(CLOSE, "points", point(CLOSE)),
    )
    .points(between)
    .done();
    let detect = claim(
        "kokkinos2009.fig10.windows-like-exact",
        "n-window (5, 10, 20) detects violations like Exact (Fig. 10).",
        "the GS users' combined miss % under each window minus under Exact, per workload \
         scenario",
        Margin::at_most(WINDOW_SLACK, "points", point(WINDOW_SLACK)),
    )
    .points(diffs(
        &points(|k| (k, Knowledge::Exact), &windows),
        gs_missed,
    ))
    .done();
    let more_be = claim(
        "kokkinos2009.fig11.windows-more-be",
        "n-window hands more tasks to BE than Exact (Fig. 11).",
        "the % of the GS users' tasks handed to BE under each window minus under Exact, per \
         workload scenario",
        Margin::at_least(CLOSE, "points", point(CLOSE)),
    )
    .points(diffs(
        &points(|k| (k, Knowledge::Exact), &windows),
        gs_as_be,
    ))
    .done();
    vec![fewest, never, lies_between, detect, more_be]
}
