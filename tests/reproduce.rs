//! The metrics of kokkinos2009 Sec. 6.3 on hand-made task records (every value computed by hand in
//! the comments), the confidence intervals of a known sample, and `qosgate reproduce` end to end.

use qosgate_harness::config::Header;
use qosgate_harness::models::grid::metrics::Metrics;
use qosgate_harness::models::grid::record::{Outcome, TaskClass, TaskRecord};
use qosgate_harness::models::grid::scenario::{
    Discipline, Dist, Meta, MetaOrder, Network, ResourceConfig, ResourceKind, Scenario, UserClass,
    UserConfig,
};
use qosgate_harness::report::stats::Estimate;
use qosgate_testkit::cli::{run_ok, scratch};

/// R1: one 100 MIPS CPU; R2: one 50 MIPS CPU; R3: CPUs of 100 and 50 MIPS. U1 is GS, U4 BE.
/// Warm-up 1 s.
fn scenario() -> Scenario {
    let res = |name: &str, cpus: Vec<u64>| ResourceConfig {
        name: name.into(),
        kind: ResourceKind::GsBePriority,
        discipline: Discipline::Scfq,
        cpus,
        max_task_mi: 10_000,
        max_users: 8,
    };
    let user = |name: &str, class| UserConfig {
        class,
        ..UserConfig::best_effort(name, 1, Dist::Fixed(1000.0), Dist::Fixed(10.0), 20.0)
    };
    Scenario {
        header: Header::single("hand-made", 1),
        horizon_s: 10.0,
        warmup_s: 1.0,
        meta: Meta {
            order: MetaOrder::Edf,
            collection_period_s: 1.0,
        },
        network: Network {
            bandwidth_bps: 8000.0,
            input_bytes: 1000,
            output_bytes: 1000,
        },
        resources: vec![
            res("R1", vec![100]),
            res("R2", vec![50]),
            res("R3", vec![100, 50]),
        ],
        users: vec![user("U1", UserClass::Gs), user("U4", UserClass::Be)],
    }
}

/// A completed task: `(user, class, handled as, resource, created, started, finished, returned,
/// workload MI, deadline s)`.
#[allow(clippy::too_many_arguments)]
fn done(
    task: u64,
    user: &str,
    handled_as: TaskClass,
    resource: &str,
    times: [f64; 4],
    workload_mi: u64,
    deadline: f64,
) -> TaskRecord {
    let [created, started, finished, returned] = times;
    TaskRecord {
        task,
        user: user.into(),
        class: if user == "U1" {
            TaskClass::Gs
        } else {
            TaskClass::Be
        },
        handled_as,
        resource: Some(resource.into()),
        discipline: Some("scfq".into()),
        created,
        released: Some(created),
        arrived: Some(created),
        started: Some(started),
        finished: Some(finished),
        returned: Some(returned),
        workload_mi,
        deadline,
        planned_bound: None,
        resource_bound: None,
        hold: None,
        backlogged: false,
        outcome: Outcome::Completed,
        reason: None,
    }
}

/// A BE task of U4 that ended without running.
fn ended(task: u64, created: f64, resource: Option<&str>, outcome: Outcome) -> TaskRecord {
    TaskRecord {
        resource: resource.map(Into::into),
        released: None,
        arrived: None,
        started: None,
        finished: None,
        returned: None,
        outcome,
        reason: Some("refused".into()),
        ..done(task, "U4", TaskClass::Be, "-", [created; 4], 1000, 10.0)
    }
}

