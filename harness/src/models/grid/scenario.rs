//! Scenario files: what `qosgate run` simulates, in TOML.
//!
//! A scenario names the grid (resources), its users, the meta-scheduler's policy, the network,
//! the horizon and the seeds. Every field is documented with its unit; seconds are decimal
//! numbers, work is integer MI, capacity integer MIPS. The file format, key by key, is in
//! `docs/scenarios.md`.
//!
//! - [`Scenario::parse`](crate::models::ScenarioFile::parse) and [`load`] read a file into a checked [`Scenario`]. Every problem (a TOML
//!   syntax error, an unknown or missing key, a value of the wrong type, an impossible value, an
//!   inconsistency between keys) is reported as `file:line:column: key: what is wrong`, with the
//!   key as a path (`users[2].workload.uniform.min`); a file with several impossible values
//!   gets one line for each.
//! - [`Scenario::validate`](crate::models::ScenarioFile::validate) runs the same checks on a scenario built in code (the presets).
//! - [`to_toml`] writes a scenario as a commented file that [`Scenario::parse`](crate::models::ScenarioFile::parse) reads back unchanged.
//! - [`Dist`]: a user's distributions (the workload module's, re-exported): Sec. 6's fixed,
//!   uniform and exponential, and the Weibull, lognormal and hyperexponential forms.
//!
//! Parsing is done in two passes over the same text: the TOML document is parsed once with the
//! position of every key and value, then deserialized (serde reports type errors and unknown
//! keys by position), then checked; a check names a key path, and the path is looked up in the
//! positions of the first pass.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, Result, bail};
use qosgate_kernel::units::{MAX_CAPACITY, MAX_TASK_WORK, TICKS_PER_SECOND};
use serde::{Deserialize, Serialize};

use super::capacity;
use crate::config::{self, Header, Problem, Problems, TOML_INT_MAX};
use crate::models::ScenarioFile;
pub use crate::workload::dist::Dist;
use crate::workload::dist::{DistError, Param, Phase};

/// A scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Name, description, base seed and replications (the file's first keys: see
    /// [`Header`]).
    #[serde(skip)]
    pub header: Header,
    /// Tasks are created during `[0, horizon_s)`, seconds; the run goes on until every task
    /// created has ended.
    pub horizon_s: f64,
    /// Tasks created before this instant, seconds, are simulated but left out of the metrics.
    pub warmup_s: f64,
    /// The central meta-scheduler.
    pub meta: Meta,
    /// The links between users, the meta-scheduler and resources.
    pub network: Network,
    /// The resources, in registration-search order.
    pub resources: Vec<ResourceConfig>,
    /// The users, in registration order.
    pub users: Vec<UserConfig>,
}

/// The meta-scheduler (kokkinos2009 Sec. 5.1, 6.1: the centralized implementation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    /// Ordering phase of best-effort scheduling (the assignment phase is EST).
    pub order: MetaOrder,
    /// Best-effort tasks are collected and scheduled once per period, seconds (the paper: 1 s).
    pub collection_period_s: f64,
}

/// Best-effort ordering: EDF/EST or WFQ/EST (kokkinos2009 Sec. 3.3, 6.4.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MetaOrder {
    /// Earliest deadline first.
    Edf,
    /// Weighted fair queueing among BE users.
    Wfq,
}

/// Links of equal bandwidth and zero propagation delay (kokkinos2009 Sec. 6.2): every hop (user to
/// meta-scheduler, meta-scheduler to resource, resource back to the user) takes
/// `bytes × 8 / bandwidth_bps` seconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Network {
    /// Bits per second of every link.
    pub bandwidth_bps: f64,
    /// Bytes sent with a task (the paper: 1000).
    pub input_bytes: u64,
    /// Bytes of a task's results (the paper: 1000).
    pub output_bytes: u64,
}

/// A resource.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResourceConfig {
    /// Its name (`R1`, ...).
    pub name: String,
    /// Its type (kokkinos2009 Sec. 3.4).
    pub kind: ResourceKind,
    /// The local fair-queue discipline (the paper's simulations ran SCFQ).
    pub discipline: Discipline,
    /// Capacity of each CPU, MIPS (one entry per CPU).
    pub cpus: Vec<u64>,
    /// Largest task it accepts, `I_r^max`, MI.
    pub max_task_mi: u64,
    /// Most users (flows) registered at once, temporary BE users included.
    pub max_users: u16,
}

/// The resource types of kokkinos2009 Sec. 3.4 (Table 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResourceKind {
    /// Guaranteed service only.
    Gs,
    /// Best effort only (FCFS).
    Be,
    /// Both, BE tasks as temporary fair-queue users.
    GsBeEqual,
    /// Both, GS first, non-preemptive.
    GsBePriority,
    /// Both, GS first, a GS arrival pauses a running BE task.
    GsBePriorityPreemptive,
}

/// The local fair-queue discipline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Discipline {
    /// Weighted fair queueing (PGPS).
    Wfq,
    /// Self-clocked fair queueing.
    Scfq,
}

/// A user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserConfig {
    /// Its name (`U1`, ...).
    pub name: String,
    /// Guaranteed service or best effort.
    pub class: UserClass,
    /// Share weight `w` (Eq. 1; WFQ/EST for BE users).
    pub weight: u16,
    /// GS users: long-term rate rho, MIPS.
    #[serde(default)]
    pub rho_mips: Option<u64>,
    /// GS users: burst sigma, MI.
    #[serde(default)]
    pub sigma_mi: Option<u64>,
    /// GS users: largest task `I_i^max`, MI.
    #[serde(default)]
    pub max_task_mi: Option<u64>,
    /// GS users: what the meta-scheduler knows of a task's workload (kokkinos2009 Sec. 4.2).
    #[serde(default)]
    pub knowledge: Option<Knowledge>,
    /// GS users: what becomes of a task above `max_task_mi` (Eq. 4); absent: `best_effort`.
    #[serde(default)]
    pub oversize: Option<Oversize>,
    /// GS users: entries of its resource's queue set aside for its waiting tasks, which best
    /// effort never takes; at most this many of its tasks are on their way to the resource or
    /// waiting there (the meta-scheduler holds the next one back). Absent: the most a conforming
    /// user can need ([`qosgate_kernel::bound::entries_needed`] with the workload's smallest
    /// value), up to an even share of the queue (`QUEUE / max_users`).
    #[serde(default)]
    pub queue_entries: Option<u16>,
    /// Task workload, MI.
    pub workload: Dist,
    /// Time between task creations, seconds.
    pub interarrival: Dist,
    /// When the user creates its first task, seconds (drawn once per replication, first of the
    /// user's draws); absent: at 0. Users whose first tasks fall at one instant create them in
    /// scenario order, so a random phase is what keeps a comparison from resting on one tie
    /// order (kokkinos2009 Sec. 6.4.4, erratum E32).
    #[serde(default)]
    pub phase_s: Option<Dist>,
    /// Non-critical deadline of every task, seconds after its creation.
    pub deadline_s: f64,
}

