//! Seeded adversarial grid scenarios, for `qosgate verify --random N --seed S`.
//!
//! Scenario `i` of seed `S` is drawn from its own SplitMix64 stream
//! ([`SplitMix::for_entity`]`(S, i)`), so it is the same whatever `N` is and on any machine.
//! Each one is small (about 1,000 to 10,000 tasks a replication, short horizons) and aims at the
//! corners of the guarantee:
//!
//! - **Resources**: 1 to 3 that serve GS tasks, of every such kind (`gs`, `gs_be_equal`,
//!   `gs_be_priority`, `gs_be_priority_preemptive`), WFQ or SCFQ, with 1 to 16 CPUs of awkward
//!   speeds (100,000 to 1,000,000 MIPS, all equal or each its own), `max_task_mi` 1,000 to
//!   80,000, `max_users` 1 to 8; a third of the time a `be` resource too (always one when every
//!   GS resource is `gs` and there are BE users).
//! - **GS users**: 1 to 8 of weights 1 to 4, each aimed at a resource with a free flow slot;
//!   `rho` is half the time exactly the user's Eq. 1 share there (`floor(C' w / W)`, so the
//!   rates add up to the capacity), else 30 to 100 % of it; `max_task_mi` up to the resource's,
//!   sigma `m I_max` (`m` 1 to 5); every knowledge mode (`{ window = 1..4 }` included) and
//!   every oversize rule (absent, `best_effort`, `reject`, `admit`; aggressive and admitting
//!   users, who have no guarantee, one in ten each); workloads that do not
//!   divide evenly (fixed, uniform, exponential around `I_max`, sometimes above it); greedy
//!   inter-arrivals (offering 1 to 3.3 times rho); a random phase a third of the time;
//!   deadlines long enough for the tasks to be planned as GS, one user in ten with a deadline
//!   so short that its tasks go best effort. If no user would have tasks to check (a
//!   guarantee, tasks within its `I_max`, a long deadline), the first is made one.
//! - **BE users**: 0 to 4, flooding the resources that serve best effort (0.3 to 1.5 times
//!   their capacity, shared), tasks up to those resources' `max_task_mi`.
//!
//! Registration goes to the first resource that admits a user (Eq. 1, 2, `max_users`), which
//! need not be the one it was aimed at: the generator replays that rule and drops the users no
//! resource would admit, so a generated scenario registers all its GS users (a scenario the
//! simulator still refuses is counted as skipped by `qosgate verify`). Every scenario passes
//! [`ScenarioFile::validate`](crate::models::ScenarioFile::validate).

use super::scenario::{
    Discipline, Knowledge, Meta, MetaOrder, Network, Oversize, ResourceConfig, ResourceKind,
    Scenario, UserClass, UserConfig,
};
use crate::config::Header;
use crate::des::rng::SplitMix;
use crate::workload::dist::Dist;

/// Scenario `index` of the batch seeded `seed`.
pub fn scenario(seed: u64, index: u32) -> Scenario {
    let mut g = Gen(SplitMix::for_entity(seed, u64::from(index)));
    g.scenario(seed, index)
}

/// The generator's stream and its draws.
struct Gen(SplitMix);

