//! What a person types and what the CLI says back (issue 7): changes that
//! change nothing say so, titles need no quotes.

use crate::util::Dir;

#[test]
fn a_change_that_changes_nothing_says_what_happened() {
    let dir = Dir::new();
    dir.ok(&["tasks", "add", "Water the plants"]);
    let id = dir.json(&["tasks", "inbox"])["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        dir.ok(&["tasks", "done", &id]).stdout,
        "Completed Water the plants\n"
    );
    assert_eq!(
        dir.ok(&["tasks", "done", &id]).stdout,
        "Already done: Water the plants\n"
    );
    assert_eq!(
        dir.ok(&["tasks", "reopen", &id]).stdout,
        "Reopened Water the plants\n"
    );
    assert_eq!(
        dir.ok(&["tasks", "reopen", &id]).stdout,
        "Already open: Water the plants\n"
    );
    assert_eq!(
        dir.ok(&["tasks", "restore", &id]).stdout,
        "Water the plants is not deleted: nothing to restore\n"
    );
    // --json still answers with the task as it is.
    assert_eq!(
        dir.json(&["tasks", "reopen", &id])["data"]["status"],
        "open"
    );
}

/// Issue 7, defect 11: a title of several words needs no quotes.
#[test]
fn a_title_of_several_words_needs_no_quotes() {
    let dir = Dir::new();
    dir.ok(&[
        "tasks",
        "add",
        "Buy",
        "oat",
        "milk",
        "--deadline",
        "tomorrow",
    ]);
    let task = &dir.json(&["tasks", "inbox"])["data"][0];
    assert_eq!(task["title"], "Buy oat milk");
    assert!(task["deadline_on"].is_string());
    dir.run(&["tasks", "add"]).failure(2);
}

/// Issue 7, defect 10: `lists rm` says how many tasks went with the list.
#[test]
fn lists_rm_says_how_many_tasks_went_with_it() {
    let dir = Dir::new();
    dir.ok(&["lists", "add", "Home"]);
    dir.ok(&["tasks", "add", "sweep", "--list", "Home"]);
    dir.ok(&["tasks", "add", "dust", "--list", "Home"]);
    let out = dir.ok(&["lists", "rm", "Home"]);
    assert!(
        out.stdout.starts_with("Deleted list Home and its 2 tasks."),
        "{}",
        out.stdout
    );
    dir.ok(&["lists", "add", "Empty"]);
    let out = dir.ok(&["lists", "rm", "Empty"]);
    assert!(
        out.stdout
            .starts_with("Deleted list Empty and its 0 tasks."),
        "{}",
        out.stdout
    );
}

/// Issue 7, defect 11: `tasks done 1 2 3` acts on several; a reference that
/// names nothing changes none of them.
#[test]
fn done_acts_on_several_tasks_or_none() {
    let dir = Dir::new();
    for title in ["one", "two", "three"] {
        dir.ok(&["tasks", "add", title]);
    }
    dir.ok(&["tasks", "inbox"]);
    dir.run(&["tasks", "done", "1", "nosuchtask"]).failure(1);
    let open = |dir: &Dir| {
        dir.json(&["tasks", "inbox"])["data"]
            .as_array()
            .unwrap()
            .len()
    };
    assert_eq!(open(&dir), 3, "nothing changed");
    dir.ok(&["tasks", "inbox"]);
    let out = dir.ok(&["tasks", "done", "1", "3"]);
    assert_eq!(out.stdout.lines().count(), 2, "{}", out.stdout);
    assert_eq!(open(&dir), 1);
}
