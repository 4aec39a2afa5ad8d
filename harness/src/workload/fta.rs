//! Failure traces of the Failure Trace Archive (FTA; Kondo, Javadi, Iosup and Epema, CCGrid
//! 2010) in its tabular form, and the window of one a replication replays.
//!
//! # The format
//! One event per line of the FTA's `event_trace` table, its fields separated by tabs (on a line
//! without a tab, by runs of whitespace), either all nine of them:
//!
//! ```text
//! event_id  component_id  node_id  platform_id  node_name  event_type  event_start_time  event_end_time  event_end_reason
//! ```
//!
//! or the four this reader uses: `node_id event_type event_start_time event_end_time`.
//! - Blank lines and lines starting with `#` (after whitespace) are ignored; so is a header line
//!   whose first field is `event_id` or `node_id`.
//! - `node_id`: an integer in `0 ..= 2^53`.
//! - `event_type`: an integer. 0 is an unavailability: the node is down over
//!   `[event_start_time, event_end_time)`. 1 is an availability, the complement, which only
//!   widens the trace's span. Any other code (the FTA reserves codes up to 10,000 and some traces
//!   use their own) is counted in [`Trace::other_types`] and skipped.
//! - `event_start_time`, `event_end_time`: UNIX epoch seconds, finite decimal numbers rounded to
//!   the nearest second (halves away from zero), at most `2^53` in magnitude, the end not before
//!   the start.
//! - The other fields must be present and are not interpreted (a `node_name` holds no tab in a
//!   tab-separated line).
//!
//! # Bad lines
//! A line longer than [`input::LINE`] bytes (1 MiB) ends the reading with an error in both modes
//! (`trace.tab:1: a line longer than 1048576 bytes`): no trace has one, and an input without
//! line ends (`/dev/zero`) is not a trace. The reader keeps one line in memory at a time, and
//! at most [`MAX_INTERVALS`] unavailability intervals (24 bytes each before merging): the
//! interval past it ends the reading with an error in both modes, so an endless stream of valid
//! lines costs at most about 400 MiB, not all memory.
//!
//! In strict mode the first bad line is an error naming its line number (1-based, every physical
//! line counted) and what is wrong; [`read_path`] adds the file: `trace.tab:12: ...`. With
//! [`Options::skip_invalid`] bad lines are skipped and counted by reason ([`Invalid`]). A trace
//! without an event, or whose events span no time, is an error in both modes.
//!
//! # What is kept
//! Each node (by `node_id`, ascending) with its unavailability intervals, merged where they
//! overlap or touch (counted in [`Trace::merged`]); an interval of zero length after rounding is
//! dropped ([`Trace::empty`]). The trace's span runs from the earliest start to the latest end of
//! every event of type 0 or 1.
//!
//! # The window a replication replays
//! [`Trace::window`] maps a cluster of `nodes` nodes onto the trace: cluster node `i` is the
//! trace's `i`-th node (nodes beyond the trace's never fail; trace nodes beyond the cluster's
//! are not used), and simulated second `s` is the trace's second
//! `first + (offset + s) mod span`: the trace is read from `offset` on and wraps around to its
//! start. javadi2012 gives each experiment "a unique starting point in the failure traces";
//! [`Trace::random_offset`] draws one uniformly over the span, from a replication's stream. The
//! events are those of [`super::failures::Process::events`]: sorted, alternating down and up per
//! node, every node up at the horizon.
//!
//! # Invariants of a returned [`Trace`] (the fuzz target checks them)
//! `first < last`; every node's intervals are non-empty, sorted, disjoint and do not touch, and
//! lie within `[first, last]`; nodes are sorted by id, without duplicates;
//! `data_lines == kept + availability + other_types + empty + invalid.total()`, with `kept` the
//! unavailability lines before merging.

use std::fmt;
use std::fs::File;
use std::io::Read;
use std::path::Path;

use anyhow::{Result, anyhow};
use serde::Serialize;

use super::failures::NodeEvent;
use super::lines::{Line, LineError, Lines};
use crate::des::rng::SplitMix;
use crate::input::{self, LineTooLong};

