//! Leaky bucket: an arbitrary (rho, sigma, I_max, knowledge) bucket driven by a sequence of time
//! steps, checks, charges, feedbacks and withdrawals, against a model of its credit, `J(t)`,
//! outstanding receipts and the refund rule, and, while it is cheap, against the credit of an
//! exact bucket fed the same tasks (which the credit never exceeds). See `fuzz/README.md` for
//! the list of invariants.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use common::{K, Num, instr};
use libfuzzer_sys::fuzz_target;
use qosgate_kernel::bucket::{Bucket, Charge, Conformance, Knowledge, Oversize};
use qosgate_kernel::units::{MAX_TASK_WORK, Mips, Ticks, Work};
use qosgate_kernel::{Error, Param};

/// Upper bound on single-charge iterations per input (keeps executions fast).
const BUDGET: u32 = 1 << 18;

/// Charges the exact-bucket comparison follows at most (it costs one pass over them per step).
const SHADOW: usize = 256;

#[derive(Arbitrary, Debug)]
struct Input {
    start: Num,
    rho: Num,
    sigma: Num,
    imax: Num,
    knowledge: K,
    /// An `Exact` bucket admits tasks above `I_max` (up to sigma).
    admit: bool,
    /// Bring invalid parameters into range instead of stopping at the constructor's error.
    repair: bool,
    ops: Vec<Op>,
}

#[derive(Arbitrary, Debug)]
enum Op {
    /// `now = now.saturating_add(dt)`.
    Advance(Num),
    Check(Num),
    Charge(Num),
    /// Charge the same work up to `times` times in a row (stops at the first refusal).
    ChargeMany {
        work: Num,
        times: u16,
    },
    /// Feedback on an outstanding receipt (picked by index), or a forged one if none.
    Feedback {
        pick: u16,
        actual: Num,
    },
    /// Feedback with the actual work equal to what was charged (a no-op correction).
    FeedbackExact {
        pick: u16,
    },
    /// Feedback with a receipt the bucket never issued.
    Forged {
        charged: Num,
        mark: Num,
        actual: Num,
    },
    /// Withdraw an outstanding receipt (picked by index), or a forged one if none.
    Withdraw {
        pick: u16,
    },
    /// Withdraw with a receipt the bucket never issued.
    ForgedWithdraw {
        charged: Num,
        mark: Num,
    },
}

/// A receipt not fed back yet, with its charge's index in [`Model::shadow`].
#[derive(Clone, Copy, Debug)]
struct Receipt {
    charge: Charge,
    entry: usize,
}

/// A charge as an exact bucket sees it: its instant and its real work, MI (the charge until
/// feedback reports the real work; zero once withdrawn: the task was not served).
#[derive(Clone, Copy, Debug)]
struct Served {
    at: Ticks,
    work: Work,
}

struct Model {
    rho: Mips,
    sigma: Work,
    imax: Work,
    knowledge: Knowledge,
    oversize: Oversize,
    now: Ticks,
    submitted: Work,
    /// Receipts not fed back yet, in feedback modes.
    receipts: Vec<Receipt>,
    /// Work charged since no receipt was last outstanding, MI, saturating (what a receipt's
    /// mark counts; feedback modes only).
    count: u64,
    /// Every charge so far, for the comparison with an exact bucket; `None` where it does not
    /// apply (`Window`, `Aggressive`: nothing is charged before feedback), once a forged receipt
    /// was accepted, or past [`SHADOW`] charges.
    shadow: Option<Vec<Served>>,
}

impl Model {
    fn feedback_mode(&self) -> bool {
        !matches!(self.knowledge, Knowledge::Exact | Knowledge::Conservative)
    }

    fn charge_for(&self, work: Work) -> Work {
        match self.knowledge {
            Knowledge::Exact => work,
            Knowledge::Conservative | Knowledge::ConservativeFeedback => self.imax,
            Knowledge::Window(_) | Knowledge::Aggressive => Work::ZERO,
        }
    }