/// Guaranteed service or best effort.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UserClass {
    /// Guaranteed service: registers, (rho, sigma) enforced, delay bound.
    Gs,
    /// Best effort.
    Be,
}

/// What becomes of a GS user's task above its `max_task_mi` (Eq. 4). No such task runs as GS
/// under a guarantee: the kernel's resource refuses it, whatever the user knows of workloads
/// (with exact knowledge the meta-scheduler already sees it). In TOML: `"best_effort"` (also
/// spelt `"refuse"`, its name before the rule covered every knowledge mode), `"reject"` or
/// `"admit"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Oversize {
    /// The task is handled as best effort (Sec. 3.2: the user "schedules it like a BE task").
    #[serde(alias = "refuse")]
    BestEffort,
    /// The task is rejected, with the reason.
    Reject,
    /// The registration admits such tasks (the kernel's
    /// [`Oversize::Admit`](qosgate_kernel::bucket::Oversize::Admit)): they run as GS up to
    /// the resource's `max_task_mi` (exact users charge their real work, up to `sigma_mi`),
    /// the user has no guarantee, and the other users' bounds count it as sending tasks of the
    /// resource's `max_task_mi`.
    Admit,
}

impl From<Oversize> for qosgate_kernel::bucket::Oversize {
    fn from(o: Oversize) -> Self {
        match o {
            Oversize::BestEffort | Oversize::Reject => Self::Refuse,
            Oversize::Admit => Self::Admit,
        }
    }
}

/// Workload knowledge of kokkinos2009 Sec. 4.2 (the kernel's
/// [`qosgate_kernel::bucket::Knowledge`]).
///
/// In TOML: `"exact"`, `"conservative"`, `"conservative_feedback"`, `"aggressive"`, or
/// `{ window = 5 }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Knowledge {
    /// Workloads known a priori.
    Exact,
    /// Every task charged at `I_max`.
    Conservative,
    /// Charged at `I_max`, corrected when the task ends.
    ConservativeFeedback,
    /// At most `n` tasks without feedback outstanding.
    Window(u16),
    /// Charged only when the task ends.
    Aggressive,
}

impl UserConfig {
    /// A best-effort user: none of the GS options, its first task at 0 s.
    pub fn best_effort(
        name: impl Into<String>,
        weight: u16,
        workload: Dist,
        interarrival: Dist,
        deadline_s: f64,
    ) -> Self {
        Self {
            name: name.into(),
            class: UserClass::Be,
            weight,
            rho_mips: None,
            sigma_mi: None,
            max_task_mi: None,
            knowledge: None,
            oversize: None,
            queue_entries: None,
            workload,
            interarrival,
            phase_s: None,
            deadline_s,
        }
    }

    /// The registration a GS user asks of a resource: its (`rho_mips`, `sigma_mi`,
    /// `max_task_mi`), weight, knowledge and oversize rule (default: best effort), no queue
    /// entries (the simulator sets them per resource).
    ///
    /// Errors: one of `rho_mips`, `sigma_mi`, `max_task_mi`, `knowledge` missing (named with the
    /// user).
    pub fn registration(&self) -> Result<qosgate_kernel::registry::Registration> {
        let (Some(rho), Some(sigma), Some(imax), Some(knowledge)) = (
            self.rho_mips,
            self.sigma_mi,
            self.max_task_mi,
            self.knowledge,
        ) else {
            bail!(
                "GS user {} needs rho_mips, sigma_mi, max_task_mi and knowledge",
                self.name
            );
        };
        Ok(qosgate_kernel::registry::Registration {
            weight: self.weight,
            rho: qosgate_kernel::units::Mips::new(rho),
            sigma: qosgate_kernel::units::Work::new(sigma),
            imax: qosgate_kernel::units::Work::new(imax),
            knowledge: knowledge.into(),
            oversize: self.oversize.unwrap_or(Oversize::BestEffort).into(),
            entries: 0,
        })
    }
}

impl From<ResourceKind> for qosgate_kernel::resource::Kind {
    fn from(k: ResourceKind) -> Self {
        use qosgate_kernel::resource::Kind;
        match k {
            ResourceKind::Gs => Kind::Gs,
            ResourceKind::Be => Kind::Be,
            ResourceKind::GsBeEqual => Kind::GsBeEqual,
            ResourceKind::GsBePriority => Kind::GsBePriority { preemptive: false },
            ResourceKind::GsBePriorityPreemptive => Kind::GsBePriority { preemptive: true },
        }
    }
}

impl From<Discipline> for qosgate_kernel::fairq::Discipline {
    fn from(d: Discipline) -> Self {
        match d {
            Discipline::Wfq => Self::Wfq,
            Discipline::Scfq => Self::Scfq,
        }
    }
}

impl From<Knowledge> for qosgate_kernel::bucket::Knowledge {
    fn from(k: Knowledge) -> Self {
        use qosgate_kernel::bucket::Knowledge as K;
        match k {
            Knowledge::Exact => K::Exact,
            Knowledge::Conservative => K::Conservative,
            Knowledge::ConservativeFeedback => K::ConservativeFeedback,
            Knowledge::Window(n) => K::Window(n),
            Knowledge::Aggressive => K::Aggressive,
        }
    }
}

/// The largest time a scenario may state, seconds (about 31,700 years): every instant of a run,
/// and sums of a few of them, then fit the kernel's microsecond clock (`u64`).
pub const MAX_SECONDS: f64 = 1e12;

