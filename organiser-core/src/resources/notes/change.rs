//! The writes of a note: made, changed (with its `edit_version`),
//! pinned, deleted and restored within 20 seconds, its delete made
//! permanent, and a title the AI `note_titles` task wrote.

use super::input::check;
use super::render::{Seen, derive, rendered};
use super::store::{load, load_live, save};
use super::tables::NOTES;
use super::{KIND, Note, NoteInput, NoteRecord};
use crate::engine::WriteCx;
use crate::engine::kinds::Change;
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::resources::{categories, deletions, uploads};
use crate::restore;

/// `POST /notes`.
pub(crate) fn create(cx: &mut WriteCx<'_>, input: &NoteInput) -> Result<Note> {
    let checked = check(cx, input)?;
    let now = cx.now();
    let mut record = NoteRecord {
        note: Note {
            id: cx.new_id(),
            title: checked.title.flatten(),
            name: String::new(),
            title_generated: false,
            category_id: checked.category.flatten(),
            tag_ids: Vec::new(),
            person_ids: Vec::new(),
            project_ids: Vec::new(),
            body_html: String::new(),
            body_text: String::new(),
            pinned: false,
            pinned_at: None,
            edit_version: 1,
            edited_at: now,
            created_at: now,
            updated_at: now,
        },
        excerpt: String::new(),
        images: Vec::new(),
        named_people: Vec::new(),
        named_projects: Vec::new(),
        deleted_at: None,
    };
    let html = checked.html.unwrap_or_default();
    let r = rendered(cx, &record, &html, None, &mut Seen::default(), true)?;
    derive(&mut record, r);
    save(cx, None, &record)?;
    Ok(record.note)
}

/// Dates the note `id`, just made by an import, as its source did:
/// `created_at` and `edited_at` (EXTENSIONS.md §5, `markdown`);
/// `updated_at` stays the import's moment, so mirrors see it.
pub(crate) fn backdate(
    cx: &mut WriteCx<'_>,
    id: Id,
    created_at: jiff::Timestamp,
    edited_at: jiff::Timestamp,
) -> Result<()> {
    let before = load_live(cx, id)?;
    let mut after = before.clone();
    after.note.created_at = created_at;
    after.note.edited_at = edited_at;
    if after != before {
        save(cx, Some(&before), &after)?;
    }
    Ok(())
}

/// `PATCH /notes/{id}`: 409 `conflict` when `edit_version` is not the
/// note's; an edit of title, body or category moves `edited_at` and
/// `edit_version`.
pub(crate) fn change(cx: &mut WriteCx<'_>, id: Id, input: &NoteInput) -> Result<Note> {
    let before = load_live(cx, id)?;
    if let Some(v) = input.edit_version
        && v != before.note.edit_version
    {
        return Err(Error::conflict(format!(
            "the note has changed since version {v} (it is at version {}); reload it and apply the change again",
            before.note.edit_version
        )));
    }
    let checked = check(cx, input)?;
    let mut after = before.clone();
    if let Some(title) = checked.title {
        if title != before.note.title {
            after.note.title_generated = false;
        }
        after.note.title = title;
    }
    if let Some(category) = checked.category {
        after.note.category_id = category;
    }
    let fresh = checked.html.is_some();
    let html = checked
        .html
        .unwrap_or_else(|| before.note.body_html.clone());
    let r = rendered(cx, &before, &html, None, &mut Seen::default(), fresh)?;
    derive(&mut after, r);
    let edited = after.note.title != before.note.title
        || after.note.category_id != before.note.category_id
        || after.note.body_html != before.note.body_html;
    if after == before {
        return Ok(after.note);
    }
    let now = cx.now();
    after.note.updated_at = now;
    if edited {
        after.note.edited_at = now;
        after.note.edit_version += 1;
    }
    discard_dropped_images(cx, &before, &after)?;
    save(cx, Some(&before), &after)?;
    Ok(after.note)
}

/// Images a change took out of the body go, files and all.
fn discard_dropped_images(
    cx: &mut WriteCx<'_>,
    before: &NoteRecord,
    after: &NoteRecord,
) -> Result<()> {
    for &image in &before.images {
        if !after.images.contains(&image) {
            uploads::discard(cx, image)?;
        }
    }
    Ok(())
}

