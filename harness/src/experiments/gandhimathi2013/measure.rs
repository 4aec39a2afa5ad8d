//! What the claims of seed 003 share: the situations, the modes and readings, the metrics in
//! the reports' units, paired comparisons, the figure helpers and the way each statement is
//! judged in each mode and reading ([`judged`]).

pub(super) use super::params::{self, ALPHAS_PCT, AR_SHARES_PCT, DIVISORS, LOOSE, TIGHT};
pub(super) use super::presets::{Variant, mapping_name, scheduler_name};
use crate::experiments::Runs;
pub(super) use crate::models::multicloud::metrics::Metrics;
pub(super) use crate::models::multicloud::scenario::{
    FeedbackFrom, MappingKind, QueueOrder, SchedulerKind,
};
use crate::report::stats::Estimate;
pub(super) use crate::report::{Figure, Mode, Statement};

/// The two modes: literal (N15's FCFS, to the cloud of earliest start) and calibrated (FCFS on
/// each application's own cloud).
pub(super) const MODES: [Mode; 2] = [Mode::Literal, Mode::Calibrated];

/// Where a statement is judged: a mode and a reading of the model (the queue order and the
/// feedback's instant).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Reading {
    /// Literal or calibrated.
    pub mode: Mode,
    /// The order a cloud serves its ready best-effort tasks in.
    pub queue: QueueOrder,
    /// The instant a finished task's `delta_tau` is measured from.
    pub feedback: FeedbackFrom,
}

impl Reading {
    /// The reading every verdict is given in, in `mode`: queues in assignment order, E6's
    /// `delta_tau` from the planned ERAT (N13).
    pub fn main(mode: Mode) -> Self {
        Self {
            mode,
            queue: QueueOrder::Assigned,
            feedback: FeedbackFrom::Erat,
        }
    }

    /// The other readings of `mode`, each one change from [`Reading::main`]: queues in the
    /// order tasks became ready; the feedback measured from the instant a task was ready.
    pub fn others(mode: Mode) -> [Self; 2] {
        let main = Self::main(mode);
        [
            Self {
                queue: QueueOrder::Ready,
                ..main
            },
            Self {
                feedback: FeedbackFrom::Ready,
                ..main
            },
        ]
    }

    /// Every reading the variants are run under.
    pub fn all() -> impl Iterator<Item = Reading> {
        MODES
            .into_iter()
            .flat_map(|mode| std::iter::once(Self::main(mode)).chain(Self::others(mode)))
    }

    /// `scheduler` at `alpha_pct` and `divisor` (20 % reservations, energy-aware) under this
    /// reading.
    pub fn at(self, scheduler: SchedulerKind, alpha_pct: u8, divisor: u32) -> Variant {
        self.of(Variant::new(scheduler, alpha_pct, divisor))
    }

    /// `v` under this reading.
    pub fn of(self, v: Variant) -> Variant {
        self.model(v.in_mode(self.mode))
    }

    /// `v` in its own mode under this reading's queue order and feedback.
    pub fn model(self, v: Variant) -> Variant {
        v.with_queue(self.queue).with_feedback(self.feedback)
    }

    /// What this reading changes from [`Reading::main`], as the report says it.
    fn change(self) -> &'static str {
        match (self.queue, self.feedback) {
            (QueueOrder::Ready, _) => {
                "with each cloud's best-effort tasks served in the order they became ready \
                 (queue = \"ready\") rather than the order they were assigned to it"
            }
            (_, FeedbackFrom::Ready) => {
                "with E6's delta_tau measured from the later of the planned ERAT and the \
                 instant the task reached its cloud (feedback_from = \"ready\"), so a cloud is \
                 not charged with its predecessors' lateness elsewhere"
            }
            _ => "as read",
        }
    }
}

/// `v` under every reading, each variant once (DCLS and DCMMS do not depend on the mode, nor
/// FCFS and alpha 0 on the feedback, so they come once per remaining reading).
pub(super) fn under_every_reading(v: &[Variant]) -> Vec<Variant> {
    let mut all = Vec::new();
    for r in Reading::all() {
        for &x in v {
            let x = r.of(x);
            if !all.contains(&x) {
                all.push(x);
            }
        }
    }
    all
}

