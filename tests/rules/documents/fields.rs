//! Document 3's "Document (PDF)" and DECISIONS-docs.md "Documents": create
//! from an upload, the fields and their 422s, the file and its addresses,
//! change, delete and restore, and `GET /documents`.

use serde_json::{Value, json};

use super::{
    DOCUMENT_KEYS, FILE_KEYS, api_path, assert_listed, change, create, document, document_with,
    folder, get_document, new_document, note, pdf, project, record, restore, reversed,
    set_document, someone, sorted, task, task_in_deleted_list, text, upload_bytes, upload_image,
    upload_pdf,
};
use crate::common::fixtures::{UNKNOWN, all, deletions, id, ids, keys, now_string, records};
use crate::common::{Call, Core, Expect, TestServer, check, send};

/// A new document has every field: the name from the filename without its
/// extension, no folder, no links, the file as uploaded, and its addresses.
#[test]
fn a_document_is_made_from_an_unused_pdf_upload() {
    let s = Core::start();
    let bytes = pdf("invoice");
    let size = bytes.len();
    let signed = upload_bytes(&s, "Invoice 12.pdf", bytes);
    let made = check(&s, create(json!({ "upload": signed })), Expect::status(201));
    let doc = made.data().clone();
    assert_eq!(keys(&doc), DOCUMENT_KEYS, "{doc}");
    let d = id(&doc);
    assert_eq!(doc["name"], "Invoice 12");
    assert_eq!(doc["folder_id"], Value::Null);
    for field in ["note_ids", "project_ids", "task_ids", "person_ids", "links"] {
        assert_eq!(doc[field], json!([]), "{field}");
    }
    assert_eq!(doc["created_at"], now_string(&s));
    assert_eq!(doc["updated_at"], now_string(&s));
    let file = &doc["file"];
    assert_eq!(keys(file), FILE_KEYS, "{file}");
    assert_eq!(file["filename"], "Invoice 12.pdf");
    assert_eq!(file["byte_size"], size);
    assert_eq!(file["content_type"], "application/pdf");
    assert!(
        text(file, "url").ends_with(&format!("/api/v1/documents/{d}/file")),
        "{file}"
    );
    assert!(
        text(file, "download_url").ends_with(&format!("/api/v1/documents/{d}/file?download=1")),
        "{file}"
    );
    assert!(
        text(file, "thumbnail_url").ends_with(&format!("/api/v1/documents/{d}/thumbnail")),
        "{file}"
    );
    assert_eq!(get_document(&s, &d), doc);

    // The upload is used now: it makes no second document.
    check(
        &s,
        create(json!({ "upload": signed })),
        Expect::invalid("upload"),
    );
}

/// DECISIONS "Documents": the name is squished; blank or absent takes the
/// filename without its (last) extension; at most 200 characters.
#[test]
fn the_name_is_squished_and_defaults_to_the_filename() {
    let s = Core::start();
    for (filename, name, wanted) in [
        ("Invoice 12.pdf", json!(null), "Invoice 12"),
        ("Invoice 12.pdf", json!("   "), "Invoice 12"),
        ("Invoice 12.pdf", json!("  Big   plan  "), "Big plan"),
        ("report.final.pdf", json!(null), "report.final"),
        ("scan.pdf", json!("x".repeat(200)), &"x".repeat(200)),
        // Invisible characters and direction overrides are left out
        // (issue 22): this name would read "invoiceexe.pdf".
        (
            "scan.pdf",
            json!("invoice\u{202e}fdp.exe"),
            "invoicefdp.exe",
        ),
        (
            "scan.pdf",
            json!("\u{2066}Budget\u{200b} 2026\u{2069}"),
            "Budget 2026",
        ),
    ] {
        let signed = upload_pdf(&s, filename);
        let mut fields = json!({ "upload": signed });
        if !name.is_null() {
            fields["name"] = name.clone();
        }
        let doc = new_document(&s, fields);
        assert_eq!(doc["name"], wanted, "{filename} {name}");
        assert_eq!(doc["file"]["filename"], filename);
    }
    // Names need not be unique.
    let a = document(&s, "Same");
    let b = document(&s, "Same");
    assert_ne!(a, b);
}

