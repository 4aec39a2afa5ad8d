//! Scenario files: arbitrary bytes into the TOML reader (`qosgate run FILE`), as the command
//! line reads them: first as UTF-8 (`config::utf8`), then by the model the `model` key names
//! (`models::parse`). An error or a scenario, never a panic; every error is located (its first
//! line starts with the file's name). A grid scenario that reads writes back (`to_toml`) to a
//! file that reads as the same scenario, and its size checks (`check_size`) never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qosgate_harness::config;
use qosgate_harness::models::grid::scenario::{self, Scenario};
use qosgate_harness::models::{self, ScenarioFile};

const ORIGIN: &str = "fuzz.toml";

fuzz_target!(|data: &[u8]| {
    let text = match config::utf8(data, ORIGIN) {
        Ok(text) => text,
        Err(e) => {
            assert!(e.to_string().starts_with("fuzz.toml:"), "{e}");
            return;
        }
    };
    match models::parse(text, ORIGIN) {
        Ok(s) => {
            let again = models::parse(&s.to_toml(), "again.toml").expect("to_toml reads back");
            assert_eq!(again.to_toml(), s.to_toml(), "to_toml is a fixed point");
        }
        Err(e) => {
            let msg = format!("{e:#}");
            assert!(msg.starts_with("fuzz.toml"), "an error not located: {msg}");
        }
    }
    // The grid's own reader: a scenario that reads is one `to_toml` writes back exactly.
    if let Ok(s) = Scenario::parse(text, ORIGIN) {
        let back = Scenario::parse(&scenario::to_toml(&s), "back.toml").expect("reads back");
        assert_eq!(back, s, "the round trip changed the scenario");
        for n in [0, 1, s.header.replications, u32::MAX] {
            let _ = scenario::check_size(&s, n, "--replications");
        }
        let _ = scenario::expected_tasks(&s);
    }
});
