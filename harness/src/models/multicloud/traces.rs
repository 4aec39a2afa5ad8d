//! The job traces the clouds' applications come from (gandhimathi2013 Sec. IV: LLNL Thunder, Atlas
//! and uBGL, Parallel Workloads Archive).
//!
//! Three cut-downs are compiled into the binary, so that a clone of the repository runs the
//! reproduction with nothing else: the header and first 1,000 data lines of each full trace (the
//! Parallel Workloads Archive's; `data/traces/README.md` says how they were cut). uBGL's trace is
//! not at hand (the archive has only its uncleaned original); NASA Ames' iPSC/860 log stands in
//! for it: a machine allocating power-of-two partitions, as a BlueGene/L does, whose 128 nodes
//! scale by 16 to the 2,048 processors of the uBGL cloud (`width_scale`).
//!
//! [`preferred`] picks the full trace in the directory `QOSGATE_TRACES` names when it is there
//! (the real reproduction: windows beyond the cut-downs), else the compiled cut-down. The same
//! window of a trace gives the same jobs from either source.
//!
//! [`load`] parses each source once per process and hands every later call the same parsed
//! trace (a reproduction builds the applications of every replication of every variant from
//! the same three traces).

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::{Context, Result};

use super::scenario::{BuiltinTrace, TraceSource};
use crate::workload::swf::{self, Options, Trace};

/// Data lines of each compiled cut-down.
pub const BUILTIN_LINES: u32 = 1000;

/// The environment variable naming the directory of the full traces.
pub const TRACES_ENV: &str = "QOSGATE_TRACES";

impl BuiltinTrace {
    /// The full trace's file name (in the directory `QOSGATE_TRACES` names).
    pub fn file_name(self) -> &'static str {
        match self {
            BuiltinTrace::LlnlThunder => "LLNL-Thunder-2007-1.1-cln.swf",
            BuiltinTrace::LlnlAtlas => "LLNL-Atlas-2006-2.1-cln.swf",
            BuiltinTrace::NasaIpsc => "NASA-iPSC-1993-3.1-cln.swf",
        }
    }

    /// The compiled cut-down's text.
    fn text(self) -> &'static str {
        match self {
            BuiltinTrace::LlnlThunder => {
                include_str!("../../../../data/traces/LLNL-Thunder-2007-1.1-cln-first1000.swf")
            }
            BuiltinTrace::LlnlAtlas => {
                include_str!("../../../../data/traces/LLNL-Atlas-2006-2.1-cln-first1000.swf")
            }
            BuiltinTrace::NasaIpsc => {
                include_str!("../../../../data/traces/NASA-iPSC-1993-3.1-cln-first1000.swf")
            }
        }
    }
}

/// The full trace under `QOSGATE_TRACES` if the variable is set and the file is there, else the
/// compiled cut-down.
pub fn preferred(trace: BuiltinTrace) -> TraceSource {
    std::env::var_os(TRACES_ENV)
        .map(|dir| PathBuf::from(dir).join(trace.file_name()))
        .filter(|path| path.is_file())
        .map_or(TraceSource::Builtin(trace), TraceSource::File)
}

/// The traces parsed so far in this process, by source.
static PARSED: Mutex<Vec<(TraceSource, Arc<Trace>)>> = Mutex::new(Vec::new());

/// Reads a trace (strict SWF: the first bad line is an error naming it), parsing each source
/// once per process.
///
/// Errors: a file that cannot be read, or a line the SWF reader refuses (file and line named);
/// a failed read is not remembered.
pub fn load(source: &TraceSource) -> Result<Arc<Trace>> {
    let cached = |parsed: &[(TraceSource, Arc<Trace>)]| {
        parsed
            .iter()
            .find(|(s, _)| s == source)
            .map(|(_, t)| Arc::clone(t))
    };
    if let Some(t) = cached(&PARSED.lock().unwrap_or_else(PoisonError::into_inner)) {
        return Ok(t);
    }
    let options = Options::default();
    let trace = Arc::new(match source {
        TraceSource::Builtin(b) => swf::parse_str(b.text(), &options)
            .with_context(|| format!("the built-in cut-down of {}", b.file_name()))?,
        TraceSource::File(path) => swf::read_path(path, &options)?,
    });
    let mut parsed = PARSED.lock().unwrap_or_else(PoisonError::into_inner);
    Ok(cached(&parsed).unwrap_or_else(|| {
        parsed.push((source.clone(), Arc::clone(&trace)));
        trace
    }))
}
