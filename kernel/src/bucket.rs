//! (rho, sigma) leaky-bucket accounting for one (user, resource) pair (kokkinos2009 Sec. 3.2, 4.2).
//!
//! # Model
//! The paper states the constraint as `J(t) < sigma + rho t` (Eq. 3), with `J(t)` the work sent in
//! `[0, t]`. Taken literally from time 0, a user idle for an hour could then send an hour of work
//! at once, and no delay bound of Eq. 5 would hold. The bounds rest on the interval form
//! (Cruz; Parekh-Gallager): `J(t) - J(s) <= sigma + rho (t - s)` for every `s <= t`. That is what a
//! token bucket enforces, and what this module implements: credit refills at `rho`, is capped at
//! `sigma`, and a task of work `l` conforms when the credit covers the work charged for it. The
//! boundary is inclusive (`<=`), the usual reading of a leaky bucket.
//!
//! # Workload knowledge (Sec. 4.2)
//! What is charged at submission depends on what the scheduler knows of a task's work:
//!
//! | [`Knowledge`] | charged at submission | feedback with the real work | conforms when |
//! | --- | --- | --- | --- |
//! | `Exact` | the real work | not needed | credit >= work |
//! | `Conservative` | `I_max` | ignored | credit >= `I_max` |
//! | `ConservativeFeedback` | `I_max` | refunds the overcharge, as far as the refund rule allows | credit >= `I_max` |
//! | `Window(n)` | nothing | charges the real work | fewer than `n` tasks await feedback and credit >= 0 |
//! | `Aggressive` | nothing | charges the real work | credit >= 0 |
//!
//! Feedback may leave the credit negative (a debt, when the real work exceeds what was charged);
//! later tasks then wait until it is repaid.
//!
//! # The released-work envelope: what each mode guarantees
//! Let `A(s, t)` be the real work of the tasks the bucket released in `[s, t]` and then served
//! in the guaranteed class, each at most `I_max` (a resource refuses a larger one:
//! [`crate::resource::Resource::submit_gs`]). For every `s <= t`:
//!
//! | mode | envelope |
//! | --- | --- |
//! | `Exact`, `Conservative`, `ConservativeFeedback` | `A(s, t) <= sigma + rho (t - s)` |
//! | `Window(n)` | `A(s, t) <= sigma + n I_max + rho (t - s)` (hence Eq. 9's `n I_max / g`) |
//! | `Aggressive` | none: any amount can be released before the first feedback |
//!
//! `kernel/tests/guarantees.rs` checks these on adversarial release and feedback sequences.
//!
//! # The refund rule (conservative with feedback)
//! A refund cannot simply be added to the credit: the credit may have refilled to `sigma` while
//! the overcharged task was outstanding and been spent again since, and the refund would then
//! let through work the exact bucket never would (up to `sigma` too much). The bucket keeps the
//! credit a lower bound on the credit an exact bucket (every task charged its real work) would
//! have, and a refund lifts it only as far as that stays true: to at most
//! `sigma - C_after`, with `C_after` the work charged after the refunded task. Proof sketch: the
//! exact credit at `t` is `min over s of (sigma + rho (t - s) - A(s, t))`; a refund raises only
//! the terms with `s` at or before the task's charge, and every other term is at least
//! `sigma - C_after`. So the credit after a refund is `max(level, min(level + refund,
//! sigma - C_after))`: the whole refund when nothing was charged since (the usual case of a
//! prompt report), nothing once `sigma` was charged after the task. [`Charge::mark`] carries the
//! count `C_after` is measured from.
//!
//! # Units and invariants
//! Credit is kept in [`Instructions`] (`MIPS x ticks`), so refill is exact integer arithmetic.
//! Invariants: `level <= sigma`; `outstanding <= n` in `Window(n)`; `submitted` is `J(t)`, the
//! work accounted so far (charges plus feedback corrections); the credit never exceeds the
//! credit of an exact bucket fed the same tasks (the refund rule). Memory: 64 bytes, no heap.

use core::num::NonZeroU64;

use crate::error::{Error, Param};
use crate::units::{
    Instructions, MAX_TASK_WORK, Mips, TICKS_PER_SECOND, Ticks, Work, instructions,
};

