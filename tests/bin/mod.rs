//! The `qosgate` executable for the end-to-end tests (`mod bin;` in a test file).
//!
//! Finding it: `env!("CARGO_BIN_EXE_qosgate")` exists only in the tests of the package
//! that owns the binary, and `assert_cmd::Command::cargo_bin` only guesses a path next to the test
//! executable without building anything, so it fails when the binary has not been built yet (for
//! example `cargo test -p qosgate --test cli` after `cargo clean`: the root package's tests do not
//! make cargo build another package's binaries). Instead, the first test to need the binary runs
//! `cargo build -p qosgate-harness --bin qosgate --message-format=json` with the cargo that runs
//! these tests (`env!("CARGO")`) and takes the executable's path from cargo's own
//! `compiler-artifact` message. That works for any target directory (`CARGO_TARGET_DIR` is
//! inherited), platform and executable suffix; cargo has released its build lock by the time the
//! tests run, and an up-to-date build costs a fraction of a second. The build happens once per
//! test process.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use serde_json::Value;

/// The path of the `qosgate` executable, built (or found up to date) once per test process.
pub fn path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let out = Command::new(env!("CARGO"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "build",
                "--quiet",
                "--package",
                "qosgate-harness",
                "--bin",
                "qosgate",
                "--message-format=json",
            ])
            .output()
            .expect("running cargo build");
        assert!(
            out.status.success(),
            "cargo build failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .expect("cargo's messages are UTF-8")
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "qosgate")
            .find_map(|m| m["executable"].as_str().map(PathBuf::from))
            .expect("cargo reported no qosgate executable")
    })
}
