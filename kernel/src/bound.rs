//! The delay-bound calculus of kokkinos2009 (Eq. 5-11, Table 1), per discipline (E28), with
//! Eq. 10 corrected for several CPUs (E29).
//!
//! For a (sigma, rho)-constrained user at a latency-rate server of guaranteed rate `g`, the time
//! from a task's arrival at the resource to its completion is at most `sigma / g + Theta`:
//!
//! | discipline | latency `Theta` |
//! | --- | --- |
//! | WFQ (PGPS), Eq. 5 | `I_i / g + I_r / C` |
//! | SCFQ (Golestani) | `I_i / g + sum_{j != i} I_j / C` |
//!
//! with `I_i` the user's maximum task, `I_r` the resource's, and `C` the capacity of the CPU a task
//! runs on: the single CPU, or the slowest CPU `C_min` of a multi-CPU resource (Eq. 10).
//!
//! # Multi-CPU: Eq. 10 corrected
//! Eq. 10 only swaps `C` for `C_min`, and misses two effects of `M >= 2` CPUs:
//! 1. A user's share `g` can exceed `C_min`, but one task never runs faster than the CPU it is
//!    on: its own execution can take `I_i / C_min > I_i / g`. The kernel charges it at
//!    `min(g, C_min)` (equal to Eq. 5's `I_i / g` on one CPU, where `g <= C`).
//! 2. While a flow has fewer tasks than CPUs, CPUs idle although the fluid model counts the flow
//!    as backlogged, so its backlog can exceed sigma by the work running when the queue last
//!    emptied: at most `M I_r`, drained at `C'` (all CPUs are busy while any task waits). The
//!    kernel adds `M I_r / C'` on resources of two or more CPUs.
//!
//! For one flow alone this is proven: all CPUs are busy from the last instant `t0` the queue was
//! empty until the task starts, so the start delay is at most `(M I + sigma - L) / C'`, and the
//! task then runs at `>= C_min`. With several flows it is what the adversarial property tests
//! check, not a proof (multi-server fair queueing is not covered by Parekh-Gallager). The
//! counter-example tests in `kernel/tests/guarantees.rs` show Eq. 10 as printed failing, and each fix
//! alone failing too.
//!
//! The n-window submission of Sec. 4.2 adds `n I_i / g` (Eq. 9); a non-preemptive GS_BE_PRIORITY
//! resource adds the residual best-effort task `R_r <= I_r / C` (Table 1, last row). Full
//! aggressive submission has no bound ([`crate::Error::NoBound`]), and neither has a user whose
//! registration admits tasks above its `I_max` ([`Oversize::Admit`]).
//!
//! # The guarantee, precisely
//! A task of a guaranteed-service user completes at most [`BoundSpec::at_resource`] after it is
//! handed to [`crate::resource::Resource::submit_gs`] (its arrival; the completion instant is
//! the tick [`crate::resource::Decision::Start`] gives as `finish`), provided that:
//! - the user's tasks are released by its [`crate::bucket::Bucket`] in mode `Exact`,
//!   `Conservative`, `ConservativeFeedback` or `Window(n)` (never `Aggressive`), with feedback,
//!   where the mode takes it, reporting the real work, and sent to the resource without being
//!   reordered or sped up (a transfer delay that is the same for every task is fine);
//! - its registration refuses tasks above its `I_max` ([`Oversize::Refuse`], the default: the
//!   resource enforces it, [`crate::Error::TaskTooLarge`]);
//! - on the [`RateBasis::Current`](crate::registry::RateBasis) basis, no guaranteed-service user
//!   registers at the resource after the bound is taken (the reserved basis has no such
//!   condition).
//!
//! It holds whatever the other users do (any size up to what the resource accepts, any mode,
//! any rate) and whatever the best-effort load. Rounding: every term is rounded up to a whole
//! tick; CPUs serve exact work (no per-task rounding, [`crate::units::exec_ticks_after`]); a
//! completion is reported at its exact instant rounded up to a tick. On one CPU the bound is
//! the latency-rate bound of WFQ (Parekh-Gallager) or SCFQ (Golestani); on several CPUs it is
//! proven for one flow and checked by adversarial property tests for many (see "Multi-CPU").
//!
//! Each term (`sigma / g`, the window's `n I_i / g`, `I_i / min(g, C)`, the blocking and residual
//! work over `C` taken together, and the multi-CPU `M I_r / C'`) is rounded up to a whole tick, so
//! a computed bound is never below the exact one (and a hand calculation may differ by a few µs).
//! End to end, the withholding time `T` and the transfer delay `d` add (Eq. 6) or overlap
//! (pipelined form, `max(T, d)`); a chain of `K` resources pays the burst once (Eq. 11).
//!
//! # Queue entries: how many tasks a user can have waiting
//! A resource's queue holds a fixed number of tasks; [`entries_needed`] bounds how many of them
//! one (rho, sigma)-constrained user can occupy, so that the resource can set them aside
//! ([`crate::registry::Registration::entries`]). Let every task leave the queue (start) at most
//! `stay` after the bucket charged it (its release: for a task the bound covers, the transfer
//! plus the bound at the resource). The tasks waiting at `t` were then all released in
//! `[t - stay, t]`, and the bucket lets at most `sigma + rho stay` MI of charges through in an
//! interval of that length (the interval form, inclusive). How many tasks that is depends on
//! what a task is charged:
//!
//! | knowledge | tasks waiting at once, at most |
//! | --- | --- |
//! | `Exact` (each task charged its work, at least `smallest`) | `floor((sigma + rho stay) / smallest)` |
//! | `ConservativeFeedback` (the refund rule keeps the real work within `sigma + rho stay`) | `floor((sigma + rho stay) / smallest)` |
//! | `Conservative` (each charged `I_max`) | `floor((sigma + rho stay) / I_max)` |
//! | `Window(n)` (charged at feedback; a release needs credit `>= 0` and fewer than `n` awaiting feedback) | `n + floor((sigma + rho stay) / smallest)` |
//! | `Aggressive` | no bound: nothing is charged before feedback |
//!
//! For `Window(n)`: the last release in the interval found the credit non-negative, so the
//! feedback charged in the interval up to then is at most `sigma + rho stay`, and the tasks
//! released in the interval whose feedback had not come by then number at most `n`.