/// What the scheduler knows of a task's work when it submits it (Sec. 4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Knowledge {
    /// The work is known exactly.
    Exact,
    /// Every task is charged the maximum `I_max`; the real work is never learnt.
    Conservative,
    /// Charged `I_max`, corrected when the resource reports the real work.
    ConservativeFeedback,
    /// Up to `n` tasks go uncharged; later ones wait for feedback on one of them (Eq. 9).
    Window(u16),
    /// Tasks go uncharged until feedback: no deterministic delay bound exists.
    Aggressive,
}

/// What to do with a task whose work is known (`Exact`) and exceeds the registration's `I_max`.
///
/// Eq. 4 (`I_i^j <= I_ir^max`) is an agreement made at registration, and the delay bound of
/// Eq. 5 covers only tasks within it. A user whose workloads have no finite maximum (kokkinos2009
/// Sec. 6.4.3 draws them from an exponential distribution and sets `I_max` to its mean) cannot
/// keep that agreement: [`Oversize::Refuse`] then sends every larger task elsewhere (the GS user
/// "schedules it like a BE task", Sec. 3.4), [`Oversize::Admit`] charges it its real work like
/// any other and submits it without a bound covering it. Under the other modes a task's size is
/// unknown when it is sent, so no task is refused for its size and the rule has no effect.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Oversize {
    /// Eq. 4 is enforced: a task above `I_max` is refused with [`Error::TaskTooLarge`].
    #[default]
    Refuse,
    /// A task above `I_max` is taken (up to `sigma`, the most a bucket can ever cover); the delay
    /// bound does not cover it.
    Admit,
}

/// Whether a task conforms, and if not, when it will.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Conformance {
    /// The task may be submitted now.
    Now,
    /// The task must be withheld for this many ticks (the `T` of Eq. 6), barring feedback.
    After(Ticks),
    /// The task waits for workload feedback on an outstanding task (`Window(n)` only).
    OnFeedback,
}

/// The receipt of a charge: keep it with the task and hand it to [`Bucket::feedback`] (or
/// [`Bucket::withdraw`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Charge {
    /// Work charged at submission, in MI.
    pub charged: Work,
    /// The bucket's count of charged work just after this charge, MI (see "The refund rule" in
    /// the module doc): a refund for this task is limited by what was charged after it.
    pub mark: u64,
}

/// A (rho, sigma) leaky bucket with its workload-knowledge mode.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Bucket {
    /// Rate, MIPS: credit in instructions per tick.
    rho: NonZeroU64,
    sigma: Instructions,
    imax: Work,
    knowledge: Knowledge,
    oversize: Oversize,
    level: Instructions,
    at: Ticks,
    submitted: Work,
    /// Work charged since no task last awaited feedback, MI; `u64::MAX` once too much to count
    /// (refunds are then refused until nothing awaits feedback).
    charged: u64,
    outstanding: u16,
}

impl Bucket {
    /// A full bucket at `now` for rate `rho` (MIPS), depth `sigma` (MI) and maximum task `imax` (MI).
    ///
    /// Errors ([`Error::InvalidParameter`]): `Rate` if `rho` is zero; `MaxWork` if `imax` is zero or
    /// above [`MAX_TASK_WORK`]; `Burst` if `sigma < imax` (a maximal task could never conform) or
    /// `sigma` does not fit in [`Instructions`]; `Window` for `Window(0)`.
    pub fn new(
        now: Ticks,
        rho: Mips,
        sigma: Work,
        imax: Work,
        knowledge: Knowledge,
    ) -> Result<Self, Error> {
        let rho = NonZeroU64::new(rho.get()).ok_or(Error::InvalidParameter(Param::Rate))?;
        if imax == Work::ZERO || imax > MAX_TASK_WORK {
            return Err(Error::InvalidParameter(Param::MaxWork));
        }
        if knowledge == Knowledge::Window(0) {
            return Err(Error::InvalidParameter(Param::Window));
        }
        if sigma < imax {
            return Err(Error::InvalidParameter(Param::Burst));
        }
        let sigma = instructions(sigma).map_err(|_| Error::InvalidParameter(Param::Burst))?;
        Ok(Self {
            rho,
            sigma,
            imax,
            knowledge,
            oversize: Oversize::Refuse,
            level: sigma,
            at: now,
            submitted: Work::ZERO,
            charged: 0,
            outstanding: 0,
        })
    }

