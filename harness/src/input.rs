//! Every input file's limits, and the one way to read a whole file within them.
//!
//! No reader trusts its input to be small, or to end: `/dev/zero`, a FIFO or a file of gigabytes
//! given by mistake must end the reading at once with an error naming the file and the limit, not
//! grow memory until something outside stops the process. So:
//! - a format read whole (TOML scenarios, JSON problems, LWF workloads, events files) is read
//!   by [`read_file`] or [`read_capped`], which read at most the limit plus one byte
//!   (`Read::take`) and refuse the input if that byte is there:
//!   `path: larger than N bytes (the limit for ...)`;
//! - a format read line by line (SWF and FTA traces, run files) keeps one line in memory at a
//!   time ([`crate::workload::lines::Lines`], which reads with a bounded buffer) and refuses a
//!   line longer than its limit: `path:line: a line longer than N bytes` ([`LineTooLong`]).
//!   Such a file has no limit in bytes: what it costs is what is kept of its lines. An FTA trace
//!   keeps at most [`crate::workload::fta::MAX_INTERVALS`] unavailability intervals (about
//!   400 MiB); an SWF trace keeps its jobs (about 100 bytes each) and a run file one
//!   replication's metrics at a time.
//!
//! Standard input (`-` where a command accepts it) gets the same limits as a file
//! ([`read_capped`]).
//!
//! | Input                                    | Limit            | Constant       |
//! |------------------------------------------|------------------|----------------|
//! | scenario file (TOML, `qosgate run` ...)  | 16 MiB           | [`SCENARIO`]   |
//! | JSON problem (`solve`, `dag`)            | 64 MiB           | [`JSON`]       |
//! | LWF lease workload (`leases --lwf`)      | 128 MiB          | [`LWF`]        |
//! | events file (`verify --events`)          | 256 MiB          | [`EVENTS`]     |
//! | a line of an FTA trace or a run file     | 1 MiB            | [`LINE`]       |
//! | a line of an SWF trace                   | 64 KiB           | [`SWF_LINE`]   |
//! | unavailability intervals of an FTA trace | 2^24             | [`crate::workload::fta::MAX_INTERVALS`] |

use std::io::Read;
use std::path::Path;

use anyhow::{Result, anyhow, bail};

/// The largest input of one kind, and what that kind is called in the error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// The largest size accepted, bytes.
    pub bytes: u64,
    /// The kind of input, for the error: `a scenario file`.
    pub what: &'static str,
}

impl Limit {
    /// `mib` MiB (`mib * 2^20` bytes) of `what`.
    const fn mib(mib: u64, what: &'static str) -> Self {
        Self {
            bytes: mib << 20,
            what,
        }
    }
}

/// A scenario file (TOML): 16 MiB. The largest preset is a few KiB; a hand-written scenario
/// lists a few resources and users, and even one listing thousands stays far below.
pub const SCENARIO: Limit = Limit::mib(16, "a scenario file");

/// A JSON problem of `qosgate solve` or `qosgate dag`: 64 MiB. The kernel's own capacities (its
/// clusters, providers and DAG tasks) fit in a few MiB of JSON, so a larger input cannot be a
/// problem the kernel accepts.
pub const JSON: Limit = Limit::mib(64, "a JSON input");

/// A lease workload (LWF, XML): 128 MiB. 100,000 generated leases (the benchmark's largest) take
/// about 30 MiB; Haizea's published workloads are a few hundred KiB.
pub const LWF: Limit = Limit::mib(128, "an LWF workload");

/// The events file `qosgate verify --events` checks (JSON lines): 256 MiB, read whole. It holds
/// one record (about 200 bytes) per task of the run, so this is above a million tasks; a larger
/// run is one to verify by simulating (`qosgate verify SCENARIO.toml`), not from its records.
pub const EVENTS: Limit = Limit::mib(256, "an events file");

