//! The documents pages (EXTENSIONS.md §6, "Pages": documents, "folders,
//! drag-and-drop PDF upload, thumbnails, viewing"): `/documents` (the
//! folder tree with each folder's count, the documents of the folder
//! chosen as a grid of cards with their thumbnails, found by name, a page
//! at a time, and the forms to add, rename, move and delete a folder),
//! the upload form (`upload.rs`: PDFs from a plain file field, which
//! `assets/documents.js` also feeds from files dropped on the page, with
//! each file's progress), each document's page (`page.rs`: its thumbnail,
//! facts and links, rename and move, delete with undo), and its file and
//! thumbnail (`files.rs`). Every action a plain form with the session's
//! CSRF token, answered 303.

mod files;
mod page;
mod upload;

use std::collections::HashMap;

use askama::Template;
use axum::Router;
use axum::extract::{DefaultBodyLimit, Path, Query};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use jiff::Timestamp;
use jiff::tz::TimeZone;
use organiser_core::documents::{Document, DocumentQuery};
use organiser_core::folders::{Folder, FolderInput, FolderQuery};
use organiser_core::uploads::UploadKind;
use organiser_core::{Details, Error, Field, Id, ListParams, Organiser};
use serde::Deserialize;

use super::forms::{
    FieldErrors, SignedForm, SignedIn, Token, answer, every, invalid, record_id, with_param,
};
use super::{Chrome, Refusal, blocking, see_other};
use crate::AppState;

/// This part's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/documents",
            get(list)
                .post(upload::upload)
                .layer(DefaultBodyLimit::max(upload::LIMIT)),
        )
        .route("/documents/folders", post(add_folder))
        .route("/documents/folders/{id}", post(change_folder))
        .route("/documents/folders/{id}/delete", post(delete_folder))
        .route("/documents/{id}", get(page::show).post(page::change))
        .route("/documents/{id}/delete", post(page::delete))
        .route("/documents/{id}/restoration", post(page::restore))
        .route("/documents/{id}/file", get(files::file))
        .route("/documents/{id}/thumbnail", get(files::thumbnail))
}

/// The documents shown on a page of `/documents` (a grid of 2, 3 or 4
/// across).
const PER_PAGE: usize = 48;

/// Which documents `/documents` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shown {
    /// Every live document.
    All,
    /// Those in no folder (`?folder=none`).
    Unfiled,
    /// Those of one folder (`?folder={id}`).
    Folder(Id),
}

impl Shown {
    /// What `?folder=` says: nothing (all), `none`, or a folder's ID.
    fn read(text: Option<&str>) -> Result<Shown, Refusal> {
        match text.map(str::trim) {
            None | Some("") => Ok(Shown::All),
            Some("none") => Ok(Shown::Unfiled),
            Some(id) => record_id(id).map(Shown::Folder),
        }
    }

    /// The selection as `?folder=` says it.
    fn param(self) -> String {
        match self {
            Shown::All => String::new(),
            Shown::Unfiled => "none".to_owned(),
            Shown::Folder(id) => id.to_string(),
        }
    }

    /// The address of this selection.
    pub(super) fn path(self) -> String {
        match self {
            Shown::All => "/documents".to_owned(),
            other => with_param("/documents", "folder", &other.param()),
        }
    }

    /// The selection a document in `folder` is shown in.
    pub(super) fn of(folder: Option<Id>) -> Shown {
        folder.map_or(Shown::Unfiled, Shown::Folder)
    }
}

/// A folder among the others: its place in the tree and its count.
#[derive(Debug, Clone)]
pub(super) struct FolderRow {
    pub(super) id: Id,
    pub(super) name: String,
    /// Its ancestors' names and its own, joined (`Receipts / 2026`).
    pub(super) path: String,
    /// Live documents in it (not counting its subfolders).
    pub(super) count: u64,
    /// Whether folders lie in it (its list opens after it).
    pub(super) opens: bool,
    /// How many lists of subfolders end after it.
    pub(super) closes: usize,
    /// How deep it lies (0 at the top).
    pub(super) depth: usize,
}

/// Every live folder in tree order (each folder followed by what lies in
/// it, siblings by name), counted.
pub(super) fn folder_tree(org: &Organiser) -> Result<(Vec<FolderRow>, u64, u64), Error> {
    let folders: Vec<Folder> = every(|params| {
        org.folders().list(&FolderQuery {
            parent_id: None,
            params,
        })
    })?;
    let counts = org.documents().folder_counts()?;
    let all: u64 = counts.iter().map(|c| c.document_count).sum();
    let unfiled = counts
        .iter()
        .find(|c| c.folder_id.is_none())
        .map_or(0, |c| c.document_count);
    let counted: HashMap<Id, u64> = counts
        .iter()
        .filter_map(|c| Some((c.folder_id?, c.document_count)))
        .collect();
    let mut children: HashMap<Option<Id>, Vec<&Folder>> = HashMap::new();
    for f in &folders {
        // A folder whose parent is not listed is shown at the top.
        let parent = f
            .parent_id
            .filter(|p| folders.iter().any(|other| other.id == *p));
        children.entry(parent).or_default().push(f);
    }
    let mut rows = Vec::with_capacity(folders.len());
    walk(&children, &counted, None, "", 0, &mut rows);
    Ok((rows, all, unfiled))
}