/// The largest burst sigma, MI: the kernel's leaky bucket keeps its credit in instructions
/// (`i64`, MI x 10^6).
const MAX_SIGMA: u64 = TOML_INT_MAX / TICKS_PER_SECOND;
/// The kernel's largest total capacity, MIPS, as a scenario file states it.
const MAX_CAPACITY_MIPS: u64 = MAX_CAPACITY.get();
/// The kernel's largest task, MI, as a scenario file states it.
const MAX_TASK_MI: u64 = MAX_TASK_WORK.get();

/// Reads and checks the grid scenario file at `path` ([`ScenarioFile::parse`]).
///
/// Errors: the file cannot be read (the path is named) or is not UTF-8, its `model` key names
/// another model (`path:line:column: model: ...`, naming it), or any error of [`ScenarioFile::parse`], located
/// as `path:line:column`.
pub fn load(path: &Path) -> Result<Scenario> {
    let text =
        config::read_text(path, &crate::input::SCENARIO).context("reading the scenario file")?;
    let origin = path.display().to_string();
    if let Some((model, at)) = config::model_of(&text, &origin)?
        && model != <super::Grid as crate::models::Model>::NAME
    {
        bail!("{at}: model: a grid scenario is needed here (model = \"grid\"), not {model}");
    }
    Scenario::parse(&text, &origin)
}

/// About how many tasks one replication creates: each user's `horizon_s` over the mean of its
/// inter-arrival distribution, plus its first task. `f64`: the count may be astronomical.
pub fn expected_tasks(s: &Scenario) -> f64 {
    s.users.iter().map(|u| user_tasks(s, u)).sum()
}

fn user_tasks(s: &Scenario, u: &UserConfig) -> f64 {
    s.horizon_s / u.interarrival.mean().max(f64::MIN_POSITIVE) + 1.0
}

/// Whether `replications` runs of `s` stay within the simulator's limits: `1 ..=`
/// [`capacity::MAX_REPLICATIONS`] replications, and at most [`capacity::MAX_TASKS`] tasks
/// expected in all. `replications` names the count in messages (`replications`, or the command
/// line's `--replications`); too many tasks in one replication are named at the inter-arrival
/// time of the user who creates the most.
pub fn check_size(s: &Scenario, replications: u32, key: &str) -> Vec<Problem> {
    let mut p = Problems::default();
    let most = capacity::MAX_REPLICATIONS;
    if !(1..=most).contains(&replications) {
        p.add(key, format!("must be 1 to {most}, got {replications}"));
        return p.0;
    }
    let per_run = expected_tasks(s);
    let total = per_run * f64::from(replications);
    if !total.is_finite() || total > capacity::MAX_TASKS {
        let top = s
            .users
            .iter()
            .enumerate()
            .max_by(|a, b| user_tasks(s, a.1).total_cmp(&user_tasks(s, b.1)));
        let limit = capacity::MAX_TASKS;
        match top {
            Some((i, u)) if per_run > limit => p.add(
                format!("users[{i}].interarrival"),
                format!(
                    "a replication would create about {per_run:.3e} tasks ({} alone {:.3e}:                      horizon_s {} s over a mean inter-arrival of {} s), more than the {limit:e}                      a run may create: lengthen the inter-arrival time or shorten horizon_s",
                    u.name,
                    user_tasks(s, u),
                    s.horizon_s,
                    u.interarrival.mean()
                ),
            ),
            _ => p.add(
                key,
                format!(
                    "{replications} replications of about {per_run:.3e} tasks each make                      {total:.3e}, more than the {limit:e} a run may create"
                ),
            ),
        }
    }
    p.0
}

/// A distribution of a quantity in `unit` whose values may not exceed `max`:
/// - its parameters in the quantity's unit (a fixed value, a uniform's ends, a mean, a Weibull's
///   scale, each phase's mean) finite, `>= 0` and `<= max`, and the ones that make some value
///   positive (all but a uniform's `min`) `> 0`;
/// - then the form's own rules ([`Dist::check`]: a uniform's `min <= max`, a Weibull's shape, a
///   lognormal's parameters, a hyperexponential's probabilities), the first one broken, unless
///   it is about a value already reported;
/// - a lognormal's or a Weibull's mean at most `max` (a Weibull of a tiny shape has an
///   infinite mean: `G(1 + 1/shape)` overflows).
///
/// With `zero_ok` (a phase), a distribution whose every value is 0 is accepted.
pub(crate) fn check_dist(
    p: &mut Problems,
    path: &str,
    d: &Dist,
    unit: &str,
    max: f64,
    zero_ok: bool,
) {
    let param = |p: &mut Problems, key: &str, v: f64, positive: bool| {
        let positive = positive && !zero_ok;
        let path = format!("{path}.{key}");
        if !v.is_finite() {
            p.add(path, format!("{v} is not a finite number of {unit}"));
        } else if v < 0.0 || (v == 0.0 && positive) {
            let what = if positive { "> 0" } else { ">= 0" };
            let why = if positive {
                " (with no positive value, the user has no tasks or no gaps)"
            } else {
                ""
            };
            p.add(path, format!("must be {what} {unit}, got {v}{why}"));
        } else if v > max {
            p.add(
                path,
                format!("{v} {unit} is above the largest accepted, {max:e}"),
            );
        }
    };
    match d {
        Dist::Fixed(v) => param(p, "fixed", *v, true),
        Dist::Uniform { min, max: hi } => {
            param(p, "uniform.min", *min, false);
            param(p, "uniform.max", *hi, true);
        }
        Dist::Exponential { mean } => param(p, "exponential.mean", *mean, true),
        Dist::Weibull { scale, .. } => param(p, "weibull.scale", *scale, true),
        Dist::Lognormal { .. } => {}
        Dist::Hyperexponential { phases } => {
            for (i, Phase { mean, .. }) in phases.iter().enumerate() {
                param(p, &d.key(Param::PhaseMean(i)), *mean, true);
            }
        }
    }
    match d.check() {
        Err(e) => {
            let key = format!("{path}.{}", d.key(e.param()));
            let about_a_value = matches!(
                e,
                DistError::NotFinite { .. } | DistError::OutOfRange { .. }
            );
            if !(about_a_value && p.0.iter().any(|q| q.path == key)) {
                p.add(key, e.to_string());
            }
        }
        Ok(()) => {
            let mean = d.mean();
            let (param, formula) = match d {
                Dist::Lognormal { .. } => (Param::LogMean, "e^(log_mean + log_sd^2 / 2)"),
                Dist::Weibull { .. } => (Param::Shape, "scale G(1 + 1/shape)"),
                _ => return,
            };
            if mean.is_nan() || mean > max {
                p.add(
                    format!("{path}.{}", d.key(param)),
                    format!(
                        "the mean {formula} is {mean:e} {unit}, above the largest accepted, \
                         {max:e}"
                    ),
                );
            }
        }
    }
}