/// The folder and each id array are set on create; the arrays come back
/// sorted, duplicates once, and `links` lists notes, projects, tasks, then
/// people.
#[test]
fn create_takes_a_folder_and_every_kind_of_link() {
    let s = Core::start();
    let f = folder(&s, "Bills", None);
    let n1 = note(&s, "First");
    let n2 = note(&s, "Second");
    let p = project(&s, "House");
    let t = task(&s, "Pay");
    let ada = someone(&s, "Ada");
    let doc = document_with(
        &s,
        "Bill",
        json!({
            "folder_id": f,
            "person_ids": [ada],
            "task_ids": [t, t],
            "project_ids": [p],
            "note_ids": [n2, n1],
        }),
    );
    assert_eq!(doc["folder_id"], json!(f));
    assert_eq!(doc["note_ids"], sorted(&[&n1, &n2]));
    assert_eq!(doc["project_ids"], json!([p]));
    assert_eq!(doc["task_ids"], json!([t]));
    assert_eq!(doc["person_ids"], json!([ada]));
    let links = doc["links"].as_array().expect("links").clone();
    assert_eq!(links.len(), 5, "{doc}");
    let targets: Vec<(String, String)> = links
        .iter()
        .map(|l| {
            let fields = ["note_id", "project_id", "task_id", "person_id"];
            let set: Vec<&str> = fields.into_iter().filter(|f| !l[*f].is_null()).collect();
            assert_eq!(set.len(), 1, "one target: {l}");
            assert_eq!(
                keys(l),
                ["id", "note_id", "person_id", "project_id", "task_id"],
                "{l}"
            );
            (set[0].to_owned(), text(l, set[0]))
        })
        .collect();
    assert_eq!(
        targets.iter().map(|(f, _)| f.as_str()).collect::<Vec<_>>(),
        ["note_id", "note_id", "project_id", "task_id", "person_id"]
    );
    // Within a kind by link id.
    assert!(text(&links[0], "id") < text(&links[1], "id"));
    // The links are those of /document_links.
    let listed = all(&s, &format!("/document_links?document_id={}", id(&doc)));
    assert_eq!(listed.len(), 5);
}

/// DECISIONS "Documents": every bad field is 422 on it (400 never: the
/// id arrays' shape is 422 too), nothing is saved, and the upload stays
/// unused.
#[test]
fn create_refuses_bad_fields_saves_nothing_and_keeps_the_upload() {
    let s = Core::start();
    let signed = upload_pdf(&s, "Keep.pdf");
    let used = upload_pdf(&s, "Used.pdf");
    new_document(&s, json!({ "upload": used }));
    let image = upload_image(&s);
    let gone_note = note(&s, "Gone");
    s.delete(&format!("/notes/{gone_note}")).expect(204);
    let gone_project = project(&s, "Gone");
    s.delete(&format!("/projects/{gone_project}")).expect(204);
    let gone_task = task(&s, "Gone");
    s.delete(&format!("/tasks/{gone_task}")).expect(204);
    let listless = task_in_deleted_list(&s);
    let gone_person = someone(&s, "Gone");
    s.delete(&format!("/people/{gone_person}")).expect(204);
    let with = |field: &str, value: Value| {
        let mut fields = json!({ "upload": signed });
        fields[field] = value;
        create(fields)
    };
    let mut cases: Vec<(Call, Expect)> = vec![
        (create(json!({})), Expect::invalid("upload")),
        (create(json!({ "upload": null })), Expect::invalid("upload")),
        (create(json!({ "upload": "" })), Expect::invalid("upload")),
        (
            create(json!({ "upload": "forged" })),
            Expect::invalid("upload"),
        ),
        (create(json!({ "upload": used })), Expect::invalid("upload")),
        (
            create(json!({ "upload": image })),
            Expect::invalid("upload"),
        ),
        (
            with("name", json!("x".repeat(201))),
            Expect::invalid("name"),
        ),
        (with("name", json!("bell\u{7}")), Expect::invalid("name")),
        (
            with("folder_id", json!("nope")),
            Expect::invalid("folder_id"),
        ),
        (
            with("folder_id", json!(UNKNOWN)),
            Expect::invalid("folder_id"),
        ),
        (
            with("note_ids", json!([gone_note])),
            Expect::invalid("note_ids"),
        ),
        (
            with("project_ids", json!([gone_project])),
            Expect::invalid("project_ids"),
        ),
        (
            with("task_ids", json!([gone_task])),
            Expect::invalid("task_ids"),
        ),
        (
            with("task_ids", json!([listless])),
            Expect::invalid("task_ids"),
        ),
        (
            with("person_ids", json!([gone_person])),
            Expect::invalid("person_ids"),
        ),
    ];
    for field in ["note_ids", "project_ids", "task_ids", "person_ids"] {
        for value in [json!([UNKNOWN]), json!(["nope"]), json!("x"), json!([1])] {
            cases.push((with(field, value), Expect::invalid(field)));
        }
    }
    let before = all(&s, "/documents");
    let links_before = all(&s, "/document_links");
    for (call, expected) in cases {
        check(&s, call, expected);
    }
    assert_eq!(all(&s, "/documents"), before, "nothing saved");
    assert_eq!(all(&s, "/document_links"), links_before);
    // The upload was not used up.
    let doc = new_document(&s, json!({ "upload": signed }));
    assert_eq!(doc["name"], "Keep");
}

