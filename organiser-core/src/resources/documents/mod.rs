//! Documents (document 3, "Document (PDF)", DocumentLink, FolderCount;
//! DESIGN.md's document, link and folder-count endpoints): a PDF upload
//! made a named document in a folder, linked to notes, projects, tasks
//! and people (`links.rs`; only links to live records show), its file and
//! thumbnail served at the `file` addresses (`files.rs`), delete with
//! restoration within 20 seconds, and the listing by folder and name.

mod api;
pub(crate) mod links;
pub(crate) mod portable;

pub(crate) use links::{Target, target_changed};
pub(crate) mod tables;

pub use api::Documents;
pub(crate) use api::OPERATIONS;
pub use links::{DocumentLink, DocumentLinkInput, DocumentLinkQuery, LinkBrief};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::kinds::{Attachments, Change, Follower, Given, RecordKind};
use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, record};
use crate::limits;
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};
use crate::resources::{deletions, folders, uploads};
use crate::restore;
use crate::store::codec::{self, Record};
use crate::store::key::{Key, tail_id};
use crate::store::{Dir, Tables, Tbl};
use crate::text::{char_len, fold_case, fold_search, squish};
use tables::{
    DOCUMENTS, DOCUMENTS_BY_FOLDER, DOCUMENTS_BY_NAME, DOCUMENTS_BY_UPDATED, DOCUMENTS_IN_FOLDER,
    DOCUMENTS_LIVE, DOCUMENTS_OF_FOLDER_BY_NAME, DOCUMENTS_OF_FOLDER_BY_UPDATED,
};

/// Documents: restorable for 20 seconds.
pub(crate) static KIND: RecordKind = RecordKind {
    purge: Some(purge),
    ..RecordKind::new("document", 12)
};

/// A document as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Document {
    /// ID.
    pub id: Id,
    /// Squished; need not be unique.
    pub name: String,
    /// Its folder; null for none.
    pub folder_id: Option<Id>,
    /// Linked live notes, sorted.
    pub note_ids: Vec<Id>,
    /// Linked live projects, sorted.
    pub project_ids: Vec<Id>,
    /// Linked live tasks, sorted.
    pub task_ids: Vec<Id>,
    /// Linked live people, sorted.
    pub person_ids: Vec<Id>,
    /// Its links to live records: notes, projects, tasks, then people.
    pub links: Vec<LinkBrief>,
    /// The PDF.
    pub file: DocumentFile,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed (links included).
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A document's file and its addresses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentFile {
    /// The uploaded file's name.
    pub filename: String,
    /// Its size.
    pub byte_size: u64,
    /// `application/pdf`.
    pub content_type: String,
    /// The PDF, to show.
    pub url: String,
    /// The PDF, to save.
    pub download_url: String,
    /// A WebP of its first page.
    pub thumbnail_url: String,
}

/// One row of `GET /folder_counts`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FolderCount {
    /// The folder; null for documents in no folder.
    pub folder_id: Option<Id>,
    /// Its live documents.
    pub document_count: u64,
    /// Their files' bytes.
    pub byte_size: u64,
}

/// `{document: {upload, name?, folder_id?, note_ids?, project_ids?,
/// task_ids?, person_ids?}}`; `upload` on create only.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DocumentInput {
    /// A signed ID of an unused `document` upload (create only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upload: Option<String>,
    /// The name; blank takes the file's name.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub name: Field<String>,
    /// The folder, or null for none.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub folder_id: Field<Id>,
    /// Each kind's links, replaced when sent (null or `[]`: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note_ids: Option<Vec<Id>>,
    /// Linked projects.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project_ids: Option<Vec<Id>>,
    /// Linked tasks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_ids: Option<Vec<Id>>,
    /// Linked people.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub person_ids: Option<Vec<Id>>,
}

/// A stored document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct DocRecord {
    id: Id,
    name: String,
    folder_id: Option<Id>,
    upload: Id,
    filename: String,
    byte_size: u64,
    content_type: String,
    #[serde(with = "codec::instant")]
    created_at: Timestamp,
    #[serde(with = "codec::instant")]
    updated_at: Timestamp,
    #[serde(with = "codec::opt_instant")]
    deleted_at: Option<Timestamp>,
}

impl Record for DocRecord {
    const NAME: &'static str = "document";
    const FORMAT: u8 = 1;
}

