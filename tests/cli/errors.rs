//! Issue 7, defects 9 and 10: errors name what the person typed, `--json`
//! errors are JSON on stderr with the API's code, usage mistakes exit 2,
//! and `add` echoes the dates it worked out.

use crate::tasks::said_day;
use crate::util::Dir;

#[test]
fn a_refusal_names_the_flag_not_the_api_field() {
    let dir = Dir::new();
    let out = dir.run(&["tasks", "add", "Pay", "--deadline", "2026-02-30"]);
    // A date the CLI cannot read is its own error, naming the value.
    assert!(out.error().contains("2026-02-30"), "{out:?}");
    let out = dir.run(&["tasks", "add", " "]);
    assert_eq!(out.error(), "the title can't be blank");
    dir.ok(&["lists", "add", "Work"]);
    let out = dir.run(&["tasks", "add", "x", "--list", "work", "--position", "-2"]);
    // Not a flag of add: a usage mistake.
    assert_eq!(out.code(), Some(2), "{out:?}");
    dir.ok(&["tasks", "add", "Kept"]);
    dir.ok(&["tasks", "inbox"]);
    let out = dir.run(&["tasks", "edit", "1", "--title", ""]);
    assert_eq!(out.error(), "--title can't be blank");
}

#[test]
fn a_refused_colour_or_icon_lists_the_accepted_ones() {
    let dir = Dir::new();
    let out = dir.run(&["lists", "add", "Work", "--color", "pinkish"]);
    let message = out.error();
    assert!(message.starts_with("--color is not a colour"), "{message}");
    for key in ["blue", "red", "green"] {
        assert!(message.contains(key), "{key} not offered: {message}");
    }
    let out = dir.run(&["lists", "add", "Work", "--icon", "nope"]);
    let message = out.error();
    assert!(message.starts_with("--icon is not an icon"), "{message}");
    for key in ["star", "inbox", "briefcase"] {
        assert!(message.contains(key), "{key} not offered: {message}");
    }
    assert_eq!(dir.json(&["lists"])["data"], serde_json::json!([]));
}

#[test]
fn with_json_an_error_is_json_on_stderr_with_the_api_code() {
    let dir = Dir::new();
    let out = dir.run(&["lists", "add", "Work", "--color", "pinkish", "--json"]);
    assert_eq!(out.code(), Some(1), "{out:?}");
    assert_eq!(out.stdout, "");
    let error = out.json_error();
    assert_eq!(error["code"], "validation_failed");
    // The details keep the API's field names; the message the flag's.
    assert!(error["details"]["color"][0].is_string(), "{error}");
    assert!(error["message"].as_str().unwrap().starts_with("--color"));

    // A reference the CLI cannot resolve: its own code.
    let out = dir.run(&["tasks", "done", "ZZZZZZ", "--json"]);
    assert_eq!(out.code(), Some(1), "{out:?}");
    assert_eq!(out.json_error()["code"], "error");

    // Usage mistakes, clap's and the CLI's own: exit 2, code `usage`.
    for args in [
        &["tasks", "frobnicate", "--json"][..],
        &["tasks", "move", "1", "--json"],
        &["tasks", "edit", "1", "--json"],
    ] {
        let out = dir.run(args);
        assert_eq!(out.code(), Some(2), "{out:?}");
        assert_eq!(out.json_error()["code"], "usage", "{out:?}");
    }
}

#[test]
fn add_echoes_the_dates_it_worked_out() {
    let dir = Dir::new();
    let out = dir.ok(&[
        "tasks",
        "add",
        "Pay",
        "rent",
        "--start",
        "today",
        "--deadline",
        "+3d",
    ]);
    let first = out.stdout.lines().next().unwrap_or_default();
    assert!(first.starts_with("Added Pay rent ("), "{out:?}");
    assert!(
        first.ends_with(&format!(" · starts {} · due {}", said_day(0), said_day(3))),
        "{out:?}"
    );
    // No dates given: none said.
    let out = dir.ok(&["tasks", "add", "Plain"]);
    assert!(!out.stdout.contains('·'), "{out:?}");
}
