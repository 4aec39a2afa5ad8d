//! What every model's `qosgate run` writes, in one vocabulary (docs/outputs.md lists every key):
//!
//! - the summary (`--json`, `summary.json`): the [`Head`] (`model`, `scenario`,
//!   `replications`, `seed`, `events`), `metrics` as one object of [`Estimated`] metrics keyed
//!   by snake_case names with their unit, the model's tables as arrays of objects ([`Table`]),
//!   and `per_replication`;
//! - `--out DIR`: `summary.json`, `metrics.csv` and one CSV per table, under the same keys
//!   ([`write_summary`]);
//! - `--events FILE.jsonl`: one object per item ([`write_events`]), whose times are `arrival`,
//!   `start` and `end` in seconds and whose `outcome` is one of `completed`, `rejected`,
//!   `cancelled`, `failed`, `unfinished`.
//!
//! A metric or a column is declared once, with the heading people read and the key programs
//! read ([`Metric`], [`Column`]); the text, the JSON and the CSV are all made from that one
//! declaration.

use std::io::Write;

use anyhow::{Context, Result};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use super::Model;
use crate::config::Headed;
use crate::report::columns::{self, Column, Rows};
use crate::report::stats::Estimate;
use crate::report::table::{Align, table};

/// What every model's run summary starts with: the model, the scenario, the replications
/// simulated, the base seed and the events processed over every replication. Flattened into a
/// summary's JSON; its `Display` is the first words of the text summary.
#[derive(Debug, Serialize)]
pub struct Head<'a> {
    /// The model's name ([`Model::NAME`]).
    pub model: &'static str,
    /// The scenario's name.
    pub scenario: &'a str,
    /// Replications simulated.
    pub replications: u32,
    /// The base seed (the header's).
    pub seed: u64,
    /// Events processed, summed over the replications.
    pub events: u64,
}

impl<'a> Head<'a> {
    /// The head of `runs` of `scenario` (one run per replication).
    pub fn of<M: Model>(scenario: &'a M::Scenario, runs: &[M::Run]) -> Self {
        Self {
            model: M::NAME,
            scenario: &scenario.header().name,
            replications: u32::try_from(runs.len()).unwrap_or(u32::MAX),
            seed: scenario.header().seed,
            events: runs.iter().map(M::events).sum(),
        }
    }
}

impl std::fmt::Display for Head<'_> {
    /// `NAME: N replication(s) from seed S, E events`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} replication(s) from seed {}, {} events",
            self.scenario, self.replications, self.seed, self.events
        )
    }
}

/// The mean and 95 % confidence interval of `f` over `items`, leaving out the items where it
/// is undefined (`None`); `None` if no value remains ([`Estimate::of`]).
pub fn estimate<T>(items: &[T], f: impl Fn(&T) -> Option<f64>) -> Option<Estimate> {
    Estimate::of(&items.iter().filter_map(f).collect::<Vec<f64>>())
}

/// A metric a run summary shows, read from one replication's metrics `T`.
pub struct Metric<T> {
    /// What people read, with its unit (`AWRT (s, Eq. 14)`).
    pub heading: &'static str,
    /// What programs read: snake_case, its unit as a suffix (`awrt_s`).
    pub key: &'static str,
    /// Decimals in the text.
    pub decimals: usize,
    /// Its value in one replication; `None` where it is undefined there.
    pub read: fn(&T) -> Option<f64>,
}

impl<T> Metric<T> {
    /// A metric.
    pub const fn new(
        heading: &'static str,
        key: &'static str,
        decimals: usize,
        read: fn(&T) -> Option<f64>,
    ) -> Self {
        Self {
            heading,
            key,
            decimals,
            read,
        }
    }
}

/// One metric's estimate over the replications.
#[derive(Debug, Clone, Copy)]
struct Value {
    heading: &'static str,
    key: &'static str,
    decimals: usize,
    estimate: Option<Estimate>,
}

/// Metrics estimated over the replications, in the order they are shown. Serialises as one
/// object from each key to its estimate (`{mean, half_width, n}`, or `null` where no
/// replication defines it); written as `metrics.csv` (`metric,mean,half_width,n`).
#[derive(Debug, Clone)]
pub struct Estimated(Vec<Value>);

impl Estimated {
    /// Each of `metrics` as its [`estimate`] over `items` (one per replication).
    pub fn of<T>(metrics: &[Metric<T>], items: &[T]) -> Self {
        Self(
            metrics
                .iter()
                .map(|m| Value {
                    heading: m.heading,
                    key: m.key,
                    decimals: m.decimals,
                    estimate: estimate(items, m.read),
                })
                .collect(),
        )
    }

    /// The estimate under `key`, `None` if there is none (or no such metric).
    pub fn get(&self, key: &str) -> Option<Estimate> {
        self.0
            .iter()
            .find(|v| v.key == key)
            .and_then(|v| v.estimate)
    }

    /// The two-column text table: each metric's heading and its estimate.
    pub fn text(&self) -> String {
        let cells: Vec<Vec<String>> = self
            .0
            .iter()
            .map(|v| {
                vec![
                    v.heading.to_owned(),
                    columns::shown(&v.estimate, v.decimals),
                ]
            })
            .collect();
        table(&[("metric", Align::Left), ("value", Align::Right)], &cells)
    }
}

/// `metrics.csv`'s columns.
const METRIC_COLUMNS: &[Column<Value>] = &[
    Column::text("metric", "metric", |v| v.key.to_owned()),
    Column::number("mean", "mean", |v| v.estimate.map(|e| e.mean), 0),
    Column::number(
        "half-width",
        "half_width",
        |v| v.estimate.and_then(|e| e.half_width),
        0,
    ),
    Column::number("n", "n", |v| v.estimate.map(|e| e.n as f64), 0),
];

