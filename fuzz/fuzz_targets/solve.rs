//! The JSON inputs of `qosgate solve pap|broker`: arbitrary bytes (the first selects the
//! problem) into `gateway::solve::parse_input`, then the solver. An error or an answer, never a
//! panic; a reading error is located (`fuzz.json:line:column: ...`), and a solver's error names
//! the input it is about (a cluster, a provider, a rate: never an empty message).
#![no_main]

use libfuzzer_sys::fuzz_target;
use qosgate_harness::gateway::solve::{
    BrokerInput, PapInput, parse_input, solve_broker, solve_pap,
};

const ORIGIN: &str = "fuzz.json";

fn located(msg: String) {
    assert!(
        msg.starts_with("fuzz.json:"),
        "a reading error not located: {msg}"
    );
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, json)) = data.split_first() else {
        return;
    };
    if which % 2 == 0 {
        match parse_input::<PapInput>(json, ORIGIN) {
            Ok(input) => {
                if let Err(e) = solve_pap(&input) {
                    assert!(!e.to_string().is_empty());
                }
            }
            Err(e) => located(e.to_string()),
        }
    } else {
        match parse_input::<BrokerInput>(json, ORIGIN) {
            Ok(input) => {
                if let Err(e) = solve_broker(&input) {
                    assert!(!e.to_string().is_empty());
                }
            }
            Err(e) => located(e.to_string()),
        }
    }
});