/// The verdicts of `statements` (judged under one reading) as the report shows them: in the
/// literal mode, and again in the calibrated mode for the statements `with_fcfs` marks (those
/// that compare with FCFS: the calibration changes nothing else, so the others are stated once,
/// for both modes); each claim is prefixed with its mode, and where judging it under one of the
/// [`Reading::others`] changes the verdict, that verdict and its numbers are its
/// `Other reading:`.
pub(super) fn judged(
    runs: &Runs<Metrics>,
    statements: impl Fn(&Runs<Metrics>, Reading) -> Vec<Statement>,
    with_fcfs: &[bool],
) -> Vec<Statement> {
    let judge = |mode| {
        let others: Vec<(Reading, Vec<Statement>)> = Reading::others(mode)
            .into_iter()
            .map(|r| (r, statements(runs, r)))
            .collect();
        (statements(runs, Reading::main(mode)), others)
    };
    let (literal, calibrated) = (judge(Mode::Literal), judge(Mode::Calibrated));
    let mut out = Vec::new();
    for (i, v) in literal.0.iter().enumerate() {
        let fcfs = with_fcfs.get(i).copied().unwrap_or(true);
        let tag = if fcfs { "literal" } else { "both modes" };
        out.push(tagged(v, i, tag, &literal.1));
        if fcfs && let Some(v) = calibrated.0.get(i) {
            out.push(tagged(v, i, "calibrated", &calibrated.1));
        }
    }
    out
}

/// Statement `i`'s verdict `v` with its claim prefixed by `(tag)`, and the verdicts of the
/// `others` readings that differ from it as its other reading.
fn tagged(v: &Statement, i: usize, tag: &str, others: &[(Reading, Vec<Statement>)]) -> Statement {
    let v = Statement {
        text: format!("({tag}) {}", v.text),
        ..v.clone()
    };
    let notes: Vec<String> = others
        .iter()
        .filter_map(|(r, verdicts)| {
            let o = verdicts.get(i).filter(|o| {
                o.is(crate::report::Outcome::Reproduced) != v.is(crate::report::Outcome::Reproduced)
            })?;
            let fate = if o.is(crate::report::Outcome::Reproduced) {
                "holds"
            } else {
                "does not hold"
            };
            Some(format!(
                "{}, the statement {fate}: {}",
                r.change(),
                o.evidence.as_deref().unwrap_or("")
            ))
        })
        .collect();
    if notes.is_empty() {
        v
    } else {
        v.other_reading(notes.join(" Also, "))
    }
}

/// The two situations of Sec. 4.1: (name, arrival-gap divisor).
pub(super) const SITUATIONS: [(&str, u32); 2] = [("loose", LOOSE), ("tight", TIGHT)];
/// The two list schedulers.
pub(super) const DYNAMIC: [SchedulerKind; 2] = [SchedulerKind::Dcls, SchedulerKind::Dcmms];
/// The three schedulers of Figs. 7-10 and Tables 4-5.
pub(super) const ALL: [SchedulerKind; 3] = [
    SchedulerKind::Fcfs,
    SchedulerKind::Dcls,
    SchedulerKind::Dcmms,
];
/// The mappings of Figs. 9-10: energy-aware and its three baselines.
pub(super) const MAPPINGS: [MappingKind; 4] = [
    MappingKind::EnergyAware,
    MappingKind::FirstFit,
    MappingKind::FirstFitTask,
    MappingKind::WorstFit,
];

/// The average application execution time, hours.
pub(super) fn hours(m: &Metrics) -> Option<f64> {
    m.execution_s.map(|s| s / 3600.0)
}

/// Energy, in units of power x hours.
pub(super) fn energy(m: &Metrics) -> Option<f64> {
    Some(m.energy / 3600.0)
}

/// Active server-hours.
pub(super) fn active(m: &Metrics) -> Option<f64> {
    Some(m.active_server_s / 3600.0)
}

/// A paired comparison's interval lies entirely below 0 (`f(a)` below `f(b)`); false without
/// data.
pub(super) fn below(e: Option<Estimate>) -> bool {
    e.is_some_and(|e| e.high() < 0.0 && e.half_width.is_some())
}

/// A paired comparison's interval reaches 0 or below (`f(a)` not above `f(b)`); false without
/// data.
pub(super) fn not_above(e: Option<Estimate>) -> bool {
    e.is_some_and(|e| e.low() <= 0.0)
}

/// A paired comparison's interval contains 0; false without data.
pub(super) fn around_zero(e: Option<Estimate>) -> bool {
    e.is_some_and(|e| e.low() <= 0.0 && 0.0 <= e.high())
}

/// An estimate as `mean ± half-width` with `decimals` decimals, `-` when missing.
pub(super) fn show(e: Option<Estimate>, decimals: usize) -> String {
    e.map_or_else(|| "-".to_owned(), |e| e.show(decimals))
}

