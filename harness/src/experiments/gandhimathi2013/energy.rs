//! Claim 4: Figs. 9-10 of seed 003 (the criteria are in the parent module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::report::{Section, verdict};

/// FCFS, DCLS and DCMMS (alpha 0.8, 20 % reservations) under every mapping, loose and tight.
pub(super) fn variants() -> Vec<Variant> {
    let mut v = Vec::new();
    for (_, divisor) in SITUATIONS {
        for s in ALL {
            let base = Variant::new(s, params::ALPHA_TABLES_PCT, divisor);
            v.extend(MAPPINGS.iter().map(|&m| base.with_mapping(m)));
        }
    }
    v
}

fn at(s: SchedulerKind, divisor: u32, m: MappingKind) -> Variant {
    Variant::new(s, params::ALPHA_TABLES_PCT, divisor).with_mapping(m)
}

fn figure(runs: &Runs<Metrics>, id: &'static str, title: &str, divisor: u32) -> Figure {
    Figure {
        id,
        title: title.into(),
        x_label: "scheduler".into(),
        y_label: "energy, power x h (active 1, idle 0.3 per server)".into(),
        groups: ALL.iter().map(|&s| scheduler_name(s).to_owned()).collect(),
        x_values: None,
        series: MAPPINGS
            .iter()
            .map(|&m| format!("{} mapping", mapping_name(m)))
            .collect(),
        values: MAPPINGS
            .iter()
            .map(|&m| {
                ALL.iter()
                    .map(|&s| runs.estimate(&at(s, divisor, m), energy))
                    .collect()
            })
            .collect(),
        paper: None,
        decimals: 0,
    }
}

/// The figures and verdicts, from the runs of [`variants`].
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let fig9 = figure(
        runs,
        "fig9",
        "Fig. 9: energy consumption, loose situation",
        LOOSE,
    );
    let fig10 = figure(
        runs,
        "fig10",
        "Fig. 10: energy consumption, tight situation",
        TIGHT,
    );
    let aware = MappingKind::EnergyAware;
    let (mut alg_bad, mut alg_ev) = (vec![], vec![]);
    let against = |other: MappingKind| {
        let (mut bad, mut ev) = (vec![], vec![]);
        for (situation, divisor) in SITUATIONS {
            for s in ALL {
                let (a, b) = (at(s, divisor, aware), at(s, divisor, other));
                let d = runs.difference(&a, &b, energy);
                let active_saving = saving(runs.ratio(&a, &b, active));
                let energy_saving = saving(runs.ratio(&a, &b, energy));
                let point = format!("{} {situation}", scheduler_name(s));
                if !below(d) {
                    bad.push(point.clone());
                }
                ev.push(format!(
                    "{point}: energy {} % lower, active server-time {} % lower",
                    show(energy_saving, 2),
                    show(active_saving, 2)
                ));
            }
        }
        let name = mapping_name(other);
        verdict(
            &format!(
                "The energy-aware local mapping further reduces the energy consumption in all \
                 three algorithms: against {name}."
            ),
            &format!(
                "For FCFS, DCLS and DCMMS, loose and tight, the interval of the paired \
                 difference of energy energy-aware - {name} lies below 0."
            ),
            &bad,
            ev.join("; "),
        )
    };
    let (mut same_bad, mut same_ev) = (vec![], vec![]);
    for (situation, divisor) in SITUATIONS {
        for s in ALL {
            let base = at(s, divisor, aware);
            for m in [MappingKind::FirstFit, MappingKind::WorstFit] {
                let d = runs.difference(&at(s, divisor, m), &base, |x: &Metrics| x.execution_s);
                let point = format!("{} {situation} {}", scheduler_name(s), mapping_name(m));
                if !d.is_some_and(|d| d.mean == 0.0 && d.half_width.is_none_or(|h| h == 0.0)) {
                    same_bad.push(point.clone());
                }
                same_ev.push(format!("{point} - energy-aware: {} s", show(d, 3)));
            }
        }
        let fcfs = at(SchedulerKind::Fcfs, divisor, aware);
        for s in DYNAMIC {
            let d = runs.difference(&at(s, divisor, aware), &fcfs, energy);
            let point = format!("{} {situation}", scheduler_name(s));
            if !below(d) {
                alg_bad.push(point.clone());
            }
            alg_ev.push(format!("{point} - FCFS: {} power x h", show(d, 0)));
        }
    }
    Section {
        heading: "Claim 4 (Figs. 9-10): energy".into(),
        figures: vec![fig9, fig10],
        verdicts: vec![
            verdict(
                "Both DCLS and DCMMS can reduce energy consumption compared to the FCFS \
                 algorithm (Figs. 9-10).",
                "With the energy-aware mapping, loose and tight, the 95 % interval of the paired \
                 difference of energy DCLS - FCFS and DCMMS - FCFS lies below 0.",
                &alg_bad,
                alg_ev.join("; "),
            ),
            against(MappingKind::FirstFit),
            against(MappingKind::WorstFit),
            verdict(
                "The mapping changes energy, not the schedule (the paper's Figs. 7-8 and 9-10 \
                 share their runs).",
                "For FCFS, DCLS and DCMMS, loose and tight, first-fit and worst-fit give every \
                 replication exactly the energy-aware mapping's mean execution time.",
                &same_bad,
                same_ev.join("; "),
            ),
        ],
    }
}
