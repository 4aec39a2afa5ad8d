//! Built-in scenarios: the simulations of kokkinos2009 (Kokkinos & Varvarigos 2009, Sec. 6), built
//! from the paper's grid ([`super::params`]).
//!
//! [`Variant::scenario`] builds any of the paper's experiments: a resource scenario of Table 6,
//! U4's inter-arrival time (Table 4), the GS users' inter-arrival spread (Sec. 6.4.2) and workload
//! (Table 7), the workload knowledge (Sec. 6.4.3), the CPU layout (Sec. 6.4.1) and the
//! best-effort ordering (Sec. 6.4.4). [`names`] and [`get`] give the presets: the four resource
//! scenarios of Table 6 with fixed distributions and U4 every 1093 s, in both CPU layouts.
//!
//! # Where the paper is silent (choices, each a scenario parameter)
//! - **Deadlines** (erratum E31): a GS user's deadline is 1.10 x its end-to-end delay bound
//!   (Current basis, pipelined with one hop's transfer delay: [`bounds`], computed by the
//!   kernel) at the resource it registers to, under the GBP resource type (GS_BE_PRIORITY,
//!   non-preemptive: its residual BE task makes it the largest bound of Table 6's types; GB's
//!   and, with [`MAX_USERS`], GBE's are smaller) with the scenario's layout and SCFQ. The deadline
//!   is therefore the same in every scenario of Table 6, the BE scenario included (where U1-U3 are
//!   BE users with "the same characteristics"). Under n-window submission the bound includes Eq.
//!   9's term, as the paper's deadlines do; full aggressive submission has no bound and keeps the
//!   exact-knowledge deadline. U4 and U5 create U1-sized tasks and get U1's exact-knowledge
//!   deadline in every experiment.
//! - **Network**: 1000 bytes in and out (Sec. 6.2) over links of [`BANDWIDTH_BPS`] (1 Gb/s; the
//!   paper gives none): 8 µs a hop, negligible next to the bounds, as Sec. 6.2's "very small data
//!   dependencies" asks.
//! - **Horizon** [`HORIZON_S`] = 200,000 s (367 U1 tasks, 34 U3 tasks, 37 U5 tasks, 183 U4 tasks
//!   at 1093 s/t and 3,637 at 55 s/t): the paper states no duration. A run takes milliseconds
//!   (optimised build), so a full `reproduce` is quick; the limit is the simulator's queue of
//!   8,192 tasks per resource: in GB at 55 s/t every BE task queues at R3, about 3,500 of them
//!   at the horizon, and twice the horizon would come close to the limit.
//! - **Warm-up**: 0 when every distribution is fixed (the run is the paper's deterministic one
//!   from time 0), else [`WARMUP_FRACTION`] of the horizon.
//! - **Replications**: 1 when every distribution is fixed (replications would differ only in an
//!   unused seed), else [`RANDOM_REPLICATIONS`]. Replication `k` uses seed [`SEED`]` + k`.
//! - **Flows per resource** [`MAX_USERS`]: see its doc.

use std::io::Write;

use anyhow::{Context, Result, anyhow, bail};
use qosgate_kernel::fairq;
use qosgate_kernel::resource::Kind;
use qosgate_kernel::units::{TICKS_PER_SECOND, Ticks, Work};

use super::params::{self, Layout};
use crate::config::Header;
use crate::des::time;
use crate::experiments::Simulation;
use crate::models::Model;
use crate::models::ScenarioFile;
use crate::models::grid::Grid;
use crate::models::grid::bounds;
use crate::models::grid::scenario::{
    Discipline, Dist, Knowledge, Meta, MetaOrder, Network, Oversize, ResourceConfig, ResourceKind,
    Scenario, UserClass, UserConfig,
};

/// Table 2: the fixed inter-arrival times of U1, U2, U3 (in [`params::USERS`] order), seconds.
pub const GS_INTERARRIVAL_S: [f64; 3] = [546.0, 3278.0, 6010.0];

/// Table 4: the inter-arrival times of BE user U4 the paper varies, seconds.
pub const U4_INTERARRIVALS_S: [f64; 9] = [
    5464.0, 4371.0, 3278.0, 2186.0, 1366.0, 1093.0, 820.0, 546.0, 55.0,
];

