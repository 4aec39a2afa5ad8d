//! DAG listing and list scheduling: an application of up to 64 tasks whose predecessor sets
//! are arbitrary words (tasks that name later tasks are refused with `Unknown`), an ETM over
//! three clouds with arbitrary times (zero: the cloud cannot run it; huge values that overflow),
//! an arbitrary image time, decision instant, rule (CLS or CMMS) and feedback factors (observed
//! from arbitrary finishes under an arbitrary alpha), scheduled on clouds that run one task at a
//! time from arbitrary free instants, or on slot tables of arbitrary widths.
//!
//! Checked: no panic; the DAG is built exactly when every predecessor set names earlier tasks;
//! `EST <= LST` and every exit is critical; the critical nodes and the CNPT listing equal the
//! exact reference's (`qosgate_testkit::dagsched::ExactPriorities`, rationals of any size); the
//! listing holds every task once, after its predecessors; the scheduler refuses a task no cloud
//! can run (`TaskTooLarge`) exactly then; its schedule (or its error) equals the plain Algorithms
//! 2-3 comparing objectives exactly (`qosgate_testkit::dagsched`), and a complete schedule
//! respects precedence; alpha = 0 leaves every factor at zero and no factor is below -1.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use common::Num;
use libfuzzer_sys::fuzz_target;
use qosgate_kernel::Error;
use qosgate_kernel::dag::{Dag, TaskId, Tasks};
use qosgate_kernel::listsched::{Alpha, Clouds, Decision, Etm, Factor, Feedback, Rule, Scheduler};
use qosgate_kernel::slots::SlotTable;
use qosgate_kernel::units::Ticks;
use qosgate_testkit::dagsched::{self, App, ExactPriorities, ProfileClouds, SerialClouds};

const K: usize = 3;

#[derive(Arbitrary, Debug)]
struct Task {
    /// Predecessors: the low bits masked to the earlier tasks, unless `raw`.
    preds: u64,
    raw: bool,
    times: [Num; K],
    width: u8,
}

#[derive(Arbitrary, Debug)]
struct Input {
    tasks: Vec<Task>,
    now: Num,
    image: Num,
    min_min: bool,
    alpha: u32,
    observed: Vec<(u8, u8, Num, Num, Num)>,
    origin: u8,
    /// Serial clouds free from these instants, or slot tables of these widths.
    serial: bool,
    clouds: [Num; K],
}

fn schedule(
    app: &App<'_, K>,
    rule: Rule,
    factors: [Factor; K],
    clouds: &mut impl Clouds,
) -> Result<Vec<Decision>, Error> {
    let mut sched = Scheduler::new(app.now, app.dag, app.etm, app.image, rule, factors)?;
    sched.run(clouds)?;
    Ok(sched.decisions().collect())
}

fn compare(app: &App<'_, K>, rule: Rule, factors: [Factor; K], clouds: impl Clouds + Clone) {
    let Ok(sched) = Scheduler::new(app.now, app.dag, app.etm, app.image, rule, factors) else {
        return;
    };
    let listing = sched.listing().clone();
    let ours = schedule(app, rule, factors, &mut clouds.clone());
    let plain = dagsched::naive_schedule(app, rule, factors, &listing, &mut clouds.clone());
    assert_eq!(ours, plain, "kernel and plain algorithms differ");
    if let Ok(decisions) = ours {
        dagsched::schedule(app, &decisions).unwrap();
    }
}

