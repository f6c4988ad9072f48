//! The index follows the store: a rename, delete, restore, permanent
//! delete, or a person's, project's or list's cascade changes what search
//! finds in the same request; the notes' and documents' `q` read the same
//! index; and an index that is removed or damaged is rebuilt when the
//! store opens.

use std::sync::Arc;

use serde_json::json;

use super::{folder, found, list, note, person, project, task};
use crate::common::Core;
use crate::common::fixtures::all;

#[test]
fn renames_are_found_at_once() {
    let s = Core::start();
    let p = person(&s, json!({"name": "Ada Byron"}));
    let t = task(&s, json!({"title": "Draft letter"}));
    let l = list(&s, "Errands");
    let f = folder(&s, json!({"name": "Bills"}));
    for (path, change) in [
        (
            format!("/people/{p}"),
            json!({"person": {"name": "Ada Lovelace"}}),
        ),
        (
            format!("/tasks/{t}"),
            json!({"task": {"title": "Send letter"}}),
        ),
        (
            format!("/task_lists/{l}"),
            json!({"task_list": {"name": "Chores"}}),
        ),
        (
            format!("/folders/{f}"),
            json!({"folder": {"name": "Invoices"}}),
        ),
    ] {
        s.patch(&path, change).expect(200);
    }
    for (kind, old, new, title) in [
        ("person", "byron", "lovelace", "Ada Lovelace"),
        ("task", "draft", "send", "Send letter"),
        ("task_list", "errands", "chores", "Chores"),
        ("folder", "bills", "invoices", "Invoices"),
    ] {
        assert!(found(&s, kind, old).is_empty(), "{kind} {old}");
        assert_eq!(found(&s, kind, new), [title], "{kind} {new}");
    }
    // A person's new email and phone number are found too.
    s.patch(
        &format!("/people/{p}"),
        json!({"person": {"email_addresses": [{"address": "ada@engine.org"}],
                          "phone_numbers": [{"number": "0161 496 0000"}]}}),
    )
    .expect(200);
    assert_eq!(found(&s, "person", "engine.org"), ["Ada Lovelace"]);
    assert_eq!(found(&s, "person", "496 0000"), ["Ada Lovelace"]);
    // A renamed person's notes are found by the new name.
    note(
        &s,
        json!({"title": "Minutes", "body_html": format!("<p><span data-mention=\"{p}\">@Ada Lovelace</span></p>")}),
    );
    s.patch(
        &format!("/people/{p}"),
        json!({"person": {"name": "Augusta King"}}),
    )
    .expect(200);
    assert_eq!(found(&s, "note", "augusta"), ["Minutes"]);
    assert!(found(&s, "note", "lovelace").is_empty());
}

#[test]
fn deletes_restores_and_permanent_deletes_are_followed() {
    let s = Core::start();
    let p = person(&s, json!({"name": "Ada Byron"}));
    let pr = project(&s, json!({"name": "Engine"}));
    let n = note(&s, json!({"title": "Engine notes"}));
    let t = task(&s, json!({"title": "Engine oil"}));
    let d = super::document(&s, "Engine manual");
    let l = list(&s, "Engine parts");
    let records = [
        ("people", &p),
        ("projects", &pr),
        ("notes", &n),
        ("tasks", &t),
        ("documents", &d),
        ("task_lists", &l),
    ];
    for (collection, id) in records {
        s.delete(&format!("/{collection}/{id}")).expect(204);
    }
    let everything = |s: &Core| {
        super::groups(s, "q=engine%20ada&types=person")
            .into_iter()
            .chain(super::groups(
                s,
                "q=engine&types=project,note,task,document,task_list",
            ))
            .flat_map(|(_, t)| t)
            .count()
    };
    assert_eq!(everything(&s), 0);
    for (collection, id) in records {
        s.post(&format!("/{collection}/{id}/restoration"), json!({}))
            .expect(200);
    }
    assert_eq!(found(&s, "person", "ada"), ["Ada Byron"]);
    assert_eq!(everything(&s), 5);
    // Deleted again and left past the restore window: gone for good.
    for (collection, id) in [
        ("people", &p),
        ("projects", &pr),
        ("tasks", &t),
        ("task_lists", &l),
    ] {
        s.delete(&format!("/{collection}/{id}")).expect(204);
    }
    s.advance(30);
    assert!(found(&s, "person", "ada").is_empty());
    assert_eq!(found(&s, "note", "engine"), ["Engine notes"]);
    assert_eq!(found(&s, "document", "engine"), ["Engine manual"]);
    assert!(found(&s, "task", "engine").is_empty());
    // A folder's delete is permanent at once.
    let f = folder(&s, json!({"name": "Engine drawings"}));
    assert_eq!(found(&s, "folder", "engine"), ["Engine drawings"]);
    s.delete(&format!("/folders/{f}")).expect(204);
    assert!(found(&s, "folder", "engine").is_empty());
}

