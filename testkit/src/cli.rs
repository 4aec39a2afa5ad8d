//! Running a command-line binary in an end-to-end test. The workspace's end-to-end tests
//! (`tests/`, the `qosgate-tests` member, which builds the command line from `src/main.rs`) pass
//! `env!("CARGO_BIN_EXE_qosgate-e2e")`, which cargo sets for them and builds before them.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `bin` with `args` and waits for it.
pub fn run(bin: &str, args: &[&str]) -> Output {
    Command::new(bin)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("running {bin}: {e}"))
}

/// Runs `bin` with `args`, which must succeed (the failure names its exit status and standard
/// error): its standard output.
pub fn run_ok(bin: &str, args: &[&str]) -> String {
    let o = run(bin, args);
    assert!(
        o.status.success(),
        "{bin} {args:?}: exit {:?}: {}",
        o.status,
        stderr(&o)
    );
    stdout(&o)
}

/// A fresh, empty scratch directory `qosgate-{name}-{process id}` in the system's temporary
/// directory (emptied if a run of the same process id left it).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qosgate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("creating {}: {e}", dir.display()));
    dir
}

/// Runs `bin` with `args` and `input` on its standard input.
pub fn run_with_stdin(bin: &str, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("running {bin}: {e}"));
    child
        .stdin
        .take()
        .expect("a piped standard input")
        .write_all(input)
        .expect("writing the standard input");
    child.wait_with_output().expect("the process finishes")
}

/// The standard output (UTF-8, as every command of the workspace prints).
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

/// The standard error, invalid UTF-8 replaced.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
