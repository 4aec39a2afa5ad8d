//! Tests of the local mapping (`kernel/src/mapping.rs`; gandhimathi2013 Algorithms 4-5 as corrected
//! in E24, first-fit and worst-fit).
//!
//! On random clouds (1-40 servers of 1-8 VMs, partly used) and random batches:
//! - every task gets exactly its VMs, no server more than it had free, and the counts the
//!   servers report (free VMs, active servers) equal a recount; a batch larger than the free
//!   VMs is refused and changes nothing;
//! - first-fit and worst-fit equal their definitions applied VM by VM, and first-fit by task its
//!   definition task by task (`qosgate_testkit::dagsched`);
//! - the energy-aware mapping opens at most one partly filled server per task: a batch
//!   activates at most `sum floor(wl / C) + T` servers, and one task on idle servers exactly
//!   `ceil(wl / C)`;
//! - releasing every part restores the servers; Algorithm 4 (`place_preempting`) equals
//!   releasing the victims and then placing.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use qosgate_kernel::Error;
use qosgate_kernel::mapping::{Fit, Part, Servers};
use qosgate_testkit::dagsched;

/// 256 cases per property, or `PROPTEST_CASES` for a deeper run.
fn cases() -> u32 {
    qosgate_testkit::proptest_cases(256)
}

const S: usize = 40;

/// A cloud of `n` servers of `c` VMs with `used[s]` VMs taken (through a first-fit batch, so
/// only the public interface builds it).
#[derive(Clone, Debug)]
struct Cloud {
    c: u8,
    used: Vec<u8>,
}

fn cloud() -> impl Strategy<Value = Cloud> {
    (1u8..=8, 1usize..=S).prop_flat_map(|(c, n)| {
        proptest::collection::vec(prop_oneof![2 => Just(0u8), 1 => 0..=c], n)
            .prop_map(move |used| Cloud { c, used })
    })
}

impl Cloud {
    fn servers(&self) -> Servers<S> {
        let mut servers = Servers::new(self.used.len(), self.c).unwrap();
        // Fill every server, then give back what is free.
        let all = vec![u32::from(self.c); self.used.len()];
        servers.place(Fit::FirstFit, &all, &mut |_| {}).unwrap();
        for (s, &u) in self.used.iter().enumerate() {
            let free = u32::from(self.c - u);
            if free > 0 {
                servers.release(s as u32, free).unwrap();
            }
        }
        servers
    }

    fn free(&self) -> Vec<u8> {
        self.used.iter().map(|&u| self.c - u).collect()
    }
}

fn fit() -> impl Strategy<Value = Fit> {
    prop_oneof![
        Just(Fit::EnergyAware),
        Just(Fit::FirstFit),
        Just(Fit::FirstFitTask),
        Just(Fit::WorstFit)
    ]
}

fn batch() -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec(1u32..=20, 1..=8)
}

fn place(servers: &mut Servers<S>, fit: Fit, demands: &[u32]) -> Result<Vec<Part>, Error> {
    let mut parts = Vec::new();
    servers.place(fit, demands, &mut |p| parts.push(p))?;
    Ok(parts)
}

fn free_of(servers: &Servers<S>) -> Vec<u8> {
    (0..servers.len() as u32)
        .map(|s| servers.free(s).unwrap())
        .collect()
}

/// The counts a `Servers` reports agree with its free VMs.
fn recount(servers: &Servers<S>) -> Result<(), TestCaseError> {
    let free = free_of(servers);
    let total: u32 = free.iter().map(|&f| u32::from(f)).sum();
    let active = free.iter().filter(|&&f| f < servers.per_server()).count() as u32;
    prop_assert_eq!(servers.free_vms(), total);
    prop_assert_eq!(servers.active(), active);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn every_task_gets_exactly_its_vms_and_no_server_is_over_filled(
        cloud in cloud(), fit in fit(), demands in batch(),
    ) {
        let mut servers = cloud.servers();
        let before = servers.clone();
        let free: u32 = cloud.free().iter().map(|&f| u32::from(f)).sum();
        match place(&mut servers, fit, &demands) {
            Ok(parts) => {
                prop_assert!(demands.iter().sum::<u32>() <= free);
                dagsched::mapping(&cloud.free(), &demands, &parts).map_err(TestCaseError::fail)?;
                recount(&servers)?;
                // Every part comes back.
                for p in &parts {
                    servers.release(p.server, p.vms).unwrap();
                }
                prop_assert_eq!(&servers, &before);
            }
            Err(e) => {
                prop_assert_eq!(e, Error::NotFree);
                prop_assert!(demands.iter().sum::<u32>() > free);
                prop_assert_eq!(&servers, &before);
            }
        }
    }

    #[test]
    fn the_baselines_equal_their_definitions(cloud in cloud(), demands in batch()) {
        for (fit, naive) in [
            (Fit::FirstFit, dagsched::naive_first_fit as fn(&mut [u8], &[u32]) -> Vec<(usize, u32, u32)>),
            (Fit::FirstFitTask, dagsched::naive_first_fit_task),
            (Fit::WorstFit, dagsched::naive_worst_fit),
        ] {
            let mut servers = cloud.servers();
            let mut free = cloud.free();
            let Ok(parts) = place(&mut servers, fit, &demands) else { continue };
            let mut ours: Vec<_> = parts.iter().map(|p| (p.item, p.server, p.vms)).collect();
            ours.sort_unstable();
            prop_assert_eq!(ours, naive(&mut free, &demands), "{:?}", fit);
            prop_assert_eq!(free_of(&servers), free);
        }
    }

    #[test]
    fn energy_aware_opens_at_most_one_partly_filled_server_per_task(
        cloud in cloud(), demands in batch(),
    ) {
        let mut servers = cloud.servers();
        let active = servers.active();
        let c = u32::from(cloud.c);
        if place(&mut servers, Fit::EnergyAware, &demands).is_ok() {
            let bound: u32 = demands.iter().map(|wl| wl / c + 1).sum();
            prop_assert!(servers.active() - active <= bound);
        }
    }

    #[test]
    fn one_task_on_idle_servers_activates_ceil_wl_over_c(
        c in 1u8..=8, n in 1usize..=S, wl in 1u32..=320,
    ) {
        let mut servers = Servers::<S>::new(n, c).unwrap();
        if place(&mut servers, Fit::EnergyAware, &[wl]).is_ok() {
            prop_assert_eq!(servers.active(), wl.div_ceil(u32::from(c)));
        }
    }

    #[test]
    fn algorithm_4_counts_the_victims_vms_free(
        cloud in cloud(), fit in fit(), victims in batch(), demands in batch(),
    ) {
        let mut servers = cloud.servers();
        let Ok(victim_parts) = place(&mut servers, Fit::FirstFit, &victims) else {
            return Ok(());
        };
        let mut released = servers.clone();
        for p in &victim_parts {
            released.release(p.server, p.vms).unwrap();
        }
        let expected = place(&mut released, fit, &demands);
        let before = servers.clone();
        let mut parts = Vec::new();
        let got = servers.place_preempting(fit, &demands, &victim_parts, &mut |p| parts.push(p));
        match expected {
            Ok(expected) => {
                prop_assert_eq!(got, Ok(()));
                prop_assert_eq!(parts, expected);
                prop_assert_eq!(&servers, &released);
            }
            Err(e) => {
                prop_assert_eq!(got, Err(e));
                prop_assert_eq!(&servers, &before);
            }
        }
    }
}
