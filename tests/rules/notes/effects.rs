//! What other records' changes do to the notes naming them: document 3's
//! person delete and restore table and "Note" `updated_at`; document 2's
//! Projects rules 3 to 6, "Categories" and "Tags"; DECISIONS-notes.md
//! "Other records" and "Body format". A mentioned person or referenced
//! project renamed, deleted, restored or gone for good; a category
//! deleted; a tag renamed, merged or deleted: each gives the notes a new
//! `updated_at` but never a new `edited_at` or `edit_version`. And the
//! project's activity lists the live notes referencing it.

use serde_json::{Value, json};

use super::{
    category, get_note, mention, new_note, note_with_body, project, reference, rename_person,
    rename_project, restore, set_note, summary, tag_id, tags, text,
};
use crate::common::Core;
use crate::common::fixtures::{
    START, all, deletions, id, ids, keys, new_task, now_string, person, records,
};

/// The note was changed by something else: a new `updated_at` (now), the
/// edit stamps of `before` kept.
#[track_caller]
fn assert_touched(s: &Core, note: &Value, before: &Value) {
    assert_eq!(note["updated_at"], now_string(s), "{note}");
    assert_eq!(note["edited_at"], before["edited_at"], "{note}");
    assert_eq!(note["edit_version"], before["edit_version"], "{note}");
}

/// Document 3 "Person delete and restore" and DECISIONS "Other records":
/// a rename refreshes the mention (body, `body_text`, `name`, `excerpt`,
/// search); a delete drops the person from `person_ids` and the filter; a
/// restoration brings the mention back; 20 seconds after a delete the
/// mention is plain text `@Name`. Each gives a new `updated_at`, never a
/// new `edited_at` or `edit_version`; a note not mentioning the person is
/// untouched.
#[test]
fn a_mentioned_persons_rename_delete_restore_and_permanent_delete() {
    let s = Core::start();
    let ada = person(&s, "Ada");
    let bob = person(&s, "Bob");
    let made = note_with_body(
        &s,
        &format!(
            "<p>Ask {} and {}</p>",
            mention(&ada, "@Ada"),
            mention(&bob, "@Bob")
        ),
    );
    let n = id(&made);
    let other = new_note(
        &s,
        json!({"title": "Untouched", "body_html": "<p>plain</p>"}),
    );

    s.advance(10);
    rename_person(&s, &ada, "Ada King");
    let renamed = get_note(&s, &n);
    assert_touched(&s, &renamed, &made);
    assert_eq!(renamed["body_text"], "Ask @Ada King and @Bob");
    assert_eq!(renamed["name"], "Ask @Ada King and @Bob");
    assert!(
        text(&renamed, "body_html").contains(&format!("data-mention=\"{ada}\">@Ada King</span>")),
        "{renamed}"
    );
    let mut both = vec![ada.clone(), bob.clone()];
    both.sort();
    assert_eq!(renamed["person_ids"], json!(both));
    assert_eq!(summary(&s, &n)["excerpt"], "Ask @Ada King and @Bob");
    assert_eq!(ids(&s, "/notes?q=king"), [n.as_str()]);
    assert_eq!(get_note(&s, &id(&other)), other);

    s.advance(10);
    s.delete(&format!("/people/{ada}")).expect(204);
    let deleted = get_note(&s, &n);
    assert_touched(&s, &deleted, &made);
    assert_eq!(deleted["person_ids"], json!([bob]));
    assert_eq!(deleted["body_text"], "Ask @Ada King and @Bob");
    assert!(ids(&s, &format!("/notes?person_id={ada}")).is_empty());
    assert_eq!(get_note(&s, &id(&other)), other);

    s.advance(10);
    restore(&s, "people", &ada).expect(200);
    let back = get_note(&s, &n);
    assert_touched(&s, &back, &made);
    assert_eq!(back["person_ids"], json!(both));
    assert_eq!(back["body_html"], renamed["body_html"]);
    assert_eq!(ids(&s, &format!("/notes?person_id={ada}")), [n.as_str()]);

    s.advance(10);
    s.delete(&format!("/people/{ada}")).expect(204);
    s.advance(20);
    let gone = get_note(&s, &n);
    assert_touched(&s, &gone, &made);
    let html = text(&gone, "body_html");
    assert!(!html.contains(&ada), "{html}");
    assert!(html.contains("@Ada King"), "{html}");
    assert!(html.contains(&format!("data-mention=\"{bob}\"")), "{html}");
    assert_eq!(gone["body_text"], "Ask @Ada King and @Bob");
    assert_eq!(gone["person_ids"], json!([bob]));
    restore(&s, "people", &ada).expect_error(404, "not_found", None);
    assert_eq!(get_note(&s, &id(&other)), other);
    // The plain text stays plain when the body is sent back.
    s.advance(1);
    assert_eq!(
        set_note(&s, &n, json!({"body_html": gone["body_html"]})),
        gone
    );
}

