//! `organiser notes`, `organiser tags` and `organiser categories` through
//! the binary: the listing (recent first, filters, search) with row
//! numbers, show (the body rendered for a terminal), add (Markdown from
//! --body, standard input or $EDITOR, with @Name and ^Project resolved),
//! edit in $EDITOR with its conflict, pin, unpin, rm and restore; tags
//! list, rename, merge, rm; categories list, add, move, rm; `--json` in
//! the API's shape; the same through a running server.

use std::path::PathBuf;

use serde_json::Value;

use crate::tasks::{listing, page, record, short, undo_command};
use crate::util::{Dir, bin};

/// `notes add ARGS... --json`: the new note.
#[track_caller]
fn add(dir: &Dir, args: &[&str]) -> Value {
    let mut all = vec!["notes", "add"];
    all.extend_from_slice(args);
    record(&dir.json(&all)).clone()
}

/// `notes show N --json`: the note.
#[track_caller]
fn note(dir: &Dir, reference: &str) -> Value {
    record(&dir.json(&["notes", "show", reference])).clone()
}

/// The ID of a record as a string.
fn id(record: &Value) -> &str {
    record["id"].as_str().expect("an id")
}

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

#[test]
fn the_listing_shows_recent_notes_first_and_numbers_its_rows() {
    let dir = Dir::new();
    let out = dir.ok(&["notes"]);
    assert_eq!(out.stdout, "Notes · 0 notes\nNothing here.\n");
    dir.ok(&["categories", "add", "Work"]);
    let first = add(&dir, &["Shopping", "list", "--body", "Milk and #groceries"]);
    assert_eq!(first["title"], "Shopping list");
    let second = add(
        &dir,
        &[
            "--body",
            "Call the plumber about the #garden tap",
            "--category",
            "work",
        ],
    );
    let third = add(&dir, &["Ideas", "--pin", "--body", "*Big* ideas"]);
    assert_eq!(third["pinned"], true);

    let table = listing(&dir.ok(&["notes"]));
    assert_eq!(table.header, "Notes · 3 notes");
    assert_eq!(table.column("#"), ["1", "2", "3"]);
    assert_eq!(
        table.column("NAME"),
        [
            "Ideas",
            "Call the plumber about the #garden tap",
            "Shopping list"
        ]
    );
    assert_eq!(table.column("CATEGORY"), ["", "Work", ""]);
    assert_eq!(table.column("TAGS"), ["", "#garden", "#groceries"]);
    assert_eq!(table.column("PINNED"), ["yes", "", ""]);
    assert_eq!(table.rows[0]["ID"], short(&third["id"]));
    // Row numbers name that listing's rows.
    assert_eq!(note(&dir, "2")["id"], second["id"]);

    // Filters and search, said in the header.
    let table = listing(&dir.ok(&["notes", "--tag", "#garden"]));
    assert_eq!(table.header, "Notes · #garden · 1 note");
    let table = listing(&dir.ok(&["notes", "--category", "Work"]));
    assert_eq!(table.header, "Notes · in Work · 1 note");
    let table = listing(&dir.ok(&["notes", "--pinned"]));
    assert_eq!(table.column("NAME"), ["Ideas"]);
    let table = listing(&dir.ok(&["notes", "plumb", "tap"]));
    assert_eq!(table.header, "Notes · matching \"plumb tap\" · 1 note");
    assert_eq!(note(&dir, "1")["id"], second["id"], "rows renumbered");
    let table = listing(&dir.ok(&["notes", "nothing-like-it"]));
    assert!(table.rows.is_empty());

    // --json is the API's page; --limit says how many more.
    let all = dir.json(&["notes"]);
    assert_eq!(page(&all).len(), 3);
    assert_eq!(all["meta"]["total_count"], 3);
    assert!(page(&all)[0]["excerpt"].is_string());
    let out = dir.ok(&["notes", "--limit", "1"]);
    assert!(
        out.stdout.ends_with("… and 2 more (--limit, --all)\n"),
        "{out:?}"
    );

    // A tag or category that is not there.
    let out = dir.run(&["notes", "--tag", "nope"]).failure(1);
    assert!(out.stderr.contains("no tag named \"nope\""), "{out:?}");
}

