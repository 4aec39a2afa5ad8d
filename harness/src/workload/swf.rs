//! Reading job traces in the Standard Workload Format (SWF) of the Parallel Workloads Archive, and
//! the replay view of their jobs (README "Trace replay").
//!
//! # The format
//! - Lines starting with `;` (after optional whitespace) are comments. A comment of the form
//!   `; Key: value` (the key one word of ASCII letters, digits, `_` or `-`, the `:` followed by
//!   whitespace or the end of the line) is a header field: every one is kept, in order, in
//!   [`Header::fields`]; `MaxNodes`, `MaxProcs`, `UnixStartTime`, `Computer` and `Installation`
//!   are also parsed into their own fields. `MaxNodes` and `MaxProcs` must be integers in
//!   `1..=u32::MAX`, and a repeated one must repeat the same value (else the line is invalid);
//!   the other fields are free text. Comments need not be UTF-8 (they are decoded lossily).
//! - Blank and whitespace-only lines are ignored. A line (comment or data) longer than
//!   [`MAX_LINE`] bytes ends the reading with an error in both modes: no trace has one, and an
//!   input without line ends (`/dev/zero`) is not a trace.
//! - Every other line is a data line of exactly 18 whitespace-separated numbers: job number,
//!   submit time, wait time, run time, allocated processors, average CPU time, used memory,
//!   requested processors, requested time, requested memory, status, user id, group id,
//!   executable, queue, partition, preceding job, think time; `-1` means unknown.
//!
//! # How fields are parsed
//! - Every field must be a finite decimal number (Rust's `f64` syntax: `12`, `-1`, `0.03`, `1e3`;
//!   `inf` and `NaN` are rejected). Fields the replay does not use are checked, not kept.
//! - The job number (field 1) and the processor counts (fields 5 and 8) must be integral
//!   (`32` or `32.0`; `3.5` makes the line invalid) and at most [`MAX_INTEGER`] in magnitude.
//!   The job number must be `>= 0`, and no two data lines may carry the same one (the second
//!   is invalid: records keyed by job number would otherwise collide).
//! - Times (fields 2, 4 and 9) are seconds, possibly fractional (SDSC-BLUE has fractional
//!   fields), and are **rounded to the nearest whole second, halves away from zero**
//!   (`f64::round`) *before* any rule below is applied: a run time of `0.4` is `0` and the job is
//!   skipped as "run time <= 0"; a requested time of `0.4` is `0`, i.e. unknown. A time whose
//!   magnitude rounds above [`MAX_TIME`] makes the line invalid: the replay runs on the
//!   kernel's microsecond clock, and with every time at most half its range a submit time plus
//!   an estimate still fits it.
//!
//! # Replay semantics (kept exact)
//! - processors = allocated (field 5) if `> 0`, else requested (field 8);
//! - estimate = requested time (field 9) if `> 0`, else the run time (field 4);
//! - the job runs for `min(run time, estimate)`: [`Job::run`] is that duration (so
//!   `run <= estimate`), and [`Trace::truncated`] counts the jobs whose trace run time was longer.
//! - A data line that parses but cannot be replayed is skipped and counted in [`Trace::skipped`],
//!   with exactly one reason, the first that applies in this order: submit time `< 0` (unknown;
//!   not in the list, but such a job has no place in the queue), run time `<= 0`
//!   (including `-1`), processors `<= 0`, more processors than the machine.
//! - The machine's size is [`Options::machine_procs`] if given, else the header's `MaxProcs`, else
//!   its `MaxNodes`; with none of them the trace is an error ([`ErrorKind::NoMachineSize`]).
//! - [`Trace::jobs`] is sorted by `(submit, id)` (stable, so equal keys keep file order).
//!
//! # Bad lines
//! In strict mode (the default) the first bad line is an error naming its line number (1-based,
//! counting every physical line) and what is wrong. With [`Options::skip_invalid`] bad lines are
//! skipped and counted by reason in [`Trace::invalid`]. The replay skips above happen in both modes.
//! [`read_path`] names the file, so a bad line reads `FILE: line N: what is wrong`.
//!
//! # Invariants of a returned [`Trace`] (checked by the fuzz target)
//! Every job has `1 <= procs <= machine_procs`, `1 <= run <= estimate <= MAX_TIME` and
//! `submit <= MAX_TIME`; the jobs are sorted by `(submit, id)`;
//! `jobs.len() + skipped.total() + invalid.data_lines() == data_lines`; in strict mode
//! `invalid.total() == 0`.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;
use std::fs::File;
use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result};
use qosgate_kernel::units::TICKS_PER_SECOND;
use serde::Serialize;

use super::lines::{Line, LineError, Lines};

/// The largest time (seconds) a field may hold after rounding: half the kernel's clock
/// (`u64` microseconds, [`qosgate_kernel::units::Ticks`]), 9,223,372,036,854 s (about 292,000
/// years), so that a submit time plus an estimate is still an instant of the kernel's clock.
pub const MAX_TIME: u64 = (u64::MAX / 2) / TICKS_PER_SECOND;

/// The largest magnitude of an integral field (job number, processors): `2^53`, the last
/// integer an `f64` holds exactly.
pub const MAX_INTEGER: u64 = 1 << 53;

/// The longest line read, bytes (its line end not counted): [`crate::input::SWF_LINE`], 64 KiB.
pub const MAX_LINE: usize = crate::input::SWF_LINE;

/// Number of fields of a data line.
pub const FIELDS: usize = 18;

/// The names of the 18 fields, for messages (index 0 is field 1).
pub const FIELD_NAMES: [&str; FIELDS] = [
    "job number",
    "submit time",
    "wait time",
    "run time",
    "allocated processors",
    "average CPU time",
    "used memory",
    "requested processors",
    "requested time",
    "requested memory",
    "status",
    "user id",
    "group id",
    "executable",
    "queue",
    "partition",
    "preceding job",
    "think time",
];

/// How to read a trace.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Skip and count bad lines instead of failing on the first one.
    pub skip_invalid: bool,
    /// The machine's size in processors; overrides the header's `MaxProcs` / `MaxNodes`.
    pub machine_procs: Option<u32>,
}

