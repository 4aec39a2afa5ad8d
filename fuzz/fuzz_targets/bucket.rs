//! Leaky bucket: an arbitrary (rho, sigma, I_max, knowledge) bucket driven by a sequence of time
//! steps, checks, charges and feedbacks, against a model of its credit, `J(t)` and outstanding
//! receipts. See `fuzz/README.md` for the list of invariants.
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
        actual: Num,
    },
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
    receipts: Vec<Charge>,
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
                if self.feedback_mode() {
                    self.receipts.push(receipt);
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

    /// Feedback with `receipt` (`genuine`: index into `receipts`).
    fn feedback(&mut self, b: &mut Bucket, receipt: Charge, genuine: Option<usize>, actual: Work) {
        let before = b.clone();
        let level = i128::from(b.level(self.now).unwrap());
        let got = b.feedback(self.now, receipt, actual);
        let refused = |b: &Bucket, got: Result<(), Error>, want: Error| {
            assert_eq!(got, Err(want));
            assert_eq!(*b, before, "a refused feedback changed the bucket");
        };
        if actual == Work::ZERO {
            return refused(b, got, Error::InvalidParameter(Param::Work));
        }
        if !self.feedback_mode() {
            assert_eq!(got, Ok(()));
            assert_eq!(*b, before, "feedback changed a bucket that ignores it");
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
        let new_level = level + c - a;
        if new_level < i128::from(i64::MIN) || new_level > max_instr {
            return refused(b, got, Error::Overflow);
        }
        let new_submitted = i128::from(self.submitted.get()) + i128::from(actual.get())
            - i128::from(receipt.charged.get());
        if new_submitted < 0 || new_submitted > i128::from(u64::MAX) {
            return refused(b, got, Error::Overflow);
        }
        assert_eq!(got, Ok(()), "valid feedback refused");
        let after = i128::from(b.level(self.now).unwrap());
        assert_eq!(
            after,
            new_level.min(instr(self.sigma)),
            "feedback mis-corrected the credit"
        );
        self.submitted = Work::new(new_submitted as u64);
        // The bucket counts receipts, it cannot tell them apart: a forged one retires any.
        match genuine {
            Some(i) => self.receipts.swap_remove(i),
            None => self.receipts.pop().unwrap(),
        };
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
                    let forged = Charge {
                        charged: m.charge_for(m.imax),
                    };
                    m.feedback(&mut b, forged, None, actual.work());
                } else {
                    let i = usize::from(pick) % m.receipts.len();
                    let r = m.receipts[i];
                    m.feedback(&mut b, r, Some(i), actual.work());
                }
            }
            Op::FeedbackExact { pick } => {
                if !m.receipts.is_empty() {
                    let i = usize::from(pick) % m.receipts.len();
                    let r = m.receipts[i];
                    // The real work of an uncharged (window, aggressive) task is at least 1 MI.
                    m.feedback(&mut b, r, Some(i), r.charged.max(Work::new(1)));
                }
            }
            Op::Forged { charged, actual } => {
                let forged = Charge {
                    charged: charged.work(),
                };
                m.feedback(&mut b, forged, None, actual.work());
            }
        }
        m.invariants(&b);
    }
}

fuzz_target!(|input: Input| run(input));