use crate::bucket::{Knowledge, Oversize};
use crate::error::{Error, Param};
use crate::fairq::Discipline;
use crate::units::{Mips, TICKS_PER_SECOND, Ticks, Work, mul_div};

/// Everything the bound of one user at one resource depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BoundSpec {
    /// The resource's fair-queueing discipline.
    pub discipline: Discipline,
    /// The user's burst sigma, MI.
    pub sigma: Work,
    /// The user's maximum task `I_i`, MI.
    pub imax: Work,
    /// How the user's tasks are charged: `Window(n)` adds Eq. 9's term; `Aggressive` has no bound.
    pub knowledge: Knowledge,
    /// Whether the user's tasks may exceed `imax` (then it has no bound).
    pub oversize: Oversize,
    /// The guaranteed rate `g`, MIPS.
    pub rate: Mips,
    /// Capacity of the CPU a task runs on, MIPS: `C`, or `C_min` for a multi-CPU resource.
    pub cpu: Mips,
    /// Number of CPUs `M`.
    pub cpus: u16,
    /// Total capacity `C'` (the sum over CPUs), MIPS.
    pub capacity: Mips,
    /// The resource's maximum task `I_r`, MI.
    pub resource_imax: Work,
    /// SCFQ only: the sum of the maximum tasks of every other flow that may be present, MI.
    pub others_imax: Work,
    /// Whether a non-preemptive best-effort task may hold the CPU (GS_BE_PRIORITY non-pr.).
    pub residual: bool,
}

impl BoundSpec {
    /// The burst term `sigma / g`, ticks rounded up.
    pub fn burst(&self) -> Result<Ticks, Error> {
        secs(self.sigma, self.rate, Param::Rate)
    }