/// DECISIONS "Documents": a change sends only what changes; each id array
/// replaces its kind (a link kept keeps its id), null or `[]` removes
/// them; `upload` is 400; a change that changes nothing keeps
/// `updated_at`, a name or link change gives a new one; a refused change
/// changes nothing.
#[test]
fn a_change_replaces_each_kind_sent_and_keeps_the_rest() {
    let s = Core::start();
    let n1 = note(&s, "One");
    let n2 = note(&s, "Two");
    let p = project(&s, "House");
    let ada = someone(&s, "Ada");
    let f = folder(&s, "Bills", None);
    let made = document_with(
        &s,
        "Bill",
        json!({"note_ids": [n1], "project_ids": [p], "person_ids": [ada]}),
    );
    let d = id(&made);
    let kept_link = made["links"][1].clone();
    assert_eq!(kept_link["project_id"], json!(p));

    s.advance(5);
    let changed = set_document(&s, &d, json!({"note_ids": [n2]}));
    assert_eq!(changed["note_ids"], json!([n2]));
    assert_eq!(changed["project_ids"], json!([p]), "other kinds are kept");
    assert_eq!(changed["person_ids"], json!([ada]));
    assert_eq!(changed["links"][1], kept_link, "a kept link keeps its id");
    assert_eq!(changed["name"], "Bill");
    assert_eq!(changed["updated_at"], now_string(&s));

    // Nothing changes: updated_at kept.
    s.advance(5);
    let same = set_document(
        &s,
        &d,
        json!({"name": "Bill", "folder_id": null, "note_ids": [n2], "project_ids": [p]}),
    );
    assert_eq!(same, changed);
    assert_eq!(set_document(&s, &d, json!({})), changed);
    let put = check(
        &s,
        Call::put(
            format!("/documents/{d}"),
            json!({"document": {"name": "Bill"}}),
        ),
        Expect::status(200),
    );
    assert_eq!(put.data(), &changed);

    s.advance(5);
    let moved = set_document(&s, &d, json!({"folder_id": f, "name": "  New   name "}));
    assert_eq!(moved["folder_id"], json!(f));
    assert_eq!(moved["name"], "New name");
    assert_eq!(moved["updated_at"], now_string(&s));

    s.advance(5);
    let cleared = set_document(&s, &d, json!({"note_ids": null, "project_ids": []}));
    assert_eq!(cleared["note_ids"], json!([]));
    assert_eq!(cleared["project_ids"], json!([]));
    assert_eq!(cleared["person_ids"], json!([ada]));
    assert_eq!(cleared["links"].as_array().unwrap().len(), 1);
    assert_eq!(cleared["updated_at"], now_string(&s));
    let out = set_document(&s, &d, json!({"folder_id": null}));
    assert_eq!(out["folder_id"], Value::Null);

    // Refused changes change nothing.
    let before = get_document(&s, &d);
    s.advance(5);
    let another = upload_pdf(&s, "Other.pdf");
    for (call, expected) in [
        (
            change(&d, json!({"upload": another})),
            Expect::bad_param(Some("upload")),
        ),
        (
            change(&d, json!({"name": "x".repeat(201), "note_ids": [n1]})),
            Expect::invalid("name"),
        ),
        (
            change(&d, json!({"name": "Fine", "folder_id": UNKNOWN})),
            Expect::invalid("folder_id"),
        ),
        (
            change(&d, json!({"name": "Fine", "note_ids": [n1, UNKNOWN]})),
            Expect::invalid("note_ids"),
        ),
        (
            change(&d, json!({"name": "Fine", "person_ids": "x"})),
            Expect::invalid("person_ids"),
        ),
        (
            change(UNKNOWN, json!({"name": "Fine"})),
            Expect::error(404, "not_found", None),
        ),
    ] {
        check(&s, call, expected);
    }
    assert_eq!(get_document(&s, &d), before);
    // The upload refused on a change is still free.
    new_document(&s, json!({ "upload": another }));
}

