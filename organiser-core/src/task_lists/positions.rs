//! List positions (document 2, task list rule 2): 1-based among live lists,
//! out-of-range values clamped; a move renumbers the live lists 1..n and
//! gives those whose position changed a new `updated_at`.

use super::{TaskList, load_live, update};
use crate::error::Result;
use crate::ids::Id;
use crate::organiser::WriteCx;

/// Makes room at `rank` (clamped) among `others` (live lists in position
/// order, without the one being placed) and renumbers them; the placed
/// list's position.
pub(crate) fn place(cx: &WriteCx<'_>, others: &[Id], rank: i64) -> Result<i64> {
    let slot = usize::try_from(rank.clamp(1, others.len() as i64 + 1) - 1).unwrap_or(0);
    for (i, &id) in others.iter().enumerate() {
        let wanted = (if i < slot { i + 1 } else { i + 2 }) as i64;
        set(cx, id, wanted)?;
    }
    Ok(slot as i64 + 1)
}

/// Renumbers `lists` (live, in position order) 1..n after one left.
pub(crate) fn close_gap(cx: &WriteCx<'_>, lists: &[Id]) -> Result<()> {
    for (i, &id) in lists.iter().enumerate() {
        set(cx, id, i as i64 + 1)?;
    }
    Ok(())
}

fn set(cx: &WriteCx<'_>, id: Id, position: i64) -> Result<()> {
    let before = load_live(cx, id)?;
    if before.position == position {
        return Ok(());
    }
    let list = TaskList {
        position,
        updated_at: cx.now(),
        ..before.clone()
    };
    update(cx, &before, &list)
}
