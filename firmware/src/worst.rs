//! Worst cases per C API call (`--features worst`): for every function of `include/qosgate.h`,
//! inputs that take its loops to the limits the code states (docs/firmware.md, "Work per
//! call"), built on purpose rather than by typical load, and where the worst is not evident
//! from the code a small deterministic search over inputs that keeps the costliest call.
//!
//! Each case prints one row, `worst|call|case|instructions|stack|bound`: the most instructions
//! one call took (QEMU `-icount`, to one SysTick tick, about 80 instructions, less the
//! measurement's own overhead) and the most stack it used below the measuring frame (painted
//! before each call), in bytes. `firmware/worst.sh` runs the image on both cores, joins the rows
//! into docs/firmware.md's table and checks them against `firmware/worst-budget.txt`.

use qosgate_ffi::abi::*;
use qosgate_ffi::backfill::*;
use qosgate_ffi::bucket::*;
use qosgate_ffi::dispatch::*;
use qosgate_ffi::pap::*;
use qosgate_ffi::qg_status::*;
use qosgate_ffi::scheduler::*;
use qosgate_ffi::slots::*;
use qosgate_ffi::status::qg_status_str;
use qosgate_ffi_scenario::Storage;

use crate::bench::{
    Broken, conservative_after_completion, decision, ignore, job, ok, pap_searched, pap_worst,
};
use crate::count::Counter;
use crate::stack;

/// The costliest of a set of calls: SysTick ticks and bytes of stack, each the most any of
/// them took (not necessarily the same call).
#[derive(Clone, Copy, Default)]
struct Peak {
    ticks: u64,
    /// Below the measuring frame.
    stack: usize,
}

impl Peak {
    fn max(self, other: Peak) -> Peak {
        Peak {
            ticks: self.ticks.max(other.ticks),
            stack: self.stack.max(other.stack),
        }
    }
}

/// Measures calls and prints rows.
struct Meter<'a> {
    counter: &'a mut Counter,
    /// The calls measured since the last [`Meter::take`] or row.
    peak: Peak,
}

impl Meter<'_> {
    /// Runs one call on a freshly painted stack and adds it to the peak; returns its result.
    fn call<R>(&mut self, f: impl FnOnce() -> R) -> R {
        stack::repaint();
        let frame = stack::top() - cortex_m::register::msp::read() as usize;
        let (r, ticks) = self.counter.ticks(f);
        let (used, _) = stack::used();
        self.peak = self.peak.max(Peak {
            ticks,
            stack: used.saturating_sub(frame),
        });
        r
    }

    /// [`Meter::call`], with the call's cost added to `peak` instead (for calls measured in
    /// turns, each with a row of its own).
    fn call_into<R>(&mut self, peak: &mut Peak, f: impl FnOnce() -> R) -> R {
        let r = self.call(f);
        *peak = peak.max(self.take());
        r
    }

    /// The peak of the calls since the last take or row, and starts anew.
    fn take(&mut self) -> Peak {
        core::mem::take(&mut self.peak)
    }

    /// Prints the row of `call` under `case` (its loops' limits in `bound`) for the calls since
    /// the last take or row.
    fn row(&mut self, call: &str, case: &str, bound: &str) {
        let p = self.take();
        self.row_of(p, call, case, bound);
    }

    /// Prints the row of `call` under `case` for `peak`.
    fn row_of(&self, peak: Peak, call: &str, case: &str, bound: &str) {
        defmt::println!(
            "worst|{=str}|{=str}|{=u64}|{=usize}|{=str}",
            call,
            case,
            self.counter.instructions(peak.ticks, 1),
            peak.stack,
            bound
        );
    }
}

/// A deterministic generator (xorshift64) for the searches: the same inputs on every run and
/// core.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `0..n` (`n > 0`), up to a negligible bias.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The searches' seed.
const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// Runs every case on `storage` (re-initialised here); whether all ran.
#[inline(never)]
pub fn run(storage: &mut Storage, counter: &mut Counter) -> bool {
    let mut m = Meter {
        counter,
        peak: Peak::default(),
    };
    let result = abi(&mut m)
        .and_then(|()| scheduler(&mut storage.scheduler, &mut m))
        .and_then(|()| buckets(&mut storage.bucket, &mut m))
        .and_then(|()| dispatch(&mut storage.billiard, &mut storage.rtdp, &mut m))
        .and_then(|()| slots(&mut storage.slots, &mut m))
        .and_then(|()| backfill(&mut storage.backfill, &mut m))
        .and_then(|()| pap(&mut m));
    match result {
        Ok(()) => true,
        Err(b) => {
            defmt::error!("worst case failed: {}", b);
            false
        }
    }
}

fn abi(m: &mut Meter) -> Result<(), Broken> {
    m.call(|| qg_abi_version());
    m.row("qg_abi_version", "any", "constant");
    for kind in 0..=QG_OBJECT_ENDED + 1 {
        m.call(|| qg_sizeof(kind));
    }
    m.row(
        "qg_sizeof",
        "every object code and one past them",
        "one table look-up",
    );
    for code in -80..=2 {
        m.call(|| qg_status_str(code));
    }
    m.row(
        "qg_status_str",
        "every code from -80 to 2",
        "one match over the codes",
    );
    Ok(())
}

/// GS users the scheduler cases register (the reference configuration's flows).
const USERS: u16 = 64;

/// MIPS of each CPU of the scheduler cases.
const MIPS: u64 = 6400;

/// A GS user of weight 1 and rate `MIPS / 64`, exact knowledge, tasks up to `imax` MI.
fn user(imax: u64) -> qg_registration {
    qg_registration {
        weight: 1,
        rho: MIPS / u64::from(USERS),
        sigma: imax,
        imax,
        knowledge: QG_KNOWLEDGE_EXACT,
        window: 0,
        entries: 0,
    }
}