/// Document 1 "Deletion" and DECISIONS "Documents": DELETE writes a
/// `document` deletion record at once; restoration within 20 s brings it
/// back with its links and a new `updated_at`; after 20 s it is 404; a
/// deleted document is 404 everywhere, its file routes too.
#[test]
fn a_deleted_document_comes_back_within_20_seconds_then_is_gone() {
    let s = Core::start();
    let n = note(&s, "Linked");
    let made = document_with(&s, "Deed", json!({"note_ids": [n]}));
    let d = id(&made);
    let paths = [
        format!("/documents/{d}"),
        api_path(&text(&made["file"], "url")),
        api_path(&text(&made["file"], "thumbnail_url")),
    ];

    s.advance(5);
    s.delete(&format!("/documents/{d}")).expect(204);
    assert_eq!(deletions(&s), records(&[("document", &d)]));
    for path in &paths {
        assert_eq!(s.get(path).status, 404, "{path}");
    }
    assert!(ids(&s, "/documents").is_empty());
    s.delete(&format!("/documents/{d}"))
        .expect_error(404, "not_found", None);
    check(
        &s,
        change(&d, json!({"name": "x"})),
        Expect::error(404, "not_found", None),
    );

    s.advance(19);
    let back = restore(&s, "documents", &d).expect(200).data().clone();
    assert_eq!(back["updated_at"], now_string(&s));
    assert_eq!(back["note_ids"], json!([n]));
    assert_eq!(back["links"], made["links"]);
    assert_eq!(back["file"], made["file"]);
    assert!(deletions(&s).is_empty(), "the record is removed");
    assert_eq!(get_document(&s, &d), back);
    // A live document's restoration returns it.
    assert_eq!(restore(&s, "documents", &d).expect(200).data(), &back);

    s.delete(&format!("/documents/{d}")).expect(204);
    s.advance(20);
    s.get("/documents").expect(200);
    restore(&s, "documents", &d).expect_error(404, "not_found", None);
    assert_eq!(deletions(&s), records(&[("document", &d)]));
    assert!(all(&s, &format!("/document_links?note_id={n}")).is_empty());
    restore(&s, "documents", UNKNOWN).expect_error(404, "not_found", None);
}

