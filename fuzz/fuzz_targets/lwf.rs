//! Lease workloads (Haizea's LWF) and their replay. Two kinds of input:
//!
//! - arbitrary bytes into the reader (`qosgate_harness::workload::lwf`): an error with a
//!   position inside the text, or a workload with the reader's documented invariants
//!   (`qosgate_testkit::lwf::workload`), which is then replayed on a small manager (8 live
//!   leases; a cluster of its site's nodes, or 3 without one): the replay either stops because
//!   the manager is full or satisfies every invariant of `qosgate_testkit::lwf::replay`;
//! - generated leases (every kind, preemptible or not, widths up to twice the cluster, notices
//!   around the suspension time), written as LWF: the reader must accept them as written, and
//!   the replay (16 live leases, at most 12 requests, so never full) must satisfy the same
//!   invariants, under any policy, overheads and stopping time.
//!
//! The replay's invariants: one record per request with one outcome; the accounts count the
//! records (and the replay checks them against the kernel's); a completed lease ran exactly its
//! duration around its suspensions; suspensions and resumptions take `t_s` and `t_r`, in order,
//! of preemptible best-effort leases only, and end when their reservation starts; reservations
//! and immediate leases start when they asked; nodes are never over-used.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qosgate_harness::models::leases::replay::{Params, replay_in};
use qosgate_harness::workload::lwf::{self, Workload};
use qosgate_kernel::lease::{Overheads, Policy};
use qosgate_kernel::units::Ticks;
use qosgate_testkit::lwf::{Lease, When, replay, to_lwf, workload};

#[derive(Debug, Arbitrary)]
enum Input {
    Bytes(Vec<u8>),
    Generated {
        nodes: u8,
        leases: Vec<Lease>,
        policy: u8,
        suspend: u16,
        resume: u16,
        until: Option<u16>,
    },
}

fn policy(p: u8) -> Policy {
    match p % 3 {
        0 => Policy::Moml,
        1 => Policy::Mov,
        _ => Policy::Mlip,
    }
}

/// Replays `w` on a manager of `L` live leases and checks the result; `full_ok`: a full manager
/// is an acceptable stop.
fn check_replay<const L: usize, const B: usize>(w: &Workload, params: &Params, full_ok: bool) {
    match replay_in::<L, B>(w, params) {
        Ok(r) => replay(w, params, &r).unwrap(),
        Err(e) => {
            let message = format!("{e:#}");
            assert!(full_ok && message.contains("live leases"), "{message}");
        }
    }
}

fuzz_target!(|input: Input| match input {
    Input::Bytes(bytes) => match lwf::parse(&bytes) {
        Err(e) => {
            let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
            assert!(
                e.pos.line >= 1 && e.pos.column >= 1 && e.pos.line as usize <= lines,
                "{e}"
            );
        }
        Ok(w) => {
            workload(&w).unwrap();
            let params = Params {
                nodes: w.site.is_none().then_some(3),
                policy: policy(bytes.len() as u8),
                overheads: Overheads::default(),
                until: None,
            };
            check_replay::<8, 16>(&w, &params, true);
        }
    },
    Input::Generated {
        nodes,
        leases,
        policy: p,
        suspend,
        resume,
        until,
    } => {
        let nodes = u32::from(nodes % 8) + 1;
        let leases: Vec<Lease> = leases
            .into_iter()
            .take(12)
            .map(|l| Lease {
                arrival: l.arrival % 20_000,
                when: match l.when {
                    When::After(d) => When::After(d % 2_000),
                    w => w,
                },
                preemptible: l.preemptible,
                nodes: l.nodes % (2 * nodes as u16) + 1,
                duration: l.duration % 10_000 + 1,
            })
            .collect();
        let w = lwf::parse(to_lwf(nodes, &leases).as_bytes()).unwrap();
        workload(&w).unwrap();
        assert_eq!(w.requests.len(), leases.len());
        let params = Params {
            nodes: None,
            policy: policy(p),
            overheads: Overheads {
                suspend: Ticks::from_secs(u64::from(suspend % 600)),
                resume: Ticks::from_secs(u64::from(resume % 600)),
                ..Overheads::default()
            },
            until: until.map(|u| Ticks::from_secs(u64::from(u))),
        };
        check_replay::<16, 32>(&w, &params, false);
    }
});
