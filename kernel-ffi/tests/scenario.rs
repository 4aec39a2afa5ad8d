//! The reference scenario (crate `qosgate-ffi-scenario`) through the C API on the host, and the
//! ties that keep its expected values, the C test program's and the header honest.

use std::path::Path;

use qosgate_ffi_scenario::{
    self as scenario, BUCKET, BUCKET_ACTUAL, BUCKET_BURST, BUCKET_LEVELS, BUCKET_MARKS,
    BUCKET_SUBMITTED, BUCKET_WAITS, EASY_JOBS, EASY_NODES, EASY_STARTS, Storage,
};

fn crate_file(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("reading {}: {e}", full.display()))
}

#[test]
fn reference_scenario_passes_through_the_c_api() {
    let mut storage = Box::new(Storage::zeroed());
    let report = scenario::run(&mut storage).expect("every check of the scenario");
    assert_eq!(report.easy_starts, EASY_STARTS);
    assert_eq!(report.bucket_waits, [6_666_667, 1, 6_666_667, 2_666_667]);
    assert_eq!(
        report.bucket_levels,
        [400_000_000, 0, 10, 10, 120_000_010, 320_000_010]
    );
    assert_eq!(report.bucket_submitted, [400, 600, 520, 400, 200]);
    // A second run in the same storage initialises everything again and sees the same.
    assert_eq!(scenario::run(&mut storage), Ok(report));
}

/// A job of the trace: `(id, submit, run, nodes, estimate)`, seconds, as [`EASY_JOBS`].
type Job = (u64, u64, u64, u32, u64);

/// The cluster's nodes (`; MaxProcs:`) and the jobs of an SWF trace, by the README's reading
/// rules: nodes = allocated processors (field 5) if > 0, else requested (field 8); estimate =
/// requested time (field 9) if > 0, else the run time (field 4).
fn read_swf(text: &str) -> (u32, Vec<Job>) {
    let mut nodes = None;
    let mut jobs = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(comment) = line.strip_prefix(';') {
            if let Some(n) = comment.trim().strip_prefix("MaxProcs:") {
                nodes = Some(n.trim().parse().expect("MaxProcs"));
            }
            continue;
        }
        let f: Vec<i64> = line
            .split_whitespace()
            .map(|x| x.parse().unwrap_or_else(|e| panic!("{line}: {x}: {e}")))
            .collect();
        assert_eq!(f.len(), 18, "18 fields: {line}");
        let positive = |v: i64| u64::try_from(v).ok().filter(|&v| v > 0);
        let run = positive(f[3]).expect("a run time");
        let procs = positive(f[4]).or(positive(f[7])).expect("processors");
        let estimate = positive(f[8]).unwrap_or(run);
        let id = positive(f[0]).expect("a job id");
        let submit = u64::try_from(f[1]).expect("a submit time");
        jobs.push((id, submit, run, procs.try_into().expect("u32"), estimate));
    }
    (nodes.expect("a MaxProcs header"), jobs)
}

/// EASY backfilling from its definition (README, "Trace replay"), not from the kernel: at each
/// instant, the jobs that end complete, the arrivals join the queue in (submit, id) order, the
/// queue's head starts while it fits, and then every later job, in queue order, starts if it
/// fits now and either ends (by its estimate) by the head's shadow time (the earliest instant at
/// which enough nodes are free for the head, running jobs holding theirs until start +
/// estimate) or leaves the head enough nodes at that instant. Returns each job's start, in
/// `jobs` order (which must be (submit, id) order).
fn easy_by_definition(nodes: u32, jobs: &[Job]) -> Vec<u64> {
    /// A running job: the end its estimate promises, its real end, its nodes.
    struct Running {
        planned: u64,
        end: u64,
        nodes: u32,
    }
    let mut starts = vec![None; jobs.len()];
    let mut running: Vec<Running> = Vec::new();
    let mut queue: Vec<usize> = Vec::new();
    let (mut arrived, mut now) = (0, 0);
    loop {
        running.retain(|r| r.end > now);
        while arrived < jobs.len() && jobs[arrived].1 == now {
            queue.push(arrived);
            arrived += 1;
        }
        // Free nodes at `t >= now` in the profile of the running jobs.
        let free = |running: &[Running], t: u64| {
            let held: u32 = running
                .iter()
                .filter(|r| r.planned > t)
                .map(|r| r.nodes)
                .sum();
            nodes - held
        };
        let mut k = 0;
        while k < queue.len() {
            let (j, head) = (queue[k], queue[0]);
            let (_, _, run, want, estimate) = jobs[j];
            let fits = free(&running, now) >= want;
            let starts_now = fits
                && (k == 0 || {
                    let shadow = std::iter::once(now)
                        .chain(running.iter().map(|r| r.planned))
                        .filter(|&t| t >= now && free(&running, t) >= jobs[head].3)
                        .min()
                        .expect("the head fits once every running job has ended");
                    let extra = free(&running, shadow) - jobs[head].3;
                    now + estimate <= shadow || want <= extra
                });
            if starts_now {
                starts[j] = Some(now);
                running.push(Running {
                    planned: now + estimate,
                    end: now + run.min(estimate),
                    nodes: want,
                });
                queue.remove(k);
            } else if k == 0 {
                // The head waits: go on with the rest of the queue.
                k = 1;
            } else {
                k += 1;
            }
        }
        let next_arrival = jobs.get(arrived).map(|j| j.1);
        let next_end = running.iter().map(|r| r.end).min();
        now = match (next_arrival, next_end) {
            (Some(a), Some(e)) => a.min(e),
            (Some(t), None) | (None, Some(t)) => t,
            (None, None) => break,
        };
    }
    starts
        .into_iter()
        .map(|s| s.expect("every job starts"))
        .collect()
}