/// The folder key of documents in no folder.
fn no_folder() -> Id {
    Id::from_bytes([0; 16])
}

impl DocRecord {
    fn live_entries(&self) -> Vec<(Tbl, Key)> {
        let mut entries = vec![
            (DOCUMENTS_LIVE, Key::new().id(self.id)),
            (
                DOCUMENTS_BY_NAME,
                Key::new().str(&fold_case(&self.name)).id(self.id),
            ),
            (
                DOCUMENTS_BY_UPDATED,
                Key::new().timestamp(self.updated_at).id(self.id),
            ),
        ];
        let folder = Key::new().id(self.folder_id.unwrap_or_else(no_folder));
        entries.push((
            DOCUMENTS_OF_FOLDER_BY_NAME,
            folder.clone().str(&fold_case(&self.name)).id(self.id),
        ));
        entries.push((
            DOCUMENTS_OF_FOLDER_BY_UPDATED,
            folder.timestamp(self.updated_at).id(self.id),
        ));
        entries
    }

    fn stored_entries(&self) -> Vec<(Tbl, Key)> {
        match self.folder_id {
            Some(f) => vec![(DOCUMENTS_IN_FOLDER, Key::new().id(f).id(self.id))],
            None => Vec::new(),
        }
    }

    fn folder_key(&self) -> Key {
        Key::new()
            .id(self.folder_id.unwrap_or_else(no_folder))
            .id(self.id)
    }
}

fn load<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<DocRecord>> {
    cx.get_record(DOCUMENTS, &id.to_bytes())
}

fn load_live<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<DocRecord> {
    match load(cx, id)? {
        Some(r) if r.deleted_at.is_none() => Ok(r),
        _ => Err(Error::NotFound),
    }
}

/// Whether `id` names a live document.
pub(crate) fn is_live<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<bool> {
    Ok(load(cx, id)?.is_some_and(|r| r.deleted_at.is_none()))
}

/// Stores `after` in place of `before`, moving its index entries.
fn save(cx: &WriteCx<'_>, before: Option<&DocRecord>, after: &DocRecord) -> Result<()> {
    let entries = |r: Option<&DocRecord>| -> Vec<(Tbl, Key)> {
        let Some(r) = r else {
            return Vec::new();
        };
        let mut e = r.stored_entries();
        if r.deleted_at.is_none() {
            e.extend(r.live_entries());
        }
        e
    };
    cx.move_indexes(&entries(before), &entries(Some(after)))?;
    // The folder index carries the size as its value.
    if let Some(b) = before
        && b.deleted_at.is_none()
    {
        cx.remove(DOCUMENTS_BY_FOLDER, b.folder_key().as_slice())?;
    }
    if after.deleted_at.is_none() {
        cx.insert(
            DOCUMENTS_BY_FOLDER,
            after.folder_key().as_slice(),
            &after.byte_size.to_be_bytes(),
        )?;
    }
    cx.put_record(DOCUMENTS, &after.id.to_bytes(), after)
}

/// The API's document: its live links, its file's addresses (relative to
/// the API's base; routes make them absolute).
fn to_api<T: Tables>(cx: &Cx<'_, T>, r: &DocRecord) -> Result<Document> {
    let links = links::live_links_of(cx, r.id)?;
    let ids = |kind: Target| {
        let mut ids: Vec<Id> = links
            .iter()
            .filter(|l| l.target == kind)
            .map(|l| l.target_id)
            .collect();
        ids.sort();
        ids.dedup();
        ids
    };
    let base = format!("/api/v1/documents/{}", r.id);
    Ok(Document {
        id: r.id,
        name: r.name.clone(),
        folder_id: r.folder_id,
        note_ids: ids(Target::Note),
        project_ids: ids(Target::Project),
        task_ids: ids(Target::Task),
        person_ids: ids(Target::Person),
        links: links.iter().map(links::StoredLink::brief).collect(),
        file: DocumentFile {
            filename: r.filename.clone(),
            byte_size: r.byte_size,
            content_type: r.content_type.clone(),
            url: format!("{base}/file"),
            download_url: format!("{base}/file?download=1"),
            thumbnail_url: format!("{base}/thumbnail"),
        },
        created_at: r.created_at,
        updated_at: r.updated_at,
    })
}