/// One job as the replay sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Job {
    /// Job number (field 1).
    pub id: u64,
    /// Submit time (field 2), whole seconds from the start of the log.
    pub submit: u64,
    /// How long the job runs: `min(run time, estimate)`, whole seconds, `>= 1`.
    pub run: u64,
    /// What the scheduler plans with: requested time (field 9) if `> 0`, else the run time.
    pub estimate: u64,
    /// Processors: allocated (field 5) if `> 0`, else requested (field 8).
    pub procs: u32,
}

/// The header fields of a trace.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Header {
    /// `MaxNodes`.
    pub max_nodes: Option<u32>,
    /// `MaxProcs`.
    pub max_procs: Option<u32>,
    /// `UnixStartTime`, if it is an integer.
    pub unix_start_time: Option<i64>,
    /// `Computer`.
    pub computer: Option<String>,
    /// `Installation`.
    pub installation: Option<String>,
    /// Every `Key: value` header field, in file order (including the ones above).
    pub fields: Vec<(String, String)>,
}

/// Jobs that parse but cannot be replayed, by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// Submit time `< 0` (unknown).
    pub unknown_submit: u64,
    /// Run time `<= 0` (including `-1`, unknown).
    pub run_time: u64,
    /// Processors `<= 0` after the field-5-else-field-8 rule.
    pub processors: u64,
    /// More processors than the machine.
    pub too_wide: u64,
}

impl Skipped {
    fn count(&mut self, reason: Skip) {
        *match reason {
            Skip::UnknownSubmit => &mut self.unknown_submit,
            Skip::RunTime => &mut self.run_time,
            Skip::Processors => &mut self.processors,
            Skip::TooWide => &mut self.too_wide,
        } += 1;
    }

    /// All skipped jobs.
    pub fn total(&self) -> u64 {
        self.unknown_submit + self.run_time + self.processors + self.too_wide
    }
}

/// Bad lines skipped under [`Options::skip_invalid`], by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Invalid {
    /// Data lines that are not UTF-8.
    pub not_utf8: u64,
    /// Data lines without exactly 18 fields.
    pub field_count: u64,
    /// Data lines with a field that is not a finite number.
    pub not_a_number: u64,
    /// Data lines with a fractional job number or processor count.
    pub fractional: u64,
    /// Data lines with a negative job number, an integer beyond [`MAX_INTEGER`] or a time
    /// beyond [`MAX_TIME`].
    pub out_of_range: u64,
    /// Data lines repeating an earlier line's job number.
    pub duplicate: u64,
    /// Header lines with a bad or conflicting `MaxNodes` / `MaxProcs`.
    pub header: u64,
}

impl Invalid {
    /// All bad lines.
    pub fn total(&self) -> u64 {
        self.data_lines() + self.header
    }

    /// Bad data lines (every reason but `header`).
    pub fn data_lines(&self) -> u64 {
        self.not_utf8
            + self.field_count
            + self.not_a_number
            + self.fractional
            + self.out_of_range
            + self.duplicate
    }

    fn count(&mut self, kind: &ErrorKind) {
        match kind {
            ErrorKind::NotUtf8 => self.not_utf8 += 1,
            ErrorKind::FieldCount { .. } => self.field_count += 1,
            ErrorKind::NotANumber { .. } => self.not_a_number += 1,
            ErrorKind::Fractional { .. } => self.fractional += 1,
            ErrorKind::OutOfRange { .. } => self.out_of_range += 1,
            ErrorKind::Duplicate { .. } => self.duplicate += 1,
            ErrorKind::BadHeader { .. } | ErrorKind::ConflictingHeader { .. } => self.header += 1,
            // Not line errors, or not skippable: never counted (`read` returns them in both
            // modes).
            ErrorKind::Io { .. }
            | ErrorKind::LineTooLong
            | ErrorKind::NoMachineSize
            | ErrorKind::ZeroMachineSize => {}
        }
    }
}

/// A trace read for replay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Trace {
    /// The header.
    pub header: Header,
    /// The jobs to replay, sorted by `(submit, id)`.
    pub jobs: Vec<Job>,
    /// Jobs that cannot be replayed, by reason.
    pub skipped: Skipped,
    /// Bad lines (only under [`Options::skip_invalid`]), by reason.
    pub invalid: Invalid,
    /// The machine's size in processors (override, else `MaxProcs`, else `MaxNodes`).
    pub machine_procs: u32,
    /// Data lines (neither comment nor blank), bad ones included.
    pub data_lines: u64,
    /// Kept jobs whose trace run time exceeds their estimate (they run for the estimate).
    pub truncated: u64,
}

impl Trace {
    /// A one-paragraph plain-text summary: counts by reason, machine size.
    pub fn summary(&self) -> String {
        let s = &self.skipped;
        let i = &self.invalid;
        let mut out = format!(
            "{} data lines, {} jobs on {} processors ({} cut to their estimate)\n\
             skipped {}: submit time < 0: {}, run time <= 0: {}, processors <= 0: {}, \
             more processors than the machine: {}\n",
            self.data_lines,
            self.jobs.len(),
            self.machine_procs,
            self.truncated,
            s.total(),
            s.unknown_submit,
            s.run_time,
            s.processors,
            s.too_wide,
        );
        if i.total() > 0 {
            out.push_str(&format!(
                "invalid lines {}: not UTF-8: {}, field count: {}, not a number: {}, \
                 fractional: {}, out of range: {}, duplicate job number: {}, header: {}\n",
                i.total(),
                i.not_utf8,
                i.field_count,
                i.not_a_number,
                i.fractional,
                i.out_of_range,
                i.duplicate,
                i.header,
            ));
        }
        out
    }
}