    fn invariants(&self, b: &Bucket) {
        let level = b.level(self.now).expect("level at the model's now");
        assert!(
            i128::from(level) <= instr(self.sigma),
            "level {level} above sigma {} MI",
            self.sigma
        );
        assert_eq!(b.submitted(), self.submitted, "J(t) differs from the model");
        assert_eq!(b.knowledge(), self.knowledge);
        if self.feedback_mode() {
            assert_eq!(
                usize::from(b.outstanding()),
                self.receipts.len(),
                "outstanding differs from the receipts not fed back"
            );
        } else {
            assert_eq!(b.outstanding(), 0, "outstanding in a mode without feedback");
        }
        if let Knowledge::Window(n) = self.knowledge {
            assert!(b.outstanding() <= n, "outstanding above the window");
        }
        // Credit never decreases while time passes and nothing happens.
        let tick = Ticks::new(1);
        if let Some(later) = self.now.checked_add(tick) {
            assert!(b.level(later).unwrap() >= level);
        }
        if let Some(earlier) = self.now.checked_sub(tick) {
            // `at` never passes the model's clock; earlier instants are either valid or refused.
            match b.level(earlier) {
                Ok(l) => assert!(l <= level),
                Err(e) => assert_eq!(e, Error::TimeWentBackwards),
            }
        }
        // The refund rule's promise: the credit never exceeds the credit of an exact bucket fed
        // the same tasks, each charged its real work when it was charged here (so the released
        // real work stays within sigma + rho (t - s)). Without feedback the two are the same.
        if let Some(shadow) = &self.shadow {
            let exact = self.exact_credit(shadow);
            let level = i128::from(level);
            if self.feedback_mode() {
                assert!(
                    level <= exact,
                    "credit {level} above the exact bucket's {exact}"
                );
            } else {
                assert_eq!(level, exact, "credit differs from the exact bucket's");
            }
        }
    }

    /// The credit at `now` of a bucket that charges every task its real work:
    /// `min(sigma, min over charge instants s of sigma + rho (now - s) - A(s, now))`, with
    /// `A(s, now)` the real work charged at or after `s` (debts included: it may be negative).
    fn exact_credit(&self, shadow: &[Served]) -> i128 {
        let sigma = instr(self.sigma);
        let rho = u128::from(self.rho.get());
        let (mut best, mut work) = (sigma, 0i128);
        for (k, e) in shadow.iter().enumerate().rev() {
            work += instr(e.work);
            if k > 0 && shadow[k - 1].at == e.at {
                continue;
            }
            // A refill of more than 2^100 instructions dwarfs any work (< 2^18 x 2^60).
            let refill = rho * u128::from(self.now.saturating_sub(e.at).get());
            let refill = i128::try_from(refill.min(1 << 100)).unwrap_or(1 << 100);
            best = best.min(sigma + refill - work);
        }
        best
    }

