//! Registration of guaranteed-service users at one resource (kokkinos2009 Sec. 3.2, 3.4, 5.2).
//!
//! A user registers with a weight `w`, a rate `rho` (MIPS), a burst `sigma` (MI) and a maximum task
//! `I_max` (MI). The resource accepts it when
//!
//! - Eq. 2: `I_max <= I_r^max`, the resource's maximum task, and
//! - Eq. 1: every user `k`, old and new, keeps `rho_k <= g_k = C' w_k / W`, where `W` is the total
//!   weight after the registration and `C'` the resource's total capacity (the sum over its CPUs,
//!   Sec. 5.2). The check is exact integer arithmetic: `rho_k * W <= C' * w_k`.
//!
//! Temporary users (a best-effort task at a GS_BE_EQUAL resource, Sec. 3.4) carry `rho = 0`: they
//! claim weight, not rate, so Eq. 1 is checked for everybody else.
//!
//! # Which rate a bound may use
//! Eq. 5 needs "the minimum value of `g_ir(t)` that does not invalidate (1)". Because every
//! registration re-checks Eq. 1 for user `i` itself, `W(t) <= C' w_i / rho_i` at all times, so
//! `g_i(t) >= rho_i` whatever registers or leaves later; no larger rate has that property. Bounds on
//! [`RateBasis::Reserved`] use `g = rho` and hold for the life of the registration. Bounds on
//! [`RateBasis::Current`] use today's share `C' w / W(t)`, the paper's Table 1 form with
//! `N_r(t) + 1` users; they hold only until the next guaranteed-service registration. (At a
//! GS_BE_EQUAL resource, best-effort tasks come and go as temporary users; the resource counts
//! every free flow slot as one, see [`crate::resource::Resource::rate`].)
//!
//! # Cost
//! Eq. 1 binds first for the user with the smallest `w_k / rho_k`: `rho_k W <= C' w_k` for every
//! `k` iff it holds for that one. The registry keeps that user's weight and rate, and the
//! smallest GS weight (a best-effort task's weight at GS_BE_EQUAL), as GS users come and go, so
//! that checking Eq. 1 ([`Registry::admissible`]), [`Registry::max_total_weight`] and
//! [`Registry::smallest_gs_weight`] are `O(1)`, as a temporary best-effort user's admission with
//! every task needs: a GS registration compares with them, a GS user's leaving scans the
//! registrations once (`O(FLOWS)`).
//!
//! Memory: `FLOWS` slots of [`Registration`] (40 bytes each), indexed by the fair queue's flow id,
//! and the summary (32 bytes).

use core::num::NonZeroU64;

use heapless::Vec;

use crate::bucket::{Knowledge, Oversize};
use crate::error::{Error, Param};
use crate::fairq::FlowId;
use crate::units::{MAX_TASK_WORK, Mips, Weight, Work};
use crate::wide;

/// What a user agrees with a resource at registration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Registration {
    /// Share weight, `>= 1`.
    pub weight: Weight,
    /// Long-term rate rho, MIPS (0 only for temporary best-effort users).
    pub rho: Mips,
    /// Burst sigma, MI (`>= imax` for a guaranteed-service user).
    pub sigma: Work,
    /// Largest task the user will send, MI.
    pub imax: Work,
    /// How the user's tasks are charged (Sec. 4.2); decides the bound's form (Eq. 5 or 9).
    pub knowledge: Knowledge,
    /// Whether a task above `imax` is refused (Eq. 4, the default) or served up to the
    /// resource's `I_r^max`; a user that admits such tasks has no bound, and counts as sending
    /// tasks of `I_r^max` in the others' bounds ([`Registration::largest_gs_task`]).
    pub oversize: Oversize,
    /// Queue entries the resource sets aside for this user's waiting tasks: best-effort tasks
    /// never take them, so a task of this user finds an entry while fewer than `entries` of its
    /// tasks wait ([`crate::resource`]). [`crate::bound::entries_needed`] gives how many a
    /// (rho, sigma)-conforming user can need. 0 reserves nothing (temporary users always).
    pub entries: u16,
}

impl Registration {
    /// A temporary best-effort user of weight `w` whose one task may be up to `imax` MI.
    pub fn temporary(weight: Weight, imax: Work) -> Self {
        Self {
            weight,
            rho: Mips::ZERO,
            sigma: Work::ZERO,
            imax,
            knowledge: Knowledge::Exact,
            oversize: Oversize::Refuse,
            entries: 0,
        }
    }