/// Projects rules 3 to 5 and DECISIONS "Other records": the same for a
/// referenced project, with `^`.
#[test]
fn a_referenced_projects_rename_delete_restore_and_permanent_delete() {
    let s = Core::start();
    let orchard = project(&s, "Orchard");
    let shed = project(&s, "Shed");
    let made = note_with_body(
        &s,
        &format!(
            "<p>Plan {} and {}</p>",
            reference(&orchard, "^Orchard"),
            reference(&shed, "^Shed")
        ),
    );
    let n = id(&made);
    let other = new_note(
        &s,
        json!({"title": "Untouched", "body_html": "<p>plain</p>"}),
    );

    s.advance(10);
    rename_project(&s, &orchard, "Big Orchard");
    let renamed = get_note(&s, &n);
    assert_touched(&s, &renamed, &made);
    assert_eq!(renamed["body_text"], "Plan ^Big Orchard and ^Shed");
    assert_eq!(renamed["name"], "Plan ^Big Orchard and ^Shed");
    assert!(
        text(&renamed, "body_html")
            .contains(&format!("data-project=\"{orchard}\">^Big Orchard</span>")),
        "{renamed}"
    );
    let mut both = vec![orchard.clone(), shed.clone()];
    both.sort();
    assert_eq!(renamed["project_ids"], json!(both));
    assert_eq!(summary(&s, &n)["excerpt"], "Plan ^Big Orchard and ^Shed");
    assert_eq!(ids(&s, "/notes?q=big"), [n.as_str()]);
    assert_eq!(get_note(&s, &id(&other)), other);

    s.advance(10);
    s.delete(&format!("/projects/{orchard}")).expect(204);
    let deleted = get_note(&s, &n);
    assert_touched(&s, &deleted, &made);
    assert_eq!(deleted["project_ids"], json!([shed]));
    assert_eq!(deleted["body_text"], "Plan ^Big Orchard and ^Shed");
    assert!(ids(&s, &format!("/notes?project_id={orchard}")).is_empty());

    s.advance(10);
    restore(&s, "projects", &orchard).expect(200);
    let back = get_note(&s, &n);
    assert_touched(&s, &back, &made);
    assert_eq!(back["project_ids"], json!(both));
    assert_eq!(back["body_html"], renamed["body_html"]);
    assert_eq!(
        ids(&s, &format!("/notes?project_id={orchard}")),
        [n.as_str()]
    );

    s.advance(10);
    s.delete(&format!("/projects/{orchard}")).expect(204);
    s.advance(20);
    let gone = get_note(&s, &n);
    assert_touched(&s, &gone, &made);
    let html = text(&gone, "body_html");
    assert!(!html.contains(&orchard), "{html}");
    assert!(html.contains("^Big Orchard"), "{html}");
    assert!(html.contains(&format!("data-project=\"{shed}\"")), "{html}");
    assert_eq!(gone["body_text"], "Plan ^Big Orchard and ^Shed");
    assert_eq!(gone["project_ids"], json!([shed]));
    restore(&s, "projects", &orchard).expect_error(404, "not_found", None);
    assert_eq!(get_note(&s, &id(&other)), other);
    s.advance(1);
    assert_eq!(
        set_note(&s, &n, json!({"body_html": gone["body_html"]})),
        gone
    );
}

/// "Categories" and DECISIONS "Categories": deleting a category leaves
/// its notes uncategorised, the live ones with a new `updated_at` (not a
/// new `edited_at`); a deleted note restored afterwards has no category;
/// notes of other categories are untouched.
#[test]
fn a_deleted_category_leaves_its_notes_uncategorised() {
    let s = Core::start();
    let garden = category(&s, "Garden");
    let home = category(&s, "Home");
    let live = new_note(&s, json!({"title": "Live", "category_id": garden}));
    let other = new_note(&s, json!({"title": "Other", "category_id": home}));
    let deleted = id(&new_note(
        &s,
        json!({"title": "Deleted", "category_id": garden}),
    ));
    s.delete(&format!("/notes/{deleted}")).expect(204);
    s.advance(5);
    s.delete(&format!("/categories/{garden}")).expect(204);
    let now = get_note(&s, &id(&live));
    assert_touched(&s, &now, &live);
    assert_eq!(now["category_id"], Value::Null);
    assert_eq!(get_note(&s, &id(&other)), other);
    assert!(ids(&s, &format!("/notes?category_id={garden}")).is_empty());
    let back = restore(&s, "notes", &deleted).expect(200).data().clone();
    assert_eq!(back["category_id"], Value::Null);
    assert_eq!(back["edited_at"], START);
    assert_eq!(deletions(&s), records(&[("category", &garden)]));
}

