//! The panic handler of bare-metal builds. A staticlib must carry one, and Cargo builds the
//! staticlib even when a Rust firmware links the rlib, so this crate provides it on every
//! `target_os = "none"` target (a Rust firmware that links this crate does not define its own).
//!
//! The kernel has no panicking path by design, so reaching this is a bug. The handler calls
//! `void qosgate_panic(void)`, which the application must define (it must not return: reset,
//! log, or stop); a firmware that does not define it fails to link, which is the point.

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
