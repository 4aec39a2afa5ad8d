//! DAG scheduling and server mapping (gandhimathi2013): the oracles of the kernel's `dag`,
//! `listsched` and `mapping` modules.
//!
//! - [`listing`]: a CNPT listing holds every task exactly once, each after its predecessors.
//! - [`SerialClouds`]: clouds that run one task at a time (E21's golden example), and
//!   [`ProfileClouds`]: clouds of many VMs answering from a slot table, as the harness's do.
//!   Both keep the [`Clouds`] contract (an answer changes only through a hold on its cloud).
//! - [`ExactPriorities`], [`exact_cnpt`], [`exact_factor`]: AT, EST, LST, the critical nodes,
//!   Algorithm 1 as the paper runs its stack, and the feedback factor, in rationals of any size
//!   ([`Ratio`]): nothing rounded, the reference for the kernel's exactness.
//! - [`naive_schedule`]: CLS and CMMS written plainly (every question asked again at every
//!   step, `tau_fd` compared as a [`Ratio`]), the reference for the kernel's cached scheduler.
//! - [`schedule`]: a schedule is complete and respects precedence.
//! - [`naive_first_fit`], [`naive_worst_fit`]: the baselines VM by VM, and
//!   [`naive_first_fit_task`] task by task; [`mapping`]: a batch's
//!   parts give each task exactly its VMs and fill no server beyond its free VMs.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use num_bigint::BigInt;

use qosgate_kernel::Error;
use qosgate_kernel::dag::{Dag, Listing, TaskId, Tasks};
use qosgate_kernel::listsched::{Clouds, Decision, Etm, Factor, Rule};
use qosgate_kernel::mapping::Part;
use qosgate_kernel::slots::SlotTable;
use qosgate_kernel::units::{Nodes, Ticks};

use crate::{Check, ensure};

/// Every task of `dag` exactly once, each after all its predecessors.
pub fn listing(dag: &Dag, listing: &Listing) -> Check {
    let order = listing.as_slice();
    ensure!(
        order.len() == dag.len(),
        "{} tasks listed of {}",
        order.len(),
        dag.len()
    );
    let mut listed = Tasks::EMPTY;
    for &v in order {
        ensure!(usize::from(v) < dag.len(), "task {v} is not in the DAG");
        ensure!(!listed.contains(v), "task {v} listed twice");
        ensure!(
            dag.preds(v).is_subset(listed),
            "task {v} listed before its predecessors {:?}",
            dag.preds(v).minus(listed)
        );
        listed.insert(v);
    }
    Ok(())
}

/// Clouds that run one task at a time: a task can start on cloud `j` once `j` is free.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SerialClouds {
    /// When each cloud is next free.
    pub free: Vec<Ticks>,
}

impl Clouds for SerialClouds {
    fn erat(&self, _task: TaskId, cloud: usize, ready: Ticks) -> Option<Ticks> {
        self.free.get(cloud).map(|&f| f.max(ready))
    }

    fn hold(&mut self, d: &Decision) -> Result<(), Error> {
        let f = self.free.get_mut(d.cloud).ok_or(Error::Unknown)?;
        *f = d.finish;
        Ok(())
    }
}

/// Clouds of many VMs, as the harness's: task `v` needs `width[v]` VMs for `run[v][j]` on cloud
/// `j` (SI/b + ETM) and starts at the earliest fit in `j`'s profile; a cloud narrower than the
/// task cannot take it.
#[derive(Clone, Debug)]
pub struct ProfileClouds {
    /// Each cloud's profile.
    pub tables: Vec<SlotTable<256>>,
    /// VMs of each task.
    pub width: Vec<Nodes>,
    /// Each task's planned run on each cloud.
    pub run: Vec<Vec<Ticks>>,
}

impl Clouds for ProfileClouds {
    fn erat(&self, task: TaskId, cloud: usize, ready: Ticks) -> Option<Ticks> {
        let table = self.tables.get(cloud)?;
        let width = *self.width.get(usize::from(task))?;
        let run = *self.run.get(usize::from(task))?.get(cloud)?;
        table.earliest_fit(ready, width, run).ok().flatten()
    }

    fn hold(&mut self, d: &Decision) -> Result<(), Error> {
        let width = *self.width.get(usize::from(d.task)).ok_or(Error::Unknown)?;
        let table = self.tables.get_mut(d.cloud).ok_or(Error::Unknown)?;
        table
            .reserve(d.start, d.finish, width)
            .map_err(|r| r.reason)
    }
}

