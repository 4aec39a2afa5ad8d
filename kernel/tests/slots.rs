//! Property tests of the slot table (`kernel/src/slots.rs`) against a
//! brute-force model (`qosgate_testkit::slots`, shared with the fuzz target): the list of applied
//! intervals, summed at each instant. Operations fall mostly on a small horizon `[0, H)` and at
//! the ends of time.
//!
//! After every operation of a random sequence (reserve, release, node down, node up, earliest
//! fit, min free, overcommitted), the table must equal the model: its breakpoints are exactly the
//! model's changes of value (so the table is minimal and agrees at every tick), refusals carry
//! exactly the model's reason and leave the table unchanged, and `earliest_fit` returns exactly
//! the model's earliest feasible start.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use qosgate_kernel::slots::{Request, SlotTable, Span, Step};
use qosgate_kernel::units::{Nodes, Ticks};
use qosgate_kernel::{Error, Param, Refused};
use qosgate_testkit::slots::{Kind, Model};

/// The horizon most operations fall in.
const H: u64 = 24;
const MAX: Ticks = Ticks::MAX;

fn t(ticks: u64) -> Ticks {
    Ticks::new(ticks)
}

/// `MAX - back`: an instant at the end of time.
fn before_max(back: u64) -> Ticks {
    t(u64::MAX - back)
}

/// 256 cases per property, or `PROPTEST_CASES` for a deeper run.
fn cases() -> u32 {
    qosgate_testkit::proptest_cases(256)
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Mutate(Kind, Ticks, Ticks, Nodes),
    Fit(Ticks, Nodes, Ticks),
    MinFree(Ticks, Ticks),
    Overcommitted(Ticks),
    Forget(Ticks),
}

/// Times that matter: the horizon's ticks, and the ends of time.
fn start_time() -> impl Strategy<Value = Ticks> {
    prop_oneof![8 => (0..=H).prop_map(t), 1 => Just(MAX)]
}

fn end_time() -> impl Strategy<Value = Ticks> {
    prop_oneof![8 => (0..=H).prop_map(t), 2 => Just(MAX)]
}

fn duration() -> impl Strategy<Value = Ticks> {
    prop_oneof![
        8 => (0..=H + 4).prop_map(t),
        1 => Just(MAX),
        1 => Just(before_max(3)),
        1 => Just(t(u64::MAX / 2))
    ]
}

/// The horizon's ticks and a little beyond, or the end of time.
fn instant() -> impl Strategy<Value = Ticks> {
    prop_oneof![8 => (0..=H + 2).prop_map(t), 1 => Just(MAX)]
}

fn op(nodes: Nodes) -> impl Strategy<Value = Op> {
    let kind = prop_oneof![
        4 => Just(Kind::Reserve),
        3 => Just(Kind::Release),
        1 => Just(Kind::Down),
        1 => Just(Kind::Up)
    ];
    let n = 0..=nodes + 1;
    // Mostly well-formed intervals, sometimes empty or reversed ones.
    let interval = prop_oneof![
        6 => (0..H, 1..=H + 1).prop_map(|(s, len)| {
            let e = s + len;
            (t(s), if e > H { MAX } else { t(e) })
        }),
        1 => (start_time(), end_time()),
    ];
    prop_oneof![
        10 => (kind, interval, n.clone()).prop_map(|(k, (s, e), n)| Op::Mutate(k, s, e, n)),
        4 => (
            prop_oneof![
                6 => (0..=H).prop_map(t),
                1 => Just(t(H + 7)),
                1 => Just(before_max(2)),
                1 => Just(MAX)
            ],
            n,
            duration()
        )
            .prop_map(|(f, n, d)| Op::Fit(f, n, d)),
        1 => (start_time(), end_time()).prop_map(|(s, e)| Op::MinFree(s, e)),
        1 => instant().prop_map(Op::Overcommitted),
        1 => instant().prop_map(Op::Forget),
    ]
}

fn scenario() -> impl Strategy<Value = (Nodes, Vec<Op>)> {
    (1..=6u32).prop_flat_map(|nodes| (Just(nodes), prop::collection::vec(op(nodes), 1..60)))
}

