//! `qosgate reproduce kokkinos2009`: every experiment of kokkinos2009 Sec. 6.4 (Kokkinos &
//! Varvarigos 2009, Figs. 4-12 and Table 8), measured by the simulator and set against the
//! paper's claims.
//!
//! Each experiment is a list of scenario variants, each built by its
//! [`Simulation::scenario`](super::Simulation::scenario) (the grid of Tables 2-6: three GS users
//! U1-U3, two BE users U4-U5, resources R1-R3, deadlines 1.10 x each user's delay bound,
//! docs/errata.md E31). Every (variant, replication) pair runs in
//! parallel (rayon); a variant shared by two figures runs once. Each figure value is the mean
//! over the replications with its 95 % confidence interval ([`crate::report::stats`]); the
//! metrics are those of Sec. 6.3 ([`crate::models::grid::metrics`]).
//!
//! # Replications
//! A variant whose distributions are all fixed (Figs. 4-7, the multi-CPU runs, Fig. 8's Fixed
//! inter-arrivals, Table 8's two deterministic tie orders) is deterministic: it runs once and
//! its value is exact (no interval is printed: there is no spread to estimate). The random ones
//! (Figs. 8-11 and, with random phases, Table 8 and Fig. 12) run by precision
//! ([`Kokkinos2009::REPLICATIONS`](Experiment::REPLICATIONS), a [`Precision`]): 10
//! replications, then twice as many for a part's random variants while one of its claims is
//! undecided with an interval at least half its margin wide, up to 100. `--replications N`
//! runs every variant N times (fixed ones then show intervals of width 0) and marks a claim
//! still undecided as needing more; without it, shards and stored runs (`--shard`, `--runs`,
//! `--from`) run each random variant 100 times.
//!
//! # How the statements are judged
//! Each statement is a claim of the paper or a check ([`crate::report::statement`],
//! docs/judging.md), with a stable id `kokkinos2009.<figure>.<slug>` (below without the
//! `kokkinos2009.`). A claim measures an effect at one or more points, each with a 95 %
//! interval, against a margin: a point is reproduced when its interval lies wholly where the
//! claim holds, contradicted when wholly on the other side, inconclusive otherwise; the claim is
//! contradicted when any point is, reproduced when every point is. A check is true by
//! construction and must pass. The effects are paired: variants of one family draw the same
//! random numbers in replication `k` (common random numbers), so a difference of two variants is
//! the mean of the per-replication differences
//! ([`Runs::diff`](crate::experiments::Runs::diff)), an effect of three or four variants is
//! taken replication by replication ([`Runs::combined`](crate::experiments::Runs::combined)),
//! a ratio is the ratio of the means with its delta-method interval
//! ([`Runs::ratio_of_means`](crate::experiments::Runs::ratio_of_means)), and a level is the
//! mean over the replications ([`Runs::level`](crate::experiments::Runs::level)). A
//! deterministic variant's value is exact, and pairs with every replication of a random one.
//! Table 8's two ratios take their margins from the paper; every other margin is practical, its
//! reason printed with it. "GS users combined" is the share of all tasks of U1, U2, U3 together
//! (in the BE scenario too, where they are BE users); "points" are percentage points.
//!
//! # The experiments and their statements
//! 1. **Fig. 4** (`claim1`): the four resource scenarios of Table 6 (GB, GBE, GBP, BE) x U4
//!    inter-arrival 1093, 546, 55 s/t; per user % of tasks missing their deadline.
//!    `fig4.gs-no-misses` is a check: U1, U2 and U3 each miss 0 % in every GB, GBE and GBP
//!    variant and none of their tasks takes longer at its resource than its guaranteed bound,
//!    in every run (each deadline is 1.10 x the bound the kernel guarantees conforming tasks,
//!    and U1-U3 send fixed-size tasks at fixed intervals within their (rho, sigma)). Claims, in
//!    the BE scenario: `fig4.be-gs-miss-many`, the GS users' combined miss % at 55 s/t (a
//!    level) at least 10 % ("many": a tenth of their tasks); `fig4.be-gs-misses-rise`, that
//!    miss % at 546 minus at 1093 s/t and at 55 minus at 546 s/t at least -1 point (a fall of
//!    less than a point is no fall).
//! 2. **Figs. 5-7** (`claim2`), the same twelve runs: per user % of failed tasks, per resource use
//!    (CPU-seconds) and its standard deviation across R1-R3. Each claim sets one scenario
//!    against each of the other three at each U4 rate (nine points): `fig5.gbe-fails-many`, the
//!    BE users' (U4, U5) combined % of failed tasks under GBE minus the other's, at least 10
//!    points ("many": a tenth of their tasks); `fig5.gbp-fewest-misses`, GBP's % of all tasks
//!    missing their deadline (failed ones included) minus the other's, at most 1 point (a
//!    scenario within a point of another is not behind it); `fig7.gbp-most-even`, GBP's
//!    resource-use standard deviation minus the other's, as a % of GBP's total use, at most 1 %.
//! 3. **Figs. 8-9** (`claim3`): GBP x GS inter-arrival spreads Fixed, Un.5, Un.20, Un.50, Mixed
//!    (uniform on [-5 %, +5 %], ..., [-50 %, +20 %] of Table 2's value) x U4 1093, 546, 55 s/t;
//!    Fig. 9 adds the BE scenario under Mixed; Fig. 8's table adds the GS users' backlogged %.
//!    At each U4 rate, the GS users' combined miss % under a spread minus under Fixed:
//!    `fig8.small-spreads-like-fixed`, Un.5 and Un.20, within ±1 point (alike);
//!    `fig8.large-spreads-miss`, Un.50 and Mixed, at least 1 point. `fig9.gbp-fewer-than-be`:
//!    under Mixed, the % of all tasks missing their deadline under BE minus under GBP, at least
//!    1 point at each U4 rate (fewer by less than a point is not fewer).
//! 4. **Figs. 10-11** (`claim4`): GBP, U4 at 1093 s/t, GS workloads exponential with the means
//!    of Table 7 (S0, S-10, S-30) x workload knowledge Exact, Conservative, Conservative with
//!    feedback, Full aggressive, 5-, 10-, 20-window aggressive; the GS users' combined % of
//!    missed deadlines (Fig. 10) and % handled as BE (Fig. 11). R3, a BE resource, takes a task
//!    of any size (Sec. 3.4 checks sizes only where GS is served; Sec. 6.2 sets `I_r^max` above
//!    every task). Every GS user's tasks above its `I_max` (Table 2's value, here the
//!    exponential's mean) are served as GS, as the paper's are (Fig. 11 has Conservative and
//!    Full aggressive hand none to BE though they cannot see sizes, and Exact hand fewer to BE
//!    than the windows, which Eq. 4 at the mean, sending 24-38 % of its tasks to BE, would not
//!    allow: docs/errata.md E33): `oversize = "admit"`, so the users have no guarantee (their
//!    deadlines are planned with the kernel's estimate) and the kernel serves no GS task above
//!    the resource's largest, 419,900,000 MI at R1 and R2 (the paper's resources take any size;
//!    U1's draws above it go best effort). The other reading, Eq. 4 applied by Exact, is the
//!    series "Exact, Eq. 4": every claim that involves Exact is judged again with it, and its
//!    outcome there printed beside (`Other reading:`). Per workload scenario, paired (the
//!    methods see the same workloads in replication `k`), each margin 1 point (percentages
//!    within a point rank alike) unless stated: `fig10.exact-fewest-misses`, the GS miss % under
//!    Exact minus under Conservative, Conservative with feedback and Full aggressive, at most 1
//!    (the windows are compared apart: Eq. 9 gives them longer deadlines);
//!    `fig11.conservative-aggressive-no-be`, the % of GS tasks Conservative and Full aggressive
//!    hand to BE (a level), at most 0.1 % ("never"; its `Why:` gives the kernel's size limit
//!    and E34's random walk); `fig10.feedback-between`, Exact minus feedback and feedback minus
//!    the worse of Conservative and Full aggressive (taken run by run), each at most 1;
//!    `fig10.windows-like-exact`, each window minus Exact, at most 1; `fig11.windows-more-be`,
//!    the % handed to BE under each window minus under Exact, at least 1.
//! 5. **Table 8 and Fig. 12** (`claim5`): the BE scenario with the workloads of Sec. 6.4.4
//!    (U1-U5: 419,900,000, 71,383,000, 419,900, 209,950,000, 2,099,500,000 MI; every resource
//!    accepts the largest) and one deadline for every user (U1's; "all users have equal
//!    deadlines"), EDF/EST against WFQ/EST; Table 8 at U4 3278 s/t (printed beside the paper's
//!    numbers and the floor no scheduler can beat: every task alone on R1, no queueing), Fig. 12
//!    at every U4 inter-arrival of Table 4 (5464 to 55 s/t). Judged with a random phase per user
//!    and replication ([`presets::Arrivals::RandomPhase`]; the deterministic tie orders, U1 ...
//!    U5 and U4, U5 first, printed beside: docs/errata.md E32):
//!    `table8.wfq-smaller-delay-mean` and `table8.wfq-smaller-delay-sd`, WFQ/EST's mean
//!    (standard deviation) of the delay of 1 MI over EDF/EST's (ratio of means), at most the
//!    paper's own ratio (Table 8: 13.63 / 21.96 and 30.07 / 48.48, both 0.62 x);
//!    `fig12.wfq-fairer`, EDF/EST's deadline fairness metric minus WFQ/EST's at each of the
//!    nine U4 rates, at least 0.001 (a mean relative lateness 0.1 % of a deadline lower);
//!    `fig12.gap-grows`, that difference at each U4 inter-arrival minus at the next longer one
//!    (eight points) and at 55 minus at 5464 s/t, at least 0 (no step down).
//! 6. **Multi-CPU** (`multicpu`, Sec. 6.4.1, last paragraph): GB, GBE, GBP with R1-R3 of 30,
//!    20, 10 CPUs of 26,000 MIPS x U4 1093, 546, 55 s/t: `sec641.multi-cpu-no-misses`, a check
//!    as `fig4.gs-no-misses`.
//!
//! The outcome of every statement at the defaults is pinned in
//! `tests/outcomes/kokkinos2009.toml` (`tests/outcomes.rs`).
//!
//! With `--out DIR`: `<id>.csv` (one row per group and series: mean, half-width, replications)
//! and `<id>.svg` per figure (grouped bars with the intervals; Figs. 7 and 12, over U4's
//! inter-arrival time, lines with confidence bands), `summary.json` (every figure's values and
//! every statement), `index.html` (the page: [`crate::report::html`]) and `timing.txt`.
//!
//! # Files
//! - [`params`]: the paper's grid (users, resources, registrations), with sources.
//! - [`presets`]: [`Variant`], the named parameters of one experiment, and the presets.
//! - `measure.rs`: what the claims share (users, axes, combined metrics, figure helpers, the
//!   guarantee check).
//! - `claim1.rs` ... `claim5.rs`, `multicpu.rs`: one part each, its variants and its judge.

