//! `qosgate solve pap|broker` end to end: the printed allocation and routing are the kernel's
//! (`qosgate_kernel::allocate::pap`, `qosgate_kernel::broker::route`, whose properties are tested
//! in `kernel/tests/allocation.rs`), every provider form is read, and bad input is named.

use std::process::Output;

use qosgate_kernel::allocate::{Cluster, pap};
use qosgate_kernel::broker::{Provider, ReliableCloud, TransientCluster, route};
use qosgate_testkit::broker::E17_CLUSTER;
use qosgate_testkit::cli::{run, run_with_stdin, stderr};
use serde_json::{Value, json};

const QOSGATE: &str = env!("CARGO_BIN_EXE_qosgate-e2e");

/// Runs `qosgate solve <what> --input -` with `input` on standard input.
fn solve_stdin(what: &str, input: &Value) -> Output {
    run_with_stdin(
        QOSGATE,
        &["solve", what, "--input", "-"],
        input.to_string().as_bytes(),
    )
}

fn json_out(o: &Output) -> Value {
    assert!(o.status.success(), "exit {:?}: {}", o.status, stderr(o));
    serde_json::from_slice(&o.stdout).expect("one JSON value")
}

fn err_out(o: &Output) -> String {
    assert!(!o.status.success(), "expected a failure");
    assert!(o.stdout.is_empty());
    stderr(o)
}

fn pap_json() -> Value {
    json!({"external_rate": 2.0, "epsilon": 1e-9, "clusters": [
        {"theta": 1.0, "omega": 1.25, "local_rate": 0.2, "tau": 2.0, "mu": 4.04},
        {"theta": 0.5, "omega": 0.3125, "local_rate": 0.6, "tau": 1.0, "mu": 1.01},
        {"theta": 0.25, "omega": 0.078125, "local_rate": 0.5, "tau": 0.5, "mu": 0.2525}
    ]})
}

#[test]
fn cli_solve_pap_prints_the_kernels_allocation() {
    let input = pap_json();
    let v = json_out(&solve_stdin("pap", &input));
    let cs: Vec<Cluster> = input["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Cluster {
            theta: c["theta"].as_f64().unwrap(),
            omega: c["omega"].as_f64().unwrap(),
            local_rate: c["local_rate"].as_f64().unwrap(),
            tau: c["tau"].as_f64().unwrap(),
            mu: c["mu"].as_f64().unwrap(),
        })
        .collect();
    let a = pap::<3>(&cs, 2.0, 1e-9).unwrap();
    let got: Vec<f64> = v["lambda_hat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(got, a.lambda_hat());
    assert_eq!(v["z"].as_f64(), a.z());
    assert_eq!(v["active"], json!(a.active()));
    assert!((got.iter().sum::<f64>() - 2.0).abs() <= 2e-9);
}

