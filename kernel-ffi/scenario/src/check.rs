//! How a step reports: the first check that failed, by name.

use qosgate_ffi::qg_status::{self, QG_OK};

/// The first check that failed: its name, and the status the call returned (`QG_OK` when the
/// call succeeded but returned a wrong value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Failure {
    /// What was checked.
    pub check: &'static str,
    /// What the call returned.
    pub status: qg_status,
}

/// `check` passes if the call returned `want`.
pub(crate) fn expect(
    check: &'static str,
    status: qg_status,
    want: qg_status,
) -> Result<(), Failure> {
    if status == want {
        Ok(())
    } else {
        Err(Failure { check, status })
    }
}

/// `check` passes if a value the calls returned `holds`.
pub(crate) fn ensure(check: &'static str, holds: bool) -> Result<(), Failure> {
    if holds {
        Ok(())
    } else {
        Err(Failure {
            check,
            status: QG_OK,
        })
    }
}
