//! Every paper's outcomes, pinned in one data file per paper (`tests/outcomes/<paper>.toml`) and
//! checked by one test over the registry.
//!
//! A data file maps every statement id of `qosgate reproduce <paper>` at its defaults
//! (replications by precision, the paper's own seeds) to its outcome: `reproduced`,
//! `contradicted` or `inconclusive` for a claim, `passed` for a check (every check must pass).
//! A change of any outcome is a change of the reproduction's result: update the file with it
//! and say why in the commit. To write a file afresh from a run:
//! `qosgate reproduce PAPER --out DIR` then read `sections[].statements[].id` and `.outcome` from
//! `DIR/summary.json`.
//!
//! - In every build: each paper's statement ids are unique, start with the paper's id, and are
//!   exactly the keys of its data file (judging needs no simulation for that).
//! - In an optimised build (`cargo test --release -p qosgate-tests --test e2e outcomes:: --
//!   --ignored`, as `.ci/run` does): each paper's outcomes at its defaults are the pinned ones,
//!   and, run again under two other base seeds (`--seed`), no claim flips between reproduced and
//!   contradicted (it may be inconclusive under one) and every check passes under both.

use std::collections::BTreeMap;

use qosgate_harness::experiments::{Options, PAPERS, Paper};
use qosgate_harness::report::{Outcome, Report};

/// The pinned outcomes of `paper`, by statement id.
fn pinned(paper: &str) -> BTreeMap<String, String> {
    let path = format!("{}/outcomes/{paper}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        outcomes: BTreeMap<String, String>,
    }
    let file: File = toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    file.outcomes
}

fn paper(id: &str) -> &'static dyn Paper {
    PAPERS.iter().copied().find(|p| p.id() == id).unwrap()
}

#[test]
fn every_statement_of_every_paper_is_pinned_once() {
    for p in PAPERS {
        let ids: Vec<String> = p.statements().into_iter().map(|(id, _)| id).collect();
        let mut seen = std::collections::BTreeSet::new();
        for id in &ids {
            assert!(seen.insert(id.clone()), "{}: id {id} twice", p.id());
            assert!(
                id.starts_with(&format!("{}.", p.id())),
                "{}: id {id} does not start with the paper's id",
                p.id()
            );
        }
        let pins = pinned(p.id());
        let missing: Vec<&String> = ids.iter().filter(|id| !pins.contains_key(*id)).collect();
        let stale: Vec<&String> = pins.keys().filter(|id| !seen.contains(*id)).collect();
        assert!(
            missing.is_empty() && stale.is_empty(),
            "{}: not pinned: {missing:?}; pinned but no such statement: {stale:?}",
            p.id()
        );
        for (id, outcome) in &pins {
            assert!(
                ["reproduced", "contradicted", "inconclusive", "passed"].contains(&&**outcome),
                "{}: {id} = {outcome:?} is no outcome a pin may name",
                p.id()
            );
        }
    }
}

/// `paper` reproduced at its defaults, under base seed `seed` (`None`: its own seeds), whole
/// or only the part `only`.
fn reproduce(paper: &dyn Paper, seed: Option<u64>, only: Option<&str>) -> Report {
    let options = Options {
        seed,
        only: only.map(str::to_owned),
        ..Options::default()
    };
    paper
        .reproduce(&options, None)
        .unwrap_or_else(|e| panic!("{}: {e:#}", paper.id()))
        .report
}

/// Each statement's outcome in `reports`, by id.
fn outcomes(reports: &[Report]) -> BTreeMap<String, Outcome> {
    reports
        .iter()
        .flat_map(|r| &r.sections)
        .flat_map(|s| &s.statements)
        .map(|s| (s.id.clone(), s.outcome))
        .collect()
}

/// `paper` reproduced under base seed `seed`: whole, or (with `parts`) each of those parts
/// alone.
fn reproduce_parts(
    id: &str,
    seed: Option<u64>,
    parts: Option<&[&str]>,
) -> BTreeMap<String, Outcome> {
    match parts {
        None => outcomes(&[reproduce(paper(id), seed, None)]),
        Some(parts) => outcomes(
            &parts
                .iter()
                .map(|part| reproduce(paper(id), seed, Some(part)))
                .collect::<Vec<_>>(),
        ),
    }
}