    /// The bucket with `rule` for tasks above `I_max` (the default is [`Oversize::Refuse`]).
    #[must_use]
    pub fn with_oversize(self, rule: Oversize) -> Self {
        Self {
            oversize: rule,
            ..self
        }
    }

    /// The workload-knowledge mode.
    pub fn knowledge(&self) -> Knowledge {
        self.knowledge
    }

    /// The rule for tasks above `I_max`.
    pub fn oversize(&self) -> Oversize {
        self.oversize
    }

    /// `J(t)`: work accounted so far, in MI (charges plus feedback corrections).
    pub fn submitted(&self) -> Work {
        self.submitted
    }

    /// Tasks charged under a feedback mode whose real work has not been reported yet.
    pub fn outstanding(&self) -> u16 {
        self.outstanding
    }

    /// Credit at `now`, in instructions (negative while a feedback debt is unpaid).
    ///
    /// Errors: [`Error::TimeWentBackwards`] if `now` precedes the last update.
    #[inline]
    pub fn level(&self, now: Ticks) -> Result<Instructions, Error> {
        let dt = now.checked_sub(self.at).ok_or(Error::TimeWentBackwards)?;
        // The room left, sigma - level, is at most 2^60 + 2^63 (sigma <= 2^60, level >= i64::MIN):
        // exact in u64 through a wrapping difference. A gain at least that large, or too large
        // for u64, fills the bucket; a smaller one keeps the level below sigma, inside i64.
        let room = self.sigma.wrapping_sub(self.level) as u64;
        Ok(match self.rho.get().checked_mul(dt.get()) {
            Some(gain) if gain < room => self.level.wrapping_add(gain as Instructions),
            _ => self.sigma,
        })
    }

    /// Work charged at submission for a task of `work` MI under this bucket's mode.
    #[inline]
    pub fn charge_for(&self, work: Work) -> Work {
        match self.knowledge {
            Knowledge::Exact => work,
            Knowledge::Conservative | Knowledge::ConservativeFeedback => self.imax,
            Knowledge::Window(_) | Knowledge::Aggressive => Work::ZERO,
        }
    }

    /// Whether a task of `work` MI conforms at `now`, else how long to withhold it (Eq. 3).
    /// `O(1)`, one division only when the task must wait.
    ///
    /// Errors: `InvalidParameter(Work)` for zero work; [`Error::TaskTooLarge`] if `work > I_max`
    /// (Eq. 4), or, with [`Oversize::Admit`] under `Exact`, if `work > sigma` (such a task could
    /// never conform); [`Error::Full`] if 65,535 tasks await feedback; [`Error::TimeWentBackwards`].
    #[inline]
    pub fn check(&self, now: Ticks, work: Work) -> Result<Conformance, Error> {
        self.assess(now, work).map(|(verdict, _, _)| verdict)
    }

    /// Charges a conforming task of `work` MI at `now` and returns the receipt.
    ///
    /// Errors: those of [`Bucket::check`], and [`Error::NonConforming`] if the task must wait.
    /// Nothing changes on error.
    #[inline]
    pub fn charge(&mut self, now: Ticks, work: Work) -> Result<Charge, Error> {
        let (verdict, level, need) = self.assess(now, work)?;
        if verdict != Conformance::Now {
            return Err(Error::NonConforming);
        }
        let charged = self.charge_for(work);
        let submitted = self.submitted.checked_add(charged).ok_or(Error::Overflow)?;
        // assess() refused a full counter, so this cannot overflow.
        self.outstanding += u16::from(self.awaits_feedback());
        self.level = level - need;
        self.at = now;
        self.submitted = submitted;
        if self.awaits_feedback() {
            self.charged = self.charged.saturating_add(charged.get());
        }
        Ok(Charge {
            charged,
            mark: self.charged,
        })
    }

    /// The largest task [`Bucket::check`] takes, MI: `I_max`, or `sigma` when an `Exact` bucket
    /// admits oversized tasks.
    fn largest_task(&self) -> Work {
        match (self.knowledge, self.oversize) {
            // sigma came from whole MI (`instructions(sigma)` at construction): exact.
            (Knowledge::Exact, Oversize::Admit) => {
                Work::new(u64::try_from(self.sigma).map_or(0, |i| i / TICKS_PER_SECOND))
            }
            _ => self.imax,
        }
    }

