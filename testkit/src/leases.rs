//! Leases and preemption: the invariants of a lease manager's state
//! ([`qosgate_kernel::lease::Manager`]) and the promises of a preemption choice
//! ([`qosgate_kernel::lease::preempt::select`]), checked from their public views only.

use qosgate_kernel::lease::preempt::{Candidate, Choice, Class, Preference};
use qosgate_kernel::lease::{Lease, Manager, Queue, State};
use qosgate_kernel::slots::Span;
use qosgate_kernel::units::Nodes;
use qosgate_kernel::units::Ticks;

use crate::{Check, LAST_INSTANT, ensure};

/// The manager's own state: holds match states (a lease holds nodes exactly while reserved,
/// running, stopping or resuming), no ended lease is kept, `done + remaining = work`, only
/// preemptable leases carry a stop; the slot table is exactly the live leases' holds and the
/// plans table exactly the waiting leases' plans (only under conservative backfilling, each
/// beginning after `now`) at every instant where any changes, and no instant from now on is
/// over-reserved by the two together; each table needs at most two breakpoints per lease it
/// holds; the accounts add up (`submitted = ended + live`).
pub fn manager<const LEASES: usize, const BREAKPOINTS: usize>(
    m: &Manager<LEASES, BREAKPOINTS>,
) -> Check {
    let now = m.now();
    let conservative = m.rules().queue == Queue::Conservative;
    let mut cuts = vec![now];
    for l in m.leases() {
        let holding = matches!(
            l.state(),
            State::Reserved | State::Running | State::Stopping(_) | State::Resuming
        );
        ensure!(
            l.hold().is_some() == holding,
            "lease {}: hold {:?} in state {:?}",
            l.id(),
            l.hold(),
            l.state()
        );
        if let Some(p) = l.plan() {
            ensure!(
                conservative && matches!(l.state(), State::Queued | State::Suspended),
                "lease {}: plan {p:?} in state {:?}",
                l.id(),
                l.state()
            );
            ensure!(p.start > now, "lease {}: plan {p:?} at {now}", l.id());
            ensure!(p.start < p.end, "lease {}: empty plan {p:?}", l.id());
            cuts.extend([p.start, p.end]);
        }
        ensure!(
            !matches!(l.state(), State::Done(_)),
            "lease {} ended but is kept",
            l.id()
        );
        ensure!(
            l.done().checked_add(l.remaining()) == Some(l.spec().work),
            "lease {}: done {} + remaining {} != work {}",
            l.id(),
            l.done(),
            l.remaining(),
            l.spec().work
        );
        if let Some(stop) = l.stop() {
            ensure!(
                l.spec().class().is_preemptable(),
                "lease {} ({:?}) preempted",
                l.id(),
                l.spec()
            );
            ensure!(stop.begin <= stop.end, "lease {}: stop {:?}", l.id(), stop);
        }
        if let Some(h) = l.hold() {
            ensure!(h.start < h.end, "lease {}: empty hold {:?}", l.id(), h);
            cuts.extend([h.start, h.end]);
        }
    }
    cuts.extend(m.table().steps().iter().map(|s| s.at));
    cuts.extend(m.plans().steps().iter().map(|s| s.at));
    let nodes_over = |t: Ticks, span: fn(&Lease) -> Option<Span>| -> i64 {
        m.leases()
            .iter()
            .filter(|l| span(l).is_some_and(|h| h.start <= t && t < h.end))
            .map(|l| i64::from(l.spec().nodes))
            .sum()
    };
    for &t in &cuts {
        let t = t.min(LAST_INSTANT);
        let held = nodes_over(t, Lease::hold);
        let planned = nodes_over(t, Lease::plan);
        ensure!(
            m.table().free_at(t) == i64::from(m.nodes()) - held,
            "table at {t}: {} free, the leases hold {held} of {}",
            m.table().free_at(t),
            m.nodes()
        );
        ensure!(
            m.plans().free_at(t) == i64::from(m.nodes()) - planned,
            "plans at {t}: {} free, the leases plan {planned} of {}",
            m.plans().free_at(t),
            m.nodes()
        );
        ensure!(
            t < now || held + planned <= i64::from(m.nodes()),
            "over-reserved at {t}: {held} held and {planned} planned of {} nodes",
            m.nodes()
        );
    }
    let count =
        |span: fn(&Lease) -> Option<Span>| m.leases().iter().filter(|l| span(l).is_some()).count();
    ensure!(
        m.table().len() <= 2 * count(Lease::hold) && m.plans().len() <= 2 * count(Lease::plan),
        "{} and {} breakpoints for {} leases",
        m.table().len(),
        m.plans().len(),
        m.leases().len()
    );
    let a = m.accounts();
    ensure!(
        a.submitted == a.ended() + m.leases().len() as u64,
        "accounts: {} submitted, {} ended, {} live",
        a.submitted,
        a.ended(),
        m.leases().len()
    );
    Ok(())
}

