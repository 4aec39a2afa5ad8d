//! `qosgate verify`: the kernel's delay guarantee, checked against what the simulator recorded,
//! with every bound recomputed here from the scenario alone.
//!
//! # What is guaranteed, and to whom
//! A GS user has a guarantee at the resource it registered with when its tasks are released
//! under a (rho, sigma) contract the bound covers: `knowledge` other than `aggressive`, and
//! `oversize` other than `admit` (a user that admits tasks above its `max_task_mi` has none).
//! Each of its tasks handled as GS then finishes at most `bound` after it **arrives at the
//! resource** (the record's `arrived` to its `finished`; the withholding at the meta-scheduler
//! and the transfers are not part of it), whatever the other users and the best-effort load do.
//! BE users, and GS users without a guarantee, have no bound: their tasks are not checked, and
//! their records must carry no `resource_bound`.
//!
//! # The bound, recomputed
//! From the scenario and the registrations the run made (every one at time 0, so the set of GS
//! users at each resource is fixed for the whole run), in exact integer arithmetic (`u128`),
//! without the kernel's bound code, rates or registry: a second reading of the rules of
//! `kernel/src/bound.rs` (Eq. 5, 9, 10 corrected, Table 1) on the current basis
//! (`kernel/src/resource.rs`, `kernel/src/registry.rs`). For user `i` of weight `w` at a
//! resource of CPUs `C_1 .. C_M` (MIPS; `C' = sum`, `C_min = min`), maximum task `I_r`, flow
//! limit `max_users`:
//!
//! - the GS users registered there weigh `W_gs` in all, the lightest `w_min`, and Eq. 1 lets the
//!   total weight reach at most `W_eq1 = min_k floor(C' w_k / rho_k)`;
//! - the total weight `W` is `W_gs`; at a `gs_be_equal` resource every free flow slot
//!   (`max_users` less the GS users) counts as a temporary BE user of weight `w_min`, capped at
//!   `W_eq1` and never below `W_gs`: `W = max(W_gs, min(W_gs + free w_min, W_eq1))`;
//! - the guaranteed rate is `g = floor(C' w / W)` MIPS;
//! - the blocking work is, under WFQ, `I_r`; under SCFQ, the largest GS task of every other GS
//!   user there (its `max_task_mi`, or `I_r` if it admits larger tasks), plus, at `gs_be_equal`,
//!   `I_r` for each temporary BE user that can be present at once:
//!   `min(free, (W_eq1 - W_gs) / w_min)`;
//! - a non-preemptive `gs_be_priority` resource adds a residual BE task of `I_r`.
//!
//! The bound is the sum of these terms, **each rounded up to a whole µs tick on its own**:
//!
//! | term | value |
//! | --- | --- |
//! | burst | `sigma / g` |
//! | window (`{ window = n }` only) | `n I_i / g` |
//! | the task itself | `I_i / min(g, C_min)` |
//! | blocking and residual, together | `(blocking + residual) / C_min` |
//! | work running on the other CPUs (`M >= 2`) | `M I_r / C'` |
//!
//! with `I_i` the user's `max_task_mi` and `sigma` its `sigma_mi`. A bound beyond the kernel's
//! 64-bit clock is no guarantee (the simulator then never plans the user's tasks as GS).
//!
//! # What is checked
//! For every record of a replication: a task handled as GS must belong to a registered GS user
//! and have run at the resource it registered with; its `resource_bound` must equal the
//! recomputed bound (in ticks) if its user has a guarantee, and be absent otherwise (and on
//! every task handled as BE); and, for a user with a guarantee, a finished task must satisfy
//! `ticks(finished) - ticks(arrived) <= bound`. Any failure is a [`Finding`]. Records are
//! checked by replication, then by task number, so the first finding is the lowest
//! (replication, task).

use std::collections::HashMap;
use std::fmt;

use anyhow::{Context, Result, bail};
use qosgate_kernel::units::TICKS_PER_SECOND;
use rayon::prelude::*;
use serde::Deserialize;

