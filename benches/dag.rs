//! Criterion benchmarks of gandhimathi2013's kernel pieces (`kernel/src/dag/`, `listsched/`,
//! `mapping.rs`).
//!
//! - `dag/cnpt/64`: `Priorities::new` and the CNPT listing of a 64-task application (a fixed
//!   pseudo-random DAG: each task after the first has one to three earlier predecessors, one
//!   in ten is an entry, E25's shape).
//! - `dag/{cls,cmms}_decision/64x3`: one decision of CLS / CMMS, the first of that application
//!   over three clouds of 4,096, 9,216 and 2,048 VMs answering ERAT from slot tables that
//!   already hold 100 planned runs each (CMMS's first decision asks every ready task on every
//!   cloud: its most expensive step).
//! - `dag/{cls,cmms}_application/64x3`: all 64 decisions.
//! - `mapping/{energy_aware,first_fit,first_fit_task,worst_fit}/1024`: a batch of 8 tasks (3 to
//!   70 VMs) onto 1,024 servers of 4 VMs, a third of them partly used.
//!
//! Set-up (cloning the scheduler, the clouds or the servers) is outside the timed part
//! (`iter_batched`). Run with `cargo bench --bench dag`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use qosgate_kernel::Error;
use qosgate_kernel::dag::{Dag, Priorities, TaskId, Tasks, cnpt};
use qosgate_kernel::listsched::{Clouds, Decision, Etm, Factor, Rule, Scheduler};
use qosgate_kernel::mapping::{Fit, Servers};
use qosgate_kernel::slots::SlotTable;
use qosgate_kernel::units::{Nodes, Ticks};

/// A small deterministic generator (the bench needs no statistics, only a fixed input).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

const TASKS: usize = 64;
const VMS: [Nodes; 3] = [4096, 9216, 2048];
const PERF: [u64; 3] = [100, 85, 50];

struct Problem {
    dag: Dag,
    etm: Etm<3>,
    width: Vec<Nodes>,
    clouds: TableClouds,
}

#[derive(Clone)]
struct TableClouds {
    tables: Vec<Box<SlotTable<512>>>,
    width: Vec<Nodes>,
    run: Vec<[Ticks; 3]>,
}

impl Clouds for TableClouds {
    fn erat(&self, task: TaskId, cloud: usize, ready: Ticks) -> Option<Ticks> {
        let run = self.run[usize::from(task)][cloud];
        self.tables[cloud]
            .earliest_fit(ready, self.width[usize::from(task)], run)
            .ok()
            .flatten()
    }

    fn hold(&mut self, d: &Decision) -> Result<(), Error> {
        self.tables[d.cloud]
            .reserve(d.start, d.finish, self.width[usize::from(d.task)])
            .map_err(|r| r.reason)
    }
}

fn problem() -> Problem {
    let mut rng = Lcg(3);
    let mut dag = Dag::new();
    for v in 0..TASKS as u64 {
        let mut preds = Tasks::EMPTY;
        if v > 0 && rng.below(10) != 0 {
            for _ in 0..=rng.below(3) {
                preds.insert(TaskId::new(rng.below(v) as u8));
            }
        }
        dag.push(preds).unwrap();
    }
    let mut etm = Etm::new();
    let mut width = Vec::new();
    let mut run = Vec::new();
    for v in (0..TASKS as u8).map(TaskId::new) {
        let native = Ticks::from_secs(60 + rng.below(7200));
        let mut row = [Ticks::ZERO; 3];
        for j in 0..3 {
            let t = Ticks::new(native.get() * 100 / PERF[j]);
            etm.set(v, j, Some(t)).unwrap();
            row[j] = t.saturating_add(Ticks::from_secs(1));
        }
        width.push(1 + rng.below(512) as Nodes);
        run.push(row);
    }
    let mut tables: Vec<Box<SlotTable<512>>> = VMS
        .iter()
        .map(|&n| Box::new(SlotTable::new(n).unwrap()))
        .collect();
    // 100 planned runs on each cloud, from time 0.
    for (j, table) in tables.iter_mut().enumerate() {
        for _ in 0..100 {
            let n = 1 + rng.below(u64::from(VMS[j]) / 2) as Nodes;
            let len = Ticks::from_secs(60 + rng.below(7200));
            let s = table.earliest_fit(Ticks::ZERO, n, len).unwrap().unwrap();
            table.reserve(s, s.saturating_add(len), n).unwrap();
        }
    }
    let clouds = TableClouds {
        tables,
        width: width.clone(),
        run,
    };
    Problem {
        dag,
        etm,
        width,
        clouds,
    }
}

fn dag(c: &mut Criterion) {
    let p = problem();
    assert_eq!(p.width.len(), TASKS);
    let mut group = c.benchmark_group("dag");
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_millis(500));
    let at = p.etm.averages();
    group.bench_function(BenchmarkId::new("cnpt", TASKS), |b| {
        b.iter(|| {
            let prio = Priorities::new(black_box(&p.dag), black_box(&at)).unwrap();
            black_box(cnpt(&p.dag, &prio).unwrap())
        })
    });
    for (name, rule) in [("cls", Rule::List), ("cmms", Rule::MinMin)] {
        let sched = Scheduler::new(
            Ticks::ZERO,
            &p.dag,
            &p.etm,
            Ticks::from_secs(1),
            rule,
            [Factor::ZERO; 3],
        )
        .unwrap();
        group.bench_function(BenchmarkId::new(format!("{name}_decision"), "64x3"), |b| {
            b.iter_batched(
                || (sched.clone(), p.clouds.clone()),
                |(mut s, mut clouds)| black_box(s.step(&mut clouds).unwrap()),
                BatchSize::SmallInput,
            )
        });
        group.bench_function(
            BenchmarkId::new(format!("{name}_application"), "64x3"),
            |b| {
                b.iter_batched(
                    || (sched.clone(), p.clouds.clone()),
                    |(mut s, mut clouds)| {
                        s.run(&mut clouds).unwrap();
                        black_box(s.makespan())
                    },
                    BatchSize::SmallInput,
                )
            },
        );
    }
    group.finish();
}

fn mapping(c: &mut Criterion) {
    let mut rng = Lcg(7);
    let mut servers = Servers::<1024>::new(1024, 4).unwrap();
    // A third of the servers partly used: fill all, give back all but 1-3 VMs on a third.
    servers.place(Fit::FirstFit, &[4096], &mut |_| {}).unwrap();
    for s in 0..1024u32 {
        let keep = if s % 3 == 0 {
            1 + rng.below(3) as u32
        } else {
            0
        };
        servers.release(s, 4 - keep).unwrap();
    }
    let batch: Vec<u32> = (0..8).map(|_| 3 + rng.below(68) as u32).collect();
    let mut group = c.benchmark_group("mapping");
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_millis(500));
    for (name, fit) in [
        ("energy_aware", Fit::EnergyAware),
        ("first_fit", Fit::FirstFit),
        ("first_fit_task", Fit::FirstFitTask),
        ("worst_fit", Fit::WorstFit),
    ] {
        group.bench_function(BenchmarkId::new(name, 1024), |b| {
            b.iter_batched(
                || servers.clone(),
                |mut s| {
                    let mut parts = 0u32;
                    s.place(fit, black_box(&batch), &mut |_| parts += 1)
                        .unwrap();
                    black_box(parts)
                },
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, dag, mapping);
criterion_main!(benches);
