//! `qosgate sequence billiard|rtdp` end to end: the printed sequences are the kernel's
//! (`qosgate_kernel::dispatch`, whose properties are tested in `kernel/tests/dispatch.rs`), and
//! bad options are named.

use std::process::Output;

use qosgate_kernel::dispatch::Billiard;
use qosgate_testkit::cli::{run, stderr, stdout};

fn qosgate(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_qosgate-e2e"), args)
}

/// Runs a command that must succeed and print one JSON array of cluster indices.
fn clusters(args: &[&str]) -> Vec<usize> {
    let o = qosgate(args);
    assert!(
        o.status.success(),
        "{args:?}: exit {:?}: {}",
        o.status,
        stderr(&o)
    );
    let out = stdout(&o);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: not a JSON array ({e}): {out}"))
}

/// Runs a command that must fail; returns its standard error.
fn fails(args: &[&str]) -> String {
    let o = qosgate(args);
    assert!(!o.status.success(), "{args:?} succeeded");
    assert!(o.stdout.is_empty(), "{args:?} printed to stdout");
    stderr(&o)
}

#[test]
fn cli_billiard_prints_the_kernel_sequence() {
    let o = qosgate(&["sequence", "billiard", "--p", "0.5,0.3,0.2", "-n", "10"]);
    assert_eq!(stdout(&o), "[1,2,0,1,0,2,0,1,0,0]\n");
    let got = clusters(&[
        "sequence",
        "billiard",
        "--p",
        "3,0,1,4",
        "--fastest",
        "3",
        "-n",
        "5000",
    ]);
    let mut b = Billiard::<8>::new(&[3.0, 0.0, 1.0, 4.0], 3).unwrap();
    assert_eq!(got, (0..5000).map(|_| b.dispatch()).collect::<Vec<_>>());
    assert_eq!(
        clusters(&["sequence", "billiard", "--p", "1", "-n", "0"]),
        Vec::<usize>::new()
    );
}

#[test]
fn cli_rtdp_follows_each_types_own_sequence() {
    let got = clusters(&[
        "sequence",
        "rtdp",
        "--p",
        "0.5,0.3,0.2",
        "--shares",
        "0.25,0.25,0.25,0.25",
        "--types",
        "0,0,1,3,0,2,1,0",
    ]);
    // Type 0's requests are the billiard's 1st..4th decisions (1, 2, 0, 1); types 1, 2, 3 start
    // their own at 1.
    assert_eq!(got, [1, 2, 1, 1, 0, 1, 2, 1]);
}

#[test]
fn cli_bad_input_names_the_option_and_fails() {
    let cases: [(&[&str], &str); 9] = [
        (
            &["billiard", "--p", "0.5,NaN", "-n", "3"],
            "--p: entry 1 is NaN",
        ),
        (
            &["billiard", "--p=0.5,-0.5", "-n", "3"],
            "--p: entry 1 is -0.5",
        ),
        (
            &["billiard", "--p", "0,0", "-n", "3"],
            "--p: every probability is zero",
        ),
        (
            &["billiard", "--p", "1,1e-12", "-n", "3"],
            "--p: entry 1 is 0.000000000001",
        ),
        (
            &["billiard", "--p", "0.5,0.5", "--fastest", "2", "-n", "3"],
            "--fastest: cluster 2",
        ),
        (
            &["rtdp", "--p", "1,1", "--shares", "1,inf", "--types", "0"],
            "--shares: entry 1 is inf",
        ),
        (
            &["rtdp", "--p", "1,1", "--shares", "1,1", "--types", "0,2"],
            "--types: entry 1 is request type 2",
        ),
        (
            &["rtdp", "--p", "1,1", "--shares", "1,0", "--types", "0,1"],
            "share in --shares is 0",
        ),
        (
            &["rtdp", "--p", "1,1", "--shares", "0", "--types", "0"],
            "--shares: every share is zero",
        ),
    ];
    for (args, want) in cases {
        let mut all = vec!["sequence"];
        all.extend_from_slice(args);
        let err = fails(&all);
        assert!(err.contains(want), "{all:?}: stderr {err:?} lacks {want:?}");
    }
    let many = vec!["1"; 300].join(",");
    assert!(fails(&["sequence", "billiard", "--p", &many, "-n", "1"]).contains("300 clusters"));
}
