//! How long a reproduction's simulations took. Kept out of the report, its files and its page,
//! which depend on the runs' metrics only: a reproduction judged from its shards' run files is
//! the same byte for byte as one run whole, but its timing cannot be. Printed on standard error
//! and written as `timing.txt` beside the other files (the one file that differs between two
//! runs of one reproduction).

use super::table::grouped;

/// The simulations' time and work.
#[derive(Debug, Clone)]
pub struct Timing {
    /// The paper's id.
    pub paper: &'static str,
    /// Runs simulated (or read).
    pub runs: usize,
    /// Simulation events they processed.
    pub events: u64,
    /// Wall time of simulating them here, seconds; `None` when they were read from run files.
    pub elapsed_s: Option<f64>,
    /// The runs' own wall times added up, seconds: with one thread per core and nothing else
    /// running, the CPU time of the simulations, wherever they ran.
    pub runs_s: f64,
}

impl Timing {
    /// One line: the runs, the events, the wall time and the rates.
    pub fn text(&self) -> String {
        let work = format!(
            "{}: {} runs, {:.1} M events",
            self.paper,
            grouped(self.runs as u64),
            self.events as f64 / 1e6
        );
        let own = format!(
            "the runs' own times add up to {:.1} s ({:.1} M events/s per thread)",
            self.runs_s,
            rate(self.events, self.runs_s)
        );
        match self.elapsed_s {
            Some(s) => format!(
                "{work} simulated in {s:.1} s ({:.1} M events/s); {own}.\n",
                rate(self.events, s)
            ),
            None => format!("{work} read from run files; {own}.\n"),
        }
    }
}

/// Millions of events per second (0 for no time).
fn rate(events: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        events as f64 / 1e6 / seconds
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timing_says_where_the_runs_came_from() {
        let mut t = Timing {
            paper: "p",
            runs: 1200,
            events: 3_000_000,
            elapsed_s: Some(1.5),
            runs_s: 3.0,
        };
        assert_eq!(
            t.text(),
            "p: 1,200 runs, 3.0 M events simulated in 1.5 s (2.0 M events/s); the runs' own \
             times add up to 3.0 s (1.0 M events/s per thread).\n"
        );
        t.elapsed_s = None;
        t.runs_s = 0.0;
        assert_eq!(
            t.text(),
            "p: 1,200 runs, 3.0 M events read from run files; the runs' own times add up to \
             0.0 s (0.0 M events/s per thread).\n"
        );
    }
}
