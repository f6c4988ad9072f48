//! Note text typed at a terminal is text (issue 22): angle brackets stay,
//! a code fence keeps its language through `notes edit`, `notes edit`
//! shows no escape the owner did not type, and an empty standard input
//! makes no note.

use std::path::PathBuf;

use serde_json::Value;

use crate::util::Dir;

/// An executable `sh` script in the test's directory, for `EDITOR`.
fn editor(dir: &Dir, name: &str, script: &str) -> PathBuf {
    let path = dir.root().join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{script}\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

fn added(dir: &Dir, body: &str) -> Value {
    dir.json(&["notes", "add", "--body", body])["data"].clone()
}

#[test]
fn angle_brackets_typed_are_text() {
    let dir = Dir::new();
    let note = added(&dir, "50% off <maybe>.");
    assert_eq!(note["body_text"], "50% off <maybe>.");
    assert_eq!(note["body_html"], "<p>50% off &lt;maybe&gt;.</p>");
}

#[test]
fn edit_shows_what_was_typed_and_keeps_a_fences_language() {
    let dir = Dir::new();
    let note = added(
        &dir,
        "Mail sam@example.org: 5 * 3 is 15, snake_case.\n\n```rust\nfn main() {}\n```\n",
    );
    assert!(
        note["body_html"]
            .as_str()
            .unwrap()
            .contains("<code class=\"language-rust\">"),
        "{note}"
    );
    let seen = dir.root().join("seen.md");
    let copy = editor(
        &dir,
        "copy.sh",
        &format!(
            "cp \"$1\" '{}'; printf '\\nMore.\\n' >> \"$1\"",
            seen.display()
        ),
    );
    dir.cmd(&["notes", "edit", note["id"].as_str().unwrap()])
        .env("EDITOR", &copy)
        .env("VISUAL", "")
        .run()
        .success();
    let shown = std::fs::read_to_string(&seen).unwrap();
    assert!(
        shown.contains("Mail sam@example.org: 5 * 3 is 15, snake_case."),
        "{shown}"
    );
    assert!(shown.contains("```rust\nfn main() {}\n```"), "{shown}");
    let after = dir.json(&["notes", "show", note["id"].as_str().unwrap()])["data"].clone();
    let html = after["body_html"].as_str().unwrap();
    assert!(html.contains("<code class=\"language-rust\">"), "{html}");
    assert!(html.contains("More."), "{html}");
}

#[test]
fn an_empty_standard_input_makes_no_note() {
    let dir = Dir::new();
    let out = dir.cmd(&["notes", "add"]).stdin("").run().failure(1);
    assert!(out.error().contains("nothing was added"), "{out:?}");
    let out = dir
        .cmd(&["notes", "add", "--body", "-"])
        .stdin("  \n")
        .run()
        .failure(1);
    assert!(out.error().contains("nothing was added"), "{out:?}");
    assert_eq!(dir.json(&["notes"])["data"].as_array().unwrap().len(), 0);
    // With a title, an empty body is a titled note.
    dir.cmd(&["notes", "add", "Groceries"])
        .stdin("")
        .run()
        .success();
}
