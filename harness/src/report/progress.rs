//! Progress of long runs (`qosgate reproduce`, `qosgate run` with many replications) on standard
//! error, never on standard output (which holds the report).
//!
//! - On a terminal ([`Show::Bar`]): an indicatif bar as wide as the terminal with the runs done
//!   (and parts, where known), the elapsed time and an estimate of the time left (`{eta}`),
//!   cleared at the end.
//! - Off a terminal ([`Show::Lines`]): at most one line every [`INTERVAL`] (10 s), none before
//!   the first 10 s have passed, and no closing line, so a run shorter than 10 s prints nothing:
//!   `qosgate: kokkinos2009: 2 of 5 parts, 37 of 120 runs done, 12.4 s elapsed` (the parts only
//!   where the runner knows them: a reproduction's parts whose planned runs are all done). A
//!   line is considered after each run ends, so a single run longer than 10 s shows no line
//!   while it runs.
//! - [`Show::Nothing`]: silent (the library's default; the command line picks by standard
//!   error, [`Show::stderr`]).
//!
//! The rate rule is [`Throttle`], pure over the `Instant`s it is given, so it is tested without
//! sleeping.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// The least time between two progress lines off a terminal, and before the first.
pub const INTERVAL: Duration = Duration::from_secs(10);

/// How to show progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Show {
    /// Nothing.
    #[default]
    Nothing,
    /// An indicatif bar with an ETA (standard error is a terminal).
    Bar,
    /// A line at most every [`INTERVAL`] (standard error is a file or a pipe).
    Lines,
}

impl Show {
    /// [`Show::Bar`] if standard error is a terminal, else [`Show::Lines`].
    pub fn stderr() -> Self {
        if std::io::stderr().is_terminal() {
            Show::Bar
        } else {
            Show::Lines
        }
    }
}

/// The rate rule of progress lines: one is due when at least [`INTERVAL`] has passed since the
/// last one (or since the start, for the first).
#[derive(Debug, Clone, Copy)]
pub struct Throttle {
    last: Instant,
}

impl Throttle {
    /// No line yet; the first is due [`INTERVAL`] after `start`.
    pub fn new(start: Instant) -> Self {
        Throttle { last: start }
    }

    /// Whether a line is due at `now`; if it is, `now` becomes the time of the last line. A
    /// `now` before the last line (clocks read on other threads) is never due.
    pub fn due(&mut self, now: Instant) -> bool {
        if now.saturating_duration_since(self.last) >= INTERVAL {
            self.last = now;
            true
        } else {
            false
        }
    }
}

/// One progress line: `qosgate: WHAT: [P of Q parts, ]R of N runs done, S.s s elapsed`.
pub fn line(
    what: &str,
    parts: Option<(usize, usize)>,
    runs: (u64, u64),
    elapsed: Duration,
) -> String {
    let parts = parts.map_or(String::new(), |(done, of)| {
        format!("{done} of {of} parts, ")
    });
    format!(
        "qosgate: {what}: {parts}{} of {} runs done, {:.1} s elapsed",
        runs.0,
        runs.1,
        elapsed.as_secs_f64()
    )
}

/// What has been planned and done.
#[derive(Debug)]
struct State {
    throttle: Throttle,
    done: u64,
    planned: u64,
    /// Runs planned and not done, by part (empty: the parts are not known).
    left: Vec<u64>,
}

impl State {
    fn parts(&self) -> Option<(usize, usize)> {
        (!self.left.is_empty()).then(|| {
            (
                self.left.iter().filter(|&&n| n == 0).count(),
                self.left.len(),
            )
        })
    }
}

/// The progress of one long run, shared by the threads that simulate it: runs are planned
/// ([`Progress::plan`], possibly in rounds) and reported done ([`Progress::done`]).
#[derive(Debug)]
pub struct Progress {
    what: String,
    start: Instant,
    show: Show,
    bar: ProgressBar,
    state: Mutex<State>,
}

impl Progress {
    /// The progress of `what` (a paper's id, a scenario's name), with `parts` parts (0: parts
    /// not known), shown as `show` says; its clock starts now.
    pub fn new(what: &str, parts: usize, show: Show) -> Self {
        let start = Instant::now();
        let bar = match show {
            Show::Bar => ProgressBar::new(0).with_style(
                ProgressStyle::with_template(
                    "{prefix} {wide_bar} {pos}/{len} runs{msg}, {elapsed} elapsed, ETA {eta}",
                )
                .expect("a valid progress bar template"),
            ),
            Show::Nothing | Show::Lines => ProgressBar::hidden(),
        };
        bar.set_prefix(crate::output::printable(what).into_owned());
        Progress {
            what: crate::output::printable(what).into_owned(),
            start,
            show,
            bar,
            state: Mutex::new(State {
                throttle: Throttle::new(start),
                done: 0,
                planned: 0,
                left: vec![0; parts],
            }),
        }
    }