mod claim1;
mod claim2;
mod claim3;
mod claim4;
mod claim5;
mod measure;
mod multicpu;
pub mod params;
pub mod presets;

use anyhow::Result;

use super::{Experiment, Part, Precision};
use crate::models::grid::Grid;
use crate::models::grid::scenario::Scenario;
use crate::report::{Citation, Mode, Parameters};
use presets::Variant;

/// kokkinos2009 Sec. 6.4 ([`Experiment`]).
#[derive(Debug, Clone, Copy)]
pub struct Kokkinos2009;

impl Experiment for Kokkinos2009 {
    type Model = Grid;
    type Variant = Variant;

    const ID: &'static str = "kokkinos2009";
    const PAPER: Citation = Citation {
        authors: "P. Kokkinos, E. A. Varvarigos",
        title: "A framework for providing hard delay guarantees and user fairness in Grid computing",
        venue: "Future Generation Computer Systems 25(6)",
        year: 2009,
    };
    const TITLE: &'static str = "Sec. 6.4";
    /// Replications of a variant with a random distribution when `--replications` is not
    /// given (fixed ones run once).
    const REPLICATIONS: Precision = Precision {
        first: 10,
        cap: 100,
    };
    const PRESETS: fn() -> Result<Vec<Scenario>> = presets::all;

