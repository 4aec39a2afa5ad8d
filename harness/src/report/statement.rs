//! The judging method every paper shares: a paper's statements as claims and checks, each
//! judged against a stated margin by 95 % intervals, with three outcomes.
//!
//! # Claims and checks
//! A [`Kind::Claim`] is a result of the paper that a simulation could contradict. A
//! [`Kind::Check`] is true by construction of the model or of a calibration (its
//! `construction` says which): it must pass, and it is never counted as a reproduced result.
//!
//! # Three outcomes
//! A claim measures an *effect* at one or more points (a paired difference of two variants, a
//! ratio of means, or a level), each with its 95 % interval, and states a [`Margin`]: the
//! paper's own effect size where it prints one ("at least 60 % fewer"), otherwise a practical
//! margin with its reason. The margin splits the effect's axis into the region where the claim
//! holds and the region where it does not ([`Region`]); a point is
//!
//! - [`Outcome::Reproduced`] when its whole interval lies in the claim's region,
//! - [`Outcome::Contradicted`] when its whole interval lies outside it,
//! - [`Outcome::Inconclusive`] otherwise (the interval straddles the margin, or there is none:
//!   one replication of a random variant has no spread to build one from).
//!
//! A claim is reproduced when every point is, contradicted when any point is, and inconclusive
//! otherwise ("at every point" claims; a claim of one point is that point). Where some runs did
//! not finish every item (a request still queued at the end of the run), a point may carry a
//! second interval with those items at their lower bounds: if the two give different outcomes,
//! the point is inconclusive. A deterministic variant's value is exact: its interval is that
//! value.
//!
//! # Precision
//! A point is *settled* when its outcome is decided or its interval is narrower than half the
//! margin (more replications would not decide it); a claim is settled when it is decided or
//! every point is settled. The runner adds replications to a part until every claim of it is
//! settled or its cap is reached ([`crate::experiments::Experiment`]).
//!
//! # Root causes
//! Statements that fail for one stated reason carry the same [`Cause`]; a report counts each
//! cause once among its contradicted claims and lists what it explains.

use std::fmt;

use serde::Serialize;

use super::Mode;

/// A claim of the paper, or a check of the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A result of the paper a simulation could contradict.
    Claim,
    /// True by construction of the model or a calibration: must pass, not a result.
    Check,
}

/// How a statement came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A claim whose every point lies in its region.
    Reproduced,
    /// A claim with a point outside its region.
    Contradicted,
    /// A claim neither reproduced nor contradicted.
    Inconclusive,
    /// A check that holds.
    Passed,
    /// A check that does not hold.
    Failed,
}

impl Outcome {
    /// The outcome's name as printed (`reproduced`, ..., `failed`).
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Reproduced => "reproduced",
            Outcome::Contradicted => "contradicted",
            Outcome::Inconclusive => "inconclusive",
            Outcome::Passed => "passed",
            Outcome::Failed => "failed",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How an interval was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// A deterministic value: exact, no interval.
    Exact,
    /// The mean over replications, Student t interval.
    Mean,
    /// The mean of the per-replication differences of two variants under common random
    /// numbers, Student t interval.
    PairedDifference,
    /// The ratio of two means over paired replications, interval by the delta method.
    RatioOfMeans,
}

/// An effect's estimate and its 95 % interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    /// The point estimate.
    pub estimate: f64,
    /// The interval's ends (equal to the estimate for an exact value).
    pub low: f64,
    /// See `low`.
    pub high: f64,
    /// Replications it rests on.
    pub n: usize,
    /// How it was made.
    pub method: Method,
}

impl Interval {
    /// An exact value (a deterministic variant's).
    pub fn exact(value: f64) -> Self {
        Self {
            estimate: value,
            low: value,
            high: value,
            n: 1,
            method: Method::Exact,
        }
    }

    /// Its width.
    pub fn width(&self) -> f64 {
        self.high - self.low
    }

    /// `estimate [low, high]` with `decimals` decimals (the estimate alone when exact).
    pub fn show(&self, decimals: usize) -> String {
        if self.method == Method::Exact || self.width() == 0.0 {
            format!("{:.decimals$}", self.estimate)
        } else {
            format!(
                "{:.decimals$} [{:.decimals$}, {:.decimals$}]",
                self.estimate, self.low, self.high
            )
        }
    }
}