/// Adds the folders in `parent` (and theirs, depth first) to `rows`.
fn walk(
    children: &HashMap<Option<Id>, Vec<&Folder>>,
    counted: &HashMap<Id, u64>,
    parent: Option<Id>,
    prefix: &str,
    depth: usize,
    rows: &mut Vec<FolderRow>,
) {
    let Some(kids) = children.get(&parent) else {
        return;
    };
    // Guards against a cycle the core should never let be.
    if depth > 64 {
        return;
    }
    for f in kids {
        let path = if prefix.is_empty() {
            f.name.clone()
        } else {
            format!("{prefix} / {}", f.name)
        };
        let opens = children.contains_key(&Some(f.id));
        rows.push(FolderRow {
            id: f.id,
            name: f.name.clone(),
            path: path.clone(),
            count: counted.get(&f.id).copied().unwrap_or(0),
            opens,
            closes: 0,
            depth,
        });
        walk(children, counted, Some(f.id), &path, depth + 1, rows);
    }
    // The last folder of a nested list closes it.
    if depth > 0
        && let Some(last) = rows.last_mut()
    {
        last.closes += 1;
    }
}

/// A moment in the owner's zone, as the cards and facts say it.
pub(super) fn day(t: Timestamp, zone: &TimeZone) -> String {
    t.to_zoned(zone.clone()).strftime("%-d %b %Y").to_string()
}

/// What a refused form sent, to draw it again with the core's refusals.
#[derive(Debug, Default)]
pub(super) struct Draft {
    /// The form refused: `new-folder`, `folder`, `folder-delete`,
    /// `upload` or `document`; empty when none was.
    pub(super) form: &'static str,
    /// The refusals, on the form's fields.
    pub(super) errors: FieldErrors,
    /// What is said of the form as a whole (a refused file, a folder
    /// that is not empty).
    pub(super) said: Vec<String>,
    /// The fields as typed.
    pub(super) values: Vec<(&'static str, String)>,
}

impl Draft {
    /// Form `form` refused with `details` (API fields renamed by `renames`).
    pub(super) fn refused(
        form: &'static str,
        details: &Details,
        renames: &[(&str, &str)],
        values: Vec<(&'static str, String)>,
    ) -> Draft {
        Draft {
            form,
            errors: FieldErrors::from_details(details, renames),
            said: Vec::new(),
            values,
        }
    }

    /// What the core said about `field` of form `form`.
    pub(super) fn error(&self, form: &str, field: &str) -> Option<String> {
        (self.form == form).then(|| self.errors.of(field)).flatten()
    }

    /// What form `form` sent for `field` when it was refused.
    pub(super) fn typed(&self, form: &str, field: &str) -> Option<&str> {
        if self.form != form {
            return None;
        }
        self.values
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, v)| v.as_str())
    }

    /// What is said of form `form` beside none of `fields`.
    pub(super) fn general<'f, T: AsRef<[&'f str]> + ?Sized>(
        &self,
        form: &str,
        fields: &T,
    ) -> Vec<String> {
        if self.form != form {
            return Vec::new();
        }
        let mut all = self.said.clone();
        all.extend(self.errors.others(fields.as_ref()));
        all
    }

    /// Everything said of form `form`.
    pub(super) fn said_of(&self, form: &str) -> Vec<String> {
        self.general(form, &[])
    }
}

/// A document's card in the grid.
#[derive(Debug)]
struct Card {
    id: Id,
    name: String,
    size: String,
    added: String,
}

/// `/documents`.
#[derive(Template)]
#[template(path = "documents.html")]
struct ListPage<'a> {
    chrome: Chrome<'a>,
    shown: Shown,
    /// The selection's `?folder=` value (empty for all).
    view: String,
    /// The selection's address.
    here: String,
    /// What the selection is called.
    title: String,
    /// The folder shown, with its parent's ID.
    folder: Option<Folder>,
    rows: Vec<FolderRow>,
    all: u64,
    unfiled: u64,
    /// What the names are searched for, as typed.
    q: String,
    cards: Vec<Card>,
    /// How many documents the selection (and search) holds.
    total: u64,
    /// The next page's address.
    next: Option<String>,
    /// The upload form's `accept` (the core's types for documents).
    accept: String,
    /// The largest file the core takes, in words.
    most: String,
    draft: Draft,
    /// A document just deleted, to restore.
    deleted: Option<Id>,
    /// How many documents the upload form just added.
    added: Option<u32>,
    /// The folder was saved, or a folder deleted.
    saved: bool,
    removed: bool,
}

