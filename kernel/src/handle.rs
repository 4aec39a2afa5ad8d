//! The handles' common shape: [`FlowId`](crate::fairq::FlowId),
//! [`LeaseId`](crate::lease::LeaseId), [`JobId`](crate::backfill::JobId) and
//! [`TaskId`](crate::dag::TaskId) are each a `#[repr(transparent)]` newtype over an unsigned
//! integer, so that one kind of handle cannot be passed where another is expected.
//!
//! The field is private, as in [`units`](crate::units): a handle is made with `new` and read with
//! `get`, so the few places that turn an integer into a handle (the C API, a trace reader, a test)
//! say so by name. A handle has no arithmetic: it names something, it does not count.

/// Defines a handle: a `#[repr(transparent)]` newtype over `$int` with `new`, `get` and
/// `Display` (the bare number). `as index` adds `From<handle> for usize`, for a handle that
/// numbers the slots of a table (`$int` must then convert losslessly into `usize`).
macro_rules! handle {
    ($(#[$doc:meta])* $name:ident($int:ty) as index) => {
        $crate::handle::handle! { $(#[$doc])* $name($int) }

        /// The handle's number, as an index into the table it numbers.
        impl From<$name> for usize {
            #[inline]
            fn from(handle: $name) -> Self {
                usize::from(handle.get())
            }
        }
    };
    ($(#[$doc:meta])* $name:ident($int:ty)) => {
        $(#[$doc])*
        ///
        /// A newtype rather than an alias of its integer, so that one kind of handle cannot be
        /// passed where another is expected. Its field is private: [`new`](Self::new) makes one
        /// and [`get`](Self::get) reads it, so the places that turn an integer into a handle
        /// (the C API, a trace reader, a test) say so by name. It has no arithmetic.
        #[repr(transparent)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[cfg_attr(feature = "defmt", derive(defmt::Format))]
        pub struct $name($int);

        impl $name {
            /// The handle numbered `n`.
            #[inline]
            pub const fn new(n: $int) -> Self {
                Self(n)
            }

            /// The handle's number.
            #[inline]
            pub const fn get(self) -> $int {
                self.0
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

pub(crate) use handle;
