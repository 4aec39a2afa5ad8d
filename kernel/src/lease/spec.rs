//! What a lease request is: its id, its kind ([`Kind`]: local, external of a [`Class`], advance
//! reservation with its [`Notice`]) and its size ([`Spec`]).
//!
//! # Units
//! Nodes in [`Nodes`]; `work` and instants in [`Ticks`] (µs). A [`Spec`] is 40 bytes.
//!
//! # Invariants
//! Checked by [`Manager::submit`](super::Manager::submit), not by construction: `1 <= nodes <=`
//! the cluster's, `work >= 1`, a `deadline` only on a DC class, a reservation's instant not in the
//! past, and its start plus `work` within `Ticks::MAX`.

use super::preempt::Class;
use crate::units::{Nodes, Ticks};

crate::handle::handle! {
    /// A lease of a [`Manager`](super::Manager), handed out by
    /// [`Manager::submit`](super::Manager::submit): its submission order, from 0 to `u32::MAX`,
    /// never reused.
    LeaseId(u32)
}

/// When an advance reservation starts (gandhimathi2013).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Notice {
    /// Zero advance notice: as soon as possible, preempting best-effort leases.
    Zero,
    /// Non-zero advance notice: exactly at this instant.
    At(Ticks),
}

/// Who asks for a lease, and on what terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Kind {
    /// A local request: never preempted; preempts external leases.
    Local,
    /// An external request of one of salehi2012's four types. `deadline` (an instant by which it
    /// must complete) applies to the DC types (`Migratable`, `NonPreemptable`) only.
    External {
        /// Its type.
        class: Class,
        /// Completion deadline of a DC lease; `None`: it must start at once.
        deadline: Option<Ticks>,
    },
    /// An advance reservation: never preempted; preempts external leases.
    Reservation(Notice),
}

/// A lease request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Spec {
    /// Nodes (VMs), at least 1 and at most the cluster's.
    pub nodes: Nodes,
    /// Run time on this cluster, ticks, at least 1.
    pub work: Ticks,
    /// Its kind.
    pub kind: Kind,
}

impl Spec {
    /// Its preemption class: local leases and reservations are `NonPreemptable`.
    pub const fn class(&self) -> Class {
        match self.kind {
            Kind::External { class, .. } => class,
            Kind::Local | Kind::Reservation(_) => Class::NonPreemptable,
        }
    }
}
