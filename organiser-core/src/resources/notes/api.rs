//! The notes' operations (document 3, "Notes"), each declared once, and
//! [`Notes`], the typed door to them.

use super::change::{change, create, delete, pin, restore};
use super::input::parse;
use super::list::{category_note_counts, list};
use super::store::get;
use super::{CategoryNoteCount, Note, NoteInput, NoteQuery, NoteSummary};
use crate::engine::Organiser;
use crate::engine::op::{ReadOp, WriteOp};
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, body_part, query_part};
use crate::engine::request::Method::{Delete, Get, Patch, Post, Put};
use crate::error::Result;
use crate::ids::Id;
use crate::list::Page;

body_part!(NoteInput, parse, Some("note"));
query_part!(NoteQuery);

/// `GET /notes`.
pub(crate) static LIST: Operation<NoteQuery, Page<NoteSummary>> = Operation::new(
    "listNotes",
    Get,
    "/notes",
    "Notes\n\nLive notes as summaries (without `body_html` and `body_text`); filters combine with AND, and `count=true` counts the filtered set.",
    Run::Read(ReadOp::SETTLED.kept(), |cx, query| list(cx, &query)),
    Answer::bare(200),
);

/// `POST /notes`.
pub(crate) static CREATE: Operation<NoteInput, Note> = Operation::new(
    "createNote",
    Post,
    "/notes",
    "Make a note\n\nEvery field is optional: an empty note is allowed (`name` `Untitled note`). The body is sanitised and read for mentions, project references, tags (a bare `#word` becomes a tag, made if new) and images. `edit_version` is ignored: a new note has `edit_version` 1 and `edited_at` equal to `created_at`.",
    Run::write(WriteOp::LICENSED.idempotent(), |cx, input| {
        create(cx, &input)
    }),
    Answer::data(201),
);

/// `GET /notes/{id}`.
pub(crate) static GET: Operation<Id, Note> = Operation::new(
    "getNote",
    Get,
    "/notes/{id}",
    "A note\n\nA deleted note is 404.",
    Run::Read(ReadOp::SETTLED, get),
    Answer::data(200),
);

/// `PATCH` (or `PUT`) `/notes/{id}`.
pub(crate) static CHANGE: Operation<(Id, NoteInput), Note> = Operation::new(
    "changeNote",
    Patch,
    "/notes/{id}",
    "Change a note\n\nOnly the fields sent change. With an `edit_version` other than the note's, 409 `conflict` and nothing changes. A change of title, body or category sets `edited_at` to now and adds one to `edit_version` (and sets `updated_at`); a change that changes nothing keeps all three. Sending a title different from the current one, or clearing it, makes `title_generated` false.",
    Run::write(WriteOp::LICENSED, |cx, (id, input)| change(cx, id, &input)),
    Answer::data(200),
)
.also(Put, "replaceNote");

/// `DELETE /notes/{id}`.
pub(crate) static DELETE: Operation<Id, ()> = Operation::new(
    "deleteNote",
    Delete,
    "/notes/{id}",
    "Delete a note\n\nGone from every endpoint at once, with a `note` deletion record. Restorable for 20 seconds, then permanent.",
    Run::write(WriteOp::LICENSED, delete),
    Answer::empty(),
);

/// `POST /notes/{id}/restoration`.
pub(crate) static RESTORE: Operation<Id, Note> = Operation::new(
    "restoreNote",
    Post,
    "/notes/{id}/restoration",
    "Restore a note\n\nWithin 20 seconds of the delete: the note returns with a new `updated_at` and its deletion record is removed; after 20 seconds 404. A live note answers as it is. 422 only as `idempotency_key_reused`.",
    Run::write(WriteOp::LICENSED.idempotent(), restore),
    Answer::data(200),
);

/// `POST /notes/{id}/pin`.
pub(crate) static PIN: Operation<Id, Note> = Operation::new(
    "pinNote",
    Post,
    "/notes/{id}/pin",
    "Pin a note\n\n`pinned` true, `pinned_at` now and a new `updated_at`; a note already pinned is unchanged. `edited_at` and `edit_version` stay.",
    Run::write(WriteOp::LICENSED, |cx, id| pin(cx, id, true)),
    Answer::data(200),
);

/// `DELETE /notes/{id}/pin`.
pub(crate) static UNPIN: Operation<Id, Note> = Operation::new(
    "unpinNote",
    Delete,
    "/notes/{id}/pin",
    "Unpin a note\n\n`pinned` false, `pinned_at` null and a new `updated_at`; a note not pinned is unchanged. `edited_at` and `edit_version` stay.",
    Run::write(WriteOp::LICENSED, |cx, id| pin(cx, id, false)),
    Answer::data(200),
);

/// `GET /category_note_counts`: a view of the notes, served here (the
/// categories know nothing of notes).
pub(crate) static NOTE_COUNTS: Operation<(), Vec<CategoryNoteCount>> = Operation::new(
    "listCategoryNoteCounts",
    Get,
    "/category_note_counts",
    "Note counts per category\n\nLive notes per category; categories with none are left out. Not paginated, not a record.",
    Run::Read(ReadOp::SETTLED.kept(), |cx, ()| category_note_counts(cx)),
    Answer::data(200),
);

