//! Tests of DAG listing and list scheduling (`kernel/src/dag/`, `kernel/src/listsched/`;
//! gandhimathi2013 Algorithms 1-3, Eq. 5-8, as read in E21 and E22).
//!
//! - Golden: E21's six-task DAG (critical nodes {1, 3, 5, 6}, list [1, 3, 2, 5, 4, 6], CLS
//!   makespan 22 against CMMS 23) and the Fig. 5 feedback example (task k goes to C under CLS
//!   and to A under DCLS for alpha >= 0.25, to C for alpha = 0.2).
//! - Properties on random DAGs of up to 64 tasks: the CNPT listing holds every task exactly once
//!   in a topological order; EST <= LST and every exit is critical; on DAGs of up to 10 tasks,
//!   EST and LST equal their definitions over every path (brute force); CLS and CMMS equal the plain
//!   Algorithms 2-3 that ask every question at every step (`qosgate_testkit::dagsched`), with
//!   and without feedback factors, on clouds that run one task at a time and on clouds of many
//!   VMs answering from slot tables; every schedule respects precedence; and alpha = 0 makes
//!   DCLS / DCMMS decide exactly as CLS / CMMS whatever the tasks' finishes were.
//! - Exact ties (erratum E21): averages 4/3 + 5/3 equal to a path of 3 make every task critical
//!   (list 1 3 2 4); a feedback objective of exactly 9 s ties with 9 s and goes to the lower
//!   cloud.
//! - Against the exact reference (`qosgate_testkit::dagsched`, rationals of any size) on 10,000
//!   random DAGs of 2-20 tasks whose ties are frequent (1-4 s on 1-3 clouds, missing entries,
//!   decimal alphas over whole-second completions): AT, EST, LST, critical nodes, the CNPT list,
//!   the factors and every decision (cloud, ERAT, finish, objective) of CLS, CMMS, DCLS, DCMMS.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use qosgate_kernel::Error;
use qosgate_kernel::dag::{Dag, Exact, MAX_TASKS, Mean, Priorities, TaskId, Tasks, cnpt};
use qosgate_kernel::listsched::{Alpha, Clouds, Decision, Etm, Factor, Feedback, Rule, Scheduler};
use qosgate_kernel::slots::SlotTable;
use qosgate_kernel::units::{Nodes, Ticks};
use qosgate_testkit::dagsched::{self, App, ExactPriorities, ProfileClouds, Ratio, SerialClouds};

/// 256 cases per property, or `PROPTEST_CASES` for a deeper run.
fn cases() -> u32 {
    qosgate_testkit::proptest_cases(256)
}

const fn s(secs: u64) -> Ticks {
    Ticks::from_secs(secs)
}

/// Task `n`.
const fn task(n: u8) -> TaskId {
    TaskId::new(n)
}

/// The set of the tasks numbered in `tasks`.
fn set(tasks: &[u8]) -> Tasks {
    tasks
        .iter()
        .fold(Tasks::EMPTY, |acc, &v| acc.union(Tasks::one(task(v))))
}

/// E21's DAG (tasks 1-6 numbered 0-5) and ETM rows (A, B, C) in seconds.
fn golden_dag() -> (Dag, Etm<3>) {
    let dag = Dag::from_preds(&[
        set(&[]),
        set(&[0]),
        set(&[0]),
        set(&[0]),
        set(&[1, 2]),
        set(&[3, 4]),
    ])
    .unwrap();
    let rows = [
        [8, 9, 5],
        [6, 4, 2],
        [9, 7, 2],
        [8, 3, 4],
        [5, 8, 5],
        [9, 4, 5],
    ];
    let mut etm = Etm::new();
    for (v, row) in rows.iter().enumerate() {
        for (j, &t) in row.iter().enumerate() {
            etm.set(task(v as u8), j, Some(s(t))).unwrap();
        }
    }
    (dag, etm)
}

fn serial(k: usize) -> SerialClouds {
    SerialClouds {
        free: vec![Ticks::ZERO; k],
    }
}