/// "Tags" and DECISIONS "Body format": renaming a tag rewrites every body
/// that has it (the span, `body_text`, `name`, `excerpt`, search) with a
/// new `updated_at` and the edit stamps kept; other notes are untouched.
#[test]
fn a_renamed_tag_is_renamed_in_every_body() {
    let s = Core::start();
    let a = note_with_body(&s, "<p>Dig the #garden today</p>");
    let b = new_note(
        &s,
        json!({"title": "B", "body_html": "<p>#GARDEN and #roses</p>"}),
    );
    let c = note_with_body(&s, "<p>#roses only</p>");
    let garden = tag_id(&s, "garden");
    s.advance(10);
    let renamed = s
        .patch(
            &format!("/tags/{garden}"),
            json!({"tag": {"name": "Kitchen Garden"}}),
        )
        .expect(200);
    assert_eq!(renamed.data()["name"], "Kitchen-Garden");
    let now_a = get_note(&s, &id(&a));
    assert_touched(&s, &now_a, &a);
    assert_eq!(now_a["body_text"], "Dig the #Kitchen-Garden today");
    assert_eq!(now_a["name"], "Dig the #Kitchen-Garden today");
    assert_eq!(now_a["tag_ids"], json!([garden]));
    let html = text(&now_a, "body_html");
    assert!(
        html.contains(&format!("data-tag=\"{garden}\">#Kitchen-Garden</span>")),
        "{html}"
    );
    assert!(!html.contains("#garden"), "{html}");
    assert_eq!(
        summary(&s, &id(&a))["excerpt"],
        "Dig the #Kitchen-Garden today"
    );
    let now_b = get_note(&s, &id(&b));
    assert_touched(&s, &now_b, &b);
    assert_eq!(now_b["body_text"], "#Kitchen-Garden and #roses");
    assert_eq!(get_note(&s, &id(&c)), c);
    let mut found = ids(&s, "/notes?q=kitchen");
    found.sort();
    assert_eq!(found, [id(&a), id(&b)]);
}

/// "Tags" and DECISIONS "Body format": merging a tag gives its notes the
/// surviving tag (id and name; once in `tag_ids` when a note had both)
/// with a new `updated_at`; other notes are untouched.
#[test]
fn a_merged_tag_is_replaced_in_every_body() {
    let s = Core::start();
    let a = note_with_body(&s, "<p>#weeds in the bed</p>");
    let b = note_with_body(&s, "<p>#weeds and #garden</p>");
    let c = note_with_body(&s, "<p>#garden only</p>");
    let weeds = tag_id(&s, "weeds");
    let garden = tag_id(&s, "garden");
    s.advance(10);
    s.post(
        &format!("/tags/{weeds}/merge"),
        json!({ "into_id": garden }),
    )
    .expect(200);
    let now_a = get_note(&s, &id(&a));
    assert_touched(&s, &now_a, &a);
    assert_eq!(now_a["tag_ids"], json!([garden]));
    assert_eq!(now_a["body_text"], "#garden in the bed");
    let html = text(&now_a, "body_html");
    assert!(
        html.contains(&format!("data-tag=\"{garden}\">#garden</span>")),
        "{html}"
    );
    assert!(!html.contains(&weeds), "{html}");
    let now_b = get_note(&s, &id(&b));
    assert_touched(&s, &now_b, &b);
    assert_eq!(now_b["tag_ids"], json!([garden]));
    assert_eq!(now_b["body_text"], "#garden and #garden");
    assert_eq!(get_note(&s, &id(&c)), c);
    assert!(ids(&s, &format!("/notes?tag_id={weeds}")).is_empty());
    assert_eq!(ids(&s, &format!("/notes?tag_id={garden}")).len(), 3);
}