use super::record::{TaskClass, TaskRecord};
use super::scenario::{
    Discipline, Knowledge, Oversize, ResourceConfig, ResourceKind, Scenario, UserClass, UserConfig,
};
use super::simulate_into;
use crate::des::time::ticks;

/// Ticks per second, wide.
const TPS: u128 = TICKS_PER_SECOND as u128;

/// Findings kept in full per scenario (all are counted).
const KEPT: usize = 32;

/// Why a registered GS user has no guarantee.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoGuarantee {
    /// `knowledge = "aggressive"`: nothing is charged before a task ends.
    Aggressive,
    /// `oversize = "admit"`: its tasks may exceed its `max_task_mi`.
    Admit,
    /// The bound does not fit the kernel's 64-bit clock of µs ticks.
    Overflow,
}

impl fmt::Display for NoGuarantee {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NoGuarantee::Aggressive => "no guarantee (aggressive submission)",
            NoGuarantee::Admit => "no guarantee (oversize = admit)",
            NoGuarantee::Overflow => "no guarantee (the bound overflows the 64-bit clock)",
        })
    }
}

/// The terms of a bound, ticks, each rounded up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Terms {
    /// `sigma / g`.
    pub burst: u128,
    /// `n I_i / g` for `{ window = n }`, else 0.
    pub window: u128,
    /// `I_i / min(g, C_min)`.
    pub own: u128,
    /// `(blocking + residual) / C_min`.
    pub blocking: u128,
    /// `M I_r / C'` for `M >= 2` CPUs, else 0.
    pub spread: u128,
}

impl Terms {
    /// Their sum, ticks.
    pub fn total(&self) -> u128 {
        self.burst + self.window + self.own + self.blocking + self.spread
    }
}

/// One GS user's bound at the resource it registered with, recomputed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserBound {
    /// The user's index in the scenario.
    pub user: usize,
    /// The resource's index in the scenario.
    pub resource: usize,
    /// The total weight `W` its share is taken against.
    pub total_weight: u128,
    /// Its guaranteed rate `g`, MIPS.
    pub rate_mips: u128,
    /// The blocking work (SCFQ: the others' largest tasks; WFQ: `I_r`), MI, without the residual.
    pub blocking_mi: u128,
    /// The residual BE task (non-preemptive `gs_be_priority`), MI, else 0.
    pub residual_mi: u128,
    /// The terms, ticks.
    pub terms: Terms,
    /// The bound in ticks, or why there is none.
    pub bound: Result<u64, NoGuarantee>,
}

/// What a GS user's registration needs of its scenario entry.
struct Contract {
    weight: u128,
    rho: u128,
    sigma: u128,
    imax: u128,
    knowledge: Knowledge,
    admit: bool,
}

fn contract(u: &UserConfig) -> Result<Contract> {
    let missing = |key: &str| format!("GS user {} has no {key}", u.name);
    Ok(Contract {
        weight: u128::from(u.weight),
        rho: u128::from(u.rho_mips.with_context(|| missing("rho_mips"))?),
        sigma: u128::from(u.sigma_mi.with_context(|| missing("sigma_mi"))?),
        imax: u128::from(u.max_task_mi.with_context(|| missing("max_task_mi"))?),
        knowledge: u.knowledge.with_context(|| missing("knowledge"))?,
        admit: u.oversize == Some(Oversize::Admit),
    })
}

