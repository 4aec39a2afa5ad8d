//! Lease workloads (Haizea's LWF): a writer for generated workloads, the invariants of a
//! workload the reader ([`qosgate_harness::workload::lwf`]) accepts, and those of a replay's
//! records ([`qosgate_harness::models::leases::replay`]), as their documentation states them.

use std::fmt::Write as _;

use qosgate_harness::models::leases::replay::{Kind, Outcome, Params, Record, Replay};
use qosgate_harness::workload::lwf::{Start, Workload};
use qosgate_kernel::units::{TICKS_PER_SECOND, Ticks};

use crate::{Check, ensure};

/// How a generated lease wants to start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum When {
    /// `<start/>`.
    BestEffort,
    /// `<start><now/></start>`.
    Now,
    /// `<start><exact time="+.."/></start>`: this many seconds after its arrival.
    After(u32),
}

/// A generated lease request, in whole seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Lease {
    /// Arrival, seconds.
    pub arrival: u32,
    /// How it starts.
    pub when: When,
    /// `preemptible`.
    pub preemptible: bool,
    /// VMs.
    pub nodes: u16,
    /// Requested duration, seconds.
    pub duration: u32,
}

/// `secs` as an LWF time, `DD:HH:MM:SS`.
pub fn time(secs: u64) -> String {
    format!(
        "{}:{:02}:{:02}:{:02}",
        secs / 86_400,
        secs / 3600 % 24,
        secs / 60 % 60,
        secs % 60
    )
}

/// An LWF file: a site of `nodes` nodes (CPU 100, Memory 1024) and `leases` in order, with ids
/// from 1, every VM needing CPU 100.
pub fn to_lwf(nodes: u32, leases: &[Lease]) -> String {
    let mut s = format!(
        "<?xml version=\"1.0\"?>\n<lease-workload name=\"generated\">\n  <site>\n    \
         <resource-types names=\"CPU Memory\"/>\n    <nodes><node-set numnodes=\"{nodes}\">\
         <res type=\"CPU\" amount=\"100\"/><res type=\"Memory\" amount=\"1024\"/></node-set>\
         </nodes>\n  </site>\n  <lease-requests>\n"
    );
    for (i, l) in leases.iter().enumerate() {
        let start = match l.when {
            When::BestEffort => "<start/>".to_string(),
            When::Now => "<start><now/></start>".to_string(),
            When::After(d) => format!("<start><exact time=\"+{}\"/></start>", time(d.into())),
        };
        let _ = writeln!(
            s,
            "    <lease-request arrival=\"{}\">\n      <lease id=\"{}\" preemptible=\"{}\">\n        \
             <nodes><node-set numnodes=\"{}\"><res type=\"CPU\" amount=\"100\"/></node-set>\
             </nodes>\n        {start}\n        <duration time=\"{}\"/>\n      </lease>\n    \
             </lease-request>",
            time(l.arrival.into()),
            i + 1,
            l.preemptible,
            l.nodes,
            time(l.duration.into()),
        );
    }
    s.push_str("  </lease-requests>\n</lease-workload>\n");
    s
}

/// A workload the reader returned: every request has `nodes >= 1` equal to its node-sets' sum,
/// `duration >= 1`, an exact start at or after its arrival and within the clock with its
/// duration; requests sorted by `(arrival, number)`; ids unique; a site has a node and every
/// resource type used is one of its types.
pub fn workload(w: &Workload) -> Check {
    for r in &w.requests {
        let sum: u64 = r.node_sets.iter().map(|s| u64::from(s.count)).sum();
        ensure!(
            r.nodes >= 1 && u64::from(r.nodes) == sum,
            "request {}: {} nodes",
            r.number,
            r.nodes
        );
        ensure!(
            r.duration >= Ticks::new(1),
            "request {}: no duration",
            r.number
        );
        let begins = match r.start {
            Start::Exact(s) => {
                ensure!(
                    s >= r.arrival,
                    "request {}: starts before it arrives",
                    r.number
                );
                s
            }
            Start::BestEffort | Start::Now => r.arrival,
        };
        ensure!(
            begins.checked_add(r.duration).is_some(),
            "request {}: ends past the clock",
            r.number
        );
        if let Some(site) = &w.site {
            for set in &r.node_sets {
                for res in &set.resources {
                    ensure!(
                        site.resource_types.contains(&res.kind),
                        "request {}: type {}",
                        r.number,
                        res.kind
                    );
                }
            }
        }
    }
    ensure!(
        w.requests
            .windows(2)
            .all(|p| (p[0].arrival, p[0].number) < (p[1].arrival, p[1].number)),
        "requests out of (arrival, number) order"
    );
    let mut ids: Vec<u64> = w.requests.iter().filter_map(|r| r.id).collect();
    ids.sort_unstable();
    ensure!(ids.windows(2).all(|p| p[0] != p[1]), "a repeated id");
    if let Some(site) = &w.site {
        ensure!(site.nodes() >= 1, "a site without nodes");
        for set in &site.node_sets {
            for res in &set.resources {
                ensure!(
                    site.resource_types.contains(&res.kind),
                    "site type {}",
                    res.kind
                );
            }
        }
    }
    Ok(())
}

/// Seconds of a record as ticks (records give seconds of whole ticks).
fn ticks(secs: f64) -> u64 {
    (secs * TICKS_PER_SECOND as f64).round() as u64
}