    fn parts(&self) -> Vec<Part<Self>> {
        vec![
            Part::new("claim1", &["fig4"], claim1::variants(), claim1::judge),
            Part::new(
                "claim2",
                &["fig5", "fig6", "fig7"],
                claim2::variants(),
                claim2::judge,
            ),
            Part::new(
                "claim3",
                &["fig8", "fig9"],
                claim3::variants(),
                claim3::judge,
            ),
            Part::new(
                "claim4",
                &["fig10", "fig11"],
                claim4::variants(),
                claim4::judge,
            ),
            Part::new(
                "claim5",
                &["table8", "fig12"],
                claim5::variants(),
                claim5::judge,
            ),
            Part::new(
                "multicpu",
                &["multicpu"],
                multicpu::variants(),
                multicpu::judge,
            ),
        ]
    }

    fn parameters(&self) -> Vec<Parameters> {
        vec![Parameters {
            mode: Mode::Literal,
            description: "The paper's grid as printed (Tables 2-6: users U1-U5, resources R1-R3, \
                          registrations; Table 7's workloads, Table 4's U4 inter-arrival times, \
                          Sec. 6.4's spreads, knowledge methods and orderings), SCFQ at the \
                          resources, EDF/EST at the meta-scheduler unless a figure compares \
                          orderings, a 1 s collection period. Where the paper is silent \
                          (erratum E31): deadlines 1.10 x each GS user's end-to-end bound \
                          under GBP, 1000-byte transfers on 1 Gb/s links, a 200,000 s \
                          horizon, two flow slots per resource (presets.rs states each choice)."
                .into(),
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::Runs;

    #[test]
    fn a_claim_without_measurements_is_never_decided() {
        let runs = Runs::empty();
        let sections: Vec<_> = Kokkinos2009
            .parts()
            .iter()
            .map(|p| p.judge.section(&runs))
            .collect();
        let fig4 = &sections[0].figures[0];
        assert!(fig4.values.iter().flatten().all(Option::is_none));
        let text = fig4.text();
        let row = text.lines().find(|l| l.starts_with("GB 1093")).unwrap();
        assert_eq!(row.split_whitespace().skip(2).collect::<Vec<_>>(), ["-"; 5]);
    }

    #[test]
    fn every_figure_variant_is_simulated_once() {
        let mut keys: Vec<String> = Vec::new();
        for v in Kokkinos2009.parts().iter().flat_map(|p| &p.variants) {
            let k = format!("{v:?}");
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        // Figs. 4-7 (12), Fig. 8 beyond Fixed (12), Fig. 9's BE (3), multi-CPU (9), Figs. 10-11
        // (21, and Exact under Eq. 4 for each of the 3 workloads), Table 8 and Fig. 12 (18 per
        // arrival pattern, three patterns).
        assert_eq!(keys.len(), 12 + 12 + 3 + 9 + 21 + 3 + 3 * 18);
    }

    #[test]
    fn every_part_names_the_figures_its_judge_draws() {
        let runs = Runs::empty();
        for p in Kokkinos2009.parts() {
            let drawn: Vec<&str> = p
                .judge
                .section(&runs)
                .figures
                .iter()
                .map(|f| f.id)
                .collect();
            assert_eq!(drawn, p.figures, "part {}", p.id);
        }
    }
}
