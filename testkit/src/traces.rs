//! Where the tests find workload traces: the cut-downs committed under `data/traces/` (always
//! there), and the full traces of a directory the user names in `QOSGATE_TRACES` (optional).

use std::path::PathBuf;

/// The environment variable naming the directory of the full traces (the Parallel Workloads
/// Archive's files that `data/traces/` cuts down).
pub const FULL_TRACES_VAR: &str = "QOSGATE_TRACES";

/// The committed cut-down `name` in the repository's `data/traces/`.
pub fn fixture(name: &str) -> PathBuf {
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/traces")).join(name);
    assert!(path.is_file(), "{} is missing", path.display());
    path
}

/// The directory of the full traces, which `QOSGATE_TRACES` must name: the tests that read them
/// are `#[ignore]`d, run by `.ci/run` where the traces are (and by hand with `QOSGATE_TRACES=DIR
/// cargo test -- --ignored`), and fail, naming the variable, without them.
pub fn full_traces() -> PathBuf {
    let dir = std::env::var_os(FULL_TRACES_VAR).unwrap_or_else(|| {
        panic!(
            "this test reads the full traces: set {FULL_TRACES_VAR} to the directory \
             of the full SWF traces that data/traces/ cuts down"
        )
    });
    let dir = PathBuf::from(dir);
    assert!(
        dir.is_dir(),
        "{FULL_TRACES_VAR}={} is not a directory",
        dir.display()
    );
    dir
}
