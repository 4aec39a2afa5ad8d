//! `qosgate reproduce kokkinos2009`: every experiment of seed 004 Sec. 6.4 (Kokkinos &
//! Varvarigos 2009, Figs. 4-12 and Table 8), measured by the simulator and set against the
//! paper's claims.
//!
//! Each experiment is a list of scenario variants built by [`presets::kokkinos2009`] (the grid
//! of Tables 2-6: three GS users U1-U3, two BE users U4-U5, resources R1-R3, deadlines 1.10 x
//! each user's delay bound, SPEC-NOTES N6). Every (variant, replication) pair runs in parallel
//! (rayon); a variant shared by two figures runs once. Each value is the mean over the
//! replications with its 95 % confidence interval ([`crate::stats`]); the metrics are those of
//! Sec. 6.3 ([`crate::metrics`]). Variants whose distributions are all fixed are deterministic:
//! every replication is the same run, so by default they run once (no interval is printed: there
//! is no spread to estimate) and the random ones (Figs. 8-11) [`DEFAULT_REPLICATIONS`] times;
//! `--replications N` runs every variant N times (fixed ones then show intervals of width 0).
//!
//! # The experiments and the verdict criteria
//! Comparisons are between means over the replications. "GS users combined" is the share of all
//! tasks of U1, U2, U3 together (in the BE scenario too, where they are BE users). Each claim is
//! split into the statements it makes, each with its own verdict; every threshold is stated in
//! the criterion printed with the verdict, and nothing is decided in advance: a statement the
//! numbers do not bear out is printed as not holding, with the numbers and where it fails.
//!
//! 1. **Fig. 4** (claim 1): the four resource scenarios of Table 6 (GB, GBE, GBP, BE) x U4
//!    inter-arrival 1093, 546, 55 s/t; per user % of tasks missing their deadline. (a) U1, U2
//!    and U3 each miss 0 % in every GB, GBE and GBP variant; (b) the GS users combined miss at
//!    least 10 % in the BE scenario at every U4 rate.
//! 2. **Figs. 5-7** (claim 2), the same twelve runs: per user % of failed tasks, per resource use
//!    (CPU-seconds) and its standard deviation across R1-R3. At every U4 rate: (a) GBE fails a
//!    positive share of the BE users' (U4, U5) tasks, more than any other scenario; (b) GBP's %
//!    of all tasks missing their deadline (failed ones included) is the smallest of the four
//!    (ties count as smallest); (c) GBP's resource-use standard deviation is the smallest.
//! 3. **Figs. 8-9** (claim 3): GBP x GS inter-arrival spreads Fixed, Un.5, Un.20, Un.50, Mixed
//!    (uniform on [-5 %, +5 %], ..., [-50 %, +20 %] of Table 2's value) x U4 1093, 546, 55 s/t;
//!    Fig. 9 adds the BE scenario under Mixed. At every U4 rate, the GS users' combined miss %:
//!    (a) under Un.5 and Un.20 is within 1 percentage point of Fixed's; (b) under Un.50 and
//!    Mixed is at least 1 point above Fixed's; (c) under Mixed, GBP's % of all tasks missing
//!    their deadline is below BE's (Fig. 9). Fig. 8's table adds the GS users' backlogged %.
//! 4. **Figs. 10-11** (claim 4): GBP, U4 at 1093 s/t, GS workloads exponential with the means
//!    of Table 7 (S0, S-10, S-30) x workload knowledge Exact, Conservative, Conservative with
//!    feedback, Full aggressive, 5-, 10-, 20-window aggressive; the GS users' combined % of
//!    missed deadlines (Fig. 10) and % handled as BE (Fig. 11). For every workload scenario:
//!    (a) Exact misses no more than any other method; (b) Conservative and Full aggressive hand
//!    0 % to BE; (c) Exact <= feedback <= min(Conservative, Full aggressive) in misses; (d) each
//!    window misses at most 1 point more than Exact; (e) the % handed to BE rises strictly from
//!    Exact to window 5, 10 and 20.
//! 5. **Table 8 and Fig. 12** (claim 5): the BE scenario with the workloads of Sec. 6.4.4
//!    (U1-U5: 419,900,000, 71,383,000, 419,900, 209,950,000, 2,099,500,000 MI; every resource
//!    accepts the largest), EDF/EST against WFQ/EST; Table 8 at U4 3278 s/t (printed beside the
//!    paper's numbers), Fig. 12 at every U4 inter-arrival of Table 4. (a) WFQ/EST's mean delay
//!    of 1 MI is below EDF/EST's; (b) so is its standard deviation; (c) its deadline fairness
//!    metric is below EDF/EST's at every U4 rate, or both are 0; (d) EDF/EST's metric minus
//!    WFQ/EST's never decreases as U4's inter-arrival time decreases.
//! 6. **Multi-CPU** (Sec. 6.4.1, last paragraph): GB, GBE, GBP with R1-R3 of 30, 20, 10 CPUs of
//!    26,000 MIPS x U4 1093, 546, 55 s/t: U1, U2 and U3 each miss 0 % in every variant.
//!
//! With `--out DIR`: `<id>.csv` (one row per group and series: mean, half-width, replications)
//! and `<id>.svg` (grouped bars with the intervals) per figure, and `summary.json` (every
//! figure's values and every verdict).

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result, ensure};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;

use crate::cli::ReproduceArgs;
use crate::grid::Layout;
use crate::metrics::Metrics;
use crate::plot;
use crate::presets::{self, Spread, Table6, Workload};
use crate::report::{Align, table, wrap};
use crate::scenario::{self, Dist, Knowledge, MetaOrder, Scenario};
use crate::sim;
use crate::stats::Estimate;

/// Replications of a variant with a random distribution when `--replications` is not given
/// (fixed ones run once).
pub const DEFAULT_REPLICATIONS: u32 = 100;