    /// What `check` must answer, from the level the bucket reports (itself checked elsewhere).
    fn check(&self, b: &Bucket, work: Work) {
        let got = b.check(self.now, work);
        if work == Work::ZERO {
            assert_eq!(got, Err(Error::InvalidParameter(Param::Work)));
            return;
        }
        let largest = match (self.knowledge, self.oversize) {
            (Knowledge::Exact, Oversize::Admit) => self.sigma,
            _ => self.imax,
        };
        if work > largest {
            assert_eq!(got, Err(Error::TaskTooLarge));
            return;
        }
        let level = i128::from(b.level(self.now).unwrap());
        if self.feedback_mode() && self.receipts.len() >= usize::from(u16::MAX) {
            assert_eq!(got, Err(Error::Full), "65,535 tasks await feedback");
            return;
        }
        if let Knowledge::Window(n) = self.knowledge
            && self.receipts.len() >= usize::from(n)
        {
            assert_eq!(got, Ok(Conformance::OnFeedback));
            return;
        }
        assert_eq!(b.charge_for(work), self.charge_for(work));
        let need = instr(self.charge_for(work));
        if level >= need {
            assert_eq!(got, Ok(Conformance::Now), "level {level} covers {need}");
            return;
        }
        let Ok(Conformance::After(t)) = got else {
            panic!("level {level} below {need}: expected After, got {got:?}");
        };
        let rho = i128::from(self.rho.get());
        assert!(t >= Ticks::new(1));
        let want = (need - level).div_euclid(rho) + i128::from((need - level).rem_euclid(rho) != 0);
        assert_eq!(i128::from(t.get()), want, "T is not ceil(deficit / rho)");
        // T is exact: the credit covers the charge after t ticks, not after t - 1.
        if let Some(at) = self.now.checked_add(t) {
            let l = i128::from(b.level(at).unwrap());
            assert!(l >= need, "after T={t} the level {l} is still below {need}");
            let l1 = i128::from(b.level(at.saturating_sub(Ticks::new(1))).unwrap());
            assert!(
                l1 < need,
                "T={t} is not the smallest wait: level {l1} at T-1"
            );
        }
    }

    fn charge(&mut self, b: &mut Bucket, work: Work) -> bool {
        let verdict = b.check(self.now, work);
        let before = b.clone();
        let level = i128::from(b.level(self.now).unwrap());
        let got = b.charge(self.now, work);
        match verdict {
            Ok(Conformance::Now) => {
                let charged = self.charge_for(work);
                let Some(submitted) = self.submitted.checked_add(charged) else {
                    assert_eq!(got, Err(Error::Overflow));
                    assert_eq!(*b, before, "a refused charge changed the bucket");
                    return false;
                };
                // The outstanding-receipt counter is a u16: a 65,536th receipt is refused.
                if self.feedback_mode() && self.receipts.len() == usize::from(u16::MAX) {
                    assert_eq!(got, Err(Error::Full));
                    assert_eq!(*b, before, "a refused charge changed the bucket");
                    return false;
                }
                let receipt = got.unwrap_or_else(|e| panic!("conforming charge refused: {e:?}"));
                assert_eq!(receipt.charged, charged);
                let after = i128::from(b.level(self.now).unwrap());
                assert_eq!(
                    after,
                    level - instr(charged),
                    "credit did not drop by the charge"
                );
                self.submitted = submitted;
                let entry = self.shadow.as_ref().map_or(0, Vec::len);
                match &mut self.shadow {
                    Some(s) if s.len() < SHADOW => s.push(Served {
                        at: self.now,
                        work: charged,
                    }),
                    _ => self.shadow = None,
                }
                if self.feedback_mode() {
                    self.count = self.count.saturating_add(charged.get());
                    assert_eq!(receipt.mark, self.count, "the receipt's mark");
                    self.receipts.push(Receipt {
                        charge: receipt,
                        entry,
                    });
                }
                true
            }
            Ok(_) => {
                assert_eq!(got, Err(Error::NonConforming));
                assert_eq!(*b, before, "a refused charge changed the bucket");
                false
            }
            Err(e) => {
                assert_eq!(got, Err(e), "charge and check disagree");
                assert_eq!(*b, before, "a refused charge changed the bucket");
                false
            }
        }
    }

