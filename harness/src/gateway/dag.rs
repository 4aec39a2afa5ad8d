//! One DAG application, listed and scheduled by hand: what `qosgate dag FILE.json` reads,
//! hands to the kernel (`dag`, `listsched`) and prints, so that a user can check a decision of
//! gandhimathi2013's algorithms (as errata E21-E22 read them) with pencil and paper.
//!
//! # Input
//! ```json
//! {"image_s": 1, "clouds": ["A", "B", "C"],
//!  "tasks": [{"id": "1", "etm_s": [8, 9, 5]},
//!            {"id": "2", "preds": ["1"], "etm_s": [6, 4, null]}],
//!  "free_s": [0, 0, 0],
//!  "feedback": {"alpha": 0.5, "observed": [{"cloud": "C", "erat_s": 2, "finish_s": 14, "planned_s": 8}]}}
//! ```
//! - `clouds`: one to three names; `image_s`: SI/b, added to every run (`>= 0`); `now_s`: the
//!   decision instant (default 0).
//! - `tasks`: at most 64, each after its predecessors (`preds`, by `id`; default none), with its
//!   run time on each cloud (`etm_s`, seconds, `null` where the cloud cannot run it).
//! - The clouds run one task at a time, E21's model: a task can start on a cloud once the cloud
//!   is free (`free_s`, default 0) and its predecessors' planned finishes have passed.
//! - `dataset_gbit` (optional, default 0): the application's dataset, gigabits (`MS`; 1 TB is
//!   8000). It is at the clouds of `dataset_at` (names; default the first cloud, the one the
//!   application is submitted to) from `now_s`; a cloud that must first receive it gets it
//!   `MS/S_c` seconds after the decision, `S_c` its entry of `bandwidth_gbps` (Gb/s, one per
//!   cloud; needed, and above 0, for every cloud outside `dataset_at` when `MS > 0`), and no task
//!   starts there before it arrives: its ERAT, and so its finish, include the transfer. The
//!   transfer is charged as the multi-cloud model charges it
//!   ([`crate::models::multicloud::dataset::Dataset`]), once per cloud. AT, EST and LST do not
//!   depend on the clouds and do not include it.
//! - `feedback` (optional): the completions the origin has seen, each replacing that cloud's
//!   factor `fd = alpha (finish - ERAT - planned) / planned` (Eq. 6-7), for DCLS and DCMMS.
//!   Without it they decide as CLS and CMMS. `alpha` is read as the decimal written, exactly
//!   (the shortest decimal that reads back as the JSON number, at most nine places: `0.8` is
//!   4/5, not the binary fraction nearest it; [`Alpha::from_f64`]).
//!
//! Times are whole microseconds (the kernel's ticks, rounded to the nearest from the seconds
//! given); from there nothing is rounded: AT, EST, LST and the objectives are compared exactly.
//!
//! # Output
//! Per task its AT (mean run over the clouds that can run it), EST, LST and whether it is a
//! critical node; the CNPT listing (Algorithm 1); the feedback factors; with `dataset_gbit`, when
//! the dataset would be at each cloud; and for CLS, CMMS, DCLS
//! and DCMMS each decision in order (task, cloud, start = ERAT, finish, the objective it won
//! with) and the makespan. Unknown fields, unknown ids and clouds, and a task listed before a
//! predecessor are errors naming the input.

use anyhow::{Context, Result, anyhow, bail, ensure};
use qosgate_kernel::Error;
use qosgate_kernel::dag::{Dag, TaskId, Tasks};
use qosgate_kernel::listsched::{Alpha, Clouds, Decision, Etm, Factor, Feedback, Rule, Scheduler};
use qosgate_kernel::units::{TICKS_PER_SECOND, Ticks};
use serde::{Deserialize, Serialize};

use crate::des::time::{secs, ticks};
use crate::models::multicloud::dataset::Dataset;

/// Clouds one problem may have (the kernel's list scheduler is built for three).
pub const CLOUDS: usize = 3;

/// The longest time accepted, seconds.
const MAX_S: f64 = 1e9;

