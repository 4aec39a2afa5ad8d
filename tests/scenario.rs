//! Scenario files and presets: TOML round trips, located errors for malformed files,
//! `qosgate presets` and `qosgate run --dump`, and the distributions' sampling.

use std::process::Command;

use qosgate_harness::des::rng::SplitMix;
use qosgate_harness::experiments::Simulation;
use qosgate_harness::experiments::kokkinos2009::params::Layout;
use qosgate_harness::experiments::kokkinos2009::presets::{
    self, Arrivals, Spread, Table6, Variant, Workload,
};
use qosgate_harness::models::ScenarioFile;
use qosgate_harness::models::grid::scenario::{
    self, Dist, Knowledge, MetaOrder, Oversize, Scenario,
};
use qosgate_testkit::cli::scratch;

const QOSGATE: &str = env!("CARGO_BIN_EXE_qosgate-e2e");

/// The GBP preset as TOML: the base every malformed file below is edited from.
fn base() -> String {
    scenario::to_toml(&presets::get("kokkinos2009-gbp").unwrap())
}

/// `text` with the first occurrence of `from` replaced by `to` (which must exist).
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "`{from}` is not in the base file");
    text.replacen(from, to, 1)
}

/// `line:column` (from 1) of the first occurrence of `needle` in `text`, plus `skip` characters.
fn position(text: &str, needle: &str, skip: usize) -> String {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` not found"));
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |n| n + 1) + 1 + skip;
    format!("{line}:{column}")
}

/// The error `text` gives, asserting that it names `file:line:column: key`.
fn error_at(text: &str, line_column: &str, key: &str) -> String {
    let err = Scenario::parse(text, "bad.toml").expect_err("the file must be refused");
    let msg = format!("{err:#}");
    let want = format!("bad.toml:{line_column}: {key}: ");
    assert!(msg.contains(&want), "want `{want}` in:\n{msg}");
    msg
}

fn variants() -> Vec<Scenario> {
    let mut all: Vec<Scenario> = presets::names()
        .iter()
        .map(|n| presets::get(n).unwrap())
        .collect();
    for (spread, workload, knowledge, oversize) in [
        (
            Spread::Un5,
            Workload::Fixed,
            Knowledge::Exact,
            Oversize::BestEffort,
        ),
        (
            Spread::Un20,
            Workload::S0,
            Knowledge::Exact,
            Oversize::Admit,
        ),
        (
            Spread::Mixed,
            Workload::S0,
            Knowledge::ConservativeFeedback,
            Oversize::BestEffort,
        ),
        (
            Spread::Un50,
            Workload::S30,
            Knowledge::Window(10),
            Oversize::BestEffort,
        ),
        (
            Spread::Un20,
            Workload::S10,
            Knowledge::Aggressive,
            Oversize::BestEffort,
        ),
    ] {
        all.push(
            Variant {
                resources: Table6::Gbp,
                u4_interarrival_s: 55.0,
                gs_interarrival: spread,
                gs_workload: workload,
                knowledge,
                oversize,
                layout: Layout::Multi,
                order: MetaOrder::Wfq,
                sec644: false,
                arrivals: Arrivals::RandomPhase,
            }
            .scenario()
            .unwrap(),
        );
    }
    all
}

#[test]
fn every_preset_and_builder_variant_round_trips_through_toml() {
    for s in variants() {
        let text = scenario::to_toml(&s);
        let back =
            Scenario::parse(&text, &s.header.name).unwrap_or_else(|e| panic!("{e:#}\n{text}"));
        assert_eq!(back, s, "{text}");
    }
}

#[test]
fn a_scenario_file_loads_and_its_errors_carry_the_path() {
    let dir = scratch("scenario");
    let good = dir.join("gbp.toml");
    std::fs::write(&good, base()).unwrap();
    assert_eq!(
        scenario::load(&good).unwrap(),
        presets::get("kokkinos2009-gbp").unwrap()
    );
    let bad = dir.join("bad.toml");
    let text = edit(&base(), "replications = 1", "replications = 0");
    std::fs::write(&bad, &text).unwrap();
    let msg = format!("{:#}", scenario::load(&bad).unwrap_err());
    let want = format!(
        "{}:{}: replications: must be 1 to 10000, got 0",
        bad.display(),
        position(&text, "replications = 0", 15)
    );
    assert!(msg.contains(&want), "want `{want}` in {msg}");
    let missing = dir.join("missing.toml");
    let msg = format!("{:#}", scenario::load(&missing).unwrap_err());
    assert!(msg.contains("missing.toml"), "{msg}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unknown_key_is_named_at_its_position() {
    let text = edit(
        &base(),
        "collection_period_s = 1.0",
        "collection_period_s = 1.0\ncolour = \"red\"",
    );
    let msg = error_at(&text, &position(&text, "colour", 0), "meta.colour");
    assert!(msg.contains("unknown field `colour`"), "{msg}");
}

#[test]
fn negative_or_zero_capacity_is_refused() {
    let text = edit(&base(), "cpus = [780000]", "cpus = [-780000]");
    error_at(
        &text,
        &position(&text, "-780000", 0),
        "resources[0].cpus[0]",
    );
    let text = edit(&base(), "cpus = [520000]", "cpus = [520000, 0]");
    let msg = error_at(
        &text,
        &position(&text, "520000, 0", 8),
        "resources[1].cpus[1]",
    );
    assert!(msg.contains("0 MIPS"), "{msg}");
    let text = edit(
        &base(),
        "bandwidth_bps = 1000000000.0",
        "bandwidth_bps = -inf",
    );
    error_at(&text, &position(&text, "-inf", 0), "network.bandwidth_bps");
}

#[test]
fn empty_cpus_users_and_resources_are_refused() {
    let text = edit(&base(), "cpus = [260000]", "cpus = []");
    let msg = error_at(&text, &position(&text, "[]", 0), "resources[2].cpus");
    assert!(msg.contains("at least one CPU"), "{msg}");
    // No user at all: the [[users]] tables replaced by an empty array.
    let cut = base().find("[[users]]").unwrap();
    let text = edit(&base()[..cut], "[meta]", "users = []\n\n[meta]");
    let msg = error_at(&text, &position(&text, "[]", 0), "users");
    assert!(msg.contains("at least one user"), "{msg}");
    // No [[users]] and no `users`: a missing key, reported at the document's start.
    let msg = format!(
        "{:#}",
        Scenario::parse(&base()[..cut], "bad.toml").unwrap_err()
    );
    assert!(msg.contains("bad.toml:1:1: missing field `users`"), "{msg}");
}

#[test]
fn zero_replications_and_impossible_times_are_refused() {
    let text = edit(&base(), "replications = 1", "replications = 0");
    error_at(
        &text,
        &position(&text, "replications = 0", 15),
        "replications",
    );
    let text = edit(&base(), "horizon_s = 200000.0", "horizon_s = nan");
    error_at(&text, &position(&text, "nan", 0), "horizon_s");
    let text = edit(&base(), "warmup_s = 0.0", "warmup_s = 200000.0");
    let msg = error_at(&text, &position(&text, "warmup_s = ", 11), "warmup_s");
    assert!(msg.contains("less than horizon_s"), "{msg}");
    let text = edit(&base(), "deadline_s = 4145.166678", "deadline_s = 0");
    error_at(
        &text,
        &position(&text, "deadline_s = 0", 13),
        "users[0].deadline_s",
    );
}

#[test]
fn a_uniform_with_min_above_max_is_refused() {
    let text = edit(
        &base(),
        "interarrival = { fixed = 3278.0 }",
        "interarrival = { uniform = { min = 4000.0, max = 3000.0 } }",
    );
    let msg = error_at(
        &text,
        &position(&text, "4000.0", 0),
        "users[1].interarrival.uniform.min",
    );
    assert!(msg.contains("greater than max"), "{msg}");
}

#[test]
fn an_empty_workload_is_refused() {
    let text = edit(
        &base(),
        "workload = { fixed = 71383000.0 }",
        "workload = { uniform = { min = 0.0, max = 0.0 } }",
    );
    let msg = error_at(
        &text,
        &position(&text, "max = 0.0", 6),
        "users[1].workload.uniform.max",
    );
    assert!(msg.contains("no positive value"), "{msg}");
    let text = edit(
        &base(),
        "workload = { fixed = 419900.0 }",
        "workload = { exponential = { mean = 0.0 } }",
    );
    error_at(
        &text,
        &position(&text, "mean = 0.0", 7),
        "users[2].workload.exponential.mean",
    );
}

#[test]
fn a_gs_user_without_rho_and_a_be_user_with_one_are_refused() {
    let text = edit(&base(), "rho_mips = 768473", "");
    let msg = error_at(&text, &position(&text, "[[users]]", 0), "users[0].rho_mips");
    assert!(msg.contains("required for a GS user"), "{msg}");
    let text = edit(
        &base(),
        "name = \"U4\"\nclass = \"be\"",
        "name = \"U4\"\nclass = \"be\"\nsigma_mi = 5",
    );
    let msg = error_at(
        &text,
        &position(&text, "sigma_mi = 5", 11),
        "users[3].sigma_mi",
    );
    assert!(msg.contains("only a GS user"), "{msg}");
}

#[test]
fn zero_rho_sigma_or_weight_and_unregistrable_users_are_refused() {
    let text = edit(&base(), "rho_mips = 21773", "rho_mips = 0");
    error_at(
        &text,
        &position(&text, "rho_mips = 0", 11),
        "users[1].rho_mips",
    );
    let text = edit(&base(), "sigma_mi = 2099500 ", "sigma_mi = 0      ");
    error_at(
        &text,
        &position(&text, "sigma_mi = 0", 11),
        "users[2].sigma_mi",
    );
    let text = edit(&base(), "weight = 1", "weight = 0");
    error_at(&text, &position(&text, "weight = 0", 9), "users[0].weight");
    // U1 asks for more than any resource's capacity (Eq. 1) ...
    let text = edit(&base(), "rho_mips = 768473", "rho_mips = 900000");
    let msg = error_at(
        &text,
        &position(&text, "rho_mips = 900000", 11),
        "users[0].rho_mips",
    );
    assert!(msg.contains("Eq. 1"), "{msg}");
    // ... or for tasks larger than any resource takes (Eq. 2).
    let text = edit(&base(), "max_task_mi = 71383000", "max_task_mi = 500000000");
    let msg = error_at(
        &text,
        &position(&text, "max_task_mi = 500000000", 14),
        "users[1].max_task_mi",
    );
    assert!(msg.contains("Eq. 2"), "{msg}");
}

#[test]
fn duplicate_names_type_errors_and_syntax_errors_are_located() {
    let text = edit(&base(), "name = \"R2\"", "name = \"R1\" # again");
    let msg = error_at(
        &text,
        &position(&text, "\"R1\" # again", 0),
        "resources[1].name",
    );
    assert!(msg.contains("also the name of resources[0]"), "{msg}");
    let text = edit(&base(), "kind = \"be\"", "kind = \"fcfs\"");
    let msg = error_at(&text, &position(&text, "\"fcfs\"", 0), "resources[2].kind");
    assert!(msg.contains("unknown variant `fcfs`"), "{msg}");
    let text = edit(&base(), "seed = 2009", "seed = \"x\"");
    error_at(&text, &position(&text, "\"x\"", 0), "seed");
    let text = edit(&base(), "seed = 2009", "seed = = 2009");
    let msg = format!("{:#}", Scenario::parse(&text, "bad.toml").unwrap_err());
    assert!(
        msg.starts_with(&format!("bad.toml:{}: ", position(&text, "= 2009", 0))),
        "{msg}"
    );
}

#[test]
fn an_unknown_preset_lists_the_presets() {
    let msg = format!("{:#}", presets::get("kokkinos2009-gbx").unwrap_err());
    assert!(msg.contains("unknown preset `kokkinos2009-gbx`"), "{msg}");
    for name in presets::names() {
        assert!(msg.contains(name), "{msg}");
    }
}

#[test]
fn qosgate_presets_lists_the_table_6_scenarios() {
    let o = Command::new(QOSGATE).arg("presets").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    let listed: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    for name in [
        "kokkinos2009-gb",
        "kokkinos2009-gbe",
        "kokkinos2009-gbp",
        "kokkinos2009-be",
        "kokkinos2009-gbp-multi",
    ] {
        assert!(listed.contains(&name), "{name} missing from:\n{out}");
    }
    // Every paper's presets, one line each.
    let all = qosgate_harness::experiments::presets().unwrap();
    assert_eq!(listed.len(), all.len(), "{out}");
}

#[test]
fn run_dump_prints_a_file_that_parses_back_to_the_preset() {
    for name in presets::names() {
        let o = Command::new(QOSGATE)
            .args(["run", "--preset", name, "--dump"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8(o.stdout).unwrap();
        let back = Scenario::parse(&text, "dump.toml").unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(back, presets::get(name).unwrap());
    }
}

/// The mean of `n` draws, against the distribution's mean: within 4 standard errors (a fixed
/// seed, so the test is deterministic; the margin holds for any seed with probability > 0.9999).
#[test]
fn sampling_means_match_the_distributions() {
    let n = 200_000;
    for (d, sd) in [
        (Dist::Fixed(546.0), 0.0),
        (
            Dist::Uniform {
                min: 273.0,
                max: 655.2,
            },
            (655.2 - 273.0) / 12f64.sqrt(),
        ),
        (Dist::Exponential { mean: 419_900.0 }, 419_900.0),
    ] {
        let mut rng = SplitMix(7);
        let draws: Vec<f64> = (0..n).map(|_| d.sample(&mut rng)).collect();
        assert!(draws.iter().all(|x| x.is_finite() && *x >= 0.0));
        let mean = draws.iter().sum::<f64>() / n as f64;
        let tolerance = 4.0 * sd / (n as f64).sqrt() + 1e-9 * d.mean();
        assert!(
            (mean - d.mean()).abs() <= tolerance,
            "{d:?}: sample mean {mean}, mean {}",
            d.mean()
        );
        if let Dist::Uniform { min, max } = d {
            assert!(draws.iter().all(|x| (min..=max).contains(x)));
        }
    }
    assert_eq!(Dist::Uniform { min: 1.0, max: 3.0 }.mean(), 2.0);
}

#[test]
fn the_documented_example_parses() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/scenarios.md"))
        .unwrap();
    let start = doc.find("```toml\n").expect("a TOML example") + "```toml\n".len();
    let end = start + doc[start..].find("```").unwrap();
    let s = Scenario::parse(&doc[start..end], "docs/scenarios.md").unwrap();
    assert_eq!(s.users.len(), 3);
    assert_eq!(
        s.users[1].interarrival,
        Spread::Un20.around(presets::GS_INTERARRIVAL_S[1])
    );
}
