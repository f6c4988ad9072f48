//! A document's page (EXTENSIONS.md §6, documents: "thumbnails,
//! viewing"; `document.html`): its first page large, its name, folder,
//! type, size and dates, the notes, projects, tasks and people it is
//! linked to (by name, each linking to its page), "Open" (the PDF shown
//! by the browser) and "Download", a form to rename it and move it to
//! another folder, and delete, which `/documents` offers to undo for the
//! core's 20 seconds.

use askama::Template;
use axum::extract::{Path, Query};
use axum::response::Response;
use organiser_core::documents::{Document, DocumentInput};
use organiser_core::{Error, Field, Id, Organiser};
use serde::Deserialize;

use super::{Draft, FolderRow, Shown, TokenForm, chosen_folder, day, folder_tree};
use crate::web::forms::{SignedForm, SignedIn, Token, answer, invalid, record_id, with_param};
use crate::web::{Chrome, Refusal, blocking, see_other};

/// The records of one kind a document is linked to.
#[derive(Debug)]
struct Linked {
    /// `Notes`, `Projects`, `Tasks`, `People`.
    heading: &'static str,
    /// Each record's address and name.
    items: Vec<(String, String)>,
}

/// A document's page.
#[derive(Template)]
#[template(path = "document.html")]
struct DocumentPage<'a> {
    chrome: Chrome<'a>,
    d: Document,
    /// Its folder and those above it, from the top.
    crumbs: Vec<FolderRow>,
    /// Every folder, for the move.
    rows: Vec<FolderRow>,
    size: String,
    added: String,
    changed: String,
    links: Vec<Linked>,
    draft: Draft,
    /// A change was saved (`?saved=1`).
    saved: bool,
}

impl DocumentPage<'_> {
    /// The name as typed when refused, else the document's.
    fn name_value(&self) -> &str {
        self.draft.typed("document", "name").unwrap_or(&self.d.name)
    }

    /// The folder chosen, as typed when refused, else the document's.
    fn folder_value(&self) -> String {
        match self.draft.typed("document", "folder") {
            Some(f) => f.to_owned(),
            None => self.d.folder_id.map(|f| f.to_string()).unwrap_or_default(),
        }
    }

    /// Whether the rename and move form is open (it was refused).
    fn open(&self) -> bool {
        self.draft.form == "document"
    }

    /// Where the document is listed.
    fn listed_at(&self) -> String {
        Shown::of(self.d.folder_id).path()
    }
}

/// The names of the records `d` is linked to, each kind under its heading
/// (a record gone since is left out).
fn linked(org: &Organiser, d: &Document) -> Result<Vec<Linked>, Error> {
    /// The record's name, or `None` when it is no longer there.
    fn named<T>(
        found: Result<T, Error>,
        name: impl Fn(T) -> String,
    ) -> Result<Option<String>, Error> {
        match found {
            Ok(record) => Ok(Some(name(record))),
            Err(Error::NotFound) => Ok(None),
            Err(e) => Err(e),
        }
    }
    let mut out = Vec::new();
    let mut group = |heading, items: Vec<(String, String)>| {
        if !items.is_empty() {
            out.push(Linked { heading, items });
        }
    };
    let mut items = Vec::new();
    for id in &d.note_ids {
        if let Some(n) = named(org.notes().get(*id), |n| n.name)? {
            items.push((format!("/notes/{id}"), n));
        }
    }
    group("Notes", std::mem::take(&mut items));
    for id in &d.project_ids {
        if let Some(n) = named(org.projects().get(*id), |p| p.name)? {
            items.push((format!("/projects/{id}"), n));
        }
    }
    group("Projects", std::mem::take(&mut items));
    for id in &d.task_ids {
        if let Some(n) = named(org.tasks().get(*id), |t| t.title)? {
            items.push((format!("/tasks/{id}"), n));
        }
    }
    group("Tasks", std::mem::take(&mut items));
    for id in &d.person_ids {
        if let Some(n) = named(org.people().get(*id), |p| p.name)? {
            items.push((format!("/people/{id}"), n));
        }
    }
    group("People", items);
    Ok(out)
}