/// Which side of the margin a claim's effect must lie on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Region {
    /// The effect is at least the margin.
    AtLeast,
    /// The effect is at most the margin.
    AtMost,
    /// The effect's size is at most the margin (`-margin <= effect <= margin`).
    Within,
}

/// Where a margin comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The paper prints the effect (its words).
    Paper(String),
    /// A practical margin: the paper prints none (why this one).
    Practical(String),
}

/// A claim's margin: where its region ends, in the effect's unit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Margin {
    /// Which side of `value` the claim needs.
    pub region: Region,
    /// The threshold, in `unit`.
    pub value: f64,
    /// The effect's unit (`points`, `%`, `s`, `x`).
    pub unit: &'static str,
    /// The paper's effect size, or why a practical margin.
    pub source: Source,
}

impl Margin {
    /// The effect at least `value` `unit`, `source` saying where that comes from.
    pub fn at_least(value: f64, unit: &'static str, source: Source) -> Self {
        Self {
            region: Region::AtLeast,
            value,
            unit,
            source,
        }
    }

    /// The effect at most `value` `unit`.
    pub fn at_most(value: f64, unit: &'static str, source: Source) -> Self {
        Self {
            region: Region::AtMost,
            value,
            unit,
            source,
        }
    }

    /// The effect's size at most `value` `unit`.
    pub fn within(value: f64, unit: &'static str, source: Source) -> Self {
        Self {
            region: Region::Within,
            value,
            unit,
            source,
        }
    }

    /// The outcome of an interval: in the region, outside it, or straddling its edge.
    pub fn judge(&self, i: &Interval) -> Outcome {
        let m = self.value;
        let (inside, outside) = match self.region {
            Region::AtLeast => (i.low >= m, i.high < m),
            Region::AtMost => (i.high <= m, i.low > m),
            Region::Within => (i.low >= -m && i.high <= m, i.low > m || i.high < -m),
        };
        if inside {
            Outcome::Reproduced
        } else if outside {
            Outcome::Contradicted
        } else {
            Outcome::Inconclusive
        }
    }

    /// Whether more replications could still change `i`'s outcome: it is undecided and at
    /// least half the margin wide.
    pub fn settles(&self, i: &Interval) -> bool {
        self.judge(i) != Outcome::Inconclusive || i.width() < self.value.abs() / 2.0
    }

    /// The criterion in words: `at most 1 points (practical: ...)`.
    pub fn criterion(&self) -> String {
        let side = match self.region {
            Region::AtLeast => "at least",
            Region::AtMost => "at most",
            Region::Within => "within ±",
        };
        let source = match &self.source {
            Source::Paper(words) => format!("the paper: {words}"),
            Source::Practical(why) => format!("practical: {why}"),
        };
        format!(
            "{side} {} {} ({source})",
            significant(self.value),
            self.unit
        )
    }
}

/// `x` to four significant digits, without trailing zeros (`37.84`, `0.1`, `60`): a margin
/// derived from the paper's numbers (`(5.1 / 3.7 - 1) x 100`) prints as its reader needs it.
fn significant(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return x.to_string();
    }
    let magnitude = x.abs().log10().floor() as i32;
    let decimals = usize::try_from(3 - magnitude).unwrap_or(0);
    let text = format!("{x:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        text
    }
}

/// One point of a claim: where it is measured, the interval, and its outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Point {
    /// Where (`U4 546 s/t, GBP - GB`).
    pub label: String,
    /// The effect's interval; `None` without one (no data, or one random replication).
    pub interval: Option<Interval>,
    /// The interval with unfinished items at their lower bounds, where runs left some.
    pub censored: Option<Interval>,
    /// The point's outcome (a claim's; a check's points are judged the same way).
    pub outcome: Outcome,
    /// Whether more replications could not change it ([`Margin::settles`]).
    pub settled: bool,
}

/// A reason several statements fail for (counted once in a report's headline).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Cause {
    /// A short stable id (`eq5-negative-cloud-share`).
    pub id: &'static str,
    /// The reason, in a sentence.
    pub text: &'static str,
}

