//! Where the tests find workload traces: the cut-downs committed under `data/traces/` (always
//! there), and the full traces of a directory the user names in `QOSGATE_TRACES` (optional).

use std::io::Write;
use std::path::PathBuf;

/// The environment variable naming the directory of the full traces (`shared/traces`).
pub const FULL_TRACES_VAR: &str = "QOSGATE_TRACES";

/// The committed cut-down `name` in the repository's `data/traces/`.
pub fn fixture(name: &str) -> PathBuf {
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/traces")).join(name);
    assert!(path.is_file(), "{} is missing", path.display());
    path
}

/// The directory of the full traces, or `None` when `QOSGATE_TRACES` is unset, with a notice
/// naming the skipped check `test`. The notice goes to the process's standard error directly,
/// past the test harness's capture of `eprintln!`, so that `cargo test` shows it. A directory
/// that is named but missing is an error, not a skip.
pub fn full_traces(test: &str) -> Option<PathBuf> {
    let Some(dir) = std::env::var_os(FULL_TRACES_VAR) else {
        // A notice that cannot be written changes nothing about the test.
        let _ = writeln!(
            std::io::stderr(),
            "note: {test}: skipped on the full traces (set {FULL_TRACES_VAR} to their directory, \
             shared/traces, to run it); the committed cut-downs are checked regardless"
        );
        return None;
    };
    let dir = PathBuf::from(dir);
    assert!(
        dir.is_dir(),
        "{FULL_TRACES_VAR}={} is not a directory",
        dir.display()
    );
    Some(dir)
}
