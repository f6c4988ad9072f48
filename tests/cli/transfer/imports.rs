//! Importing the files other tools write: found from their content,
//! imported again with nothing changed, what each keeps, dry runs, a
//! folder of Obsidian notes, and files that are not the format refused
//! with their line and nothing written.

use serde_json::Value;

use super::{Held, arg, fixture, held, names, report, sorted};
use crate::util::Dir;

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
