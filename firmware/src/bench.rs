//! Instructions per C API call, on loads of the reference configuration's size. Each figure is
//! the mean over many calls and the largest single call seen (to about 80 instructions: one
//! SysTick tick).

use qosgate_ffi::backfill::*;
use qosgate_ffi::dispatch::*;
use qosgate_ffi::pap::*;
use qosgate_ffi::qg_status::{self, *};
use qosgate_ffi::scheduler::*;
use qosgate_ffi::slots::*;
use qosgate_ffi_scenario::{PAP_CLUSTERS, Storage};

use crate::count::Counter;

/// A call's cost: mean and largest, instructions.
#[derive(Clone, Copy, Default, defmt::Format)]
pub struct Cost {
    /// Calls measured.
    pub calls: u32,
    /// Mean instructions per call.
    pub mean: u64,
    /// The most instructions one call took.
    pub max: u64,
}

/// Sums of ticks, turned into a [`Cost`] at the end.
#[derive(Default)]
struct Tally {
    calls: u32,
    ticks: u64,
    max: u64,
}

impl Tally {
    /// Runs one call, accounting for its ticks; returns its status.
    fn call(&mut self, counter: &mut Counter, f: impl FnOnce() -> qg_status) -> qg_status {
        let (st, t) = counter.ticks(f);
        self.calls += 1;
        self.ticks += t;
        self.max = self.max.max(t);
        st
    }

    fn cost(&self, counter: &Counter) -> Cost {
        Cost {
            calls: self.calls,
            mean: counter.instructions(self.ticks, u64::from(self.calls)),
            max: counter.instructions(self.max, 1),
        }
    }
}

