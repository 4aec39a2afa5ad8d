//! Claim 5: Table 8 and Fig. 12 of seed 004 Sec. 6.4 (the criteria are in the parent module's
//! doc).
//!
//! The comparison is made with random phases ([`Arrivals::RandomPhase`]): every user creates
//! its first task at a uniform draw over its period, per replication, and EDF/EST and WFQ/EST
//! see the same draws in replication `k` (common random numbers), so each statement is judged
//! on paired differences with their 95 % intervals. The two deterministic tie orders
//! ([`Arrivals::Synchronous`], [`Arrivals::BeFirst`]) are printed beside it: with every user
//! starting at 0, the orderings differ only in how simultaneous arrivals tie (SPEC-NOTES N16).

use super::measure::*;
use crate::experiments::Runs;
use crate::models::grid::metrics::Metrics;
use crate::report::stats::Estimate;
use crate::report::{Section, Statement, verdict};

/// The U4 inter-arrival of Table 8, seconds per task.
const TABLE8_U4_S: f64 = 3278.0;
/// How much smaller a "smaller" delay must be to count (the paper's Table 8 shows WFQ/EST
/// about 38 % below EDF/EST): a tenth of EDF/EST's.
const MATERIAL: f64 = 0.10;
/// A deadline fairness metric this small is "about 0" (a mean relative lateness of 0.1 %).
const ABOUT_ZERO: f64 = 1e-3;
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

/// An interval as `mean [low, high]`, or `n/a`.
fn interval(e: Option<Estimate>, decimals: usize) -> String {
    e.map_or_else(
        || "n/a".to_owned(),
        |e| {
            format!(
                "{:.decimals$} [{:.decimals$}, {:.decimals$}]",
                e.mean,
                e.low(),
                e.high()
            )
        },
    )
}

/// The figures and verdicts, from the runs of [`variants`].
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
    let table8 = Figure {
        id: "table8",
        title: format!(
            "Table 8: delay of one MI, BE scenario, Sec. 6.4.4 workloads, U4 at {TABLE8_U4_S} s/t"
        ),
        x_label: "statistic".into(),
        y_label: "seconds".into(),
        groups,
        x_values: None,
        series: ORDERS.iter().map(|&o| order_name(o).to_owned()).collect(),
        values: values.to_vec(),
        paper: Some(paper.to_vec()),
        decimals: 2,
    };
    let fig12 = Figure {
        id: "fig12",
        title: "Fig. 12: deadline fairness metric, BE scenario, Sec. 6.4.4 workloads".into(),
        x_label: "U4 inter-arrival, s/t".into(),
        y_label: "deadline fairness (mean relative lateness)".into(),
        groups: U4_TABLE4.iter().map(|&r| rate(r)).collect(),
        x_values: Some(U4_TABLE4.to_vec()),
        series: ARRIVALS
            .iter()
            .flat_map(|&a| {
                ORDERS
                    .iter()
                    .map(move |&o| format!("{}, {}", order_name(o), a.name()))
            })
            .collect(),
        values: ARRIVALS
            .iter()
            .flat_map(|&a| {
                ORDERS.iter().map(move |&o| {
                    U4_TABLE4
                        .iter()
                        .map(|&r| runs.estimate(&fig12_point(o, r, a), fairness))
                        .collect()
                })
            })
            .collect(),
        paper: None,
        decimals: 4,
    };
    Section {
        heading: "Claim 5 (Table 8, Fig. 12): fairness among BE users".into(),
        figures: vec![table8, fig12],
        statements: vec![
            smaller_delay(runs, "mean", mi_mean, "21.96 s, 13.63 s"),
            smaller_delay(runs, "standard deviation", mi_sd, "48.48 s, 30.07 s"),
            fairer(runs),
            growing(runs),
        ],
        ..Default::default()
    }
}

