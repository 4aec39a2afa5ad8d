//! Run files (`qosgate reproduce --runs`, read back by `--from`). Two kinds of input:
//!
//! - arbitrary bytes into the reader (`qosgate_harness::experiments::runfile::read_from`): an
//!   error, or runs whose origins count up from `name:1` and whose checks match;
//! - a run line as qosgate writes it, from generated fields, then one byte of it replaced: the
//!   line as written reads back field for field, and the edited line is either refused or read
//!   with the variant, replication, seed, events and metrics it was written with. An edit of the
//!   wall time, or of a field the merge checks instead (paper, version, shard, scenario), may be
//!   read; an edit of what the check covers never is (FNV-1a tells apart any two texts that
//!   differ in one byte).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qosgate_harness::experiments::runfile::{Line, Replications, StoredRun, check, read_from};
use qosgate_harness::experiments::shard::Shard;
use serde_json::value::RawValue;

#[derive(Debug, Arbitrary)]
enum Input {
    Bytes(Vec<u8>),
    Edited {
        variant: String,
        replication: u32,
        seed: u64,
        events: u64,
        wall_s: f64,
        metrics: Vec<(String, f64)>,
        at: u16,
        byte: u8,
    },
}

/// The fields a run's check covers, as read.
fn covered(run: &StoredRun) -> (String, u32, u64, u64, String) {
    let l = &run.line;
    let metrics = l.metrics.get().to_owned();
    (l.variant.clone(), l.replication, l.seed, l.events, metrics)
}

fn checked(runs: &[StoredRun]) {
    for (i, run) in runs.iter().enumerate() {
        assert!(run.origin.starts_with("fuzz:"), "{}", run.origin);
        assert!(i == 0 || run.origin != runs[i - 1].origin);
        let (variant, replication, seed, events, metrics) = covered(run);
        assert_eq!(
            run.line.check,
            check(&variant, replication, seed, events, &metrics)
        );
    }
}

fuzz_target!(|input: Input| match input {
    Input::Bytes(bytes) => {
        if let Ok(runs) = read_from(&bytes[..], "fuzz") {
            checked(&runs);
        }
    }
    Input::Edited {
        variant,
        replication,
        seed,
        events,
        wall_s,
        metrics,
        at,
        byte,
    } => {
        let metrics: serde_json::Map<String, serde_json::Value> = metrics
            .into_iter()
            .map(|(k, v)| (k, serde_json::json!(v)))
            .collect();
        let metrics = serde_json::to_string(&metrics).unwrap();
        let line = Line {
            check: check(&variant, replication, seed, events, &metrics),
            paper: "paper".to_owned(),
            qosgate: "0.0.0".to_owned(),
            replications: Replications {
                random: 2,
                fixed: 1,
            },
            shard: Shard::WHOLE,
            variant,
            scenario: "0".to_owned(),
            replication,
            seed,
            events,
            wall_s: if wall_s.is_finite() { wall_s } else { 0.0 },
            metrics: RawValue::from_string(metrics).unwrap(),
        };
        let text = serde_json::to_string(&line).unwrap();
        let runs = read_from(text.as_bytes(), "fuzz").unwrap();
        assert_eq!(runs.len(), 1);
        checked(&runs);
        let written = covered(&runs[0]);
        let mut edited = text.into_bytes();
        let i = usize::from(at) % edited.len();
        edited[i] = byte;
        if let Ok(runs) = read_from(&edited[..], "fuzz") {
            checked(&runs);
            assert_eq!(runs.len(), 1, "one line edited, one run");
            assert_eq!(covered(&runs[0]), written, "an edit got through the check");
        }
    }
});