/// Why a benchmark could not run: the call and the status it returned.
#[derive(Clone, Copy, defmt::Format)]
pub struct Broken(pub &'static str, pub qg_status);

pub fn ok(what: &'static str, st: qg_status) -> Result<(), Broken> {
    if st == QG_OK {
        Ok(())
    } else {
        Err(Broken(what, st))
    }
}

/// The costs measured.
#[derive(defmt::Format)]
pub struct Costs {
    /// `qg_scheduler_submit_gs`, 64 users, up to 128 tasks queued.
    pub submit_gs: Cost,
    /// `qg_scheduler_next` starting a task.
    pub next: Cost,
    /// `qg_scheduler_complete`.
    pub complete: Cost,
    /// `qg_billiard_next`, 8 clusters.
    pub billiard: Cost,
    /// `qg_rtdp_next`, 8 clusters, 4 types.
    pub rtdp: Cost,
    /// `qg_slots_earliest_fit` over 64 reservations (about 128 breakpoints).
    pub earliest_fit: Cost,
    /// `qg_slots_reserve` there.
    pub reserve: Cost,
    /// `qg_slots_release` there.
    pub release: Cost,
    /// `qg_pap_solve`, 3 clusters (the scenario's).
    pub pap3: Cost,
    /// `qg_pap_solve`, 8 clusters.
    pub pap8: Cost,
    /// `qg_pap_solve` on the costliest 8-cluster input the search of `kernel/tests/pap_work.rs`
    /// found against the doubling search of the upper bound: every cluster active, the external
    /// rate one ulp under capacity.
    pub pap8_worst: Cost,
    /// `qg_pap_solve` on the costliest 8-cluster input that search found against the exponent
    /// search and the safeguarded bracket (145 evaluations; the bound is 154).
    pub pap8_searched: Cost,
    /// `qg_backfill_submit` under conservative backfilling right after a completion, 62 jobs
    /// reserved (the case that ran the whole re-placement pass in the submit).
    pub backfill_submit: Cost,
    /// The `qg_backfill_schedule` pass after it.
    pub backfill_schedule: Cost,
}

/// Measures every call on `storage` (re-initialised here). Not inlined, so that its frame is
/// not added to the scenario's.
#[inline(never)]
pub fn run(storage: &mut Storage, counter: &mut Counter) -> Result<Costs, Broken> {
    let (submit_gs, next, complete) = scheduler(&mut storage.scheduler, counter)?;
    let (billiard, rtdp) = dispatch(&mut storage.billiard, &mut storage.rtdp, counter)?;
    let (earliest_fit, reserve, release) = slots(&mut storage.slots, counter)?;
    let (pap3, pap8, pap8_worst, pap8_searched) = pap(counter)?;
    let (backfill_submit, backfill_schedule) = backfill(&mut storage.backfill, counter)?;
    Ok(Costs {
        submit_gs,
        next,
        complete,
        billiard,
        rtdp,
        earliest_fit,
        reserve,
        release,
        pap3,
        pap8,
        pap8_worst,
        pap8_searched,
        backfill_submit,
        backfill_schedule,
    })
}

const USERS: u16 = 64;

/// A decision to be written by `qg_scheduler_next`.
pub fn decision() -> qg_decision {
    qg_decision {
        kind: 0,
        cpu: 0,
        task_id: 0,
        work: 0,
        task_class: 0,
        flow: 0,
        finish: 0,
    }
}

fn scheduler(s: &mut qg_scheduler, counter: &mut Counter) -> Result<(Cost, Cost, Cost), Broken> {
    let mips = [6400u64];
    let config = qg_scheduler_config {
        kind: QG_KIND_GS,
        discipline: QG_DISCIPLINE_WFQ,
        cpu_mips: mips.as_ptr(),
        cpus: 1,
        max_task: 1000,
        max_flows: USERS,
    };
    let user = qg_registration {
        weight: 1,
        rho: 100,
        sigma: 1000,
        imax: 1000,
        knowledge: QG_KNOWLEDGE_EXACT,
        window: 0,
        entries: 0,
    };
    let (mut submit, mut next, mut complete) =
        (Tally::default(), Tally::default(), Tally::default());
    let mut flow = 0u16;
    let mut d = decision();
    let s: *mut qg_scheduler = s;
    // SAFETY: `s` is the firmware's static storage; every other pointer is a live local.
    unsafe {
        ok(
            "init",
            qg_scheduler_init(s, size_of::<qg_scheduler>(), &config),
        )?;
        for _ in 0..USERS {
            ok("register", qg_scheduler_register(s, &user, &mut flow))?;
        }
        // Two tasks per user queued, then in steady state: one ends, one starts, one arrives.
        let mut id = 0u32;
        for u in 0..USERS {
            for _ in 0..2 {
                let work = 100 + u64::from(id % 7) * 100;
                ok(
                    "submit",
                    submit.call(counter, || qg_scheduler_submit_gs(s, 0, u, id, work)),
                )?;
                id += 1;
            }
        }
        ok(
            "next",
            next.call(counter, || qg_scheduler_next(s, 0, &mut d)),
        )?;
        for _ in 0..256 {
            let now = d.finish;
            let st = complete.call(counter, || {
                qg_scheduler_complete(s, now, 0, core::ptr::null_mut())
            });
            ok("complete", st)?;
            ok(
                "next",
                next.call(counter, || qg_scheduler_next(s, now, &mut d)),
            )?;
            let (u, work) = (
                (id % u32::from(USERS)) as u16,
                100 + u64::from(id % 7) * 100,
            );
            ok(
                "submit",
                submit.call(counter, || qg_scheduler_submit_gs(s, now, u, id, work)),
            )?;
            id += 1;
        }
    }
    Ok((
        submit.cost(counter),
        next.cost(counter),
        complete.cost(counter),
    ))
}

fn dispatch(
    b: &mut qg_billiard,
    r: &mut qg_rtdp,
    counter: &mut Counter,
) -> Result<(Cost, Cost), Broken> {
    let p = [0.2, 0.15, 0.15, 0.1, 0.1, 0.1, 0.1, 0.1];
    let shares = [0.4, 0.3, 0.2, 0.1];
    let (mut billiard, mut rtdp) = (Tally::default(), Tally::default());
    let mut c = 0u32;
    // SAFETY: the dispatchers are the firmware's static storage; every other pointer is a live
    // local.
    unsafe {
        ok(
            "billiard init",
            qg_billiard_init(b, size_of::<qg_billiard>(), p.as_ptr(), 8, 0),
        )?;
        ok(
            "rtdp init",
            qg_rtdp_init(
                r,
                size_of::<qg_rtdp>(),
                p.as_ptr(),
                8,
                shares.as_ptr(),
                4,
                0,
            ),
        )?;
        for i in 0..1000u32 {
            ok(
                "billiard",
                billiard.call(counter, || qg_billiard_next(b, &mut c)),
            )?;
            ok(
                "rtdp",
                rtdp.call(counter, || qg_rtdp_next(r, i % 4, &mut c)),
            )?;
        }
    }
    Ok((billiard.cost(counter), rtdp.cost(counter)))
}

fn slots(t: &mut qg_slot_table, counter: &mut Counter) -> Result<(Cost, Cost, Cost), Broken> {
    const S: u64 = 1_000_000;
    let (mut fit, mut reserve, mut release) =
        (Tally::default(), Tally::default(), Tally::default());
    let mut start = 0u64;
    // SAFETY: the table is the firmware's static storage; every other pointer is a live local.
    unsafe {
        ok(
            "slots init",
            qg_slots_init(t, size_of::<qg_slot_table>(), 1024),
        )?;
        // 64 staggered reservations of 16-512 nodes: about 128 breakpoints.
        for k in 0..64u64 {
            ok(
                "fill",
                qg_slots_reserve(
                    t,
                    k * 10 * S,
                    k * 10 * S + 15 * S,
                    16 + (k as u32 % 32) * 16,
                ),
            )?;
        }
        // Steady state: take the oldest back, fit a wide job, reserve it.
        for k in 0..64u64 {
            let (s0, e0, n0) = (k * 10 * S, k * 10 * S + 15 * S, 16 + (k as u32 % 32) * 16);
            ok(
                "release",
                release.call(counter, || qg_slots_release(t, s0, e0, n0)),
            )?;
            let st = fit.call(counter, || {
                qg_slots_earliest_fit(t, 0, 600, 20 * S, &mut start)
            });
            ok("fit", st)?;
            let s1 = start;
            ok(
                "reserve",
                reserve.call(counter, || qg_slots_reserve(t, s1, s1 + 20 * S, 600)),
            )?;
            ok("undo", qg_slots_release(t, s1, s1 + 20 * S, 600))?;
            ok("refill", qg_slots_reserve(t, s0, e0, n0))?;
        }
    }
    Ok((
        fit.cost(counter),
        reserve.cost(counter),
        release.cost(counter),
    ))
}

/// Eight equal clusters of `theta = 5e-308` (capacity `1 / theta` each), `omega = 0.539`, no
/// local load, at one ulp under their total capacity: when every cluster is active the upper
/// bound of the root lies some 2,045 doublings above `psi`, where `f64` overflows. The costliest
/// 8-cluster input `kernel/tests/pap_work.rs` found; PAP may refuse it (`NO_CONVERGENCE`).
pub fn pap_worst() -> ([qg_cluster; 8], f64) {
    let c = qg_cluster {
        theta: 5e-308,
        omega: 0.539,
        local_rate: 0.0,
        tau: 0.0,
        mu: 0.0,
    };
    // Summed as PAP sums the capacities.
    let mut capacity = 0.0;
    for _ in 0..8 {
        capacity += 1.0 / c.theta;
    }
    ([c; 8], f64::from_bits(f64::to_bits(capacity) - 1))
}

/// The costliest 8-cluster input `kernel/tests/pap_work.rs` found against the bounded solver
/// (`PAP_SEARCH_CLUSTERS=8 PAP_SEARCH_SEED=2 PAP_SEARCH_STARTS=3000`): 11 evaluations for the
/// upper bound and 133 bracket steps, at a subnormal external rate; epsilon 1e-9.
pub fn pap_searched() -> ([qg_cluster; 8], f64) {
    let c = |theta, omega| qg_cluster {
        theta,
        omega,
        local_rate: 3.393019537607919e271,
        tau: 2.739761854660875e-273,
        mu: 4.3743244592893235e-293,
    };
    let mut cs = [
        c(4.3546655598324486e-79, 2.258452156342857e231),
        c(5.3611328012161205e-292, 1.2580960551353259e-260),
        c(1.646840572173887e-282, 9.983136682347142e-255),
        c(1.6468620124195551e-282, 1.872786366924383e-260),
        c(6.114380526329683e-245, 4.581241818142666e-260),
        c(9.069979336061251e-275, 7.368618763853461e-263),
        c(1.646840572173887e-282, 9.983136682347142e-255),
        c(6.114380526329683e-245, 4.581241818142666e-260),
    ];
    cs[0].local_rate = 3.0080543621675172e271;
    cs[0].tau = 3.0905920573672956e-273;
    (cs, 3.07484831636695e-310)
}

fn pap(counter: &mut Counter) -> Result<(Cost, Cost, Cost, Cost), Broken> {
    let mut eight = [PAP_CLUSTERS[0]; 8];
    for (j, c) in eight.iter_mut().enumerate() {
        *c = PAP_CLUSTERS[j % 3];
        c.theta *= 1.0 + j as f64 / 8.0;
        c.omega *= (1.0 + j as f64 / 8.0) * (1.0 + j as f64 / 8.0);
    }
    let (worst, worst_rate) = pap_worst();
    let (searched, searched_rate) = pap_searched();
    let (mut three, mut all) = (Tally::default(), Tally::default());
    let (mut hard, mut found) = (Tally::default(), Tally::default());
    let mut a = qg_allocation {
        z: 0.0,
        lambda_hat: [0.0; 8],
        active: [false; 8],
        clusters: 0,
    };
    // SAFETY: every pointer is a live local or a constant.
    unsafe {
        for _ in 0..10 {
            let st = three.call(counter, || {
                qg_pap_solve(PAP_CLUSTERS.as_ptr(), 3, 2.0, 1e-9, &mut a)
            });
            ok("pap 3", st)?;
            let st = all.call(counter, || {
                qg_pap_solve(eight.as_ptr(), 8, 2.0, 1e-9, &mut a)
            });
            ok("pap 8", st)?;
            let st = hard.call(counter, || {
                qg_pap_solve(worst.as_ptr(), 8, worst_rate, 1e-9, &mut a)
            });
            if st != QG_ERR_PAP_NO_CONVERGENCE {
                ok("pap 8 worst", st)?;
            }
            let st = found.call(counter, || {
                qg_pap_solve(searched.as_ptr(), 8, searched_rate, 1e-9, &mut a)
            });
            if st != QG_ERR_PAP_NO_CONVERGENCE {
                ok("pap 8 searched", st)?;
            }
        }
    }
    Ok((
        three.cost(counter),
        all.cost(counter),
        hard.cost(counter),
        found.cost(counter),
    ))
}

/// A `qg_on_start` that ignores the started job.
pub unsafe extern "C" fn ignore(_: *mut core::ffi::c_void, _: *const qg_started) {}

/// A job of `nodes` nodes and an estimate of `estimate` ticks, submitted at `now`.
pub fn job(id: u64, now: u64, nodes: u32, estimate: u64) -> qg_job {
    qg_job {
        id,
        submit: now,
        nodes,
        estimate,
    }
}

/// Makes `b` conservative backfilling on 64 nodes where `running` jobs (ids from 0) of
/// `64 / running` nodes each started at 0, jobs `running..=62` of 1-64 nodes (varied by `round`)
/// queued behind them at 1, each reserved, and job 0 completed early, at 10: the next submit at
/// 10 leaves the re-placement of all the waiting jobs to the next call.
pub fn conservative_after_completion(
    b: &mut qg_backfill,
    round: u64,
    running: u64,
) -> Result<(), Broken> {
    // SAFETY: `b` is the caller's storage; every other pointer is a live local; the callback
    // reads nothing.
    unsafe {
        let init = qg_backfill_init(b, size_of::<qg_backfill>(), QG_POLICY_CONSERVATIVE, 0, 64);
        ok("backfill init", init)?;
        let mut started = 0usize;
        for id in 0..running {
            let nodes = (64 / running) as u32;
            ok("first", qg_backfill_submit(b, 0, &job(id, 0, nodes, 1_000)))?;
        }
        ok(
            "start",
            qg_backfill_schedule(b, 0, Some(ignore), core::ptr::null_mut(), &mut started),
        )?;
        for k in running..=62u64 {
            let nodes = 1 + ((k * 37 + round * 11) % 64) as u32;
            ok(
                "queue",
                qg_backfill_submit(b, 1, &job(k, 1, nodes, 50 + k * 13)),
            )?;
        }
        let mut ended = core::mem::zeroed();
        ok("complete", qg_backfill_complete(b, 10, 0, &mut ended))
    }
}

/// Conservative backfilling on 64 nodes, in rounds: a whole-cluster job starts, 62 jobs of 1-64
/// nodes queue behind it (each reserved), the running job completes early, one more job arrives
/// (measured) and a pass follows (measured).
fn backfill(b: &mut qg_backfill, counter: &mut Counter) -> Result<(Cost, Cost), Broken> {
    let (mut submit, mut schedule) = (Tally::default(), Tally::default());
    // SAFETY: the scheduler is the firmware's static storage; every other pointer is a live
    // local; the callback reads nothing.
    unsafe {
        for round in 0..4u64 {
            conservative_after_completion(b, round, 1)?;
            let mut started = 0usize;
            let st = submit.call(counter, || qg_backfill_submit(b, 10, &job(63, 10, 8, 100)));
            ok("submit", st)?;
            let st = schedule.call(counter, || {
                qg_backfill_schedule(b, 10, Some(ignore), core::ptr::null_mut(), &mut started)
            });
            ok("schedule", st)?;
        }
    }
    Ok((submit.cost(counter), schedule.cost(counter)))
}
