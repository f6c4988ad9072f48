//! Export and import through `Organiser::handle` (EXTENSIONS.md §5):
//! each foreign format read from files shaped as the other tools write
//! them (`tests/fixtures/imports/`), found from the content when `from`
//! is left out; the same file twice changes nothing; a dry run reports
//! and writes nothing; files that are not the format (not it at all, cut
//! short, the wrong encoding) are 422 on `base` and write nothing; the
//! 400s of the query; the exports' types and names.

use std::path::Path;

use organiser::transfer::{ExportFormat, Format, ImportParams};
use serde_json::{Value, json};

use organiser::Options;

use crate::common::check::{Call, Expect, check};
use crate::common::feed_server::{FeedServer, vcalendar};
use crate::common::{Core, Setup};

/// A fixture's bytes.
fn fixture(path: &str) -> Vec<u8> {
    let full = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/imports")
        .join(path);
    std::fs::read(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// A folder of fixtures as one zip, as `organiser import DIR` sends it.
fn folder(path: &str) -> Vec<u8> {
    let full = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/imports")
        .join(path);
    organiser::transfer::read_folder(&full).expect("a folder")
}

fn import(query: &str, bytes: Vec<u8>) -> Call {
    Call::raw(
        "POST",
        format!("/imports{query}"),
        "application/octet-stream",
        bytes,
    )
}

/// Every format's real files: what each makes, by kind, and a second
/// import of the same file that makes and changes nothing.
#[test]
fn every_format_imports_once_and_the_same_file_again_changes_nothing() {
    let cases: Vec<(&str, &str, Vec<u8>, Value)> = vec![
        (
            "taskwarrior",
            "export.json",
            fixture("taskwarrior/export.json"),
            json!({"task": 13, "task_list": 4}),
        ),
        (
            "todoist",
            "Home.csv",
            fixture("todoist/Home.csv"),
            json!({"task": 10, "task_list": 2}),
        ),
        (
            "todoist",
            "todoist-backup.json",
            fixture("todoist/todoist-backup.json"),
            json!({"task": 7, "task_list": 2}),
        ),
        (
            "vcard",
            "apple.vcf",
            fixture("vcard/apple.vcf"),
            json!({"company": 1, "person": 2}),
        ),
        (
            "vcard",
            "google.vcf",
            fixture("vcard/google.vcf"),
            json!({"company": 1, "person": 2}),
        ),
        (
            "vcard",
            "monica.vcf",
            fixture("vcard/monica.vcf"),
            json!({"company": 1, "person": 2}),
        ),
        (
            "ical",
            "tasks.ics",
            fixture("ical/tasks.ics"),
            json!({"task": 7}),
        ),
        (
            "markdown",
            "obsidian",
            folder("markdown/obsidian"),
            json!({"note": 3, "tag": 7}),
        ),
        (
            "markdown",
            "joplin",
            folder("markdown/joplin"),
            json!({"note": 3, "document": 1, "tag": 3}),
        ),
    ];
    for (from, name, bytes, created) in cases {
        let s = Core::start();
        // Found from the content: no `from`.
        let first = s
            .call(&import(&format!("?name={name}"), bytes.clone()))
            .expect(201);
        assert_eq!(first.data()["from"], from, "{name}");
        assert_eq!(first.data()["created"], created, "{name}: {}", first.body);
        assert_eq!(first.data()["updated"], json!({}), "{name}");
        let again = s
            .call(&import(&format!("?from={from}&name={name}"), bytes))
            .expect(201);
        assert_eq!(again.data()["created"], json!({}), "{name}: {}", again.body);
        assert_eq!(again.data()["updated"], json!({}), "{name}: {}", again.body);
    }
}

/// A dry run answers 200 with the report a real import then gives, and
/// writes nothing: no task, no list, no photo file.
#[test]
fn a_dry_run_reports_what_an_import_would_do_and_writes_nothing() {
    let s = Core::start();
    for (query, bytes) in [
        ("?dry_run=true", fixture("taskwarrior/export.json")),
        ("?dry_run=true&from=vcard", fixture("vcard/apple.vcf")),
    ] {
        let before = [
            s.get("/tasks?limit=100").expect(200).body,
            s.get("/people").expect(200).body,
            s.get("/task_lists").expect(200).body,
        ];
        let dry = s.call(&import(query, bytes.clone())).expect(200);
        assert_eq!(dry.data()["dry_run"], true);
        let after = [
            s.get("/tasks?limit=100").expect(200).body,
            s.get("/people").expect(200).body,
            s.get("/task_lists").expect(200).body,
        ];
        assert_eq!(after, before, "{query}: a dry run wrote");
        let real = s
            .call(&import(
                &query.replace("dry_run=true", "dry_run=false"),
                bytes,
            ))
            .expect(201);
        for key in ["from", "created", "updated", "skipped"] {
            assert_eq!(real.data()[key], dry.data()[key], "{query}: {key}");
        }
        assert_eq!(real.data()["dry_run"], false);
    }
}

/// Files that are not the format, cut short or in another encoding: 422
/// on `base` with the line or entry, and nothing written (`check` holds
/// the store to what it was).
#[test]
fn a_file_that_is_not_the_format_is_refused_whole() {
    let s = Core::start();
    let cut = |path: &str, keep: usize| {
        let mut b = fixture(path);
        b.truncate(keep);
        b
    };
    let latin1 = b"TYPE,CONTENT,PRIORITY,INDENT\r\ntask,Caf\xe9,4,1\r\n".to_vec();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("?from=taskwarrior", b"this is not JSON".to_vec()),
        ("?from=taskwarrior", cut("taskwarrior/export.json", 300)),
        ("?from=vcard", b"hello".to_vec()),
        ("?from=vcard", cut("vcard/apple.vcf", 120)),
        (
            "?from=vcard",
            b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Andr\xe9\r\nEND:VCARD\r\n".to_vec(),
        ),
        ("?from=ical", b"BEGIN:VCARD\r\nEND:VCARD\r\n".to_vec()),
        (
            "?from=todoist",
            b"name,email\r\nada,ada@example.com\r\n".to_vec(),
        ),
        ("?from=todoist", latin1),
        ("?from=todoist", cut("todoist/todoist-backup.json", 200)),
        (
            "?from=markdown&name=x.zip",
            b"PK\x03\x04 not really a zip".to_vec(),
        ),
        ("?from=organiser", b"PK\x03\x04 not really a zip".to_vec()),
        ("?from=organiser", fixture("vcard/apple.vcf")),
        ("", b"\x00\x01\x02 nothing any tool writes".to_vec()),
    ];
    for (query, bytes) in cases {
        let reply = check(&s, import(query, bytes), Expect::invalid("base"));
        let why = reply.body["error"]["details"]["base"][0]
            .as_str()
            .unwrap_or("");
        assert!(!why.is_empty(), "{query}: {}", reply.body);
    }
}

#[test]
fn the_query_is_read_before_the_file() {
    let s = Core::start();
    for (query, key) in [("?from=evernote", "from"), ("?dry_run=maybe", "dry_run")] {
        check(
            &s,
            import(query, fixture("vcard/apple.vcf")),
            Expect::error(400, "invalid_parameter", Some(key)),
        );
    }
    check(
        &s,
        Call::get("/export?format=pdf"),
        Expect::error(400, "invalid_parameter", Some("format")),
    );
}

/// What the drafts become: a Taskwarrior task's dates, list, repeat and
/// words; a card's rows; a note's title, tags and dates.
#[test]
fn what_each_format_maps_to() {
    let s = Core::start();
    s.call(&import(
        "?from=taskwarrior",
        fixture("taskwarrior/export.json"),
    ))
    .expect(201);
    let tasks = s.get("/tasks?limit=100").expect(200).body["data"].clone();
    let tasks = tasks.as_array().expect("tasks");
    assert!(
        tasks.iter().any(|t| !t["repeat"].is_null()),
        "a repeating task"
    );
    assert!(
        tasks.iter().any(|t| t["status"] == "completed"),
        "a completed task"
    );
    assert!(
        tasks.iter().any(|t| t["description_text"]
            .as_str()
            .unwrap_or("")
            .contains("Tags:")),
        "tags kept in words"
    );

    s.call(&import("?from=vcard", fixture("vcard/apple.vcf")))
        .expect(201);
    let people = s.get("/people").expect(200).body["data"].clone();
    let johnny = people
        .as_array()
        .and_then(|p| {
            p.iter()
                .find(|p| p["name"].as_str().unwrap_or("").contains("Appleseed"))
        })
        .expect("Johnny Appleseed")
        .clone();
    assert!(
        !johnny["avatar"].is_null(),
        "the base64 photo became the avatar"
    );
    let birthday = johnny["key_dates"]
        .as_array()
        .and_then(|k| k.iter().find(|k| k["kind"] == "birthday"))
        .expect("a birthday");
    assert_eq!(
        birthday["year"],
        Value::Null,
        "X-APPLE-OMIT-YEAR=1604 is a date without a year"
    );
    assert_eq!(
        (birthday["month"].clone(), birthday["day"].clone()),
        (json!(4), json!(12))
    );

    s.call(&import("?from=markdown", folder("markdown/joplin")))
        .expect(201);
    let notes = s.get("/notes?limit=100").expect(200).body["data"].clone();
    let plans = notes
        .as_array()
        .and_then(|n| {
            n.iter()
                .find(|n| n["name"].as_str().unwrap_or("").starts_with("Plans"))
        })
        .expect("Joplin's Plans note")
        .clone();
    assert!(
        !plans["tag_ids"].as_array().expect("tags").is_empty(),
        "front matter tags"
    );
    assert_ne!(
        plans["created_at"], plans["updated_at"],
        "created kept from the front matter"
    );
}

/// Each export: its type, its file name, and a body that reads back.
#[test]
fn each_export_has_its_type_and_name() {
    let s = Core::start();
    s.call(&import("?from=vcard", fixture("vcard/apple.vcf")))
        .expect(201);
    s.call(&import("?from=ical", fixture("ical/tasks.ics")))
        .expect(201);
    s.call(&import("?from=markdown", folder("markdown/obsidian")))
        .expect(201);
    let today = s.org.today().to_string();
    for (format, name, starts) in [
        (
            ExportFormat::Organiser,
            "export-{today}.zip",
            &b"PK\x03\x04"[..],
        ),
        (
            ExportFormat::Vcard,
            "people-{today}.vcf",
            &b"BEGIN:VCARD"[..],
        ),
        (
            ExportFormat::Ical,
            "calendar-{today}.ics",
            &b"BEGIN:VCALENDAR"[..],
        ),
        (
            ExportFormat::Markdown,
            "notes-{today}.zip",
            &b"PK\x03\x04"[..],
        ),
    ] {
        let file = s.org.transfer().export(format).expect("an export");
        assert_eq!(
            file.filename,
            format!("organiser-{}", name.replace("{today}", &today))
        );
        assert!(file.bytes.starts_with(starts), "{format:?}");
    }
    // What the foreign exports write reads back through the importers.
    let vcf = s
        .org
        .transfer()
        .export(ExportFormat::Vcard)
        .expect("vcard")
        .bytes;
    let other = Core::start();
    let params = ImportParams {
        from: Some(Format::Vcard),
        ..ImportParams::default()
    };
    let report = other
        .org
        .transfer()
        .import(params, vcf)
        .expect("vcard back");
    assert_eq!(report.created.get("person"), Some(&2));
}

/// The entries of a zip, by name.
fn unzip(bytes: &[u8]) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip");
    let mut out = std::collections::BTreeMap::new();
    for i in 0..archive.len() {
        let mut file = archive.by_index(i).expect("an entry");
        let mut data = Vec::new();
        std::io::Read::read_to_end(&mut file, &mut data).expect("its bytes");
        out.insert(file.name().expect("a name").to_string(), data);
    }
    out
}

