//! `organiser lists`: the lists with their open counts; add, rename, move,
//! rm (printing how to undo) and restore; `--json` in the API's shape.

use serde_json::Value;

use crate::tasks::{add, list, list_ids, listing, page, record, undo_command};
use crate::util::{Dir, shape};

/// The lists table: the header line, and (name, open count) by row.
#[track_caller]
fn shown(dir: &Dir) -> (String, Vec<(String, String)>) {
    let out = dir.ok(&["lists"]);
    out.assert_no_ansi();
    assert_eq!(out.stderr, "", "{out:?}");
    let table = listing(&out);
    let rows = table
        .rows
        .iter()
        .map(|r| (r["NAME"].clone(), r["OPEN"].clone()))
        .collect();
    (table.header, rows)
}

fn pairs(rows: &[(&str, &str)]) -> Vec<(String, String)> {
    rows.iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

#[test]
fn lists_shows_each_list_with_its_open_count() {
    let dir = Dir::new();
    let (header, rows) = shown(&dir);
    assert!(header.starts_with("Lists"), "{header}");
    assert!(rows.is_empty(), "{rows:?}");

    for name in ["Work", "Home", "Errands"] {
        let out = dir.ok(&["lists", "add", name]);
        assert_eq!(out.stdout, format!("Added list {name}\n"));
    }
    add(&dir, "w1", &["--list", "work"]);
    add(&dir, "w2", &["--list", "work"]);
    add(&dir, "h1", &["--list", "home"]);
    let closed = add(&dir, "h2", &["--list", "home"]);
    dir.ok(&["tasks", "done", closed["id"].as_str().unwrap()]);
    add(&dir, "i1", &[]);

    let (header, rows) = shown(&dir);
    let parts: Vec<&str> = header.split(" · ").collect();
    assert_eq!(parts[0], "Lists", "{header}");
    assert!(parts.contains(&"Inbox 1 open"), "{header}");
    assert!(parts.contains(&"3 lists"), "{header}");
    assert_eq!(
        rows,
        pairs(&[("Work", "2"), ("Home", "1"), ("Errands", "0")])
    );

    // The ID column is the end of each list's ID; # its position.
    let out = dir.ok(&["lists"]);
    let table = listing(&out);
    let value = dir.json(&["lists"]);
    for (row, item) in table.rows.iter().zip(value["data"].as_array().unwrap()) {
        let id = item["id"].as_str().unwrap();
        assert!(id.ends_with(row["ID"].as_str()), "{row:?} {item}");
        assert_eq!(row["#"], item["position"].to_string());
        assert_eq!(row["COLOUR"], item["color"].as_str().unwrap());
    }
}

#[test]
fn lists_json_is_a_page_of_task_lists() {
    let dir = Dir::new();
    dir.ok(&["lists", "add", "Work"]);
    dir.ok(&["lists", "add", "Home"]);
    let value = dir.json(&["lists"]);
    let items = page(&value);
    let names: Vec<&str> = items.iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Work", "Home"]);
    for item in items {
        let keys: Vec<&str> = item
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        for key in [
            "id",
            "name",
            "color",
            "icon",
            "position",
            "created_at",
            "updated_at",
        ] {
            assert!(keys.contains(&key), "{key} in {item}");
        }
    }
    // And the same shape as one list answered by `lists add --json`.
    let made = dir.json(&["lists", "add", "Errands"]);
    assert_eq!(shape(record(&made)), shape(&items[0]));
}

#[test]
fn add_rename_and_move_lists() {
    let dir = Dir::new();
    let made = dir.json(&["lists", "add", "Work", "--color", "blue"]);
    let work = record(&made);
    assert_eq!(work["name"], "Work");
    assert_eq!(work["color"], "blue");
    assert_eq!(work["position"], 1);
    dir.ok(&["lists", "add", "Home"]);
    let top = dir.json(&["lists", "add", "Errands", "--position", "1"]);
    assert_eq!(record(&top)["position"], 1);
    let names = |dir: &Dir| -> Vec<String> { shown(dir).1.into_iter().map(|(n, _)| n).collect() };
    assert_eq!(names(&dir), ["Errands", "Work", "Home"]);

    // A name already taken: one line, nothing added.
    let out = dir.run(&["lists", "add", "work"]);
    assert!(!out.error().is_empty(), "{out:?}");
    assert_eq!(names(&dir).len(), 3);

    // Rename, naming the list in any case.
    let out = dir.ok(&["lists", "rename", "wORK", "Office"]);
    assert_eq!(out.stdout, "Renamed Work to Office\n");
    let renamed = dir.json(&["lists", "rename", "office", "Office 2"]);
    assert_eq!(record(&renamed)["name"], "Office 2");
    assert_eq!(record(&renamed)["id"], work["id"]);
    let out = dir.run(&["lists", "rename", "Nowhere", "X"]);
    assert!(out.error().contains("Nowhere"), "{out:?}");
    let out = dir.run(&["lists", "rename", "home", "Errands"]);
    assert!(!out.error().is_empty(), "{out:?}");

    // Move to a place; its tasks stay with it.
    add(&dir, "at home", &["--list", "home"]);
    let out = dir.ok(&["lists", "move", "home", "1"]);
    assert_eq!(out.stdout, "Moved Home to 1\n");
    assert_eq!(names(&dir), ["Home", "Errands", "Office 2"]);
    let moved = dir.json(&["lists", "move", "Home", "3"]);
    assert_eq!(record(&moved)["position"], 3);
    assert_eq!(names(&dir), ["Errands", "Office 2", "Home"]);
    assert_eq!(list(&dir, &["tasks", "list", "home"]).titles(), ["at home"]);
    let out = dir.run(&["lists", "move", "Attic", "1"]);
    assert!(out.error().contains("Attic"), "{out:?}");
}

#[test]
fn lists_rm_prints_how_to_undo_and_restore_brings_the_list_back() {
    let dir = Dir::new();
    dir.ok(&["lists", "add", "Work"]);
    dir.ok(&["lists", "add", "Home"]);
    add(&dir, "chore", &["--list", "home"]);
    let ids = list_ids(&dir);

    let out = dir.ok(&["lists", "rm", "HOME"]);
    out.assert_no_ansi();
    assert_eq!(out.stdout.lines().count(), 1, "{out:?}");
    assert!(out.stdout.contains("Home"), "{out:?}");
    let undo = undo_command(&out);
    assert_eq!(undo, ["lists", "restore", ids["Home"].as_str()], "{out:?}");
    assert!(!list_ids(&dir).contains_key("Home"));
    // Its tasks went with it.
    assert!(page(&dir.json(&["tasks", "someday"])).is_empty());
    let out = dir.run(&["tasks", "list", "home"]);
    assert!(!out.error().is_empty(), "{out:?}");

    let args: Vec<&str> = undo.iter().map(String::as_str).collect();
    let out = dir.ok(&args);
    assert_eq!(out.stdout, "Restored list Home\n");
    assert_eq!(shown(&dir).1, pairs(&[("Work", "0"), ("Home", "1")]));
    assert_eq!(list(&dir, &["tasks", "list", "home"]).titles(), ["chore"]);

    // --json: rm says what it deleted; restore answers with the list.
    let removed = dir.json(&["lists", "rm", "work"]);
    assert_eq!(
        record(&removed)["deleted"],
        ids["Work"].as_str(),
        "{removed}"
    );
    let restored = dir.json(&["lists", "restore", &ids["Work"]]);
    assert_eq!(record(&restored)["name"], "Work");
    assert_eq!(restored["data"]["position"], 1);
    let listed: Vec<Value> = dir.json(&["lists"])["data"].as_array().unwrap().clone();
    assert_eq!(listed.len(), 2);

    // Unknown lists: one line each.
    let out = dir.run(&["lists", "rm", "Attic"]);
    assert!(out.error().contains("Attic"), "{out:?}");
    let out = dir.run(&["lists", "restore", "01ARZ3NDEKTSV4RRFFQ69G5FAV"]);
    assert!(!out.error().is_empty(), "{out:?}");
}
