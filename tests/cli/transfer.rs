//! `organiser import` and `organiser export` through the real binary
//! (EXTENSIONS.md §5, docs/cli.md "Export and import"): the files other
//! tools write (tests/fixtures/imports) taken in with their format found
//! from the content, and taken in again with nothing changed; dry runs
//! that write nothing; a folder of Obsidian notes; files that are not the
//! format, refused with the line and nothing written; exports in the
//! current directory, owner only; the same through a running server; and
//! our vCard and iCalendar exports read by khard and khal themselves.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::util::{Dir, Outcome, mode, today};

/// A file or folder of tests/fixtures/imports.
fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/imports")
        .join(rel)
}

/// `path` as an argument.
fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// The `data` array of a listing, each item's `key`, sorted.
#[track_caller]
fn names(page: &Value, key: &str) -> Vec<String> {
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
struct Held {
    tasks: Vec<String>,
    lists: Vec<String>,
    people: Vec<String>,
    notes: Vec<String>,
}

#[track_caller]
fn held(dir: &Dir) -> Held {
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
fn sorted(items: &[&str]) -> Vec<String> {
    let mut items: Vec<String> = items.iter().map(|s| (*s).to_owned()).collect();
    items.sort();
    items
}

/// An import's report in words: its first line, and the `  skipped AT:
/// REASON` lines after it (checked to be all that follows, with a final
/// `Nothing was written (--dry-run).` for a dry run).
#[track_caller]
fn report(out: &Outcome) -> (String, Vec<String>) {
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

/// One fixture imported into an empty store, and what it makes.
struct Case {
    file: &'static str,
    from: &'static str,
    created: &'static str,
    skipped: usize,
    tasks: &'static [&'static str],
    lists: &'static [&'static str],
    people: &'static [&'static str],
    notes: &'static [&'static str],
}

/// Tasks: Taskwarrior's exports and Todoist's files.
const TASK_FILES: &[Case] = &[
    Case {
        file: "taskwarrior/export.json",
        from: "taskwarrior",
        created: "13 task, 4 task list",
        skipped: 10,
        tasks: &[
            "Take the pills",
            "Check the smoke alarm",
            "Stretch",
            "Water the plants",
            "Read a book",
            "Pay the rent",
            "Renew passport",
            "Buy milk",
            "Water the plants",
            "Call the plumber, about the leak; again",
            "Sprint planning",
            "Stand-up notes",
            "Quarterly review",
        ],
        lists: &["Admin", "Home.Groceries", "Home", "Work"],
        people: &[],
        notes: &[],
    },
    Case {
        file: "taskwarrior/export-lines.json",
        from: "taskwarrior",
        created: "13 task, 4 task list",
        skipped: 10,
        tasks: &[
            "Take the pills",
            "Check the smoke alarm",
            "Stretch",
            "Water the plants",
            "Read a book",
            "Pay the rent",
            "Renew passport",
            "Buy milk",
            "Water the plants",
            "Call the plumber, about the leak; again",
            "Sprint planning",
            "Stand-up notes",
            "Quarterly review",
        ],
        lists: &["Admin", "Home.Groceries", "Home", "Work"],
        people: &[],
        notes: &[],
    },
    Case {
        file: "todoist/Home.csv",
        from: "todoist",
        created: "10 task, 2 task list",
        skipped: 1,
        tasks: &[
            "Buy a new kettle",
            "Call the plumber",
            "Pay the rent",
            "Water the plants",
            "Mow the lawn",
            "Plant the bulbs",
            "Prune the roses",
            "Oil the hinges",
            "Sharpen the blades",
            "Mow the lawn",
        ],
        lists: &["Home", "Home / Garden"],
        people: &[],
        notes: &[],
    },
    Case {
        file: "todoist/Errands.csv",
        from: "todoist",
        created: "2 task, 1 task list",
        skipped: 0,
        tasks: &["Return the library books", "Post the parcel"],
        lists: &["Errands"],
        people: &[],
        notes: &[],
    },
    Case {
        file: "todoist/Inbox.csv",
        from: "todoist",
        created: "1 task",
        skipped: 0,
        tasks: &["Read the manual"],
        lists: &[],
        people: &[],
        notes: &[],
    },
    Case {
        file: "todoist/todoist-backup.json",
        from: "todoist",
        created: "7 task, 2 task list",
        skipped: 3,
        tasks: &[
            "Renew the passport",
            "Read the manual",
            "Sharpen the blades",
            "Call the plumber",
            "Pay the rent",
            "Plant the bulbs",
            "Mow the lawn",
        ],
        lists: &["Home", "Home / Garden"],
        people: &[],
        notes: &[],
    },
];