/// U4's inter-arrival time in the presets (the choice; Sec. 6.4.3 uses it too), seconds.
pub const U4_PRESET_S: f64 = 1093.0;

/// Table 4: BE user U5's inter-arrival time, seconds.
pub const U5_INTERARRIVAL_S: f64 = 5464.0;

/// Table 4 and Sec. 6.2: the workload of every U4 and U5 task, MI (U1's, 419,900,000 MI).
pub const BE_WORKLOAD_MI: Work = params::USERS[0].imax;

/// Bandwidth of every link, bits per second (1 Gb/s; the paper gives none).
pub const BANDWIDTH_BPS: u64 = 1_000_000_000;

/// Bytes sent with each task and returned with its results (Sec. 6.2).
pub const DATA_BYTES: u64 = 1000;

/// The meta-scheduler's best-effort collection period, seconds (Sec. 6.2).
pub const COLLECTION_PERIOD_S: f64 = 1.0;

/// Tasks are created during `[0, HORIZON_S)`, seconds (module doc: why).
pub const HORIZON_S: f64 = 200_000.0;

/// Share of the horizon left out of the metrics when some distribution is random.
pub const WARMUP_FRACTION: f64 = 0.1;

/// Replications when some distribution is random.
pub const RANDOM_REPLICATIONS: u32 = 5;

/// Seed of the first replication.
pub const SEED: u64 = 2009;

/// Most flows at once at every resource, temporary BE users included (`max_users`): 2, the
/// smallest limit that admits the registrations of Sec. 6.4 (U2 and U3 at R2).
///
/// The paper sets no limit. GS and GS_BE_PRIORITY bounds (and so the deadlines) do not depend on
/// it; a GS_BE_EQUAL resource's Current-basis bound does: the kernel counts a temporary BE user
/// of the smallest GS weight, with a maximal task, in every free slot, so that BE arrivals cannot
/// break a bound already given. With 2, the GBE bounds equal the GB ones and U1-U3 meet their
/// (GBP-based) deadlines there as in Fig. 4; R1 and R2 then admit no BE task (R1: Eq. 1 leaves
/// U1's share no room; R2: no free slot), so BE tasks sent there fail (Fig. 5). With 3, U2's GBE
/// bound (3,279 s end to end) exceeds its deadline (2,701 s) and its tasks would be handled as
/// BE; with 4, U3's too.
pub const MAX_USERS: u16 = 2;

/// The local discipline of every resource: SCFQ, as the paper's simulations (Sec. 6.1).
pub const DISCIPLINE: Discipline = Discipline::Scfq;

/// The resource scenarios of Table 6 (R3 serves best effort in all of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Table6 {
    /// R1, R2 GS.
    Gb,
    /// R1, R2 GS_BE_EQUAL.
    Gbe,
    /// R1, R2 GS_BE_PRIORITY, non-preemptive.
    Gbp,
    /// Every resource BE; U1-U3 are BE users.
    Be,
}

impl Table6 {
    /// Table 6's order.
    pub const ALL: [Table6; 4] = [Table6::Gb, Table6::Gbe, Table6::Gbp, Table6::Be];

    /// The name in preset names and tables: `gb`, `gbe`, `gbp`, `be`.
    pub fn name(self) -> &'static str {
        match self {
            Table6::Gb => "gb",
            Table6::Gbe => "gbe",
            Table6::Gbp => "gbp",
            Table6::Be => "be",
        }
    }

    /// The kinds of R1, R2, R3.
    pub fn kinds(self) -> [ResourceKind; 3] {
        let shared = match self {
            Table6::Gb => ResourceKind::Gs,
            Table6::Gbe => ResourceKind::GsBeEqual,
            Table6::Gbp => ResourceKind::GsBePriority,
            Table6::Be => ResourceKind::Be,
        };
        [shared, shared, ResourceKind::Be]
    }
}

