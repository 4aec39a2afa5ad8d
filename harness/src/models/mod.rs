//! The simulated systems: each model is a scenario schema, a world that simulates one
//! replication on the [`des`](crate::des) core, per-item records and the metrics computed from
//! them.
//!
//! - [`grid`]: kokkinos2009's grid (users, a meta-scheduler, resources and links).
//! - [`cluster`]: one cluster replaying a job trace under a backfilling policy (`model =
//!   "cluster"`).
//! - [`hybrid`]: javadi2012's failure-prone cluster and reliable cloud behind a broker.
//! - [`leases`]: one cluster replaying a lease workload (Haizea's LWF) through the kernel's
//!   lease manager (`model = "leases"`).
//! - [`federation`]: salehi2012 and salehi2011's federation (a gateway, clusters with local users
//!   and lease managers, preemption and migration).
//! - [`multicloud`]: gandhimathi2013's federation of IaaS clouds (DAG applications, reservations,
//!   feedback list scheduling, energy-aware mapping).
//!
//! Two layers:
//! - [`Model`] is the static interface the experiment runner uses: typed scenarios, runs and
//!   metrics, no boxing on the hot path.
//! - [`Entry`] and [`AnyScenario`] are the registry behind `qosgate run FILE`: a file's
//!   top-level `model = "..."` key (default [`DEFAULT_MODEL`], so files written before the key
//!   existed keep working) picks the entry that parses it.
//!
//! A new model is a folder here with a type implementing [`Model`], `scenario_file!` for its
//! scenario, and a line in [`MODELS`].

/// Makes a model's `Scenario` (with a `header:` [`config::Header`] field) an [`AnyScenario`]
/// and a [`ScenarioFile`], and defines the model's registry `ENTRY`, from its
/// `scenario::{check, to_toml}` and `summary::run`: `scenario_file!(Grid, "grid")` in the
/// model's module.
macro_rules! scenario_file {
    ($model:ident, $what:literal) => {
        impl $crate::config::Headed for Scenario {
            fn header(&self) -> &$crate::config::Header {
                &self.header
            }

            fn header_mut(&mut self) -> &mut $crate::config::Header {
                &mut self.header
            }
        }

        impl $crate::models::AnyScenario for Scenario {
            fn model(&self) -> &'static str {
                <$model as $crate::models::Model>::NAME
            }

            fn to_toml(&self) -> String {
                scenario::to_toml(self)
            }

            fn run(
                &self,
                opts: &$crate::models::RunOptions,
                out: &mut dyn std::io::Write,
            ) -> anyhow::Result<()> {
                summary::run(self, opts, out)
            }
        }

        impl $crate::models::ScenarioFile for Scenario {
            fn problems(&self) -> Vec<$crate::config::Problem> {
                scenario::check(self)
            }
        }

        #[doc = concat!("The ", $what, "'s entry in the scenario-file registry.")]
        pub const ENTRY: $crate::models::Entry = $crate::models::Entry {
            name: <$model as $crate::models::Model>::NAME,
            parse: |text, origin| {
                let parsed = <Scenario as $crate::models::ScenarioFile>::parse(text, origin)?;
                Ok(Box::new(parsed))
            },
        };
    };
}

pub mod cluster;
pub mod federation;
pub mod grid;
pub mod hybrid;
pub mod leases;
pub mod multicloud;
pub mod outputs;

pub use outputs::{
    CsvFile, Estimated, Head, Metric, Table, estimate, write_event, write_events, write_summary,
};

use std::fmt::Debug;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use rayon::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::config::{self, Headed};
use crate::report::progress::{Progress, Show};

/// A simulated system.
///
/// Contract: [`Model::simulate`] is deterministic: the same scenario and replication give the
/// same run, byte for byte, on any machine and in any thread.
pub trait Model {
    /// The model's name in scenario files (`model = "grid"`).
    const NAME: &'static str;
    /// What one simulation is asked to do: a value with named fields, read from TOML. Its
    /// `Debug` form identifies it: a stored run names the scenario it was simulated from by a
    /// fingerprint of that form, so runs of a changed scenario are refused.
    type Scenario: ScenarioFile + Clone + Debug + Send + Sync + 'static;
    /// What one replication produces (its per-item records and counters).
    type Run: Send;
    /// The metrics of one replication. They are stored as JSON (`qosgate reproduce --runs`) and
    /// read back to be judged (`--from`): serialising and deserialising must give the same value
    /// back, every `f64` to the bit (serde_json's `float_roundtrip` reads what it writes; a
    /// non-finite `f64` is written as `null` and cannot be read back, so a metric that may be
    /// undefined is an `Option`).
    type Metrics: Clone + Serialize + DeserializeOwned + Send + Sync;

