//! Stack high-water mark. cortex-m-rt's `paint-stack` fills the stack region with
//! [`STACK_PAINT_VALUE`] at reset; [`repaint`] does it again below the current frame, and
//! [`used`] finds the deepest word no longer painted. The stack grows down from `_stack_start`
//! to `_stack_end`, the end of static RAM; reaching `_stack_end` means it overflowed into the
//! statics.

use cortex_m_rt::STACK_PAINT_VALUE;

unsafe extern "C" {
    static _stack_start: u32;
    static _stack_end: u32;
}

/// Bytes kept unpainted below the current stack pointer. Nothing lives below it ([`repaint`] is
/// inlined, so the pointer read is its caller's, and no interrupt is enabled), so none are
/// needed; a word of slack keeps the painting loop clear of the pointer itself.
const MARGIN: usize = 4;

fn bounds() -> (*mut u32, *mut u32) {
    // Only the addresses of the linker's symbols are taken, never their values.
    (
        (&raw const _stack_end).cast_mut(),
        (&raw const _stack_start).cast_mut(),
    )
}

/// Paints the stack from `_stack_end` to `MARGIN` bytes below the current stack pointer.
#[inline(always)]
pub fn repaint() {
    let (end, _) = bounds();
    let sp = cortex_m::register::msp::read() as usize - MARGIN;
    let mut p = end;
    while (p as usize) < sp {
        // SAFETY: `[_stack_end, sp - MARGIN)` is stack no live frame uses (it lies below the
        // current one), word-aligned (the linker script aligns `_stack_end` to 4).
        unsafe { p.write_volatile(STACK_PAINT_VALUE) };
        p = p.wrapping_add(1);
    }
}

/// The top of the stack (`_stack_start`, where it starts, empty), as an address.
pub fn top() -> usize {
    bounds().1 as usize
}

/// Bytes of stack used since the last paint (at reset or by [`repaint`]), and whether the
/// stack reached its end (an overflow into the statics).
pub fn used() -> (usize, bool) {
    let (end, start) = bounds();
    let mut p = end;
    while p < start {
        // SAFETY: `[_stack_end, _stack_start)` is the stack region, word-aligned; reading a
        // word of it is reading plain memory.
        if unsafe { p.read_volatile() } != STACK_PAINT_VALUE {
            break;
        }
        p = p.wrapping_add(1);
    }
    (start as usize - p as usize, p == end)
}
