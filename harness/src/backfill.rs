//! `qosgate backfill`: replays an SWF trace on one cluster under FCFS, EASY, conservative or
//! selective backfilling ([`crate::replay`]) and reports what happened.
//!
//! Output: a summary table on standard output (or one JSON object with `--json`), and with
//! `--out FILE.csv` one row per scheduled job, `job_id,submit,start,end,procs` (whole seconds),
//! in `(submit, id)` order.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result};
use fixed::types::U16F16;
use qosgate_kernel::backfill::Policy;
use serde::Serialize;

use crate::cli::{BackfillArgs, PolicyName};
use crate::replay::{self, Record, Summary};
use crate::report::{Align, grouped, table};
use crate::swf::{self, Invalid, Skipped};

/// What `--json` prints.
#[derive(Debug, Serialize)]
struct JsonReport<'a> {
    trace: String,
    policy: &'static str,
    selective_threshold: Option<f64>,
    nodes: u32,
    skipped: &'a Skipped,
    invalid: &'a Invalid,
    truncated_to_estimate: u64,
    summary: &'a Summary,
}

/// The kernel's policy for the command line's choice.
///
/// Errors: a selective threshold that is not a number in `[0, 65535]`.
pub fn policy(name: PolicyName, threshold: f64) -> Result<Policy> {
    Ok(match name {
        PolicyName::Fcfs => Policy::Fcfs,
        PolicyName::Easy => Policy::Easy,
        PolicyName::Conservative => Policy::Conservative,
        PolicyName::Selective => {
            let t = U16F16::checked_from_num(threshold)
                .filter(|_| threshold.is_finite())
                .with_context(|| {
                    format!("--threshold {threshold}: the expected slowdown must be in [0, 65535]")
                })?;
            Policy::Selective(t)
        }
    })
}

/// `qosgate backfill`.
///
/// Errors: an unreadable or bad trace, a bad option, a replay error (named), a failed write.
pub fn run(args: &BackfillArgs, out: &mut dyn Write) -> Result<()> {
    let policy = policy(args.policy, args.threshold)?;
    let options = swf::Options {
        skip_invalid: args.skip_invalid,
        machine_procs: args.nodes,
    };
    let trace = swf::read_path(&args.swf, &options)?;
    let nodes = trace.machine_procs;
    let outcome = replay::replay(&trace.jobs, policy, nodes, &[], |_| {})
        .with_context(|| format!("replaying {}", args.swf.display()))?;
    if let Some(path) = &args.out {
        write_csv(path, &outcome.records)?;
    }
    let s = &outcome.summary;
    if args.json {
        let report = JsonReport {
            trace: args.swf.display().to_string(),
            policy: args.policy.name(),
            selective_threshold: matches!(policy, Policy::Selective(_)).then_some(args.threshold),
            nodes,
            skipped: &trace.skipped,
            invalid: &trace.invalid,
            truncated_to_estimate: trace.truncated,
            summary: s,
        };
        let mut json = serde_json::to_string_pretty(&report).context("rendering JSON")?;
        json.push('\n');
        out.write_all(json.as_bytes()).context("writing JSON")?;
    } else {
        let mut text = format!(
            "{}: {} backfilling on {} nodes\n{}",
            args.swf.display(),
            args.policy.name(),
            nodes,
            trace.summary()
        );
        let rows = [
            ("jobs scheduled", grouped(s.jobs)),
            ("utilization", format!("{:.4}", s.utilization)),
            ("mean wait (s)", format!("{:.1}", s.mean_wait)),
            (
                "mean bounded slowdown (10 s, Eq. 15)",
                format!("{:.3}", s.mean_bounded_slowdown),
            ),
            ("AWRT (s, Eq. 14)", format!("{:.1}", s.awrt)),
            ("makespan (s)", grouped(s.makespan)),
        ];
        let rows: Vec<Vec<String>> = rows
            .into_iter()
            .map(|(k, v)| vec![k.to_string(), v])
            .collect();
        text.push_str(&table(
            &[("metric", Align::Left), ("value", Align::Right)],
            &rows,
        ));
        out.write_all(text.as_bytes())
            .context("writing the summary")?;
    }
    out.flush().context("writing output")
}

/// Writes one row per job, in `(submit, id)` order.
fn write_csv(path: &Path, records: &[Record]) -> Result<()> {
    let mut sorted: Vec<&Record> = records.iter().collect();
    sorted.sort_by_key(|r| (r.submit, r.id));
    let file = File::create(path).with_context(|| format!("creating {}", path.display()))?;
    let mut w = BufWriter::new(file);
    let write = |w: &mut BufWriter<File>| -> std::io::Result<()> {
        writeln!(w, "job_id,submit,start,end,procs")?;
        for r in sorted {
            writeln!(w, "{},{},{},{},{}", r.id, r.submit, r.start, r.end, r.procs)?;
        }
        w.flush()
    };
    write(&mut w).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}