/// The nodes a record holds over time: `(from, to)` intervals in ticks (`to` is `last` for a
/// lease still holding nodes when the replay stopped).
fn holds(r: &Record, last: u64) -> Vec<(u64, u64)> {
    let Some(start) = r.start.map(ticks) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut from = Some(start);
    for p in &r.preemptions {
        if let Some(f) = from.take() {
            out.push((f, ticks(p.suspend[1])));
        }
        from = p.resume.map(|[b, _]| ticks(b));
    }
    if let Some(f) = from {
        out.push((f, r.end.map_or(last, ticks)));
    }
    out
}

/// A replay of `w` under `params`: one record per request in order, each with one outcome;
/// the accounts count the records; a completed lease ran exactly its duration (from its start to
/// its end, less each suspension and resumption and the time suspended between), an advance
/// reservation from its requested start and an immediate lease from its arrival, never before
/// its arrival; every suspension lasts `t_s`, every resumption `t_r`, in order, of a preemptible
/// best-effort lease, and ends when the reservation it was for starts; a rejected lease never
/// ran; the nodes held never exceed the cluster's.
pub fn replay(w: &Workload, params: &Params, r: &Replay) -> Check {
    ensure!(
        r.records.len() == w.requests.len(),
        "{} records",
        r.records.len()
    );
    let (t_s, t_r) = (
        params.overheads.suspend.get(),
        params.overheads.resume.get(),
    );
    let mut counts = [0u64; 3];
    let mut preemptions = 0u64;
    let last = ticks(r.last);
    let mut steps: Vec<(u64, i64)> = Vec::new();
    for (req, rec) in w.requests.iter().zip(&r.records) {
        let name = &rec.lease;
        ensure!(
            rec.request == req.number && *name == req.label(),
            "record {name} for request {}",
            req.number
        );
        counts[match rec.outcome {
            Outcome::Completed => 0,
            Outcome::Rejected => 1,
            Outcome::Unfinished => 2,
        }] += 1;
        preemptions += rec.preemptions.len() as u64;
        let arrival = req.arrival.get();
        if let Some(s) = rec.start.map(ticks) {
            ensure!(s >= arrival, "{name} starts at {s}, before it arrives");
            match req.start {
                Start::Exact(at) => ensure!(s == at.get(), "AR {name} starts at {s}"),
                Start::Now => ensure!(s == arrival, "immediate {name} starts at {s}"),
                Start::BestEffort => {}
            }
        }
        if !rec.preemptions.is_empty() {
            ensure!(
                rec.kind == Kind::BestEffort && rec.preemptible,
                "{name} suspended but not a preemptible best-effort lease"
            );
        }
        let mut free_from = rec.start.map(ticks).unwrap_or(0);
        let mut stopped = 0u64;
        for p in &rec.preemptions {
            let [b, e] = p.suspend.map(ticks);
            ensure!(
                b >= free_from && e.checked_sub(b) == Some(t_s),
                "{name}: suspension {b}-{e}"
            );
            let by = r.records.iter().find(|o| o.lease == p.by);
            ensure!(
                by.is_some_and(
                    |o| o.kind == Kind::Reservation && o.requested_start.map(ticks) == Some(e)
                ),
                "{name} suspended for {}, which does not start at {e}",
                p.by
            );
            match p.resume.map(|x| x.map(ticks)) {
                Some([rb, re]) => {
                    ensure!(
                        rb >= e && re.checked_sub(rb) == Some(t_r),
                        "{name}: resumption {rb}-{re}"
                    );
                    stopped += re - b;
                    free_from = re;
                }
                None => {
                    ensure!(
                        rec.outcome == Outcome::Unfinished,
                        "{name} never resumed but {:?}",
                        rec.outcome
                    );
                    free_from = u64::MAX;
                }
            }
        }
        match rec.outcome {
            Outcome::Completed => {
                let (Some(s), Some(e)) = (rec.start.map(ticks), rec.end.map(ticks)) else {
                    return Err(format!("completed {name} without a start or an end"));
                };
                let ran = e.checked_sub(s).and_then(|x| x.checked_sub(stopped));
                ensure!(
                    ran == Some(req.duration.get()),
                    "{name} ran {ran:?} of {}",
                    req.duration.get()
                );
            }
            Outcome::Rejected => ensure!(
                rec.start.is_none() && rec.end.is_none() && rec.preemptions.is_empty(),
                "rejected {name} ran"
            ),
            Outcome::Unfinished => ensure!(rec.end.is_none(), "unfinished {name} ended"),
        }
        for (from, to) in holds(rec, last) {
            ensure!(from <= to, "{name} holds nodes over {from}-{to}");
            steps.push((from, i64::from(rec.nodes)));
            steps.push((to, -i64::from(rec.nodes)));
        }
    }
    let a = &r.accounts;
    ensure!(
        [a.completed, a.rejected, a.unfinished] == counts
            && a.leases == w.requests.len() as u64
            && a.preemptions == preemptions,
        "accounts {a:?} against records {counts:?}, {preemptions} preemptions"
    );
    // Releases before acquisitions at the same instant.
    steps.sort_by_key(|&(t, d)| (t, d));
    let mut held = 0i64;
    for (t, d) in steps {
        held += d;
        ensure!(
            held <= i64::from(r.nodes),
            "{held} nodes held at {t} on a cluster of {}",
            r.nodes
        );
    }
    Ok(())
}