/// Every problem of `s`, in the order of its keys.
///
/// The checks:
/// - an empty `name`, `replications` outside `1 ..= 10,000`, a `seed` above `i64::MAX` (TOML's
///   integers); more tasks expected than a run may create ([`expected_tasks`] times the
///   replications above [`capacity::MAX_TASKS`]), named at the user who creates the most (or at
///   `replications`);
/// - times (`horizon_s`, `collection_period_s`, `deadline_s`, inter-arrival values) that are not
///   finite, not positive, or above [`MAX_SECONDS`]; a negative `warmup_s`, or one not below
///   `horizon_s`;
/// - a bandwidth that is not finite and positive; a transfer longer than [`MAX_SECONDS`];
/// - no resources; more than 64 serving best effort; a resource without a name, with a
///   duplicate name, without CPUs, with more CPUs than the simulator runs, a CPU of 0 MIPS, a
///   total capacity above the kernel's (2^40 MIPS), `max_task_mi` outside `1 ..= 2^39`,
///   `max_users` outside `1 ..= 16`;
/// - no users, or more than 64; a user without a name, with a duplicate name, weight 0, a
///   distribution with an impossible parameter or no positive value (an empty workload), a
///   `uniform` with `min > max`;
/// - a GS user without `rho_mips`, `sigma_mi`, `max_task_mi` or `knowledge`, with rho 0,
///   `sigma_mi < max_task_mi`, `{ window = 0 }`, `queue_entries` outside `1 ..= 8192`; a GS user no
///   resource could register (none serves GS, none takes its `max_task_mi` (Eq. 2), none has the
///   capacity for its rho alone (Eq. 1));
/// - a BE user with any of those keys, or with no resource that serves best effort.
pub(super) fn check(s: &Scenario) -> Vec<Problem> {
    let mut p = Problems::default();
    // `replications` is checked with the run's size ([`check_size`]).
    p.name_and_seed(&s.header);
    p.seconds("horizon_s", s.horizon_s, false, MAX_SECONDS);
    p.seconds("warmup_s", s.warmup_s, true, MAX_SECONDS);
    if s.warmup_s.is_finite() && s.horizon_s.is_finite() && s.warmup_s >= s.horizon_s {
        p.add(
            "warmup_s",
            format!(
                "{} s must be less than horizon_s ({} s): no task would be measured",
                s.warmup_s, s.horizon_s
            ),
        );
    }
    p.seconds(
        "meta.collection_period_s",
        s.meta.collection_period_s,
        false,
        MAX_SECONDS,
    );
    check_network(&mut p, &s.network);
    check_resources(&mut p, &s.resources);
    check_users(&mut p, &s.users, &s.resources);
    // The size needs sound times and distributions to mean anything.
    if p.0.is_empty() {
        p.0.extend(check_size(s, s.header.replications, "replications"));
    } else if s.header.replications == 0 || s.header.replications > capacity::MAX_REPLICATIONS {
        p.add(
            "replications",
            format!(
                "must be 1 to {}, got {}",
                capacity::MAX_REPLICATIONS,
                s.header.replications
            ),
        );
    }
    p.0
}

fn check_network(p: &mut Problems, n: &Network) {
    let bw = n.bandwidth_bps;
    if !(bw.is_finite() && bw > 0.0) {
        p.add(
            "network.bandwidth_bps",
            format!("must be a finite number of bits per second > 0, got {bw}"),
        );
        return;
    }
    for (key, bytes) in [
        ("input_bytes", n.input_bytes),
        ("output_bytes", n.output_bytes),
    ] {
        let path = format!("network.{key}");
        p.toml_int(&path, bytes);
        let secs = bytes as f64 * 8.0 / bw;
        if secs > MAX_SECONDS {
            p.add(
                path,
                format!(
                    "{bytes} bytes take {secs:e} s at {bw} b/s, longer than the largest time \
                     accepted, {MAX_SECONDS:e} s"
                ),
            );
        }
    }
}

fn check_resources(p: &mut Problems, resources: &[ResourceConfig]) {
    if resources.is_empty() {
        p.add("resources", "at least one resource is needed");
    }
    if let Some((i, _)) = resources
        .iter()
        .enumerate()
        .filter(|(_, r)| r.kind != ResourceKind::Gs)
        .nth(capacity::SLOTS)
    {
        p.add(
            format!("resources[{i}]"),
            format!(
                "more than {} resources serve best effort: the meta-scheduler assigns to at                  most {}",
                capacity::SLOTS,
                capacity::SLOTS
            ),
        );
    }
    let mut names: HashMap<&str, usize> = HashMap::new();
    for (i, r) in resources.iter().enumerate() {
        let at = |key: &str| format!("resources[{i}].{key}");
        if r.name.trim().is_empty() {
            p.add(at("name"), "must not be empty");
        } else if let Some(first) = names.insert(&r.name, i) {
            p.add(
                at("name"),
                format!("`{}` is also the name of resources[{first}]", r.name),
            );
        }
        if r.cpus.is_empty() {
            p.add(at("cpus"), "at least one CPU is needed");
        } else if r.cpus.len() > capacity::CPUS {
            p.add(
                at("cpus"),
                format!(
                    "{} CPUs: the simulator runs at most {} per resource",
                    r.cpus.len(),
                    capacity::CPUS
                ),
            );
        }
        for (j, &c) in r.cpus.iter().enumerate() {
            if c == 0 {
                p.add(
                    format!("resources[{i}].cpus[{j}]"),
                    "a CPU of 0 MIPS has no capacity",
                );
            }
        }
        let total = r.cpus.iter().try_fold(0u64, |s, &c| s.checked_add(c));
        if total.is_none_or(|t| t > MAX_CAPACITY_MIPS) {
            p.add(
                at("cpus"),
                format!("total capacity above {MAX_CAPACITY_MIPS} MIPS, the kernel's largest"),
            );
        }
        if r.max_task_mi == 0 || r.max_task_mi > MAX_TASK_MI {
            p.add(
                at("max_task_mi"),
                format!("must be 1 to {MAX_TASK_MI} MI, got {}", r.max_task_mi),
            );
        }
        if r.max_users == 0 || usize::from(r.max_users) > capacity::FLOWS {
            p.add(
                at("max_users"),
                format!(
                    "must be 1 to {} (the simulator's users per resource), got {}",
                    capacity::FLOWS,
                    r.max_users
                ),
            );
        }
    }
}