#[test]
fn markdown_becomes_the_body_with_mentions_and_references() {
    let dir = Dir::new();
    dir.ok(&["people", "add", "Ada Lovelace"]);
    dir.ok(&["people", "add", "Alan Turing"]);
    dir.ok(&["people", "add", "Alan Kay"]);
    dir.ok(&["projects", "add", "Garden shed"]);
    let ada = record(&dir.json(&["people", "show", "Ada Lovelace"])).clone();
    let shed = record(&dir.json(&["projects", "show", "Garden shed"])).clone();
    let made = add(
        &dir,
        &[
            "--body",
            "# Plan\n\nMet @Ada about ^garden shed, not @Alan; **soon**. #todo\n\n- one\n- two\n",
        ],
    );
    let html = made["body_html"].as_str().unwrap();
    assert!(
        html.contains(&format!(
            "<span data-mention=\"{}\">@Ada Lovelace</span>",
            id(&ada)
        )),
        "{html}"
    );
    assert!(
        html.contains(&format!(
            "<span data-project=\"{}\">^Garden shed</span>",
            id(&shed)
        )),
        "{html}"
    );
    assert!(
        html.contains("not @Alan;"),
        "ambiguous: left as text: {html}"
    );
    assert!(html.contains("<h1>Plan</h1>"), "{html}");
    assert!(html.contains("<strong>soon</strong>"), "{html}");
    assert!(html.contains("<li>one</li>"), "{html}");
    assert_eq!(made["person_ids"], serde_json::json!([id(&ada)]));
    assert_eq!(made["project_ids"], serde_json::json!([id(&shed)]));
    assert_eq!(made["tag_ids"].as_array().unwrap().len(), 1);
    assert_eq!(
        made["name"],
        "Plan Met @Ada Lovelace about ^Garden shed, not @Alan; soon."
    );

    // Filters by the person and the project.
    let table = listing(&dir.ok(&["notes", "--person", "ada"]));
    assert_eq!(table.header, "Notes · mentioning Ada Lovelace · 1 note");
    let table = listing(&dir.ok(&["notes", "--project", "garden"]));
    assert_eq!(table.header, "Notes · on Garden shed · 1 note");

    // The body from standard input, and from the editor.
    let piped = dir
        .cmd(&["notes", "add", "Piped", "--json"])
        .stdin("Hello *there*")
        .run()
        .success()
        .json();
    assert_eq!(record(&piped)["body_html"], "<p>Hello <em>there</em></p>");
    let script = editor(&dir, "write.sh", "printf 'From the **editor**\\n' > \"$1\"");
    let edited = dir
        .cmd(&["notes", "add", "--edit", "--json"])
        .env("EDITOR", &script)
        .run()
        .success()
        .json();
    assert_eq!(
        record(&edited)["body_html"],
        "<p>From the <strong>editor</strong></p>"
    );
    // An editor left empty, without a title, adds nothing.
    let empty = editor(&dir, "empty.sh", "true");
    let out = dir
        .cmd(&["notes", "add", "--edit"])
        .env("EDITOR", &empty)
        .run()
        .failure(1);
    assert!(out.stderr.contains("nothing was added"), "{out:?}");
}

#[test]
fn show_renders_the_body_for_a_terminal() {
    let dir = Dir::new();
    dir.ok(&["people", "add", "Ada Lovelace"]);
    let made = add(
        &dir,
        &[
            "Plan",
            "--body",
            "## Steps\n\n1. Ask @Ada\n2. Read [the docs](https://example.com)\n\n> Quoted `code`\n\nTagged #work",
        ],
    );
    let out = dir.ok(&["notes", "show", id(&made)]);
    out.assert_no_ansi();
    let (head, body) = out
        .stdout
        .split_once("\n\n")
        .expect("a body after a blank line");
    assert!(head.starts_with("Plan\n"), "{out:?}");
    assert!(head.contains("Tags"), "{out:?}");
    assert!(head.contains("#work"), "{out:?}");
    assert!(head.contains("version 1"), "{out:?}");
    assert_eq!(
        body,
        "## Steps\n\n1. Ask @Ada Lovelace\n2. Read the docs <https://example.com>\n\n│ Quoted `code`\n\nTagged #work\n"
    );
    // With colour, the mention stands out.
    let out = dir.ok(&["--color", "always", "notes", "show", id(&made)]);
    assert!(
        out.stdout.contains("\x1b[1;35m@Ada Lovelace\x1b[22;39m"),
        "{out:?}"
    );
    // --json is the API's note.
    let shown = note(&dir, id(&made));
    assert_eq!(
        shown["body_text"].as_str().unwrap().lines().next(),
        Some("Steps")
    );
}