/// One statement of a paper, judged.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Statement {
    /// Its stable id, `paper.figure.slug` (`kokkinos2009.fig4.gs-no-misses`).
    pub id: String,
    /// Claim or check.
    pub kind: Kind,
    /// The parameter set it was judged on, for a paper with literal and calibrated modes.
    pub mode: Option<Mode>,
    /// The paper's statement, in its words where it has them.
    pub text: String,
    /// What is measured at each point (`GBP's miss % minus the other scenario's, points`).
    pub effect: String,
    /// The margin (every claim; a check judged on intervals).
    pub margin: Option<Margin>,
    /// A check: the construction that makes it true.
    pub construction: Option<String>,
    /// The points, in order.
    pub points: Vec<Point>,
    /// The outcome.
    pub outcome: Outcome,
    /// Whether more replications could not change the outcome.
    pub settled: bool,
    /// Replications the points rest on, fewest to most.
    pub replications: [usize; 2],
    /// Further numbers the judge shows beside the points.
    pub evidence: Option<String>,
    /// The reason it fails, shared with other statements.
    pub cause: Option<Cause>,
    /// Why it cannot come out otherwise here (printed when it is not reproduced or passed).
    pub why: Option<String>,
    /// How it fares under another reading of the paper.
    pub other_reading: Option<String>,
    /// What the outcome needs that the runs do not give (more replications than forced).
    pub note: Option<String>,
}

/// A claim of the paper: `claim(id, text, effect, margin)`, then its points.
pub fn claim(id: impl Into<String>, text: &str, effect: &str, margin: Margin) -> Builder {
    Builder::new(id.into(), Kind::Claim, text, effect, Some(margin), None)
}

/// A check: true by `construction`, judged by [`Builder::holds`] or by points against a margin.
pub fn check(id: impl Into<String>, text: &str, construction: &str) -> Builder {
    Builder::new(id.into(), Kind::Check, text, "", None, Some(construction))
}

/// A statement being put together ([`claim`], [`check`]); [`Builder::done`] judges it.
#[derive(Debug, Clone)]
pub struct Builder {
    s: Statement,
    /// A check decided by a condition rather than by points.
    condition: Option<bool>,
}

impl Builder {
    fn new(
        id: String,
        kind: Kind,
        text: &str,
        effect: &str,
        margin: Option<Margin>,
        construction: Option<&str>,
    ) -> Self {
        Self {
            s: Statement {
                id,
                kind,
                mode: None,
                text: text.to_owned(),
                effect: effect.to_owned(),
                margin,
                construction: construction.map(str::to_owned),
                points: Vec::new(),
                outcome: Outcome::Inconclusive,
                settled: true,
                replications: [0, 0],
                evidence: None,
                cause: None,
                why: None,
                other_reading: None,
                note: None,
            },
            condition: None,
        }
    }

    /// The effect measured at each point and the margin (a check judged on intervals).
    pub fn against(mut self, effect: &str, margin: Margin) -> Self {
        self.s.effect = effect.to_owned();
        self.s.margin = Some(margin);
        self
    }

    /// A point: `label` and the effect's interval there (`None`: no interval).
    pub fn point(self, label: impl Into<String>, interval: Option<Interval>) -> Self {
        self.point_censored(label, interval, None)
    }

    /// A point whose runs left unfinished items: `censored` is the interval with them at their
    /// lower bounds.
    pub fn point_censored(
        mut self,
        label: impl Into<String>,
        interval: Option<Interval>,
        censored: Option<Interval>,
    ) -> Self {
        self.s.points.push(Point {
            label: label.into(),
            interval,
            censored,
            outcome: Outcome::Inconclusive,
            settled: false,
        });
        self
    }

    /// Points from `(label, interval)` pairs.
    pub fn points(
        self,
        points: impl IntoIterator<Item = (impl Into<String>, Option<Interval>)>,
    ) -> Self {
        points
            .into_iter()
            .fold(self, |b, (label, interval)| b.point(label, interval))
    }

    /// A check decided by `holds` (a construction's consequence computed from the runs), with
    /// the numbers it rests on.
    pub fn holds(mut self, holds: bool, evidence: String) -> Self {
        self.condition = Some(holds);
        self.s.evidence = Some(evidence);
        self
    }

