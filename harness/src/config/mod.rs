//! Scenario files in TOML, with diagnostics a person can act on: shared by every model.
//!
//! [`parse`] reads a document into any serde type and runs the model's checks. Every problem
//! (a TOML syntax error, an unknown or missing key, a value of the wrong type, an impossible
//! value, an inconsistency between keys) is reported as `origin:line:column: key: what is
//! wrong`, with the key as a path (`users[2].workload.uniform.min`); a document with several
//! impossible values gets one line for each, in the order of the text.
//!
//! Parsing takes two passes over the same text: the TOML document is parsed once with the
//! position of every key and value, then deserialized (serde reports type errors
//! and unknown keys by position), then checked; a check names a key path ([`Problem`]), and
//! the path is looked up in the positions of the first pass.
//!
//! [`model_of`] reads the optional top-level `model = "..."` key that picks which model a file
//! describes (`qosgate run FILE`). [`utf8`] locates the first byte of an input that is not
//! UTF-8 text (TOML and JSON are both UTF-8), for every reader of text files.

mod header;

pub use header::{Headed, Header};

use std::ops::Range;

use anyhow::{Result, anyhow};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::input;

/// TOML's largest integer (`i64::MAX`): larger integers could not be written back.
pub const TOML_INT_MAX: u64 = i64::MAX as u64;

/// Replications one run or reproduction point takes at most: every replication's metrics are
/// kept, and a larger number is far more likely a typo than a plan.
pub const MAX_REPLICATIONS: u32 = 10_000;

/// Items (requests, failures and repairs) one replication of a model that keeps a record per
/// item may create: 2,000,000. Each costs a few hundred bytes while its replication runs, so a
/// replication stays within a few hundred MiB; the papers' largest points make under 70,000.
pub const MAX_ITEMS: f64 = 2e6;

/// Whether `n` replications are within `1 ..=` [`MAX_REPLICATIONS`]; the message says what is
/// wrong if not.
pub fn check_replications(n: u32) -> Result<(), String> {
    if (1..=MAX_REPLICATIONS).contains(&n) {
        Ok(())
    } else {
        Err(format!("must be 1 to {MAX_REPLICATIONS}, got {n}"))
    }
}

/// Parses `text` (named `origin` in messages, e.g. its file name) into a `T` and checks it with
/// `check`, which lists every problem it finds.
///
/// The top-level keys of the [`Header`] are read into `T`'s header, the others into `T` (whose
/// serde form skips its header); a top-level `model` key is not part of either: it belongs to
/// the registry that chose `T` ([`model_of`]) and is left out.
///
/// Errors, each `origin:line:column: key: what is wrong` (line and column count from 1, the
/// column in characters), one line per problem: TOML syntax errors; unknown keys, missing keys,
/// values of the wrong type or unknown names (serde's, the header's first); every problem
/// `check` finds.
pub fn parse<T: DeserializeOwned + Headed>(
    text: &str,
    origin: &str,
    check: impl FnOnce(&T) -> Vec<Problem>,
) -> Result<T> {
    let mut doc = DeTable::parse(text).map_err(|e| toml_error(origin, text, None, &e))?;
    doc.get_mut().remove("model");
    let index = Index::of(&doc);
    let mut header = DeTable::new();
    for key in Header::KEYS {
        if let Some((k, v)) = doc.get_mut().remove_entry(key) {
            header.insert(k, v);
        }
    }
    let deserialize_error = |e| toml_error(origin, text, Some(&index), &e);
    let header = Header::deserialize(toml::de::Deserializer::from(Spanned::new(
        doc.span(),
        header,
    )))
    .map_err(deserialize_error)?;
    let mut value = T::deserialize(toml::de::Deserializer::from(doc)).map_err(deserialize_error)?;
    *value.header_mut() = header;
    let problems = check(&value);
    if problems.is_empty() {
        return Ok(value);
    }
    let mut located: Vec<(usize, String)> = problems
        .into_iter()
        .map(|p| {
            let at = index.locate(&p.path);
            let (line, column) = line_column(text, at);
            (
                at,
                format!("{origin}:{line}:{column}: {}: {}", p.path, p.message),
            )
        })
        .collect();
    located.sort_by_key(|(at, _)| *at);
    let lines: Vec<String> = located.into_iter().map(|(_, l)| l).collect();
    Err(anyhow!("{}", lines.join("\n")))
}

