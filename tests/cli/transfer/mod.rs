//! `organiser import` and `organiser export` through the real binary
//! (EXTENSIONS.md §5, docs/cli.md "Export and import"), by area:
//! [`imports`] (the files other tools write, taken in with their format
//! found from the content and taken in again with nothing changed; dry
//! runs; a folder of Obsidian notes; files that are not the format),
//! [`exports`] (each format in the current directory, owner only; the
//! archive back into an empty store; the same through a running server)
//! and [`tools`] (our vCard and iCalendar exports read by khard and khal
//! themselves). What they share is here.

mod exports;
mod imports;
mod tools;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::{Dir, Outcome};

/// A file or folder of tests/fixtures/imports.
pub(super) fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/imports")
        .join(rel)
}

/// `path` as an argument.
pub(super) fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// The `data` array of a listing, each item's `key`, sorted.
#[track_caller]
pub(super) fn names(page: &Value, key: &str) -> Vec<String> {
    let items = page["data"]
        .as_array()
        .unwrap_or_else(|| panic!("a listing has a `data` array: {page}"));
    let mut names: Vec<String> = items
        .iter()
        .map(|item| {
            item[key]
                .as_str()
                .unwrap_or_else(|| panic!("an item without a `{key}` string: {item}"))
                .to_owned()
        })
        .collect();
    names.sort();
    names
}

/// What a store holds, as the CLI lists it, each sorted: the titles of
/// every task (the inbox's and each list's open ones, and the logbook),
/// the lists' names, the people's names and the notes' titles.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Held {
    pub(super) tasks: Vec<String>,
    pub(super) lists: Vec<String>,
    pub(super) people: Vec<String>,
    pub(super) notes: Vec<String>,
}

#[track_caller]
pub(super) fn held(dir: &Dir) -> Held {
    let lists = dir.json(&["lists"]);
    let mut tasks = names(&dir.json(&["tasks", "inbox", "--all"]), "title");
    tasks.extend(names(&dir.json(&["tasks", "logbook", "--all"]), "title"));
    for id in names(&lists, "id") {
        tasks.extend(names(&dir.json(&["tasks", "list", &id, "--all"]), "title"));
    }
    tasks.sort();
    Held {
        tasks,
        lists: names(&lists, "name"),
        people: names(&dir.json(&["people", "--all"]), "name"),
        notes: names(&dir.json(&["notes", "--all"]), "title"),
    }
}

/// Sorted owned strings.
pub(super) fn sorted(items: &[&str]) -> Vec<String> {
    let mut items: Vec<String> = items.iter().map(|s| (*s).to_owned()).collect();
    items.sort();
    items
}

/// An import's report in words: its first line, and the `  skipped AT:
/// REASON` lines after it (checked to be all that follows, with a final
/// `Nothing was written (--dry-run).` for a dry run).
#[track_caller]
pub(super) fn report(out: &Outcome) -> (String, Vec<String>) {
    let mut lines = out.stdout.lines();
    let first = lines
        .next()
        .unwrap_or_else(|| panic!("no report on stdout: {out:?}"))
        .to_owned();
    let mut skipped = Vec::new();
    for line in lines {
        if line == "Nothing was written (--dry-run)." {
            continue;
        }
        let item = line.strip_prefix("  skipped ").unwrap_or_else(|| {
            panic!("a line that is not `  skipped AT: REASON`: {line:?}\n{out:?}")
        });
        assert!(item.contains(": "), "no `AT: REASON` in {line:?}: {out:?}");
        skipped.push(item.to_owned());
    }
    (first, skipped)
}