/// Makes `s` a scheduler of `kind` (WFQ) on `cpus` CPUs of `MIPS` each, tasks up to
/// `max_task` MI, 64 flows.
fn init(s: *mut qg_scheduler, kind: u32, cpus: usize, max_task: u64) -> Result<(), Broken> {
    init_at(s, kind, cpus, MIPS, max_task)
}

/// [`init`] with CPUs of `mips` MIPS each.
fn init_at(
    s: *mut qg_scheduler,
    kind: u32,
    cpus: usize,
    mips: u64,
    max_task: u64,
) -> Result<(), Broken> {
    let mips = [mips; 32];
    let config = qg_scheduler_config {
        kind,
        discipline: QG_DISCIPLINE_WFQ,
        cpu_mips: mips.as_ptr(),
        cpus,
        max_task,
        max_flows: USERS,
    };
    // SAFETY: `s` is the firmware's static storage; `config` and `mips` are live locals.
    ok("init", unsafe {
        qg_scheduler_init(s, size_of::<qg_scheduler>(), &config)
    })
}

/// Which scheduler call the GPS case measures.
#[derive(Clone, Copy, PartialEq)]
enum Gps {
    Next,
    SubmitGs,
    SubmitBe,
}

/// One input of the GPS search.
#[derive(Clone, Copy)]
struct GpsCase {
    /// CPUs; with 32, a preemptive resource whose CPUs all run BE tasks, CPU 30 freed (for
    /// `next`, the round-robin search for a free CPU then scans 31 CPUs).
    cpus: usize,
    /// The last user's task, MI: a small one, or the largest a resource takes.
    last: u64,
    /// The other users' tasks.
    sizes: Sizes,
    /// When the measured call comes.
    at: At,
}

/// The tasks of a GPS case's users but the last.
#[derive(Clone, Copy)]
enum Sizes {
    /// `1000 + u` MI for user `u`: GPS keys, and departures, in flow order.
    FlowOrder,
    /// `1000` to `1063` MI, drawn from this seed.
    Drawn(u64),
    /// The largest task the resource takes each, and 1 MI for the last user: its keys stay the
    /// smallest, so the task `submit_gs` queues for it before GPS has finished anything walks
    /// the GPS list from its end past every other flow.
    Largest,
    /// `1000` MI each, served (one CPU serves them all before GPS finishes any, as they share
    /// it equally) and their users deregistered: their flows close when GPS finishes them, each
    /// departure then also freeing a flow slot.
    Closing,
}

/// When a GPS case's measured call comes.
#[derive(Clone, Copy)]
enum At {
    /// At this tick.
    Tick(u64),
    /// `2^k` ticks before GPS would finish all the work queued (the last departure), so that the
    /// clock's final division has a quotient of nearly the last task's whole span.
    BeforeLast(u32),
    /// The last tick whose elapsed service (`elapsed C 2^16`) fits 64 bits: large operands in
    /// the clock's divisions (a library loop per step on the M0, whose cost varies with them).
    FullWord,
}

/// The fluid clock's worst: GS users of weight 1 each queue one task at 0 and the measured
/// call comes at `now`, when GPS has finished all of them, or all but the last with a large
/// quotient left for the clock's final division, or none ([`Sizes::Largest`]). `next` and `submit_gs` at a GS resource (one CPU) or
/// a preemptive one (32); `submit_be` at GS_BE_EQUAL with 63 users (its task takes the 64th
/// flow).
fn gps(s: *mut qg_scheduler, m: &mut Meter, call: Gps, c: GpsCase) -> Result<(), Broken> {
    let (kind, users) = match (call, c.cpus) {
        (Gps::SubmitBe, _) => (QG_KIND_GS_BE_EQUAL, USERS - 1),
        (_, 1) => (QG_KIND_GS, USERS),
        _ => (QG_KIND_GS_BE_PRIORITY_PREEMPTIVE, USERS),
    };
    init(s, kind, c.cpus, c.last)?;
    let (mut flow, mut d) = (0u16, decision());
    let mut rng = Rng(match c.sizes {
        Sizes::Drawn(seed) => seed,
        _ => SEED,
    });
    // SAFETY: `s` is the firmware's static storage; every other pointer is a live local.
    unsafe {
        if kind == QG_KIND_GS_BE_PRIORITY_PREEMPTIVE {
            for id in 0..c.cpus as u32 {
                ok("be", qg_scheduler_submit_be(s, 0, id, 1000))?;
                ok("start be", qg_scheduler_next(s, 0, &mut d))?;
            }
            ok(
                "free",
                qg_scheduler_complete(s, 0, c.cpus as u16 - 2, core::ptr::null_mut()),
            )?;
        }
        let mut queued = 0u64;
        for u in 0..users {
            ok(
                "register",
                qg_scheduler_register(s, &user(c.last), &mut flow),
            )?;
            let work = match (u + 1 == users, c.sizes) {
                (true, Sizes::Largest) => 1,
                (true, _) => c.last,
                (false, Sizes::FlowOrder) => 1000 + u64::from(u),
                (false, Sizes::Drawn(_)) => 1000 + rng.below(64),
                (false, Sizes::Largest) => c.last,
                (false, Sizes::Closing) => 1000,
            };
            ok("queue", qg_scheduler_submit_gs(s, 0, u, u32::from(u), work))?;
            queued += work;
        }
        // The instant of the last completion (`Closing`), ticks.
        let mut served = 0;
        if let Sizes::Closing = c.sizes {
            // The equal tags come first, in flow order: each starts at the previous end.
            for u in 0..users - 1 {
                ok("start", qg_scheduler_next(s, served, &mut d))?;
                served = d.finish;
                let st = qg_scheduler_complete(s, served, 0, core::ptr::null_mut());
                ok("served", st)?;
                ok("leave", qg_scheduler_deregister(s, u))?;
            }
        }
        let now = match c.at {
            At::Tick(t) => t,
            // GPS serves the total capacity while anything is backlogged: all is done at
            // `queued / C` seconds.
            At::BeforeLast(k) => {
                (queued * 1_000_000 / (MIPS * c.cpus as u64)).saturating_sub(1 << k)
            }
            At::FullWord => u64::MAX / ((MIPS * c.cpus as u64) << 16),
        }
        .max(served);
        let last = users - 1;
        let st = match call {
            Gps::Next => m.call(|| qg_scheduler_next(s, now, &mut d)),
            Gps::SubmitGs => m.call(|| qg_scheduler_submit_gs(s, now, last, 999, 1000)),
            Gps::SubmitBe => m.call(|| qg_scheduler_submit_be(s, now, 999, 1000)),
        };
        ok("measured", st)
    }
}