/// Contacts as Apple, Google, khard, Monica and Nextcloud write them.
const CONTACT_FILES: &[Case] = &[
    Case {
        file: "vcard/apple.vcf",
        from: "vcard",
        created: "1 company, 2 person",
        skipped: 1,
        tasks: &[],
        lists: &[],
        people: &["Mr. Johnny Q. Appleseed Jr.", "Orchard Co."],
        notes: &[],
    },
    Case {
        file: "vcard/google.vcf",
        from: "vcard",
        created: "1 company, 2 person",
        skipped: 4,
        tasks: &[],
        lists: &[],
        people: &["Bob Stone", "Jane Doe"],
        notes: &[],
    },
    Case {
        file: "vcard/khard.vcf",
        from: "vcard",
        created: "3 company, 2 person",
        skipped: 3,
        tasks: &[],
        lists: &[],
        people: &["Ada Lovelace", "Grace Hopper"],
        notes: &[],
    },
    Case {
        file: "vcard/monica.vcf",
        from: "vcard",
        created: "1 company, 2 person",
        skipped: 3,
        tasks: &[],
        lists: &[],
        people: &["Jane Smith", "Tom Jones"],
        notes: &[],
    },
    Case {
        file: "vcard/nextcloud.vcf",
        from: "vcard",
        created: "1 company, 2 person",
        skipped: 3,
        tasks: &[],
        lists: &[],
        people: &["Erika Mustermann", "Max Mustermann"],
        notes: &[],
    },
];

/// iCal to-dos and Joplin's notes.
const OTHER_FILES: &[Case] = &[
    Case {
        file: "ical/tasks.ics",
        from: "ical",
        created: "7 task",
        skipped: 3,
        tasks: &[
            "Sort the post",
            "Pay the rent",
            "Water the plants",
            "Put the bins out",
            "Call Mum",
            "Buy soil",
            "Old plan",
        ],
        lists: &[],
        people: &[],
        notes: &[],
    },
    Case {
        file: "markdown/joplin",
        from: "markdown",
        created: "1 document, 3 note, 3 tag",
        skipped: 4,
        tasks: &[],
        lists: &[],
        people: &[],
        notes: &["Call the bank", "Plans for 2023", "Pancakes"],
    },
];

impl Case {
    fn held(&self) -> Held {
        Held {
            tasks: sorted(self.tasks),
            lists: sorted(self.lists),
            people: sorted(self.people),
            notes: sorted(self.notes),
        }
    }
}

/// Imports each case's file into an empty store, its format found from
/// the content, and again: the report, what the store holds, and that the
/// second import changes nothing. The cases run side by side.
fn import_twice(cases: &[Case]) {
    std::thread::scope(|scope| {
        for case in cases {
            scope.spawn(move || case.import_twice());
        }
    });
}

impl Case {
    #[track_caller]
    fn import_twice(&self) {
        let dir = Dir::new();
        let file = fixture(self.file);
        let out = dir.ok(&["import", arg(&file)]);
        let (first, skipped) = report(&out);
        assert_eq!(
            first,
            format!(
                "Imported from {}: created {}; updated nothing; skipped {}",
                self.from, self.created, self.skipped
            ),
            "{}: {out:?}",
            self.file
        );
        assert_eq!(skipped.len(), self.skipped, "{}: {out:?}", self.file);
        let made = held(&dir);
        assert_eq!(made, self.held(), "{}: what the import made", self.file);

        let again = dir.ok(&["import", arg(&file)]);
        let (first, _) = report(&again);
        let unchanged = format!(
            "Imported from {}: created nothing; updated nothing; skipped ",
            self.from
        );
        assert!(
            first.starts_with(&unchanged),
            "{}: the second import changed something: {again:?}",
            self.file
        );
        assert_eq!(held(&dir), made, "{}: after the second import", self.file);
    }
}

#[test]
fn task_files_are_found_from_their_content_imported_and_imported_again_unchanged() {
    import_twice(TASK_FILES);
}

#[test]
fn contact_files_are_found_from_their_content_imported_and_imported_again_unchanged() {
    import_twice(CONTACT_FILES);
}

#[test]
fn ical_and_joplin_files_are_found_from_their_content_imported_and_imported_again_unchanged() {
    import_twice(OTHER_FILES);
}