/// Every registered GS user's bound, in the order of `registrations` (`(user, resource)` by
/// name, as [`Run::registrations`](super::metrics::Run::registrations) lists them).
///
/// Errors: a registration naming an unknown user or resource, a BE user, a BE resource, or a
/// user twice; a GS user without its contract keys; a zero weight or rate (which a valid,
/// registered scenario cannot have).
pub fn bounds(scenario: &Scenario, registrations: &[(String, String)]) -> Result<Vec<UserBound>> {
    let mut placed: Vec<(usize, usize)> = Vec::with_capacity(registrations.len());
    for (user, resource) in registrations {
        let u = scenario
            .users
            .iter()
            .position(|x| &x.name == user)
            .with_context(|| format!("a registration of an unknown user {user}"))?;
        let r = scenario
            .resources
            .iter()
            .position(|x| &x.name == resource)
            .with_context(|| format!("a registration at an unknown resource {resource}"))?;
        if scenario.users[u].class != UserClass::Gs {
            bail!("a registration of {user}, a BE user");
        }
        if scenario.resources[r].kind == ResourceKind::Be {
            bail!("a registration of {user} at {resource}, a BE resource");
        }
        if placed.iter().any(|&(p, _)| p == u) {
            bail!("{user} registered twice");
        }
        placed.push((u, r));
    }
    placed
        .iter()
        .map(|&(u, r)| {
            let peers: Vec<&UserConfig> = placed
                .iter()
                .filter(|&&(_, pr)| pr == r)
                .map(|&(pu, _)| &scenario.users[pu])
                .collect();
            user_bound(&scenario.resources[r], &scenario.users[u], &peers).map(|b| UserBound {
                user: u,
                resource: r,
                ..b
            })
        })
        .collect()
}

/// The bound of `user` at `res`, where `peers` (`user` among them) are the GS users registered.
fn user_bound(res: &ResourceConfig, user: &UserConfig, peers: &[&UserConfig]) -> Result<UserBound> {
    let me = contract(user)?;
    let all: Vec<Contract> = peers.iter().map(|p| contract(p)).collect::<Result<_>>()?;
    let others: Vec<Contract> = peers
        .iter()
        .filter(|p| p.name != user.name)
        .map(|p| contract(p))
        .collect::<Result<_>>()?;
    let capacity: u128 = res.cpus.iter().map(|&c| u128::from(c)).sum();
    let slowest = res.cpus.iter().copied().min().map_or(0, u128::from);
    let cpus = res.cpus.len() as u128;
    let i_r = u128::from(res.max_task_mi);
    if capacity == 0 || slowest == 0 {
        bail!("resource {} has no capacity", res.name);
    }
    let gs_weight: u128 = all.iter().map(|c| c.weight).sum();
    let lightest = all.iter().map(|c| c.weight).min().unwrap_or(1);
    if lightest == 0 {
        bail!("a GS user of weight 0 at {}", res.name);
    }
    // Eq. 1 keeps rho_k W <= C' w_k for every GS user k: the largest total weight it allows.
    let eq1_cap = all
        .iter()
        .map(|c| capacity * c.weight / c.rho.max(1))
        .min()
        .unwrap_or(u128::MAX);
    let free = u128::from(res.max_users).saturating_sub(all.len() as u128);
    let (total_weight, temporaries) = if res.kind == ResourceKind::GsBeEqual {
        let w = (gs_weight + free * lightest).min(eq1_cap).max(gs_weight);
        let room = free.min(eq1_cap.saturating_sub(gs_weight) / lightest);
        (w, room)
    } else {
        (gs_weight, 0)
    };
    let rate = capacity * me.weight / total_weight.max(1);
    if rate == 0 {
        bail!(
            "{}'s rate at {} is 0 (C' {capacity} MIPS, weight {} of {total_weight}): Eq. 1 \
             should make that impossible",
            user.name,
            res.name,
            me.weight
        );
    }
    // A user admitting larger tasks sends up to I_r (Eq. 2 keeps its I_max <= I_r).
    let largest = |c: &Contract| if c.admit { i_r.max(c.imax) } else { c.imax };
    let blocking_mi = match res.discipline {
        Discipline::Wfq => i_r,
        Discipline::Scfq => others.iter().map(largest).sum::<u128>() + temporaries * i_r,
    };
    let residual_mi = if res.kind == ResourceKind::GsBePriority {
        i_r
    } else {
        0
    };
    let up = |mi: u128, mips: u128| (mi * TPS).div_ceil(mips);
    let terms = Terms {
        burst: up(me.sigma, rate),
        window: match me.knowledge {
            Knowledge::Window(n) => up(u128::from(n) * me.imax, rate),
            _ => 0,
        },
        own: up(me.imax, rate.min(slowest)),
        blocking: up(blocking_mi + residual_mi, slowest),
        spread: if cpus >= 2 {
            up(cpus * i_r, capacity)
        } else {
            0
        },
    };
    let bound = if me.knowledge == Knowledge::Aggressive {
        Err(NoGuarantee::Aggressive)
    } else if me.admit {
        Err(NoGuarantee::Admit)
    } else {
        u64::try_from(terms.total()).map_err(|_| NoGuarantee::Overflow)
    };
    Ok(UserBound {
        user: 0,
        resource: 0,
        total_weight,
        rate_mips: rate,
        blocking_mi,
        residual_mi,
        terms,
        bound,
    })
}