/// The GPS search's inputs for `call`: 1 or 32 CPUs (1 for `submit_be`), a small or the
/// largest last task, the [`Sizes`] (closing flows on one CPU only), at 2^20 to 2^60 ticks in
/// steps of 2^8 (all departures done from about 2^23 on, but the last one's with the largest
/// last task up to about 2^46, and [`Sizes::Largest`]'s up to about 2^52) and at 2^0 to 2^40
/// ticks in steps of 2^4 before the last departure, and at [`At::FullWord`].
fn gps_cases(call: Gps) -> impl Iterator<Item = GpsCase> {
    let cpus: &[usize] = if call == Gps::SubmitBe {
        &[1]
    } else {
        &[1, 32]
    };
    let ticks = (20..=60).step_by(8).map(|k| At::Tick(1 << k));
    let before = (0..=40).step_by(4).map(At::BeforeLast);
    let instants = ticks.chain(before).chain([At::FullWord]);
    cpus.iter().flat_map(move |&cpus| {
        let instants = instants.clone();
        [1000 + u64::from(USERS), MAX_TASK]
            .into_iter()
            .flat_map(move |last| {
                let instants = instants.clone();
                let sizes = [
                    Sizes::FlowOrder,
                    Sizes::Drawn(SEED),
                    Sizes::Drawn(SEED + 1),
                    Sizes::Largest,
                    Sizes::Closing,
                ];
                // Closing flows on one CPU only (the 32 CPUs run BE tasks).
                let kinds = if cpus == 1 { 5 } else { 4 };
                sizes.into_iter().take(kinds).flat_map(move |sizes| {
                    instants.clone().map(move |at| GpsCase {
                        cpus,
                        last,
                        sizes,
                        at,
                    })
                })
            })
    })
}

/// Tasks of the largest size a resource takes (`MAX_TASK_WORK`), MI.
const MAX_TASK: u64 = 1 << 39;

/// The fluid clock's wide departures: every GPS departure of the measured call costs 2^64 units
/// of service (virtual time x weight) or more, so the clock's count of the service left takes
/// its 128-bit path each time rather than its 64-bit one. Users of weight 2^16 - 1 at a
/// one-CPU resource (`submit_be`: GS_BE_EQUAL, 63 users) each queue, at time 0, tasks of at most
/// `MAX_TASK` MI that start and complete at once (a completion reported early leaves GPS its
/// work), until user `u`'s GPS work has grown by `9 * 2^45 / (users - u)` MI over user
/// `u - 1`'s: with `users - u` flows left, its departure then costs about `9 * 2^61` units
/// (2^54 MI in all, about 37,000 tasks; `next` then has one more to start). The measured call
/// comes when GPS has finished them all, or `2^k` ticks before (the last departure's quotient
/// left for the clock's division). With `closing`, every user the measured call does not need
/// deregisters first (its tasks are served, its GPS work is not): each departure then also frees
/// its flow's slot.
fn wide(
    s: *mut qg_scheduler,
    m: &mut Meter,
    call: Gps,
    before: Option<u32>,
    closing: bool,
) -> Result<(), Broken> {
    let (kind, users) = match call {
        Gps::SubmitBe => (QG_KIND_GS_BE_EQUAL, USERS - 1),
        _ => (QG_KIND_GS, USERS),
    };
    init(s, kind, 1, MAX_TASK)?;
    let heavy = qg_registration {
        weight: u16::MAX,
        ..user(MAX_TASK)
    };
    let (mut flow, mut d, mut id) = (0u16, decision(), 0u32);
    let mut total = 0u64;
    let mut work = 0u64;
    // SAFETY: `s` is the firmware's static storage; every other pointer is a live local.
    unsafe {
        for u in 0..users {
            ok("register", qg_scheduler_register(s, &heavy, &mut flow))?;
            work += (9 << 45) / u64::from(users - u);
            let mut left = work;
            while left > 0 {
                let task = left.min(MAX_TASK);
                ok("queue", qg_scheduler_submit_gs(s, 0, u, id, task))?;
                ok("start", qg_scheduler_next(s, 0, &mut d))?;
                ok(
                    "done",
                    qg_scheduler_complete(s, 0, d.cpu, core::ptr::null_mut()),
                )?;
                (left, id, total) = (left - task, id + 1, total + task);
            }
        }
        if call == Gps::Next {
            // A task for `next` to start.
            ok("queue", qg_scheduler_submit_gs(s, 0, 0, id, 1000))?;
            (id, total) = (id + 1, total + 1000);
        }
        if closing {
            // `next` starts user 0's task, `submit_gs` queues one for the last user.
            let keep = match call {
                Gps::Next => Some(0),
                Gps::SubmitGs => Some(users - 1),
                Gps::SubmitBe => None,
            };
            for u in (0..users).filter(|&u| Some(u) != keep) {
                ok("leave", qg_scheduler_deregister(s, u))?;
            }
        }
        // GPS serves the CPU's MIPS while anything is backlogged.
        let drained = total / MIPS * 1_000_000 + 1_000_000;
        let now = before.map_or(drained, |k| drained - (1 << k));
        let st = match call {
            Gps::Next => m.call(|| qg_scheduler_next(s, now, &mut d)),
            Gps::SubmitGs => m.call(|| qg_scheduler_submit_gs(s, now, users - 1, id, 1000)),
            Gps::SubmitBe => m.call(|| qg_scheduler_submit_be(s, now, id, 1000)),
        };
        ok("measured", st)
    }
}