/// `doc`'s file addresses made absolute with `base`.
pub(crate) fn absolute(mut doc: Document, base: &str) -> Document {
    let base = base.trim_end_matches('/');
    for url in [
        &mut doc.file.url,
        &mut doc.file.download_url,
        &mut doc.file.thumbnail_url,
    ] {
        if url.starts_with('/') && !base.is_empty() {
            *url = format!("{base}{url}");
        }
    }
    doc
}

/// Reads an array of IDs: absent, null or `[]`, or IDs; anything else is
/// a mistake on `field`.
fn id_array(f: &mut crate::input::Fields<'_>, field: &str) -> Option<Vec<Id>> {
    match f.raw(field) {
        Field::Absent => None,
        Field::Null => Some(Vec::new()),
        Field::Value(Value::Array(items)) => {
            let mut ids = Vec::with_capacity(items.len());
            for item in items {
                match item.as_str().and_then(Id::parse) {
                    Some(id) if !ids.contains(&id) => ids.push(id),
                    Some(_) => {}
                    None => {
                        f.add(field, "must be a list of IDs");
                        return None;
                    }
                }
            }
            Some(ids)
        }
        Field::Value(_) => {
            f.add(field, "must be a list of IDs");
            None
        }
    }
}

/// Reads the body; `upload` on a change is 400.
pub(crate) fn parse(body: Option<&Value>, creating: bool) -> Result<DocumentInput> {
    let mut f = record(body, "document")?;
    let upload = match f.raw("upload") {
        Field::Absent => None,
        _ if !creating => {
            return Err(Error::bad_param(
                "upload",
                "is taken only when a document is made",
            ));
        }
        Field::Value(Value::String(s)) => Some(s.clone()),
        _ => {
            f.add("upload", "must be the signed_id of a document upload");
            None
        }
    };
    let input = DocumentInput {
        upload,
        name: f.string("name"),
        folder_id: f.id("folder_id"),
        note_ids: id_array(&mut f, "note_ids"),
        project_ids: id_array(&mut f, "project_ids"),
        task_ids: id_array(&mut f, "task_ids"),
        person_ids: id_array(&mut f, "person_ids"),
    };
    f.finish()?;
    Ok(input)
}

/// The name as sent, checked; `None` when not sent or blank.
fn check_name(details: &mut Details, name: &Field<String>) -> Option<String> {
    let Field::Value(n) = name else {
        return None;
    };
    let n = squish(&crate::text::without_invisible(n));
    if char_len(&n) > limits::text::DOCUMENT_NAME {
        details.add(
            "name",
            format!(
                "is too long (at most {} characters)",
                limits::text::DOCUMENT_NAME
            ),
        );
    }
    if n.chars().any(char::is_control) {
        details.add("name", "can't contain control characters");
    }
    Some(n).filter(|n| !n.is_empty())
}

/// A file's name without its extension (`Untitled document` when nothing
/// is left).
fn name_from_file(filename: &str) -> String {
    let stem = match filename.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => filename,
    };
    let stem = squish(&crate::text::without_invisible(stem));
    let stem: String = stem.chars().take(limits::text::DOCUMENT_NAME).collect();
    if stem.is_empty() {
        "Untitled document".to_owned()
    } else {
        stem
    }
}

/// The folder as sent, checked.
fn check_folder(
    cx: &WriteCx<'_>,
    details: &mut Details,
    folder: &Field<Id>,
) -> Result<Option<Option<Id>>> {
    Ok(match folder {
        Field::Absent => None,
        Field::Null => Some(None),
        Field::Value(f) if folders::exists(cx, *f)? => Some(Some(*f)),
        Field::Value(_) => {
            details.add("folder_id", "does not exist");
            None
        }
    })
}

/// The links `input` asks for, by kind, checked (live targets only).
fn check_links(
    cx: &WriteCx<'_>,
    details: &mut Details,
    input: &DocumentInput,
) -> Result<Vec<(Target, Vec<Id>)>> {
    let mut asked = Vec::new();
    for (kind, ids) in [
        (Target::Note, &input.note_ids),
        (Target::Project, &input.project_ids),
        (Target::Task, &input.task_ids),
        (Target::Person, &input.person_ids),
    ] {
        let Some(ids) = ids else {
            continue;
        };
        for &id in ids {
            if !links::target_live(cx, kind, id)? {
                details.add(
                    kind.field_ids(),
                    format!("names a record that does not exist: {id}"),
                );
            }
        }
        asked.push((kind, ids.clone()));
    }
    Ok(asked)
}

