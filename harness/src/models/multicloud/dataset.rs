//! One application's dataset over the clouds (gandhimathi2013 Sec. 2.1: a cloud that does not
//! hold "the required dataset" includes its transfer, `MS/S_c`, in the earliest available time it
//! answers). The application's cloud holds it from the start; a cloud the application has not
//! used yet receives it `transfer` after the placement that first sends it there, and no task can
//! start there before it arrives.
//!
//! The world ([`super::world`]) and `qosgate dag` ([`crate::gateway::dag`]) both answer the kernel's
//! [`Clouds::erat`](qosgate_kernel::listsched::Clouds::erat) through [`Dataset::arrival`] and
//! record placements through [`Dataset::send`], so the two charge the transfer the same way.

use qosgate_kernel::units::Ticks;

/// Where one application's dataset is (or will be), and how long it takes to reach each cloud.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dataset<const K: usize> {
    /// When it is (or will be) at each cloud; `None`: not sent there yet.
    pub at: [Option<Ticks>; K],
    /// Its transfer time to each cloud (`MS/S_c`).
    pub transfer: [Ticks; K],
}

impl<const K: usize> Dataset<K> {
    /// When the dataset is at `cloud` for a placement decided at `now`: when it is (or will be)
    /// there, or, on a cloud it has not been sent to, `now + transfer` (its transfer would start
    /// with the placement). `None` for a cloud out of range.
    pub fn arrival(&self, cloud: usize, now: Ticks) -> Option<Ticks> {
        let at = *self.at.get(cloud)?;
        Some(at.unwrap_or(now.saturating_add(*self.transfer.get(cloud)?)))
    }

    /// A task is placed on `cloud` at `now`: the dataset is sent there unless it is (or will be)
    /// there already. Returns its arrival (`None` for a cloud out of range).
    pub fn send(&mut self, cloud: usize, now: Ticks) -> Option<Ticks> {
        let transfer = *self.transfer.get(cloud)?;
        Some(
            *self
                .at
                .get_mut(cloud)?
                .get_or_insert(now.saturating_add(transfer)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(n: u64) -> Ticks {
        Ticks::from_secs(n)
    }

    #[test]
    fn a_cloud_pays_the_transfer_once_from_its_first_placement() {
        let mut d = Dataset {
            at: [Some(s(0)), None, None],
            transfer: [s(7), s(4), s(20)],
        };
        // The origin holds it: no transfer, whatever its own figure.
        assert_eq!(d.arrival(0, s(10)), Some(s(0)));
        // Not sent yet: it would arrive `transfer` after the decision.
        assert_eq!(d.arrival(1, s(10)), Some(s(14)));
        assert_eq!(d.send(1, s(10)), Some(s(14)));
        // Sent: a later placement finds it on its way, not a second transfer.
        assert_eq!(d.arrival(1, s(12)), Some(s(14)));
        assert_eq!(d.send(1, s(12)), Some(s(14)));
        assert_eq!(d.arrival(2, s(12)), Some(s(32)));
        assert_eq!(d.arrival(3, s(12)), None);
        assert_eq!(d.send(3, s(12)), None);
    }
}