impl Gen {
    /// Uniform on `lo ..= hi`.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.0.next_u64() % (hi - lo + 1)
    }

    /// Uniform on `[lo, hi)`.
    fn real(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.0.unit()
    }

    /// True with probability `p`.
    fn chance(&mut self, p: f64) -> bool {
        self.0.unit() < p
    }

    /// One of `items`.
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.range(0, items.len() as u64 - 1) as usize]
    }

    fn cpus(&mut self, most: u64) -> Vec<u64> {
        let n = if self.chance(0.4) {
            1
        } else {
            self.range(2, most)
        };
        let same = self.chance(0.5);
        let first = self.range(100_000, 1_000_000);
        (0..n)
            .map(|_| {
                if same {
                    first
                } else {
                    self.range(100_000, 1_000_000)
                }
            })
            .collect()
    }

    fn scenario(&mut self, seed: u64, index: u32) -> Scenario {
        let kinds = [
            ResourceKind::Gs,
            ResourceKind::GsBeEqual,
            ResourceKind::GsBePriority,
            ResourceKind::GsBePriorityPreemptive,
        ];
        let serving = self.range(1, 3) as usize;
        let mut resources: Vec<ResourceConfig> = (0..serving)
            .map(|i| ResourceConfig {
                name: format!("R{}", i + 1),
                kind: self.pick(&kinds),
                discipline: self.pick(&[Discipline::Wfq, Discipline::Scfq]),
                cpus: self.cpus(16),
                max_task_mi: self.range(1_000, 80_000),
                max_users: self.range(1, 8) as u16,
            })
            .collect();
        let be_users = self.range(0, 4) as usize;
        let all_gs = resources.iter().all(|r| r.kind == ResourceKind::Gs);
        if self.chance(1.0 / 3.0) || (be_users > 0 && all_gs) {
            let be = ResourceConfig {
                name: format!("R{}", serving + 1),
                kind: ResourceKind::Be,
                discipline: self.pick(&[Discipline::Wfq, Discipline::Scfq]),
                cpus: self.cpus(4),
                max_task_mi: self.range(1_000, 80_000),
                max_users: self.range(1, 8) as u16,
            };
            let at = self.range(0, serving as u64) as usize;
            resources.insert(at, be);
        }
        let users = self.gs_users(&resources);
        let mut users = admitted(&resources, users);
        // At least one user with tasks to check: a guarantee, tasks within its I_max, and a
        // deadline that lets them be planned as GS.
        let checkable = |u: &UserConfig| {
            u.knowledge != Some(Knowledge::Aggressive)
                && u.oversize != Some(Oversize::Admit)
                && u.max_task_mi
                    .is_some_and(|m| u.workload.smallest() <= m as f64)
                && u.deadline_s >= 1e6
        };
        if !users.iter().any(checkable)
            && let Some(u) = users.first_mut()
        {
            if u.knowledge == Some(Knowledge::Aggressive) {
                u.knowledge = Some(Knowledge::Exact);
            }
            if u.oversize == Some(Oversize::Admit) {
                u.oversize = Some(Oversize::BestEffort);
            }
            if let Some(imax) = u.max_task_mi
                && u.workload.smallest() > imax as f64
            {
                u.workload = Dist::Fixed(imax as f64);
            }
            u.deadline_s = 1e7;
        }
        self.be_users(&resources, be_users, &mut users);
        // About 1,000 to 10,000 tasks a replication.
        let per_second: f64 = users.iter().map(|u| 1.0 / u.interarrival.mean()).sum();
        let target = self.real(1_000.0, 10_000.0);
        let horizon_s = (target / per_second).clamp(1e-3, 1e6);
        for u in &mut users {
            if self.chance(1.0 / 3.0) {
                u.phase_s = Some(Dist::Uniform {
                    min: 0.0,
                    max: horizon_s * self.real(0.01, 0.3),
                });
            }
        }
        Scenario {
            header: Header {
                name: format!("random-{seed}-{index}"),
                description: format!(
                    "qosgate verify --random: scenario {index} of seed {seed} (adversarial)"
                ),
                seed: self.0.next_u64() >> 1,
                replications: 1,
            },
            horizon_s,
            warmup_s: 0.0,
            meta: Meta {
                order: self.pick(&[MetaOrder::Edf, MetaOrder::Wfq]),
                collection_period_s: horizon_s / self.real(20.0, 500.0),
            },
            network: Network {
                bandwidth_bps: self.pick(&[1e6, 1e8, 1e9, 1e10]),
                input_bytes: self.range(0, 2_000),
                output_bytes: self.range(0, 2_000),
            },
            resources,
            users,
        }
    }

    /// 1 to 8 GS users, each aimed at a serving resource with a free flow slot, rho their share
    /// there among the users aimed at it (or less).
    fn gs_users(&mut self, resources: &[ResourceConfig]) -> Vec<UserConfig> {
        let serving: Vec<usize> = (0..resources.len())
            .filter(|&r| resources[r].kind != ResourceKind::Be)
            .collect();
        let mut slots: Vec<u64> = resources.iter().map(|r| u64::from(r.max_users)).collect();
        let wanted = self.range(1, 8);
        let mut aims: Vec<(usize, u16)> = Vec::new();
        for _ in 0..wanted {
            let open: Vec<usize> = serving.iter().copied().filter(|&r| slots[r] > 0).collect();
            if open.is_empty() {
                break;
            }
            let r = self.pick(&open);
            slots[r] -= 1;
            aims.push((r, self.range(1, 4) as u16));
        }
        let weight_at = |r: usize| -> u64 {
            aims.iter()
                .filter(|a| a.0 == r)
                .map(|a| u64::from(a.1))
                .sum()
        };
        let totals: Vec<u64> = (0..resources.len()).map(weight_at).collect();
        aims.iter()
            .enumerate()
            .map(|(i, &(r, weight))| {
                let res = &resources[r];
                let capacity: u64 = res.cpus.iter().sum();
                let share = capacity * u64::from(weight) / totals[r];
                let rho = if self.chance(0.5) {
                    share
                } else {
                    ((share as f64 * self.real(0.3, 1.0)) as u64).max(1)
                };
                let imax = if self.chance(0.2) {
                    res.max_task_mi
                } else {
                    self.range((res.max_task_mi / 8).max(1), res.max_task_mi)
                };
                // Aggressive and admitting users (no guarantee, but competing) one in ten each.
                let knowledge = match self.range(0, 9) {
                    0 | 1 => Knowledge::Exact,
                    2 | 3 => Knowledge::Conservative,
                    4 | 5 => Knowledge::ConservativeFeedback,
                    6..=8 => Knowledge::Window(self.range(1, 4) as u16),
                    _ => Knowledge::Aggressive,
                };
                let oversize = match self.range(0, 9) {
                    0..=2 => None,
                    3..=5 => Some(Oversize::BestEffort),
                    6..=8 => Some(Oversize::Reject),
                    _ => Some(Oversize::Admit),
                };
                let workload = self.workload(imax as f64);
                let gap = workload.mean() / rho as f64 * self.real(0.3, 1.0);
                let deadline_s = if self.chance(0.1) {
                    self.real(1e-3, 1.0)
                } else {
                    1e7
                };
                UserConfig {
                    name: format!("U{}", i + 1),
                    class: UserClass::Gs,
                    weight,
                    rho_mips: Some(rho),
                    sigma_mi: Some(self.range(1, 5) * imax),
                    max_task_mi: Some(imax),
                    knowledge: Some(knowledge),
                    oversize,
                    queue_entries: None,
                    workload,
                    interarrival: self.gaps(gap),
                    phase_s: None,
                    deadline_s,
                }
            })
            .collect()
    }

    /// A workload around `imax`: fixed (at it, below, or above), uniform (sometimes reaching
    /// above), or exponential.
    fn workload(&mut self, imax: f64) -> Dist {
        match self.range(0, 4) {
            0 => Dist::Fixed(imax),
            1 => Dist::Fixed((imax * self.real(0.3, 1.0)).round().max(1.0)),
            2 => Dist::Fixed((imax * self.real(1.01, 1.5)).round()),
            3 => Dist::Uniform {
                min: (imax * self.real(0.05, 0.9)).round(),
                max: (imax * self.real(0.9, 1.4)).round().max(1.0),
            },
            _ => Dist::Exponential {
                mean: (imax * self.real(0.3, 1.0)).max(1.0),
            },
        }
    }

    /// Inter-arrival times of mean `mean` seconds.
    fn gaps(&mut self, mean: f64) -> Dist {
        let mean = mean.max(1e-6);
        match self.range(0, 2) {
            0 => Dist::Fixed(mean),
            1 => Dist::Uniform {
                min: mean * 0.5,
                max: mean * 1.5,
            },
            _ => Dist::Exponential { mean },
        }
    }

    /// `count` BE users flooding the resources that serve best effort.
    fn be_users(
        &mut self,
        resources: &[ResourceConfig],
        count: usize,
        users: &mut Vec<UserConfig>,
    ) {
        let takers: Vec<&ResourceConfig> = resources
            .iter()
            .filter(|r| r.kind != ResourceKind::Gs)
            .collect();
        if takers.is_empty() {
            return;
        }
        let capacity: u64 = takers.iter().flat_map(|r| r.cpus.iter()).sum();
        let largest = takers.iter().map(|r| r.max_task_mi).max().unwrap_or(1);
        for i in 0..count {
            let size = self.range((largest / 4).max(1), largest) as f64;
            let workload = match self.range(0, 2) {
                0 => Dist::Fixed(size),
                1 => Dist::Uniform {
                    min: size * 0.2,
                    max: size,
                },
                _ => Dist::Exponential { mean: size * 0.6 },
            };
            let load = capacity as f64 * self.real(0.3, 1.5) / count as f64;
            let gap = workload.mean() / load;
            // The draws in this order: weight, gaps, deadline.
            users.push(UserConfig::best_effort(
                format!("B{}", i + 1),
                self.range(1, 4) as u16,
                workload,
                self.gaps(gap),
                self.real(0.01, 100.0),
            ));
        }
    }
}