/// `POST /documents`.
pub(crate) fn create(cx: &mut WriteCx<'_>, input: &DocumentInput) -> Result<Document> {
    let mut details = Details::new();
    let name = check_name(&mut details, &input.name);
    let folder = check_folder(cx, &mut details, &input.folder_id)?;
    let links = check_links(cx, &mut details, input)?;
    if input.upload.is_none() {
        details.add("upload", "can't be blank");
    }
    details.into_validation()?;
    let signed = input.upload.as_deref().unwrap_or_default();
    let upload = uploads::take(cx, signed, uploads::Kind::Document, "upload")?;
    let now = cx.now();
    let record = DocRecord {
        id: cx.new_id(),
        name: name.unwrap_or_else(|| name_from_file(&upload.filename)),
        folder_id: folder.flatten(),
        upload: upload.id,
        filename: upload.filename.clone(),
        byte_size: upload.byte_size,
        content_type: upload.content_type.clone(),
        created_at: now,
        updated_at: now,
        deleted_at: None,
    };
    save(cx, None, &record)?;
    for (kind, ids) in links {
        links::set_kind(cx, record.id, kind, &ids)?;
    }
    to_api(cx, &record)
}

/// Documents given through a task's own input (`document_ids`,
/// `document_uploads`).
pub(crate) static ATTACHMENTS: Attachments = Attachments {
    check: check_attachments,
    attach,
    linked,
};

fn linked(cx: &WriteCx<'_>, kind: &str, id: Id) -> Result<Vec<Id>> {
    let Some(target) = Target::of_kind(kind) else {
        return Ok(Vec::new());
    };
    Ok(links::documents_linked(cx, target, id)?
        .into_iter()
        .map(|(_, _, d)| d.id)
        .collect())
}

fn check_attachments(
    cx: &WriteCx<'_>,
    details: &mut Details,
    field: &str,
    given: Given<'_>,
) -> Result<()> {
    if let Field::Value(ids) = given.ids {
        for &id in ids {
            if !is_live(cx, id)? {
                details.add(field, format!("names a document that does not exist: {id}"));
            }
        }
    }
    if let Field::Value(uploads) = given.uploads {
        for signed in uploads {
            if !usable_upload(cx, signed)? {
                details.add(field, "names an upload that is not an unused PDF upload");
            }
        }
    }
    Ok(())
}

fn attach(cx: &WriteCx<'_>, kind: &str, id: Id, given: Given<'_>) -> Result<bool> {
    let Some(target) = Target::of_kind(kind) else {
        return Err(Error::Internal(format!(
            "documents are not attached to a {kind}"
        )));
    };
    match given.ids {
        Field::Value(ids) => links::set_for_target(cx, target, id, ids)?,
        Field::Null => links::set_for_target(cx, target, id, &[])?,
        Field::Absent => {}
    }
    if let Field::Value(uploads) = given.uploads {
        for signed in uploads {
            create_for_task(cx, signed, id)?;
        }
    }
    links::has_live_documents(cx, target, id)
}

/// A document made from upload `signed` (a task's `document_uploads`),
/// named from its file, linked to task `task`; the upload must be an
/// unused `document` upload (else 422 on `documents`).
pub(crate) fn create_for_task(cx: &WriteCx<'_>, signed: &str, task: Id) -> Result<Id> {
    let upload = uploads::take(cx, signed, uploads::Kind::Document, "documents")?;
    let now = cx.now();
    let record = DocRecord {
        id: cx.new_id(),
        name: name_from_file(&upload.filename),
        folder_id: None,
        upload: upload.id,
        filename: upload.filename.clone(),
        byte_size: upload.byte_size,
        content_type: upload.content_type.clone(),
        created_at: now,
        updated_at: now,
        deleted_at: None,
    };
    save(cx, None, &record)?;
    links::set_for_target(cx, Target::Task, task, &links_with(cx, task, record.id)?)?;
    Ok(record.id)
}