fn scheduler(s: &mut qg_scheduler, m: &mut Meter) -> Result<(), Broken> {
    let s: *mut qg_scheduler = s;
    registrations(s, m)?;

    for (call, name, bound) in [
        (
            Gps::Next,
            "qg_scheduler_next",
            "64 GPS departures x (a 64 x 32-bit product, a step along the GPS list, a flow slot freed), 2 divisions, a scan of 32 CPUs, a dequeue",
        ),
        (
            Gps::SubmitGs,
            "qg_scheduler_submit_gs",
            "64 GPS departures x (a 64 x 32-bit product, a step along the GPS list, a flow slot freed), 2 divisions, a count of 32 CPUs, a tag, a walk of up to 63 GPS keys",
        ),
        (
            Gps::SubmitBe,
            "qg_scheduler_submit_be",
            "Eq. 1 for the tightest user, the lowest free flow slot from a map, 63 GPS departures x (a 64 x 32-bit product, a step along the GPS list, a flow slot freed), 2 divisions, a walk of up to 63 GPS keys",
        ),
    ] {
        for c in gps_cases(call) {
            gps(s, m, call, c)?;
        }
        let case = if call == Gps::SubmitBe {
            "GS_BE_EQUAL, 63 backlogged GS flows; searched: 2 last tasks x 5 task sets x 18 instants"
        } else {
            "64 backlogged flows; searched: 1 CPU (5 task sets) or 32 (4) x 2 last tasks x 18 instants"
        };
        m.row(name, case, bound);
        for closing in [false, true] {
            for before in [None, Some(40), Some(50), Some(54), Some(55)] {
                wide(s, m, call, before, closing)?;
            }
        }
        let case = if call == Gps::SubmitBe {
            "GS_BE_EQUAL, 63 GPS flows whose departures cost 2^64 units or more each, their users registered or gone (closing), at 5 instants"
        } else {
            "64 GPS flows whose departures cost 2^64 units or more each, their users registered or gone (closing), at 5 instants"
        };
        m.row(
            name,
            case,
            "as above, each departure's cost taken from the service in 128 bits",
        );
    }

    let mut p = Preemptive::default();
    for mips in [MIPS, 1 << 35] {
        for arrival in [1, 1 << 10, 1 << 17] {
            preemptive(s, m, &mut p, mips, arrival)?;
        }
    }
    let case =
        "preemptive, 32 CPUs of 6,400 or 2^35 MIPS running BE tasks, GS arrivals at 3 instants";
    m.row_of(
        p.finish,
        "qg_scheduler_next_finish",
        case,
        "a scan of 32 CPUs",
    );
    m.row_of(
        p.submit,
        "qg_scheduler_submit_gs",
        case,
        "a count of BE tasks on 32 CPUs, a tree of 64 flows",
    );
    m.row_of(
        p.pause,
        "qg_scheduler_next",
        case,
        "a scan of 32 CPUs, the work done (64-bit), a pause into the queue, a dequeue",
    );
    let mut complete = p.complete;
    equal_completions(s, m, &mut complete)?;
    m.row_of(
        complete,
        "qg_scheduler_complete",
        "preemptive, 32 CPUs, 96 completions; GS_BE_EQUAL, 32 BE tasks on temporary flows",
        "constant (a temporary flow closed at GS_BE_EQUAL: a flow slot freed)",
    );
    Ok(())
}

/// Set-ups, registrations and deregistrations at a preemptive resource of the largest capacity
/// (32 CPUs of 2^35 MIPS: `MAX_CAPACITY`), every CPU running a BE task (each registration counts
/// them, a deregistration scans them): 64 users registered, each re-checking Eq. 1 for all
/// before it (128-bit products), then the last slot freed and taken again (the search for a free
/// slot passes 63), then all deregistered, in 4 rounds: weights 1 (the largest reciprocal
/// weight, a 48-bit quotient) or drawn up to 2^16 - 1, rates drawn up to what Eq. 1 allows 64
/// users.
fn registrations(s: *mut qg_scheduler, m: &mut Meter) -> Result<(), Broken> {
    const CPU: u64 = 1 << 35;
    let mips = [CPU; 32];
    let config = qg_scheduler_config {
        kind: QG_KIND_GS_BE_PRIORITY_PREEMPTIVE,
        discipline: QG_DISCIPLINE_WFQ,
        cpu_mips: mips.as_ptr(),
        cpus: 32,
        max_task: MAX_TASK,
        max_flows: USERS,
    };
    let (mut set_up, mut register, mut deregister) = Default::default();
    let mut rng = Rng(SEED);
    let (mut flow, mut d) = (0u16, decision());
    for round in 0..4 {
        // SAFETY: `s` is the firmware's static storage; every other pointer is a live local.
        unsafe {
            let st = m.call_into(&mut set_up, || {
                qg_scheduler_init(s, size_of::<qg_scheduler>(), &config)
            });
            ok("init", st)?;
            for id in 0..32 {
                ok("be", qg_scheduler_submit_be(s, 0, id, MAX_TASK))?;
                ok("start be", qg_scheduler_next(s, 0, &mut d))?;
            }
            let users: [qg_registration; USERS as usize] = core::array::from_fn(|_| {
                let weight = if round % 2 == 0 {
                    1
                } else {
                    1 + rng.below(u64::from(u16::MAX)) as u16
                };
                // Eq. 1 for 64 users of weight up to 2^16 - 1 each: rho <= C w / (64 (2^16 - 1)).
                let share = 32 * CPU * u64::from(weight) / (u64::from(USERS) * u64::from(u16::MAX));
                let imax = 1 + rng.below(MAX_TASK);
                qg_registration {
                    weight,
                    rho: 1 + rng.below(share),
                    sigma: imax,
                    imax,
                    knowledge: round % 5,
                    window: 1,
                    entries: 0,
                }
            });
            for u in &users {
                let st = m.call_into(&mut register, || qg_scheduler_register(s, u, &mut flow));
                ok("register", st)?;
            }
            ok("free last", qg_scheduler_deregister(s, USERS - 1))?;
            let last = &users[usize::from(USERS - 1)];
            let st = m.call_into(&mut register, || qg_scheduler_register(s, last, &mut flow));
            ok("register again", st)?;
            for f in 0..USERS {
                let st = m.call_into(&mut deregister, || qg_scheduler_deregister(s, f));
                ok("deregister", st)?;
            }
        }
    }
    m.row_of(
        set_up,
        "qg_scheduler_init",
        "GS_BE_PRIORITY_PREEMPTIVE, 32 CPUs (4 rounds)",
        "32 CPU capacities checked and written; empty containers as lengths",
    );
    m.row_of(
        register,
        "qg_scheduler_register",
        "preemptive, 32 busy CPUs, 64 users, weights 1 or drawn, rates drawn (4 rounds)",
        "a count of 32 CPUs, Eq. 1 for the newcomer and the tightest user (128-bit products), the lowest free flow slot from a map",
    );
    m.row_of(
        deregister,
        "qg_scheduler_deregister",
        "preemptive, 32 busy CPUs, 64 idle users (4 rounds)",
        "a scan of 32 CPUs, a flow slot freed, the GS users summed up again (63 registrations, two 64 x 16-bit products each)",
    );
    Ok(())
}