    /// The parameter set it is judged on.
    pub fn mode(mut self, mode: Mode) -> Self {
        self.s.mode = Some(mode);
        self
    }

    /// Further numbers to show beside the points.
    pub fn evidence(mut self, evidence: String) -> Self {
        self.s.evidence = Some(evidence);
        self
    }

    /// The shared reason it fails.
    pub fn cause(mut self, cause: Cause) -> Self {
        self.s.cause = Some(cause);
        self
    }

    /// Why it cannot come out otherwise here.
    pub fn why(mut self, why: &str) -> Self {
        self.s.why = Some(why.to_owned());
        self
    }

    /// How it fares under another reading of the paper.
    pub fn other_reading(mut self, note: String) -> Self {
        self.s.other_reading = Some(note);
        self
    }

    /// The judged statement: each point against the margin, then the whole (see the module
    /// doc). A statement with no point and no condition has nothing shown: a claim is then
    /// inconclusive, a check fails.
    pub fn done(mut self) -> Statement {
        let mut s = self.s;
        if let Some(margin) = &s.margin {
            for p in &mut s.points {
                let plain = p.interval.as_ref().map(|i| margin.judge(i));
                let censored = p.censored.as_ref().map(|i| margin.judge(i));
                p.outcome = match (plain, censored) {
                    (Some(a), Some(b)) if a != b => Outcome::Inconclusive,
                    (Some(a), _) => a,
                    (None, _) => Outcome::Inconclusive,
                };
                p.settled = match (&p.interval, &p.censored) {
                    (Some(i), None) => margin.settles(i),
                    (Some(i), Some(c)) => {
                        p.outcome != Outcome::Inconclusive || {
                            margin.settles(i) && margin.settles(c)
                        }
                    }
                    // One random replication: more would give an interval.
                    (None, _) => false,
                };
            }
        }
        let ns: Vec<usize> = s
            .points
            .iter()
            .filter_map(|p| p.interval.map(|i| i.n))
            .collect();
        s.replications = [
            ns.iter().copied().min().unwrap_or(0),
            ns.iter().copied().max().unwrap_or(0),
        ];
        let any = |o| s.points.iter().any(|p| p.outcome == o);
        let shown = self.condition.is_some() || !s.points.is_empty();
        let combined = if !shown {
            Outcome::Inconclusive
        } else if any(Outcome::Contradicted) {
            Outcome::Contradicted
        } else if any(Outcome::Inconclusive) {
            Outcome::Inconclusive
        } else {
            Outcome::Reproduced
        };
        s.outcome = match (s.kind, self.condition.take()) {
            (Kind::Claim, _) => combined,
            (Kind::Check, Some(true)) if s.points.is_empty() => Outcome::Passed,
            (Kind::Check, Some(holds)) => {
                if holds && combined == Outcome::Reproduced {
                    Outcome::Passed
                } else {
                    Outcome::Failed
                }
            }
            (Kind::Check, None) if shown && combined == Outcome::Reproduced => Outcome::Passed,
            (Kind::Check, None) => Outcome::Failed,
        };
        s.settled = matches!(
            s.outcome,
            Outcome::Reproduced | Outcome::Contradicted | Outcome::Passed
        ) || (shown && s.points.iter().all(|p| p.settled));
        s
    }
}

impl Statement {
    /// Whether it is a claim that came out `outcome`.
    pub fn is(&self, outcome: Outcome) -> bool {
        self.outcome == outcome
    }

    /// The reason shown with it (`Why:`): only when it is not reproduced or passed.
    pub fn shown_why(&self) -> Option<&str> {
        self.why
            .as_deref()
            .filter(|_| !matches!(self.outcome, Outcome::Reproduced | Outcome::Passed))
    }

