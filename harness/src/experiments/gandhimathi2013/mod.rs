//! `qosgate reproduce gandhimathi2013`: the experiments of gandhimathi2013 Sec. IV (Gandhimathi et
//! al. 2013, a reprint of Li et al., JPDC 72 (2012) 666-677 without its figures): Figs. 7-8,
//! Table 3, Tables 4-5 and Figs. 9-10, measured on the multi-cloud model
//! ([`crate::models::multicloud`]) and set against the paper's claims.
//!
//! # The set-up (Sec. 4.1, Table 2, erratum E25)
//! Three clouds: Thunder (1,024 servers of 4 cores, performance 1), Atlas (1,152 of 8, 0.85) and
//! uBGL (1,024 of 2, 0.50). Each receives the applications of its own trace: LLNL Thunder's
//! and Atlas's cleaned logs, and, for uBGL (whose log is not at hand), NASA Ames' iPSC/860 log
//! scaled 16 times to its 2,048 processors. Jobs in submit order are cut into applications of
//! `U{1..64}` jobs with E25's random DAG shape; 20 % of the applications are advance
//! reservations (entry tasks asked within 30 min of arrival, later tasks zero-notice); SI/b =
//! 1 s, datasets 8,000 s away (1 TB at 1 Gb/s); server power 1 active, 0.3 idle. "Loose" keeps
//! the trace's gaps between applications, "tight" divides them by 100 (Table 3: by 1, 20, ...,
//! 100). Every variant uses seeds 2013 + k: replication `k` of every variant sees the same
//! applications (common random numbers), so comparisons are paired over replications.
//!
//! # Replications
//! By precision ([`crate::experiments::Precision`]): every variant runs E25's 10 replications
//! first; a part with an unsettled claim (undecided, its interval at least half its margin
//! wide) runs twice as many, up to [`CAP`] = 40. The paper states no count (the 10 are
//! E25's); 40 halves the intervals of the first 10. At the defaults 4,800 runs of 360
//! variants take about 150 CPU-seconds in release (140 s on 2 cores shared with another build;
//! every variant at 40 would be 14,400 runs).
//! `--replications N` runs every variant `N` times instead, and the report notes the claims
//! that would need more.
//!
//! The traces are the compiled cut-downs (the first 1,000 lines of each: 994, 835 and 989
//! usable jobs, about 5, 12 and 7 days of arrivals); with `QOSGATE_TRACES` naming the directory
//! of the full traces they are read from there, and `QOSGATE_TRACE_JOBS=N` takes the first `N`
//! jobs of each (the real reproduction over longer windows; the same window gives the same
//! numbers from either source).
//!
//! # Modes and readings
//! Erratum E25: the paper does not define its FCFS, and Table 4's 19-23 % gain at 0 %
//! reservations only makes sense if FCFS picks clouds badly, so the FCFS definition decides
//! every comparison with it. Every part therefore runs in two modes (`report::Mode`):
//! - **literal**: E25's FCFS, each ready task to the cloud where it can start earliest (a
//!   balancing FCFS, `fcfs = "earliest_start"`);
//! - **calibrated**, one change: FCFS serves each application first come, first served on its
//!   own cloud (the one it was submitted to, whose trace it comes from: `fcfs = "home_cloud"`),
//!   the reading of Sec. 4.2's "workload unbalance ... is the major drawback of the FCFS
//!   algorithm". DCLS and DCMMS are the same runs in both modes.
//!
//! Every statement is judged in each mode (the mode in its id); those that do not involve
//! FCFS read the same runs in both. Nothing else is calibrated: a statement that fails in the
//! calibrated mode is reported failing, with its numbers and a one-line reason (`Why:`).
//!
//! Two readings of the model are the scenario's (`docs/multicloud-scenarios.md`). Every
//! outcome is given in the main reading; every variant is also run under each other reading
//! (one change each), and where one gives a statement another outcome the report prints that
//! outcome and its points as `Other reading:`.
//! - **queue order** (`queue`): main, a cloud runs its ready best-effort tasks in the order
//!   they were assigned to it (`"assigned"`: Sec. 3's "if the manager server assigns a task to
//!   its own cloud, it will store the task in a queue. And when the resources and the data are
//!   ready, this task is executed", Sec. 3.1.4's "current task queue of cloud j and the
//!   schedule of execution order", and Fig. 6, whose estimated and actual orders differ only
//!   by an AR's preemption). Other reading: in the order they became ready (`"ready"`), under
//!   which a later application's ready tasks overtake the tasks the planning profiles promised
//!   earlier.
//! - **the feedback's instant** (`feedback_from`, erratum E23): main, the paper's words,
//!   `delta_tau` is "the actual execution time of task i on cloud j", measured from the task's
//!   actual start there to its finish and compared with its planned run `D = SI/b + ETM`
//!   (`"start"`): a cloud is charged with what happened to the task once it ran (a
//!   preemption), not with the wait before. Other readings: Eq. 6 as printed, `delta_tau =
//!   Tact_fin - ERAT` with the planned ERAT, which holds the predecessors' planned finishes
//!   (`"erat"`: a task whose predecessors finished late counts their lateness against its own
//!   cloud, and a short task behind them sets a factor in the hundreds, shutting the cloud out
//!   until the origin's next completion there); and from the later of the planned ERAT and
//!   the instant the task reached its cloud (`"ready"`: the cloud charged with its own queue
//!   too). In Fig. 5's example, a task that starts at its ERAT, the three agree. The
//!   statements on the feedback print the lateness and the factors of DCLS at alpha 1
//!   (`Why:`).
//!
//! # The statements, their margins and outcomes
//! Every statement is judged in each mode, with the mode in its id
//! (`gandhimathi2013.<literal|calibrated>.<figure>.<slug>`); those that do not involve FCFS
//! read the same runs in both modes and come out the same. A claim measures an effect at each
//! of its points with a 95 % interval and is reproduced when every interval lies in its
//! margin's region, contradicted when one lies wholly outside, inconclusive otherwise
//! ([`crate::report::statement`]). Execution times are compared as ratios of means over paired
//! replications (delta method), never as means of per-replication ratios; a difference of two
//! such ratios (Tables 3-5's steps and cells) has its delta-method interval too
//! (`measure::delta_method`). Where the paper prints the effect, the margin is the weakest it
//! prints for that claim (its words beside the criterion); where it prints none (Figs. 7-10
//! are not in the reprint), the margin is taken from the nearest numbers it prints, or, for
//! energy, 5 %, the paper's smallest gap between two schedulers.
//!
//! 1. **Figs. 7-8** (FCFS, and DCLS and DCMMS at alpha 0, 0.2, ..., 1; loose and tight; the
//!    20 % column of Tables 4-5 is these runs at alpha 0.8), at every alpha, loose and tight:
//!    `fig7-8.dcmms-beats-dcls`, DCMMS's time over DCLS's at most 0.95 (Table 4 at 0 %: 0.77
//!    against 0.81, the smallest gap printed); `fig7-8.dcmms-beats-fcfs`, DCMMS's over FCFS's
//!    at most 0.77, and `fig7-8.dcls-beats-fcfs`, DCLS's at most 0.81 (Table 4 at 0 %, each
//!    one's smallest gain); `fig7.feedback-insignificant-loose`, loose, the change of DCLS's
//!    and DCMMS's time at each alpha > 0 from alpha 0 within ±8.32 % (Table 3 at gaps / 1,
//!    the loose situation: -6.63 % and -8.32 %, which the text calls insignificant);
//!    `fig8.feedback-shortens-tight`, tight, their saving at each alpha > 0 at least 8.32 %.
//! 2. **Table 3** (DLS, FDLS, DMMS, FDMMS: alpha 0 and 1 at gap divisors 1, 20, 40, 60, 80,
//!    100), the improvement `100 (1 - T(alpha 1) / T(alpha 0))`:
//!    `table3.improvement-grows`, for DLS and DMMS its rise from each divisor to the next at
//!    least 3.5 points (Table 3's smallest step, DLS / 20 to / 40);
//!    `table3.feedback-improves-heavy-contention`, at / 100 at least 30.69 % (DLS's; DMMS's is
//!    40.23 %).
//! 3. **Tables 4-5** (FCFS, DCLS, DCMMS at alpha 0.8; 0, 20, 50, 80, 100 % reservations; loose
//!    and tight), the ratio `T / T(FCFS)`: `table4-5.dcls-dcmms-beat-fcfs`, at most 0.81 in
//!    every cell (the largest printed); `table4-5.more-reservations-more-gain`, its fall from
//!    each share to the next at least 0.02 (the smallest printed); `table4-5.tight-more-gain`,
//!    tight minus loose at most -0.11 in every cell (the smallest printed gap, DCLS at 100 %);
//!    `table4-5.dcmms-beats-dcls`, DCMMS's time over DCLS's at most 0.95 (FCFS's cancels, so
//!    both modes agree).
//! 4. **Figs. 9-10** (FCFS, DCLS and DCMMS at alpha 0.8 under the energy-aware mapping and its
//!    baselines first-fit by VM, first-fit by task and worst-fit; loose and tight), energy
//!    over energy at most 0.95 (practical: 5 %): `fig9-10.dcls-dcmms-less-energy-than-fcfs`;
//!    `fig9-10.energy-aware-beats-first-fit-by-vm`, `...-first-fit-by-task` and
//!    `...-worst-fit`, for FCFS (the mode's), DCLS and DCMMS. The paper's gain ("our
//!    energy-aware local mapping further reduce the energy consumption significantly", Sec. 4;
//!    Algorithm 5 as erratum E24 corrects it) over first-fit needs tasks that fill part of a
//!    server: the
//!    statements print the share of such tasks (the traces' widths are whole nodes of their own
//!    clusters). Each of these three is judged on energy (active 1, idle 0.3 per server) and on
//!    active server-time (what the mapping decides, whatever the idle power), a point each. A
//!    control workload beside the traces gives every task `U{1..16}` VMs, part of a server on
//!    every cloud (the same applications, arrivals and run times; FCFS, DCLS and DCMMS under
//!    the energy-aware mapping and first-fit by VM, loose and tight):
//!    `fig9-10.control-less-active-server-time-than-first-fit-by-vm` and
//!    `fig9-10.control-less-energy-than-first-fit-by-vm`, each at most 0.95. A check,
//!    `fig9-10.mapping-keeps-times`: the mappings give identical execution times in every
//!    replication, true by construction (the lease manager decides every time; the mapping
//!    only picks servers).
//!
//! Contradicted claims name their root cause ([`crate::report::statement::Cause`], in
//! `measure.rs`): the feedback shortening nothing under any reading of Eq. 6 (E23: from a
//! task's actual start its factors are about 0, from the planned ERAT it charges a cloud with
//! its predecessors' lateness; the claims on the feedback), FCFS placing as well as the plans where applications rarely
//! overlap (the loose comparisons with FCFS), reservations starting as asked under every
//! scheduler (Tables 4-5's trend), DCMMS and DCLS placing over the same profiles (their
//! comparisons), the traces' whole-server widths (first-fit), idle servers making most of the
//! control workload's energy (its energy against first-fit), and, loose, every scheduler
//! running the same work over about the same span (energy against FCFS). The statements on the
//! feedback print beside them how late tasks finish against their plans and the median factor Eq. 7
//! makes of it.
//!
//! # Censored outcomes
//! A run ends when every application has ended; an application a cloud refused (its
//! reservation's VMs were held) never finishes. The metrics count those per run and give the
//! mean execution time with them at their lower bounds (the run's end minus arrival) beside
//! the mean over the finished ones ([`crate::models::multicloud::metrics`]); every claim on
//! execution times says how many there were in the runs it compares, and where there were any,
//! each point carries the second interval, and a point whose two intervals disagree is
//! inconclusive.
//!
//! # Choices where the paper is silent
//! FCFS (above), the queue order (above), MLIP preemption, the
//! planning profiles ([`crate::models::multicloud::profile`]), and the trace windows above.
//! The paper prints Table 3 without units; the figures give hours.
//!
//! # Files
//! - [`params`]: the paper's numbers and E25's choices.
//! - [`presets`]: [`presets::Variant`] and the presets.
//! - `measure.rs`: what the claims share.
//! - `fig7_8.rs`, `table3.rs`, `tables4_5.rs`, `energy.rs`: one claim each.