/// `t` ticks as `S.ffffff s (T µs)`, exactly.
pub fn show(t: u64) -> String {
    format!(
        "{}.{:06} s ({t} µs)",
        t / TICKS_PER_SECOND,
        t % TICKS_PER_SECOND
    )
}

/// Something the records contradict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// A task of a user with a guarantee finished later after its arrival than the bound.
    Violation {
        /// Replication.
        replication: u32,
        /// Task number.
        task: u64,
        /// User.
        user: String,
        /// Resource.
        resource: String,
        /// Arrival at the resource, ticks.
        arrived: u64,
        /// Finish, ticks.
        finished: u64,
        /// The recomputed bound, ticks.
        bound: u64,
    },
    /// A record's `resource_bound` differs from the recomputed one (`None`: no guarantee).
    Mismatch {
        /// Replication.
        replication: u32,
        /// Task number.
        task: u64,
        /// User.
        user: String,
        /// Resource, if any.
        resource: Option<String>,
        /// What the record says, ticks.
        recorded: Option<u64>,
        /// What it should say, ticks.
        recomputed: Option<u64>,
    },
    /// A record that cannot be: a task handled as GS without a registration, or elsewhere.
    Unexpected {
        /// Replication.
        replication: u32,
        /// Task number.
        task: u64,
        /// User.
        user: String,
        /// What is wrong.
        what: String,
    },
}

impl Finding {
    /// Whether it is a violation of the bound.
    pub fn is_violation(&self) -> bool {
        matches!(self, Finding::Violation { .. })
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bound = |b: &Option<u64>| b.map_or_else(|| "none".to_owned(), show);
        match self {
            Finding::Violation {
                replication,
                task,
                user,
                resource,
                arrived,
                finished,
                bound,
            } => write!(
                f,
                "replication {replication}, task {task} of {user} at {resource}: arrived {}, \
                 finished {}, delay {} > bound {} (over by {} µs)",
                show(*arrived),
                show(*finished),
                show(finished - arrived),
                show(*bound),
                finished - arrived - bound
            ),
            Finding::Mismatch {
                replication,
                task,
                user,
                resource,
                recorded,
                recomputed,
            } => write!(
                f,
                "replication {replication}, task {task} of {user} at {}: resource_bound {} \
                 recorded, {} recomputed",
                resource.as_deref().unwrap_or("no resource"),
                bound(recorded),
                bound(recomputed)
            ),
            Finding::Unexpected {
                replication,
                task,
                user,
                what,
            } => write!(
                f,
                "replication {replication}, task {task} of {user}: {what}"
            ),
        }
    }
}

/// The largest delay over bound of a user's tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Worst {
    /// Replication.
    pub replication: u32,
    /// Task number.
    pub task: u64,
    /// Arrival to finish, ticks.
    pub delay: u64,
    /// The bound, ticks.
    pub bound: u64,
}

impl Worst {
    /// `delay / bound`.
    pub fn ratio(&self) -> f64 {
        self.delay as f64 / self.bound.max(1) as f64
    }

    /// Whether `self` is a larger ratio than `other` (exactly).
    fn above(&self, other: &Worst) -> bool {
        u128::from(self.delay) * u128::from(other.bound)
            > u128::from(other.delay) * u128::from(self.bound)
    }
}

