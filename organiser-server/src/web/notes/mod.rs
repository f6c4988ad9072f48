//! The notes' pages (EXTENSIONS.md §6, "Pages": notes): `/notes` (the
//! pinned notes, then the rest most recently edited first, found by the
//! words they begin and filtered by category, tag, person or project, with
//! each category's count), a note at `/notes/{id}` (its body as the core
//! sanitised it, its tags, people and projects, pin, delete with undo),
//! and the editor (`editor.rs`: Markdown with `@person`, `^project` and
//! `#tag`, saved with the `edit_version` it was opened at, a change made
//! elsewhere said plainly). `suggest.rs` answers the editor's completion.
//! Every action a plain form with the session's CSRF token.

mod editor;
mod suggest;

use std::collections::HashMap;

use askama::Template;
use axum::Router;
use axum::extract::{Path, Query};
use axum::response::Response;
use axum::routing::{get, post};
use jiff::Timestamp;
use jiff::tz::TimeZone;
use organiser_core::categories::{Category, CategoryQuery};
use organiser_core::notes::{CategoryNoteCount, Note, NoteQuery, NoteSummary};
use organiser_core::{Id, ListParams, Organiser};
use serde::Deserialize;

use super::forms::{PlainForm, SignedForm, SignedIn, every, record_id, with_param};
use super::{Chrome, Refusal, blocking, render, see_other};
use crate::AppState;

/// This part's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/notes", get(notes).post(editor::create))
        .route("/notes/new", get(editor::new_note))
        .route("/notes/suggestions", get(suggest::suggestions))
        .route("/notes/{id}", get(show).post(editor::save))
        .route("/notes/{id}/edit", get(editor::edit))
        .route("/notes/{id}/pin", post(pin))
        .route("/notes/{id}/unpin", post(unpin))
        .route("/notes/{id}/delete", post(delete))
        .route("/notes/{id}/restoration", post(restore))
}

/// The notes shown on a page of `/notes`.
const PER_PAGE: usize = 50;

/// A name shown for a record a note names, with its page.
struct Named {
    name: String,
    href: String,
}

/// A note's row on `/notes`.
struct Row {
    note: NoteSummary,
    category: Option<String>,
    tags: Vec<Named>,
    edited: String,
}

/// A category in the side list, with its count.
struct CategoryCount {
    id: Id,
    name: String,
    count: u64,
}

/// `/notes`.
#[derive(Template)]
#[template(path = "notes.html")]
struct NotesPage<'a> {
    chrome: Chrome<'a>,
    /// The words as typed.
    q: String,
    /// The filters in force: the category, tag, person or project
    /// chosen, said in words (with the address without it).
    filter: Option<(String, String)>,
    category: Option<Id>,
    categories: Vec<CategoryCount>,
    /// The pinned notes (only on the first page of the unfiltered list).
    pinned: Vec<Row>,
    rows: Vec<Row>,
    total: u64,
    next: Option<String>,
    /// A note just deleted, to restore.
    deleted: Option<Id>,
}

impl NotesPage<'_> {
    /// Whether `c` is the category shown.
    fn is_current(&self, c: &CategoryCount) -> bool {
        self.category == Some(c.id)
    }
}

/// `GET /notes?q=&category=&tag=&person=&project=&cursor=&deleted=`.
#[derive(Debug, Default, Deserialize)]
struct NotesQuery {
    #[serde(default)]
    q: String,
    category: Option<String>,
    tag: Option<String>,
    person: Option<String>,
    project: Option<String>,
    cursor: Option<String>,
    deleted: Option<String>,
}

/// An ID given as a query parameter: none when empty or not an ID.
fn param_id(value: Option<&String>) -> Option<Id> {
    value.and_then(|v| Id::parse(v.trim()))
}

/// "Edited 3 Mar 2026" in the owner's zone.
fn edited(at: Timestamp, zone: &TimeZone) -> String {
    at.to_zoned(zone.clone()).strftime("%-d %b %Y").to_string()
}

/// Every live category, by ID.
fn categories(org: &Organiser) -> Result<HashMap<Id, Category>, organiser_core::Error> {
    Ok(
        every(|params| org.categories().list(&CategoryQuery { params }))?
            .into_iter()
            .map(|c| (c.id, c))
            .collect(),
    )
}