/// GS_BE_EQUAL on 32 CPUs, 32 GS users and 32 BE tasks, each a temporary user, running: each
/// completion closes its task's flow (its costs added to `complete`).
fn equal_completions(
    s: *mut qg_scheduler,
    m: &mut Meter,
    complete: &mut Peak,
) -> Result<(), Broken> {
    init(s, QG_KIND_GS_BE_EQUAL, 32, 2000)?;
    let (mut flow, mut d) = (0u16, decision());
    // SAFETY: `s` is the firmware's static storage; every other pointer is a live local.
    unsafe {
        for _ in 0..USERS / 2 {
            ok("register", qg_scheduler_register(s, &user(1000), &mut flow))?;
        }
        for id in 0..32u32 {
            ok("be", qg_scheduler_submit_be(s, 0, id, 1000 + u64::from(id)))?;
            ok("start be", qg_scheduler_next(s, 0, &mut d))?;
        }
        for cpu in 0..32u16 {
            let st = m.call_into(complete, || {
                qg_scheduler_complete(s, 1, cpu, core::ptr::null_mut())
            });
            ok("complete", st)?;
        }
    }
    Ok(())
}

/// The peaks of [`preemptive`]'s calls.
#[derive(Default)]
struct Preemptive {
    finish: Peak,
    submit: Peak,
    pause: Peak,
    complete: Peak,
}

/// A preemptive resource of 32 CPUs of `mips` MIPS, each running a BE task of 2,000 MI, and 64
/// GS users, each sending a task at `arrival` (ticks): `next_finish` over 32 busy CPUs, the GS
/// arrivals (each counts the running BE tasks), the decisions that pause a BE task for each (a
/// scan of 32 CPUs and the work it has done), then 96 completions.
fn preemptive(
    s: *mut qg_scheduler,
    m: &mut Meter,
    p: &mut Preemptive,
    mips: u64,
    arrival: u64,
) -> Result<(), Broken> {
    init_at(s, QG_KIND_GS_BE_PRIORITY_PREEMPTIVE, 32, mips, 2000)?;
    let (mut flow, mut d) = (0u16, decision());
    let (mut cpu, mut at) = (0u16, 0u64);
    // SAFETY: `s` is the firmware's static storage; every other pointer is a live local.
    unsafe {
        for _ in 0..USERS {
            ok("register", qg_scheduler_register(s, &user(1000), &mut flow))?;
        }
        for id in 0..32u32 {
            ok("be", qg_scheduler_submit_be(s, 0, id, 2000))?;
            ok("start be", qg_scheduler_next(s, 0, &mut d))?;
        }
        let st = m.call_into(&mut p.finish, || {
            qg_scheduler_next_finish(s, &mut cpu, &mut at)
        });
        ok("next_finish", st)?;
        for u in 0..USERS {
            let id = 100 + u32::from(u);
            let st = m.call_into(&mut p.submit, || {
                qg_scheduler_submit_gs(s, arrival, u, id, 1000)
            });
            ok("gs", st)?;
            if u < 32 {
                let st = m.call_into(&mut p.pause, || qg_scheduler_next(s, arrival, &mut d));
                ok("preempt", st)?;
            }
        }
        // Every CPU runs a GS task now; complete each at its end (or now, for a task that ended
        // before the arrivals were handled), starting the next.
        let mut now = arrival;
        for _ in 0..96 {
            if qg_scheduler_next_finish(s, &mut cpu, &mut at) != QG_OK {
                break;
            }
            now = now.max(at);
            let st = m.call_into(&mut p.complete, || {
                qg_scheduler_complete(s, now, cpu, core::ptr::null_mut())
            });
            ok("complete", st)?;
            while qg_scheduler_next(s, now, &mut d) == QG_OK {}
        }
    }
    Ok(())
}