    /// Simulates replication `k`.
    ///
    /// Errors: a scenario the kernel refuses (named), or an internal inconsistency.
    fn simulate(scenario: &Self::Scenario, k: u32) -> Result<Self::Run>;
    /// The metrics of one run of `scenario`.
    fn metrics(scenario: &Self::Scenario, run: &Self::Run) -> Self::Metrics;
    /// Events the run processed (for events-per-second figures).
    fn events(run: &Self::Run) -> u64;
    /// Whether every replication gives the same run (no random draw is used), so one suffices.
    /// Default: no, for a model whose every run makes random draws.
    fn deterministic(_scenario: &Self::Scenario) -> bool {
        false
    }
}

/// A model whose run keeps a record per item, written by `qosgate run --events` as JSON lines
/// (docs/outputs.md).
pub trait Recorded: Model {
    /// Writes the records of `run`, replication `k`, one JSON line each ([`write_event`]).
    ///
    /// Errors: a failed write.
    fn write_records(run: &Self::Run, k: u32, out: &mut dyn Write) -> Result<()>;
}

/// What `qosgate run` simulated of a scenario: every replication's metrics, in replication
/// order, and the events processed. The runs themselves are not kept: each is handed on (to the
/// events file and the model's own tallies) and dropped as soon as every earlier one has been,
/// so memory holds at most [`Measured::BATCH`] runs per thread, whatever the replications.
pub struct Measured<M: Model> {
    /// The metrics of each run ([`Model::metrics`]).
    pub metrics: Vec<M::Metrics>,
    /// Events processed, summed over the replications.
    pub events: u64,
}

impl<M: Recorded> Measured<M> {
    /// Runs simulated at once per thread of the pool: the runs kept in memory at most.
    pub const BATCH: usize = 2;

    /// Simulates `opts`' replications of `scenario` (else `own`, the scenario's) in parallel,
    /// batch by batch; then, for each run in replication order, writes its records to
    /// `opts.events` (a file written whole: [`crate::output::write_file`]), hands it to `each`
    /// and keeps its metrics. Progress on standard error as `opts.progress` says.
    ///
    /// Errors: those of [`RunOptions::replications_or`]; the first failing replication's, named
    /// by the scenario and the replication; a failed write of the events (the file named).
    pub fn of(
        scenario: &M::Scenario,
        own: u32,
        opts: &RunOptions,
        mut each: impl FnMut(u32, &M::Run),
    ) -> Result<Self> {
        let n = opts.replications_or(own)?;
        let progress = Progress::new(scenario.name(), 0, opts.progress);
        for _ in 0..n {
            progress.plan(&[]);
        }
        let batch =
            u32::try_from(rayon::current_num_threads().max(1) * Self::BATCH).unwrap_or(u32::MAX);
        let mut simulate_all = |mut records: Option<&mut dyn Write>| -> Result<Self> {
            let mut m = Self {
                metrics: Vec::with_capacity(n as usize),
                events: 0,
            };
            let mut from = 0;
            while from < n {
                let to = from.saturating_add(batch).min(n);
                let runs: Vec<Result<M::Run>> = (from..to)
                    .into_par_iter()
                    .map(|k| {
                        let run = M::simulate(scenario, k).with_context(|| {
                            format!("simulating {} (replication {k})", scenario.name())
                        });
                        progress.done(&[]);
                        run
                    })
                    .collect();
                for (k, run) in (from..to).zip(runs) {
                    let run = run?;
                    if let Some(w) = records.as_deref_mut() {
                        M::write_records(&run, k, w)?;
                    }
                    each(k, &run);
                    m.events += M::events(&run);
                    m.metrics.push(M::metrics(scenario, &run));
                }
                from = to;
            }
            Ok(m)
        };
        let measured = match &opts.events {
            Some(path) => crate::output::write_file(path, |w| simulate_all(Some(w))),
            None => simulate_all(None),
        };
        progress.finish();
        measured
    }

    /// The summary's head ([`Head`]).
    pub fn head<'a>(&self, scenario: &'a M::Scenario) -> Head<'a> {
        Head {
            model: M::NAME,
            scenario: scenario.name(),
            replications: u32::try_from(self.metrics.len()).unwrap_or(u32::MAX),
            seed: scenario.header().seed,
            events: self.events,
        }
    }
}

