//! `qosgate verify`: the grid simulator's GS tasks against delay bounds recomputed on their own
//! ([`crate::models::grid::verify`]), for a scenario file, the grid presets, or generated
//! adversarial scenarios ([`crate::models::grid::random`]).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use rayon::prelude::*;

use crate::config;
use crate::experiments;
use crate::models::ScenarioFile;
use crate::models::grid::random;
use crate::models::grid::scenario::{self, Scenario};
use crate::models::grid::verify::{self, Verification, show};

/// Options of `qosgate verify`.
#[derive(Debug, Clone, Args)]
pub struct VerifyArgs {
    /// A grid scenario file (TOML), read as `qosgate run` reads it.
    #[arg(
        value_name = "SCENARIO.toml",
        required_unless_present_any = ["preset", "random"],
        conflicts_with_all = ["preset", "random"]
    )]
    pub scenario: Option<PathBuf>,
    /// A built-in grid scenario (`qosgate presets`), or `all` for every grid preset.
    #[arg(long, value_name = "NAME", conflicts_with = "random")]
    pub preset: Option<String>,
    /// N generated adversarial scenarios (scenario i of a seed is the same whatever N is).
    #[arg(long, value_name = "N")]
    pub random: Option<u32>,
    /// Seed of the generated scenarios [default: 1].
    #[arg(
        long,
        value_name = "S",
        requires = "random",
        conflicts_with_all = ["scenario", "preset"]
    )]
    pub seed: Option<u64>,
    /// Replications of each scenario (default: the scenario's own; 1 for generated ones).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub replications: Option<u32>,
    /// Check the task records of `qosgate run SCENARIO.toml --events FILE.jsonl` (the same
    /// scenario; its replications are the file's) instead of simulating.
    #[arg(
        long,
        value_name = "FILE.jsonl",
        requires = "scenario",
        conflicts_with_all = ["preset", "random", "replications"]
    )]
    pub events: Option<PathBuf>,
}

/// A scenario to verify.
struct Job {
    scenario: Scenario,
    /// Generated: print it as TOML if it fails, to replay it from a file.
    generated: bool,
}

/// How one scenario went.
enum Outcome {
    Verified(Verification),
    /// A generated scenario the simulator refuses (a GS user cannot register).
    Skipped(String),
}

/// Runs `qosgate verify`.
///
/// Errors: an unreadable or invalid scenario, an unknown or non-grid preset, a bad option, a
/// simulation error, a failed write; and any finding: a GS task over its bound, a recorded
/// bound that differs from the recomputed one (the first violation named).
pub fn exec(args: &VerifyArgs, out: &mut dyn Write) -> Result<()> {
    if let Some(n) = args.replications {
        config::check_replications(n).map_err(|m| anyhow!("--replications: {m}"))?;
    }
    let mut jobs = jobs(args)?;
    for job in &mut jobs {
        if let Some(n) = args.replications {
            if let Some(p) = scenario::check_size(&job.scenario, n, "--replications").first() {
                bail!(
                    "{}: {} {n}: {}",
                    job.scenario.header.name,
                    p.path,
                    p.message
                );
            }
            job.scenario.header.replications = n;
        }
    }
    let outcomes: Vec<Result<Outcome>> = match (&args.events, jobs.as_slice()) {
        (Some(path), [job]) => {
            let text = config::read_text(path, &crate::input::EVENTS)
                .context("reading the events file")?;
            vec![
                verify::check_events(&job.scenario, &text, &path.display().to_string())
                    .map(Outcome::Verified),
            ]
        }
        _ => jobs.par_iter().map(run).collect(),
    };
    report(args, &jobs, outcomes, out)
}

/// The scenarios the arguments name.
fn jobs(args: &VerifyArgs) -> Result<Vec<Job>> {
    let given = |scenario| Job {
        scenario,
        generated: false,
    };
    if let Some(path) = &args.scenario {
        return Ok(vec![given(scenario::load(path)?)]);
    }
    if let Some(name) = &args.preset {
        let grid: Vec<_> = experiments::presets()?
            .into_iter()
            .filter(|p| p.model() == "grid")
            .collect();
        let chosen: Vec<_> = if name == "all" {
            grid
        } else {
            let preset = experiments::preset(name)?;
            if preset.model() != "grid" {
                bail!(
                    "preset `{name}` is a {} scenario: `qosgate verify` checks grid presets ({})",
                    preset.model(),
                    grid.iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
                );
            }
            vec![preset]
        };
        return chosen
            .iter()
            .map(|p| Scenario::parse(&p.to_toml(), p.name()).map(given))
            .collect();
    }
    if let Some(n) = args.random {
        let seed = args.seed.unwrap_or(1);
        return (0..n)
            .map(|i| {
                let s = random::scenario(seed, i);
                s.validate()
                    .with_context(|| format!("generated scenario {}", s.header.name))?;
                Ok(Job {
                    scenario: s,
                    generated: true,
                })
            })
            .collect();
    }
    bail!("give a scenario file, --preset NAME|all or --random N")
}

