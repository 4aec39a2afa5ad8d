//! Run files: one JSON line per simulated run, what `qosgate reproduce --runs DIR` writes and
//! `--from DIR` judges from.
//!
//! A shard `K/N` of paper `P` writes `DIR/P-KofN.jsonl` (a whole reproduction `DIR/P.jsonl`),
//! through a temporary file renamed into place, so a file that exists is complete. Each line is
//! a [`Line`]: the paper, the qosgate version, the replication counts, the shard, the variant's
//! key, a fingerprint of its scenario, the replication, its seed, the events it processed, its
//! own wall time, its metrics (the model's `Metrics` as JSON; serde_json's `float_roundtrip`
//! reads every `f64` back to the bit), and a check of the run ([`check`]): a line whose
//! metrics, variant, replication, seed or events were changed after qosgate wrote it (by hand, or
//! damaged) is refused when read, so that no number a simulation did not produce is judged.
//! The check is FNV-1a: it catches edits and damage, not a forgery made to match.
//!
//! Reading ([`read`]) takes directories (every `*.jsonl` directly in them, by name) and files,
//! and locates every line as `path:line`. It keeps one line of a file in memory at a time and
//! refuses a line longer than [`input::LINE`] bytes (1 MiB; a run line is under a few KiB), so
//! that `--from /dev/zero` ends at once: `path:1: a line longer than 1048576 bytes`. Matching
//! the lines to a reproduction's runs, and every check a merge makes (missing, duplicate,
//! foreign runs), is [`super::runner::Plan::merge`]'s.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::shard::Shard;
use crate::input::{self, LineTooLong};
use crate::workload::lines::{Line as TextLine, Lines};

/// The qosgate version that writes run files; a merge takes only runs of this version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// How many times each variant runs: the replication counts a reproduction was asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replications {
    /// Replications of each variant with random draws.
    pub random: u32,
    /// Replications of each deterministic variant.
    pub fixed: u32,
}

/// One run, as one line of a run file. `M` is the model's metrics when writing, and the raw
/// JSON of them when reading (parsed by the paper that owns the run).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Line<M> {
    /// The paper's id.
    pub paper: String,
    /// The qosgate version that simulated it ([`VERSION`]).
    pub qosgate: String,
    /// The replication counts of the reproduction it is part of.
    pub replications: Replications,
    /// The shard that simulated it (`0/1` for a whole reproduction).
    pub shard: Shard,
    /// The variant's key (its `Debug` form).
    pub variant: String,
    /// A fingerprint of the variant's scenario ([`fingerprint`]).
    pub scenario: String,
    /// The replication, from 0.
    pub replication: u32,
    /// The seed the replication drew from.
    pub seed: u64,
    /// Simulation events processed.
    pub events: u64,
    /// The run's own wall time (simulation and metrics, on its thread), seconds. The only field
    /// that differs between two runs of one shard; never part of a judged result.
    pub wall_s: f64,
    /// The metrics.
    pub metrics: M,
    /// [`check`] of the variant, replication, seed, events and the metrics' JSON text.
    pub check: String,
}

/// A line read from a run file, with where it was read.
#[derive(Debug)]
pub struct StoredRun {
    /// `path:line` (1-based).
    pub origin: String,
    /// The line, its metrics still raw JSON.
    pub line: Line<Box<RawValue>>,
}

/// The file shard `shard` of `paper` writes in a run directory.
pub fn file_name(paper: &str, shard: Shard) -> String {
    if shard == Shard::WHOLE {
        format!("{paper}.jsonl")
    } else {
        format!("{paper}-{}of{}.jsonl", shard.index(), shard.count())
    }
}