/// An application to schedule at `now`: its DAG, its ETM and the image transfer time.
#[derive(Clone, Copy, Debug)]
pub struct App<'a, const K: usize> {
    /// The decision instant.
    pub now: Ticks,
    /// The tasks.
    pub dag: &'a Dag,
    /// Their run times.
    pub etm: &'a Etm<K>,
    /// SI/b.
    pub image: Ticks,
}

/// CLS or CMMS as Algorithms 2-3 say, asking every question again at every step and comparing
/// `tau_fd = ERAT + (1 + fd) D` exactly (a strictly smaller one wins: ties go to the lower task
/// and cloud): the decisions in order, with `objective` the exact `tau_fd` rounded up (at most
/// `Ticks::MAX`), or the first step's error.
pub fn naive_schedule<const K: usize>(
    app: &App<'_, K>,
    rule: Rule,
    factors: [Factor; K],
    listing: &Listing,
    clouds: &mut impl Clouds,
) -> Result<Vec<Decision>, Error> {
    let (now, dag, etm, image) = (app.now, app.dag, app.etm, app.image);
    let factors = factors.map(|f| Ratio::new(f.num(), f.den()));
    let mut done: BTreeMap<TaskId, Decision> = BTreeMap::new();
    let mut out = Vec::new();
    for step in 0..dag.len() {
        let assigned = done
            .keys()
            .fold(Tasks::EMPTY, |s, &v| s.union(Tasks::one(v)));
        let candidates: Vec<TaskId> = match rule {
            Rule::List => listing.get(step).into_iter().collect(),
            Rule::MinMin => dag
                .tasks()
                .minus(assigned)
                .iter()
                .filter(|&v| dag.preds(v).is_subset(assigned))
                .collect(),
        };
        let mut best: Option<(Decision, Ratio)> = None;
        for v in candidates {
            let ready = dag
                .preds(v)
                .iter()
                .map(|u| done[&u].finish)
                .fold(now, Ticks::max);
            for (j, fd) in factors.iter().enumerate() {
                let Some(run) = etm.get(v, j) else { continue };
                let Some(erat) = clouds.erat(v, j, ready) else {
                    continue;
                };
                let start = erat.max(ready);
                let d = image.checked_add(run).ok_or(Error::Overflow)?;
                let tau = &Ratio::ticks(start) + &(&(&Ratio::int(1) + fd) * &Ratio::ticks(d));
                let objective = u64::try_from(tau.ceil()).unwrap_or(u64::MAX);
                let decision = Decision {
                    task: v,
                    cloud: j,
                    ready,
                    start,
                    finish: start.checked_add(d).ok_or(Error::Overflow)?,
                    objective: Ticks::new(objective),
                };
                if best.as_ref().is_none_or(|(_, b)| tau < *b) {
                    best = Some((decision, tau));
                }
            }
        }
        let (d, _) = best.ok_or(Error::NotFree)?;
        clouds.hold(&d)?;
        done.insert(d.task, d);
        out.push(d);
    }
    Ok(out)
}

/// An exact rational `num / den` (`den > 0`) of any size: the arithmetic of the exact reference.
/// Equality and order are of the values (cross-multiplied), not of the pairs.
#[derive(Clone, Debug)]
pub struct Ratio {
    num: BigInt,
    den: BigInt,
}

impl Ratio {
    /// `num / den`. Panics if `den <= 0` (a bug of the caller).
    pub fn new(num: impl Into<BigInt>, den: impl Into<BigInt>) -> Self {
        let (num, den) = (num.into(), den.into());
        assert!(den > BigInt::ZERO, "a ratio's denominator must be positive");
        Self { num, den }
    }

    /// The integer `n`.
    pub fn int(n: impl Into<BigInt>) -> Self {
        Self::new(n, 1)
    }

    /// `t` ticks.
    pub fn ticks(t: Ticks) -> Self {
        Self::int(t.get())
    }

    /// The smallest integer not below the value.
    pub fn ceil(&self) -> BigInt {
        let q = &self.num / &self.den;
        // BigInt division truncates toward zero: round up a positive remainder.
        if &q * &self.den < self.num { q + 1 } else { q }
    }
}

impl std::ops::Add for &Ratio {
    type Output = Ratio;
    fn add(self, o: &Ratio) -> Ratio {
        Ratio::new(&self.num * &o.den + &o.num * &self.den, &self.den * &o.den)
    }
}

impl std::ops::Sub for &Ratio {
    type Output = Ratio;
    fn sub(self, o: &Ratio) -> Ratio {
        Ratio::new(&self.num * &o.den - &o.num * &self.den, &self.den * &o.den)
    }
}

impl std::ops::Mul for &Ratio {
    type Output = Ratio;
    fn mul(self, o: &Ratio) -> Ratio {
        Ratio::new(&self.num * &o.num, &self.den * &o.den)
    }
}