/// The live documents linked to `task`, and `doc`.
fn links_with<T: Tables>(cx: &Cx<'_, T>, task: Id, doc: Id) -> Result<Vec<Id>> {
    let mut docs: Vec<Id> = links::documents_linked(cx, Target::Task, task)?
        .into_iter()
        .map(|(_, _, d)| d.id)
        .collect();
    docs.push(doc);
    Ok(docs)
}

/// Whether `signed` names an unused `document` upload.
pub(crate) fn usable_upload<T: Tables>(cx: &Cx<'_, T>, signed: &str) -> Result<bool> {
    let Some(id) = uploads::verify(&cx.org.secret, signed) else {
        return Ok(false);
    };
    Ok(uploads::get(cx, id)?.is_some_and(|u| u.kind == uploads::Kind::Document && !u.used))
}

/// `GET /documents/{id}`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Document> {
    to_api(cx, &load_live(cx, id)?)
}

/// `PATCH /documents/{id}`: what is sent changes; each id array sent
/// replaces that kind's links.
pub(crate) fn change(cx: &mut WriteCx<'_>, id: Id, input: &DocumentInput) -> Result<Document> {
    let before = load_live(cx, id)?;
    let mut details = Details::new();
    let name = check_name(&mut details, &input.name);
    let folder = check_folder(cx, &mut details, &input.folder_id)?;
    let links = check_links(cx, &mut details, input)?;
    details.into_validation()?;
    let mut after = before.clone();
    match (&input.name, name) {
        (Field::Absent, _) => {}
        (_, Some(n)) => after.name = n,
        (_, None) => after.name = name_from_file(&before.filename),
    }
    if let Some(folder) = folder {
        after.folder_id = folder;
    }
    let mut linked = false;
    for (kind, ids) in links {
        linked |= links::set_kind(cx, id, kind, &ids)?;
    }
    if after == before && !linked {
        return to_api(cx, &after);
    }
    after.updated_at = cx.now();
    save(cx, Some(&before), &after)?;
    to_api(cx, &after)
}

/// Gives live document `id` a new `updated_at` (a link made or removed, a
/// linked record deleted or restored).
pub(crate) fn touch(cx: &WriteCx<'_>, id: Id) -> Result<()> {
    let Some(before) = load(cx, id)? else {
        return Ok(());
    };
    let mut after = before.clone();
    after.updated_at = cx.now();
    save(cx, Some(&before), &after)
}

/// `DELETE /documents/{id}`: restorable for 20 seconds.
pub(crate) fn delete(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    let before = load_live(cx, id)?;
    let mut after = before.clone();
    after.deleted_at = Some(cx.now());
    deletions::record(cx, KIND.name, id)?;
    restore::schedule(cx, &KIND, id, cx.now())?;
    save(cx, Some(&before), &after)?;
    links::refresh_tasks_of(cx, id)
}

/// `POST /documents/{id}/restoration`.
pub(crate) fn restore(cx: &mut WriteCx<'_>, id: Id) -> Result<Document> {
    let before = load(cx, id)?.ok_or(Error::NotFound)?;
    let Some(deleted_at) = before.deleted_at else {
        return to_api(cx, &before);
    };
    if !restore::within_window(deleted_at, cx.now()) {
        return Err(Error::NotFound);
    }
    restore::cancel(cx, &KIND, id, deleted_at)?;
    deletions::unrecord(cx, KIND.name, id)?;
    let mut after = before.clone();
    after.deleted_at = None;
    if let Some(f) = after.folder_id
        && !folders::exists(cx, f)?
    {
        after.folder_id = None;
    }
    after.updated_at = cx.now();
    save(cx, Some(&before), &after)?;
    links::refresh_tasks_of(cx, id)?;
    to_api(cx, &after)
}

/// Makes a document's delete permanent: the record, its links and its
/// file go.
fn purge(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    if let Some(r) = load(cx, id)?
        && r.deleted_at.is_some()
    {
        links::remove_all_of(cx, id)?;
        cx.set_indexes(&r.stored_entries(), false)?;
        cx.remove(DOCUMENTS, &id.to_bytes())?;
        uploads::discard(cx, r.upload)?;
    }
    Ok(())
}

/// A document linked to a note, project, task or person follows it: its
/// links hide while the target is deleted and go when the delete becomes
/// permanent, and the document gets a new `updated_at` each time.
fn target_followed(cx: &WriteCx<'_>, kind: Target, id: Id, change: Change) -> Result<()> {
    match change {
        Change::Deleted | Change::Restored => target_changed(cx, kind, id, false),
        Change::Purged => target_changed(cx, kind, id, true),
        Change::Renamed | Change::MergedInto(_) => Ok(()),
    }
}