#[test]
fn what_an_import_keeps_of_dates_repeats_and_key_dates() {
    // Todoist: a repeat phrase is the task's repeat; the German phrase is
    // kept in words and named in the report.
    let dir = Dir::new();
    let out = dir.ok(&["import", arg(&fixture("todoist/Home.csv"))]);
    let (_, skipped) = report(&out);
    assert!(
        skipped
            .iter()
            .any(|s| s.starts_with("line ") && s.contains("`jeden Montag`")),
        "{out:?}"
    );
    let home = dir.json(&["tasks", "list", "Home", "--all"]);
    let rent = home["data"]
        .as_array()
        .and_then(|tasks| tasks.iter().find(|t| t["title"] == "Pay the rent"))
        .unwrap_or_else(|| panic!("`Pay the rent` in Home: {home}"));
    assert_eq!(
        rent["repeat"]["rule"], "FREQ=MONTHLY;BYMONTHDAY=1",
        "{rent}"
    );
    // vCard: a birthday without a year (Monica's `--0412`) and an anniversary.
    let dir = Dir::new();
    dir.ok(&["import", arg(&fixture("vcard/monica.vcf"))]);
    let people = dir.json(&["people", "--all"]);
    let jane = people["data"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["name"] == "Jane Smith"))
        .unwrap_or_else(|| panic!("Jane Smith: {people}"));
    let dates: Vec<(String, Value, Value, Value)> = jane["key_dates"]
        .as_array()
        .unwrap_or_else(|| panic!("key dates: {jane}"))
        .iter()
        .map(|d| {
            (
                d["kind"].as_str().unwrap_or_default().to_owned(),
                d["year"].clone(),
                d["month"].clone(),
                d["day"].clone(),
            )
        })
        .collect();
    assert!(
        dates.contains(&("birthday".into(), Value::Null, 4.into(), 12.into()))
            && dates.contains(&("anniversary".into(), 2015.into(), 6.into(), 20.into())),
        "{jane}"
    );
    assert_eq!(
        jane["email_addresses"][0]["address"],
        "jane.smith@example.com"
    );
}

#[test]
fn a_dry_run_writes_nothing_and_says_what_would_be_imported() {
    let cases = [
        ("todoist/Home.csv", "todoist", "10 task, 2 task list", 1),
        ("vcard/monica.vcf", "vcard", "1 company, 2 person", 3),
        ("ical/tasks.ics", "ical", "7 task", 3),
        (
            "markdown/joplin",
            "markdown",
            "1 document, 3 note, 3 tag",
            4,
        ),
    ];
    for (file, from, created, skipped) in cases {
        let dir = Dir::new();
        let path = fixture(file);
        let out = dir.ok(&["import", arg(&path), "--dry-run"]);
        let (first, items) = report(&out);
        assert_eq!(
            first,
            format!(
                "Would import from {from}: created {created}; updated nothing; skipped {skipped}"
            ),
            "{file}: {out:?}"
        );
        assert_eq!(items.len(), skipped, "{file}: {out:?}");
        assert_eq!(
            out.stdout.lines().last(),
            Some("Nothing was written (--dry-run)."),
            "{file}: {out:?}"
        );
        assert_eq!(held(&dir), Held::default(), "{file}: a dry run wrote");
        // The real import does what the dry run said.
        let out = dir.ok(&["import", arg(&path)]);
        assert_eq!(
            report(&out).0,
            format!("Imported from {from}: created {created}; updated nothing; skipped {skipped}"),
            "{file}"
        );
        assert!(!out.stdout.contains("--dry-run"), "{file}: {out:?}");
        // And a dry run now says nothing would change.
        let out = dir.ok(&["import", arg(&path), "--dry-run"]);
        assert!(
            report(&out).0.starts_with(&format!(
                "Would import from {from}: created nothing; updated nothing;"
            )),
            "{file}: {out:?}"
        );
    }
}

#[test]
fn an_obsidian_vault_folder_becomes_notes_without_its_hidden_folders() {
    let dir = Dir::new();
    let vault = fixture("markdown/obsidian");
    assert!(
        vault.join(".obsidian").is_dir() && vault.join(".trash").is_dir(),
        "the fixture has its hidden folders"
    );
    let out = dir.ok(&["import", arg(&vault)]);
    let (first, skipped) = report(&out);
    assert_eq!(
        first, "Imported from markdown: created 3 note, 7 tag; updated nothing; skipped 3",
        "{out:?}"
    );
    for item in &skipped {
        assert!(
            !item.contains(".obsidian") && !item.contains(".trash"),
            "a hidden folder was read: {out:?}"
        );
    }
    assert!(
        skipped
            .iter()
            .any(|s| s.starts_with("attachments/unused.png:")),
        "{out:?}"
    );
    assert_eq!(
        held(&dir),
        Held {
            notes: sorted(&["2023-01-06", "Ideas", "Reading list"]),
            ..Held::default()
        }
    );
    let notes = dir.json(&["notes", "--all"]);
    let ideas = notes["data"]
        .as_array()
        .and_then(|n| n.iter().find(|n| n["title"] == "Ideas"))
        .unwrap_or_else(|| panic!("Ideas: {notes}"));
    assert_eq!(ideas["image_count"], 1, "its embedded image: {ideas}");
    assert_eq!(
        ideas["created_at"], "2023-01-05T10:11:00.000Z",
        "front matter's `created`: {ideas}"
    );
    let tags = names(&dir.json(&["tags"]), "name");
    for tag in ["idea", "draft", "workshop", "books", "journal"] {
        assert!(tags.iter().any(|t| t == tag), "#{tag} in {tags:?}");
    }
    // Again: nothing changes.
    let again = dir.ok(&["import", arg(&vault)]);
    assert!(
        report(&again)
            .0
            .starts_with("Imported from markdown: created nothing; updated nothing;"),
        "{again:?}"
    );
}