/// Seven tasks; t4 (created at 0.5 s, before the warm-up) is left out everywhere.
fn records() -> Vec<TaskRecord> {
    use TaskClass::{Be, Gs};
    vec![
        // U1, on time: delay 13 - 1 = 12 <= 20. Backlogged. Runs 10 s on R1.
        TaskRecord {
            backlogged: true,
            ..done(0, "U1", Gs, "R1", [1.0, 2.0, 12.0, 13.0], 1000, 20.0)
        },
        // U1 handled as BE: delay 31 - 5 = 26 > 20, late by 6/20 = 0.3. Runs 20 s on R2.
        done(1, "U1", Be, "R2", [5.0, 10.0, 30.0, 31.0], 1000, 20.0),
        // U4, preempted on R1: first start 12, end 40, but 500 MI / 100 MIPS = 5 s of execution.
        // Delay 41 - 2 = 39 > 10, late by 29/10 = 2.9.
        done(2, "U4", Be, "R1", [2.0, 12.0, 40.0, 41.0], 500, 10.0),
        // U4, failed at R2.
        ended(3, 3.0, Some("R2"), Outcome::Failed),
        // Before the warm-up: would add 99.4 s to R3 and a huge lateness.
        done(4, "U4", Be, "R3", [0.5, 0.6, 100.0, 101.0], 10_000, 10.0),
        // U4, rejected (no resource).
        ended(5, 4.0, None, Outcome::Rejected),
        // U4 on R3's fast CPU: 10 s (1000 MI / 50 MIPS = 20 s would be the slow CPU's); delay 11
        // s, deadline 100 s.
        done(6, "U4", Be, "R3", [6.0, 6.0, 16.0, 17.0], 1000, 100.0),
    ]
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9 * b.abs().max(1.0)
}

#[track_caller]
fn assert_close(got: Option<f64>, want: f64) {
    let got = got.expect("a value");
    assert!(close(got, want), "got {got}, want {want}");
}

#[test]
fn per_user_rates_count_only_tasks_created_after_the_warmup() {
    let m = Metrics::compute(&scenario(), &records());
    let u1 = &m.user("U1").unwrap().rates;
    assert_eq!(u1.tasks, 2);
    assert_close(u1.missed_pct, 50.0);
    assert_close(u1.failed_pct, 0.0);
    assert_close(u1.backlogged_pct, 50.0);
    assert_close(u1.handled_as_be_pct, 50.0);
    assert_close(u1.delay_mean_s, (12.0 + 26.0) / 2.0);

    // U4: t2 (late), t3 (failed), t5 (rejected), t6 (on time).
    let u4 = &m.user("U4").unwrap().rates;
    assert_eq!(u4.tasks, 4);
    assert_close(u4.missed_pct, 75.0);
    assert_close(u4.failed_pct, 25.0);
    assert_close(u4.rejected_pct, 25.0);
    assert_eq!(
        u4.backlogged_pct, None,
        "a BE user has no GS task to backlog"
    );
    assert_eq!(u4.handled_as_be_pct, None);
    assert_close(u4.delay_mean_s, (39.0 + 11.0) / 2.0);

    assert_eq!(m.gs, *u1);
    assert_eq!(m.be, *u4);
    assert_eq!(m.all.tasks, 6);
    assert_close(m.all.missed_pct, 100.0 * 4.0 / 6.0);
}

#[test]
fn a_computation_unit_carries_its_tasks_delay() {
    let m = Metrics::compute(&scenario(), &records());
    // U1: two 1000 MI tasks, delays 12 and 26: mean 19, sd 7.
    let u1 = &m.user("U1").unwrap().rates;
    assert_close(u1.mi_delay_mean_s, 19.0);
    assert_close(u1.mi_delay_sd_s, 7.0);
    // U4: 500 MI at 39 s and 1000 MI at 11 s: mean (19500 + 11000) / 1500.
    let u4 = &m.user("U4").unwrap().rates;
    let mean = 30_500.0 / 1500.0;
    assert_close(u4.mi_delay_mean_s, mean);
    let var =
        (500.0 * (39.0 - mean) * (39.0 - mean) + 1000.0 * (11.0 - mean) * (11.0 - mean)) / 1500.0;
    assert_close(u4.mi_delay_sd_s, var.sqrt());
    // All: 12000 + 26000 + 19500 + 11000 MI·s over 3500 MI.
    assert_close(m.all.mi_delay_mean_s, 68_500.0 / 3500.0);
}

#[test]
fn the_floor_runs_every_completed_task_alone_on_the_fastest_cpu() {
    let m = Metrics::compute(&scenario(), &records());
    // The fastest CPU does 100 MIPS; each way takes 1000 bytes x 8 / 8000 b/s = 1 s. The four
    // completed tasks counted: 1000, 1000, 500 and 1000 MI, so 12, 12, 7 and 12 s.
    let mean = (3.0 * 1000.0 * 12.0 + 500.0 * 7.0) / 3500.0;
    assert_close(m.mi_delay_floor_mean_s, mean);
    let var = (3.0 * 1000.0 * (12.0 - mean).powi(2) + 500.0 * (7.0 - mean).powi(2)) / 3500.0;
    assert_close(m.mi_delay_floor_sd_s, var.sqrt());
    // No schedule beats it.
    assert!(m.mi_delay_floor_mean_s.unwrap() <= m.all.mi_delay_mean_s.unwrap());
}