#[test]
fn edit_opens_the_body_in_the_editor_and_sends_its_version() {
    let dir = Dir::new();
    dir.ok(&["people", "add", "Ada Lovelace"]);
    dir.ok(&["people", "add", "Ada Byron"]);
    let ada = record(&dir.json(&["people", "show", "Ada Lovelace"])).clone();
    let made = add(
        &dir,
        &[
            "--body",
            "Met @Ada Lovelace\n\n- a *b* `c`\n- 1\\. not a list \\@x",
        ],
    );
    let before = made["body_html"].as_str().unwrap().to_owned();
    assert!(before.contains("data-mention"), "{before}");

    // An editor that changes nothing: nothing is sent.
    let same = editor(&dir, "same.sh", "true");
    let out = dir
        .cmd(&["notes", "edit", id(&made)])
        .env("EDITOR", &same)
        .run()
        .success();
    assert!(out.stdout.starts_with("No change to"), "{out:?}");
    assert_eq!(note(&dir, id(&made))["edit_version"], 1);

    // An editor that adds a line: the rest reads back as it was (the
    // mention still names Ada Lovelace, though "@Ada" alone would not).
    let append = editor(
        &dir,
        "append.sh",
        "printf '\\nMore about @Ada Byron\\n' >> \"$1\"",
    );
    let out = dir
        .cmd(&["notes", "edit", id(&made)])
        .env("EDITOR", &append)
        .env("VISUAL", "")
        .run()
        .success();
    assert!(out.stdout.contains("(version 2)"), "{out:?}");
    let after = note(&dir, id(&made));
    let html = after["body_html"].as_str().unwrap();
    assert!(html.starts_with(&before), "{before}\n{html}");
    assert_eq!(after["person_ids"].as_array().unwrap().len(), 2);
    assert!(after["person_ids"].as_array().unwrap().contains(&ada["id"]));

    // Flags change only what they name, with the version too.
    let changed = record(&dir.json(&[
        "notes",
        "edit",
        id(&made),
        "--title",
        "Meeting",
        "--body",
        "New *body*",
    ]))
    .clone();
    assert_eq!(changed["title"], "Meeting");
    assert_eq!(changed["body_html"], "<p>New <em>body</em></p>");
    assert_eq!(changed["edit_version"], 3);
    let changed = record(&dir.json(&["notes", "edit", id(&made), "--no-title"])).clone();
    assert_eq!(changed["title"], Value::Null);
    assert_eq!(changed["body_html"], "<p>New <em>body</em></p>");
}

#[test]
fn a_change_made_meanwhile_is_a_conflict_and_the_text_is_kept() {
    let dir = Dir::new();
    let made = add(&dir, &["Draft", "--body", "First"]);
    // The editor changes the note through another command before saving.
    let script = editor(
        &dir,
        "race.sh",
        "\"$ORG_BIN\" --data-dir \"$ORG_DATA\" notes edit \"$ORG_NOTE\" --title \"$ORG_TITLE\" >/dev/null || exit 1\nprintf 'Mine\\n' > \"$1\"",
    );
    let out = dir
        .cmd(&["notes", "edit", id(&made)])
        .env("EDITOR", &script)
        .env("ORG_BIN", bin())
        .env("ORG_DATA", dir.data())
        .env("ORG_NOTE", id(&made))
        .env("ORG_TITLE", "Meanwhile")
        .run()
        .failure(1);
    assert!(
        out.stderr.contains("Meanwhile was changed elsewhere meanwhile (version 1 when this edit began, version 2 now): nothing was saved"),
        "{out:?}"
    );
    let kept = out
        .stderr
        .split("your text is kept in ")
        .nth(1)
        .expect("the file named")
        .trim();
    assert_eq!(std::fs::read_to_string(kept).unwrap(), "Mine\n");
    std::fs::remove_file(kept).unwrap();
    let now = note(&dir, id(&made));
    assert_eq!(now["body_html"], "<p>First</p>", "not overwritten");
    assert_eq!(now["title"], "Meanwhile");

    // With --json, the error is the API's conflict.
    let out = dir
        .cmd(&["notes", "edit", id(&made), "--json"])
        .env("EDITOR", &script)
        .env("ORG_BIN", bin())
        .env("ORG_DATA", dir.data())
        .env("ORG_NOTE", id(&made))
        .env("ORG_TITLE", "Again")
        .run()
        .failure(1);
    assert_eq!(out.json_error()["code"], "conflict");
    let message = out.json_error()["message"].as_str().unwrap().to_owned();
    let kept = message.split("kept in ").nth(1).expect("the file named");
    let kept = kept.split(';').next().unwrap();
    assert_eq!(std::fs::read_to_string(kept).unwrap(), "Mine\n");
    std::fs::remove_file(kept).unwrap();
}