#[test]
fn cascades_of_lists_people_and_projects_are_followed() {
    let s = Core::start();
    let l = list(&s, "Errands");
    let p = person(&s, json!({"name": "Ada Byron"}));
    let pr = project(&s, json!({"name": "Engine"}));
    task(&s, json!({"title": "Cascade in list", "task_list_id": l}));
    task(&s, json!({"title": "Cascade of person", "person_id": p}));
    task(&s, json!({"title": "Cascade of project", "project_id": pr}));
    task(&s, json!({"title": "Cascade in the inbox"}));
    let all = [
        "Cascade in the inbox",
        "Cascade of project",
        "Cascade of person",
        "Cascade in list",
    ];
    assert_eq!(found(&s, "task", "cascade"), all);
    for (collection, id, left) in [
        ("task_lists", &l, &all[..3]),
        ("people", &p, &all[..2]),
        ("projects", &pr, &all[..1]),
    ] {
        s.delete(&format!("/{collection}/{id}")).expect(204);
        assert_eq!(found(&s, "task", "cascade"), left, "{collection}");
    }
    for collection_id in [("projects", &pr), ("people", &p), ("task_lists", &l)] {
        s.post(
            &format!("/{}/{}/restoration", collection_id.0, collection_id.1),
            json!({}),
        )
        .expect(200);
    }
    assert_eq!(found(&s, "task", "cascade"), all);
}

#[test]
fn the_notes_and_documents_q_read_the_index() {
    let s = Core::start();
    note(
        &s,
        json!({"title": "Garden plan", "body_html": "<p>Roses and tulips</p>"}),
    );
    note(&s, json!({"title": "Shopping"}));
    super::document(&s, "Garden deeds");
    super::document(&s, "Tax return");
    let names = |path: &str| -> Vec<String> {
        all(&s, path)
            .iter()
            .map(|d| d["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(names("/notes?q=tul%20gard"), ["Garden plan"]);
    assert_eq!(names("/notes?q=gard"), ["Garden plan"]);
    assert!(names("/notes?q=gardne").is_empty());
    assert_eq!(names("/documents?q=gard"), ["Garden deeds"]);
    assert_eq!(names("/documents?q=DEEDS"), ["Garden deeds"]);
}

/// A store in a directory, with the index's tables reachable by redb.
fn open(
    dir: &std::path::Path,
    clock: &organiser::clock::ManualClock,
    key: &organiser::data::SecretKey,
) -> organiser::Organiser {
    let options = organiser::Options {
        clock: Arc::new(clock.clone()),
        secret_key: Some(key.clone()),
        ..organiser::Options::default()
    };
    organiser::Organiser::open_with(dir, options).unwrap()
}

fn names(org: &organiser::Organiser, q: &str) -> Vec<String> {
    org.search()
        .find(&organiser::search::SearchQuery::new(q))
        .unwrap()
        .into_iter()
        .flat_map(|g| g.results)
        .map(|r| r.title)
        .collect()
}

#[test]
fn a_removed_or_damaged_index_is_rebuilt_when_the_store_opens() {
    use redb::{ReadableTable, TableDefinition};
    type Table = TableDefinition<'static, &'static [u8], &'static [u8]>;
    let dir = tempfile::tempdir().unwrap();
    let clock = organiser::clock::ManualClock::at("2026-03-10T09:00:00Z");
    let key = organiser::data::SecretKey::generate();
    let org = open(dir.path(), &clock, &key);
    let core = Core::over(org, clock.clone());
    person(
        &core,
        json!({"name": "Ada Byron", "phone_numbers": [{"number": "555 0101"}]}),
    );
    task(&core, json!({"title": "Engine oil"}));
    note(&core, json!({"title": "Engine notes"}));
    let wanted = ["Ada Byron"];
    assert_eq!(names(&core.org, "ada"), wanted);
    drop(core);
    let file = dir.path().join(organiser::data::STORE_FILE);
    type Damage = fn(&redb::WriteTransaction);
    let damages: [(&str, Damage); 4] = [
        ("the postings removed", |tx| {
            tx.delete_table(Table::new("search_postings")).unwrap();
        }),
        ("every table of the index removed", |tx| {
            for t in [
                "search_postings",
                "search_docs",
                "search_order",
                "search_fresh",
                "search_meta",
            ] {
                tx.delete_table(Table::new(t)).unwrap();
            }
        }),
        ("a block of postings lost", |tx| {
            let mut t = tx.open_table(Table::new("search_postings")).unwrap();
            let first = t.first().unwrap().unwrap().0.value().to_vec();
            t.remove(first.as_slice()).unwrap();
        }),
        ("the lexicon garbled", |tx| {
            let mut t = tx.open_table(Table::new("search_meta")).unwrap();
            t.insert(b"lexicon".as_slice(), b"not an fst".as_slice())
                .unwrap();
        }),
    ];
    for (what, damage) in damages {
        {
            let db = redb::Database::open(&file).unwrap();
            let tx = db.begin_write().unwrap();
            damage(&tx);
            tx.commit().unwrap();
        }
        let org = open(dir.path(), &clock, &key);
        assert_eq!(names(&org, "ada"), wanted, "{what}");
        assert_eq!(names(&org, "0101"), wanted, "{what}");
        assert_eq!(
            names(&org, "engine"),
            ["Engine notes", "Engine oil"],
            "{what}"
        );
        assert_eq!(names(&org, "engnie"), ["Engine oil"], "{what}");
    }
}