#[test]
fn resource_use_is_execution_time_without_preemption_pauses() {
    let m = Metrics::compute(&scenario(), &records());
    let busy: Vec<(u64, f64)> = m.resources.iter().map(|r| (r.tasks, r.busy_s)).collect();
    // R1: 10 s (t0) + 5 s (t2, not its 28 s from first start to end); R2: 20 s (t1; t3 never
    // ran); R3: 10 s (t6; t4 is before the warm-up).
    assert_eq!(busy, [(2, 15.0), (1, 20.0), (1, 10.0)]);
    // Population sd of 15, 20, 10: sqrt((0 + 25 + 25) / 3).
    assert!(close(m.resource_use_sd_s, (50.0f64 / 3.0).sqrt()));
}

#[test]
fn deadline_fairness_averages_relative_lateness_over_all_tasks() {
    let m = Metrics::compute(&scenario(), &records());
    // Late: t1 by 0.3, t2 by 2.9; N = 6 tasks created after the warm-up.
    assert!(close(m.deadline_fairness, (0.3 + 2.9) / 6.0));
    // No task late: 0.
    let on_time: Vec<TaskRecord> = records()
        .into_iter()
        .filter(|r| r.delay().is_some_and(|d| d <= r.deadline))
        .collect();
    assert_eq!(
        Metrics::compute(&scenario(), &on_time).deadline_fairness,
        0.0
    );
}

#[test]
fn a_user_without_tasks_has_no_rates() {
    let m = Metrics::compute(&scenario(), &[]);
    let u1 = &m.user("U1").unwrap().rates;
    assert_eq!(u1.tasks, 0);
    assert_eq!(u1.missed_pct, None);
    assert_eq!(u1.mi_delay_mean_s, None);
    assert_eq!(m.deadline_fairness, 0.0);
    assert_eq!(m.resource_use_sd_s, 0.0);
}

