//! Claim 1: Fig. 5 of salehi2012 and the abstract's "at least 60 %" (the criteria are in the
//! parent module's doc).

use crate::experiments::federation::measure::*;
use crate::experiments::{Figures, Runs};
use crate::models::federation::metrics::Metrics;
use crate::models::federation::scenario::GatewayPolicy::{BcfRnd, LrfRnd, PapRnd, PapRtdp, Rr};
use crate::report::{Mode, Section};

/// Fig. 5's figure ids, `(calibrated, literal)` per axis.
pub(super) const IDS: Ids = [
    ("fig5a", "fig5a-literal"),
    ("fig5b", "fig5b-literal"),
    ("fig5c", "fig5c-literal"),
    ("fig5d", "fig5d-literal"),
];

/// The calibrated part's figures.
pub(super) const CALIBRATED: &[&str] = &["fig5a", "fig5b", "fig5c", "fig5d"];
/// The literal part's figures.
pub(super) const LITERAL: &[&str] = &[
    "fig5a-literal",
    "fig5b-literal",
    "fig5c-literal",
    "fig5d-literal",
];
/// The calibrated part's figures, then the literal part's.
pub(super) const FIGURES: [Figures; 2] = [CALIBRATED, LITERAL];

/// The abstract's reduction, %.
const REDUCTION: f64 = 60.0;

pub(super) fn vms(m: &Metrics) -> Option<f64> {
    Some(m.vms_preempted as f64)
}

/// The figures and statements of the claim's part in `mode`.
pub(super) fn judge(runs: &Runs<Metrics>, mode: Mode) -> Section {
    let name = mode.name();
    let table = means(runs, mode, &Axis::ALL, vms);
    let below = |b: &[_], o: &[_]| pct_below(runs, b, o, vms);
    let fewest = pap_rtdp_fewest_preemptions(
        (
            format!("salehi2012.{name}.fig5.pap-rtdp-fewest-preemptions"),
            "In all sub-figures of Fig. 5 PAP-RTDP statistically and practically significantly \
             outperforms the other policies in VMs preempted (Sec. 5.3.1).",
        ),
        mode,
        &Axis::ALL,
        ("Figs. 5(a)-(d)", sub_figure("5")),
        below,
    )
    .evidence(format!(
        "Mean VMs preempted over the points: {}. Across Fig. 5(a)'s points, PAP-RND - \
         PAP-RTDP: {} (paper: (2737.97, 3896.95)); Fig. 5(c): {} (paper: (380.5, 4570)).",
        averages(&table, 0),
        interval(across_points(runs, mode, Axis::Vms, PapRnd, PapRtdp, vms)),
        interval(across_points(
            runs,
            mode,
            Axis::External,
            PapRnd,
            PapRtdp,
            vms
        )),
    ))
    .done();
    // The totals over every distinct point of the four axes.
    let all = |p| {
        variants_of(mode, &Axis::ALL)
            .into_iter()
            .filter(|v| v.policy == p)
            .collect::<Vec<_>>()
    };
    let sixty_margin = Margin::at_least(
        REDUCTION,
        "% below",
        Source::Paper(
            "\"the number of VM preemptions is decreased at least by 60%\" (abstract); \"at \
             least 60% improvement in VM preemptions compared with other policies\" (Sec. 7)"
                .into(),
        ),
    );
    let per_point = every_point(
        &sixty_margin,
        versus(mode, &Axis::ALL, PapRtdp, &[Rr, LrfRnd, BcfRnd], |b, o| {
            below(&[*b], &[*o])
        }),
    );
    let sixty = claim(
        format!("salehi2012.{name}.abstract.preemptions-60-percent-fewer"),
        "PAP-RTDP decreases the number of VM preemptions by at least 60 % compared with the \
         other policies (abstract, Sec. 7).",
        "how far PAP-RTDP's total VMs preempted over every point of Figs. 5(a)-(d) lies below \
         RR's, LRF-RND's and BCF-RND's, % of theirs (ratio of totals, paired, delta method)",
        sixty_margin,
    )
    .mode(mode)
    .points([Rr, LrfRnd, BcfRnd].map(|rival| {
        (
            format!("PAP-RTDP vs {}", rival.label()),
            below(&all(PapRtdp), &all(rival)),
        )
    }))
    .other_reading(per_point)
    .done();
    Section {
        heading: format!("Claim 1 (Fig. 5), {name} mode: PAP-RTDP preempts the fewest VMs"),
        figures: figures(
            runs,
            mode,
            &IDS,
            "5",
            "VMs preempted",
            "VMs preempted per run",
            vms,
            0,
        ),
        statements: vec![fewest, sixty],
        ..Default::default()
    }
}
