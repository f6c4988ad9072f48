//! The note in the store: loaded and saved with its index entries
//! moved, and the reads other resources make of notes (whether one is
//! live, what the AI `note_titles` task reads, the notes an index names).

use super::tables::{NOTES, NOTES_LIVE};
use super::{Note, NoteRecord};
use crate::engine::{Cx, WriteCx};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::store::key::Key;
use crate::store::{Tables, Tbl};

/// The stored note `id`, live or deleted.
pub(super) fn load<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<NoteRecord>> {
    cx.get_record(NOTES, &id.to_bytes())
}

/// Whether `id` names a live note.
pub(crate) fn is_live<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<bool> {
    Ok(load(cx, id)?.is_some_and(|r| r.deleted_at.is_none()))
}

/// The live note `id`; not found when deleted or never made.
pub(super) fn load_live<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<NoteRecord> {
    match load(cx, id)? {
        Some(r) if r.deleted_at.is_none() => Ok(r),
        _ => Err(Error::NotFound),
    }
}

/// Stores `after` (in place of `before`), moving the index entries that
/// changed; a deleted note keeps only its stored entries.
pub(super) fn save(
    cx: &WriteCx<'_>,
    before: Option<&NoteRecord>,
    after: &NoteRecord,
) -> Result<()> {
    let id = after.note.id;
    let live = |r: &NoteRecord| r.deleted_at.is_none();
    let entries = |r: Option<&NoteRecord>| -> Vec<(Tbl, Key)> {
        let Some(r) = r else {
            return Vec::new();
        };
        let mut entries = r.stored_entries();
        if live(r) {
            entries.extend(r.live_entries());
        }
        entries
    };
    cx.move_indexes(&entries(before), &entries(Some(after)))?;
    cx.put_record(NOTES, &id.to_bytes(), after)
}

/// `GET /notes/{id}`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Note> {
    Ok(load_live(cx, id)?.note)
}

/// What the AI `note_titles` task reads of a stored note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TitleView {
    /// Not deleted.
    pub(crate) live: bool,
    /// The owner wrote the title (it has one the AI did not write).
    pub(crate) owner_titled: bool,
    /// It has no title.
    pub(crate) untitled: bool,
    /// The body's plain text.
    pub(crate) text: String,
}

/// The note `id` as the AI `note_titles` task sees it; `None` when no
/// note is stored under it (never made, or deleted for good).
pub(crate) fn title_view(tx: &impl Tables, id: Id) -> Result<Option<TitleView>> {
    let record: Option<NoteRecord> = tx.get_record(NOTES, &id.to_bytes())?;
    Ok(record.map(|r| TitleView {
        live: r.deleted_at.is_none(),
        owner_titled: r.note.title.is_some() && !r.note.title_generated,
        untitled: r.note.title.is_none(),
        text: r.note.body_text,
    }))
}

/// Indexes the live pinned notes a store already holds (the migration
/// that adds `notes_pinned`).
pub(crate) fn index_pinned(tx: &crate::store::WriteTx) -> Result<()> {
    for id in live_ids(tx)? {
        let record: Option<NoteRecord> = tx.get_record(NOTES, &id.to_bytes())?;
        if record.is_some_and(|r| r.note.pinned) {
            tx.insert(
                super::tables::NOTES_PINNED,
                Key::new().id(id).as_slice(),
                &[],
            )?;
        }
    }
    Ok(())
}

/// Every live note's ID.
pub(crate) fn live_ids(tx: &impl Tables) -> Result<Vec<Id>> {
    tx.ids_under(NOTES_LIVE, &[])
}

/// The notes whose keys `(owner, note)` of `table` name.
pub(super) fn notes_under<T: Tables>(cx: &Cx<'_, T>, table: Tbl, owner: Id) -> Result<Vec<Id>> {
    cx.ids_under(table, Key::new().id(owner).as_slice())
}

#[cfg(test)]
mod tests {
    use crate::Organiser;
    use crate::input::Field;
    use crate::resources::notes::{NoteInput, NoteQuery};
    use crate::store::key::Key;

    /// The notes `pinned` keeps, and how many.
    fn listed(org: &Organiser, pinned: bool) -> (Vec<crate::Id>, Option<u64>) {
        let mut q = NoteQuery {
            pinned: Some(pinned),
            ..NoteQuery::default()
        };
        q.params.count = true;
        let page = org.notes().list(&q).unwrap();
        let mut ids: Vec<_> = page.items.iter().map(|n| n.id).collect();
        ids.sort();
        (ids, page.total_count)
    }

    #[test]
    fn a_store_of_schema_18_is_migrated_to_the_index_of_pinned_notes() {
        let dir = tempfile::tempdir().unwrap();
        let (pinned, mut others) = {
            let org = Organiser::open(dir.path()).unwrap();
            let mut made = Vec::new();
            for text in ["<p>one</p>", "<p>two</p>", "<p>three</p>"] {
                let n = org
                    .notes()
                    .create(NoteInput {
                        body_html: Field::Value(text.into()),
                        ..NoteInput::default()
                    })
                    .unwrap();
                made.push(n.id);
            }
            org.notes().pin(made[1], true).unwrap();
            assert_eq!(listed(&org, true), (vec![made[1]], Some(1)));
            let pinned = made.remove(1);
            (pinned, made)
        };
        others.sort();
        // Back to schema 18: no index of pinned notes.
        {
            use crate::store::Store;
            let store = Store::open(&dir.path().join(crate::STORE_FILE)).unwrap();
            let tx = store.begin_write().unwrap();
            assert!(
                tx.remove(
                    super::super::tables::NOTES_PINNED,
                    Key::new().id(pinned).as_slice()
                )
                .unwrap()
            );
            tx.insert(
                crate::store::schema::META,
                b"schema_version",
                &18u32.to_be_bytes(),
            )
            .unwrap();
            tx.commit().unwrap();
        }
        let org = Organiser::open(dir.path()).unwrap();
        assert_eq!(listed(&org, true), (vec![pinned], Some(1)));
        assert_eq!(listed(&org, false), (others.clone(), Some(2)));
        // Kept as notes change: unpinned, deleted while pinned.
        org.notes().pin(pinned, false).unwrap();
        assert_eq!(listed(&org, true), (vec![], Some(0)));
        org.notes().pin(others[0], true).unwrap();
        org.notes().delete(others[0]).unwrap();
        assert_eq!(listed(&org, true), (vec![], Some(0)));
        org.notes().restore(others[0]).unwrap();
        assert_eq!(listed(&org, true), (vec![others[0]], Some(1)));
    }

    #[test]
    fn markdown_names_are_read_from_the_people_its_words_begin() {
        let org = Organiser::in_memory();
        let mut ids = Vec::new();
        for name in ["Ada Lovelace", "Ada Byron", "Grace Hopper", "Alan Turing"] {
            let p = org
                .people()
                .create(crate::resources::people::PersonInput {
                    name: Some(name.into()),
                    ..Default::default()
                })
                .unwrap();
            ids.push(p.id);
        }
        let html = org
            .notes()
            .body_from_markdown("@Ada Lovelace met @grace; @Ada alone is two people", None)
            .unwrap();
        assert_eq!(
            html,
            format!(
                "<p><span data-mention=\"{}\">@Ada Lovelace</span> met <span data-mention=\"{}\">@Grace Hopper</span>; @Ada alone is two people</p>",
                ids[0], ids[2]
            )
        );
    }
}