/// Draws document `id`'s page, with `draft` the refused form.
async fn draw(owner: &SignedIn, id: Id, draft: Draft, saved: bool) -> Result<Response, Refusal> {
    let (d, (rows, _, _), links, zone) = blocking(&owner.state, move |org| {
        let d = org.documents().get(id)?;
        let tree = folder_tree(org)?;
        let links = linked(org, &d)?;
        Ok((d, tree, links, org.zone().time_zone().clone()))
    })
    .await?;
    // The folder's ancestors: each row's depth says where it lies.
    let mut crumbs: Vec<FolderRow> = Vec::new();
    if let Some(at) = rows.iter().position(|r| Some(r.id) == d.folder_id) {
        let mut depth = rows[at].depth + 1;
        for row in rows[..=at].iter().rev() {
            if row.depth < depth {
                crumbs.insert(0, row.clone());
                depth = row.depth;
            }
        }
    }
    let refused = !draft.form.is_empty();
    let page = DocumentPage {
        chrome: owner.session.chrome("documents"),
        crumbs,
        rows,
        size: organiser_core::limits::size(d.file.byte_size),
        added: day(d.created_at, &zone),
        changed: day(d.updated_at, &zone),
        links,
        d,
        draft,
        saved,
    };
    Ok(answer(&page, refused))
}

/// `GET /documents/{id}?saved=1`.
#[derive(Debug, Default, Deserialize)]
pub(super) struct ShowQuery {
    saved: Option<String>,
}

/// `GET /documents/{id}`.
pub(super) async fn show(
    Path(id): Path<String>,
    Query(q): Query<ShowQuery>,
    owner: SignedIn,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    draw(&owner, id, Draft::default(), q.saved.is_some()).await
}

/// The rename and move form.
#[derive(Debug, Deserialize)]
pub(super) struct DocumentForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    folder: String,
}

impl Token for DocumentForm {
    fn csrf_token(&self) -> &str {
        &self.csrf_token
    }
}

/// `POST /documents/{id}`: renames the document and moves it to the
/// folder chosen (or none); 303 to its page, or the page again beside
/// what the core refused (422).
pub(super) async fn change(
    Path(id): Path<String>,
    sent: SignedForm<DocumentForm>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let form = &sent.form;
    let input = DocumentInput {
        name: Field::Value(form.name.clone()),
        folder_id: chosen_folder(&form.folder, "folder_id")?,
        ..DocumentInput::default()
    };
    let changed = blocking(&sent.owner.state, move |org| {
        org.documents().change(id, input)
    })
    .await;
    match invalid(changed)? {
        Ok(_) => Ok(see_other(&format!("/documents/{id}?saved=1"))),
        Err(details) => {
            let values = vec![("name", form.name.clone()), ("folder", form.folder.clone())];
            let draft = Draft::refused("document", &details, &[("folder_id", "folder")], values);
            draw(&sent.owner, id, draft, false).await
        }
    }
}

/// `POST /documents/{id}/delete`: deletes the document; 303 to its
/// folder's list, which offers the undo.
pub(super) async fn delete(
    Path(id): Path<String>,
    sent: SignedForm<TokenForm>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let folder = blocking(&sent.owner.state, move |org| {
        let folder = org.documents().get(id)?.folder_id;
        org.documents().delete(id)?;
        Ok(folder)
    })
    .await?;
    let to = with_param(&Shown::of(folder).path(), "deleted", &id.to_string());
    Ok(see_other(&to))
}

/// `POST /documents/{id}/restoration`: the undo of a delete, within the
/// core's 20 seconds; 303 to the document.
pub(super) async fn restore(
    Path(id): Path<String>,
    sent: SignedForm<TokenForm>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    blocking(&sent.owner.state, move |org| org.documents().restore(id)).await?;
    Ok(see_other(&format!("/documents/{id}")))
}
