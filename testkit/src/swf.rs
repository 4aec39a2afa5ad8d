//! The invariants of a trace the SWF reader ([`qosgate_harness::workload::swf`]) accepts, as its
//! documentation states them.

use qosgate_harness::workload::swf::{MAX_TIME, Options, Trace};

use crate::{Check, ensure};

/// `trace`, read with `opts`: the machine size is the override when there is one and at least
/// 1; every job has `1 <= procs <= machine_procs`, `1 <= run <= estimate <= MAX_TIME` and
/// `submit <= MAX_TIME`; jobs are sorted by `(submit, id)`; every data line is accounted for
/// (kept, skipped or invalid); truncated run times are those of kept jobs; strict mode
/// (`skip_invalid` off) counts no invalid line.
pub fn trace(t: &Trace, opts: &Options) -> Check {
    ensure!(t.machine_procs >= 1, "a machine of 0 processors");
    if let Some(m) = opts.machine_procs {
        ensure!(
            t.machine_procs == m,
            "machine {} despite the override {m}",
            t.machine_procs
        );
    }
    for j in &t.jobs {
        ensure!(j.procs >= 1 && j.procs <= t.machine_procs, "{j:?}");
        ensure!(j.run >= 1 && j.run <= j.estimate, "{j:?}");
        ensure!(j.estimate <= MAX_TIME && j.submit <= MAX_TIME, "{j:?}");
    }
    ensure!(
        t.jobs
            .windows(2)
            .all(|w| (w[0].submit, w[0].id) <= (w[1].submit, w[1].id)),
        "jobs out of (submit, id) order"
    );
    ensure!(
        t.jobs.len() as u64 + t.skipped.total() + t.invalid.data_lines() == t.data_lines,
        "{} kept + {} skipped + {} invalid != {} data lines",
        t.jobs.len(),
        t.skipped.total(),
        t.invalid.data_lines(),
        t.data_lines
    );
    ensure!(
        t.truncated <= t.jobs.len() as u64,
        "{} truncated of {} jobs",
        t.truncated,
        t.jobs.len()
    );
    ensure!(
        opts.skip_invalid || t.invalid.total() == 0,
        "strict mode counted {} invalid lines",
        t.invalid.total()
    );
    Ok(())
}