#[test]
fn pin_unpin_rm_and_restore() {
    let dir = Dir::new();
    let made = add(&dir, &["Keep", "--body", "this"]);
    let out = dir.ok(&["notes", "pin", id(&made)]);
    assert_eq!(out.stdout, "Pinned Keep\n");
    let out = dir.ok(&["notes", "pin", id(&made)]);
    assert_eq!(out.stdout, "Keep was already pinned\n");
    let unpinned = record(&dir.json(&["notes", "unpin", id(&made)])).clone();
    assert_eq!(unpinned["pinned"], false);
    assert_eq!(unpinned["edit_version"], 1, "a pin is not an edit");

    dir.ok(&["notes"]);
    let out = dir.ok(&["notes", "rm", "1"]);
    assert!(
        out.stdout
            .starts_with("Deleted note Keep. Undo within 20 seconds: "),
        "{out:?}"
    );
    assert_eq!(undo_command(&out), ["notes", "restore", id(&made)]);
    let out = dir.run(&["notes", "show", id(&made)]).failure(1);
    assert!(out.stderr.contains("was it deleted?"), "{out:?}");
    let out = dir.ok(&["notes", "restore"]);
    assert_eq!(out.stdout, "Restored note Keep\n");
    let out = dir.ok(&["notes", "restore", id(&made)]);
    assert_eq!(out.stdout, "Keep is not deleted: nothing to restore\n");
    let deleted = dir.json(&["notes", "rm", id(&made)]);
    assert_eq!(deleted["data"]["deleted"], made["id"]);
    let restored = record(&dir.json(&["notes", "restore", &short(&made["id"])])).clone();
    assert_eq!(restored["id"], made["id"]);

    // A note that is not there, a row that is not there.
    let out = dir.run(&["notes", "show", "99"]).failure(1);
    assert!(out.stderr.contains("no row 99"), "{out:?}");
    let out = dir.run(&["notes", "pin", "ZZZZZZ"]).failure(1);
    assert!(out.stderr.contains("there is no note"), "{out:?}");
}

