//! `qosgate bounds`: registration outcomes, guaranteed rates and delay bounds of a grid
//! scenario's GS users, under every resource kind that serves them, both disciplines and both CPU
//! layouts.
//!
//! A [`GsGrid`] is what the bounds are computed from: the GS users' contracts, the resources'
//! capacities and CPUs, and where each user registers. [`GsGrid::of`] takes it from any grid
//! [`Scenario`]: the users register as the simulator registers them at time 0 (each, in scenario
//! order, at the first resource in scenario order that serves GS and admits it). [`compute`] then
//! rebuilds every resource with each (kind, discipline, layout) combination, makes those
//! registrations in order, and reads each one's rate `g` and bounds back from the kernel on both
//! [`RateBasis`] values. Nothing here re-implements the calculus: the numbers are the kernel's
//! ([`Resource::bound_spec`], [`BoundSpec::at_resource`], [`bound::end_to_end`]).
//!
//! Times are kept in [`Ticks`] (microseconds) and shown as seconds; rates in MIPS, work in MI. A
//! [`Row`] is the output record: its rates and work are plain numbers, named with their unit.

use anyhow::{Context, Result, bail};
use qosgate_kernel::bound::{self, BoundSpec, Pipelining};
use qosgate_kernel::bucket::Knowledge;
use qosgate_kernel::fairq::{Discipline, FlowId};
use qosgate_kernel::registry::{RateBasis, Registration};
use qosgate_kernel::resource::{Kind, Resource};
use qosgate_kernel::units::{Mips, TICKS_PER_SECOND, Ticks, Work};
use qosgate_kernel::{Error, Param};
use serde::{Serialize, Serializer};

use std::fmt::Write as _;

use super::scenario::{ResourceKind, Scenario, UserClass};
use crate::des::time;
use crate::report::table::{Align, grouped, table, wrap};

/// Flow capacity of the resources built here: the largest accepted `--max-users`.
pub const FLOWS: usize = 16;
/// The kernel resource used: 16 flows, 256 queued tasks per queue, 32 CPUs (kokkinos2009's R1
/// multi has 30).
pub type Res = Resource<FLOWS, 256, 32>;

/// The resource kinds that serve GS users (kokkinos2009 Sec. 3.4, Table 1), in table order.
pub const KINDS: [Kind; 4] = [
    Kind::Gs,
    Kind::GsBeEqual,
    Kind::GsBePriority { preemptive: false },
    Kind::GsBePriority { preemptive: true },
];

/// The disciplines, in table order.
pub const DISCIPLINES: [Discipline; 2] = [Discipline::Wfq, Discipline::Scfq];

/// The deadline of a row is this many tenths of its Current-basis end-to-end bound
/// (erratum E31: deadline = 1.10 x the Eq. 5 / Eq. 10 bound).
pub const DEADLINE_TENTHS: u64 = 11;

/// How a resource's capacity is split into CPUs (erratum E31).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// One CPU of the resource's total capacity (kokkinos2009's main experiments, Sec. 6.2).
    Single,
    /// The resource's own CPUs ([`GsResource::cpus`]; kokkinos2009's multi-CPU experiment of
    /// Sec. 6.4.1: 30 / 20 / 10 CPUs of 26,000 MIPS); bounds then use `C_min` (Eq. 10).
    Multi,
}

impl Layout {
    /// Both layouts, single first.
    pub const ALL: [Layout; 2] = [Layout::Single, Layout::Multi];

    /// The name used in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Single => "single",
            Layout::Multi => "multi",
        }
    }
}

/// A GS user: its name and the registration it asks of a resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GsUser {
    /// Its name.
    pub name: String,
    /// Its (rho, sigma, I_max), weight, knowledge and oversize rule; no queue entries.
    pub registration: Registration,
}

/// A resource as the bounds see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GsResource {
    /// Its name.
    pub name: String,
    /// Its CPUs' capacities, MIPS, in the [`Layout::Multi`] layout (at least one).
    pub cpus: Vec<Mips>,
    /// Its largest task `I_r^max`, MI.
    pub max_task: Work,
}

impl GsResource {
    /// The CPU capacities of this resource in `layout`, MIPS: one CPU of the total
    /// ([`Layout::Single`]) or its own CPUs.
    pub fn cpus(&self, layout: Layout) -> Vec<Mips> {
        match layout {
            Layout::Single => vec![Mips::new(self.cpus.iter().map(|c| c.get()).sum())],
            Layout::Multi => self.cpus.clone(),
        }
    }
}

/// What the bounds are computed from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GsGrid {
    /// Its name (`grid` in the JSON report).
    pub name: String,
    /// The GS users.
    pub users: Vec<GsUser>,
    /// The resources.
    pub resources: Vec<GsResource>,
    /// The registrations in the order they are made, `(user, resource)` indices into
    /// [`GsGrid::users`] and [`GsGrid::resources`].
    pub registrations: Vec<(usize, usize)>,
}

impl GsGrid {
    /// The resources' largest maximum task `I_r^max` (0 without resources).
    pub fn max_task(&self) -> Work {
        self.resources
            .iter()
            .map(|r| r.max_task)
            .max()
            .unwrap_or(Work::ZERO)
    }

