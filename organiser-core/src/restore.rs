//! Restore windows (document 1, "Deletion"; document 2, "Delete and
//! restore"): task lists, tasks, projects and people can be restored for 20
//! seconds after DELETE, then the delete is permanent. Pending permanent
//! deletes are indexed by when they fall due and settled by the clock,
//! which calls the purge its record kind declares.

use std::ops::Bound;

use jiff::{SignedDuration, Timestamp};

use crate::engine::kinds::RecordKind;
use crate::engine::{Cx, WriteCx};
use crate::error::Result;
use crate::ids::Id;
use crate::limits::RESTORE_WINDOW_SECS;
use crate::store::key::{Key, Reader};
use crate::store::schema::PURGES;
use crate::store::{Dir, Tables};

fn window() -> SignedDuration {
    SignedDuration::from_secs(RESTORE_WINDOW_SECS)
}

/// Whether a delete made at `deleted_at` can still be undone at `now`.
pub(crate) fn within_window(deleted_at: Timestamp, now: Timestamp) -> bool {
    now.duration_since(deleted_at) < window()
}

/// The name a restored record takes when `taken` says its own is taken:
/// `Name (2)`, `Name (3)`, ... the first free one within `max` characters;
/// `None` when none fits.
pub(crate) fn free_name(
    name: &str,
    max: usize,
    mut taken: impl FnMut(&str) -> Result<bool>,
) -> Result<Option<String>> {
    if !taken(name)? {
        return Ok(Some(name.to_owned()));
    }
    for n in 2.. {
        let candidate = format!("{name} ({n})");
        if crate::text::char_len(&candidate) > max {
            return Ok(None);
        }
        if !taken(&candidate)? {
            return Ok(Some(candidate));
        }
    }
    Ok(None)
}

fn key(kind: &RecordKind, id: Id, deleted_at: Timestamp) -> Key {
    Key::new()
        .timestamp(deleted_at + window())
        .tag(kind.tag)
        .id(id)
}

/// Makes the delete of `id` permanent once its window ends.
pub(crate) fn schedule(
    cx: &WriteCx<'_>,
    kind: &RecordKind,
    id: Id,
    deleted_at: Timestamp,
) -> Result<()> {
    cx.index(PURGES, key(kind, id, deleted_at).as_slice())
}

/// The delete was undone.
pub(crate) fn cancel(
    cx: &WriteCx<'_>,
    kind: &RecordKind,
    id: Id,
    deleted_at: Timestamp,
) -> Result<()> {
    cx.remove(PURGES, key(kind, id, deleted_at).as_slice())
        .map(drop)
}

fn due_bound<T: Tables>(cx: &Cx<'_, T>) -> Vec<u8> {
    Key::new()
        .timestamp(cx.now() + SignedDuration::from_millis(1))
        .into_vec()
}

/// Whether a delete has become permanent and is not yet settled.
pub(crate) fn due<T: Tables>(cx: &Cx<'_, T>) -> Result<bool> {
    let bound = due_bound(cx);
    Ok(cx
        .first_key(
            PURGES,
            Bound::Unbounded,
            Bound::Excluded(bound.as_slice()),
            Dir::Asc,
        )?
        .is_some())
}

/// Makes every delete whose window ended permanent.
pub(crate) fn settle(cx: &mut WriteCx<'_>) -> Result<()> {
    let bound = due_bound(cx);
    let mut due = Vec::new();
    cx.scan(
        PURGES,
        Bound::Unbounded,
        Bound::Excluded(bound.as_slice()),
        Dir::Asc,
        &mut |k, _| {
            due.push(k.to_vec());
            Ok(true)
        },
    )?;
    for k in due {
        cx.remove(PURGES, &k)?;
        let mut r = Reader::new(&k);
        let _due = r.i64();
        let tag = r.tag();
        let id = r.id();
        if let Some(purge) = cx.org.wiring.kind_by_tag(tag).and_then(|k| k.purge) {
            purge(cx, id)?;
        }
    }
    Ok(())
}
