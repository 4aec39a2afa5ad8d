//! What a reproduction reports, for every paper alike: sections of figures and statements,
//! printed as text and written as CSV, SVG and JSON.
//!
//! - [`stats`]: estimates over replications (mean and 95 % confidence half-width).
//! - [`table`]: aligned plain-text tables, wrapped prose, grouped numbers.
//! - [`columns`]: one table as text and as CSV from one list of columns, with one rule for
//!   missing values (the summaries' tables and files, the figures' CSV).
//! - [`figure`]: the one figure type: a table, a CSV file and an SVG drawing ([`svg`]).
//! - [`gantt`]: Gantt charts of a schedule on numbered nodes, with its utilisation over time.
//! - [`batsim`]: a schedule on numbered nodes as Batsim's `jobs.csv`.
//! - [`html`]: the page a person looks at (`index.html`), and the index of every paper's.
//! - [`statement`]: the judging method: claims and checks, margins, intervals, three outcomes.
//! - [`timing`]: how long the simulations took, kept out of everything else.
//! - [`progress`]: how far a long run is, on standard error while it runs (a bar on a terminal,
//!   a line at most every 10 s off one).
//! - This module: [`Report`] (a paper's sections, with the run's size, parameters and seeds),
//!   [`Section`] (a part of the paper with its figures and statements).
//!
//! A report depends on the runs' metrics only, never on how long they took or where they ran:
//! printed, written as files or as a page, it is the same byte for byte for a reproduction run
//! whole or judged from its shards' run files. [`Timing`] (wall time, events per second) is
//! printed apart (standard error) and written as `timing.txt`, the one file of `--out` that
//! differs from run to run.
//!
//! An outcome is computed from the runs, never decided in advance ([`statement`]): a claim
//! whose data is missing is inconclusive, a check without data fails.

pub mod batsim;
pub mod columns;
pub mod figure;
pub mod gantt;
pub mod html;
pub mod progress;
pub mod statement;
pub mod stats;
pub mod svg;
pub mod table;
pub mod timing;

use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

pub use figure::{Figure, Ticks};
pub use statement::{Outcome, Statement, Tally};
use table::wrap;
pub use timing::Timing;

/// Everything a reproduction measured and judged.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The paper's id in the registry (`kokkinos2009`).
    pub paper: &'static str,
    /// The paper reproduced.
    pub citation: Citation,
    /// What of it is reproduced (`Sec. 6.4, Tables 7-8, Figs. 6-12`).
    pub title: &'static str,
    /// The parameter sets the variants use (one per mode).
    pub parameters: Vec<Parameters>,
    /// How many replications the variants ran.
    pub replications: Replicated,
    /// Simulation runs: the replications of every variant.
    pub runs: usize,
    /// Distinct scenario variants simulated.
    pub variants: usize,
    /// Simulation events processed over all runs.
    pub events: u64,
    /// The seeds the runs drew from, as inclusive ranges `[first, last]`, ascending.
    pub seeds: Vec<[u64; 2]>,
    /// Every variant's key (its named parameters as JSON text), in the order the parts first
    /// name them; `summary.json` holds each as the JSON object it is.
    #[serde(serialize_with = "json_objects")]
    pub variant_keys: Vec<String>,
    /// The sections, in the paper's order.
    pub sections: Vec<Section>,
}

/// How many replications a reproduction's variants ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "policy")]
pub enum Replicated {
    /// Every random variant `random` times, every deterministic one `fixed` times
    /// (`--replications`, shards and stored runs).
    Fixed {
        /// Replications of a random variant.
        random: u32,
        /// Replications of a deterministic variant.
        fixed: u32,
    },
    /// By precision: each random variant `first` times, twice as many while a claim reading
    /// it was unsettled, up to `cap`; deterministic ones once. `used`: the fewest and most any
    /// random variant ran.
    ByPrecision {
        /// The first batch.
        first: u32,
        /// The most.
        cap: u32,
        /// The fewest and most run.
        used: [u32; 2],
    },
}

