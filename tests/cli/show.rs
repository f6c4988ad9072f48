//! `organiser tasks show T`: one task whole (issue 7, defect 11).

use crate::util::Dir;

#[test]
fn tasks_show_shows_one_task_whole() {
    let dir = Dir::new();
    dir.ok(&["lists", "add", "Errands"]);
    dir.ok(&[
        "tasks",
        "add",
        "Post the parcel",
        "--list",
        "Errands",
        "--deadline",
        "2099-05-01",
    ]);
    dir.ok(&["tasks", "list", "Errands"]);
    let out = dir.ok(&["tasks", "show", "1"]);
    for (field, value) in [
        ("Title", "Post the parcel"),
        ("Status", "open"),
        ("Home", "Errands"),
        ("Deadline", "2099-05-01"),
    ] {
        let line = out
            .stdout
            .lines()
            .find(|l| l.starts_with(field))
            .unwrap_or_else(|| panic!("no {field}: {}", out.stdout));
        assert!(line.contains(value), "{line}");
    }
    let json = dir.json(&["tasks", "show", "1"]);
    assert_eq!(json["data"]["title"], "Post the parcel");
    dir.run(&["tasks", "show", "nothing-like-it"]).failure(1);
}
