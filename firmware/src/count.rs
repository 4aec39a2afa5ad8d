//! Instructions per call on the emulated core. QEMU with `-icount shift=0` advances its virtual
//! clock by 1 ns per instruction executed, and clocks SysTick from that virtual clock, so
//! SysTick ticks count instructions at a fixed ratio. [`Counter::new`] measures the ratio on a
//! block of a known number of `nop`s; [`Counter::instructions`] converts. The figures are
//! instructions, not cycles: QEMU models no pipeline, flash wait states or bus contention (a
//! real Cortex-M3 takes about 1.2-2 cycles per instruction on code like this).

use cortex_m::peripheral::SYST;
use cortex_m::peripheral::syst::SystClkSource;

/// `nop`s in the calibration block, and times it runs.
const BLOCK: u64 = 1000;
const BLOCKS: u64 = 200;

// The calibration block, out of line: inlined, its 2,000 bytes would put the caller's literal
// pool out of reach of Armv6-M's loads (1 KiB). A call and a return per block besides its `nop`s.
core::arch::global_asm!(
    ".section .text.nop_block,\"ax\",%progbits",
    ".global nop_block",
    ".type nop_block,%function",
    ".thumb_func",
    "nop_block:",
    ".rept 1000",
    "nop",
    ".endr",
    "bx lr",
    ".size nop_block, . - nop_block",
);

unsafe extern "C" {
    /// `BLOCK` `nop`s, then returns.
    fn nop_block();
}

/// Empty measurements averaged for the overhead.
const EMPTY: u64 = 1000;

/// SysTick as an instruction counter. One tick is about 80 instructions (QEMU clocks the
/// LM3S6965 at 12.5 MHz), so single calls are measured to that resolution and means over many
/// calls to a few instructions.
pub struct Counter {
    /// Held so that nothing else reconfigures SysTick.
    _syst: SYST,
    /// Instructions per 2^16 ticks.
    ratio: u64,
    /// Ticks of an empty measurement (the reads themselves), times 2^16.
    overhead: u64,
}

impl Counter {
    /// Starts SysTick on the processor clock (free-running, 24 bits) and calibrates it.
    pub fn new(mut syst: SYST) -> Self {
        syst.set_clock_source(SystClkSource::Core);
        syst.set_reload(0x00FF_FFFF);
        syst.clear_current();
        syst.enable_counter();
        let mut c = Self {
            _syst: syst,
            ratio: 1 << 16,
            overhead: 0,
        };
        let empty: u64 = (0..EMPTY).map(|_| c.ticks(|| ()).1).sum();
        c.overhead = (empty << 16) / EMPTY;
        let ((), t) = c.ticks(|| {
            for _ in 0..BLOCKS {
                // SAFETY: `nop`s only.
                unsafe { nop_block() };
            }
        });
        c.ratio = ((BLOCK * BLOCKS) << 16) / t.max(1);
        c
    }

    /// Runs `f` and returns its result and the SysTick ticks it took (the overhead included).
    pub fn ticks<R>(&mut self, f: impl FnOnce() -> R) -> (R, u64) {
        let before = SYST::get_current();
        let r = f();
        let after = SYST::get_current();
        // The counter counts down and wraps at 2^24.
        (r, u64::from(before.wrapping_sub(after) & 0x00FF_FFFF))
    }

    /// Instructions of `calls` measurements that took `ticks` in all, less the overhead: the
    /// mean per call.
    pub fn instructions(&self, ticks: u64, calls: u64) -> u64 {
        let net = (ticks << 16).saturating_sub(calls * self.overhead);
        ((net >> 16) * self.ratio + (((net & 0xFFFF) * self.ratio) >> 16)) / (calls.max(1) << 16)
    }

    /// Instructions per tick, in 16.16 fixed point (the calibration, for the log).
    pub fn ratio(&self) -> u64 {
        self.ratio
    }
}