/// Writes `lines` (each one JSON line, without its newline) as `dir/<file_name>`, creating
/// `dir` if missing and replacing an older file: the text goes to a temporary sibling first, then
/// is renamed into place ([`crate::output::write_file`]; a crash leaves the older file or none,
/// and maybe the temporary `*.jsonl.tmp-<pid>`, which [`read`] skips). Returns the path.
///
/// Errors: the directory cannot be created or the file written (named).
pub fn write(dir: &Path, paper: &str, shard: Shard, lines: &[String]) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = dir.join(file_name(paper, shard));
    crate::output::write_file(&path, |w| {
        for l in lines {
            writeln!(w, "{l}").with_context(|| format!("writing {}", path.display()))?;
        }
        Ok(())
    })?;
    Ok(path)
}

/// Reads every run of `paths`: a directory stands for the `*.jsonl` files directly in it (by
/// name), a file for itself.
///
/// Errors: a path that cannot be read, a directory without run files, a line longer than
/// [`input::LINE`] bytes, or a line that is not a run ([`Line`]), each named by path (and line).
pub fn read(paths: &[PathBuf]) -> Result<Vec<StoredRun>> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(p)
                .with_context(|| format!("reading the run directory {}", p.display()))?
                .map(|e| e.map(|e| e.path()))
                .collect::<std::io::Result<_>>()
                .with_context(|| format!("reading the run directory {}", p.display()))?;
            found.retain(|f| f.extension().is_some_and(|e| e == "jsonl") && f.is_file());
            if found.is_empty() {
                bail!(
                    "{} holds no run file (*.jsonl): was it written by `qosgate reproduce \
                     --runs`?",
                    p.display()
                );
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(p.clone());
        }
    }
    let mut runs = Vec::new();
    for f in &files {
        let file = std::fs::File::open(f)
            .with_context(|| format!("reading the run file {}", f.display()))?;
        read_runs(file, &f.display().to_string(), input::LINE, &mut runs)?;
    }
    Ok(runs)
}

/// The runs of one run file from any reader, named `name` in errors and origins (`name:line`):
/// [`read`]'s reading of a file, lines of at most [`input::LINE`] bytes.
///
/// Invariant of a returned run: its check matches its variant, replication, seed, events and
/// metrics' text (the fuzz target `runfile` checks that no edit of those gets through).
///
/// Errors: as [`read`]'s for one file.
pub fn read_from(reader: impl Read, name: &str) -> Result<Vec<StoredRun>> {
    let mut runs = Vec::new();
    read_runs(reader, name, input::LINE, &mut runs)?;
    Ok(runs)
}

/// Adds the runs of `reader`, a run file named `name`, to `runs`, reading one line of at most
/// `max_line` bytes at a time.
fn read_runs(
    reader: impl Read,
    name: &str,
    max_line: usize,
    runs: &mut Vec<StoredRun>,
) -> Result<()> {
    let mut lines = Lines::new(reader, max_line);
    for number in 1u64.. {
        let origin = format!("{name}:{number}");
        let line = lines.next_line().with_context(|| origin.clone())?;
        match line {
            None => break,
            Some(TextLine::TooLong) => bail!("{origin}: {}", LineTooLong { max: max_line }),
            Some(TextLine::Text(text)) => {
                let line: Line<Box<RawValue>> =
                    serde_json::from_slice(text).with_context(|| {
                        format!("{origin}: not a run of `qosgate reproduce --runs`")
                    })?;
                let expected = check(
                    &line.variant,
                    line.replication,
                    line.seed,
                    line.events,
                    line.metrics.get(),
                );
                if line.check != expected {
                    bail!(
                        "{origin}: the run's check does not match its metrics, variant, \
                         replication, seed or events: the line was changed after qosgate wrote it \
                         (use run files as `--runs` wrote them)"
                    );
                }
                runs.push(StoredRun { origin, line });
            }
        }
    }
    Ok(())
}

/// A fingerprint of a scenario's `Debug` form (FNV-1a, 64 bits, in hex). Two builds that turn a
/// variant into different scenarios give (all but surely) different fingerprints.
pub fn fingerprint(scenario: &impl std::fmt::Debug) -> String {
    fnv1a(format!("{scenario:?}").as_bytes())
}

