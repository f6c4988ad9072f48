//! Names and titles come from anyone holding a token: the core refuses
//! control characters in them, and the CLI prints any it meets (in records
//! written before that rule) escaped, so none reaches the owner's terminal
//! raw (issue 7, defect 12).

use crate::util::Dir;

fn raw_controls(text: &str) -> Vec<char> {
    text.chars()
        .filter(|c| c.is_control() && *c != '\n')
        .collect()
}

/// The core refuses control characters in names and titles; the CLI
/// prints the refusal (and any reference it echoes) escaped.
#[test]
fn names_and_titles_with_control_characters_are_refused_and_said_escaped() {
    let dir = Dir::new();
    let evil = "Clear\u{1b}[2Jme\u{7}";
    for args in [
        &["lists", "add", evil][..],
        &["tasks", "add", evil][..],
        &["tasks", "list", evil][..],
        &["lists", "add", evil, "--json"][..],
    ] {
        let out = dir.run(args);
        assert_eq!(out.code(), Some(1), "{args:?}: {out:?}");
        assert_eq!(
            raw_controls(&out.stderr),
            Vec::<char>::new(),
            "{args:?}: {}",
            out.stderr
        );
    }
    let out = dir.run(&["lists", "add", evil]);
    assert_eq!(out.error(), "the name can't contain control characters");
    assert_eq!(dir.json(&["lists"])["data"], serde_json::json!([]));
    // Listings print names as they are: nothing to escape was stored.
    dir.ok(&["tasks", "add", "Plain"]);
    let out = dir.ok(&["tasks", "inbox"]);
    assert_eq!(raw_controls(&out.stdout), Vec::<char>::new());
}