    /// The latency `Theta` (everything but the burst term), ticks rounded up.
    ///
    /// Errors: [`Error::NoBound`] for aggressive submission or oversized tasks admitted;
    /// `InvalidParameter(Capacity)` for a zero
    /// CPU, CPU count or total capacity; `InvalidParameter(Rate)` for a zero rate;
    /// [`Error::Overflow`].
    pub fn latency(&self) -> Result<Ticks, Error> {
        if self.cpu == Mips::ZERO || self.capacity == Mips::ZERO || self.cpus == 0 {
            return Err(Error::InvalidParameter(Param::Capacity));
        }
        if self.oversize == Oversize::Admit {
            return Err(Error::NoBound);
        }
        let window = match self.knowledge {
            Knowledge::Aggressive => return Err(Error::NoBound),
            Knowledge::Window(n) => self.imax.checked_mul(u64::from(n)).ok_or(Error::Overflow)?,
            _ => Work::ZERO,
        };
        let ahead = secs(window, self.rate, Param::Rate)?;
        // The task itself runs on one CPU: never faster than C (see "Multi-CPU" above).
        let own = secs(self.imax, self.rate.min(self.cpu), Param::Rate)?;
        let blocking = match self.discipline {
            Discipline::Wfq => self.resource_imax,
            Discipline::Scfq => self.others_imax,
        };
        let residual = if self.residual {
            self.resource_imax
        } else {
            Work::ZERO
        };
        let blocking = blocking.checked_add(residual).ok_or(Error::Overflow)?;
        let cpu = secs(blocking, self.cpu, Param::Capacity)?;
        let spread = match self.cpus {
            0 | 1 => Ticks::ZERO,
            m => {
                let running = self
                    .resource_imax
                    .checked_mul(u64::from(m))
                    .ok_or(Error::Overflow)?;
                secs(running, self.capacity, Param::Capacity)?
            }
        };
        [ahead, own, cpu, spread]
            .into_iter()
            .try_fold(Ticks::ZERO, |sum, t| sum.checked_add(t))
            .ok_or(Error::Overflow)
    }

    /// The bound on the time from arrival at the resource to completion (Eq. 5, 9, 10, Table 1).
    pub fn at_resource(&self) -> Result<Ticks, Error> {
        self.burst()?
            .checked_add(self.latency()?)
            .ok_or(Error::Overflow)
    }
}

/// How the withholding time `T` and the transfer delay `d` combine with the resource's bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Pipelining {
    /// `T + d + bound` (Eq. 6).
    Sequential,
    /// `max(T, d) + bound`: the task travels while it is withheld (Sec. 3.2).
    Pipelined,
}

/// The end-to-end bound `B` of Eq. 6 (or its pipelined form) from the bound at the resource.
pub fn end_to_end(
    at_resource: Ticks,
    withhold: Ticks,
    transfer: Ticks,
    mode: Pipelining,
) -> Result<Ticks, Error> {
    let front = match mode {
        Pipelining::Sequential => withhold.checked_add(transfer).ok_or(Error::Overflow)?,
        Pipelining::Pipelined => withhold.max(transfer),
    };
    front.checked_add(at_resource).ok_or(Error::Overflow)
}

/// Eq. 11: a task that visits the resources `hops` in a known order. The burst is paid once, at
/// the smallest guaranteed rate along the chain (the printed `sigma_ir / g_ir` names no single
/// `r`; network calculus pays bursts only once); every hop adds its latency; `T` is the largest
/// withholding time and `transfer` the sum of the transfer delays.
///
/// Errors: `InvalidParameter(Rate)` for an empty chain, and those of [`BoundSpec::latency`].
pub fn chain(hops: &[BoundSpec], withhold: Ticks, transfer: Ticks) -> Result<Ticks, Error> {
    let slowest = hops
        .iter()
        .min_by_key(|h| h.rate)
        .ok_or(Error::InvalidParameter(Param::Rate))?;
    let sigma = hops.iter().map(|h| h.sigma).max().unwrap_or(Work::ZERO);
    let mut total = secs(sigma, slowest.rate, Param::Rate)?;
    for h in hops {
        total = total.checked_add(h.latency()?).ok_or(Error::Overflow)?;
    }
    total
        .checked_add(withhold)
        .and_then(|t| t.checked_add(transfer))
        .ok_or(Error::Overflow)
}

/// Eq. 7: whether a bound meets a deadline (both in ticks, relative to the task's creation).
pub fn meets_deadline(bound: Ticks, deadline: Ticks) -> Result<(), Error> {
    if bound <= deadline {
        Ok(())
    } else {
        Err(Error::DeadlineUnmet)
    }
}

