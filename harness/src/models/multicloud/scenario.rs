//! Multi-cloud scenario files (gandhimathi2013): what `qosgate run` simulates for `model =
//! "multicloud"`, in TOML. The format, key by key, is in `docs/multicloud-scenarios.md`.
//!
//! A scenario names the clouds (servers, VMs per server, per-core performance, the job trace
//! each one's applications come from), how applications are built from the traces (DAG shape,
//! the share of advance reservations, the arrival-gap divisor), the scheduler (FCFS, DCLS or
//! DCMMS with its feedback weight alpha), the server mapping, the transfer times and the
//! servers' power. Seconds are decimal numbers.
//!
//! - [`Scenario::parse`](crate::models::ScenarioFile::parse) reads and checks a file (every problem as `file:line:column: key: what is
//!   wrong`); [`Scenario::validate`](crate::models::ScenarioFile::validate) runs the same checks on a scenario built in code (the presets).
//! - [`to_toml`] writes a scenario that [`Scenario::parse`](crate::models::ScenarioFile::parse) reads back unchanged.
//! - [`TraceSource`]: a trace compiled into the binary (the cut-downs of `data/traces/`) or a
//!   file.

use std::path::PathBuf;

use qosgate_kernel::listsched::Alpha;
use serde::{Deserialize, Serialize};

use super::capacity;
use crate::config::{self, Header, Problem, Problems};

/// The longest time a scenario may state, seconds (about 31.7 years): far beyond any trace
/// window, and small enough that every sum of a few times stays exact in ticks.
pub const MAX_SECONDS: f64 = 1e9;

/// A scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Name, description, base seed and replications (the file's first keys: see
    /// [`Header`]).
    #[serde(skip)]
    pub header: Header,
    /// Who decides where each task runs.
    pub scheduler: SchedulerKind,
    /// Where FCFS sends a task (unused by DCLS and DCMMS); the paper does not define its FCFS.
    #[serde(default)]
    pub fcfs: FcfsCloud,
    /// The order in which a cloud serves its best-effort tasks.
    #[serde(default)]
    pub queue: QueueOrder,
    /// The feedback weight of DCLS and DCMMS, `0 ..= 1` (0: CLS and CMMS). Unused by FCFS.
    pub alpha: f64,
    /// The instant a finished task's `delta_tau` (Eq. 6) is measured from (default: its actual
    /// start, the paper's words).
    #[serde(default)]
    pub feedback_from: FeedbackFrom,
    /// How a cloud maps its leases onto servers.
    pub mapping: MappingKind,
    /// How a reservation picks the best-effort leases it preempts.
    pub preemption: PreemptionKind,
    /// Share of the applications that are advance reservations, `0 ..= 1`.
    pub ar_share: f64,
    /// An AR application's entry tasks ask to start at a uniform instant in `(0,
    /// ar_notice_max_s]` after it arrives, seconds (the paper: 30 min).
    pub ar_notice_max_s: f64,
    /// Arrival gaps are divided by this, `>= 1` (1: "loose", 100: "tight").
    pub gap_divisor: f64,
    /// Image transfer time `SI/b`, seconds: added to every task's run, and the time to suspend
    /// (store the image) and to resume (reload it) a best-effort lease.
    pub image_s: f64,
    /// Dataset transfer time `MS/S_c`, seconds: before an application's first task on a cloud
    /// other than its origin can start there.
    pub dataset_s: f64,
    /// Power of one server.
    pub power: Power,
    /// How jobs are grouped into applications.
    pub dag: DagShape,
    /// A control workload: every task's VMs drawn uniform on `min ..= max` instead of its job's
    /// processors (run times and arrivals stay the trace's). Absent (the default): the trace's
    /// widths.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub widths: Option<Widths>,
    /// The clouds (1 to 3); the applications of cloud `i`'s trace are submitted to cloud `i`.
    pub clouds: Vec<CloudConfig>,
}