/// Replications `0..n` of `scenario`, in parallel (rayon), in replication order, their progress
/// on standard error as `show` says ([`progress`](crate::report::progress)).
///
/// Errors: the first failing replication's, named by the scenario and the replication.
pub fn replicate<M: Model>(scenario: &M::Scenario, n: u32, show: Show) -> Result<Vec<M::Run>> {
    let progress = Progress::new(scenario.name(), 0, show);
    for _ in 0..n {
        progress.plan(&[]);
    }
    let runs = (0..n)
        .into_par_iter()
        .map(|k| {
            let run = M::simulate(scenario, k)
                .with_context(|| format!("simulating {} (replication {k})", scenario.name()));
            progress.done(&[]);
            run
        })
        .collect();
    progress.finish();
    runs
}

/// What `qosgate run` was asked to do besides simulating.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Replications (default: the scenario's own).
    pub replications: Option<u32>,
    /// Write every item's record, as JSON lines, to this file.
    pub events: Option<PathBuf>,
    /// Print one JSON object instead of tables.
    pub json: bool,
    /// Write the summary files (CSV, JSON) into this directory.
    pub out: Option<PathBuf>,
    /// How to show progress on standard error ([`crate::report::progress`]).
    pub progress: Show,
}

impl RunOptions {
    /// The replications to run: `--replications` if given, else the scenario's `own`.
    ///
    /// Errors: a `--replications` outside `1 ..=` [`crate::config::MAX_REPLICATIONS`].
    pub fn replications_or(&self, own: u32) -> Result<u32> {
        match self.replications {
            Some(n) => crate::config::check_replications(n)
                .map(|()| n)
                .map_err(|m| anyhow::anyhow!("--replications: {m}")),
            None => Ok(own),
        }
    }
}

/// A scenario of some registered model, ready to print or run: what presets and scenario
/// files give `qosgate run`.
pub trait AnyScenario: config::Headed + Send + Sync {
    /// The model's name ([`Model::NAME`]).
    fn model(&self) -> &'static str;
    /// The scenario's name.
    fn name(&self) -> &str {
        &self.header().name
    }
    /// One line saying what it simulates.
    fn description(&self) -> &str {
        &self.header().description
    }
    /// The scenario as a commented TOML file that reads back unchanged (`qosgate run --dump`).
    fn to_toml(&self) -> String;
    /// Simulates it and writes the summary to `out` (and the files `opts` asks for).
    ///
    /// Errors: a simulation error, or a failed write (the file is named).
    fn run(&self, opts: &RunOptions, out: &mut dyn Write) -> Result<()>;
}

/// A model's scenario as the runner takes it: a scenario file with a base seed, from which
/// every replication draws its own.
pub trait ScenarioFile: AnyScenario {
    /// The seed replication `k` draws its random numbers from: `replication_seed(base, k)`
    /// ([`crate::des::rng::replication_seed`]).
    fn seed(&self, k: u32) -> u64 {
        crate::des::rng::replication_seed(self.header().seed, k)
    }
    /// Moves the base seed to base seed `base` ([`crate::des::rng::rebase`]).
    fn reseed(&mut self, base: u64) {
        let seed = &mut self.header_mut().seed;
        *seed = crate::des::rng::rebase(*seed, base);
    }
    /// Every problem of the scenario, each named by its key path: the model's checks (its
    /// `scenario::check`, whose doc lists them).
    fn problems(&self) -> Vec<config::Problem>;
    /// Parses a scenario file's text and checks it (`origin` names the text in messages).
    ///
    /// Errors: every problem, one line each, `origin:line:column: key: what is wrong`
    /// ([`config::parse`]): TOML syntax, unknown or missing keys, wrong types or names, and
    /// every one of [`ScenarioFile::problems`].
    fn parse(text: &str, origin: &str) -> Result<Self>
    where
        Self: DeserializeOwned + Sized,
    {
        config::parse(text, origin, Self::problems)
    }
    /// Checks a scenario built in code (a preset, a variant) with the rules
    /// [`ScenarioFile::parse`] applies to a file.
    ///
    /// Errors: one line per problem, `key: what is wrong`, under the scenario's name.
    fn validate(&self) -> Result<()> {
        config::report(&format!("scenario `{}`", self.name()), &self.problems())
    }
}

