//! The note editor (`/notes/new`, `/notes/{id}/edit`): a title, a
//! category and the body as Markdown (the core's `notes::markdown`, as
//! `organiser notes edit` opens it), where `@Name` mentions a person,
//! `^Name` refers to a project and `#word` tags the note. The form carries
//! the `edit_version` the note was opened at: when the note changed
//! elsewhere meanwhile (another tab, the CLI, a phone), the core refuses
//! with 409 `conflict` and the editor comes back saying so, the owner's
//! text kept, the note as it now stands shown beside it, and saving again
//! writes over it. `notes.js` adds the completion and Markdown shortcuts.

use std::collections::HashMap;

use askama::Template;
use axum::extract::Path;
use axum::response::Response;
use organiser_core::categories::Category;
use organiser_core::notes::{Note, NoteInput};
use organiser_core::{ConflictKind, Error, Field, Id};
use serde::Deserialize;

use super::super::forms::{FieldErrors, SignedForm, SignedIn, Token, record_id};
use super::super::{Chrome, Refusal, blocking, render, see_other};
use super::categories;

/// The editor.
#[derive(Template)]
#[template(path = "note_editor.html")]
struct EditorPage<'a> {
    chrome: Chrome<'a>,
    /// The note edited; `None` for a new one.
    id: Option<Id>,
    title: String,
    category: Option<Id>,
    /// The categories to choose from, in their order.
    categories: Vec<Category>,
    /// The body as Markdown.
    body: String,
    /// The version the text was opened at.
    edit_version: i64,
    errors: FieldErrors,
    /// The note as it now stands, when it changed since the editor opened.
    elsewhere: Option<Note>,
}

impl EditorPage<'_> {
    /// Whether `c` is the chosen category.
    fn chosen(&self, c: &Category) -> bool {
        self.category == Some(c.id)
    }

    /// Where the form goes.
    fn action(&self) -> String {
        match self.id {
            Some(id) => format!("/notes/{id}"),
            None => "/notes".to_owned(),
        }
    }
}

/// The editor's form.
#[derive(Debug, Deserialize)]
pub(super) struct NoteForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    category: String,
    #[serde(default)]
    body: String,
    /// Absent on a new note.
    edit_version: Option<i64>,
}

impl Token for NoteForm {
    fn csrf_token(&self) -> &str {
        &self.csrf_token
    }
}

/// The categories in their order (the core's `position`, then name).
fn in_order(all: HashMap<Id, Category>) -> Vec<Category> {
    let mut list: Vec<Category> = all.into_values().collect();
    list.sort_by(|a, b| a.position.cmp(&b.position).then(a.name.cmp(&b.name)));
    list
}

/// The form as the core's input: an empty title is none (the note is
/// named from its body), an empty category none.
fn input(form: &NoteForm, body_html: String) -> NoteInput {
    let title = form.title.trim();
    NoteInput {
        title: if title.is_empty() {
            Field::Null
        } else {
            Field::Value(title.to_owned())
        },
        category_id: match Id::parse(form.category.trim()) {
            Some(id) => Field::Value(id),
            None => Field::Null,
        },
        body_html: Field::Value(body_html),
        edit_version: form.edit_version,
    }
}

/// The editor for `form` again, beside what the core said (422), or
/// with the note as it now stands (409).
fn again(
    sent: &SignedForm<NoteForm>,
    id: Option<Id>,
    categories: Vec<Category>,
    errors: FieldErrors,
    elsewhere: Option<Note>,
) -> Response {
    let form = &sent.form;
    let conflict = elsewhere.is_some();
    let page = EditorPage {
        chrome: sent.owner.session.chrome("notes"),
        id,
        title: form.title.clone(),
        category: Id::parse(form.category.trim()),
        categories,
        body: form.body.clone(),
        edit_version: elsewhere
            .as_ref()
            .map_or(form.edit_version.unwrap_or(0), |n| n.edit_version),
        errors,
        elsewhere,
    };
    let mut response = render(&page);
    if response.status().is_success() {
        *response.status_mut() = if conflict {
            axum::http::StatusCode::CONFLICT
        } else {
            axum::http::StatusCode::UNPROCESSABLE_ENTITY
        };
    }
    response
}