/// One registered GS user's results.
#[derive(Debug, Clone, PartialEq)]
pub struct UserCheck {
    /// Its name.
    pub user: String,
    /// Its resource's name.
    pub resource: String,
    /// Its recomputed bound (the first replication's: registrations are made at time 0, the same
    /// in every replication).
    pub bound: UserBound,
    /// Its tasks checked against the bound.
    pub checked: u64,
    /// Its largest delay over bound.
    pub worst: Option<Worst>,
}

/// What verifying one scenario found.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Verification {
    /// Replications checked.
    pub replications: u32,
    /// Registered GS users, in registration order.
    pub users: Vec<UserCheck>,
    /// Tasks checked against a bound (handled as GS, finished, of a user with a guarantee).
    pub checked: u64,
    /// Records whose `resource_bound` was compared with the recomputed one.
    pub compared: u64,
    /// Tasks over their bound.
    pub violations: u64,
    /// Records with a wrong `resource_bound`, or otherwise impossible.
    pub mismatches: u64,
    /// The first findings, in (replication, task) order (at most 32; all are counted).
    pub findings: Vec<Finding>,
    /// The first violation, in (replication, task) order.
    pub first_violation: Option<Finding>,
}

impl Verification {
    /// Whether nothing was found.
    pub fn passed(&self) -> bool {
        self.violations == 0 && self.mismatches == 0
    }

    /// The worst delay over bound of any user, with the user's name.
    pub fn worst(&self) -> Option<(&str, Worst)> {
        self.users
            .iter()
            .filter_map(|u| u.worst.map(|w| (u.user.as_str(), w)))
            .fold(None, |best: Option<(&str, Worst)>, (u, w)| match best {
                Some((_, b)) if !w.above(&b) => best,
                _ => Some((u, w)),
            })
    }

    fn found(&mut self, finding: Finding) {
        if finding.is_violation() {
            self.violations += 1;
            if self.first_violation.is_none() {
                self.first_violation = Some(finding.clone());
            }
        } else {
            self.mismatches += 1;
        }
        if self.findings.len() < KEPT {
            self.findings.push(finding);
        }
    }

    /// Adds a later replication's results.
    fn merge(&mut self, next: Verification) {
        self.replications += next.replications;
        for u in next.users {
            match self.users.iter_mut().find(|m| m.user == u.user) {
                Some(m) => {
                    m.checked += u.checked;
                    if let Some(w) = u.worst
                        && m.worst.is_none_or(|b| w.above(&b))
                    {
                        m.worst = Some(w);
                    }
                }
                None => self.users.push(u),
            }
        }
        self.checked += next.checked;
        self.compared += next.compared;
        self.violations += next.violations;
        self.mismatches += next.mismatches;
        if self.first_violation.is_none() {
            self.first_violation = next.first_violation;
        }
        let room = KEPT.saturating_sub(self.findings.len());
        self.findings.extend(next.findings.into_iter().take(room));
    }
}

/// What a record says that the check needs, in ticks, with users and resources by index.
#[derive(Debug, Clone, Copy)]
struct Seen {
    task: u64,
    user: usize,
    resource: Option<usize>,
    gs: bool,
    arrived: Option<u64>,
    finished: Option<u64>,
    resource_bound: Option<u64>,
}

/// Users and resources by name.
struct Names<'a> {
    users: HashMap<&'a str, usize>,
    resources: HashMap<&'a str, usize>,
}

impl<'a> Names<'a> {
    fn of(s: &'a Scenario) -> Self {
        Self {
            users: (s.users.iter().enumerate())
                .map(|(i, u)| (u.name.as_str(), i))
                .collect(),
            resources: (s.resources.iter().enumerate())
                .map(|(i, r)| (r.name.as_str(), i))
                .collect(),
        }
    }

