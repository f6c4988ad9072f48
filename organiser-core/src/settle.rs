//! Rules of the clock (DESIGN.md "The core"): what the passing of time has
//! made due (expired tasks to archive, deletes past their restore window,
//! idempotency records past 24 hours) is settled at the start of the next
//! transaction that could see it, so results never depend on a background
//! thread's timing.

use crate::error::Result;
use crate::idempotency;
use crate::organiser::{ReadCx, WriteCx};

/// Whether anything a reader could see is due.
pub(crate) fn due(_cx: &ReadCx<'_>) -> Result<bool> {
    Ok(false)
}

/// Settles everything due, inside the caller's write transaction.
pub(crate) fn run(cx: &mut WriteCx<'_>) -> Result<()> {
    idempotency::forget_expired(cx)
}