/// The largest magnitude of a time or node id, `2^53` (the last integer an `f64` holds exactly).
pub const MAX_VALUE: i64 = 1 << 53;

/// The most unavailability intervals (lines of type 0 and positive length, before merging) a
/// trace may hold: `2^24` (16,777,216). They are kept until the end of the reading, 24 bytes
/// each, so this bounds the reader's memory at about 400 MiB (the vector's growth doubling
/// included) whatever the input. The FTA's largest traces (SETI@home's 226,208 hosts) hold
/// fewer; a larger one is split by time, or by node, before it is read.
pub const MAX_INTERVALS: usize = 1 << 24;

/// How to read a trace.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Skip and count bad lines instead of failing on the first one.
    pub skip_invalid: bool,
}

/// One node of the trace and its outages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Node {
    /// The trace's `node_id`.
    pub id: u64,
    /// Unavailability intervals `[start, end)`, epoch seconds: sorted, disjoint, not touching,
    /// each non-empty.
    pub down: Vec<(i64, i64)>,
}

/// Bad lines skipped under [`Options::skip_invalid`], by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Invalid {
    /// Lines that are not UTF-8.
    pub not_utf8: u64,
    /// Lines with neither 4 nor 9 fields.
    pub field_count: u64,
    /// A node id, event type or time that is not a number of its kind.
    pub not_a_number: u64,
    /// A negative node id, a value beyond `2^53`, or an end before its start.
    pub out_of_range: u64,
}

impl Invalid {
    /// All bad lines.
    pub fn total(&self) -> u64 {
        self.not_utf8 + self.field_count + self.not_a_number + self.out_of_range
    }

    fn count(&mut self, kind: &ErrorKind) {
        match kind {
            ErrorKind::NotUtf8 => self.not_utf8 += 1,
            ErrorKind::FieldCount { .. } => self.field_count += 1,
            ErrorKind::NotANumber { .. } => self.not_a_number += 1,
            ErrorKind::OutOfRange { .. } | ErrorKind::EndBeforeStart { .. } => {
                self.out_of_range += 1;
            }
            // Not line errors: returned in both modes.
            ErrorKind::Io { .. }
            | ErrorKind::LineTooLong(_)
            | ErrorKind::TooManyIntervals { .. }
            | ErrorKind::NoEvents => {}
        }
    }
}

/// A failure trace, read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Trace {
    /// The nodes, by id.
    pub nodes: Vec<Node>,
    /// The earliest start of an event, epoch seconds.
    pub first: i64,
    /// The latest end of an event, epoch seconds (`> first`).
    pub last: i64,
    /// Data lines (neither blank, comment nor header), bad ones included.
    pub data_lines: u64,
    /// Unavailability lines of positive length, before merging.
    pub kept: u64,
    /// Availability lines (type 1).
    pub availability: u64,
    /// Lines of another event type, skipped.
    pub other_types: u64,
    /// Unavailability lines of zero length after rounding, dropped.
    pub empty: u64,
    /// Unavailability intervals merged into one before them (overlapping or touching).
    pub merged: u64,
    /// Bad lines (only under [`Options::skip_invalid`]).
    pub invalid: Invalid,
}

