//! What a reproduction reports, for every paper alike: sections of figures and verdicts,
//! printed as text and written as CSV, SVG and JSON.
//!
//! - [`stats`]: estimates over replications (mean and 95 % confidence half-width).
//! - [`table`]: aligned plain-text tables, wrapped prose, grouped numbers.
//! - [`figure`]: the one figure type: a table, a CSV file and an SVG drawing ([`svg`]).
//! - [`html`]: the page a person looks at (`index.html`), and the index of every paper's.
//! - [`timing`]: how long the simulations took, kept out of everything else.
//! - This module: [`Report`] (a paper's sections, with the run's size, parameters and seeds),
//!   [`Section`] (a claim with its figures and verdicts) and [`Verdict`].
//!
//! A report depends on the runs' metrics only, never on how long they took or where they ran:
//! printed, written as files or as a page, it is the same byte for byte for a reproduction run
//! whole or judged from its shards' run files. [`Timing`] (wall time, events per second) is
//! printed apart (standard error) and written as `timing.txt`, the one file of `--out` that
//! differs from run to run.
//!
//! A verdict is computed from the runs, never decided in advance: [`verdict`] holds only when
//! no failure was found, and a claim whose data is missing fails.

pub mod figure;
pub mod html;
pub mod stats;
pub mod svg;
pub mod table;
pub mod timing;

use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

pub use figure::Figure;
use table::wrap;
pub use timing::Timing;

/// Everything a reproduction measured and judged.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The paper's id in the registry (`kokkinos2009`).
    pub paper: &'static str,
    /// What is reproduced (`seed 004 Sec. 6.4`).
    pub title: &'static str,
    /// The parameter sets the variants use (one per mode).
    pub parameters: Vec<Parameters>,
    /// Replications of each variant with a random distribution.
    pub random_replications: u32,
    /// Replications of each variant whose distributions are all fixed (deterministic).
    pub fixed_replications: u32,
    /// Simulation runs: the replications of every variant.
    pub runs: usize,
    /// Distinct scenario variants simulated.
    pub variants: usize,
    /// Simulation events processed over all runs.
    pub events: u64,
    /// The seeds the runs drew from, as inclusive ranges `[first, last]`, ascending.
    pub seeds: Vec<[u64; 2]>,
    /// Every variant's key (its named parameters), in the order the parts first name them.
    pub variant_keys: Vec<String>,
    /// The sections, in the paper's order.
    pub sections: Vec<Section>,
}

/// One parameter set of a paper's variants.
#[derive(Debug, Clone, Serialize)]
pub struct Parameters {
    /// Literal or calibrated.
    pub mode: Mode,
    /// What it sets, with the paper's tables and sections (and, calibrated, the one change and
    /// why).
    pub description: String,
}

/// Whether a parameter set is the paper's as printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The paper's printed numbers.
    Literal,
    /// The printed numbers with one documented change, where SPEC-NOTES shows they cannot give
    /// the paper's claims.
    Calibrated,
}

impl Mode {
    /// `literal` or `calibrated`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Literal => "literal",
            Mode::Calibrated => "calibrated",
        }
    }
}

/// One claim of the paper with its figures.
#[derive(Debug, Clone, Serialize)]
pub struct Section {
    /// Heading (`Claim 1 (Fig. 4): ...`).
    pub heading: String,
    /// The figures and tables measured.
    pub figures: Vec<Figure>,
    /// The verdicts on the claim (one per statement checked).
    pub verdicts: Vec<Verdict>,
}

/// A claim checked against the measurements.
#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    /// The paper's statement.
    pub claim: String,
    /// What the measurements must show for it to hold.
    pub criterion: String,
    /// Whether they do.
    pub holds: bool,
    /// The numbers the verdict rests on (and, when it fails, where).
    pub evidence: String,
    /// Why a statement that does not hold cannot hold here, in one line (printed only when it
    /// does not hold): a known inconsistency of the paper, with its SPEC-NOTES item.
    pub why: Option<String>,
    /// How the statement fares under another reading of the paper, where the paper admits two
    /// (printed as `Other reading:` whether or not the statement holds).
    pub other_reading: Option<String>,
}

impl Verdict {
    /// The verdict with `why`, the one-line reason a failure is expected.
    pub fn because(self, why: &str) -> Self {
        Self {
            why: Some(why.to_owned()),
            ..self
        }
    }

    /// The verdict with `note`, how the statement fares under another reading of the paper.
    pub fn other_reading(self, note: String) -> Self {
        Self {
            other_reading: Some(note),
            ..self
        }
    }

    /// The reason shown with the verdict (`Why:`): [`Verdict::why`], only when the statement does
    /// not hold.
    pub fn shown_why(&self) -> Option<&str> {
        self.why.as_deref().filter(|_| !self.holds)
    }
}

/// How a claim fares as a whole: a claim is split into statements, each of which holds or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// Every statement holds.
    Holds,
    /// Some statements hold, some do not.
    Partial,
    /// No statement holds (a claim without statements is one of these: nothing was shown).
    DoesNotHold,
}

impl Standing {
    /// The standing of `verdicts` together.
    pub fn of<'a>(verdicts: impl IntoIterator<Item = &'a Verdict>) -> Self {
        let (mut held, mut total) = (0, 0);
        for v in verdicts {
            total += 1;
            held += usize::from(v.holds);
        }
        match (held, total) {
            (0, _) => Standing::DoesNotHold,
            (h, t) if h == t => Standing::Holds,
            _ => Standing::Partial,
        }
    }

    /// `holds`, `partial` or `does not hold`.
    pub fn name(self) -> &'static str {
        match self {
            Standing::Holds => "holds",
            Standing::Partial => "partial",
            Standing::DoesNotHold => "does not hold",
        }
    }
}