mod energy;
mod fig7_8;
mod measure;
pub mod params;
pub mod presets;
mod table3;
mod tables4_5;

use anyhow::Result;

use super::{Experiment, Part, Precision};
use crate::models::multicloud::Multicloud;
use crate::models::multicloud::scenario::{Scenario, TraceSource};
use crate::report::{Citation, Mode, Parameters};
use presets::Variant;

/// The most replications a part runs by precision (the paper states no count; E25's 10 are the
/// first batch): see the module doc.
pub const CAP: u32 = 40;

/// gandhimathi2013 Sec. IV ([`Experiment`]).
#[derive(Debug, Clone, Copy)]
pub struct Gandhimathi2013;

impl Experiment for Gandhimathi2013 {
    type Model = Multicloud;
    type Variant = Variant;

    const ID: &'static str = "gandhimathi2013";
    const PAPER: Citation = Citation {
        authors: "S. Gandhimathi, M. Madhushudhanan, A. Srivishnu Paraneetharan",
        title: "Online optimization for scheduling preemptable tasks on IaaS cloud systems",
        venue: "no venue printed in the supplied text (a reprint of J. Li et al., JPDC 72(5), 2012)",
        year: 2013,
    };
    const TITLE: &'static str = "Sec. IV";
    /// E25's 10 seeds first; up to [`CAP`] where a claim is unsettled.
    const REPLICATIONS: Precision = Precision {
        first: presets::REPLICATIONS,
        cap: CAP,
    };
    const PRESETS: fn() -> Result<Vec<Scenario>> = presets::all;

