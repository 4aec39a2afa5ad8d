//! The panic handler of bare-metal builds. A staticlib must carry one, and Cargo builds the
//! staticlib even when a Rust firmware links the rlib, so this crate provides it on every
//! `target_os = "none"` target (a Rust firmware that links this crate does not define its own).
//!
//! The library has no panic path (its optimised image links none of `core`'s panic functions,
//! which CI checks), so reaching this is a bug. The handler calls `void qosgate_panic(void)`,
//! which the application must define (it must not return: reset, log, or stop). An optimised
//! build with `--gc-sections` drops the handler and so needs no definition; an unoptimised
//! build keeps checks the optimiser would prove dead, and does.

unsafe extern "C" {
    /// Bare-metal builds only: the application defines it, the library calls it if it panics
    /// (a bug), and it must not return.
    fn qosgate_panic() -> !;
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: `qosgate_panic` is the application's (its contract above): no arguments, no
    // preconditions, never returns.
    unsafe { qosgate_panic() }
}