/// What is wrong (see [`SwfError`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// Reading failed.
    Io {
        /// The I/O error's kind.
        kind: std::io::ErrorKind,
        /// Its message.
        message: String,
    },
    /// A data line that is not UTF-8.
    NotUtf8,
    /// A data line without exactly 18 fields.
    FieldCount {
        /// Fields found.
        found: usize,
    },
    /// A field that is not a finite number.
    NotANumber {
        /// 1-based field number.
        field: usize,
        /// The text (at most 32 characters of it).
        text: String,
    },
    /// A fractional job number or processor count.
    Fractional {
        /// 1-based field number.
        field: usize,
        /// The text (at most 32 characters of it).
        text: String,
    },
    /// A line longer than [`MAX_LINE`] bytes (fatal in both modes).
    LineTooLong,
    /// A job number an earlier data line already has.
    Duplicate {
        /// The job number.
        id: u64,
        /// The earlier line (1-based).
        first: u64,
    },
    /// A negative job number, an integer beyond [`MAX_INTEGER`], or a time beyond [`MAX_TIME`].
    OutOfRange {
        /// 1-based field number.
        field: usize,
        /// The text (at most 32 characters of it).
        text: String,
    },
    /// `MaxNodes` / `MaxProcs` that is not an integer in `1..=u32::MAX`.
    BadHeader {
        /// The key.
        key: String,
        /// The value (at most 32 characters of it).
        value: String,
    },
    /// `MaxNodes` / `MaxProcs` given twice with different values.
    ConflictingHeader {
        /// The key.
        key: String,
        /// The first value.
        first: u32,
        /// The later one.
        second: u32,
    },
    /// No machine size: no override and neither `MaxProcs` nor `MaxNodes` in the header.
    NoMachineSize,
    /// A machine size of 0 given as override.
    ZeroMachineSize,
}

impl ErrorKind {
    fn field_name(field: usize) -> &'static str {
        FIELD_NAMES
            .get(field.wrapping_sub(1))
            .copied()
            .unwrap_or("?")
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { message, .. } => write!(f, "read error: {message}"),
            Self::NotUtf8 => write!(f, "data line is not valid UTF-8"),
            Self::FieldCount { found } => {
                write!(f, "expected {FIELDS} fields, found {found}")
            }
            Self::NotANumber { field, text } => write!(
                f,
                "field {field} ({}): `{text}` is not a finite number",
                Self::field_name(*field)
            ),
            Self::Fractional { field, text } => write!(
                f,
                "field {field} ({}): `{text}` is not an integer",
                Self::field_name(*field)
            ),
            Self::LineTooLong => write!(
                f,
                "longer than {MAX_LINE} bytes without a line end: not an SWF trace"
            ),
            Self::Duplicate { id, first } => {
                write!(f, "job number {id} is also the job number of line {first}")
            }
            Self::OutOfRange { field, text } => {
                let what = match field {
                    1 => format!("must be an integer from 0 to {MAX_INTEGER}"),
                    5 | 8 => format!("must be at most {MAX_INTEGER} in magnitude"),
                    _ => format!(
                        "must be at most {MAX_TIME} s in magnitude, half the kernel's \
                         microsecond clock"
                    ),
                };
                write!(
                    f,
                    "field {field} ({}): `{text}` is out of range ({what})",
                    Self::field_name(*field)
                )
            }
            Self::BadHeader { key, value } => write!(
                f,
                "header {key}: `{value}` is not an integer in 1..={}",
                u32::MAX
            ),
            Self::ConflictingHeader { key, first, second } => {
                write!(f, "header {key} given twice: {first}, then {second}")
            }
            Self::NoMachineSize => write!(
                f,
                "no machine size: the header has neither MaxProcs nor MaxNodes, and none was given"
            ),
            Self::ZeroMachineSize => write!(f, "the machine size given is 0"),
        }
    }
}

/// A trace that cannot be read: the line and what is wrong.
pub type SwfError = LineError<ErrorKind>;

/// Reads a trace file; errors name the file (and the line).
pub fn read_path(path: &Path, options: &Options) -> Result<Trace> {
    let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    read(file, options).with_context(|| format!("reading {}", path.display()))
}

/// Reads a trace from text (tests, small inputs).
pub fn parse_str(text: &str, options: &Options) -> Result<Trace, SwfError> {
    read(text.as_bytes(), options)
}

/// A data line that parsed, before the machine size is known.
struct Record {
    id: u64,
    submit: i64,
    run: i64,
    requested_time: i64,
    procs: i64,
}

/// Why a data line that parsed is not replayed (module doc: the first that applies).
#[derive(Debug, Clone, Copy)]
enum Skip {
    UnknownSubmit,
    RunTime,
    Processors,
    TooWide,
}

impl Record {
    /// The job the replay takes from this line on a machine of `machine_procs` processors, or
    /// why it takes none (module doc, "Replay semantics").
    fn job(&self, machine_procs: u32) -> Result<Job, Skip> {
        if self.submit < 0 {
            Err(Skip::UnknownSubmit)
        } else if self.run <= 0 {
            Err(Skip::RunTime)
        } else if self.procs <= 0 {
            Err(Skip::Processors)
        } else if self.procs > i64::from(machine_procs) {
            Err(Skip::TooWide)
        } else {
            // All values are within 0..=MAX_TIME (checked when parsed) and procs within
            // 1..=machine_procs, so the conversions cannot fail.
            let trace_run = self.run as u64;
            let estimate = if self.requested_time > 0 {
                self.requested_time as u64
            } else {
                trace_run
            };
            Ok(Job {
                id: self.id,
                submit: self.submit as u64,
                run: trace_run.min(estimate),
                estimate,
                procs: self.procs as u32,
            })
        }
    }
}

/// The job the replay takes from the data line `text` on a machine of `machine_procs`
/// processors: `None` for a line that is bad or skipped (duplicate job numbers, which need the
/// whole trace, are not checked).
pub fn job_of_line(text: &str, machine_procs: u32) -> Option<Job> {
    data_line(text).ok()?.job(machine_procs).ok()
}

/// The job numbers read so far, each with its line, for the duplicate check: `O(1)` a job while
/// the numbers rise (as in every archive trace), a binary search and a hash map only for a
/// number that comes out of order.
#[derive(Debug, Default)]
struct JobNumbers {
    /// The numbers above every number before them, with their lines: strictly increasing, and
    /// the last is the largest number read.
    rising: Vec<(u64, u64)>,
    /// The other numbers (each below the largest read before it), with their lines.
    others: HashMap<u64, u64>,
}