/// The input of `qosgate dag`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DagInput {
    /// SI/b, seconds.
    pub image_s: f64,
    /// The decision instant, seconds.
    #[serde(default)]
    pub now_s: f64,
    /// The clouds' names.
    pub clouds: Vec<String>,
    /// The tasks, each after its predecessors.
    pub tasks: Vec<TaskInput>,
    /// When each cloud is free, seconds (default: `now_s`).
    #[serde(default)]
    pub free_s: Option<Vec<f64>>,
    /// The completions behind DCLS's and DCMMS's factors.
    #[serde(default)]
    pub feedback: Option<FeedbackInput>,
    /// The application's dataset, gigabits (default 0: nothing to transfer).
    #[serde(default)]
    pub dataset_gbit: Option<f64>,
    /// The clouds that hold the dataset (default: the first cloud).
    #[serde(default)]
    pub dataset_at: Option<Vec<String>>,
    /// The speed at which the dataset reaches each cloud, Gb/s.
    #[serde(default)]
    pub bandwidth_gbps: Option<Vec<f64>>,
}

/// One task of [`DagInput`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskInput {
    /// Its label.
    pub id: String,
    /// Its predecessors' labels.
    #[serde(default)]
    pub preds: Vec<String>,
    /// Its run time on each cloud, seconds (`null`: cannot run there).
    pub etm_s: Vec<Option<f64>>,
}

/// The feedback of [`DagInput`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeedbackInput {
    /// The weight, `0 ..= 1`.
    pub alpha: f64,
    /// Completions, in order.
    pub observed: Vec<Observed>,
}

/// One completion seen by the origin.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Observed {
    /// The cloud it ran on.
    pub cloud: String,
    /// The ERAT it was placed with, seconds.
    pub erat_s: f64,
    /// When it finished, seconds.
    pub finish_s: f64,
    /// Its planned run (SI/b + ETM), seconds.
    pub planned_s: f64,
}

/// The answer of `qosgate dag`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DagOutput {
    /// Per task, in input order.
    pub tasks: Vec<TaskTimes>,
    /// The CNPT listing, by label.
    pub cnpt: Vec<String>,
    /// The feedback factor of each cloud.
    pub factors: Vec<f64>,
    /// With `dataset_gbit`: when the dataset is (or would be, once a task is placed there) at
    /// each cloud, seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dataset_arrival_s: Option<Vec<f64>>,
    /// CLS, CMMS, DCLS and DCMMS.
    pub schedules: Vec<ScheduleOutput>,
}

/// A task's priorities.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TaskTimes {
    /// Its label.
    pub id: String,
    /// Its average run over the clouds that can run it, seconds.
    pub at_s: f64,
    /// Earliest start, seconds.
    pub est_s: f64,
    /// Latest start, seconds.
    pub lst_s: f64,
    /// `EST = LST`.
    pub critical: bool,
}

/// One algorithm's schedule.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ScheduleOutput {
    /// `CLS`, `CMMS`, `DCLS` or `DCMMS`.
    pub algorithm: &'static str,
    /// Its decisions in order.
    pub decisions: Vec<DecisionOutput>,
    /// The latest finish, seconds.
    pub makespan_s: f64,
}

/// One decision.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DecisionOutput {
    /// The task.
    pub task: String,
    /// The cloud.
    pub cloud: String,
    /// Its ERAT, seconds.
    pub start_s: f64,
    /// Its planned finish, seconds.
    pub finish_s: f64,
    /// The objective it won with (`tau` or `tau_fd`), seconds.
    pub objective_s: f64,
}

/// Clouds that run one task at a time, each from when it is free and the dataset is there.
#[derive(Debug, Clone)]
struct Serial {
    /// The decision instant.
    now: Ticks,
    /// When each cloud is free.
    free: Vec<Ticks>,
    /// Where the dataset is, and its transfer to each cloud.
    dataset: Dataset<CLOUDS>,
}

impl Clouds for Serial {
    fn erat(&self, _: TaskId, cloud: usize, ready: Ticks) -> Option<Ticks> {
        let free = *self.free.get(cloud)?;
        Some(free.max(ready).max(self.dataset.arrival(cloud, self.now)?))
    }

