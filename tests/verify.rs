//! `qosgate verify`: the GS tasks' delays against bounds recomputed independently of the
//! kernel's bound code (`qosgate_harness::models::grid::verify`).
//!
//! - The independent bound equals the kernel's on every grid preset (the records'
//!   `resource_bound`), and no preset task exceeds it: `qosgate verify --preset all` passes.
//! - A small batch of generated adversarial scenarios passes.
//! - A record doctored 1 µs past its bound is a violation naming the task, in the library and
//!   through the binary (`--events`, exit status 1).
//! - One user at rate = capacity, WFQ and SCFQ: 10,000 tasks within the bound.

use std::process::Output;

use qosgate_harness::config::Header;
use qosgate_harness::des::time::{secs, ticks};
use qosgate_harness::models::ScenarioFile;
use qosgate_harness::models::grid::random;
use qosgate_harness::models::grid::record::{TaskClass, TaskRecord};
use qosgate_harness::models::grid::scenario::{
    self, Discipline, Knowledge, Meta, MetaOrder, Network, ResourceConfig, ResourceKind, Scenario,
    UserClass, UserConfig,
};
use qosgate_harness::models::grid::simulate_into;
use qosgate_harness::models::grid::verify::{self, Finding};
use qosgate_harness::workload::dist::Dist;
use qosgate_kernel::units::Ticks;
use qosgate_testkit::cli::{run, scratch, stderr, stdout};

fn qosgate(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_qosgate-e2e"), args)
}

/// One GS user on one CPU of 780,000 MIPS at rho = the capacity: 1,000 MI every ms (more than
/// the capacity, so the bucket holds it to rho), sigma 2,000 MI, 10 s.
fn at_capacity(discipline: Discipline) -> Scenario {
    Scenario {
        header: Header {
            name: format!("at-capacity-{discipline:?}").to_lowercase(),
            description: "one user at rho = C".into(),
            seed: 5,
            replications: 1,
        },
        horizon_s: 10.0,
        warmup_s: 0.0,
        meta: Meta {
            order: MetaOrder::Edf,
            collection_period_s: 1.0,
        },
        network: Network {
            bandwidth_bps: 1e9,
            input_bytes: 1000,
            output_bytes: 1000,
        },
        resources: vec![ResourceConfig {
            name: "R1".into(),
            kind: ResourceKind::Gs,
            discipline,
            cpus: vec![780_000],
            max_task_mi: 1_000,
            max_users: 1,
        }],
        users: vec![UserConfig {
            name: "U1".into(),
            class: UserClass::Gs,
            weight: 1,
            rho_mips: Some(780_000),
            sigma_mi: Some(2_000),
            max_task_mi: Some(1_000),
            knowledge: Some(Knowledge::Exact),
            oversize: None,
            queue_entries: None,
            workload: Dist::Fixed(1_000.0),
            interarrival: Dist::Fixed(0.001),
            phase_s: None,
            deadline_s: 1e6,
        }],
    }
}

