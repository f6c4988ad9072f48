//! List positions (document 2, task list rule 2): 1-based among live lists,
//! out-of-range values clamped; a move renumbers the live lists 1..n and
//! gives those whose position changed a new `updated_at`.

use super::{TaskList, load_live, update};
use crate::engine::WriteCx;
use crate::error::Result;
use crate::ids::Id;
use crate::positions::Placement;

/// Makes room at `rank` (clamped) among `others` (live lists in position
/// order, without the one being placed) and renumbers them; the placed
/// list's position.
pub(crate) fn place(cx: &WriteCx<'_>, others: &[Id], rank: i64) -> Result<i64> {
    let placement = Placement::at(rank, others.len());
    for (i, &id) in others.iter().enumerate() {
        set(cx, id, placement.of_other(i))?;
    }
    Ok(placement.position())
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
