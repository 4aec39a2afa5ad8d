//! Leases and preemption: the invariants of a lease manager's state
//! ([`qosgate_kernel::lease::Manager`]) and the promises of a preemption choice
//! ([`qosgate_kernel::preempt::select`]), checked from their public views only.

use qosgate_kernel::lease::{Manager, State};
use qosgate_kernel::preempt::{Candidate, Choice, Class};
use qosgate_kernel::units::Nodes;

use crate::{Check, LAST_INSTANT, ensure};

/// The manager's own state: holds match states (a lease holds nodes exactly while reserved,
/// running, stopping or resuming), no ended lease is kept, `done + remaining = work`, only
/// preemptable leases carry a stop; the slot table is exactly the live leases' holds at every
/// instant where either changes, and no instant from now on is over-reserved; the table needs at
/// most two breakpoints per lease; the accounts add up (`submitted = ended + live`).
pub fn manager<const LEASES: usize, const BREAKPOINTS: usize>(
    m: &Manager<LEASES, BREAKPOINTS>,
) -> Check {
    let now = m.now();
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
    for &t in &cuts {
        let t = t.min(LAST_INSTANT);
        let held: i64 = m
            .leases()
            .iter()
            .filter(|l| l.hold().is_some_and(|h| h.start <= t && t < h.end))
            .map(|l| i64::from(l.spec().nodes))
            .sum();
        ensure!(
            m.table().free_at(t) == i64::from(m.nodes()) - held,
            "table at {t}: {} free, the leases hold {held} of {}",
            m.table().free_at(t),
            m.nodes()
        );
        ensure!(
            t < now || held <= i64::from(m.nodes()),
            "over-reserved at {t}: {held} of {} nodes",
            m.nodes()
        );
    }
    ensure!(
        m.table().len() <= 2 * m.leases().len(),
        "{} breakpoints for {} leases",
        m.table().len(),
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

/// A choice for `need` nodes among `cands`: its nodes are its set's and at least `need`; the set
/// is minimal (without any one member it is short), holds only preemptable leases of the chosen
/// tier, and holds a lease of a class only if the less valuable classes together are short of
/// `need` (type preference).
pub fn choice(cands: &[Candidate], need: Nodes, c: &Choice) -> Check {
    let need = u64::from(need);
    let nodes_without = |skip: Option<usize>| -> u64 {
        c.set
            .iter()
            .filter(|&i| Some(i) != skip)
            .filter_map(|i| cands.get(i))
            .map(|x| u64::from(x.nodes))
            .sum()
    };
    ensure!(
        nodes_without(None) == c.nodes,
        "the set frees {} nodes, the choice says {}",
        nodes_without(None),
        c.nodes
    );
    ensure!(c.nodes >= need, "{} nodes freed for {need}", c.nodes);
    for i in c.set.iter() {
        let Some(x) = cands.get(i) else {
            return Err(format!("index {i} of {} candidates", cands.len()));
        };
        ensure!(
            x.class.is_preemptable() && x.class <= c.tier,
            "candidate {i} ({:?}) beyond the tier {:?}",
            x.class,
            c.tier
        );
        ensure!(
            nodes_without(Some(i)) < need,
            "not minimal: enough without candidate {i}"
        );
        let cheaper = class_nodes(cands, |k| k < x.class);
        ensure!(
            cheaper < need,
            "a {:?} lease while less valuable ones ({cheaper} nodes) suffice",
            x.class
        );
    }
    Ok(())
}

/// The fewest leases of classes up to `tier` that free `need` nodes (the largest first), or
/// `None` if all of them are short.
pub fn fewest_leases(cands: &[Candidate], tier: Class, need: Nodes) -> Option<usize> {
    let mut sizes: Vec<u64> = cands
        .iter()
        .filter(|c| c.class <= tier)
        .map(|c| u64::from(c.nodes))
        .collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let need = u64::from(need);
    let mut freed = 0;
    for (taken, n) in sizes.iter().enumerate() {
        if freed >= need {
            return Some(taken);
        }
        freed += n;
    }
    (freed >= need).then_some(sizes.len())
}

/// Nodes of the candidates whose class satisfies `pick`.
fn class_nodes(cands: &[Candidate], pick: impl Fn(Class) -> bool) -> u64 {
    cands
        .iter()
        .filter(|c| pick(c.class))
        .map(|c| u64::from(c.nodes))
        .sum()
}