/// The GS users' inter-arrival distributions of Sec. 6.4.2, relative to the fixed value `v` of
/// Table 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Spread {
    /// Always `v`.
    Fixed,
    /// Uniform on `[0.95 v, 1.05 v]`.
    Un5,
    /// Uniform on `[0.80 v, 1.20 v]`.
    Un20,
    /// Uniform on `[0.50 v, 1.50 v]`.
    Un50,
    /// Uniform on `[0.50 v, 1.20 v]` (mean `0.85 v`: the users exceed rho on average).
    Mixed,
}

impl Spread {
    /// The name in preset names and tables: `fixed`, `un5`, `un20`, `un50`, `mixed`.
    pub fn name(self) -> &'static str {
        match self {
            Spread::Fixed => "fixed",
            Spread::Un5 => "un5",
            Spread::Un20 => "un20",
            Spread::Un50 => "un50",
            Spread::Mixed => "mixed",
        }
    }

    /// The distribution around `v` seconds.
    pub fn around(self, v: f64) -> Dist {
        let (lo, hi) = match self {
            Spread::Fixed => return Dist::Fixed(v),
            Spread::Un5 => (95.0, 105.0),
            Spread::Un20 => (80.0, 120.0),
            Spread::Un50 => (50.0, 150.0),
            Spread::Mixed => (50.0, 120.0),
        };
        Dist::Uniform {
            min: v * lo / 100.0,
            max: v * hi / 100.0,
        }
    }
}

/// The GS users' workload scenarios of Table 7, relative to the fixed workload `I` of Table 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Workload {
    /// Always `I` (Table 2).
    Fixed,
    /// Exponential of mean `I` (S0).
    S0,
    /// Exponential of mean `0.9 I` (S-10).
    S10,
    /// Exponential of mean `0.7 I` (S-30).
    S30,
}

impl Workload {
    /// The name in preset names and tables: `fixed`, `s0`, `s10`, `s30`.
    pub fn name(self) -> &'static str {
        match self {
            Workload::Fixed => "fixed",
            Workload::S0 => "s0",
            Workload::S10 => "s10",
            Workload::S30 => "s30",
        }
    }

    /// The distribution for a user whose Table 2 workload is `imax` MI (Table 7's means are
    /// exact integers: `imax x 9 / 10`, `imax x 7 / 10`).
    pub fn of(self, imax: Work) -> Dist {
        let imax = imax.get();
        let mean = |percent: u64| (imax * percent / 100) as f64;
        match self {
            Workload::Fixed => Dist::Fixed(imax as f64),
            Workload::S0 => Dist::Exponential { mean: mean(100) },
            Workload::S10 => Dist::Exponential { mean: mean(90) },
            Workload::S30 => Dist::Exponential { mean: mean(70) },
        }
    }
}

/// The presets, in the order `qosgate presets` lists them.
pub fn names() -> &'static [&'static str] {
    &[
        "kokkinos2009-gb",
        "kokkinos2009-gbe",
        "kokkinos2009-gbp",
        "kokkinos2009-be",
        "kokkinos2009-gb-multi",
        "kokkinos2009-gbe-multi",
        "kokkinos2009-gbp-multi",
        "kokkinos2009-be-multi",
    ]
}

/// Every preset, in [`names`] order.
///
/// Errors: a preset that cannot be built (a bug: the message names it).
pub fn all() -> Result<Vec<Scenario>> {
    names().iter().map(|name| get(name)).collect()
}

/// The preset called `name`: a resource scenario of Table 6 with fixed distributions, U4 every
/// [`U4_PRESET_S`] seconds, exact knowledge and EDF/EST, on one CPU per resource or (`-multi`)
/// on 30 / 20 / 10 CPUs of 26,000 MIPS.
///
/// Errors: an unknown name (the message lists the presets).
pub fn get(name: &str) -> Result<Scenario> {
    for layout in Layout::ALL {
        for resources in Table6::ALL {
            let scenario = Variant {
                resources,
                layout,
                ..Variant::PRESET
            }
            .scenario()?;
            if scenario.header.name == name {
                return Ok(scenario);
            }
        }
    }
    bail!(
        "unknown preset `{name}`; the presets are: {} (`qosgate presets` describes them)",
        names().join(", ")
    )
}

