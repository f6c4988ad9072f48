//! What other records' changes do to documents: document 3's Document
//! `updated_at` ("on deleting or restoring a linked record, and on deleting
//! its folder while it is deleted") and ids ("linked live records");
//! DECISIONS-docs.md "Documents"; and document 2's project activity
//! (Projects rule 6: linked live documents at the link's `created_at`).

use serde_json::{Value, json};

use super::{
    KINDS, document, document_with, folder, get_document, link, links_where, record, restore,
    set_document,
};
use crate::common::Core;
use crate::common::fixtures::{all, deletions, id, now_string, records};

/// For a linked note, project, task and person: deleted, its links are
/// hidden (the document drops the id, gets a new `updated_at`, and the
/// link leaves the listing); restored, they are back; deleted for good,
/// they are gone, and nothing comes back. A document not linked to it is
/// untouched.
#[test]
fn a_linked_records_delete_restore_and_permanent_delete() {
    for (collection, field, ids_field) in KINDS {
        let s = Core::start();
        let target = record(&s, collection, "Target");
        let stays = record(&s, collection, "Stays");
        let made = document_with(&s, "Linked", json!({ *ids_field: [target, stays] }));
        let d = id(&made);
        let other = document(&s, "Other");
        let untouched = get_document(&s, &other);
        let link_of_target = made["links"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l[*field] == json!(target))
            .expect("the target's link")
            .clone();

        s.advance(5);
        s.delete(&format!("/{collection}/{target}")).expect(204);
        let hidden = get_document(&s, &d);
        assert_eq!(hidden[*ids_field], json!([stays]), "{collection}");
        assert_eq!(hidden["updated_at"], now_string(&s), "{collection}");
        assert!(
            !hidden["links"]
                .as_array()
                .unwrap()
                .iter()
                .any(|l| l["id"] == link_of_target["id"]),
            "{collection}: {hidden}"
        );
        assert!(
            links_where(&s, &format!("{field}={target}")).is_empty(),
            "{collection}"
        );
        assert_eq!(get_document(&s, &other), untouched, "{collection}");

        s.advance(5);
        restore(&s, collection, &target).expect(200);
        let back = get_document(&s, &d);
        assert_eq!(back[*ids_field], made[*ids_field], "{collection}");
        assert_eq!(back["links"], made["links"], "{collection}");
        assert_eq!(back["updated_at"], now_string(&s), "{collection}");
        assert_eq!(
            links_where(&s, &format!("{field}={target}")),
            vec![json!({
                "id": link_of_target["id"],
                "document_id": d,
                "note_id": link_of_target["note_id"],
                "project_id": link_of_target["project_id"],
                "task_id": link_of_target["task_id"],
                "person_id": link_of_target["person_id"],
                "created_at": made["created_at"],
            })],
            "{collection}"
        );

        s.advance(5);
        s.delete(&format!("/{collection}/{target}")).expect(204);
        s.advance(21);
        let gone = get_document(&s, &d);
        assert_eq!(gone[*ids_field], json!([stays]), "{collection}");
        restore(&s, collection, &target).expect_error(404, "not_found", None);
        let again = get_document(&s, &d);
        assert_eq!(again[*ids_field], json!([stays]), "{collection}");
        assert_eq!(again["links"].as_array().unwrap().len(), 1, "{collection}");
        assert_eq!(
            links_where(&s, &format!("document_id={d}")).len(),
            1,
            "{collection}"
        );
        assert_eq!(get_document(&s, &other), untouched, "{collection}");
    }
}

/// Document 3 ("on deleting its folder while it is deleted") and
/// DECISIONS: a folder whose only document is deleted (restorable) can be
/// deleted; the document then has no folder, and comes back without one.
#[test]
fn a_folder_deleted_while_its_document_is_deleted() {
    let s = Core::start();
    let f = folder(&s, "Bills", None);
    let made = document_with(&s, "Bill", json!({"folder_id": f}));
    let d = id(&made);
    s.advance(2);
    s.delete(&format!("/documents/{d}")).expect(204);
    s.advance(2);
    s.delete(&format!("/folders/{f}")).expect(204);
    assert_eq!(deletions(&s), records(&[("document", &d), ("folder", &f)]));
    s.advance(2);
    let back = restore(&s, "documents", &d).expect(200).data().clone();
    assert_eq!(back["folder_id"], Value::Null);
    assert_eq!(back["updated_at"], now_string(&s));
    assert_eq!(all(&s, "/documents?folder_id=none").len(), 1);
}

/// The entries of a project's feed as (kind, id of its record, at).
#[track_caller]
fn feed(s: &Core, project: &str) -> Vec<(String, String, String)> {
    all(s, &format!("/projects/{project}/activity"))
        .iter()
        .map(|e| {
            let kind = e["kind"].as_str().expect("a kind").to_owned();
            let record = match kind.as_str() {
                "document" => &e["document"],
                "note" => &e["note"],
                "task" => &e["task"],
                "event" => &e["event"],
                _ => &e["project"],
            };
            let at = e["at"].as_str().expect("an at").to_owned();
            (kind, id(record), at)
        })
        .collect()
}

/// Document 2, Projects rule 6: a linked live document is in the project's
/// activity at the link's `created_at` as `{kind: "document", at,
/// document}`; unlinking, or deleting the document, takes it out; restoring
/// the document puts it back at the same time; at one time, documents come
/// before notes.
#[test]
fn a_linked_document_is_in_the_projects_activity() {
    let s = Core::start();
    let p = record(&s, "projects", "Launch");
    let created = s.get(&format!("/projects/{p}")).expect(200).data()["created_at"]
        .as_str()
        .unwrap()
        .to_owned();
    let creation = ("created".to_owned(), p.clone(), created);
    let a = document(&s, "Plan");
    let b = document(&s, "Budget");
    s.advance(60);
    let first = link(&s, &a, "project_id", &p);
    let at_first = first["created_at"].as_str().unwrap().to_owned();
    let entries = all(&s, &format!("/projects/{p}/activity"));
    assert_eq!(entries[0]["kind"], "document");
    assert_eq!(entries[0]["at"], json!(at_first));
    assert_eq!(entries[0]["document"], get_document(&s, &a));

    s.advance(60);
    // Linked through the document, at the same time as a note referencing
    // the project.
    let note = s
        .post(
            "/notes",
            json!({"note": {"body_html": format!("<p>See <span data-project=\"{p}\">^Launch</span></p>")}}),
        )
        .expect(201)
        .data()
        .clone();
    set_document(&s, &b, json!({"project_ids": [p]}));
    let now = now_string(&s);
    assert_eq!(
        feed(&s, &p),
        vec![
            ("document".to_owned(), b.clone(), now.clone()),
            ("note".to_owned(), id(&note), now.clone()),
            ("document".to_owned(), a.clone(), at_first.clone()),
            creation.clone(),
        ]
    );

    s.advance(60);
    s.delete(&format!("/document_links/{}", id(&first)))
        .expect(204);
    s.delete(&format!("/documents/{b}")).expect(204);
    assert_eq!(
        feed(&s, &p),
        vec![
            ("note".to_owned(), id(&note), now.clone()),
            creation.clone()
        ]
    );
    restore(&s, "documents", &b).expect(200);
    assert_eq!(
        feed(&s, &p),
        vec![
            ("document".to_owned(), b.clone(), now.clone()),
            ("note".to_owned(), id(&note), now.clone()),
            creation.clone(),
        ]
    );
    set_document(&s, &b, json!({"project_ids": null}));
    assert_eq!(
        feed(&s, &p),
        vec![("note".to_owned(), id(&note), now), creation]
    );
}
