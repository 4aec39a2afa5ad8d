//! The papers reproduced, and the runner they share.
//!
//! A paper is an [`Experiment`]: its id and title, its presets, and its [`Part`]s. A part is
//! one claim of the paper: the figures it shows, the variants (scenarios) it needs and a
//! `judge` that turns the runs into a [`Section`] of figures and statements (claims and checks). The [`runner`]
//! builds every variant's scenario once (variants shared by parts run once), runs every
//! (variant, replication) pair in parallel and hands the metrics back by variant.
//!
//! [`Paper`] is the object-safe face of an experiment that the registry ([`PAPERS`]) lists and
//! the command line drives: `qosgate reproduce <id>|all [--only <part or figure>] [--list]`,
//! `qosgate presets` and `qosgate run --preset NAME`. A reproduction runs whole, or as
//! [`shard`]s that write their runs to [`runfile`]s and are judged together from them
//! (`--shard K/N --runs DIR`, then `--from DIR`), with the same result byte for byte.
//!
//! A new paper is a folder here with a type implementing [`Experiment`] and a line in
//! [`PAPERS`] (docs/adding-a-paper.md walks through it); every judge states its claims and checks with
//! [`crate::report::statement`].

pub mod federation;
pub mod gandhimathi2013;
pub mod javadi2012;
pub mod kokkinos2009;
pub mod runfile;
pub mod runner;
pub mod salehi2011;
pub mod salehi2012;
pub mod shard;

use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Result, bail};

use crate::models::{AnyScenario, Model};
use crate::report::progress::{Progress, Show};
use crate::report::statement::Kind;
use crate::report::{Citation, Mode, Parameters, Report, Section, Timing};
use runfile::StoredRun;
use runner::{Done, Plan};
pub use runner::{Precision, Runs};
use shard::Shard;

/// A paper's experiments.
pub trait Experiment: Sync {
    /// The model every variant runs on.
    type Model: Model;
    /// One point of the paper's experiments, by named parameters. Its JSON form is its key
    /// ([`runner::key`]): two variants with the same key are the same simulation.
    type Variant: Simulation<Scenario = <Self::Model as Model>::Scenario>;

    /// The id on the command line (`kokkinos2009`: first author and year).
    const ID: &'static str;
    /// The paper, as a reader would cite it.
    const PAPER: Citation;
    /// What of it is reproduced (`Sec. 6.4, Tables 7-8, Figs. 6-12`).
    const TITLE: &'static str;
    /// Replications of a variant with random draws when the user gives none: by precision,
    /// from `first` up to `cap` ([`runner`]).
    const REPLICATIONS: Precision;

    /// The claims, in the paper's order.
    fn parts(&self) -> Vec<Part<Self>>;
    /// The parameter sets the variants use: one per mode, each literal (the paper's printed
    /// numbers) or calibrated (one documented change), with what it sets.
    fn parameters(&self) -> Vec<Parameters>;
    /// The paper's built-in scenarios, for `qosgate presets` and `qosgate run --preset`.
    ///
    /// Errors: a preset that cannot be built (a bug: the message names it).
    const PRESETS: fn() -> Result<Vec<<Self::Model as Model>::Scenario>>;
}

/// One simulation of a paper's experiments, by named parameters: an [`Experiment::Variant`].
pub trait Simulation: Debug + Clone + Send + Sync + serde::Serialize {
    /// The scenario type of the model it runs on.
    type Scenario;
    /// Its scenario.
    ///
    /// Errors: a variant the model refuses (named).
    fn scenario(&self) -> Result<Self::Scenario>;
}

/// The metrics of one model, by variant.
pub type RunsOf<E> = Runs<<<E as Experiment>::Model as Model>::Metrics>;

/// One claim of a paper: what it shows, what it needs, how it is judged.
pub struct Part<E: Experiment + ?Sized> {
    /// Short id for `--only` (`claim1`).
    pub id: &'static str,
    /// The ids of the figures and tables it shows (`fig4`), also accepted by `--only`.
    pub figures: Figures,
    /// The variants its figures and statements read.
    pub variants: Vec<E::Variant>,
    /// The figures and statements, computed from the runs (a variant without runs gives missing
    /// values, and every claim that needs it is inconclusive).
    pub judge: Judge<E>,
    /// Schedules to draw, each from replication 0 of one of [`Part::variants`]: shown beside
    /// the figures, never judged ([`crate::report::Schedule`]).
    pub schedules: Vec<Drawn<E>>,
}