/// The scheduler of every cloud's manager.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SchedulerKind {
    /// E25's baseline: each task, when ready, to the cloud where it can start
    /// earliest, in (application arrival, task) order.
    Fcfs,
    /// DCLS: the cloud list scheduling of Algorithm 2 at the application's arrival, with the
    /// feedback factors (CLS at `alpha = 0`).
    Dcls,
    /// DCMMS: the cloud min-min scheduling of Algorithm 3, with the feedback factors (CMMS at
    /// `alpha = 0`).
    Dcmms,
}

/// Where the FCFS baseline sends a task that became ready (the paper does not define its FCFS;
/// erratum E25).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FcfsCloud {
    /// E25's reading: to the cloud where it can start earliest (a balancing FCFS).
    #[default]
    EarliestStart,
    /// To its application's own cloud (where it was submitted, whose trace it comes from, where
    /// its dataset is), served there first come, first served: no balancing across clouds, the
    /// "workload unbalance" the paper calls FCFS's major drawback (Sec. 4.2). A task its own
    /// cloud cannot run (too few VMs) goes where it can start earliest.
    HomeCloud,
}

/// The order in which a cloud's best-effort tasks that are ready (predecessors finished,
/// dataset there) start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QueueOrder {
    /// In the order they were assigned to the cloud (DCLS and DCMMS place a whole application
    /// at its arrival), skipping tasks not yet ready: a task assigned earlier that becomes ready
    /// goes ahead of every later-assigned task still waiting. The cloud keeps the execution
    /// order its planning profile promised (Sec. 3.1.4, Fig. 6).
    #[default]
    Assigned,
    /// First come, first served in the order they became ready: each joins its cloud's lease
    /// queue when ready, behind every task that became ready before it.
    Ready,
}

/// The instant from which a finished task's `delta_tau` (Eq. 6) is measured, which Eq. 7 turns
/// into the feedback factor `fd = alpha (finish - instant - D) / D` (`D = SI/b + ETM`, the run
/// its placement planned). The paper names `delta_tau` "the actual execution time of task i on
/// cloud j" and prints it as `Tact_fin - ERAT_{i,j}`; the two agree where a task starts at its
/// ERAT (Fig. 5), not where it starts later (erratum E23). [`FeedbackFrom::instant`] is the one
/// place every reading is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeedbackFrom {
    /// Its actual start on its cloud (the paper's words: its actual execution time there): the
    /// cloud is charged with what happened to the task once it ran (a preemption, a slow
    /// server), not with the wait before it.
    #[default]
    Start,
    /// Its planned ERAT, which E22 builds from its predecessors' planned finishes (Eq. 6 as
    /// printed): a task whose predecessors finished late counts their lateness against its own
    /// cloud.
    Erat,
    /// The later of its planned ERAT and the instant it reached its cloud (predecessors
    /// finished, dataset there): the cloud is charged with its own delays only, not with its
    /// predecessors' lateness on other clouds.
    Ready,
}

impl FeedbackFrom {
    /// Every reading, the default first.
    pub const ALL: [Self; 3] = [Self::Start, Self::Erat, Self::Ready];

    /// The instant `delta_tau` runs from for a task planned to start at `planned_start` (its
    /// ERAT) that reached its cloud at `reached` and first started there at `started`; `None`
    /// where the reading needs an instant the task never got to. Generic over the instant's
    /// type so that the simulation (ticks) and the metrics (seconds) read it through this one
    /// function.
    pub fn instant<T: PartialOrd + Copy>(
        self,
        planned_start: T,
        reached: Option<T>,
        started: Option<T>,
    ) -> Option<T> {
        match self {
            Self::Start => started,
            Self::Erat => Some(planned_start),
            Self::Ready => reached.map(|r| if r > planned_start { r } else { planned_start }),
        }
    }

    /// Its name in a scenario file (`start`, `erat`, `ready`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Start => "start",
            Self::Erat => "erat",
            Self::Ready => "ready",
        }
    }
}

