//! Tracing of kernel outcomes: with the `defmt` feature, a `defmt::debug!` of the kernel's own
//! values (decisions, errors: the kernel derives `defmt::Format` for them); without it, nothing.

/// `defmt::debug!` with the `defmt` feature, nothing without it.
macro_rules! trace {
    ($($arg:tt)*) => {
        #[cfg(feature = "defmt")]
        defmt::debug!($($arg)*);
    };
}

pub(crate) use trace;