fuzz_target!(|input: Input| {
    let tasks = &input.tasks[..input.tasks.len().min(70)];
    let mut dag = Dag::new();
    let mut built = true;
    for (v, t) in tasks.iter().enumerate() {
        let preds = if t.raw {
            t.preds
        } else {
            t.preds & Tasks::first(v).bits()
        };
        let expect_ok = v < 64 && Tasks::from_bits(preds).is_subset(Tasks::first(v));
        let before = dag.clone();
        match dag.push(Tasks::from_bits(preds)) {
            Ok(id) => {
                assert!(expect_ok);
                assert_eq!(usize::from(id), v);
            }
            Err(e) => {
                assert!(!expect_ok);
                assert_eq!(e, if v >= 64 { Error::Full } else { Error::Unknown });
                assert_eq!(dag, before);
                built = false;
                break;
            }
        }
    }
    if !built {
        return;
    }
    let mut etm = Etm::<K>::new();
    for (v, t) in tasks.iter().enumerate() {
        for (j, n) in t.times.iter().enumerate() {
            let time = Some(n.ticks()).filter(|&x| x != Ticks::ZERO);
            etm.set(TaskId::new(v as u8), j, time).unwrap();
        }
    }
    let app = App {
        now: input.now.ticks(),
        dag: &dag,
        etm: &etm,
        image: input.image.ticks(),
    };
    let rule = if input.min_min {
        Rule::MinMin
    } else {
        Rule::List
    };
    let mut fb = Feedback::<K>::new(Alpha::from_q32(u64::from(input.alpha)).unwrap());
    let zero_alpha = Feedback::<K>::new(Alpha::ZERO);
    let mut still_zero = zero_alpha.clone();
    for &(o, j, erat, finish, d) in input.observed.iter().take(16) {
        let (o, j) = (usize::from(o % 4), usize::from(j % 4));
        let r = fb.complete(o, j, erat.ticks(), finish.ticks(), d.ticks());
        let z = still_zero.complete(o, j, erat.ticks(), finish.ticks(), d.ticks());
        assert_eq!(r.is_ok(), z.is_ok());
        if o >= K || j >= K {
            assert_eq!(r, Err(Error::Unknown));
        } else if d.get() == 0 {
            assert!(r.is_err());
        }
        if let Ok(f) = r {
            assert!(f.num() >= -(f.den() as i128), "fd below -1");
        }
    }
    assert_eq!(still_zero, zero_alpha, "alpha = 0 moved a factor");
    let factors = fb
        .factors(usize::from(input.origin) % K)
        .unwrap_or([Factor::ZERO; K]);

    let unrunnable = dag.tasks().iter().any(|v| etm.average(v).is_none());
    let set_up = Scheduler::new(app.now, &dag, &etm, app.image, rule, factors);
    if unrunnable {
        assert_eq!(set_up.err(), Some(Error::TaskTooLarge));
        return;
    }
    if let Ok(sched) = &set_up {
        dagsched::listing(&dag, sched.listing()).unwrap();
        let prio = sched.priorities();
        for v in dag.tasks().iter() {
            assert!(prio.est(v).units() <= prio.lst(v).units());
        }
        assert!(dag.exits().is_subset(prio.critical()));
        let exact = ExactPriorities::new(&dag, &etm);
        assert_eq!(
            prio.critical(),
            exact.critical,
            "critical nodes differ from the exact ones"
        );
        assert_eq!(
            sched.listing().as_slice(),
            &dagsched::exact_cnpt(&dag, &exact)[..],
            "CNPT list differs from the exact one"
        );
    }
    if input.serial {
        let free = input.clouds.iter().map(|n| n.ticks()).collect();
        compare(&app, rule, factors, SerialClouds { free });
    } else {
        let run = tasks
            .iter()
            .enumerate()
            .map(|(v, _)| {
                (0..K)
                    .map(|j| {
                        etm.get(TaskId::new(v as u8), j)
                            .map_or(Ticks::ZERO, |t| t.saturating_add(app.image))
                    })
                    .collect()
            })
            .collect();
        let tables = input
            .clouds
            .iter()
            .map(|n| SlotTable::<256>::new((n.get() % 9) as u32 + 1).unwrap())
            .collect();
        let width = tasks.iter().map(|t| u32::from(t.width % 10)).collect();
        compare(&app, rule, factors, ProfileClouds { tables, width, run });
    }
});