    /// The verdict for a task of `work` MI at `now`, with the credit then and the credit needed.
    #[inline]
    fn assess(
        &self,
        now: Ticks,
        work: Work,
    ) -> Result<(Conformance, Instructions, Instructions), Error> {
        if work == Work::ZERO {
            return Err(Error::InvalidParameter(Param::Work));
        }
        if work > self.largest_task() {
            return Err(Error::TaskTooLarge);
        }
        let level = self.level(now)?;
        if self.awaits_feedback() && self.outstanding == u16::MAX {
            return Err(Error::Full);
        }
        // charge_for(work) <= largest_task() <= sigma, which fits in Instructions.
        let need = instructions(self.charge_for(work))?;
        if let Knowledge::Window(n) = self.knowledge
            && self.outstanding >= n
        {
            return Ok((Conformance::OnFeedback, level, need));
        }
        if level >= need {
            return Ok((Conformance::Now, level, need));
        }
        // need <= I_max in instructions < 2^60 and level >= i64::MIN: the deficit is below 2^64,
        // exact in u64 through a wrapping difference.
        let deficit = need.wrapping_sub(level) as u64;
        let wait = Ticks::new(deficit.div_ceil(self.rho.get()));
        Ok((Conformance::After(wait), level, need))
    }

    /// Reports the real work of a task charged with `receipt` (Sec. 4.2 feedback). Modes without
    /// feedback (`Exact`, `Conservative`) accept and ignore it. A refund (real work below the
    /// charge) lifts the credit only as far as the refund rule allows (module doc); a real work
    /// above the charge leaves a debt.
    ///
    /// Errors: [`Error::Unknown`] if no task awaits feedback; `InvalidParameter(Work)` if `actual`
    /// is zero; [`Error::Overflow`] if the correction does not fit; [`Error::TimeWentBackwards`].
    /// Nothing changes on error.
    pub fn feedback(&mut self, now: Ticks, receipt: Charge, actual: Work) -> Result<(), Error> {
        if actual == Work::ZERO {
            return Err(Error::InvalidParameter(Param::Work));
        }
        self.settle(now, receipt, actual)
    }

    /// Closes the account of a task charged with `receipt` that was not served in the
    /// guaranteed class after all (a resource refused it, or it went best effort): under a
    /// feedback mode it is feedback of zero work, so the charge is refunded as far as the refund
    /// rule allows; `Exact` and `Conservative` keep the charge (they take no feedback).
    ///
    /// Errors: those of [`Bucket::feedback`] but `InvalidParameter(Work)`.
    pub fn withdraw(&mut self, now: Ticks, receipt: Charge) -> Result<(), Error> {
        self.settle(now, receipt, Work::ZERO)
    }

    /// Feedback of `actual` MI (zero: not served) for the task charged with `receipt`.
    fn settle(&mut self, now: Ticks, receipt: Charge, actual: Work) -> Result<(), Error> {
        let level = self.level(now)?;
        if !self.awaits_feedback() {
            return Ok(());
        }
        if self.outstanding == 0 {
            return Err(Error::Unknown);
        }
        let correction =
            i128::from(instructions(receipt.charged)?) - i128::from(instructions(actual)?);
        let level = if correction > 0 {
            // A refund: at most up to sigma less the work charged after this task.
            let after = match self.charged {
                u64::MAX => None,
                c => c.checked_sub(receipt.mark),
            };
            // Too much charged after it to count: no refund.
            let ceiling = after
                .and_then(|w| instructions(Work::new(w)).ok())
                .map(|i| self.sigma.saturating_sub(i));
            ceiling.map_or(level, |c| {
                // `min` with an `Instructions` keeps the result inside i64.
                let lifted = (i128::from(level) + correction).min(i128::from(c));
                Instructions::try_from(lifted).unwrap_or(level).max(level)
            })
        } else {
            Instructions::try_from(i128::from(level) + correction).map_err(|_| Error::Overflow)?
        };
        let submitted = u64::try_from(
            i128::from(self.submitted.get()) + i128::from(actual.get())
                - i128::from(receipt.charged.get()),
        )
        .map(Work::new)
        .map_err(|_| Error::Overflow)?;
        self.level = level;
        self.at = now;
        self.submitted = submitted;
        self.outstanding -= 1;
        if self.outstanding == 0 {
            // No receipt is left to measure from.
            self.charged = 0;
        }
        Ok(())
    }

