//! Notes (document 3, "Note" and NoteSummary; DESIGN.md's note endpoints
//! and body format): a title or a name made from the body, a sanitised
//! body whose references follow their records (`body.rs`), a category,
//! edits counted by `edit_version` (409 `conflict` when a change was made
//! elsewhere), pins, delete with restoration within 20 seconds, the
//! listing with its filters and orders, and search by word prefixes
//! ignoring case and accents. What other records do to notes comes in
//! through [`refresh`] (people and projects) and [`retag`] (tags).

mod api;
pub(crate) mod body;
pub(crate) mod tables;

pub use api::Notes;
pub(crate) use api::OPERATIONS;

use std::collections::HashSet;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::kinds::{Change, Follower, RecordKind};
use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, record};
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};
use crate::resources::{categories, deletions, people, projects, tags, uploads};
use crate::restore;
use crate::store::codec::{self, Record};
use crate::store::key::{Key, tail_id};
use crate::store::{Dir, Tables, Tbl};
use crate::text::{char_len, fold_case, fold_search, squish};
use body::{Ref, Rendered, Resolve, TagRef};
use tables::{
    NOTES, NOTES_BY_CATEGORY, NOTES_BY_EDITED, NOTES_BY_NAME, NOTES_BY_PERSON, NOTES_BY_PROJECT,
    NOTES_BY_TAG, NOTES_BY_UPDATED, NOTES_LIVE, NOTES_OF_CATEGORY,
};

/// Notes: restorable for 20 seconds.
pub(crate) static KIND: RecordKind = RecordKind {
    purge: Some(purge),
    ..RecordKind::new("note", 10)
};

/// The most characters of a title.
const TITLE_MAX: usize = 200;
/// The most bytes of a body as sent.
const BODY_MAX_BYTES: usize = 1_000_000;
/// The most characters of a name made from the body.
const NAME_FROM_BODY: usize = 60;
/// The most characters of an excerpt, its three dots included.
const EXCERPT_MAX: usize = 240;
/// The most characters of a search.
const Q_MAX: usize = 200;

/// A note as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// ID.
    pub id: Id,
    /// Squished; blank is null.
    pub title: Option<String>,
    /// The title, else the body's start, else `Untitled note`.
    pub name: String,
    /// Whether the AI `note_titles` task wrote the title.
    pub title_generated: bool,
    /// Its category.
    pub category_id: Option<Id>,
    /// Tags in the body, sorted.
    pub tag_ids: Vec<Id>,
    /// Live people the body mentions, sorted.
    pub person_ids: Vec<Id>,
    /// Live projects the body references, sorted.
    pub project_ids: Vec<Id>,
    /// Sanitised body HTML; empty when empty.
    pub body_html: String,
    /// The body's plain text.
    pub body_text: String,
    /// Whether it is pinned.
    pub pinned: bool,
    /// When it was pinned.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub pinned_at: Option<Timestamp>,
    /// Goes up by one with each `edited_at` change.
    pub edit_version: i64,
    /// The last change of title, body or category through a write.
    #[serde(with = "crate::time::serde_timestamp")]
    pub edited_at: Timestamp,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed (references' renames and pins included).
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A note as lists show it: without its body, with an excerpt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoteSummary {
    /// ID.
    pub id: Id,
    /// Squished; blank is null.
    pub title: Option<String>,
    /// The title, else the body's start, else `Untitled note`.
    pub name: String,
    /// Whether the AI wrote the title.
    pub title_generated: bool,
    /// Its category.
    pub category_id: Option<Id>,
    /// Tags in the body.
    pub tag_ids: Vec<Id>,
    /// Live people mentioned.
    pub person_ids: Vec<Id>,
    /// Live projects referenced.
    pub project_ids: Vec<Id>,
    /// Whether it is pinned.
    pub pinned: bool,
    /// When it was pinned.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub pinned_at: Option<Timestamp>,
    /// Edits made.
    pub edit_version: i64,
    /// The last edit.
    #[serde(with = "crate::time::serde_timestamp")]
    pub edited_at: Timestamp,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
    /// The body as one line, at most 240 characters.
    pub excerpt: String,
    /// Images in the body.
    pub image_count: u64,
}

/// `{note: {title?, category_id?, body_html?, edit_version?}}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct NoteInput {
    /// The title; blank or null clears it.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub title: Field<String>,
    /// The category, or null for none.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub category_id: Field<Id>,
    /// Body HTML; null or empty clears it.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub body_html: Field<String>,
    /// The version the change was made from (changes only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edit_version: Option<i64>,
}

