//! Sharded reproductions: the runner's property (the shards of N are disjoint, together every
//! (variant, replication) pair, and judged from their run files they give the whole run's
//! report and files byte for byte) on a test-only paper over a cheap model, then the same
//! through the binary on kokkinos2009, and every way a set of run files can fail to be one
//! reproduction, each named by file and line.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Output;

use anyhow::Result;
use proptest::prelude::*;
use qosgate_harness::config::{Headed, Header, Problem};
use qosgate_harness::des::rng::{SplitMix, replication_seed};
use qosgate_harness::experiments::runfile::{self, StoredRun};
use qosgate_harness::experiments::shard::Shard;
use qosgate_harness::experiments::{
    Experiment, Options, Paper, Part, Precision, RunsOf, Simulation,
};
use qosgate_harness::models::{AnyScenario, Model, RunOptions, ScenarioFile};
use qosgate_harness::report::progress::Show;
use qosgate_harness::report::statement::{Margin, Source, claim};
use qosgate_harness::report::{Citation, Figure, Mode, Parameters, Section};
use qosgate_testkit::cli::{run, scratch, stderr, stdout};
use serde::{Deserialize, Serialize};

/// A model whose run is a few draws: cheap, and its metrics are `f64`s of every mantissa, the
/// kind a JSON round trip that is not exact would change.
struct Toy;

#[derive(Debug, Clone)]
struct ToyScenario {
    header: Header,
    random: bool,
    scale: f64,
}

impl Headed for ToyScenario {
    fn header(&self) -> &Header {
        &self.header
    }

    fn header_mut(&mut self) -> &mut Header {
        &mut self.header
    }
}

/// What the registry asks of a scenario; a toy one is never a preset, printed or run.
impl AnyScenario for ToyScenario {
    fn model(&self) -> &'static str {
        Toy::NAME
    }

    fn to_toml(&self) -> String {
        String::new()
    }

    fn run(&self, _: &RunOptions, _: &mut dyn std::io::Write) -> Result<()> {
        anyhow::bail!("a toy scenario is not run from the command line")
    }
}

/// A fixed scenario's replications all draw from its base seed.
impl ScenarioFile for ToyScenario {
    /// A toy scenario has nothing to check.
    fn problems(&self) -> Vec<Problem> {
        Vec::new()
    }