    /// The record as the check needs it; `None` for one with nothing to check (handled as BE,
    /// no `resource_bound`).
    fn seen(&self, r: &TaskRecord) -> Result<Option<Seen>> {
        let gs = r.handled_as == TaskClass::Gs;
        if !gs && r.resource_bound.is_none() {
            return Ok(None);
        }
        let user = *self
            .users
            .get(r.user.as_str())
            .with_context(|| format!("task {}: unknown user {}", r.task, r.user))?;
        let resource = match &r.resource {
            Some(name) => Some(
                *self
                    .resources
                    .get(name.as_str())
                    .with_context(|| format!("task {}: unknown resource {name}", r.task))?,
            ),
            None => None,
        };
        let t = |s: Option<f64>| s.map(|s| ticks(s).get());
        Ok(Some(Seen {
            task: r.task,
            user,
            resource,
            gs,
            arrived: t(r.arrived),
            finished: t(r.finished),
            resource_bound: t(r.resource_bound),
        }))
    }
}

/// Checks replication `k`'s records (as [`Names::seen`] keeps them) against the bounds of its
/// registrations.
fn check(
    s: &Scenario,
    k: u32,
    registrations: &[(String, String)],
    mut seen: Vec<Seen>,
) -> Result<Verification> {
    let bounds =
        bounds(s, registrations).with_context(|| format!("replication {k}'s registrations"))?;
    let mut of_user: Vec<Option<usize>> = vec![None; s.users.len()];
    for (i, b) in bounds.iter().enumerate() {
        of_user[b.user] = Some(i);
    }
    let mut v = Verification {
        replications: 1,
        users: bounds
            .iter()
            .map(|b| UserCheck {
                user: s.users[b.user].name.clone(),
                resource: s.resources[b.resource].name.clone(),
                bound: b.clone(),
                checked: 0,
                worst: None,
            })
            .collect(),
        ..Verification::default()
    };
    seen.sort_by_key(|r| r.task);
    for r in seen {
        let user = &s.users[r.user].name;
        let unexpected = |what: String| Finding::Unexpected {
            replication: k,
            task: r.task,
            user: user.clone(),
            what,
        };
        if !r.gs {
            v.found(unexpected(format!(
                "handled as BE but carries a resource_bound of {}",
                show(r.resource_bound.unwrap_or(0))
            )));
            continue;
        }
        let Some(i) = of_user[r.user] else {
            v.found(unexpected(
                "handled as GS, but its user registered nowhere".into(),
            ));
            continue;
        };
        let b = &bounds[i];
        if r.resource != Some(b.resource) {
            let at = r.resource.map_or("no resource", |x| &s.resources[x].name);
            v.found(unexpected(format!(
                "handled as GS at {at}, but its user registered at {}",
                s.resources[b.resource].name
            )));
            continue;
        }
        let expected = b.bound.ok();
        v.compared += 1;
        if r.resource_bound != expected {
            v.found(Finding::Mismatch {
                replication: k,
                task: r.task,
                user: user.clone(),
                resource: Some(s.resources[b.resource].name.clone()),
                recorded: r.resource_bound,
                recomputed: expected,
            });
        }
        let (Some(bound), Some(finished)) = (expected, r.finished) else {
            continue;
        };
        let Some(arrived) = r.arrived else {
            v.found(unexpected("finished without arriving".into()));
            continue;
        };
        let delay = finished.saturating_sub(arrived);
        v.checked += 1;
        let u = &mut v.users[i];
        u.checked += 1;
        let w = Worst {
            replication: k,
            task: r.task,
            delay,
            bound,
        };
        if u.worst.is_none_or(|best| w.above(&best)) {
            u.worst = Some(w);
        }
        if delay > bound {
            v.found(Finding::Violation {
                replication: k,
                task: r.task,
                user: user.clone(),
                resource: s.resources[b.resource].name.clone(),
                arrived,
                finished,
                bound,
            });
        }
    }
    Ok(v)
}