fn buckets(b: &mut qg_bucket, m: &mut Meter) -> Result<(), Broken> {
    let b: *mut qg_bucket = b;
    let mut rng = Rng(SEED);
    let mut receipts = [qg_charge {
        charged: 0,
        mark: 0,
    }; 8];
    let mut c = qg_conformance { kind: 0, wait: 0 };
    let (mut level, mut submitted, mut outstanding) = (0i64, 0u64, 0u16);
    let mut now = 0u64;
    // Per call, in the order of `ROWS`.
    let mut peaks = [Peak::default(); 8];
    for round in 0..40u32 {
        let imax = 1 + rng.below(1 << 30);
        let config = qg_bucket_config {
            rho: 1 + rng.below(1 << 20),
            sigma: imax + rng.below(1 << 30),
            imax,
            knowledge: round % 5,
            window: 1 + rng.below(8) as u16,
        };
        // SAFETY: `b` is the firmware's static storage; every other pointer is a live local.
        unsafe {
            let st = m.call_into(&mut peaks[0], || {
                qg_bucket_init(b, size_of::<qg_bucket>(), now, &config)
            });
            ok("bucket init", st)?;
            let mut held = 0usize;
            for _ in 0..50 {
                let scale = rng.below(40);
                now += rng.below(1u64 << scale);
                let work = 1 + rng.below(imax);
                // Refusals (a task too large, one that must wait) are cases too.
                m.call_into(&mut peaks[1], || qg_bucket_check(b, now, work, &mut c));
                if let Some(r) = receipts.get_mut(held)
                    && m.call_into(&mut peaks[2], || qg_bucket_charge(b, now, work, r)) == QG_OK
                {
                    held += 1;
                }
                if held > 0 && rng.below(2) == 0 {
                    held -= 1;
                    let r = receipts[held];
                    if rng.below(4) == 0 {
                        m.call_into(&mut peaks[4], || qg_bucket_withdraw(b, now, &r));
                    } else {
                        let actual = rng.below(2 * r.charged + 2);
                        m.call_into(&mut peaks[3], || qg_bucket_feedback(b, now, &r, actual));
                    }
                }
                ok(
                    "level",
                    m.call_into(&mut peaks[5], || qg_bucket_level(b, now, &mut level)),
                )?;
                ok(
                    "submitted",
                    m.call_into(&mut peaks[6], || qg_bucket_submitted(b, &mut submitted)),
                )?;
                let st = m.call_into(&mut peaks[7], || qg_bucket_outstanding(b, &mut outstanding));
                ok("outstanding", st)?;
            }
        }
    }
    const ROWS: [(&str, &str); 8] = [
        ("qg_bucket_init", "constant"),
        (
            "qg_bucket_check",
            "constant; one 64-bit division when the task must wait",
        ),
        ("qg_bucket_charge", "constant; the check's division"),
        (
            "qg_bucket_feedback",
            "constant (the refund rule: a few comparisons)",
        ),
        ("qg_bucket_withdraw", "constant (feedback of zero work)"),
        ("qg_bucket_level", "constant (a refill to now)"),
        ("qg_bucket_submitted", "constant (a read)"),
        ("qg_bucket_outstanding", "constant (a read)"),
    ];
    for ((call, bound), peak) in ROWS.into_iter().zip(peaks) {
        m.row_of(
            peak,
            call,
            "randomized: 40 buckets over the 5 modes, 50 steps each",
            bound,
        );
    }
    Ok(())
}

/// The first Fibonacci numbers (`FIB[k] = F(k)`), for rates whose continued fractions are long.
fn fibonacci(k: u64) -> u64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..k {
        (a, b) = (b, a + b);
    }
    a
}

fn dispatch(b: &mut qg_billiard, r: &mut qg_rtdp, m: &mut Meter) -> Result<(), Broken> {
    let mut rng = Rng(SEED);
    let mut c = 0u32;
    let shares = [0.4, 0.3, 0.2, 0.1];
    let mut p = [0.0; 8];
    // billiard init, RTDP init, billiard next, RTDP next.
    let mut peaks = [Peak::default(); 4];
    for vector in 0..16 {
        // Integer weights (every rate snaps to a fraction: the exact form) or Fibonacci numbers
        // (long continued fractions, up to denominators past 2^16: the fixed-point fallback).
        for pj in p.iter_mut() {
            *pj = if vector % 2 == 0 {
                (1 + rng.below(1000)) as f64
            } else {
                fibonacci(12 + rng.below(14)) as f64
            };
        }
        // SAFETY: the dispatchers are the firmware's static storage; every other pointer is a
        // live local.
        unsafe {
            let st = m.call_into(&mut peaks[0], || {
                qg_billiard_init(b, size_of::<qg_billiard>(), p.as_ptr(), 8, 0)
            });
            ok("billiard init", st)?;
            let st = m.call_into(&mut peaks[1], || {
                qg_rtdp_init(
                    r,
                    size_of::<qg_rtdp>(),
                    p.as_ptr(),
                    8,
                    shares.as_ptr(),
                    4,
                    0,
                )
            });
            ok("rtdp init", st)?;
            for i in 0..100u32 {
                ok(
                    "billiard",
                    m.call_into(&mut peaks[2], || qg_billiard_next(b, &mut c)),
                )?;
                ok(
                    "rtdp",
                    m.call_into(&mut peaks[3], || qg_rtdp_next(r, i % 4, &mut c)),
                )?;
            }
        }
    }
    let init = "randomized: 16 rate vectors over 8 clusters (integer and Fibonacci rates)";
    let snaps = "8 rates: 2 x 8 continued fractions of at most 48 steps, lcms; or 8 divisions";
    let next = "randomized: 16 rate vectors, 100 calls each";
    const PICK: &str = "7 comparisons, one addition";
    for ((call, case, bound), peak) in [
        ("qg_billiard_init", init, snaps),
        ("qg_rtdp_init", init, snaps),
        ("qg_billiard_next", next, PICK),
        ("qg_rtdp_next", next, PICK),
    ]
    .into_iter()
    .zip(peaks)
    {
        m.row_of(peak, call, case, bound);
    }
    Ok(())
}

