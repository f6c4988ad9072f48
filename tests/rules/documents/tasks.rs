//! Document 2, tasks' "Create and change": `document_ids` (the task's
//! documents after the save, the full set), `document_uploads` (each
//! unused PDF upload becomes a document linked to the task) and
//! `has_documents`.

use serde_json::{Value, json};

use super::{
    document, get_document, link, links_where, pdf, upload_bytes, upload_image, upload_pdf,
};
use crate::common::fixtures::{UNKNOWN, all, get_task, id, new_task, patch_task};
use crate::common::{Call, Core, Expect, check};

/// The ids of the documents linked to `task`, sorted.
#[track_caller]
fn documents_of(s: &Core, task: &str) -> Vec<String> {
    let mut ids: Vec<String> = links_where(s, &format!("task_id={task}"))
        .iter()
        .map(|l| l["document_id"].as_str().unwrap().to_owned())
        .collect();
    ids.sort();
    ids
}

/// `ids` sorted.
fn sorted(ids: &[&String]) -> Vec<String> {
    let mut ids: Vec<String> = ids.iter().map(|i| (*i).clone()).collect();
    ids.sort();
    ids
}

/// The link of `document` to `task`; there must be one.
#[track_caller]
fn link_id(s: &Core, document: &str, task: &str) -> Value {
    links_where(s, &format!("task_id={task}&document_id={document}"))
        .first()
        .unwrap_or_else(|| panic!("{document} is not linked to {task}"))["id"]
        .clone()
}

/// `document_ids` is the full set after the save: on create; on change
/// new ones linked, missing ones unlinked, kept ones keep their link;
/// omitted leaves them; null or `[]` unlinks all. `has_documents` follows.
#[test]
fn document_ids_is_the_full_set_after_the_save() {
    let s = Core::start();
    let a = document(&s, "A");
    let b = document(&s, "B");
    let c = document(&s, "C");
    let made = new_task(&s, json!({"title": "Pay", "document_ids": [a, b]}));
    let t = id(&made);
    assert_eq!(made["has_documents"], true);
    assert_eq!(documents_of(&s, &t), sorted(&[&a, &b]));
    assert_eq!(get_document(&s, &a)["task_ids"], json!([t]));
    let kept = link_id(&s, &b, &t);

    patch_task(&s, &t, json!({"document_ids": [b, c, c]})).expect(200);
    assert_eq!(documents_of(&s, &t), sorted(&[&b, &c]));
    assert_eq!(link_id(&s, &b, &t), kept, "a kept link is the same link");
    assert_eq!(get_document(&s, &a)["task_ids"], json!([]));

    patch_task(&s, &t, json!({"title": "Pay now"})).expect(200);
    assert_eq!(
        documents_of(&s, &t),
        sorted(&[&b, &c]),
        "omitted leaves them"
    );
    assert_eq!(get_task(&s, &t)["has_documents"], true);

    for cleared in [Value::Null, json!([])] {
        patch_task(&s, &t, json!({ "document_ids": [a] })).expect(200);
        let task = patch_task(&s, &t, json!({ "document_ids": cleared }))
            .expect(200)
            .data()
            .clone();
        assert!(documents_of(&s, &t).is_empty(), "{cleared}");
        assert_eq!(task["has_documents"], false, "{cleared}");
        assert_eq!(get_task(&s, &t)["has_documents"], false, "{cleared}");
    }
    let plain = new_task(&s, json!({"title": "No papers"}));
    assert_eq!(plain["has_documents"], false);
    // A link made from the document's side counts too.
    link(&s, &a, "task_id", &id(&plain));
    assert_eq!(get_task(&s, &id(&plain))["has_documents"], true);
}