/// DECISIONS "Documents": the listing's orders (name ignoring case by
/// default, created_at, updated_at, id) both ways, a page of one at a
/// time, `count`, and `updated_since`.
#[test]
fn the_listing_takes_every_order_and_direction_and_pages_by_one() {
    let s = Core::start();
    let mut made = Vec::new();
    for name in ["banana", "Apple", "cherry", "apple pie"] {
        made.push(document(&s, name));
        s.advance(1);
    }
    // Change the first so that updated_at differs from created_at order.
    s.advance(1);
    set_document(&s, &made[0], json!({"name": "Banana"}));
    let by_name = vec![
        made[1].clone(),
        made[3].clone(),
        made[0].clone(),
        made[2].clone(),
    ];
    let by_created = made.clone();
    let by_updated = vec![
        made[1].clone(),
        made[2].clone(),
        made[3].clone(),
        made[0].clone(),
    ];
    for (query, wanted) in [
        ("", by_name.clone()),
        ("order=name", by_name.clone()),
        ("order=created_at", by_created.clone()),
        ("order=updated_at", by_updated.clone()),
        ("order=id", by_created.clone()),
    ] {
        assert_listed(&s, &format!("/documents?{query}"), &wanted);
        let sep = if query.is_empty() { "" } else { "&" };
        assert_listed(
            &s,
            &format!("/documents?{query}{sep}direction=desc"),
            &reversed(&wanted),
        );
    }
    let since = get_document(&s, &made[0])["updated_at"].clone();
    assert_eq!(
        ids(
            &s,
            &format!("/documents?updated_since={}", since.as_str().unwrap())
        ),
        [made[0].clone()]
    );
    for bad in ["order=size", "direction=up", "count=yes", "folder_id=nope"] {
        check(
            &s,
            Call::get(format!("/documents?{bad}")),
            Expect::bad_param(None),
        );
    }
}

/// DECISIONS "Documents": `folder_id` (a folder's own documents, not its
/// subfolders'), `folder_id=none`, and `q` (each word begins a word of the
/// name, ignoring case and accents).
#[test]
fn the_listing_filters_by_folder_and_q() {
    let s = Core::start();
    let bills = folder(&s, "Bills", None);
    let old = folder(&s, "Old", Some(&bills));
    let march = id(&document_with(
        &s,
        "Invoice March",
        json!({"folder_id": bills}),
    ));
    let power = id(&document_with(
        &s,
        "Électricité bill",
        json!({"folder_id": old}),
    ));
    let tax = document(&s, "Tax return");
    assert_eq!(
        ids(&s, &format!("/documents?folder_id={bills}")),
        [march.as_str()]
    );
    assert_eq!(
        ids(&s, &format!("/documents?folder_id={old}")),
        [power.as_str()]
    );
    assert_eq!(ids(&s, "/documents?folder_id=none"), [tax.as_str()]);
    assert_listed(
        &s,
        "/documents?folder_id=none&order=id",
        std::slice::from_ref(&tax),
    );
    for (q, wanted) in [
        ("inv", vec![march.clone()]),
        ("INVOICE%20mar", vec![march.clone()]),
        ("elec", vec![power.clone()]),
        ("bill%20%C3%A9lec", vec![power.clone()]),
        ("voice", vec![]),
        ("ret%20tax", vec![tax.clone()]),
    ] {
        assert_eq!(ids(&s, &format!("/documents?q={q}")), wanted, "q={q}");
    }
    assert_eq!(
        ids(&s, &format!("/documents?q=inv&folder_id={old}")),
        Vec::<String>::new()
    );
    for bad in [format!("q={}", "a".repeat(201)), "q=a%00b".to_owned()] {
        check(
            &s,
            Call::get(format!("/documents?{bad}")),
            Expect::bad_param(None),
        );
    }
}

// ---------------------------------------------------------------- the file, over HTTP

/// `GET url` (an address the API gave) with the token, and `Range` when
/// given: (status, headers, bytes).
fn fetch(
    server: &TestServer,
    url: &str,
    range: Option<&str>,
) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let mut request = server.req("GET", &api_path(url));
    if let Some(range) = range {
        request = request.header("range", range);
    }
    let response = request.send().expect("the server answers");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.bytes().unwrap().to_vec())
}