    /// Feedback of `actual` MI with `receipt` (`genuine`: index into `receipts`), or, with
    /// `actual` `None`, its withdrawal.
    fn settle(
        &mut self,
        b: &mut Bucket,
        receipt: Charge,
        genuine: Option<usize>,
        actual: Option<Work>,
    ) {
        let before = b.clone();
        let level = i128::from(b.level(self.now).unwrap());
        let got = match actual {
            Some(a) => b.feedback(self.now, receipt, a),
            None => b.withdraw(self.now, receipt),
        };
        let refused = |b: &Bucket, got: Result<(), Error>, want: Error| {
            assert_eq!(got, Err(want));
            assert_eq!(
                *b, before,
                "a refused feedback or withdrawal changed the bucket"
            );
        };
        if actual == Some(Work::ZERO) {
            return refused(b, got, Error::InvalidParameter(Param::Work));
        }
        let actual = actual.unwrap_or(Work::ZERO);
        if !self.feedback_mode() {
            assert_eq!(got, Ok(()));
            assert_eq!(
                *b, before,
                "feedback or withdrawal changed a bucket that ignores it"
            );
            return;
        }
        if self.receipts.is_empty() {
            return refused(b, got, Error::Unknown);
        }
        let max_instr = i128::from(i64::MAX);
        let (c, a) = (instr(receipt.charged), instr(actual));
        if c > max_instr || a > max_instr {
            return refused(b, got, Error::Overflow);
        }
        let want = if c > a {
            // The refund rule: up to sigma less the work charged after the task, never down;
            // no refund when that work is past counting.
            let after = match self.count {
                u64::MAX => None,
                n => n.checked_sub(receipt.mark),
            };
            let cap = after
                .map(|w| instr(Work::new(w)))
                .filter(|&i| i <= max_instr)
                .map(|i| instr(self.sigma) - i);
            cap.map_or(level, |cap| level.max((level + c - a).min(cap)))
        } else {
            let debt = level + c - a;
            if debt < i128::from(i64::MIN) {
                return refused(b, got, Error::Overflow);
            }
            debt
        };
        let new_submitted = i128::from(self.submitted.get()) + i128::from(actual.get())
            - i128::from(receipt.charged.get());
        if new_submitted < 0 || new_submitted > i128::from(u64::MAX) {
            return refused(b, got, Error::Overflow);
        }
        assert_eq!(got, Ok(()), "valid feedback or withdrawal refused");
        let after = i128::from(b.level(self.now).unwrap());
        assert_eq!(after, want, "feedback mis-corrected the credit");
        // Whatever the rule's cap: a refund never lowers the credit nor lifts it by more than
        // the overcharge, and a debt is charged in full.
        if c > a {
            assert!(
                level <= after && after <= level + c - a,
                "a refund lowered the credit or lifted it by more than the overcharge"
            );
        } else {
            assert_eq!(after, level + c - a, "a debt not charged in full");
        }
        self.submitted = Work::new(new_submitted as u64);
        // The bucket counts receipts, it cannot tell them apart: a forged one retires any.
        match genuine {
            Some(i) => {
                let r = self.receipts.swap_remove(i);
                if let Some(s) = &mut self.shadow {
                    s[r.entry].work = actual;
                }
            }
            None => {
                self.receipts.pop().unwrap();
                self.shadow = None;
            }
        };
        if self.receipts.is_empty() {
            self.count = 0;
        }
    }

    /// A receipt the bucket never issued, for a call with no genuine one to pass.
    fn forged(&self) -> Charge {
        Charge {
            charged: self.charge_for(self.imax),
            mark: self.count,
        }
    }
}

