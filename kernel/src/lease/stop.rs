//! How a running lease is stopped when it is preempted: the [`Action`] its class implies, the
//! per-VM times of the actions ([`Overheads`]) and a decided stop ([`Stop`]).
//!
//! # Units
//! Every time is in [`Ticks`] (µs): overheads are durations per VM (a VM is a node), a
//! [`Stop`]'s `begin` and `end` are instants. A [`Stop`] is 24 bytes, [`Overheads`] 32.
//!
//! # Invariants
//! A decided stop has `begin <= end` and `end - begin` = the overhead of its action
//! ([`Overheads::stop`]); its lease holds its nodes until `end` and does no work from `begin`.

use super::LeaseId;
use super::preempt::Class;
use crate::units::{TICKS_PER_SECOND, Ticks};

/// Per-VM times of preemption actions, in ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Overheads {
    /// Suspending a VM (`t_s`).
    pub suspend: Ticks,
    /// Resuming a suspended VM (`t_r`).
    pub resume: Ticks,
    /// Migrating a VM away.
    pub migrate: Ticks,
    /// Cancelling (terminating) a VM.
    pub cancel: Ticks,
}

impl Overheads {
    /// salehi2012 Sec. 5: suspend 160 s, resume 126 s, migrate 372.5 s, cancel negligible (0).
    pub const PAPER: Overheads = Overheads {
        suspend: Ticks::from_secs(160),
        resume: Ticks::from_secs(126),
        migrate: Ticks::new(372 * TICKS_PER_SECOND + TICKS_PER_SECOND / 2),
        cancel: Ticks::ZERO,
    };

    /// How long `action` holds the lease's nodes before releasing them.
    pub const fn stop(&self, action: Action) -> Ticks {
        match action {
            Action::Cancel => self.cancel,
            Action::Suspend => self.suspend,
            Action::Migrate => self.migrate,
        }
    }

    /// The per-VM time a preemption by `action` costs in all (what the policies weigh):
    /// `t_c`, `t_s + t_r` (saturating), `t_m`.
    pub const fn cost(&self, action: Action) -> Ticks {
        match action {
            Action::Suspend => self.suspend.saturating_add(self.resume),
            _ => self.stop(action),
        }
    }
}

impl Default for Overheads {
    fn default() -> Self {
        Self::PAPER
    }
}

/// What preempting a lease does to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Action {
    /// Terminate it (Cancelable).
    Cancel,
    /// Suspend it and re-queue it with its remaining work (Suspendable).
    Suspend,
    /// Hand it back to the caller with its remaining work (Migratable).
    Migrate,
}

impl Action {
    /// The action for a lease of `class`; `None` for `NonPreemptable`.
    pub const fn of(class: Class) -> Option<Action> {
        match class {
            Class::Cancelable => Some(Action::Cancel),
            Class::Suspendable => Some(Action::Suspend),
            Class::Migratable => Some(Action::Migrate),
            Class::NonPreemptable => None,
        }
    }
}

/// A decided preemption of a running lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Stop {
    /// The request it is preempted for.
    pub by: LeaseId,
    /// What happens to it.
    pub action: Action,
    /// When the action begins: its work stops counting.
    pub begin: Ticks,
    /// When the action ends and its nodes are free.
    pub end: Ticks,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// salehi2012 Sec. 5 in microseconds: 160 s, 126 s, 372.5 s, 0; a suspension costs
    /// `t_s + t_r` = 286 s in all, the others their stop time.
    #[test]
    fn paper_overheads_in_ticks() {
        let o = Overheads::default();
        let t = Ticks::new;
        assert_eq!(o.suspend, t(160_000_000));
        assert_eq!(o.resume, t(126_000_000));
        assert_eq!(o.migrate, t(372_500_000));
        assert_eq!(o.cancel, Ticks::ZERO);
        assert_eq!(o.cost(Action::Suspend), t(286_000_000));
        assert_eq!(o.cost(Action::Migrate), o.stop(Action::Migrate));
        assert_eq!(o.stop(Action::Suspend), t(160_000_000));
    }

    /// Each preemptable class has its action; a non-preemptable lease has none.
    #[test]
    fn the_action_follows_the_class() {
        assert_eq!(Action::of(Class::Cancelable), Some(Action::Cancel));
        assert_eq!(Action::of(Class::Suspendable), Some(Action::Suspend));
        assert_eq!(Action::of(Class::Migratable), Some(Action::Migrate));
        assert_eq!(Action::of(Class::NonPreemptable), None);
    }
}
