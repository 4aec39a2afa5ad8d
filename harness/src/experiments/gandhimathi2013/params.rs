//! gandhimathi2013's numbers (Sec. IV), each with its table or section, and the choices erratum
//! E25 makes where the paper is silent.

use crate::models::multicloud::scenario::BuiltinTrace;

/// One data center of Sec. 4.1 and Table 2.
#[derive(Debug, Clone, Copy)]
pub struct DataCenter {
    /// Its name.
    pub name: &'static str,
    /// Servers (nodes).
    pub servers: u32,
    /// Cores per server (VMs per server).
    pub cores: u8,
    /// Normalized performance per core (Table 2).
    pub performance: f64,
    /// The trace of its applications (uBGL: the NASA iPSC/860 stand-in).
    pub trace: BuiltinTrace,
    /// Processors of a job times this are its VMs (uBGL's stand-in: 128 nodes to 2,048).
    pub width_scale: u32,
    /// Usable jobs in the compiled cut-down (the first 1,000 data lines of the trace).
    pub cut_down_jobs: u32,
}

/// Sec. 4.1 and Table 2: Thunder (1,024 nodes of 4 Itanium cores), Atlas (1,152 nodes of 8
/// Opteron cores), uBGL (2,048 processors: 1,024 BlueGene/L nodes of 2 cores).
pub const DATA_CENTERS: [DataCenter; 3] = [
    DataCenter {
        name: "Thunder",
        servers: 1024,
        cores: 4,
        performance: 1.0,
        trace: BuiltinTrace::LlnlThunder,
        width_scale: 1,
        cut_down_jobs: 994,
    },
    DataCenter {
        name: "Atlas",
        servers: 1152,
        cores: 8,
        performance: 0.85,
        trace: BuiltinTrace::LlnlAtlas,
        width_scale: 1,
        cut_down_jobs: 835,
    },
    DataCenter {
        name: "uBGL",
        servers: 1024,
        cores: 2,
        performance: 0.50,
        trace: BuiltinTrace::NasaIpsc,
        width_scale: 16,
        cut_down_jobs: 989,
    },
];

/// Sec. 4.1: the share of applications that are advance reservations, percent.
pub const AR_PCT: u8 = 20;
/// Sec. 4.1: an AR's start time is "no later than 30 min after it arrives", seconds.
pub const AR_NOTICE_MAX_S: f64 = 1800.0;
/// Sec. 4.1 and E25: 1 TB over 1 Gb/s, seconds.
pub const DATASET_S: f64 = 8000.0;
/// E25: a 4 GB image over the nodes' 4 GB/s, seconds.
pub const IMAGE_S: f64 = 1.0;
/// E25: power of an active and an idle server.
pub const POWER: (f64, f64) = (1.0, 0.3);
/// "Loose" (trace gaps) and "tight" (gaps / 100) arrivals, Sec. 4.1.
pub const LOOSE: u32 = 1;
/// See [`LOOSE`].
pub const TIGHT: u32 = 100;
/// Figs. 7-8: the values of alpha, percent (E25: 0, 0.2, ..., 1).
pub const ALPHAS_PCT: [u8; 6] = [0, 20, 40, 60, 80, 100];
/// Tables 4-5 and Figs. 9-10 run at alpha = 0.8 (Tables 4-5's captions), percent.
pub const ALPHA_TABLES_PCT: u8 = 80;
/// Table 3: the arrival-gap divisors.
pub const DIVISORS: [u32; 6] = [1, 20, 40, 60, 80, 100];
/// Tables 4-5: the shares of AR applications, percent.
pub const AR_SHARES_PCT: [u8; 5] = [0, 20, 50, 80, 100];
/// The control workload of Figs. 9-10: every task needs `U{1 .. 16}` VMs (part of a server on
/// every cloud: 4, 8 and 2 VMs per server), where the traces' widths are whole nodes of their
/// clusters and leave the mapping nothing to pack.
pub const CONTROL_WIDTHS: (u32, u32) = (1, 16);
/// Seed of replication 0 (replication `k` uses `SEED + k`).
pub const SEED: u64 = 2013;

/// Table 3 as printed: per divisor, DLS, FDLS (alpha = 1), DMMS, FDMMS (alpha = 1), seconds.
pub const TABLE3: [[f64; 4]; 6] = [
    [237.82, 253.59, 206.31, 223.47],
    [309.35, 286.55, 262.66, 255.44],
    [445.74, 397.15, 385.48, 336.52],
    [525.32, 420.83, 448.04, 343.60],
    [729.56, 537.28, 648.37, 440.05],
    [981.41, 680.22, 844.33, 504.66],
];
/// Table 3 as printed: the feedback's improvement for DLS and DMMS, percent.
pub const TABLE3_IMPROVEMENT: [[f64; 2]; 6] = [
    [-6.63, -8.32],
    [7.37, 2.75],
    [10.9, 12.7],
    [19.89, 23.31],
    [26.36, 32.13],
    [30.69, 40.23],
];
/// Table 4 as printed (loose, alpha = 0.8): DCLS and DCMMS over FCFS, per AR share.
pub const TABLE4: [[f64; 5]; 2] = [
    [0.81, 0.75, 0.61, 0.55, 0.49],
    [0.77, 0.56, 0.52, 0.46, 0.44],
];
/// Table 5 as printed (tight, alpha = 0.8).
pub const TABLE5: [[f64; 5]; 2] = [
    [0.63, 0.55, 0.49, 0.43, 0.38],
    [0.51, 0.38, 0.32, 0.30, 0.27],
];

/// The environment variable that sets the jobs of every trace (with `QOSGATE_TRACES`, beyond
/// the cut-downs).
pub const JOBS_ENV: &str = "QOSGATE_TRACE_JOBS";

/// The jobs of data center `i`'s trace: `QOSGATE_TRACE_JOBS` if set to a positive integer,
/// else every usable job of its cut-down.
pub fn jobs(i: usize) -> u32 {
    std::env::var(JOBS_ENV)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(DATA_CENTERS[i].cut_down_jobs)
}