/// A schedule a part draws: replication 0 of `variant`'s scenario, drawn by `draw`. The runner
/// simulates it again once the runs are judged ([`runner::Plan::draw`]; a local run and a merge
/// of shards alike, so the report does not depend on where the runs were made).
pub struct Drawn<E: Experiment + ?Sized> {
    /// The variant (one of its part's).
    pub variant: E::Variant,
    /// Draws replication 0 of the variant's scenario (with the reproduction's seed).
    ///
    /// Errors: the simulation's.
    pub draw: fn(&ScenarioOf<E>) -> Result<crate::report::Schedule>,
}

/// The scenario type of an experiment's model.
pub type ScenarioOf<E> = <<E as Experiment>::Model as Model>::Scenario;

/// How a part turns the runs into its [`Section`].
pub enum Judge<E: Experiment + ?Sized> {
    /// A judge of the part's own.
    Own(fn(&RunsOf<E>) -> Section),
    /// A judge that serves both of a claim's parts, one per mode, called for this mode.
    InMode(fn(&RunsOf<E>, Mode) -> Section, Mode),
}

/// The figure ids of a part.
pub type Figures = &'static [&'static str];

impl<E: Experiment> Part<E> {
    /// A part judged by a judge of its own.
    pub fn new(
        id: &'static str,
        figures: Figures,
        variants: Vec<E::Variant>,
        judge: fn(&RunsOf<E>) -> Section,
    ) -> Self {
        Part {
            id,
            figures,
            variants,
            judge: Judge::Own(judge),
            schedules: Vec::new(),
        }
    }

    /// The part, drawing `variant`'s schedule with `draw` too ([`Part::schedules`]).
    pub fn drawing(
        mut self,
        variant: E::Variant,
        draw: fn(&ScenarioOf<E>) -> Result<crate::report::Schedule>,
    ) -> Self {
        self.schedules.push(Drawn { variant, draw });
        self
    }

    /// A claim judged in both modes by one `judge`: its calibrated part (id `ids[0]`, figures
    /// `figures[0]`) and its literal part (`ids[1]`, `figures[1]`), each reading
    /// `variants(mode)`.
    pub fn in_both_modes(
        ids: [&'static str; 2],
        figures: [Figures; 2],
        judge: fn(&RunsOf<E>, Mode) -> Section,
        variants: fn(Mode) -> Vec<E::Variant>,
    ) -> [Self; 2] {
        let part = |k: usize, mode| Part {
            id: ids[k],
            figures: figures[k],
            variants: variants(mode),
            judge: Judge::InMode(judge, mode),
            schedules: Vec::new(),
        };
        [part(0, Mode::Calibrated), part(1, Mode::Literal)]
    }
}

impl<E: Experiment + ?Sized> Judge<E> {
    /// The part's figures and statements from `runs`.
    pub fn section(&self, runs: &RunsOf<E>) -> Section {
        match *self {
            Judge::Own(judge) => judge(runs),
            Judge::InMode(judge, mode) => judge(runs, mode),
        }
    }
}

/// How to run a reproduction.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Replications of every variant (default: the experiment's for random variants, 1 for
    /// deterministic ones).
    pub replications: Option<u32>,
    /// Run only the parts named here: a part's id or a figure it shows, or several of them
    /// separated by commas (`claim1,claim2-literal`).
    pub only: Option<String>,
    /// How to show progress on standard error ([`crate::report::progress`]).
    pub progress: Show,
    /// Move every scenario's seed to this base seed ([`crate::des::rng::rebase`]); `None`:
    /// the papers' own seeds.
    pub seed: Option<u64>,
}

/// A judged reproduction and how long its simulations took (kept apart: the report is the same
/// however the runs were made, the timing never is).
#[derive(Debug, Clone)]
pub struct Reproduction {
    /// The figures and statements.
    pub report: Report,
    /// The simulations' time.
    pub timing: Timing,
}

/// A shard's runs, simulated and written to a run file.
#[derive(Debug, Clone)]
pub struct StoredShard {
    /// The run file written.
    pub path: PathBuf,
    /// The shard's runs.
    pub runs: usize,
    /// The reproduction's runs, every shard's.
    pub of: usize,
    /// The simulations' time.
    pub timing: Timing,
}