/// A header's value as a string.
fn header(headers: &reqwest::header::HeaderMap, name: &str) -> String {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

/// DECISIONS "Documents": the file's absolute addresses serve the uploaded
/// bytes exactly as `application/pdf` (inline, or as an attachment named
/// by the filename for `download_url`), answer byte ranges with 206, need
/// the token, and the thumbnail is a WebP image.
#[test]
fn the_file_serves_the_uploaded_bytes_ranges_and_a_thumbnail() {
    let server = TestServer::start();
    let bytes = pdf("the very bytes");
    let size = bytes.len();
    let uploaded = send(
        server
            .req("POST", "/uploads?kind=document&filename=Plan%20B.pdf")
            .header("content-type", "application/pdf")
            .body(bytes.clone()),
    )
    .expect(201);
    let signed = text(uploaded.data(), "signed_id");
    let doc = server
        .post("/documents", json!({"document": {"upload": signed}}))
        .expect(201)
        .data()
        .clone();
    let d = id(&doc);
    let file = &doc["file"];
    assert_eq!(
        text(file, "url"),
        format!("{}/api/v1/documents/{d}/file", server.url),
        "an absolute address"
    );

    let (status, headers, body) = fetch(&server, &text(file, "url"), None);
    assert_eq!(status, 200);
    assert_eq!(body, bytes, "exactly the uploaded bytes");
    assert!(header(&headers, "content-type").starts_with("application/pdf"));
    let disposition = header(&headers, "content-disposition");
    assert!(
        disposition.is_empty() || disposition.starts_with("inline"),
        "{disposition}"
    );
    assert_eq!(header(&headers, "accept-ranges"), "bytes");

    let (status, headers, body) = fetch(&server, &text(file, "download_url"), None);
    assert_eq!(status, 200);
    assert_eq!(body, bytes);
    assert!(header(&headers, "content-type").starts_with("application/pdf"));
    let disposition = header(&headers, "content-disposition");
    assert!(disposition.starts_with("attachment"), "{disposition}");
    assert!(
        disposition.contains("Plan B.pdf") || disposition.contains("Plan%20B.pdf"),
        "names the file: {disposition}"
    );

    for (range, from, to) in [
        ("bytes=5-14", 5, 14),
        ("bytes=0-0", 0, 0),
        (&format!("bytes={}-", size - 7) as &str, size - 7, size - 1),
        ("bytes=-6", size - 6, size - 1),
    ] {
        let (status, headers, body) = fetch(&server, &text(file, "url"), Some(range));
        assert_eq!(status, 206, "{range}");
        assert_eq!(body, &bytes[from..=to], "{range}");
        assert_eq!(
            header(&headers, "content-range"),
            format!("bytes {from}-{to}/{size}"),
            "{range}"
        );
    }
    let (status, headers, _) = fetch(&server, &text(file, "url"), Some(&format!("bytes={size}-")));
    assert_eq!(status, 416, "a range past the end");
    assert_eq!(header(&headers, "content-range"), format!("bytes */{size}"));

    let (status, headers, body) = fetch(&server, &text(file, "thumbnail_url"), None);
    assert_eq!(status, 200);
    assert!(header(&headers, "content-type").starts_with("image/webp"));
    image::load_from_memory_with_format(&body, image::ImageFormat::WebP).expect("a WebP image");

    // Like any API route, the file needs the token.
    let anonymous = server
        .bare("GET", &api_path(&text(file, "url")))
        .send()
        .unwrap();
    assert_eq!(anonymous.status().as_u16(), 401);

    // A deleted document's file is not found.
    server.delete(&format!("/documents/{d}")).expect(204);
    for field in ["url", "download_url", "thumbnail_url"] {
        assert_eq!(fetch(&server, &text(file, field), None).0, 404, "{field}");
    }
}

/// Each id array on create links its kind of record: a note, project,
/// task and person, each alone.
#[test]
fn each_kind_of_record_is_linked_on_create() {
    let s = Core::start();
    for (collection, _, ids_field) in super::KINDS {
        let r = record(&s, collection, "Target");
        let doc = document_with(&s, "Doc", json!({ *ids_field: [r] }));
        assert_eq!(doc[*ids_field], json!([r]), "{collection}");
    }
}