#[test]
fn confidence_interval_of_a_known_sample() {
    // 1..5: mean 3, s = sqrt(2.5), t(0.975, 4) = 2.776: 2.776 · sqrt(2.5 / 5).
    let e = Estimate::of(&[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
    assert_eq!(e.n, 5);
    assert!(close(e.mean, 3.0));
    assert!(close(e.half_width.unwrap(), 2.776 * 0.5f64.sqrt()));
    // Identical replications (a deterministic scenario): an interval of width 0.
    assert_eq!(Estimate::of(&[7.0; 3]).unwrap().half_width, Some(0.0));
    // One replication: no interval at all; none: no estimate.
    assert_eq!(Estimate::of(&[7.0]).unwrap().half_width, None);
    assert_eq!(Estimate::of(&[]), None);
}

/// The (id, kind, outcome) of every statement of a reproduction's summary.json, in its order.
fn statements_of(summary: &serde_json::Value) -> Vec<[String; 3]> {
    summary["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["statements"].as_array().unwrap())
        .map(|v| ["id", "kind", "outcome"].map(|k| v[k].as_str().expect(k).to_owned()))
        .collect()
}

/// Runs `qosgate reproduce kokkinos2009 --replications N --out DIR` into a fresh directory of
/// its own; returns the directory and the printed report.
fn reproduce(replications: u32) -> (std::path::PathBuf, String) {
    let dir = scratch(&format!("reproduce-{replications}"));
    let n = replications.to_string();
    let out = dir.to_str().expect("a UTF-8 path");
    let report = run_ok(
        env!("CARGO_BIN_EXE_qosgate-e2e"),
        &[
            "reproduce",
            "kokkinos2009",
            "--replications",
            &n,
            "--out",
            out,
        ],
    );
    (dir, report)
}

/// Every figure and table of Sec. 6.4 reproduced through the binary with one replication each:
/// a CSV that parses, with one row per (group, series) of the figure in summary.json, an SVG,
/// and every statement, printed and on the page as summary.json records it (its outcomes at
/// the defaults are pinned by `tests/outcomes.rs`).
#[test]
fn reproduce_writes_a_csv_and_an_svg_per_figure_and_every_statement() {
    let (dir, stdout) = reproduce(1);

    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    // Each variant's key is the object of its named parameters (docs/outputs.md), not text.
    let keys = summary["variant_keys"].as_array().unwrap();
    assert_eq!(keys.len() as u64, summary["variants"].as_u64().unwrap());
    assert!(keys.iter().all(|k| k.is_object()), "{keys:?}");
    let sections = summary["sections"].as_array().unwrap();
    assert_eq!(sections.len(), 6, "claims 1-5 and the multi-CPU check");
    let mut ids = Vec::new();
    let statements = statements_of(&summary);
    for section in sections {
        assert!(!section["statements"].as_array().unwrap().is_empty());
        for fig in section["figures"].as_array().unwrap() {
            let id = fig["id"].as_str().unwrap().to_owned();
            let groups = fig["groups"].as_array().unwrap().len();
            let series = fig["series"].as_array().unwrap().len();
            let csv = std::fs::read_to_string(dir.join(format!("{id}.csv"))).unwrap();
            let mut lines = csv.lines();
            assert_eq!(lines.next(), Some("group,series,mean,half_width,n"));
            let rows: Vec<Vec<String>> = lines.map(csv_fields).collect();
            assert_eq!(rows.len(), groups * series, "{id}.csv");
            for row in &rows {
                assert_eq!(row.len(), 5, "{id}.csv: {row:?}");
                let n: usize = row[4].parse().unwrap();
                assert!(n <= 1, "{id}.csv: one replication: {row:?}");
                if n == 1 {
                    assert!(
                        row[2].parse::<f64>().unwrap().is_finite(),
                        "{id}.csv: {row:?}"
                    );
                    assert_eq!(row[3], "", "no interval from one replication");
                }
            }
            let svg = std::fs::read_to_string(dir.join(format!("{id}.svg"))).unwrap();
            assert!(
                svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
                "{id}.svg"
            );
            ids.push(id);
        }
    }
    for id in [
        "fig4", "fig5", "fig6", "fig7", "fig8", "fig9", "fig10", "fig11", "table8", "fig12",
        "multicpu",
    ] {
        assert!(ids.iter().any(|i| i == id), "{id} missing");
    }
    // The page draws every figure inline and names every statement.
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    for id in &ids {
        assert!(
            page.contains(&format!("<figure id=\"{id}\">\n<svg")),
            "{id}"
        );
    }
    for [id, kind, _] in &statements {
        assert!(
            page.contains(&format!("<code>{id}</code> ({kind})")),
            "{id}"
        );
    }
    // The printed outcomes are summary.json's, in its order.
    let printed: Vec<[String; 3]> = stdout
        .lines()
        .filter_map(|l| {
            let (outcome, rest) = l.strip_prefix('[')?.split_once("] ")?;
            let (id, kind) = rest.split_once(" (")?;
            Some([id, kind.strip_suffix(')')?, &outcome.to_lowercase()].map(str::to_owned))
        })
        .collect();
    assert_eq!(printed, statements, "{stdout}");
    let count = |kind: &str, outcome: &str| {
        statements
            .iter()
            .filter(|s| s[1] == kind && s[2] == outcome)
            .count()
    };
    let claims = statements.iter().filter(|s| s[1] == "claim").count();
    let checks = statements.len() - claims;
    let headline = format!(
        "{} reproduced, {} contradicted, {} inconclusive of {claims} claims; {} of {checks} \
         checks pass.",
        count("claim", "reproduced"),
        count("claim", "contradicted"),
        count("claim", "inconclusive"),
        count("check", "passed"),
    );
    assert!(stdout.contains(&headline), "{headline}\n{stdout}");
    // Deterministic statements are decided by their one run: the checks pass.
    assert_eq!(count("check", "passed"), checks, "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The fields of one CSV line (RFC 4180: a field in quotes may hold commas and doubled quotes).
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().unwrap().push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(String::new()),
            _ => fields.last_mut().unwrap().push(c),
        }
    }
    assert!(!quoted, "unterminated quote in {line:?}");
    fields
}

#[test]
fn reproduce_refuses_an_unknown_paper_and_zero_replications() {
    for (args, says) in [
        (&["reproduce", "nobody2020"][..], "unknown paper"),
        (
            &["reproduce", "kokkinos2009", "--replications", "0"][..],
            "1 to 10000",
        ),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_qosgate-e2e"))
            .args(args)
            .output()
            .unwrap();
        assert!(!out.status.success());
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{args:?}"
        );
    }
}