    /// The GS users, resources and registrations of `scenario`: every user of class GS (with its
    /// contract, weight, knowledge and oversize rule) and every resource, each GS user registered
    /// where the simulator registers it at time 0: at the first resource, in scenario order, that
    /// serves GS and whose kernel admits it (Eq. 1, 2) as the scenario builds it (its kind,
    /// discipline, CPUs, `max_task_mi`, `max_users`; queue entries are not set aside here). A GS
    /// user is left out when no resource serves GS (the simulator handles it as best effort).
    ///
    /// Errors: a GS user without its contract keys, a resource the kernel will not build, or a
    /// GS user every GS-serving resource refuses (the simulator refuses such a scenario too); each
    /// named.
    pub fn of(scenario: &Scenario) -> Result<Self> {
        let resources: Vec<GsResource> = scenario
            .resources
            .iter()
            .map(|r| GsResource {
                name: r.name.clone(),
                cpus: r.cpus.iter().map(|&c| Mips::new(c)).collect(),
                max_task: Work::new(r.max_task_mi),
            })
            .collect();
        let mut built = Vec::new();
        for (i, r) in scenario.resources.iter().enumerate() {
            if r.kind == ResourceKind::Be {
                continue;
            }
            let res = Res::new(
                r.kind.into(),
                r.discipline.into(),
                &resources[i].cpus,
                resources[i].max_task,
                r.max_users,
            )
            .with_context(|| format!("building resource {} as the scenario states it", r.name))?;
            built.push((i, res));
        }
        let mut users = Vec::new();
        let mut registrations = Vec::new();
        for u in scenario.users.iter().filter(|u| u.class == UserClass::Gs) {
            let registration = u.registration()?;
            if built.is_empty() {
                continue;
            }
            let mut refusals = Vec::new();
            let at = built
                .iter_mut()
                .find_map(|(r, res)| match res.register(registration) {
                    Ok(_) => Some(*r),
                    Err(e) => {
                        refusals.push(format!("{}: {e}", resources[*r].name));
                        None
                    }
                });
            let Some(r) = at else {
                bail!(
                    "GS user {} cannot register anywhere: {}",
                    u.name,
                    refusals.join("; ")
                );
            };
            registrations.push((users.len(), r));
            users.push(GsUser {
                name: u.name.clone(),
                registration,
            });
        }
        Ok(Self {
            name: scenario.header.name.clone(),
            users,
            resources,
            registrations,
        })
    }

    /// The layouts that differ here: [`Layout::Single`], and [`Layout::Multi`] if a resource
    /// has more than one CPU.
    pub fn layouts(&self) -> Vec<Layout> {
        let multi = self.resources.iter().any(|r| r.cpus.len() > 1);
        Layout::ALL
            .into_iter()
            .filter(|&l| l == Layout::Single || multi)
            .collect()
    }
}

/// Inputs of the computation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Flow limit of every resource built (`--max-users`).
    pub max_users: u16,
    /// Transfer delay `d`, ticks (`--pipelined-delay`); the withholding time `T` is 0.
    pub transfer: Ticks,
}

impl Config {
    /// The configuration from the command line's values; the delay is checked and rounded up to
    /// whole microseconds.
    pub fn from_args(max_users: u16, pipelined_delay_secs: f64) -> Result<Self> {
        let transfer = qosgate_kernel::units::ticks_from_secs_f64(
            pipelined_delay_secs,
            Param::Delay,
        )
        .with_context(|| {
            format!(
                "--pipelined-delay {pipelined_delay_secs}: must be a finite number of seconds \
                     >= 0 and at most about 1.8e13"
            )
        })?;
        Ok(Self {
            max_users,
            transfer,
        })
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            max_users: 8,
            transfer: Ticks::ZERO,
        }
    }
}

/// One user at one resource in one (kind, discipline, layout) combination.
///
/// Rates are `None` and bounds `None` when the registration was refused; a bound is also `None`
/// when the kernel says there is none ([`Error::NoBound`], aggressive submission).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Row {
    /// User name.
    pub user: String,
    /// Resource name.
    pub resource: String,
    /// Resource kind (Sec. 3.4); JSON `gs`, `gs_be_equal`, `gs_be_priority_non_preemptive`,
    /// `gs_be_priority_preemptive`.
    #[serde(serialize_with = "ser_kind")]
    pub kind: Kind,
    /// Fair-queueing discipline; JSON `wfq` or `scfq`.
    #[serde(serialize_with = "ser_discipline")]
    pub discipline: Discipline,
    /// CPU layout.
    pub layout: Layout,
    /// Number of CPUs.
    pub cpus: usize,
    /// Total capacity `C'`, MIPS.
    #[serde(rename = "capacity_mips")]
    pub capacity: u64,
    /// Slowest CPU `C_min`, MIPS (the `C` of every bound term, Eq. 10).
    #[serde(rename = "cpu_min_mips")]
    pub cpu_min: u64,
    /// Whether [`Resource::register`] accepted the user.
    pub registered: bool,
    /// `ok`, or the kernel error's text.
    pub outcome: String,
    /// `g` on [`RateBasis::Reserved`] (= rho), MIPS.
    #[serde(rename = "g_reserved_mips")]
    pub g_reserved: Option<u64>,
    /// `g` on [`RateBasis::Current`] (= `C' w / W`, rounded down), MIPS.
    #[serde(rename = "g_current_mips")]
    pub g_current: Option<u64>,
    /// Bound from arrival at the resource to completion, Reserved basis.
    #[serde(rename = "bound_reserved_s", serialize_with = "ser_secs")]
    pub bound_reserved: Option<Ticks>,
    /// Bound from arrival at the resource to completion, Current basis.
    #[serde(rename = "bound_current_s", serialize_with = "ser_secs")]
    pub bound_current: Option<Ticks>,
    /// End-to-end bound `max(T, d) + bound`, Reserved basis.
    #[serde(rename = "end_to_end_reserved_s", serialize_with = "ser_secs")]
    pub end_to_end_reserved: Option<Ticks>,
    /// End-to-end bound `max(T, d) + bound`, Current basis.
    #[serde(rename = "end_to_end_current_s", serialize_with = "ser_secs")]
    pub end_to_end_current: Option<Ticks>,
    /// 1.10 x the Current-basis end-to-end bound, rounded up to a tick (erratum E31).
    #[serde(
        rename = "deadline_1_10x_end_to_end_current_s",
        serialize_with = "ser_secs"
    )]
    pub deadline: Option<Ticks>,
}