    fn hold(&mut self, d: &Decision) -> Result<(), Error> {
        let free = self.free.get_mut(d.cloud).ok_or(Error::Unknown)?;
        *free = d.finish;
        self.dataset.send(d.cloud, self.now).ok_or(Error::Unknown)?;
        Ok(())
    }
}

/// The dataset of `input` (`now` the decision instant): where it is and its transfer to each
/// cloud, `MS/S_c`.
fn dataset(input: &DagInput, now: Ticks) -> Result<Dataset<CLOUDS>> {
    let k = input.clouds.len();
    let size = input.dataset_gbit.unwrap_or(0.0);
    ensure!(
        size.is_finite() && size >= 0.0,
        "dataset_gbit: {size} is not a size >= 0"
    );
    let mut at = [None; CLOUDS];
    match &input.dataset_at {
        Some(names) => {
            for (i, name) in names.iter().enumerate() {
                let what = format!("dataset_at[{i}]");
                let c = input
                    .clouds
                    .iter()
                    .position(|c| c == name)
                    .ok_or_else(|| anyhow!("{what}: unknown cloud `{name}`"))?;
                if let Some(j) = names[..i].iter().position(|n| n == name) {
                    bail!("{what}: `{name}` is named twice (also dataset_at[{j}])");
                }
                at[c] = Some(now);
            }
        }
        None => at[0] = Some(now),
    }
    let bandwidth = match &input.bandwidth_gbps {
        Some(b) => {
            ensure!(
                b.len() == k,
                "bandwidth_gbps: {} entries for {k} clouds",
                b.len()
            );
            for (j, &s) in b.iter().enumerate() {
                ensure!(
                    s.is_finite() && s >= 0.0,
                    "bandwidth_gbps[{j}]: {s} is not a speed >= 0 Gb/s"
                );
            }
            Some(b)
        }
        None => None,
    };
    let mut transfer = [Ticks::ZERO; CLOUDS];
    for j in 0..k {
        if at[j].is_some() || size == 0.0 {
            continue;
        }
        let Some(b) = bandwidth else {
            bail!(
                "bandwidth_gbps: missing; dataset_gbit {size} must reach `{}`, outside dataset_at",
                input.clouds[j]
            );
        };
        ensure!(
            b[j] > 0.0,
            "bandwidth_gbps[{j}]: 0 Gb/s cannot carry dataset_gbit {size} to `{}`",
            input.clouds[j]
        );
        transfer[j] = seconds(
            &format!("dataset_gbit / bandwidth_gbps[{j}] ({size} / {})", b[j]),
            size / b[j],
        )?;
    }
    Ok(Dataset { at, transfer })
}

/// A time in seconds: finite, `>= 0`, at most 1e9 s.
fn seconds(what: &str, v: f64) -> Result<Ticks> {
    ensure!(
        v.is_finite() && (0.0..=MAX_S).contains(&v),
        "{what}: {v} is not a time in 0 ..= 1e9 s"
    );
    Ok(ticks(v))
}

/// `units / per_tick` ticks as seconds, for printing (the kernel compared them exactly).
fn exact_secs(units: u128, per_tick: u64) -> f64 {
    units as f64 / per_tick as f64 / TICKS_PER_SECOND as f64
}

