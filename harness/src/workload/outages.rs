//! Where a replication's node outages come from: the synthetic process of [`super::failures`]
//! or a trace of the Failure Trace Archive ([`super::fta`]), each giving the same sorted
//! [`NodeEvent`]s.
//!
//! A trace is read from `offset`, drawn from the stream `SplitMix::for_entity(seed, 0)`
//! ([`fta::Trace::random_offset`]).

use std::sync::Arc;

use super::failures::{NodeEvent, Process};
use super::fta;
use crate::des::rng::SplitMix;

/// Where a replication's failures come from.
#[derive(Debug, Clone)]
pub enum Source {
    /// The synthetic process (checked).
    Process(Process),
    /// A trace of the Failure Trace Archive, read from a random starting point.
    Trace(Arc<fta::Trace>),
}

impl Source {
    /// The failures of a cluster of `nodes` nodes over `[0, horizon]` for the replication seeded
    /// with `seed`: [`Process::events`], or the trace's [`fta::Trace::window`] from an offset
    /// drawn from `SplitMix::for_entity(seed, 0)`.
    pub fn events(&self, nodes: u32, horizon: u64, seed: u64) -> Vec<NodeEvent> {
        match self {
            Source::Process(p) => p.events(nodes, horizon, seed),
            Source::Trace(t) => {
                let offset = t.random_offset(&mut SplitMix::for_entity(seed, 0));
                t.window(nodes, offset, horizon)
            }
        }
    }
}
