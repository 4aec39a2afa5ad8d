//! The SWF reader: arbitrary bytes (with a machine-size override and the mode from the first three
//! bytes) are an error or a valid trace, never a panic. Every `Ok` trace satisfies the invariants
//! documented in `qosgate_harness::workload::swf` (`qosgate_testkit::swf`): `1 <= procs <= machine_procs`,
//! `1 <= run <= estimate <= MAX_TIME`, `submit <= MAX_TIME`, jobs sorted by `(submit, id)`, every
//! data line accounted for (kept, skipped or invalid), no invalid lines in strict mode. The two
//! modes agree: a trace strict mode accepts reads identically under `skip_invalid`, and a line
//! strict mode rejects is counted as invalid there (or the machine size is missing). A trace
//! written back as a schedule (`qosgate_harness::workload::swf_schedule`) reads back, without
//! the machine-size override, as the same jobs on the same machine.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::HashMap;

use qosgate_harness::workload::swf::{ErrorKind, Options, Trace, read};
use qosgate_harness::workload::swf_schedule::{self, Filled, Schedule};

/// The reader's documented invariants (`qosgate_testkit::swf`), and a summary that never panics.
fn check(t: &Trace, opts: &Options) {
    qosgate_testkit::swf::trace(t, opts).unwrap();
    let _ = t.summary();
}

/// `t`, read from `text`, written back as a schedule (each job waiting its job number modulo
/// 7 seconds) and read again without an override: the same jobs on the same machine.
fn round_trip(text: &[u8], t: &Trace) {
    let jobs: HashMap<u64, Filled> = t
        .jobs
        .iter()
        .map(|&job| {
            (
                job.id,
                Filled {
                    job,
                    wait: job.id % 7,
                },
            )
        })
        .collect();
    let schedule = Schedule {
        machine_procs: t.machine_procs,
        note: "fuzz",
        jobs: &jobs,
    };
    let mut written = Vec::new();
    let filled = swf_schedule::write(text, &schedule, &mut written).unwrap();
    assert_eq!(filled, t.jobs.len(), "every job's line filled in");
    let lenient = Options {
        skip_invalid: true,
        machine_procs: None,
    };
    let again = read(&written[..], &lenient).unwrap();
    assert_eq!(again.machine_procs, t.machine_procs);
    assert_eq!(again.jobs, t.jobs);
}

fuzz_target!(|data: &[u8]| {
    let (head, text) = data.split_at(data.len().min(3));
    let flags = head.first().copied().unwrap_or(0);
    let machine_procs = (flags & 2 != 0 && head.len() == 3)
        .then(|| u32::from(u16::from_le_bytes([head[1], head[2]])));
    let strict = Options {
        skip_invalid: false,
        machine_procs,
    };
    let lenient = Options {
        skip_invalid: true,
        machine_procs,
    };
    let a = read(text, &strict);
    let b = read(text, &lenient);
    match (&a, &b) {
        (Ok(ta), Ok(tb)) => {
            check(ta, &strict);
            check(tb, &lenient);
            assert_eq!(ta, tb, "strict and skip_invalid differ on a valid trace");
            round_trip(text, tb);
        }
        (Ok(_), Err(e)) => panic!("strict accepts, skip_invalid rejects: {e}"),
        (Err(e), Ok(tb)) => {
            check(tb, &lenient);
            round_trip(text, tb);
            assert!(
                e.line.is_some(),
                "whole-input error only in strict mode: {e}"
            );
            assert!(tb.invalid.total() >= 1, "{e}: skipped nothing");
        }
        (Err(ea), Err(eb)) => {
            assert!(
                matches!(
                    eb.kind,
                    ErrorKind::NoMachineSize | ErrorKind::ZeroMachineSize | ErrorKind::LineTooLong
                ),
                "{eb}"
            );
            let _ = ea.to_string();
        }
    }
    if let Err(e) = &a {
        let _ = e.to_string();
    }
});