/// A paper in the registry: the object-safe face of an [`Experiment`].
pub trait Paper: Sync {
    /// [`Experiment::ID`].
    fn id(&self) -> &'static str;
    /// [`Experiment::PAPER`].
    fn citation(&self) -> Citation;
    /// [`Experiment::TITLE`].
    fn title(&self) -> &'static str;
    /// Each part's id and figure ids, in order.
    fn contents(&self) -> Vec<(&'static str, &'static [&'static str])>;
    /// Whether every name in `only` (comma-separated, what `--only` accepts) is a part's id
    /// or a figure a part shows.
    fn has(&self, only: &str) -> bool {
        let contents = self.contents();
        names(only).all(|name| {
            contents
                .iter()
                .any(|(id, figures)| named(id, figures, name))
        })
    }
    /// [`Experiment::PRESETS`].
    ///
    /// Errors: a preset that cannot be built.
    fn presets(&self) -> Result<Vec<Box<dyn AnyScenario>>>;
    /// Every statement's id and kind, in order, as the judges name them (judged on no runs).
    fn statements(&self) -> Vec<(String, Kind)>;
    /// Runs the parts `options` selects and judges them; with `store`, also writes every run to
    /// a run file in that directory ([`runfile`]).
    ///
    /// Errors: an `only` that names no part or figure, zero replications, a scenario or
    /// simulation error (named by its scenario and replication), a failed write.
    fn reproduce(&self, options: &Options, store: Option<&Path>) -> Result<Reproduction>;
    /// Runs shard `shard` of the runs of the parts `options` selects and writes them to a run
    /// file in `store`.
    ///
    /// Errors: those of [`Paper::reproduce`].
    fn run_shard(&self, options: &Options, shard: Shard, store: &Path) -> Result<StoredShard>;
    /// Judges the parts `options` selects from stored runs: they must be every run of those
    /// parts, once, of this paper, this qosgate version and these replications
    /// ([`runner::Plan::merge`]).
    ///
    /// Errors: an `only` that names no part or figure, zero replications, and every problem of
    /// the runs, named by file and line.
    fn judge_stored(&self, options: &Options, runs: Vec<StoredRun>) -> Result<Reproduction>;
}

impl<E: Experiment> Paper for E {
    fn id(&self) -> &'static str {
        E::ID
    }

    fn citation(&self) -> Citation {
        E::PAPER
    }

    fn title(&self) -> &'static str {
        E::TITLE
    }