/// The GS users of seed 004.
const GS_USERS: [&str; 3] = ["U1", "U2", "U3"];
/// The BE users of seed 004.
const BE_USERS: [&str; 2] = ["U4", "U5"];
/// U4 inter-arrival times of Figs. 4-9 and the multi-CPU check, seconds per task.
const U4_RATES: [f64; 3] = [1093.0, 546.0, 55.0];
/// U4 inter-arrival times of Table 4 (Fig. 12), seconds per task.
const U4_TABLE4: [f64; 9] = presets::U4_INTERARRIVALS_S;
/// The resource scenarios of Table 6.
const TABLE6: [Table6; 4] = Table6::ALL;
/// The GS inter-arrival spreads of Sec. 6.4.2.
const SPREADS: [Spread; 5] = [
    Spread::Fixed,
    Spread::Un5,
    Spread::Un20,
    Spread::Un50,
    Spread::Mixed,
];
/// The GS workload scenarios of Table 7.
const TABLE7: [Workload; 3] = [Workload::S0, Workload::S10, Workload::S30];
/// The workload-knowledge methods of Sec. 6.4.3, with their names in Figs. 10-11.
const METHODS: [(Knowledge, &str); 7] = [
    (Knowledge::Exact, "Exact"),
    (Knowledge::Conservative, "Conservative"),
    (Knowledge::ConservativeFeedback, "Cons. feedback"),
    (Knowledge::Aggressive, "Full aggressive"),
    (Knowledge::Window(5), "5-window"),
    (Knowledge::Window(10), "10-window"),
    (Knowledge::Window(20), "20-window"),
];
/// Table 8 as printed in the paper: (EDF/EST, WFQ/EST) mean and standard deviation of the delay
/// of one MI, seconds.
const PAPER_TABLE8: [[f64; 2]; 2] = [[21.96, 13.63], [48.48, 30.07]];
/// The task workloads of Sec. 6.4.4 (Table 8, Fig. 12), MI.
const SEC644_WORKLOADS_MI: [(&str, u64); 5] = [
    ("U1", 419_900_000),
    ("U2", 71_383_000),
    ("U3", 419_900),
    ("U4", 209_950_000),
    ("U5", 2_099_500_000),
];
/// Float comparisons of means allow this much (the metrics are ratios of counts and sums of
/// microsecond times).
const EPS: f64 = 1e-9;

/// `a <= b`, up to [`EPS`]; false if either is undefined (NaN), so a missing value fails the
/// check it is in.
fn le(a: f64, b: f64) -> bool {
    a <= b + EPS
}

/// `a < b` by more than [`EPS`]; false if either is undefined (NaN).
fn lt(a: f64, b: f64) -> bool {
    a < b - EPS
}

/// `qosgate reproduce PAPER`: runs every experiment, prints the tables and verdicts to `out`
/// and, with `--out`, writes the files.
///
/// Errors: an unknown paper, zero replications, a simulation error (named by its scenario), an
/// unwritable output directory, or a failed write.
pub fn run(args: &ReproduceArgs, out: &mut dyn Write) -> Result<()> {
    ensure!(
        args.paper == "kokkinos2009",
        "unknown paper {:?}: the one reproduced is kokkinos2009 (seed 004, Sec. 6.4)",
        args.paper
    );
    ensure!(
        args.replications != Some(0),
        "--replications must be at least 1"
    );
    let progress = std::io::stderr().is_terminal();
    let report = kokkinos2009(args.replications, progress)?;
    out.write_all(report.text().as_bytes())
        .context("writing the report")?;
    if let Some(dir) = &args.out {
        report.write_files(dir)?;
        writeln!(
            out,
            "Wrote the CSV and SVG files and summary.json to {}.",
            dir.display()
        )
        .context("writing the report")?;
    }
    out.flush().context("writing output")
}

/// Everything `reproduce kokkinos2009` measured.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The paper: `kokkinos2009`.
    pub paper: &'static str,
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
    /// Wall time of the simulations, seconds.
    pub wall_s: f64,
    /// The sections, in the paper's order.
    pub sections: Vec<Section>,
}

/// One claim of the paper with its figures.
#[derive(Debug, Clone, Serialize)]
pub struct Section {
    /// Heading (`Claim 1 (Fig. 4)`).
    pub heading: String,
    /// The figures and tables measured.
    pub figures: Vec<Figure>,
    /// The verdicts on the claim (one per statement checked).
    pub verdicts: Vec<Verdict>,
}

/// A figure or table: an estimate per (series, group).
#[derive(Debug, Clone, Serialize)]
pub struct Figure {
    /// File stem (`fig4`).
    pub id: &'static str,
    /// Title, with the paper's figure number.
    pub title: String,
    /// What the groups are.
    pub x_label: String,
    /// What is measured, with unit.
    pub y_label: String,
    /// Group labels (rows of the printed table).
    pub groups: Vec<String>,
    /// Series names (columns of the printed table).
    pub series: Vec<String>,
    /// `values[series][group]`; `None` where the metric is undefined in every replication.
    pub values: Vec<Vec<Option<Estimate>>>,
    /// The paper's own numbers, `[series][group]`, where it prints them (Table 8).
    pub paper: Option<Vec<Vec<f64>>>,
    /// Decimals shown in the printed table.
    #[serde(skip)]
    pub decimals: usize,
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
}

/// One variant of the seed-004 grid: the arguments of [`presets::kokkinos2009`].
#[derive(Debug, Clone, Copy, PartialEq)]
struct Point {
    resources: Table6,
    u4_s: f64,
    spread: Spread,
    workload: Workload,
    knowledge: Knowledge,
    layout: Layout,
    order: MetaOrder,
    /// The BE workloads of Sec. 6.4.4 (Table 8, Fig. 12) instead of Table 4's.
    sec644: bool,
}

impl Point {
    /// The variant of Figs. 4-7 (fixed distributions, exact knowledge, one CPU, EDF/EST).
    fn base(resources: Table6, u4_s: f64) -> Self {
        Self {
            resources,
            u4_s,
            spread: Spread::Fixed,
            workload: Workload::Fixed,
            knowledge: Knowledge::Exact,
            layout: Layout::Single,
            order: MetaOrder::Edf,
            sec644: false,
        }
    }

    /// A unique name of the variant (the key its runs are stored under).
    fn key(&self) -> String {
        format!("{self:?}")
    }

    /// The scenario: [`presets::kokkinos2009`]'s, with Sec. 6.4.4's workloads if `sec644`.
    fn scenario(&self) -> Result<Scenario> {
        let mut s = presets::kokkinos2009(
            self.resources,
            self.u4_s,
            self.spread,
            self.workload,
            self.knowledge,
            self.layout,
            self.order,
        )?;
        if self.sec644 {
            for u in &mut s.users {
                if let Some(&(_, mi)) = SEC644_WORKLOADS_MI.iter().find(|(n, _)| *n == u.name) {
                    u.workload = Dist::Fixed(mi as f64);
                    u.max_task_mi = u.max_task_mi.map(|_| mi);
                }
            }
            // Sec. 6.2: every resource accepts the largest task any user makes.
            let largest = SEC644_WORKLOADS_MI
                .iter()
                .map(|&(_, mi)| mi)
                .max()
                .unwrap_or(0);
            for r in &mut s.resources {
                r.max_task_mi = r.max_task_mi.max(largest);
            }
            s.name.push_str("-sec644");
            s.description.push_str(
                "; task workloads of Sec. 6.4.4 (U1-U5: 419,900,000, 71,383,000, 419,900, \
                 209,950,000, 2,099,500,000 MI)",
            );
            scenario::validate(&s).context("the Sec. 6.4.4 workloads")?;
        }
        Ok(s)
    }
}