impl Replicated {
    /// In words, for the report's first lines.
    pub fn text(&self) -> String {
        match *self {
            Replicated::Fixed { random, fixed } => format!(
                "{random} replication(s) of each variant with random distributions, {fixed} of \
                 each deterministic one (all distributions fixed)"
            ),
            Replicated::ByPrecision { first, cap, used } => {
                let ran = match used {
                    [0, 0] => "none here".to_owned(),
                    [a, b] if a == b => format!("{a} ran"),
                    [a, b] => format!("{a}-{b} ran"),
                };
                format!(
                    "replications by precision: each variant with random distributions ran \
                     {first}, then twice as many while a claim reading it was undecided and its \
                     interval at least half its margin wide, up to {cap} ({ran}); each \
                     deterministic one once"
                )
            }
        }
    }
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

/// A reproduced paper, as a reader would cite it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Citation {
    /// The authors, as printed (`P. Kokkinos, E. A. Varvarigos`).
    pub authors: &'static str,
    /// The title, as printed.
    pub title: &'static str,
    /// Where it appeared (journal or conference, volume), or why none is given.
    pub venue: &'static str,
    /// The year of publication.
    pub year: u16,
}

impl std::fmt::Display for Citation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Citation {
            authors,
            title,
            venue,
            year,
        } = self;
        write!(f, "{authors}, \"{title}\", {venue}, {year}")
    }
}

/// Whether a parameter set is the paper's as printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The paper's printed numbers.
    Literal,
    /// The printed numbers with one documented change, where an erratum of `docs/errata.md`
    /// shows they cannot give the paper's claims.
    Calibrated,
}

impl Mode {
    /// Both modes, literal first: the order a paper's parts and tables run in.
    pub const BOTH: [Mode; 2] = [Mode::Literal, Mode::Calibrated];

    /// `calibrated` in calibrated mode, `literal` in literal mode.
    pub fn pick<T>(self, calibrated: T, literal: T) -> T {
        match self {
            Mode::Calibrated => calibrated,
            Mode::Literal => literal,
        }
    }

    /// `literal` or `calibrated`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Literal => "literal",
            Mode::Calibrated => "calibrated",
        }
    }
}

/// One part of a paper (usually one claim, with its figures) and its statements.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Section {
    /// Heading (`Claim 1 (Fig. 4): ...`).
    pub heading: String,
    /// The figures and tables measured.
    pub figures: Vec<Figure>,
    /// The statements judged (claims and checks), in the paper's order.
    pub statements: Vec<Statement>,
    /// The fewest and most replications its random variants ran (set by the runner).
    pub replications: [u32; 2],
    /// Schedules drawn from one replication of its variants (set by the runner, from the
    /// part's [`crate::experiments::Part::schedules`]).
    pub schedules: Vec<Schedule>,
}

/// A schedule of one replication drawn as a Gantt chart ([`gantt`]): an illustration of what
/// the part measures, never judged.
#[derive(Debug, Clone, Serialize)]
pub struct Schedule {
    /// Its file's stem (`gantt-eb-nor`): `--out` writes `<id>.svg`.
    pub id: String,
    /// What it shows: the variant and the replication.
    pub title: String,
    /// The drawing, SVG.
    #[serde(skip)]
    pub svg: String,
}