/// The text of a scenario file that [`parse`] reads back: `preamble` (comment lines, each
/// ending in a newline), `model = "model"`, the header ([`Header::to_toml`]), then the rest of
/// `scenario` as serde writes it.
pub fn to_toml<T: Serialize + Headed>(preamble: &str, model: &str, scenario: &T) -> String {
    let body = toml::to_string(scenario).unwrap_or_else(|e| format!("# cannot be written: {e}\n"));
    format!(
        "{preamble}model = {}\n{}{body}",
        toml::Value::String(model.to_owned()),
        scenario.header().to_toml()
    )
}

/// The problems of a value built in code (a preset), as one error: `what:` then one line per
/// problem, `key: what is wrong`; `Ok` if there are none.
pub fn report(what: &str, problems: &[Problem]) -> Result<()> {
    if problems.is_empty() {
        return Ok(());
    }
    let lines: Vec<String> = problems
        .iter()
        .map(|p| format!("{}: {}", p.path, p.message))
        .collect();
    Err(anyhow!("{what}:\n{}", lines.join("\n")))
}

/// The top-level `model = "..."` key of a TOML document: the model's name and where it
/// stands (`origin:line:column`, for messages), or `None` without the key.
///
/// Errors: a TOML syntax error (located), or a `model` key that is not a string.
pub fn model_of(text: &str, origin: &str) -> Result<Option<(String, String)>> {
    let doc = DeTable::parse(text).map_err(|e| toml_error(origin, text, None, &e))?;
    let Some(value) = doc.get_ref().get("model") else {
        return Ok(None);
    };
    let (line, column) = line_column(text, value.span().start);
    let at = format!("{origin}:{line}:{column}");
    match value.get_ref() {
        DeValue::String(s) => Ok(Some((s.to_string(), at))),
        _ => Err(anyhow!("{at}: model: must be a string naming the model")),
    }
}

/// `bytes` as text.
///
/// Errors: `origin:line:column: not UTF-8 text (byte 0x..)`, at the first byte that is not part
/// of a UTF-8 character (line and column as [`parse`] counts them).
pub fn utf8<'a>(bytes: &'a [u8], origin: &str) -> Result<&'a str> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        // The bytes before `valid_up_to` are valid UTF-8 by definition.
        let before = std::str::from_utf8(bytes.get(..at).unwrap_or_default()).unwrap_or_default();
        let (line, column) = line_column(before, at);
        let byte = bytes.get(at).copied().unwrap_or_default();
        anyhow!("{origin}:{line}:{column}: not UTF-8 text (byte 0x{byte:02x})")
    })
}

/// Reads the file at `path` as text ([`utf8`]), if it holds at most
/// `limit` bytes ([`input::read_file`]).
///
/// Errors: the file cannot be read (the path is named), is larger than the limit
/// (`path: larger than N bytes (the limit for ...)`), or it is not UTF-8 (located).
pub fn read_text(path: &std::path::Path, limit: &input::Limit) -> Result<String> {
    let bytes = input::read_file(path, limit)?;
    utf8(&bytes, &path.display().to_string()).map(str::to_owned)
}

/// One thing wrong with a document: the key path and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The key, as a path: `meta.order`, `users[2].workload.uniform.min`.
    pub path: String,
    /// What is wrong, for a person.
    pub message: String,
}

/// The problems found so far, with helpers for the recurring checks.
#[derive(Debug, Default)]
pub struct Problems(pub Vec<Problem>);

impl Problems {
    /// Records that `path` is wrong because of `message`.
    pub fn add(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.0.push(Problem {
            path: path.into(),
            message: message.into(),
        });
    }

    /// A time in seconds: finite, `> 0` (or `>= 0` with `zero_ok`), at most `max`.
    pub fn seconds(&mut self, path: &str, v: f64, zero_ok: bool, max: f64) {
        if !v.is_finite() {
            self.add(path, format!("{v} is not a finite number of seconds"));
        } else if v < 0.0 || (v == 0.0 && !zero_ok) {
            let want = if zero_ok { ">= 0" } else { "> 0" };
            self.add(path, format!("must be {want} seconds, got {v}"));
        } else if v > max {
            self.add(
                path,
                format!("{v} s is longer than the largest time accepted, {max:e} s"),
            );
        }
    }

