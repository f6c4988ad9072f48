//! Changes that change nothing say so (issue 7, defect 10).

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