/// A verdict: it holds if nothing is in `failures` (listed after the evidence otherwise).
pub fn verdict(claim: &str, criterion: &str, failures: &[String], evidence: String) -> Verdict {
    let mut evidence = evidence;
    if !failures.is_empty() {
        const SHOWN: usize = 8;
        evidence.push_str(" Fails: ");
        evidence.push_str(&failures[..failures.len().min(SHOWN)].join("; "));
        if failures.len() > SHOWN {
            evidence.push_str(&format!(" (and {} more)", failures.len() - SHOWN));
        }
        evidence.push('.');
    }
    Verdict {
        claim: claim.into(),
        criterion: criterion.into(),
        holds: failures.is_empty(),
        evidence,
        why: None,
        other_reading: None,
    }
}

impl Report {
    /// The printed report: per section its tables, then each claim beside its verdict; last, a
    /// summary line of the verdicts and the run's size and time.
    pub fn text(&self) -> String {
        let mut out = wrap(
            &format!(
                "qosgate reproduce {}: {}. Each value is the mean over \
                 the replications ± the half-width of its 95 % confidence interval: {} \
                 replication(s) of each variant with random distributions, {} of each \
                 deterministic one (all distributions fixed). No interval is shown for one \
                 replication, nor one that rounds to 0.",
                self.paper, self.title, self.random_replications, self.fixed_replications
            ),
            100,
        );
        out.push('\n');
        for s in &self.sections {
            out.push_str(&format!("== {}\n\n", s.heading));
            for f in &s.figures {
                out.push_str(&f.text());
                out.push('\n');
            }
            for v in &s.verdicts {
                out.push_str(&wrap(&format!("Paper: {}", v.claim), 100));
                out.push_str(&wrap(&format!("Criterion: {}", v.criterion), 100));
                out.push_str(&wrap(
                    &format!(
                        "Verdict: {}. {}",
                        if v.holds { "HOLDS" } else { "DOES NOT HOLD" },
                        v.evidence
                    ),
                    100,
                ));
                if let Some(why) = v.shown_why() {
                    out.push_str(&wrap(&format!("Why: {why}"), 100));
                }
                if let Some(note) = &v.other_reading {
                    out.push_str(&wrap(&format!("Other reading: {note}"), 100));
                }
                out.push('\n');
            }
        }
        let (held, total) = self.tally();
        out.push_str(&format!(
            "{held} of {total} claims hold. {} variants, {} runs, {:.1} M events.\n",
            self.variants,
            self.runs,
            self.events as f64 / 1e6,
        ));
        out
    }

    /// The verdicts, `(held, total)`.
    pub fn tally(&self) -> (usize, usize) {
        let verdicts = self.sections.iter().flat_map(|s| &s.verdicts);
        (
            verdicts.clone().filter(|v| v.holds).count(),
            verdicts.count(),
        )
    }

    /// Writes `<id>.csv` and `<id>.svg` per figure, `summary.json`, `index.html` (the page,
    /// [`html`]) and `timing.txt` (`timing`'s text, the one file that differs between two runs
    /// of one reproduction) into `dir` (created if missing).
    ///
    /// Errors: the directory cannot be created or a file written (named), or a plot fails.
    pub fn write_files(&self, dir: &Path, timing: &Timing) -> Result<()> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let write = |name: String, text: &str| {
            let path = dir.join(name);
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
        };
        for f in self.sections.iter().flat_map(|s| &s.figures) {
            write(format!("{}.csv", f.id), &f.csv())?;
            write(format!("{}.svg", f.id), &f.svg()?)?;
        }
        let mut json = serde_json::to_string_pretty(self).context("rendering summary.json")?;
        json.push('\n');
        write("summary.json".into(), &json)?;
        write("index.html".into(), &html::page(self)?)?;
        write(html::TIMING_FILE.into(), &timing.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_holds_when_all_its_statements_do_partially_when_some_do() {
        let ok = verdict("c", "k", &[], "n.".into());
        let bad = verdict("c", "k", &["f".into()], "n.".into());
        assert_eq!(Standing::of([&ok, &ok]), Standing::Holds);
        assert_eq!(Standing::of([&ok, &bad]), Standing::Partial);
        assert_eq!(Standing::of([&bad, &bad]), Standing::DoesNotHold);
        assert_eq!(Standing::of([]), Standing::DoesNotHold);
        assert_eq!(bad.clone().because("w").shown_why(), Some("w"));
        assert_eq!(ok.because("w").shown_why(), None);
    }

    #[test]
    fn a_verdict_holds_only_without_failures_and_lists_them() {
        let ok = verdict("c", "k", &[], "numbers.".into());
        assert!(ok.holds);
        assert_eq!(ok.evidence, "numbers.");
        let failures: Vec<String> = (0..10).map(|i| format!("f{i}")).collect();
        let bad = verdict("c", "k", &failures, "numbers.".into());
        assert!(!bad.holds);
        assert_eq!(
            bad.evidence,
            "numbers. Fails: f0; f1; f2; f3; f4; f5; f6; f7 (and 2 more)."
        );
    }
}