/// The resource kinds in TOML, for messages.
const GS_KINDS: &str = "gs, gs_be_equal, gs_be_priority or gs_be_priority_preemptive";
const BE_KINDS: &str = "be, gs_be_equal, gs_be_priority or gs_be_priority_preemptive";

fn check_users(p: &mut Problems, users: &[UserConfig], resources: &[ResourceConfig]) {
    if users.is_empty() {
        p.add("users", "at least one user is needed");
    }
    if users.len() > capacity::META_USERS {
        p.add(
            format!("users[{}]", capacity::META_USERS),
            format!(
                "{} users: the simulator runs at most {} (the meta-scheduler's users)",
                users.len(),
                capacity::META_USERS
            ),
        );
    }
    let mut names: HashMap<&str, usize> = HashMap::new();
    for (i, u) in users.iter().enumerate() {
        let at = |key: &str| format!("users[{i}].{key}");
        if u.name.trim().is_empty() {
            p.add(at("name"), "must not be empty");
        } else if let Some(first) = names.insert(&u.name, i) {
            p.add(
                at("name"),
                format!("`{}` is also the name of users[{first}]", u.name),
            );
        }
        if u.weight == 0 {
            p.add(at("weight"), "must be at least 1");
        }
        check_dist(
            p,
            &at("workload"),
            &u.workload,
            "MI",
            MAX_TASK_MI as f64,
            false,
        );
        check_dist(
            p,
            &at("interarrival"),
            &u.interarrival,
            "s",
            MAX_SECONDS,
            false,
        );
        if let Some(phase) = &u.phase_s {
            check_dist(p, &at("phase_s"), phase, "s", MAX_SECONDS, true);
        }
        p.seconds(&at("deadline_s"), u.deadline_s, false, MAX_SECONDS);
        match u.class {
            UserClass::Gs => check_gs_user(p, i, u, resources),
            UserClass::Be => {
                let given = [
                    ("rho_mips", u.rho_mips.is_some()),
                    ("sigma_mi", u.sigma_mi.is_some()),
                    ("max_task_mi", u.max_task_mi.is_some()),
                    ("knowledge", u.knowledge.is_some()),
                    ("oversize", u.oversize.is_some()),
                    ("queue_entries", u.queue_entries.is_some()),
                ];
                for (key, _) in given.iter().filter(|(_, some)| *some) {
                    p.add(
                        at(key),
                        "only a GS user has it (this user's class is be): remove it",
                    );
                }
                if !resources.is_empty() && resources.iter().all(|r| r.kind == ResourceKind::Gs) {
                    p.add(
                        at("class"),
                        format!("a BE user needs a resource of kind {BE_KINDS}; every one is gs"),
                    );
                }
            }
        }
    }
}

fn check_gs_user(p: &mut Problems, i: usize, u: &UserConfig, resources: &[ResourceConfig]) {
    let at = |key: &str| format!("users[{i}].{key}");
    let missing = "required for a GS user (class gs)";
    if u.rho_mips.is_none() {
        p.add(at("rho_mips"), missing);
    }
    if u.sigma_mi.is_none() {
        p.add(at("sigma_mi"), missing);
    }
    if u.max_task_mi.is_none() {
        p.add(at("max_task_mi"), missing);
    }
    if u.knowledge.is_none() {
        p.add(at("knowledge"), missing);
    }
    if u.knowledge == Some(Knowledge::Window(0)) {
        p.add(at("knowledge.window"), "must be at least 1 task");
    }
    if let Some(imax) = u.max_task_mi
        && (imax == 0 || imax > MAX_TASK_MI)
    {
        p.add(
            at("max_task_mi"),
            format!("must be 1 to {MAX_TASK_MI} MI, got {imax}"),
        );
    }
    if let Some(sigma) = u.sigma_mi {
        if sigma == 0 {
            p.add(at("sigma_mi"), "must be at least 1 MI");
        } else if sigma > MAX_SIGMA {
            p.add(
                at("sigma_mi"),
                format!("{sigma} MI is above the kernel's largest burst, {MAX_SIGMA} MI"),
            );
        } else if let Some(imax) = u.max_task_mi
            && sigma < imax
        {
            p.add(
                at("sigma_mi"),
                format!(
                    "{sigma} MI is less than max_task_mi ({imax} MI): a maximal task could \
                     never conform"
                ),
            );
        }
    }
    if u.rho_mips == Some(0) {
        p.add(at("rho_mips"), "must be at least 1 MIPS");
    }
    if let Some(n) = u.queue_entries
        && (n == 0 || usize::from(n) > capacity::QUEUE)
    {
        p.add(
            at("queue_entries"),
            format!(
                "must be 1 to {} (a resource's queue), got {n}",
                capacity::QUEUE
            ),
        );
    }
    let serving: Vec<&ResourceConfig> = resources
        .iter()
        .filter(|r| r.kind != ResourceKind::Be)
        .collect();
    if serving.is_empty() {
        if !resources.is_empty() {
            p.add(
                at("class"),
                format!("a GS user needs a resource of kind {GS_KINDS}; every one is be"),
            );
        }
        return;
    }
    // Eq. 2 (`I_i <= I_r`), then Eq. 1 for the user alone (`rho <= C'`): with neither at any
    // resource, no registration can ever succeed.
    let Some(imax) = u.max_task_mi.filter(|&m| m > 0) else {
        return;
    };
    let fitting: Vec<&&ResourceConfig> = serving.iter().filter(|r| r.max_task_mi >= imax).collect();
    if fitting.is_empty() {
        let largest = serving.iter().map(|r| r.max_task_mi).max().unwrap_or(0);
        p.add(
            at("max_task_mi"),
            format!(
                "{imax} MI is larger than the max_task_mi of every resource that serves GS \
                 users (largest: {largest} MI): no registration can admit it (Eq. 2)"
            ),
        );
        return;
    }
    if let Some(rho) = u.rho_mips.filter(|&r| r > 0) {
        let capacity = |r: &ResourceConfig| r.cpus.iter().fold(0u64, |s, &c| s.saturating_add(c));
        let largest = fitting.iter().map(|r| capacity(r)).max().unwrap_or(0);
        if rho > largest {
            p.add(
                at("rho_mips"),
                format!(
                    "{rho} MIPS is more than the capacity of every resource that serves GS \
                     users and takes its tasks (largest: {largest} MIPS): no registration can \
                     admit it (Eq. 1)"
                ),
            );
        }
    }
}

