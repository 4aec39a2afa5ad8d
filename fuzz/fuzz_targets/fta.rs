//! The FTA failure-trace reader: arbitrary bytes (after a few bytes that pick the window) are an
//! error or a trace, never a panic. Every `Ok` trace keeps the invariants documented in
//! `qosgate_harness::workload::fta` (`qosgate_testkit::failures::trace`); strict and
//! skip-invalid agree (a trace strict mode accepts reads the same under skip-invalid, a line it
//! rejects is counted there); and the window of a trace, at an offset, horizon and cluster size
//! taken from the first bytes, keeps the replay's invariants (`qosgate_testkit::failures::events`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use qosgate_harness::workload::fta::{ErrorKind, Options, Trace, read};

/// The reader's invariants, and the window's.
fn check(t: &Trace, opts: &Options, window: (u32, u64, u64)) {
    qosgate_testkit::failures::trace(t, opts).unwrap();
    let (nodes, offset, horizon) = window;
    let events = t.window(nodes, offset, horizon);
    qosgate_testkit::failures::events(&events, nodes, horizon).unwrap();
}

fuzz_target!(|data: &[u8]| {
    let (head, text) = data.split_at(data.len().min(5));
    let byte = |i: usize| u64::from(head.get(i).copied().unwrap_or(0));
    // At most 16 nodes, offsets up to 65,535 s, horizons up to 4,096 s: the window's cost is
    // one pass per wrap, so a one-second span and a long horizon stay cheap enough.
    let window = (
        (byte(0) % 16) as u32 + 1,
        byte(1) << 8 | byte(2),
        ((byte(3) << 8 | byte(4)) % 4096) + 1,
    );
    let strict = Options {
        skip_invalid: false,
    };
    let lenient = Options { skip_invalid: true };
    match (read(text, &strict), read(text, &lenient)) {
        (Ok(a), Ok(b)) => {
            check(&a, &strict, window);
            check(&b, &lenient, window);
            assert_eq!(a, b, "strict and skip-invalid differ on a valid trace");
        }
        (Ok(_), Err(e)) => panic!("strict accepts, skip-invalid rejects: {e}"),
        (Err(e), Ok(b)) => {
            check(&b, &lenient, window);
            assert!(
                e.line.is_some(),
                "a whole-input error only in strict mode: {e}"
            );
            assert!(b.invalid.total() >= 1, "{e}: counted nothing");
        }
        (Err(a), Err(b)) => {
            assert!(
                matches!(b.kind, ErrorKind::NoEvents | ErrorKind::Io { .. }),
                "{b}"
            );
            let _ = a.to_string();
        }
    }
});