#[test]
fn a_file_that_is_not_the_format_is_refused_with_its_line_and_nothing_written() {
    let csv_head =
        "\u{feff}TYPE,CONTENT,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE\n";
    let cases: &[(&str, String, &[&str], &[&str])] = &[
        (
            "cut.json",
            "[{\"uuid\":\"a\",\"description\":\"x\"},\n{\"uuid\": \n".to_owned(),
            &[],
            &["Line 3", "not a Taskwarrior export"],
        ),
        (
            "cut.vcf",
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Whole\r\nEND:VCARD\r\n\
             BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Cut\r\n"
                .to_owned(),
            &[],
            &["Line 5", "no END:VCARD"],
        ),
        (
            "cut.ics",
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:Whole\r\n\
             END:VTODO\r\nBEGIN:VTODO\r\nUID:b\r\nSUMMARY:Cut\r\n"
                .to_owned(),
            &[],
            &["Line 7", "END:VTODO"],
        ),
        (
            "Short.csv",
            format!("{csv_head}task,Whole,4,1,,,,en,\ntask,\"Cut\n"),
            &[],
            &["Line 3"],
        ),
        (
            "Wide.csv",
            format!("{csv_head}task,Whole,4,1,,,,en,\ntask,a,b,c,d,e,f,g,h,i,j,k\n"),
            &[],
            &["Line 3", "12 fields where the header has 9"],
        ),
        (
            "Home.csv",
            std::fs::read_to_string(fixture("todoist/Home.csv")).expect("the fixture"),
            &["--from", "ical"],
            &["Line 1", "not an iCalendar file"],
        ),
        (
            "tasks.ics",
            std::fs::read_to_string(fixture("ical/tasks.ics")).expect("the fixture"),
            &["--from", "vcard"],
            &["Line 1", "not a vCard file"],
        ),
        (
            "monica.vcf",
            std::fs::read_to_string(fixture("vcard/monica.vcf")).expect("the fixture"),
            &["--from", "taskwarrior"],
            &["Line 1", "not a Taskwarrior export"],
        ),
        (
            "notes.txt",
            "hello\nworld\n".to_owned(),
            &[],
            &["none of the formats", "`from`"],
        ),
    ];
    let dir = Dir::new();
    for (name, text, extra, said) in cases {
        let path = dir.root().join(name);
        std::fs::write(&path, text).expect("write the file");
        let mut args = vec!["import", arg(&path)];
        args.extend_from_slice(extra);
        let out = dir.run(&args);
        let message = out.error();
        for words in *said {
            assert!(
                message.contains(words),
                "{name}: {words:?} not in the message: {out:?}"
            );
        }
        assert_eq!(held(&dir), Held::default(), "{name}: something was written");
    }
    // With --json: the API's error, 422's `validation_failed` on `base`.
    let path = dir.root().join("cut.vcf");
    let out = dir.run(&["import", arg(&path), "--json"]);
    assert_eq!(out.code(), Some(1), "{out:?}");
    let error = out.json_error();
    assert_eq!(error["code"], "validation_failed", "{out:?}");
    assert!(error["details"]["base"].is_array(), "{out:?}");
}

#[test]
fn a_damaged_csv_in_a_todoist_backup_zip_is_named_with_its_line() {
    use std::io::Write;
    let dir = Dir::new();
    let path = dir.root().join("todoist-backup.zip");
    let file = std::fs::File::create(&path).expect("the zip");
    let mut zip = zip::ZipWriter::new(file);
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("Errands [2203306141].csv", options)
        .expect("an entry");
    zip.write_all(&std::fs::read(fixture("todoist/Errands.csv")).expect("the fixture"))
        .expect("write");
    zip.start_file("Broken [2203306142].csv", options)
        .expect("an entry");
    zip.write_all(b"TYPE,CONTENT,PRIORITY\ntask,Fine,4\ntask,Too,many,fields\n")
        .expect("write");
    zip.finish().expect("the zip written");
    let out = dir.run(&["import", arg(&path)]);
    let message = out.error();
    assert!(
        message.contains("Broken [2203306142].csv") && message.contains("line 3"),
        "the entry and the line: {out:?}"
    );
    assert_eq!(held(&dir), Held::default(), "something was written");
}

#[test]
fn an_unknown_from_is_a_usage_error() {
    let dir = Dir::new();
    let out = dir
        .run(&[
            "import",
            arg(&fixture("vcard/monica.vcf")),
            "--from",
            "outlook",
        ])
        .failure(2);
    assert_eq!(out.stdout, "", "{out:?}");
    assert!(
        out.stderr
            .contains("invalid value 'outlook' for '--from <FROM>'")
            && out.stderr.contains("taskwarrior"),
        "{out:?}"
    );
    let out = dir.run(&["export", "--format", "csv"]).failure(2);
    assert!(out.stderr.contains("invalid value 'csv'"), "{out:?}");
    assert_eq!(held(&dir), Held::default());
}

