//! The gateway's decisions as a user asks for them: problems in JSON for the kernel's solvers
//! (PAP, the broker) and dispatch sequences (billiard, RTDP).
//!
//! - [`solve`]: `qosgate solve pap|broker`'s problem and answer schemas, solved by the kernel.
//! - [`sequence`]: `qosgate sequence billiard|rtdp`.
pub mod sequence;
pub mod solve;
