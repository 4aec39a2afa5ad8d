//! The built-in grid of kokkinos2009 (Kokkinos & Varvarigos 2009, Sec. 6.2 and Tables 2-6).
//!
//! Every number below is the paper's, with the table or section it comes from; where the paper is
//! silent or self-contradictory, erratum E31 decides, and the choice is stated on the item.
//!
//! Units are the kernel's ([`qosgate_kernel::units`]): rates in MIPS, work in MI.

use qosgate_kernel::bucket::{Knowledge, Oversize};
use qosgate_kernel::registry::Registration;
use qosgate_kernel::units::{Mips, Weight, Work};

use crate::models::grid::bounds::{About, GsGrid, GsResource, GsUser};
use crate::report::table::grouped;

/// A guaranteed-service user of Tables 2 and 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct User {
    /// The paper's name (U1 = Atlas VO, U2 = Magic, U3 = Dteam).
    pub name: &'static str,
    /// Long-term rate rho, MIPS, as printed in Table 3. The text says rho is the Table 2 workload
    /// over the inter-arrival time, which gives 769,048 / 21,776 / 69.9 MIPS: close for U1 and U2,
    /// ten times smaller for U3. The printed values are used (they are what registered).
    pub rho: Mips,
    /// Burst sigma, MI (Table 3: 5 x the task workload, `m = 5`).
    pub sigma: Work,
    /// Maximum task `I_i^max`, MI: the fixed task workload of Table 2 (Sec. 6.2: "The GS users
    /// maximum task workload is equal to their corresponding fixed task workload").
    pub imax: Work,
    /// Share weight `w`: 1 for every user (erratum E31; the paper's Eq. 6 also takes `w = 1`).
    pub weight: Weight,
}

impl User {
    /// The registration this user asks of a resource: its (rho, sigma, I_max), weight 1, and
    /// exact workload knowledge (Sec. 6.1: "task workloads are known a priori").
    pub fn registration(&self) -> Registration {
        Registration {
            weight: self.weight,
            rho: self.rho,
            sigma: self.sigma,
            imax: self.imax,
            knowledge: Knowledge::Exact,
            oversize: Oversize::Refuse,
            entries: 0,
        }
    }
}

/// A resource of Table 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResourceSpec {
    /// The paper's name.
    pub name: &'static str,
    /// Total capacity `C'`, MIPS (Table 5).
    pub capacity: Mips,
    /// Number of CPUs of the multi-CPU experiment (Table 5, Sec. 6.4.1: 30 / 20 / 10).
    pub multi_cpus: u16,
}

/// How a resource's capacity is split into CPUs (erratum E31): the grid model's.
pub use crate::models::grid::bounds::Layout;

/// Capacity of one kallisto.hellasgrid.gr processor, MIPS (Sec. 6.2, Table 5).
pub const CPU_MIPS: Mips = Mips::new(26_000);

/// The resources' maximum task `I_r^max`, MI, the same at every resource.
///
/// Sec. 6.2 says only that it "is taken to be larger than the task workload produced by any
/// user". We take the largest task of Tables 2 and 4, 419,900,000 MI (U1's GS tasks and the BE
/// tasks of U4 and U5): the smallest value that admits every task of the paper's workload (Eq. 2
/// and the BE size check of Sec. 3.4 are both `<=`), and so the tightest `I_r / C` terms. Any
/// larger value only loosens the bounds.
pub const MAX_TASK: Work = Work::new(419_900_000);

/// The users of Tables 2 and 3.
pub const USERS: [User; 3] = [
    User {
        name: "U1",
        rho: Mips::new(768_473),
        sigma: Work::new(2_099_500_000),
        imax: Work::new(419_900_000),
        weight: 1,
    },
    User {
        name: "U2",
        rho: Mips::new(21_773),
        sigma: Work::new(356_915_000),
        imax: Work::new(71_383_000),
        weight: 1,
    },
    User {
        name: "U3",
        rho: Mips::new(699),
        sigma: Work::new(2_099_500),
        imax: Work::new(419_900),
        weight: 1,
    },
];

/// The resources of Table 5.
pub const RESOURCES: [ResourceSpec; 3] = [
    ResourceSpec {
        name: "R1",
        capacity: Mips::new(780_000),
        multi_cpus: 30,
    },
    ResourceSpec {
        name: "R2",
        capacity: Mips::new(520_000),
        multi_cpus: 20,
    },
    ResourceSpec {
        name: "R3",
        capacity: Mips::new(260_000),
        multi_cpus: 10,
    },
];