    fn seed(&self, k: u32) -> u64 {
        if self.random {
            replication_seed(self.header.seed, k)
        } else {
            self.header.seed
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct ToyMetrics {
    /// Two measures; the second is undefined in some replications.
    values: [Option<f64>; 2],
}

impl Model for Toy {
    const NAME: &'static str = "toy";
    type Scenario = ToyScenario;
    type Run = Vec<f64>;
    type Metrics = ToyMetrics;

    fn simulate(s: &ToyScenario, k: u32) -> Result<Vec<f64>> {
        let mut g = SplitMix(s.seed(k));
        Ok((0..3).map(|_| s.scale * (g.unit() + 0.01)).collect())
    }

    fn metrics(_: &ToyScenario, run: &Vec<f64>) -> ToyMetrics {
        ToyMetrics {
            values: [Some(run[0]), (run[2] > 0.2 * run[1]).then(|| run[1] / 3.0)],
        }
    }

    fn events(run: &Vec<f64>) -> u64 {
        run.len() as u64
    }

    fn deterministic(s: &ToyScenario) -> bool {
        !s.random
    }
}

/// One point of the toy paper: a load on a numeric axis, random or fixed.
#[derive(Debug, Clone, Copy, serde::Serialize)]
struct Point {
    load: f64,
    random: bool,
}

impl Simulation for Point {
    type Scenario = ToyScenario;

    /// Seeded by its load: `--seed` moves every point's seed.
    fn scenario(&self) -> Result<ToyScenario> {
        Ok(ToyScenario {
            header: Header {
                name: "toy".into(),
                description: "a toy".into(),
                seed: 7 ^ self.load.to_bits(),
                replications: 1,
            },
            random: self.random,
            scale: self.load,
        })
    }
}

/// The points of part A (a line plot); part B (bars) shares the last one and adds a fixed one.
const A: [Point; 3] = [
    Point {
        load: 1.0,
        random: true,
    },
    Point {
        load: 10.0,
        random: true,
    },
    Point {
        load: 300.0,
        random: true,
    },
];
const B: [Point; 2] = [
    A[2],
    Point {
        load: 7.0,
        random: false,
    },
];

/// A paper over [`Toy`].
struct ToyPaper;

fn figure(runs: &RunsOf<ToyPaper>, id: &'static str, points: &[Point], numeric: bool) -> Figure {
    use qosgate_harness::report::Ticks;
    let (title, x_label) = (format!("Figure {id}"), "load, tasks/s");
    let loads = points.iter().map(|p| p.load);
    let fig = if numeric {
        Figure::lines(id, title).x(x_label, loads, Ticks::Plain)
    } else {
        Figure::bars(id, title).groups(x_label, loads.map(|l| l.to_string()))
    };
    fig.y("value, s")
        .all_series(
            ["first", "second"]
                .into_iter()
                .enumerate()
                .map(|(s, name)| {
                    let values = points
                        .iter()
                        .map(move |p| runs.estimate(p, move |m: &ToyMetrics| m.values[s]));
                    (name, values)
                }),
        )
        .decimals(3)
}

fn section(runs: &RunsOf<ToyPaper>, id: &'static str, points: &[Point]) -> Section {
    let margin = Margin::at_least(0.0, "s", Source::Practical("any growth".into()));
    let grows = claim(
        format!("toy2024.{id}.grows"),
        "The value grows with the load.",
        "the value at a load minus at the load before",
        margin,
    )
    .points(points.windows(2).map(|w| {
        (
            format!("{} - {}", w[1].load, w[0].load),
            runs.diff(&w[1], &w[0], |m: &ToyMetrics| m.values[0]),
        )
    }))
    .done();
    Section {
        heading: format!("Part {id}"),
        figures: vec![figure(runs, id, points, id == "a")],
        statements: vec![grows],
        ..Section::default()
    }
}

impl Experiment for ToyPaper {
    type Model = Toy;
    type Variant = Point;
    const ID: &'static str = "toy2024";
    const PAPER: Citation = Citation {
        authors: "A. Toy",
        title: "A toy paper",
        venue: "nowhere",
        year: 2024,
    };
    const TITLE: &'static str = "a toy paper";
    const REPLICATIONS: Precision = Precision { first: 3, cap: 3 };
    const PRESETS: fn() -> Result<Vec<ToyScenario>> = || Ok(Vec::new());

    fn parts(&self) -> Vec<Part<Self>> {
        vec![
            Part::new("a", &["a"], A.to_vec(), |runs| section(runs, "a", &A)),
            Part::new("b", &["b"], B.to_vec(), |runs| section(runs, "b", &B)),
        ]
    }

    fn parameters(&self) -> Vec<Parameters> {
        vec![Parameters {
            mode: Mode::Literal,
            description: "toy".into(),
        }]
    }
}

/// A paper over [`Toy`] run by precision: part `settled` claims a large effect its first
/// replications decide; part `open` reads a measure no run defines, which no count of
/// replications can decide, so it runs to the cap.
struct PrecisionPaper;

impl Experiment for PrecisionPaper {
    type Model = Toy;
    type Variant = Point;
    const ID: &'static str = "precise2025";
    const PAPER: Citation = ToyPaper::PAPER;
    const TITLE: &'static str = "a paper judged by precision";
    const REPLICATIONS: Precision = Precision { first: 2, cap: 16 };
    const PRESETS: fn() -> Result<Vec<ToyScenario>> = || Ok(Vec::new());

    fn parts(&self) -> Vec<Part<Self>> {
        // The value at load 300 minus at load 1 is about 150: at least 10 is decided at once.
        let decided = |runs: &RunsOf<PrecisionPaper>| Section {
            statements: vec![
                claim(
                    "precise2025.a.grows",
                    "It grows.",
                    "the value at 300 minus at 1",
                    Margin::at_least(10.0, "s", Source::Practical("a test".into())),
                )
                .point(
                    "300 - 1",
                    runs.diff(&A[2], &A[0], |m: &ToyMetrics| m.values[0]),
                )
                .done(),
            ],
            ..Section::default()
        };
        // A measure no run defines: no interval, so never settled.
        let open = |runs: &RunsOf<PrecisionPaper>| Section {
            statements: vec![
                claim(
                    "precise2025.b.undefined",
                    "It is measured.",
                    "nothing any run defines",
                    Margin::within(1.0, "s", Source::Practical("a test".into())),
                )
                .point("10 - 1", runs.diff(&A[1], &A[0], |_: &ToyMetrics| None))
                .done(),
            ],
            ..Section::default()
        };
        vec![
            Part::new("settled", &[], vec![A[0], A[2]], decided),
            Part::new("open", &[], vec![A[0], A[1]], open),
        ]
    }

    fn parameters(&self) -> Vec<Parameters> {
        Vec::new()
    }
}

/// Replications by precision: a part whose claim its first replications decide stays at them
/// (its variant shared with the open part excepted), the open part doubles to the cap, and the
/// result is the fixed run's at the counts it ended with.
#[test]
fn replications_grow_only_where_a_claim_is_undecided() {
    let by_precision = PrecisionPaper
        .reproduce(&Options::default(), None)
        .unwrap()
        .report;
    let counts: Vec<[u32; 2]> = by_precision
        .sections
        .iter()
        .map(|s| s.replications)
        .collect();
    // Load 1 is read by both parts: it grew with the open one; load 300 stopped once the
    // settled part's claim was decided.
    assert_eq!(counts[1], [16, 16]);
    assert!(counts[0][0] < 16 && counts[0][1] == 16, "{counts:?}");
    let statements = |r: &qosgate_harness::report::Report| {
        r.sections
            .iter()
            .flat_map(|s| s.statements.clone())
            .collect::<Vec<_>>()
    };
    let all = statements(&by_precision);
    assert_eq!(all[0].outcome, qosgate_harness::report::Outcome::Reproduced);
    let open = &all[1];
    assert_eq!(open.outcome, qosgate_harness::report::Outcome::Inconclusive);
    let fixed = PrecisionPaper
        .reproduce(
            &Options {
                replications: Some(16),
                only: Some("open".into()),
                ..Options::default()
            },
            None,
        )
        .unwrap()
        .report;
    assert_eq!(statements(&fixed)[0].points, open.points);
    // Forced to a count that does not decide it, it says so.
    assert!(statements(&fixed)[0].note.is_some());
    let settled = PrecisionPaper
        .reproduce(
            &Options {
                replications: Some(counts[0][0]),
                only: Some("settled".into()),
                ..Options::default()
            },
            None,
        )
        .unwrap()
        .report;
    assert_eq!(statements(&settled)[0].outcome, all[0].outcome);
}

/// Every file of `dir` but timing.txt: name and bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap() != "timing.txt")
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// The names of `files`.
fn names(files: &[(String, Vec<u8>)]) -> Vec<&str> {
    files.iter().map(|(n, _)| n.as_str()).collect()
}

/// The (variant, replication) pairs of stored runs.
fn pairs(runs: &[StoredRun]) -> Vec<(String, u32)> {
    runs.iter()
        .map(|r| (r.line.variant.clone(), r.line.replication))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// For N in 1, 2, 3 and 7: the shards' runs are disjoint and together the whole run's, each
    /// in the file of its shard, and judged from their files they give the whole run's report
    /// and files (the page and the plots included) byte for byte.
    #[test]
    fn shards_partition_the_runs_and_merge_into_the_whole_run(
        seed in any::<u64>(),
        replications in prop::option::of(1u32..5),
        only in prop::sample::select(vec![None, Some("a"), Some("b")]),
        count in prop::sample::select(vec![1u32, 2, 3, 7]),
    ) {
        let paper = ToyPaper;
        let options = Options {
            replications,
            only: only.map(str::to_owned),
            progress: Show::Nothing,
            seed: Some(seed),
        };
        let tag = format!("{seed:x}-{count}");
        let (whole_dir, shard_dir) = (scratch(&format!("shards-whole-{tag}")), scratch(&format!("shards-runs-{tag}")));
        let whole = paper.reproduce(&options, Some(&whole_dir)).unwrap();
        let all = runfile::read(&[whole_dir.join("toy2024.jsonl")]).unwrap();
        let mut stored = 0;
        for k in 0..count {
            let shard = Shard::new(k, count).unwrap();
            let s = paper.run_shard(&options, shard, &shard_dir).unwrap();
            prop_assert_eq!(s.of, all.len());
            stored += s.runs;
            for r in runfile::read(std::slice::from_ref(&s.path)).unwrap() {
                prop_assert_eq!(r.line.shard, shard);
            }
        }
        let read = runfile::read(std::slice::from_ref(&shard_dir)).unwrap();
        let distinct: BTreeSet<(String, u32)> = pairs(&read).into_iter().collect();
        prop_assert_eq!(distinct.len(), read.len(), "the shards overlap");
        prop_assert_eq!(stored, read.len());
        prop_assert_eq!(&distinct, &pairs(&all).into_iter().collect::<BTreeSet<_>>());
        prop_assert_eq!(all.len(), whole.report.runs);

        let merged = paper.judge_stored(&options, read).unwrap();
        prop_assert_eq!(merged.report.text(), whole.report.text());
        let (a, b) = (scratch(&format!("shards-out-whole-{tag}")), scratch(&format!("shards-out-merged-{tag}")));
        whole.report.write_files(&a, &whole.timing).unwrap();
        merged.report.write_files(&b, &merged.timing).unwrap();
        let (fa, fb) = (files(&a), files(&b));
        prop_assert!(fa.iter().any(|(n, _)| n == "index.html"));
        prop_assert_eq!(names(&fa), names(&fb));
        for ((name, x), (_, y)) in fa.iter().zip(&fb) {
            prop_assert!(x == y, "{} differs", name);
        }
        prop_assert!(merged.timing.elapsed_s.is_none() && whole.timing.elapsed_s.is_some());
        for d in [whole_dir, shard_dir, a, b] {
            std::fs::remove_dir_all(d).unwrap();
        }
    }
}

fn qosgate(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_qosgate-e2e"), args)
}

/// `qosgate reproduce kokkinos2009 --only claim1 --replications 2` and `args`.
fn claim1(args: &[&str]) -> Output {
    claim1_at("2", args)
}

/// `qosgate reproduce kokkinos2009 --only claim1 --replications R` and `args`.
fn claim1_at(replications: &str, args: &[&str]) -> Output {
    let mut all = vec![
        "reproduce",
        "kokkinos2009",
        "--only",
        "claim1",
        "--replications",
        replications,
    ];
    all.extend_from_slice(args);
    qosgate(&all)
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temp dir")
}

/// Through the binary, for N in 1, 2, 3 and 7: the merged report (standard output and every file
/// of --out but timing.txt) is the whole run's.
#[test]
fn sharded_kokkinos2009_merges_into_the_whole_run_through_the_binary() {
    let base = scratch("shards-cli");
    let out = base.join("out");
    let whole = claim1(&["--out", path(&out)]);
    assert!(whole.status.success(), "{}", stderr(&whole));
    assert!(
        stderr(&whole).contains("simulated in"),
        "{}",
        stderr(&whole)
    );
    let whole_files = files(&out);
    std::fs::remove_dir_all(&out).unwrap();
    for count in [1, 2, 3, 7] {
        let runs = base.join(format!("runs-{count}"));
        for k in 0..count {
            let o = claim1(&["--shard", &format!("{k}/{count}"), "--runs", path(&runs)]);
            assert!(o.status.success(), "{}", stderr(&o));
            assert!(
                stdout(&o).contains(&format!("kokkinos2009 shard {k}/{count}: wrote ")),
                "{}",
                stdout(&o)
            );
        }
        let merged = claim1(&["--from", path(&runs), "--out", path(&out)]);
        assert!(merged.status.success(), "{}", stderr(&merged));
        assert_eq!(stdout(&merged), stdout(&whole), "N = {count}");
        assert!(stderr(&merged).contains("read from run files"));
        let merged_files = files(&out);
        assert_eq!(names(&merged_files), names(&whole_files), "N = {count}");
        for ((name, x), (_, y)) in whole_files.iter().zip(&merged_files) {
            assert!(x == y, "N = {count}: {name} differs");
        }
        std::fs::remove_dir_all(&out).unwrap();
    }
    std::fs::remove_dir_all(&base).unwrap();
}

/// A part that draws schedules (javadi2012's claim 1, Gantt charts simulated again when judged)
/// merges from two shards into the same page and files, the charts included, as the whole run.
#[test]
fn a_merge_draws_the_schedules_the_whole_run_draws() {
    let base = scratch("shards-gantt");
    let reproduce = |args: &[&str]| {
        let mut all = vec![
            "reproduce",
            "javadi2012",
            "--only",
            "claim1",
            "--replications",
            "1",
        ];
        all.extend_from_slice(args);
        let o = qosgate(&all);
        assert!(o.status.success(), "{}", stderr(&o));
        o
    };
    let (out, runs) = (base.join("out"), base.join("runs"));
    let printed = reproduce(&["--out", path(&out)]);
    let whole = files(&out);
    std::fs::remove_dir_all(&out).unwrap();
    for k in 0..2 {
        reproduce(&["--shard", &format!("{k}/2"), "--runs", path(&runs)]);
    }
    let from = reproduce(&["--from", path(&runs), "--out", path(&out)]);
    assert_eq!(stdout(&from), stdout(&printed));
    let merged = files(&out);
    assert_eq!(names(&merged), names(&whole));
    assert_eq!(
        names(&whole)
            .iter()
            .filter(|n| n.starts_with("gantt-"))
            .count(),
        2
    );
    for ((name, x), (_, y)) in whole.iter().zip(&merged) {
        assert!(x == y, "{name} differs");
    }
    std::fs::remove_dir_all(&base).unwrap();
}

/// Shards 0/3..2/3 of claim 1 at 2 replications, in a fresh directory; returns it.
fn three_shards(name: &str) -> PathBuf {
    let runs = scratch(&format!("shards-{name}"));
    for k in 0..3 {
        let o = claim1(&["--shard", &format!("{k}/3"), "--runs", path(&runs)]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    runs
}

/// Replaces `from` by `to` in line `line` (1-based) of `file`.
fn edit(file: &Path, line: usize, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    assert!(
        lines[line - 1].contains(from),
        "{from} not in {}",
        lines[line - 1]
    );
    lines[line - 1] = lines[line - 1].replacen(from, to, 1);
    std::fs::write(file, lines.join("\n") + "\n").unwrap();
}

/// The error of `--from runs` with `args`, at 2 replications.
fn merge_error(runs: &Path, args: &[&str]) -> String {
    merge_error_at("2", runs, args)
}

/// The error of `--from runs` with `args`, at `replications`.
fn merge_error_at(replications: &str, runs: &Path, args: &[&str]) -> String {
    let mut all = vec!["--from", path(runs)];
    all.extend_from_slice(args);
    let o = claim1_at(replications, &all);
    assert!(!o.status.success(), "merged: {}", stdout(&o));
    stderr(&o)
}

#[test]
fn missing_and_duplicate_runs_are_named() {
    let runs = three_shards("missing");
    let file = |k: u32| runs.join(format!("kokkinos2009-{k}of3.jsonl"));
    // 24 runs in 3 shards: shard 1 holds runs 1, 4, ..., 22.
    std::fs::remove_file(file(1)).unwrap();
    let e = merge_error(&runs, &[]);
    assert!(
        e.contains("missing 8 of the 24 runs of kokkinos2009"),
        "{e}"
    );
    assert!(e.contains("replication 1 (shard 1/3)"), "{e}");
    // Shard 0's file under a second name: every run of it twice.
    std::fs::copy(file(0), runs.join("copy.jsonl")).unwrap();
    let e = merge_error(&runs, &[]);
    let (a, b) = (file(0), runs.join("copy.jsonl"));
    // The copy is read first (files by name), so shard 0's own lines are the duplicates.
    assert!(
        e.contains(&format!(
            "{}:1 and {}:1: both hold",
            b.display(),
            a.display()
        )),
        "{e}"
    );
    assert!(e.contains("missing 8 of the 24 runs"), "{e}");
    std::fs::remove_dir_all(&runs).unwrap();
}

#[test]
fn runs_of_another_paper_version_replication_count_or_part_are_named() {
    let runs = three_shards("foreign");
    let file = runs.join("kokkinos2009-2of3.jsonl");
    let at = |line: usize| format!("{}:{line}: ", file.display());

    edit(&file, 2, "\"qosgate\":\"", "\"qosgate\":\"0.0.0-");
    let e = merge_error(&runs, &[]);
    assert!(
        e.contains(&format!("{}a run of qosgate 0.0.0-", at(2))),
        "{e}"
    );
    edit(&file, 2, "\"qosgate\":\"0.0.0-", "\"qosgate\":\"");

    edit(&file, 3, "\"scenario\":\"", "\"scenario\":\"0");
    let e = merge_error(&runs, &[]);
    assert!(
        e.contains(&at(3)) && e.contains("another scenario or seed"),
        "{e}"
    );
    edit(&file, 3, "\"scenario\":\"0", "\"scenario\":\"");

    edit(
        &file,
        4,
        "\"paper\":\"kokkinos2009\"",
        "\"paper\":\"nobody2020\"",
    );
    let e = merge_error(&runs, &[]);
    assert!(
        e.contains("runs of a paper this command does not reproduce (kokkinos2009)"),
        "{e}"
    );
    assert!(e.contains(&format!("{}a run of nobody2020", at(4))), "{e}");
    edit(
        &file,
        4,
        "\"paper\":\"nobody2020\"",
        "\"paper\":\"kokkinos2009\"",
    );

    // Every line is of another replication count: each is named (the first dozen listed).
    let e = merge_error_at("3", &runs, &[]);
    for line in [1, 8] {
        assert!(
            e.contains(&format!(
                "{}:{line}: a run of a reproduction with 2 replication(s) of each random variant \
                 and 2 of each deterministic one; this one has 3 and 3",
                runs.join("kokkinos2009-0of3.jsonl").display()
            )),
            "{e}"
        );
    }
    // 24 foreign lines and the 24 runs missing (one problem): 12 listed, 13 more.
    assert!(e.contains("(and 13 more)"), "{e}");
    // Runs of claim 1 are not runs of the multi-CPU check.
    let o = qosgate(&[
        "reproduce",
        "kokkinos2009",
        "--only",
        "multicpu",
        "--replications",
        "2",
        "--from",
        path(&runs),
    ]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("is not a run of this reproduction of kokkinos2009"),
        "{e}"
    );
    assert!(e.contains("missing 18 of the 18 runs"), "{e}");

    std::fs::write(&file, "{\"paper\": 1}\n").unwrap();
    let e = merge_error(&runs, &[]);
    assert!(
        e.contains(&format!("{}not a run of `qosgate reproduce --runs`", at(1))),
        "{e}"
    );
    std::fs::remove_dir_all(&runs).unwrap();
}

#[test]
fn shard_options_are_checked_before_anything_runs() {
    for (args, says) in [
        (&["--shard", "3/3", "--runs", "x"][..], "numbered 0 to 2"),
        (&["--shard", "1/2"][..], "--runs"),
        (
            &["--shard", "0/2", "--runs", "x", "--from", "y"][..],
            "cannot be used",
        ),
        (
            &["--from", "/nonexistent/qosgate"][..],
            "/nonexistent/qosgate",
        ),
    ] {
        let o = claim1(args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    let empty = scratch("shards-empty");
    let e = merge_error(&empty, &[]);
    assert!(e.contains("holds no run file"), "{e}");
    std::fs::remove_dir_all(&empty).unwrap();
}