impl Ord for Ratio {
    fn cmp(&self, o: &Self) -> Ordering {
        (&self.num * &o.den).cmp(&(&o.num * &self.den))
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl PartialEq for Ratio {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}

impl Eq for Ratio {}

/// gandhimathi2013's priorities (Eq. 2-3) in exact rationals, task by task (index `v`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactPriorities {
    /// `AT(v)`: the mean run over the clouds that can run `v` (zero if none can).
    pub at: Vec<Ratio>,
    /// `EST(v)`: 0 for an entry, else the largest `EST(u) + AT(u)` over its predecessors.
    pub est: Vec<Ratio>,
    /// `LST(v)`: `EST(v)` for an exit, else the smallest `LST(s) - AT(v)` over its successors.
    pub lst: Vec<Ratio>,
    /// `EST(v) = LST(v)`.
    pub critical: Tasks,
}

impl ExactPriorities {
    /// The priorities of `dag` under the run times `etm`, from the definitions.
    pub fn new<const K: usize>(dag: &Dag, etm: &Etm<K>) -> Self {
        let n = dag.len();
        let at: Vec<Ratio> = (0..n)
            .map(|v| {
                let runs: Vec<u64> = (0..K)
                    .filter_map(|j| etm.get(TaskId::new(v as u8), j))
                    .map(Ticks::get)
                    .collect();
                let count = runs.len().max(1);
                Ratio::new(runs.iter().map(|&t| BigInt::from(t)).sum::<BigInt>(), count)
            })
            .collect();
        let mut est: Vec<Ratio> = Vec::with_capacity(n);
        for v in 0..n {
            let e = dag
                .preds(TaskId::new(v as u8))
                .iter()
                .map(|u| &est[usize::from(u)] + &at[usize::from(u)])
                .max()
                .unwrap_or_else(|| Ratio::int(0));
            est.push(e);
        }
        let mut lst: Vec<Ratio> = est.clone();
        for v in (0..n).rev() {
            let succs = dag.succs(TaskId::new(v as u8));
            if let Some(l) = succs.iter().map(|s| &lst[usize::from(s)] - &at[v]).min() {
                lst[v] = l;
            }
        }
        let critical = (0..n)
            .filter(|&v| est[v] == lst[v])
            .fold(Tasks::EMPTY, |c, v| {
                c.union(Tasks::one(TaskId::new(v as u8)))
            });
        Self {
            at,
            est,
            lst,
            critical,
        }
    }
}

/// Algorithm 1 as the paper runs it: the critical nodes pushed on one stack in decreasing
/// (LST, id), the smallest on top; the top's not-yet-listed predecessor of smallest (LST, id)
/// pushed, or, if none, the top popped and listed unless it already is.
pub fn exact_cnpt(dag: &Dag, p: &ExactPriorities) -> Vec<TaskId> {
    let key = |v: &TaskId| (p.lst[usize::from(*v)].clone(), *v);
    let mut stack: Vec<TaskId> = p.critical.iter().collect();
    stack.sort_by_key(|v| std::cmp::Reverse(key(v)));
    let (mut listed, mut list) = (Tasks::EMPTY, Vec::new());
    while let Some(&t) = stack.last() {
        match dag.preds(t).minus(listed).iter().min_by_key(key) {
            Some(u) => stack.push(u),
            None => {
                stack.pop();
                if !listed.contains(t) {
                    listed.insert(t);
                    list.push(t);
                }
            }
        }
    }
    list
}

/// Eq. 7 exactly: `fd = max(-1, alpha (finish - erat - planned) / planned)`, with `alpha` the
/// rational the user wrote. Panics if `planned` is zero (a bug of the caller).
pub fn exact_factor(alpha: &Ratio, erat: Ticks, finish: Ticks, planned: Ticks) -> Ratio {
    let late =
        Ratio::int(i128::from(finish.get()) - i128::from(erat.get()) - i128::from(planned.get()));
    let fd = &(alpha * &late) * &Ratio::new(1, planned.get());
    fd.max(Ratio::int(-1))
}

/// Every task of `dag` decided once, on a cloud that can run it, starting no earlier than `now`
/// nor before its predecessors' planned finishes, and finishing `image + ETM` after its start.
pub fn schedule<const K: usize>(app: &App<'_, K>, decisions: &[Decision]) -> Check {
    let (now, dag, etm, image) = (app.now, app.dag, app.etm, app.image);
    ensure!(
        decisions.len() == dag.len(),
        "{} decisions for {} tasks",
        decisions.len(),
        dag.len()
    );
    let mut by_task: BTreeMap<TaskId, Decision> = BTreeMap::new();
    for d in decisions {
        ensure!(
            by_task.insert(d.task, *d).is_none(),
            "task {} decided twice",
            d.task
        );
        let run = etm.get(d.task, d.cloud);
        ensure!(
            run.is_some(),
            "task {} on cloud {} that cannot run it",
            d.task,
            d.cloud
        );
        ensure!(
            d.start >= d.ready && d.ready >= now,
            "task {}: ready {} start {} now {now}",
            d.task,
            d.ready,
            d.start
        );
        ensure!(
            run.and_then(|r| r.checked_add(image))
                .and_then(|r| d.start.checked_add(r))
                == Some(d.finish),
            "task {}: finish {} is not start + D",
            d.task,
            d.finish
        );
        for u in dag.preds(d.task).iter() {
            let Some(p) = by_task.get(&u) else {
                return Err(format!(
                    "task {} decided before its predecessor {u}",
                    d.task
                ));
            };
            ensure!(
                p.finish <= d.ready,
                "task {} ready at {} before predecessor {u} finishes at {}",
                d.task,
                d.ready,
                p.finish
            );
        }
    }
    Ok(())
}

/// The parts of one batch: task `i` gets exactly `demands[i]` VMs, at most one part per
/// (task, server), and no server more VMs than `free_before[server]`.
pub fn mapping(free_before: &[u8], demands: &[u32], parts: &[Part]) -> Check {
    let mut got = vec![0u64; demands.len()];
    let mut used = vec![0u64; free_before.len()];
    let mut seen = std::collections::BTreeSet::new();
    for p in parts {
        ensure!(p.vms > 0, "empty part {p:?}");
        ensure!(
            seen.insert((p.item, p.server)),
            "two parts of task {} on server {}",
            p.item,
            p.server
        );
        let Some(g) = got.get_mut(p.item) else {
            return Err(format!("part of unknown task {p:?}"));
        };
        *g += u64::from(p.vms);
        let Some(u) = used.get_mut(p.server as usize) else {
            return Err(format!("part on unknown server {p:?}"));
        };
        *u += u64::from(p.vms);
    }
    for (i, (&g, &d)) in got.iter().zip(demands).enumerate() {
        ensure!(g == u64::from(d), "task {i} got {g} VMs of {d}");
    }
    for (s, (&u, &f)) in used.iter().zip(free_before).enumerate() {
        ensure!(u <= u64::from(f), "server {s}: {u} VMs placed on {f} free");
    }
    Ok(())
}

/// First-fit VM by VM: `(item, server, vms)` parts, merged per (task, server).
pub fn naive_first_fit(free: &mut [u8], demands: &[u32]) -> Vec<(usize, u32, u32)> {
    vm_by_vm(free, demands, |free| free.iter().position(|&f| f > 0))
}

/// First-fit by task: each task whole on the first server with room for all its VMs, else VM by
/// VM from the first free VM.
pub fn naive_first_fit_task(free: &mut [u8], demands: &[u32]) -> Vec<(usize, u32, u32)> {
    let mut parts = Vec::new();
    for (item, &d) in demands.iter().enumerate() {
        match free.iter().position(|&f| u32::from(f) >= d) {
            Some(s) => {
                free[s] -= d as u8;
                parts.push((item, s as u32, d));
            }
            None => parts.extend(
                naive_first_fit(free, &[d])
                    .into_iter()
                    .map(|(_, s, n)| (item, s, n)),
            ),
        }
    }
    parts
}

/// Worst-fit VM by VM: each VM on the server with the most free VMs, lowest index first.
pub fn naive_worst_fit(free: &mut [u8], demands: &[u32]) -> Vec<(usize, u32, u32)> {
    vm_by_vm(free, demands, |free| {
        let max = *free.iter().max()?;
        (max > 0)
            .then(|| free.iter().position(|&f| f == max))
            .flatten()
    })
}

fn vm_by_vm(
    free: &mut [u8],
    demands: &[u32],
    pick: impl Fn(&[u8]) -> Option<usize>,
) -> Vec<(usize, u32, u32)> {
    let mut parts: Vec<(usize, u32, u32)> = Vec::new();
    for (item, &d) in demands.iter().enumerate() {
        let mut per_server: BTreeMap<usize, u32> = BTreeMap::new();
        for _ in 0..d {
            let Some(s) = pick(free) else { break };
            free[s] -= 1;
            *per_server.entry(s).or_default() += 1;
        }
        parts.extend(per_server.into_iter().map(|(s, n)| (item, s as u32, n)));
    }
    parts
}