    fn contents(&self) -> Vec<(&'static str, &'static [&'static str])> {
        self.parts().iter().map(|p| (p.id, p.figures)).collect()
    }

    fn presets(&self) -> Result<Vec<Box<dyn AnyScenario>>> {
        Ok((E::PRESETS)()?
            .into_iter()
            .map(|s| Box::new(s) as Box<dyn AnyScenario>)
            .collect())
    }

    fn statements(&self) -> Vec<(String, Kind)> {
        let runs = Runs::empty();
        self.parts()
            .iter()
            .flat_map(|p| p.judge.section(&runs).statements)
            .map(|s| (s.id, s.kind))
            .collect()
    }

    fn reproduce(&self, options: &Options, store: Option<&Path>) -> Result<Reproduction> {
        let parts = selected(self, options)?;
        let start = Instant::now();
        // Fixed counts where asked for, or where the runs are stored (a merge must know them
        // before anything runs); otherwise by precision, in rounds.
        let fixed = options.replications.is_some() || store.is_some();
        let mut plan = if fixed {
            Plan::new(&parts, options.replications, options.seed)?
        } else {
            Plan::by_precision(&parts, options.seed)?
        };
        let progress = Progress::new(E::ID, parts.len(), options.progress);
        let mut done = plan.simulate(Shard::WHOLE, &progress)?;
        let mut report = plan.judge(self.parameters(), &done)?;
        // By precision: more replications of every part with an unsettled claim, in rounds.
        loop {
            let more = if fixed {
                Vec::new()
            } else {
                plan.grow(&report.sections)
            };
            if more.is_empty() {
                break;
            }
            done.extend(plan.simulate_jobs(&more, &progress)?);
            report = plan.judge(self.parameters(), &done)?;
        }
        progress.finish();
        plan.draw(&mut report)?;
        let elapsed = start.elapsed().as_secs_f64();
        if let Some(dir) = store {
            runfile::write(dir, E::ID, Shard::WHOLE, &plan.lines(Shard::WHOLE, &done)?)?;
        }
        if let Some(n) = options.replications {
            report.note_unsettled(n);
        }
        Ok(Reproduction {
            report,
            timing: timing::<E>(&done, Some(elapsed)),
        })
    }

    fn run_shard(&self, options: &Options, shard: Shard, store: &Path) -> Result<StoredShard> {
        let parts = selected(self, options)?;
        let plan = Plan::new(&parts, options.replications, options.seed)?;
        let start = Instant::now();
        let progress = Progress::new(E::ID, parts.len(), options.progress);
        let done = plan.simulate(shard, &progress)?;
        progress.finish();
        let elapsed = start.elapsed().as_secs_f64();
        Ok(StoredShard {
            path: runfile::write(store, E::ID, shard, &plan.lines(shard, &done)?)?,
            runs: done.len(),
            of: plan.len(),
            timing: timing::<E>(&done, Some(elapsed)),
        })
    }

    fn judge_stored(&self, options: &Options, runs: Vec<StoredRun>) -> Result<Reproduction> {
        let parts = selected(self, options)?;
        let plan = Plan::new(&parts, options.replications, options.seed)?;
        let done = plan.merge(runs)?;
        let timing = timing::<E>(&done, None);
        let mut report = plan.judge(self.parameters(), &done)?;
        plan.draw(&mut report)?;
        if let Some(n) = options.replications {
            report.note_unsettled(n);
        }
        Ok(Reproduction { report, timing })
    }
}

/// The names in an `--only` value: separated by commas, spaces around each ignored, empty
/// ones skipped.
fn names(only: &str) -> impl Iterator<Item = &str> {
    only.split(',').map(str::trim).filter(|n| !n.is_empty())
}

/// Whether `name` (one of [`names`]) selects the part with this id and these figures.
fn named(id: &str, figures: &[&str], name: &str) -> bool {
    id == name || figures.contains(&name)
}

/// The parts of `experiment` that `options.only` selects (all without it), in the
/// experiment's order.
///
/// Errors: an `only` with a name that is no part's id and no figure of a part, or with no
/// name at all (the message lists the parts).
fn selected<E: Experiment>(experiment: &E, options: &Options) -> Result<Vec<Part<E>>> {
    let mut parts = experiment.parts();
    if let Some(only) = &options.only {
        let unknown: Vec<&str> = names(only)
            .filter(|n| !parts.iter().any(|p| named(p.id, p.figures, n)))
            .collect();
        parts.retain(|p| names(only).any(|n| named(p.id, p.figures, n)));
        if parts.is_empty() || !unknown.is_empty() {
            bail!(
                "--only {only}: {} has no part or figure {}; it has: {}",
                E::ID,
                if unknown.is_empty() {
                    "named".to_owned()
                } else {
                    unknown.join(", ")
                },
                experiment
                    .parts()
                    .iter()
                    .map(|p| format!("{} ({})", p.id, p.figures.join(", ")))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    Ok(parts)
}

/// The timing of `done`; `elapsed` is the wall time of simulating them here (`None`: read from
/// run files).
fn timing<E: Experiment>(
    done: &[Done<<E::Model as Model>::Metrics>],
    elapsed_s: Option<f64>,
) -> Timing {
    Timing {
        paper: E::ID,
        runs: done.len(),
        events: done.iter().map(|d| d.events).sum(),
        elapsed_s,
        runs_s: done.iter().map(|d| d.wall_s).sum(),
    }
}

/// Every paper `qosgate reproduce` knows, in the order `all` runs them.
pub const PAPERS: &[&dyn Paper] = &[
    &kokkinos2009::Kokkinos2009,
    &salehi2012::Salehi2012,
    &salehi2011::Salehi2011,
    &javadi2012::Javadi2012,
    &gandhimathi2013::Gandhimathi2013,
];

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

/// `runs` split by paper: `result[i]` holds the runs of `papers[i]`, in the order read.
///
/// Errors: runs of a paper that is not among `papers`, each named by file and line (at most a
/// dozen, then how many more).
pub fn by_paper(papers: &[&dyn Paper], runs: Vec<StoredRun>) -> Result<Vec<Vec<StoredRun>>> {
    let mut split: Vec<Vec<StoredRun>> = papers.iter().map(|_| Vec::new()).collect();
    let mut foreign = Vec::new();
    for run in runs {
        match papers.iter().position(|p| p.id() == run.line.paper) {
            Some(i) => split[i].push(run),
            None => foreign.push(format!("{}: a run of {}", run.origin, run.line.paper)),
        }
    }
    if !foreign.is_empty() {
        bail!(
            "runs of a paper this command does not reproduce ({}):\n  {}",
            papers.iter().map(|p| p.id()).collect::<Vec<_>>().join(", "),
            runner::listed_lines(&foreign)
        );
    }
    Ok(split)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Outcome;

    /// Every registered paper's judges, by [`check_judges`].
    #[test]
    fn every_paper_s_judges_decide_nothing_without_runs_and_read_only_their_parts() {
        check_judges(&kokkinos2009::Kokkinos2009);
        check_judges(&salehi2012::Salehi2012);
        check_judges(&salehi2011::Salehi2011);
        check_judges(&javadi2012::Javadi2012);
        check_judges(&gandhimathi2013::Gandhimathi2013);
    }

    /// `--only` takes parts and figures separated by commas, keeps the experiment's order and
    /// names every name that is neither.
    #[test]
    fn only_selects_every_part_it_names_and_names_what_it_does_not_know() {
        let ids = |only: &str| {
            let options = Options {
                only: Some(only.into()),
                ..Options::default()
            };
            selected(&salehi2012::Salehi2012, &options)
                .map(|parts| parts.iter().map(|p| p.id).collect::<Vec<_>>())
                .map_err(|e| e.to_string())
        };
        assert_eq!(
            ids("claim3-literal, fig4,claim1-literal"),
            Ok(vec!["claim1-literal", "claim3-literal", "claim5"])
        );
        assert_eq!(ids("fig6b"), Ok(vec!["claim2"]));
        let e = ids("claim1,fig99,nope").unwrap_err();
        assert!(
            e.starts_with(
                "--only claim1,fig99,nope: salehi2012 has no part or figure fig99, nope;"
            ),
            "{e}"
        );
        assert!(ids(",").unwrap_err().contains("no part or figure named"));
        assert!(salehi2012::Salehi2012.has("claim1,fig4-literal"));
        assert!(!salehi2012::Salehi2012.has("claim1,fig99"));
    }

    /// A figure made from fewer replications than its paper's first batch carries them and that
    /// batch (its drawing warns); at the batch, or from deterministic variants only, none.
    #[test]
    fn figures_know_when_they_ran_fewer_replications_than_the_paper_is_judged_at() {
        let first = <kokkinos2009::Kokkinos2009 as Experiment>::REPLICATIONS.first;
        let few = |part: &str, n: u32| {
            let options = Options {
                replications: Some(n),
                only: Some(part.into()),
                ..Options::default()
            };
            let done = kokkinos2009::Kokkinos2009
                .reproduce(&options, None)
                .unwrap();
            done.report
                .sections
                .iter()
                .flat_map(|s| &s.figures)
                .map(|f| f.few_replications)
                .collect::<Vec<_>>()
        };
        // Figs. 8-9: random variants.
        assert_eq!(few("claim3", 2), [Some([2, first]); 2]);
        assert_eq!(few("claim3", first), [None; 2]);
        // Fig. 4: deterministic variants only.
        assert_eq!(few("claim1", 2), [None]);
    }

    /// What every paper's judges must do: on no runs, no claim is reproduced or
    /// contradicted (no data decides nothing) and no check passes; each part draws exactly the
    /// figures it names; and each reads some variants, all of them ones its part runs (reading
    /// another part's would judge on runs a `--only` reproduction does not have); and each
    /// schedule it draws is of one of its variants.
    fn check_judges<E: Experiment>(experiment: &E) {
        for p in experiment.parts() {
            let runs = Runs::empty();
            let section = p.judge.section(&runs);
            let read = runs.take_unknown();
            let ran: std::collections::BTreeSet<String> =
                p.variants.iter().map(runner::key).collect();
            let foreign: Vec<&String> = read.iter().filter(|k| !ran.contains(*k)).collect();
            assert!(foreign.is_empty(), "part {} reads {foreign:?}", p.id);
            assert!(!read.is_empty(), "part {} reads no variant", p.id);
            for s in &section.statements {
                assert!(
                    matches!(s.outcome, Outcome::Inconclusive | Outcome::Failed),
                    "{} is {} without data: {:?}",
                    s.id,
                    s.outcome,
                    s.evidence
                );
            }
            let drawn: Vec<&str> = section.figures.iter().map(|f| f.id).collect();
            assert_eq!(drawn, p.figures, "part {}", p.id);
            // A schedule is drawn from a variant the part runs.
            for d in &p.schedules {
                let k = runner::key(&d.variant);
                assert!(
                    ran.contains(&k),
                    "part {} draws {k}, which it does not run",
                    p.id
                );
            }
        }
    }
}