/// "Tags" and DECISIONS "Body format": a deleted tag's spans become plain
/// text `name`, without `#`, so the text is not read as a tag again; the
/// notes get a new `updated_at`; other notes are untouched.
#[test]
fn a_deleted_tag_becomes_plain_text_in_every_body() {
    let s = Core::start();
    let a = note_with_body(&s, "<p>Dig the #garden today</p>");
    let b = note_with_body(&s, "<p>#garden and #roses</p>");
    let c = note_with_body(&s, "<p>#roses only</p>");
    let garden = tag_id(&s, "garden");
    let roses = tag_id(&s, "roses");
    s.advance(10);
    s.delete(&format!("/tags/{garden}")).expect(204);
    let now_a = get_note(&s, &id(&a));
    assert_touched(&s, &now_a, &a);
    assert_eq!(now_a["tag_ids"], json!([]));
    assert_eq!(now_a["body_text"], "Dig the garden today");
    assert_eq!(now_a["name"], "Dig the garden today");
    assert!(!text(&now_a, "body_html").contains("data-tag"), "{now_a}");
    let now_b = get_note(&s, &id(&b));
    assert_touched(&s, &now_b, &b);
    assert_eq!(now_b["tag_ids"], json!([roses]));
    assert_eq!(now_b["body_text"], "garden and #roses");
    assert_eq!(get_note(&s, &id(&c)), c);
    s.advance(1);
    assert_eq!(
        set_note(&s, &id(&a), json!({"body_html": now_a["body_html"]})),
        now_a
    );
    let names: Vec<String> = tags(&s).iter().map(|t| text(t, "name")).collect();
    assert_eq!(names, ["roses"]);
}

/// An activity entry as (kind, the id of its record).
fn entry(e: &Value) -> (String, String) {
    let kind = e["kind"].as_str().expect("a kind");
    let record = match kind {
        "note" => &e["note"],
        "task" => &e["task"],
        "event" => &e["event"],
        "created" => &e["project"],
        other => panic!("an entry of kind {other}: {e}"),
    };
    (kind.to_owned(), id(record))
}

/// `(kind, id)`, to compare with [`entry`].
fn of(kind: &str, record: &str) -> (String, String) {
    (kind.to_owned(), record.to_owned())
}

/// Projects rule 6 and DECISIONS "Other records": the activity holds
/// `{kind: "note", at: created_at, note: NoteSummary}` for each live note
/// referencing the project, newest first; at one instant tasks come before
/// notes and notes before the creation, two notes newest id first; a note
/// that no longer references it, a deleted note and other projects' notes
/// are not in it; a restored note is again.
#[test]
fn the_projects_activity_lists_the_notes_referencing_it() {
    let s = Core::start();
    let p = project(&s, "Orchard");
    let elsewhere = project(&s, "Shed");
    let refers = |project: &str| format!("<p>On {}</p>", reference(project, "^x"));
    let early = id(&note_with_body(&s, &refers(&p)));
    let task = id(&new_task(
        &s,
        json!({"title": "done", "project_id": p, "status": "completed"}),
    ));
    s.advance(60);
    let first = id(&note_with_body(&s, &refers(&p)));
    let second = id(&note_with_body(&s, &refers(&p)));
    note_with_body(&s, &refers(&elsewhere));
    note_with_body(&s, "<p>no reference</p>");
    let dropped = id(&note_with_body(&s, &refers(&p)));
    set_note(&s, &dropped, json!({"body_html": "<p>not any more</p>"}));
    let deleted = id(&note_with_body(&s, &refers(&p)));
    s.delete(&format!("/notes/{deleted}")).expect(204);
    s.advance(60);
    set_note(&s, &first, json!({"title": "Edited later"}));

    let path = format!("/projects/{p}/activity");
    let feed = all(&s, &path);
    let listed: Vec<(String, String)> = feed.iter().map(entry).collect();
    assert_eq!(
        listed,
        [
            of("note", &second),
            of("note", &first),
            of("task", &task),
            of("note", &early),
            of("created", &p),
        ]
    );
    for e in feed.iter().filter(|e| e["kind"] == "note") {
        assert_eq!(keys(e), ["at", "kind", "note"]);
        let note = id(&e["note"]);
        let item = summary(&s, &note);
        assert_eq!(e["at"], item["created_at"], "at the note's creation");
        assert_eq!(e["note"], item);
    }
    s.delete(&format!("/notes/{first}")).expect(204);
    assert!(!all(&s, &path).iter().map(entry).any(|e| e.1 == first));
    restore(&s, "notes", &first).expect(200);
    let again: Vec<(String, String)> = all(&s, &path).iter().map(entry).collect();
    assert_eq!(again, listed);
}