#[test]
fn tags_are_listed_renamed_merged_and_deleted() {
    let dir = Dir::new();
    let out = dir.ok(&["tags"]);
    assert_eq!(
        out.stdout,
        "Tags · 0 tags\nNothing here: write #word in a note to tag it.\n"
    );
    let one = add(&dir, &["--body", "About #garden and #plants"]);
    add(&dir, &["--body", "More #garden"]);
    add(&dir, &["--body", "Some #flowers"]);
    let table = listing(&dir.ok(&["tags"]));
    assert_eq!(table.header, "Tags · 3 tags");
    assert_eq!(table.column("NAME"), ["#flowers", "#garden", "#plants"]);
    assert_eq!(table.column("NOTES"), ["1", "2", "1"]);
    let tags = dir.json(&["tags"]);
    assert_eq!(page(&tags).len(), 3);

    let out = dir.ok(&["tags", "rename", "#garden", "Yard work"]);
    assert_eq!(out.stdout, "Renamed #garden to #Yard-work (2 notes)\n");
    assert!(
        note(&dir, id(&one))["body_text"]
            .as_str()
            .unwrap()
            .contains("#Yard-work")
    );
    let out = dir
        .run(&["tags", "rename", "yard-work", "plants"])
        .failure(1);
    assert!(
        out.stderr.contains("the new name already exists"),
        "{out:?}"
    );

    let out = dir.ok(&["tags", "merge", "plants", "flowers"]);
    assert_eq!(
        out.stdout,
        "Merged #plants into #flowers (now on 2 notes)\n"
    );
    let out = dir
        .run(&["tags", "merge", "flowers", "#flowers"])
        .failure(2);
    assert!(out.stderr.contains("into itself"), "{out:?}");

    let out = dir.ok(&["tags", "rm", "1"]);
    assert_eq!(
        out.stdout,
        "Deleted #flowers: taken off 2 notes (this cannot be undone)\n"
    );
    let table = listing(&dir.ok(&["tags"]));
    assert_eq!(table.column("NAME"), ["#Yard-work"]);
    let body = note(&dir, id(&one))["body_text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(body.contains("and flowers"), "{body}");
}

#[test]
fn categories_are_listed_added_moved_and_deleted() {
    let dir = Dir::new();
    let out = dir.ok(&["categories"]);
    assert_eq!(out.stdout, "Categories · 0 categories\nNothing here.\n");
    let work = record(&dir.json(&["categories", "add", "Work"])).clone();
    assert_eq!(work["position"], 1);
    dir.ok(&["categories", "add", "Home", "life"]);
    let out = dir.ok(&["categories", "add", "Ideas", "--position", "1"]);
    assert!(out.stdout.starts_with("Added category Ideas ("), "{out:?}");
    assert!(out.stdout.ends_with(", position 1)\n"), "{out:?}");
    add(&dir, &["--category", "work", "--body", "x"]);

    let table = listing(&dir.ok(&["categories"]));
    assert_eq!(table.header, "Categories · 3 categories");
    assert_eq!(table.column("NAME"), ["Ideas", "Work", "Home life"]);
    assert_eq!(table.column("NOTES"), ["0", "1", "0"]);
    assert_eq!(table.rows[1]["COLOR"], work["color"].as_str().unwrap());

    let out = dir.ok(&["categories", "move", "home", "1"]);
    assert_eq!(out.stdout, "Moved category Home life to position 1\n");
    let table = listing(&dir.ok(&["categories"]));
    assert_eq!(table.column("NAME"), ["Home life", "Ideas", "Work"]);

    let out = dir.run(&["categories", "add", "work"]).failure(1);
    assert!(
        out.stderr.contains("the name has already been taken"),
        "{out:?}"
    );
    let out = dir
        .run(&["categories", "add", "Odd", "--color", "plaid"])
        .failure(1);
    assert!(out.stderr.contains("--color"), "{out:?}");

    let out = dir
        .run(&["categories", "rm", "work", "--if-unused"])
        .failure(1);
    assert!(
        out.stderr.contains("Work has notes: nothing was deleted"),
        "{out:?}"
    );
    let err = dir
        .run(&["categories", "rm", "work", "--if-unused", "--json"])
        .failure(1)
        .json_error();
    assert_eq!(err["code"], "in_use");
    let out = dir.ok(&["categories", "rm", "work"]);
    assert_eq!(
        out.stdout,
        "Deleted category Work (its notes are kept, uncategorised)\n"
    );
    let table = listing(&dir.ok(&["notes"]));
    assert_eq!(table.column("CATEGORY"), [""]);
    let deleted = dir.json(&["categories", "rm", "2", "--if-unused"]);
    assert!(deleted["data"]["deleted"].is_string(), "{deleted}");
}

#[test]
fn notes_work_through_a_running_server() {
    let dir = Dir::new();
    let server = dir.serve();
    dir.ok(&["people", "add", "Ada Lovelace"]);
    let made = add(&dir, &["Served", "--body", "Hi @Ada #served"]);
    assert_eq!(made["person_ids"].as_array().unwrap().len(), 1);
    let table = listing(&dir.ok(&["notes", "--tag", "served"]));
    assert_eq!(table.column("NAME"), ["Served"]);
    // The editor runs while the server holds the store.
    let append = editor(&dir, "append.sh", "printf 'more\\n' >> \"$1\"");
    dir.cmd(&["notes", "edit", "1"])
        .env("EDITOR", &append)
        .run()
        .success();
    assert_eq!(note(&dir, id(&made))["edit_version"], 2);
    dir.ok(&["notes", "pin", "1"]);
    dir.ok(&["categories", "add", "Served"]);
    dir.ok(&["tags", "rename", "served", "done"]);
    drop(server);
}