/// The metrics of every replication of every variant, by [`Point::key`].
struct Runs(BTreeMap<String, Vec<Metrics>>);

impl Runs {
    /// The estimate of `f` at `p` over the replications where `f` is defined.
    fn estimate(&self, p: &Point, f: impl Fn(&Metrics) -> Option<f64>) -> Option<Estimate> {
        let samples: Vec<f64> = self.0.get(&p.key())?.iter().filter_map(f).collect();
        Estimate::of(&samples)
    }

    /// The mean of `f` at `p` (NaN when undefined: every comparison with it fails).
    fn mean(&self, p: &Point, f: impl Fn(&Metrics) -> Option<f64>) -> f64 {
        self.estimate(p, f).map_or(f64::NAN, |e| e.mean)
    }
}

/// The share of the tasks of `users` (together) that `pct` counts, %: the task-weighted mean
/// of their per-user percentages. `None` if they created no task.
fn combined(
    m: &Metrics,
    users: &[&str],
    pct: impl Fn(&crate::metrics::Rates) -> Option<f64>,
) -> Option<f64> {
    let (mut hits, mut tasks) = (0.0, 0u64);
    for u in users.iter().filter_map(|u| m.user(u)) {
        if let Some(p) = pct(&u.rates) {
            hits += p * u.rates.tasks as f64;
            tasks += u.rates.tasks;
        }
    }
    (tasks > 0).then(|| hits / tasks as f64)
}

fn gs_missed(m: &Metrics) -> Option<f64> {
    combined(m, &GS_USERS, |r| r.missed_pct)
}

fn gs_as_be(m: &Metrics) -> Option<f64> {
    combined(m, &GS_USERS, |r| r.handled_as_be_pct)
}

fn be_failed(m: &Metrics) -> Option<f64> {
    combined(m, &BE_USERS, |r| r.failed_pct)
}

fn user_missed(name: &'static str) -> impl Fn(&Metrics) -> Option<f64> {
    move |m| m.user(name).and_then(|u| u.rates.missed_pct)
}

/// The scenario name of Table 6 as printed.
fn t6(t: Table6) -> &'static str {
    match t {
        Table6::Gb => "GB",
        Table6::Gbe => "GBE",
        Table6::Gbp => "GBP",
        Table6::Be => "BE",
    }
}

fn spread_name(s: Spread) -> &'static str {
    match s {
        Spread::Fixed => "Fixed",
        Spread::Un5 => "Un.5",
        Spread::Un20 => "Un.20",
        Spread::Un50 => "Un.50",
        Spread::Mixed => "Mixed",
    }
}

fn workload_name(w: Workload) -> &'static str {
    match w {
        Workload::Fixed => "Fixed",
        Workload::S0 => "S0",
        Workload::S10 => "S-10",
        Workload::S30 => "S-30",
    }
}

fn order_name(o: MetaOrder) -> &'static str {
    match o {
        MetaOrder::Edf => "EDF/EST",
        MetaOrder::Wfq => "WFQ/EST",
    }
}

/// `1093` for 1093.0 s/t.
fn rate(s: f64) -> String {
    format!("{s}")
}

/// Figs. 4-7 (and the multi-CPU check): `scenarios` x U4 rates in `layout`, labelled
/// "GB 1093".
fn fig4_points(layout: Layout, scenarios: &[Table6]) -> Vec<(String, Point)> {
    scenarios
        .iter()
        .flat_map(|&t| {
            U4_RATES.iter().map(move |&r| {
                (
                    format!("{} {}", t6(t), rate(r)),
                    Point {
                        layout,
                        ..Point::base(t, r)
                    },
                )
            })
        })
        .collect()
}

/// Fig. 8: GBP x GS inter-arrival spreads x U4 rates, labelled "Un.5 546".
fn fig8_points() -> Vec<(String, Point)> {
    SPREADS
        .iter()
        .flat_map(|&s| {
            U4_RATES.iter().map(move |&r| {
                (
                    format!("{} {}", spread_name(s), rate(r)),
                    Point {
                        spread: s,
                        ..Point::base(Table6::Gbp, r)
                    },
                )
            })
        })
        .collect()
}

/// Fig. 9: GBP and BE under Mixed GS inter-arrivals x U4 rates, labelled "GBP 546".
fn fig9_points() -> Vec<(String, Point)> {
    [Table6::Gbp, Table6::Be]
        .iter()
        .flat_map(|&t| {
            U4_RATES.iter().map(move |&r| {
                (
                    format!("{} {}", t6(t), rate(r)),
                    Point {
                        spread: Spread::Mixed,
                        ..Point::base(t, r)
                    },
                )
            })
        })
        .collect()
}

/// Figs. 10-11: GBP, U4 at 1093 s/t, GS workloads `w` known as `k`.
fn fig10_point(w: Workload, k: Knowledge) -> Point {
    Point {
        workload: w,
        knowledge: k,
        ..Point::base(Table6::Gbp, 1093.0)
    }
}

/// Table 8 and Fig. 12: the BE scenario with Sec. 6.4.4's workloads, ordered by `order`.
fn fig12_point(order: MetaOrder, u4_s: f64) -> Point {
    Point {
        sec644: true,
        order,
        ..Point::base(Table6::Be, u4_s)
    }
}

/// Every distinct variant.
fn all_points() -> Vec<Point> {
    let mut all: Vec<Point> = Vec::new();
    let mut add = |p: Point| {
        if !all.contains(&p) {
            all.push(p);
        }
    };
    for (_, p) in fig4_points(Layout::Single, &TABLE6)
        .into_iter()
        .chain(fig8_points())
        .chain(fig9_points())
        .chain(fig4_points(Layout::Multi, &TABLE6[..3]))
    {
        add(p);
    }
    for w in TABLE7 {
        for (k, _) in METHODS {
            add(fig10_point(w, k));
        }
    }
    for o in [MetaOrder::Edf, MetaOrder::Wfq] {
        for r in U4_TABLE4 {
            add(fig12_point(o, r));
        }
    }
    all
}