/// Breakpoints of the slot table (the reference configuration's `QG_SLOT_BREAKPOINTS`).
const BREAKPOINTS: u64 = 256;

/// The peaks of the slot table's calls.
#[derive(Default)]
struct SlotPeaks {
    fit: Peak,
    free_at: Peak,
    reserve: Peak,
    release: Peak,
}

fn slots(t: &mut qg_slot_table, m: &mut Meter) -> Result<(), Broken> {
    let t: *mut qg_slot_table = t;
    let mut p = SlotPeaks::default();
    let mut start = 0u64;
    let mut free = 0i64;
    // SAFETY: the table is the firmware's static storage; every other pointer is a live local.
    unsafe {
        ok(
            "slots init",
            m.call(|| qg_slots_init(t, size_of::<qg_slot_table>(), 1024)),
        )?;
        m.row(
            "qg_slots_init",
            "any",
            "constant (an empty table as its length)",
        );
        // One node over [2k + 3, 2k + 4) for k < 126: 253 breakpoints (0, 3, 4, ..., 254), and
        // no four free ticks in a row before the last.
        for k in 0..(BREAKPOINTS - 4) / 2 {
            ok("fill", qg_slots_reserve(t, 2 * k + 3, 2 * k + 4, 1))?;
        }
        let st = m.call_into(&mut p.fit, || {
            qg_slots_earliest_fit(t, 0, 1024, 4, &mut start)
        });
        ok("fit", st)?;
        for at in [0, 1, END - 1, END, u64::MAX] {
            let st = m.call_into(&mut p.free_at, || qg_slots_free_at(t, at, &mut free));
            ok("free_at", st)?;
        }
        // At the front (two breakpoints inserted or removed before 253: a shift of the whole
        // slot array), across the table (every breakpoint updated) and both.
        for (s0, e0) in [(1, 2), (0, END + 1), (1, END + 1)] {
            let st = m.call_into(&mut p.reserve, || qg_slots_reserve(t, s0, e0, 1));
            ok("reserve", st)?;
            let st = m.call_into(&mut p.release, || qg_slots_release(t, s0, e0, 1));
            ok("release", st)?;
        }
    }
    slot_search(t, m, &mut p)?;
    let case = "253 breakpoints (constructed), and 8 drawn tables";
    m.row_of(
        p.fit,
        "qg_slots_earliest_fit",
        case,
        "a search from the front (8 doublings, 7 halvings), a scan of 256 breakpoints",
    );
    m.row_of(
        p.free_at,
        "qg_slots_free_at",
        case,
        "a search from the front (8 doublings, 7 halvings)",
    );
    let updates = "253 breakpoints: 2 at the front, all 253, or both (constructed); 8 drawn tables";
    let shift = "a search from the front, a check of 256 breakpoints, a shift of 256 x 16 B";
    m.row_of(p.reserve, "qg_slots_reserve", updates, shift);
    m.row_of(p.release, "qg_slots_release", updates, shift);
    Ok(())
}

/// The end of the last reservation `slots` makes, ticks.
const END: u64 = BREAKPOINTS - 2;

/// Tables drawn from the seed: reservations of 1-1,024 nodes over 1-64 ticks in the first 512
/// until the table refuses one for want of breakpoints (or 400 tries), each measured; then 64
/// fits (any start, nodes, duration) and free-node reads; then every reservation released, in
/// drawn order.
fn slot_search(t: *mut qg_slot_table, m: &mut Meter, p: &mut SlotPeaks) -> Result<(), Broken> {
    let mut rng = Rng(SEED);
    let (mut start, mut free) = (0u64, 0i64);
    for _ in 0..8 {
        let mut held = [(0u64, 0u64, 0u32); 128];
        let mut n = 0;
        // SAFETY: the table is the firmware's static storage; every other pointer is a live
        // local.
        unsafe {
            ok(
                "slots init",
                qg_slots_init(t, size_of::<qg_slot_table>(), 1024),
            )?;
            for _ in 0..400 {
                let s0 = rng.below(512);
                let (e0, nodes) = (s0 + 1 + rng.below(64), 1 + rng.below(1024) as u32);
                let st = m.call_into(&mut p.reserve, || qg_slots_reserve(t, s0, e0, nodes));
                if st == QG_ERR_FULL || n == held.len() {
                    break;
                }
                if st == QG_OK {
                    held[n] = (s0, e0, nodes);
                    n += 1;
                }
            }
            for _ in 0..64 {
                let (from, nodes) = (rng.below(600), 1 + rng.below(1024) as u32);
                let duration = 1 + rng.below(128);
                m.call_into(&mut p.fit, || {
                    qg_slots_earliest_fit(t, from, nodes, duration, &mut start)
                });
                let at = rng.below(600);
                m.call_into(&mut p.free_at, || qg_slots_free_at(t, at, &mut free));
            }
            while n > 0 {
                let k = rng.below(n as u64) as usize;
                let (s0, e0, nodes) = held[k];
                let st = m.call_into(&mut p.release, || qg_slots_release(t, s0, e0, nodes));
                ok("release", st)?;
                held[k] = held[n - 1];
                n -= 1;
            }
        }
    }
    Ok(())
}