    /// The largest task the resource serves in the guaranteed class for this user, at a resource
    /// whose maximum task is `resource_max`: `imax`, or `resource_max` if it admits larger tasks.
    pub fn largest_gs_task(&self, resource_max: Work) -> Work {
        match self.oversize {
            Oversize::Refuse => self.imax,
            Oversize::Admit => resource_max.max(self.imax),
        }
    }

    /// Whether this is a temporary best-effort user.
    pub fn is_temporary(&self) -> bool {
        self.rho == Mips::ZERO
    }

    /// Checks the registration on its own: `weight >= 1`, `1 <= imax <= MAX_TASK_WORK`, and for a
    /// guaranteed-service user `rho >= 1`, `sigma >= imax`, `Window(n >= 1)`.
    pub fn validate(&self) -> Result<(), Error> {
        let bad = |p| Err(Error::InvalidParameter(p));
        if self.weight == 0 {
            return bad(Param::Weight);
        }
        if self.imax == Work::ZERO || self.imax > MAX_TASK_WORK {
            return bad(Param::MaxWork);
        }
        if !self.is_temporary() && self.sigma < self.imax {
            return bad(Param::Burst);
        }
        if self.knowledge == Knowledge::Window(0) {
            return bad(Param::Window);
        }
        Ok(())
    }
}

/// The rate a delay bound is computed on (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RateBasis {
    /// `g = rho`: holds whatever registers or leaves later.
    Reserved,
    /// `g = C' w / W(t)` (Eq. 1 now, Table 1): holds until the next registration.
    Current,
}

impl core::fmt::Display for RateBasis {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            RateBasis::Reserved => "reserved",
            RateBasis::Current => "current",
        })
    }
}

/// The registrations of one resource, indexed by flow id.
#[derive(Clone, Debug)]
pub struct Registry<const FLOWS: usize> {
    /// Up to the highest flow id registered so far; `None` for a free id.
    slots: Vec<Option<Registration>, FLOWS>,
    /// What Eq. 1 and a best-effort task need of the GS users, kept as they come and go.
    gs: GsSummary,
}

impl<const FLOWS: usize> Default for Registry<FLOWS> {
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            gs: GsSummary::NONE,
        }
    }
}

/// The guaranteed-service users as Eq. 1 and a best-effort task see them.
#[derive(Clone, Copy, Debug)]
struct GsSummary {
    /// `(w, rho)` of a user with the smallest `w / rho`, for whom Eq. 1 binds first.
    tightest: Option<(Weight, Mips)>,
    /// The smallest GS weight.
    smallest_weight: Option<Weight>,
}

impl GsSummary {
    const NONE: Self = Self {
        tightest: None,
        smallest_weight: None,
    };

    /// The summary with the GS user `r` added.
    fn with(self, r: &Registration) -> Self {
        // `w_r / rho_r < w_t / rho_t`, exactly.
        let tighter = |(w, rho): (Weight, Mips)| {
            u128::from(r.weight) * u128::from(rho.get()) < u128::from(w) * u128::from(r.rho.get())
        };
        Self {
            tightest: match self.tightest {
                Some(t) if !tighter(t) => Some(t),
                _ => Some((r.weight, r.rho)),
            },
            smallest_weight: Some(self.smallest_weight.map_or(r.weight, |w| w.min(r.weight))),
        }
    }
}

impl<const FLOWS: usize> Registry<FLOWS> {
    /// The registration of `flow`, if any.
    pub fn get(&self, flow: FlowId) -> Option<&Registration> {
        self.slots.get(usize::from(flow)).and_then(Option::as_ref)
    }