/// The local mapping of leases onto servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MappingKind {
    /// Algorithms 4-5 (as corrected in erratum E24).
    EnergyAware,
    /// Servers in index order, VM by VM (a task may be split over servers).
    FirstFit,
    /// Each task whole on the first server with room for it; split VM by VM only when none
    /// has.
    FirstFitTask,
    /// Each VM on the server with the most free VMs.
    WorstFit,
}

/// The choice among sets of best-effort leases a reservation could preempt (salehi2011's
/// policies; gandhimathi2013 names none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PreemptionKind {
    /// Fewest leases.
    Mlip,
    /// Median overhead, then fewest leases.
    Moml,
    /// Least overhead.
    Mov,
}

/// Power drawn by one server, in any unit (the reports give energy in that unit times
/// seconds); the paper gives none (E25).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Power {
    /// While it hosts at least one VM.
    pub active: f64,
    /// While it hosts none.
    pub idle: f64,
}

/// How consecutive jobs of a trace become an application (erratum E25).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DagShape {
    /// Jobs per application: uniform on `1 ..= max_tasks` (at most 64).
    pub max_tasks: u8,
    /// Each task after the first is an entry task with this probability.
    pub entry_probability: f64,
    /// Else it has `1 ..= max_preds` predecessors among the earlier tasks (fewer if fewer
    /// exist).
    pub max_preds: u8,
}

/// The VMs of a control workload's tasks: uniform on `min ..= max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Widths {
    /// The fewest VMs a task needs, `>= 1`.
    pub min: u32,
    /// The most, `>= min`.
    pub max: u32,
}

/// One cloud: its servers and the trace of the applications submitted to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloudConfig {
    /// Its name (`Thunder`).
    pub name: String,
    /// Servers.
    pub servers: u32,
    /// VMs (cores) per server.
    pub vms_per_server: u8,
    /// Per-core performance, relative (Table 2: 1, 0.85, 0.50): a task runs `perf(origin) /
    /// perf(this)` times its trace run time here.
    pub performance: f64,
    /// The job trace (SWF).
    pub trace: TraceSource,
    /// Each job's processors are multiplied by this to give its VMs (a stand-in trace scaled to
    /// the cloud).
    pub width_scale: u32,
    /// The first `jobs` usable jobs of the trace (in submit order) are its applications'
    /// tasks.
    pub jobs: u32,
}

/// Where a trace comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceSource {
    /// A cut-down compiled into the binary ([`super::traces`]).
    Builtin(BuiltinTrace),
    /// A file, read when the scenario is simulated.
    File(PathBuf),
}

/// The cut-downs compiled into the binary (`data/traces/`, header and first jobs of each).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BuiltinTrace {
    /// LLNL Thunder, 2007 (cleaned v1.1).
    LlnlThunder,
    /// LLNL Atlas, 2006 (cleaned v2.1).
    LlnlAtlas,
    /// NASA Ames iPSC/860, 1993 (cleaned v3.1): the uBGL stand-in.
    NasaIpsc,
}

