//! Local mapping: `Servers<32>` of arbitrary size and VMs per server (0 included), driven by a
//! sequence of batches under every fit (energy-aware, first-fit by VM and by task, worst-fit),
//! Algorithm 4's preempting batches with victims taken from live parts (or forged), and releases
//! of live or forged parts.
//!
//! Checked after every step: a refused call changes nothing and is refused for the documented
//! reason (a batch over 64 tasks `Full`, a zero demand `InvalidParameter(Capacity)`, more VMs
//! than free `NotFree`; a release of an unknown server `Unknown`, of zero VMs
//! `InvalidParameter(Capacity)`, of more than the server hosts `NotReserved`); a placed batch
//! gives every task exactly its VMs and no server more than it had free
//! (`qosgate_testkit::dagsched::mapping`); first-fit and worst-fit equal their definitions VM by
//! VM, first-fit by task its definition task by task; the free and active counts equal a
//! recount.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qosgate_kernel::mapping::{BATCH, Fit, Part, Servers};
use qosgate_kernel::{Error, Param};
use qosgate_testkit::dagsched;

const S: usize = 32;

#[derive(Arbitrary, Debug, Clone, Copy)]
enum FitCode {
    Energy,
    First,
    FirstTask,
    Worst,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Place(FitCode, Vec<u16>),
    Preempt(FitCode, Vec<u16>, Vec<u8>),
    Release(u8),
    Forged(u32, u32),
}

#[derive(Arbitrary, Debug)]
struct Input {
    servers: u8,
    per_server: u8,
    ops: Vec<Op>,
}

fn fit(code: FitCode) -> Fit {
    match code {
        FitCode::Energy => Fit::EnergyAware,
        FitCode::First => Fit::FirstFit,
        FitCode::FirstTask => Fit::FirstFitTask,
        FitCode::Worst => Fit::WorstFit,
    }
}

fn free_of(s: &Servers<S>) -> Vec<u8> {
    (0..s.len() as u32).map(|i| s.free(i).unwrap()).collect()
}

fn recount(s: &Servers<S>) {
    let free = free_of(s);
    assert_eq!(
        s.free_vms(),
        free.iter().map(|&f| u32::from(f)).sum::<u32>()
    );
    assert_eq!(
        s.active() as usize,
        free.iter().filter(|&&f| f < s.per_server()).count()
    );
}

/// The reason a batch must be refused, if any.
fn refusal(demands: &[u32], free: u32) -> Option<Error> {
    if demands.len() > BATCH {
        Some(Error::Full)
    } else if demands.contains(&0) {
        Some(Error::InvalidParameter(Param::Capacity))
    } else if demands.iter().map(|&d| u64::from(d)).sum::<u64>() > u64::from(free) {
        Some(Error::NotFree)
    } else {
        None
    }
}

fuzz_target!(|input: Input| {
    let n = usize::from(input.servers);
    let Ok(mut servers) = Servers::<S>::new(n, input.per_server) else {
        assert!(n == 0 || n > S || input.per_server == 0);
        return;
    };
    let mut live: Vec<Part> = Vec::new();
    for op in input.ops.iter().take(48) {
        let before = servers.clone();
        let free_before = free_of(&servers);
        match op {
            Op::Place(code, demands) | Op::Preempt(code, demands, _) => {
                let demands: Vec<u32> = demands.iter().map(|&d| u32::from(d % 300)).collect();
                let victims: Vec<Part> = match op {
                    Op::Preempt(_, _, picks) if !live.is_empty() => {
                        let mut pool = live.clone();
                        picks
                            .iter()
                            .take(pool.len())
                            .map(|&i| pool.swap_remove(usize::from(i) % pool.len()))
                            .collect()
                    }
                    _ => Vec::new(),
                };
                let victim_vms: u32 = victims.iter().map(|p| p.vms).sum();
                let mut parts = Vec::new();
                let got = if victims.is_empty() {
                    servers.place(fit(*code), &demands, &mut |p| parts.push(p))
                } else {
                    servers.place_preempting(fit(*code), &demands, &victims, &mut |p| parts.push(p))
                };
                match refusal(&demands, before.free_vms() + victim_vms) {
                    Some(e) => {
                        assert_eq!(got, Err(e));
                        assert_eq!(servers, before);
                    }
                    None => {
                        assert_eq!(got, Ok(()));
                        let mut released = free_before.clone();
                        for v in &victims {
                            released[v.server as usize] += v.vms as u8;
                            let i = live.iter().position(|p| p == v).unwrap();
                            live.swap_remove(i);
                        }
                        dagsched::mapping(&released, &demands, &parts).unwrap();
                        let naive = match (victims.is_empty(), code) {
                            (true, FitCode::First) => {
                                Some(dagsched::naive_first_fit(&mut released.clone(), &demands))
                            }
                            (true, FitCode::FirstTask) => Some(dagsched::naive_first_fit_task(
                                &mut released.clone(),
                                &demands,
                            )),
                            (true, FitCode::Worst) => {
                                Some(dagsched::naive_worst_fit(&mut released.clone(), &demands))
                            }
                            _ => None,
                        };
                        if let Some(naive) = naive {
                            let mut ours: Vec<_> =
                                parts.iter().map(|p| (p.item, p.server, p.vms)).collect();
                            ours.sort_unstable();
                            assert_eq!(ours, naive);
                        }
                        live.extend(parts);
                    }
                }
            }
            Op::Release(i) if !live.is_empty() => {
                let p = live.swap_remove(usize::from(*i) % live.len());
                servers.release(p.server, p.vms).unwrap();
            }
            Op::Release(_) => {}
            Op::Forged(server, vms) => {
                let hosted = free_before
                    .get(*server as usize)
                    .map(|&f| u32::from(servers.per_server() - f));
                let want = match hosted {
                    None => Err(Error::Unknown),
                    Some(_) if *vms == 0 => Err(Error::InvalidParameter(Param::Capacity)),
                    Some(h) if *vms > h => Err(Error::NotReserved),
                    Some(_) => Ok(()),
                };
                assert_eq!(servers.release(*server, *vms), want);
                if want.is_ok() {
                    // Forged but legal: take it out of the live parts on that server.
                    let mut left = *vms;
                    live.retain_mut(|p| {
                        if left == 0 || p.server != *server {
                            return true;
                        }
                        let cut = left.min(p.vms);
                        p.vms -= cut;
                        left -= cut;
                        p.vms > 0
                    });
                } else {
                    assert_eq!(servers, before);
                }
            }
        }
        recount(&servers);
    }
});
