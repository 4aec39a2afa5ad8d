//! Delay bounds: arbitrary `BoundSpec`s never panic, bounds are never below the paper's exact
//! (real-valued) Eq. 5 / 9 / 10 / Table 1 value, are monotone in every parameter, exist exactly
//! when the user neither submits aggressively nor admits tasks above its `I_max`, and
//! `end_to_end` / `chain` / `meets_deadline` agree with 128-bit references.
//! See `fuzz/README.md` for the list of invariants.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use common::{D, K, Num, Num16};
use libfuzzer_sys::fuzz_target;
use qosgate_kernel::bound::{BoundSpec, Pipelining, chain, end_to_end, meets_deadline};
use qosgate_kernel::bucket::{Knowledge, Oversize};
use qosgate_kernel::fairq::Discipline;
use qosgate_kernel::units::{Mips, TICKS_PER_SECOND, Ticks, Work};
use qosgate_kernel::{Error, Param};

#[derive(Arbitrary, Debug, Clone, Copy)]
struct Spec {
    discipline: D,
    sigma: Num,
    imax: Num,
    knowledge: K,
    /// The registration admits tasks above `imax` (then it has no bound).
    admit: bool,
    rate: Num,
    cpu: Num,
    cpus: Num16,
    capacity: Num,
    resource_imax: Num,
    others_imax: Num,
    residual: bool,
    /// Make the spec consistent (capacity = cpus x cpu) instead of taking both raw.
    uniform: bool,
}