/// Every problem of `s`, each named by its key path ([`ScenarioFile::problems`]).
///
/// The checks:
/// - an empty `name`, `replications` outside `1 ..= 10,000`, a `seed` above TOML's largest integer;
/// - `alpha` or `ar_share` outside `0 ..= 1`, `alpha` with more than nine decimal places,
///   `gap_divisor` below 1 or not finite;
/// - `image_s`, `dataset_s`, `ar_notice_max_s` not finite, negative or above [`MAX_SECONDS`]
///   (`image_s` and `ar_notice_max_s` must be positive);
/// - a power not finite or negative, or idle above active;
/// - `dag.max_tasks` outside `1 ..= 64`, `dag.max_preds` zero, `dag.entry_probability`
///   outside `0 ..= 1`; `widths.min` zero or `widths.max` below it;
/// - no clouds or more than [`capacity::CLOUDS`]; a cloud without a name or with a duplicate
///   one, zero servers or more than [`capacity::SERVERS`], zero VMs per server, a performance
///   not finite and positive, a zero `width_scale` or `jobs`, more VMs than the lease
///   manager's node count holds.
pub(super) fn check(s: &Scenario) -> Vec<Problem> {
    let mut p = Problems::default();
    p.header(&s.header);
    fraction(&mut p, "alpha", s.alpha);
    if (0.0..=1.0).contains(&s.alpha) && Alpha::from_f64(s.alpha).is_err() {
        p.add(
            "alpha",
            format!(
                "{} has more than nine decimal places (the feedback carries alpha exactly)",
                s.alpha
            ),
        );
    }
    fraction(&mut p, "ar_share", s.ar_share);
    if !(s.gap_divisor.is_finite() && s.gap_divisor >= 1.0) {
        p.add(
            "gap_divisor",
            format!("must be a finite number >= 1, got {}", s.gap_divisor),
        );
    }
    p.seconds("image_s", s.image_s, false, MAX_SECONDS);
    p.seconds("dataset_s", s.dataset_s, true, MAX_SECONDS);
    p.seconds("ar_notice_max_s", s.ar_notice_max_s, false, MAX_SECONDS);
    for (key, w) in [
        ("power.active", s.power.active),
        ("power.idle", s.power.idle),
    ] {
        if !(w.is_finite() && w >= 0.0) {
            p.add(key, format!("must be a finite number >= 0, got {w}"));
        }
    }
    if s.power.idle > s.power.active {
        p.add(
            "power.idle",
            format!(
                "{} is above power.active ({}): an idle server draws less",
                s.power.idle, s.power.active
            ),
        );
    }
    if !(1..=64).contains(&s.dag.max_tasks) {
        p.add(
            "dag.max_tasks",
            format!("must be in 1 ..= 64, got {}", s.dag.max_tasks),
        );
    }
    if s.dag.max_preds == 0 {
        p.add("dag.max_preds", "must be at least 1");
    }
    fraction(&mut p, "dag.entry_probability", s.dag.entry_probability);
    if let Some(w) = s.widths {
        if w.min == 0 {
            p.add("widths.min", "must be at least 1");
        }
        if w.max < w.min {
            p.add(
                "widths.max",
                format!("{} is below widths.min ({})", w.max, w.min),
            );
        }
    }
    check_clouds(&mut p, &s.clouds);
    p.0
}

/// A probability or weight: finite, in `0 ..= 1`.
fn fraction(p: &mut Problems, path: &str, v: f64) {
    if !(0.0..=1.0).contains(&v) {
        p.add(path, format!("must be in 0 ..= 1, got {v}"));
    }
}

fn check_clouds(p: &mut Problems, clouds: &[CloudConfig]) {
    if clouds.is_empty() || clouds.len() > capacity::CLOUDS {
        p.add(
            "clouds",
            format!(
                "{} clouds: the model simulates 1 to {}",
                clouds.len(),
                capacity::CLOUDS
            ),
        );
    }
    for (i, c) in clouds.iter().enumerate() {
        let at = |key: &str| format!("clouds[{i}].{key}");
        if c.name.trim().is_empty() {
            p.add(at("name"), "must not be empty");
        } else if clouds[..i].iter().any(|d| d.name == c.name) {
            p.add(at("name"), format!("`{}` names two clouds", c.name));
        }
        if c.servers == 0 || c.servers as usize > capacity::SERVERS {
            p.add(
                at("servers"),
                format!("must be in 1 ..= {}, got {}", capacity::SERVERS, c.servers),
            );
        }
        if c.vms_per_server == 0 {
            p.add(at("vms_per_server"), "must be at least 1");
        }
        if !(c.performance.is_finite() && c.performance > 0.0) {
            p.add(
                at("performance"),
                format!("must be a finite number > 0, got {}", c.performance),
            );
        }
        if c.width_scale == 0 {
            p.add(at("width_scale"), "must be at least 1");
        }
        if c.jobs == 0 {
            p.add(at("jobs"), "must be at least 1");
        }
    }
}