/// Checks task records (`(replication, record)`, any order) of runs of `scenario` whose
/// registrations were `registrations`. Replications are the ones the records name.
///
/// Errors: a record naming an unknown user or resource; registrations that cannot be (see
/// [`bounds`]).
pub fn check_records<'r>(
    scenario: &Scenario,
    registrations: &[(String, String)],
    records: impl IntoIterator<Item = (u32, &'r TaskRecord)>,
) -> Result<Verification> {
    let names = Names::of(scenario);
    let mut by_run: std::collections::BTreeMap<u32, Vec<Seen>> = Default::default();
    for (k, r) in records {
        let entry = by_run.entry(k).or_default();
        if let Some(seen) = names.seen(r)? {
            entry.push(seen);
        }
    }
    let mut total = Verification::default();
    for (k, seen) in by_run {
        total.merge(check(scenario, k, registrations, seen)?);
    }
    Ok(total)
}

/// Simulates replications `0..replications` of `scenario` (in parallel) and checks each one's
/// records.
///
/// Errors: a simulation's (named by its replication; a GS user that cannot register is one),
/// or those of [`check_records`].
pub fn verify(scenario: &Scenario, replications: u32) -> Result<Verification> {
    let names = Names::of(scenario);
    let runs: Vec<Verification> = (0..replications)
        .into_par_iter()
        .map(|k| {
            let mut seen = Vec::new();
            let mut sink = |r: &TaskRecord| -> Result<()> {
                if let Some(s) = names.seen(r)? {
                    seen.push(s);
                }
                Ok(())
            };
            let run = simulate_into(scenario, k, Some(&mut sink)).with_context(|| {
                format!("simulating {} (replication {k})", scenario.header.name)
            })?;
            check(scenario, k, &run.registrations, seen)
        })
        .collect::<Result<_>>()?;
    let mut total = Verification::default();
    for v in runs {
        total.merge(v);
    }
    Ok(total)
}

/// One line of `qosgate run --events FILE.jsonl`: a record and its replication.
#[derive(Debug, Deserialize)]
pub struct EventLine {
    /// The replication.
    pub replication: u32,
    /// The record.
    #[serde(flatten)]
    pub record: TaskRecord,
}