/// A store that may follow feeds on this machine (the tests' feed server).
fn open_core() -> Core {
    Core::with(Setup {
        options: Options {
            allow_private_feeds: true,
            ..Options::default()
        },
        ..Setup::default()
    })
}

/// A store with a record of every kind the archive holds, and deletions;
/// its feed's server.
fn everything() -> (Core, FeedServer) {
    let s = open_core();
    let server = FeedServer::start();
    server.serve(
        "/team.ics",
        vcalendar(&["UID:1\nSUMMARY:Stand-up\nDTSTART:20260310T090000Z"]),
    );
    let address = server
        .url("/team.ics")
        .replacen("://", "://me:feed-password@", 1);
    let png = {
        let mut out = std::io::Cursor::new(Vec::new());
        image::RgbImage::from_fn(8, 8, |x, y| image::Rgb([x as u8 * 30, y as u8 * 30, 90]))
            .write_to(&mut out, image::ImageFormat::Png)
            .expect("a PNG");
        out.into_inner()
    };
    let upload = |kind: &str, name: &str, ty: &str, bytes: Vec<u8>| -> String {
        s.call(&Call::upload(
            &format!("kind={kind}&filename={name}"),
            ty,
            bytes,
        ))
        .expect(201)
        .data()["signed_id"]
            .as_str()
            .expect("a signed id")
            .to_owned()
    };
    let id = |v: &Value| v["id"].as_str().expect("an id").to_owned();
    let list = s
        .post("/task_lists", json!({"task_list": {"name": "Home"}}))
        .expect(201);
    let gone = s
        .post("/task_lists", json!({"task_list": {"name": "Old"}}))
        .expect(201);
    s.delete(&format!("/task_lists/{}", id(gone.data())))
        .expect(204);
    let photo = upload("avatar", "ada.png", "image/png", png.clone());
    let ada = s
        .post(
            "/people",
            json!({"person": {"name": "Ada Lovelace", "avatar": photo, "relationships": ["friend"],
                "key_dates": [{"kind": "birthday", "day": 10, "month": 12, "year": 1915}],
                "email_addresses": [{"address": "ada@example.com", "label": "home"}],
                "positions": [{"title": "Analyst", "company_name": "Engines Ltd"}]}}),
        )
        .expect(201);
    let bob = s
        .post("/people", json!({"person": {"name": "Bob"}}))
        .expect(201);
    s.post(
        "/person_links",
        json!({"person_link": {"person_id": id(ada.data()), "related_person_id": id(bob.data()), "kind": "friend"}}),
    )
    .expect(201);
    let project = s
        .post(
            "/projects",
            json!({"project": {"name": "Engine", "deadline_on": "2030-01-01"}}),
        )
        .expect(201);
    s.post(
        "/project_members",
        json!({"project_member": {"project_id": id(project.data()), "person_id": id(bob.data())}}),
    )
    .expect(201);
    s.patch(
        &format!("/projects/{}", id(project.data())),
        json!({"project": {"status": "on_hold"}}),
    )
    .expect(200);
    let task = s
        .post(
            "/tasks",
            json!({"task": {"title": "Water the plants", "task_list_id": id(list.data()),
                "deadline_on": s.org.today().to_string(),
                "repeat": {"rule": "FREQ=WEEKLY"}}}),
        )
        .expect(201);
    s.patch(
        &format!("/tasks/{}", id(task.data())),
        json!({"task": {"status": "completed"}}),
    )
    .expect(200);
    s.post(
        "/tasks",
        json!({"task": {"title": "Call Bob", "person_id": id(bob.data())}}),
    )
    .expect(201);
    let dropped = s
        .post("/tasks", json!({"task": {"title": "Dropped"}}))
        .expect(201);
    s.delete(&format!("/tasks/{}", id(dropped.data())))
        .expect(204);
    let category = s
        .post("/categories", json!({"category": {"name": "Journal"}}))
        .expect(201);
    let image = upload("note_image", "plot.png", "image/png", png);
    let body = format!(
        "<p>Met <span data-mention=\"{}\">@Ada</span> about <span data-project=\"{}\">^Engine</span> #ideas</p><p><img data-upload=\"{image}\"></p>",
        id(ada.data()),
        id(project.data())
    );
    let note = s
        .post("/notes", json!({"note": {"title": "Monday", "body_html": body, "category_id": id(category.data())}}))
        .expect(201);
    let folder = s
        .post("/folders", json!({"folder": {"name": "Papers"}}))
        .expect(201);
    let pdf = upload(
        "document",
        "deed.pdf",
        "application/pdf",
        b"%PDF-1.4\n%%EOF\n".to_vec(),
    );
    s.post(
        "/documents",
        json!({"document": {"upload": pdf, "folder_id": id(folder.data()), "note_ids": [id(note.data())]}}),
    )
    .expect(201);
    s.post(
        "/calendar_feeds",
        json!({"calendar_feed": {"address": address, "color": "blue"}}),
    )
    .expect(201);
    let provider = s
        .post(
            "/ai_providers",
            json!({"ai_provider": {"name": "Mock", "kind": "mock"}}),
        )
        .expect(201);
    s.post(
        "/ai_models",
        json!({"ai_model": {"ai_provider_id": id(provider.data()), "identifier": "mock-small"}}),
    )
    .expect(201);
    s.post(
        "/notification_channels",
        json!({"notification_channel": {"name": "Hook", "kind": "webhook",
               "url": "https://hooks.example.com/organiser", "secret": "whsec-signing-key"}}),
    )
    .expect(201);
    s.post(
        "/tasks",
        json!({"task": {"title": "Call the dentist", "remind_at": "2026-03-12T08:30:00Z"}}),
    )
    .expect(201);
    (s, server)
}

