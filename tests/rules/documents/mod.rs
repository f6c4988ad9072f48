//! Documents (PDFs), document links and folders: document 3's "Document
//! (PDF)", DocumentLink, Folder and FolderCount; document 2's task fields
//! `document_ids`, `document_uploads` and `has_documents` and the project
//! activity's documents; document 1's deletions; DESIGN.md's uploads and
//! the documents, folders and links endpoints; and the team's decisions
//! (DECISIONS-docs.md). Checked as an outside client would. The tests:
//!
//! - `documents`: create from an upload, the fields, the file and its
//!   addresses (over HTTP: bytes, ranges, thumbnail), change, delete and
//!   restore, the listing;
//! - `links`: `/document_links`;
//! - `effects`: what deleting, restoring or purging a linked note,
//!   project, task or person does to the document, a folder deleted under
//!   a deleted document, and the project's activity;
//! - `folders`: `/folders` and `/folder_counts`;
//! - `tasks`: a task's `document_ids`, `document_uploads` and
//!   `has_documents`.
//!
//! The helpers below make PDFs and uploads, documents, folders, links and
//! the records they link to.

use serde_json::{Value, json};

pub(super) use crate::common::fixtures::assert_listed;
use crate::common::fixtures::{escaped, id, new_list, new_task, pdf, person};
use crate::common::{Call, Core, Expect, Reply, check, send};

// The documents' own rules, named as the brief and the spec name them.
mod effects;
mod fields;
mod folders;
mod links;
mod tasks;

/// The keys of a Document (DECISIONS, "Document JSON"), sorted.
const DOCUMENT_KEYS: &[&str] = &[
    "created_at",
    "file",
    "folder_id",
    "id",
    "links",
    "name",
    "note_ids",
    "person_ids",
    "project_ids",
    "task_ids",
    "updated_at",
];

/// The keys of a document's `file`, sorted.
const FILE_KEYS: &[&str] = &[
    "byte_size",
    "content_type",
    "download_url",
    "filename",
    "thumbnail_url",
    "url",
];

/// The keys of a DocumentLink, sorted.
const LINK_KEYS: &[&str] = &[
    "created_at",
    "document_id",
    "id",
    "note_id",
    "person_id",
    "project_id",
    "task_id",
];

/// The keys of a Folder, sorted.
const FOLDER_KEYS: &[&str] = &[
    "color",
    "created_at",
    "icon",
    "id",
    "name",
    "parent_id",
    "updated_at",
];

// ---------------------------------------------------------------- PDFs

/// `POST /uploads?kind=document&filename=...` with these bytes.
fn upload_call(filename: &str, bytes: Vec<u8>) -> Call {
    Call::upload(
        &format!("kind=document&filename={}", escaped(filename)),
        "application/pdf",
        bytes,
    )
}

/// Uploads `bytes` as a document named `filename`; the upload's `signed_id`.
#[track_caller]
fn upload_bytes(s: &Core, filename: &str, bytes: Vec<u8>) -> String {
    let reply = check(s, upload_call(filename, bytes), Expect::status(201));
    text(reply.data(), "signed_id")
}

/// Uploads a PDF named `filename`; its `signed_id`.
#[track_caller]
fn upload_pdf(s: &Core, filename: &str) -> String {
    upload_bytes(s, filename, pdf(filename))
}