/// An unknown or deleted document is 422 on `documents` and nothing saves
/// (the task is not made, or keeps its fields and links); not an array of
/// ids is 400 on `document_ids`.
#[test]
fn a_bad_document_id_saves_nothing() {
    let s = Core::start();
    let a = document(&s, "A");
    let gone = document(&s, "Gone");
    s.delete(&format!("/documents/{gone}")).expect(204);
    let t = id(&new_task(&s, json!({"title": "Pay", "document_ids": [a]})));
    let before = get_task(&s, &t);
    let tasks_before = all(&s, "/tasks");
    for ids in [json!([UNKNOWN]), json!([a, gone]), json!([gone])] {
        check(
            &s,
            Call::post(
                "/tasks",
                json!({"task": {"title": "New", "document_ids": ids}}),
            ),
            Expect::invalid("documents"),
        );
        check(
            &s,
            Call::patch(
                format!("/tasks/{t}"),
                json!({"task": {"title": "Changed", "document_ids": ids}}),
            ),
            Expect::invalid("documents"),
        );
    }
    for ids in [
        json!("x"),
        json!(UNKNOWN),
        json!([1]),
        json!(["not-an-id"]),
        json!({}),
    ] {
        check(
            &s,
            Call::patch(
                format!("/tasks/{t}"),
                json!({"task": {"title": "Changed", "document_ids": ids}}),
            ),
            Expect::bad_param(Some("document_ids")),
        );
    }
    assert_eq!(get_task(&s, &t), before);
    assert_eq!(all(&s, "/tasks"), tasks_before);
    assert_eq!(documents_of(&s, &t), [a]);
}

/// Each unused PDF upload in `document_uploads` becomes a document named
/// from its filename and linked to the task, beside `document_ids`' own.
#[test]
fn document_uploads_become_linked_documents() {
    let s = Core::start();
    let bytes = pdf("receipt");
    let size = bytes.len();
    let receipt = upload_bytes(&s, "Receipt 3.pdf", bytes);
    let scan = upload_pdf(&s, "scan.final.pdf");
    let made = new_task(
        &s,
        json!({"title": "Claim", "document_uploads": [receipt, scan]}),
    );
    let t = id(&made);
    assert_eq!(made["has_documents"], true);
    let docs: Vec<Value> = documents_of(&s, &t)
        .iter()
        .map(|d| get_document(&s, d))
        .collect();
    let mut names: Vec<&str> = docs.iter().map(|d| d["name"].as_str().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(names, ["Receipt 3", "scan.final"]);
    let first = docs.iter().find(|d| d["name"] == "Receipt 3").unwrap();
    assert_eq!(first["file"]["filename"], "Receipt 3.pdf");
    assert_eq!(first["file"]["byte_size"], size);
    assert_eq!(first["task_ids"], json!([t]));
    assert_eq!(first["folder_id"], Value::Null);

    // On a change, added to the documents the task has.
    let more = upload_pdf(&s, "More.pdf");
    patch_task(&s, &t, json!({"document_uploads": [more]})).expect(200);
    assert_eq!(documents_of(&s, &t).len(), 3);
    assert_eq!(all(&s, "/documents").len(), 3);
}

/// An upload that is not an unused PDF upload (used, another kind, made
/// up) is 422 on `documents`: no task, no document, and the good uploads
/// sent with it stay unused.
#[test]
fn a_bad_document_upload_saves_nothing() {
    let s = Core::start();
    let good = upload_pdf(&s, "Good.pdf");
    let used = upload_pdf(&s, "Used.pdf");
    s.post("/documents", json!({"document": {"upload": used}}))
        .expect(201);
    let image = upload_image(&s);
    let t = id(&new_task(&s, json!({"title": "Keep"})));
    let before = get_task(&s, &t);
    let documents_before = all(&s, "/documents");
    for bad in [json!(used), json!(image), json!("made-up")] {
        check(
            &s,
            Call::post(
                "/tasks",
                json!({"task": {"title": "New", "document_uploads": [good, bad]}}),
            ),
            Expect::invalid("documents"),
        );
        check(
            &s,
            Call::patch(
                format!("/tasks/{t}"),
                json!({"task": {"title": "Changed", "document_uploads": [good, bad]}}),
            ),
            Expect::invalid("documents"),
        );
    }
    for bad in [json!("x"), json!([7])] {
        check(
            &s,
            Call::patch(
                format!("/tasks/{t}"),
                json!({"task": {"document_uploads": bad}}),
            ),
            Expect::bad_param(Some("document_uploads")),
        );
    }
    assert_eq!(get_task(&s, &t), before);
    assert_eq!(all(&s, "/documents"), documents_before);
    assert_eq!(all(&s, "/tasks").len(), 1);
    // The good upload is still unused.
    let made = new_task(&s, json!({"title": "Now", "document_uploads": [good]}));
    assert_eq!(documents_of(&s, &id(&made)).len(), 1);
}