/// Runs every experiment, each variant `replications` times (default: 1 if its distributions
/// are all fixed, else [`DEFAULT_REPLICATIONS`]); a progress bar on standard error if
/// `progress`.
///
/// Errors: a simulation error, named by its scenario and replication.
pub fn kokkinos2009(replications: Option<u32>, progress: bool) -> Result<Report> {
    let points = all_points();
    let random_replications = replications.unwrap_or(DEFAULT_REPLICATIONS);
    let fixed_replications = replications.unwrap_or(1);
    let scenarios: Vec<(String, Scenario)> = points
        .iter()
        .map(|p| Ok((p.key(), p.scenario()?)))
        .collect::<Result<_>>()?;
    // A scenario whose distributions are all fixed gives the same run for every seed.
    let jobs: Vec<(usize, u32)> = scenarios
        .iter()
        .enumerate()
        .flat_map(|(v, (_, s))| {
            let random = s
                .users
                .iter()
                .any(|u| !u.workload.is_fixed() || !u.interarrival.is_fixed());
            let n = if random {
                random_replications
            } else {
                fixed_replications
            };
            (0..n).map(move |k| (v, k))
        })
        .collect();
    let bar = if progress {
        ProgressBar::new(jobs.len() as u64).with_style(
            ProgressStyle::with_template(
                "reproduce kokkinos2009 {bar:40} {pos}/{len} runs, {elapsed}",
            )
            .context("the progress bar's template")?,
        )
    } else {
        ProgressBar::hidden()
    };
    let start = Instant::now();
    let done: Vec<(usize, Metrics, u64)> = jobs
        .par_iter()
        .map(|&(v, k)| {
            let scenario = &scenarios[v].1;
            let run = sim::run(scenario, k)
                .with_context(|| format!("simulating {} (replication {k})", scenario.name))?;
            bar.inc(1);
            Ok((v, Metrics::compute(scenario, &run.records), run.events))
        })
        .collect::<Result<_>>()?;
    bar.finish_and_clear();
    let wall_s = start.elapsed().as_secs_f64();
    let events = done.iter().map(|d| d.2).sum();
    let mut runs = Runs(BTreeMap::new());
    // `collect` keeps the jobs' order: replications stay in order within a variant.
    for (v, m, _) in done {
        runs.0.entry(scenarios[v].0.clone()).or_default().push(m);
    }
    Ok(Report {
        paper: "kokkinos2009",
        random_replications,
        fixed_replications,
        runs: jobs.len(),
        variants: scenarios.len(),
        events,
        wall_s,
        sections: vec![
            section1(&runs),
            section2(&runs),
            section3(&runs),
            section4(&runs),
            section5(&runs),
            section6(&runs),
        ],
    })
}

