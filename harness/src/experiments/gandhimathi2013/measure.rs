//! What the claims of gandhimathi2013 share: the situations, the modes and readings, the metrics in
//! the reports' units (with the censored reading of the execution time), ratios of means and
//! functions of means with their delta-method intervals, the root causes, the figure helpers
//! and the way each statement is judged in each mode and reading ([`judged`]).

pub(super) use super::params::{self, ALPHAS_PCT, AR_SHARES_PCT, DIVISORS, LOOSE, TIGHT};
pub(super) use super::presets::{Variant, mapping_name, scheduler_name};
use crate::experiments::Runs;
pub(super) use crate::models::multicloud::metrics::Metrics;
pub(super) use crate::models::multicloud::scenario::{
    FeedbackFrom, MappingKind, QueueOrder, SchedulerKind,
};
pub(super) use crate::report::statement::{
    Cause, Interval, Margin, Method, Outcome, Source, Statement, check, claim,
};
use crate::report::stats::{Estimate, half_width};
pub(super) use crate::report::{Figure, Mode, Ticks};

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
    /// The reading every outcome is given in, in `mode`: queues in assignment order, Eq. 6's
    /// `delta_tau` from the task's actual start on its cloud ("the actual execution time of task
    /// i on cloud j", erratum E23).
    pub fn main(mode: Mode) -> Self {
        Self {
            mode,
            queue: QueueOrder::Assigned,
            feedback: FeedbackFrom::Start,
        }
    }

    /// The other readings of `mode`, each one change from [`Reading::main`]: queues in the
    /// order tasks became ready; the feedback measured from the planned ERAT (Eq. 6 as
    /// printed); the feedback measured from the instant a task was ready.
    pub fn others(mode: Mode) -> [Self; 3] {
        let main = Self::main(mode);
        [
            Self {
                queue: QueueOrder::Ready,
                ..main
            },
            Self {
                feedback: FeedbackFrom::Erat,
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
        Mode::BOTH
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
            (_, FeedbackFrom::Erat) => {
                "with Eq. 6's delta_tau measured from the planned ERAT as printed \
                 (feedback_from = \"erat\"), so a cloud is charged with its predecessors' \
                 lateness elsewhere"
            }
            (_, FeedbackFrom::Ready) => {
                "with Eq. 6's delta_tau measured from the later of the planned ERAT and the \
                 instant the task reached its cloud (feedback_from = \"ready\"), so a cloud is \
                 charged with its own queue but not with its predecessors' lateness elsewhere"
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

/// The statements of a part in both modes: `statements` judged under [`Reading::main`] of each
/// mode, the literal and the calibrated statement of each claim side by side; where judging it
/// under one of the [`Reading::others`] of its mode gives another outcome, that outcome and its
/// points are its `Other reading:`.
pub(super) fn judged(
    runs: &Runs<Metrics>,
    statements: impl Fn(&Runs<Metrics>, Reading) -> Vec<Statement>,
) -> Vec<Statement> {
    let per_mode: Vec<Vec<Statement>> = Mode::BOTH
        .into_iter()
        .map(|mode| {
            let others: Vec<(Reading, Vec<Statement>)> = Reading::others(mode)
                .into_iter()
                .map(|r| (r, statements(runs, r)))
                .collect();
            statements(runs, Reading::main(mode))
                .into_iter()
                .map(|s| with_other_readings(s, &others))
                .collect()
        })
        .collect();
    let mut modes: Vec<_> = per_mode.into_iter().map(Vec::into_iter).collect();
    let mut out = Vec::new();
    while let Some(s) = modes[0].next() {
        out.push(s);
        out.extend(modes[1..].iter_mut().filter_map(Iterator::next));
    }
    out
}

/// `s` with the outcomes of the same statement (by id) under the `others` readings that differ
/// from its own as its other reading.
fn with_other_readings(mut s: Statement, others: &[(Reading, Vec<Statement>)]) -> Statement {
    let notes: Vec<String> = others
        .iter()
        .filter_map(|(r, statements)| {
            let o = statements
                .iter()
                .find(|o| o.id == s.id && o.outcome != s.outcome)?;
            let what = if o.points.is_empty() {
                o.evidence.clone().unwrap_or_default()
            } else {
                o.points_text(3)
            };
            Some(format!("{}, it is {}: {what}", r.change(), o.outcome))
        })
        .collect();
    if !notes.is_empty() {
        s.other_reading = Some(notes.join(". Also, "));
    }
    s
}

/// The id of a statement judged in `mode`: `gandhimathi2013.<mode>.<figure>.<slug>`.
pub(super) fn id(mode: Mode, figure: &str, slug: &str) -> String {
    format!("gandhimathi2013.{}.{figure}.{slug}", mode.name())
}

/// A claim that fails for `cause` carries it (only when contradicted: an inconclusive one has
/// not failed).
pub(super) fn failing_for(mut s: Statement, cause: Cause) -> Statement {
    if s.is(Outcome::Contradicted) {
        s.cause = Some(cause);
    }
    s
}

/// Tables 4-5: the largest ratio of DCMMS's time to DCLS's the paper prints, Table 4 at 0 %
/// (0.77 against 0.81), rounded down: "DCMMS does better than DCLS" by at least the paper's
/// smallest gap.
pub(super) const DCMMS_OVER_DCLS: f64 = 0.95;
/// Where [`DCMMS_OVER_DCLS`] comes from.
pub(super) const DCMMS_OVER_DCLS_WORDS: &str = "Tables 4-5 (their 20 % column is Figs. 7-8 at \
     alpha 0.8): DCMMS's time at most 0.95 of DCLS's, the smallest gap printed (Table 4 at 0 %: \
     0.77 against 0.81)";

/// Beside a comparison of DCMMS with DCLS: the paper's gap.
pub(super) const DCMMS_DCLS_WHY: &str = "the paper has DCMMS 5-31 % below DCLS in every cell \
     of Tables 4-5 (0.04-0.19 of FCFS's time).";

/// DCMMS and DCLS come out close.
pub(super) const DCMMS_LIKE_DCLS: Cause = Cause {
    id: "dcmms-like-dcls",
    text: "DCMMS and DCLS order an application's tasks differently (min-min, CNPT) but place \
           them over the same planning profiles with the same feedback, so their times stay \
           within each other's spread: neither is 5 % ahead everywhere",
};

/// The feedback shortens nothing here, under any reading of Eq. 6.
pub(super) const FEEDBACK_SHORTENS_NOTHING: Cause = Cause {
    id: "feedback-shortens-nothing",
    text: "the feedback shortens no execution time here under any reading of Eq. 6 (erratum \
           E23): measured from a task's actual start on its cloud (the paper's words), tasks run \
           about as planned once they start, the factors are about 0 and times change by under \
           1 %; measured from the planned ERAT, which holds the predecessors' planned finishes, \
           delta_tau charges a cloud with its predecessors' lateness elsewhere, Eq. 7 turns it \
           into factors in the hundreds, and the feedback shuts fast clouds out, lengthening \
           times; measured from the instant a task reached its cloud, it charges the cloud with \
           its queue and moves times either way. The paper's 30-40 % gains appear under none",
};

/// FCFS is a good scheduler where applications rarely overlap.
pub(super) const LIGHT_LOAD: Cause = Cause {
    id: "loose-fcfs-as-good",
    text: "in the loose situation applications rarely overlap (Sec. 4.1), so FCFS, placing each \
           ready task where it can start earliest (literal) or at home on idle clouds \
           (calibrated), finishes applications about as soon as the plans do, and the feedback \
           at alpha > 0 slows DCLS and DCMMS: the paper's gains over FCFS (0.49-0.81 of its \
           time in Table 4) need an FCFS that places tasks badly, which the paper does not \
           describe (erratum E25)",
};

/// Reservations leave the schedulers less to decide.
pub(super) const RESERVATIONS_START_AS_ASKED: Cause = Cause {
    id: "reservations-start-as-asked",
    text: "every scheduler starts a reservation at its asked instant (its later tasks as soon \
           as VMs allow, preempting best effort), so the more reservations, the less any \
           scheduler decides and the closer its time comes to FCFS's: the paper's opposite \
           trend needs an FCFS that serves reservations worse, which it does not describe",
};

/// The traces leave the mapping nothing to pack.
pub(super) const WHOLE_SERVERS: Cause = Cause {
    id: "trace-widths-whole-servers",
    text: "the traces' widths are whole nodes of their own clusters (multiples of 4 VMs on \
           Thunder, 8 on Atlas, 16 on the uBGL stand-in), so next to no task needs part of a \
           server and Algorithm 5 has nothing to pack that first-fit does not",
};

/// Loose, every scheduler spends about the same energy.
pub(super) const LOOSE_ENERGY: Cause = Cause {
    id: "loose-energy-same-work-same-span",
    text: "in the loose situation every scheduler runs the same work over about the same span \
           (the traces' last arrivals set it), and idle servers over that span are about half \
           the energy, so DCLS and DCMMS have little to save; at alpha 0.8 their feedback also \
           sends tasks to slower clouds, which keeps servers active longer than FCFS does",
};

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

/// The average execution time with the applications unfinished at the end of a run at their
/// lower bounds (the run's end minus arrival), hours.
pub(super) fn hours_lower(m: &Metrics) -> Option<f64> {
    m.execution_lower_s.map(|s| s / 3600.0)
}

/// A metric of one replication.
pub(super) type Metric = fn(&Metrics) -> Option<f64>;

/// `a + b x` of an interval (its ends swapped when `b < 0`).
pub(super) fn affine(i: Interval, a: f64, b: f64) -> Interval {
    let (x, y) = (a + b * i.low, a + b * i.high);
    Interval {
        estimate: a + b * i.estimate,
        low: x.min(y),
        high: x.max(y),
        ..i
    }
}

/// `100 (1 - r)`: a ratio of means as a saving, percent.
pub(super) fn saving_pct(r: Interval) -> Interval {
    affine(r, 100.0, -100.0)
}

/// `100 (r - 1)`: a ratio of means as a change, percent.
pub(super) fn change_pct(r: Interval) -> Interval {
    affine(r, -100.0, 100.0)
}

/// `h` of the means of `f` at `vs` with its 95 % interval by the delta method over paired
/// replications ([`delta_method`]), over the replications every variant of `vs` has (as
/// [`Runs::combined`] pairs them): for a difference of two ratios of means, which no
/// per-replication ratio may stand for. `None` without runs, or where `h` is not finite.
pub(super) fn of_means(
    runs: &Runs<Metrics>,
    vs: &[Variant],
    f: Metric,
    h: impl Fn(&[f64]) -> f64,
) -> Option<Interval> {
    let rows = std::cell::RefCell::new(Vec::new());
    runs.combined(vs, |ms| {
        let row: Option<Vec<f64>> = ms.iter().map(|m| f(m)).collect();
        rows.borrow_mut().extend(row);
        Some(0.0)
    })?;
    delta_method(&rows.into_inner(), h)
}

/// `h` of the column means of `rows` (one row per replication, one column per variant) with
/// its 95 % interval by the delta method: the Student t interval of the mean of the linearised
/// values `sum_i dh/dm_i (x_ki - m_i)` (the gradient by central differences), centred on
/// `h(means)`; for `h = m_0 / m_1` it is [`Runs::ratio_of_means`]'s interval. One row has no
/// interval (infinitely wide). `None` without rows or where `h` is not finite.
pub(super) fn delta_method(rows: &[Vec<f64>], h: impl Fn(&[f64]) -> f64) -> Option<Interval> {
    let n = rows.len();
    let width = rows.first()?.len();
    let nf = n as f64;
    let means: Vec<f64> = (0..width)
        .map(|i| rows.iter().map(|r| r[i]).sum::<f64>() / nf)
        .collect();
    let value = h(&means);
    if !value.is_finite() {
        return None;
    }
    let half = if n < 2 {
        f64::INFINITY
    } else {
        let gradient: Vec<f64> = (0..width)
            .map(|i| {
                let step = 1e-6 * means[i].abs().max(1e-9);
                let at = |d: f64| {
                    let mut m = means.clone();
                    m[i] += d;
                    h(&m)
                };
                (at(step) - at(-step)) / (2.0 * step)
            })
            .collect();
        let z: Vec<f64> = rows
            .iter()
            .map(|r| (0..width).map(|i| gradient[i] * (r[i] - means[i])).sum())
            .collect();
        half_width(&z).unwrap_or(f64::INFINITY)
    };
    Some(Interval {
        estimate: value,
        low: value - half,
        high: value + half,
        n,
        method: Method::RatioOfMeans,
    })
}

/// An effect on the execution time, computed by `effect` from a metric (hours): with
/// [`hours`], and, where a run of `vs` left applications unfinished, also with
/// [`hours_lower`] (the censored reading a claim's point must agree with), where it differs.
pub(super) fn timed(
    runs: &Runs<Metrics>,
    vs: &[Variant],
    effect: impl Fn(Metric) -> Option<Interval>,
) -> (Option<Interval>, Option<Interval>) {
    let unfinished = vs.iter().any(|v| {
        runs.level(v, |m| Some(m.apps_unfinished as f64))
            .is_some_and(|l| l.estimate > 0.0)
    });
    let plain = effect(hours);
    // Shown only where it differs (the replications compared may all have finished).
    let censored = unfinished
        .then(|| effect(hours_lower))
        .flatten()
        .filter(|c| Some(*c) != plain);
    (plain, censored)
}

/// The applications unfinished at the end of the runs of `vs` (each variant once), in words:
/// the censored outcomes (a few rejected applications on the paper's runs).
pub(super) fn unfinished_text(runs: &Runs<Metrics>, vs: &[Variant]) -> String {
    let (mut apps, mut of, mut reps) = (0.0, 0.0, 0usize);
    let mut seen = Vec::new();
    for v in vs {
        if seen.contains(v) {
            continue;
        }
        seen.push(*v);
        if let Some(l) = runs.level(v, |m| Some(m.apps_unfinished as f64)) {
            apps += l.estimate * l.n as f64;
            reps += l.n;
        }
        if let Some(l) = runs.level(v, |m| Some(m.apps as f64)) {
            of += l.estimate * l.n as f64;
        }
    }
    if apps == 0.0 {
        format!(
            "Every application finished in all {reps} runs compared ({of:.0} applications): \
             none is unfinished at a run's end."
        )
    } else {
        format!(
            "{apps:.0} of {of:.0} applications in the {reps} runs compared did not finish \
             (rejected); where a point's replications hold some, its second interval counts \
             them at their lower bounds (the run's end minus arrival)."
        )
    }
}

/// An interval as a figure's estimate (the half-width of a finite interval; none without one).
pub(super) fn estimate(i: Option<Interval>) -> Option<Estimate> {
    i.map(|i| Estimate {
        mean: i.estimate,
        half_width: (i.n > 1 && i.width().is_finite()).then(|| i.width() / 2.0),
        n: i.n,
    })
}

/// The mean of `f` at `v`, for the evidence only (NaN without runs).
pub(super) fn mean(runs: &Runs<Metrics>, v: &Variant, f: impl Fn(&Metrics) -> Option<f64>) -> f64 {
    runs.level(v, f).map_or(f64::NAN, |l| l.estimate)
}

/// `alpha 0.8` for 80.
pub(super) fn alpha(pct: u8) -> String {
    format!("alpha {:.1}", f64::from(pct) / 100.0)
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
    let alphas = ALPHAS_PCT.map(|a| f64::from(a) / 100.0);
    Figure::lines(id, title)
        .x("alpha", alphas, Ticks::Decimals(1))
        .y("average application execution time, h")
        .all_series(rows(0, divisor).iter().enumerate().map(|(row, v)| {
            let values = ALPHAS_PCT.map(|a| runs.estimate(&rows(a, divisor)[row], hours));
            (v.scheduler_label(), values)
        }))
        .decimals(2)
}

/// The one-line reason beside a statement that compares with FCFS, in `r`'s mode: `literal`
/// where E25's balancing FCFS decides it, `calibrated` where FCFS keeps each application at
/// home.
pub(super) fn why_fcfs(r: Reading, literal: &str, calibrated: &str) -> String {
    match r.mode {
        Mode::Literal => format!(
            "Erratum E25: the paper does not define FCFS; E25's FCFS places each ready task \
             where it can start earliest, from the same planning profiles: {literal}"
        ),
        Mode::Calibrated => format!("FCFS keeps each application on its own cloud: {calibrated}"),
    }
}

/// The one-line reason beside a statement on the feedback, with the numbers of DCLS at alpha 1
/// at `divisor` under `r`: how late tasks finish against their plans, how much of it they
/// waited for their predecessors, and the factors Eq. 7 makes of it (median, 90th percentile).
pub(super) fn why_feedback(runs: &Runs<Metrics>, r: Reading, divisor: u32) -> String {
    let v = r.at(SchedulerKind::Dcls, 100, divisor);
    let h = |f: Metric| mean(runs, &v, |m| f(m).map(|s| s / 3600.0));
    let situation = if divisor == LOOSE { "loose" } else { "tight" };
    let charged = match r.feedback {
        FeedbackFrom::Erat => "charged by Eq. 6 to the cloud the task runs on",
        FeedbackFrom::Start | FeedbackFrom::Ready => "not charged to the cloud here",
    };
    let (median, p90) = (
        mean(runs, &v, |m| m.factor_median),
        mean(runs, &v, |m| m.factor_p90),
    );
    format!(
        "Eq. 7 divides a task's delay by its planned run D and multiplies the cloud's rated run by \
         1 + fd, each completion of the origin's tasks there replacing the factor. \
         {situation}, DCLS at alpha 1: tasks finish {:.1} h after their planned finish on \
         average, {:.1} h of it waiting for late predecessors ({charged}); the factors are \
         {median:.1} at the median and {p90:.1} at the 90th percentile, {}.",
        h(|m| m.lateness_s),
        h(|m| m.ready_late_s),
        if p90 > 1.0 {
            "so a factor well above 1 shuts a cloud out of its origin's next placements until a \
             task there finishes on time"
        } else {
            "so the feedback has next to nothing to correct: clouds are rated about as without it"
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::stats::t975;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-6 * b.abs().max(1.0)
    }

    /// The delta method of a ratio is the ratio of the means (not the mean of the ratios) with
    /// `var(R) ~ (s_x^2 - 2 R s_xy + R^2 s_y^2) / (n mean(y)^2)`, as `Runs::ratio_of_means`.
    #[test]
    fn the_delta_method_of_a_ratio_is_the_ratio_of_means() {
        let rows = vec![vec![1.0, 1.0], vec![9.0, 3.0], vec![4.0, 2.0]];
        let r = delta_method(&rows, |m| m[0] / m[1]).unwrap();
        // Means 14/3 and 2: R = 7/3; the mean of the ratios would be (1 + 3 + 2) / 3 = 2.
        assert!(close(r.estimate, 7.0 / 3.0));
        let (mx, my, rr) = (14.0 / 3.0, 2.0, 7.0 / 3.0);
        let cov = |a: usize, b: usize, ma: f64, mb: f64| {
            rows.iter().map(|x| (x[a] - ma) * (x[b] - mb)).sum::<f64>() / 2.0
        };
        let var = (cov(0, 0, mx, mx) - 2.0 * rr * cov(0, 1, mx, my) + rr * rr * cov(1, 1, my, my))
            / (3.0 * my * my);
        assert!(close(r.high - r.estimate, t975(2) * var.sqrt()));
        assert_eq!((r.n, r.method), (3, Method::RatioOfMeans));
    }

    /// A difference of two ratios: centred on the difference of the ratios of means, its
    /// interval the t interval of the linearised values; one row has no interval.
    #[test]
    fn the_delta_method_of_a_difference_of_ratios() {
        let rows = vec![
            vec![2.0, 4.0, 3.0, 3.0],
            vec![3.0, 5.0, 4.0, 5.0],
            vec![1.0, 3.0, 2.0, 2.0],
            vec![2.0, 4.0, 4.0, 6.0],
        ];
        let h = |m: &[f64]| m[0] / m[1] - m[2] / m[3];
        let d = delta_method(&rows, h).unwrap();
        let means = [2.0, 4.0, 3.25, 4.0];
        assert!(close(d.estimate, h(&means)));
        let z: Vec<f64> = rows
            .iter()
            .map(|r| {
                (r[0] - means[0]) / means[1]
                    - means[0] / means[1].powi(2) * (r[1] - means[1])
                    - (r[2] - means[2]) / means[3]
                    + means[2] / means[3].powi(2) * (r[3] - means[3])
            })
            .collect();
        let var = z.iter().map(|x| x * x).sum::<f64>() / 3.0;
        assert!(close(d.high - d.estimate, t975(3) * (var / 4.0).sqrt()));
        let one = delta_method(&rows[..1], h).unwrap();
        assert!(one.low.is_infinite() && one.high.is_infinite());
        assert!(delta_method(&[], h).is_none());
        assert!(delta_method(&[vec![1.0, 0.0, 1.0, 1.0]], h).is_none());
    }

    /// Savings and changes in percent turn an interval around, ends and all.
    #[test]
    fn savings_and_changes_in_percent() {
        let r = Interval {
            estimate: 0.8,
            low: 0.7,
            high: 0.9,
            n: 10,
            method: Method::RatioOfMeans,
        };
        let s = saving_pct(r);
        assert!(close(s.estimate, 20.0) && close(s.low, 10.0) && close(s.high, 30.0));
        let c = change_pct(r);
        assert!(close(c.estimate, -20.0) && close(c.low, -30.0) && close(c.high, -10.0));
        assert_eq!(s.n, 10);
    }
}