    fn awaits_feedback(&self) -> bool {
        !matches!(self.knowledge, Knowledge::Exact | Knowledge::Conservative)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::TICKS_PER_SECOND;

    const T0: Ticks = Ticks::ZERO;
    /// U1's maximum task (kokkinos2009 Table 3).
    const IMAX: Work = Work::new(419_900_000);

    fn t(micros: u64) -> Ticks {
        Ticks::new(micros)
    }

    fn w(mi: u64) -> Work {
        Work::new(mi)
    }

    // U1 of kokkinos2009 Table 3: rho 768,473 MIPS, sigma 2,099,500,000 MI, I_max 419,900,000 MI.
    fn u1(k: Knowledge) -> Bucket {
        Bucket::new(T0, Mips::new(768_473), w(2_099_500_000), IMAX, k).unwrap()
    }

    #[test]
    fn a_full_bucket_passes_sigma_then_withholds_for_the_exact_refill_time() {
        let mut b = u1(Knowledge::Exact);
        for _ in 0..5 {
            assert_eq!(
                b.charge(T0, IMAX),
                Ok(Charge {
                    charged: IMAX,
                    mark: 0
                })
            );
        }
        // Empty: the next task needs 419,900,000 MI at 768,473 MIPS = 546.408267 s, rounded up.
        assert_eq!(b.check(T0, IMAX), Ok(Conformance::After(t(546_408_267))));
        assert_eq!(b.charge(t(546_408_266), IMAX), Err(Error::NonConforming));
        assert!(b.charge(t(546_408_267), IMAX).is_ok());
        assert_eq!(b.submitted(), w(6 * 419_900_000));
    }

    /// Admitting oversized tasks: a task of 2.5 I_max is charged its real work (it fits sigma =
    /// 5 I_max), a task of sigma + 1 MI can never conform and is refused; a conservative bucket
    /// still charges I_max (it never sees sizes), and the default still refuses (Eq. 4).
    #[test]
    fn an_admitting_exact_bucket_takes_tasks_up_to_sigma() {
        let big = w(1_049_750_000);
        assert_eq!(
            u1(Knowledge::Exact).check(T0, big),
            Err(Error::TaskTooLarge)
        );
        let mut b = u1(Knowledge::Exact).with_oversize(Oversize::Admit);
        assert_eq!(b.oversize(), Oversize::Admit);
        assert_eq!(
            b.charge(T0, big),
            Ok(Charge {
                charged: big,
                mark: 0
            })
        );
        assert_eq!(b.submitted(), big);
        assert_eq!(b.check(T0, w(2_099_500_001)), Err(Error::TaskTooLarge));
        // sigma - big = 1,049,750,000 MI left: exactly one more such task now.
        assert_eq!(
            b.charge(T0, big),
            Ok(Charge {
                charged: big,
                mark: 0
            })
        );
        assert_eq!(b.check(T0, w(1)), Ok(Conformance::After(t(2))));
        let c = u1(Knowledge::Conservative).with_oversize(Oversize::Admit);
        assert_eq!(c.check(T0, w(419_900_001)), Err(Error::TaskTooLarge));
    }

    #[test]
    fn credit_never_exceeds_sigma() {
        let b = u1(Knowledge::Exact);
        let sigma = 2_099_500_000 * TICKS_PER_SECOND as i64;
        assert_eq!(b.level(Ticks::from_secs(1_000_000)).unwrap(), sigma);
        assert_eq!(b.level(Ticks::MAX).unwrap(), sigma);
    }

    #[test]
    fn conservative_charges_imax_and_ignores_feedback() {
        let mut b = u1(Knowledge::Conservative);
        let r = b.charge(T0, w(1)).unwrap();
        assert_eq!(r.charged, IMAX);
        b.feedback(T0, r, w(1)).unwrap();
        assert_eq!(b.submitted(), IMAX);
    }

    #[test]
    fn conservative_feedback_refunds_the_overcharge() {
        let mut b = u1(Knowledge::ConservativeFeedback);
        let receipts: [Charge; 5] = core::array::from_fn(|_| b.charge(T0, w(100)).unwrap());
        assert!(matches!(b.check(T0, w(100)), Ok(Conformance::After(_))));
        // One refund of I_max - 100 MI leaves the credit 100 MI short of the next I_max charge:
        // 100 MI at 768,473 MIPS is 131 ticks.
        b.feedback(T0, receipts[0], w(100)).unwrap();
        assert_eq!(b.check(T0, w(100)), Ok(Conformance::After(t(131))));
        b.feedback(T0, receipts[1], w(100)).unwrap();
        assert_eq!(b.check(T0, w(100)), Ok(Conformance::Now));
        assert_eq!(b.submitted(), w(3 * 419_900_000 + 200));
    }

    /// The hole of the plain refund: five tasks of 1 MI charged I_max each empty the bucket; it
    /// refills to sigma while they run, and five tasks of I_max spend it again. Refunding the
    /// first five now would let five more I_max tasks through at once: 10 I_max = 2 sigma of real
    /// work released in an instant. Everything charged after them (sigma) leaves no room.
    #[test]
    fn a_refund_never_lets_more_than_sigma_through_at_once() {
        let mut b = u1(Knowledge::ConservativeFeedback);
        let small: [Charge; 5] = core::array::from_fn(|_| b.charge(T0, w(1)).unwrap());
        let full = t(2_732_041_334); // sigma / rho, rounded up
        assert_eq!(b.level(full), Ok(2_099_500_000 * TICKS_PER_SECOND as i64));
        let big: [Charge; 5] = core::array::from_fn(|_| b.charge(full, IMAX).unwrap());
        for r in small {
            b.feedback(full, r, w(1)).unwrap();
        }
        assert_eq!(b.level(full), Ok(0));
        assert!(matches!(b.check(full, w(1)), Ok(Conformance::After(_))));
        // The later tasks' refunds are limited only by what came after each of them.
        b.feedback(full, big[4], w(100)).unwrap();
        assert_eq!(
            b.level(full),
            Ok((419_900_000 - 100) * TICKS_PER_SECOND as i64)
        );
        // Four I_max were charged after the first: the credit stops at sigma - 4 I_max = I_max,
        // below the exact bucket's 2 I_max - 200 MI (the rule is safe, not exact).
        b.feedback(full, big[0], w(100)).unwrap();
        assert_eq!(b.level(full), Ok(419_900_000 * TICKS_PER_SECOND as i64));
        // Nothing awaits feedback after the last report: the count starts again.
        for r in &big[1..4] {
            b.feedback(full, *r, IMAX).unwrap();
        }
        assert_eq!(b.outstanding(), 0);
        assert_eq!(b.charge(full, w(1)).map(|c| c.mark), Ok(419_900_000));
    }

    /// Withdrawing a task that was not served refunds its charge (feedback modes) as far as the
    /// rule allows, and closes its account: a window bucket's next task goes.
    #[test]
    fn a_withdrawn_task_closes_its_account() {
        let mut b = u1(Knowledge::ConservativeFeedback);
        let r = b.charge(T0, w(7)).unwrap();
        b.withdraw(T0, r).unwrap();
        assert_eq!(b.level(T0), Ok(2_099_500_000 * TICKS_PER_SECOND as i64));
        assert_eq!((b.submitted(), b.outstanding()), (w(0), 0));
        let mut b = u1(Knowledge::Window(1));
        let r = b.charge(T0, w(7)).unwrap();
        assert_eq!(b.check(T0, w(7)), Ok(Conformance::OnFeedback));
        b.withdraw(T0, r).unwrap();
        assert_eq!(b.check(T0, w(7)), Ok(Conformance::Now));
        assert_eq!(b.withdraw(T0, r), Err(Error::Unknown));
        let mut b = u1(Knowledge::Exact);
        let r = b.charge(T0, w(7)).unwrap();
        b.withdraw(T0, r).unwrap();
        assert_eq!(b.submitted(), w(7));
    }

    #[test]
    fn window_lets_n_tasks_through_then_waits_for_feedback() {
        let mut b = u1(Knowledge::Window(2));
        let r0 = b.charge(T0, IMAX).unwrap();
        b.charge(T0, IMAX).unwrap();
        assert_eq!(b.check(T0, w(1)), Ok(Conformance::OnFeedback));
        assert_eq!(b.charge(T0, w(1)), Err(Error::NonConforming));
        b.feedback(T0, r0, IMAX).unwrap();
        assert_eq!(b.check(T0, w(1)), Ok(Conformance::Now));
        assert_eq!(b.submitted(), IMAX);
    }

    #[test]
    fn aggressive_feedback_debt_withholds_later_tasks() {
        let mut b = Bucket::new(T0, Mips::new(1), w(10), w(10), Knowledge::Aggressive).unwrap();
        let rs: [Charge; 3] = core::array::from_fn(|_| b.charge(T0, w(10)).unwrap());
        for r in rs {
            b.feedback(T0, r, w(10)).unwrap();
        }
        // 30 MI reported against 10 MI of credit: 20 MI of debt at 1 MIPS is 20 s.
        assert_eq!(
            b.check(T0, w(1)),
            Ok(Conformance::After(Ticks::from_secs(20)))
        );
        assert_eq!(b.feedback(T0, rs[0], w(1)), Err(Error::Unknown));
    }

    /// Found by `cargo fuzz run bucket`: the counter of tasks awaiting feedback overflowed.
    #[test]
    fn too_many_tasks_awaiting_feedback_is_full_not_an_overflow() {
        let mut b = Bucket::new(T0, Mips::new(1), w(1), w(1), Knowledge::Aggressive).unwrap();
        for _ in 0..u16::MAX {
            b.charge(T0, w(1)).unwrap();
        }
        let before = b.clone();
        assert_eq!(b.check(T0, w(1)), Err(Error::Full));
        assert_eq!(b.charge(T0, w(1)), Err(Error::Full));
        assert_eq!(b, before);
    }

    /// Found by `cargo fuzz run bucket` in CI: a refill too large for i64 need not fill a bucket
    /// whose feedback debt is near `i64::MIN`.
    #[test]
    fn a_refill_beyond_i64_still_pays_a_deep_debt_exactly() {
        let max = MAX_TASK_WORK; // 2^39 MI; sigma = 2^39 x 10^6 instructions
        let rho = Mips::new(max.get());
        let mut b = Bucket::new(T0, rho, max, max, Knowledge::Aggressive).unwrap();
        let (r1, r2) = (b.charge(T0, w(1)).unwrap(), b.charge(T0, w(1)).unwrap());
        b.feedback(T0, r1, w(4_886_563_925_370)).unwrap();
        b.feedback(T0, r2, w(4_886_563_925_371)).unwrap();
        assert_eq!(b.level(T0), Ok(-9_223_372_036_853_000_000));
        // 2^39 MIPS for 2^24 + 1 ticks: just above i64::MAX instructions, yet the credit ends
        // around 5.5e11 instructions, far below sigma (5.5e17).
        assert_eq!(b.level(t((1 << 24) + 1)), Ok(549_757_589_696));
    }

    #[test]
    fn bad_inputs_are_typed_errors() {
        let new = |rho, sigma, imax, k| Bucket::new(T0, Mips::new(rho), w(sigma), w(imax), k);
        assert_eq!(
            new(0, 10, 1, Knowledge::Exact),
            Err(Error::InvalidParameter(Param::Rate))
        );
        assert_eq!(
            new(1, 1, 2, Knowledge::Exact),
            Err(Error::InvalidParameter(Param::Burst))
        );
        assert_eq!(
            new(1, u64::MAX, 2, Knowledge::Exact),
            Err(Error::InvalidParameter(Param::Burst))
        );
        assert_eq!(
            new(1, 1, 1, Knowledge::Window(0)),
            Err(Error::InvalidParameter(Param::Window))
        );
        let b = u1(Knowledge::Exact);
        assert_eq!(b.check(T0, w(419_900_001)), Err(Error::TaskTooLarge));
        assert_eq!(b.check(T0, w(0)), Err(Error::InvalidParameter(Param::Work)));
        let mut b = u1(Knowledge::Exact);
        b.charge(t(10), w(1)).unwrap();
        assert_eq!(b.check(t(9), w(1)), Err(Error::TimeWentBackwards));
    }
}