/// The notes' operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[
    &LIST,
    &CREATE,
    &GET,
    &CHANGE,
    &DELETE,
    &RESTORE,
    &PIN,
    &UNPIN,
    &NOTE_COUNTS,
];

/// The notes of a store (document 3, "Notes"), through a [`Door`]: the store
/// itself (`org.notes()`), or a server that holds it.
#[derive(Debug, Clone, Copy)]
pub struct Notes<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> Notes<'d, D> {
    /// The notes of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        Notes { door }
    }

    /// One page of the live notes as summaries (without their bodies), most recently edited first unless `query` names another order; `q` finds notes by the words they begin.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// parameter the listing refuses (an unknown order, a cursor of
    /// another listing).
    pub fn list(&self, query: &NoteQuery) -> Result<Page<NoteSummary>> {
        self.door.call(&LIST, query.clone())
    }

    /// Makes a note: every field is optional; the body is sanitised and read for mentions, project references, tags (made when new) and images.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a field the
    /// rules refuse; [`Error::ReadOnly`](crate::Error::ReadOnly) while the
    /// licence is read-only.
    pub fn create(&self, input: NoteInput) -> Result<Note> {
        self.door.call(&CREATE, input)
    }

    /// The live note `id`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for one that is deleted
    /// or was never made.
    pub fn get(&self, id: Id) -> Result<Note> {
        self.door.call(&GET, id)
    }

    /// Changes the fields `input` sends (and only those) of note `id`.
    ///
    /// # Errors
    ///
    /// As [`Notes::create`]; [`Error::NotFound`](crate::Error::NotFound) as
    /// [`Notes::get`].
    pub fn change(&self, id: Id, input: NoteInput) -> Result<Note> {
        self.door.call(&CHANGE, (id, input))
    }

    /// Deletes note `id`, restorable for 20 seconds.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) as [`Notes::get`];
    /// [`Error::ReadOnly`](crate::Error::ReadOnly).
    pub fn delete(&self, id: Id) -> Result<()> {
        self.door.call(&DELETE, id)
    }

    /// Brings back note `id` within 20 seconds of its delete; a live
    /// one is given back as it is.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) after the window.
    pub fn restore(&self, id: Id) -> Result<Note> {
        self.door.call(&RESTORE, id)
    }

    /// Pins (`pinned` true) or unpins note `id`; a note already so is
    /// unchanged. Its `edited_at` and `edit_version` stay.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) as [`Notes::get`].
    pub fn pin(&self, id: Id, pinned: bool) -> Result<Note> {
        self.door.call(if pinned { &PIN } else { &UNPIN }, id)
    }

    /// Markdown typed by the owner (docs/cli.md, "Note bodies") as the
    /// body HTML [`NoteInput::body_html`] takes: `@Name` and `^Project`
    /// become a mention and a reference where they name one live person or
    /// project, those `known` (the note being edited) names first. Only the
    /// people whose names begin with a word typed after an `@` are read,
    /// and the projects only when the text has a `^`.
    ///
    /// # Errors
    ///
    /// Only the store's (or the server's, through a remote door).
    pub fn body_from_markdown(&self, markdown: &str, known: Option<&Note>) -> Result<String> {
        let mut names = super::markdown::Names::default();
        if let Some(note) = known {
            let (people, projects) =
                super::markdown::named_in(&super::tree::parse(&note.body_html));
            names.known_people = people;
            names.known_projects = projects;
        }
        // Only the people whose names begin with a word typed after an
        // `@` (the listing's `q`): a mention can name no one else.
        let people = crate::resources::people::People::new(self.door);
        for word in super::markdown::first_words(markdown, '@') {
            for found in named(
                |params| {
                    people.list(&crate::resources::people::PersonQuery {
                        q: Some(word.clone()),
                        params,
                        ..Default::default()
                    })
                },
                |p| (p.id, p.name),
            )? {
                if !names.people.contains(&found) {
                    names.people.push(found);
                }
            }
        }
        if markdown.contains('^') {
            let projects = crate::resources::projects::Projects::new(self.door);
            names.projects = named(
                |params| {
                    projects.list(&crate::resources::projects::ProjectQuery {
                        params,
                        ..Default::default()
                    })
                },
                |p| (p.id, p.name),
            )?;
        }
        Ok(super::markdown::to_html(markdown, &names))
    }

    /// How many live notes each category has (categories with none are
    /// left out), by category.
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn category_counts(&self) -> Result<Vec<CategoryNoteCount>> {
        self.door.call(&NOTE_COUNTS, ())
    }
}

/// Every record of a listing as its ID and name.
fn named<T>(
    list: impl FnMut(crate::list::ListParams) -> Result<Page<T>>,
    name: impl Fn(T) -> (Id, String),
) -> Result<super::markdown::Named> {
    Ok(crate::list::every(list)?.into_iter().map(name).collect())
}

impl Organiser {
    /// The store's notes.
    pub fn notes(&self) -> Notes<'_> {
        Notes::new(self)
    }
}