#[test]
fn easy_expectations_are_easy_on_the_trace_file() {
    let (nodes, jobs) = read_swf(&crate_file("tests/data/easy10.swf"));
    assert_eq!(nodes, EASY_NODES);
    assert_eq!(jobs, EASY_JOBS);
    assert_eq!(easy_by_definition(nodes, &jobs), EASY_STARTS);
}

/// Step 7's expectations from the token-bucket equations and the refund rule alone, not from
/// the kernel: credit in instructions (MI x 10^6) refills at rho per tick up to sigma; a task
/// conforms when the credit covers its charge (imax under CONSERVATIVE_FEEDBACK), else waits
/// `ceil(deficit / rho)` ticks; feedback of a real work below the charge lifts the credit to
/// `max(credit, min(credit + charged - actual, sigma - charged after the task))` (the refund
/// rule of `kernel/src/bucket.rs`); a withdrawal is feedback of zero work.
#[test]
fn bucket_expectations_follow_from_the_token_bucket_equations() {
    assert_eq!(
        BUCKET.knowledge,
        qosgate_ffi::scheduler::QG_KNOWLEDGE_CONSERVATIVE_FEEDBACK
    );
    let mi = |w: u64| i128::from(w) * 1_000_000;
    let (rho, sigma, charge) = (i128::from(BUCKET.rho), mi(BUCKET.sigma), mi(BUCKET.imax));
    let wait = |credit: i128| ((charge - credit) + rho - 1) / rho;
    let mut credit = sigma;
    let mut levels = vec![credit];
    let mut submitted = Vec::new();
    let mut waits = Vec::new();
    // The work charged so far (MI): a receipt's mark is its value after the charge.
    let mut marks = Vec::new();
    let mut j = 0;
    for _ in &BUCKET_BURST[..2] {
        assert!(credit >= charge, "the burst's first two tasks conform");
        credit -= charge;
        j += BUCKET.imax;
        marks.push(j);
    }
    levels.push(credit);
    submitted.push(j);
    assert!(credit < charge, "the third does not");
    let t = wait(credit);
    waits.push(t);
    let refilled = |dt: i128| (credit + rho * dt).min(sigma);
    assert!(refilled(t - 1) < charge);
    waits.push(wait(refilled(t - 1)));
    assert!(refilled(t) >= charge, "it conforms after its wait");
    credit = refilled(t) - charge;
    j += BUCKET.imax;
    marks.push(j);
    levels.push(credit);
    submitted.push(j);
    let charged_total = j;
    // Feedback (or, with zero work, withdrawal) of task `i` at `t`: nothing refills meanwhile.
    let refund = |credit: i128, i: usize, actual: u64| {
        let after = mi(charged_total - marks[i]);
        let lifted = (credit + charge - mi(actual)).min(sigma - after);
        credit.max(lifted)
    };
    credit = refund(credit, 0, BUCKET_ACTUAL[0]);
    j = j - BUCKET.imax + BUCKET_ACTUAL[0];
    levels.push(credit);
    submitted.push(j);
    waits.push(wait(credit));
    credit = refund(credit, 1, BUCKET_ACTUAL[1]);
    j = j - BUCKET.imax + BUCKET_ACTUAL[1];
    levels.push(credit);
    submitted.push(j);
    assert!(credit < charge, "a maximal task still waits");
    waits.push(wait(credit));
    credit = refund(credit, 2, 0);
    j -= BUCKET.imax;
    levels.push(credit);
    submitted.push(j);
    assert!(
        credit >= charge,
        "a maximal task conforms after the withdrawal"
    );
    let to = |v: Vec<i128>| -> Vec<i64> { v.into_iter().map(|x| x as i64).collect() };
    assert_eq!(marks, BUCKET_MARKS);
    assert_eq!(waits, BUCKET_WAITS.map(i128::from));
    assert_eq!(to(levels), BUCKET_LEVELS);
    assert_eq!(submitted, BUCKET_SUBMITTED);
}