/// The registrations of Sec. 6.4, in the order they are made, as (user, resource) indices into
/// [`USERS`] and [`RESOURCES`]: "U1 registers to R1, and U2 and U3 to R2". R3 serves best effort
/// in every scenario of Table 6 and gets no GS registration.
pub const REGISTRATIONS: [(usize, usize); 3] = [(0, 0), (1, 1), (2, 1)];

/// The whole built-in grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// GS users (Tables 2, 3).
    pub users: &'static [User],
    /// Resources (Table 5).
    pub resources: &'static [ResourceSpec],
    /// Registrations in order, `(user, resource)` indices (Sec. 6.4).
    pub registrations: &'static [(usize, usize)],
    /// `I_r^max` of every resource, MI (see [`MAX_TASK`]).
    pub max_task: Work,
}

/// The grid of kokkinos2009's simulations.
pub fn grid() -> Grid {
    Grid {
        users: &USERS,
        resources: &RESOURCES,
        registrations: &REGISTRATIONS,
        max_task: MAX_TASK,
    }
}

impl Grid {
    /// The grid as [`bounds`](crate::models::grid::bounds) computes on it, named
    /// `kokkinos2009`: every resource with its [`Layout::Multi`] CPUs and [`MAX_TASK`], every
    /// user's [`User::registration`], and the registrations of Sec. 6.4.
    pub fn gs_grid(&self) -> GsGrid {
        GsGrid {
            name: "kokkinos2009".to_owned(),
            users: self
                .users
                .iter()
                .map(|u| GsUser {
                    name: u.name.to_owned(),
                    registration: u.registration(),
                })
                .collect(),
            resources: self
                .resources
                .iter()
                .map(|r| GsResource {
                    name: r.name.to_owned(),
                    cpus: r.cpus(Layout::Multi),
                    max_task: self.max_task,
                })
                .collect(),
            registrations: self.registrations.to_vec(),
        }
    }

    /// What `qosgate bounds` says of this grid in its heading and legend.
    pub fn about(&self) -> About {
        About {
            name: "kokkinos2009".to_owned(),
            grid: format!(
                "the kokkinos2009 grid (users of Tables 2-3, resources of Table 5, registrations \
                 of Sec. 6.4), I_r^max = {} MI at every resource",
                grouped(self.max_task.get())
            ),
            current: "and in this grid they add up to less than one I_r^max (U1 is alone at R1), \
                      so SCFQ's current-basis bound is the smaller"
                .to_owned(),
            multi: "30/20/10 CPUs of 26,000 MIPS".to_owned(),
        }
    }
}

impl ResourceSpec {
    /// The CPU capacities of this resource in `layout`, MIPS.
    pub fn cpus(&self, layout: Layout) -> Vec<Mips> {
        match layout {
            Layout::Single => vec![self.capacity],
            Layout::Multi => vec![CPU_MIPS; usize::from(self.multi_cpus)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::grid::bounds;

    #[test]
    fn tables_are_self_consistent() {
        // Table 5: the total capacity is the CPU count times 26,000 MIPS, in both layouts.
        for r in RESOURCES {
            for layout in Layout::ALL {
                let total: u64 = r.cpus(layout).iter().map(|c| c.get()).sum();
                assert_eq!(total, r.capacity.get());
            }
        }
        for u in USERS {
            // Table 3: sigma = 5 x the Table 2 workload.
            assert_eq!(u.sigma.get(), 5 * u.imax.get());
            // Eq. 2 holds for every user.
            assert!(u.imax <= MAX_TASK);
            assert!(u.registration().validate().is_ok());
        }
        assert_eq!(grid().registrations.len(), 3);
    }

    #[test]
    fn the_paper_presets_register_as_sec_6_4_says() {
        for name in ["kokkinos2009-gbp-multi", "kokkinos2009-gb-multi"] {
            let preset = super::super::presets::get(name).unwrap();
            let built = GsGrid::of(&preset).unwrap();
            assert_eq!(built.name, name);
            assert_eq!(
                GsGrid {
                    name: "kokkinos2009".into(),
                    ..built
                },
                grid().gs_grid()
            );
        }
        // One CPU each: only the single layout differs.
        let single = super::super::presets::get("kokkinos2009-gb").unwrap();
        assert_eq!(GsGrid::of(&single).unwrap().layouts(), [Layout::Single]);
        // Table 6's BE scenario serves no GS user: no registration, no row.
        let be = super::super::presets::get("kokkinos2009-be").unwrap();
        let be = GsGrid::of(&be).unwrap();
        assert!(be.registrations.is_empty());
        let file = About::file("be.toml", &be);
        assert!(
            bounds::compute(&be, file, &bounds::Config::default())
                .unwrap()
                .rows
                .is_empty()
        );
    }
}
