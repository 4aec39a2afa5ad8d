//! A replayed schedule written back as a Standard Workload Format trace: the input trace, line
//! for line, with each replayed job's wait and run times filled in, so that tools reading SWF
//! (pyss, AccaSim, `qosgate backfill` itself) read the schedule.
//!
//! # What is written
//! - Comment and blank lines are copied as they are, except `; MaxProcs:` lines, which state the
//!   machine the schedule ran on (`--nodes`, if given, is what a reader then sees); a header
//!   without one gets one. A `; Note:` line before the first data line says the file is a
//!   schedule.
//! - A replayed job's data line (the first line that the reader's rules, on that machine, turn
//!   into that very job) keeps its 18 fields but four: the submit time (field 2) as the replay
//!   used it (rounded to the second), the wait time (field 3, first start minus submit), the run
//!   time (field 4, the time it ran: the trace's, cut to its estimate) and the allocated
//!   processors (field 5).
//! - Every other data line (a job the replay skipped, a bad line under `--skip-invalid`, a
//!   repeated job number) becomes the comment `; not replayed: <the line>`: nothing is lost, and
//!   a reader skips it. (A line too long to fit the reader's line limit with that prefix, which
//!   no archive trace has, is named by its number instead.)
//!
//! Read back, with no machine size given, the file gives the same jobs on the same machine as
//! the input, so its replay is the same schedule (`tests/backfill.rs` checks the round trip on
//! the committed traces, the `swf` fuzz target on any input the reader takes).

use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};

use anyhow::{Context, Result};

use super::lines::{Line, Lines};
use super::swf::{self, MAX_LINE};

/// A replayed job and its wait: its line gets the job's submit time, run time and processors,
/// and the wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Filled {
    /// The job as the replay took it.
    pub job: swf::Job,
    /// First start minus submit, seconds (field 3).
    pub wait: u64,
}

/// The schedule to write into a trace.
#[derive(Debug, Clone)]
pub struct Schedule<'a> {
    /// The machine's processors, for `; MaxProcs:`.
    pub machine_procs: u32,
    /// What the `; Note:` line says (one line).
    pub note: &'a str,
    /// The replayed jobs by job number.
    pub jobs: &'a HashMap<u64, Filled>,
}

/// Writes the trace read from `input` again with `schedule` filled in ([module doc](self)).
/// Returns the number of job lines filled in: every job of the schedule's, unless `input` is not
/// the trace the schedule was made from (or a pipe already read), which the caller should check.
///
/// Errors: a read or write error; a line longer than [`MAX_LINE`] (the reader refuses such a
/// trace).
pub fn write(input: impl Read, schedule: &Schedule, mut out: impl Write) -> Result<usize> {
    let mut lines = Lines::new(input, MAX_LINE);
    let mut in_header = true;
    let mut has_max_procs = false;
    let mut number = 0u64;
    let mut written = HashSet::new();
    while let Some(line) = lines.next_line().context("reading the trace")? {
        number += 1;
        let Line::Text(line) = line else {
            anyhow::bail!("line {number}: longer than {MAX_LINE} bytes");
        };
        let trimmed = line.trim_ascii_start();
        if trimmed.first() == Some(&b';') {
            if is_max_procs(&trimmed[1..]) {
                writeln!(out, "; MaxProcs: {}", schedule.machine_procs)?;
                has_max_procs = true;
            } else {
                out.write_all(line)?;
                out.write_all(b"\n")?;
            }
            continue;
        }
        if trimmed.trim_ascii().is_empty() {
            out.write_all(line)?;
            out.write_all(b"\n")?;
            continue;
        }
        if in_header {
            note(schedule, has_max_procs, &mut out)?;
            in_header = false;
        }
        match filled(line, schedule).filter(|(_, f)| written.insert(f.job.id)) {
            Some((text, f)) => {
                let mut fields: Vec<String> =
                    text.split_ascii_whitespace().map(str::to_owned).collect();
                fields[1] = f.job.submit.to_string();
                fields[2] = f.wait.to_string();
                fields[3] = f.job.run.to_string();
                fields[4] = f.job.procs.to_string();
                writeln!(out, "{}", fields.join(" "))?;
            }
            None if NOT_REPLAYED.len() + line.len() <= MAX_LINE => {
                out.write_all(NOT_REPLAYED)?;
                out.write_all(line)?;
                out.write_all(b"\n")?;
            }
            None => writeln!(
                out,
                "; not replayed: line {number}, too long to keep as a comment"
            )?,
        }
    }
    if in_header {
        note(schedule, has_max_procs, &mut out)?;
    }
    out.flush().context("writing the schedule")?;
    Ok(written.len())
}

