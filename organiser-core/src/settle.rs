//! Rules of the clock (DESIGN.md "The core"): what the passing of time has
//! made due (deletes past their restore window, each record kind's own
//! rules such as the today set and expired tasks, idempotency records past
//! 24 hours) is settled at the start of the next transaction that could see
//! it, so results never depend on a background thread's timing.

use crate::engine::{ReadCx, WriteCx};
use crate::error::Result;
use crate::{idempotency, restore};

/// Whether anything a reader could see is due.
pub(crate) fn due(cx: &ReadCx<'_>) -> Result<bool> {
    if restore::due(cx)? {
        return Ok(true);
    }
    for kind in cx.org.wiring.kinds {
        if let Some(settle) = kind.settle
            && (settle.due)(cx)?
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Settles everything due, inside the caller's write transaction.
pub(crate) fn run(cx: &mut WriteCx<'_>) -> Result<()> {
    restore::settle(cx)?;
    for kind in cx.org.wiring.kinds {
        if let Some(settle) = kind.settle {
            (settle.run)(cx)?;
        }
    }
    idempotency::forget_expired(cx)
}