    /// That the items `streams` create in one replication, each `(key, expected count, what
    /// makes it)`, add up to at most [`MAX_ITEMS`]; if not, the problem is named at the stream
    /// that makes the most, with what it makes. A count that is not finite (another check names
    /// its cause) is left out.
    pub fn items(&mut self, what: &str, streams: &[(String, f64, String)]) {
        let counted = streams.iter().filter(|(_, n, _)| n.is_finite());
        let total: f64 = counted.clone().map(|(_, n, _)| n).sum();
        if total > MAX_ITEMS
            && let Some((key, n, why)) = counted.max_by(|a, b| a.1.total_cmp(&b.1))
        {
            self.add(
                key.as_str(),
                format!(
                    "a replication would create about {total:.3e} {what} ({n:.3e} here: {why}), \
                     more than the {MAX_ITEMS:e} a replication may hold: lengthen the time \
                     between them or shorten the horizon"
                ),
            );
        }
    }

    /// The keys every scenario starts with ([`Header`]): [`Problems::name_and_seed`] and
    /// `replications` within bounds ([`Problems::replications`]).
    pub fn header(&mut self, header: &Header) {
        self.name_and_seed(header);
        self.replications("replications", header.replications);
    }

    /// A header's `name`, not blank, and `seed`, which TOML must hold ([`Problems::toml_int`]):
    /// for a model that checks `replications` with more context.
    pub fn name_and_seed(&mut self, header: &Header) {
        if header.name.trim().is_empty() {
            self.add("name", "must not be empty");
        }
        self.toml_int("seed", header.seed);
    }

    /// A number of replications ([`check_replications`]).
    pub fn replications(&mut self, path: &str, n: u32) {
        if let Err(message) = check_replications(n) {
            self.add(path, message);
        }
    }

    /// An integer that TOML can hold.
    pub fn toml_int(&mut self, path: &str, v: u64) {
        if v > TOML_INT_MAX {
            self.add(
                path,
                format!("{v} is above {TOML_INT_MAX}, the largest TOML integer"),
            );
        }
    }
}

/// The position of every key and value of a TOML document, by key path.
struct Index {
    entries: Vec<Entry>,
}

/// One key (or array element) of a document.
struct Entry {
    /// `meta.order`, `users[2].workload.uniform.min`.
    path: String,
    /// Byte range of the key; `None` for an array element.
    key: Option<Range<usize>>,
    /// Byte range of the value (of the `[header]` for a table written as a section).
    value: Range<usize>,
}

impl Index {
    fn of(doc: &Spanned<DeTable<'_>>) -> Self {
        let mut entries = Vec::new();
        walk_table(doc.get_ref(), "", &mut entries);
        Self { entries }
    }

    /// The byte offset of `path`'s value, or of its nearest ancestor present in the document (a
    /// missing key is reported at its table), or 0.
    fn locate(&self, path: &str) -> usize {
        let mut path = path;
        loop {
            if let Some(e) = self.entries.iter().find(|e| e.path == path) {
                return e.value.start;
            }
            match path.rfind(['.', '[']) {
                Some(cut) => path = &path[..cut],
                None => return 0,
            }
        }
    }

    /// The path of the innermost key or value whose text holds `span` (on a tie, the deeper
    /// one); `None` for an empty span (a problem of the whole document) or one outside every
    /// key and value.
    fn path_at(&self, span: &Range<usize>) -> Option<&str> {
        if span.is_empty() {
            return None;
        }
        let holds = |r: &Range<usize>| r.start <= span.start && span.end <= r.end;
        self.entries
            .iter()
            .filter_map(|e| {
                let r = [e.key.as_ref(), Some(&e.value)]
                    .into_iter()
                    .flatten()
                    .filter(|r| holds(r))
                    .min_by_key(|r| r.len())?;
                Some((r.len(), std::cmp::Reverse(e.path.len()), e.path.as_str()))
            })
            .min()
            .map(|(_, _, path)| path)
    }
}

fn walk_table(table: &DeTable<'_>, prefix: &str, out: &mut Vec<Entry>) {
    for (key, value) in table.iter() {
        let path = if prefix.is_empty() {
            key.get_ref().to_string()
        } else {
            format!("{prefix}.{}", key.get_ref())
        };
        out.push(Entry {
            path: path.clone(),
            key: Some(key.span()),
            value: value.span(),
        });
        walk_value(value.get_ref(), &path, out);
    }
}

fn walk_value(value: &DeValue<'_>, path: &str, out: &mut Vec<Entry>) {
    match value {
        DeValue::Table(t) => walk_table(t, path, out),
        DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let path = format!("{path}[{i}]");
                out.push(Entry {
                    path: path.clone(),
                    key: None,
                    value: item.span(),
                });
                walk_value(item.get_ref(), &path, out);
            }
        }
        _ => {}
    }
}

