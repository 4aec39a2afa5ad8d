//! The invariants of node failures as the harness produces them: a trace the FTA reader
//! ([`qosgate_harness::workload::fta`]) accepts, and a list of [`NodeEvent`]s from the
//! synthetic process or a trace's window, as their documentation states them.

use qosgate_harness::workload::failures::NodeEvent;
use qosgate_harness::workload::fta::{Options, Trace};

use crate::{Check, ensure};

/// `t`, read with `opts`: `first < last`; nodes sorted by id without duplicates; each node's
/// intervals non-empty, sorted, disjoint, not touching and within `[first, last]`; every data
/// line accounted for (kept, availability, other types, empty or invalid); strict mode counts no
/// invalid line; merging never exceeds the lines kept.
pub fn trace(t: &Trace, opts: &Options) -> Check {
    ensure!(t.first < t.last, "span [{}, {}]", t.first, t.last);
    ensure!(
        t.nodes.windows(2).all(|w| w[0].id < w[1].id),
        "nodes out of id order or repeated"
    );
    let mut intervals = 0u64;
    for n in &t.nodes {
        ensure!(!n.down.is_empty(), "node {} listed without an outage", n.id);
        for &(a, b) in &n.down {
            ensure!(a < b, "node {}: empty interval [{a}, {b})", n.id);
            ensure!(
                t.first <= a && b <= t.last,
                "node {}: [{a}, {b}) outside",
                n.id
            );
        }
        ensure!(
            n.down.windows(2).all(|w| w[0].1 < w[1].0),
            "node {}: intervals overlap or touch: {:?}",
            n.id,
            n.down
        );
        intervals += n.down.len() as u64;
    }
    ensure!(
        intervals + t.merged == t.kept,
        "{intervals} intervals + {} merged != {} kept",
        t.merged,
        t.kept
    );
    ensure!(
        t.kept + t.availability + t.other_types + t.empty + t.invalid.total() == t.data_lines,
        "lines unaccounted for: {t:?}"
    );
    ensure!(
        opts.skip_invalid || t.invalid.total() == 0,
        "strict mode counted {} invalid lines",
        t.invalid.total()
    );
    Ok(())
}

/// `events` on a cluster of `nodes` nodes over `[0, horizon]`: sorted by `(at, node, up)`,
/// every node below `nodes`, every time within `[0, horizon]`, and per node strictly
/// alternating, a failure first and a repair last (every node up at the end), a repair strictly
/// after its failure.
pub fn events(events: &[NodeEvent], nodes: u32, horizon: u64) -> Check {
    ensure!(
        events.windows(2).all(|w| w[0] < w[1]),
        "events out of order or repeated"
    );
    let mut down: Vec<Option<u64>> = vec![None; nodes as usize];
    for e in events {
        ensure!(e.node < nodes, "{e:?}: no such node");
        ensure!(e.at <= horizon, "{e:?}: after the horizon {horizon}");
        let state = &mut down[e.node as usize];
        match (*state, e.up) {
            (None, false) => *state = Some(e.at),
            (Some(since), true) => {
                ensure!(e.at > since, "{e:?}: repaired when it failed");
                *state = None;
            }
            _ => return Err(format!("{e:?}: the node already is in that state")),
        }
    }
    ensure!(
        down.iter().all(Option::is_none),
        "a node is still down at the end"
    );
    Ok(())
}