#[test]
fn cli_solve_pap_reads_a_file_and_names_bad_input() {
    let dir = std::env::temp_dir().join(format!("qosgate-alloc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("pap.json");
    std::fs::write(&path, pap_json().to_string()).unwrap();
    let o = run(
        QOSGATE,
        &["solve", "pap", "--input", path.to_str().unwrap()],
    );
    assert_eq!(json_out(&o)["active"].as_array().unwrap().len(), 3);

    let mut bad = pap_json();
    bad["clusters"][2]["omega"] = json!(0.01);
    let e = err_out(&solve_stdin("pap", &bad));
    assert!(e.contains("cluster 2: omega < theta^2"), "{e}");
    let mut bad = pap_json();
    bad["external_rate"] = json!(100.0);
    assert!(err_out(&solve_stdin("pap", &bad)).contains("infeasible"));
    let mut bad = pap_json();
    bad["clusters"][0]["sigma"] = json!(1.0);
    assert!(err_out(&solve_stdin("pap", &bad)).contains("unknown field"));
    let missing = dir.join("missing.json");
    let o = run(
        QOSGATE,
        &["solve", "pap", "--input", missing.to_str().unwrap()],
    );
    assert!(err_out(&o).contains("missing.json"));
    std::fs::remove_dir_all(&dir).ok();
}

fn broker_json() -> Value {
    json!({"arrival_rate": 0.5, "arrival_variance": 6.0, "providers": [
        {"cluster": {"work": 100.0, "nodes": 64, "speed": 1.0, "transfer": 0.1,
                     "availability_mean": 22.25, "availability_variance": 1688.39,
                     "unavailability_mean": 10.22, "unavailability_variance": 1660.56},
         "cost": 1.0},
        {"cloud": {"work": 100.0, "nodes": 64, "speed": 1.0, "transfer": 0.5}, "cost": 4.0},
        {"mu": 0.2, "cs2": 1.5, "cost": 2.0}
    ]})
}

#[test]
fn cli_solve_broker_accepts_every_provider_form() {
    let input = broker_json();
    let v = json_out(&solve_stdin("broker", &input));
    let p: Vec<f64> = v["p"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(p.len(), 3);
    assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    // The same through the kernel.
    let cl = TransientCluster {
        // The variances as `broker_json` rounds them.
        availability_variance: 1688.39,
        unavailability_variance: 1660.56,
        ..E17_CLUSTER
    }
    .service()
    .unwrap()
    .with_cost(1.0);
    let cloud = ReliableCloud {
        work: 100.0,
        nodes: 64.0,
        speed: 1.0,
        transfer: 0.5,
        cs2: 1.0,
    }
    .service()
    .unwrap()
    .with_cost(4.0);
    let third = Provider {
        mu: 0.2,
        cs2: 1.5,
        cost: 2.0,
    };
    let r = route::<3>(0.5, 6.0, &[cl, cloud, third]).unwrap();
    assert_eq!(p, r.p());
}

#[test]
fn cli_solve_broker_names_bad_input() {
    let mut bad = broker_json();
    bad["providers"][2]["cloud"] = json!({"work": 1.0, "nodes": 1.0, "speed": 1.0});
    let e = err_out(&solve_stdin("broker", &bad));
    assert!(e.contains("provider 2: give exactly one of"), "{e}");
    let mut bad = broker_json();
    bad["providers"][1]["cloud"]["nodes"] = json!(0.0);
    let e = err_out(&solve_stdin("broker", &bad));
    assert!(
        e.contains("provider 1: cloud model: service model: nodes"),
        "{e}"
    );
    let mut bad = broker_json();
    bad["arrival_rate"] = json!(50.0);
    assert!(err_out(&solve_stdin("broker", &bad)).contains("overload"));
    let mut bad = broker_json();
    bad["providers"][0]["cluster"]["color"] = json!(1);
    assert!(err_out(&solve_stdin("broker", &bad)).contains("unknown field"));
}

/// javadi2012's system given by its workload and failure distributions: `solve broker` works out
/// lambda, sigma_I^2 and W from them, as the hybrid model does (the same routing, P = (1, 0)
/// at the paper's parameters, erratum E16), and a bad or doubled input is named.
#[test]
fn cli_solve_broker_takes_the_workload_and_failures_directly() {
    use qosgate_harness::experiments::javadi2012::presets;
    let s = presets::get("javadi2012-eb-ars-eq5").unwrap();
    let routed = s.routing().unwrap();
    let f = s.failures.clone().unwrap();
    let input = json!({
        "workload": s.workload,
        "providers": [
            {"cluster": {"nodes": 64, "speed": 1000.0, "failures": {
                "available": f.available, "unavailable": f.unavailable}}, "cost": 1.0},
            {"cloud": {"nodes": 64, "speed": 1000.0, "transfer": 64.0}, "cost": 5.0}
        ]
    });
    let v = json_out(&solve_stdin("broker", &input));
    assert_eq!(v["p"], json!([1.0, 0.0]));
    let d = &v["derived"];
    assert_eq!(d["arrival_rate"].as_f64(), Some(routed.arrival_rate));
    assert_eq!(
        d["arrival_variance"].as_f64(),
        Some(routed.arrival_variance)
    );
    assert_eq!(d["work"].as_f64(), Some(routed.work_mi));
    // At 20 times the rate (mu_s is about 29 lambda at 1x) a cloud 100 times cheaper than the
    // cluster takes a share.
    let mut cheap = input.clone();
    cheap["providers"][1]["cost"] = json!(0.01);
    cheap["workload"]["load_scale"] = json!(20.0);
    let p = json_out(&solve_stdin("broker", &cheap))["p"][1]
        .as_f64()
        .unwrap();
    assert!(p > 0.0, "{p}");
    let mut both = input.clone();
    both["arrival_rate"] = json!(0.5);
    assert!(err_out(&solve_stdin("broker", &both)).contains("not both"));
    let mut bad = input.clone();
    bad["workload"]["interarrival"] = json!({"weibull": {"scale": 23.375, "shape": -1.0}});
    let e = err_out(&solve_stdin("broker", &bad));
    assert!(e.contains("workload.interarrival.weibull.shape"), "{e}");
    let mut doubled = input;
    doubled["providers"][0]["cluster"]["availability_mean"] = json!(1.0);
    let e = err_out(&solve_stdin("broker", &doubled));
    assert!(
        e.contains("provider 0: cluster model: give the four"),
        "{e}"
    );
}