/// The GS users the simulator's registration rule admits somewhere (first resource, in order,
/// that serves GS, takes the user's `max_task_mi` (Eq. 2), has a free flow slot and keeps Eq. 1
/// for everybody), in order; the others are dropped.
fn admitted(resources: &[ResourceConfig], users: Vec<UserConfig>) -> Vec<UserConfig> {
    // Per resource: the (weight, rho) of the users registered so far.
    let mut registered: Vec<Vec<(u128, u128)>> = vec![Vec::new(); resources.len()];
    let mut kept = Vec::with_capacity(users.len());
    for u in users {
        let (Some(rho), Some(imax)) = (u.rho_mips, u.max_task_mi) else {
            continue;
        };
        let (w, rho) = (u128::from(u.weight), u128::from(rho));
        let home = resources.iter().enumerate().position(|(r, res)| {
            let capacity: u128 = res.cpus.iter().map(|&c| u128::from(c)).sum();
            let regs = &registered[r];
            let total: u128 = regs.iter().map(|x| x.0).sum::<u128>() + w;
            res.kind != ResourceKind::Be
                && imax <= res.max_task_mi
                && regs.len() < usize::from(res.max_users)
                && regs
                    .iter()
                    .chain([(w, rho)].iter())
                    .all(|&(wk, rk)| rk * total <= capacity * wk)
        });
        if let Some(r) = home {
            registered[r].push((w, rho));
            kept.push(u);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::super::scenario::to_toml;
    use super::*;
    use crate::models::ScenarioFile;

    #[test]
    fn generated_scenarios_are_valid_deterministic_and_round_trip() {
        for i in 0..200 {
            let s = scenario(7, i);
            s.validate()
                .unwrap_or_else(|e| panic!("{e:#}\n{}", to_toml(&s)));
            assert_eq!(s, scenario(7, i));
            assert_eq!(Scenario::parse(&to_toml(&s), "t.toml").unwrap(), s);
            assert!(s.users.iter().any(|u| u.class == UserClass::Gs));
        }
    }

    #[test]
    fn every_kind_knowledge_and_oversize_rule_is_drawn() {
        let batch: Vec<Scenario> = (0..200).map(|i| scenario(1, i)).collect();
        let resources = || batch.iter().flat_map(|s| s.resources.iter());
        let users = || batch.iter().flat_map(|s| s.users.iter());
        for kind in [
            ResourceKind::Gs,
            ResourceKind::Be,
            ResourceKind::GsBeEqual,
            ResourceKind::GsBePriority,
            ResourceKind::GsBePriorityPreemptive,
        ] {
            assert!(resources().any(|r| r.kind == kind), "{kind:?}");
        }
        for d in [Discipline::Wfq, Discipline::Scfq] {
            assert!(resources().any(|r| r.discipline == d));
        }
        assert!(resources().any(|r| r.cpus.len() == 16));
        for k in [
            Knowledge::Exact,
            Knowledge::Conservative,
            Knowledge::ConservativeFeedback,
            Knowledge::Aggressive,
        ] {
            assert!(users().any(|u| u.knowledge == Some(k)), "{k:?}");
        }
        assert!(users().any(|u| matches!(u.knowledge, Some(Knowledge::Window(_)))));
        for o in [
            None,
            Some(Oversize::BestEffort),
            Some(Oversize::Reject),
            Some(Oversize::Admit),
        ] {
            assert!(
                users().any(|u| u.class == UserClass::Gs && u.oversize == o),
                "{o:?}"
            );
        }
        assert!(users().any(|u| u.class == UserClass::Be));
        // Some resource has its rates adding up to its whole capacity.
        let tight = batch.iter().any(|s| {
            s.resources.iter().any(|r| {
                let capacity: u64 = r.cpus.iter().sum();
                let rhos: Vec<u64> = s
                    .users
                    .iter()
                    .filter_map(|u| u.rho_mips.filter(|_| s.resources.len() == 1))
                    .collect();
                !rhos.is_empty() && capacity - rhos.iter().sum::<u64>() < rhos.len() as u64
            })
        });
        assert!(tight, "no scenario at the whole capacity");
    }
}