/// `100 (1 - r)`: a ratio's estimate as a saving, percent.
pub(super) fn saving(ratio: Option<Estimate>) -> Option<Estimate> {
    ratio.map(|r| Estimate {
        mean: 100.0 * (1.0 - r.mean),
        half_width: r.half_width.map(|h| 100.0 * h),
        n: r.n,
    })
}

/// `a <= b`; false if either is missing (NaN).
pub(super) fn at_most(a: f64, b: f64) -> bool {
    a.partial_cmp(&b).is_some_and(|o| o.is_le())
}

/// Means strictly increasing along `xs` (false if any is missing).
pub(super) fn increasing(xs: &[f64]) -> bool {
    xs.iter().all(|x| x.is_finite()) && xs.windows(2).all(|w| w[0] < w[1])
}

/// The rows of the figures that show every scheduler: FCFS in each mode, DCLS and DCMMS.
pub(super) fn rows(alpha_pct: u8, divisor: u32) -> [Variant; 4] {
    [
        Variant::new(SchedulerKind::Fcfs, 0, divisor),
        Variant::new(SchedulerKind::Fcfs, 0, divisor).in_mode(Mode::Calibrated),
        Variant::new(SchedulerKind::Dcls, alpha_pct, divisor),
        Variant::new(SchedulerKind::Dcmms, alpha_pct, divisor),
    ]
}

/// The mean execution time over alpha for FCFS (both modes), DCLS and DCMMS at `divisor`
/// (Figs. 7-8).
pub(super) fn over_alpha(
    runs: &Runs<Metrics>,
    id: &'static str,
    title: &str,
    divisor: u32,
) -> Figure {
    Figure {
        id,
        title: title.into(),
        x_label: "alpha".into(),
        y_label: "average application execution time, h".into(),
        groups: ALPHAS_PCT
            .iter()
            .map(|&a| format!("{:.1}", f64::from(a) / 100.0))
            .collect(),
        x_values: Some(ALPHAS_PCT.iter().map(|&a| f64::from(a) / 100.0).collect()),
        series: rows(0, divisor)
            .iter()
            .map(|v| v.scheduler_label().to_owned())
            .collect(),
        values: (0..4)
            .map(|row| {
                ALPHAS_PCT
                    .iter()
                    .map(|&a| runs.estimate(&rows(a, divisor)[row], hours))
                    .collect()
            })
            .collect(),
        paper: None,
        decimals: 2,
    }
}

/// The one-line reason beside a statement that compares with FCFS, in `r`'s mode: `literal`
/// where N15's balancing FCFS decides it, `calibrated` where FCFS keeps each application at
/// home.
pub(super) fn why_fcfs(r: Reading, literal: &str, calibrated: &str) -> String {
    match r.mode {
        Mode::Literal => format!(
            "SPEC-NOTES N15: the paper does not define FCFS; N15's places each ready task where \
             it can start earliest, from the same planning profiles: {literal}"
        ),
        Mode::Calibrated => format!("FCFS keeps each application on its own cloud: {calibrated}"),
    }
}

/// The one-line reason beside a statement on the feedback, with the numbers of DCLS at alpha 1
/// at `divisor` under `r`: how late tasks finish against their plans, how much of it they
/// waited for their predecessors, and the factors E7 makes of it (median, 90th percentile).
pub(super) fn why_feedback(runs: &Runs<Metrics>, r: Reading, divisor: u32) -> String {
    let v = r.at(SchedulerKind::Dcls, 100, divisor);
    let h = |f: fn(&Metrics) -> Option<f64>| runs.mean(&v, |m| f(m).map(|s| s / 3600.0));
    let situation = if divisor == LOOSE { "loose" } else { "tight" };
    let charged = match r.feedback {
        FeedbackFrom::Erat => "charged by E6 to the cloud the task runs on",
        FeedbackFrom::Ready => "not charged to the cloud here",
    };
    format!(
        "E7 divides a task's delay by its planned run D and multiplies the cloud's rated run by \
         1 + fd, each completion of the origin's tasks there replacing the factor. \
         {situation}, DCLS at alpha 1: tasks finish {:.1} h after their planned finish on \
         average, {:.1} h of it waiting for late predecessors ({charged}); the factors are \
         {:.1} at the median and {:.0} at the 90th percentile, so a factor well above 1 shuts \
         a cloud out of its origin's next placements until a task there finishes on time.",
        h(|m| m.lateness_s),
        h(|m| m.ready_late_s),
        runs.mean(&v, |m| m.factor_median),
        runs.mean(&v, |m| m.factor_p90),
    )
}
