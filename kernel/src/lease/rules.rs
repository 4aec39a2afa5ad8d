//! How a lease manager decides where the papers leave a choice: the preemption [`Policy`] and
//! class [`Preference`], the discipline of the best-effort queue ([`Queue`]), and what becomes
//! of a local request that cannot start ([`Admission`]). [`Rules`] holds one of each; a manager
//! keeps its rules for life.
//!
//! # Memory
//! [`Rules`] is 4 bytes.

use super::preempt::{Policy, Preference};

/// How queued best-effort leases (Cancelable, Suspendable) start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Queue {
    /// First come, first served: the head of the queue starts as soon as its whole run fits
    /// now; no lease overtakes it (Haizea's queue without backfilling).
    #[default]
    Fcfs,
    /// Conservative backfilling (salehi2012 Sec. 4.1): every queued lease holds a tentative
    /// reservation (a *plan*) at its earliest fit, which no later best-effort lease may delay;
    /// a local, deadline-constrained or reserved lease may take its nodes, and the plans it
    /// displaces are placed again.
    Conservative,
}

/// What a local request that cannot start now, even after preemption, does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Admission {
    /// It is reserved at its earliest fit and waits.
    #[default]
    Wait,
    /// It is rejected (salehi2012 Sec. 5.3.3: "more DC external requests and even more local
    /// requests get rejected").
    Reject,
}

/// A lease manager's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Rules {
    /// How the leases to preempt are chosen (MOML, MOV, MLIP).
    pub policy: Policy,
    /// Whether less valuable classes are preempted first.
    pub preference: Preference,
    /// The best-effort queue's discipline.
    pub queue: Queue,
    /// What a local request that cannot start does.
    pub local: Admission,
}

impl Rules {
    /// `policy` with the defaults: less valuable classes first, a first-come-first-served
    /// queue, local requests wait.
    pub const fn new(policy: Policy) -> Self {
        Self {
            policy,
            preference: Preference::Tiers,
            queue: Queue::Fcfs,
            local: Admission::Wait,
        }
    }
}