/// The most tasks of one (rho, sigma)-constrained user that can wait at once, when each task
/// starts at most `stay` after the bucket charged it and no task is smaller than `smallest` MI
/// (the table of the module doc; `imax` is the user's `I_max`). `None` where the bucket bounds
/// no count (`Aggressive`). Saturates at `u64::MAX`. `O(1)`.
///
/// Errors: `InvalidParameter(Work)` for `smallest` (or, under `Conservative`, `imax`) zero.
pub fn entries_needed(
    sigma: Work,
    rho: Mips,
    knowledge: Knowledge,
    imax: Work,
    smallest: Work,
    stay: Ticks,
) -> Result<Option<u64>, Error> {
    let (unit, uncharged) = match knowledge {
        Knowledge::Exact | Knowledge::ConservativeFeedback => (smallest, 0),
        Knowledge::Conservative => (imax, 0),
        Knowledge::Window(n) => (smallest, u64::from(n)),
        Knowledge::Aggressive => return Ok(None),
    };
    if unit == Work::ZERO {
        return Err(Error::InvalidParameter(Param::Work));
    }
    // In instructions (MI x 10^6 = MIPS x ticks): exact, and far inside u128.
    let per_second = u128::from(TICKS_PER_SECOND);
    let charges =
        u128::from(sigma.get()) * per_second + u128::from(rho.get()) * u128::from(stay.get());
    let tasks = charges / (u128::from(unit.get()) * per_second);
    Ok(Some(
        u64::try_from(tasks)
            .unwrap_or(u64::MAX)
            .saturating_add(uncharged),
    ))
}

