//! The gateway's decisions as a user asks for them: problems in JSON for the kernel's solvers
//! (PAP, the broker), dispatch sequences (billiard, RTDP) and one DAG application's list
//! scheduling (gandhimathi2013).
//!
//! - [`dag`]: `qosgate dag`'s application and answer, listed and scheduled by the kernel.
//! - [`solve`]: `qosgate solve pap|broker`'s problem and answer schemas, solved by the kernel.
//! - [`sequence`]: `qosgate sequence billiard|rtdp`.
pub mod dag;
pub mod sequence;
pub mod solve;