/// The scenario as a TOML file that [`Scenario::parse`](crate::models::ScenarioFile::parse) reads back unchanged.
pub fn to_toml(s: &Scenario) -> String {
    config::to_toml(
        "# qosgate multi-cloud scenario (gandhimathi2013; format: docs/multicloud-scenarios.md).\n\
         # Times in seconds; power per server in any unit.\n\
         ",
        "multicloud",
        s,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::ScenarioFile;

    pub(crate) fn example() -> Scenario {
        let cloud = |name: &str, trace| CloudConfig {
            name: name.into(),
            servers: 16,
            vms_per_server: 4,
            performance: 1.0,
            trace: TraceSource::Builtin(trace),
            width_scale: 1,
            jobs: 40,
        };
        Scenario {
            header: Header {
                name: "example".into(),
                description: "two clouds".into(),
                seed: 1,
                replications: 2,
            },
            scheduler: SchedulerKind::Dcmms,
            fcfs: FcfsCloud::HomeCloud,
            queue: QueueOrder::Ready,
            alpha: 0.8,
            feedback_from: FeedbackFrom::Ready,
            mapping: MappingKind::EnergyAware,
            preemption: PreemptionKind::Mlip,
            ar_share: 0.2,
            ar_notice_max_s: 1800.0,
            gap_divisor: 1.0,
            image_s: 1.0,
            dataset_s: 8000.0,
            power: Power {
                active: 1.0,
                idle: 0.3,
            },
            dag: DagShape {
                max_tasks: 64,
                entry_probability: 0.1,
                max_preds: 3,
            },
            widths: Some(Widths { min: 1, max: 16 }),
            clouds: vec![
                cloud("A", BuiltinTrace::LlnlThunder),
                cloud("B", BuiltinTrace::NasaIpsc),
            ],
        }
    }

    #[test]
    fn a_scenario_reads_back_unchanged() {
        let s = example();
        let text = to_toml(&s);
        assert_eq!(Scenario::parse(&text, "x.toml").unwrap(), s);
    }

    #[test]
    fn omitted_readings_default_to_e25s_fcfs_the_assigned_queue_and_the_actual_start() {
        let text = to_toml(&example())
            .lines()
            .filter(|l| {
                !["fcfs =", "queue =", "feedback_from ="]
                    .iter()
                    .any(|k| l.starts_with(k))
            })
            .collect::<Vec<_>>()
            .join("\n");
        let s = Scenario::parse(&text, "x.toml").unwrap();
        assert_eq!(
            (s.fcfs, s.queue, s.feedback_from),
            (
                FcfsCloud::EarliestStart,
                QueueOrder::Assigned,
                FeedbackFrom::Start
            )
        );
    }

    /// Without `[widths]` the tasks keep the trace's widths.
    #[test]
    fn omitted_widths_are_the_traces() {
        let mut s = example();
        s.widths = None;
        let text = to_toml(&s);
        assert!(!text.contains("widths"), "{text}");
        assert_eq!(Scenario::parse(&text, "x.toml").unwrap().widths, None);
    }

    /// Every reading's name reads back as that reading.
    #[test]
    fn every_feedback_reading_reads_back_by_its_name() {
        for f in FeedbackFrom::ALL {
            let mut s = example();
            s.feedback_from = f;
            let text = to_toml(&s);
            assert!(
                text.contains(&format!("feedback_from = \"{}\"", f.name())),
                "{text}"
            );
            assert_eq!(Scenario::parse(&text, "x.toml").unwrap().feedback_from, f);
        }
    }

    /// The factor the kernel's feedback sets (alpha 0.8) for a task of cloud 0 on cloud 2 under
    /// `reading`, planned from `erat` for `d`, that reached cloud 2 at `reached`, started at
    /// `started` and finished at `finish` (seconds), as `(num, den)`.
    fn factor(reading: FeedbackFrom, times: [u64; 5]) -> (i128, u128) {
        use qosgate_kernel::listsched::Feedback;
        use qosgate_kernel::units::Ticks;
        let [erat, d, reached, started, finish] = times.map(Ticks::from_secs);
        let from = reading.instant(erat, Some(reached), Some(started)).unwrap();
        let mut feedback = Feedback::<3>::new(Alpha::new(4, 5).unwrap());
        let fd = feedback.complete(0, 2, from, finish, d).unwrap();
        (fd.num(), fd.den())
    }

    /// Fig. 5 (erratum E23): task i, planned on C from its ERAT 2 s for D = 1 + 7 s, is there
    /// from 0 s, starts at its ERAT and is delayed only by the reservation that preempts it on
    /// [8, 12), finishing at 14 s. Every reading measures from 2 s: fd_C = 0.8 (14 - 2 - 8) / 8
    /// = 0.4 under each.
    #[test]
    fn fig5s_task_gives_every_reading_the_same_factor() {
        let times = [2, 8, 0, 2, 14];
        for f in FeedbackFrom::ALL {
            assert_eq!(f.instant(2, Some(0), Some(2)), Some(2), "{f:?}");
            assert_eq!(factor(f, times), (2, 5), "{f:?}");
        }
    }

    /// Erratum E23: a task planned from 10 s for D = 8 s whose predecessor on another cloud
    /// finished late reaches its cloud at 30 s, starts at 31 s (behind a task there) and
    /// finishes at 39 s. From the planned ERAT the cloud is charged with the predecessor's
    /// lateness, fd = 0.8 (39 - 10 - 8) / 8 = 2.1; from the instant it reached the cloud with
    /// its wait there, 0.8 (39 - 30 - 8) / 8 = 0.1; from its actual start (the words) with
    /// nothing, 0.8 (39 - 31 - 8) / 8 = 0.
    #[test]
    fn a_late_predecessor_separates_the_readings() {
        let times = [10, 8, 30, 31, 39];
        assert_eq!(factor(FeedbackFrom::Erat, times), (21, 10));
        assert_eq!(factor(FeedbackFrom::Ready, times), (1, 10));
        assert_eq!(factor(FeedbackFrom::Start, times), (0, 1));
        // A reading without the instant it needs has none.
        assert_eq!(FeedbackFrom::Start.instant(10, Some(30), None), None);
        assert_eq!(FeedbackFrom::Ready.instant(10, None, Some(31)), None);
        assert_eq!(
            FeedbackFrom::Ready.instant(10.0, Some(4.0), None),
            Some(10.0)
        );
    }

    #[test]
    fn every_problem_is_named_by_its_key_and_position() {
        let mut s = example();
        s.alpha = 1.5;
        s.clouds[1].name = "A".into();
        s.clouds[0].servers = 0;
        s.widths = Some(Widths { min: 4, max: 2 });
        let text = to_toml(&s);
        let e = Scenario::parse(&text, "x.toml").unwrap_err().to_string();
        let lines: Vec<&str> = e.lines().collect();
        assert_eq!(lines.len(), 4, "{e}");
        assert!(e.contains("widths.max: 2 is below widths.min (4)"), "{e}");
        assert!(
            lines[0].starts_with("x.toml:") && lines[0].contains(": alpha: must be in 0 ..= 1")
        );
        assert!(e.contains("clouds[0].servers: must be in 1 ..="), "{e}");
        assert!(e.contains("clouds[1].name: `A` names two clouds"), "{e}");
        s.alpha = 0.1234567891;
        let e = Scenario::parse(&to_toml(&s), "x.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("alpha: 0.1234567891 has more than nine decimal places"),
            "{e}"
        );
    }
}