/// A figure with one series per user (`f(user)` measured at each group's variant).
fn per_user_figure(
    runs: &Runs,
    id: &'static str,
    title: &str,
    x_label: &str,
    y_label: &str,
    points: &[(String, Point)],
    f: impl Fn(&'static str) -> Box<dyn Fn(&Metrics) -> Option<f64>>,
) -> Figure {
    let users: Vec<&'static str> = GS_USERS.iter().chain(&BE_USERS).copied().collect();
    Figure {
        id,
        title: title.into(),
        x_label: x_label.into(),
        y_label: y_label.into(),
        groups: points.iter().map(|(g, _)| g.clone()).collect(),
        series: users.iter().map(|u| (*u).to_owned()).collect(),
        values: users
            .iter()
            .map(|&u| {
                let f = f(u);
                points.iter().map(|(_, p)| runs.estimate(p, &f)).collect()
            })
            .collect(),
        paper: None,
        decimals: 1,
    }
}

/// "GB 1093 0.0, GBE 1093 0.0, ..." of `f` at `points`.
fn listing(runs: &Runs, points: &[(String, Point)], f: impl Fn(&Metrics) -> Option<f64>) -> String {
    points
        .iter()
        .map(|(g, p)| format!("{g} {}", V(runs.mean(p, &f), 1)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "U2 at GBE 546: 3.1 %" for every GS user missing deadlines (or without data) at `points`.
fn gs_misses(runs: &Runs, points: &[(String, Point)]) -> Vec<String> {
    points
        .iter()
        .flat_map(|(g, p)| {
            GS_USERS.iter().filter_map(move |u| {
                let m = runs.mean(p, user_missed(u));
                (!le(m, 0.0)).then(|| format!("{u} at {g}: {} %", V(m, 1)))
            })
        })
        .collect()
}

fn section1(runs: &Runs) -> Section {
    let points = fig4_points(Layout::Single, &TABLE6);
    let fig4 = per_user_figure(
        runs,
        "fig4",
        "Fig. 4: tasks missing their deadline, per user",
        "resource scenario (Table 6), U4 inter-arrival s/t",
        "missed deadlines, % of the user's tasks",
        &points,
        |u| Box::new(user_missed(u)),
    );
    let (guaranteed, be): (Vec<_>, Vec<_>) = points
        .iter()
        .cloned()
        .partition(|(_, p)| p.resources != Table6::Be);
    let misses = gs_misses(runs, &guaranteed);
    let be_low: Vec<String> = be
        .iter()
        .filter(|(_, p)| !le(10.0, runs.mean(p, gs_missed)))
        .map(|(g, _)| g.clone())
        .collect();
    Section {
        heading: "Claim 1 (Fig. 4): hard delay guarantees for GS users".into(),
        figures: vec![fig4],
        verdicts: vec![
            verdict(
                "GS users U1-U3 miss no deadline in GB, GBE and GBP for U4 inter-arrival 1093, \
                 546 and 55 s/t.",
                "U1, U2 and U3 each miss 0 % in all nine GB, GBE and GBP variants.",
                &misses,
                format!(
                    "GS users combined, miss %: {}.",
                    listing(runs, &guaranteed, gs_missed)
                ),
            ),
            verdict(
                "In the BE scenario (no framework) they miss many.",
                "The GS users combined miss at least 10 % in the BE scenario at every U4 rate.",
                &be_low,
                format!(
                    "GS users combined, miss %: {}.",
                    listing(runs, &be, gs_missed)
                ),
            ),
        ],
    }
}

fn section2(runs: &Runs) -> Section {
    let points = fig4_points(Layout::Single, &TABLE6);
    let fig5 = per_user_figure(
        runs,
        "fig5",
        "Fig. 5: failed tasks, per user",
        "resource scenario (Table 6), U4 inter-arrival s/t",
        "failed tasks, % of the user's tasks",
        &points,
        |u| Box::new(move |m: &Metrics| m.user(u).and_then(|x| x.rates.failed_pct)),
    );
    let resources = ["R1", "R2", "R3"];
    let fig6 = Figure {
        id: "fig6",
        title: "Fig. 6: resource use".into(),
        x_label: "resource scenario (Table 6), U4 inter-arrival s/t".into(),
        y_label: "total execution time, CPU-seconds".into(),
        groups: points.iter().map(|(g, _)| g.clone()).collect(),
        series: resources.iter().map(|r| (*r).to_owned()).collect(),
        values: resources
            .iter()
            .map(|r| {
                points
                    .iter()
                    .map(|(_, p)| runs.estimate(p, |m| m.resource(r).map(|x| x.busy_s)))
                    .collect()
            })
            .collect(),
        paper: None,
        decimals: 0,
    };
    let sd = |m: &Metrics| Some(m.resource_use_sd_s);
    let fig7 = Figure {
        id: "fig7",
        title: "Fig. 7: standard deviation of the resource use".into(),
        x_label: "U4 inter-arrival, s/t".into(),
        y_label: "standard deviation across R1-R3, CPU-seconds".into(),
        groups: U4_RATES.iter().map(|&r| rate(r)).collect(),
        series: TABLE6.iter().map(|&t| t6(t).to_owned()).collect(),
        values: TABLE6
            .iter()
            .map(|&t| {
                U4_RATES
                    .iter()
                    .map(|&r| runs.estimate(&Point::base(t, r), sd))
                    .collect()
            })
            .collect(),
        paper: None,
        decimals: 0,
    };

    // Per U4 rate: GBE fails the most BE tasks (and some); GBP misses least; GBP's sd smallest.
    let (mut fail_bad, mut miss_bad, mut sd_bad) = (Vec::new(), Vec::new(), Vec::new());
    let (mut fail_ev, mut miss_ev, mut sd_ev) = (Vec::new(), Vec::new(), Vec::new());
    let total_missed = |m: &Metrics| m.all.missed_pct;
    for &r in &U4_RATES {
        let at = |t, f: &dyn Fn(&Metrics) -> Option<f64>| runs.mean(&Point::base(t, r), f);
        let all = |f: &dyn Fn(&Metrics) -> Option<f64>, d| {
            TABLE6
                .iter()
                .map(|&t| format!("{} {}", t6(t), V(at(t, f), d)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let gbe_fail = at(Table6::Gbe, &be_failed);
        let other_fail = [Table6::Gb, Table6::Gbp, Table6::Be]
            .iter()
            .map(|&t| at(t, &be_failed))
            .fold(f64::NEG_INFINITY, f64::max);
        if !(lt(0.0, gbe_fail) && lt(other_fail, gbe_fail)) {
            fail_bad.push(format!("U4 {}", rate(r)));
        }
        fail_ev.push(format!("U4 {}: {}", rate(r), all(&be_failed, 1)));
        let gbp_miss = at(Table6::Gbp, &total_missed);
        if !TABLE6.iter().all(|&t| le(gbp_miss, at(t, &total_missed))) {
            miss_bad.push(format!("U4 {}", rate(r)));
        }
        miss_ev.push(format!("U4 {}: {}", rate(r), all(&total_missed, 1)));
        let gbp_sd = at(Table6::Gbp, &sd);
        if !TABLE6.iter().all(|&t| le(gbp_sd, at(t, &sd))) {
            sd_bad.push(format!("U4 {}", rate(r)));
        }
        sd_ev.push(format!("U4 {}: {}", rate(r), all(&sd, 0)));
    }
    Section {
        heading: "Claim 2 (Figs. 5-7): failed BE tasks, total misses, resource use".into(),
        figures: vec![fig5, fig6, fig7],
        verdicts: vec![
            verdict(
                "GBE rejects (fails) many BE tasks (Fig. 5).",
                "At every U4 rate, the BE users' (U4, U5) combined % of failed tasks is above 0 \
                 under GBE and above every other scenario's.",
                &fail_bad,
                format!("BE users' failed tasks, %: {}.", fail_ev.join("; ")),
            ),
            verdict(
                "GBP has the fewest total deadline misses (Figs. 4-5).",
                "At every U4 rate, GBP's % of all tasks missing their deadline (failed ones \
                 included) is no larger than any other scenario's.",
                &miss_bad,
                format!("Missed, % of all tasks: {}.", miss_ev.join("; ")),
            ),
            verdict(
                "GBP uses the resources most evenly (Figs. 6-7).",
                "At every U4 rate, GBP's standard deviation of the resource use is no larger \
                 than any other scenario's.",
                &sd_bad,
                format!("Sd of the resource use, CPU-s: {}.", sd_ev.join("; ")),
            ),
        ],
    }
}

fn section3(runs: &Runs) -> Section {
    let points8 = fig8_points();
    let mut fig8 = per_user_figure(
        runs,
        "fig8",
        "Fig. 8: tasks missing their deadline under GBP, GS inter-arrival spreads",
        "GS inter-arrival spread, U4 inter-arrival s/t",
        "missed deadlines, % of the user's tasks; GS backlogged, % of U1-U3's tasks",
        &points8,
        |u| Box::new(user_missed(u)),
    );
    // The backlogged GS tasks of Sec. 6.4.2, beside the misses.
    fig8.series.push("GS backlogged".into());
    fig8.values.push(
        points8
            .iter()
            .map(|(_, p)| runs.estimate(p, |m| combined(m, &GS_USERS, |r| r.backlogged_pct)))
            .collect(),
    );
    let points9 = fig9_points();
    let fig9 = per_user_figure(
        runs,
        "fig9",
        "Fig. 9: tasks missing their deadline, GBP and BE, Mixed GS inter-arrivals",
        "resource scenario (Table 6), U4 inter-arrival s/t",
        "missed deadlines, % of the user's tasks",
        &points9,
        |u| Box::new(user_missed(u)),
    );

    let (mut like_bad, mut miss_bad, mut ev) = (Vec::new(), Vec::new(), Vec::new());
    for &r in &U4_RATES {
        let at = |s| {
            runs.mean(
                &Point {
                    spread: s,
                    ..Point::base(Table6::Gbp, r)
                },
                gs_missed,
            )
        };
        let fixed = at(Spread::Fixed);
        for &s in &SPREADS {
            let v = at(s);
            let case = format!("{} at U4 {}", spread_name(s), rate(r));
            match s {
                Spread::Fixed => {}
                Spread::Un5 | Spread::Un20 if !le((v - fixed).abs(), 1.0) => like_bad.push(case),
                Spread::Un50 | Spread::Mixed if !le(fixed + 1.0, v) => miss_bad.push(case),
                _ => {}
            }
        }
        ev.push(format!(
            "U4 {}: {}",
            rate(r),
            SPREADS
                .iter()
                .map(|&s| format!("{} {}", spread_name(s), V(at(s), 1)))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let ev = format!("GS users' combined miss %: {}.", ev.join("; "));
    let mut bad9 = Vec::new();
    let mut ev9 = Vec::new();
    for &r in &U4_RATES {
        let at = |t| {
            runs.mean(
                &Point {
                    spread: Spread::Mixed,
                    ..Point::base(t, r)
                },
                |m| m.all.missed_pct,
            )
        };
        let (gbp, be) = (at(Table6::Gbp), at(Table6::Be));
        if !lt(gbp, be) {
            bad9.push(format!("U4 {}", rate(r)));
        }
        ev9.push(format!(
            "U4 {}: GBP {}, BE {}",
            rate(r),
            V(gbp, 1),
            V(be, 1)
        ));
    }
    Section {
        heading: "Claim 3 (Figs. 8-9): GS users that break their (rho, sigma) constraints".into(),
        figures: vec![fig8, fig9],
        verdicts: vec![
            verdict(
                "Un.5 and Un.20 arrivals behave like Fixed for GS users (Fig. 8).",
                "At every U4 rate, the GS users' combined miss % under Un.5 and Un.20 is within \
                 1 point of Fixed's.",
                &like_bad,
                ev.clone(),
            ),
            verdict(
                "Un.50 and Mixed arrivals make GS users miss (Fig. 8).",
                "At every U4 rate, the GS users' combined miss % under Un.50 and Mixed is at \
                 least 1 point above Fixed's.",
                &miss_bad,
                ev,
            ),
            verdict(
                "Under Mixed arrivals the framework (GBP) misses fewer deadlines than no \
                 framework (BE) (Fig. 9).",
                "At every U4 rate, GBP's % of all tasks missing their deadline is below BE's.",
                &bad9,
                format!("Missed, % of all tasks: {}.", ev9.join("; ")),
            ),
        ],
    }
}

fn section4(runs: &Runs) -> Section {
    let figure = |id, title: &str, y: &str, f: fn(&Metrics) -> Option<f64>| Figure {
        id,
        title: title.into(),
        x_label: "GS workload scenario (Table 7)".into(),
        y_label: y.into(),
        groups: TABLE7
            .iter()
            .map(|&w| workload_name(w).to_owned())
            .collect(),
        series: METHODS.iter().map(|(_, n)| (*n).to_owned()).collect(),
        values: METHODS
            .iter()
            .map(|&(k, _)| {
                TABLE7
                    .iter()
                    .map(|&w| runs.estimate(&fig10_point(w, k), f))
                    .collect()
            })
            .collect(),
        paper: None,
        decimals: 1,
    };
    let fig10 = figure(
        "fig10",
        "Fig. 10: GS tasks missing their deadline, GBP, U4 at 1093 s/t",
        "missed deadlines, % of the GS users' tasks",
        gs_missed,
    );
    let fig11 = figure(
        "fig11",
        "Fig. 11: GS tasks handled as BE, GBP, U4 at 1093 s/t",
        "handled as BE, % of the GS users' tasks",
        gs_as_be,
    );

    // Per workload scenario: (failures, evidence) of each statement.
    let mut checks: [(Vec<String>, Vec<String>); 5] = Default::default();
    let name_of = |k: Knowledge| {
        METHODS
            .iter()
            .find(|(m, _)| *m == k)
            .map_or("?", |(_, n)| *n)
    };
    let windows = [5u16, 10, 20].map(Knowledge::Window);
    for &w in &TABLE7 {
        let miss = |k| runs.mean(&fig10_point(w, k), gs_missed);
        let as_be = |k| runs.mean(&fig10_point(w, k), gs_as_be);
        let wl = workload_name(w);
        let exact = miss(Knowledge::Exact);

        let fewer: Vec<&str> = METHODS
            .iter()
            .filter(|&&(k, _)| !le(exact, miss(k)))
            .map(|(_, n)| *n)
            .collect();
        if !fewer.is_empty() {
            checks[0]
                .0
                .push(format!("{wl}: {} miss less", fewer.join(", ")));
        }
        checks[0].1.push(format!(
            "{wl}: {}",
            METHODS
                .iter()
                .map(|&(k, n)| format!("{n} {}", V(miss(k), 1)))
                .collect::<Vec<_>>()
                .join(", ")
        ));

        for k in [Knowledge::Conservative, Knowledge::Aggressive] {
            if !le(as_be(k).abs(), 0.0) {
                checks[1]
                    .0
                    .push(format!("{wl}: {} {} %", name_of(k), V(as_be(k), 1)));
            }
        }
        checks[1].1.push(format!(
            "{wl}: Conservative {}, Full aggressive {}",
            V(as_be(Knowledge::Conservative), 1),
            V(as_be(Knowledge::Aggressive), 1)
        ));

        let fb = miss(Knowledge::ConservativeFeedback);
        let worse = miss(Knowledge::Conservative).min(miss(Knowledge::Aggressive));
        if !(le(exact, fb) && le(fb, worse)) {
            checks[2].0.push(wl.to_owned());
        }
        checks[2].1.push(format!(
            "{wl}: Exact {}, feedback {}, min(Conservative, Full aggressive) {}",
            V(exact, 1),
            V(fb, 1),
            V(worse, 1)
        ));

        for k in windows {
            if !le(miss(k), exact + 1.0) {
                checks[3].0.push(format!("{wl}: {}", name_of(k)));
            }
        }
        checks[3].1.push(format!(
            "{wl}: Exact {}, {}",
            V(exact, 1),
            windows
                .iter()
                .map(|&k| format!("{} {}", name_of(k), V(miss(k), 1)))
                .collect::<Vec<_>>()
                .join(", ")
        ));

        let handed = windows.map(as_be);
        let exact_be = as_be(Knowledge::Exact);
        if !(lt(exact_be, handed[0]) && lt(handed[0], handed[1]) && lt(handed[1], handed[2])) {
            checks[4].0.push(wl.to_owned());
        }
        checks[4].1.push(format!(
            "{wl}: Exact {}, windows 5/10/20 {} / {} / {}",
            V(exact_be, 1),
            V(handed[0], 1),
            V(handed[1], 1),
            V(handed[2], 1)
        ));
    }
    let statements = [
        (
            "Exact has the fewest misses (Fig. 10).",
            "For each of S0, S-10, S-30, Exact's GS miss % is no larger than any other method's.",
            "GS miss %",
        ),
        (
            "Conservative and Full aggressive never hand GS tasks to BE (Fig. 11).",
            "For each workload scenario, both hand 0 % of the GS users' tasks to BE.",
            "Handed to BE, %",
        ),
        (
            "Conservative with feedback lies between (Fig. 10).",
            "For each workload scenario, Exact <= feedback <= min(Conservative, Full aggressive) \
             in GS miss %.",
            "GS miss %",
        ),
        (
            "n-window (5, 10, 20) detects violations like Exact (Fig. 10).",
            "For each workload scenario, each window's GS miss % is at most 1 point above Exact's.",
            "GS miss %",
        ),
        (
            "n-window hands more tasks to BE than Exact, and more as n grows (Fig. 11).",
            "For each workload scenario, the % handed to BE rises strictly from Exact to window 5, \
             10 and 20.",
            "Handed to BE, %",
        ),
    ];
    Section {
        heading: "Claim 4 (Figs. 10-11): scheduling without a-priori workloads".into(),
        figures: vec![fig10, fig11],
        verdicts: statements
            .iter()
            .zip(checks)
            .map(|(&(claim, criterion, what), (bad, ev))| {
                verdict(
                    claim,
                    criterion,
                    &bad,
                    format!("{what}: {}.", ev.join("; ")),
                )
            })
            .collect(),
    }
}

/// A verdict: it holds if nothing is in `failures` (listed after the evidence otherwise).
fn verdict(claim: &str, criterion: &str, failures: &[String], evidence: String) -> Verdict {
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
    }
}

/// A mean shown with `.1` decimals, or `n/a` when undefined (NaN).
struct V(f64, usize);

impl std::fmt::Display for V {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_nan() {
            f.write_str("n/a")
        } else {
            write!(f, "{:.*}", self.1, self.0)
        }
    }
}

fn section5(runs: &Runs) -> Section {
    let orders = [MetaOrder::Edf, MetaOrder::Wfq];
    let stats: [fn(&Metrics) -> Option<f64>; 2] =
        [|m| m.all.mi_delay_mean_s, |m| m.all.mi_delay_sd_s];
    let table8 = Figure {
        id: "table8",
        title: "Table 8: delay of one MI, BE scenario, Sec. 6.4.4 workloads, U4 at 3278 s/t".into(),
        x_label: "statistic".into(),
        y_label: "seconds".into(),
        groups: vec![
            "mean delay of 1 MI (s)".into(),
            "sd of the delay of 1 MI (s)".into(),
        ],
        series: orders.iter().map(|&o| order_name(o).to_owned()).collect(),
        values: orders
            .iter()
            .map(|&o| {
                stats
                    .iter()
                    .map(|f| runs.estimate(&fig12_point(o, 3278.0), f))
                    .collect()
            })
            .collect(),
        paper: Some(
            (0..2)
                .map(|o| PAPER_TABLE8.iter().map(|row| row[o]).collect())
                .collect(),
        ),
        decimals: 2,
    };
    let fairness = |m: &Metrics| Some(m.deadline_fairness);
    let fig12 = Figure {
        id: "fig12",
        title: "Fig. 12: deadline fairness metric, BE scenario, Sec. 6.4.4 workloads".into(),
        x_label: "U4 inter-arrival, s/t".into(),
        y_label: "deadline fairness (mean relative lateness)".into(),
        groups: U4_TABLE4.iter().map(|&r| rate(r)).collect(),
        series: orders.iter().map(|&o| order_name(o).to_owned()).collect(),
        values: orders
            .iter()
            .map(|&o| {
                U4_TABLE4
                    .iter()
                    .map(|&r| runs.estimate(&fig12_point(o, r), fairness))
                    .collect()
            })
            .collect(),
        paper: None,
        decimals: 4,
    };

    let at = |o, r, f: &dyn Fn(&Metrics) -> Option<f64>| runs.mean(&fig12_point(o, r), f);
    let [edf_mean, edf_sd] = stats.map(|f| at(MetaOrder::Edf, 3278.0, &f));
    let [wfq_mean, wfq_sd] = stats.map(|f| at(MetaOrder::Wfq, 3278.0, &f));
    let below = |w: f64, e: f64| {
        if lt(w, e) {
            Vec::new()
        } else {
            vec!["WFQ/EST is not below EDF/EST".to_owned()]
        }
    };
    let mut bad = Vec::new();
    let mut ev = Vec::new();
    let mut gaps = Vec::new();
    for &r in &U4_TABLE4 {
        let (e, w) = (
            at(MetaOrder::Edf, r, &fairness),
            at(MetaOrder::Wfq, r, &fairness),
        );
        if !((le(e.abs(), 0.0) && le(w.abs(), 0.0)) || lt(w, e)) {
            bad.push(format!("U4 {}", rate(r)));
        }
        gaps.push(e - w);
        ev.push(format!("U4 {}: EDF {}, WFQ {}", rate(r), V(e, 4), V(w, 4)));
    }
    let shrinking: Vec<String> = gaps
        .windows(2)
        .zip(U4_TABLE4.windows(2))
        .filter(|(g, _)| !le(g[0], g[1]))
        .map(|(_, r)| format!("{} to {} s/t", rate(r[0]), rate(r[1])))
        .collect();
    Section {
        heading: "Claim 5 (Table 8, Fig. 12): fairness among BE users".into(),
        figures: vec![table8, fig12],
        verdicts: vec![
            verdict(
                "WFQ/EST has a smaller mean delay of a computation unit than EDF/EST (Table 8).",
                "At U4 3278 s/t, WFQ/EST's mean delay of 1 MI is below EDF/EST's.",
                &below(wfq_mean, edf_mean),
                format!(
                    "EDF/EST {} s, WFQ/EST {} s (paper: 21.96 s, 13.63 s).",
                    V(edf_mean, 2),
                    V(wfq_mean, 2)
                ),
            ),
            verdict(
                "WFQ/EST has a smaller standard deviation of that delay (Table 8).",
                "At U4 3278 s/t, WFQ/EST's standard deviation of the delay of 1 MI is below \
                 EDF/EST's.",
                &below(wfq_sd, edf_sd),
                format!(
                    "EDF/EST {} s, WFQ/EST {} s (paper: 48.48 s, 30.07 s).",
                    V(edf_sd, 2),
                    V(wfq_sd, 2)
                ),
            ),
            verdict(
                "WFQ/EST beats EDF/EST on the deadline fairness metric (Fig. 12).",
                "At every U4 inter-arrival of Table 4, WFQ/EST's metric is below EDF/EST's, or \
                 both are 0.",
                &bad,
                format!("Deadline fairness: {}.", ev.join("; ")),
            ),
            verdict(
                "The difference grows as U4's inter-arrival time decreases (Fig. 12).",
                "EDF/EST's metric minus WFQ/EST's never decreases from one U4 inter-arrival of \
                 Table 4 to the next shorter one.",
                &shrinking,
                format!(
                    "EDF - WFQ from 5464 to 55 s/t: {}.",
                    gaps.iter()
                        .map(|&g| V(g, 4).to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ),
        ],
    }
}

fn section6(runs: &Runs) -> Section {
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
        verdicts: vec![verdict(
            "With multi-CPU resources the GS users (U1, U2, U3) still miss no deadline.",
            "U1, U2 and U3 each miss 0 % in every multi-CPU GB, GBE and GBP variant.",
            &gs_misses(runs, &points),
            format!(
                "GS users combined, miss %: {}.",
                listing(runs, &points, gs_missed)
            ),
        )],
    }
}

impl Figure {
    /// The plain-text table: one row per group, one column per series (`mean ± half-width`),
    /// then the paper's numbers where it prints them.
    fn text(&self) -> String {
        let mut headers: Vec<(&str, Align)> = vec![("", Align::Left)];
        headers.extend(self.series.iter().map(|s| (s.as_str(), Align::Right)));
        let paper_names: Vec<String> = self.series.iter().map(|s| format!("{s} (paper)")).collect();
        if self.paper.is_some() {
            headers.extend(paper_names.iter().map(|s| (s.as_str(), Align::Right)));
        }
        let rows: Vec<Vec<String>> = self
            .groups
            .iter()
            .enumerate()
            .map(|(g, label)| {
                let mut row = vec![label.clone()];
                row.extend(
                    self.values
                        .iter()
                        .map(|s| s[g].map_or_else(|| "-".into(), |e| e.show(self.decimals))),
                );
                if let Some(paper) = &self.paper {
                    row.extend(paper.iter().map(|s| format!("{:.2}", s[g])));
                }
                row
            })
            .collect();
        format!(
            "{} ({})\n\n{}",
            self.title,
            self.y_label,
            table(&headers, &rows)
        )
    }

    /// One CSV row per (group, series).
    fn csv(&self) -> String {
        let mut out = String::from("group,series,mean,ci95_half_width,replications\n");
        for (g, group) in self.groups.iter().enumerate() {
            for (s, series) in self.series.iter().enumerate() {
                let (mean, half, n) = match self.values[s][g] {
                    Some(e) => (
                        e.mean.to_string(),
                        e.half_width.map_or_else(String::new, |h| h.to_string()),
                        e.n.to_string(),
                    ),
                    None => (String::new(), String::new(), "0".into()),
                };
                out.push_str(&format!(
                    "{},{},{mean},{half},{n}\n",
                    csv_field(group),
                    csv_field(series)
                ));
            }
        }
        out
    }

    fn plot(&self) -> Result<String> {
        plot::svg(&plot::Figure {
            title: self.title.clone(),
            x_label: self.x_label.clone(),
            y_label: self.y_label.clone(),
            groups: self.groups.clone(),
            series: self
                .series
                .iter()
                .zip(&self.values)
                .map(|(name, values)| plot::Series {
                    name: name.clone(),
                    values: values.clone(),
                })
                .collect(),
        })
    }
}

/// `s` as one CSV field (quoted when it holds a comma, a quote or a line break).
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

impl Report {
    /// The printed report: per section its tables, then each claim beside its verdict; last, a
    /// summary line of the verdicts and the run's size and time.
    pub fn text(&self) -> String {
        let mut out = wrap(
            &format!(
                "qosgate reproduce kokkinos2009: seed 004 Sec. 6.4. Each value is the mean over \
                 the replications ± the half-width of its 95 % confidence interval: {} \
                 replication(s) of each variant with random distributions, {} of each \
                 deterministic one (all distributions fixed). No interval is shown for one \
                 replication, nor one that rounds to 0.",
                self.random_replications, self.fixed_replications
            ),
            100,
        );
        out.push('\n');
        let mut held = 0;
        let mut total = 0;
        for s in &self.sections {
            out.push_str(&format!("== {}\n\n", s.heading));
            for f in &s.figures {
                out.push_str(&f.text());
                out.push('\n');
            }
            for v in &s.verdicts {
                total += 1;
                held += usize::from(v.holds);
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
                out.push('\n');
            }
        }
        out.push_str(&format!(
            "{held} of {total} claims hold. {} variants, {} runs, {:.1} M events in {:.1} s of \
             simulation ({:.1} M events/s).\n",
            self.variants,
            self.runs,
            self.events as f64 / 1e6,
            self.wall_s,
            self.events as f64 / 1e6 / self.wall_s.max(1e-9),
        ));
        out
    }

    /// Writes `<id>.csv` and `<id>.svg` per figure and `summary.json` into `dir` (created if
    /// missing).
    ///
    /// Errors: the directory cannot be created or a file written (named), or a plot fails.
    pub fn write_files(&self, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let write = |name: String, text: &str| {
            let path = dir.join(name);
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
        };
        for f in self.sections.iter().flat_map(|s| &s.figures) {
            write(format!("{}.csv", f.id), &f.csv())?;
            write(format!("{}.svg", f.id), &f.plot()?)?;
        }
        let mut json = serde_json::to_string_pretty(self).context("rendering summary.json")?;
        json.push('\n');
        write("summary.json".into(), &json)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_without_measurements_never_holds() {
        let runs = Runs(BTreeMap::new());
        let sections = [
            section1(&runs),
            section2(&runs),
            section3(&runs),
            section4(&runs),
            section5(&runs),
            section6(&runs),
        ];
        for v in sections.iter().flat_map(|s| &s.verdicts) {
            assert!(!v.holds, "{} holds without data: {}", v.claim, v.evidence);
        }
        let fig4 = &sections[0].figures[0];
        assert!(fig4.values.iter().flatten().all(Option::is_none));
        let text = fig4.text();
        let row = text.lines().find(|l| l.starts_with("GB 1093")).unwrap();
        assert_eq!(row.split_whitespace().skip(2).collect::<Vec<_>>(), ["-"; 5]);
    }

    #[test]
    fn csv_fields_with_commas_or_quotes_are_quoted() {
        assert_eq!(csv_field("GB 1093"), "GB 1093");
        assert_eq!(csv_field("a, b"), "\"a, b\"");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
    }

    #[test]
    fn every_figure_variant_is_simulated_once() {
        let points = all_points();
        let keys: std::collections::BTreeSet<String> = points.iter().map(Point::key).collect();
        assert_eq!(keys.len(), points.len());
        // Figs. 4-7 (12), Fig. 8 beyond Fixed (12), Fig. 9's BE (3), multi-CPU (9), Figs. 10-11
        // (21), Table 8 and Fig. 12 (18).
        assert_eq!(points.len(), 12 + 12 + 3 + 9 + 21 + 18);
    }
}