/// Documents follow the notes they are linked to.
pub(crate) static FOLLOWS_NOTES: Follower = Follower {
    of: "note",
    on: |cx, id, change| target_followed(cx, Target::Note, id, change),
    uses: None,
};
/// Documents follow the projects they are linked to.
pub(crate) static FOLLOWS_PROJECTS: Follower = Follower {
    of: "project",
    on: |cx, id, change| target_followed(cx, Target::Project, id, change),
    uses: None,
};
/// Documents follow the tasks they are linked to.
pub(crate) static FOLLOWS_TASKS: Follower = Follower {
    of: "task",
    on: |cx, id, change| target_followed(cx, Target::Task, id, change),
    uses: None,
};
/// Documents follow the people they are linked to.
pub(crate) static FOLLOWS_PEOPLE: Follower = Follower {
    of: "person",
    on: |cx, id, change| target_followed(cx, Target::Person, id, change),
    uses: None,
};
/// A deleted folder's deleted documents are left in no folder; a folder
/// holding a live document is in use.
pub(crate) static FOLLOWS_FOLDERS: Follower = Follower {
    of: "folder",
    on: |cx, id, change| match change {
        Change::Deleted | Change::Purged => unfolder(cx, id),
        _ => Ok(()),
    },
    uses: Some(folder_in_use),
};

/// Whether a live document is in folder `id`.
pub(crate) fn folder_in_use<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<bool> {
    let mut found = false;
    cx.scan_prefix(
        DOCUMENTS_BY_FOLDER,
        Key::new().id(id).as_slice(),
        Dir::Asc,
        &mut |_, _| {
            found = true;
            Ok(false)
        },
    )?;
    Ok(found)
}

/// Folder `id` is deleted: the deleted documents still in it (live ones
/// keep a folder from being deleted) are left in no folder, with a new
/// `updated_at`.
pub(crate) fn unfolder(cx: &WriteCx<'_>, id: Id) -> Result<()> {
    let mut ids = Vec::new();
    cx.scan_prefix(
        DOCUMENTS_IN_FOLDER,
        Key::new().id(id).as_slice(),
        Dir::Asc,
        &mut |k, _| {
            ids.push(tail_id(k));
            Ok(true)
        },
    )?;
    for doc in ids {
        let Some(before) = load(cx, doc)? else {
            continue;
        };
        let mut after = before.clone();
        after.folder_id = None;
        after.updated_at = cx.now();
        save(cx, Some(&before), &after)?;
    }
    Ok(())
}

/// `GET /folder_counts`: live documents and their bytes per folder (null
/// for no folder), by folder.
pub(crate) fn folder_counts<T: Tables>(cx: &Cx<'_, T>) -> Result<Vec<FolderCount>> {
    let mut counts: Vec<FolderCount> = Vec::new();
    cx.scan_prefix(DOCUMENTS_BY_FOLDER, &[], Dir::Asc, &mut |k, v| {
        let folder = Id::from_bytes(k[..16].try_into().unwrap_or([0; 16]));
        let folder = (folder != no_folder()).then_some(folder);
        let size = v.try_into().map(u64::from_be_bytes).unwrap_or(0);
        match counts.last_mut() {
            Some(last) if last.folder_id == folder => {
                last.document_count += 1;
                last.byte_size += size;
            }
            _ => counts.push(FolderCount {
                folder_id: folder,
                document_count: 1,
                byte_size: size,
            }),
        }
        Ok(true)
    })?;
    Ok(counts)
}

/// The stored file of live document `id`: its upload's ID, name and type.
pub(crate) fn file_of<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<(Id, String, String)> {
    let r = load_live(cx, id)?;
    Ok((r.upload, r.filename, r.content_type))
}

/// `GET /documents` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DocumentQuery {
    /// Only this folder's documents (`Some(None)`: those in no folder).
    pub folder_id: Option<Option<Id>>,
    /// Words each of which begins a word of the name.
    pub q: Option<String>,
    /// `name` (default), `created_at`, `updated_at`, `id`; direction,
    /// updated_since, cursor, limit, count.
    pub params: ListParams,
}