/// What a report's heading and legend say of its grid: a scenario file's words
/// ([`About::file`]), or a paper's, which its experiment folder writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct About {
    /// The grid's name (`grid` in the JSON report).
    pub name: String,
    /// The heading's words for the grid, its `I_r^max` included.
    pub grid: String,
    /// The legend's words on when SCFQ's current-basis bound is the smaller.
    pub current: String,
    /// The legend's words for the CPUs of the multi layout.
    pub multi: String,
}

impl About {
    /// The words for `grid`, read from the scenario file at `path` (as given).
    pub fn file(path: &str, grid: &GsGrid) -> Self {
        About {
            name: grid.name.clone(),
            grid: format!(
                "scenario {} ({path}): its GS users, registered where the simulator registers \
                 them, every resource rebuilt in each kind, discipline and layout below, I_r^max \
                 up to {} MI",
                grid.name,
                grouped(grid.max_task().get())
            ),
            current: "so SCFQ's current-basis bound is the smaller where their maximal tasks add \
                      up to less than one I_r^max"
                .to_owned(),
            multi: "the scenario's CPUs".to_owned(),
        }
    }
}

/// The whole output of `qosgate bounds`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The grid's name ([`About::name`]): `kokkinos2009` for the paper's, else the scenario's.
    pub grid: String,
    /// What the heading and legend say it is (not in the JSON).
    #[serde(skip)]
    pub about: About,
    /// `--max-users`.
    pub max_users: u16,
    /// The resources' largest maximum task `I_r^max`, MI (kokkinos2009's grid: the same at every
    /// resource).
    #[serde(rename = "max_task_mi")]
    pub max_task: u64,
    /// Transfer delay `d` (`--pipelined-delay`).
    #[serde(rename = "transfer_delay_s", serialize_with = "ser_secs_plain")]
    pub transfer: Ticks,
    /// Withholding time `T` used in the end-to-end bounds (always 0 here).
    #[serde(rename = "withhold_s", serialize_with = "ser_secs_plain")]
    pub withhold: Ticks,
    /// The factor giving the deadline column from the Current-basis end-to-end bound.
    pub deadline_factor: f64,
    /// One row per registration per combination, grouped by registration (user) then by layout,
    /// kind and discipline.
    pub rows: Vec<Row>,
}

/// Computes every row for `grid`, each user registering with its own knowledge, in every layout
/// of [`GsGrid::layouts`].
///
/// Errors (with the input named): a resource the kernel will not build (`--max-users` outside
/// `1 ..= 16`, more CPUs than [`Res`] holds), or a bound that overflows (a huge
/// `--pipelined-delay`). A refused registration is not an error: it is a row with
/// `registered: false`.
pub fn compute(grid: &GsGrid, about: About, cfg: &Config) -> Result<Report> {
    let mut keyed = Vec::new();
    for layout in grid.layouts() {
        for kind in KINDS {
            for discipline in DISCIPLINES {
                let combo = Combo {
                    kind,
                    discipline,
                    layout,
                    knowledge: None,
                };
                for (order, row) in combo.rows(grid, cfg)?.into_iter().enumerate() {
                    keyed.push((order, row));
                }
            }
        }
    }
    // Stable: within a registration, rows stay in (layout, kind, discipline) order.
    keyed.sort_by_key(|(order, _)| *order);
    Ok(Report {
        grid: about.name.clone(),
        about,
        max_users: cfg.max_users,
        max_task: grid.max_task().get(),
        transfer: cfg.transfer,
        withhold: Ticks::ZERO,
        deadline_factor: DEADLINE_TENTHS as f64 / 10.0,
        rows: keyed.into_iter().map(|(_, r)| r).collect(),
    })
}