/// A TOML syntax or deserialization error as `origin:line:column: key: message`.
fn toml_error(
    origin: &str,
    text: &str,
    index: Option<&Index>,
    e: &toml::de::Error,
) -> anyhow::Error {
    let message = e.message().trim_end();
    let Some(span) = e.span() else {
        return anyhow!("{origin}: {message}");
    };
    let (line, column) = line_column(text, span.start);
    match index.and_then(|i| i.path_at(&span)) {
        Some(path) => anyhow!("{origin}:{line}:{column}: {path}: {message}"),
        None => anyhow!("{origin}:{line}:{column}: {message}"),
    }
}

/// Line and column (from 1; the column in characters) of byte `offset` of `text`.
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |n| n + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// Where the lines of a text start: the line and column of any byte offset, as [`line_column`]
/// gives them, in `O(log lines + column)` after one pass over the text. For readers that note
/// the position of every element they read (an LWF file's leases), where [`line_column`]'s scan
/// from the start would make reading quadratic in the file's size.
pub(crate) struct Lines<'t> {
    text: &'t str,
    /// Byte offsets of the lines' first characters, ascending; the first is 0.
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    /// The lines of `text`.
    pub(crate) fn new(text: &'t str) -> Self {
        let after_newlines = text.match_indices('\n').map(|(i, _)| i + 1);
        Self {
            text,
            starts: std::iter::once(0).chain(after_newlines).collect(),
        }
    }

    /// [`line_column`]`(text, offset)`.
    pub(crate) fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = if self.text.is_char_boundary(offset) {
            offset
        } else {
            self.text.len()
        };
        // `starts[0] = 0 <= offset`, so at least one line starts at or before it.
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts.get(line.wrapping_sub(1)).copied().unwrap_or(0);
        let column = self
            .text
            .get(start..offset)
            .map_or(0, |s| s.chars().count());
        (line, column + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_locate_every_offset_as_line_column_does() {
        for text in ["", "a", "\n", "ab\ncd\n\nx", "é\nñü\r\n€z", "\n\n€"] {
            let lines = Lines::new(text);
            for offset in 0..=text.len() + 2 {
                assert_eq!(
                    lines.line_column(offset),
                    line_column(text, offset),
                    "{text:?} at {offset}"
                );
            }
        }
    }

    #[test]
    fn positions_count_lines_and_characters_from_one() {
        let text = "a = 1\nb = \"é\" x\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 6), (2, 1));
        // `x` is byte 15 but the ninth character of its line (`é` takes two bytes).
        assert_eq!(line_column(text, 15), (2, 9));
    }

    #[test]
    fn an_error_span_maps_to_the_innermost_key() {
        let text = "[meta]\norder = \"edf\"\n[[users]]\nw = { uniform = { min = 1, max = 2 } }\n";
        let doc = DeTable::parse(text).unwrap();
        let index = Index::of(&doc);
        let at = |needle: &str| {
            let start = text.find(needle).unwrap();
            index
                .path_at(&(start..start + needle.len()))
                .map(str::to_owned)
        };
        assert_eq!(at("\"edf\"").as_deref(), Some("meta.order"));
        assert_eq!(at("[[users]]").as_deref(), Some("users[0]"));
        assert_eq!(at("max").as_deref(), Some("users[0].w.uniform.max"));
        assert_eq!(index.path_at(&(0..0)), None);
        // A missing key is located at the nearest table present.
        assert_eq!(
            index.locate("users[0].rho_mips"),
            text.find("[[users]]").unwrap()
        );
        assert_eq!(index.locate("nowhere.at.all"), 0);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_located() {
        assert_eq!(utf8(b"a = 1\n", "t").unwrap(), "a = 1\n");
        let e = utf8(b"a = 1\nb = \"\xc3\xa9\xff\"\n", "t.toml").unwrap_err();
        assert_eq!(e.to_string(), "t.toml:2:7: not UTF-8 text (byte 0xff)");
        // A character cut short at the end.
        let e = utf8(b"x\xc3", "t").unwrap_err();
        assert_eq!(e.to_string(), "t:1:2: not UTF-8 text (byte 0xc3)");
    }

    #[test]
    fn the_model_key_is_read_when_present_and_must_be_a_string() {
        assert_eq!(model_of("a = 1\n", "t").unwrap(), None);
        assert_eq!(
            model_of("model = \"grid\"\n", "t").unwrap(),
            Some(("grid".to_owned(), "t:1:9".to_owned()))
        );
        let e = model_of("x = 1\nmodel = 3\n", "t.toml").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:2:9: model: must be a string naming the model"
        );
    }
}
