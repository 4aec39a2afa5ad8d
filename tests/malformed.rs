//! The corpus of malformed and extreme inputs, through the `qosgate` binary: every case
//! of `tests/data/malformed/cases.tsv` (its arguments, the exit code and a fragment of what it
//! must print) against the inputs beside it. A case fixed once stays fixed.

use std::path::Path;

use qosgate_testkit::cli::{run, stderr, stdout};

/// One line of `cases.tsv`.
struct Case {
    args: Vec<String>,
    code: i32,
    fragment: String,
}

/// The cases, with `{dir}` replaced by the corpus's directory.
fn cases(dir: &Path) -> Vec<Case> {
    let table = std::fs::read_to_string(dir.join("cases.tsv")).expect("the corpus's table");
    table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 3, "args<TAB>code<TAB>fragment: {l}");
            let dir = dir.display().to_string();
            Case {
                args: cols[0]
                    .split(' ')
                    .map(|a| a.replace("{dir}", &dir))
                    .collect(),
                code: cols[1].parse().expect("an exit code"),
                fragment: cols[2].replace("{dir}", &dir),
            }
        })
        .collect()
}

#[test]
fn every_malformed_input_gets_its_exit_code_and_message() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/malformed");
    let cases = cases(&dir);
    assert!(cases.len() >= 40, "the corpus is all there");
    let before = listing(&dir);
    let mut wrong = Vec::new();
    for case in &cases {
        let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
        let o = run(env!("CARGO_BIN_EXE_qosgate-e2e"), &args);
        let text = format!("{}{}", stdout(&o), stderr(&o));
        let code = o.status.code();
        if code != Some(case.code) || !text.contains(&case.fragment) {
            wrong.push(format!(
                "qosgate {}: exit {code:?} (want {}), output without `{}`:\n{text}",
                args.join(" "),
                case.code,
                case.fragment
            ));
        }
        // Never a panic, whatever the input.
        assert!(!text.contains("panicked"), "{}: {text}", args.join(" "));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // A refused output path leaves nothing behind: no folder created, no temporary sibling.
    assert_eq!(listing(&dir), before, "the corpus's directory is as it was");
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the corpus's directory")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}