impl DocumentQuery {
    /// The query's parameters, as [`DocumentQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.params.query_pairs();
        match self.folder_id {
            None => {}
            Some(None) => pairs.push(("folder_id", "none".to_owned())),
            Some(Some(id)) => pairs.push(("folder_id", id.to_string())),
        }
        if let Some(q) = &self.q {
            pairs.push(("q", q.clone()));
        }
        pairs
    }

    pub(crate) fn parse(query: &Query) -> Result<DocumentQuery> {
        let folder_id = match query.get("folder_id") {
            None => None,
            Some("none") => Some(None),
            Some(_) => Some(query.id("folder_id")?),
        };
        let q = match query.get("q") {
            Some(q) if q.contains('\0') || char_len(q) > 200 => {
                return Err(Error::bad_param(
                    "q",
                    "must be at most 200 characters, without NUL",
                ));
            }
            Some(q) => Some(q.to_owned()).filter(|q| !q.trim().is_empty()),
            None => None,
        };
        Ok(DocumentQuery {
            folder_id,
            q,
            params: LISTING.params(query)?,
        })
    }
}

const UPDATED: Order = Order {
    name: "updated_at",
    index: DOCUMENTS_BY_UPDATED,
    direction: Direction::Asc,
};

static LISTING: Listing = Listing {
    name: "documents",
    orders: &[
        Order {
            name: "name",
            index: DOCUMENTS_BY_NAME,
            direction: Direction::Asc,
        },
        Order {
            name: "created_at",
            index: DOCUMENTS_LIVE,
            direction: Direction::Asc,
        },
        UPDATED,
        Order {
            name: "id",
            index: DOCUMENTS_LIVE,
            direction: Direction::Asc,
        },
    ],
    updated: Some(&UPDATED),
    every: DOCUMENTS_LIVE,
};

const OF_FOLDER_UPDATED: Order = Order {
    name: "updated_at",
    index: DOCUMENTS_OF_FOLDER_BY_UPDATED,
    direction: Direction::Asc,
};

/// `GET /documents?folder_id=…`: the same orders on indexes led by the
/// folder, so a folder's page reads that folder's documents alone.
static OF_FOLDER: Listing = Listing {
    name: "documents",
    orders: &[
        Order {
            name: "name",
            index: DOCUMENTS_OF_FOLDER_BY_NAME,
            direction: Direction::Asc,
        },
        Order {
            name: "created_at",
            index: DOCUMENTS_BY_FOLDER,
            direction: Direction::Asc,
        },
        OF_FOLDER_UPDATED,
        Order {
            name: "id",
            index: DOCUMENTS_BY_FOLDER,
            direction: Direction::Asc,
        },
    ],
    updated: Some(&OF_FOLDER_UPDATED),
    every: DOCUMENTS_BY_FOLDER,
};

/// `GET /documents`.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &DocumentQuery) -> Result<Page<Document>> {
    // The search index: each word begins a word of the name (each walked
    // document checked against its words when the words are common).
    let mut words = match &q.q {
        Some(text) => crate::search_index::lookup::Prefixed::new(
            cx,
            crate::search_index::Kind::Document,
            text,
        )?,
        None => None,
    };
    if q.params.count
        && let Some(words) = &mut words
    {
        words.find_all(cx)?;
    }
    let keep = |k: &[u8]| match &mut words {
        Some(words) => words.holds(cx, tail_id(k)),
        None => Ok(true),
    };
    let folder = q.folder_id;
    let load = |k: &[u8]| {
        let id = tail_id(k);
        match load(cx, id)? {
            Some(r) if r.deleted_at.is_none() && folder.is_none_or(|f| r.folder_id == f) => {
                Ok(Some(to_api(cx, &r)?))
            }
            _ => Ok(None),
        }
    };
    let (listing, mut filter) = match folder {
        Some(f) => (
            &OF_FOLDER,
            Filter::prefix(
                Key::new().id(f.unwrap_or_else(no_folder)),
                format!("folder={f:?}"),
            ),
        ),
        None => (&LISTING, Filter::default()),
    };
    if let Some(text) = &q.q {
        filter = filter.skipping(&format!("q={:?}", fold_search(text)));
    }
    listing.page_keeping(&cx.tx, &cx.org.secret, &q.params, &filter, keep, load)
}