/// EXTENSIONS.md §5: exported, imported into an empty store and exported
/// again, `records/` is the same byte for byte; the same archive into
/// the store it came from changes nothing; no secret is in it.
#[test]
fn the_archive_round_trips_exactly_and_twice_changes_nothing() {
    let (s, _server) = everything();
    let first = s
        .org
        .transfer()
        .export(ExportFormat::Organiser)
        .expect("an export")
        .bytes;
    let entries = unzip(&first);
    let text: String = entries
        .values()
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .collect();
    for secret in ["feed-password", "whsec-signing-key"] {
        assert!(!text.contains(secret), "{secret} was exported");
    }
    for kind in [
        "upload",
        "task_list",
        "person",
        "person_link",
        "project",
        "project_member",
        "project_event",
        "task",
        "tag",
        "category",
        "note",
        "folder",
        "document",
        "calendar_feed",
        "ai_provider",
        "ai_model",
        "notification_channel",
    ] {
        let lines = &entries[&format!("records/{kind}.jsonl")];
        assert!(!lines.is_empty(), "no {kind} was exported");
    }
    assert!(!entries["deletions.jsonl"].is_empty());

    let empty = open_core();
    let params = ImportParams {
        from: None,
        ..ImportParams::default()
    };
    let report = empty
        .org
        .transfer()
        .import(params.clone(), first.clone())
        .expect("the import");
    assert_eq!(report.from, "organiser");
    assert!(report.updated.keys().all(|k| k == "owner"), "{report:?}");
    let again = unzip(
        &empty
            .org
            .transfer()
            .export(ExportFormat::Organiser)
            .expect("again")
            .bytes,
    );
    for (name, bytes) in entries.iter().filter(|(n, _)| n.starts_with("records/")) {
        assert_eq!(
            String::from_utf8_lossy(&again[name]),
            String::from_utf8_lossy(bytes),
            "{name} differs after the round trip"
        );
    }
    assert_eq!(again["deletions.jsonl"], entries["deletions.jsonl"]);
    // The imported store works: its photo and image answer, its lists list.
    let people = empty.get("/people").expect(200).body["data"].clone();
    assert_eq!(people.as_array().map(Vec::len), Some(2));

    // Into the store it came from: nothing.
    let same = s
        .org
        .transfer()
        .import(params, first)
        .expect("the same archive");
    assert_eq!((same.created.len(), same.updated.len()), (0, 0), "{same:?}");
}

/// A Todoist CSV names its project by its file's name, without `.csv`
/// and without the ` [id]` Todoist's backup zip adds.
#[test]
fn a_todoist_csv_names_its_project_by_its_file() {
    for name in ["Home.csv", "Home%20%5B2203306141%5D.csv"] {
        let s = Core::start();
        s.call(&import(
            &format!("?from=todoist&name={name}"),
            fixture("todoist/Home.csv"),
        ))
        .expect(201);
        let lists = s.get("/task_lists").expect(200).body["data"].clone();
        let names: Vec<&str> = lists
            .as_array()
            .map(|l| l.iter().filter_map(|l| l["name"].as_str()).collect())
            .unwrap_or_default();
        assert_eq!(names, ["Home", "Home / Garden"], "{name}");
    }
}