/// `qosgate presets`: one line per preset, its name then its description.
///
/// Errors: a failed write.
pub fn list(out: &mut dyn Write) -> Result<()> {
    for name in names() {
        let scenario = get(name)?;
        writeln!(out, "{name:<24} {}", scenario.header.description).context("writing the list")?;
    }
    out.flush().context("writing output")
}

/// One experiment of kokkinos2009 Sec. 6.4, by named parameters: what [`Variant::scenario`] builds
/// (the module doc states every choice the paper leaves open). [`Variant::PRESET`] is the
/// presets' point; experiments change the fields they vary.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Variant {
    /// The kinds of R1-R3 (Table 6); every resource runs SCFQ; in [`Table6::Be`], U1-U3 are BE
    /// users with the same workloads, inter-arrivals and deadlines.
    pub resources: Table6,
    /// U4's fixed inter-arrival time, seconds (Table 4's values are [`U4_INTERARRIVALS_S`]); U5
    /// creates a task every [`U5_INTERARRIVAL_S`].
    pub u4_interarrival_s: f64,
    /// The inter-arrival distributions of U1-U3 (Sec. 6.4.2).
    pub gs_interarrival: Spread,
    /// The workload distributions of U1-U3 (Table 7).
    pub gs_workload: Workload,
    /// What the meta-scheduler knows of U1-U3's workloads (Sec. 6.4.3); it also sets their
    /// deadlines (module doc).
    pub knowledge: Knowledge,
    /// What becomes of a task of U1-U3 above its `I_max` (Sec. 6.4.3 draws workloads from an
    /// exponential with `I_max` its mean): [`Oversize::BestEffort`] applies Eq. 4 (the task is
    /// handled as BE), [`Oversize::Admit`] serves it as GS (up to the resource's largest task),
    /// the users then having no guarantee.
    pub oversize: Oversize,
    /// One CPU of the total capacity per resource, or 30 / 20 / 10 CPUs of 26,000 MIPS (Table 5,
    /// Sec. 6.4.1); the deadlines follow (Eq. 10).
    pub layout: Layout,
    /// Best-effort ordering at the meta-scheduler, EDF or WFQ, then EST (Sec. 6.4.4).
    pub order: MetaOrder,
    /// The task workloads of Sec. 6.4.4 ([`SEC644_WORKLOADS_MI`], Table 8 and Fig. 12) instead
    /// of Table 2's and Table 4's, and one deadline for every user; every resource then accepts
    /// the largest task.
    pub sec644: bool,
    /// How the users' first tasks line up.
    pub arrivals: Arrivals,
}

/// How the users' first tasks line up. Fixed inter-arrival times repeat whatever ties the
/// first instant makes: with every user starting at 0, which of two simultaneous tasks the
/// meta-scheduler sees first is the scenario's user order, and Sec. 6.4.4's comparison can
/// rest on that alone (erratum E32).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Arrivals {
    /// Every user creates its first task at 0; simultaneous tasks in the order U1 ... U5.
    Synchronous,
    /// As [`Arrivals::Synchronous`], with U4 and U5 listed, and so tied, ahead of U1-U3.
    BeFirst,
    /// Each user's first task at a uniform draw on `[0, its mean inter-arrival]`, per
    /// replication: no tie order is favoured.
    RandomPhase,
}

impl Arrivals {
    /// The name in tables: `synchronous`, `BE first`, `random phase`.
    pub fn name(self) -> &'static str {
        match self {
            Arrivals::Synchronous => "synchronous",
            Arrivals::BeFirst => "BE first",
            Arrivals::RandomPhase => "random phase",
        }
    }
}

/// The fixed task workloads of Sec. 6.4.4 (Table 8, Fig. 12), MI, per user.
pub const SEC644_WORKLOADS_MI: [(&str, u64); 5] = [
    ("U1", 419_900_000),
    ("U2", 71_383_000),
    ("U3", 419_900),
    ("U4", 209_950_000),
    ("U5", 2_099_500_000),
];