impl JobNumbers {
    /// Records job number `id` at `line`, or returns the line where `id` was read first.
    fn insert(&mut self, id: u64, line: u64) -> Result<(), u64> {
        if self.rising.last().is_none_or(|&(largest, _)| id > largest) {
            self.rising.push((id, line));
            return Ok(());
        }
        if let Ok(i) = self.rising.binary_search_by_key(&id, |&(n, _)| n) {
            return Err(self.rising[i].1);
        }
        match self.others.entry(id) {
            Entry::Occupied(first) => Err(*first.get()),
            Entry::Vacant(slot) => {
                slot.insert(line);
                Ok(())
            }
        }
    }
}

/// Reads a trace from any reader (a file, a byte slice), in large chunks ([`Lines`]).
///
/// Errors: the first bad line in strict mode; a read error; no machine size (see the module docs).
pub fn read<R: Read>(reader: R, options: &Options) -> Result<Trace, SwfError> {
    if options.machine_procs == Some(0) {
        return Err(SwfError {
            line: None,
            kind: ErrorKind::ZeroMachineSize,
        });
    }
    let mut header = Header::default();
    let mut invalid = Invalid::default();
    let mut records = Vec::new();
    let mut data_lines = 0u64;
    let mut line_no = 0u64;
    let mut ids = JobNumbers::default();
    let mut lines = Lines::new(reader, MAX_LINE);
    loop {
        let line = lines.next_line().map_err(|e| SwfError {
            line: Some(line_no + 1),
            kind: ErrorKind::Io {
                kind: e.kind(),
                message: e.to_string(),
            },
        })?;
        let Some(line) = line else {
            break;
        };
        line_no += 1;
        let Line::Text(line) = line else {
            return Err(SwfError {
                line: Some(line_no),
                kind: ErrorKind::LineTooLong,
            });
        };
        let start = line
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(line.len());
        let outcome = if let Some(r) = plain_data_line(line) {
            data_lines += 1;
            match ids.insert(r.id, line_no) {
                Err(first) => Err(ErrorKind::Duplicate { id: r.id, first }),
                Ok(()) => {
                    records.push(r);
                    Ok(())
                }
            }
        } else if line.get(start) == Some(&b';') {
            let text = String::from_utf8_lossy(&line[start + 1..]);
            header_line(&text, &mut header)
        } else {
            match std::str::from_utf8(line) {
                Ok(text) if text.trim().is_empty() => Ok(()),
                Ok(text) => {
                    data_lines += 1;
                    data_line(text).and_then(|r| match ids.insert(r.id, line_no) {
                        Err(first) => Err(ErrorKind::Duplicate { id: r.id, first }),
                        Ok(()) => {
                            records.push(r);
                            Ok(())
                        }
                    })
                }
                Err(_) => {
                    data_lines += 1;
                    Err(ErrorKind::NotUtf8)
                }
            }
        };
        if let Err(kind) = outcome {
            if options.skip_invalid {
                invalid.count(&kind);
            } else {
                return Err(SwfError {
                    line: Some(line_no),
                    kind,
                });
            }
        }
    }

    let machine_procs = options
        .machine_procs
        .or(header.max_procs)
        .or(header.max_nodes)
        .ok_or(SwfError {
            line: None,
            kind: ErrorKind::NoMachineSize,
        })?;

    let mut skipped = Skipped::default();
    let mut truncated = 0u64;
    // Collected in the records' own memory (a record and a job are the same size).
    let mut jobs: Vec<Job> = records
        .into_iter()
        .filter_map(|r| match r.job(machine_procs) {
            Ok(job) => {
                truncated += u64::from(r.run as u64 > job.run);
                Some(job)
            }
            Err(reason) => {
                skipped.count(reason);
                None
            }
        })
        .collect();
    jobs.sort_by_key(|j| (j.submit, j.id));
    Ok(Trace {
        header,
        jobs,
        skipped,
        invalid,
        machine_procs,
        data_lines,
        truncated,
    })
}

fn clip(text: &str) -> String {
    text.chars().take(32).collect()
}

/// Parses a comment line's text (after the `;`) into the header.
fn header_line(text: &str, header: &mut Header) -> Result<(), ErrorKind> {
    let text = text.trim();
    let Some(colon) = text.find(':') else {
        return Ok(());
    };
    let key = &text[..colon];
    let rest = &text[colon + 1..];
    let key_ok = !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    let sep_ok = rest.chars().next().is_none_or(char::is_whitespace);
    if !key_ok || !sep_ok {
        return Ok(()); // free text, e.g. a continuation line holding a URL
    }
    let value = rest.trim();
    match key {
        "MaxNodes" | "MaxProcs" => {
            let n = value
                .parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| ErrorKind::BadHeader {
                    key: key.to_string(),
                    value: clip(value),
                })?;
            let slot = if key == "MaxNodes" {
                &mut header.max_nodes
            } else {
                &mut header.max_procs
            };
            match *slot {
                Some(first) if first != n => {
                    return Err(ErrorKind::ConflictingHeader {
                        key: key.to_string(),
                        first,
                        second: n,
                    });
                }
                _ => *slot = Some(n),
            }
        }
        "UnixStartTime" => header.unix_start_time = value.parse().ok(),
        "Computer" => header.computer = Some(value.to_string()),
        "Installation" => header.installation = Some(value.to_string()),
        _ => {}
    }
    header.fields.push((key.to_string(), value.to_string()));
    Ok(())
}

/// A field as a finite number.
fn number(field: usize, text: &str) -> Result<f64, ErrorKind> {
    // Most fields are integers: their nearest `f64` is the decimal parse's (both round to
    // nearest, ties to even), without the float parser.
    if let Some(v) = plain_integer(text).or_else(|| text.parse::<i64>().ok()) {
        return Ok(v as f64);
    }
    text.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| ErrorKind::NotANumber {
            field,
            text: clip(text),
        })
}

/// A field that must be integral (job number, processors), within `|v| <= 2^53`.
fn integer(field: usize, text: &str) -> Result<i64, ErrorKind> {
    if let Some(v) = plain_integer(text).or_else(|| text.parse::<i64>().ok()) {
        if v.unsigned_abs() <= MAX_INTEGER {
            return Ok(v);
        }
        return Err(ErrorKind::OutOfRange {
            field,
            text: clip(text),
        });
    }
    let v = number(field, text)?;
    if v.fract() != 0.0 {
        return Err(ErrorKind::Fractional {
            field,
            text: clip(text),
        });
    }
    if v.abs() > MAX_INTEGER as f64 {
        return Err(ErrorKind::OutOfRange {
            field,
            text: clip(text),
        });
    }
    Ok(v as i64)
}