#[test]
fn import_json_prints_the_api_report() {
    let dir = Dir::new();
    let file = fixture("vcard/monica.vcf");
    for (args, dry_run) in [(&["--dry-run"][..], true), (&[][..], false)] {
        let mut all = vec!["import", arg(&file), "--json"];
        all.extend_from_slice(args);
        let out = dir.ok(&all);
        let body = out.json();
        assert_eq!(
            body["data"]["from"], "vcard",
            "`import --json` without a server prints the API's report: {out:?}"
        );
        assert_eq!(body["data"]["created"]["person"], 2, "{out:?}");
        assert_eq!(body["data"]["dry_run"], dry_run, "{out:?}");
        assert_eq!(
            body["data"]["skipped"].as_array().map(Vec::len),
            Some(3),
            "{out:?}"
        );
    }
}

/// The entries of the zip `path`, by name, in order.
#[track_caller]
fn unzip(path: &Path) -> Vec<(String, Vec<u8>)> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .unwrap_or_else(|e| panic!("{} is not a zip: {e}", path.display()));
    (0..zip.len())
        .map(|i| {
            let mut entry = zip.by_index(i).expect("an entry");
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).expect("an entry's bytes");
            let name = entry.name().expect("an entry's name").into_owned();
            (name, bytes)
        })
        .collect()
}

/// A store with people (and key dates), tasks and notes in it.
fn filled() -> Dir {
    let dir = Dir::new();
    for file in ["vcard/monica.vcf", "todoist/Home.csv", "markdown/obsidian"] {
        dir.ok(&["import", arg(&fixture(file))]);
    }
    dir
}

#[test]
fn export_writes_each_format_in_the_current_directory_owner_only() {
    let dir = filled();
    let date = today("UTC");
    let cases = [
        ("organiser", "export", "zip"),
        ("vcard", "people", "vcf"),
        ("ical", "calendar", "ics"),
        ("markdown", "notes", "zip"),
    ];
    for (format, what, ext) in cases {
        let here = dir.root().join(format!("cwd-{format}"));
        std::fs::create_dir(&here).expect("a directory");
        let args: Vec<&str> = if format == "organiser" {
            vec!["export"]
        } else {
            vec!["export", "--format", format]
        };
        let out = dir.cmd(&args).current_dir(&here).run().success();
        let name = format!("organiser-{what}-{date}.{ext}");
        assert!(
            out.stdout.starts_with(&format!("Exported to {name} (")),
            "{format}: {out:?}"
        );
        let path = here.join(&name);
        assert!(path.is_file(), "{format}: no {name}: {out:?}");
        assert_eq!(mode(&path), 0o600, "{format}: {name} is owner only");
        let written: Vec<_> = std::fs::read_dir(&here)
            .expect("the directory")
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(written.len(), 1, "{format}: {written:?}");
        match format {
            "organiser" => {
                let entries = unzip(&path);
                let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
                assert_eq!(names.first(), Some(&"manifest.json"), "{names:?}");
                for name in [
                    "records/person.jsonl",
                    "records/task.jsonl",
                    "records/note.jsonl",
                    "deletions.jsonl",
                    "owner.json",
                ] {
                    assert!(names.contains(&name), "{name} in {names:?}");
                }
                let lines = |name: &str| {
                    entries
                        .iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, b)| String::from_utf8_lossy(b).lines().count())
                };
                assert_eq!(lines("records/person.jsonl"), Some(2));
                assert_eq!(lines("records/task.jsonl"), Some(10));
                assert_eq!(lines("records/note.jsonl"), Some(3));
                let all = entries
                    .iter()
                    .map(|(_, b)| String::from_utf8_lossy(b))
                    .collect::<String>();
                assert!(!all.contains("local_"), "no token in the archive");
            }
            "vcard" => {
                let text = std::fs::read_to_string(&path).expect("UTF-8");
                assert!(text.starts_with("BEGIN:VCARD\r\nVERSION:4.0\r\n"), "{text}");
                assert_eq!(text.matches("BEGIN:VCARD").count(), 2, "{text}");
                assert!(
                    text.contains("FN:Jane Smith\r\n") && text.contains("BDAY:--0412\r\n"),
                    "{text}"
                );
            }
            "ical" => {
                let text = std::fs::read_to_string(&path).expect("UTF-8");
                assert!(text.starts_with("BEGIN:VCALENDAR\r\n"), "{text}");
                assert_eq!(text.matches("BEGIN:VTODO").count(), 10, "{text}");
                assert!(text.contains("SUMMARY:Jane Smith's birthday\r\n"), "{text}");
            }
            _ => {
                let entries = unzip(&path);
                let mut md: Vec<&str> = entries
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .filter(|n| n.ends_with(".md"))
                    .collect();
                md.sort_unstable();
                assert_eq!(md, ["2023-01-06.md", "Ideas.md", "Reading list.md"]);
                assert!(
                    entries.iter().any(|(n, _)| n.ends_with(".png")),
                    "the images travel with the notes: {entries:?}",
                    entries = entries.iter().map(|(n, _)| n).collect::<Vec<_>>()
                );
            }
        }
    }
    // --to, and --json.
    let to = dir.root().join("people.vcf");
    let body = dir.json(&["export", "--format", "vcard", "--to", arg(&to)]);
    assert_eq!(body["data"]["path"], arg(&to), "{body}");
    let size = std::fs::metadata(&to).expect("the file").len();
    assert_eq!(body["data"]["bytes"], size, "{body}");
    assert_eq!(mode(&to), 0o600);
}