/// The scenario as a TOML file with a comment on each key's unit: what `qosgate run --dump`
/// prints, to copy and edit.
///
/// For every scenario that passes [`Scenario::validate`](crate::models::ScenarioFile::validate), [`Scenario::parse`](crate::models::ScenarioFile::parse) of the result gives the same scenario
/// back (floats are written in Rust's shortest exact form). Keys whose value is absent
/// (`rho_mips` of a BE user) are left out.
pub fn to_toml(s: &Scenario) -> String {
    // Every field is destructured by name: a field added to the schema fails to compile here
    // until it is written.
    let Scenario {
        header,
        horizon_s,
        warmup_s,
        meta,
        network,
        resources,
        users,
    } = s;
    let mut out = String::from(
        "# qosgate scenario (format: docs/scenarios.md). Times in seconds, work in MI (million\n\
         # instructions), capacities in MIPS.\n",
    );
    out.push_str(&header.to_toml());
    kv(
        &mut out,
        "horizon_s",
        &float(*horizon_s),
        "tasks are created in [0, horizon_s)",
    );
    kv(
        &mut out,
        "warmup_s",
        &float(*warmup_s),
        "tasks created earlier are not measured",
    );

    let Meta {
        order,
        collection_period_s,
    } = meta;
    out.push_str("\n[meta]\n");
    let order = match order {
        MetaOrder::Edf => "edf",
        MetaOrder::Wfq => "wfq",
    };
    kv(
        &mut out,
        "order",
        &string(order),
        "best-effort ordering: edf or wfq (then EST)",
    );
    kv(
        &mut out,
        "collection_period_s",
        &float(*collection_period_s),
        "best-effort batches",
    );

    let Network {
        bandwidth_bps,
        input_bytes,
        output_bytes,
    } = network;
    out.push_str("\n[network]\n");
    kv(
        &mut out,
        "bandwidth_bps",
        &float(*bandwidth_bps),
        "bits per second, every link",
    );
    kv(
        &mut out,
        "input_bytes",
        &input_bytes.to_string(),
        "sent with each task",
    );
    kv(
        &mut out,
        "output_bytes",
        &output_bytes.to_string(),
        "results of each task",
    );

    for r in resources {
        let ResourceConfig {
            name,
            kind,
            discipline,
            cpus,
            max_task_mi,
            max_users,
        } = r;
        out.push_str("\n[[resources]]\n");
        kv(&mut out, "name", &string(name), "");
        kv(
            &mut out,
            "kind",
            &string(kind_name(*kind)),
            "resource type (Sec. 3.4)",
        );
        let discipline = match discipline {
            Discipline::Wfq => "wfq",
            Discipline::Scfq => "scfq",
        };
        kv(
            &mut out,
            "discipline",
            &string(discipline),
            "local fair queue: wfq or scfq",
        );
        let cpus: Vec<String> = cpus.iter().map(u64::to_string).collect();
        kv(
            &mut out,
            "cpus",
            &format!("[{}]", cpus.join(", ")),
            "MIPS of each CPU",
        );
        kv(
            &mut out,
            "max_task_mi",
            &max_task_mi.to_string(),
            "largest task accepted",
        );
        kv(
            &mut out,
            "max_users",
            &max_users.to_string(),
            "flows at once, temporary BE ones too",
        );
    }

    for u in users {
        let UserConfig {
            name,
            class,
            weight,
            rho_mips,
            sigma_mi,
            max_task_mi,
            knowledge,
            oversize,
            queue_entries,
            workload,
            interarrival,
            phase_s,
            deadline_s,
        } = u;
        out.push_str("\n[[users]]\n");
        kv(&mut out, "name", &string(name), "");
        let class = match class {
            UserClass::Gs => "gs",
            UserClass::Be => "be",
        };
        kv(
            &mut out,
            "class",
            &string(class),
            "gs (guaranteed service) or be",
        );
        kv(&mut out, "weight", &weight.to_string(), "share weight w");
        if let Some(v) = rho_mips {
            kv(&mut out, "rho_mips", &v.to_string(), "long-term rate rho");
        }
        if let Some(v) = sigma_mi {
            kv(&mut out, "sigma_mi", &v.to_string(), "burst sigma");
        }
        if let Some(v) = max_task_mi {
            kv(&mut out, "max_task_mi", &v.to_string(), "largest task I_i");
        }
        if let Some(k) = knowledge {
            let k = match k {
                Knowledge::Exact => string("exact"),
                Knowledge::Conservative => string("conservative"),
                Knowledge::ConservativeFeedback => string("conservative_feedback"),
                Knowledge::Window(n) => format!("{{ window = {n} }}"),
                Knowledge::Aggressive => string("aggressive"),
            };
            kv(
                &mut out,
                "knowledge",
                &k,
                "what the meta-scheduler knows of workloads",
            );
        }
        if let Some(o) = oversize {
            let o = match o {
                Oversize::BestEffort => "best_effort",
                Oversize::Reject => "reject",
                Oversize::Admit => "admit",
            };
            kv(
                &mut out,
                "oversize",
                &string(o),
                "a task above max_task_mi: best_effort, reject, or admit (no guarantee)",
            );
        }
        if let Some(n) = queue_entries {
            kv(
                &mut out,
                "queue_entries",
                &n.to_string(),
                "queue entries set aside at its resource",
            );
        }
        kv(&mut out, "workload", &dist(workload), "MI per task");
        kv(
            &mut out,
            "interarrival",
            &dist(interarrival),
            "seconds between task creations",
        );
        if let Some(phase) = phase_s {
            kv(
                &mut out,
                "phase_s",
                &dist(phase),
                "first task's creation, seconds",
            );
        }
        kv(
            &mut out,
            "deadline_s",
            &float(*deadline_s),
            "after creation (non-critical)",
        );
    }
    out
}