/// A stored note.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct NoteRecord {
    note: Note,
    excerpt: String,
    images: Vec<Id>,
    /// Every person and project a span names (hidden ones too).
    named_people: Vec<Id>,
    named_projects: Vec<Id>,
    #[serde(with = "codec::opt_instant")]
    deleted_at: Option<Timestamp>,
}

impl Record for NoteRecord {
    const NAME: &'static str = "note";
    const FORMAT: u8 = 1;
}

impl NoteRecord {
    fn summary(&self) -> NoteSummary {
        let n = &self.note;
        NoteSummary {
            id: n.id,
            title: n.title.clone(),
            name: n.name.clone(),
            title_generated: n.title_generated,
            category_id: n.category_id,
            tag_ids: n.tag_ids.clone(),
            person_ids: n.person_ids.clone(),
            project_ids: n.project_ids.clone(),
            pinned: n.pinned,
            pinned_at: n.pinned_at,
            edit_version: n.edit_version,
            edited_at: n.edited_at,
            created_at: n.created_at,
            updated_at: n.updated_at,
            excerpt: self.excerpt.clone(),
            image_count: self.images.len() as u64,
        }
    }

    /// Index entries kept while the note is stored (deleted or not).
    fn stored_entries(&self) -> Vec<(Tbl, Key)> {
        let id = self.note.id;
        let mut entries = Vec::new();
        if let Some(c) = self.note.category_id {
            entries.push((NOTES_BY_CATEGORY, Key::new().id(c).id(id)));
        }
        for &t in &self.note.tag_ids {
            entries.push((NOTES_BY_TAG, Key::new().id(t).id(id)));
        }
        for &p in &self.named_people {
            entries.push((NOTES_BY_PERSON, Key::new().id(p).id(id)));
        }
        for &p in &self.named_projects {
            entries.push((NOTES_BY_PROJECT, Key::new().id(p).id(id)));
        }
        entries
    }

    /// Index entries of a live note, its words apart.
    fn live_entries(&self) -> Vec<(Tbl, Key)> {
        let n = &self.note;
        let mut entries = vec![
            (NOTES_LIVE, Key::new().id(n.id)),
            (NOTES_BY_EDITED, Key::new().timestamp(n.edited_at).id(n.id)),
            (
                NOTES_BY_UPDATED,
                Key::new().timestamp(n.updated_at).id(n.id),
            ),
            (NOTES_BY_NAME, Key::new().str(&fold_case(&n.name)).id(n.id)),
        ];
        if let Some(c) = n.category_id {
            entries.push((NOTES_OF_CATEGORY, Key::new().id(c).id(n.id)));
        }
        entries
    }
}

fn load<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<NoteRecord>> {
    cx.get_record(NOTES, &id.to_bytes())
}

/// Whether `id` names a live note.
pub(crate) fn is_live<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<bool> {
    Ok(load(cx, id)?.is_some_and(|r| r.deleted_at.is_none()))
}

fn load_live<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<NoteRecord> {
    match load(cx, id)? {
        Some(r) if r.deleted_at.is_none() => Ok(r),
        _ => Err(Error::NotFound),
    }
}

