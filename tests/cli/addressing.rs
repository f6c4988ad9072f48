//! Issue 7, defect 6: one addressing rule for every record the CLI names:
//! the row number of the family's last listing, the short ID a table shows,
//! a unique prefix of the ID, or (lists) a unique name; an ambiguity is an
//! error that lists the candidates and changes nothing.

use serde_json::Value;

use crate::tasks::{add, page};
use crate::util::Dir;

fn id(record: &Value) -> String {
    record["id"].as_str().expect("an id").to_owned()
}

fn short(id: &str) -> &str {
    &id[id.len() - 6..]
}

#[test]
fn the_short_id_a_table_shows_names_a_task_after_any_listing() {
    let dir = Dir::new();
    let milk = id(&add(&dir, "Buy milk", &[]));
    let bread = id(&add(&dir, "Buy bread", &[]));
    // The last listing is of lists, not tasks: the short ID still works.
    dir.ok(&["lists"]);
    let out = dir.ok(&["tasks", "done", short(&milk)]);
    assert_eq!(out.stdout, "Completed Buy milk\n");
    // Lower case, as people type it.
    let out = dir.ok(&["tasks", "done", &short(&bread).to_lowercase()]);
    assert_eq!(out.stdout, "Completed Buy bread\n");
}

#[test]
fn a_unique_prefix_names_a_task_and_a_shared_one_lists_the_candidates() {
    let dir = Dir::new();
    let ids: Vec<String> = (1..=3)
        .map(|n| id(&add(&dir, &format!("Task {n}"), &[])))
        .collect();
    // The time part every ID shares, even when the listing shows one.
    dir.ok(&["tasks", "inbox", "--limit", "1"]);
    let out = dir.run(&["tasks", "done", &ids[0][..4]]);
    assert_eq!(out.code(), Some(1), "{out:?}");
    let message = out.error();
    assert!(message.contains("names 3 tasks"), "{message}");
    for (n, id) in ids.iter().enumerate() {
        assert!(message.contains(short(id)), "{message}");
        assert!(message.contains(&format!("Task {}", n + 1)), "{message}");
    }
    assert!(
        page(&dir.json(&["tasks", "inbox"]))
            .iter()
            .all(|t| t["status"] == "open"),
        "an ambiguous reference changed a task"
    );
    // A whole ID less its last character is a unique prefix.
    let out = dir.ok(&["tasks", "done", &ids[1][..25]]);
    assert_eq!(out.stdout, "Completed Task 2\n");
}

#[test]
fn lists_take_the_row_numbers_their_table_shows() {
    let dir = Dir::new();
    for name in ["Work", "Home", "Garden"] {
        dir.ok(&["lists", "add", name]);
    }
    let shown = dir.ok(&["lists"]).stdout;
    let second = shown
        .lines()
        .find(|l| l.trim_start().starts_with("2 "))
        .expect("row 2");
    assert!(second.contains("Home"), "{shown}");
    let out = dir.ok(&["lists", "rename", "2", "House"]);
    assert!(out.stdout.contains("House"), "{out:?}");
    let out = dir.ok(&["tasks", "add", "Weed", "--list", "3"]);
    assert!(out.stdout.starts_with("Added Weed"), "{out:?}");
    let garden = dir.json(&["tasks", "list", "garden"]);
    assert_eq!(page(&garden).len(), 1);
    // A row beyond the listing says so.
    let out = dir.run(&["lists", "rm", "9"]);
    assert!(out.error().contains("no row 9"), "{out:?}");
}

#[test]
fn a_deleted_list_is_restored_by_its_row_or_short_id() {
    let dir = Dir::new();
    let work = id(&dir.json(&["lists", "add", "Work"])["data"]);
    dir.ok(&["lists", "add", "Home"]);
    dir.ok(&["lists"]);
    dir.ok(&["lists", "rm", "1"]);
    let out = dir.ok(&["lists", "restore", "1"]);
    assert_eq!(out.stdout, "Restored list Work\n");
    dir.ok(&["lists", "rm", "work"]);
    // After another listing, by the short ID `rm` was given.
    dir.ok(&["tasks"]);
    let out = dir.ok(&["lists", "restore", short(&work)]);
    assert_eq!(out.stdout, "Restored list Work\n");
    // A live list has nothing to restore.
    let out = dir.ok(&["lists", "restore", &work]);
    assert!(out.stdout.contains("not deleted"), "{out:?}");
}

#[test]
fn a_deleted_task_is_restored_by_its_short_id_after_another_listing() {
    let dir = Dir::new();
    let milk = id(&add(&dir, "Buy milk", &[]));
    dir.ok(&["tasks", "rm", short(&milk)]);
    dir.ok(&["lists"]);
    dir.ok(&["tasks", "planned"]);
    let out = dir.ok(&["tasks", "restore", short(&milk)]);
    assert_eq!(out.stdout, "Restored Buy milk\n");
    // A part of no deleted task's ID says so.
    let out = dir.run(&["tasks", "restore", "ZZZZZZ"]);
    assert!(out.error().contains("ZZZZZZ"), "{out:?}");
}

#[test]
fn a_name_shared_by_two_lists_lists_both() {
    let dir = Dir::new();
    let first = dir.run(&["lists", "add", "Errands"]);
    let second = dir.run(&["lists", "add", "errands"]);
    if second.code() != Some(0) {
        // The core refuses a name already taken: nothing to resolve.
        assert!(first.code() == Some(0));
        return;
    }
    let out = dir.run(&["tasks", "add", "Post", "--list", "ERRANDS"]);
    assert_eq!(out.code(), Some(1), "{out:?}");
    assert!(out.error().contains("names 2 lists"), "{out:?}");
    assert!(out.error().contains("Errands") && out.error().contains("errands"));
}

/// Issue 8: people (and lists) are named by the start of a name when it
/// begins only one; when it begins several, they are listed.
#[test]
fn the_start_of_a_name_names_a_person_when_it_begins_only_one() {
    let dir = Dir::new();
    for name in ["Ada Lovelace", "Adam Smith", "Grace Hopper"] {
        dir.ok(&["people", "add", name]);
    }
    let out = dir.ok(&["people", "show", "grace"]);
    assert!(out.stdout.starts_with("Grace Hopper"), "{out:?}");
    let out = dir.ok(&["people", "show", "ada l"]);
    assert!(out.stdout.starts_with("Ada Lovelace"), "{out:?}");
    let out = dir.run(&["people", "show", "ada"]);
    let message = out.error();
    assert!(message.contains("names 2 people"), "{message}");
    assert!(message.contains("Ada Lovelace") && message.contains("Adam Smith"));
    // A whole name wins over a longer one it begins.
    dir.ok(&["people", "add", "Ada"]);
    let out = dir.ok(&["people", "show", "ADA"]);
    assert_eq!(out.stdout.lines().next(), Some("Ada"), "{out:?}");
    // Lists too.
    dir.ok(&["lists", "add", "Groceries"]);
    let out = dir.ok(&["tasks", "add", "Milk", "--list", "groc"]);
    assert!(out.stdout.starts_with("Added Milk"), "{out:?}");
}