/// Lists and schedules `input` (see the module's documentation).
///
/// Errors: every problem of the input, named (a task by its id, a cloud by its name).
pub fn schedule(input: &DagInput) -> Result<DagOutput> {
    let k = input.clouds.len();
    ensure!(
        (1..=CLOUDS).contains(&k),
        "clouds: {k} clouds; 1 to {CLOUDS} are supported"
    );
    for (j, c) in input.clouds.iter().enumerate() {
        ensure!(!c.trim().is_empty(), "clouds[{j}]: an empty name");
        if let Some(i) = input.clouds[..j].iter().position(|d| d == c) {
            bail!("clouds[{j}]: `{c}` is named twice (also clouds[{i}])");
        }
    }
    let cloud_of = |name: &str, what: &str| {
        input
            .clouds
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| anyhow!("{what}: unknown cloud `{name}`"))
    };
    let image = seconds("image_s", input.image_s)?;
    let now = seconds("now_s", input.now_s)?;
    let mut dag = Dag::new();
    let mut etm = Etm::<CLOUDS>::new();
    for (v, t) in input.tasks.iter().enumerate() {
        ensure!(!t.id.trim().is_empty(), "tasks[{v}]: an empty id");
        let at = format!("tasks[{v}] (`{}`)", t.id);
        ensure!(
            !input.tasks[..v].iter().any(|u| u.id == t.id),
            "{at}: the id is used twice"
        );
        let mut preds = Tasks::EMPTY;
        for p in &t.preds {
            let Some(u) = input.tasks[..v].iter().position(|u| &u.id == p) else {
                bail!("{at}: predecessor `{p}` is not a task listed before it");
            };
            preds.insert(TaskId::new(u as u8));
        }
        dag.push(preds)
            .map_err(|e| anyhow!("{at}: {e} (at most 64 tasks)"))?;
        ensure!(
            t.etm_s.len() == k,
            "{at}: etm_s has {} entries for {k} clouds",
            t.etm_s.len()
        );
        for (j, e) in t.etm_s.iter().enumerate() {
            let run = e
                .map(|s| seconds(&format!("{at}: etm_s[{j}]"), s))
                .transpose()?;
            ensure!(
                run != Some(Ticks::ZERO),
                "{at}: etm_s[{j}]: a run time must be at least 1 us (the clock's tick), got {} s",
                e.unwrap_or_default()
            );
            etm.set(TaskId::new(v as u8), j, run)
                .map_err(|e| anyhow!("{at}: {e}"))?;
        }
        ensure!(
            etm.average(TaskId::new(v as u8)).is_some(),
            "{at}: no cloud can run it"
        );
    }
    let free: Vec<Ticks> = match &input.free_s {
        Some(f) => {
            ensure!(f.len() == k, "free_s: {} entries for {k} clouds", f.len());
            f.iter()
                .enumerate()
                .map(|(j, &s)| seconds(&format!("free_s[{j}]"), s))
                .collect::<Result<_>>()?
        }
        None => vec![now; k],
    };
    let data = dataset(input, now)?;
    let mut feedback = Feedback::<CLOUDS>::new(Alpha::ZERO);
    if let Some(fb) = &input.feedback {
        feedback = Feedback::new(Alpha::from_f64(fb.alpha).map_err(|_| {
            anyhow!(
                "feedback.alpha: {} is not in 0 ..= 1 with at most nine decimal places",
                fb.alpha
            )
        })?);
        for (i, o) in fb.observed.iter().enumerate() {
            let at = format!("feedback.observed[{i}]");
            let c = cloud_of(&o.cloud, &at)?;
            let erat = seconds(&format!("{at}.erat_s"), o.erat_s)?;
            let finish = seconds(&format!("{at}.finish_s"), o.finish_s)?;
            ensure!(
                finish > erat,
                "{at}: finish_s {} is not after erat_s {}: a task cannot finish before the cloud \
                 could start it",
                o.finish_s,
                o.erat_s
            );
            let planned = seconds(&format!("{at}.planned_s"), o.planned_s)?;
            ensure!(
                planned != Ticks::ZERO,
                "{at}.planned_s: the planned run time must be at least 1 us (the clock's tick), \
                 got {} s",
                o.planned_s
            );
            feedback
                .complete(0, c, erat, finish, planned)
                .map_err(|e| anyhow!("{at}: {e}"))?;
        }
    }
    let dynamic = feedback.factors(0).unwrap_or([Factor::ZERO; CLOUDS]);
    let label = |v: TaskId| input.tasks[usize::from(v)].id.clone();
    let mut schedules = Vec::new();
    let mut first: Option<Scheduler<'_, CLOUDS>> = None;
    for (algorithm, rule, factors) in [
        ("CLS", Rule::List, [Factor::ZERO; CLOUDS]),
        ("CMMS", Rule::MinMin, [Factor::ZERO; CLOUDS]),
        ("DCLS", Rule::List, dynamic),
        ("DCMMS", Rule::MinMin, dynamic),
    ] {
        let mut s = Scheduler::new(now, &dag, &etm, image, rule, factors)
            .map_err(|e| anyhow!("{algorithm}: {e}"))?;
        let mut clouds = Serial {
            now,
            free: free.clone(),
            dataset: data,
        };
        s.run(&mut clouds)
            .map_err(|e| anyhow!("{algorithm}: {e}"))
            .context("scheduling")?;
        schedules.push(ScheduleOutput {
            algorithm,
            decisions: s
                .decisions()
                .map(|d| DecisionOutput {
                    task: label(d.task),
                    cloud: input.clouds[d.cloud].clone(),
                    start_s: secs(d.start),
                    finish_s: secs(d.finish),
                    objective_s: secs(d.objective),
                })
                .collect(),
            makespan_s: secs(s.makespan()),
        });
        first.get_or_insert(s);
    }
    let s = first.ok_or_else(|| anyhow!("no schedule"))?;
    let prio = s.priorities();
    let at = etm.averages();
    Ok(DagOutput {
        tasks: dag
            .tasks()
            .iter()
            .map(|v| TaskTimes {
                id: label(v),
                at_s: exact_secs(at[usize::from(v)].total(), at[usize::from(v)].count()),
                est_s: exact_secs(prio.est(v).units(), prio.est(v).scale()),
                lst_s: exact_secs(prio.lst(v).units(), prio.lst(v).scale()),
                critical: prio.critical().contains(v),
            })
            .collect(),
        cnpt: s.listing().as_slice().iter().map(|&v| label(v)).collect(),
        factors: (0..k)
            .map(|j| {
                feedback
                    .factor(0, j)
                    .map_or(0.0, |f| f.num() as f64 / f.den() as f64)
            })
            .collect(),
        dataset_arrival_s: input.dataset_gbit.map(|_| {
            (0..k)
                .map(|j| data.arrival(j, now).map_or(0.0, secs))
                .collect()
        }),
        schedules,
    })
}