/// Stores `after` (in place of `before`), moving the index entries that
/// changed; a deleted note keeps only its stored entries.
fn save(cx: &WriteCx<'_>, before: Option<&NoteRecord>, after: &NoteRecord) -> Result<()> {
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

/// Looks the records a body names up in the transaction; `tag_override`
/// is what a tag's rename, removal or merge makes of its spans.
struct Resolver<'c, 'a> {
    cx: &'c WriteCx<'a>,
    /// The note's own images (a re-save may keep them).
    own_images: &'c [Id],
    tag_override: Option<(Id, Retag)>,
    /// People and projects looked up already (one rename re-renders many
    /// notes that name the same records).
    seen: &'c mut Seen,
    /// A body as sent: a person or project deleted meanwhile is named as
    /// text, not kept as a span for its restoration.
    fresh: bool,
}

/// People and projects as a batch of renders found them.
#[derive(Default)]
struct Seen {
    people: std::collections::HashMap<Id, Ref>,
    projects: std::collections::HashMap<Id, Ref>,
}

fn reference(found: Option<(String, bool)>) -> Ref {
    match found {
        Some((name, true)) => Ref::Live(name),
        Some((_, false)) => Ref::Hidden,
        None => Ref::Gone,
    }
}

impl Resolver<'_, '_> {
    /// A body as sent names no deleted record.
    fn as_sent(&self, found: Ref) -> Ref {
        match found {
            Ref::Hidden if self.fresh => Ref::Gone,
            other => other,
        }
    }
}

impl Resolve for Resolver<'_, '_> {
    fn person(&mut self, id: Id) -> Result<Ref> {
        let found = match self.seen.people.get(&id) {
            Some(found) => found.clone(),
            None => {
                let found = reference(people::lookup(self.cx, id)?);
                self.seen.people.insert(id, found.clone());
                found
            }
        };
        Ok(self.as_sent(found))
    }

    fn project(&mut self, id: Id) -> Result<Ref> {
        let found = match self.seen.projects.get(&id) {
            Some(found) => found.clone(),
            None => {
                let found = reference(projects::lookup(self.cx, id)?);
                self.seen.projects.insert(id, found.clone());
                found
            }
        };
        Ok(self.as_sent(found))
    }

    fn tag(&mut self, id: Id) -> Result<TagRef> {
        let id = match self.tag_override {
            Some((t, Retag::Remove)) if t == id => return Ok(TagRef::Removed),
            Some((t, Retag::Into(into))) if t == id => into,
            _ => id,
        };
        Ok(match tags::find(self.cx, id)? {
            Some(tag) => TagRef::Live(tag.id, tag.name),
            None => TagRef::Unknown,
        })
    }

    fn tag_named(&mut self, name: &str) -> Result<(Id, String)> {
        let tag = tags::find_or_add(self.cx, name)?;
        Ok((tag.id, tag.name))
    }

    fn image(&mut self, signed: &str) -> Result<Option<Id>> {
        let Some(id) = uploads::verify(&self.cx.org.secret, signed) else {
            return Ok(None);
        };
        if self.own_images.contains(&id) {
            return Ok(Some(id));
        }
        Ok(
            match uploads::take(self.cx, signed, uploads::Kind::NoteImage, "body_html") {
                Ok(_) => Some(id),
                Err(_) => None,
            },
        )
    }
}

/// Text cut to at most `max` characters at a word (mid-word only when the
/// first word is longer).
fn cut_at_word(text: &str, max: usize) -> String {
    if char_len(text) <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max).collect();
    let next = text.chars().nth(max);
    if next.is_some_and(|c| !c.is_whitespace())
        && let Some(space) = cut.rfind(' ')
        && space > 0
    {
        return cut[..space].trim_end().to_owned();
    }
    cut.trim_end().to_owned()
}

/// Fills what follows from the title and the rendered body.
fn derive(record: &mut NoteRecord, rendered: Rendered) {
    let text = crate::html::to_text(&rendered.html);
    let line = squish(&text);
    let n = &mut record.note;
    n.body_html = rendered.html;
    n.body_text = text;
    n.tag_ids = rendered.tag_ids;
    n.person_ids = rendered.person_ids;
    n.project_ids = rendered.project_ids;
    record.named_people = rendered.named_people;
    record.named_projects = rendered.named_projects;
    record.images = rendered.images;
    n.name = match &n.title {
        Some(title) => title.clone(),
        None if !line.is_empty() => cut_at_word(&line, NAME_FROM_BODY),
        None => "Untitled note".to_owned(),
    };
    record.excerpt = if char_len(&line) <= EXCERPT_MAX {
        line
    } else {
        format!("{}...", cut_at_word(&line, EXCERPT_MAX - 3))
    };
}

/// Renders `html` (sanitised) for `record`, resolving its references.
fn rendered(
    cx: &WriteCx<'_>,
    record: &NoteRecord,
    html: &str,
    tag_override: Option<(Id, Retag)>,
    seen: &mut Seen,
    fresh: bool,
) -> Result<Rendered> {
    body::render(
        html,
        &mut Resolver {
            cx,
            own_images: &record.images,
            tag_override,
            seen,
            fresh,
        },
    )
}