#[test]
fn golden_dag_cls_makespan_22_cmms_23() {
    let (dag, etm) = golden_dag();
    let mut makespans = Vec::new();
    for rule in [Rule::List, Rule::MinMin] {
        let mut sched =
            Scheduler::new(Ticks::ZERO, &dag, &etm, s(1), rule, [Factor::ZERO; 3]).unwrap();
        assert_eq!(sched.priorities().critical(), set(&[0, 2, 4, 5]));
        assert!(
            sched
                .listing()
                .as_slice()
                .iter()
                .map(|v| v.get())
                .eq([0, 2, 1, 4, 3, 5])
        );
        sched.run(&mut serial(3)).unwrap();
        assert!(sched.is_done());
        makespans.push(sched.makespan());
    }
    assert_eq!(makespans, [s(22), s(23)]);
}

/// Fig. 5: task k (ERAT 14 s everywhere, ETM (9, 10, 8), SI/b = 1 s) after task i set
/// fd_C = 0.5 alpha.
fn fig5_cloud_of_k(alpha: f64) -> usize {
    let mut fb = Feedback::<3>::new(Alpha::from_f64(alpha).unwrap());
    fb.complete(0, 2, s(2), s(14), s(8)).unwrap();
    let dag = Dag::from_preds(&[Tasks::EMPTY]).unwrap();
    let mut etm = Etm::<3>::new();
    for (j, t) in [9, 10, 8].into_iter().enumerate() {
        etm.set(task(0), j, Some(s(t))).unwrap();
    }
    let factors = fb.factors(0).unwrap();
    let mut sched = Scheduler::new(s(14), &dag, &etm, s(1), Rule::List, factors).unwrap();
    let mut clouds = SerialClouds {
        free: vec![s(14); 3],
    };
    sched.step(&mut clouds).unwrap().unwrap().cloud
}

#[test]
fn fig5_dcls_moves_task_k_to_a_from_alpha_a_quarter() {
    assert_eq!(fig5_cloud_of_k(0.0), 2, "CLS keeps k on C");
    assert_eq!(fig5_cloud_of_k(0.2), 2);
    assert_eq!(fig5_cloud_of_k(0.25), 0);
    assert_eq!(fig5_cloud_of_k(0.8), 0);
}

#[test]
fn a_task_no_cloud_can_run_is_refused_at_set_up() {
    let dag = Dag::from_preds(&[Tasks::EMPTY, Tasks::EMPTY]).unwrap();
    let mut etm = Etm::<2>::new();
    etm.set(task(0), 1, Some(s(3))).unwrap();
    let refused = Scheduler::new(Ticks::ZERO, &dag, &etm, s(1), Rule::List, [Factor::ZERO; 2]);
    assert_eq!(refused.err(), Some(Error::TaskTooLarge));
    assert_eq!(
        etm.set(task(0), 2, Some(s(1))),
        Err(Error::Unknown),
        "cloud out of range"
    );
}

