//! The paper registry through the command line: `qosgate reproduce --list`, `--only`, `all`,
//! and the errors that name what exists.

use std::process::Output;

use qosgate_testkit::cli::{run, scratch, stderr, stdout};

fn qosgate(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_qosgate-e2e"), args)
}

#[test]
fn list_names_every_paper_with_its_parts_and_figures() {
    let o = qosgate(&["reproduce", "--list"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("kokkinos2009"), "{text}");
    for part in ["claim1", "claim2", "claim3", "claim4", "claim5", "multicpu"] {
        assert!(
            lines.iter().any(|l| l.trim_start().starts_with(part)),
            "{part} missing:\n{text}"
        );
    }
    assert!(text.contains("table8, fig12"), "{text}");
}

#[test]
fn only_runs_the_part_that_shows_a_figure() {
    let o = qosgate(&["reproduce", "kokkinos2009", "--only", "multicpu"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.matches("\n== ").count(), 1, "{text}");
    assert!(
        text.contains("== Sec. 6.4.1 (multi-CPU resources)"),
        "{text}"
    );
    assert!(
        text.contains(
            "0 reproduced, 0 contradicted, 0 inconclusive of 0 claims; 1 of 1 checks pass.\n9 \
             variants, 9 runs"
        ),
        "{text}"
    );
}

#[test]
fn all_writes_one_directory_per_paper() {
    let dir = scratch("registry");
    let o = qosgate(&[
        "reproduce",
        "all",
        "--only",
        "multicpu",
        "--out",
        dir.to_str().expect("a UTF-8 temp dir"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for file in [
        "multicpu.csv",
        "multicpu.svg",
        "summary.json",
        "index.html",
        "timing.txt",
    ] {
        assert!(dir.join("kokkinos2009").join(file).is_file(), "{file}");
    }
    // The index of every paper's verdicts links to each paper's page.
    let index = std::fs::read_to_string(dir.join("index.html")).expect("the index");
    assert!(
        index.contains("<a href=\"kokkinos2009/index.html\">kokkinos2009</a>"),
        "{index}"
    );
    assert!(
        index
            .contains("With multi-CPU resources the GS users (U1, U2, U3) still miss no deadline."),
        "{index}"
    );
    let page = std::fs::read_to_string(dir.join("kokkinos2009/index.html")).expect("the page");
    assert!(page.contains("<figure id=\"multicpu\">\n<svg"), "{page}");
    std::fs::remove_dir_all(&dir).expect("removing the output");
}

#[test]
fn unknown_papers_and_parts_are_named_with_what_exists() {
    let o = qosgate(&["reproduce", "nope"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("unknown paper \"nope\": the papers are kokkinos2009"),
        "{}",
        stderr(&o)
    );
    let o = qosgate(&["reproduce", "kokkinos2009", "--only", "fig99"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains(
            "--only fig99: kokkinos2009 has no part or figure fig99; it has: claim1 (fig4)"
        ),
        "{}",
        stderr(&o)
    );
    let o = qosgate(&["reproduce", "all", "--only", "fig99"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("no paper has such a part"),
        "{}",
        stderr(&o)
    );
    let o = qosgate(&["reproduce"]);
    assert!(!o.status.success(), "a paper or --list is required");
}