/// The rows of one (kind, discipline, layout) combination, in registration order, with every
/// user registering under `knowledge` (kokkinos2009's deadlines use [`Knowledge::Exact`], as
/// Sec. 6.1 does; `Window(n)` adds Eq. 9's `n I_i / g`, and `Aggressive` has no bound, so its
/// rows have `None` bounds and deadlines).
///
/// Errors: those of [`compute`].
pub fn combination(
    grid: &GsGrid,
    kind: Kind,
    discipline: Discipline,
    layout: Layout,
    knowledge: Knowledge,
    cfg: &Config,
) -> Result<Vec<Row>> {
    Combo {
        kind,
        discipline,
        layout,
        knowledge: Some(knowledge),
    }
    .rows(grid, cfg)
}

/// One (kind, discipline, layout) combination, every user registering under `knowledge`
/// (`None`: its own).
#[derive(Clone, Copy, Debug)]
struct Combo {
    kind: Kind,
    discipline: Discipline,
    layout: Layout,
    knowledge: Option<Knowledge>,
}

impl Combo {
    /// Builds every resource, makes the registrations in order, then reads the bounds of the
    /// final state (the Current basis is the share after *all* registrations).
    fn rows(self, grid: &GsGrid, cfg: &Config) -> Result<Vec<Row>> {
        let mut resources = Vec::with_capacity(grid.resources.len());
        for spec in &grid.resources {
            let cpus = spec.cpus(self.layout);
            let capacity = Mips::new(cpus.iter().map(|c| c.get()).sum());
            let res = Res::new(
                self.kind,
                self.discipline,
                &cpus,
                spec.max_task,
                cfg.max_users,
            )
            .with_context(|| {
                format!(
                    "building {} ({}, {} CPU(s), {capacity} in all, I_r^max {}) with --max-users \
                     {} (accepted: 1 to {FLOWS})",
                    spec.name,
                    self.label(),
                    cpus.len(),
                    spec.max_task,
                    cfg.max_users
                )
            })?;
            resources.push(res);
        }
        let outcomes: Vec<Result<FlowId, Error>> = grid
            .registrations
            .iter()
            .map(|&(u, r)| {
                let own = grid.users[u].registration;
                resources[r].register(Registration {
                    knowledge: self.knowledge.unwrap_or(own.knowledge),
                    ..own
                })
            })
            .collect();
        grid.registrations
            .iter()
            .zip(outcomes)
            .map(|(&(u, r), outcome)| self.row(grid, &resources[r], u, r, outcome, cfg))
            .collect()
    }

    fn row(
        self,
        grid: &GsGrid,
        res: &Res,
        user_idx: usize,
        resource_idx: usize,
        outcome: Result<FlowId, Error>,
        cfg: &Config,
    ) -> Result<Row> {
        let (user, resource) = (
            &grid.users[user_idx].name,
            &grid.resources[resource_idx].name,
        );
        let mut row = Row {
            user: user.clone(),
            resource: resource.clone(),
            kind: self.kind,
            discipline: self.discipline,
            layout: self.layout,
            cpus: grid.resources[resource_idx].cpus(self.layout).len(),
            capacity: res.capacity().get(),
            cpu_min: res.cpu_min().get(),
            registered: outcome.is_ok(),
            outcome: match outcome {
                Ok(_) => "ok".to_owned(),
                Err(e) => e.to_string(),
            },
            g_reserved: None,
            g_current: None,
            bound_reserved: None,
            bound_current: None,
            end_to_end_reserved: None,
            end_to_end_current: None,
            deadline: None,
        };
        let Ok(flow) = outcome else {
            return Ok(row);
        };
        let what = |basis: RateBasis| {
            format!(
                "{basis:?}-basis bound of {user} at {resource} ({}) with --pipelined-delay {} s",
                self.label(),
                secs(cfg.transfer)
            )
        };
        for basis in [RateBasis::Reserved, RateBasis::Current] {
            let spec = res.bound_spec(flow, basis).with_context(|| what(basis))?;
            let at = bound_or_none(&spec).with_context(|| what(basis))?;
            let e2e = at
                .map(|b| bound::end_to_end(b, Ticks::ZERO, cfg.transfer, Pipelining::Pipelined))
                .transpose()
                .with_context(|| what(basis))?;
            match basis {
                RateBasis::Reserved => {
                    row.g_reserved = Some(spec.rate.get());
                    row.bound_reserved = at;
                    row.end_to_end_reserved = e2e;
                }
                RateBasis::Current => {
                    row.g_current = Some(spec.rate.get());
                    row.bound_current = at;
                    row.end_to_end_current = e2e;
                    row.deadline = e2e.map(deadline_of).transpose().with_context(|| {
                        format!("deadline (1.10 x end-to-end bound) of {}", what(basis))
                    })?;
                }
            }
        }
        Ok(row)
    }

    fn label(self) -> String {
        format!(
            "{}, {}, {} layout",
            self.kind,
            self.discipline,
            self.layout.name()
        )
    }
}

/// The bound at the resource, `None` when the kernel says there is none.
fn bound_or_none(spec: &BoundSpec) -> Result<Option<Ticks>, Error> {
    match spec.at_resource() {
        Ok(b) => Ok(Some(b)),
        Err(Error::NoBound) => Ok(None),
        Err(e) => Err(e),
    }
}