impl Variant {
    /// The presets' point: Table 6's GB scenario, fixed distributions, U4 every
    /// [`U4_PRESET_S`], exact knowledge, one CPU per resource, EDF/EST, Table 2's workloads.
    pub const PRESET: Variant = Variant {
        resources: Table6::Gb,
        u4_interarrival_s: U4_PRESET_S,
        gs_interarrival: Spread::Fixed,
        gs_workload: Workload::Fixed,
        knowledge: Knowledge::Exact,
        oversize: Oversize::BestEffort,
        layout: Layout::Single,
        order: MetaOrder::Edf,
        sec644: false,
        arrivals: Arrivals::Synchronous,
    };

    /// The variant of Figs. 4-7: [`Variant::PRESET`] with `resources` and U4 every `u4_s`.
    pub fn base(resources: Table6, u4_s: f64) -> Self {
        Self {
            resources,
            u4_interarrival_s: u4_s,
            ..Self::PRESET
        }
    }
}

impl Simulation for Variant {
    type Scenario = Scenario;

    /// The scenario (the module doc states every choice the paper leaves open).
    ///
    /// The name is `kokkinos2009-` and the Table 6 scenario, then one suffix for each field
    /// that differs from [`Variant::PRESET`]: `-multi`, `-u4-546`, `-un20`, `-s10`, `-window5`
    /// (or `-conservative`, `-conservative-feedback`, `-aggressive`), `-admit`, `-wfq`, `-sec644`,
    /// `-be-first` or `-random-phase`.
    ///
    /// Errors: a `u4_interarrival_s` that is not a positive number of seconds (named by its key,
    /// `users[3].interarrival.fixed`), or a deadline the kernel cannot compute (the message
    /// names the user).
    fn scenario(&self) -> Result<Scenario> {
        let &Variant {
            resources,
            u4_interarrival_s,
            gs_interarrival,
            gs_workload,
            knowledge,
            oversize,
            layout,
            order,
            sec644,
            arrivals: _,
        } = self;
        let grid = params::grid();
        let deadlines = gs_deadlines(layout, knowledge)?;
        let be_deadline = gs_deadlines(layout, Knowledge::Exact)?[0];
        let kinds = resources.kinds();
        let resource_configs = grid
            .resources
            .iter()
            .zip(kinds)
            .map(|(spec, kind)| ResourceConfig {
                name: spec.name.to_owned(),
                kind,
                discipline: DISCIPLINE,
                cpus: spec.cpus(layout).iter().map(|c| c.get()).collect(),
                max_task_mi: grid.max_task.get(),
                max_users: MAX_USERS,
            })
            .collect();
        let gs = resources != Table6::Be;
        let mut users: Vec<UserConfig> = grid
            .users
            .iter()
            .zip(GS_INTERARRIVAL_S)
            .zip(deadlines)
            .map(|((u, gap), deadline_s)| UserConfig {
                name: u.name.to_owned(),
                class: if gs { UserClass::Gs } else { UserClass::Be },
                weight: u.weight,
                rho_mips: gs.then_some(u.rho.get()),
                sigma_mi: gs.then_some(u.sigma.get()),
                max_task_mi: gs.then_some(u.imax.get()),
                knowledge: gs.then_some(knowledge),
                oversize: (gs && oversize != Oversize::BestEffort).then_some(oversize),
                queue_entries: None,
                workload: gs_workload.of(u.imax),
                interarrival: gs_interarrival.around(gap),
                phase_s: None,
                deadline_s,
            })
            .collect();
        for (name, gap) in [("U4", u4_interarrival_s), ("U5", U5_INTERARRIVAL_S)] {
            users.push(UserConfig::best_effort(
                name,
                1,
                Dist::Fixed(BE_WORKLOAD_MI.get() as f64),
                Dist::Fixed(gap),
                be_deadline,
            ));
        }
        if sec644 {
            use_sec644_workloads(&mut users, be_deadline);
        }
        match self.arrivals {
            Arrivals::Synchronous => {}
            Arrivals::BeFirst => users.rotate_left(3),
            Arrivals::RandomPhase => {
                for u in &mut users {
                    u.phase_s = Some(Dist::Uniform {
                        min: 0.0,
                        max: u.interarrival.mean(),
                    });
                }
            }
        }
        let mut scenario = Scenario {
            header: Header {
                name: name(self),
                description: description(self, &users),
                seed: SEED,
                replications: 1,
            },
            horizon_s: HORIZON_S,
            warmup_s: 0.0,
            meta: Meta {
                order,
                collection_period_s: COLLECTION_PERIOD_S,
            },
            network: Network {
                bandwidth_bps: BANDWIDTH_BPS as f64,
                input_bytes: DATA_BYTES,
                output_bytes: DATA_BYTES,
            },
            resources: resource_configs,
            users,
        };
        if !Grid::deterministic(&scenario) {
            scenario.header.replications = RANDOM_REPLICATIONS;
            scenario.warmup_s = HORIZON_S * WARMUP_FRACTION;
        }
        if sec644 {
            // Sec. 6.2: I_r^max is larger than any task.
            let largest = SEC644_WORKLOADS_MI.iter().map(|&(_, mi)| mi).max();
            for r in &mut scenario.resources {
                r.max_task_mi = r.max_task_mi.max(largest.unwrap_or(0));
            }
            scenario.header.description.push_str(
                "; task workloads of Sec. 6.4.4 (U1-U5: 419,900,000, 71,383,000, 419,900, \
                 209,950,000, 2,099,500,000 MI), every deadline U1's",
            );
        }
        scenario.validate().with_context(|| {
            format!("building the kokkinos2009 scenario with U4 every {u4_interarrival_s} s")
        })?;
        Ok(scenario)
    }
}