/// What is wrong with a trace or one of its lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// Reading failed.
    Io {
        /// The error's message.
        message: String,
    },
    /// A line longer than the limit ([`input::LINE`]): the reading stops there.
    LineTooLong(LineTooLong),
    /// A line that is not UTF-8.
    NotUtf8,
    /// Neither 4 nor 9 fields.
    FieldCount {
        /// Fields found.
        found: usize,
    },
    /// A field that is not a number of its kind (an integer node id or type, a finite time).
    NotANumber {
        /// The field's name.
        field: &'static str,
        /// Its text (at most 32 characters).
        text: String,
    },
    /// A negative node id, or a value beyond `2^53` in magnitude.
    OutOfRange {
        /// The field's name.
        field: &'static str,
        /// Its text (at most 32 characters).
        text: String,
    },
    /// An event that ends before it starts.
    EndBeforeStart {
        /// The start, rounded.
        start: i64,
        /// The end, rounded.
        end: i64,
    },
    /// More unavailability intervals than the limit ([`MAX_INTERVALS`]): the reading stops at
    /// the first one past it.
    TooManyIntervals {
        /// The limit.
        max: usize,
    },
    /// No event of type 0 or 1, or none spanning any time.
    NoEvents,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { message } => write!(f, "read error: {message}"),
            Self::LineTooLong(e) => e.fmt(f),
            Self::NotUtf8 => f.write_str("the line is not valid UTF-8"),
            Self::FieldCount { found } => write!(
                f,
                "expected 9 fields (the FTA's event_trace) or 4 (node_id, event_type, \
                 event_start_time, event_end_time), found {found}"
            ),
            Self::NotANumber { field, text } => write!(f, "{field}: `{text}` is not a number"),
            Self::OutOfRange { field, text } => write!(
                f,
                "{field}: `{text}` is out of range (0 ..= {MAX_VALUE} for a node id, at most \
                 {MAX_VALUE} s in magnitude for a time)"
            ),
            Self::EndBeforeStart { start, end } => {
                write!(
                    f,
                    "the event ends at {end} s, before its start at {start} s"
                )
            }
            Self::TooManyIntervals { max } => write!(
                f,
                "more than {max} unavailability intervals (the limit of a failure trace, which \
                 is held in memory): split the trace by time or by node"
            ),
            Self::NoEvents => f.write_str(
                "no availability or unavailability event spanning any time: nothing to replay",
            ),
        }
    }
}

/// A trace that cannot be read: the line and what is wrong.
pub type FtaError = LineError<ErrorKind>;

/// Reads a trace file; an error names the file and line as `path:line: what is wrong`.
pub fn read_path(path: &Path, options: &Options) -> Result<Trace> {
    let file = File::open(path).map_err(|e| anyhow!("opening {}: {e}", path.display()))?;
    read(file, options).map_err(|e| match e.line {
        Some(line) => anyhow!("{}:{line}: {}", path.display(), e.kind),
        None => anyhow!("{}: {}", path.display(), e.kind),
    })
}

/// One line's event.
struct Event {
    node: u64,
    kind: i64,
    start: i64,
    end: i64,
}

/// Reads a trace from any reader (module docs), a line of at most [`input::LINE`] bytes at a time.
///
/// Errors: the first bad line in strict mode; a read error; a line too long
/// ([`ErrorKind::LineTooLong`]); no event ([`ErrorKind::NoEvents`]).
pub fn read<R: Read>(reader: R, options: &Options) -> Result<Trace, FtaError> {
    read_within(reader, options, input::LINE, MAX_INTERVALS)
}