impl Serialize for Estimated {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for v in &self.0 {
            map.serialize_entry(v.key, &v.estimate)?;
        }
        map.end()
    }
}

/// A file `--out DIR` holds beside `summary.json`.
pub trait CsvFile {
    /// Its name in the directory (`metrics.csv`).
    fn file_name(&self) -> String;
    /// Writes it.
    ///
    /// Errors: a failed write.
    fn write_csv(&self, out: &mut dyn Write) -> Result<()>;
}

impl CsvFile for Estimated {
    fn file_name(&self) -> String {
        "metrics.csv".to_owned()
    }

    fn write_csv(&self, out: &mut dyn Write) -> Result<()> {
        columns::write_csv(METRIC_COLUMNS, &self.0, out)
    }
}

/// A table of a summary: its rows under its columns. Serialises as an array of objects
/// ([`Rows`]); written as `NAME.csv`.
pub struct Table<'a, T> {
    /// Its name: the summary's key and the CSV file's stem (`users`).
    pub name: &'static str,
    /// Its columns.
    pub columns: &'a [Column<T>],
    /// Its rows.
    pub rows: &'a [T],
}

impl<T> Table<'_, T> {
    /// The text table ([`columns::text`]).
    pub fn text(&self) -> String {
        columns::text(self.columns, self.rows)
    }
}

impl<T> Serialize for Table<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Rows {
            columns: self.columns,
            rows: self.rows,
        }
        .serialize(serializer)
    }
}

impl<T> std::fmt::Debug for Table<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("name", &self.name)
            .field("rows", &self.rows.len())
            .finish()
    }
}

impl<T> CsvFile for Table<'_, T> {
    fn file_name(&self) -> String {
        format!("{}.csv", self.name)
    }

    fn write_csv(&self, out: &mut dyn Write) -> Result<()> {
        columns::write_csv(self.columns, self.rows, out)
    }
}

/// One line of `qosgate run --events FILE.jsonl`: a record and its replication.
#[derive(Serialize)]
struct EventLine<R> {
    replication: u32,
    #[serde(flatten)]
    record: R,
}

/// Writes one line of `--events FILE.jsonl`: `record`'s fields and `replication`.
///
/// Errors: a record that cannot be rendered, a failed write.
pub fn write_event(k: u32, record: impl Serialize, out: &mut dyn Write) -> Result<()> {
    let line = EventLine {
        replication: k,
        record,
    };
    serde_json::to_writer(&mut *out, &line).context("rendering an event")?;
    out.write_all(b"\n").context("writing an event")
}

/// Writes the `records` of replication `k` as event lines ([`write_event`]).
///
/// Errors: those of [`write_event`].
pub fn write_events<R: Serialize>(
    k: u32,
    records: impl IntoIterator<Item = R>,
    out: &mut dyn Write,
) -> Result<()> {
    records
        .into_iter()
        .try_for_each(|record| write_event(k, record, out))
}

/// Writes what `qosgate run` produces for any model: with `opts.out`, the directory with
/// `summary.json` (the summary as pretty JSON) and `files` (the metrics and the model's tables
/// as CSV), written anew and whole ([`crate::output::write_dir`]: no file of an earlier run
/// survives, a crash leaves the old folder or the new one); then, to `out`, the same JSON with
/// `opts.json`, else the model's `text` rendering.
///
/// Errors: a directory or file that cannot be written (named), a summary that cannot be
/// rendered, a failed write to `out`.
pub fn write_summary<S: Serialize>(
    summary: &S,
    text: impl FnOnce(&S) -> String,
    files: &[&dyn CsvFile],
    opts: &super::RunOptions,
    out: &mut dyn Write,
) -> Result<()> {
    let json = || -> Result<String> {
        let mut j = serde_json::to_string_pretty(summary).context("rendering JSON")?;
        j.push('\n');
        Ok(j)
    };
    if let Some(dir) = &opts.out {
        crate::output::write_dir(dir, |tmp| {
            let path = tmp.join("summary.json");
            std::fs::write(&path, json()?)
                .with_context(|| format!("writing {}", path.display()))?;
            for file in files {
                let path = tmp.join(file.file_name());
                let mut w = std::io::BufWriter::new(
                    std::fs::File::create(&path)
                        .with_context(|| format!("creating {}", path.display()))?,
                );
                file.write_csv(&mut w)
                    .and_then(|()| w.flush().map_err(Into::into))
                    .with_context(|| format!("writing {}", path.display()))?;
            }
            Ok(())
        })?;
    }
    let text = if opts.json { json()? } else { text(summary) };
    out.write_all(text.as_bytes())
        .context("writing the summary")?;
    out.flush().context("writing output")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHOWN: [Metric<(f64, Option<f64>)>; 2] = [
        Metric::new("requests", "requests", 0, |m| Some(m.0)),
        Metric::new("AWRT (s)", "awrt_s", 1, |m| m.1),
    ];

    /// The metrics serialise as one object keyed by their keys, in order, a metric no
    /// replication defines as `null`; the CSV has a row per metric under the same keys, its
    /// missing half-width an empty field.
    #[test]
    fn metrics_are_one_object_and_one_csv_under_the_same_keys() {
        let e = Estimated::of(&SHOWN, &[(3.0, None), (5.0, None)]);
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"requests":{"mean":4.0,"half_width":12.706,"n":2},"awrt_s":null}"#
        );
        let mut csv = Vec::new();
        e.write_csv(&mut csv).unwrap();
        assert_eq!(
            String::from_utf8(csv).unwrap(),
            "metric,mean,half_width,n\nrequests,4,12.706,2\nawrt_s,,,\n"
        );
        assert!(e.text().contains("AWRT (s)"));
    }
}
