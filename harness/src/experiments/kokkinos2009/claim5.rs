//! Claim 5: Table 8 and Fig. 12 of kokkinos2009 Sec. 6.4 (the criteria are in the parent module's
//! doc).
//!
//! The comparison is made with random phases ([`Arrivals::RandomPhase`]): every user creates
//! its first task at a uniform draw over its period, per replication, and EDF/EST and WFQ/EST
//! see the same draws in replication `k` (common random numbers), so each statement is judged
//! on paired differences with their 95 % intervals. The two deterministic tie orders
//! ([`Arrivals::Synchronous`], [`Arrivals::BeFirst`]) are printed beside it: with every user
//! starting at 0, the orderings differ only in how simultaneous arrivals tie (erratum E32).

use super::measure::*;
use crate::experiments::Runs;
use crate::models::grid::metrics::Metrics;
use crate::report::Section;
use crate::report::stats::Estimate;

/// The U4 inter-arrival of Table 8, seconds per task.
const TABLE8_U4_S: f64 = 3278.0;
/// A deadline fairness metric this much lower is fairer (a mean relative lateness of 0.1 %).
const FAIRER: f64 = 1e-3;
/// The orderings compared.
const ORDERS: [MetaOrder; 2] = [MetaOrder::Edf, MetaOrder::Wfq];
/// The arrivals measured: the judged one first.
const ARRIVALS: [Arrivals; 3] = [
    Arrivals::RandomPhase,
    Arrivals::Synchronous,
    Arrivals::BeFirst,
];

/// Table 8 and Fig. 12: EDF/EST and WFQ/EST x every U4 inter-arrival of Table 4 x the three
/// arrival patterns.
pub(super) fn variants() -> Vec<Variant> {
    ARRIVALS
        .iter()
        .flat_map(|&a| {
            ORDERS
                .iter()
                .flat_map(move |&o| U4_TABLE4.iter().map(move |&r| fig12_point(o, r, a)))
        })
        .collect()
}

/// A metric of one run.
type Measure = fn(&Metrics) -> Option<f64>;

fn mi_mean(m: &Metrics) -> Option<f64> {
    m.all.mi_delay_mean_s
}

fn mi_sd(m: &Metrics) -> Option<f64> {
    m.all.mi_delay_sd_s
}

fn fairness(m: &Metrics) -> Option<f64> {
    Some(m.deadline_fairness)
}

/// The figures and statements, from the runs of [`variants`].
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let at = |o, a| fig12_point(o, TABLE8_U4_S, a);
    let stats: [(&str, Measure); 2] = [("mean", mi_mean), ("standard deviation", mi_sd)];
    let mut groups = Vec::new();
    let mut values: [Vec<Option<Estimate>>; 2] = Default::default();
    let mut paper: [Vec<Option<f64>>; 2] = Default::default();
    for a in ARRIVALS {
        for (s, (name, f)) in stats.iter().enumerate() {
            groups.push(format!("{name} of the delay of 1 MI, {} (s)", a.name()));
            for (o, &order) in ORDERS.iter().enumerate() {
                values[o].push(runs.estimate(&at(order, a), f));
                paper[o].push(Some(PAPER_TABLE8[s][o]));
            }
        }
    }
    let floor: [Measure; 2] = [|m| m.mi_delay_floor_mean_s, |m| m.mi_delay_floor_sd_s];
    for a in [Arrivals::RandomPhase, Arrivals::Synchronous] {
        for (s, f) in floor.iter().enumerate() {
            groups.push(format!(
                "floor: {} with every task alone on R1, no queueing, {} (s)",
                stats[s].0,
                a.name()
            ));
            for (o, &order) in ORDERS.iter().enumerate() {
                values[o].push(runs.estimate(&at(order, a), f));
                paper[o].push(None);
            }
        }
    }
    let table8 = Figure::bars(
        "table8",
        format!(
            "Table 8: delay of one MI, BE scenario, Sec. 6.4.4 workloads, U4 at {TABLE8_U4_S} s/t"
        ),
    )
    .groups("statistic", groups)
    .y("seconds")
    .all_series(ORDERS.map(order_name).into_iter().zip(values))
    .paper(paper.to_vec())
    .decimals(2);
    let fig12 = Figure::lines(
        "fig12",
        "Fig. 12: deadline fairness metric, BE scenario, Sec. 6.4.4 workloads",
    )
    .x("U4 inter-arrival, s/t", U4_TABLE4, Ticks::Plain)
    .y("deadline fairness (mean relative lateness)")
    .all_series(ARRIVALS.iter().flat_map(|&a| {
        ORDERS.map(|o| {
            let values = U4_TABLE4.map(|r| runs.estimate(&fig12_point(o, r, a), fairness));
            (format!("{}, {}", order_name(o), a.name()), values)
        })
    }))
    .decimals(4);
    Section {
        heading: "Claim 5 (Table 8, Fig. 12): fairness among BE users".into(),
        figures: vec![table8, fig12],
        statements: vec![
            smaller_delay(runs, ("mean", "mean"), mi_mean, PAPER_TABLE8[0]),
            smaller_delay(runs, ("sd", "standard deviation"), mi_sd, PAPER_TABLE8[1]),
            fairer(runs),
            growing(runs),
        ],
        ..Default::default()
    }
}