/// Sec. 6.4.4's fixed workloads for every user, and one deadline for all (Sec. 6.4.4: "all
/// users have equal deadlines"): `deadline_s`, U1's, which U4 and U5 have anyway.
fn use_sec644_workloads(users: &mut [UserConfig], deadline_s: f64) {
    for u in users {
        if let Some(&(_, mi)) = SEC644_WORKLOADS_MI.iter().find(|(n, _)| *n == u.name) {
            u.workload = Dist::Fixed(mi as f64);
            u.max_task_mi = u.max_task_mi.map(|_| mi);
        }
        u.deadline_s = deadline_s;
    }
}

/// The deadlines of U1, U2, U3 (in [`params::USERS`] order), seconds: 1.10 x each user's
/// Current-basis end-to-end bound at the resource it registers to (Sec. 6.4: U1 at R1, U2 and U3
/// at R2) under GS_BE_PRIORITY (non-preemptive) with SCFQ in `layout`, every user registering
/// with `knowledge` (Aggressive: the exact-knowledge bound, as aggressive submission has none),
/// one hop's transfer delay ([`DATA_BYTES`] at [`BANDWIDTH_BPS`]) in front, pipelined. Each is
/// a whole number of microseconds (rounded up).
///
/// Errors: a registration the kernel refuses, or no bound even with exact knowledge (the
/// message names the user and the kernel's reason).
pub fn gs_deadlines(layout: Layout, knowledge: Knowledge) -> Result<[f64; 3]> {
    let grid = params::grid();
    let gs = grid.gs_grid();
    let cfg = bounds::Config {
        max_users: MAX_USERS,
        transfer: hop_ticks(),
    };
    let gbp = Kind::GsBePriority { preemptive: false };
    let rows = |k: Knowledge| {
        bounds::combination(&gs, gbp, fairq::Discipline::Scfq, layout, k.into(), &cfg)
            .with_context(|| format!("the kokkinos2009 deadlines ({} layout)", layout.name()))
    };
    let with_knowledge = rows(knowledge)?;
    let exact = rows(Knowledge::Exact)?;
    let mut out = [0.0; 3];
    for ((&(user, _), row), fallback) in grid.registrations.iter().zip(&with_knowledge).zip(&exact)
    {
        let ticks: Ticks = row.deadline.or(fallback.deadline).ok_or_else(|| {
            anyhow!(
                "no deadline for {} at {} under GS_BE_PRIORITY, SCFQ, {} layout: {}",
                row.user,
                row.resource,
                layout.name(),
                row.outcome
            )
        })?;
        out[user] = time::secs(ticks);
    }
    Ok(out)
}

