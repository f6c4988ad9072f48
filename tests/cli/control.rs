//! Names and titles come from anyone holding a token: the CLI prints their
//! control characters escaped, so none reaches the owner's terminal raw
//! (issue 7, defect 12).

use crate::util::Dir;

fn raw_controls(text: &str) -> Vec<char> {
    text.chars()
        .filter(|c| c.is_control() && *c != '\n')
        .collect()
}

#[test]
fn control_characters_in_names_and_titles_are_printed_escaped() {
    let dir = Dir::new();
    let evil = "Clear\u{1b}[2Jme\u{7}";
    for args in [
        &["lists", "add", evil][..],
        &["tasks", "add", evil, "--list", evil][..],
        &["lists"][..],
        &["tasks", "inbox"][..],
        &["tasks", "list", evil][..],
        &["tasks", "someday"][..],
        &["lists", "--json"][..],
    ] {
        let out = dir.ok(args);
        assert_eq!(
            raw_controls(&out.stdout),
            Vec::<char>::new(),
            "{args:?}: {}",
            out.stdout
        );
    }
    let lists = dir.ok(&["lists"]).stdout;
    assert!(lists.contains("Clear\\x1b[2Jme\\x07"), "{lists}");
}