#[test]
fn an_export_goes_into_an_empty_store_as_it_was_and_foreign_ones_come_back() {
    let dir = filled();
    let archive = dir.root().join("all.zip");
    dir.ok(&["export", "--to", arg(&archive)]);
    let people = dir.root().join("people.vcf");
    dir.ok(&["export", "--format", "vcard", "--to", arg(&people)]);
    let tasks = dir.root().join("tasks.ics");
    dir.ok(&["export", "--format", "ical", "--to", arg(&tasks)]);
    let notes = dir.root().join("notes.zip");
    dir.ok(&["export", "--format", "markdown", "--to", arg(&notes)]);
    let before = held(&dir);

    // Our own archive: the same records, byte for byte.
    let other = Dir::new();
    let out = other.ok(&["import", arg(&archive)]);
    assert!(
        report(&out)
            .0
            .starts_with("Imported from organiser: created "),
        "{out:?}"
    );
    assert_eq!(held(&other), before);
    let again = other.root().join("again.zip");
    other.ok(&["export", "--to", arg(&again)]);
    let records = |path: &Path| -> Vec<(String, Vec<u8>)> {
        unzip(path)
            .into_iter()
            .filter(|(n, _)| n.starts_with("records/"))
            .collect()
    };
    let (first, second) = (records(&archive), records(&again));
    assert_eq!(first.len(), second.len());
    for ((name, a), (_, b)) in first.iter().zip(&second) {
        assert!(
            a == b,
            "{name} differs after a round trip:\n{}\n---\n{}",
            String::from_utf8_lossy(a),
            String::from_utf8_lossy(b)
        );
    }
    let out = other.ok(&["import", arg(&archive)]);
    assert!(
        report(&out)
            .0
            .starts_with("Imported from organiser: created nothing; updated nothing;"),
        "{out:?}"
    );

    // The foreign exports read back by our own import.
    let other = Dir::new();
    let cases = [
        (&people, "Imported from vcard: created 1 company, 2 person;"),
        (&tasks, "Imported from ical: created 10 task;"),
        (&notes, "Imported from markdown: created 3 note, 7 tag;"),
    ];
    for (path, said) in cases {
        let out = other.ok(&["import", arg(path)]);
        assert!(report(&out).0.starts_with(said), "{out:?}");
    }
    let back = held(&other);
    assert_eq!(back.people, before.people);
    assert_eq!(back.notes, before.notes);
    assert_eq!(back.tasks, before.tasks, "the tasks (in the inbox now)");
}