/// [`read`], with lines of at most `max_line` bytes and at most `max_intervals` intervals.
fn read_within<R: Read>(
    reader: R,
    options: &Options,
    max_line: usize,
    max_intervals: usize,
) -> Result<Trace, FtaError> {
    let mut invalid = Invalid::default();
    let mut down: Vec<(u64, i64, i64)> = Vec::new();
    let (mut first, mut last) = (i64::MAX, i64::MIN);
    let (mut data_lines, mut availability, mut other_types, mut empty) = (0, 0, 0, 0);
    let mut lines = Lines::new(reader, max_line);
    let mut line_no = 0u64;
    loop {
        let line = lines.next_line().map_err(|e| FtaError {
            line: Some(line_no + 1),
            kind: ErrorKind::Io {
                message: e.to_string(),
            },
        })?;
        let Some(line) = line else {
            break;
        };
        line_no += 1;
        let Line::Text(line) = line else {
            return Err(FtaError {
                line: Some(line_no),
                kind: ErrorKind::LineTooLong(LineTooLong { max: max_line }),
            });
        };
        let outcome = match std::str::from_utf8(line) {
            Err(_) => {
                data_lines += 1;
                Err(ErrorKind::NotUtf8)
            }
            Ok(text) => {
                let text = text.trim();
                let head = text.split_whitespace().next().unwrap_or("");
                if text.is_empty()
                    || text.starts_with('#')
                    || head == "event_id"
                    || head == "node_id"
                {
                    continue;
                }
                data_lines += 1;
                event(text)
            }
        };
        match outcome {
            Ok(e) => match e.kind {
                0 | 1 => {
                    first = first.min(e.start);
                    last = last.max(e.end);
                    if e.kind == 1 {
                        availability += 1;
                    } else if e.end == e.start {
                        empty += 1;
                    } else if down.len() == max_intervals {
                        return Err(FtaError {
                            line: Some(line_no),
                            kind: ErrorKind::TooManyIntervals { max: max_intervals },
                        });
                    } else {
                        down.push((e.node, e.start, e.end));
                    }
                }
                _ => other_types += 1,
            },
            Err(kind) if options.skip_invalid => invalid.count(&kind),
            Err(kind) => {
                return Err(FtaError {
                    line: Some(line_no),
                    kind,
                });
            }
        }
    }
    if first >= last {
        return Err(FtaError {
            line: None,
            kind: ErrorKind::NoEvents,
        });
    }
    let kept = down.len() as u64;
    down.sort_unstable();
    let mut nodes: Vec<Node> = Vec::new();
    let mut merged = 0;
    for (id, start, end) in down {
        match nodes.last_mut() {
            Some(n) if n.id == id => match n.down.last_mut() {
                Some(prev) if start <= prev.1 => {
                    prev.1 = prev.1.max(end);
                    merged += 1;
                }
                _ => n.down.push((start, end)),
            },
            _ => nodes.push(Node {
                id,
                down: vec![(start, end)],
            }),
        }
    }
    Ok(Trace {
        nodes,
        first,
        last,
        data_lines,
        kept,
        availability,
        other_types,
        empty,
        merged,
        invalid,
    })
}

/// The event on a data line (already trimmed, not a comment or header).
fn event(text: &str) -> Result<Event, ErrorKind> {
    let fields: Vec<&str> = if text.contains('\t') {
        text.split('\t').map(str::trim).collect()
    } else {
        text.split_whitespace().collect()
    };
    let [node, kind, start, end] = match fields[..] {
        [_, _, node, _, _, kind, start, end, _] | [node, kind, start, end] => {
            [node, kind, start, end]
        }
        _ => {
            return Err(ErrorKind::FieldCount {
                found: fields.len(),
            });
        }
    };
    let id = integer("node_id", node)?;
    if id < 0 {
        return Err(ErrorKind::OutOfRange {
            field: "node_id",
            text: clip(node),
        });
    }
    let kind = integer("event_type", kind)?;
    let start = seconds("event_start_time", start)?;
    let end = seconds("event_end_time", end)?;
    if end < start {
        return Err(ErrorKind::EndBeforeStart { start, end });
    }
    Ok(Event {
        node: id as u64,
        kind,
        start,
        end,
    })
}

fn clip(text: &str) -> String {
    text.chars().take(32).collect()
}

/// An integer field within `±2^53`.
fn integer(field: &'static str, text: &str) -> Result<i64, ErrorKind> {
    let v = text.parse::<i64>().map_err(|_| ErrorKind::NotANumber {
        field,
        text: clip(text),
    })?;
    if v.unsigned_abs() > MAX_VALUE as u64 {
        return Err(ErrorKind::OutOfRange {
            field,
            text: clip(text),
        });
    }
    Ok(v)
}

/// A time field: finite seconds rounded to the nearest second, within `±2^53`.
fn seconds(field: &'static str, text: &str) -> Result<i64, ErrorKind> {
    let v = text
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| ErrorKind::NotANumber {
            field,
            text: clip(text),
        })?
        .round();
    if v.abs() > MAX_VALUE as f64 {
        return Err(ErrorKind::OutOfRange {
            field,
            text: clip(text),
        });
    }
    Ok(v as i64)
}

impl Trace {
    /// Seconds from the first event's start to the last one's end (`> 0`).
    pub fn span(&self) -> u64 {
        self.last.abs_diff(self.first)
    }

