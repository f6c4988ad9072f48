//! Rules of the clock (DESIGN.md "The core"): what the passing of time has
//! made due (the today set, expired tasks to archive, deletes past their
//! restore window, idempotency records past 24 hours) is settled at the
//! start of the next transaction that could see it, so results never
//! depend on a background thread's timing.

use crate::error::Result;
use crate::organiser::{ReadCx, WriteCx};
use crate::{idempotency, restore, tasks};

/// Whether anything a reader could see is due.
pub(crate) fn due(cx: &ReadCx<'_>) -> Result<bool> {
    Ok(tasks::TodaySet::due(cx)? || tasks::expiry::due(cx)? || restore::due(cx)?)
}

/// Settles everything due, inside the caller's write transaction.
pub(crate) fn run(cx: &mut WriteCx<'_>) -> Result<()> {
    restore::settle(cx)?;
    tasks::settle_today(cx)?;
    tasks::expiry::settle(cx)?;
    idempotency::forget_expired(cx)
}