/// 5a / 5b: WFQ/EST's `what` of the delay of 1 MI against EDF/EST's, as the ratio of their
/// means, with random phases; the deterministic orders and the floor beside it.
fn smaller_delay(
    runs: &Runs<Metrics>,
    (slug, what): (&str, &str),
    f: Measure,
    paper: [f64; 2],
) -> Statement {
    let at = |o, a| fig12_point(o, TABLE8_U4_S, a);
    let phase = Arrivals::RandomPhase;
    let ratio = runs.ratio_of_means(&at(MetaOrder::Wfq, phase), &at(MetaOrder::Edf, phase), f);
    let orders = [Arrivals::Synchronous, Arrivals::BeFirst]
        .map(|a| {
            format!(
                "{}: EDF/EST {} s, WFQ/EST {} s",
                a.name(),
                V(runs.mean(&at(MetaOrder::Edf, a), f), 2),
                V(runs.mean(&at(MetaOrder::Wfq, a), f), 2)
            )
        })
        .join("; ");
    let floor = |m: &Metrics| {
        if slug == "mean" {
            m.mi_delay_floor_mean_s
        } else {
            m.mi_delay_floor_sd_s
        }
    };
    let printed = paper[1] / paper[0];
    claim(
        format!("kokkinos2009.table8.wfq-smaller-delay-{slug}"),
        &format!(
            "WFQ/EST gives a smaller {what} of the delay of a computation unit than EDF/EST \
             (Table 8)."
        ),
        &format!(
            "WFQ/EST's {what} of the delay of 1 MI over EDF/EST's (ratio of means), random \
             phases, U4 at {TABLE8_U4_S} s/t"
        ),
        Margin::at_most(
            printed,
            "x",
            Source::Paper(format!(
                "Table 8: {} s against {} s, a ratio of {printed:.2}",
                paper[1], paper[0]
            )),
        ),
    )
    .point("WFQ/EST / EDF/EST", ratio)
    .evidence(format!(
        "Random phases: EDF/EST {} s, WFQ/EST {} s. Deterministic ties: {orders}. Paper: {} s \
         and {} s, below the floor of {} s that no scheduler can beat (every task alone on R1, \
         no queueing; erratum E32).",
        V(runs.mean(&at(MetaOrder::Edf, phase), f), 2),
        V(runs.mean(&at(MetaOrder::Wfq, phase), f), 2),
        paper[0],
        paper[1],
        V(runs.mean(&at(MetaOrder::Wfq, phase), floor), 0),
    ))
    .why(
        "best-effort tasks are dispatched every second, so an ordering seldom has two tasks to \
         order: only simultaneous arrivals tell EDF/EST from WFQ/EST (erratum E32).",
    )
    .done()
}

/// The gap EDF/EST - WFQ/EST in the deadline fairness metric at U4 inter-arrival `r`.
fn gap(r: f64) -> [Variant; 2] {
    let phase = Arrivals::RandomPhase;
    [
        fig12_point(MetaOrder::Edf, r, phase),
        fig12_point(MetaOrder::Wfq, r, phase),
    ]
}

/// 5c: WFQ/EST's deadline fairness metric below EDF/EST's at every U4 rate.
fn fairer(runs: &Runs<Metrics>) -> Statement {
    claim(
        "kokkinos2009.fig12.wfq-fairer",
        "WFQ/EST beats EDF/EST on the deadline fairness metric (Fig. 12).",
        "EDF/EST's deadline fairness metric minus WFQ/EST's, random phases, at every U4 \
         inter-arrival of Table 4",
        Margin::at_least(
            FAIRER,
            "",
            Source::Practical(format!(
                "a mean relative lateness {FAIRER} lower (0.1 % of a deadline) is fairer"
            )),
        ),
    )
    .points(U4_TABLE4.iter().map(|&r| {
        let [edf, wfq] = gap(r);
        (format!("U4 {}", rate(r)), runs.diff(&edf, &wfq, fairness))
    }))
    .done()
}

/// 5d: EDF/EST's metric minus WFQ/EST's grows as U4's inter-arrival time falls.
fn growing(runs: &Runs<Metrics>) -> Statement {
    let grows = |longer: f64, shorter: f64| {
        let [a, b] = gap(shorter);
        let [c, d] = gap(longer);
        runs.combined(&[a, b, c, d], |m| {
            Some(fairness(m[0])? - fairness(m[1])? - (fairness(m[2])? - fairness(m[3])?))
        })
    };
    let (longest, shortest) = (U4_TABLE4[0], U4_TABLE4[U4_TABLE4.len() - 1]);
    claim(
        "kokkinos2009.fig12.gap-grows",
        "The difference grows as U4's inter-arrival time decreases (Fig. 12).",
        "EDF/EST's metric minus WFQ/EST's at a U4 inter-arrival minus at the next longer one, \
         and at the shortest minus at the longest, random phases",
        Margin::at_least(0.0, "", Source::Practical("growing: no step down".into())),
    )
    .points(U4_TABLE4.windows(2).map(|r| {
        (
            format!("{} - {} s/t", rate(r[1]), rate(r[0])),
            grows(r[0], r[1]),
        )
    }))
    .point(
        format!("{} - {} s/t", rate(shortest), rate(longest)),
        grows(longest, shortest),
    )
    .why(
        "with fixed periods, U4's tasks meet another user's only where the periods share a \
         multiple, so the orderings' difference cannot follow U4's rate alone (erratum E32).",
    )
    .done()
}