/// `ceil(1.10 x bound)` in ticks.
fn deadline_of(bound: Ticks) -> Result<Ticks, Error> {
    let d = (u128::from(bound.get()) * u128::from(DEADLINE_TENTHS)).div_ceil(10);
    u64::try_from(d)
        .map(Ticks::new)
        .map_err(|_| Error::Overflow)
}

/// The stable JSON name of a resource kind.
pub fn kind_id(kind: Kind) -> &'static str {
    match kind {
        Kind::Gs => "gs",
        Kind::Be => "be",
        Kind::GsBeEqual => "gs_be_equal",
        Kind::GsBePriority { preemptive: false } => "gs_be_priority_non_preemptive",
        Kind::GsBePriority { preemptive: true } => "gs_be_priority_preemptive",
    }
}

/// The stable JSON name of a discipline.
pub fn discipline_id(d: Discipline) -> &'static str {
    match d {
        Discipline::Wfq => "wfq",
        Discipline::Scfq => "scfq",
    }
}

/// Ticks as seconds with all six decimals, exact (`3768.333335`).
pub fn secs(t: Ticks) -> String {
    let t = t.get();
    format!("{}.{:06}", t / TICKS_PER_SECOND, t % TICKS_PER_SECOND)
}

fn ser_kind<S: Serializer>(k: &Kind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(kind_id(*k))
}

fn ser_discipline<S: Serializer>(d: &Discipline, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(discipline_id(*d))
}

fn ser_secs<S: Serializer>(t: &Option<Ticks>, s: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => s.serialize_f64(time::secs(*t)),
        None => s.serialize_none(),
    }
}

fn ser_secs_plain<S: Serializer>(t: &Ticks, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(time::secs(*t))
}

/// The `qosgate bounds` table, with its heading and legend.
pub fn bounds_table(rep: &Report) -> String {
    use Align::{Left, Right};
    let headers = [
        ("user", Left),
        ("res", Left),
        ("kind", Left),
        ("disc", Left),
        ("layout", Left),
        ("outcome", Left),
        ("g_res MIPS", Right),
        ("g_cur MIPS", Right),
        ("bound_res s", Right),
        ("bound_cur s", Right),
        ("e2e_res s", Right),
        ("e2e_cur s", Right),
        ("deadline s (1.10 x e2e_cur)", Right),
    ];
    let rows: Vec<Vec<String>> = rep.rows.iter().map(cells).collect();
    let mut out = String::new();
    let heading = format!(
        "qosgate bounds: {}, --max-users {}. \
         End to end (e2e) = max(T, d) + bound with T = 0 s and d = {} s (--pipelined-delay). \
         Deadline = 1.10 x e2e_cur (erratum E31).",
        rep.about.grid,
        rep.max_users,
        short_secs(rep.transfer),
    );
    out.push_str(&wrap(&heading, 100));
    out.push('\n');
    out.push_str(&table(&headers, &rows));
    let refused = rep.rows.iter().filter(|r| !r.registered).count();
    if refused > 0 {
        let _ = writeln!(
            out,
            "\n{refused} of {} registrations refused (see the outcome column).",
            rep.rows.len()
        );
    }
    out.push('\n');
    out.push_str(&wrap(&legend(&rep.about), 100));
    out
}

/// The legend under the table: what the columns mean, in `about`'s words for its grid.
fn legend(about: &About) -> String {
    let About { current, multi, .. } = about;
    format!(
        "{LEGEND_BASES} on the current basis only the users registered now count, {current}, \
         {LEGEND_EQUAL} single = one CPU of the total capacity; multi = {multi}: {LEGEND_MULTI}"
    )
}

const LEGEND_BASES: &str = "Legend. res = reserved basis: g = rho, the user's own rate. Every \
registration re-checks Eq. 1 for every registered user, so the user's share never drops below rho: \
a reserved-basis bound holds for the whole life of the registration, whatever registers or leaves \
later. cur = current basis: g = C' w / W, the share with the users registered now (Table 1's \
N_r(t) + 1 form); tighter, but it holds only until the next registration. g is in MIPS, rounded \
down; times are in seconds, rounded up to the microsecond; bound = from arrival at the resource \
to completion. WFQ waits for one maximal task of another flow, I_r^max / C; SCFQ waits for the \
maximal task of every other flow, sum_(j != i) I_j / C, so its bound is the larger one once two \
or more other flows may hold maximal tasks (erratum E28). On the reserved basis every other \
flow slot (--max-users - 1 of them) counts as an I_r^max task, so SCFQ's bound is the larger \
from --max-users 3 on;";

const LEGEND_EQUAL: &str = "except at GS_BE_EQUAL, where \
every free flow slot may hold a temporary BE user with a maximal task (and its weight lowers g \
down to what Eq. 1 allows). GS_BE_PRIORITY n.pr. adds \
the residual best-effort task R_r = I_r^max / C (Table 1).";

const LEGEND_MULTI: &str = "g comes from the total capacity C' (Sec. 5.2), \
every I / C term uses the slowest CPU C_min (Eq. 10), and, correcting Eq. 10 (kernel/src/bound.rs), \
the task's own run is charged at min(g, C_min) and M I_r^max / C' is added for CPUs left idle \
while a flow's queue is shorter than M. \"none\" = no bound (refused registration, or \
aggressive submission).";