/// `work / rate` in ticks, rounded up; a zero rate is an invalid `param`.
fn secs(work: Work, rate: Mips, param: Param) -> Result<Ticks, Error> {
    if rate == Mips::ZERO {
        return Err(Error::InvalidParameter(param));
    }
    mul_div(work.get(), TICKS_PER_SECOND, rate.get(), true)
        .map(Ticks::new)
        .ok_or(Error::Overflow)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// U1 of kokkinos2009 alone on R1 (780,000 MIPS, one CPU), on its current share g = C.
    fn u1(discipline: Discipline) -> BoundSpec {
        BoundSpec {
            discipline,
            sigma: Work::new(2_099_500_000),
            imax: Work::new(419_900_000),
            knowledge: Knowledge::Exact,
            oversize: Oversize::Refuse,
            rate: Mips::new(780_000),
            cpu: Mips::new(780_000),
            cpus: 1,
            capacity: Mips::new(780_000),
            resource_imax: Work::new(419_900_000),
            others_imax: Work::ZERO,
            residual: false,
        }
    }

    fn t(micros: u64) -> Ticks {
        Ticks::new(micros)
    }

    #[test]
    fn eq5_matches_table1_with_unit_weights() {
        // ((sigma + I)(N + 1) + I_r) / C with N = 0: (2,519,400,000 + 419,900,000) / 780,000 s.
        // sigma/g = 2,691.666667 s, I/g = I_r/C = 538.333334 s, each rounded up to a tick.
        let b = u1(Discipline::Wfq).at_resource().unwrap();
        assert_eq!(b, t(2_691_666_667 + 2 * 538_333_334));
    }

    /// Eq. 8 (a resource of capacity C admitting N users of weight 1, tasks up to I, bursts
    /// sigma = m I) is Eq. 5 at the equal share g = C / N: ((m + 1) N + 1) I / C.
    #[test]
    fn eq8_is_eq5_at_equal_shares() {
        let (c, i, n, m) = (520_000u64, 71_383_000u64, 4u64, 5u64);
        let spec = BoundSpec {
            sigma: Work::new(m * i),
            imax: Work::new(i),
            rate: Mips::new(c / n),
            cpu: Mips::new(c),
            capacity: Mips::new(c),
            resource_imax: Work::new(i),
            ..u1(Discipline::Wfq)
        };
        let eq8 = (((m + 1) * n + 1) * i * 1_000_000).div_ceil(c);
        let b = spec.at_resource().unwrap().get();
        // Three terms each rounded up: at most 3 ticks above the exact value.
        assert!(b >= eq8 && b <= eq8 + 3, "{b} vs {eq8}");
    }

    #[test]
    fn scfq_latency_counts_other_flows_and_exceeds_wfq_with_three_or_more_flows() {
        let mut wfq = u1(Discipline::Wfq);
        let mut scfq = u1(Discipline::Scfq);
        for b in [&mut wfq, &mut scfq] {
            b.rate = Mips::new(260_000);
            b.others_imax = Work::new(2 * 419_900_000);
        }
        assert!(scfq.at_resource().unwrap() > wfq.at_resource().unwrap());
        // SCFQ blocks for the two other flows' maxima (ceil(2 I / C) = 1,076,666,667 ticks), WFQ
        // for the resource's one maximum (ceil(I / C) = 538,333,334).
        assert_eq!(
            scfq.latency().unwrap().checked_sub(wfq.latency().unwrap()),
            Some(t(1_076_666_667 - 538_333_334))
        );
    }

    #[test]
    fn window_residual_and_aggressive_change_the_bound_as_the_paper_says() {
        let exact = u1(Discipline::Wfq).at_resource().unwrap();
        let above_exact = |b: &BoundSpec| b.at_resource().unwrap().checked_sub(exact);
        let mut w = u1(Discipline::Wfq);
        w.knowledge = Knowledge::Window(5);
        // Eq. 9 adds n I / g = ceil(5 x 538.333333 s).
        assert_eq!(above_exact(&w), Some(t(2_691_666_667)));
        let mut r = u1(Discipline::Wfq);
        r.residual = true;
        assert_eq!(above_exact(&r), Some(t(538_333_333)));
        r.knowledge = Knowledge::Aggressive;
        assert_eq!(r.at_resource(), Err(Error::NoBound));
        r.knowledge = Knowledge::Exact;
        r.rate = Mips::ZERO;
        assert_eq!(r.at_resource(), Err(Error::InvalidParameter(Param::Rate)));
        r.rate = Mips::new(1);
        r.cpu = Mips::ZERO;
        assert_eq!(
            r.at_resource(),
            Err(Error::InvalidParameter(Param::Capacity))
        );
    }

    /// U1 of kokkinos2009 (Table 3, fixed 419.9 G-instruction tasks) spends at most 3,768 s between
    /// its release and its start: `(sigma + rho stay) / I` = (2,099,500,000 + 768,473 x 3,768)
    /// / 419,900,000 = 11.9 tasks.
    #[test]
    fn entries_needed_counts_the_charges_a_window_of_stay_lets_through() {
        let (sigma, rho, imax) = (
            Work::new(2_099_500_000),
            Mips::new(768_473),
            Work::new(419_900_000),
        );
        let stay = Ticks::from_secs(3_768);
        let e = |k, smallest| entries_needed(sigma, rho, k, imax, Work::new(smallest), stay);
        assert_eq!(e(Knowledge::Exact, 419_900_000), Ok(Some(11)));
        // Conservative charges I_max whatever the task: the smallest task does not matter.
        assert_eq!(e(Knowledge::Conservative, 1), Ok(Some(11)));
        // Half-sized tasks: twice as many.
        assert_eq!(e(Knowledge::Exact, 209_950_000), Ok(Some(23)));
        assert_eq!(e(Knowledge::Window(5), 419_900_000), Ok(Some(16)));
        // With feedback, the real work is what the refund rule keeps within sigma + rho stay.
        assert_eq!(
            e(Knowledge::ConservativeFeedback, 209_950_000),
            Ok(Some(23))
        );
        assert_eq!(e(Knowledge::Aggressive, 1), Ok(None));
        assert_eq!(
            e(Knowledge::Exact, 0),
            Err(Error::InvalidParameter(Param::Work))
        );
        // A burst alone: sigma / smallest, exactly at the boundary.
        let burst = entries_needed(sigma, rho, Knowledge::Exact, imax, imax, Ticks::ZERO);
        assert_eq!(burst, Ok(Some(5)));
        let fast = Mips::new(u64::MAX);
        let huge = entries_needed(
            sigma,
            fast,
            Knowledge::Exact,
            imax,
            Work::new(1),
            Ticks::MAX,
        );
        assert_eq!(huge, Ok(Some(u64::MAX)));
    }

    #[test]
    fn end_to_end_and_chain() {
        assert_eq!(
            end_to_end(t(10), t(3), t(4), Pipelining::Sequential),
            Ok(t(17))
        );
        assert_eq!(
            end_to_end(t(10), t(3), t(4), Pipelining::Pipelined),
            Ok(t(14))
        );
        let a = u1(Discipline::Wfq);
        let mut b = a;
        b.rate = Mips::new(390_000);
        // Burst paid once at the slower rate, latencies added.
        let c = chain(&[a, b], t(5), t(7)).unwrap();
        let parts = [b.burst(), a.latency(), b.latency()].map(|p| p.unwrap().get());
        assert_eq!(c, t(parts.iter().sum::<u64>() + 12));
        assert_eq!(
            chain(&[], Ticks::ZERO, Ticks::ZERO),
            Err(Error::InvalidParameter(Param::Rate))
        );
        assert_eq!(meets_deadline(t(5), t(5)), Ok(()));
        assert_eq!(meets_deadline(t(6), t(5)), Err(Error::DeadlineUnmet));
    }
}
