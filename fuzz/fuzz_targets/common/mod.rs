//! Helpers shared by the fuzz targets: arbitrary numbers that reach the edges, and an arbitrary
//! mirror of the kernel's `Knowledge` and `Discipline` (the kernel does not depend on `arbitrary`).
#![allow(dead_code)]

use arbitrary::Arbitrary;
use qosgate_kernel::bucket::Knowledge;
use qosgate_kernel::fairq::Discipline;
use qosgate_kernel::units::{MAX_CAPACITY, MAX_TASK_WORK, Mips, TICKS_PER_SECOND, Ticks, Work};

/// The largest work, in MI, whose credit in instructions (`MI * 10^6`) fits in an `i64`.
pub const MAX_INSTR_WORK: u64 = i64::MAX as u64 / TICKS_PER_SECOND;

/// A `u64` that lands on zero, one, the type's maximum and the kernel's limits far more often
/// than a uniform draw would, but can still be any value.
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Num {
    Zero,
    One,
    Two,
    Max,
    MaxMinus1,
    MaxTask,
    MaxTaskPlus1,
    MaxInstr,
    MaxInstrPlus1,
    I64Max,
    Million,
    MaxCapacity,
    MaxCapacityPlus1,
    /// `2^(k % 64)`.
    Pow2(u8),
    /// `2^(k % 64) - 1`.
    Pow2Minus1(u8),
    Small(u8),
    Medium(u32),
    Raw(u64),
}

impl Num {
    pub fn get(self) -> u64 {
        match self {
            Num::Zero => 0,
            Num::One => 1,
            Num::Two => 2,
            Num::Max => u64::MAX,
            Num::MaxMinus1 => u64::MAX - 1,
            Num::MaxTask => MAX_TASK_WORK.get(),
            Num::MaxTaskPlus1 => MAX_TASK_WORK.get() + 1,
            Num::MaxInstr => MAX_INSTR_WORK,
            Num::MaxInstrPlus1 => MAX_INSTR_WORK + 1,
            Num::I64Max => i64::MAX as u64,
            Num::Million => TICKS_PER_SECOND,
            Num::MaxCapacity => MAX_CAPACITY.get(),
            Num::MaxCapacityPlus1 => MAX_CAPACITY.get() + 1,
            Num::Pow2(k) => 1u64 << (k % 64),
            Num::Pow2Minus1(k) => (1u64 << (k % 64)) - 1,
            Num::Small(x) => u64::from(x),
            Num::Medium(x) => u64::from(x),
            Num::Raw(x) => x,
        }
    }

    /// The number as a time or duration.
    pub fn ticks(self) -> Ticks {
        Ticks::new(self.get())
    }

    /// The number as work.
    pub fn work(self) -> Work {
        Work::new(self.get())
    }

    /// The number as a capacity or rate.
    pub fn mips(self) -> Mips {
        Mips::new(self.get())
    }
}

/// A `u16` weight or count that reaches 0, 1 and `u16::MAX` often.
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Num16 {
    Zero,
    One,
    Max,
    Small(u8),
    Raw(u16),
}

impl Num16 {
    pub fn get(self) -> u16 {
        match self {
            Num16::Zero => 0,
            Num16::One => 1,
            Num16::Max => u16::MAX,
            Num16::Small(x) => u16::from(x),
            Num16::Raw(x) => x,
        }
    }
}

/// Arbitrary mirror of [`Knowledge`].
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum K {
    Exact,
    Conservative,
    ConservativeFeedback,
    Window(Num16),
    Aggressive,
}

impl K {
    pub fn get(self) -> Knowledge {
        match self {
            K::Exact => Knowledge::Exact,
            K::Conservative => Knowledge::Conservative,
            K::ConservativeFeedback => Knowledge::ConservativeFeedback,
            K::Window(n) => Knowledge::Window(n.get()),
            K::Aggressive => Knowledge::Aggressive,
        }
    }
}

/// Arbitrary mirror of [`Discipline`].
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum D {
    Wfq,
    Scfq,
}

impl D {
    pub fn get(self) -> Discipline {
        match self {
            D::Wfq => Discipline::Wfq,
            D::Scfq => Discipline::Scfq,
        }
    }
}

/// `work` in instructions, exactly (`i128`, never overflows).
pub fn instr(work: Work) -> i128 {
    i128::from(work.get()) * i128::from(TICKS_PER_SECOND)
}

/// An `f64` that lands on the edges far more often than a uniform draw of bits would: zeros of
/// both signs, infinities, NaN, the smallest subnormal and normal numbers, the largest finite
/// number, powers of ten across the whole range, and plain values in `[0, 1)` and `[0, 655.35]`;
/// `Raw` reaches every bit pattern. `Neg` flips the sign of the value it wraps.
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq)]
pub enum Float {
    Zero,
    NegZero,
    One,
    Inf,
    NegInf,
    Nan,
    MinSubnormal,
    MinPositive,
    Max,
    Epsilon,
    /// `10^(k % 616 - 308)`, with `k` read as unsigned.
    Pow10(u16),
    /// `k / 2^32`, in `[0, 1)`.
    Unit(u32),
    /// `k / 100`.
    Cents(u16),
    /// `m * 2^e`.
    Scaled(u16, i16),
    Raw(u64),
    Neg(Float1),
}

/// [`Float`] without the recursive `Neg` (one sign flip is enough).
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq)]
pub enum Float1 {
    One,
    Inf,
    MinSubnormal,
    Pow10(u16),
    Unit(u32),
    Cents(u16),
    Raw(u64),
}

impl Float1 {
    pub fn get(self) -> f64 {
        match self {
            Float1::One => 1.0,
            Float1::Inf => f64::INFINITY,
            Float1::MinSubnormal => f64::from_bits(1),
            Float1::Pow10(k) => pow10(k),
            Float1::Unit(k) => f64::from(k) / 4_294_967_296.0,
            Float1::Cents(k) => f64::from(k) / 100.0,
            Float1::Raw(b) => f64::from_bits(b),
        }
    }
}

fn pow10(k: u16) -> f64 {
    10f64.powi(i32::from(k % 616) - 308)
}

impl Float {
    pub fn get(self) -> f64 {
        match self {
            Float::Zero => 0.0,
            Float::NegZero => -0.0,
            Float::One => 1.0,
            Float::Inf => f64::INFINITY,
            Float::NegInf => f64::NEG_INFINITY,
            Float::Nan => f64::NAN,
            Float::MinSubnormal => f64::from_bits(1),
            Float::MinPositive => f64::MIN_POSITIVE,
            Float::Max => f64::MAX,
            Float::Epsilon => f64::EPSILON,
            Float::Pow10(k) => pow10(k),
            Float::Unit(k) => f64::from(k) / 4_294_967_296.0,
            Float::Cents(k) => f64::from(k) / 100.0,
            Float::Scaled(m, e) => f64::from(m) * 2f64.powi(i32::from(e)),
            Float::Raw(b) => f64::from_bits(b),
            Float::Neg(x) => -x.get(),
        }
    }
}

/// Whether `x` is finite and within `[lo, hi]`.
pub fn within(x: f64, lo: f64, hi: f64) -> bool {
    x.is_finite() && (lo..=hi).contains(&x)
}
