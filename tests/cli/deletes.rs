//! Deleting with a safety net (issue 22): on a terminal, a delete that
//! takes other records with it asks first (`--yes` does not; a script,
//! not on a terminal, is never asked), the undo hint names the record by
//! its ID, and `restore` with no argument brings back the last deleted
//! record, or takes the name it had, in every family.

use crate::util::Dir;

fn store() -> Dir {
    let dir = Dir::empty();
    dir.init("Ada", "ada", "London");
    dir
}

/// Adds list `name` with `tasks` tasks in it.
fn list_with_tasks(dir: &Dir, name: &str, tasks: usize) {
    dir.ok(&["lists", "add", name]);
    for n in 0..tasks {
        dir.ok(&["tasks", "add", &format!("Task {n}"), "--list", name]);
    }
}

fn list_names(dir: &Dir) -> Vec<String> {
    dir.json(&["lists"])["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn on_a_terminal_a_delete_that_takes_others_asks_first() {
    let dir = store();
    list_with_tasks(&dir, "Bulk", 3);
    // "n": nothing deleted.
    let out = dir
        .cmd(&["lists", "rm", "Bulk"])
        .stdin("n\n")
        .on_terminal()
        .run();
    assert!(
        out.stdout
            .contains("Delete list Bulk and its 3 tasks? [y/N]"),
        "{out:?}"
    );
    assert!(out.stdout.contains("nothing deleted"), "{out:?}");
    assert_eq!(out.code(), Some(1), "{out:?}");
    assert!(list_names(&dir).contains(&"Bulk".to_owned()));
    // "y": deleted, with the hint naming its ID.
    let out = dir
        .cmd(&["lists", "rm", "Bulk"])
        .stdin("y\n")
        .on_terminal()
        .run();
    assert!(
        out.stdout.contains("Deleted list Bulk and its 3 tasks"),
        "{out:?}"
    );
    assert!(!list_names(&dir).contains(&"Bulk".to_owned()));
    let hint = out
        .stdout
        .split("lists restore ")
        .nth(1)
        .unwrap_or_default();
    assert_eq!(hint.trim().len(), 26, "the hint names the ID: {out:?}");
    dir.ok(&["lists", "restore"]);
    // --yes: not asked.
    let out = dir
        .cmd(&["lists", "rm", "--yes", "Bulk"])
        .on_terminal()
        .run();
    assert!(!out.stdout.contains("[y/N]"), "{out:?}");
    assert!(!list_names(&dir).contains(&"Bulk".to_owned()));
    // An empty list takes nothing with it: not asked.
    dir.ok(&["lists", "add", "Empty"]);
    let out = dir.cmd(&["lists", "rm", "Empty"]).on_terminal().run();
    assert!(!out.stdout.contains("[y/N]"), "{out:?}");
}

#[test]
fn a_script_is_never_asked() {
    let dir = store();
    list_with_tasks(&dir, "Bulk", 2);
    let out = dir.ok(&["lists", "rm", "Bulk"]);
    assert!(!out.stdout.contains("[y/N]") && !out.stderr.contains("[y/N]"));
    assert!(
        out.stdout.contains("Deleted list Bulk and its 2 tasks"),
        "{out:?}"
    );
    // A person with a link, and a project with a task.
    dir.ok(&["people", "add", "Ada", "Lovelace"]);
    dir.ok(&["people", "add", "Byron"]);
    dir.ok(&["people", "link", "Ada Lovelace", "child", "Byron"]);
    let out = dir.ok(&["people", "rm", "Ada", "Lovelace"]);
    assert!(
        out.stdout.contains("Deleted Ada Lovelace and their link"),
        "{out:?}"
    );
    dir.ok(&["projects", "add", "Compiler"]);
    dir.ok(&["tasks", "add", "Write parser", "--project", "Compiler"]);
    let out = dir.ok(&["projects", "rm", "Compiler"]);
    assert!(
        out.stdout
            .contains("Deleted project Compiler and its 1 task"),
        "{out:?}"
    );
}

#[test]
fn restore_takes_no_argument_or_the_name_it_had_in_every_family() {
    let dir = store();
    // No argument: the last deleted record of the family.
    dir.ok(&["lists", "add", "Home"]);
    dir.ok(&["lists", "rm", "Home"]);
    assert_eq!(dir.ok(&["lists", "restore"]).stdout, "Restored list Home\n");
    // The name it had, in any case, and with its words unquoted.
    dir.ok(&["people", "add", "Grace", "Hopper"]);
    dir.ok(&["people", "rm", "Grace", "Hopper"]);
    assert_eq!(
        dir.ok(&["people", "restore", "grace", "hopper"]).stdout,
        "Restored Grace Hopper\n"
    );
    dir.ok(&["tasks", "add", "Buy oat milk"]);
    let listed = dir.json(&["tasks", "inbox"]);
    let id = listed["data"][0]["id"].as_str().unwrap().to_owned();
    dir.ok(&["tasks", "rm", &id]);
    assert_eq!(
        dir.ok(&["tasks", "restore", "Buy oat milk"]).stdout,
        "Restored Buy oat milk\n"
    );
    dir.ok(&["projects", "add", "Compiler"]);
    dir.ok(&["projects", "rm", "Compiler"]);
    assert_eq!(
        dir.ok(&["projects", "restore", "compiler"]).stdout,
        "Restored project Compiler\n"
    );
    dir.ok(&["notes", "add", "Firewood", "--body", "Stack it"]);
    let note = dir.json(&["notes"])["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    dir.ok(&["notes", "rm", &note]);
    assert_eq!(
        dir.ok(&["notes", "restore", "firewood"]).stdout,
        "Restored note Firewood\n"
    );
    // Nothing deleted lately: said plainly.
    let fresh = store();
    let out = fresh.run(&["people", "restore"]);
    assert!(
        out.error().contains("no person was deleted here lately"),
        "{out:?}"
    );
}
