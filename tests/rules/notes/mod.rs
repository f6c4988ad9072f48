//! Notes, categories and tags: document 3's "Note" and NoteSummary,
//! document 2's "Category", "Tag", "Categories", "Tags" and Projects rules
//! 3 to 6, DESIGN.md's notes endpoints and note body HTML, and the team's
//! decisions (DECISIONS-notes.md). Checked as an outside client would. The
//! tests:
//!
//! - `body`: the sanitiser, mentions, project references, tags (bare
//!   `#word`s too), `body_text`, the id arrays and images;
//! - `notes`: the fields of create and change, `name` and `excerpt`,
//!   `edit_version` and conflicts, the listing, delete and restore, pins;
//! - `effects`: what a person's, project's, category's or tag's change does
//!   to the notes naming it, and the project's activity;
//! - `categories`: every category endpoint and rule;
//! - `tags`: name normalisation, rename, merge, delete and the listing.
//!
//! The helpers below make and read notes, categories, tags, people and
//! projects, write the body's reference spans, upload a note image, and
//! walk a listing a page at a time.

use std::io::Cursor;

use serde_json::{Value, json};

pub(super) use crate::common::fixtures::assert_listed;
use crate::common::fixtures::{all, id};
use crate::common::{Call, Core, Reply, check, send};

mod body;
mod categories;
mod effects;
// The notes' own rules; `notes::notes` is this folder's main file.
mod fields;
mod tags;

/// The keys of a Note (DECISIONS, "Note JSON"), sorted.
const NOTE_KEYS: &[&str] = &[
    "body_html",
    "body_text",
    "category_id",
    "created_at",
    "edit_version",
    "edited_at",
    "id",
    "name",
    "person_ids",
    "pinned",
    "pinned_at",
    "project_ids",
    "tag_ids",
    "title",
    "title_generated",
    "updated_at",
];

/// The keys of a NoteSummary: a Note's without `body_html` and
/// `body_text`, with `excerpt` and `image_count`; sorted.
const SUMMARY_KEYS: &[&str] = &[
    "category_id",
    "created_at",
    "edit_version",
    "edited_at",
    "excerpt",
    "id",
    "image_count",
    "name",
    "person_ids",
    "pinned",
    "pinned_at",
    "project_ids",
    "tag_ids",
    "title",
    "title_generated",
    "updated_at",
];

// ---------------------------------------------------------------- notes

/// `POST /notes` with `{note: fields}`.
fn post_note(s: &Core, fields: Value) -> Reply {
    s.post("/notes", json!({ "note": fields }))
}

/// Creates a note from `fields`; the record.
#[track_caller]
fn new_note(s: &Core, fields: Value) -> Value {
    post_note(s, fields).expect(201).data().clone()
}

/// Creates an untitled note with this body; the record.
#[track_caller]
fn note_with_body(s: &Core, html: &str) -> Value {
    new_note(s, json!({ "body_html": html }))
}

/// `GET /notes/{id}`, which must be 200; the record.
#[track_caller]
fn get_note(s: &Core, note: &str) -> Value {
    s.get(&format!("/notes/{note}")).expect(200).data().clone()
}

/// `PATCH /notes/{id}` with `{note: fields}`.
fn patch_note(s: &Core, note: &str, fields: Value) -> Reply {
    s.patch(&format!("/notes/{note}"), json!({ "note": fields }))
}

/// Changes the note's fields, which must be 200; the record.
#[track_caller]
fn set_note(s: &Core, note: &str, fields: Value) -> Value {
    patch_note(s, note, fields).expect(200).data().clone()
}

/// `PATCH /notes/{id}` with `{note: fields}`, as a table's case.
fn change_note(note: &str, fields: Value) -> Call {
    Call::patch(format!("/notes/{note}"), json!({ "note": fields }))
}

/// `POST /{collection}/{id}/restoration`: a note, person or project back.
fn restore(s: &Core, collection: &str, record: &str) -> Reply {
    send(s.req("POST", &format!("/{collection}/{record}/restoration")))
}

/// `POST /notes/{id}/pin`.
fn pin(s: &Core, note: &str) -> Reply {
    send(s.req("POST", &format!("/notes/{note}/pin")))
}

/// `DELETE /notes/{id}/pin`.
fn unpin(s: &Core, note: &str) -> Reply {
    s.delete(&format!("/notes/{note}/pin"))
}

/// The listing's item (a NoteSummary) for `note`; it must be listed.
#[track_caller]
fn summary(s: &Core, note: &str) -> Value {
    all(s, "/notes")
        .into_iter()
        .find(|n| n["id"] == json!(note))
        .unwrap_or_else(|| panic!("{note} is not listed"))
}