impl Spec {
    fn get(self) -> BoundSpec {
        let cpus = self.cpus.get();
        let cpu = self.cpu.get();
        let capacity = if self.uniform {
            cpu.saturating_mul(u64::from(cpus))
        } else {
            self.capacity.get()
        };
        BoundSpec {
            discipline: self.discipline.get(),
            sigma: self.sigma.work(),
            imax: self.imax.work(),
            knowledge: self.knowledge.get(),
            oversize: if self.admit {
                Oversize::Admit
            } else {
                Oversize::Refuse
            },
            rate: self.rate.mips(),
            cpu: Mips::new(cpu),
            cpus,
            capacity: Mips::new(capacity),
            resource_imax: self.resource_imax.work(),
            others_imax: self.others_imax.work(),
            residual: self.residual,
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Input {
    spec: Spec,
    /// Amount by which the monotonicity checks make the spec worse.
    delta: Num,
    hops: Vec<Spec>,
    withhold: Num,
    transfer: Num,
    deadline: Num,
}

const MAX: u128 = u64::MAX as u128;
const M: u128 = TICKS_PER_SECOND as u128;

/// `t` as a 128-bit number of ticks, for the references.
fn wide(t: Ticks) -> u128 {
    u128::from(t.get())
}

/// A reference result in ticks, or `Overflow` beyond the kernel's clock.
fn ticks(t: u128) -> Result<Ticks, Error> {
    u64::try_from(t)
        .map(Ticks::new)
        .map_err(|_| Error::Overflow)
}

/// Every rate and capacity of `s` is positive, and it has a CPU.
fn has_capacity(s: &BoundSpec) -> bool {
    s.rate > Mips::ZERO && s.cpu > Mips::ZERO && s.cpus > 0 && s.capacity > Mips::ZERO
}

/// The user may have a bound at all: it does not submit aggressively, and its registration
/// refuses tasks above its `I_max` (bound.rs, "The guarantee, precisely").
fn bounded(s: &BoundSpec) -> bool {
    s.knowledge != Knowledge::Aggressive && s.oversize == Oversize::Refuse
}

fn window(s: &BoundSpec) -> u128 {
    match s.knowledge {
        Knowledge::Window(n) => u128::from(n),
        _ => 0,
    }
}

/// The blocking work the paper's latency divides by the CPU speed (WFQ: `I_r`; SCFQ: the others'
/// maxima; plus `I_r` for a non-preemptive BE residual).
fn blocking(s: &BoundSpec) -> u128 {
    let b = match s.discipline {
        Discipline::Wfq => s.resource_imax,
        Discipline::Scfq => s.others_imax,
    };
    u128::from(b.get())
        + if s.residual {
            u128::from(s.resource_imax.get())
        } else {
            0
        }
}

/// The paper's latency, every term floored: never above the exact real value, so never above a
/// sound bound. `rate` and `cpu` must be non-zero.
fn latency_floor(s: &BoundSpec) -> u128 {
    (window(s) + 1) * u128::from(s.imax.get()) * M / u128::from(s.rate.get())
        + blocking(s) * M / u128::from(s.cpu.get())
}

/// A generous bound on every intermediate the kernel may form, in MI: if this times 10^6 fits
/// comfortably in a u64, no overflow is excusable.
fn magnitude(s: &BoundSpec) -> u128 {
    u128::from(s.sigma.get())
        + (window(s) + 1) * u128::from(s.imax.get())
        + (u128::from(s.cpus) + 2) * u128::from(s.resource_imax.get())
        + u128::from(s.others_imax.get())
}

/// Checks one spec on its own and returns its bound.
fn check_spec(s: &BoundSpec) -> Result<Ticks, Error> {
    let (b, l, a) = (s.burst(), s.latency(), s.at_resource());
    // The burst term is exactly sigma / g, rounded up.
    let exact_burst = if s.rate == Mips::ZERO {
        Err(Error::InvalidParameter(Param::Rate))
    } else {
        u64::try_from((u128::from(s.sigma.get()) * M).div_ceil(u128::from(s.rate.get())))
            .map(Ticks::new)
            .map_err(|_| Error::Overflow)
    };
    assert_eq!(b, exact_burst, "burst of {s:?}");
    // at_resource = burst + latency.
    let sum = b.and_then(|b| l.and_then(|l| b.checked_add(l).ok_or(Error::Overflow)));
    assert_eq!(a, sum, "at_resource is not burst + latency: {s:?}");
    // Errors are typed and justified.
    for r in [l, a] {
        match r {
            Ok(_) => {
                assert!(
                    bounded(s),
                    "a bound for aggressive submission or oversized tasks: {s:?}"
                );
                assert!(has_capacity(s));
            }
            Err(Error::NoBound) => assert!(!bounded(s), "{s:?}"),
            Err(Error::InvalidParameter(Param::Rate)) => assert_eq!(s.rate, Mips::ZERO, "{s:?}"),
            Err(Error::InvalidParameter(Param::Capacity)) => {
                assert!(
                    s.cpu == Mips::ZERO || s.cpus == 0 || s.capacity == Mips::ZERO,
                    "{s:?}"
                )
            }
            Err(Error::Overflow) => {}
            Err(e) => panic!("unexpected error {e:?} for {s:?}"),
        }
    }
    if !bounded(s) {
        assert!(l.is_err());
        // With a CPU, the missing bound is reported as such.
        if s.cpu > Mips::ZERO && s.cpus > 0 && s.capacity > Mips::ZERO {
            assert_eq!(l, Err(Error::NoBound), "{s:?}");
        }
    }
    let valid = bounded(s) && has_capacity(s);
    if valid && magnitude(s) * M <= MAX / 4 {
        assert!(
            l.is_ok() && a.is_ok(),
            "spurious {a:?} on small inputs: {s:?}"
        );
    }
    if let (Ok(l), Ok(x)) = (l, a) {
        let floor = latency_floor(s);
        assert!(
            u128::from(l.get()) >= floor,
            "latency {l} below the paper's {floor}: {s:?}"
        );
        assert!(x >= b.unwrap() && x >= l);
        // On one CPU of the resource's whole capacity, with g <= C, the bound is the paper's
        // (Eq. 5 / 9 / Table 1) up to rounding: one tick per rounded term.
        if s.cpus == 1 && s.capacity == s.cpu && s.rate <= s.cpu {
            assert!(
                u128::from(l.get()) <= floor + 4,
                "single-CPU latency {l} far above {floor}: {s:?}"
            );
        }
    }
    // The modes without a window share one bound.
    if !matches!(s.knowledge, Knowledge::Window(_) | Knowledge::Aggressive) {
        for k in [
            Knowledge::Exact,
            Knowledge::Conservative,
            Knowledge::ConservativeFeedback,
        ] {
            assert_eq!(BoundSpec { knowledge: k, ..*s }.at_resource(), a);
        }
    }
    a
}

/// `worse` never has a smaller bound than `s` (when both have one), and a valid spec made worse
/// only loses its bound to overflow.
fn monotone(s: &BoundSpec, base: Result<Ticks, Error>, worse: BoundSpec, what: &str) {
    let w = check_spec(&worse);
    if let (Ok(a), Ok(b)) = (base, w) {
        assert!(
            b >= a,
            "{what}: bound fell from {a} to {b} ({s:?} -> {worse:?})"
        );
    }
    if base.is_ok() {
        assert!(matches!(w, Ok(_) | Err(Error::Overflow)), "{what}: {w:?}");
    }
}

fn run(input: Input) {
    let s = input.spec.get();
    let a = check_spec(&s);
    let d = input.delta.get();
    let d16 = u16::try_from(d).unwrap_or(u16::MAX);
    let dw = Work::new(d);
    if let Some(sigma) = s.sigma.checked_add(dw) {
        monotone(&s, a, BoundSpec { sigma, ..s }, "sigma up");
    }
    if let Some(imax) = s.imax.checked_add(dw) {
        monotone(&s, a, BoundSpec { imax, ..s }, "imax up");
    }
    if let Some(ri) = s.resource_imax.checked_add(dw) {
        monotone(
            &s,
            a,
            BoundSpec {
                resource_imax: ri,
                ..s
            },
            "resource imax up",
        );
    }
    if let Some(oi) = s.others_imax.checked_add(dw) {
        monotone(
            &s,
            a,
            BoundSpec {
                others_imax: oi,
                ..s
            },
            "others imax up",
        );
    }
    let down = |x: Mips| Mips::new((x.get() - x.get().min(d)).max(1));
    if s.rate.get() > 1 {
        monotone(
            &s,
            a,
            BoundSpec {
                rate: down(s.rate),
                ..s
            },
            "rate down",
        );
    }
    if s.cpu.get() > 1 {
        monotone(
            &s,
            a,
            BoundSpec {
                cpu: down(s.cpu),
                ..s
            },
            "cpu down",
        );
    }
    if s.capacity.get() > 1 {
        monotone(
            &s,
            a,
            BoundSpec {
                capacity: down(s.capacity),
                ..s
            },
            "capacity down",
        );
    }
    if s.cpus >= 1 {
        let cpus = s.cpus.saturating_add(d16);
        monotone(
            &s,
            a,
            BoundSpec { cpus, ..s },
            "more CPUs of the same total",
        );
    }
    monotone(
        &s,
        a,
        BoundSpec {
            residual: true,
            ..s
        },
        "residual",
    );
    // Admitting tasks above I_max takes the bound away, whatever else the spec says.
    let admitting = BoundSpec {
        oversize: Oversize::Admit,
        ..s
    };
    assert!(
        check_spec(&admitting).is_err(),
        "a bound with oversized tasks"
    );
    match s.knowledge {
        Knowledge::Window(n) => {
            let knowledge = Knowledge::Window(n.saturating_add(d16));
            monotone(&s, a, BoundSpec { knowledge, ..s }, "window up");
        }
        Knowledge::Aggressive => assert!(a.is_err()),
        _ if s.oversize == Oversize::Admit => assert!(a.is_err()),
        _ => {
            let knowledge = Knowledge::Window(d16);
            monotone(&s, a, BoundSpec { knowledge, ..s }, "exact to window");
        }
    }

    // End to end (Eq. 6) and its pipelined form.
    let (wh, tr) = (input.withhold.ticks(), input.transfer.ticks());
    let at = a.unwrap_or(input.deadline.ticks());
    let seq = end_to_end(at, wh, tr, Pipelining::Sequential);
    let pip = end_to_end(at, wh, tr, Pipelining::Pipelined);
    let exact = wide(at) + wide(wh) + wide(tr);
    assert_eq!(seq, ticks(exact));
    let exact_p = wide(at) + wide(wh.max(tr));
    assert_eq!(pip, ticks(exact_p));
    if let Ok(x) = seq {
        assert!(pip.unwrap() <= x);
    }

    // Eq. 7.
    let dl = input.deadline.ticks();
    for b in [at, seq.unwrap_or(Ticks::ZERO)] {
        let want = if b <= dl {
            Ok(())
        } else {
            Err(Error::DeadlineUnmet)
        };
        assert_eq!(meets_deadline(b, dl), want);
    }

    // Eq. 11.
    let hops: Vec<BoundSpec> = input.hops.iter().take(8).map(|h| h.get()).collect();
    let c = chain(&hops, wh, tr);
    if hops.is_empty() {
        assert_eq!(c, Err(Error::InvalidParameter(Param::Rate)));
        return;
    }
    for h in &hops {
        let _ = check_spec(h);
    }
    if hops.len() == 1 {
        let want = hops[0].at_resource().and_then(|b| {
            b.checked_add(wh)
                .and_then(|x| x.checked_add(tr))
                .ok_or(Error::Overflow)
        });
        assert_eq!(c, want, "a chain of one hop is its bound plus T and d");
    }
    // Reference: the burst once at the slowest rate, every hop's latency, T and d.
    let min_rate = hops.iter().map(|h| h.rate).min().unwrap();
    let max_sigma = hops.iter().map(|h| h.sigma).max().unwrap();
    let expect = (|| {
        if min_rate == Mips::ZERO {
            return Err(Error::InvalidParameter(Param::Rate));
        }
        let mut total = (u128::from(max_sigma.get()) * M).div_ceil(u128::from(min_rate.get()));
        if total > MAX {
            return Err(Error::Overflow);
        }
        for h in &hops {
            total += wide(h.latency()?);
            if total > MAX {
                return Err(Error::Overflow);
            }
        }
        ticks(total + wide(wh) + wide(tr))
    })();
    assert_eq!(c, expect, "chain of {hops:?}");
    if let Ok(x) = c {
        // The burst is paid once: the chain is never below any single hop's bound.
        for h in &hops {
            let b = h
                .at_resource()
                .expect("a hop of a bounded chain has a bound");
            assert!(
                wide(x) >= wide(b) + wide(wh) + wide(tr),
                "chain {x} below a hop's bound {b}"
            );
        }
    }
}

fuzz_target!(|input: Input| run(input));
