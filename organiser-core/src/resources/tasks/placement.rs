//! Placement (document 2, "Placement rules"): a home's open tasks in their
//! manual order. New tasks go to the top without touching others; a moved
//! task goes to the bottom of its new home; sending `position` renumbers
//! the home's open tasks 1..n, and only those whose position changed get a
//! new `updated_at`.

use super::home::Home;
use super::index::keys;
use super::{Task, TaskRow, load_row, put_live};
use crate::engine::WriteCx;
use crate::error::Result;
use crate::ids::Id;
use crate::positions::Placement;
use crate::resources::tasks::tables::TASKS_OPEN_BY_HOME;
use crate::store::key::{Reader, tail_id};
use crate::store::{Dir, Tables};

fn edge(cx: &WriteCx<'_>, home: Home, dir: Dir) -> Result<Option<i64>> {
    let prefix = keys::home_prefix(home).into_vec();
    let mut found = None;
    cx.scan_prefix(TASKS_OPEN_BY_HOME, &prefix, dir, &mut |k, _| {
        let mut r = Reader::new(&k[prefix.len()..]);
        found = Some(r.i64());
        Ok(false)
    })?;
    Ok(found)
}

/// One less than the first open task's position (1 in an empty home).
pub(crate) fn top(cx: &WriteCx<'_>, home: Home) -> Result<i64> {
    Ok(edge(cx, home, Dir::Asc)?.map_or(1, |p| p.saturating_sub(1)))
}

/// One more than the last open task's position (1 in an empty home).
pub(crate) fn bottom(cx: &WriteCx<'_>, home: Home) -> Result<i64> {
    Ok(edge(cx, home, Dir::Desc)?.map_or(1, |p| p.saturating_add(1)))
}

/// Puts `task` at 1-based `rank` among `home`'s open tasks (clamped) and
/// renumbers them 1..n; returns the task's new position. Other tasks whose
/// position changes are saved with a new `updated_at`.
pub(crate) fn place(cx: &WriteCx<'_>, home: Home, task: Id, rank: i64) -> Result<i64> {
    let prefix = keys::home_prefix(home).into_vec();
    let mut order: Vec<(i64, Id)> = Vec::new();
    cx.scan_prefix(TASKS_OPEN_BY_HOME, &prefix, Dir::Asc, &mut |k, _| {
        let id = tail_id(k);
        if id != task {
            let mut r = Reader::new(&k[prefix.len()..]);
            order.push((r.i64(), id));
        }
        Ok(true)
    })?;
    let placement = Placement::at(rank, order.len());
    for (i, (position, id)) in order.iter().enumerate() {
        let wanted = placement.of_other(i);
        if *position != wanted {
            renumber(cx, *id, wanted)?;
        }
    }
    Ok(placement.position())
}

fn renumber(cx: &WriteCx<'_>, id: Id, position: i64) -> Result<()> {
    let Some(TaskRow {
        task: before,
        deleted: None,
    }) = load_row(cx, id)?
    else {
        return Ok(());
    };
    let task = Task {
        position,
        updated_at: cx.now(),
        ..before.clone()
    };
    put_live(cx, Some(&before), &task)
}