/// The numbers inside `{ ... }` after `name` in the C source.
fn c_table(source: &str, name: &str) -> Vec<String> {
    let at = source
        .find(&format!("{name}[]"))
        .unwrap_or_else(|| panic!("no table {name} in the C program"));
    let open = at + source[at..].find('{').expect("an initialiser");
    let close = open + source[open..].find('}').expect("its end");
    source[open + 1..close]
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn as_strings<T: ToString>(values: &[T]) -> Vec<String> {
    values.iter().map(T::to_string).collect()
}

#[test]
fn c_program_checks_the_same_values() {
    let c = crate_file("tests/c/scenario.c");
    assert_eq!(c_table(&c, "BILLIARD"), as_strings(&scenario::BILLIARD));
    assert_eq!(c_table(&c, "RTDP_TYPES"), as_strings(&scenario::RTDP_TYPES));
    assert_eq!(c_table(&c, "RTDP"), as_strings(&scenario::RTDP));
    assert_eq!(c_table(&c, "EASY_START"), as_strings(&EASY_STARTS));
    let ids: Vec<u64> = EASY_JOBS.iter().map(|j| j.0).collect();
    let submits: Vec<u64> = EASY_JOBS.iter().map(|j| j.1).collect();
    let runs: Vec<u64> = EASY_JOBS.iter().map(|j| j.2).collect();
    let nodes: Vec<u32> = EASY_JOBS.iter().map(|j| j.3).collect();
    let estimates: Vec<u64> = EASY_JOBS.iter().map(|j| j.4).collect();
    assert_eq!(c_table(&c, "EASY_ID"), as_strings(&ids));
    assert_eq!(c_table(&c, "EASY_SUBMIT"), as_strings(&submits));
    assert_eq!(c_table(&c, "EASY_RUN"), as_strings(&runs));
    assert_eq!(c_table(&c, "EASY_NODES"), as_strings(&nodes));
    assert_eq!(c_table(&c, "EASY_ESTIMATE"), as_strings(&estimates));
    let floats = |name| -> Vec<f64> {
        c_table(&c, name)
            .iter()
            .map(|s| s.parse().unwrap_or_else(|e| panic!("{name}: {s}: {e}")))
            .collect()
    };
    assert_eq!(floats("PAP_Z"), [scenario::PAP_Z]);
    assert_eq!(floats("PAP_LAMBDA_HAT"), scenario::PAP_LAMBDA_HAT);
    let decisions = c_table(&c, "DECISION_TASK");
    let ids: Vec<u32> = scenario::EXPECTED_DECISIONS
        .iter()
        .map(|d| d.task_id)
        .collect();
    assert_eq!(decisions, as_strings(&ids));
    let finishes: Vec<u64> = scenario::EXPECTED_DECISIONS
        .iter()
        .map(|d| d.finish)
        .collect();
    assert_eq!(c_table(&c, "DECISION_FINISH"), as_strings(&finishes));
    let works: Vec<u64> = scenario::EXPECTED_DECISIONS
        .iter()
        .map(|d| d.work)
        .collect();
    assert_eq!(c_table(&c, "DECISION_WORK"), as_strings(&works));
    let contract = [BUCKET.rho, BUCKET.sigma, BUCKET.imax];
    assert_eq!(c_table(&c, "BUCKET_CONTRACT"), as_strings(&contract));
    assert_eq!(
        c_table(&c, "BUCKET_KNOWLEDGE"),
        ["QG_KNOWLEDGE_CONSERVATIVE_FEEDBACK"]
    );
    assert_eq!(c_table(&c, "BUCKET_BURST"), as_strings(&BUCKET_BURST));
    assert_eq!(c_table(&c, "BUCKET_ACTUAL"), as_strings(&BUCKET_ACTUAL));
    assert_eq!(c_table(&c, "BUCKET_MARKS"), as_strings(&BUCKET_MARKS));
    assert_eq!(c_table(&c, "BUCKET_WAITS"), as_strings(&BUCKET_WAITS));
    assert_eq!(c_table(&c, "BUCKET_LEVELS"), as_strings(&BUCKET_LEVELS));
    assert_eq!(
        c_table(&c, "BUCKET_SUBMITTED"),
        as_strings(&BUCKET_SUBMITTED)
    );
}

#[test]
fn every_status_of_the_header_has_its_name() {
    let h = Path::new(env!("CARGO_MANIFEST_DIR")).join("../include/qosgate.h");
    let h = std::fs::read_to_string(h).expect("the header");
    let body = &h[h.find("enum qg_status").expect("the status enum")..];
    let body = &body[body.find('{').unwrap() + 1..body.find("};").unwrap()];
    let mut seen = 0;
    for line in body.lines().map(str::trim).filter(|l| l.starts_with("QG_")) {
        let (name, value) = line
            .trim_end_matches(',')
            .split_once(" = ")
            .expect("NAME = value");
        let value: i32 = value.parse().expect("an integer");
        // SAFETY: qg_status_str returns a static NUL-terminated string for any code.
        let got = unsafe { std::ffi::CStr::from_ptr(qosgate_ffi::status::qg_status_str(value)) };
        assert_eq!(got.to_str(), Ok(name), "code {value}");
        seen += 1;
    }
    assert_eq!(seen, 59, "statuses in the header");
    // SAFETY: as above.
    let unknown = unsafe { std::ffi::CStr::from_ptr(qosgate_ffi::status::qg_status_str(-6)) };
    assert_eq!(unknown.to_str(), Ok("QG_UNKNOWN_STATUS"));
}