/// A time field: seconds rounded to the nearest whole second (halves away from zero).
fn time(field: usize, text: &str) -> Result<i64, ErrorKind> {
    if let Some(v) = plain_integer(text).filter(|v| v.unsigned_abs() <= MAX_TIME) {
        return Ok(v); // its own rounding
    }
    let v = number(field, text)?.round();
    if v.abs() > MAX_TIME as f64 {
        return Err(ErrorKind::OutOfRange {
            field,
            text: clip(text),
        });
    }
    Ok(v as i64)
}

/// Splits `text` at whitespace (`char::is_whitespace`) into `fields`, as many as fit, and
/// returns how many fields it holds. An ASCII line, as every archive trace's, is split byte by
/// byte; any other the general way.
fn split_fields<'a>(text: &'a str, fields: &mut [&'a str]) -> usize {
    let mut found = 0;
    let mut keep = |field| {
        if let Some(slot) = fields.get_mut(found) {
            *slot = field;
        }
        found += 1;
    };
    if !text.is_ascii() {
        text.split_whitespace().for_each(keep);
        return found;
    }
    // Within ASCII, `char::is_whitespace` is these six (`u8::is_ascii_whitespace` lacks `\x0b`).
    let space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r');
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        if space(bytes[at]) {
            at += 1;
            continue;
        }
        let end = bytes[at..]
            .iter()
            .position(|&b| space(b))
            .map_or(bytes.len(), |n| at + n);
        // Both ends are at ASCII bytes or the text's end: character boundaries.
        keep(&text[at..end]);
        at = end;
    }
    found
}

/// `text` as an integer if it is written plainly, an optional sign and 1 to 18 digits (the
/// fields of every archive trace): the common case, without the general parsers.
fn plain_integer(text: &str) -> Option<i64> {
    let (negative, digits) = match text.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        all => (false, all),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut v = 0i64;
    for &d in digits {
        let d = d.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v * 10 + i64::from(d);
    }
    Some(if negative { -v } else { v })
}

/// The record of a data line written as every archive trace writes it, in one pass over its
/// bytes: ASCII, exactly [`FIELDS`] fields, each a plain integer ([`plain_integer`]'s form),
/// the job number at least 0, and every value [`data_line`] checks within its range. `None` for
/// any other line, which [`data_line`] then reads (and names what is wrong, if anything): on
/// every line this takes, both give the same record.
fn plain_data_line(line: &[u8]) -> Option<Record> {
    let mut values = [0i64; FIELDS];
    let mut found = 0;
    let mut at = 0;
    while at < line.len() {
        let b = line[at];
        if matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r') {
            at += 1;
            continue;
        }
        let slot = values.get_mut(found)?;
        let negative = b == b'-';
        if negative || b == b'+' {
            at += 1;
        }
        let digits = at;
        let mut v = 0i64;
        while let Some(d) = line
            .get(at)
            .map(|b| b.wrapping_sub(b'0'))
            .filter(|&d| d <= 9)
        {
            // More than 18 digits: the general reader's (18 cannot overflow).
            if at - digits == 18 {
                return None;
            }
            v = v * 10 + i64::from(d);
            at += 1;
        }
        // No digit, or a field that goes on with something else than a digit.
        if at == digits
            || line
                .get(at)
                .is_some_and(|b| !b.is_ascii_whitespace() && *b != b'\x0b')
        {
            return None;
        }
        *slot = if negative { -v } else { v };
        found += 1;
    }
    if found != FIELDS {
        return None;
    }
    let integer = |v: i64| (v.unsigned_abs() <= MAX_INTEGER).then_some(v);
    let time = |v: i64| (v.unsigned_abs() <= MAX_TIME).then_some(v);
    let id = integer(values[0]).filter(|&id| id >= 0)?;
    let allocated = integer(values[4])?;
    let requested = integer(values[7])?;
    Some(Record {
        id: id as u64,
        submit: time(values[1])?,
        run: time(values[3])?,
        requested_time: time(values[8])?,
        procs: if allocated > 0 { allocated } else { requested },
    })
}