/// The statements on which `a` and `b` disagree in substance: a claim reproduced in one and
/// contradicted in the other, or a check failed in either (inconclusive against a decided
/// outcome is no flip: more replications may decide it).
fn flips(
    a: &BTreeMap<String, Outcome>,
    b: &BTreeMap<String, Outcome>,
    names: [&str; 2],
) -> Vec<String> {
    a.iter()
        .filter_map(|(s, x)| {
            let y = b.get(s)?;
            let flip = matches!(
                (x, y),
                (Outcome::Reproduced, Outcome::Contradicted)
                    | (Outcome::Contradicted, Outcome::Reproduced)
            ) || *x == Outcome::Failed
                || *y == Outcome::Failed;
            flip.then(|| format!("{s}: {x} {}, {y} {}", names[0], names[1]))
        })
        .collect()
}

/// The pinned outcomes, as [`Outcome`]s.
fn pinned_outcomes(id: &str) -> BTreeMap<String, Outcome> {
    pinned(id)
        .into_iter()
        .map(|(s, o)| {
            let outcome = [
                Outcome::Reproduced,
                Outcome::Contradicted,
                Outcome::Inconclusive,
                Outcome::Passed,
            ]
            .into_iter()
            .find(|x| x.name() == o)
            .unwrap_or_else(|| panic!("{id}: {s} = {o:?}"));
            (s, outcome)
        })
        .collect()
}

/// The pinned outcomes hold at the defaults.
fn check_pinned(id: &str) {
    let got = reproduce_parts(id, None, None);
    let differ: Vec<String> = pinned(id)
        .iter()
        .filter(|(s, o)| got.get(*s).map(|g| g.name()) != Some(o.as_str()))
        .map(|(s, o)| format!("{s}: pinned {o}, got {:?}", got.get(s)))
        .collect();
    assert!(differ.is_empty(), "{id}:\n{}", differ.join("\n"));
}

/// Under two other base seeds no claim flips between reproduced and contradicted, and every
/// check passes under both: the whole paper, or (with `parts`) those parts, each run alone.
/// Run alone, a part judges on its own replications (by precision), so it is also held to the
/// pins: no claim of it flips against its pinned outcome at the defaults.
fn check_stable(id: &str, parts: Option<&[&str]>) {
    let (a, b) = (
        reproduce_parts(id, Some(1), parts),
        reproduce_parts(id, Some(2), parts),
    );
    let mut wrong = flips(&a, &b, ["under seed 1", "under seed 2"]);
    if parts.is_some() {
        let own = reproduce_parts(id, None, parts);
        wrong.extend(flips(
            &pinned_outcomes(id),
            &own,
            ["pinned", "alone at the defaults"],
        ));
    }
    assert!(wrong.is_empty(), "{id}:\n{}", wrong.join("\n"));
}

/// One pinned test and one stability test per paper, release-only.
macro_rules! paper_tests {
    ($($paper:ident),* $(,)?) => {
        mod pinned {
            $(
                #[test]
                #[ignore = "runs the paper at its defaults: an optimised build (.ci/run)"]
                fn $paper() {
                    super::check_pinned(stringify!($paper));
                }
            )*
        }
        mod stable_whole {
            $(
                #[test]
                #[ignore = "runs the paper twice at its defaults: an optimised build (.ci/run)"]
                fn $paper() {
                    super::check_stable(stringify!($paper), None);
                }
            )*
        }
    };
}

paper_tests!(
    kokkinos2009,
    salehi2012,
    salehi2011,
    javadi2012,
    gandhimathi2013
);

