//! Exporting: each format in the current directory, owner only; the
//! archive back into an empty store and the foreign exports read back;
//! import and export through a running server.

use std::io::Read;
use std::path::Path;

use super::{Held, arg, fixture, held, report, sorted};
use crate::util::{Dir, mode, today};

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
