//! A job of the backfilling scheduler and its two states, waiting and running: what the
//! scheduler ([`Backfill`](super::Backfill)) and its queue of waiting jobs (module `queue`) share.

use crate::units::{Nodes, Ticks};

crate::handle::handle! {
    /// A job of a [`Backfill`](super::Backfill), named by the caller (e.g. the SWF job number):
    /// any `u64`, unique among the jobs the scheduler holds. Ties in submit time go by id.
    JobId(u64)
}

/// A job as the scheduler sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Job {
    /// The caller's identifier.
    pub id: JobId,
    /// Submit time: the queue's order (with the id), and the start of the wait.
    pub submit: Ticks,
    /// Nodes it needs, all at once.
    pub nodes: Nodes,
    /// The time it is planned for (the user's estimate; after an interruption, what is left of
    /// it). The caller ends the job no later than `start + estimate`.
    pub estimate: Ticks,
}

/// A waiting job and its reservation, if it holds one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Waiting {
    /// The job.
    pub job: Job,
    /// Start of its reservation `[start, start + estimate)` in the table, if any.
    pub reservation: Option<Ticks>,
}

/// A running job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Running {
    /// The job (its estimate is the one it started with).
    pub job: Job,
    /// When it started.
    pub start: Ticks,
    /// `start + estimate`: until then its nodes are held in the table.
    pub planned_end: Ticks,
}