fn data_line(text: &str) -> Result<Record, ErrorKind> {
    let mut fields = [""; FIELDS];
    let found = split_fields(text, &mut fields);
    if found != FIELDS {
        return Err(ErrorKind::FieldCount { found });
    }
    // Fields in order, so that the error names the first bad one.
    let id = integer(1, fields[0])?;
    if id < 0 {
        return Err(ErrorKind::OutOfRange {
            field: 1,
            text: clip(fields[0]),
        });
    }
    let submit = time(2, fields[1])?;
    number(3, fields[2])?;
    let run = time(4, fields[3])?;
    let allocated = integer(5, fields[4])?;
    number(6, fields[5])?;
    number(7, fields[6])?;
    let requested = integer(8, fields[7])?;
    let requested_time = time(9, fields[8])?;
    for (i, text) in fields.iter().enumerate().skip(9) {
        number(i + 1, text)?;
    }
    Ok(Record {
        id: id as u64,
        submit,
        run,
        requested_time,
        procs: if allocated > 0 { allocated } else { requested },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const STRICT: Options = Options {
        skip_invalid: false,
        machine_procs: None,
    };
    const SKIP: Options = Options {
        skip_invalid: true,
        machine_procs: None,
    };

    /// A data line from the fields the replay uses; the rest are -1.
    fn line(id: i64, submit: i64, run: i64, alloc: i64, req: i64, req_time: i64) -> String {
        format!("{id} {submit} -1 {run} {alloc} -1 -1 {req} {req_time} -1 1 1 1 -1 -1 -1 -1 -1\n")
    }

    fn with_header(procs: u32, body: &str) -> String {
        format!("; MaxProcs: {procs}\n{body}")
    }

    fn job(id: u64, submit: u64, run: u64, estimate: u64, procs: u32) -> Job {
        Job {
            id,
            submit,
            run,
            estimate,
            procs,
        }
    }

    #[test]
    fn header_fields_are_parsed_and_kept() {
        let text = "; Version: 2.2\n; Computer: IBM SP2\n; Installation: SDSC\n\
                    ;   free text without a key\n;              http://example.org/x\n\
                    ; UnixStartTime: 893466664\n; MaxNodes: 128\n; MaxProcs: 256\n;\n";
        let t = parse_str(text, &STRICT).unwrap();
        let h = &t.header;
        assert_eq!(h.max_nodes, Some(128));
        assert_eq!(h.max_procs, Some(256));
        assert_eq!(h.unix_start_time, Some(893466664));
        assert_eq!(h.computer.as_deref(), Some("IBM SP2"));
        assert_eq!(h.installation.as_deref(), Some("SDSC"));
        let keys: Vec<&str> = h.fields.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            [
                "Version",
                "Computer",
                "Installation",
                "UnixStartTime",
                "MaxNodes",
                "MaxProcs"
            ]
        );
        assert_eq!(t.machine_procs, 256, "MaxProcs wins over MaxNodes");
        assert_eq!(t.data_lines, 0);
    }

    #[test]
    fn machine_size_override_then_max_procs_then_max_nodes() {
        let body = line(1, 0, 10, 200, -1, -1);
        let nodes_only = format!("; MaxNodes: 100\n{body}");
        let t = parse_str(&nodes_only, &STRICT).unwrap();
        assert_eq!(t.machine_procs, 100);
        assert_eq!(t.skipped.too_wide, 1);
        let both = format!("; MaxNodes: 100\n; MaxProcs: 300\n{body}");
        assert_eq!(parse_str(&both, &STRICT).unwrap().machine_procs, 300);
        let over = Options {
            machine_procs: Some(150),
            ..STRICT
        };
        let t = parse_str(&both, &over).unwrap();
        assert_eq!(t.machine_procs, 150);
        assert_eq!(t.skipped.too_wide, 1);
    }

    #[test]
    fn no_machine_size_is_an_error_unless_overridden() {
        let body = line(1, 0, 10, 4, -1, -1);
        let e = parse_str(&body, &STRICT).unwrap_err();
        assert_eq!(e.kind, ErrorKind::NoMachineSize);
        assert_eq!(e.line, None);
        assert!(e.to_string().contains("MaxProcs"), "{e}");
        let t = parse_str(
            &body,
            &Options {
                machine_procs: Some(8),
                ..STRICT
            },
        )
        .unwrap();
        assert_eq!(t.jobs, [job(1, 0, 10, 10, 4)]);
        let e = parse_str(
            &body,
            &Options {
                machine_procs: Some(0),
                ..STRICT
            },
        )
        .unwrap_err();
        assert_eq!(e.kind, ErrorKind::ZeroMachineSize);
    }

    #[test]
    fn bad_and_conflicting_headers() {
        for bad in ["; MaxProcs: abc\n", "; MaxProcs: 0\n", "; MaxNodes: -1\n"] {
            let text = format!("; MaxNodes: 8\n{bad}");
            let e = parse_str(&text, &STRICT).unwrap_err();
            assert_eq!(e.line, Some(2), "{bad}");
            assert!(matches!(e.kind, ErrorKind::BadHeader { .. }), "{bad}");
        }
        let text = "; MaxProcs: 8\n; MaxProcs: 8\n; MaxProcs: 16\n";
        let e = parse_str(text, &STRICT).unwrap_err();
        assert_eq!(e.line, Some(3));
        assert_eq!(
            e.to_string(),
            "line 3: header MaxProcs given twice: 8, then 16"
        );
        let t = parse_str(text, &SKIP).unwrap();
        assert_eq!(t.invalid.header, 1);
        assert_eq!(t.machine_procs, 8);
    }

    #[test]
    fn field_5_else_field_8() {
        let body = [
            line(1, 0, 10, 4, 99, -1), // allocated wins
            line(2, 0, 10, -1, 6, -1), // allocated unknown: requested
            line(3, 0, 10, 0, 7, -1),  // allocated 0: requested
        ]
        .concat();
        let t = parse_str(&with_header(128, &body), &STRICT).unwrap();
        let procs: Vec<u32> = t.jobs.iter().map(|j| j.procs).collect();
        assert_eq!(procs, [4, 6, 7]);
    }

    #[test]
    fn estimate_falls_back_to_run_time_and_run_is_capped_by_it() {
        let body = [
            line(1, 0, 100, 1, -1, 500), // estimate 500, runs 100
            line(2, 0, 100, 1, -1, -1),  // no estimate: the run time
            line(3, 0, 100, 1, -1, 0),   // 0 is no estimate either
            line(4, 0, 100, 1, -1, 60),  // estimate below run time: cut to it
        ]
        .concat();
        let t = parse_str(&with_header(8, &body), &STRICT).unwrap();
        assert_eq!(
            t.jobs,
            [
                job(1, 0, 100, 500, 1),
                job(2, 0, 100, 100, 1),
                job(3, 0, 100, 100, 1),
                job(4, 0, 60, 60, 1),
            ]
        );
        assert_eq!(t.truncated, 1);
    }

    #[test]
    fn each_skip_reason_is_counted_in_both_modes() {
        let body = [
            line(1, 0, -1, 4, 4, 100),   // run time unknown
            line(2, 0, 0, 4, 4, 100),    // run time 0
            line(3, 0, 10, -1, -1, -1),  // processors unknown
            line(4, 0, 10, 0, 0, -1),    // processors 0
            line(5, 0, 10, 9, 1, -1),    // wider than the machine (allocated decides)
            line(6, 0, 10, -1, 9, -1),   // wider (requested)
            line(7, -1, 10, 1, 1, -1),   // submit unknown
            line(8, -1, -1, -1, -1, -1), // first reason in order: submit
            line(9, 5, -1, 99, 1, -1),   // run before width
            line(10, 5, 10, 8, 8, -1),   // kept: exactly the machine
        ]
        .concat();
        for opts in [STRICT, SKIP] {
            let t = parse_str(&with_header(8, &body), &opts).unwrap();
            assert_eq!(
                t.skipped,
                Skipped {
                    unknown_submit: 2,
                    run_time: 3,
                    processors: 2,
                    too_wide: 2,
                }
            );
            assert_eq!(t.jobs, [job(10, 5, 10, 10, 8)]);
            assert_eq!(t.data_lines, 10);
            assert_eq!(t.invalid, Invalid::default());
            let s = t.summary();
            assert!(s.contains("10 data lines, 1 jobs on 8 processors"), "{s}");
            assert!(s.contains("run time <= 0: 3"), "{s}");
            assert!(s.contains("more processors than the machine: 2"), "{s}");
        }
    }

    #[test]
    fn strict_mode_names_the_first_bad_line() {
        let good = line(1, 0, 10, 1, 1, -1);
        let cases: [(&str, &str); 8] = [
            ("1 2 3\n", "line 3: expected 18 fields, found 3"),
            (
                "1 0 -1 abc 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
                "line 3: field 4 (run time): `abc` is not a finite number",
            ),
            (
                "1 0 -1 10 2.5 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
                "line 3: field 5 (allocated processors): `2.5` is not an integer",
            ),
            (
                "1 0 -1 10 -1 -1 -1 0.5 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
                "line 3: field 8 (requested processors): `0.5` is not an integer",
            ),
            (
                "1.5 0 -1 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
                "line 3: field 1 (job number): `1.5` is not an integer",
            ),
            (
                "-2 0 -1 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
                "line 3: field 1 (job number): `-2` is out of range (must be an integer from 0 to",
            ),
            (
                "1 1e300 -1 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
                "line 3: field 2 (submit time): `1e300` is out of range",
            ),
            (
                "1 0 -1 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 NaN\n",
                "line 3: field 18 (think time): `NaN` is not a finite number",
            ),
        ];
        for (bad, msg) in cases {
            let text = format!("; MaxProcs: 4\n{good}{bad}{good}1 2\n");
            let e = parse_str(&text, &STRICT).unwrap_err();
            assert_eq!(e.line, Some(3));
            assert!(e.to_string().starts_with(msg), "{e} vs {msg}");
        }
    }

    #[test]
    fn skip_invalid_counts_bad_lines_by_reason() {
        let good = line(1, 0, 10, 1, 1, -1);
        let mut text = format!("; MaxProcs: 4\n; MaxNodes: x\n{good}");
        text.push_str("1 2 3\n");
        text.push_str("1 0 -1 abc 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n");
        text.push_str("1 0 -1 inf 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n");
        text.push_str("1 0 -1 10 2.5 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n");
        text.push_str("-2 0 -1 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n");
        let mut bytes = text.into_bytes();
        bytes.extend_from_slice(b"1 0 -1 10 1 \xff -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n");
        bytes.extend_from_slice(line(2, 3, 10, 1, 1, -1).as_bytes());
        bytes.extend_from_slice(line(2, 4, 10, 1, 1, -1).as_bytes());
        assert!(matches!(
            read(&bytes[..], &STRICT).unwrap_err(),
            SwfError {
                line: Some(2),
                kind: ErrorKind::BadHeader { .. }
            }
        ));
        let t = read(&bytes[..], &SKIP).unwrap();
        assert_eq!(
            t.invalid,
            Invalid {
                not_utf8: 1,
                field_count: 1,
                not_a_number: 2,
                fractional: 1,
                out_of_range: 1,
                duplicate: 1,
                header: 1,
            }
        );
        assert_eq!(t.jobs.len(), 2);
        assert_eq!(t.data_lines, 9);
        assert!(t.summary().contains("invalid lines 8"), "{}", t.summary());
    }

    /// A repeated job number is found, with the line it was first read at, whether the numbers
    /// before it rose or not.
    #[test]
    fn a_job_number_read_twice_is_found_in_or_out_of_order() {
        let mut ids = JobNumbers::default();
        for (id, line) in [(1, 1), (5, 2), (3, 3), (9, 4), (4, 5)] {
            assert_eq!(ids.insert(id, line), Ok(()), "job {id}");
        }
        for (id, first) in [(3, 3), (5, 2), (9, 4), (1, 1), (4, 5)] {
            assert_eq!(ids.insert(id, 99), Err(first), "job {id}");
        }
        assert_eq!(ids.insert(10, 6), Ok(()));
        assert_eq!(ids.insert(2, 7), Ok(()));
    }

    /// A job number seen before, a time beyond the kernel's clock, a job number beyond
    /// 2^53, each named at its line; an endless line stops the reading in both modes.
    #[test]
    fn duplicates_clock_range_and_endless_lines_are_named() {
        let text = with_header(
            4,
            &[line(7, 0, 10, 1, 1, -1), line(7, 5, 10, 1, 1, -1)].concat(),
        );
        let e = parse_str(&text, &STRICT).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3: job number 7 is also the job number of line 2"
        );
        let late = MAX_TIME + 1;
        let text = with_header(4, &line(1, late as i64, 10, 1, 1, -1));
        let e = parse_str(&text, &STRICT).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("line 2: field 2 (submit time): `9223372036855` is out of range"),
            "{e}"
        );
        assert!(e.to_string().contains("kernel's microsecond clock"), "{e}");
        let t = parse_str(&text, &SKIP).unwrap();
        assert_eq!((t.jobs.len(), t.invalid.out_of_range), (0, 1));
        let ok = with_header(4, &line(1, MAX_TIME as i64, 10, 1, 1, MAX_TIME as i64));
        assert_eq!(parse_str(&ok, &STRICT).unwrap().jobs.len(), 1);
        let huge_id = "18446744073709551616 0 -1 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n";
        let e = parse_str(&with_header(4, huge_id), &STRICT).unwrap_err();
        assert!(
            e.to_string()
                .contains("must be an integer from 0 to 9007199254740992"),
            "{e}"
        );
        let endless = vec![b'0'; MAX_LINE + 1];
        for opts in [STRICT, SKIP] {
            let e = read(&endless[..], &opts).unwrap_err();
            assert_eq!((e.line, e.kind), (Some(1), ErrorKind::LineTooLong));
        }
        let mut longest = vec![b';'; MAX_LINE];
        longest.push(b'\n');
        let t = read(
            &longest[..],
            &Options {
                machine_procs: Some(1),
                ..STRICT
            },
        )
        .unwrap();
        assert_eq!(t.data_lines, 0);
    }

    #[test]
    fn fractional_times_are_rounded_to_the_nearest_second() {
        let body = concat!(
            "1 0.4 -1 10.5 4 0.03 -1 4 64800.49 -1 1 96 -1 -1 3 -1 -1 -1\n",
            "2 2.5 -1 0.4 4 0.03 -1 4 100 -1 1 96 -1 -1 3 -1 -1 -1\n", // run rounds to 0
            "3 2.5 -1 7 4 0.03 -1 4 0.4 -1 1 96 -1 -1 3 -1 -1 -1\n",   // estimate rounds to 0
            "4 1 -1 5 32.0 -1 -1 -1 -1 -1 1 96 -1 -1 3 -1 -1 -1\n",    // integral float procs
        );
        let t = parse_str(
            body,
            &Options {
                machine_procs: Some(144),
                ..STRICT
            },
        )
        .unwrap();
        assert_eq!(
            t.jobs,
            [
                job(1, 0, 11, 64800, 4),
                job(4, 1, 5, 5, 32),
                job(3, 3, 7, 7, 4),
            ]
        );
        assert_eq!(t.skipped.run_time, 1);
    }

    #[test]
    fn jobs_are_sorted_by_submit_then_id() {
        let body = [
            line(5, 10, 1, 1, 1, -1),
            line(3, 10, 1, 1, 1, -1),
            line(9, 0, 1, 1, 1, -1),
            line(4, 10, 1, 1, 1, -1),
            line(1, 20, 1, 1, 1, -1),
        ]
        .concat();
        let t = parse_str(&with_header(1, &body), &STRICT).unwrap();
        let order: Vec<(u64, u64)> = t.jobs.iter().map(|j| (j.submit, j.id)).collect();
        assert_eq!(order, [(0, 9), (10, 3), (10, 4), (10, 5), (20, 1)]);
    }

    #[test]
    fn blank_and_whitespace_only_lines_are_ignored_but_counted_in_line_numbers() {
        let text = format!(
            "; MaxProcs: 2\r\n\n   \t \n{}\r\n  ;indented comment\n2 0 -1\n      \n",
            line(1, 0, 5, 1, 1, -1).trim_end()
        );
        let e = parse_str(&text, &STRICT).unwrap_err();
        assert_eq!(e.line, Some(6));
        let text = format!(
            "; MaxProcs: 2\r\n\n   \t \n{}\r\n  ;indented comment\n      \n",
            line(1, 0, 5, 1, 1, -1).trim_end()
        );
        let t = parse_str(&text, &STRICT).unwrap();
        assert_eq!(t.data_lines, 1);
        assert_eq!(t.jobs, [job(1, 0, 5, 5, 1)]);
        // No final newline.
        let t = parse_str(
            line(1, 0, 5, 1, 1, -1).trim_end(),
            &Options {
                machine_procs: Some(1),
                ..STRICT
            },
        )
        .unwrap();
        assert_eq!(t.jobs.len(), 1);
    }

    #[test]
    fn header_after_data_lines_still_counts() {
        let text = format!("{}; MaxNodes: 4\n", line(1, 0, 5, 3, 1, -1));
        let t = parse_str(&text, &STRICT).unwrap();
        assert_eq!(t.machine_procs, 4);
        assert_eq!(t.jobs.len(), 1);
    }

    #[test]
    fn read_path_names_the_file() {
        let e = read_path(Path::new("/nonexistent/trace.swf"), &STRICT).unwrap_err();
        assert!(format!("{e:#}").contains("/nonexistent/trace.swf"), "{e:#}");
    }

    proptest::proptest! {
        /// The byte-wise split of an ASCII line is `split_whitespace`'s, with every kind of
        /// ASCII whitespace (`\x0b` included) and more fields than the array holds.
        #[test]
        fn ascii_lines_split_as_split_whitespace_does(text in "[ \t\n\x0b\x0c\r0-9a-z.+-]{0,80}") {
            let mut fields = [""; 4];
            let found = split_fields(&text, &mut fields);
            let expected: Vec<&str> = text.split_whitespace().collect();
            proptest::prop_assert_eq!(found, expected.len());
            let kept = found.min(fields.len());
            proptest::prop_assert_eq!(&fields[..kept], &expected[..kept]);
        }

        /// The one-pass reader of plainly written lines gives [`data_line`]'s record whenever
        /// it takes a line, and takes every line of plain integers within their ranges. The
        /// fields mix signs, lengths up to 20 digits (past the plain form and the ranges),
        /// decimals and every ASCII whitespace.
        #[test]
        fn plain_lines_read_as_data_line_reads_them(
            fields in proptest::collection::vec(
                "[+-]?[0-9]{1,20}|[+-]?[0-9]{1,3}|-1|[0-9]{1,2}[.][0-9]|x",
                15..21,
            ),
            space in "[ \t\x0b\x0c\r]{1,3}",
        ) {
            let text = fields.join(&space);
            let fast = plain_data_line(text.as_bytes());
            let general = data_line(&text);
            if let Some(r) = &fast {
                let g = general.as_ref().expect("a line the one-pass reader takes is valid");
                proptest::prop_assert_eq!(
                    (r.id, r.submit, r.run, r.requested_time, r.procs),
                    (g.id, g.submit, g.run, g.requested_time, g.procs)
                );
            }
            let plain = fields.len() == FIELDS
                && fields.iter().all(|f| plain_integer(f).is_some());
            if plain && general.is_ok() {
                proptest::prop_assert!(fast.is_some(), "{:?} not taken", text);
            }
        }

        /// A plainly written integer reads as the standard parser reads it, and anything the
        /// plain reader takes is one the standard parser takes alike.
        #[test]
        fn plain_integers_read_as_the_standard_parser_reads_them(
            text in "[+-]?[0-9]{1,18}|[+-]?[0-9.e+-]{0,20}",
        ) {
            let plain = plain_integer(&text);
            if let Some(v) = plain {
                proptest::prop_assert_eq!(Ok(v), text.parse::<i64>());
            }
            let written_plainly =
                text.parse::<i64>().is_ok() && text.trim_start_matches(['+', '-']).len() <= 18;
            proptest::prop_assert_eq!(plain.is_some(), written_plainly);
        }
    }
}