/// One hop's transfer delay: [`DATA_BYTES`] at [`BANDWIDTH_BPS`], microseconds rounded up (8).
fn hop_ticks() -> Ticks {
    Ticks::new((DATA_BYTES * 8 * TICKS_PER_SECOND).div_ceil(BANDWIDTH_BPS))
}

fn name(v: &Variant) -> String {
    let mut name = format!("kokkinos2009-{}", v.resources.name());
    if v.layout == Layout::Multi {
        name.push_str("-multi");
    }
    if v.u4_interarrival_s != U4_PRESET_S {
        name.push_str(&format!("-u4-{}", v.u4_interarrival_s));
    }
    if v.gs_interarrival != Spread::Fixed {
        name.push_str(&format!("-{}", v.gs_interarrival.name()));
    }
    if v.gs_workload != Workload::Fixed {
        name.push_str(&format!("-{}", v.gs_workload.name()));
    }
    match v.knowledge {
        Knowledge::Exact => {}
        Knowledge::Conservative => name.push_str("-conservative"),
        Knowledge::ConservativeFeedback => name.push_str("-conservative-feedback"),
        Knowledge::Window(n) => name.push_str(&format!("-window{n}")),
        Knowledge::Aggressive => name.push_str("-aggressive"),
    }
    if v.oversize == Oversize::Admit && v.resources != Table6::Be {
        name.push_str("-admit");
    }
    if v.order == MetaOrder::Wfq {
        name.push_str("-wfq");
    }
    if v.sec644 {
        name.push_str("-sec644");
    }
    match v.arrivals {
        Arrivals::Synchronous => {}
        Arrivals::BeFirst => name.push_str("-be-first"),
        Arrivals::RandomPhase => name.push_str("-random-phase"),
    }
    name
}