    /// The mean and variance of the complete unavailability intervals (every outage) and
    /// availability intervals (the gaps between two outages of a node; the stretches before a
    /// node's first outage and after its last are cut by the trace's ends and left out), seconds
    /// and seconds squared: `[t_a, sigma_a^2, t_u, sigma_u^2]`, the inputs of javadi2012's Eq.
    /// 10-11. `None` without two outages on some node (no availability interval).
    pub fn moments(&self) -> Option<[f64; 4]> {
        let (mut up, mut down) = (Vec::new(), Vec::new());
        for n in &self.nodes {
            for w in n.down.windows(2) {
                up.push(w[1].0.abs_diff(w[0].1) as f64);
            }
            down.extend(n.down.iter().map(|&(a, b)| b.abs_diff(a) as f64));
        }
        let moments = |xs: &[f64]| {
            let n = xs.len() as f64;
            let mean = xs.iter().sum::<f64>() / n;
            (mean, xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n)
        };
        if up.is_empty() {
            return None;
        }
        let ((ta, va), (tu, vu)) = (moments(&up), moments(&down));
        Some([ta, va, tu, vu])
    }

    /// A replication's starting point: uniform over `[0, span)`, one draw of `rng`.
    pub fn random_offset(&self, rng: &mut SplitMix) -> u64 {
        let span = self.span();
        ((rng.unit() * span as f64) as u64).min(span.saturating_sub(1))
    }