impl ListPage<'_> {
    /// Whether `row` is the folder shown.
    fn is_shown(&self, row: &FolderRow) -> bool {
        self.shown == Shown::Folder(row.id)
    }

    /// The new folder's parent offered first: the folder shown, else the
    /// top.
    fn new_parent(&self) -> String {
        match self.draft.typed("new-folder", "parent") {
            Some(p) => p.to_owned(),
            None => match self.shown {
                Shown::Folder(id) => id.to_string(),
                _ => String::new(),
            },
        }
    }

    /// The parent the folder shown is in (as typed when refused).
    fn parent_value(&self) -> String {
        match self.draft.typed("folder", "parent") {
            Some(p) => p.to_owned(),
            None => self
                .folder
                .as_ref()
                .and_then(|f| f.parent_id)
                .map(|p| p.to_string())
                .unwrap_or_default(),
        }
    }

    /// The folder's name as typed when refused, else its own.
    fn folder_name(&self) -> &str {
        match self.draft.typed("folder", "name") {
            Some(n) => n,
            None => self.folder.as_ref().map_or("", |f| f.name.as_str()),
        }
    }

    /// What the upload form just did, in words.
    fn added_text(&self) -> Option<String> {
        self.added.map(|n| match n {
            1 => "1 document added.".to_owned(),
            n => format!("{n} documents added."),
        })
    }

    /// The new folder's name as typed when refused.
    fn new_name(&self) -> &str {
        self.draft.typed("new-folder", "name").unwrap_or("")
    }
}

/// `GET /documents?folder=&q=&cursor=&deleted=&added=&saved=&removed=`.
#[derive(Debug, Default, Deserialize)]
pub(super) struct ListQuery {
    folder: Option<String>,
    #[serde(default)]
    q: String,
    cursor: Option<String>,
    deleted: Option<String>,
    added: Option<u32>,
    saved: Option<String>,
    removed: Option<String>,
}

impl ListQuery {
    /// The selection `view` (a `?folder=` value), from its start.
    pub(super) fn of_view(view: &str) -> ListQuery {
        ListQuery {
            folder: Some(view.to_owned()),
            ..ListQuery::default()
        }
    }
}

/// Draws `/documents` as `q` asks, with `draft` the refused form;
/// answered with `status` (422 when a form was refused).
pub(super) async fn draw_list(
    owner: &SignedIn,
    q: ListQuery,
    draft: Draft,
    status: StatusCode,
) -> Result<Response, Refusal> {
    let shown = Shown::read(q.folder.as_deref())?;
    let typed = q.q.trim().to_owned();
    let query = DocumentQuery {
        folder_id: match shown {
            Shown::All => None,
            Shown::Unfiled => Some(None),
            Shown::Folder(id) => Some(Some(id)),
        },
        q: (!typed.is_empty()).then(|| typed.clone()),
        params: ListParams {
            cursor: q.cursor.filter(|c| !c.is_empty()),
            limit: PER_PAGE,
            count: true,
            ..ListParams::default()
        },
    };
    let (folder, (rows, all, unfiled), found, zone) = blocking(&owner.state, move |org| {
        let folder = match shown {
            Shown::Folder(id) => Some(org.folders().get(id)?),
            _ => None,
        };
        let tree = folder_tree(org)?;
        let found = org.documents().list(&query)?;
        Ok((folder, tree, found, org.zone().time_zone().clone()))
    })
    .await?;
    let here = shown.path();
    let next = found.next_cursor.as_deref().map(|c| {
        let base = if typed.is_empty() {
            here.clone()
        } else {
            with_param(&here, "q", &typed)
        };
        with_param(&base, "cursor", c)
    });
    let title = match (&folder, shown) {
        (Some(f), _) => f.name.clone(),
        (None, Shown::Unfiled) => "Not in a folder".to_owned(),
        _ => "All documents".to_owned(),
    };
    let cards = found
        .items
        .iter()
        .map(|d: &Document| Card {
            id: d.id,
            name: d.name.clone(),
            size: organiser_core::limits::size(d.file.byte_size),
            added: day(d.created_at, &zone),
        })
        .collect();
    let rule = UploadKind::Document.rule();
    let page = ListPage {
        chrome: owner.session.chrome("documents"),
        shown,
        view: shown.param(),
        here,
        title,
        folder,
        rows,
        all,
        unfiled,
        q: q.q,
        total: found.total_count.unwrap_or(found.items.len() as u64),
        cards,
        next,
        accept: rule.content_types.join(","),
        most: organiser_core::limits::size(rule.max_bytes),
        draft,
        deleted: q.deleted.as_deref().and_then(Id::parse),
        added: q.added,
        saved: q.saved.is_some(),
        removed: q.removed.is_some(),
    };
    let mut response = answer(&page, false);
    if response.status().is_success() {
        *response.status_mut() = status;
    }
    Ok(response)
}