/// The rows of `notes`: their categories and tags by name (each tag read
/// once), dates in the owner's zone.
fn rows(
    org: &Organiser,
    notes: Vec<NoteSummary>,
    categories: &HashMap<Id, Category>,
    zone: &TimeZone,
) -> Result<Vec<Row>, organiser_core::Error> {
    let mut tags: HashMap<Id, String> = HashMap::new();
    let mut out = Vec::with_capacity(notes.len());
    for note in notes {
        let mut named = Vec::new();
        for id in &note.tag_ids {
            if !tags.contains_key(id) {
                match org.tags().get(*id) {
                    Ok(t) => tags.insert(*id, t.name),
                    Err(organiser_core::Error::NotFound) => continue,
                    Err(e) => return Err(e),
                };
            }
            named.push(Named {
                name: format!("#{}", tags[id]),
                href: format!("/notes?tag={id}"),
            });
        }
        out.push(Row {
            category: note
                .category_id
                .and_then(|c| categories.get(&c))
                .map(|c| c.name.clone()),
            tags: named,
            edited: edited(note.edited_at, zone),
            note,
        });
    }
    Ok(out)
}

/// What a filter is called, and the list without it.
fn filter_said(
    org: &Organiser,
    q: &NotesQuery,
    categories: &HashMap<Id, Category>,
) -> Result<Option<(String, String)>, organiser_core::Error> {
    let words = q.q.trim();
    let without = if words.is_empty() {
        "/notes".to_owned()
    } else {
        with_param("/notes", "q", words)
    };
    let said = if let Some(id) = param_id(q.category.as_ref()) {
        categories
            .get(&id)
            .map(|c| format!("in the category {}", c.name))
    } else if let Some(id) = param_id(q.tag.as_ref()) {
        Some(format!("tagged #{}", org.tags().get(id)?.name))
    } else if let Some(id) = param_id(q.person.as_ref()) {
        Some(format!("mentioning {}", org.people().get(id)?.name))
    } else if let Some(id) = param_id(q.project.as_ref()) {
        Some(format!("about {}", org.projects().get(id)?.name))
    } else {
        None
    };
    Ok(said.map(|s| (s, without)))
}

/// `GET /notes`.
async fn notes(Query(q): Query<NotesQuery>, owner: SignedIn) -> Result<Response, Refusal> {
    let words = q.q.trim().to_owned();
    let query = NoteQuery {
        q: (!words.is_empty()).then(|| words.clone()),
        category_id: param_id(q.category.as_ref()),
        tag_id: param_id(q.tag.as_ref()),
        person_id: param_id(q.person.as_ref()),
        project_id: param_id(q.project.as_ref()),
        pinned: None,
        params: ListParams {
            cursor: q.cursor.clone().filter(|c| !c.is_empty()),
            limit: PER_PAGE,
            count: true,
            ..ListParams::default()
        },
    };
    // Pinned first, on the first page of everything: the rest below.
    let plain = words.is_empty()
        && query.category_id.is_none()
        && query.tag_id.is_none()
        && query.person_id.is_none()
        && query.project_id.is_none();
    let pinned_too = plain && query.params.cursor.is_none();
    let mut query = query;
    if plain {
        query.pinned = Some(false);
    }
    let first = pinned_too.then(|| NoteQuery {
        pinned: Some(true),
        params: ListParams {
            limit: PER_PAGE,
            ..ListParams::default()
        },
        ..NoteQuery::default()
    });
    let (q, found, pinned, categories, counts, filter) = blocking(&owner.state, move |org| {
        let found = org.notes().list(&query)?;
        let categories = categories(org)?;
        let zone = org.zone().time_zone().clone();
        let pinned = match first {
            Some(p) => rows(org, org.notes().list(&p)?.items, &categories, &zone)?,
            None => Vec::new(),
        };
        let counts: Vec<CategoryNoteCount> = org.notes().category_counts()?;
        let filter = filter_said(org, &q, &categories)?;
        let items = rows(org, found.items, &categories, &zone)?;
        Ok((
            q,
            (items, found.next_cursor, found.total_count),
            pinned,
            categories,
            counts,
            filter,
        ))
    })
    .await?;
    let (items, next_cursor, total) = found;
    let mut side: Vec<CategoryCount> = counts
        .iter()
        .filter_map(|c| {
            categories.get(&c.category_id).map(|cat| CategoryCount {
                id: cat.id,
                name: cat.name.clone(),
                count: c.note_count,
            })
        })
        .collect();
    side.sort_by_key(|c| c.name.to_lowercase());
    let next = next_cursor.map(|c| {
        let mut base = "/notes".to_owned();
        for (name, value) in [
            ("q", Some(&q.q)),
            ("category", q.category.as_ref()),
            ("tag", q.tag.as_ref()),
            ("person", q.person.as_ref()),
            ("project", q.project.as_ref()),
        ] {
            if let Some(v) = value.filter(|v| !v.trim().is_empty()) {
                base = with_param(&base, name, v.trim());
            }
        }
        with_param(&base, "cursor", &c)
    });
    let page = NotesPage {
        chrome: owner.session.chrome("notes"),
        category: param_id(q.category.as_ref()),
        total: total.unwrap_or(items.len() as u64) + pinned.len() as u64,
        q: q.q,
        filter,
        categories: side,
        pinned,
        rows: items,
        next,
        deleted: q.deleted.as_deref().and_then(Id::parse),
    };
    Ok(render(&page))
}

