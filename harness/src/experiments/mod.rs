//! The papers reproduced, and the runner they share.
//!
//! A paper is an [`Experiment`]: its id and title, its presets, and its [`Part`]s. A part is
//! one claim of the paper: the figures it shows, the variants (scenarios) it needs and a
//! `judge` that turns the runs into a [`Section`] of figures and verdicts. The [`runner`]
//! builds every variant's scenario once (variants shared by parts run once), runs every
//! (variant, replication) pair in parallel and hands the metrics back by variant.
//!
//! [`Paper`] is the object-safe face of an experiment that the registry ([`PAPERS`]) lists and
//! the command line drives: `qosgate reproduce <id>|all [--only <part or figure>] [--list]`,
//! `qosgate presets` and `qosgate run --preset NAME`.
//!
//! A new paper is a folder here with a type implementing [`Experiment`] and a line in
//! [`PAPERS`] (docs/adding-a-paper.md walks through it).

pub mod kokkinos2009;
pub mod runner;

use std::fmt::Debug;

use anyhow::{Result, bail};

use crate::models::{AnyScenario, Model};
use crate::report::{Report, Section};
pub use runner::Runs;

/// A paper's experiments.
pub trait Experiment: Sync {
    /// The model every variant runs on.
    type Model: Model;
    /// One point of the paper's experiments, by named parameters. Its `Debug` form is its key:
    /// two variants with the same key are the same simulation.
    type Variant: Debug + Clone + Send + Sync;

    /// The id on the command line (`kokkinos2009`: first author and year).
    const ID: &'static str;
    /// What is reproduced (`seed 004 Sec. 6.4`).
    const TITLE: &'static str;
    /// Replications of a variant with random draws when the user gives none.
    const DEFAULT_REPLICATIONS: u32;

    /// The claims, in the paper's order.
    fn parts(&self) -> Vec<Part<Self>>;
    /// The scenario of one variant.
    ///
    /// Errors: a variant the model refuses (named).
    fn scenario(&self, variant: &Self::Variant) -> Result<<Self::Model as Model>::Scenario>;
    /// The paper's built-in scenarios, for `qosgate presets` and `qosgate run --preset`.
    ///
    /// Errors: a preset that cannot be built (a bug: the message names it).
    fn presets(&self) -> Result<Vec<Box<dyn AnyScenario>>>;
}

/// The metrics of one model, by variant.
pub type RunsOf<E> = Runs<<<E as Experiment>::Model as Model>::Metrics>;

/// One claim of a paper: what it shows, what it needs, how it is judged.
pub struct Part<E: Experiment + ?Sized> {
    /// Short id for `--only` (`claim1`).
    pub id: &'static str,
    /// The ids of the figures and tables it shows (`fig4`), also accepted by `--only`.
    pub figures: &'static [&'static str],
    /// The variants its figures and verdicts read.
    pub variants: Vec<E::Variant>,
    /// The figures and verdicts, computed from the runs (a variant without runs gives missing
    /// values, and every verdict that needs it fails).
    pub judge: fn(&RunsOf<E>) -> Section,
}

/// How to run a reproduction.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Replications of every variant (default: the experiment's for random variants, 1 for
    /// deterministic ones).
    pub replications: Option<u32>,
    /// Run only the part with this id, or the part that shows this figure.
    pub only: Option<String>,
    /// Show a progress bar on standard error.
    pub progress: bool,
}

/// A paper in the registry: the object-safe face of an [`Experiment`].
pub trait Paper: Sync {
    /// [`Experiment::ID`].
    fn id(&self) -> &'static str;
    /// [`Experiment::TITLE`].
    fn title(&self) -> &'static str;
    /// Each part's id and figure ids, in order.
    fn contents(&self) -> Vec<(&'static str, &'static [&'static str])>;
    /// Whether a part has the id `only` or shows the figure `only` (what `--only` accepts).
    fn has(&self, only: &str) -> bool {
        self.contents()
            .iter()
            .any(|(id, figures)| *id == only || figures.contains(&only))
    }
    /// [`Experiment::presets`].
    ///
    /// Errors: a preset that cannot be built.
    fn presets(&self) -> Result<Vec<Box<dyn AnyScenario>>>;
    /// Runs the parts `options` selects and judges them.
    ///
    /// Errors: an `only` that names no part or figure, zero replications, a scenario or
    /// simulation error (named by its scenario and replication).
    fn reproduce(&self, options: &Options) -> Result<Report>;
}

impl<E: Experiment> Paper for E {
    fn id(&self) -> &'static str {
        E::ID
    }

    fn title(&self) -> &'static str {
        E::TITLE
    }

    fn contents(&self) -> Vec<(&'static str, &'static [&'static str])> {
        self.parts().iter().map(|p| (p.id, p.figures)).collect()
    }

    fn presets(&self) -> Result<Vec<Box<dyn AnyScenario>>> {
        Experiment::presets(self)
    }

    fn reproduce(&self, options: &Options) -> Result<Report> {
        let mut parts = self.parts();
        if let Some(only) = &options.only {
            parts.retain(|p| p.id == only || p.figures.contains(&only.as_str()));
            if parts.is_empty() {
                bail!(
                    "--only {only}: {} has no such part or figure; it has: {}",
                    E::ID,
                    self.contents()
                        .iter()
                        .map(|(id, figs)| format!("{id} ({})", figs.join(", ")))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
        }
        runner::run(self, &parts, options)
    }
}

/// Every paper `qosgate reproduce` knows, in the order `all` runs them.
pub const PAPERS: &[&dyn Paper] = &[&kokkinos2009::Kokkinos2009];

/// The paper with id `id`.
///
/// Errors: an unknown id (the message lists the known ones).
pub fn paper(id: &str) -> Result<&'static dyn Paper> {
    match PAPERS.iter().find(|p| p.id() == id) {
        Some(p) => Ok(*p),
        None => bail!(
            "unknown paper {id:?}: the papers are {} (`qosgate reproduce --list`), or `all`",
            PAPERS.iter().map(|p| p.id()).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// Every paper's presets, in registry order.
///
/// Errors: a preset that cannot be built.
pub fn presets() -> Result<Vec<Box<dyn AnyScenario>>> {
    let mut all = Vec::new();
    for p in PAPERS {
        all.extend(p.presets()?);
    }
    Ok(all)
}

/// The preset called `name`, from any paper.
///
/// Errors: an unknown name (the message lists the presets).
pub fn preset(name: &str) -> Result<Box<dyn AnyScenario>> {
    let mut all = presets()?;
    match all.iter().position(|s| s.name() == name) {
        Some(i) => Ok(all.swap_remove(i)),
        None => bail!(
            "unknown preset `{name}`; the presets are: {} (`qosgate presets` describes them)",
            all.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")
        ),
    }
}
