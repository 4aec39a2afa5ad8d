//! Claim 5: Table 8 and Fig. 12 of seed 004 Sec. 6.4 (the criteria are in the parent module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::models::grid::metrics::Metrics;
use crate::report::{Section, verdict};

/// Table 8 and Fig. 12: EDF/EST and WFQ/EST x every U4 inter-arrival of Table 4.
pub(super) fn variants() -> Vec<Variant> {
    [MetaOrder::Edf, MetaOrder::Wfq]
        .iter()
        .flat_map(|&o| U4_TABLE4.iter().map(move |&r| fig12_point(o, r)))
        .collect()
}

/// The figures and verdicts, from the runs of [`variants`].
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let orders = [MetaOrder::Edf, MetaOrder::Wfq];
    let stats: [fn(&Metrics) -> Option<f64>; 2] =
        [|m| m.all.mi_delay_mean_s, |m| m.all.mi_delay_sd_s];
    let table8 = Figure {
        id: "table8",
        title: "Table 8: delay of one MI, BE scenario, Sec. 6.4.4 workloads, U4 at 3278 s/t".into(),
        x_label: "statistic".into(),
        y_label: "seconds".into(),
        groups: vec![
            "mean delay of 1 MI (s)".into(),
            "sd of the delay of 1 MI (s)".into(),
        ],
        series: orders.iter().map(|&o| order_name(o).to_owned()).collect(),
        values: orders
            .iter()
            .map(|&o| {
                stats
                    .iter()
                    .map(|f| runs.estimate(&fig12_point(o, 3278.0), f))
                    .collect()
            })
            .collect(),
        paper: Some(
            (0..2)
                .map(|o| PAPER_TABLE8.iter().map(|row| row[o]).collect())
                .collect(),
        ),
        decimals: 2,
    };
    let fairness = |m: &Metrics| Some(m.deadline_fairness);
    let fig12 = Figure {
        id: "fig12",
        title: "Fig. 12: deadline fairness metric, BE scenario, Sec. 6.4.4 workloads".into(),
        x_label: "U4 inter-arrival, s/t".into(),
        y_label: "deadline fairness (mean relative lateness)".into(),
        groups: U4_TABLE4.iter().map(|&r| rate(r)).collect(),
        series: orders.iter().map(|&o| order_name(o).to_owned()).collect(),
        values: orders
            .iter()
            .map(|&o| {
                U4_TABLE4
                    .iter()
                    .map(|&r| runs.estimate(&fig12_point(o, r), fairness))
                    .collect()
            })
            .collect(),
        paper: None,
        decimals: 4,
    };

    let at = |o, r, f: &dyn Fn(&Metrics) -> Option<f64>| runs.mean(&fig12_point(o, r), f);
    let [edf_mean, edf_sd] = stats.map(|f| at(MetaOrder::Edf, 3278.0, &f));
    let [wfq_mean, wfq_sd] = stats.map(|f| at(MetaOrder::Wfq, 3278.0, &f));
    let below = |w: f64, e: f64| {
        if lt(w, e) {
            Vec::new()
        } else {
            vec!["WFQ/EST is not below EDF/EST".to_owned()]
        }
    };
    let mut bad = Vec::new();
    let mut ev = Vec::new();
    let mut gaps = Vec::new();
    for &r in &U4_TABLE4 {
        let (e, w) = (
            at(MetaOrder::Edf, r, &fairness),
            at(MetaOrder::Wfq, r, &fairness),
        );
        if !((le(e.abs(), 0.0) && le(w.abs(), 0.0)) || lt(w, e)) {
            bad.push(format!("U4 {}", rate(r)));
        }
        gaps.push(e - w);
        ev.push(format!("U4 {}: EDF {}, WFQ {}", rate(r), V(e, 4), V(w, 4)));
    }
    let shrinking: Vec<String> = gaps
        .windows(2)
        .zip(U4_TABLE4.windows(2))
        .filter(|(g, _)| !le(g[0], g[1]))
        .map(|(_, r)| format!("{} to {} s/t", rate(r[0]), rate(r[1])))
        .collect();
    Section {
        heading: "Claim 5 (Table 8, Fig. 12): fairness among BE users".into(),
        figures: vec![table8, fig12],
        verdicts: vec![
            verdict(
                "WFQ/EST has a smaller mean delay of a computation unit than EDF/EST (Table 8).",
                "At U4 3278 s/t, WFQ/EST's mean delay of 1 MI is below EDF/EST's.",
                &below(wfq_mean, edf_mean),
                format!(
                    "EDF/EST {} s, WFQ/EST {} s (paper: 21.96 s, 13.63 s).",
                    V(edf_mean, 2),
                    V(wfq_mean, 2)
                ),
            ),
            verdict(
                "WFQ/EST has a smaller standard deviation of that delay (Table 8).",
                "At U4 3278 s/t, WFQ/EST's standard deviation of the delay of 1 MI is below \
                 EDF/EST's.",
                &below(wfq_sd, edf_sd),
                format!(
                    "EDF/EST {} s, WFQ/EST {} s (paper: 48.48 s, 30.07 s).",
                    V(edf_sd, 2),
                    V(wfq_sd, 2)
                ),
            ),
            verdict(
                "WFQ/EST beats EDF/EST on the deadline fairness metric (Fig. 12).",
                "At every U4 inter-arrival of Table 4, WFQ/EST's metric is below EDF/EST's, or \
                 both are 0.",
                &bad,
                format!("Deadline fairness: {}.", ev.join("; ")),
            ),
            verdict(
                "The difference grows as U4's inter-arrival time decreases (Fig. 12).",
                "EDF/EST's metric minus WFQ/EST's never decreases from one U4 inter-arrival of \
                 Table 4 to the next shorter one.",
                &shrinking,
                format!(
                    "EDF - WFQ from 5464 to 55 s/t: {}.",
                    gaps.iter()
                        .map(|&g| V(g, 4).to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ),
        ],
    }
}