fn run(input: Input) {
    let now = input.start.ticks();
    let (mut rho, mut sigma, mut imax) = (input.rho.get(), input.sigma.get(), input.imax.get());
    let mut knowledge = input.knowledge.get();
    let new = |rho, sigma, imax, k| {
        Bucket::new(now, Mips::new(rho), Work::new(sigma), Work::new(imax), k)
    };
    let built = new(rho, sigma, imax, knowledge);
    let max_task = MAX_TASK_WORK.get();
    let expected_err = if rho == 0 {
        Some(Param::Rate)
    } else if imax == 0 || imax > max_task {
        Some(Param::MaxWork)
    } else if knowledge == Knowledge::Window(0) {
        Some(Param::Window)
    } else if sigma < imax || sigma > common::MAX_INSTR_WORK {
        Some(Param::Burst)
    } else {
        None
    };
    let b = match (built, expected_err) {
        (Ok(b), None) => b,
        (Err(e), Some(p)) => {
            assert_eq!(e, Error::InvalidParameter(p));
            if !input.repair {
                return;
            }
            rho = rho.max(1);
            imax = 1 + imax.saturating_sub(1) % max_task;
            if knowledge == Knowledge::Window(0) {
                knowledge = Knowledge::Window(1);
            }
            sigma = imax + sigma % (common::MAX_INSTR_WORK - imax + 1);
            new(rho, sigma, imax, knowledge).expect("repaired parameters")
        }
        (got, want) => panic!("Bucket::new: got {got:?}, expected error {want:?}"),
    };
    let oversize = if input.admit {
        Oversize::Admit
    } else {
        Oversize::Refuse
    };
    let mut b = b.with_oversize(oversize);
    assert_eq!(b.oversize(), oversize);
    let mut m = Model {
        rho: Mips::new(rho),
        sigma: Work::new(sigma),
        imax: Work::new(imax),
        knowledge,
        oversize,
        now,
        submitted: Work::ZERO,
        receipts: Vec::new(),
        count: 0,
        shadow: match knowledge {
            Knowledge::Window(_) | Knowledge::Aggressive => None,
            _ => Some(Vec::new()),
        },
    };
    // A new bucket is full.
    assert_eq!(i128::from(b.level(now).unwrap()), instr(m.sigma));
    m.invariants(&b);
    let mut budget = BUDGET;
    for op in input.ops {
        match op {
            Op::Advance(dt) => m.now = m.now.saturating_add(dt.ticks()),
            Op::Check(w) => m.check(&b, w.work()),
            Op::Charge(w) => {
                m.check(&b, w.work());
                m.charge(&mut b, w.work());
            }
            Op::ChargeMany { work, times } => {
                for _ in 0..times {
                    if budget == 0 || !m.charge(&mut b, work.work()) {
                        break;
                    }
                    budget -= 1;
                    // Cheap invariants on every step of the burst.
                    assert_eq!(b.submitted(), m.submitted);
                    if m.feedback_mode() {
                        assert_eq!(usize::from(b.outstanding()), m.receipts.len());
                    }
                }
            }
            Op::Feedback { pick, actual } => {
                if m.receipts.is_empty() {
                    let forged = m.forged();
                    m.settle(&mut b, forged, None, Some(actual.work()));
                } else {
                    let i = usize::from(pick) % m.receipts.len();
                    let r = m.receipts[i].charge;
                    m.settle(&mut b, r, Some(i), Some(actual.work()));
                }
            }
            Op::FeedbackExact { pick } => {
                if !m.receipts.is_empty() {
                    let i = usize::from(pick) % m.receipts.len();
                    let r = m.receipts[i].charge;
                    // The real work of an uncharged (window, aggressive) task is at least 1 MI.
                    m.settle(&mut b, r, Some(i), Some(r.charged.max(Work::new(1))));
                }
            }
            Op::Forged {
                charged,
                mark,
                actual,
            } => {
                let forged = Charge {
                    charged: charged.work(),
                    mark: mark.get(),
                };
                m.settle(&mut b, forged, None, Some(actual.work()));
            }
            Op::Withdraw { pick } => {
                if m.receipts.is_empty() {
                    let forged = m.forged();
                    m.settle(&mut b, forged, None, None);
                } else {
                    let i = usize::from(pick) % m.receipts.len();
                    let r = m.receipts[i].charge;
                    m.settle(&mut b, r, Some(i), None);
                }
            }
            Op::ForgedWithdraw { charged, mark } => {
                let forged = Charge {
                    charged: charged.work(),
                    mark: mark.get(),
                };
                m.settle(&mut b, forged, None, None);
            }
        }
        m.invariants(&b);
    }
}

fuzz_target!(|input: Input| run(input));