/// The answer as text: the priorities table, the listing, the factors and each schedule.
pub fn render(out: &DagOutput) -> String {
    use crate::report::table::{Align, table};
    let rows: Vec<Vec<String>> = out
        .tasks
        .iter()
        .map(|t| {
            vec![
                t.id.clone(),
                format!("{:.3}", t.at_s),
                format!("{:.3}", t.est_s),
                format!("{:.3}", t.lst_s),
                if t.critical { "yes" } else { "" }.into(),
            ]
        })
        .collect();
    let mut text = table(
        &[
            ("task", Align::Left),
            ("AT s", Align::Right),
            ("EST s", Align::Right),
            ("LST s", Align::Right),
            ("critical", Align::Left),
        ],
        &rows,
    );
    text.push_str(&format!("\nCNPT list: {}\n", out.cnpt.join(" ")));
    let factors: Vec<String> = out.factors.iter().map(|f| format!("{f:.4}")).collect();
    text.push_str(&format!("feedback factors: {}\n", factors.join(" ")));
    if let Some(arrival) = &out.dataset_arrival_s {
        let arrival: Vec<String> = arrival.iter().map(f64::to_string).collect();
        text.push_str(&format!("dataset arrival s: {}\n", arrival.join(" ")));
    }
    for s in &out.schedules {
        text.push_str(&format!(
            "\n{} (makespan {} s)\n",
            s.algorithm, s.makespan_s
        ));
        let rows: Vec<Vec<String>> = s
            .decisions
            .iter()
            .map(|d| {
                vec![
                    d.task.clone(),
                    d.cloud.clone(),
                    d.start_s.to_string(),
                    d.finish_s.to_string(),
                    d.objective_s.to_string(),
                ]
            })
            .collect();
        text.push_str(&table(
            &[
                ("task", Align::Left),
                ("cloud", Align::Left),
                ("start s", Align::Right),
                ("finish s", Align::Right),
                ("objective s", Align::Right),
            ],
            &rows,
        ));
    }
    text
}