fn backfill(b: &mut qg_backfill, m: &mut Meter) -> Result<(), Broken> {
    let mut ended = qg_ended {
        id: 0,
        start: 0,
        end: 0,
        overran: false,
    };
    let bp: *mut qg_backfill = b;
    // SAFETY: the scheduler is the firmware's static storage; every other pointer is a live
    // local; the callback reads nothing.
    unsafe {
        let schedule = move |now| {
            let mut started = 0usize;
            qg_backfill_schedule(bp, now, Some(ignore), core::ptr::null_mut(), &mut started)
        };
        let st =
            m.call(|| qg_backfill_init(bp, size_of::<qg_backfill>(), QG_POLICY_SELECTIVE, 2, 64));
        ok("init", st)?;
        m.row(
            "qg_backfill_init",
            "any policy",
            "constant (empty tables as lengths)",
        );

        // Conservative: the submit after a completion and the pass that re-places 62 jobs.
        let (mut submit, mut pass) = (Peak::default(), Peak::default());
        for round in 0..4u64 {
            conservative_after_completion(&mut *bp, round, 1)?;
            let st = m.call_into(&mut submit, || {
                qg_backfill_submit(bp, 10, &job(63, 10, 8, 100))
            });
            ok("submit", st)?;
            ok("schedule", m.call_into(&mut pass, || schedule(10)))?;
        }
        m.row_of(
            submit,
            "qg_backfill_submit",
            "conservative, right after a completion, 62 jobs reserved (4 mixes)",
            "an append (64 slots moved when the array is full); no index at 128 slots or fewer",
        );
        m.row_of(
            pass,
            "qg_backfill_schedule",
            "conservative, the pass after it: 62 jobs re-placed (4 mixes)",
            "64 searches x 130 breakpoints, the placements left by submits",
        );

        // EASY: a 2-node job runs until 1,000; a whole-cluster head waits for it; 62 one-node
        // jobs that end before it backfill, each a search of the index and a table update. Their
        // estimates rise, fall (each end breakpoint inserted before the others) or are drawn.
        let mut rng = Rng(SEED);
        for order in 0..4u64 {
            let init = qg_backfill_init(bp, size_of::<qg_backfill>(), QG_POLICY_EASY, 0, 64);
            ok("init", init)?;
            ok("first", qg_backfill_submit(bp, 0, &job(0, 0, 2, 1000)))?;
            ok("start", schedule(0))?;
            ok("head", qg_backfill_submit(bp, 1, &job(1, 1, 64, 1000)))?;
            for k in 2..64u64 {
                let estimate = match order {
                    0 => 100 + k,
                    1 => 900 - k,
                    _ => 2 + rng.below(997),
                };
                ok("queue", qg_backfill_submit(bp, 1, &job(k, 1, 1, estimate)))?;
            }
            ok("easy", m.call(|| schedule(1)))?;
        }
        m.row(
            "qg_backfill_schedule",
            "EASY, 62 jobs backfilled behind a whole-cluster head (rising, falling, 2 drawn estimates)",
            "a fit of 130 breakpoints, one scan of 64 slots, 62 table updates",
        );

        // 64 one-node jobs of distinct estimates running: each completion searches the running
        // slots and releases its interval across the table's breakpoints.
        ok(
            "init",
            qg_backfill_init(bp, size_of::<qg_backfill>(), QG_POLICY_CONSERVATIVE, 0, 64),
        )?;
        for k in 0..64u64 {
            ok("queue", qg_backfill_submit(bp, 0, &job(k, 0, 1, 1000 + k)))?;
        }
        ok("start", schedule(0))?;
        for k in (0..64u64).rev() {
            ok(
                "complete",
                m.call(|| qg_backfill_complete(bp, 1, k, &mut ended)),
            )?;
        }
        m.row(
            "qg_backfill_complete",
            "conservative, 64 one-node jobs running, each completed early",
            "a search of 64 running slots, a release across 130 breakpoints",
        );

        // The re-placement pass a submit left, done by the next call at its instant or later
        // instead of by a pass.
        let (mut complete, mut submit) = (Peak::default(), Peak::default());
        for round in 0..4u64 {
            left_work(bp, round)?;
            let st = m.call_into(&mut complete, || {
                qg_backfill_complete(bp, 10, 1, &mut ended)
            });
            ok("complete", st)?;
            left_work(bp, round)?;
            let st = m.call_into(&mut submit, || {
                qg_backfill_submit(bp, 11, &job(99, 11, 8, 100))
            });
            ok("submit", st)?;
        }
        m.row_of(
            complete,
            "qg_backfill_complete",
            "conservative, at the instant of a submit that left the re-placement of 61 jobs (4 mixes)",
            "a search of 64 running slots, a release; the left work: 64 searches x 130 breakpoints",
        );
        m.row_of(
            submit,
            "qg_backfill_submit",
            "conservative, after a submit that left the re-placement of 61 jobs (4 mixes)",
            "an append and a placement; the left work: 64 searches x 130 breakpoints",
        );
    }
    Ok(())
}

/// Makes `b` conservative backfilling on 64 nodes with work left by a submit: two jobs of 32
/// nodes running, 61 jobs waiting, one of the two completed at 10
/// ([`conservative_after_completion`]), and a job arriving at 10 with no pass after it: the
/// re-placement of the 61 is left to the next call, at 10 or later.
fn left_work(b: *mut qg_backfill, round: u64) -> Result<(), Broken> {
    // SAFETY: `b` is the firmware's static storage, not otherwise borrowed here; `job` is a
    // live local.
    unsafe {
        conservative_after_completion(&mut *b, round, 2)?;
        ok("leave", qg_backfill_submit(b, 10, &job(63, 10, 8, 100)))
    }
}

fn pap(m: &mut Meter) -> Result<(), Broken> {
    let mut a = qg_allocation {
        z: 0.0,
        lambda_hat: [0.0; 8],
        active: [false; 8],
        clusters: 0,
    };
    for (case, (clusters, rate)) in [
        (
            "pap8_worst: 8 clusters, one ulp under capacity",
            pap_worst(),
        ),
        ("pap8_searched: 8 clusters, 145 evaluations", pap_searched()),
    ] {
        // SAFETY: every pointer is a live local.
        let st = m.call(|| unsafe { qg_pap_solve(clusters.as_ptr(), 8, rate, 1e-9, &mut a) });
        if st != QG_ERR_PAP_NO_CONVERGENCE {
            ok("pap", st)?;
        }
        m.row(
            "qg_pap_solve",
            case,
            "28 comparisons, then at most 154 evaluations of 8 rates",
        );
    }
    Ok(())
}