    /// Registered users, temporary ones included, with their flow ids.
    pub fn iter(&self) -> impl Iterator<Item = (FlowId, &Registration)> {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.as_ref().map(|r| (FlowId::new(i as u16), r)))
    }

    /// Number of registrations, temporary ones included.
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// Whether nobody is registered.
    pub fn is_empty(&self) -> bool {
        self.slots.iter().all(Option::is_none)
    }

    /// The smallest weight of a guaranteed-service user (1 if there is none): the weight a
    /// best-effort task gets at a GS_BE_EQUAL resource (Sec. 3.4). `O(1)`.
    pub fn smallest_gs_weight(&self) -> Weight {
        self.gs.smallest_weight.unwrap_or(1)
    }

    /// Whether `new` may join users whose weights (including any closing flows) total
    /// `total_weight`, at a resource of total capacity `capacity` and maximum task `max_task`.
    /// `O(1)`: Eq. 1 for the registered users is Eq. 1 for the tightest of them.
    ///
    /// Errors: those of [`Registration::validate`]; [`Error::TaskTooLarge`] (Eq. 2);
    /// [`Error::RateExceedsShare`] (Eq. 1 fails for the newcomer or any registered user).
    pub fn admissible(
        &self,
        capacity: Mips,
        total_weight: u32,
        max_task: Work,
        new: &Registration,
    ) -> Result<(), Error> {
        new.validate()?;
        if new.imax > max_task {
            return Err(Error::TaskTooLarge);
        }
        let w_after = u128::from(total_weight) + u128::from(new.weight);
        let fits = |(weight, rho): (Weight, Mips)| {
            u128::from(rho.get()) * w_after <= u128::from(capacity.get()) * u128::from(weight)
        };
        let tightest_fits = self.gs.tightest.is_none_or(fits);
        if fits((new.weight, new.rho)) && tightest_fits {
            Ok(())
        } else {
            Err(Error::RateExceedsShare)
        }
    }

    /// Records `reg` for `flow` (after [`Registry::admissible`] and opening the flow).
    pub(crate) fn insert(&mut self, flow: FlowId, reg: Registration) {
        let f = usize::from(flow);
        if f >= self.slots.len() && self.slots.resize(f + 1, None).is_err() {
            return;
        }
        if let Some(slot) = self.slots.get_mut(f) {
            let old = slot.replace(reg);
            if old.is_some_and(|r| !r.is_temporary()) {
                self.summarize();
            } else if !reg.is_temporary() {
                self.gs = self.gs.with(&reg);
            }
        }
    }

    /// Forgets `flow`'s registration and returns it.
    pub(crate) fn remove(&mut self, flow: FlowId) -> Option<Registration> {
        let old = self.slots.get_mut(usize::from(flow)).and_then(Option::take);
        if old.is_some_and(|r| !r.is_temporary()) {
            self.summarize();
        }
        old
    }

    /// Rebuilds the GS summary from the registrations: `O(FLOWS)`.
    fn summarize(&mut self) {
        self.gs = self
            .iter()
            .filter(|(_, r)| !r.is_temporary())
            .fold(GsSummary::NONE, |s, (_, r)| s.with(r));
    }

    /// The largest total weight Eq. 1 lets the resource reach: `min_k floor(C' w_k / rho_k)` over
    /// the guaranteed-service users (`u64::MAX` if there are none), that of the tightest user.
    /// No registration, temporary ones included, can take the total weight above it. `O(1)`.
    pub fn max_total_weight(&self, capacity: Mips) -> u64 {
        self.gs.tightest.map_or(u64::MAX, |(weight, rho)| {
            let cw = u128::from(capacity.get()) * u128::from(weight);
            // A GS user's rate is at least 1.
            wide::div_saturating(cw, NonZeroU64::new(rho.get()).unwrap_or(NonZeroU64::MIN))
        })
    }

    /// Guaranteed-service users (temporary ones excluded).
    pub fn gs_len(&self) -> usize {
        self.iter().filter(|(_, r)| !r.is_temporary()).count()
    }

    /// Sum of the largest tasks every guaranteed-service user but `flow` may send, MI, at a
    /// resource whose maximum task is `resource_max` ([`Registration::largest_gs_task`]; SCFQ's
    /// latency; temporary users are counted by the caller, see
    /// [`crate::resource::Resource::bound_spec`]).
    pub fn others_imax(&self, flow: FlowId, resource_max: Work) -> Work {
        self.iter()
            .filter(|(f, r)| *f != flow && !r.is_temporary())
            .fold(Work::ZERO, |s, (_, r)| {
                s.saturating_add(r.largest_gs_task(resource_max))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gs(w: Weight, rho: u64) -> Registration {
        Registration {
            weight: w,
            rho: Mips::new(rho),
            sigma: Work::new(10),
            imax: Work::new(10),
            knowledge: Knowledge::Exact,
            oversize: Oversize::Refuse,
            entries: 0,
        }
    }

    #[test]
    fn eq1_checks_newcomer_and_every_registered_user() {
        let mut reg = Registry::<4>::default();
        let (c, max) = (Mips::new(100), Work::new(10));
        // C' = 100. A (w=1, rho=40) alone: g = 100.
        reg.admissible(c, 0, max, &gs(1, 40)).unwrap();
        reg.insert(FlowId::new(0), gs(1, 40));
        // B (w=1, rho=50): g = 50 each; A's 40 <= 50 and B's 50 <= 50.
        reg.admissible(c, 1, max, &gs(1, 50)).unwrap();
        reg.insert(FlowId::new(1), gs(1, 50));
        // C (w=1, rho=1): g = 33 each; B's 50 > 33.
        assert_eq!(
            reg.admissible(c, 2, max, &gs(1, 1)),
            Err(Error::RateExceedsShare)
        );
        // A temporary user claims weight only: same failure.
        let be = Registration::temporary(1, max);
        assert_eq!(reg.admissible(c, 2, max, &be), Err(Error::RateExceedsShare));
        assert_eq!(
            reg.admissible(c, 2, Work::new(9), &gs(1, 1)),
            Err(Error::TaskTooLarge)
        );
        assert_eq!(reg.others_imax(FlowId::new(0), max), max);
        // A user admitting larger tasks counts as sending the resource's largest.
        let admits = Registration {
            oversize: Oversize::Admit,
            ..gs(1, 5)
        };
        reg.insert(FlowId::new(2), admits);
        assert_eq!(
            reg.others_imax(FlowId::new(0), Work::new(70)),
            Work::new(80)
        );
        assert_eq!(admits.largest_gs_task(Work::new(70)), Work::new(70));
        reg.remove(FlowId::new(2));
        assert_eq!(reg.gs_len(), 2);
        // A: 100 * 1 / 40 = 2.5, B: 100 * 1 / 50 = 2: at most weight 2 in all.
        assert_eq!(reg.max_total_weight(c), 2);
    }

    #[test]
    fn registrations_are_validated() {
        let reg = Registry::<1>::default();
        let (c, max) = (Mips::new(9), Work::new(10));
        let mut r = gs(0, 1);
        assert_eq!(
            reg.admissible(c, 0, max, &r),
            Err(Error::InvalidParameter(Param::Weight))
        );
        r = gs(1, 1);
        r.sigma = Work::new(9);
        assert_eq!(
            reg.admissible(c, 0, max, &r),
            Err(Error::InvalidParameter(Param::Burst))
        );
        r.sigma = max;
        r.imax = Work::ZERO;
        assert_eq!(
            reg.admissible(c, 0, max, &r),
            Err(Error::InvalidParameter(Param::MaxWork))
        );
    }

    proptest::proptest! {
        /// After any registrations and departures (GS users and temporary ones, re-registered
        /// slots included), Eq. 1 through the kept summary decides as checking every user
        /// does, and the largest total weight and the smallest GS weight are the scans' values.
        #[test]
        fn the_summary_decides_as_every_user_would(
            ops in proptest::collection::vec((0u16..6, 0u16..4, 0u64..50, proptest::bool::ANY), 0..60),
            capacity in 1u64..400,
            total in 0u32..40,
            newcomer in (1u16..4, 0u64..50),
        ) {
            let mut reg = Registry::<6>::default();
            for (flow, w, rho, remove) in ops {
                let flow = FlowId::new(flow);
                if remove {
                    reg.remove(flow);
                } else if w > 0 {
                    let r = if rho == 0 { Registration::temporary(w, Work::new(10)) } else { gs(w, rho) };
                    reg.insert(flow, r);
                }
                let c = Mips::new(capacity);
                let new = match newcomer.1 {
                    0 => Registration::temporary(newcomer.0, Work::new(10)),
                    rho => gs(newcomer.0, rho),
                };
                let w_after = u128::from(total) + u128::from(new.weight);
                let fits = |r: &Registration| {
                    u128::from(r.rho.get()) * w_after <= u128::from(capacity) * u128::from(r.weight)
                };
                let every = fits(&new) && reg.iter().all(|(_, r)| fits(r));
                let expect = if every { Ok(()) } else { Err(Error::RateExceedsShare) };
                proptest::prop_assert_eq!(reg.admissible(c, total, Work::new(10), &new), expect);
                let gs_users = || reg.iter().filter(|(_, r)| !r.is_temporary());
                let max = gs_users()
                    .map(|(_, r)| capacity * u64::from(r.weight) / r.rho.get())
                    .min()
                    .unwrap_or(u64::MAX);
                proptest::prop_assert_eq!(reg.max_total_weight(c), max);
                let smallest = gs_users().map(|(_, r)| r.weight).min().unwrap_or(1);
                proptest::prop_assert_eq!(reg.smallest_gs_weight(), smallest);
            }
        }
    }
}