/// Ticks as seconds without trailing zeros (`2.5`, `0`).
fn short_secs(t: Ticks) -> String {
    let s = secs(t);
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| "none".to_owned(), |v| v.to_string())
}

fn opt_secs(v: Option<Ticks>) -> String {
    v.map_or_else(|| "none".to_owned(), secs)
}

fn cells(r: &Row) -> Vec<String> {
    vec![
        r.user.to_owned(),
        r.resource.to_owned(),
        r.kind.to_string(),
        r.discipline.to_string(),
        r.layout.name().to_owned(),
        r.outcome.clone(),
        opt(r.g_reserved),
        opt(r.g_current),
        opt_secs(r.bound_reserved),
        opt_secs(r.bound_current),
        opt_secs(r.end_to_end_reserved),
        opt_secs(r.end_to_end_current),
        opt_secs(r.deadline),
    ]
}

#[cfg(test)]
mod tests {
    //! Expected values are worked out by hand from the formulas of `kernel/src/bound.rs`, in
    //! microseconds, each fraction rounded up:
    //! `bound = sigma / g + I_i / min(g, C) + (B + R) / C + [M >= 2] M I_r / C'`, with
    //! `B = I_r` (WFQ) or the sum of the other flows' maxima (SCFQ), `R = I_r` on a non-preemptive
    //! GS_BE_PRIORITY resource (the kernel rounds `(B + R) / C` as one fraction), `C` the slowest
    //! CPU, `C'` the total capacity and `M` the number of CPUs. Exact knowledge: no Eq. 9 term.
    use super::*;
    use crate::models::ScenarioFile;

    /// A preset of the experiments' registry, as a grid scenario (a model imports no paper's
    /// folder).
    fn preset(name: &str) -> Scenario {
        let any = crate::experiments::preset(name).unwrap();
        Scenario::parse(&any.to_toml(), name).unwrap()
    }

    /// kokkinos2009's grid (Tables 2-5, the registrations of Sec. 6.4: its experiment checks
    /// that this preset registers them).
    fn paper() -> GsGrid {
        GsGrid::of(&preset("kokkinos2009-gbp-multi")).unwrap()
    }

    fn about() -> About {
        About::file("gbp-multi.toml", &paper())
    }

    const I_R: u64 = 419_900_000;

    fn t(micros: u64) -> Ticks {
        Ticks::new(micros)
    }

    fn report(max_users: u16, transfer: Ticks) -> Report {
        compute(
            &paper(),
            about(),
            &Config {
                max_users,
                transfer,
            },
        )
        .unwrap()
    }