/// Simulates and checks one scenario.
fn run(job: &Job) -> Result<Outcome> {
    match verify::verify(&job.scenario, job.scenario.header.replications) {
        Ok(v) => Ok(Outcome::Verified(v)),
        Err(e) if job.generated && format!("{e:#}").contains("cannot register") => {
            Ok(Outcome::Skipped(format!("{:#}", e.root_cause())))
        }
        Err(e) => Err(e),
    }
}

/// Prints one line per scenario (and, for files and presets, one per GS user), then the first
/// finding, if any, as the error.
fn report(
    args: &VerifyArgs,
    jobs: &[Job],
    outcomes: Vec<Result<Outcome>>,
    out: &mut dyn Write,
) -> Result<()> {
    let detail = args.random.is_none();
    let mut text = format!(
        "{:<28} {:>5} {:>12} {:>10} {:>10}  {}\n",
        "scenario", "reps", "GS checked", "violations", "mismatches", "worst delay/bound"
    );
    let (mut checked, mut violations, mut mismatches, mut skipped) = (0u64, 0u64, 0u64, 0usize);
    let mut failure: Option<(String, &Job)> = None;
    for (job, outcome) in jobs.iter().zip(outcomes) {
        let name = &job.scenario.header.name;
        let v = match outcome {
            Ok(Outcome::Verified(v)) => v,
            Ok(Outcome::Skipped(why)) => {
                skipped += 1;
                text.push_str(&format!("{name:<28} skipped: {why}\n"));
                continue;
            }
            Err(e) => {
                text.push_str(&format!("{name:<28} error: {e:#}\n"));
                if failure.is_none() {
                    failure = Some((format!("{name}: {e:#}"), job));
                }
                continue;
            }
        };
        checked += v.checked;
        violations += v.violations;
        mismatches += v.mismatches;
        let worst = v.worst().map_or_else(
            || "-".to_owned(),
            |(user, w)| {
                format!(
                    "{:.6} ({user}, replication {}, task {})",
                    w.ratio(),
                    w.replication,
                    w.task
                )
            },
        );
        text.push_str(&format!(
            "{name:<28} {:>5} {:>12} {:>10} {:>10}  {worst}\n",
            v.replications, v.checked, v.violations, v.mismatches
        ));
        if detail || !v.passed() {
            for u in &v.users {
                let b = &u.bound;
                let bound = match b.bound {
                    Ok(t) => format!("bound {}", show(t)),
                    Err(why) => why.to_string(),
                };
                let worst = u.worst.map_or_else(String::new, |w| {
                    format!(
                        ", worst {:.6} (replication {}, task {}: {})",
                        w.ratio(),
                        w.replication,
                        w.task,
                        show(w.delay)
                    )
                });
                text.push_str(&format!(
                    "  {} at {}: g = {} MIPS (total weight {}), {bound}; {} tasks checked{worst}\n",
                    u.user, u.resource, b.rate_mips, b.total_weight, u.checked
                ));
            }
        }
        if !v.passed() {
            for f in &v.findings {
                text.push_str(&format!("  finding: {f}\n"));
            }
            if let Some(first) = &v.first_violation {
                text.push_str(&format!("  FIRST VIOLATION: {first}\n"));
            }
            if failure.is_none() {
                let first = v
                    .first_violation
                    .as_ref()
                    .or(v.findings.first())
                    .map_or_else(String::new, ToString::to_string);
                let what = if v.violations > 0 {
                    "guarantee violated"
                } else {
                    "recorded bound differs from the recomputed one"
                };
                failure = Some((format!("{name}: {what}: {first}"), job));
            }
        }
    }
    let scenarios = jobs.len();
    text.push_str(&format!(
        "{scenarios} scenario(s): {checked} GS tasks checked against their bound, {violations} \
         violation(s), {mismatches} bound mismatch(es)"
    ));
    if args.random.is_some() {
        text.push_str(&format!("; {skipped} skipped (a GS user cannot register)"));
    }
    text.push('\n');
    if let Some((_, job)) = &failure
        && job.generated
    {
        text.push_str(&format!(
            "\n# The failing scenario: save it and replay it with `qosgate verify FILE.toml`.\n{}",
            scenario::to_toml(&job.scenario)
        ));
    }
    out.write_all(text.as_bytes())
        .context("writing the report")?;
    out.flush().context("writing output")?;
    match failure {
        Some((what, _)) => Err(anyhow!(what)),
        None => Ok(()),
    }
}