/// 5a / 5b: WFQ/EST's `what` of the delay of 1 MI below EDF/EST's, materially, with random
/// phases; the deterministic orders and the floor beside it.
fn smaller_delay(runs: &Runs<Metrics>, what: &str, f: Measure, paper: &str) -> Statement {
    let at = |o, a| fig12_point(o, TABLE8_U4_S, a);
    let phase = Arrivals::RandomPhase;
    let d = runs.difference(&at(MetaOrder::Edf, phase), &at(MetaOrder::Wfq, phase), f);
    let edf = runs.mean(&at(MetaOrder::Edf, phase), f);
    let mut failures = Vec::new();
    match d {
        Some(d) if d.low() > 0.0 && d.mean >= MATERIAL * edf => {}
        Some(d) if d.low() > 0.0 => failures.push(format!(
            "the difference, {:.1} % of EDF/EST's, is below the {:.0} % a material margin needs",
            100.0 * d.mean / edf,
            100.0 * MATERIAL
        )),
        Some(_) => failures.push("the paired interval of EDF - WFQ reaches 0 or below".into()),
        None => failures.push("no paired replication".into()),
    }
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
        if what == "mean" {
            m.mi_delay_floor_mean_s
        } else {
            m.mi_delay_floor_sd_s
        }
    };
    verdict(
        &format!(
            "WFQ/EST gives a smaller {what} of the delay of a computation unit than EDF/EST \
             (Table 8)."
        ),
        &format!(
            "With random phases at U4 {TABLE8_U4_S} s/t, the paired 95 % interval of EDF/EST - \
             WFQ/EST lies above 0 and its mean is at least {:.0} % of EDF/EST's (the paper \
             shows about 38 %).",
            100.0 * MATERIAL
        ),
        &failures,
        format!(
            "Random phases: EDF/EST {} s, WFQ/EST {} s, EDF - WFQ {} s. Deterministic ties: \
             {orders}. Paper: {paper}, below the floor of {} s that no scheduler can beat \
             (every task alone on R1, no queueing; SPEC-NOTES N16).",
            V(edf, 2),
            V(runs.mean(&at(MetaOrder::Wfq, phase), f), 2),
            interval(d, 2),
            V(runs.mean(&at(MetaOrder::Wfq, phase), floor), 0),
        ),
    )
    .because(
        "best-effort tasks are dispatched every second, so an ordering seldom has two tasks to \
         order: only simultaneous arrivals tell EDF/EST from WFQ/EST (SPEC-NOTES N16).",
    )
}

/// 5c: WFQ/EST's deadline fairness metric below EDF/EST's at every U4 rate, or both about 0.
fn fairer(runs: &Runs<Metrics>) -> Statement {
    let phase = Arrivals::RandomPhase;
    let mut failures = Vec::new();
    let mut evidence = Vec::new();
    for &r in &U4_TABLE4 {
        let (edf, wfq) = (
            fig12_point(MetaOrder::Edf, r, phase),
            fig12_point(MetaOrder::Wfq, r, phase),
        );
        let (e, w) = (runs.mean(&edf, fairness), runs.mean(&wfq, fairness));
        let d = runs.difference(&edf, &wfq, fairness);
        let both_zero = e.abs() <= ABOUT_ZERO && w.abs() <= ABOUT_ZERO;
        if !(both_zero || d.is_some_and(|d| d.low() > 0.0)) {
            failures.push(format!("U4 {}", rate(r)));
        }
        evidence.push(format!(
            "U4 {}: EDF {}, WFQ {}, EDF - WFQ {}",
            rate(r),
            V(e, 4),
            V(w, 4),
            interval(d, 6)
        ));
    }
    verdict(
        "WFQ/EST beats EDF/EST on the deadline fairness metric (Fig. 12).",
        &format!(
            "With random phases, at every U4 inter-arrival of Table 4 the paired 95 % interval \
             of EDF/EST - WFQ/EST lies above 0, or both metrics are about 0 (at most \
             {ABOUT_ZERO})."
        ),
        &failures,
        format!("Deadline fairness: {}.", evidence.join("; ")),
    )
}

/// 5d: EDF/EST's metric minus WFQ/EST's grows as U4's inter-arrival time falls.
fn growing(runs: &Runs<Metrics>) -> Statement {
    let phase = Arrivals::RandomPhase;
    let gaps: Vec<Option<Estimate>> = U4_TABLE4
        .iter()
        .map(|&r| {
            runs.difference(
                &fig12_point(MetaOrder::Edf, r, phase),
                &fig12_point(MetaOrder::Wfq, r, phase),
                fairness,
            )
        })
        .collect();
    let mut failures: Vec<String> = gaps
        .windows(2)
        .zip(U4_TABLE4.windows(2))
        .filter(|(g, _)| match (g[0], g[1]) {
            (Some(longer), Some(shorter)) => shorter.high() < longer.low(),
            _ => true,
        })
        .map(|(_, r)| format!("falls from {} to {} s/t", rate(r[0]), rate(r[1])))
        .collect();
    let (first, last) = (
        gaps.first().copied().flatten(),
        gaps.last().copied().flatten(),
    );
    if !matches!((first, last), (Some(f), Some(l)) if l.low() > f.high()) {
        failures.push(format!(
            "not larger at {} s/t than at {} s/t",
            rate(U4_TABLE4[U4_TABLE4.len() - 1]),
            rate(U4_TABLE4[0])
        ));
    }
    verdict(
        "The difference grows as U4's inter-arrival time decreases (Fig. 12).",
        "With random phases, EDF/EST's metric minus WFQ/EST's is larger, beyond both intervals, \
         at the shortest U4 inter-arrival of Table 4 than at the longest, and never falls \
         beyond both intervals from one inter-arrival to the next shorter one.",
        &failures,
        format!(
            "EDF - WFQ from 5464 to 55 s/t: {}.",
            gaps.iter()
                .map(|&g| interval(g, 6))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )
    .because(
        "with fixed periods, U4's tasks meet another user's only where the periods share a \
         multiple, so the orderings' difference cannot follow U4's rate alone (SPEC-NOTES N16).",
    )
}