/// Checks the records of `qosgate run SCENARIO --events FILE.jsonl` (`text`, named `origin` in
/// messages) against `scenario`. The registrations are those a simulation of `scenario` makes
/// (all at time 0, before any random draw: the same in every replication); one replication is
/// simulated to learn them.
///
/// Errors: a line that is not a record (located), a simulation error, or those of
/// [`check_records`].
pub fn check_events(scenario: &Scenario, text: &str, origin: &str) -> Result<Verification> {
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let e: EventLine = serde_json::from_str(line)
            .with_context(|| format!("{origin}:{}: not a task record", i + 1))?;
        lines.push(e);
    }
    let run = simulate_into(scenario, 0, None).with_context(|| {
        format!(
            "simulating {} to learn its registrations",
            scenario.header.name
        )
    })?;
    check_records(
        scenario,
        &run.registrations,
        lines.iter().map(|e| (e.replication, &e.record)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Header;
    use crate::models::grid::scenario::{Meta, MetaOrder, Network};
    use crate::workload::dist::Dist;

    fn resource(kind: ResourceKind, discipline: Discipline, cpus: Vec<u64>) -> ResourceConfig {
        ResourceConfig {
            name: "R".into(),
            kind,
            discipline,
            cpus,
            max_task_mi: 1_000,
            max_users: 4,
        }
    }

    fn gs(name: &str, weight: u16, rho: u64, imax: u64, knowledge: Knowledge) -> UserConfig {
        UserConfig {
            name: name.into(),
            class: UserClass::Gs,
            weight,
            rho_mips: Some(rho),
            sigma_mi: Some(2 * imax),
            max_task_mi: Some(imax),
            knowledge: Some(knowledge),
            oversize: None,
            queue_entries: None,
            workload: Dist::Fixed(imax as f64),
            interarrival: Dist::Fixed(0.001),
            phase_s: None,
            deadline_s: 100.0,
        }
    }

    fn scenario(res: ResourceConfig, users: Vec<UserConfig>) -> Scenario {
        Scenario {
            header: Header::single("t", 1),
            horizon_s: 1.0,
            warmup_s: 0.0,
            meta: Meta {
                order: MetaOrder::Edf,
                collection_period_s: 1.0,
            },
            network: Network {
                bandwidth_bps: 1e9,
                input_bytes: 0,
                output_bytes: 0,
            },
            resources: vec![res],
            users,
        }
    }

    fn regs(s: &Scenario) -> Vec<(String, String)> {
        s.users
            .iter()
            .map(|u| (u.name.clone(), s.resources[0].name.clone()))
            .collect()
    }

    /// One user alone at rho = C: ceil(2000 / 0.78) + ceil(1000 / 0.78) µs, plus ceil(1000 /
    /// 0.78) under WFQ.
    #[test]
    fn one_user_at_the_whole_capacity() {
        for (d, want) in [
            (Discipline::Scfq, 2565 + 1283),
            (Discipline::Wfq, 3848 + 1283),
        ] {
            let s = scenario(
                resource(ResourceKind::Gs, d, vec![780_000]),
                vec![gs("U", 1, 780_000, 1_000, Knowledge::Exact)],
            );
            let b = &bounds(&s, &regs(&s)).unwrap()[0];
            assert_eq!(b.bound, Ok(want), "{d:?}");
        }
    }

    /// GS_BE_EQUAL, max_users 4, two users of weights 1 and 2 at rho 100 and 150 on C' = 600:
    /// W_eq1 = min(600 / 100, 1200 / 150) = 6, W_gs = 3, two free slots of weight 1: W = 5,
    /// g = 120 and 240; room for min(2, (6 - 3) / 1) = 2 temporaries. Two CPUs of 200 and 400.
    #[test]
    fn gs_be_equal_counts_free_slots_up_to_eq1() {
        let s = scenario(
            resource(ResourceKind::GsBeEqual, Discipline::Scfq, vec![200, 400]),
            vec![
                gs("A", 1, 100, 300, Knowledge::Exact),
                gs("B", 2, 150, 500, Knowledge::Window(3)),
            ],
        );
        let b = bounds(&s, &regs(&s)).unwrap();
        assert_eq!((b[0].total_weight, b[0].rate_mips), (5, 120));
        assert_eq!(b[1].rate_mips, 240);
        // A: blocking = B's 500 + 2 temporaries x 1000 = 2500 MI over C_min = 200.
        assert_eq!(b[0].blocking_mi, 2_500);
        let a = b[0].terms;
        assert_eq!(
            (a.burst, a.window, a.own, a.blocking, a.spread),
            (5_000_000, 0, 2_500_000, 12_500_000, 3_333_334)
        );
        // B: window 3 x 500 / 240 s, own 500 / 200 s (g = 240 > C_min).
        let bb = b[1].terms;
        assert_eq!((bb.window, bb.own), (6_250_000, 2_500_000));
        assert_eq!(b[1].blocking_mi, 300 + 2_000);
    }

    #[test]
    fn aggressive_and_admit_have_no_guarantee_and_admit_counts_as_i_r() {
        let mut admit = gs("B", 1, 10, 100, Knowledge::Exact);
        admit.oversize = Some(Oversize::Admit);
        let s = scenario(
            resource(ResourceKind::GsBePriority, Discipline::Scfq, vec![1_000]),
            vec![gs("A", 1, 10, 100, Knowledge::Aggressive), admit],
        );
        let b = bounds(&s, &regs(&s)).unwrap();
        assert_eq!(b[0].bound, Err(NoGuarantee::Aggressive));
        assert_eq!(b[1].bound, Err(NoGuarantee::Admit));
        assert_eq!((b[0].blocking_mi, b[0].residual_mi), (1_000, 1_000));
        assert_eq!(b[1].blocking_mi, 100);
    }

    #[test]
    fn show_is_exact() {
        assert_eq!(show(3_848), "0.003848 s (3848 µs)");
        assert_eq!(show(12_000_001), "12.000001 s (12000001 µs)");
    }
}