/// Reads the body; every mistake that needs no lookup is reported at once.
pub(crate) fn parse(body: Option<&Value>) -> Result<NoteInput> {
    let mut f = record(body, "note")?;
    let mut input = NoteInput {
        title: f.string("title"),
        category_id: f.id("category_id"),
        body_html: f.string("body_html"),
        edit_version: None,
    };
    match f.integer("edit_version") {
        Field::Value(v) => input.edit_version = Some(v),
        Field::Null | Field::Absent => {}
    }
    check_text(&mut f.details, &input);
    f.finish()?;
    Ok(input)
}

/// The title's and body's mistakes.
fn check_text(details: &mut Details, input: &NoteInput) {
    if let Field::Value(t) = &input.title {
        let t = squish(t);
        if char_len(&t) > TITLE_MAX {
            details.add(
                "title",
                format!("is too long (at most {TITLE_MAX} characters)"),
            );
        }
        if t.chars().any(char::is_control) {
            details.add("title", "can't contain control characters");
        }
    }
    match &input.body_html {
        Field::Value(h) if h.contains('\0') => {
            details.add("body_html", "can't contain a NUL character");
        }
        Field::Value(h) if h.len() > BODY_MAX_BYTES => details.add(
            "body_html",
            format!("is too long (at most {BODY_MAX_BYTES} bytes)"),
        ),
        _ => {}
    }
}

/// The checked title, category and sanitised body of `input`.
struct Checked {
    title: Option<Option<String>>,
    category: Option<Option<Id>>,
    html: Option<String>,
}

fn check(cx: &WriteCx<'_>, input: &NoteInput) -> Result<Checked> {
    let mut details = Details::new();
    let title = match &input.title {
        Field::Absent => None,
        Field::Null => Some(None),
        Field::Value(t) => {
            let t = squish(t);
            if char_len(&t) > TITLE_MAX {
                details.add(
                    "title",
                    format!("is too long (at most {TITLE_MAX} characters)"),
                );
            }
            if t.chars().any(char::is_control) {
                details.add("title", "can't contain control characters");
            }
            Some(Some(t).filter(|t| !t.is_empty()))
        }
    };
    let category = match &input.category_id {
        Field::Absent => None,
        Field::Null => Some(None),
        Field::Value(c) if categories::exists(cx, *c)? => Some(Some(*c)),
        Field::Value(_) => {
            details.add("category_id", "does not exist");
            None
        }
    };
    let html = match &input.body_html {
        Field::Absent => None,
        Field::Null => Some(""),
        Field::Value(h) => Some(h.as_str()),
    };
    details.into_validation()?;
    Ok(Checked {
        title,
        category,
        html: html.map(crate::html::sanitise_with_images),
    })
}

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

/// `GET /notes/{id}`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Note> {
    Ok(load_live(cx, id)?.note)
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