/// A hold the caller refuses leaves the scheduler as it was.
#[test]
fn a_refused_hold_records_nothing() {
    struct Refusing;
    impl Clouds for Refusing {
        fn erat(&self, _: TaskId, _: usize, ready: Ticks) -> Option<Ticks> {
            Some(ready)
        }
        fn hold(&mut self, _: &Decision) -> Result<(), Error> {
            Err(Error::Full)
        }
    }
    let (dag, etm) = golden_dag();
    for rule in [Rule::List, Rule::MinMin] {
        let mut sched =
            Scheduler::new(Ticks::ZERO, &dag, &etm, s(1), rule, [Factor::ZERO; 3]).unwrap();
        assert_eq!(sched.step(&mut Refusing), Err(Error::Full));
        assert_eq!(sched.decisions().count(), 0);
        assert_eq!(
            sched.step(&mut serial(3)).unwrap().map(|d| d.task),
            Some(task(0))
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Random applications.

/// A random DAG of 1..=64 tasks (each task's predecessors among the earlier ones), with its
/// ETM over three clouds (some entries missing, never a whole row), and widths.
#[derive(Clone, Debug)]
struct Case {
    preds: Vec<u64>,
    etm: Vec<[Option<u64>; 3]>,
    width: Vec<Nodes>,
}

fn case(max_tasks: usize) -> impl Strategy<Value = Case> {
    (1..=max_tasks).prop_flat_map(|n| {
        let preds = (0..n)
            .map(|v| {
                if v == 0 {
                    Just(0u64).boxed()
                } else {
                    // Sparse: each earlier task with probability about 3 / v.
                    proptest::collection::vec(0..v as u64, 0..=3)
                        .prop_map(|us| us.iter().fold(0u64, |acc, &u| acc | 1 << u))
                        .boxed()
                }
            })
            .collect::<Vec<_>>();
        let row = (
            prop::option::weighted(0.85, 1..=20u64),
            prop::option::weighted(0.85, 1..=20u64),
            1..=20u64,
        )
            .prop_map(|(a, b, c)| [a, b, Some(c)]);
        (
            preds,
            proptest::collection::vec(row, n),
            proptest::collection::vec(1..=4u32, n),
        )
            .prop_map(|(preds, etm, width)| Case { preds, etm, width })
    })
}

impl Case {
    fn dag(&self) -> Dag {
        let preds: Vec<Tasks> = self.preds.iter().map(|&b| Tasks::from_bits(b)).collect();
        Dag::from_preds(&preds).unwrap()
    }

    fn etm(&self) -> Etm<3> {
        let mut etm = Etm::new();
        for (v, row) in self.etm.iter().enumerate() {
            for (j, t) in row.iter().enumerate() {
                etm.set(task(v as u8), j, t.map(s)).unwrap();
            }
        }
        etm
    }

    fn profile_clouds(&self, image: Ticks) -> ProfileClouds {
        let run = self
            .etm
            .iter()
            .map(|row| {
                row.iter()
                    .map(|t| t.map_or(Ticks::ZERO, |t| s(t).saturating_add(image)))
                    .collect()
            })
            .collect();
        ProfileClouds {
            tables: [4, 3, 2]
                .map(|n| SlotTable::<256>::new(n).unwrap())
                .to_vec(),
            width: self.width.clone(),
            run,
        }
    }
}

fn factors() -> impl Strategy<Value = [Factor; 3]> {
    let one = prop_oneof![
        Just(Factor::ZERO),
        (0u64..=40, 0u64..=40, 1u64..=20).prop_map(|(erat, fin, d)| {
            Factor::observe(Alpha::from_f64(0.5).unwrap(), s(erat), s(fin), s(d)).unwrap()
        })
    ];
    [one.clone(), one.clone(), one]
}

fn rule() -> impl Strategy<Value = Rule> {
    prop_oneof![Just(Rule::List), Just(Rule::MinMin)]
}

/// The kernel's schedule of `case` under `rule` and `factors` on `clouds`.
fn kernel_schedule(
    case: &Case,
    rule: Rule,
    factors: [Factor; 3],
    clouds: &mut impl Clouds,
) -> Result<Vec<Decision>, Error> {
    let (dag, etm) = (case.dag(), case.etm());
    let mut sched = Scheduler::new(s(5), &dag, &etm, s(1), rule, factors)?;
    sched.run(clouds)?;
    Ok(sched.decisions().collect())
}

/// The kernel's schedule of `case` on `clouds` equals the plain algorithms' (both, or the same
/// error), and a complete one respects precedence.
fn against_plain(
    case: &Case,
    rule: Rule,
    factors: [Factor; 3],
    clouds: impl Clouds + Clone,
) -> Result<(), TestCaseError> {
    let (dag, etm) = (case.dag(), case.etm());
    let app = App {
        now: s(5),
        dag: &dag,
        etm: &etm,
        image: s(1),
    };
    let listing = Scheduler::new(app.now, &dag, &etm, app.image, rule, factors)
        .unwrap()
        .listing()
        .clone();
    let ours = kernel_schedule(case, rule, factors, &mut clouds.clone());
    let plain = dagsched::naive_schedule(&app, rule, factors, &listing, &mut clouds.clone());
    prop_assert_eq!(&ours, &plain);
    if let Ok(ours) = ours {
        dagsched::schedule(&app, &ours).map_err(TestCaseError::fail)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn cnpt_lists_every_task_once_after_its_predecessors(
        case in case(MAX_TASKS),
        at in proptest::collection::vec(0u64..=30, MAX_TASKS),
    ) {
        let dag = case.dag();
        let mut times = [Mean::ZERO; MAX_TASKS];
        for (t, &a) in times.iter_mut().zip(&at) {
            *t = Mean::whole(s(a));
        }
        let prio = Priorities::new(&dag, &times).unwrap();
        for v in dag.tasks().iter() {
            prop_assert!(prio.est(v).units() <= prio.lst(v).units(), "task {v}: EST > LST");
        }
        prop_assert!(dag.exits().is_subset(prio.critical()), "an exit is not critical");
        let listing = cnpt(&dag, &prio).unwrap();
        dagsched::listing(&dag, &listing).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn est_and_lst_equal_their_definitions_over_every_path(
        case in case(10),
        at in proptest::collection::vec(0u64..=30, MAX_TASKS),
    ) {
        let dag = case.dag();
        let mut times = [Mean::ZERO; MAX_TASKS];
        for (t, &a) in times.iter_mut().zip(&at) {
            *t = Mean::whole(Ticks::new(a));
        }
        let prio = Priorities::new(&dag, &times).unwrap();
        let at = |v: TaskId| at[usize::from(v)];
        // EST(v): the longest path from an entry to v, v's own time excluded.
        fn longest_to(dag: &Dag, at: &dyn Fn(TaskId) -> u64, v: TaskId) -> u64 {
            dag.preds(v).iter().map(|u| longest_to(dag, at, u) + at(u)).max().unwrap_or(0)
        }
        // LST(v): over every path v -> ... -> exit, EST(exit) minus the times before the exit.
        fn latest(dag: &Dag, at: &dyn Fn(TaskId) -> u64, v: TaskId) -> u64 {
            if dag.succs(v).is_empty() {
                return longest_to(dag, at, v);
            }
            dag.succs(v).iter().map(|s| latest(dag, at, s) - at(v)).min().unwrap()
        }
        for v in dag.tasks().iter() {
            prop_assert_eq!(prio.est(v).scale(), 1, "whole ticks need no finer unit");
            prop_assert_eq!(prio.est(v).units(), u128::from(longest_to(&dag, &at, v)), "EST({})", v);
            prop_assert_eq!(prio.lst(v).units(), u128::from(latest(&dag, &at, v)), "LST({})", v);
        }
    }

    #[test]
    fn list_scheduling_equals_the_plain_algorithms_on_serial_clouds(
        case in case(24),
        rule in rule(),
        factors in factors(),
    ) {
        against_plain(&case, rule, factors, serial(3))?;
    }

    #[test]
    fn list_scheduling_equals_the_plain_algorithms_on_slot_tables(
        case in case(24),
        rule in rule(),
        factors in factors(),
    ) {
        against_plain(&case, rule, factors, case.profile_clouds(s(1)))?;
    }

    /// Whatever the finishes observed, alpha = 0 keeps every factor at zero, and the dynamic
    /// forms then take exactly the static forms' decisions.
    #[test]
    fn alpha_zero_makes_the_dynamic_forms_decide_as_the_static_ones(
        case in case(32),
        rule in rule(),
        observed in proptest::collection::vec((0usize..3, 0usize..3, 0u64..100, 0u64..100, 1u64..50), 0..20),
    ) {
        let mut fb = Feedback::<3>::new(Alpha::ZERO);
        for &(o, j, erat, finish, d) in &observed {
            fb.complete(o, j, s(erat), s(finish), s(d)).unwrap();
        }
        for origin in 0..3 {
            let dynamic = kernel_schedule(&case, rule, fb.factors(origin).unwrap(), &mut case.profile_clouds(s(1)));
            let fixed = kernel_schedule(&case, rule, [Factor::ZERO; 3], &mut case.profile_clouds(s(1)));
            prop_assert_eq!(dynamic, fixed);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Exactness: ties decided as exact arithmetic decides them.

/// The ETM of rows in whole seconds (`None`: the cloud cannot run the task).
fn etm_of(rows: &[[Option<u64>; 3]]) -> Etm<3> {
    let mut etm = Etm::new();
    for (v, row) in rows.iter().enumerate() {
        for (j, t) in row.iter().enumerate() {
            etm.set(task(v as u8), j, t.map(s)).unwrap();
        }
    }
    etm
}

/// Erratum E21: tasks 1 `[1,1,2]`, 2 after 1 `[1,1,3]`, 3 `[3,3,3]`, 4 after 2 and 3 `[1,1,1]`:
/// `4/3 + 5/3 = 3` is task 3's path, so every task is critical and the list is 1 3 2 4.
#[test]
fn averages_that_tie_exactly_make_every_task_critical() {
    let dag = Dag::from_preds(&[set(&[]), set(&[0]), set(&[]), set(&[1, 2])]).unwrap();
    let some = |r: [u64; 3]| r.map(Some);
    let etm = etm_of(&[
        some([1, 1, 2]),
        some([1, 1, 3]),
        some([3, 3, 3]),
        some([1, 1, 1]),
    ]);
    let at = etm.averages();
    assert_eq!((at[0].total(), at[0].count()), (4_000_000, 3));
    let prio = Priorities::new(&dag, &at).unwrap();
    assert_eq!(prio.critical(), set(&[0, 1, 2, 3]));
    assert_eq!(prio.est(task(0)), prio.lst(task(0)));
    // EST(2) = 4/3 s in units of 1/3 µs, EST(4) = 3 s.
    assert_eq!(prio.est(task(1)).scale(), 3);
    assert_eq!(prio.est(task(1)).units(), 4_000_000);
    assert_eq!(prio.est(task(3)).units(), 9_000_000);
    let list = cnpt(&dag, &prio).unwrap();
    assert!(list.as_slice().iter().map(|v| v.get()).eq([0, 2, 1, 3]));
}

/// Erratum E22: alpha 0.8 makes fd_A = 0.8 exactly, so A (5 s) scores `5 x 1.8 = 9`, B (9 s) 9:
/// the tie goes to A.
#[test]
fn a_feedback_tie_goes_to_the_lower_cloud() {
    let mut fb = Feedback::<3>::new(Alpha::from_f64(0.8).unwrap());
    fb.complete(0, 0, s(0), s(20), s(10)).unwrap();
    let dag = Dag::from_preds(&[Tasks::EMPTY]).unwrap();
    let etm = etm_of(&[[Some(5), Some(9), None]]);
    for rule in [Rule::List, Rule::MinMin] {
        let mut sched = Scheduler::new(
            Ticks::ZERO,
            &dag,
            &etm,
            Ticks::ZERO,
            rule,
            fb.factors(0).unwrap(),
        )
        .unwrap();
        let d = sched.step(&mut serial(3)).unwrap().unwrap();
        assert_eq!((d.cloud, d.objective, d.finish), (0, s(9), s(5)));
    }
}

/// An application where exact ties are frequent: 2-20 tasks, whole seconds 1-4 on one to three
/// clouds (entries missing), an image of 0-2 s, clouds free from 0-3 s, and a feedback of a short
/// decimal alpha over up to four whole-second completions.
#[derive(Clone, Debug)]
struct Tied {
    preds: Vec<u64>,
    etm: Vec<[Option<u64>; 3]>,
    image: u64,
    now: u64,
    free: [u64; 3],
    alpha: &'static str,
    observed: Vec<(usize, u64, u64, u64)>,
}

fn tied() -> impl Strategy<Value = Tied> {
    (1..=3usize, 2..=20usize).prop_flat_map(|(clouds, n)| {
        let preds = (0..n)
            .map(|v| {
                proptest::collection::vec(0..v.max(1) as u64, 0..=3).prop_map(move |us| {
                    us.iter()
                        .filter(|&&u| u < v as u64)
                        .fold(0, |a, &u| a | 1 << u)
                })
            })
            .collect::<Vec<_>>();
        let row = (
            proptest::array::uniform3(prop::option::weighted(0.8, 1..=4u64)),
            1..=4u64,
        )
            .prop_map(move |(mut row, fallback)| {
                for t in row.iter_mut().skip(clouds) {
                    *t = None;
                }
                if row.iter().all(Option::is_none) {
                    row[0] = Some(fallback);
                }
                row
            });
        let alpha = prop::sample::select(vec![
            "0", "0.1", "0.2", "0.25", "0.3", "0.5", "0.6", "0.75", "0.8", "1",
        ]);
        let observed = proptest::collection::vec((0..clouds, 0..=6u64, 0..=14u64, 1..=6u64), 0..=4);
        (
            preds,
            proptest::collection::vec(row, n),
            0..=2u64,
            0..=2u64,
            proptest::array::uniform3(0..=3u64),
            alpha,
            observed,
        )
            .prop_map(|(preds, etm, image, now, free, alpha, observed)| Tied {
                preds,
                etm,
                image,
                now,
                free,
                alpha,
                observed,
            })
    })
}

/// The decimal `text` as an exact ratio.
fn decimal(text: &str) -> Ratio {
    let places = text.split_once('.').map_or(0, |(_, f)| f.len());
    let digits: i64 = text.replace('.', "").parse().unwrap();
    Ratio::new(digits, 10i64.pow(places as u32))
}

/// A kernel time of `units / scale` ticks as an exact ratio.
fn exact(t: Exact) -> Ratio {
    Ratio::new(t.units(), t.scale())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(qosgate_testkit::proptest_cases(10_000)))]

    /// The kernel against the exact reference (`qosgate_testkit::dagsched`): AT, EST, LST, the
    /// critical nodes, the CNPT list (Algorithm 1 run as one stack), the factors (alpha the
    /// decimal written) and every decision of CLS, CMMS, DCLS and DCMMS (cloud, ERAT, finish,
    /// objective).
    #[test]
    fn priorities_factors_and_decisions_equal_the_exact_reference(case in tied()) {
        let preds: Vec<Tasks> = case.preds.iter().map(|&b| Tasks::from_bits(b)).collect();
        let dag = Dag::from_preds(&preds).unwrap();
        let etm = etm_of(&case.etm);
        let reference = ExactPriorities::new(&dag, &etm);
        let at = etm.averages();
        let prio = Priorities::new(&dag, &at).unwrap();
        for v in dag.tasks().iter() {
            let i = usize::from(v);
            prop_assert_eq!(&Ratio::new(at[i].total(), at[i].count()), &reference.at[i], "AT({})", v);
            prop_assert_eq!(&exact(prio.est(v)), &reference.est[i], "EST({})", v);
            prop_assert_eq!(&exact(prio.lst(v)), &reference.lst[i], "LST({})", v);
        }
        prop_assert_eq!(prio.critical(), reference.critical);
        let listing = cnpt(&dag, &prio).unwrap();
        prop_assert_eq!(listing.as_slice(), &dagsched::exact_cnpt(&dag, &reference)[..]);

        let alpha = Alpha::from_f64(case.alpha.parse().unwrap()).unwrap();
        let given = decimal(case.alpha);
        prop_assert_eq!(Ratio::new(alpha.num(), alpha.den()), given.clone());
        let mut fb = Feedback::<3>::new(alpha);
        let mut fds = vec![Ratio::int(0); 3];
        for &(j, erat, finish, planned) in &case.observed {
            fb.complete(0, j, s(erat), s(finish), s(planned)).unwrap();
            fds[j] = dagsched::exact_factor(&given, s(erat), s(finish), s(planned));
        }
        let factors = fb.factors(0).unwrap();
        for (f, r) in factors.iter().zip(&fds) {
            prop_assert_eq!(&Ratio::new(f.num(), f.den()), r);
        }

        let app = App { now: s(case.now), dag: &dag, etm: &etm, image: s(case.image) };
        for (rule, factors) in [
            (Rule::List, [Factor::ZERO; 3]),
            (Rule::MinMin, [Factor::ZERO; 3]),
            (Rule::List, factors),
            (Rule::MinMin, factors),
        ] {
            let clouds = SerialClouds { free: case.free.map(s).to_vec() };
            let mut sched = Scheduler::new(app.now, &dag, &etm, app.image, rule, factors).unwrap();
            prop_assert_eq!(sched.listing(), &listing);
            sched.run(&mut clouds.clone()).unwrap();
            let ours: Vec<Decision> = sched.decisions().collect();
            let plain = dagsched::naive_schedule(&app, rule, factors, &listing, &mut clouds.clone());
            prop_assert_eq!(Ok(ours), plain, "{:?}", rule);
        }
    }
}