#[test]
fn through_a_running_server_import_and_export_work_the_same() {
    let dir = Dir::new();
    let server = dir.serve();
    let file = fixture("todoist/Home.csv");
    let out = dir.ok(&["import", arg(&file), "--dry-run"]);
    assert_eq!(
        report(&out).0,
        "Would import from todoist: created 10 task, 2 task list; updated nothing; skipped 1",
        "{out:?}"
    );
    server.wait_for_stderr("path=/api/v1/imports status=200");
    assert_eq!(held(&dir), Held::default(), "a dry run wrote");
    let out = dir.ok(&["import", arg(&file)]);
    assert_eq!(
        report(&out).0,
        "Imported from todoist: created 10 task, 2 task list; updated nothing; skipped 1",
        "{out:?}"
    );
    server.wait_for_stderr("path=/api/v1/imports status=201");
    let out = dir.ok(&["import", arg(&file)]);
    assert_eq!(
        report(&out).0,
        "Imported from todoist: created nothing; updated nothing; skipped 1",
        "{out:?}"
    );
    // A folder, through the server.
    let out = dir.ok(&["import", arg(&fixture("markdown/obsidian"))]);
    assert_eq!(
        report(&out).0,
        "Imported from markdown: created 3 note, 7 tag; updated nothing; skipped 3",
        "{out:?}"
    );
    // --json: the API's body.
    let body = dir.json(&["import", arg(&fixture("vcard/monica.vcf"))]);
    assert_eq!(body["data"]["from"], "vcard", "{body}");
    assert_eq!(body["data"]["created"]["person"], 2, "{body}");
    let held_now = held(&dir);
    assert_eq!(held_now.people, sorted(&["Jane Smith", "Tom Jones"]));
    assert_eq!(held_now.lists, sorted(&["Home", "Home / Garden"]));
    assert_eq!(held_now.notes.len(), 3);
    // A file that is not the format: the same refusal.
    let cut = dir.root().join("cut.vcf");
    std::fs::write(&cut, "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Cut\r\n").expect("write");
    let message = dir.run(&["import", arg(&cut)]).error();
    assert!(
        message.contains("Line 1") && message.contains("no END:VCARD"),
        "{message}"
    );
    server.wait_for_stderr("path=/api/v1/imports status=422");
    assert_eq!(held(&dir), held_now, "a refused file wrote");
    // Exports, in the current directory.
    let here = dir.root().join("here");
    std::fs::create_dir(&here).expect("a directory");
    let date = today("UTC");
    for (args, name) in [
        (&["export"][..], format!("organiser-export-{date}.zip")),
        (
            &["export", "--format", "ical"][..],
            format!("organiser-calendar-{date}.ics"),
        ),
    ] {
        let out = dir.cmd(args).current_dir(&here).run().success();
        assert!(
            out.stdout.starts_with(&format!("Exported to {name} (")),
            "{out:?}"
        );
        assert_eq!(mode(&here.join(&name)), 0o600, "{name}");
    }
    server.wait_for_stderr("path=/api/v1/export status=200");
    let entries = unzip(&here.join(format!("organiser-export-{date}.zip")));
    assert_eq!(
        entries.first().map(|(n, _)| n.as_str()),
        Some("manifest.json")
    );
    let body = dir.json(&[
        "export",
        "--format",
        "vcard",
        "--to",
        arg(&dir.root().join("p.vcf")),
    ]);
    assert!(body["data"]["bytes"].as_u64() > Some(0), "{body}");
    drop(server);
}

/// Fails, saying how to install it, unless `program` is on `PATH`.
#[track_caller]
fn require(program: &str) {
    let found = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).any(|d| d.join(program).is_file()))
        .unwrap_or(false);
    assert!(
        found,
        "`{program}` is not on PATH: these tests read our exports with the real \
         khard and khal. Install them with `apt-get install khard khal` \
         (`.ci/run` installs them)"
    );
}

