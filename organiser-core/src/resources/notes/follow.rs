//! What other records do to notes: notes follow the people and projects
//! they name (a rename, delete, restore or purge is rendered again), their
//! tags (renamed, removed, merged) and their categories (a deleted one's
//! notes become uncategorised; a note with a category uses it).

use super::render::{Seen, derive, rendered};
use super::store::{load, notes_under, save};
use super::tables::{NOTES_BY_CATEGORY, NOTES_BY_PERSON, NOTES_BY_PROJECT, NOTES_BY_TAG};
use crate::engine::kinds::{Change, Follower};
use crate::engine::{Cx, WriteCx};
use crate::error::Result;
use crate::ids::Id;
use crate::store::key::Key;
use crate::store::{Dir, Tables};

/// Renders the notes `ids` again (their references' names and states as
/// they are now); those that change get a new `updated_at`, not
/// `edited_at`.
fn rerender(cx: &WriteCx<'_>, ids: &[Id], tag_override: Option<(Id, Retag)>) -> Result<()> {
    let mut seen = Seen::default();
    for &id in ids {
        let Some(before) = load(cx, id)? else {
            continue;
        };
        let r = rendered(
            cx,
            &before,
            &before.note.body_html,
            tag_override,
            &mut seen,
            false,
        )?;
        let mut after = before.clone();
        derive(&mut after, r);
        if after == before {
            continue;
        }
        after.note.updated_at = cx.now();
        save(cx, Some(&before), &after)?;
    }
    Ok(())
}

/// Notes show the people they mention as they are now (name, deleted).
pub(crate) static FOLLOWS_PEOPLE: Follower = Follower {
    of: "person",
    on: |cx, id, _| refresh(cx, Named::Person(id)),
    uses: None,
};

/// Notes show the projects they reference as they are now.
pub(crate) static FOLLOWS_PROJECTS: Follower = Follower {
    of: "project",
    on: |cx, id, _| refresh(cx, Named::Project(id)),
    uses: None,
};

/// Notes show their tags by their names; a deleted tag's spans become
/// words, a merged one's the tag it went into.
pub(crate) static FOLLOWS_TAGS: Follower = Follower {
    of: "tag",
    on: |cx, id, change| match change {
        Change::Renamed => retag(cx, id, Retag::Rename),
        Change::Deleted | Change::Purged => retag(cx, id, Retag::Remove),
        Change::MergedInto(into) => retag(cx, id, Retag::Into(into)),
        Change::Restored => Ok(()),
    },
    uses: None,
};

/// A deleted category's notes become uncategorised; a note (live, or
/// deleted and restorable) with a category uses it.
pub(crate) static FOLLOWS_CATEGORIES: Follower = Follower {
    of: "category",
    on: |cx, id, change| match change {
        Change::Deleted | Change::Purged => uncategorise(cx, id),
        _ => Ok(()),
    },
    uses: Some(category_in_use),
};

/// What changed about a record notes name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Named {
    Person(Id),
    Project(Id),
}

/// A person or project was renamed, deleted, restored or made permanent:
/// the notes naming it show it as it is now.
pub(super) fn refresh(cx: &WriteCx<'_>, named: Named) -> Result<()> {
    let ids = match named {
        Named::Person(id) => notes_under(cx, NOTES_BY_PERSON, id)?,
        Named::Project(id) => notes_under(cx, NOTES_BY_PROJECT, id)?,
    };
    rerender(cx, &ids, None)
}

/// What a tag's change does to the notes with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Retag {
    /// Its new name shows.
    Rename,
    /// It is gone: its spans become plain words.
    Remove,
    /// It was merged into this tag.
    Into(Id),
}

/// Rewrites the notes with tag `id` after `how`.
pub(super) fn retag(cx: &WriteCx<'_>, id: Id, how: Retag) -> Result<()> {
    let ids = notes_under(cx, NOTES_BY_TAG, id)?;
    rerender(cx, &ids, Some((id, how)))
}

/// Whether any stored note (live, or deleted and restorable) has category
/// `id`.
pub(super) fn category_in_use<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<bool> {
    Ok(cx
        .first_key(
            NOTES_BY_CATEGORY,
            std::ops::Bound::Included(Key::new().id(id).as_slice()),
            match crate::store::key::prefix_end(Key::new().id(id).as_slice()) {
                Some(ref end) => std::ops::Bound::Excluded(end.as_slice()),
                None => std::ops::Bound::Unbounded,
            },
            Dir::Asc,
        )?
        .is_some())
}

/// Category `id` is deleted: its notes become uncategorised (a new
/// `updated_at` for the live ones).
pub(super) fn uncategorise(cx: &WriteCx<'_>, id: Id) -> Result<()> {
    for note in notes_under(cx, NOTES_BY_CATEGORY, id)? {
        let Some(before) = load(cx, note)? else {
            continue;
        };
        let mut after = before.clone();
        after.note.category_id = None;
        after.note.updated_at = cx.now();
        save(cx, Some(&before), &after)?;
    }
    Ok(())
}