/// Uploads a PNG as a note image; its `signed_id` (an upload of another
/// kind).
#[track_caller]
fn upload_image(s: &Core) -> String {
    let picture = image::RgbImage::from_fn(24, 16, |x, y| {
        image::Rgb([(x * 9 % 256) as u8, (y * 13 % 256) as u8, 40])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(picture)
        .write_to(&mut out, image::ImageFormat::Png)
        .unwrap();
    let reply = check(
        s,
        Call::upload(
            "kind=note_image&filename=picture.png",
            "image/png",
            out.into_inner(),
        ),
        Expect::status(201),
    );
    text(reply.data(), "signed_id")
}

// ---------------------------------------------------------------- documents

/// `POST /documents` with `{document: fields}`, as a table's case.
fn create(fields: Value) -> Call {
    Call::post("/documents", json!({ "document": fields }))
}

/// `POST /documents` with `{document: fields}`.
fn post_document(s: &Core, fields: Value) -> Reply {
    s.post("/documents", json!({ "document": fields }))
}

/// Creates a document from `fields`; the record.
#[track_caller]
fn new_document(s: &Core, fields: Value) -> Value {
    post_document(s, fields).expect(201).data().clone()
}

/// Uploads a PDF named `{name}.pdf` and makes a document of it with
/// `fields` besides; the record.
#[track_caller]
fn document_with(s: &Core, name: &str, mut fields: Value) -> Value {
    fields["upload"] = json!(upload_pdf(s, &format!("{name}.pdf")));
    new_document(s, fields)
}

/// A document named `name` (from `{name}.pdf`); its id.
#[track_caller]
fn document(s: &Core, name: &str) -> String {
    id(&document_with(s, name, json!({})))
}

/// `GET /documents/{id}`, which must be 200; the record.
#[track_caller]
fn get_document(s: &Core, document: &str) -> Value {
    s.get(&format!("/documents/{document}"))
        .expect(200)
        .data()
        .clone()
}

/// `PATCH /documents/{id}` with `{document: fields}`, as a table's case.
fn change(document: &str, fields: Value) -> Call {
    Call::patch(
        format!("/documents/{document}"),
        json!({ "document": fields }),
    )
}

/// Changes the document's fields, which must be 200; the record.
#[track_caller]
fn set_document(s: &Core, document: &str, fields: Value) -> Value {
    check(s, change(document, fields), Expect::status(200))
        .data()
        .clone()
}

/// `POST /{collection}/{id}/restoration`.
fn restore(s: &Core, collection: &str, record: &str) -> Reply {
    send(s.req("POST", &format!("/{collection}/{record}/restoration")))
}

// ---------------------------------------------------------------- links

/// `POST /document_links` with `{document_link: fields}`, as a table's case.
fn link_call(fields: Value) -> Call {
    Call::post("/document_links", json!({ "document_link": fields }))
}

/// Links `document` to the record `target` through `field` (`note_id`,
/// `project_id`, `task_id`, `person_id`); the link.
#[track_caller]
fn link(s: &Core, document: &str, field: &str, target: &str) -> Value {
    check(
        s,
        link_call(json!({"document_id": document, field: target})),
        Expect::status(201),
    )
    .data()
    .clone()
}

/// The links `/document_links?{query}` lists, every page.
#[track_caller]
fn links_where(s: &Core, query: &str) -> Vec<Value> {
    crate::common::fixtures::all(s, &format!("/document_links?{query}"))
}

// ---------------------------------------------------------------- folders

/// `POST /folders` with `{folder: fields}`.
fn post_folder(s: &Core, fields: Value) -> Reply {
    s.post("/folders", json!({ "folder": fields }))
}

/// Creates a folder from `fields`; the record.
#[track_caller]
fn new_folder(s: &Core, fields: Value) -> Value {
    post_folder(s, fields).expect(201).data().clone()
}

/// Creates a folder named `name` in `parent` (top level for `None`); its id.
#[track_caller]
fn folder(s: &Core, name: &str, parent: Option<&str>) -> String {
    id(&new_folder(s, json!({"name": name, "parent_id": parent})))
}

// ---------------------------------------------------------------- records linked to

/// A note titled `title`; its id.
#[track_caller]
fn note(s: &Core, title: &str) -> String {
    id(s.post("/notes", json!({"note": {"title": title}}))
        .expect(201)
        .data())
}

/// A project named `name`; its id.
#[track_caller]
fn project(s: &Core, name: &str) -> String {
    id(s.post("/projects", json!({"project": {"name": name}}))
        .expect(201)
        .data())
}

/// A task titled `title` in the Inbox; its id.
#[track_caller]
fn task(s: &Core, title: &str) -> String {
    id(&new_task(s, json!({ "title": title })))
}

/// A person named `name`; its id.
#[track_caller]
fn someone(s: &Core, name: &str) -> String {
    person(s, name)
}

/// A task in a list that is then deleted; the task's id.
#[track_caller]
fn task_in_deleted_list(s: &Core) -> String {
    let list = new_list(s, "Soon gone");
    let t = id(&new_task(
        s,
        json!({"title": "In a deleted list", "task_list_id": list}),
    ));
    s.delete(&format!("/task_lists/{list}")).expect(204);
    t
}

/// One of each record a document links to, made through `make`.
/// (collection, id field of a link, ids field of a document).
const KINDS: &[(&str, &str, &str)] = &[
    ("notes", "note_id", "note_ids"),
    ("projects", "project_id", "project_ids"),
    ("tasks", "task_id", "task_ids"),
    ("people", "person_id", "person_ids"),
];

/// Makes a record of `collection` (`notes`, `projects`, `tasks`,
/// `people`) called `name`; its id.
#[track_caller]
fn record(s: &Core, collection: &str, name: &str) -> String {
    match collection {
        "notes" => note(s, name),
        "projects" => project(s, name),
        "tasks" => task(s, name),
        "people" => someone(s, name),
        other => panic!("no such collection {other}"),
    }
}

// ---------------------------------------------------------------- reading

/// A string field of a record.
#[track_caller]
fn text(record: &Value, field: &str) -> String {
    record[field]
        .as_str()
        .unwrap_or_else(|| panic!("{field} is not a string: {record}"))
        .to_owned()
}

/// `ids` sorted, as a JSON array (the id arrays are sorted).
fn sorted(ids: &[&str]) -> Value {
    let mut ids: Vec<&str> = ids.to_vec();
    ids.sort_unstable();
    json!(ids)
}

/// `ids` reversed.
fn reversed(ids: &[String]) -> Vec<String> {
    ids.iter().rev().cloned().collect()
}

/// The path below `/api/v1` of an address the API gave (absolute, or
/// relative when the request had no base URL).
#[track_caller]
fn api_path(url: &str) -> String {
    let at = url
        .find("/api/v1/")
        .unwrap_or_else(|| panic!("{url} is not an API address"));
    url[at + "/api/v1".len()..].to_owned()
}