/// A model in the registry of scenario files.
pub struct Entry {
    /// [`Model::NAME`].
    pub name: &'static str,
    /// Parses and checks a scenario file's text (`origin` names it in messages).
    pub parse: fn(text: &str, origin: &str) -> Result<Box<dyn AnyScenario>>,
}

/// Every model a scenario file can name.
pub const MODELS: &[Entry] = &[
    grid::ENTRY,
    federation::ENTRY,
    hybrid::ENTRY,
    multicloud::ENTRY,
    cluster::ENTRY,
    leases::ENTRY,
];

/// The model of a file without a `model` key.
pub const DEFAULT_MODEL: &str = grid::Grid::NAME;

/// Parses a scenario file's text with the model its `model` key names.
///
/// Errors: an unknown model (the message lists them), or the model's own parse errors, each
/// located as `origin:line:column`.
pub fn parse(text: &str, origin: &str) -> Result<Box<dyn AnyScenario>> {
    let (name, at) = config::model_of(text, origin)?
        .unwrap_or_else(|| (DEFAULT_MODEL.to_owned(), origin.to_owned()));
    match MODELS.iter().find(|m| m.name == name) {
        Some(m) => (m.parse)(text, origin),
        None => bail!(
            "{at}: model: unknown model `{name}`; the models are: {}",
            MODELS.iter().map(|m| m.name).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// Reads and parses the scenario file at `path` ([`Scenario::parse`](crate::models::ScenarioFile::parse)).
///
/// Errors: the file cannot be read (the path is named), is not UTF-8 (the first bad byte
/// located), or any error of [`Scenario::parse`](crate::models::ScenarioFile::parse).
pub fn load(path: &Path) -> Result<Box<dyn AnyScenario>> {
    let text =
        config::read_text(path, &crate::input::SCENARIO).context("reading the scenario file")?;
    parse(&text, &path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::cluster::Cluster;
    use crate::models::cluster::scenario::Scenario as ClusterScenario;

    /// Streaming the runs ([`Measured::of`]: batches of [`Measured::BATCH`] per thread, each run
    /// dropped once handed on) gives every replication's metrics and events, in replication
    /// order, as keeping them all ([`replicate`]) does; `each` sees every replication once, in
    /// order. Seven replications with failures (each replication its own draws) on two threads
    /// cross the batch boundaries (four runs per batch).
    #[test]
    fn streamed_runs_give_what_kept_runs_give() {
        let trace = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../data/traces/SDSC-SP2-1998-first300.swf"
        );
        let text = format!(
            "model = \"cluster\"\nname = \"t\"\nseed = 3\nreplications = 7\ntrace = {trace:?}\n\
             [scheduler]\npolicy = \"easy\"\n[failures]\nsource = \"weibull\"\n"
        );
        let s = ClusterScenario::parse(&text, "t.toml").unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let mut seen = Vec::new();
        let opts = RunOptions::default();
        let streamed = pool
            .install(|| Measured::<Cluster>::of(&s, 7, &opts, |k, _| seen.push(k)))
            .unwrap();
        assert_eq!(seen, (0..7).collect::<Vec<u32>>());
        let kept = replicate::<Cluster>(&s, 7, Show::Nothing).unwrap();
        let metrics: Vec<_> = kept.iter().map(|r| Cluster::metrics(&s, r)).collect();
        let json = |m: &[cluster::replay::Summary]| serde_json::to_string(m).unwrap();
        assert_eq!(json(&streamed.metrics), json(&metrics));
        assert_eq!(
            streamed.events,
            kept.iter().map(Cluster::events).sum::<u64>()
        );
        // The replications differ: the comparison is not of seven equal runs.
        assert_ne!(json(&metrics[..1]), json(&metrics[1..2]));
    }

    #[test]
    fn the_model_key_picks_the_model_and_an_unknown_one_is_located() {
        let grid = crate::experiments::preset("kokkinos2009-gb")
            .unwrap()
            .to_toml();
        let tagged = format!("model = \"grid\"\n{grid}");
        assert_eq!(parse(&grid, "a.toml").unwrap().model(), "grid");
        assert_eq!(parse(&tagged, "b.toml").unwrap().to_toml(), grid);
        let other = format!("model = \"cloud\"\n{grid}");
        let e = parse(&other, "c.toml").err().unwrap().to_string();
        assert_eq!(
            e,
            "c.toml:1:9: model: unknown model `cloud`; the models are: grid, federation, hybrid, multicloud, cluster, leases"
        );
    }
}