    /// Silent progress.
    pub fn hidden() -> Self {
        Self::new("", 0, Show::Nothing)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A thread that panicked while holding the lock left counts, not broken invariants.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn show_parts(&self, state: &State) {
        if let (Show::Bar, Some((done, of))) = (self.show, state.parts()) {
            self.bar.set_message(format!(", {done} of {of} parts"));
        }
    }

    /// One more run planned, belonging to the parts `parts` (indices below the count given to
    /// [`Progress::new`]; others are ignored).
    pub fn plan(&self, parts: &[usize]) {
        let mut state = self.lock();
        state.planned += 1;
        for &p in parts {
            if let Some(n) = state.left.get_mut(p) {
                *n += 1;
            }
        }
        self.bar.set_length(state.planned);
        self.show_parts(&state);
    }

    /// One planned run of the parts `parts` done: the bar moves, or a line is printed if one is
    /// due ([`Throttle`]).
    pub fn done(&self, parts: &[usize]) {
        let mut state = self.lock();
        state.done += 1;
        for &p in parts {
            if let Some(n) = state.left.get_mut(p) {
                *n = n.saturating_sub(1);
            }
        }
        match self.show {
            Show::Bar => {
                self.show_parts(&state);
                self.bar.set_position(state.done);
            }
            Show::Lines => {
                let now = Instant::now();
                if state.throttle.due(now) {
                    eprintln!(
                        "{}",
                        line(
                            &self.what,
                            state.parts(),
                            (state.done, state.planned),
                            now - self.start
                        )
                    );
                }
            }
            Show::Nothing => {}
        }
    }

    /// The end: the bar is cleared (off a terminal nothing is printed).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_line_before_the_interval_then_one_and_never_two_within_it() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let mut t = Throttle::new(start);
        // None before 10 s.
        assert!(!t.due(start));
        assert!(!t.due(at(9_999)));
        // One at 10 s.
        assert!(t.due(at(10_000)));
        // Not again within 10 s of it.
        assert!(!t.due(at(10_001)));
        assert!(!t.due(at(19_999)));
        assert!(t.due(at(20_000)));
        // A late check gives one line, not one per interval missed.
        assert!(t.due(at(65_000)));
        assert!(!t.due(at(74_999)));
        assert!(t.due(at(75_000)));
        // A clock read before the last line (another thread's) is not due.
        assert!(!t.due(at(70_000)));
    }

    #[test]
    fn lines_count_over_any_sequence_of_checks() {
        // Checked every 700 ms over 100 s: lines at 10.5, 21, 31.5, ... s, never closer than 10 s.
        let start = Instant::now();
        let mut t = Throttle::new(start);
        let times: Vec<u64> = (0..=100_000 / 700)
            .map(|i| i * 700)
            .filter(|&ms| t.due(start + Duration::from_millis(ms)))
            .collect();
        assert_eq!(times.first(), Some(&10_500));
        assert!(times.windows(2).all(|w| w[1] - w[0] >= 10_000));
        assert_eq!(times.len(), 9);
    }

    #[test]
    fn a_line_names_what_runs_the_parts_if_known_and_the_time() {
        let d = Duration::from_millis(12_400);
        assert_eq!(
            line("kokkinos2009", None, (37, 120), d),
            "qosgate: kokkinos2009: 37 of 120 runs done, 12.4 s elapsed"
        );
        assert_eq!(
            line("kokkinos2009", Some((2, 5)), (37, 120), d),
            "qosgate: kokkinos2009: 2 of 5 parts, 37 of 120 runs done, 12.4 s elapsed"
        );
    }

    #[test]
    fn parts_are_done_when_their_planned_runs_are() {
        let p = Progress::new("toy", 2, Show::Nothing);
        p.plan(&[0]);
        p.plan(&[0, 1]);
        assert_eq!(p.lock().parts(), Some((0, 2)));
        p.done(&[0, 1]);
        assert_eq!(p.lock().parts(), Some((1, 2)));
        p.done(&[0]);
        assert_eq!(p.lock().parts(), Some((2, 2)));
        // A later round plans more runs of part 1: it is no longer done.
        p.plan(&[1]);
        assert_eq!(p.lock().parts(), Some((1, 2)));
        let s = p.lock();
        assert_eq!((s.done, s.planned), (2, 3));
        drop(s);
        assert_eq!(Progress::hidden().lock().parts(), None);
    }
}
