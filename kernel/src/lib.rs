//! qosgate's scheduling kernel: `no_std`, no allocation, no panics, no clock.
//!
//! The kernel is a set of pure state machines that a gateway's firmware (C or Rust) or the
//! `qosgate` harness drives. The caller owns all storage (capacities are const generics), passes
//! `now` into every call that depends on time, and receives decisions and typed errors back.
//! Nothing here reads a clock, allocates, prints, or loops without a stated bound.
//!
//! # Layers (kokkinos2009)
//! - [`units`]: ticks, MI, MIPS and their conversions; read first.
//! - [`bucket`]: a (rho, sigma) leaky bucket per (user, resource) with the four workload-knowledge
//!   modes of Sec. 4.2: conformance (Eq. 3) and the withholding time `T`.
//! - [`registry`]: registration of guaranteed-service users at a resource (Eq. 1, 2), their
//!   guaranteed rates `g`, and the temporary users of GS_BE_EQUAL resources.
//! - [`bound`]: the delay-bound calculus (Eq. 5-11, Table 1), per discipline (E28), on one CPU
//!   or several (E29).
//! - [`vtime`] and [`fairq`]: fixed-point wrap-around virtual time and the WFQ / SCFQ queue.
//! - [`resource`]: a resource's local scheduler: the four resource types of Sec. 3.4, FCFS for
//!   best effort, preemption, single and multi-CPU.
//! - [`meta`]: the best-effort meta-scheduler of Sec. 3.3 (WFQ/EST, EDF/EST).
//!
//! # Gateway decisions (salehi2012, javadi2012)
//! - [`allocate`]: PAP workload allocation (the bisection for `z`) and its baselines.
//! - [`broker`]: cost- and failure-aware routing probabilities.
//! - [`dispatch`]: billiard, RTDP and Bernoulli dispatch sequences.
//!
//! # A cluster's local resource manager (salehi2012, salehi2011, javadi2012, gandhimathi2013)
//! - [`slots`]: the free-node profile over future time, on which backfilling and leases are
//!   built.
//! - [`backfill`]: FCFS, EASY, conservative and selective backfilling, with failures and
//!   checkpointing: the scheduler, its queue of waiting jobs, and the job they share.
//! - [`lease`]: local, external (four types) and advance-reservation leases, with Haizea's
//!   preemption timing; [`lease::preempt`] chooses which leases to preempt (MOML, MOV, MLIP,
//!   preferring less valuable types).
//!
//! # DAG applications over clouds (gandhimathi2013)
//! - [`dag`]: an application of up to 64 tasks, its EST / LST, critical nodes and CNPT listing.
//! - [`listsched`]: CLS, CMMS and their feedback forms DCLS, DCMMS over `K` clouds, and the
//!   feedback factors.
//! - [`mapping`]: a cloud's leases onto its servers: the energy-aware Algorithms 4-5,
//!   first-fit and worst-fit.
//!
//! # Crate-private parts
//! - `storage`: the fixed-capacity containers beneath the state machines: the fair queue's heap
//!   and tree of flows keyed by virtual time, the pool its FIFOs share, and the `heapless::Vec`
//!   operations that cannot panic (slot table, backfilling queue, lease table).
//! - `check`: the input checks of the configuration-time solvers.
//!
//! # Errors
//! One rule (stated in full in [`error`]): the state machines (bucket, registry, fair queue,
//! resource, meta-scheduler, slots, backfill, leases, preemption), the bound calculus and the
//! unit conversions return the crate's [`Error`], and a call handed an item it cannot store
//! returns it in [`Refused`]; the configuration-time solvers ([`allocate`], [`broker`], the
//! set-up of [`dispatch`]) return their own enum for the causes that are theirs, and every
//! problem with one input's shape or value as the shared [`Invalid`] (input, [`Problem`]),
//! which their enums wrap as one variant. Nothing is half-applied.
//!
//! # Memory
//! Every structure's size is fixed at compile time; [`footprint`] lists them for the reference
//! configuration, and the README states the figures.
#![no_std]
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod allocate;
pub mod backfill;
pub mod bound;
pub mod broker;
pub mod bucket;
mod check;
pub mod dag;
pub mod dispatch;
pub mod error;
pub mod fairq;
pub mod footprint;
mod handle;
pub mod lease;
pub mod listsched;
pub mod mapping;
pub mod meta;
pub mod registry;
pub mod resource;
pub mod slots;
mod storage;
pub mod units;
pub mod vtime;
mod wide;

pub use error::{Error, Invalid, Param, Problem, Refused};