/// What a line the replay did not take becomes, before the line.
const NOT_REPLAYED: &[u8] = b"; not replayed: ";

/// The header lines the schedule adds.
fn note(schedule: &Schedule, has_max_procs: bool, out: &mut impl Write) -> Result<()> {
    if !has_max_procs {
        writeln!(out, "; MaxProcs: {}", schedule.machine_procs)?;
    }
    writeln!(out, "; Note: {}", schedule.note)?;
    Ok(())
}

/// Whether the comment text after `;` is the header field `MaxProcs`, by the reader's rule
/// (decoded lossily and trimmed; the key, a colon, then whitespace or nothing).
fn is_max_procs(comment: &[u8]) -> bool {
    String::from_utf8_lossy(comment)
        .trim()
        .strip_prefix("MaxProcs:")
        .is_some_and(|rest| rest.chars().next().is_none_or(char::is_whitespace))
}

/// The line's text and what it gets, if it is a replayed job's line: the reader's rules, on the
/// schedule's machine, turn it into that very job.
fn filled<'l>(line: &'l [u8], schedule: &Schedule) -> Option<(&'l str, Filled)> {
    let text = std::str::from_utf8(line).ok()?;
    let job = swf::job_of_line(text, schedule.machine_procs)?;
    let f = schedule.jobs.get(&job.id)?;
    (f.job == job).then_some((text, *f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_are_filled_in_and_the_rest_kept_or_commented() {
        let input = "; Version: 2.2\n; MaxProcs: 8\n\n\
                     1 0 -1 10 2 -1 -1 2 20 -1 1 3 -1 -1 -1 -1 -1 -1\n\
                     2 5 -1 0 2 -1 -1 2 20 -1 0 3 -1 -1 -1 -1 -1 -1\n\
                     3.0 6.4 -1 50 -1 -1 -1 4 30 -1 1 3 -1 -1 -1 -1 -1 -1\n\
                     1 0 -1 10 2 -1 -1 2 20 -1 1 3 -1 -1 -1 -1 -1 -1\n";
        let filled = |id, submit, run, estimate, procs, wait| {
            let job = swf::Job {
                id,
                submit,
                run,
                estimate,
                procs,
            };
            (id, Filled { job, wait })
        };
        // Job 3 ran 30 s, its estimate; a second line numbered 1 is not job 1's.
        let jobs = HashMap::from([filled(1, 0, 10, 20, 2, 0), filled(3, 6, 30, 30, 4, 4)]);
        let schedule = Schedule {
            machine_procs: 4,
            note: "a schedule",
            jobs: &jobs,
        };
        let mut out = Vec::new();
        assert_eq!(write(input.as_bytes(), &schedule, &mut out).unwrap(), 2);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "; Version: 2.2\n; MaxProcs: 4\n\n; Note: a schedule\n\
             1 0 0 10 2 -1 -1 2 20 -1 1 3 -1 -1 -1 -1 -1 -1\n\
             ; not replayed: 2 5 -1 0 2 -1 -1 2 20 -1 0 3 -1 -1 -1 -1 -1 -1\n\
             3.0 6 4 30 4 -1 -1 4 30 -1 1 3 -1 -1 -1 -1 -1 -1\n\
             ; not replayed: 1 0 -1 10 2 -1 -1 2 20 -1 1 3 -1 -1 -1 -1 -1 -1\n"
        );
    }

    #[test]
    fn a_header_without_max_procs_gets_one() {
        let jobs = HashMap::new();
        let schedule = Schedule {
            machine_procs: 16,
            note: "n",
            jobs: &jobs,
        };
        let mut out = Vec::new();
        write("; MaxNodes: 4\n".as_bytes(), &schedule, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "; MaxNodes: 4\n; MaxProcs: 16\n; Note: n\n"
        );
    }
}