/// `/notes/{id}`.
#[derive(Template)]
#[template(path = "note.html")]
struct NotePage<'a> {
    chrome: Chrome<'a>,
    note: Note,
    category: Option<String>,
    tags: Vec<Named>,
    people: Vec<Named>,
    projects: Vec<Named>,
    edited: String,
    /// The note was just saved (`?saved=1`).
    saved: bool,
}

/// `GET /notes/{id}?saved=1`.
#[derive(Debug, Default, Deserialize)]
struct ShowQuery {
    saved: Option<String>,
}

/// The tags, people and projects a note names, each linked.
type NamedIn = (Vec<Named>, Vec<Named>, Vec<Named>);

/// The names of the tags, people and projects `note` names, linked.
fn named(org: &Organiser, note: &Note) -> Result<NamedIn, organiser_core::Error> {
    let mut tags = Vec::new();
    for id in &note.tag_ids {
        if let Ok(t) = org.tags().get(*id) {
            tags.push(Named {
                name: format!("#{}", t.name),
                href: format!("/notes?tag={id}"),
            });
        }
    }
    let mut people = Vec::new();
    for id in &note.person_ids {
        if let Ok(p) = org.people().get(*id) {
            people.push(Named {
                name: p.name,
                href: format!("/people/{id}"),
            });
        }
    }
    let mut projects = Vec::new();
    for id in &note.project_ids {
        if let Ok(p) = org.projects().get(*id) {
            projects.push(Named {
                name: p.name,
                href: format!("/projects/{id}"),
            });
        }
    }
    Ok((tags, people, projects))
}

/// `GET /notes/{id}`: the note as it reads.
async fn show(
    Path(id): Path<String>,
    Query(q): Query<ShowQuery>,
    owner: SignedIn,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let (note, category, (tags, people, projects), edited_at) =
        blocking(&owner.state, move |org| {
            let note = org.notes().get(id)?;
            let category = match note.category_id {
                Some(c) => org.categories().get(c).ok().map(|c| c.name),
                None => None,
            };
            let names = named(org, &note)?;
            let at = edited(note.edited_at, org.zone().time_zone());
            Ok((note, category, names, at))
        })
        .await?;
    let page = NotePage {
        chrome: owner.session.chrome("notes"),
        note,
        category,
        tags,
        people,
        projects,
        edited: edited_at,
        saved: q.saved.is_some(),
    };
    Ok(render(&page))
}

/// `POST /notes/{id}/pin`: 303 back (the list or the note).
async fn pin(Path(id): Path<String>, sent: SignedForm<PlainForm>) -> Result<Response, Refusal> {
    pinned(id, sent, true).await
}

/// `POST /notes/{id}/unpin`.
async fn unpin(Path(id): Path<String>, sent: SignedForm<PlainForm>) -> Result<Response, Refusal> {
    pinned(id, sent, false).await
}

/// Pins or unpins, then back where the form came from.
async fn pinned(id: String, sent: SignedForm<PlainForm>, to: bool) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    blocking(&sent.owner.state, move |org| org.notes().pin(id, to)).await?;
    let back = super::forms::back(&sent.form.back);
    Ok(see_other(if back == "/" { "/notes" } else { back }))
}

/// `POST /notes/{id}/delete`: 303 to `/notes`, which offers the restore.
async fn delete(Path(id): Path<String>, sent: SignedForm<PlainForm>) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    blocking(&sent.owner.state, move |org| org.notes().delete(id)).await?;
    Ok(see_other(&format!("/notes?deleted={id}")))
}

/// `POST /notes/{id}/restoration`: the undo of a delete, within the core's
/// 20 seconds; 303 to the note.
async fn restore(Path(id): Path<String>, sent: SignedForm<PlainForm>) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    blocking(&sent.owner.state, move |org| org.notes().restore(id)).await?;
    Ok(see_other(&format!("/notes/{id}")))
}