/// The longest line of an FTA trace or a run file (`reproduce --runs`, `reproduce --from`),
/// bytes, its line end not counted: 1 MiB. An FTA line is under 200 bytes, a run line (one
/// replication's metrics) under a few KiB; the longest line of any file in `tests/data` or
/// `data` is 735 bytes.
pub const LINE: usize = 1 << 20;

/// The longest line of an SWF trace, bytes, its line end not counted: 64 KiB. An SWF line is 18
/// numbers (under 200 bytes), a header comment a sentence; no archive trace comes near.
pub const SWF_LINE: usize = 1 << 16;

/// A line longer than the limit, the error of a line-oriented reader (its caller adds the file
/// and line): `a line longer than N bytes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineTooLong {
    /// The limit, bytes.
    pub max: usize,
}

impl std::fmt::Display for LineTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a line longer than {} bytes", self.max)
    }
}

impl std::error::Error for LineTooLong {}

/// The bytes of the file at `path`, at most `limit.bytes` of them.
///
/// Memory: at most `limit.bytes + 1` bytes are read, whatever the file (`/dev/zero` ends at
/// once).
///
/// Errors: `path: ...` when the file cannot be opened or read; `path: larger than N bytes (the
/// limit for ...)` when it holds more than `limit.bytes`.
pub fn read_file(path: &Path, limit: &Limit) -> Result<Vec<u8>> {
    let origin = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| anyhow!("{origin}: {e}"))?;
    read_capped(file, &origin, limit)
}

/// A UTF-8 byte-order mark, which some editors write at the start of a text file.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// The bytes of `reader`, at most `limit.bytes` of them; `origin` names it in errors. A UTF-8
/// byte-order mark at the start is dropped (it is not part of the text: an editor on Windows
/// may write one before a JSON or TOML document), so line 1's columns count from the first
/// character after it.
///
/// Errors: `origin: ...` on a read error; `origin: larger than N bytes (the limit for ...)` when
/// it holds more than `limit.bytes`.
pub fn read_capped(reader: impl Read, origin: &str, limit: &Limit) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(limit.bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow!("{origin}: {e}"))?;
    if bytes.len() as u64 > limit.bytes {
        bail!(
            "{origin}: larger than {} bytes (the limit for {})",
            limit.bytes,
            limit.what
        );
    }
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Limit = Limit {
        bytes: 4,
        what: "a test input",
    };

    #[test]
    fn an_input_at_the_limit_is_read_and_one_byte_more_is_refused() {
        assert_eq!(read_capped(&b"abcd"[..], "t", &SMALL).unwrap(), b"abcd");
        let e = read_capped(&b"abcde"[..], "t", &SMALL).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t: larger than 4 bytes (the limit for a test input)"
        );
    }

    /// A byte-order mark is dropped, only at the start; the limit counts it.
    #[test]
    fn a_byte_order_mark_at_the_start_is_dropped() {
        let five = Limit { bytes: 5, ..SMALL };
        assert_eq!(
            read_capped(&b"\xef\xbb\xbf{}"[..], "t", &five).unwrap(),
            b"{}"
        );
        assert_eq!(
            read_capped(&b"{\xef\xbb\xbf"[..], "t", &five).unwrap(),
            b"{\xef\xbb\xbf"
        );
        assert!(read_capped(&b"\xef\xbb\xbf{}}"[..], "t", &five).is_err());
    }

    #[test]
    fn an_endless_input_ends_at_the_limit() {
        let e = read_capped(std::io::repeat(0), "zeros", &SMALL).unwrap_err();
        assert!(
            e.to_string().starts_with("zeros: larger than 4 bytes"),
            "{e}"
        );
    }

    #[test]
    fn a_file_is_named_in_its_errors() {
        let e = read_file(Path::new("/nonexistent/x.toml"), &SCENARIO).unwrap_err();
        assert!(e.to_string().starts_with("/nonexistent/x.toml: "), "{e}");
        let e = read_file(Path::new("/dev/zero"), &Limit { bytes: 10, ..JSON }).unwrap_err();
        assert_eq!(
            e.to_string(),
            "/dev/zero: larger than 10 bytes (the limit for a JSON input)"
        );
    }
}