/// The check of a run line ([`Line::check`]): FNV-1a, 64 bits, in hex, of its variant,
/// replication, seed, events and its metrics' JSON text, one per line.
pub fn check(variant: &str, replication: u32, seed: u64, events: u64, metrics: &str) -> String {
    fnv1a(format!("{variant}\n{replication}\n{seed}\n{events}\n{metrics}").as_bytes())
}

/// FNV-1a, 64 bits, of `bytes`, as 16 hex digits.
fn fnv1a(bytes: &[u8]) -> String {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let hash = bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME));
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_line_over_the_limit_is_refused_with_its_file_and_line() {
        let mut runs = Vec::new();
        let e = read_runs(&b"12345\n"[..], "r.jsonl", 4, &mut runs).unwrap_err();
        assert_eq!(e.to_string(), "r.jsonl:1: a line longer than 4 bytes");
        // A line at the limit is read (and here refused as JSON, not for its length).
        let e = read_runs(&b"1234"[..], "r.jsonl", 4, &mut runs).unwrap_err();
        assert_eq!(
            e.to_string(),
            "r.jsonl:1: not a run of `qosgate reproduce --runs`"
        );
        let e = read(&[PathBuf::from("/dev/zero")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("/dev/zero:1: a line longer than {} bytes", input::LINE)
        );
    }

    /// A line as written reads back; the same line with a metric, the variant, the
    /// replication, the seed or the events changed is refused, named by its place.
    #[test]
    fn a_line_changed_after_it_was_written_is_refused() {
        let metrics = r#"{"missed_pct":0.0,"tasks":367}"#;
        let line = Line {
            paper: "p".into(),
            qosgate: VERSION.into(),
            replications: Replications {
                random: 2,
                fixed: 1,
            },
            shard: Shard::WHOLE,
            variant: "{\"a\":1}".into(),
            scenario: "0".into(),
            replication: 1,
            seed: 7,
            events: 9,
            wall_s: 0.5,
            metrics: RawValue::from_string(metrics.into()).unwrap(),
            check: check("{\"a\":1}", 1, 7, 9, metrics),
        };
        let text = serde_json::to_string(&line).unwrap() + "\n";
        let mut runs = Vec::new();
        read_runs(text.as_bytes(), "r.jsonl", input::LINE, &mut runs).unwrap();
        assert_eq!(runs[0].line.metrics.get(), metrics);
        for (from, to) in [
            ("\"missed_pct\":0.0", "\"missed_pct\":1e308"),
            ("{\\\"a\\\":1}", "{\\\"a\\\":2}"),
            ("\"replication\":1", "\"replication\":0"),
            ("\"seed\":7", "\"seed\":8"),
            ("\"events\":9", "\"events\":10"),
        ] {
            assert!(text.contains(from), "{from} in {text}");
            let changed = text.replacen(from, to, 1);
            let e = read_runs(changed.as_bytes(), "r.jsonl", input::LINE, &mut runs).unwrap_err();
            assert!(
                e.to_string()
                    .starts_with("r.jsonl:1: the run's check does not match"),
                "{from}: {e}"
            );
        }
        // The wall time is not checked: it differs between two runs of one shard anyway.
        let slower = text.replacen("\"wall_s\":0.5", "\"wall_s\":0.7", 1);
        read_runs(slower.as_bytes(), "r.jsonl", input::LINE, &mut runs).unwrap();
    }

    #[test]
    fn fingerprints_are_fnv1a_of_the_debug_form() {
        // FNV-1a of the empty string is the offset basis; of "a", the published test vector.
        assert_eq!(fingerprint(&format_args!("")), "cbf29ce484222325");
        assert_eq!(fingerprint(&format_args!("a")), "af63dc4c8601ec8c");
    }

    #[test]
    fn shards_and_whole_runs_have_their_own_file_names() {
        assert_eq!(file_name("p", Shard::WHOLE), "p.jsonl");
        assert_eq!(file_name("p", Shard::new(2, 4).unwrap()), "p-2of4.jsonl");
    }
}
