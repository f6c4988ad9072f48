//! Document 3's DocumentLink and DECISIONS-docs.md "Document links":
//! `GET`, `POST` and `DELETE /document_links`.

use serde_json::{Value, json};

use super::{
    KINDS, LINK_KEYS, assert_listed, document, get_document, link, link_call, links_where, record,
    task_in_deleted_list, text,
};
use crate::common::fixtures::{UNKNOWN, deletions, id, keys, now_string};
use crate::common::{Call, Core, Expect, check};

/// A link to each kind of record: the DocumentLink's fields (the other
/// targets null), the document's new `updated_at` and id arrays, and
/// the link among the document's `links`.
#[test]
fn a_link_names_the_document_and_one_target() {
    let s = Core::start();
    let d = document(&s, "Lease");
    for (collection, field, ids_field) in KINDS {
        let target = record(&s, collection, "Target");
        s.advance(3);
        let made = link(&s, &d, field, &target);
        assert_eq!(keys(&made), LINK_KEYS, "{made}");
        assert_eq!(made["document_id"], json!(d));
        for other in ["note_id", "project_id", "task_id", "person_id"] {
            let wanted = if other == *field {
                json!(target)
            } else {
                Value::Null
            };
            assert_eq!(made[other], wanted, "{collection} {other}");
        }
        assert_eq!(made["created_at"], now_string(&s));
        let doc = get_document(&s, &d);
        assert_eq!(doc["updated_at"], now_string(&s), "{collection}");
        assert_eq!(doc[*ids_field], json!([target]), "{collection}");
        assert!(
            doc["links"]
                .as_array()
                .unwrap()
                .iter()
                .any(|l| l["id"] == made["id"] && l[*field] == json!(target)),
            "{doc}"
        );
    }
}

/// Exactly one target (none or two is 422 on base); an unknown or deleted
/// document or target is 422 on its field; the same pair twice is 422 on
/// base; nothing is linked and the document keeps its `updated_at`.
#[test]
fn a_link_refuses_bad_targets_and_duplicates() {
    let s = Core::start();
    let d = document(&s, "Lease");
    let gone = document(&s, "Gone");
    s.delete(&format!("/documents/{gone}")).expect(204);
    let n = record(&s, "notes", "Note");
    let p = record(&s, "projects", "Project");
    link(&s, &d, "note_id", &n);
    let mut cases = vec![
        (
            link_call(json!({"document_id": d})),
            Expect::invalid("base"),
        ),
        (
            link_call(json!({"document_id": d, "note_id": null, "task_id": null})),
            Expect::invalid("base"),
        ),
        (
            link_call(json!({"document_id": d, "note_id": n, "project_id": p})),
            Expect::invalid("base"),
        ),
        (
            link_call(json!({"document_id": d, "note_id": n})),
            Expect::invalid("base"),
        ),
        (
            link_call(json!({"note_id": n})),
            Expect::invalid("document_id"),
        ),
        (
            link_call(json!({"document_id": UNKNOWN, "project_id": p})),
            Expect::invalid("document_id"),
        ),
        (
            link_call(json!({"document_id": "nope", "project_id": p})),
            Expect::invalid("document_id"),
        ),
        (
            link_call(json!({"document_id": gone, "project_id": p})),
            Expect::invalid("document_id"),
        ),
        (
            link_call(json!({"document_id": d, "task_id": task_in_deleted_list(&s)})),
            Expect::invalid("task_id"),
        ),
    ];
    for (collection, field, _) in KINDS {
        let deleted = record(&s, collection, "Deleted");
        s.delete(&format!("/{collection}/{deleted}")).expect(204);
        for target in [json!(UNKNOWN), json!("nope"), json!(deleted)] {
            cases.push((
                link_call(json!({"document_id": d, *field: target})),
                Expect::invalid(field),
            ));
        }
    }
    s.advance(5);
    let before = get_document(&s, &d);
    let listed = links_where(&s, "");
    for (call, expected) in cases {
        check(&s, call, expected);
    }
    assert_eq!(get_document(&s, &d), before);
    assert_eq!(links_where(&s, ""), listed);
}

/// DELETE is permanent, writes no deletion record, and gives the document
/// a new `updated_at`; a second DELETE is 404.
#[test]
fn an_unlink_is_permanent_and_moves_the_document() {
    let s = Core::start();
    let d = document(&s, "Lease");
    let p = record(&s, "projects", "House");
    let made = link(&s, &d, "project_id", &p);
    let l = id(&made);
    s.advance(5);
    s.delete(&format!("/document_links/{l}")).expect(204);
    let doc = get_document(&s, &d);
    assert_eq!(doc["updated_at"], now_string(&s));
    assert_eq!(doc["project_ids"], json!([]));
    assert_eq!(doc["links"], json!([]));
    assert!(deletions(&s).is_empty(), "links are not synced");
    assert!(links_where(&s, "").is_empty());
    s.delete(&format!("/document_links/{l}"))
        .expect_error(404, "not_found", None);
    s.delete(&format!("/document_links/{UNKNOWN}"))
        .expect_error(404, "not_found", None);
    // Linked again: a new link.
    let again = link(&s, &d, "project_id", &p);
    assert_ne!(id(&again), l);
}

/// The listing: every link by id, filtered by the document or by each
/// target, a page of one at a time; a bad filter or order is 400.
#[test]
fn the_listing_filters_by_document_and_target() {
    let s = Core::start();
    let a = document(&s, "A");
    let b = document(&s, "B");
    let n = record(&s, "notes", "Note");
    let p = record(&s, "projects", "Project");
    let t = record(&s, "tasks", "Task");
    let ada = record(&s, "people", "Ada");
    let mut every = Vec::new();
    for (d, field, target) in [
        (&a, "note_id", &n),
        (&b, "note_id", &n),
        (&a, "project_id", &p),
        (&b, "task_id", &t),
        (&a, "person_id", &ada),
    ] {
        every.push(id(&link(&s, d, field, target)));
        s.advance(1);
    }
    let pick =
        |which: &[usize]| -> Vec<String> { which.iter().map(|i| every[*i].clone()).collect() };
    for (query, wanted) in [
        (String::new(), pick(&[0, 1, 2, 3, 4])),
        ("order=id".to_owned(), pick(&[0, 1, 2, 3, 4])),
        (format!("document_id={a}"), pick(&[0, 2, 4])),
        (format!("document_id={b}"), pick(&[1, 3])),
        (format!("note_id={n}"), pick(&[0, 1])),
        (format!("project_id={p}"), pick(&[2])),
        (format!("task_id={t}"), pick(&[3])),
        (format!("person_id={ada}"), pick(&[4])),
        (format!("document_id={a}&note_id={n}"), pick(&[0])),
        (format!("document_id={UNKNOWN}"), vec![]),
    ] {
        assert_listed(&s, &format!("/document_links?{query}"), &wanted);
    }
    let links = links_where(&s, &format!("document_id={a}"));
    assert_eq!(text(&links[0], "document_id"), a);
    for bad in ["order=name", "count=maybe", "document_id=nope", "limit=x"] {
        check(
            &s,
            Call::get(format!("/document_links?{bad}")),
            Expect::bad_param(None),
        );
    }
}