/// Every live note's ID.
pub(crate) fn live_ids(tx: &impl Tables) -> Result<Vec<Id>> {
    tx.ids_under(NOTES_LIVE, &[])
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
fn purge(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
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

/// The notes whose keys `(owner, note)` of `table` name.
fn notes_under<T: Tables>(cx: &Cx<'_, T>, table: Tbl, owner: Id) -> Result<Vec<Id>> {
    cx.ids_under(table, Key::new().id(owner).as_slice())
}

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
pub(crate) enum Named {
    Person(Id),
    Project(Id),
}

/// A person or project was renamed, deleted, restored or made permanent:
/// the notes naming it show it as it is now.
pub(crate) fn refresh(cx: &WriteCx<'_>, named: Named) -> Result<()> {
    let ids = match named {
        Named::Person(id) => notes_under(cx, NOTES_BY_PERSON, id)?,
        Named::Project(id) => notes_under(cx, NOTES_BY_PROJECT, id)?,
    };
    rerender(cx, &ids, None)
}

/// What a tag's change does to the notes with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Retag {
    /// Its new name shows.
    Rename,
    /// It is gone: its spans become plain words.
    Remove,
    /// It was merged into this tag.
    Into(Id),
}

/// Rewrites the notes with tag `id` after `how`.
pub(crate) fn retag(cx: &WriteCx<'_>, id: Id, how: Retag) -> Result<()> {
    let ids = notes_under(cx, NOTES_BY_TAG, id)?;
    rerender(cx, &ids, Some((id, how)))
}

/// Whether any stored note (live, or deleted and restorable) has category
/// `id`.
pub(crate) fn category_in_use<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<bool> {
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
pub(crate) fn uncategorise(cx: &WriteCx<'_>, id: Id) -> Result<()> {
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

/// One entry of `GET /category_note_counts`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryNoteCount {
    /// The category.
    pub category_id: Id,
    /// Its live notes.
    pub note_count: u64,
}

/// `GET /category_note_counts`: live notes per category, by category.
pub(crate) fn category_note_counts<T: Tables>(cx: &Cx<'_, T>) -> Result<Vec<CategoryNoteCount>> {
    let mut counts: Vec<CategoryNoteCount> = Vec::new();
    cx.scan_prefix(NOTES_OF_CATEGORY, &[], Dir::Asc, &mut |k, _| {
        let category = Id::from_bytes(k[..16].try_into().unwrap_or([0; 16]));
        match counts.last_mut() {
            Some(last) if last.category_id == category => last.note_count += 1,
            _ => counts.push(CategoryNoteCount {
                category_id: category,
                note_count: 1,
            }),
        }
        Ok(true)
    })?;
    Ok(counts)
}

/// The live notes referencing project `id` (the project's activity).
pub(crate) fn referencing<T: Tables>(cx: &Cx<'_, T>, project: Id) -> Result<Vec<NoteSummary>> {
    let mut notes = Vec::new();
    for id in notes_under(cx, NOTES_BY_PROJECT, project)? {
        if let Some(r) = load(cx, id)?
            && r.deleted_at.is_none()
            && r.note.project_ids.contains(&project)
        {
            notes.push(r.summary());
        }
    }
    Ok(notes)
}

/// `GET /notes` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NoteQuery {
    /// Words each of which begins a word of the note (title, text, names).
    pub q: Option<String>,
    /// Only this category's notes.
    pub category_id: Option<Id>,
    /// Only notes with this tag.
    pub tag_id: Option<Id>,
    /// Only notes mentioning this person.
    pub person_id: Option<Id>,
    /// Only notes referencing this project.
    pub project_id: Option<Id>,
    /// Only pinned (or unpinned) notes.
    pub pinned: Option<bool>,
    /// `edited_at` (default, newest first), `created_at`, `updated_at`,
    /// `name`, `id`; direction, updated_since, cursor, limit, count.
    pub params: ListParams,
}

impl NoteQuery {
    /// The query's parameters, as [`NoteQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.params.query_pairs();
        if let Some(v) = &self.q {
            pairs.push(("q", v.clone()));
        }
        if let Some(id) = self.category_id {
            pairs.push(("category_id", id.to_string()));
        }
        if let Some(id) = self.tag_id {
            pairs.push(("tag_id", id.to_string()));
        }
        if let Some(id) = self.person_id {
            pairs.push(("person_id", id.to_string()));
        }
        if let Some(id) = self.project_id {
            pairs.push(("project_id", id.to_string()));
        }
        if let Some(v) = self.pinned {
            pairs.push(("pinned", v.to_string()));
        }
        pairs
    }

    pub(crate) fn parse(query: &Query) -> Result<NoteQuery> {
        let params = LISTING.params(query)?;
        let q = match query.get("q") {
            Some(q) if q.contains('\0') => {
                return Err(Error::bad_param("q", "can't contain a NUL character"));
            }
            Some(q) if char_len(q) > Q_MAX => {
                return Err(Error::bad_param(
                    "q",
                    format!("is too long (at most {Q_MAX} characters)"),
                ));
            }
            Some(q) => Some(q.to_owned()).filter(|q| !q.trim().is_empty()),
            None => None,
        };
        Ok(NoteQuery {
            q,
            category_id: query.id("category_id")?,
            tag_id: query.id("tag_id")?,
            person_id: query.id("person_id")?,
            project_id: query.id("project_id")?,
            pinned: query.bool("pinned")?,
            params,
        })
    }

    /// Names the filters in cursors.
    fn scope(&self) -> String {
        format!(
            "q={:?}|c={:?}|t={:?}|pe={:?}|pr={:?}|pin={:?}",
            self.q.as_deref().map(fold_search),
            self.category_id,
            self.tag_id,
            self.person_id,
            self.project_id,
            self.pinned
        )
    }

    fn filters(&self) -> bool {
        self.q.is_some()
            || self.category_id.is_some()
            || self.tag_id.is_some()
            || self.person_id.is_some()
            || self.project_id.is_some()
            || self.pinned.is_some()
    }
}