/// What the core said of a note's fields, on the editor's (the body's
/// HTML is the Markdown box).
fn said(details: &organiser_core::Details) -> FieldErrors {
    FieldErrors::from_details(
        details,
        &[("body_html", "body"), ("category_id", "category")],
    )
}

/// `GET /notes/new`.
pub(super) async fn new_note(owner: SignedIn) -> Result<Response, Refusal> {
    let all = blocking(&owner.state, categories).await?;
    let page = EditorPage {
        chrome: owner.session.chrome("notes"),
        id: None,
        title: String::new(),
        category: None,
        categories: in_order(all),
        body: String::new(),
        edit_version: 0,
        errors: FieldErrors::default(),
        elsewhere: None,
    };
    Ok(render(&page))
}

/// `GET /notes/{id}/edit`: the note as Markdown, at its version.
pub(super) async fn edit(Path(id): Path<String>, owner: SignedIn) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let (note, all) = blocking(&owner.state, move |org| {
        Ok((org.notes().get(id)?, categories(org)?))
    })
    .await?;
    let page = EditorPage {
        chrome: owner.session.chrome("notes"),
        id: Some(id),
        title: note.title.clone().unwrap_or_default(),
        category: note.category_id,
        categories: in_order(all),
        body: organiser_core::notes::markdown::from_body_html(&note.body_html),
        edit_version: note.edit_version,
        errors: FieldErrors::default(),
        elsewhere: None,
    };
    Ok(render(&page))
}

/// `POST /notes`: makes a note; 303 to it, or the editor again (422).
pub(super) async fn create(sent: SignedForm<NoteForm>) -> Result<Response, Refusal> {
    let body = sent.form.body.clone();
    let (title, category) = (sent.form.title.clone(), sent.form.category.clone());
    let form = NoteForm {
        csrf_token: String::new(),
        title,
        category,
        body: String::new(),
        edit_version: None,
    };
    let made = blocking(&sent.owner.state, move |org| {
        let html = org.notes().body_from_markdown(&body, None)?;
        match org.notes().create(input(&form, html)) {
            Ok(note) => Ok(Ok(note)),
            Err(Error::Validation(details)) => Ok(Err((details, categories(org)?))),
            Err(e) => Err(e),
        }
    })
    .await?;
    match made {
        Ok(note) => Ok(see_other(&format!("/notes/{}?saved=1", note.id))),
        Err((details, all)) => Ok(again(&sent, None, in_order(all), said(&details), None)),
    }
}

/// What a save came to.
enum Saved {
    Done(Box<Note>),
    Refused(organiser_core::Details, HashMap<Id, Category>),
    /// Changed elsewhere: the note as it now stands.
    Elsewhere(Box<Note>, HashMap<Id, Category>),
}

/// `POST /notes/{id}`: saves the editor at the version it was opened at;
/// 303 to the note, the editor again beside what was refused (422), or
/// saying that the note changed elsewhere (409).
pub(super) async fn save(
    Path(id): Path<String>,
    sent: SignedForm<NoteForm>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let form = NoteForm {
        csrf_token: String::new(),
        title: sent.form.title.clone(),
        category: sent.form.category.clone(),
        body: sent.form.body.clone(),
        edit_version: sent.form.edit_version,
    };
    let saved = blocking(&sent.owner.state, move |org| {
        let before = org.notes().get(id)?;
        let html = org.notes().body_from_markdown(&form.body, Some(&before))?;
        match org.notes().change(id, input(&form, html)) {
            Ok(note) => Ok(Saved::Done(Box::new(note))),
            Err(Error::Validation(details)) => Ok(Saved::Refused(details, categories(org)?)),
            Err(Error::Conflict {
                kind: ConflictKind::Conflict,
                ..
            }) => Ok(Saved::Elsewhere(
                Box::new(org.notes().get(id)?),
                categories(org)?,
            )),
            Err(e) => Err(e),
        }
    })
    .await?;
    Ok(match saved {
        Saved::Done(note) => see_other(&format!("/notes/{}?saved=1", note.id)),
        Saved::Refused(details, all) => again(&sent, Some(id), in_order(all), said(&details), None),
        Saved::Elsewhere(now, all) => again(
            &sent,
            Some(id),
            in_order(all),
            FieldErrors::default(),
            Some(*now),
        ),
    })
}