impl Report {
    /// The printed report: per section its tables, then each statement with its outcome; last,
    /// the headline (claims by outcome, root causes, checks) and the run's size and time.
    pub fn text(&self) -> String {
        let mut out = wrap(
            &format!(
                "qosgate reproduce {}: {} of {}. Each value is the mean over the replications \
                 ± the half-width of its 95 % confidence interval; {}. No interval is shown for \
                 one replication, nor one that rounds to 0.",
                self.paper,
                self.title,
                self.citation,
                self.replications.text()
            ),
            100,
        );
        out.push('\n');
        for s in &self.sections {
            out.push_str(&format!("== {}\n\n", s.heading));
            if let [a, b] = s.replications
                && b > 0
            {
                let n = if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                };
                out.push_str(&format!("({n} replications of its random variants)\n\n"));
            }
            for f in &s.figures {
                out.push_str(&f.text());
                out.push('\n');
            }
            for g in &s.schedules {
                out.push_str(&wrap(
                    &format!(
                        "Schedule: {} (a Gantt chart: {}.svg with --out, and on the page).",
                        g.title, g.id
                    ),
                    100,
                ));
                out.push('\n');
            }
            for st in &s.statements {
                out.push_str(&statement_text(st));
                out.push('\n');
            }
        }
        for (mode, tally) in self.tallies() {
            let mode = mode.map_or(String::new(), |m| format!("({}) ", m.name()));
            out.push_str(&wrap(&format!("{mode}{}.", tally.text()), 100));
        }
        out.push_str(&format!(
            "{} variants, {} runs, {:.1} M events.\n",
            self.variants,
            self.runs,
            self.events as f64 / 1e6,
        ));
        out
    }

    /// The statements' tally, per mode where the paper has two (`None`: one mode).
    pub fn tallies(&self) -> Vec<(Option<Mode>, Tally)> {
        let statements = || self.sections.iter().flat_map(|s| &s.statements);
        let mut modes: Vec<Option<Mode>> = Vec::new();
        for s in statements() {
            if !modes.contains(&s.mode) {
                modes.push(s.mode);
            }
        }
        modes.sort_by_key(|m| m.map(|m| m.name()));
        modes
            .into_iter()
            .map(|m| (m, Tally::of(statements().filter(|s| s.mode == m))))
            .collect()
    }

    /// Marks every unsettled claim as needing more than the `n` replications forced on it.
    pub fn note_unsettled(&mut self, n: u32) {
        for s in self.sections.iter_mut().flat_map(|s| &mut s.statements) {
            if !s.settled {
                s.note = Some(format!(
                    "undecided at the {n} replications forced (--replications): more would be \
                     needed to decide it"
                ));
            }
        }
    }

    /// Every statement's tally, modes together.
    pub fn tally(&self) -> Tally {
        Tally::of(self.sections.iter().flat_map(|s| &s.statements))
    }

    /// Writes `<id>.csv` and `<id>.svg` per figure, `<id>.svg` per schedule, `summary.json`, `index.html` (the page,
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
            write(format!("{}.svg", f.id), &svg::svg(f)?)?;
        }
        for g in self.sections.iter().flat_map(|s| &s.schedules) {
            write(format!("{}.svg", g.id), &g.svg)?;
        }
        let mut json = serde_json::to_string_pretty(self).context("rendering summary.json")?;
        json.push('\n');
        write("summary.json".into(), &json)?;
        write("index.html".into(), &html::page(self)?)?;
        write(html::TIMING_FILE.into(), &timing.text())
    }
}

/// One statement as printed: its outcome and id, the paper's words, what is measured against
/// which margin, the points, and the notes.
fn statement_text(s: &Statement) -> String {
    let kind = match s.kind {
        statement::Kind::Claim => "claim",
        statement::Kind::Check => "check",
    };
    let mode = s.mode.map_or(String::new(), |m| format!(", {}", m.name()));
    let mut out = format!(
        "[{}] {} ({kind}{mode})\n",
        s.outcome.name().to_uppercase(),
        s.id
    );
    out.push_str(&wrap(&format!("Paper: {}", s.text), 100));
    if let Some(c) = &s.construction {
        out.push_str(&wrap(&format!("True by construction: {c}"), 100));
    }
    match &s.margin {
        Some(m) => out.push_str(&wrap(
            &format!("Measured: {}; margin: {}", s.effect, m.criterion()),
            100,
        )),
        None if !s.effect.is_empty() => {
            out.push_str(&wrap(&format!("Criterion: {}", s.effect), 100))
        }
        None => {}
    }
    if !s.points.is_empty() {
        let reps = match s.replications {
            [a, b] if a == b => format!("{a} replication(s)"),
            [a, b] => format!("{a}-{b} replications"),
        };
        out.push_str(&wrap(
            &format!("Points ({reps}): {}.", s.points_text(3)),
            100,
        ));
    }
    if let Some(e) = &s.evidence {
        out.push_str(&wrap(&format!("Evidence: {e}"), 100));
    }
    if let Some(c) = &s.cause {
        out.push_str(&wrap(&format!("Root cause ({}): {}", c.id, c.text), 100));
    }
    if let Some(why) = s.shown_why() {
        out.push_str(&wrap(&format!("Why: {why}"), 100));
    }
    if let Some(note) = &s.other_reading {
        out.push_str(&wrap(&format!("Other reading: {note}"), 100));
    }
    if let Some(note) = &s.note {
        out.push_str(&wrap(&format!("Note: {note}"), 100));
    }
    out
}

/// Serialises JSON texts as the values they hold (a text that is not JSON, as a string).
fn json_objects<S: serde::Serializer>(texts: &[String], serializer: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = serializer.serialize_seq(Some(texts.len()))?;
    for t in texts {
        match serde_json::value::RawValue::from_string(t.clone()) {
            Ok(raw) => seq.serialize_element(&raw)?,
            Err(_) => seq.serialize_element(t)?,
        }
    }
    seq.end()
}