    fn find<'a>(
        rep: &'a Report,
        user: &str,
        kind: Kind,
        discipline: Discipline,
        layout: Layout,
    ) -> &'a Row {
        rep.rows
            .iter()
            .find(|r| {
                r.user == user && r.kind == kind && r.discipline == discipline && r.layout == layout
            })
            .unwrap()
    }

    #[test]
    fn every_registration_in_every_combination_has_a_row() {
        let rep = report(8, Ticks::ZERO);
        assert_eq!(rep.rows.len(), 3 * 4 * 2 * 2);
        assert!(rep.rows.iter().all(|r| r.registered && r.outcome == "ok"));
        // Grouped by registration, in the order of Sec. 6.4.
        assert!(
            rep.rows[..16]
                .iter()
                .all(|r| r.user == "U1" && r.resource == "R1")
        );
        assert!(
            rep.rows[16..32]
                .iter()
                .all(|r| r.user == "U2" && r.resource == "R2")
        );
        assert!(
            rep.rows[32..]
                .iter()
                .all(|r| r.user == "U3" && r.resource == "R2")
        );
    }

    #[test]
    fn u1_alone_at_r1_gs_wfq_single() {
        let rep = report(8, Ticks::ZERO);
        let r = find(&rep, "U1", Kind::Gs, Discipline::Wfq, Layout::Single);
        assert_eq!((r.cpus, r.capacity, r.cpu_min), (1, 780_000, 780_000));
        // Current: g = C' w / W = 780,000 / 1.
        // sigma / g = 2,099,500,000e6 / 780,000 = 2,691,666,666.7 -> 2,691,666,667 us;
        // I_i / g = I_r / C = 419,900,000e6 / 780,000 = 538,333,333.3 -> 538,333,334 us.
        assert_eq!(r.g_current, Some(780_000));
        assert_eq!(r.bound_current, Some(t(2_691_666_667 + 2 * 538_333_334)));
        assert_eq!(secs(r.bound_current.unwrap()), "3768.333335");
        // Reserved: g = rho = 768,473.
        // sigma / g = 2,732,041,333.2 -> 2,732,041,334; I_i / g = 546,408,266.6 -> 546,408,267;
        // I_r / C as above.
        assert_eq!(r.g_reserved, Some(768_473));
        assert_eq!(
            r.bound_reserved,
            Some(t(2_732_041_334 + 546_408_267 + 538_333_334))
        );
        // d = 0: end to end = at the resource; deadline = ceil(1.1 x 3,768,333,335).
        assert_eq!(r.end_to_end_current, r.bound_current);
        assert_eq!(r.deadline, Some(t(4_145_166_669)));
    }

    #[test]
    fn scfq_blocks_for_the_other_flows_instead_of_one_maximal_task() {
        let rep = report(8, Ticks::ZERO);
        // U1 is alone at R1: on the Current basis SCFQ has no other flow to wait for, so it is
        // WFQ minus ceil(I_r / C) = 538,333,334 us.
        let w = find(&rep, "U1", Kind::Gs, Discipline::Wfq, Layout::Single);
        let s = find(&rep, "U1", Kind::Gs, Discipline::Scfq, Layout::Single);
        assert_eq!(s.bound_current, Some(t(2_691_666_667 + 538_333_334)));
        assert_eq!(
            w.bound_current
                .unwrap()
                .checked_sub(s.bound_current.unwrap()),
            Some(t(538_333_334))
        );
        // Reserved: any of the other max_users - 1 = 7 slots may hold an I_r task:
        // ceil(7 x 419,900,000e6 / 780,000) = 3,768,333,334 us instead of 538,333,334.
        assert_eq!(
            s.bound_reserved,
            Some(t(2_732_041_334 + 546_408_267 + 3_768_333_334))
        );

        // U2 at R2 with U3: g = 520,000 / 2 = 260,000 on the Current basis.
        // sigma / g = 356,915,000e6 / 260,000 = 1,372,750,000; I_i / g = 274,550,000;
        // WFQ: I_r / C = 419,900,000e6 / 520,000 = 807,500,000;
        // SCFQ: I_U3 / C = 419,900e6 / 520,000 = 807,500.
        let w = find(&rep, "U2", Kind::Gs, Discipline::Wfq, Layout::Single);
        let s = find(&rep, "U2", Kind::Gs, Discipline::Scfq, Layout::Single);
        assert_eq!(w.g_current, Some(260_000));
        assert_eq!(
            w.bound_current,
            Some(t(1_372_750_000 + 274_550_000 + 807_500_000))
        );
        assert_eq!(
            s.bound_current,
            Some(t(1_372_750_000 + 274_550_000 + 807_500))
        );
        // U3 at R2, SCFQ Current: waits for U2's I = 71,383,000 MI: 137,275,000 us.
        // sigma / g = 2,099,500e6 / 260,000 = 8,075,000; I_i / g = 1,615,000.
        let s = find(&rep, "U3", Kind::Gs, Discipline::Scfq, Layout::Single);
        assert_eq!(
            s.bound_current,
            Some(t(8_075_000 + 1_615_000 + 137_275_000))
        );
    }

    #[test]
    fn multi_cpu_uses_total_capacity_for_g_and_c_min_for_blocking() {
        let rep = report(8, Ticks::ZERO);
        let r = find(&rep, "U1", Kind::Gs, Discipline::Wfq, Layout::Multi);
        assert_eq!((r.cpus, r.capacity, r.cpu_min), (30, 780_000, 26_000));
        // g = C' w / W = 780,000 as in the single layout (Sec. 5.2).
        // sigma / g = 2,691,666,667 as before; the task itself runs on one 26,000 MIPS CPU:
        // I_i / min(g, C_min) = 419,900,000e6 / 26,000 = 16,150,000,000 exactly; I_r / C_min the
        // same; M I_r / C' = 30 x 419,900,000e6 / 780,000 = 16,150,000,000 again.
        assert_eq!(r.g_current, Some(780_000));
        assert_eq!(r.bound_current, Some(t(2_691_666_667 + 3 * 16_150_000_000)));
        // U3 at R2 (20 CPUs, C' = 520,000, g = 260,000): sigma / g = 8,075,000;
        // I_i / C_min = 419,900e6 / 26,000 = 16,150,000; I_r / C_min = 16,150,000,000;
        // M I_r / C' = 20 x 419,900,000e6 / 520,000 = 16,150,000,000.
        let r = find(&rep, "U3", Kind::Gs, Discipline::Wfq, Layout::Multi);
        assert_eq!((r.cpus, r.capacity, r.cpu_min), (20, 520_000, 26_000));
        assert_eq!(
            r.bound_current,
            Some(t(8_075_000 + 16_150_000 + 2 * 16_150_000_000))
        );
        // SCFQ, current basis: U3 waits for U2's 71,383,000 MI on C_min: 2,745,500,000.
        let r = find(&rep, "U3", Kind::Gs, Discipline::Scfq, Layout::Multi);
        assert_eq!(
            r.bound_current,
            Some(t(8_075_000 + 16_150_000 + 2_745_500_000 + 16_150_000_000))
        );
    }

    #[test]
    fn non_preemptive_priority_adds_the_residual_best_effort_task() {
        let rep = report(8, Ticks::ZERO);
        for (layout, c) in [(Layout::Single, 780_000u64), (Layout::Multi, 26_000)] {
            let np = find(
                &rep,
                "U1",
                Kind::GsBePriority { preemptive: false },
                Discipline::Wfq,
                layout,
            );
            let pr = find(
                &rep,
                "U1",
                Kind::GsBePriority { preemptive: true },
                Discipline::Wfq,
                layout,
            );
            let gs = find(&rep, "U1", Kind::Gs, Discipline::Wfq, layout);
            // Preemptive and GS_BE_EQUAL have R_r = 0 (Table 1): the GS bound.
            assert_eq!(pr.bound_current, gs.bound_current);
            // Non-preemptive: ceil(2 I_r / C) replaces ceil(I_r / C).
            let one = (I_R * 1_000_000).div_ceil(c);
            let two = (2 * I_R * 1_000_000).div_ceil(c);
            assert_eq!(
                np.bound_current
                    .unwrap()
                    .checked_sub(gs.bound_current.unwrap()),
                Some(t(two - one))
            );
        }
        // Single CPU: 1,076,666,667 - 538,333,334.
        let np = find(
            &rep,
            "U1",
            Kind::GsBePriority { preemptive: false },
            Discipline::Wfq,
            Layout::Single,
        );
        assert_eq!(
            np.bound_current,
            Some(t(2_691_666_667 + 538_333_334 + 1_076_666_667))
        );
    }

    #[test]
    fn pipelined_delay_adds_once_and_scales_the_deadline() {
        let rep = report(8, t(2_500_000));
        let r = find(&rep, "U1", Kind::Gs, Discipline::Wfq, Layout::Single);
        assert_eq!(r.end_to_end_current, Some(t(3_768_333_335 + 2_500_000)));
        assert_eq!(r.end_to_end_reserved, Some(t(3_816_782_935 + 2_500_000)));
        // ceil(1.1 x 3,770,833,335) = ceil(4,147,916,668.5).
        assert_eq!(r.deadline, Some(t(4_147_916_669)));
    }

    #[test]
    fn a_full_resource_refuses_and_the_row_says_why() {
        let rep = report(1, Ticks::ZERO);
        let r = find(&rep, "U3", Kind::Gs, Discipline::Wfq, Layout::Single);
        assert!(!r.registered);
        assert_eq!(r.outcome, Error::Full.to_string());
        assert_eq!(
            (r.g_current, r.bound_current, r.deadline),
            (None, None, None)
        );
        // U2 registered first and is alone: g = C' = 520,000 on the Current basis.
        let r = find(&rep, "U2", Kind::Gs, Discipline::Wfq, Layout::Single);
        assert_eq!(r.g_current, Some(520_000));
    }

    #[test]
    fn bad_inputs_are_named() {
        let err = compute(
            &paper(),
            about(),
            &Config {
                max_users: 0,
                transfer: Ticks::ZERO,
            },
        )
        .unwrap_err();
        let msg = format!("{err:#}");
        assert!(msg.contains("--max-users 0"), "{msg}");
        assert!(msg.contains("flow limit"), "{msg}");
        let msg = format!("{:#}", Config::from_args(8, -1.0).unwrap_err());
        assert!(msg.contains("--pipelined-delay -1"), "{msg}");
        let msg = format!("{:#}", Config::from_args(8, f64::NAN).unwrap_err());
        assert!(msg.contains("invalid parameter: delay"), "{msg}");
        assert_eq!(Config::from_args(8, 1.5).unwrap().transfer, t(1_500_000));
        // A delay near the end of the clock overflows the end-to-end bound: an error, named.
        let cfg = Config {
            max_users: 8,
            transfer: t(u64::MAX - 1),
        };
        let msg = format!("{:#}", compute(&paper(), about(), &cfg).unwrap_err());
        assert!(
            msg.contains("U1 at R1") && msg.contains("overflow"),
            "{msg}"
        );
    }

    #[test]
    fn json_field_names_and_units() {
        let rep = report(8, Ticks::ZERO);
        let v = serde_json::to_value(&rep).unwrap();
        let row = &v["rows"][0];
        assert_eq!(row["user"], "U1");
        assert_eq!(row["kind"], "gs");
        assert_eq!(row["discipline"], "wfq");
        assert_eq!(row["layout"], "single");
        assert_eq!(row["bound_current_s"], 3768.333335);
        assert_eq!(row["g_reserved_mips"], 768_473);
        assert!(row["deadline_1_10x_end_to_end_current_s"].is_f64());
        assert_eq!(v["deadline_factor"], 1.1);
        let refused = serde_json::to_value(report(1, Ticks::ZERO)).unwrap();
        let u3 = &refused["rows"][32];
        assert_eq!(u3["registered"], false);
        assert!(u3["bound_current_s"].is_null());
    }

    #[test]
    fn bounds_table_has_every_row_and_the_legend() {
        let rep = compute(&paper(), about(), &Default::default()).unwrap();
        let t = bounds_table(&rep);
        assert!(t.contains("3768.333335"));
        assert!(t.contains("Legend."));
        assert_eq!(t.lines().filter(|l| l.starts_with("U")).count(), 48);
    }

    #[test]
    fn a_user_no_resource_admits_is_named() {
        let mut s = preset("kokkinos2009-gb");
        s.users[1].rho_mips = Some(10_000_000);
        let msg = format!("{:#}", GsGrid::of(&s).unwrap_err());
        assert!(msg.contains("GS user U2 cannot register anywhere"), "{msg}");
    }

    #[test]
    fn short_seconds_drop_trailing_zeros() {
        assert_eq!(short_secs(t(2_500_000)), "2.5");
        assert_eq!(short_secs(Ticks::ZERO), "0");
        assert_eq!(short_secs(t(10_000_000)), "10");
    }
}