    /// The points in words: `label: estimate [low, high] (outcome)`, `decimals` decimals.
    pub fn points_text(&self, decimals: usize) -> String {
        self.points
            .iter()
            .map(|p| {
                let value = p
                    .interval
                    .map_or_else(|| "no interval".to_owned(), |i| i.show(decimals));
                let censored = p
                    .censored
                    .map(|c| format!(", unfinished at their lower bounds {}", c.show(decimals)))
                    .unwrap_or_default();
                format!("{}: {value}{censored} ({})", p.label, p.outcome)
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// Counts of a report's statements by kind and outcome, and its contradicted claims' causes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Tally {
    /// Claims reproduced.
    pub reproduced: usize,
    /// Claims contradicted.
    pub contradicted: usize,
    /// Claims inconclusive.
    pub inconclusive: usize,
    /// Contradicted claims once each root cause is counted once.
    pub contradicted_causes: usize,
    /// Checks passed.
    pub passed: usize,
    /// Checks in all.
    pub checks: usize,
}

impl Tally {
    /// The tally of `statements`.
    pub fn of<'a>(statements: impl IntoIterator<Item = &'a Statement>) -> Self {
        let mut t = Tally::default();
        let mut causes = Vec::new();
        for s in statements {
            match s.outcome {
                Outcome::Reproduced => t.reproduced += 1,
                Outcome::Contradicted => {
                    t.contradicted += 1;
                    match s.cause {
                        Some(c) if causes.contains(&c.id) => {}
                        Some(c) => {
                            causes.push(c.id);
                            t.contradicted_causes += 1;
                        }
                        None => t.contradicted_causes += 1,
                    }
                }
                Outcome::Inconclusive => t.inconclusive += 1,
                Outcome::Passed => {
                    t.passed += 1;
                    t.checks += 1;
                }
                Outcome::Failed => t.checks += 1,
            }
        }
        t
    }

    /// Claims in all.
    pub fn claims(&self) -> usize {
        self.reproduced + self.contradicted + self.inconclusive
    }

    /// `3 reproduced, 2 contradicted (1 root cause), 1 inconclusive of 6 claims; 4 of 4 checks
    /// pass`.
    pub fn text(&self) -> String {
        let causes = if self.contradicted_causes < self.contradicted {
            format!(
                " ({} root cause{})",
                self.contradicted_causes,
                if self.contradicted_causes == 1 {
                    ""
                } else {
                    "s"
                }
            )
        } else {
            String::new()
        };
        format!(
            "{} reproduced, {} contradicted{causes}, {} inconclusive of {} claims; {} of {} \
             checks pass",
            self.reproduced,
            self.contradicted,
            self.inconclusive,
            self.claims(),
            self.passed,
            self.checks
        )
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A paired interval of 10 replications from `low` to `high`.
    pub(crate) fn iv(low: f64, high: f64) -> Option<Interval> {
        Some(Interval {
            estimate: (low + high) / 2.0,
            low,
            high,
            n: 10,
            method: Method::PairedDifference,
        })
    }

    /// Margins print to four significant digits without trailing zeros; whole numbers and
    /// small ones as they are.
    #[test]
    fn a_margin_prints_to_four_significant_digits() {
        let cases = [
            ((5.1f64 / 3.7 - 1.0) * 100.0, "37.84"),
            (60.0, "60"),
            (-0.17, "-0.17"),
            (0.1, "0.1"),
            (1.1, "1.1"),
            (1234.6, "1235"),
            (0.000123456, "0.0001235"),
            (0.0, "0"),
        ];
        for (x, want) in cases {
            assert_eq!(significant(x), want, "{x}");
        }
        let m = practical((5.1f64 / 3.7 - 1.0) * 100.0, Region::AtLeast);
        assert_eq!(m.criterion(), "at least 37.84 points (practical: a test)");
    }

    fn practical(value: f64, region: Region) -> Margin {
        Margin {
            region,
            value,
            unit: "points",
            source: Source::Practical("a test".into()),
        }
    }

    /// The regions: reproduced inside, contradicted outside, inconclusive across the edge.
    #[test]
    fn an_interval_is_judged_against_its_margin() {
        let m = practical(1.0, Region::AtLeast);
        let judge = |l, h| m.judge(&iv(l, h).unwrap());
        assert_eq!(judge(1.0, 2.0), Outcome::Reproduced);
        assert_eq!(judge(0.0, 0.9), Outcome::Contradicted);
        assert_eq!(judge(0.5, 1.5), Outcome::Inconclusive);
        let m = practical(1.0, Region::AtMost);
        assert_eq!(m.judge(&iv(-3.0, 1.0).unwrap()), Outcome::Reproduced);
        assert_eq!(m.judge(&iv(1.1, 3.0).unwrap()), Outcome::Contradicted);
        let m = practical(1.0, Region::Within);
        assert_eq!(m.judge(&iv(-1.0, 1.0).unwrap()), Outcome::Reproduced);
        assert_eq!(m.judge(&iv(-3.0, -1.5).unwrap()), Outcome::Contradicted);
        assert_eq!(m.judge(&iv(0.5, 1.5).unwrap()), Outcome::Inconclusive);
        // Settled: decided, or narrower than half the margin.
        assert!(m.settles(&iv(0.9, 1.3).unwrap()));
        assert!(!m.settles(&iv(0.5, 1.5).unwrap()));
    }

    /// Every point reproduced: reproduced; any contradicted: contradicted; else inconclusive.
    /// A point without an interval is inconclusive and unsettled; a censored reading that
    /// disagrees makes a point inconclusive.
    #[test]
    fn a_claim_combines_its_points() {
        let claim = |points: &[Option<Interval>]| {
            claim("p.f.s", "t", "e", practical(0.0, Region::AtMost))
                .points(points.iter().enumerate().map(|(i, p)| (i.to_string(), *p)))
                .done()
        };
        let yes = iv(-2.0, -1.0);
        let no = iv(1.0, 2.0);
        let across = iv(-1.0, 1.0);
        assert_eq!(claim(&[yes, yes]).outcome, Outcome::Reproduced);
        assert_eq!(claim(&[yes, across, no]).outcome, Outcome::Contradicted);
        assert!(claim(&[yes, across, no]).settled);
        let open = claim(&[yes, across]);
        assert_eq!(open.outcome, Outcome::Inconclusive);
        assert!(!open.settled);
        let none = claim(&[yes, None]);
        assert_eq!((none.outcome, none.settled), (Outcome::Inconclusive, false));
        assert_eq!(claim(&[]).outcome, Outcome::Inconclusive);
        let censored = super::claim("p.f.c", "t", "e", practical(0.0, Region::AtMost))
            .point_censored("x", yes, no)
            .done();
        assert_eq!(censored.outcome, Outcome::Inconclusive);
        assert_eq!(censored.replications, [10, 10]);
    }

    /// A check passes only when its condition holds (and its points, if any, lie in their
    /// region); with nothing shown it fails.
    #[test]
    fn a_check_passes_or_fails() {
        let c = || check("p.f.c", "t", "by construction");
        assert_eq!(c().holds(true, "x".into()).done().outcome, Outcome::Passed);
        assert_eq!(c().holds(false, "x".into()).done().outcome, Outcome::Failed);
        assert_eq!(c().done().outcome, Outcome::Failed);
        let m = practical(1.0, Region::Within);
        let pts = c().against("e", m.clone()).point("a", iv(-0.5, 0.5)).done();
        assert_eq!(pts.outcome, Outcome::Passed);
        let pts = c().against("e", m).point("a", iv(-0.5, 1.5)).done();
        assert_eq!(pts.outcome, Outcome::Failed);
    }

    /// Contradicted claims that share a cause count once among the causes.
    #[test]
    fn a_tally_counts_root_causes_once() {
        const C: Cause = Cause {
            id: "c",
            text: "one reason",
        };
        let no = |id: &str| {
            claim(id, "t", "e", practical(0.0, Region::AtMost))
                .point("x", iv(1.0, 2.0))
                .cause(C)
                .done()
        };
        let alone = claim("p.f.a", "t", "e", practical(0.0, Region::AtMost))
            .point("x", iv(1.0, 2.0))
            .done();
        let ok = check("p.f.k", "t", "c").holds(true, "x".into()).done();
        let t = Tally::of([&no("p.f.1"), &no("p.f.2"), &alone, &ok]);
        assert_eq!((t.contradicted, t.contradicted_causes), (3, 2));
        assert_eq!(
            t.text(),
            "0 reproduced, 3 contradicted (2 root causes), 0 inconclusive of 3 claims; 1 of 1 \
             checks pass"
        );
    }
}