/// The parts CI checks of the papers whose whole stability check is too long for it: a test
/// per paper that runs each part alone (`--only`) at the defaults and under two other seeds.
/// CI (`.ci/run`) runs these and skips those papers' `stable_whole` tests; the whole check of
/// every paper is `cargo test --release -p qosgate-tests --test e2e outcomes:: -- --ignored`, or one
/// job per test on a cluster (docs/cluster.md).
macro_rules! part_tests {
    ($($paper:ident: [$($part:literal),+ $(,)?]),* $(,)?) => {
        const CI_PARTS: &[(&str, &[&str])] = &[$((stringify!($paper), &[$($part),+])),*];
        mod stable_parts {
            $(
                #[test]
                #[ignore = "runs parts of the paper three times each: an optimised build (.ci/run)"]
                fn $paper() {
                    super::check_stable(stringify!($paper), Some(&[$($part),+]));
                }
            )*
        }
    };
}

part_tests! {
    salehi2012: ["claim5"],
    salehi2011: ["claim2"],
    javadi2012: ["claim3"],
    gandhimathi2013: ["claim2"],
}

/// Every part CI checks is a part of its paper.
#[test]
fn the_parts_ci_checks_exist() {
    for (id, parts) in CI_PARTS {
        let known: Vec<&str> = paper(id).contents().into_iter().map(|(p, _)| p).collect();
        for part in *parts {
            assert!(
                known.iter().any(|k| k == part),
                "{id}: no part {part}; {known:?}"
            );
        }
    }
}

/// The macro's list is the registry.
#[test]
fn every_paper_has_its_tests() {
    let ids: Vec<&str> = PAPERS.iter().map(|p| p.id()).collect();
    assert_eq!(
        ids,
        [
            "kokkinos2009",
            "salehi2012",
            "salehi2011",
            "javadi2012",
            "gandhimathi2013"
        ]
    );
}

/// The pinned outcomes of `paper` counted per mode (`"-"` for statements of no mode): claims
/// reproduced, contradicted and inconclusive, and checks.
fn counts(paper: &str) -> BTreeMap<String, [usize; 4]> {
    let mut by_mode: BTreeMap<String, [usize; 4]> = BTreeMap::new();
    for (id, outcome) in pinned(paper) {
        let mode = match id.split('.').nth(1) {
            Some(m @ ("literal" | "calibrated")) => m.to_owned(),
            _ => "-".to_owned(),
        };
        let slot = ["reproduced", "contradicted", "inconclusive", "passed"]
            .iter()
            .position(|o| *o == outcome)
            .unwrap();
        by_mode.entry(mode).or_default()[slot] += 1;
    }
    by_mode
}

/// README.md's outcome table (`| paper | mode | claims | reproduced | contradicted |
/// inconclusive | checks passed | ...`) says what the pins say, a row per paper and mode.
#[test]
fn the_readme_table_agrees_with_the_pins() {
    let path = format!("{}/../README.md", env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut rows: BTreeMap<(String, String), [usize; 4]> = BTreeMap::new();
    for line in readme.lines() {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let Some(paper) = cells[0].split_whitespace().next() else {
            continue;
        };
        if cells.len() < 7 || !PAPERS.iter().any(|p| p.id() == paper) {
            continue;
        }
        let n = |i: usize| -> usize {
            cells[i]
                .split_whitespace()
                .next()
                .and_then(|w| w.parse().ok())
                .unwrap_or_else(|| panic!("README row {line:?}: cell {i} is not a count"))
        };
        let (claims, counted) = (n(2), [n(3), n(4), n(5), n(6)]);
        assert_eq!(
            claims,
            counted[..3].iter().sum::<usize>(),
            "README row {line:?}: the claims do not add up"
        );
        let mode = if cells[1].contains("literal") {
            "literal"
        } else if cells[1].contains("calibrated") {
            "calibrated"
        } else {
            "-"
        };
        let again = rows.insert((paper.to_owned(), mode.to_owned()), counted);
        assert!(again.is_none(), "README: {paper} {mode} twice");
    }
    let pins: BTreeMap<(String, String), [usize; 4]> = PAPERS
        .iter()
        .flat_map(|p| {
            counts(p.id())
                .into_iter()
                .map(|(mode, c)| ((p.id().to_owned(), mode), c))
        })
        .collect();
    assert_eq!(
        rows, pins,
        "README.md's outcome table (left) against the pins (right): [reproduced, \
         contradicted, inconclusive, checks]"
    );
}