    /// The failures of a cluster of `nodes` nodes over `[0, horizon]`, read from `offset` (module
    /// docs): sorted by `(at, node, up)`, alternating per node with a failure first, every node
    /// up at `horizon`.
    ///
    /// Cost: per node used, one pass over its intervals per time the window wraps around the
    /// trace, `ceil((offset + horizon) / span) + 1` passes.
    pub fn window(&self, nodes: u32, offset: u64, horizon: u64) -> Vec<NodeEvent> {
        let span = self.span();
        let offset = offset % span.max(1);
        let periods = offset.saturating_add(horizon) / span.max(1) + 1;
        let mut out = Vec::new();
        for (n, node) in (0..nodes).zip(&self.nodes) {
            // Intervals in simulated seconds, clipped to [0, horizon], in order.
            let mut spans: Vec<(u64, u64)> = Vec::new();
            'periods: for k in 0..=periods {
                let base = k.saturating_mul(span);
                for &(a, b) in &node.down {
                    let (a, b) = (a.abs_diff(self.first), b.abs_diff(self.first));
                    let from = base.saturating_add(a).saturating_sub(offset);
                    let to = base.saturating_add(b).saturating_sub(offset).min(horizon);
                    if from >= horizon {
                        break 'periods;
                    }
                    if from >= to {
                        continue;
                    }
                    match spans.last_mut() {
                        Some(prev) if from <= prev.1 => prev.1 = prev.1.max(to),
                        _ => spans.push((from, to)),
                    }
                }
            }
            for (from, to) in spans {
                out.push(NodeEvent {
                    at: from,
                    node: n,
                    up: false,
                });
                out.push(NodeEvent {
                    at: to,
                    node: n,
                    up: true,
                });
            }
        }
        out.sort_unstable();
        out
    }

    /// The trace as the FTA's nine-field, tab-separated `event_trace` lines, with a header:
    /// each node's outages as type 0 and the gaps between them over `[first, last)` as type 1.
    /// [`read`] gives the same nodes, `first` and `last` back.
    pub fn to_tab(&self) -> String {
        let mut out = String::from(
            "event_id\tcomponent_id\tnode_id\tplatform_id\tnode_name\tevent_type\t\
             event_start_time\tevent_end_time\tevent_end_reason\n",
        );
        let mut id = 0u64;
        let mut line = |node: u64, kind: u8, start: i64, end: i64| {
            out.push_str(&format!(
                "{id}\t0\t{node}\t0\tnode-{node}\t{kind}\t{start}\t{end}\t0\n"
            ));
            id += 1;
        };
        for n in &self.nodes {
            let mut t = self.first;
            for &(start, end) in &n.down {
                if start > t {
                    line(n.id, 1, t, start);
                }
                line(n.id, 0, start, end);
                t = end;
            }
            if t < self.last {
                line(n.id, 1, t, self.last);
            }
        }
        if self.nodes.is_empty() {
            line(0, 1, self.first, self.last);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Trace, FtaError> {
        read(text.as_bytes(), &Options::default())
    }

    #[test]
    fn a_line_at_the_limit_is_read_and_one_byte_longer_ends_the_reading_in_both_modes() {
        let line = "7 0 1000 1100";
        let max = line.len();
        let at = read_within(line.as_bytes(), &Options::default(), max, MAX_INTERVALS).unwrap();
        assert_eq!(at.nodes.len(), 1);
        let over = format!("{line}0\n{line}");
        for skip_invalid in [false, true] {
            let options = Options { skip_invalid };
            let e = read_within(over.as_bytes(), &options, max, MAX_INTERVALS).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("line 1: a line longer than {max} bytes")
            );
        }
    }

    /// The limit counts intervals kept (type 0, positive length), not availability or empty
    /// lines, and the one past it ends the reading in both modes, naming its line.
    #[test]
    fn intervals_at_the_limit_are_read_and_one_more_ends_the_reading_in_both_modes() {
        let at = "1 0 0 10\n1 1 0 50\n2 0 5 5\n2 0 20 30\n";
        let trace = read_within(at.as_bytes(), &Options::default(), input::LINE, 2).unwrap();
        assert_eq!(trace.kept, 2);
        let over = format!("{at}3 0 40 50\n");
        for skip_invalid in [false, true] {
            let options = Options { skip_invalid };
            let e = read_within(over.as_bytes(), &options, input::LINE, 2).unwrap_err();
            assert_eq!(e.line, Some(5));
            assert_eq!(e.kind, ErrorKind::TooManyIntervals { max: 2 });
        }
    }

    #[test]
    fn an_input_without_line_ends_is_refused_at_the_line_limit() {
        let e = read_path(Path::new("/dev/zero"), &Options::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("/dev/zero:1: a line longer than {} bytes", input::LINE)
        );
    }

    const SAMPLE: &str = "\
# a Grid'5000-like cluster, two nodes
event_id\tcomponent_id\tnode_id\tplatform_id\tnode_name\tevent_type\tevent_start_time\tevent_end_time\tevent_end_reason
1\t0\t7\t1\tnode-7\t1\t1000\t1100\t0
2\t0\t7\t1\tnode-7\t0\t1100\t1150.4\t5
3\t0\t3\t1\tnode-3\t0\t1020\t1040\t6
3 0 1120 1130
3\t0\t1130\t1135
3\t0\t1030\t1030
3\t2\t1000\t1400
";

    #[test]
    fn both_forms_are_read_and_outages_merged() {
        let t = parse(SAMPLE).unwrap();
        assert_eq!(
            t.nodes,
            [
                Node {
                    id: 3,
                    down: vec![(1020, 1040), (1120, 1135)]
                },
                Node {
                    id: 7,
                    down: vec![(1100, 1150)]
                },
            ]
        );
        assert_eq!((t.first, t.last, t.span()), (1000, 1150, 150));
        assert_eq!(
            (
                t.data_lines,
                t.kept,
                t.availability,
                t.other_types,
                t.empty,
                t.merged
            ),
            (7, 4, 1, 1, 1, 1)
        );
    }

    #[test]
    fn bad_lines_are_named_or_counted() {
        let bad = format!("{SAMPLE}3\t0\t1500\n-1 0 1 2\n4 0 9 8\n4 x 1 2\n");
        let e = parse(&bad).unwrap_err();
        assert_eq!(e.line, Some(10));
        assert_eq!(
            e.to_string(),
            "line 10: expected 9 fields (the FTA's event_trace) or 4 (node_id, event_type, \
             event_start_time, event_end_time), found 3"
        );
        let e = parse(&format!("{SAMPLE}-1 0 1 2\n")).unwrap_err();
        assert_eq!(e.line, Some(10));
        assert!(matches!(
            e.kind,
            ErrorKind::OutOfRange {
                field: "node_id",
                ..
            }
        ));
        let e = parse(&format!("{SAMPLE}4 0 9 8\n")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 10: the event ends at 8 s, before its start at 9 s"
        );
        let e = parse(&format!("{SAMPLE}4 0 1 inf\n")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 10: event_end_time: `inf` is not a number"
        );
        let lenient = read(bad.as_bytes(), &Options { skip_invalid: true }).unwrap();
        assert_eq!(
            lenient.invalid,
            Invalid {
                not_utf8: 0,
                field_count: 1,
                not_a_number: 1,
                out_of_range: 2
            }
        );
        assert_eq!(lenient.nodes, parse(SAMPLE).unwrap().nodes);
        assert_eq!(
            parse("# nothing\n").unwrap_err().to_string(),
            "no availability or unavailability event spanning any time: nothing to replay"
        );
    }

    #[test]
    fn a_file_error_names_the_file_and_line() {
        let dir = std::env::temp_dir().join(format!("qosgate-fta-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.tab");
        std::fs::write(&path, "3 0 10 20\n3 0 x 20\n").unwrap();
        let e = read_path(&path, &Options::default())
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!(
                "{}:2: event_start_time: `x` is not a number",
                path.display()
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Node 3 down over [20, 40) and [120, 135) of a 150 s span starting at 1000; node 7 over
    /// [100, 150).
    #[test]
    fn a_window_wraps_around_the_trace() {
        let t = parse(SAMPLE).unwrap();
        let ev = |at, node, up| NodeEvent { at, node, up };
        // From offset 0 for 160 s: node 0 (id 3) down [20, 40), [120, 135), then the trace
        // starts again at 150: [170, ...) is past the horizon. Node 1 (id 7): [100, 150) then
        // [250, ...).
        assert_eq!(
            t.window(2, 0, 160),
            [
                ev(20, 0, false),
                ev(40, 0, true),
                ev(100, 1, false),
                ev(120, 0, false),
                ev(135, 0, true),
                ev(150, 1, true),
            ]
        );
        // From offset 130: node 0 is down [0, 5) (the rest of [120, 135)), then [40, 60) (20 +
        // 150 - 130); node 1's outage [100, 150) ends the span and touches nothing; it is
        // [0, 20) and [120, ...) clipped at the horizon 130. A third cluster node never fails.
        assert_eq!(
            t.window(3, 130, 130),
            [
                ev(0, 0, false),
                ev(0, 1, false),
                ev(5, 0, true),
                ev(20, 1, true),
                ev(40, 0, false),
                ev(60, 0, true),
                ev(120, 1, false),
                ev(130, 1, true),
            ]
        );
        let mut rng = SplitMix(3);
        assert!((0..1000).all(|_| t.random_offset(&mut rng) < 150));
    }

    /// An outage at the end of the span and one at its start merge across the wrap.
    #[test]
    fn outages_touching_across_the_wrap_are_one() {
        let t = parse("0 0 0 10\n0 0 90 100\n").unwrap();
        let ev = |at, up| NodeEvent { at, node: 0, up };
        assert_eq!(
            t.window(1, 50, 150),
            [ev(40, false), ev(60, true), ev(140, false), ev(150, true)]
        );
    }

    #[test]
    fn interval_moments_count_complete_intervals_only() {
        let t = parse(SAMPLE).unwrap();
        // Node 3: outages of 20 and 15 s, one gap of 80 s; node 7: one outage of 50 s.
        let [ta, va, tu, vu] = t.moments().unwrap();
        assert_eq!((ta, va), (80.0, 0.0));
        assert!((tu - 85.0 / 3.0).abs() < 1e-12);
        let want = [20.0f64, 15.0, 50.0]
            .iter()
            .map(|x| (x - tu).powi(2))
            .sum::<f64>()
            / 3.0;
        assert!((vu - want).abs() < 1e-9);
        assert_eq!(parse("0 0 0 10\n").unwrap().moments(), None);
    }

    #[test]
    fn writing_and_reading_back_gives_the_same_trace() {
        let t = parse(SAMPLE).unwrap();
        let back = parse(&t.to_tab()).unwrap();
        assert_eq!(
            (&back.nodes, back.first, back.last),
            (&t.nodes, t.first, t.last)
        );
    }
}