#[test]
fn every_grid_preset_verifies_and_its_bounds_equal_the_kernels() {
    let o = qosgate(&["verify", "--preset", "all"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}\n{}", stderr(&o));
    for preset in [
        "kokkinos2009-gb",
        "kokkinos2009-gbe",
        "kokkinos2009-gbp-multi",
    ] {
        assert!(out.contains(preset), "{out}");
    }
    let total = out.lines().last().unwrap();
    assert!(
        total.contains(" 0 violation(s), 0 bound mismatch(es)"),
        "{out}"
    );
    // Bounds were compared and tasks checked: the presets' GS users have guarantees.
    let checked: u64 = total
        .split(" GS tasks checked")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{total}"));
    assert!(checked > 1_000, "{out}");
    // Options that do not go together are refused.
    for bad in [
        &["verify"][..],
        &["verify", "--preset", "all", "--seed", "3"],
        &["verify", "--preset", "all", "--random", "2"],
        &["verify", "--preset", "all", "--events", "e.jsonl"],
        &["verify", "--random", "2", "--replications", "0"],
    ] {
        let o = qosgate(bad);
        assert!(!o.status.success(), "{bad:?} passed");
        assert!(!stderr(&o).is_empty(), "{bad:?}");
    }
    // A preset of another model is refused, naming the grid presets.
    let o = qosgate(&["verify", "--preset", "javadi2012-cb-nor"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("kokkinos2009-gb"), "{}", stderr(&o));
}

#[test]
fn a_small_random_batch_verifies() {
    let mut checked = 0;
    for i in 0..6 {
        let s = random::scenario(11, i);
        s.validate().unwrap();
        let v = verify::verify(&s, 1).unwrap_or_else(|e| {
            panic!("{e:#}\n{}", scenario::to_toml(&s));
        });
        assert!(v.passed(), "{:?}\n{}", v.findings, scenario::to_toml(&s));
        assert!(v.compared >= v.checked);
        checked += v.checked;
    }
    assert!(checked > 0, "the batch checked no task");
    // The binary agrees on a batch of its own.
    let o = qosgate(&["verify", "--random", "3", "--seed", "4"]);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("random-4-2"), "{}", stdout(&o));
}

/// Replication 0's records, with the registrations.
fn records(s: &Scenario) -> (Vec<TaskRecord>, Vec<(String, String)>) {
    let mut records = Vec::new();
    let mut sink = |r: &TaskRecord| -> anyhow::Result<()> {
        records.push(r.clone());
        Ok(())
    };
    let run = simulate_into(s, 0, Some(&mut sink)).unwrap();
    (records, run.registrations)
}

#[test]
fn a_record_one_tick_past_its_bound_is_a_violation_naming_the_task() {
    let s = at_capacity(Discipline::Scfq);
    let (mut recs, regs) = records(&s);
    let clean = verify::check_records(&s, &regs, recs.iter().map(|r| (0, r))).unwrap();
    assert!(clean.passed(), "{:?}", clean.findings);
    // Push a task in the middle 1 µs past its bound.
    let i = recs
        .iter()
        .position(|r| r.handled_as == TaskClass::Gs && r.task == 5_000)
        .unwrap();
    let (arrived, bound) = (recs[i].arrived.unwrap(), recs[i].resource_bound.unwrap());
    let late = ticks(arrived).get() + ticks(bound).get() + 1;
    recs[i].finished = Some(secs(Ticks::new(late)));
    let v = verify::check_records(&s, &regs, recs.iter().map(|r| (0, r))).unwrap();
    assert_eq!((v.violations, v.mismatches), (1, 0));
    let first = v.first_violation.clone().unwrap();
    let Finding::Violation {
        replication,
        task,
        ref user,
        ref resource,
        arrived: a,
        finished,
        bound: b,
    } = first
    else {
        panic!("{first:?}")
    };
    assert_eq!((replication, task), (0, 5_000));
    assert_eq!((user.as_str(), resource.as_str()), ("U1", "R1"));
    assert_eq!(finished - a, b + 1);
    let text = first.to_string();
    assert!(text.contains("task 5000 of U1 at R1"), "{text}");
    assert!(text.contains("over by 1 µs"), "{text}");
    // A recorded bound 1 µs off is a mismatch too (the delay is still checked against the
    // recomputed bound).
    recs[i].resource_bound = Some(secs(Ticks::new(ticks(bound).get() - 1)));
    let v = verify::check_records(&s, &regs, recs.iter().map(|r| (0, r))).unwrap();
    assert_eq!((v.violations, v.mismatches), (1, 1), "{:?}", v.findings);

    // Through the binary: the run's events, doctored, fail `qosgate verify FILE --events`.
    let dir = scratch("doctored");
    let file = dir.join("s.toml");
    std::fs::write(&file, scenario::to_toml(&s)).unwrap();
    let events = dir.join("events.jsonl");
    let (f, e) = (file.to_str().unwrap(), events.to_str().unwrap());
    let o = qosgate(&["run", f, "--events", e]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = qosgate(&["verify", f, "--events", e]);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    let text = std::fs::read_to_string(&events).unwrap();
    let doctored: Vec<String> = text
        .lines()
        .map(|line| {
            let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
            if v["task"] == 5_000 {
                let a = ticks(v["at_resource"].as_f64().unwrap()).get();
                let b = ticks(v["resource_bound_s"].as_f64().unwrap()).get();
                v["end"] = serde_json::json!(secs(Ticks::new(a + b + 1)));
            }
            v.to_string()
        })
        .collect();
    std::fs::write(&events, doctored.join("\n")).unwrap();
    let o = qosgate(&["verify", f, "--events", e]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("guarantee violated"), "{err}");
    assert!(
        err.contains("replication 0, task 5000 of U1 at R1"),
        "{err}"
    );
    assert!(stdout(&o).contains("FIRST VIOLATION"), "{}", stdout(&o));
    // The file alone (simulated) passes.
    let o = qosgate(&["verify", f]);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_user_at_the_whole_capacity_stays_within_its_bound() {
    for (d, bound) in [(Discipline::Scfq, 3_848), (Discipline::Wfq, 5_131)] {
        let s = at_capacity(d);
        s.validate().unwrap();
        let v = verify::verify(&s, 1).unwrap();
        assert!(v.passed(), "{d:?}: {:?}", v.findings);
        assert_eq!(v.checked, 10_000, "{d:?}");
        assert_eq!(v.users.len(), 1);
        // ceil(2000 / 0.78) + ceil(1000 / 0.78) µs, and WFQ's ceil(1000 / 0.78) for I_r.
        assert_eq!(v.users[0].bound.bound, Ok(bound), "{d:?}");
        let worst = v.users[0].worst.unwrap();
        assert!(worst.delay <= worst.bound, "{d:?}: {worst:?}");
    }
}
