//! The reference scenario of `docs/firmware.md` on a Cortex-M3 (QEMU's `lm3s6965evb`): the
//! kernel behind its C API, driven by [`qosgate_ffi_scenario`] exactly as the C test program
//! drives it. Logs with defmt over semihosting (the kernel's own `defmt::Format` for every
//! decision, at debug level), measures instructions per call and the stack, and exits through
//! semihosting with success only if every check passed and the stack did not overflow.
//!
//! `--features baseline` builds the same image without any kernel call: the footprint baseline;
//! `--features worst` one that runs the worst case of every C API call instead of the scenario
//! (see [`worst`]).
#![no_std]
#![no_main]

#[cfg(not(feature = "baseline"))]
mod bench;
#[cfg(not(feature = "baseline"))]
mod count;
#[cfg(not(feature = "baseline"))]
mod stack;
#[cfg(not(feature = "baseline"))]
mod worst;

use cortex_m_rt::entry;
use cortex_m_semihosting::debug::{self, EXIT_FAILURE, EXIT_SUCCESS};
use defmt_semihosting as _;
// Linked in the baseline too: it provides the panic handler (see `qosgate_panic`).
use qosgate_ffi as _;

/// The C API's panic hook (see `qosgate_ffi`): the kernel has no panicking path, so this is a
/// bug; report it and fail.
#[unsafe(no_mangle)]
extern "C" fn qosgate_panic() -> ! {
    defmt::error!("qosgate panicked");
    debug::exit(EXIT_FAILURE);
    halt()
}

/// After a semihosting exit, which does not return under QEMU.
fn halt() -> ! {
    loop {
        cortex_m::asm::wfi();
    }
}

#[cfg(feature = "baseline")]
#[entry]
fn main() -> ! {
    defmt::info!("baseline: no kernel call");
    debug::exit(EXIT_SUCCESS);
    halt()
}

#[cfg(not(feature = "baseline"))]
#[entry]
fn main() -> ! {
    static mut STORAGE: qosgate_ffi_scenario::Storage = qosgate_ffi_scenario::Storage::zeroed();
    let passed = match cortex_m::Peripherals::take() {
        Some(p) if cfg!(feature = "worst") => worst::run(STORAGE, &mut count::Counter::new(p.SYST)),
        Some(p) => run(STORAGE, p.SYST),
        None => false,
    };
    if passed {
        defmt::info!("all checks passed");
    }
    debug::exit(if passed { EXIT_SUCCESS } else { EXIT_FAILURE });
    halt()
}

/// The scenario, the per-call costs and the footprint table; whether everything passed.
/// Not inlined: `main`'s frame stays small, and the scenario's frames (the deepest about 4 KiB)
/// fit in the stack left beside the statics.
#[cfg(not(feature = "baseline"))]
#[inline(never)]
fn run(storage: &mut qosgate_ffi_scenario::Storage, syst: cortex_m::peripheral::SYST) -> bool {
    use qosgate_ffi_scenario as scenario;

    let mut counter = count::Counter::new(syst);
    defmt::info!(
        "calibration: {=u64} instructions per 65536 SysTick ticks",
        counter.ratio()
    );

    stack::repaint();
    let (outcome, ticks) = counter.ticks(|| scenario::run(storage));
    let (scenario_stack, overflow) = stack::used();
    match outcome {
        Ok(r) => {
            for d in &r.decisions {
                defmt::info!("scheduler: {}", d);
            }
            let a = &r.allocation;
            defmt::info!(
                "PAP: z = {=f64}, lambda_hat = {}, active = {}",
                a.z,
                a.lambda_hat[..3],
                a.active[..3]
            );
            defmt::info!("billiard: {}", r.billiard);
            defmt::info!("RTDP: {}", r.rtdp);
            defmt::info!("EASY starts (s): {}", r.easy_starts);
            defmt::info!(
                "bucket: waits (ticks) {}, credit (instructions) {}, J(t) (MI) {}",
                r.bucket_waits,
                r.bucket_levels,
                r.bucket_submitted
            );
        }
        Err(f) => {
            defmt::error!("scenario failed: {}", f);
            return false;
        }
    }
    let instructions = counter.instructions(ticks, 1);
    defmt::info!(
        "scenario: {=u64} instructions, {=usize} B of stack",
        instructions,
        scenario_stack
    );
    if overflow {
        defmt::error!("the stack overflowed into the statics");
        return false;
    }

    stack::repaint();
    let costs = bench::run(storage, &mut counter);
    let (bench_stack, overflow) = stack::used();
    match costs {
        Ok(c) => defmt::info!("instructions per call: {}", c),
        Err(b) => {
            defmt::error!("benchmark failed: {}", b);
            return false;
        }
    }
    defmt::info!("benchmarks: {=usize} B of stack", bench_stack);

    for (name, bytes) in qosgate_kernel::footprint::SIZES {
        defmt::info!("size_of {=str}: {=usize} B", name, bytes);
    }
    !overflow
}
