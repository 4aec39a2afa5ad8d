//! What a run records of each request: one [`RequestRecord`] per request generated, whatever
//! happened to it (`qosgate run --events FILE.jsonl` writes one per line).

use serde::{Deserialize, Serialize};

/// The provider a request was sent to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Provider {
    /// The failure-prone local cluster.
    Local,
    /// The reliable public cloud.
    Cloud,
}

/// How a request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// It completed by the end of the drain.
    Completed,
    /// It had not completed when the drain ended (on the local cluster: the failures kept it
    /// waiting); it completed later, at `end_s`, with every node up. Reported, never dropped:
    /// the metrics count it apart and leave it out of the response times.
    Unfinished,
}

/// One request, from its arrival at the broker to its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestRecord {
    /// Its number, from 0 in arrival order (`request` in the outputs).
    #[serde(rename = "request")]
    pub id: u64,
    /// Arrival at the broker, seconds (`arrival` in the outputs).
    #[serde(rename = "arrival")]
    pub arrival_s: u64,
    /// Where the broker sent it.
    pub provider: Provider,
    /// VMs.
    pub vms: u32,
    /// Its run time on the provider's nodes, seconds.
    pub run_s: u64,
    /// Arrival at the provider's queue (after the transfer), seconds (`queued`).
    #[serde(rename = "queued")]
    pub queued_s: u64,
    /// First start, seconds (`start`).
    #[serde(rename = "start")]
    pub start_s: u64,
    /// Completion, seconds (`end`).
    #[serde(rename = "end")]
    pub end_s: u64,
    /// Times a failure stopped it (it resumed from its checkpoint).
    pub interruptions: u32,
    /// How it ended.
    pub outcome: Outcome,
    /// Why it is unfinished, else `None`.
    pub reason: Option<String>,
}

impl RequestRecord {
    /// Response time `ct - st` (Eq. 14), seconds: from the arrival at the broker to completion,
    /// the transfer to the cloud included.
    pub fn response_s(&self) -> u64 {
        self.end_s - self.arrival_s
    }

    /// Waiting time `w` (Eq. 15), seconds: the response time less the run time (the transfer,
    /// the queue and the time stopped by failures).
    pub fn wait_s(&self) -> u64 {
        self.response_s() - self.run_s
    }
}

/// One replication's result.
#[derive(Debug, Clone)]
pub struct Run {
    /// One record per request, in id (arrival) order.
    pub records: Vec<RequestRecord>,
    /// `P_c`, the routing's share for the cloud.
    pub p_cloud: f64,
    /// Node failures and repairs replayed on the local cluster.
    pub node_events: u64,
    /// Events processed: arrivals, starts (restarts included), completions, node events.
    pub events: u64,
}