/// A choice for `need` nodes among the kinds `cands` under `preference`: it takes at most each
/// kind's count, its nodes and leases are its counts' and at least `need`; it is minimal
/// (without any one of its leases it is short), holds only preemptable leases of the chosen
/// tier, and (with [`Preference::Tiers`]) a lease of a class only if the less valuable classes
/// together are short of `need` (type preference).
pub fn choice(cands: &[Candidate], need: Nodes, preference: Preference, c: &Choice) -> Check {
    let need = u64::from(need);
    let mut nodes = 0u64;
    let mut leases = 0u64;
    let mut smallest = u64::MAX;
    for (k, x) in c.take.iter() {
        let Some(kind) = cands.get(k) else {
            return Err(format!("kind {k} of {} candidates", cands.len()));
        };
        ensure!(
            x <= kind.count,
            "{x} leases of kind {k}, which has {}",
            kind.count
        );
        ensure!(
            kind.class.is_preemptable() && kind.class <= c.tier,
            "kind {k} ({:?}) beyond the tier {:?}",
            kind.class,
            c.tier
        );
        if preference == Preference::Tiers {
            let cheaper = class_nodes(cands, |class| class < kind.class);
            ensure!(
                cheaper < need,
                "a {:?} lease while less valuable ones ({cheaper} nodes) suffice",
                kind.class
            );
        }
        nodes += u64::from(x) * u64::from(kind.nodes);
        leases += u64::from(x);
        smallest = smallest.min(u64::from(kind.nodes));
    }
    ensure!(
        (nodes, leases) == (c.nodes, c.leases),
        "the set frees {nodes} nodes in {leases} leases, the choice says {} in {}",
        c.nodes,
        c.leases
    );
    ensure!(nodes >= need, "{nodes} nodes freed for {need}");
    ensure!(
        nodes - smallest < need,
        "not minimal: enough without one lease of {smallest} nodes"
    );
    Ok(())
}

/// The fewest leases of kinds of class up to `tier` that free `need` nodes (the largest first),
/// or `None` if all of them are short.
pub fn fewest_leases(cands: &[Candidate], tier: Class, need: Nodes) -> Option<u64> {
    let mut kinds: Vec<(u64, u64)> = cands
        .iter()
        .filter(|c| c.class <= tier)
        .map(|c| (u64::from(c.nodes), u64::from(c.count)))
        .collect();
    kinds.sort_unstable_by_key(|k| std::cmp::Reverse(k.0));
    let need = u64::from(need);
    let mut freed = 0;
    let mut taken = 0;
    for (nodes, count) in kinds {
        if freed >= need {
            break;
        }
        if nodes == 0 {
            continue;
        }
        let x = (need - freed).div_ceil(nodes).min(count);
        freed += x * nodes;
        taken += x;
    }
    (freed >= need).then_some(taken)
}

/// Nodes of the candidates whose class satisfies `pick`.
fn class_nodes(cands: &[Candidate], pick: impl Fn(Class) -> bool) -> u64 {
    cands
        .iter()
        .filter(|c| pick(c.class))
        .map(|c| u64::from(c.nodes) * u64::from(c.count))
        .sum()
}