/// `GET /documents`.
async fn list(Query(q): Query<ListQuery>, owner: SignedIn) -> Result<Response, Refusal> {
    draw_list(&owner, q, Draft::default(), StatusCode::OK).await
}

/// The folder forms: a name, the folder it goes in (empty for the top),
/// and the selection the form was sent from.
#[derive(Debug, Deserialize)]
struct FolderForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    parent: String,
    #[serde(default)]
    view: String,
}

impl Token for FolderForm {
    fn csrf_token(&self) -> &str {
        &self.csrf_token
    }
}

/// A form's folder choice: empty for none (the top), else a folder's ID.
pub(super) fn chosen_folder(text: &str, field: &str) -> Result<Field<Id>, Refusal> {
    match text.trim() {
        "" | "none" => Ok(Field::Null),
        id => Id::parse(id)
            .map(Field::Value)
            .ok_or_else(|| Refusal::Core(Error::invalid(field, "does not exist"))),
    }
}

/// `POST /documents/folders`: makes a folder; 303 to it, or the page
/// again beside what the core refused (422).
async fn add_folder(sent: SignedForm<FolderForm>) -> Result<Response, Refusal> {
    let form = &sent.form;
    let parent = match chosen_folder(&form.parent, "parent_id")? {
        Field::Null => Field::Absent,
        other => other,
    };
    let input = FolderInput {
        name: Some(form.name.clone()),
        parent_id: parent,
        ..FolderInput::default()
    };
    let made = blocking(&sent.owner.state, move |org| org.folders().create(input)).await;
    match invalid(made)? {
        Ok(f) => Ok(see_other(&Shown::Folder(f.id).path())),
        Err(details) => {
            let values = vec![("name", form.name.clone()), ("parent", form.parent.clone())];
            let draft = Draft::refused("new-folder", &details, &[("parent_id", "parent")], values);
            let q = ListQuery::of_view(&form.view);
            draw_list(&sent.owner, q, draft, StatusCode::UNPROCESSABLE_ENTITY).await
        }
    }
}

/// `POST /documents/folders/{id}`: renames the folder and moves it into
/// another (or to the top); 303 to it, or the page again beside what the
/// core refused (422).
async fn change_folder(
    Path(id): Path<String>,
    sent: SignedForm<FolderForm>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let form = &sent.form;
    let input = FolderInput {
        name: Some(form.name.clone()),
        parent_id: chosen_folder(&form.parent, "parent_id")?,
        ..FolderInput::default()
    };
    let changed = blocking(&sent.owner.state, move |org| {
        org.folders().change(id, input)
    })
    .await;
    match invalid(changed)? {
        Ok(_) => Ok(see_other(&with_param(
            &Shown::Folder(id).path(),
            "saved",
            "1",
        ))),
        Err(details) => {
            let values = vec![("name", form.name.clone()), ("parent", form.parent.clone())];
            let draft = Draft::refused("folder", &details, &[("parent_id", "parent")], values);
            let q = ListQuery::of_view(&id.to_string());
            draw_list(&sent.owner, q, draft, StatusCode::UNPROCESSABLE_ENTITY).await
        }
    }
}

/// A form with only its token.
#[derive(Debug, Deserialize)]
pub(super) struct TokenForm {
    #[serde(default)]
    csrf_token: String,
}

impl Token for TokenForm {
    fn csrf_token(&self) -> &str {
        &self.csrf_token
    }
}

/// `POST /documents/folders/{id}/delete`: deletes an empty folder; 303 to
/// `/documents`. A folder with documents or folders in it is refused
/// (the core's 409 `folder_not_empty`), said on its page.
async fn delete_folder(
    Path(id): Path<String>,
    sent: SignedForm<TokenForm>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    match blocking(&sent.owner.state, move |org| org.folders().delete(id)).await {
        Ok(()) => Ok(see_other("/documents?removed=1")),
        Err(Refusal::Core(e @ Error::Conflict { .. })) => {
            let draft = Draft {
                form: "folder-delete",
                said: vec![e.public_message()],
                ..Draft::default()
            };
            let q = ListQuery::of_view(&id.to_string());
            draw_list(&sent.owner, q, draft, StatusCode::CONFLICT).await
        }
        Err(other) => Err(other),
    }
}
