//! Every hint the CLI prints runs as printed against the same store (issue
//! 7, defect 3): pasted into a shell in another directory, the undo hint of
//! `--data-dir D tasks rm` restores the task in D.

use std::path::Path;

use crate::util::{Cmd, Dir, bin};

/// Runs `hint` as a person would paste it: in a shell in another
/// directory, `organiser` on `PATH`, no `ORGANISER_DATA_DIR`, and a home
/// of its own (so a hint without `--data-dir` would act on another store).
fn paste(hint: &str) {
    let elsewhere = tempfile::tempdir().unwrap();
    let bin_dir = Path::new(bin()).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Cmd::shell(hint, &[])
        .env("PATH", path)
        .env("HOME", elsewhere.path())
        .env("XDG_DATA_HOME", elsewhere.path())
        .env_remove("ORGANISER_DATA_DIR")
        .current_dir(elsewhere.path())
        .run()
        .success();
}

fn undo_hint(stdout: &str) -> String {
    let hint = stdout
        .split("Undo within 20 seconds: ")
        .nth(1)
        .unwrap_or_else(|| panic!("no undo hint in {stdout:?}"))
        .trim()
        .to_owned();
    assert!(hint.starts_with("organiser --data-dir /"), "{hint}");
    hint
}

#[test]
fn the_undo_hints_run_as_printed_against_the_same_store() {
    let dir = Dir::new();
    dir.ok(&["tasks", "add", "Keep me"]);
    let id = dir.json(&["tasks", "inbox"])["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let out = dir.ok(&["tasks", "rm", &id]);
    paste(&undo_hint(&out.stdout));
    assert_eq!(dir.json(&["tasks", "inbox"])["data"][0]["title"], "Keep me");

    dir.ok(&["lists", "add", "Errands"]);
    let out = dir.ok(&["lists", "rm", "Errands"]);
    paste(&undo_hint(&out.stdout));
    assert_eq!(dir.json(&["lists"])["data"][0]["name"], "Errands");
}
