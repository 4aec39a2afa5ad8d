//! Resource scheduler: a `Resource<8, 16, 4>` of any kind and discipline, with 1..=4 CPUs,
//! driven by registrations, submissions, decisions, completions and time steps, against a model
//! that knows where every task is. See `fuzz/README.md` for the list of invariants.
#![no_main]

mod common;

use std::collections::{HashMap, VecDeque};

use arbitrary::Arbitrary;
use common::{D, K, Num, Num16};
use libfuzzer_sys::fuzz_target;
use qosgate_kernel::bucket::{Knowledge, Oversize};
use qosgate_kernel::fairq::{Discipline, FlowId};
use qosgate_kernel::registry::{RateBasis, Registration};
use qosgate_kernel::resource::{Class, Completion, Counts, Decision, Kind, Resource, Task};
use qosgate_kernel::units::{
    MAX_CAPACITY, MAX_TASK_WORK, Mips, TICKS_PER_SECOND, Ticks, Work, exec_ticks,
};
use qosgate_kernel::{Error, Param, Refused};

const FLOWS: usize = 8;
const QUEUE: usize = 16;
const CPUS: usize = 4;
type R = Resource<FLOWS, QUEUE, CPUS>;

#[derive(Arbitrary, Debug, Clone, Copy)]
enum KindA {
    Gs,
    Be,
    GsBeEqual,
    GsBePriority(bool),
}