/// What the listing must give for `note`: the Note without its body
/// fields, with `excerpt` and `image_count`.
fn as_summary(note: &Value, excerpt: &str, image_count: u64) -> Value {
    let mut out = note.clone();
    let map = out.as_object_mut().expect("a record");
    map.remove("body_html");
    map.remove("body_text");
    map.insert("excerpt".into(), json!(excerpt));
    map.insert("image_count".into(), json!(image_count));
    out
}

/// A string field of a record.
#[track_caller]
fn text(record: &Value, field: &str) -> String {
    record[field]
        .as_str()
        .unwrap_or_else(|| panic!("{field} is not a string: {record}"))
        .to_owned()
}

// ---------------------------------------------------------------- body spans

/// A mention: `<span data-mention="PERSON_ID">shown</span>`.
fn mention(person: &str, shown: &str) -> String {
    format!("<span data-mention=\"{person}\">{shown}</span>")
}

/// A project reference: `<span data-project="PROJECT_ID">shown</span>`.
fn reference(project: &str, shown: &str) -> String {
    format!("<span data-project=\"{project}\">{shown}</span>")
}

/// A tag: `<span data-tag="TAG_ID">shown</span>`.
fn tag_span(tag: &str, shown: &str) -> String {
    format!("<span data-tag=\"{tag}\">{shown}</span>")
}

// ---------------------------------------------------------------- other records

/// Creates a project named `name`; its id.
#[track_caller]
fn project(s: &Core, name: &str) -> String {
    id(s.post("/projects", json!({"project": {"name": name}}))
        .expect(201)
        .data())
}

/// Renames a person, which must be 200.
#[track_caller]
fn rename_person(s: &Core, person: &str, name: &str) {
    s.patch(
        &format!("/people/{person}"),
        json!({"person": {"name": name}}),
    )
    .expect(200);
}

/// Renames a project, which must be 200.
#[track_caller]
fn rename_project(s: &Core, project: &str, name: &str) {
    s.patch(
        &format!("/projects/{project}"),
        json!({"project": {"name": name}}),
    )
    .expect(200);
}

/// `POST /categories` with `{category: fields}`.
fn post_category(s: &Core, fields: Value) -> Reply {
    s.post("/categories", json!({ "category": fields }))
}

/// Creates a category named `name`; its id.
#[track_caller]
fn category(s: &Core, name: &str) -> String {
    id(post_category(s, json!({ "name": name })).expect(201).data())
}

/// Every tag, by name.
#[track_caller]
fn tags(s: &Core) -> Vec<Value> {
    all(s, "/tags")
}

/// The id of the tag named exactly `name`; there must be one.
#[track_caller]
fn tag_id(s: &Core, name: &str) -> String {
    let listed = tags(s);
    listed
        .iter()
        .find(|t| t["name"] == json!(name))
        .map(id)
        .unwrap_or_else(|| panic!("no tag {name}: {listed:?}"))
}

/// The names of a note's tags, sorted.
#[track_caller]
fn tag_names(s: &Core, note: &Value) -> Vec<String> {
    let listed = tags(s);
    let mut names: Vec<String> = note["tag_ids"]
        .as_array()
        .expect("tag_ids")
        .iter()
        .map(|t| {
            let tag = listed
                .iter()
                .find(|l| l["id"] == *t)
                .unwrap_or_else(|| panic!("tag {t} is not listed"));
            text(tag, "name")
        })
        .collect();
    names.sort();
    names
}

/// A 48 by 32 PNG.
fn png() -> Vec<u8> {
    let picture = image::RgbImage::from_fn(48, 32, |x, y| {
        image::Rgb([(x * 5 % 256) as u8, (y * 7 % 256) as u8, 90])
    });
    let mut out = Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(picture)
        .write_to(&mut out, image::ImageFormat::Png)
        .unwrap();
    out.into_inner()
}

/// Uploads a PNG as `kind` (`note_image`, `avatar`); its `signed_id`.
#[track_caller]
fn upload(s: &Core, kind: &str) -> String {
    let reply = check(
        s,
        Call::upload(
            &format!("kind={kind}&filename=picture.png"),
            "image/png",
            png(),
        ),
        crate::common::Expect::status(201),
    );
    text(reply.data(), "signed_id")
}

// ---------------------------------------------------------------- pages

/// The ids `records` sorted by `key` (ties by id), ascending.
fn sorted_by(records: &[Value], key: impl Fn(&Value) -> String) -> Vec<String> {
    let mut keyed: Vec<(String, String)> = records.iter().map(|r| (key(r), id(r))).collect();
    keyed.sort();
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// `ids` reversed.
fn reversed(ids: &[String]) -> Vec<String> {
    ids.iter().rev().cloned().collect()
}
