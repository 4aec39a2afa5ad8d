//! Every paper's outcomes, pinned in one data file per paper (`tests/outcomes/<paper>.toml`) and
//! checked by one test over the registry.
//!
//! A data file maps every statement id of `qosgate reproduce <paper>` at its defaults
//! (replications by precision, the paper's own seeds) to its outcome: `reproduced`,
//! `contradicted` or `inconclusive` for a claim, `passed` for a check (every check must pass).
//! A change of any outcome is a change of the reproduction's result: update the file with it
//! and say why in the commit. To write a file afresh from a run:
//! `qosgate reproduce PAPER --out DIR` then read `statements[].id` and `.outcome` from
//! `DIR/summary.json`.
//!
//! - In every build: each paper's statement ids are unique, start with the paper's id, and are
//!   exactly the keys of its data file (judging needs no simulation for that).
//! - In an optimised build (`cargo test --release -p qosgate-harness --test outcomes --
//!   --ignored`, as `.ci/run` does): each paper's outcomes at its defaults are the pinned ones,
//!   and, run again under two other base seeds (`--seed`), no claim flips between reproduced and
//!   contradicted (it may be inconclusive under one) and every check passes under both.

use std::collections::BTreeMap;

use qosgate_harness::experiments::{Options, PAPERS, Paper};
use qosgate_harness::report::{Outcome, Report};

/// The pinned outcomes of `paper`, by statement id.
fn pinned(paper: &str) -> BTreeMap<String, String> {
    let path = format!("{}/tests/outcomes/{paper}.toml", env!("CARGO_MANIFEST_DIR"));
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

/// `paper` reproduced at its defaults, under base seed `seed` (`None`: its own seeds).
fn reproduce(paper: &dyn Paper, seed: Option<u64>) -> Report {
    let options = Options {
        seed,
        ..Options::default()
    };
    paper
        .reproduce(&options, None)
        .unwrap_or_else(|e| panic!("{}: {e:#}", paper.id()))
        .report
}

/// Each statement's outcome in `report`, by id.
fn outcomes(report: &Report) -> BTreeMap<String, Outcome> {
    report
        .sections
        .iter()
        .flat_map(|s| &s.statements)
        .map(|s| (s.id.clone(), s.outcome))
        .collect()
}

/// The pinned outcomes hold at the defaults.
fn check_pinned(id: &str) {
    let report = reproduce(paper(id), None);
    let got = outcomes(&report);
    let differ: Vec<String> = pinned(id)
        .iter()
        .filter(|(s, o)| got.get(*s).map(|g| g.name()) != Some(o.as_str()))
        .map(|(s, o)| format!("{s}: pinned {o}, got {:?}", got.get(s)))
        .collect();
    assert!(differ.is_empty(), "{id}:\n{}", differ.join("\n"));
}

/// Under two other base seeds no claim flips between reproduced and contradicted, and every
/// check passes under both.
fn check_stable(id: &str) {
    let (a, b) = (
        outcomes(&reproduce(paper(id), Some(1))),
        outcomes(&reproduce(paper(id), Some(2))),
    );
    let flips: Vec<String> = a
        .iter()
        .filter_map(|(s, x)| {
            let y = b.get(s)?;
            let flip = matches!(
                (x, y),
                (Outcome::Reproduced, Outcome::Contradicted)
                    | (Outcome::Contradicted, Outcome::Reproduced)
            ) || *x == Outcome::Failed
                || *y == Outcome::Failed;
            flip.then(|| format!("{s}: {x} under seed 1, {y} under seed 2"))
        })
        .collect();
    assert!(flips.is_empty(), "{id}:\n{}", flips.join("\n"));
}

/// One pinned test and one stability test per paper, release-only.
macro_rules! paper_tests {
    ($($paper:ident),* $(,)?) => {
        mod at_the_defaults {
            $(
                #[test]
                #[ignore = "runs the paper at its defaults: an optimised build (.ci/run)"]
                fn $paper() {
                    super::check_pinned(stringify!($paper));
                }
            )*
        }
        mod under_two_seeds {
            $(
                #[test]
                #[ignore = "runs the paper twice at its defaults: an optimised build (.ci/run)"]
                fn $paper() {
                    super::check_stable(stringify!($paper));
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
