//! One replication on a thread of its own, with room for the kernel's structures.
//!
//! The kernel's schedulers are built by value; an unoptimised build keeps several copies of
//! one on the stack while it is moved into place (a 9 MB backfilling scheduler, a 2 MB
//! resource). Each model states the bytes of the largest structure it builds, and the run gets
//! a stack of 16 copies of that plus a fixed slack: enough for debug builds, and only reserved
//! (not touched) address space in release builds.

use anyhow::{Context, Result, anyhow};

/// Stack beyond the kernel structures' copies: the model's own frames.
const SLACK: usize = 16 << 20;

/// Runs `f` on a new thread named `name` whose stack holds 16 copies of `kernel_bytes` plus
/// 16 MiB of slack for the model's own frames, and returns its result.
///
/// Errors: the thread cannot be started, or `f` panicked (a bug: the message says so), or
/// `f`'s own error.
pub fn run_on_big_stack<T: Send>(
    name: &str,
    kernel_bytes: usize,
    f: impl FnOnce() -> Result<T> + Send,
) -> Result<T> {
    let stack = kernel_bytes.saturating_mul(16).saturating_add(SLACK);
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name(name.into())
            .stack_size(stack)
            .spawn_scoped(scope, f)
            .with_context(|| format!("starting the {name} thread"))?
            .join()
            .map_err(|_| anyhow!("the {name} thread panicked"))?
    })
}