/// Runs `program ARGS...` with `home` as its home, in the C locale and UTC
/// (so that dates are written one way), and expects success.
#[track_caller]
fn tool(program: &str, home: &Path, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("LC_ALL", "C.UTF-8")
        .env("TZ", "UTC")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "`{program} {}` failed ({}):\n--- stdout ---\n{stdout}\n--- stderr ---\n{}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// A store with Monica's two people (birthdays without a year), Ada with
/// a full birthday and an anniversary, someone born on 29 February, and a
/// task: what the khard and khal tests export.
fn with_people() -> Dir {
    let dir = Dir::new();
    dir.ok(&["import", arg(&fixture("vcard/monica.vcf"))]);
    dir.ok(&[
        "people",
        "add",
        "Ada",
        "Lovelace",
        "--birthday",
        "1915-12-10",
        "--date",
        "anniversary:2001-02-28",
        "--email",
        "ada@example.com",
    ]);
    dir.ok(&[
        "people",
        "add",
        "Leap",
        "Person",
        "--birthday",
        "2000-02-29",
    ]);
    dir.ok(&["tasks", "add", "Buy", "soil", "--deadline", "2031-03-01"]);
    dir
}

/// Person IDs by name.
fn person_ids(dir: &Dir) -> Vec<(String, String)> {
    let people = dir.json(&["people", "--all"]);
    people["data"]
        .as_array()
        .unwrap_or_else(|| panic!("people: {people}"))
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap_or_default().to_owned(),
                p["id"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[test]
fn khard_reads_the_vcard_export() {
    require("khard");
    let dir = with_people();
    let file = dir.root().join("people.vcf");
    dir.ok(&["export", "--format", "vcard", "--to", arg(&file)]);
    let text = std::fs::read_to_string(&file).expect("UTF-8");
    // khard reads one card a file: a vdir.
    let book = dir.root().join("khard/book");
    std::fs::create_dir_all(&book).expect("the vdir");
    let mut cards = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("BEGIN:VCARD") {
            cards.push(String::new());
        }
        match cards.last_mut() {
            Some(card) => card.push_str(line),
            None => panic!("text before the first card: {text}"),
        }
    }
    assert_eq!(cards.len(), 4, "{text}");
    for (n, card) in cards.iter().enumerate() {
        assert!(card.trim_end().ends_with("END:VCARD"), "{card}");
        std::fs::write(book.join(format!("{n}.vcf")), card).expect("a card");
    }
    let config = dir.root().join("khard/khard.conf");
    std::fs::write(
        &config,
        format!(
            "[addressbooks]\n[[organiser]]\npath = {}\n\n\
             [general]\neditor = /bin/false\nmerge_editor = /bin/false\n",
            book.display()
        ),
    )
    .expect("the configuration");
    let home = dir.root().join("khard");
    let config = arg(&config);

    let listed = tool("khard", &home, &["-c", config, "list"]);
    for name in ["Ada Lovelace", "Jane Smith", "Tom Jones", "Leap Person"] {
        assert!(listed.contains(name), "{name} in khard's list:\n{listed}");
    }
    // Its UIDs are our IDs.
    let parsable = tool("khard", &home, &["-c", config, "list", "--parsable"]);
    let ids = person_ids(&dir);
    for (name, id) in &ids {
        assert!(
            parsable
                .lines()
                .any(|l| l.starts_with(&format!("{id}\t{name}\t"))),
            "{name} ({id}) in:\n{parsable}"
        );
    }
    let id = |name: &str| {
        ids.iter()
            .find(|(n, _)| n == name)
            .map(|(_, id)| id.clone())
            .unwrap_or_else(|| panic!("{name} in {ids:?}"))
    };
    let jane = tool(
        "khard",
        &home,
        &["-c", config, "show", "--uid", &id("Jane Smith")],
    );
    for said in [
        "Name: Jane Smith",
        "Birthday: --04-12",
        "Organisation: Monica Inc.",
        "jane.smith@example.com",
        "+33 6 12 34 56 78",
    ] {
        assert!(jane.contains(said), "{said:?} in khard's show:\n{jane}");
    }
    let ada = tool(
        "khard",
        &home,
        &[
            "-c",
            config,
            "show",
            "--format",
            "yaml",
            "--uid",
            &id("Ada Lovelace"),
        ],
    );
    for said in [
        "Birthday: '1915-12-10'",
        "Anniversary: '2001-02-28'",
        "ada@example.com",
    ] {
        assert!(ada.contains(said), "{said:?} in khard's show:\n{ada}");
    }
}

#[test]
fn khal_reads_the_ical_export() {
    require("khal");
    let dir = with_people();
    let file = dir.root().join("dates.ics");
    dir.ok(&["export", "--format", "ical", "--to", arg(&file)]);
    let home = dir.root().join("khal");
    let calendar = home.join("calendar");
    std::fs::create_dir_all(&calendar).expect("the calendar");
    let config = home.join("khal.conf");
    std::fs::write(
        &config,
        format!(
            "[calendars]\n[[organiser]]\npath = {}\ntype = calendar\n\n\
             [sqlite]\npath = {}\n\n\
             [locale]\nlocal_timezone = UTC\ndefault_timezone = UTC\n\
             timeformat = %H:%M\ndateformat = %Y-%m-%d\nlongdateformat = %Y-%m-%d\n\
             datetimeformat = %Y-%m-%d %H:%M\nlongdatetimeformat = %Y-%m-%d %H:%M\n",
            calendar.display(),
            home.join("khal.db").display()
        ),
    )
    .expect("the configuration");
    let config = arg(&config);
    tool(
        "khal",
        &home,
        &[
            "-c",
            config,
            "import",
            "--batch",
            "-a",
            "organiser",
            arg(&file),
        ],
    );
    let list = |from: &str, to: &str| -> Vec<String> {
        let out = tool(
            "khal",
            &home,
            &[
                "-c",
                config,
                "list",
                "--day-format",
                "",
                "--format",
                "{start-date} {title}",
                from,
                to,
            ],
        );
        out.lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_owned)
            .collect()
    };
    // A year with no 29 February: that birthday is on the 28th.
    assert_eq!(
        list("2031-01-01", "2031-12-31"),
        [
            "2031-02-28 Ada Lovelace's anniversary",
            "2031-02-28 Leap Person's birthday",
            "2031-04-12 Jane Smith's birthday",
            "2031-04-12 Tom Jones's birthday",
            "2031-06-20 Jane Smith's anniversary",
            "2031-12-10 Ada Lovelace's birthday",
        ],
        "khal's list of 2031"
    );
    assert_eq!(
        list("2032-02-27", "2032-03-01"),
        [
            "2032-02-28 Ada Lovelace's anniversary",
            "2032-02-29 Leap Person's birthday",
        ],
        "khal's list around 29 February 2032"
    );
    // The same list in khal's own words, as a person would read it.
    let out = tool(
        "khal",
        &home,
        &["-c", config, "list", "2031-12-10", "2031-12-10"],
    );
    let mut lines = out.lines();
    assert!(
        lines.next().is_some_and(|l| l.contains("2031-12-10"))
            && lines
                .next()
                .is_some_and(|l| l.contains("Ada Lovelace's birthday")),
        "khal list 2031-12-10:\n{out}"
    );
}
