//! Sec. 6.4.1: multi-CPU resources of kokkinos2009 Sec. 6.4 (the criteria are in the parent
//! module's doc).

use super::measure::*;
use crate::experiments::Runs;
use crate::models::grid::metrics::Metrics;
use crate::report::Section;

/// GB, GBE and GBP with R1-R3 of 30, 20, 10 CPUs x U4 1093, 546, 55 s/t.
pub(super) fn variants() -> Vec<Variant> {
    points(&fig4_points(Layout::Multi, &TABLE6[..3]))
}

/// The figures and statements, from the runs of [`variants`].
pub(super) fn judge(runs: &Runs<Metrics>) -> Section {
    let points = fig4_points(Layout::Multi, &TABLE6[..3]);
    let fig = per_user_figure(
        runs,
        "multicpu",
        "Sec. 6.4.1: tasks missing their deadline, R1-R3 with 30, 20, 10 CPUs of 26,000 MIPS",
        "resource scenario (Table 6), U4 inter-arrival s/t",
        "missed deadlines, % of the user's tasks",
        &points,
        |u| Box::new(user_missed(u)),
    );
    Section {
        heading: "Sec. 6.4.1 (multi-CPU resources): hard delay guarantees".into(),
        figures: vec![fig],
        statements: vec![guarantee_check(
            runs,
            "kokkinos2009.sec641.multi-cpu-no-misses",
            "With multi-CPU resources the GS users (U1, U2, U3) still miss no deadline.",
            &points,
        )],
        ..Default::default()
    }
}
