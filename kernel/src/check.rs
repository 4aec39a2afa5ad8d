//! The input checks of the configuration-time solvers ([`crate::allocate`], [`crate::broker`],
//! [`crate::dispatch`]): one copy of each, every one naming the input it checks, every refusal an
//! [`Invalid`] (see [`crate::error`] for the rule).
//!
//! A value is checked for being finite first, so NaN and the infinities are always
//! [`Problem::NotFinite`], whatever else the input must be.

use crate::error::{Invalid, Problem};

/// `Err` with `problem` for `input`.
fn invalid<T, I>(input: I, problem: Problem) -> Result<T, Invalid<I>> {
    Err(Invalid { input, problem })
}

/// `x`, if it is finite.
#[inline]
pub(crate) fn finite<I>(x: f64, input: I) -> Result<f64, Invalid<I>> {
    if x.is_finite() {
        Ok(x)
    } else {
        invalid(input, Problem::NotFinite)
    }
}

/// `x`, if it is finite and `>= 0` (`-0.0` included).
pub(crate) fn non_negative<I: Copy>(x: f64, input: I) -> Result<f64, Invalid<I>> {
    if finite(x, input)? < 0.0 {
        invalid(input, Problem::Negative)
    } else {
        Ok(x)
    }
}

/// `x`, if it is finite and `> 0`.
pub(crate) fn positive<I: Copy>(x: f64, input: I) -> Result<f64, Invalid<I>> {
    if non_negative(x, input)? == 0.0 {
        invalid(input, Problem::NotPositive)
    } else {
        Ok(x)
    }
}

/// `x`, if it is finite and in `lo ..= hi`.
pub(crate) fn in_range<I: Copy>(x: f64, lo: f64, hi: f64, input: I) -> Result<f64, Invalid<I>> {
    if lo <= finite(x, input)? && x <= hi {
        Ok(x)
    } else {
        invalid(input, Problem::OutOfRange)
    }
}

/// A list of `len` entries where at least one and at most `capacity` are allowed.
pub(crate) fn entries<I>(len: usize, capacity: usize, list: I) -> Result<(), Invalid<I>> {
    if len == 0 {
        invalid(list, Problem::Empty)
    } else if len > capacity {
        invalid(list, Problem::TooMany)
    } else {
        Ok(())
    }
}

/// A list of `len` entries that must have one per entry of a list of `other`.
pub(crate) fn same_length<I>(len: usize, other: usize, list: I) -> Result<(), Invalid<I>> {
    if len == other {
        Ok(())
    } else {
        invalid(list, Problem::LengthMismatch)
    }
}

/// `index`, if it is below `len` (a position in a list of `len` entries).
pub(crate) fn index<I>(index: usize, len: usize, input: I) -> Result<usize, Invalid<I>> {
    if index < len {
        Ok(index)
    } else {
        invalid(input, Problem::OutOfRange)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem<T>(r: Result<T, Invalid<&str>>) -> Option<Problem> {
        r.err().map(|e| {
            assert_eq!(e.input, "x", "the input is named");
            e.problem
        })
    }

    #[test]
    fn values_are_checked_for_finiteness_first() {
        use Problem::*;
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(problem(finite(bad, "x")), Some(NotFinite));
            assert_eq!(problem(non_negative(bad, "x")), Some(NotFinite));
            assert_eq!(problem(positive(bad, "x")), Some(NotFinite));
            assert_eq!(problem(in_range(bad, 0.0, 1.0, "x")), Some(NotFinite));
        }
        assert_eq!(problem(non_negative(-1e-300, "x")), Some(Negative));
        assert_eq!(non_negative(-0.0, "x"), Ok(-0.0));
        assert_eq!(problem(positive(-2.0, "x")), Some(Negative));
        assert_eq!(problem(positive(0.0, "x")), Some(NotPositive));
        assert_eq!(positive(5e-324, "x"), Ok(5e-324));
        assert_eq!(problem(in_range(1.5, 0.0, 1.0, "x")), Some(OutOfRange));
        assert_eq!(problem(in_range(-0.5, 0.0, 1.0, "x")), Some(OutOfRange));
        assert_eq!(in_range(1.0, 0.0, 1.0, "x"), Ok(1.0));
        assert_eq!(in_range(0.0, 0.0, 1.0, "x"), Ok(0.0));
    }

    #[test]
    fn lists_are_checked_for_their_shape() {
        use Problem::*;
        assert_eq!(problem(entries(0, 4, "x")), Some(Empty));
        assert_eq!(problem(entries(5, 4, "x")), Some(TooMany));
        assert_eq!(entries(4, 4, "x"), Ok(()));
        assert_eq!(problem(same_length(2, 3, "x")), Some(LengthMismatch));
        assert_eq!(same_length(3, 3, "x"), Ok(()));
        assert_eq!(problem(index(3, 3, "x")), Some(OutOfRange));
        assert_eq!(index(2, 3, "x"), Ok(2));
    }
}