/// The TOML name of a resource kind.
fn kind_name(kind: ResourceKind) -> &'static str {
    match kind {
        ResourceKind::Gs => "gs",
        ResourceKind::Be => "be",
        ResourceKind::GsBeEqual => "gs_be_equal",
        ResourceKind::GsBePriority => "gs_be_priority",
        ResourceKind::GsBePriorityPreemptive => "gs_be_priority_preemptive",
    }
}

/// `key = value`, with `# comment` from column 45 when there is one.
fn kv(out: &mut String, key: &str, value: &str, comment: &str) {
    let line = format!("{key} = {value}");
    if comment.is_empty() {
        out.push_str(&line);
    } else {
        out.push_str(&format!("{line:<44} # {comment}"));
    }
    out.push('\n');
}

/// A TOML string (quoted and escaped by the `toml` crate).
fn string(s: &str) -> String {
    toml::Value::String(s.to_owned()).to_string()
}

/// A TOML float: shortest exact decimal, always with a fraction or exponent (`5.0`).
fn float(x: f64) -> String {
    toml::Value::Float(x).to_string()
}

/// A distribution as an inline table, `{ form = parameters }`.
fn dist(d: &Dist) -> String {
    let table = |pairs: &[(&str, f64)]| {
        let pairs: Vec<String> = pairs
            .iter()
            .map(|(key, v)| format!("{key} = {}", float(*v)))
            .collect();
        format!("{{ {} }}", pairs.join(", "))
    };
    let parameters = match d {
        Dist::Fixed(v) => float(*v),
        Dist::Uniform { min, max } => table(&[("min", *min), ("max", *max)]),
        Dist::Exponential { mean } => table(&[("mean", *mean)]),
        Dist::Weibull { scale, shape } => table(&[("scale", *scale), ("shape", *shape)]),
        Dist::Lognormal { log_mean, log_sd } => {
            table(&[("log_mean", *log_mean), ("log_sd", *log_sd)])
        }
        Dist::Hyperexponential { phases } => {
            let phases: Vec<String> = phases
                .iter()
                .map(|p| table(&[("probability", p.probability), ("mean", p.mean)]))
                .collect();
            format!("{{ phases = [{}] }}", phases.join(", "))
        }
    };
    format!("{{ {} = {parameters} }}", d.form())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_of_each() -> Scenario {
        let user =
            |name: &str, class, knowledge: Option<Knowledge>, workload, interarrival| UserConfig {
                name: name.into(),
                class,
                weight: 3,
                rho_mips: knowledge.map(|_| 1_000),
                sigma_mi: knowledge.map(|_| 50_000),
                max_task_mi: knowledge.map(|_| 10_000),
                knowledge,
                oversize: knowledge.and_then(|k| match k {
                    Knowledge::Exact => Some(Oversize::Admit),
                    Knowledge::Conservative => Some(Oversize::Reject),
                    Knowledge::ConservativeFeedback => Some(Oversize::BestEffort),
                    _ => None,
                }),
                queue_entries: None,
                workload,
                interarrival,
                phase_s: (class == UserClass::Be).then_some(Dist::Uniform { min: 0.0, max: 2.5 }),
                deadline_s: 0.1,
            };
        let resource = |name: &str, kind, discipline| ResourceConfig {
            name: name.into(),
            kind,
            discipline,
            cpus: vec![26_000, 13_000],
            max_task_mi: 100_000,
            max_users: 16,
        };
        let fixed = || Dist::Fixed(1.0);
        Scenario {
            header: Header {
                name: "every \"variant\"\nonce".into(),
                description: "quotes ' \" and \\ and é".into(),
                seed: i64::MAX as u64,
                replications: 2,
            },
            horizon_s: 1e-3,
            warmup_s: 0.0,
            meta: Meta {
                order: MetaOrder::Wfq,
                collection_period_s: 0.25,
            },
            network: Network {
                bandwidth_bps: 1.5e8,
                input_bytes: 0,
                output_bytes: 7,
            },
            resources: vec![
                resource("a", ResourceKind::Gs, Discipline::Wfq),
                resource("b", ResourceKind::Be, Discipline::Scfq),
                resource("c", ResourceKind::GsBeEqual, Discipline::Wfq),
                resource("d", ResourceKind::GsBePriority, Discipline::Scfq),
                resource("e", ResourceKind::GsBePriorityPreemptive, Discipline::Wfq),
            ],
            users: vec![
                user(
                    "g1",
                    UserClass::Gs,
                    Some(Knowledge::Exact),
                    fixed(),
                    fixed(),
                ),
                user(
                    "g2",
                    UserClass::Gs,
                    Some(Knowledge::Conservative),
                    fixed(),
                    fixed(),
                ),
                user(
                    "g3",
                    UserClass::Gs,
                    Some(Knowledge::ConservativeFeedback),
                    Dist::Uniform { min: 0.0, max: 0.1 },
                    Dist::Exponential { mean: 1.0 / 3.0 },
                ),
                user(
                    "g4",
                    UserClass::Gs,
                    Some(Knowledge::Window(7)),
                    fixed(),
                    Dist::Weibull {
                        scale: 0.5,
                        shape: 0.35,
                    },
                ),
                user(
                    "g5",
                    UserClass::Gs,
                    Some(Knowledge::Aggressive),
                    Dist::Lognormal {
                        log_mean: 8.0,
                        log_sd: 1.7,
                    },
                    fixed(),
                ),
                user(
                    "b1",
                    UserClass::Be,
                    None,
                    fixed(),
                    Dist::Hyperexponential {
                        phases: vec![
                            Phase {
                                probability: 0.25,
                                mean: 0.1,
                            },
                            Phase {
                                probability: 0.75,
                                mean: 2.0,
                            },
                        ],
                    },
                ),
            ],
        }
    }

    #[test]
    fn every_variant_and_awkward_strings_round_trip() {
        let s = one_of_each();
        let text = to_toml(&s);
        assert_eq!(Scenario::parse(&text, "t.toml").unwrap(), s, "{text}");
    }

    #[test]
    fn every_problem_of_a_file_gets_its_own_located_line() {
        let mut s = one_of_each();
        s.header.replications = 0;
        s.users[1].knowledge = Some(Knowledge::Window(0));
        s.users[5].weight = 0;
        let text = to_toml(&s);
        let msg = format!("{:#}", Scenario::parse(&text, "f.toml").unwrap_err());
        let lines: Vec<&str> = msg.lines().collect();
        assert_eq!(lines.len(), 3, "{msg}");
        assert!(lines[0].starts_with("f.toml:") && lines[0].contains(": replications: "));
        assert!(
            lines[1].contains(": users[1].knowledge.window: must be at least 1 task"),
            "{msg}"
        );
        assert!(
            lines[2].contains(": users[5].weight: must be at least 1"),
            "{msg}"
        );
        // The same checks on a scenario built in code, without positions.
        let msg = format!("{:#}", s.validate().unwrap_err());
        assert!(
            msg.contains("replications: must be 1 to 10000, got 0"),
            "{msg}"
        );
    }

    /// A run that would create more tasks than the simulator may is refused before
    /// it starts, at the user who creates the most, or at `replications`; too many users or
    /// replications likewise.
    #[test]
    fn a_run_too_large_is_refused_at_the_key_that_makes_it() {
        let mut s = one_of_each();
        s.horizon_s = 1e12;
        let problems = check(&s);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(
            problems[0].path, "users[2].interarrival",
            "the busiest user"
        );
        assert!(
            problems[0].message.contains("more than the 1e9"),
            "{problems:?}"
        );
        let mut s = one_of_each();
        s.horizon_s = 1e6;
        s.header.replications = 10_000;
        let p = check_size(&s, 10_000, "replications");
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].path, "replications");
        let p = check_size(&s, 10_001, "--replications");
        assert_eq!(p[0].message, "must be 1 to 10000, got 10001");
        let mut s = one_of_each();
        let user = s.users[0].clone();
        s.users = (0..65)
            .map(|i| UserConfig {
                name: format!("u{i}"),
                ..user.clone()
            })
            .collect();
        let problems = check(&s);
        assert!(
            problems
                .iter()
                .any(|p| p.path == "users[64]" && p.message.contains("at most 64")),
            "{problems:?}"
        );
    }

    /// The forms beyond Sec. 6's: each broken rule located at its key, the unit's checks and
    /// the form's own ones each reported once.
    #[test]
    fn weibull_lognormal_and_hyperexponential_problems_are_located() {
        let problems = |d: Dist, zero_ok: bool| {
            let mut p = Problems::default();
            check_dist(&mut p, "u.x", &d, "s", MAX_SECONDS, zero_ok);
            p.0.into_iter()
                .map(|q| format!("{}: {}", q.path, q.message))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            problems(
                Dist::Weibull {
                    scale: 7.0,
                    shape: 0.0
                },
                false
            ),
            ["u.x.weibull.shape: shape must be > 0, got 0"]
        );
        // A phase may be 0 everywhere, but a Weibull's scale is still a scale.
        assert_eq!(
            problems(
                Dist::Weibull {
                    scale: 0.0,
                    shape: 1.0
                },
                true
            ),
            ["u.x.weibull.scale: scale must be > 0, got 0"]
        );
        assert_eq!(
            problems(
                Dist::Weibull {
                    scale: -1.0,
                    shape: 1.0
                },
                false
            ),
            [
                "u.x.weibull.scale: must be > 0 s, got -1 (with no positive value, the user has no \
              tasks or no gaps)"
            ]
        );
        assert_eq!(
            problems(
                Dist::Lognormal {
                    log_mean: 30.0,
                    log_sd: 1.0
                },
                false
            ),
            [format!(
                "u.x.lognormal.log_mean: the mean e^(log_mean + log_sd^2 / 2) is {:e} s, above \
                 the largest accepted, 1e12",
                30.5f64.exp()
            )]
        );
        assert_eq!(
            problems(
                Dist::Lognormal {
                    log_mean: 1.0,
                    log_sd: -1.0
                },
                false
            ),
            ["u.x.lognormal.log_sd: log_sd must be >= 0, got -1"]
        );
        let phase = |probability, mean| Phase { probability, mean };
        assert_eq!(
            problems(
                Dist::Hyperexponential {
                    phases: vec![phase(0.5, 1.0), phase(0.25, 3.0)]
                },
                false
            ),
            ["u.x.hyperexponential.phases: the phases' probabilities sum to 0.75, not 1"]
        );
        assert_eq!(
            problems(
                Dist::Hyperexponential {
                    phases: vec![phase(0.5, 1.0), phase(0.5, f64::NAN)]
                },
                false
            ),
            ["u.x.hyperexponential.phases[1].mean: NaN is not a finite number of s"]
        );
        assert_eq!(
            problems(
                Dist::Hyperexponential {
                    phases: vec![phase(-0.5, 1.0), phase(1.5, 1.0)]
                },
                false
            ),
            [
                "u.x.hyperexponential.phases[0].probability: phases[0].probability must be in \
              [0, 1], got -0.5"
            ]
        );
        assert_eq!(
            problems(Dist::Hyperexponential { phases: vec![] }, false),
            ["u.x.hyperexponential.phases: a hyperexponential needs at least one phase"]
        );
        // A uniform's order is the form's rule, reported beside the unit's.
        assert_eq!(
            problems(
                Dist::Uniform {
                    min: -1.0,
                    max: -2.0
                },
                false
            ),
            [
                "u.x.uniform.min: must be >= 0 s, got -1",
                "u.x.uniform.max: must be > 0 s, got -2 (with no positive value, the user has \
                 no tasks or no gaps)",
                "u.x.uniform.min: min -1 is greater than max -2",
            ]
        );
    }
}