impl KindA {
    fn get(self) -> Kind {
        match self {
            KindA::Gs => Kind::Gs,
            KindA::Be => Kind::Be,
            KindA::GsBeEqual => Kind::GsBeEqual,
            KindA::GsBePriority(preemptive) => Kind::GsBePriority { preemptive },
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Input {
    kind: KindA,
    discipline: D,
    /// Raw CPU list (any length) and whether to bring it into range if the constructor refuses it.
    cpus: Vec<Num>,
    max_task: Num,
    max_flows: Num16,
    repair: bool,
    ops: Vec<Op>,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Advance(Num),
    Register {
        weight: Num16,
        rho: Num,
        sigma: Num,
        imax: Num,
        knowledge: K,
        admit: bool,
        entries: u8,
    },
    /// A registration likely to pass Eq. 1 and 2: rho a fraction of the share it would get.
    RegisterFit {
        weight: Num16,
        shift: u8,
        imax: u64,
        burst: u8,
        knowledge: K,
        admit: bool,
        entries: u8,
    },
    Deregister(u8),
    SubmitGs {
        flow: u8,
        work: Num,
    },
    /// A GS task no larger than the user's I_max.
    SubmitGsFit {
        flow: u8,
        work: u64,
    },
    SubmitBe(Num),
    /// A BE task no larger than the resource's maximum.
    SubmitBeFit(u64),
    /// One `next_decision`.
    Decide,
    /// `next_decision` until it answers `None`.
    Drain,
    /// Complete the task on a CPU now (possibly before its expected finish).
    Complete(u8),
    /// Advance to the first expected finish and complete that task.
    CompleteNext,
}

fn flow_id(raw: u8) -> FlowId {
    match raw {
        255 => FlowId::new(u16::MAX),
        r => FlowId::new(u16::from(r % (FLOWS as u8 + 1))),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    Queued,
    Running,
    Completed,
    Refused,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    task: Task,
    class: Class,
    flow: Option<FlowId>,
    started: Ticks,
    /// Instructions of it done before `started`, in the tick its CPU's previous task ended.
    lead: u64,
    finish: Ticks,
    /// Instructions of the tick `finish` left unused after its exact end.
    over: u64,
}

/// Where `work` MI started at `now` on a CPU of `mips` MIPS, already `lead` instructions into
/// the tick (what its previous task left of it), ends: the tick of its exact end, rounded up,
/// and the instructions of that tick left unused (exact service, resource.rs). `Ticks::MAX`
/// when the end is past the clock.
fn exact_end(now: Ticks, work: Work, mips: Mips, lead: u64) -> (Ticks, u64) {
    let need = u128::from(work.get()) * u128::from(TICKS_PER_SECOND);
    let (rate, lead) = (u128::from(mips.get()), u128::from(lead));
    if need <= lead {
        return (now, (lead - need) as u64);
    }
    let ticks = (need - lead).div_ceil(rate);
    match u64::try_from(ticks) {
        Ok(t) => (
            now.saturating_add(Ticks::new(t)),
            (ticks * rate - (need - lead)) as u64,
        ),
        Err(_) => (Ticks::MAX, 0),
    }
}

/// The largest GS task of a registration at a resource of maximum task `max_task`: its `imax`,
/// or `max_task` if it admits larger ones.
fn largest_gs(r: &Registration, max_task: Work) -> Work {
    match r.oversize {
        Oversize::Refuse => r.imax,
        Oversize::Admit => max_task.max(r.imax),
    }
}

struct Model {
    kind: Kind,
    discipline: Discipline,
    mips: Vec<Mips>,
    running: Vec<Option<Run>>,
    /// Per CPU, when its last task ended (or was paused) and the instructions of that tick it
    /// left unused.
    ended: Vec<(Ticks, u64)>,
    cursor: usize,
    capacity: Mips,
    max_task: Work,
    max_flows: u16,
    regs: [Option<Registration>; FLOWS],
    /// Per flow, the fair queue's FIFO: task and class (BE at GS_BE_EQUAL).
    fair: [VecDeque<(Task, Class)>; FLOWS],
    be: VecDeque<Task>,
    fate: HashMap<u32, Fate>,
    next_id: u32,
    now: Ticks,
    closing: [bool; FLOWS],
}

/// `x` as a 128-bit number, for Eq. 1's exact products.
fn wide(x: Mips) -> u128 {
    u128::from(x.get())
}

impl Model {
    fn fair_len(&self) -> usize {
        self.fair.iter().map(VecDeque::len).sum()
    }

    fn reg_weight(&self) -> u128 {
        self.regs
            .iter()
            .flatten()
            .map(|r| u128::from(r.weight))
            .sum()
    }

    fn gs_count(&self) -> usize {
        self.regs
            .iter()
            .flatten()
            .filter(|r| !r.is_temporary())
            .count()
    }

    fn reg_count(&self) -> usize {
        self.regs.iter().flatten().count()
    }

    fn gs(&self, flow: FlowId) -> Option<Registration> {
        self.regs
            .get(usize::from(flow))
            .copied()
            .flatten()
            .filter(|r| !r.is_temporary())
    }

    fn smallest_gs_weight(&self) -> u16 {
        self.regs
            .iter()
            .flatten()
            .filter(|r| !r.is_temporary())
            .map(|r| r.weight)
            .min()
            .unwrap_or(1)
    }

    /// Eq. 1 for everybody, with `new` joining, on the registry's own total weight (a lower
    /// bound on the fair queue's, which also counts flows still closing under WFQ).
    fn eq1_holds_with(&self, new: &Registration) -> bool {
        let w = self.reg_weight() + u128::from(new.weight);
        let fits = |r: &Registration| wide(r.rho) * w <= wide(self.capacity) * u128::from(r.weight);
        fits(new) && self.regs.iter().flatten().all(fits)
    }

    fn first_free_slot(&self) -> Option<usize> {
        self.regs.iter().position(Option::is_none)
    }

    fn free_cpu(&self) -> Option<usize> {
        let n = self.mips.len();
        (0..n)
            .map(|k| (self.cursor + k) % n)
            .find(|&i| self.running[i].is_none())
    }

    fn new_task(&mut self, work: Work) -> Task {
        let id = self.next_id;
        self.next_id += 1;
        self.fate.insert(id, Fate::Refused);
        Task { id, work }
    }

    fn invariants(&self, r: &R) {
        // Conservation: counts() adds up to the tasks the model has queued or running.
        let running = self.running.iter().flatten().count();
        let want = Counts {
            queued_gs: self.fair_len(),
            queued_be: self.be.len(),
            running,
        };
        assert_eq!(r.counts(), want, "counts differ from the model");
        // The entries set aside and unused never exceed the room (resource.rs, "Reserved
        // entries").
        assert!(
            self.reserve_left() <= self.room(),
            "reserved entries beyond the room"
        );
        assert_eq!(
            r.be_room(),
            self.be_room(),
            "be_room differs from the model"
        );
        let live = self
            .fate
            .values()
            .filter(|f| matches!(f, Fate::Queued | Fate::Running))
            .count();
        assert_eq!(live, want.queued_gs + want.queued_be + want.running);
        assert_eq!(r.kind(), self.kind);
        assert_eq!(r.capacity(), self.capacity);
        assert_eq!(r.max_task(), self.max_task);
        assert_eq!(r.cpus(), self.mips.len());
        assert_eq!(r.cpu_min(), *self.mips.iter().min().unwrap());
        // The registry is the model's.
        let reg = r.registry();
        let got: Vec<(FlowId, Registration)> = reg.iter().map(|(f, r)| (f, *r)).collect();
        let want: Vec<(FlowId, Registration)> = self
            .regs
            .iter()
            .enumerate()
            .filter_map(|(f, r)| r.map(|r| (FlowId::new(f as u16), r)))
            .collect();
        assert_eq!(got, want, "registry differs from the model");
        assert_eq!(reg.len(), want.len());
        assert_eq!(reg.is_empty(), want.is_empty());
        assert!(reg.len() <= usize::from(self.max_flows));
        assert_eq!(reg.smallest_gs_weight(), self.smallest_gs_weight());
        assert_eq!(reg.gs_len(), self.gs_count());
        // The most total weight Eq. 1 admits: min over GS users of floor(C' w / rho).
        let max_w = self
            .regs
            .iter()
            .flatten()
            .filter(|r| !r.is_temporary())
            .map(|r| wide(self.capacity) * u128::from(r.weight) / wide(r.rho))
            .min()
            .map_or(u64::MAX, |m| u64::try_from(m).unwrap_or(u64::MAX));
        assert_eq!(reg.max_total_weight(self.capacity), max_w);
        assert!(
            self.reg_weight() <= u128::from(max_w),
            "registered weight above Eq. 1's limit"
        );
        // Eq. 1 holds for every registered user at all times (registry weight: a lower bound).
        let w = self.reg_weight();
        for (f, x) in reg.iter() {
            assert!(
                wide(x.rho) * w <= wide(self.capacity) * u128::from(x.weight),
                "Eq. 1 broken for flow {f}: rho {} * W {w} > C {} * w {}",
                x.rho,
                self.capacity,
                x.weight
            );
        }
        // Next finish: the earliest expected end, ties to the lower CPU.
        let nf = self
            .running
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|c| (i as u16, c.finish)))
            .min_by_key(|&(i, f)| (f, i));
        assert_eq!(r.next_finish(), nf);
        // Bound inputs of every GS user.
        for (f, x) in reg.iter() {
            let (Ok(res), Ok(cur)) = (
                r.bound_spec(f, RateBasis::Reserved),
                r.bound_spec(f, RateBasis::Current),
            ) else {
                assert!(x.is_temporary(), "no bound spec for GS flow {f}");
                assert_eq!(r.bound_spec(f, RateBasis::Reserved), Err(Error::Unknown));
                continue;
            };
            assert!(!x.is_temporary(), "a bound spec for temporary flow {f}");
            for s in [&res, &cur] {
                assert_eq!(
                    (s.sigma, s.imax, s.knowledge, s.discipline),
                    (x.sigma, x.imax, x.knowledge, self.discipline)
                );
                assert_eq!(s.oversize, x.oversize);
                // A user admitting tasks above its I_max has no bound.
                if x.oversize == Oversize::Admit {
                    assert_eq!(s.latency(), Err(Error::NoBound));
                    assert!(s.at_resource().is_err());
                }
                assert_eq!((s.cpu, s.resource_imax), (r.cpu_min(), self.max_task));
                assert_eq!(
                    (usize::from(s.cpus), s.capacity),
                    (self.mips.len(), self.capacity)
                );
                assert_eq!(
                    s.residual,
                    self.kind == Kind::GsBePriority { preemptive: false }
                );
            }
            assert_eq!(res.rate, x.rho);
            assert_eq!(r.rate(f, RateBasis::Reserved), Ok(x.rho));
            assert_eq!(r.rate(f, RateBasis::Current), Ok(cur.rate));
            // The current share never falls below rho (Eq. 1 re-checked at every registration).
            assert!(
                cur.rate >= x.rho,
                "g {} below rho {} for flow {f}",
                cur.rate,
                x.rho
            );
            if self.discipline == Discipline::Scfq {
                // No closing flows: the fair queue's total weight is the registry's. At
                // GS_BE_EQUAL every free slot counts as a BE user of the smallest GS weight, up
                // to the most weight Eq. 1 admits.
                let total = if self.kind == Kind::GsBeEqual {
                    let free = u128::from(self.max_flows) - self.reg_count() as u128;
                    let be = free * u128::from(self.smallest_gs_weight());
                    (w + be).min(u128::from(max_w)).max(w)
                } else {
                    w
                };
                let g = wide(self.capacity) * u128::from(x.weight) / total;
                assert_eq!(wide(cur.rate), g.min(u128::from(u64::MAX)), "current g");
            }
            let mut others: Work = self
                .regs
                .iter()
                .enumerate()
                .filter(|(g, _)| *g != usize::from(f))
                .filter_map(|(_, r)| r.filter(|r| !r.is_temporary()))
                .map(|r| largest_gs(&r, self.max_task))
                .fold(Work::ZERO, Work::saturating_add);
            if self.kind == Kind::GsBeEqual {
                // A maximal BE task for every temporary user that can be present at once: the
                // slots not held by a GS user, no more than Eq. 1 admits.
                let free = (usize::from(self.max_flows) - self.gs_count()) as u64;
                let gs = || self.regs.iter().flatten().filter(|r| !r.is_temporary());
                let max_w = gs()
                    .map(|r| wide(self.capacity) * u128::from(r.weight) / wide(r.rho))
                    .min()
                    .map_or(u64::MAX, |w| u64::try_from(w).unwrap_or(u64::MAX));
                let gs_w: u64 = gs().map(|r| u64::from(r.weight)).sum();
                let smallest = gs().map(|r| r.weight).min().unwrap_or(1).max(1);
                let room = max_w.saturating_sub(gs_w) / u64::from(smallest);
                let slots = free.min(room);
                others = others.saturating_add(self.max_task.saturating_mul(slots));
            }
            assert_eq!(
                cur.others_imax, others,
                "SCFQ's others' maxima, current basis"
            );
            assert!(res.others_imax >= cur.others_imax);
            // A bound on the reserved rate holds for the registration's life: it is never below
            // today's.
            if let (Ok(a), Ok(b)) = (res.at_resource(), cur.at_resource()) {
                assert!(
                    a >= b,
                    "reserved bound {a} below current bound {b} for flow {f}"
                );
            }
        }
    }

    fn check_admitted(&mut self, r: &R, flow: FlowId, new: Registration) {
        let f = usize::from(flow);
        assert!(f < FLOWS, "flow id {flow} out of range");
        assert!(self.regs[f].is_none(), "flow {flow} handed out twice");
        if self.discipline == Discipline::Scfq {
            assert_eq!(
                Some(f),
                self.first_free_slot(),
                "SCFQ: not the first free slot"
            );
        }
        assert!(self.fair[f].is_empty());
        // A slot handed out again was released.
        self.closing[f] = false;
        self.regs[f] = Some(new);
        assert_eq!(r.registry().get(flow), Some(&new));
    }

    /// Slots that may still be held by a closing WFQ flow (deregistered, or a finished BE task's
    /// temporary user, whose GPS work is not done yet).
    fn maybe_closing(&self) -> usize {
        self.closing.iter().filter(|c| **c).count()
    }

    /// Checks the outcome of an admission (`register`, or a BE task's temporary user at
    /// GS_BE_EQUAL). Exact when no flow may be closing (always under SCFQ); otherwise closing
    /// flows may add weight (`RateExceedsShare`) and hold slots (`Full`) the model cannot see.
    fn check_admission(&self, new: &Registration, got: Result<(), Error>) {
        let want = (|| {
            if self.reg_count() >= usize::from(self.max_flows) {
                return Err(Error::Full);
            }
            new.validate()?;
            if new.imax > self.max_task {
                return Err(Error::TaskTooLarge);
            }
            if !self.eq1_holds_with(new) {
                return Err(Error::RateExceedsShare);
            }
            Ok(())
        })();
        if got == want {
            return;
        }
        let closing = self.maybe_closing();
        let full_possible =
            closing > 0 && self.reg_count() + closing >= usize::from(self.max_flows);
        let excused = match got {
            Err(Error::Full) => full_possible,
            Err(Error::RateExceedsShare) => closing > 0 && want.is_ok(),
            _ => false,
        };
        assert!(
            excused,
            "admission of {new:?}: got {got:?}, expected {want:?} ({closing} flows may be closing)"
        );
    }

    fn register(&mut self, r: &mut R, new: Registration) {
        let got = r.register(new);
        if self.kind == Kind::Be {
            return assert_eq!(got, Err(Error::WrongClass));
        }
        if new.rho == Mips::ZERO {
            return assert_eq!(got, Err(Error::InvalidParameter(Param::Rate)));
        }
        // The entries it sets aside must be free and not set aside already.
        if usize::from(new.entries) > self.be_room() {
            return assert_eq!(got, Err(Error::Full), "register {new:?}");
        }
        self.check_admission(&new, got.map(|_| ()));
        if let Ok(flow) = got {
            self.check_admitted(r, flow, new);
        }
    }

    fn deregister(&mut self, r: &mut R, flow: FlowId) {
        let got = r.deregister(flow);
        let f = usize::from(flow);
        let Some(reg) = self.gs(flow) else {
            return assert_eq!(got, Err(Error::Unknown));
        };
        let busy = self.running.iter().flatten().any(|c| c.flow == Some(flow));
        if busy || !self.fair[f].is_empty() {
            return assert_eq!(got, Err(Error::Busy));
        }
        assert_eq!(got, Ok(reg));
        self.regs[f] = None;
        self.closing[f] = self.discipline == Discipline::Wfq;
    }

    fn submit_gs(&mut self, r: &mut R, flow: FlowId, work: Work) {
        let task = self.new_task(work);
        let got = r.submit_gs(self.now, flow, task);
        let refused = |got: Result<(), Refused<Task>>, reason| {
            assert_eq!(got, Err(Refused { reason, item: task }), "submit_gs");
        };
        if self.kind == Kind::Be {
            return refused(got, Error::WrongClass);
        }
        let Some(reg) = self.gs(flow) else {
            return refused(got, Error::Unknown);
        };
        // Eq. 4 whatever the knowledge (the resource sees the work); a registration admitting
        // larger tasks takes them up to I_r^max.
        if work > largest_gs(&reg, self.max_task) {
            return refused(got, Error::TaskTooLarge);
        }
        if work == Work::ZERO {
            return refused(got, Error::InvalidParameter(Param::Work));
        }
        // Within its user's reservation a GS task always finds an entry, whatever BE holds;
        // beyond it, it takes one from the room BE may use too.
        let within = self.fair[usize::from(flow)].len() < usize::from(reg.entries);
        if within {
            assert!(
                self.room() > 0,
                "no entry for a GS task within its reservation"
            );
        } else if self.be_room() == 0 {
            return refused(got, Error::Full);
        }
        match got {
            Ok(()) => {
                self.fair[usize::from(flow)].push_back((task, Class::Gs));
                self.fate.insert(task.id, Fate::Queued);
            }
            // The tag would be more than MAX_SPAN ahead of the virtual clock (possible when the
            // caller completes tasks long before GPS would have served them).
            Err(Refused {
                reason: Error::Overflow,
                item,
            }) => assert_eq!(item, task),
            Err(e) => panic!("submit_gs({flow}, {work}) refused: {e:?}"),
        }
    }

    fn submit_be(&mut self, r: &mut R, work: Work) {
        let task = self.new_task(work);
        let got = r.submit_be(self.now, task);
        let refused = |got: Result<(), Refused<Task>>, reason| {
            assert_eq!(got, Err(Refused { reason, item: task }), "submit_be");
        };
        if work == Work::ZERO {
            return refused(got, Error::InvalidParameter(Param::Work));
        }
        // Sec. 3.4: only a resource that also serves GS limits a BE task to I_r^max.
        let limit = if self.kind == Kind::Be {
            MAX_TASK_WORK
        } else {
            self.max_task
        };
        if work > limit {
            return refused(got, Error::TaskTooLarge);
        }
        match self.kind {
            Kind::Gs => refused(got, Error::WrongClass),
            Kind::GsBeEqual => {
                if self.be_room() == 0 {
                    return refused(got, Error::Full);
                }
                let temp = Registration::temporary(self.smallest_gs_weight(), work);
                if let Err(Refused { reason, item }) = got {
                    assert_eq!(item, task, "submit_be hands back the task");
                    return self.check_admission(&temp, Err(reason));
                }
                self.check_admission(&temp, Ok(()));
                let added: Vec<FlowId> = r
                    .registry()
                    .iter()
                    .map(|(f, _)| f)
                    .filter(|f| self.regs[usize::from(*f)].is_none())
                    .collect();
                assert_eq!(added.len(), 1, "one temporary user per BE task");
                self.check_admitted(r, added[0], temp);
                self.fair[usize::from(added[0])].push_back((task, Class::Be));
                self.fate.insert(task.id, Fate::Queued);
            }
            Kind::Be | Kind::GsBePriority { .. } => {
                if self.be_room() == 0 {
                    return refused(got, Error::Full);
                }
                assert_eq!(got, Ok(()), "submit_be({work})");
                self.be.push_back(task);
                self.fate.insert(task.id, Fate::Queued);
            }
        }
    }

    /// Entries a new task may take: `QUEUE` is shared by all waiting tasks, and a preemptive
    /// resource keeps one entry per running BE task for its pause.
    fn room(&self) -> usize {
        let reserved = match self.kind {
            Kind::GsBePriority { preemptive: true } => self
                .running
                .iter()
                .flatten()
                .filter(|c| c.class == Class::Be)
                .count(),
            _ => 0,
        };
        QUEUE.saturating_sub(self.fair_len() + self.be.len() + reserved)
    }

    /// Entries set aside for GS users and not in use: for each, its `entries` less its waiting
    /// tasks, when positive.
    fn reserve_left(&self) -> usize {
        self.regs
            .iter()
            .enumerate()
            .filter_map(|(f, r)| r.filter(|r| !r.is_temporary()).map(|r| (f, r.entries)))
            .map(|(f, e)| usize::from(e).saturating_sub(self.fair[f].len()))
            .sum()
    }

    /// Entries a BE task (or a GS task beyond its user's reservation) may take.
    fn be_room(&self) -> usize {
        self.room().saturating_sub(self.reserve_left())
    }

    fn decide(&mut self, r: &mut R) -> bool {
        let now = self.now;
        let got = r
            .next_decision(now)
            .expect("next_decision at a monotone clock");
        if let Some(cpu) = self.free_cpu() {
            let (task, class, flow) = if self.fair_len() > 0 {
                let Some(Decision::Start {
                    task, class, flow, ..
                }) = got
                else {
                    panic!("free CPU {cpu} and fair-queued tasks, got {got:?}");
                };
                let f = usize::from(flow.expect("a fair-queued task has a flow"));
                let head = self.fair[f].pop_front();
                assert_eq!(head, Some((task, class)), "flow {f} out of FIFO order");
                (task, class, flow)
            } else if let Some(task) = self.be.pop_front() {
                assert!(
                    matches!(got, Some(Decision::Start { task: t, .. }) if t == task),
                    "BE FIFO: expected {task:?} to start, got {got:?}"
                );
                (task, Class::Be, None)
            } else {
                assert_eq!(got, None, "nothing queued");
                return false;
            };
            if class == Class::Be && matches!(self.kind, Kind::GsBePriority { .. }) {
                assert_eq!(self.fair_len(), 0, "BE started while GS tasks wait");
            }
            // Exact service: a task started at the tick its CPU's last task ended goes on in that
            // tick. Never later than its own run time rounded up, and less than a tick earlier.
            let (ended, unused) = self.ended[cpu];
            let lead = if ended == now { unused } else { 0 };
            assert!(lead < self.mips[cpu].get(), "a lead of a tick or more");
            let (finish, over) = exact_end(now, task.work, self.mips[cpu], lead);
            let rounded =
                exec_ticks(task.work, self.mips[cpu]).map_or(Ticks::MAX, |d| now.saturating_add(d));
            assert!(
                finish <= rounded,
                "exact service ends later than rounded service"
            );
            if lead == 0 {
                assert_eq!(
                    finish, rounded,
                    "a task after an idle tick is rounded alone"
                );
            } else {
                assert!(finish.saturating_add(Ticks::new(1)) >= rounded);
            }
            let want = Decision::Start {
                cpu: cpu as u16,
                task,
                class,
                flow,
                finish,
            };
            assert_eq!(got, Some(want), "start");
            assert!(self.running[cpu].is_none(), "start on a busy CPU");
            self.running[cpu] = Some(Run {
                task,
                class,
                flow,
                started: now,
                lead,
                finish,
                over,
            });
            self.cursor = (cpu + 1) % self.mips.len();
            assert_eq!(self.fate.insert(task.id, Fate::Running), Some(Fate::Queued));
            return true;
        }
        if self.kind == (Kind::GsBePriority { preemptive: true }) && self.fair_len() > 0 {
            let n = self.mips.len();
            let victim = (0..n)
                .map(|k| (self.cursor + k) % n)
                .find(|&i| self.running[i].is_some_and(|c| c.class == Class::Be));
            if let Some(cpu) = victim {
                let run = self.running[cpu].take().unwrap();
                // What it did: the ticks since its start at the CPU's speed, and its lead.
                let ran = u128::from(self.mips[cpu].get())
                    * u128::from(now.saturating_sub(run.started).get())
                    + u128::from(run.lead);
                let done = Work::new(
                    u64::try_from(ran / u128::from(TICKS_PER_SECOND)).unwrap_or(u64::MAX),
                );
                // Paused at the tick: nothing of it is left over.
                self.ended[cpu] = (now, 0);
                let left = run.task.work.saturating_sub(done).max(Work::new(1));
                let Some(Decision::Preempt { cpu: c, task }) = got else {
                    panic!(
                        "GS waiting and BE running on CPU {cpu}: expected a preemption, got {got:?}"
                    );
                };
                assert_eq!(usize::from(c), cpu, "preempted the wrong CPU");
                assert_eq!(task.id, run.task.id);
                assert!(
                    task.work >= Work::new(1) && task.work <= run.task.work,
                    "paused work {task:?}"
                );
                assert_eq!(task.work, left, "paused work is not what is left");
                self.be.push_front(task);
                assert_eq!(self.fate.insert(task.id, Fate::Queued), Some(Fate::Running));
                return true;
            }
        }
        assert_eq!(got, None, "no free CPU and nothing to preempt");
        false
    }

    fn drain(&mut self, r: &mut R) {
        let mut steps = 0;
        while self.decide(r) {
            steps += 1;
            assert!(
                steps <= 4 * QUEUE + CPUS,
                "next_decision never answered None"
            );
        }
        // Work conservation: a free CPU means nothing is queued.
        if self.free_cpu().is_some() {
            assert_eq!(
                self.fair_len() + self.be.len(),
                0,
                "free CPU while tasks wait"
            );
        }
        if self.kind == (Kind::GsBePriority { preemptive: true }) && self.fair_len() > 0 {
            assert!(
                self.running.iter().flatten().all(|c| c.class == Class::Gs),
                "GS task waits while a CPU runs a BE task"
            );
        }
    }

    fn complete(&mut self, r: &mut R, cpu: u16) {
        let got = r.complete(self.now, cpu);
        let Some(slot) = self.running.get_mut(usize::from(cpu)) else {
            return assert_eq!(got, Err(Error::Unknown));
        };
        let Some(run) = slot.take() else {
            return assert_eq!(got, Err(Error::Idle));
        };
        // Completed at its end: the rest of the tick goes to the next task; later: nothing.
        let unused = if self.now == run.finish { run.over } else { 0 };
        self.ended[usize::from(cpu)] = (self.now, unused);
        let want = Completion {
            cpu,
            task: run.task,
            class: run.class,
            flow: run.flow,
            started: run.started,
        };
        assert_eq!(got, Ok(want));
        assert_eq!(
            self.fate.insert(run.task.id, Fate::Completed),
            Some(Fate::Running)
        );
        if let (Class::Be, Some(f)) = (run.class, run.flow) {
            let reg = self.regs[usize::from(f)].take();
            assert!(
                reg.is_some_and(|r| r.is_temporary()),
                "BE task on a GS flow"
            );
            self.closing[usize::from(f)] = self.discipline == Discipline::Wfq;
        }
    }
}

fn registration(
    weight: u16,
    rho: u64,
    sigma: u64,
    imax: u64,
    knowledge: Knowledge,
    admit: bool,
    entries: u8,
) -> Registration {
    Registration {
        weight,
        rho: Mips::new(rho),
        sigma: Work::new(sigma),
        imax: Work::new(imax),
        knowledge,
        oversize: if admit {
            Oversize::Admit
        } else {
            Oversize::Refuse
        },
        // Mostly none, and now and then more than the whole queue.
        entries: u16::from(entries) % (QUEUE as u16 + 2),
    }
}

fn run(input: Input) {
    let kind = input.kind.get();
    let discipline = input.discipline.get();
    let mut cpus: Vec<Mips> = input.cpus.iter().map(|c| c.mips()).collect();
    let (mut max_task, mut max_flows) = (input.max_task.work(), input.max_flows.get());
    let built = R::new(kind, discipline, &cpus, max_task, max_flows);
    let sum = cpus.iter().try_fold(Mips::ZERO, |s, &c| s.checked_add(c));
    let bad = if cpus.is_empty() || cpus.len() > CPUS || cpus.contains(&Mips::ZERO) || sum.is_none()
    {
        Some(Param::Capacity)
    } else if max_task == Work::ZERO || max_task > MAX_TASK_WORK {
        Some(Param::MaxWork)
    } else if max_flows == 0 || usize::from(max_flows) > FLOWS {
        Some(Param::Flows)
    } else {
        None
    };
    // The fair queue's clock takes a total capacity up to MAX_CAPACITY.
    let too_fast = sum.is_some_and(|c| c > MAX_CAPACITY);
    let bad = bad.or(too_fast.then_some(Param::Capacity));
    let mut r = match (built, bad) {
        (Ok(r), None) => r,
        (Err(e), Some(p)) => {
            assert!(
                e == Error::InvalidParameter(p)
                    || (too_fast && e == Error::InvalidParameter(Param::Capacity)),
                "Resource::new: {e:?}, expected {p:?}"
            );
            if !input.repair {
                return;
            }
            cpus.truncate(CPUS);
            if cpus.is_empty() {
                cpus.push(Mips::new(1));
            }
            for c in &mut cpus {
                *c = Mips::new(c.get().clamp(1, MAX_CAPACITY.get() / CPUS as u64));
            }
            max_task = Work::new(1 + max_task.get().saturating_sub(1) % MAX_TASK_WORK.get());
            max_flows = 1 + max_flows.saturating_sub(1) % FLOWS as u16;
            R::new(kind, discipline, &cpus, max_task, max_flows).expect("repaired parameters")
        }
        (got, want) => panic!(
            "Resource::new: got {:?}, expected {want:?}",
            got.map(|_| ())
        ),
    };
    let n = cpus.len();
    let mut m = Model {
        kind,
        discipline,
        capacity: Mips::new(cpus.iter().map(|c| c.get()).sum()),
        mips: cpus,
        running: vec![None; n],
        ended: vec![(Ticks::ZERO, 0); n],
        cursor: 0,
        max_task,
        max_flows,
        regs: [None; FLOWS],
        fair: Default::default(),
        be: VecDeque::new(),
        fate: HashMap::new(),
        next_id: 0,
        now: Ticks::ZERO,
        closing: [false; FLOWS],
    };
    m.invariants(&r);
    for op in input.ops {
        match op {
            Op::Advance(dt) => m.now = m.now.saturating_add(dt.ticks()),
            Op::Register {
                weight,
                rho,
                sigma,
                imax,
                knowledge,
                admit,
                entries,
            } => {
                let reg = registration(
                    weight.get(),
                    rho.get(),
                    sigma.get(),
                    imax.get(),
                    knowledge.get(),
                    admit,
                    entries,
                );
                m.register(&mut r, reg);
            }
            Op::RegisterFit {
                weight,
                shift,
                imax,
                burst,
                knowledge,
                admit,
                entries,
            } => {
                let w = weight.get().max(1);
                let share = wide(m.capacity) * u128::from(w) / (m.reg_weight() + u128::from(w));
                let rho = u64::try_from(share >> (shift % 8))
                    .unwrap_or(u64::MAX)
                    .max(1);
                let imax = 1 + imax % m.max_task.get();
                let sigma = imax.saturating_mul(1 + u64::from(burst % 8));
                m.register(
                    &mut r,
                    registration(w, rho, sigma, imax, knowledge.get(), admit, entries),
                );
            }
            Op::Deregister(f) => m.deregister(&mut r, flow_id(f)),
            Op::SubmitGs { flow, work } => m.submit_gs(&mut r, flow_id(flow), work.work()),
            Op::SubmitGsFit { flow, work } => {
                let flow = flow_id(flow);
                let imax = m.gs(flow).map_or(1, |g| g.imax.get());
                m.submit_gs(&mut r, flow, Work::new(1 + work % imax));
            }
            Op::SubmitBe(work) => m.submit_be(&mut r, work.work()),
            Op::SubmitBeFit(work) => m.submit_be(&mut r, Work::new(1 + work % m.max_task.get())),
            Op::Decide => {
                m.decide(&mut r);
            }
            Op::Drain => m.drain(&mut r),
            Op::Complete(cpu) => m.complete(&mut r, u16::from(cpu % (CPUS as u8 + 1))),
            Op::CompleteNext => {
                if let Some((cpu, finish)) = r.next_finish() {
                    m.now = m.now.max(finish);
                    m.complete(&mut r, cpu);
                }
            }
        }
        m.invariants(&r);
    }
    // Run everything to the end: every task submitted ends completed or refused.
    for _ in 0..(4 * QUEUE + 2 * CPUS) {
        m.drain(&mut r);
        let Some((cpu, finish)) = r.next_finish() else {
            break;
        };
        m.now = m.now.max(finish);
        m.complete(&mut r, cpu);
        m.invariants(&r);
    }
    m.drain(&mut r);
    assert_eq!(
        r.counts(),
        Counts::default(),
        "tasks left after running to the end"
    );
    assert!(
        m.fate
            .values()
            .all(|f| matches!(f, Fate::Completed | Fate::Refused)),
        "a task neither completed nor refused"
    );
    assert_eq!(m.fate.len() as u32, m.next_id);
}

fuzz_target!(|input: Input| run(input));
