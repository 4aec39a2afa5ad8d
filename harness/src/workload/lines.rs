//! Text input split into lines in large chunks: one `read` call per [`CHUNK`] bytes and one
//! `memchr` search per line, where a buffered reader's `read_until` costs a call, a copy and a
//! growth check per line. The trace readers spend most of their time here on large traces.
//!
//! A line is what lies between two `\n` (or the input's start or end); the `\n` is not part of
//! it, anything else (a `\r`) is. An input that ends without a `\n` still ends its last line;
//! an empty input has no line. A line longer than the limit is reported as [`Line::TooLong`]
//! as soon as that many bytes are seen without a `\n`, so that an input without line ends
//! (`/dev/zero`) costs a bounded buffer, not all memory.

use std::fmt;
use std::io::{self, ErrorKind, Read};

/// An input that cannot be read: the line (1-based, every physical line counted; `None` for
/// the whole input) and what is wrong, `K` (a reader's own list of errors). Shown as
/// `line 12: what` (or `what`); the caller adds the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError<K> {
    /// 1-based line number, if the error is about one line.
    pub line: Option<u64>,
    /// What is wrong.
    pub kind: K,
}

impl<K: fmt::Display> fmt::Display for LineError<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

impl<K: fmt::Display + fmt::Debug> std::error::Error for LineError<K> {}

/// Bytes asked of the reader at once (the buffer holds at least this many).
pub const CHUNK: usize = 1 << 20;

/// One line of the input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// A line within the limit, without its `\n`.
    Text(&'a [u8]),
    /// A line of more bytes than the limit: the caller should stop reading.
    TooLong,
}

/// The lines of a reader.
///
/// Invariants: the unread input is `buf[start..end]`; `buf.len() >= max + 2`, so a buffer full
/// of one pending line always holds more than `max` bytes of it, and a read always has room.
#[derive(Debug)]
pub struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
    max: usize,
}

impl<R: Read> Lines<R> {
    /// The lines of `reader`, each at most `max` bytes.
    pub fn new(reader: R, max: usize) -> Self {
        Self {
            reader,
            buf: vec![0; CHUNK.max(max.saturating_add(2))],
            start: 0,
            end: 0,
            eof: false,
            max,
        }
    }

    /// The next line, `None` at the end of the input.
    ///
    /// Errors: the reader's (an interrupted read is retried).
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        // Bytes at the front of the pending line known to hold no `\n`.
        let mut searched = 0;
        loop {
            let pending = self.start + searched..self.end;
            if let Some(i) = memchr::memchr(b'\n', &self.buf[pending]) {
                let len = searched + i;
                if len > self.max {
                    return Ok(Some(Line::TooLong));
                }
                let line = self.start..self.start + len;
                self.start += len + 1;
                return Ok(Some(Line::Text(&self.buf[line])));
            }
            searched = self.end - self.start;
            if searched > self.max {
                return Ok(Some(Line::TooLong));
            }
            if self.eof {
                if searched == 0 {
                    return Ok(None);
                }
                let line = self.start..self.end;
                self.start = self.end;
                return Ok(Some(Line::Text(&self.buf[line])));
            }
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
            let n = loop {
                match self.reader.read(&mut self.buf[self.end..]) {
                    Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                    result => break result?,
                }
            };
            self.eof = n == 0;
            self.end += n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of `input` as text, `None` standing for a too-long one (reading stops there).
    fn lines(input: &[u8], max: usize) -> Vec<Option<Vec<u8>>> {
        let mut lines = Lines::new(input, max);
        let mut out = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            match line {
                Line::Text(t) => out.push(Some(t.to_vec())),
                Line::TooLong => {
                    out.push(None);
                    break;
                }
            }
        }
        out
    }

    /// A reader that hands out at most `step` bytes a call, with an interruption between calls.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
        interrupt: bool,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            self.interrupt = !self.interrupt;
            if self.interrupt {
                return Err(ErrorKind::Interrupted.into());
            }
            let n = self.step.min(out.len()).min(self.data.len());
            out[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    #[test]
    fn lines_split_at_line_ends_and_the_last_needs_none() {
        let some = |s: &str| Some(s.as_bytes().to_vec());
        assert_eq!(lines(b"", 10), vec![]);
        assert_eq!(lines(b"\n", 10), vec![some("")]);
        assert_eq!(
            lines(b"a\r\n\nbc", 10),
            vec![some("a\r"), some(""), some("bc")]
        );
        assert_eq!(lines(b"ab\n", 10), vec![some("ab")]);
    }

    #[test]
    fn a_line_over_the_limit_stops_the_reading_with_or_without_its_end() {
        let some = |s: &str| Some(s.as_bytes().to_vec());
        assert_eq!(lines(b"abc\nabcd\nx", 3), vec![some("abc"), None]);
        assert_eq!(lines(b"abc\nabcd", 3), vec![some("abc"), None]);
        assert_eq!(lines(b"abc", 3), vec![some("abc")]);
    }

    #[test]
    fn lines_across_chunks_and_short_reads_are_whole() {
        // Lines of every length up to past a chunk, read a few bytes or a whole chunk at a time.
        let mut input = Vec::new();
        let mut expected = Vec::new();
        for len in (0..3 * CHUNK / 2)
            .step_by(CHUNK / 7 + 1)
            .chain([CHUNK - 1, CHUNK])
        {
            let line: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
            input.extend_from_slice(&line);
            input.push(b'\n');
            expected.push(Some(line));
        }
        for step in [1 << 12, CHUNK, usize::MAX] {
            let mut lines = Lines::new(
                Trickle {
                    data: &input,
                    step,
                    interrupt: false,
                },
                2 * CHUNK,
            );
            let mut got = Vec::new();
            while let Some(Line::Text(t)) = lines.next_line().unwrap() {
                got.push(Some(t.to_vec()));
            }
            assert_eq!(got, expected, "reads of {step} bytes");
        }
    }
}