const UPDATED: Order = Order {
    name: "updated_at",
    index: NOTES_BY_UPDATED,
    direction: Direction::Asc,
};

/// `GET /notes`: live notes, last edited first by default.
static LISTING: Listing = Listing {
    name: "notes",
    orders: &[
        Order {
            name: "edited_at",
            index: NOTES_BY_EDITED,
            direction: Direction::Desc,
        },
        Order {
            name: "created_at",
            index: NOTES_LIVE,
            direction: Direction::Asc,
        },
        UPDATED,
        Order {
            name: "name",
            index: NOTES_BY_NAME,
            direction: Direction::Asc,
        },
        Order {
            name: "id",
            index: NOTES_LIVE,
            direction: Direction::Asc,
        },
    ],
    updated: Some(&UPDATED),
    every: NOTES_LIVE,
};

/// The notes every filter of `q` that an index answers keeps (the
/// category's, tag's, person's and project's); `None` when none is sent.
fn candidates<T: Tables>(cx: &Cx<'_, T>, q: &NoteQuery) -> Result<Option<HashSet<Id>>> {
    let by = |table, id: Option<Id>| -> Result<Option<HashSet<Id>>> {
        id.map(|id| Ok(notes_under(cx, table, id)?.into_iter().collect()))
            .transpose()
    };
    let mut sets: Vec<HashSet<Id>> = Vec::new();
    sets.extend(by(NOTES_OF_CATEGORY, q.category_id)?);
    sets.extend(by(NOTES_BY_TAG, q.tag_id)?);
    sets.extend(by(NOTES_BY_PERSON, q.person_id)?);
    sets.extend(by(NOTES_BY_PROJECT, q.project_id)?);
    sets.sort_by_key(HashSet::len);
    let mut sets = sets.into_iter();
    let Some(mut kept) = sets.next() else {
        return Ok(None);
    };
    for set in sets {
        kept.retain(|id| set.contains(id));
    }
    Ok(Some(kept))
}

/// `GET /notes`. Filters come from their indexes as sets of notes, and
/// `q` from the search index (each walked note checked against its words
/// when the words are common, so a page costs what the page costs); the
/// order's index is walked keeping those, and a note is loaded only when
/// it is kept (or a filter needs its record: `pinned`, a mention or
/// reference of a deleted record). `total_count` counts the kept keys.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &NoteQuery) -> Result<Page<NoteSummary>> {
    let kept = candidates(cx, q)?;
    let mut words = match &q.q {
        Some(text) => crate::search::lookup::Prefixed::new(cx, crate::search::Kind::Note, text)?,
        None => None,
    };
    if q.params.count
        && let Some(words) = &mut words
    {
        words.find_all(cx)?;
    }
    let by_record = q.pinned.is_some() || q.person_id.is_some() || q.project_id.is_some();
    let keeps = |r: &NoteRecord| {
        r.deleted_at.is_none()
            && q.pinned.is_none_or(|p| r.note.pinned == p)
            && q.person_id.is_none_or(|p| r.note.person_ids.contains(&p))
            && q.project_id.is_none_or(|p| r.note.project_ids.contains(&p))
    };
    let keep = |k: &[u8]| -> Result<bool> {
        let id = tail_id(k);
        if kept.as_ref().is_some_and(|set| !set.contains(&id)) {
            return Ok(false);
        }
        if let Some(words) = &mut words
            && !words.holds(cx, id)?
        {
            return Ok(false);
        }
        match by_record {
            true => Ok(load(cx, id)?.is_some_and(|r| keeps(&r))),
            false => Ok(true),
        }
    };
    let load = |k: &[u8]| Ok(load(cx, tail_id(k))?.filter(keeps).map(|r| r.summary()));
    let filter = if q.filters() {
        Filter::default().skipping(&q.scope())
    } else {
        Filter::default()
    };
    LISTING.page_keeping(&cx.tx, &cx.org.secret, &q.params, &filter, keep, load)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_cut_at_a_word() {
        assert_eq!(cut_at_word("short", 10), "short");
        assert_eq!(cut_at_word("one two three", 9), "one two");
        assert_eq!(cut_at_word("one two three", 7), "one two");
        assert_eq!(cut_at_word("abcdefghij", 4), "abcd");
    }
}

#[cfg(test)]
mod stored {
    use super::*;
    use crate::Organiser;

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