    fn parts(&self) -> Vec<Part<Self>> {
        vec![
            Part::new(
                "claim1",
                &["fig7", "fig8"],
                fig7_8::variants(),
                fig7_8::judge,
            ),
            Part::new(
                "claim2",
                &["table3", "table3-improvement"],
                table3::variants(),
                table3::judge,
            ),
            Part::new(
                "claim3",
                &["table4", "table5", "table4-calibrated", "table5-calibrated"],
                tables4_5::variants(),
                tables4_5::judge,
            ),
            Part::new(
                "claim4",
                &["fig9", "fig10", "fig9-10-control"],
                energy::variants(),
                energy::judge,
            ),
        ]
    }

    fn parameters(&self) -> Vec<Parameters> {
        let sources: Vec<String> = params::DATA_CENTERS
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let source = match crate::models::multicloud::traces::preferred(d.trace) {
                    TraceSource::Builtin(_) => "the compiled cut-down".to_owned(),
                    TraceSource::File(p) => p.display().to_string(),
                };
                format!(
                    "{}: {} jobs of {} ({source})",
                    d.name,
                    params::jobs(i),
                    d.trace.file_name()
                )
            })
            .collect();
        vec![
            Parameters {
                mode: Mode::Literal,
                description: format!(
                    "The paper's set-up as printed (Sec. 4.1, Table 2): Thunder 1,024 x 4 cores \
                     (performance 1), Atlas 1,152 x 8 (0.85), uBGL 1,024 x 2 (0.50), each fed \
                     by its trace (uBGL: NASA iPSC/860 scaled 16x, its own log not being at \
                     hand); applications of 1-64 jobs; 20 % advance reservations asked within \
                     30 min; 1 TB datasets over 1 Gb/s (8,000 s); gaps / 1 (loose) or / 100 \
                     (tight); alpha 0.8 in Tables 4-5 and Figs. 9-10. Where the paper is silent \
                     (erratum E25): FCFS places each ready task where it can start \
                     earliest; DAG shape (entry 10 %, else 1-3 predecessors); SI/b 1 s; power \
                     1 active, 0.3 idle; MLIP preemption; suspend and resume 1 s each; each \
                     cloud runs its ready best-effort tasks in the order they were assigned to \
                     it, and Eq. 6's delta_tau, \"the actual execution time of task i on cloud \
                     j\", runs from the task's actual start there (E23; the other readings, the \
                     order tasks became ready, delta_tau from the planned ERAT as printed and \
                     from the instant a task was ready, are printed where they change an \
                     outcome). Figs. 9-10 add a control workload, the same applications with \
                     tasks of 1-16 VMs. Traces: {}.",
                    sources.join("; ")
                ),
            },
            Parameters {
                mode: Mode::Calibrated,
                description: "The literal set-up with one change: FCFS serves each application \
                              first come, first served on its own cloud (where it was \
                              submitted, whose trace it comes from), without balancing across \
                              clouds (Sec. 4.2: \"workload unbalance ... is the major drawback \
                              of the FCFS algorithm\"; E25: the FCFS definition decides every \
                              comparison with it). DCLS and DCMMS are the literal runs."
                    .into(),
            },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::Runs;
    use crate::models::multicloud::traces;

    /// Every statement comes in both modes, side by side, with the mode in its id and set;
    /// the ids are `gandhimathi2013.<mode>.<figure>.<slug>` and unique.
    #[test]
    fn every_statement_is_judged_in_both_modes() {
        let runs = Runs::empty();
        let mut ids = std::collections::BTreeSet::new();
        for p in Gandhimathi2013.parts() {
            let statements = p.judge.section(&runs).statements;
            assert!(!statements.is_empty(), "part {}", p.id);
            for pair in statements.chunks(2) {
                let [literal, calibrated] = pair else {
                    panic!("part {}: an odd statement", p.id)
                };
                assert_eq!(literal.mode, Some(Mode::Literal), "{}", literal.id);
                assert_eq!(calibrated.mode, Some(Mode::Calibrated), "{}", calibrated.id);
                let rest = literal.id.strip_prefix("gandhimathi2013.literal.").unwrap();
                assert_eq!(
                    calibrated.id.strip_prefix("gandhimathi2013.calibrated."),
                    Some(rest)
                );
                assert_eq!(rest.split('.').count(), 2, "{}", literal.id);
                assert_eq!(literal.kind, calibrated.kind);
                assert!(ids.insert(literal.id.clone()) && ids.insert(calibrated.id.clone()));
            }
        }
        assert_eq!(ids.len(), 36);
    }

    #[test]
    fn every_variant_is_simulated_once() {
        let mut keys: Vec<String> = Vec::new();
        for v in Gandhimathi2013.parts().iter().flat_map(|p| &p.variants) {
            let k = format!("{v:?}");
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        // Per queue order: Figs. 7-8: 2 x (2 + 2 x 6) = 28 (FCFS in both modes). Table 3: 6 x
        // 4 = 24, of which 8 are Figs. 7-8's (divisors 1 and 100, alpha 0 and 1). Tables 4-5: 2
        // x 5 x 4 = 40, of which 8 are Figs. 7-8's (20 %). Figs. 9-10: 2 x 4 x 4 = 32, of
        // which 8 (energy-aware) are Tables 4-5's; their control workload 2 x 4 x 2 = 16.
        // Each of the feedback's two other instants: DCLS and DCMMS at alpha > 0 only: Figs.
        // 7-8 2 x 2 x 5 = 20; Table 3 2 x 6 = 12, 4 of them Figs. 7-8's; Tables 4-5 2 x 2 x 5 =
        // 20, 4 of them Figs. 7-8's; Figs. 9-10 2 x 2 x 4 = 16, 4 of them Tables 4-5's; their
        // control workload 2 x 2 x 2 = 8.
        let per_queue = 28 + 16 + 32 + 24 + 16;
        let per_instant = 20 + 8 + 16 + 12 + 8;
        assert_eq!(keys.len(), 2 * per_queue + 2 * per_instant);
    }

    #[test]
    fn the_cut_downs_hold_the_jobs_the_windows_take() {
        for d in params::DATA_CENTERS {
            let trace = traces::load(&TraceSource::Builtin(d.trace)).unwrap();
            assert_eq!(trace.jobs.len(), d.cut_down_jobs as usize, "{}", d.name);
        }
    }
}
