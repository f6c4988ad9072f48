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

/// Instants are shown in the owner's zone, to the minute, with the
/// configuration's `date_format` (issue 22): never raw UTC.
#[test]
fn times_are_local_to_the_owner() {
    let dir = Dir::empty();
    let at = |cmd: crate::util::Cmd| cmd.env("ORGANISER_NOW", "2026-11-27T06:45:10.876Z");
    at(dir.cmd(&[
        "init",
        "--name",
        "Ada",
        "--username",
        "ada",
        "--time-zone",
        "Paris",
    ]))
    .run()
    .success();
    at(dir.cmd(&["tasks", "add", "Post the parcel"]))
        .run()
        .success();
    at(dir.cmd(&["token", "create", "phone"])).run().success();
    let task = dir.json(&["tasks", "inbox"])["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let out = dir.ok(&["tasks", "show", &task]);
    let created = out
        .stdout
        .lines()
        .find(|l| l.starts_with("Created"))
        .unwrap_or_default()
        .to_owned();
    assert!(created.ends_with("2026-11-27 07:45"), "{created}");
    assert!(!out.stdout.contains("06:45:10"), "{}", out.stdout);
    let out = dir.ok(&["token", "list"]);
    assert!(out.stdout.contains("2026-11-27 07:45"), "{}", out.stdout);
    dir.config("date_format = \"%d/%m/%Y\"\n");
    let out = dir.ok(&["tasks", "show", &task]);
    assert!(out.stdout.contains("27/11/2026 07:45"), "{}", out.stdout);
}