/// Every tick of the horizon, the tail and the instants at the end of time agree.
fn check_equal<const B: usize>(table: &SlotTable<B>, m: &Model) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        table.steps(),
        &m.steps()[..],
        "breakpoints differ from the model's"
    );
    for tick in (0..=H + 2).map(t).chain([before_max(1), MAX]) {
        prop_assert_eq!(table.free_at(tick), m.free_at(tick), "free at {}", tick);
    }
    // Minimality and order, stated directly (the equality above implies them).
    let s = table.steps();
    prop_assert!(s.windows(2).all(|w| w[0].at < w[1].at));
    prop_assert!(
        s.windows(2)
            .all(|w| (w[0].down, w[0].reserved) != (w[1].down, w[1].reserved))
    );
    prop_assert!(s.first().is_none_or(|f| (f.down, f.reserved) != (0, 0)));
    prop_assert!(s.iter().all(|x| x.at < MAX && x.down <= table.nodes()));
    Ok(())
}

fn run<const B: usize>(nodes: Nodes, ops: &[Op]) -> Result<(), TestCaseError> {
    let mut table = SlotTable::<B>::new(nodes).unwrap();
    let mut m = Model::new(nodes, B);
    for &op in ops {
        let before = table.clone();
        match op {
            Op::Mutate(kind, s, e, n) => {
                let want = m.apply(kind, s, e, n);
                let got = kind.apply_to(&mut table, s, e, n);
                match (got, want) {
                    (Ok(g), Ok(w)) => {
                        if matches!(kind, Kind::Down) {
                            prop_assert_eq!(g, w, "overcommitted span of {:?}", op);
                        }
                    }
                    (Err(Refused { reason, item }), Err(w)) => {
                        prop_assert_eq!(reason, w, "reason for {:?}", op);
                        prop_assert_eq!(
                            item,
                            Request {
                                start: s,
                                end: e,
                                nodes: n
                            }
                        );
                        prop_assert_eq!(&table, &before, "a refused {:?} changed the table", op);
                    }
                    (g, w) => prop_assert!(false, "{:?}: table {:?}, model {:?}", op, g, w),
                }
            }
            Op::Fit(from, n, d) => {
                prop_assert_eq!(
                    table.earliest_fit(from, n, d),
                    m.earliest_fit(from, n, d),
                    "earliest_fit({}, {}, {})",
                    from,
                    n,
                    d
                );
            }
            Op::MinFree(s, e) => prop_assert_eq!(table.min_free(s, e), m.min_free(s, e)),
            Op::Overcommitted(from) => {
                prop_assert_eq!(table.overcommitted(from), m.overcommitted(from))
            }
            Op::Forget(at) => {
                m.forget_before(at);
                table.forget_before(at);
            }
        }
        check_equal(&table, &m)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Room for every profile of the horizon: refusals come from nodes, never from the table.
    #[test]
    fn table_equals_brute_force_model_after_every_operation((nodes, ops) in scenario()) {
        run::<64>(nodes, &ops)?;
    }

    /// A small table: `Full` exactly when the minimal profile needs more than 6 breakpoints,
    /// and a refusal for room changes nothing.
    #[test]
    fn small_table_is_full_exactly_when_the_minimal_profile_does_not_fit((nodes, ops) in scenario()) {
        run::<6>(nodes, &ops)?;
    }

    /// Conservative backfilling: every job, in arrival order, reserved at its earliest fit from
    /// its arrival, always fits; no instant is ever over-reserved (checked against a per-tick sum
    /// of the reservations); early completions are released and the table returns to empty.
    #[test]
    fn reserving_each_job_at_its_earliest_fit_never_overcommits(
        nodes in 1..=8u32,
        jobs in prop::collection::vec((0..20u64, 1..=8u32, 1..=12u64, 0..=12u64), 1..40),
    ) {
        let mut table = SlotTable::<256>::new(nodes).unwrap();
        let mut arrival = 0;
        let mut held: Vec<(u64, u64, Nodes)> = vec![];
        for (gap, n, dur, run) in jobs {
            arrival += gap;
            let n = n.min(nodes);
            let s = table
                .earliest_fit(t(arrival), n, t(dur))
                .unwrap()
                .expect("a finite profile always fits")
                .get();
            prop_assert!(s >= arrival);
            prop_assert!(table.min_free(t(s), t(s + dur)).unwrap() >= i64::from(n));
            table.reserve(t(s), t(s + dur), n).unwrap();
            held.push((s, s + dur, n));
            // Early completion: the job runs `run` ticks of its `dur` estimate.
            let run = run.min(dur);
            if run < dur && run > 0 {
                table.release(t(s + run), t(s + dur), n).unwrap();
                held.last_mut().unwrap().1 = s + run;
            }
            let horizon = held.iter().map(|h| h.1).max().unwrap();
            for tick in 0..=horizon {
                let used: u32 = held.iter().filter(|h| h.0 <= tick && tick < h.1).map(|h| h.2).sum();
                prop_assert!(used <= nodes);
                prop_assert_eq!(table.free_at(t(tick)), i64::from(nodes - used));
            }
        }
        for (s, e, n) in held {
            table.release(t(s), t(e), n).unwrap();
        }
        prop_assert!(table.is_empty());
    }

    /// A failure over reserved nodes makes exactly the hit span negative; releasing the
    /// reservations that overlap it (stopping the requests) restores `free >= 0` everywhere.
    #[test]
    fn failure_reports_the_hit_span_and_releasing_the_hit_reservations_resolves_it(
        nodes in 2..=8u32,
        jobs in prop::collection::vec((0..30u64, 1..=8u32, 1..=10u64), 1..20),
        fail in (0..40u64, 1..=8u32, prop_oneof![Just(None), (1..20u64).prop_map(Some)]),
    ) {
        let mut table = SlotTable::<128>::new(nodes).unwrap();
        let mut held = vec![];
        for (from, n, dur) in jobs {
            let n = n.min(nodes);
            let s = table.earliest_fit(t(from), n, t(dur)).unwrap().unwrap();
            let e = s.checked_add(t(dur)).unwrap();
            table.reserve(s, e, n).unwrap();
            held.push((s, e, n));
        }
        let (at, n, len) = fail;
        let n = n.min(nodes);
        // A failure until further notice, or for `len` ticks.
        let at = t(at);
        let end = len.map_or(MAX, |len| at.saturating_add(t(len)));
        let span = table.node_down(at, end, n).unwrap();
        // The span runs from the first to the last hit instant: it starts with the first
        // overcommitted run and nothing after it is overcommitted.
        prop_assert_eq!(span.map(|s| s.start), table.overcommitted(at).map(|s| s.start));
        prop_assert_eq!(span.is_none(), table.overcommitted(Ticks::ZERO).is_none());
        if let Some(span) = span {
            prop_assert!(table.overcommitted(at).unwrap().end <= span.end);
            prop_assert_eq!(table.overcommitted(span.end), None);
            prop_assert!(table.min_free(span.start, span.end).unwrap() < 0);
            prop_assert!(span.start >= at && span.end <= end);
            for &(s, e, k) in held.iter().filter(|h| h.0 < span.end && span.start < h.1) {
                table.release(s, e, k).unwrap();
            }
        }
        prop_assert_eq!(table.overcommitted(Ticks::ZERO), None);
        prop_assert!(table.min_free(Ticks::ZERO, MAX).unwrap() >= 0);
        table.node_up(at, end, n).unwrap();
        prop_assert!(table.min_free(Ticks::ZERO, MAX).unwrap() >= 0);
    }
}

#[test]
fn undoing_every_operation_restores_the_empty_table() {
    let mut table = SlotTable::<8>::new(4).unwrap();
    table.reserve(t(0), t(10), 2).unwrap();
    table.reserve(t(5), MAX, 2).unwrap();
    assert_eq!(
        table.node_down(t(3), t(7), 1),
        Ok(Some(Span {
            start: t(5),
            end: t(7)
        }))
    );
    assert_eq!(table.free_at(t(6)), -1);
    table.release(t(5), MAX, 2).unwrap();
    table.node_up(t(3), t(7), 1).unwrap();
    table.release(t(0), t(10), 2).unwrap();
    assert!(table.is_empty());
}

#[test]
fn edges_of_time_are_typed_errors_never_panics() {
    let mut table = SlotTable::<4>::new(3).unwrap();
    let r = |reason, start, end, nodes| Refused {
        reason,
        item: Request { start, end, nodes },
    };
    let zero = Ticks::ZERO;
    assert_eq!(table.earliest_fit(MAX, 1, t(1)), Err(Error::Overflow));
    assert_eq!(table.earliest_fit(t(1), 1, MAX), Err(Error::Overflow));
    assert_eq!(table.earliest_fit(zero, 1, MAX), Ok(Some(zero)));
    assert_eq!(
        table.reserve(MAX, MAX, 1),
        Err(r(Error::InvalidParameter(Param::Delay), MAX, MAX, 1))
    );
    assert_eq!(
        table.reserve(zero, t(1), 4),
        Err(r(Error::TaskTooLarge, zero, t(1), 4))
    );
    table.reserve(before_max(1), MAX, 3).unwrap();
    assert_eq!(table.steps().len(), 1);
    assert_eq!(table.earliest_fit(zero, 1, before_max(1)), Ok(Some(zero)));
    assert_eq!(table.earliest_fit(zero, 1, MAX), Ok(None));
    assert_eq!(table.free_at(MAX), 0);
    // Two more breakpoints fit (4), a third interval in the middle does not.
    table.reserve(t(10), t(20), 1).unwrap();
    assert_eq!(
        table.reserve(t(30), t(40), 1),
        Err(r(Error::Full, t(30), t(40), 1))
    );
    // Extending an existing step needs no new breakpoint.
    table.reserve(t(20), t(25), 1).unwrap();
    assert_eq!(table.steps().len(), 3);
    assert!(SlotTable::<4>::new(0).is_err());
}

#[test]
fn footprint_is_sixteen_bytes_per_breakpoint() {
    assert_eq!(core::mem::size_of::<Step>(), 16);
    assert!(core::mem::size_of::<SlotTable<64>>() <= 16 * 64 + 16);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// `earlier_start` is the shortcut of conservative backfilling's re-placement pass: on a
    /// table of jobs each placed at its earliest fit (around failures, with some released
    /// early), for every job it gives exactly what taking the job out and placing it again at
    /// its earliest fit from `from` gives, when that is before its reservation (`None` when
    /// it is not: the job keeps its place); `earlier_start_before` gives it when it is before
    /// its bound.
    #[test]
    fn earlier_start_is_the_earliest_fit_of_the_job_taken_out(
        nodes in 1..=8u32,
        downs in prop::collection::vec((0..H, 1..=H, 1..=3u32), 0..3),
        jobs in prop::collection::vec((0..4u64, 1..=8u32, 1..=10u64, 0..=10u64), 1..24),
        from in 0..H,
    ) {
        let mut table = SlotTable::<128>::new(nodes).unwrap();
        for (s, len, n) in downs {
            // A failure that would put more than the cluster down is refused: skipped.
            let _ = table.node_down(t(s), t(s + len), n.min(nodes));
        }
        let mut arrival = 0;
        let mut held: Vec<(Ticks, Nodes, Ticks)> = vec![];
        for (gap, n, dur, run) in jobs {
            arrival += gap;
            let n = n.min(nodes);
            let Some(s) = table.earliest_fit(t(arrival), n, t(dur)).unwrap() else {
                continue;
            };
            table.reserve(s, t(s.get() + dur), n).unwrap();
            // Some jobs end early: their tail goes back, as a completion's does.
            if run > 0 && run < dur {
                table.release(t(s.get() + run), t(s.get() + dur), n).unwrap();
                held.push((s, n, t(run)));
            } else {
                held.push((s, n, t(dur)));
            }
        }
        for &(s, n, dur) in &held {
            let got = table.earlier_start(t(from), n, dur, s);
            let mut out = table.clone();
            out.release(s, t(s.get() + dur.get()), n).unwrap();
            let again = out.earliest_fit(t(from), n, dur).unwrap();
            let want = again.filter(|&a| a < s);
            prop_assert_eq!(got, want, "job of {} nodes for {} at {} from {}", n, dur, s, from);
            // Among the starts before `before` only: the same answer if it is before it.
            for before in [0, from, from + 1, s.get().saturating_sub(1), s.get(), s.get() + 3] {
                let bounded = table.earlier_start_before(t(from), n, dur, s, t(before));
                prop_assert_eq!(bounded, want.filter(|&a| a < t(before)), "before {}", before);
            }
        }
    }
}