fn description(v: &Variant, users: &[UserConfig]) -> String {
    let kinds = match v.resources {
        Table6::Gb => "R1, R2 GS, R3 BE",
        Table6::Gbe => "R1, R2 GS_BE_EQUAL, R3 BE",
        Table6::Gbp => "R1, R2 GS_BE_PRIORITY (non-preemptive), R3 BE",
        Table6::Be => "R1-R3 BE, U1-U3 as BE users",
    };
    let cpus = match v.layout {
        Layout::Single => "1 CPU each",
        Layout::Multi => "30/20/10 CPUs of 26,000 MIPS",
    };
    let knowledge = match v.knowledge {
        _ if v.resources == Table6::Be => "no GS registration".to_owned(),
        Knowledge::Exact => "exact knowledge".to_owned(),
        Knowledge::Conservative => "conservative knowledge".to_owned(),
        Knowledge::ConservativeFeedback => "conservative knowledge with feedback".to_owned(),
        Knowledge::Window(n) => format!("{n}-window knowledge"),
        Knowledge::Aggressive => "full aggressive knowledge".to_owned(),
    };
    let knowledge = if v.oversize == Oversize::Admit && v.resources != Table6::Be {
        format!("{knowledge}, tasks above I_max admitted (no guarantee)")
    } else {
        knowledge
    };
    let order = match v.order {
        MetaOrder::Edf => "EDF/EST",
        MetaOrder::Wfq => "WFQ/EST",
    };
    let deadlines: Vec<String> = users
        .iter()
        .filter(|u| ["U1", "U2", "U3"].contains(&u.name.as_str()))
        .map(|u| format!("{} {:.0} s", u.name, u.deadline_s))
        .collect();
    format!(
        "kokkinos2009 Table 6 {}: {kinds}, SCFQ, {cpus}; U1-U3 inter-arrivals {}, workloads {}, \
         {knowledge}; U4 every {} s, U5 every \
         {U5_INTERARRIVAL_S} s; {order}; deadlines 1.10 x the GBP bound ({}; U4, U5 as U1)",
        v.resources.name().to_uppercase(),
        v.gs_interarrival.name(),
        v.gs_workload.name(),
        v.u4_interarrival_s,
        deadlines.join(", "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_builds_the_preset_of_that_name() {
        for name in names() {
            let s = get(name).unwrap();
            assert_eq!(s.header.name, *name);
            assert_eq!(s.header.replications, 1);
            assert_eq!(s.warmup_s, 0.0);
        }
        let msg = format!("{:#}", get("kokkinos2009-xyz").unwrap_err());
        assert!(msg.contains("kokkinos2009-gbp-multi"), "{msg}");
    }

    #[test]
    fn deadlines_are_one_point_one_times_the_gbp_scfq_bound_plus_one_hop() {
        // U1 alone at R1 (780,000 MIPS, SCFQ, non-preemptive priority), in microseconds:
        // sigma / g = 2,691,666,667; I_i / g = 538,333,334; (no other flow + residual I_r) / C =
        // 538,333,334; one hop 8: 3,768,333,343; x 1.1 rounded up: 4,145,166,678.
        let [u1, _, _] = gs_deadlines(Layout::Single, Knowledge::Exact).unwrap();
        assert_eq!(u1, 4_145.166_678);
        // The same in every scenario of Table 6; U4 and U5 get U1's.
        for r in Table6::ALL {
            let s = Variant::base(r, 55.0).scenario().unwrap();
            let d: Vec<f64> = s.users.iter().map(|u| u.deadline_s).collect();
            assert_eq!(d[0], u1);
            assert_eq!(d[3], u1);
            assert_eq!(d[4], u1);
        }
    }

    #[test]
    fn window_deadlines_add_eq9_and_aggressive_keeps_the_exact_one() {
        let exact = gs_deadlines(Layout::Single, Knowledge::Exact).unwrap();
        let window = gs_deadlines(Layout::Single, Knowledge::Window(5)).unwrap();
        let aggressive = gs_deadlines(Layout::Single, Knowledge::Aggressive).unwrap();
        assert_eq!(aggressive, exact);
        // Eq. 9 for U1: 5 I_i / g = 5 x 538.333334 s, times 1.1.
        let extra = window[0] - exact[0];
        assert!((extra - 1.1 * 5.0 * 538.333_334).abs() < 1e-5, "{extra}");
        let s = Variant {
            resources: Table6::Gbp,
            gs_workload: Workload::S0,
            knowledge: Knowledge::Window(5),
            ..Variant::PRESET
        }
        .scenario()
        .unwrap();
        assert_eq!(s.header.name, "kokkinos2009-gbp-s0-window5");
        assert_eq!(s.users[0].deadline_s, window[0]);
        assert_eq!(s.users[3].deadline_s, exact[0]);
        assert_eq!(
            (s.header.replications, s.warmup_s),
            (RANDOM_REPLICATIONS, 20_000.0)
        );
    }

    #[test]
    fn spreads_and_workloads_follow_sec_6_4_2_and_table_7() {
        assert_eq!(
            Spread::Mixed.around(546.0),
            Dist::Uniform {
                min: 273.0,
                max: 655.2
            }
        );
        assert_eq!(
            Spread::Un50.around(6010.0),
            Dist::Uniform {
                min: 3005.0,
                max: 9015.0
            }
        );
        // Table 7's printed means.
        assert_eq!(
            Workload::S10.of(Work::new(419_900_000)),
            Dist::Exponential {
                mean: 377_910_000.0
            }
        );
        assert_eq!(
            Workload::S30.of(Work::new(71_383_000)),
            Dist::Exponential { mean: 49_968_100.0 }
        );
        assert_eq!(
            Workload::S30.of(Work::new(419_900)),
            Dist::Exponential { mean: 293_930.0 }
        );
    }

    #[test]
    fn the_be_scenario_has_no_gs_user_and_a_bad_u4_gap_is_named() {
        let s = get("kokkinos2009-be").unwrap();
        assert!(
            s.users
                .iter()
                .all(|u| u.class == UserClass::Be && u.rho_mips.is_none())
        );
        assert!(s.resources.iter().all(|r| r.kind == ResourceKind::Be));
        let err = Variant::base(Table6::Gb, -1.0).scenario().unwrap_err();
        let msg = format!("{err:#}");
        assert!(msg.contains("users[3].interarrival.fixed"), "{msg}");
    }
}