/// `POST /notes/{id}/pin` (`pinned` true) and `DELETE /notes/{id}/pin`:
/// `edited_at` and `edit_version` stay.
pub(crate) fn pin(cx: &mut WriteCx<'_>, id: Id, pinned: bool) -> Result<Note> {
    let before = load_live(cx, id)?;
    if before.note.pinned == pinned {
        return Ok(before.note);
    }
    let mut after = before.clone();
    let now = cx.now();
    after.note.pinned = pinned;
    after.note.pinned_at = pinned.then_some(now);
    after.note.updated_at = now;
    save(cx, Some(&before), &after)?;
    Ok(after.note)
}

/// `DELETE /notes/{id}`: restorable for 20 seconds.
pub(crate) fn delete(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    let before = load_live(cx, id)?;
    let mut after = before.clone();
    after.deleted_at = Some(cx.now());
    deletions::record(cx, KIND.name, id)?;
    restore::schedule(cx, &KIND, id, cx.now())?;
    save(cx, Some(&before), &after)?;
    cx.tell(KIND.name, id, Change::Deleted)
}

/// `POST /notes/{id}/restoration`: within 20 seconds the note returns,
/// its references as they are now.
pub(crate) fn restore(cx: &mut WriteCx<'_>, id: Id) -> Result<Note> {
    let before = load(cx, id)?.ok_or(Error::NotFound)?;
    let Some(deleted_at) = before.deleted_at else {
        return Ok(before.note);
    };
    if !restore::within_window(deleted_at, cx.now()) {
        return Err(Error::NotFound);
    }
    restore::cancel(cx, &KIND, id, deleted_at)?;
    deletions::unrecord(cx, KIND.name, id)?;
    let mut after = before.clone();
    after.deleted_at = None;
    if let Some(c) = after.note.category_id
        && !categories::exists(cx, c)?
    {
        after.note.category_id = None;
    }
    let r = rendered(
        cx,
        &before,
        &before.note.body_html,
        None,
        &mut Seen::default(),
        false,
    )?;
    derive(&mut after, r);
    after.note.updated_at = cx.now();
    save(cx, Some(&before), &after)?;
    cx.tell(KIND.name, id, Change::Restored)?;
    Ok(after.note)
}

/// Gives live note `id` a title written by the AI `note_titles` task
/// (`title_generated`): a new `updated_at`, not `edited_at`.
pub(crate) fn write_generated_title(cx: &WriteCx<'_>, id: Id, title: &str) -> Result<()> {
    let before = load_live(cx, id)?;
    let mut after = before.clone();
    after.note.title = Some(title.to_owned());
    after.note.title_generated = true;
    after.note.name = title.to_owned();
    if after == before {
        return Ok(());
    }
    after.note.updated_at = cx.now();
    save(cx, Some(&before), &after)
}

/// Makes a note's delete permanent: the record and its images go.
pub(super) fn purge(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    if let Some(r) = load(cx, id)?
        && r.deleted_at.is_some()
    {
        cx.set_indexes(&r.stored_entries(), false)?;
        for &image in &r.images {
            uploads::discard(cx, image)?;
        }
        cx.remove(NOTES, &id.to_bytes())?;
        cx.tell(KIND.name, id, Change::Purged)?;
    }
    Ok(())
}

#[cfg(test)]
mod stored {
    use super::*;
    use crate::Organiser;
    use crate::input::Field;

    /// A pinned note (an instant in an optional field) is stored and read
    /// back whole.
    #[test]
    fn a_pinned_note_reads_back() {
        let org = Organiser::in_memory();
        let n = org
            .notes()
            .create(NoteInput {
                body_html: Field::Value("<p>#tagged</p>".into()),
                ..Default::default()
            })
            .unwrap();
        let pinned = org.notes().pin(n.id, true).unwrap();
        assert_eq!(org.notes().get(n.id).unwrap(), pinned);
        org.notes().delete(n.id).unwrap();
    }
}
