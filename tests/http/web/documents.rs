//! The documents pages as a browser without script uses them
//! (EXTENSIONS.md §6, documents): a real PDF sent through the upload
//! form (multipart) into a folder and seen in its grid, its thumbnail
//! served as an image and its file inline with safe headers (each with an
//! `ETag`), folders added, renamed, moved and refused when not empty
//! (409 said plainly), a document renamed, moved, deleted and restored,
//! its links named, the list a page at a time and found by name, hostile
//! names escaped, a file that is no PDF refused with a 422 and nothing
//! stored, 303 to sign-in without a session, and 403 for a form without
//! the session's CSRF token.

use organiser::documents::{Document, DocumentInput, DocumentQuery};
use organiser::folders::{Folder, FolderInput, FolderQuery};
use organiser::uploads::UploadKind;
use organiser::{Field, Id};

use super::{Answer, Page, assert_forms_need_the_token, assert_signed_only};
use crate::common::TestServer;
use crate::common::fixtures::pdf;

/// Every live document.
fn documents(s: &TestServer) -> Vec<Document> {
    let mut query = DocumentQuery::default();
    query.params.limit = 100;
    s.org.documents().list(&query).unwrap().items
}

/// Every folder.
fn folders(s: &TestServer) -> Vec<Folder> {
    let mut query = FolderQuery::default();
    query.params.limit = 100;
    s.org.folders().list(&query).unwrap().items
}

/// A folder made through the core.
fn folder(s: &TestServer, name: &str, parent: Option<Id>) -> Folder {
    s.org
        .folders()
        .create(FolderInput {
            name: Some(name.to_owned()),
            parent_id: parent.map_or(Field::Absent, Field::Value),
            ..FolderInput::default()
        })
        .unwrap()
}

/// A document made through the core from a PDF labelled `label`.
fn document(s: &TestServer, name: &str, folder: Option<Id>) -> Document {
    let upload = s
        .org
        .uploads()
        .create(
            UploadKind::Document,
            &format!("{name}.pdf"),
            "application/pdf",
            pdf(name),
        )
        .unwrap();
    s.org
        .documents()
        .create(DocumentInput {
            upload: Some(upload.signed_id),
            name: Field::Value(name.to_owned()),
            folder_id: folder.map_or(Field::Absent, Field::Value),
            ..DocumentInput::default()
        })
        .unwrap()
}

/// A `multipart/form-data` body of the upload form: the token, the
/// folder, where it goes back to, and `files` (name, type, bytes).
fn upload_form(
    token: &str,
    folder: &str,
    back: &str,
    files: &[(&str, &str, &[u8])],
) -> (String, Vec<u8>) {
    let boundary = "----organiser-documents-boundary";
    let mut body = Vec::new();
    for (name, value) in [("csrf_token", token), ("folder", folder), ("back", back)] {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    for (filename, kind, bytes) in files {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; filename=\"{filename}\"\r\nContent-Type: {kind}\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// Posts the upload form.
fn post_upload(
    page: &mut Page<'_>,
    token: &str,
    folder: &str,
    back: &str,
    files: &[(&str, &str, &[u8])],
) -> Answer {
    let (content_type, body) = upload_form(token, folder, back, files);
    let url = format!("{}/documents", page.server.url);
    let request = page
        .client
        .post(url)
        .header("content-type", content_type)
        .body(body);
    page.read(request)
}

#[test]
fn pages_need_a_session_and_forms_the_token() {
    let s = TestServer::start();
    let receipts = folder(&s, "Receipts", None);
    let doc = document(&s, "Invoice", Some(receipts.id));
    let d = doc.id;
    assert_signed_only(
        &s,
        &[
            "/documents".to_owned(),
            "/documents?folder=none".to_owned(),
            format!("/documents?folder={}", receipts.id),
            format!("/documents/{d}"),
            format!("/documents/{d}/file"),
            format!("/documents/{d}/thumbnail"),
        ],
    );
    let mut page = Page::signed_in(&s);
    let f = receipts.id;
    assert_forms_need_the_token(
        &mut page,
        &[
            ("/documents/folders".to_owned(), vec![("name", "Bills")]),
            (format!("/documents/folders/{f}"), vec![("name", "Bills")]),
            (format!("/documents/folders/{f}/delete"), vec![]),
            (format!("/documents/{d}"), vec![("name", "Renamed")]),
            (format!("/documents/{d}/delete"), vec![]),
            (format!("/documents/{d}/restoration"), vec![]),
        ],
    );
    // The upload form too: nothing is stored.
    let bytes = pdf("forged");
    let forged = post_upload(
        &mut page,
        "not-the-token",
        "",
        "/documents",
        &[("forged.pdf", "application/pdf", &bytes)],
    );
    assert_eq!(forged.status, 403, "{forged:?}");
    // Without a session: to the sign-in page, nothing stored.
    let mut anonymous = Page::anonymous(&s);
    let token = page.get("/documents").csrf();
    let anon = post_upload(
        &mut anonymous,
        &token,
        "",
        "/documents",
        &[("anon.pdf", "application/pdf", &bytes)],
    );
    assert_eq!(anon.status, 303, "{anon:?}");
    assert_eq!(anon.location(), Some("/sign-in"));
    assert_eq!(documents(&s).len(), 1);
    assert_eq!(s.org.folders().get(f).unwrap().name, "Receipts");
    assert_eq!(s.org.documents().get(d).unwrap().name, "Invoice");
}

#[test]
fn a_pdf_uploaded_from_the_form_is_in_its_folder_with_its_thumbnail_and_file() {
    let s = TestServer::start();
    let mut page = Page::signed_in(&s);

    // A folder from the page's form.
    let made = page.submit("/documents", "/documents/folders", &[("name", "Receipts")]);
    assert_eq!(made.status, 303, "{made:?}");
    let receipts = folders(&s).pop().expect("made");
    let here = format!("/documents?folder={}", receipts.id);
    assert_eq!(made.location(), Some(here.as_str()));

    let shown = page.get(&here);
    assert_eq!(shown.status, 200, "{shown:?}");
    assert!(shown.body.contains("No documents here yet."));
    assert!(
        shown.body.contains("enctype=\"multipart/form-data\""),
        "a plain upload form"
    );
    assert!(
        shown
            .body
            .contains("<label for=\"doc-files\">PDF files</label>")
    );
    assert!(shown.body.contains("accept=\"application/pdf\""));

    // A real PDF through the form, into the folder.
    let token = shown.csrf();
    let bytes = pdf("Electricity March");
    let sent = post_upload(
        &mut page,
        &token,
        &receipts.id.to_string(),
        &here,
        &[("Electricity March.pdf", "application/pdf", &bytes)],
    );
    assert_eq!(sent.status, 303, "{sent:?}");
    assert_eq!(sent.location(), Some(format!("{here}&added=1").as_str()));
    let all = documents(&s);
    assert_eq!(all.len(), 1);
    let doc = &all[0];
    assert_eq!(doc.name, "Electricity March", "named from the file");
    assert_eq!(doc.folder_id, Some(receipts.id));
    assert_eq!(doc.file.byte_size, bytes.len() as u64);

    // In the folder's grid, counted in the tree.
    let grid = page.get(&format!("{here}&added=1"));
    assert!(grid.body.contains("1 document added."));
    assert!(grid.body.contains(&format!(
        "<a href=\"/documents/{}\" class=\"doc-card-link\"><img src=\"/documents/{}/thumbnail\"",
        doc.id, doc.id
    )));
    assert!(
        grid.body
            .contains("<span class=\"doc-name\">Electricity March</span>")
    );
    assert!(
        grid.body
            .contains("aria-current=\"page\">Receipts</a> <span class=\"doc-count\">1</span>"),
        "{}",
        grid.body
    );
    assert!(
        page.get("/documents?folder=none")
            .body
            .contains("No documents here yet.")
    );
    assert!(page.get("/documents").body.contains("Electricity March"));

    // The thumbnail: an image, with an ETag the browser revalidates.
    let thumb = page.get(&format!("/documents/{}/thumbnail", doc.id));
    assert_eq!(thumb.status, 200, "{thumb:?}");
    assert_eq!(thumb.header("content-type"), Some("image/webp"));
    assert_eq!(thumb.header("cache-control"), Some("private, no-cache"));
    assert_eq!(thumb.header("x-content-type-options"), Some("nosniff"));
    assert!(thumb.body.starts_with("RIFF"), "a WebP");
    let etag = thumb.header("etag").expect("an ETag").to_owned();
    let again = page.get_with(
        &format!("/documents/{}/thumbnail", doc.id),
        &[("if-none-match", &etag)],
    );
    // The first page may have been rendered in between (a new ETag).
    assert!(again.status == 304 || again.status == 200, "{again:?}");

    // The file: inline, its stored type, named safely, sandboxed.
    let file = page.get(&format!("/documents/{}/file", doc.id));
    assert_eq!(file.status, 200, "{file:?}");
    assert_eq!(file.header("content-type"), Some("application/pdf"));
    assert_eq!(
        file.header("content-disposition"),
        Some(
            "inline; filename=\"Electricity March.pdf\"; filename*=UTF-8''Electricity%20March.pdf"
        )
    );
    assert_eq!(file.header("x-content-type-options"), Some("nosniff"));
    let csp = file.header("content-security-policy").unwrap_or_default();
    assert!(csp.starts_with("sandbox"), "{csp}");
    assert!(!csp.contains("allow-scripts"), "{csp}");
    assert!(
        !csp.contains("script-src"),
        "no script of the file runs: {csp}"
    );
    assert_eq!(file.header("cache-control"), Some("private, no-cache"));
    assert!(file.body.starts_with("%PDF-"));
    let etag = file.header("etag").expect("an ETag").to_owned();
    let again = page.get_with(
        &format!("/documents/{}/file", doc.id),
        &[("if-none-match", &etag)],
    );
    assert_eq!(again.status, 304, "{again:?}");
    let saved = page.get(&format!("/documents/{}/file?download=1", doc.id));
    assert!(
        saved
            .header("content-disposition")
            .is_some_and(|v| v.starts_with("attachment; filename=\"Electricity March.pdf\"")),
        "{saved:?}"
    );

    // Two at once, with the script's one-file forms as well.
    let (a, b) = (pdf("Water"), pdf("Gas"));
    let two = post_upload(
        &mut page,
        &token,
        "",
        "/documents?folder=none",
        &[
            ("Water.pdf", "application/pdf", &a),
            ("Gas.PDF", "application/octet-stream", &b),
        ],
    );
    assert_eq!(two.status, 303, "{two:?}");
    assert_eq!(two.location(), Some("/documents?folder=none&added=2"));
    let unfiled = page.get("/documents?folder=none");
    assert!(unfiled.body.contains(">Water</span>") && unfiled.body.contains(">Gas</span>"));
    assert!(!unfiled.body.contains("Electricity March"));
}

#[test]
fn a_file_that_is_no_pdf_is_refused_plainly_and_nothing_is_stored() {
    let s = TestServer::start();
    let mut page = Page::signed_in(&s);
    let token = page.get("/documents").csrf();
    let cases: [(&str, &str, &[u8]); 4] = [
        ("notes.txt", "text/plain", b"just some words"),
        ("fake.pdf", "application/pdf", b"%PDF-1.4 but cut short"),
        ("photo.pdf", "application/pdf", b"\x89PNG\r\n\x1a\n garbage"),
        ("empty.pdf", "application/pdf", b""),
    ];
    for (name, kind, bytes) in cases {
        let refused = post_upload(&mut page, &token, "", "/documents", &[(name, kind, bytes)]);
        assert_eq!(refused.status, 422, "{name}: {refused:?}");
        assert!(
            refused.body.contains("id=\"doc-upload-errors\""),
            "{name}: {}",
            refused.body
        );
        assert!(refused.body.contains("aria-invalid=\"true\""), "{name}");
        if !bytes.is_empty() {
            assert!(refused.body.contains(name), "{name}: said by name");
            assert!(refused.body.contains("PDF"), "{name}: {}", refused.body);
        }
        assert!(documents(&s).is_empty(), "{name}: nothing stored");
    }
    // No file chosen at all.
    let none = post_upload(&mut page, &token, "", "/documents", &[]);
    assert_eq!(none.status, 422, "{none:?}");
    assert!(none.body.contains("choose a PDF file"), "{}", none.body);

    // One good and one bad: the good one is made, the bad one said.
    let good = pdf("Good");
    let mixed = post_upload(
        &mut page,
        &token,
        "",
        "/documents",
        &[
            ("Good.pdf", "application/pdf", &good),
            ("bad.pdf", "application/pdf", b"nope"),
        ],
    );
    assert_eq!(mixed.status, 422, "{mixed:?}");
    assert!(mixed.body.contains("1 document added."));
    assert!(mixed.body.contains("bad.pdf: "));
    assert_eq!(documents(&s).len(), 1);
}

#[test]
fn folders_are_added_renamed_moved_and_deleted_only_when_empty() {
    let s = TestServer::start();
    let mut page = Page::signed_in(&s);
    let home = folder(&s, "Home", None);
    let view = home.id.to_string();
    let here = format!("/documents?folder={}", home.id);

    // A folder inside the one shown.
    let inside = page.submit(
        &here,
        "/documents/folders",
        &[("name", "Bills"), ("parent", &view), ("view", &view)],
    );
    assert_eq!(inside.status, 303, "{inside:?}");
    let bills = folders(&s).into_iter().find(|f| f.name == "Bills").unwrap();
    assert_eq!(bills.parent_id, Some(home.id));
    let tree = page.get("/documents");
    let nested = format!(
        "<li><a href=\"/documents?folder={}\">Home</a> <span class=\"doc-count\">0</span><ul>\n<li><a href=\"/documents?folder={}\">Bills</a>",
        home.id, bills.id
    );
    assert!(tree.body.contains(&nested), "nested: {}", tree.body);
    assert!(tree.body.contains(&format!(
        "<option value=\"{}\">Home / Bills</option>",
        bills.id
    )));

    // A name its sibling has, and a blank one: 422 beside the field.
    let twice = page.submit(
        &here,
        "/documents/folders",
        &[("name", "bills"), ("parent", &view), ("view", &view)],
    );
    assert_eq!(twice.status, 422, "{twice:?}");
    assert!(
        twice.body.contains("id=\"new-folder-name-error\""),
        "{}",
        twice.body
    );
    assert!(twice.body.contains("value=\"bills\""), "typed value kept");
    let blank = page.submit(&here, "/documents/folders", &[("name", " "), ("view", "")]);
    assert_eq!(blank.status, 422);
    assert_eq!(folders(&s).len(), 2);

    // Renamed and moved to the top.
    let b = format!("/documents/folders/{}", bills.id);
    let renamed = page.submit(&here, &b, &[("name", "Invoices"), ("parent", "")]);
    assert_eq!(renamed.status, 303, "{renamed:?}");
    assert_eq!(
        renamed.location(),
        Some(format!("/documents?folder={}&saved=1", bills.id).as_str())
    );
    let now = s.org.folders().get(bills.id).unwrap();
    assert_eq!((now.name.as_str(), now.parent_id), ("Invoices", None));
    assert!(
        page.get(renamed.location().unwrap())
            .body
            .contains("Saved.")
    );

    // Into itself, through a child: refused beside the field.
    page.submit(&here, &b, &[("name", "Invoices"), ("parent", &view)]);
    let cycle = page.submit(
        &here,
        &format!("/documents/folders/{}", home.id),
        &[("name", "Home"), ("parent", &bills.id.to_string())],
    );
    assert_eq!(cycle.status, 422, "{cycle:?}");
    assert!(
        cycle.body.contains("id=\"folder-parent-error\""),
        "{}",
        cycle.body
    );
    assert_eq!(s.org.folders().get(home.id).unwrap().parent_id, None);

    // Not empty (a folder in it, then a document): 409, said plainly.
    let delete_home = format!("/documents/folders/{}/delete", home.id);
    let full = page.submit(&here, &delete_home, &[]);
    assert_eq!(full.status, 409, "{full:?}");
    assert!(full.body.contains("role=\"alert\""), "{}", full.body);
    assert!(
        full.body.contains("<h1>Documents</h1>"),
        "the page, not a bare error"
    );
    page.submit(
        &here,
        &format!("/documents/folders/{}/delete", bills.id),
        &[],
    );
    let doc = document(&s, "Deed", Some(home.id));
    let full = page.submit(&here, &delete_home, &[]);
    assert_eq!(full.status, 409, "{full:?}");
    assert!(s.org.folders().get(home.id).is_ok());

    // Empty: deleted, and said so.
    s.org.documents().delete(doc.id).unwrap();
    s.clock.advance_secs(25);
    let gone = page.submit(&here, &delete_home, &[]);
    assert_eq!(gone.status, 303, "{gone:?}");
    assert_eq!(gone.location(), Some("/documents?removed=1"));
    assert!(folders(&s).is_empty());
    assert!(
        page.get("/documents?removed=1")
            .body
            .contains("The folder was deleted.")
    );
    assert_eq!(page.get(&here).status, 404);
}

#[test]
fn a_document_is_renamed_moved_deleted_and_restored_and_shows_its_links() {
    let s = TestServer::start();
    let mut page = Page::signed_in(&s);
    let taxes = folder(&s, "Taxes", None);
    let doc = document(&s, "Return 2025", None);
    let ada = super::person(&s, "Ada Lovelace");
    let engine = super::project(&s, "Engine");
    s.org
        .documents()
        .change(
            doc.id,
            DocumentInput {
                person_ids: Some(vec![ada.id]),
                project_ids: Some(vec![engine.id]),
                ..DocumentInput::default()
            },
        )
        .unwrap();
    let at = format!("/documents/{}", doc.id);

    let shown = page.get(&at);
    assert_eq!(shown.status, 200, "{shown:?}");
    assert!(shown.body.contains("<h1>Return 2025</h1>"));
    assert!(
        shown
            .body
            .contains(&format!("<a href=\"/people/{}\">Ada Lovelace</a>", ada.id))
    );
    assert!(
        shown
            .body
            .contains(&format!("<a href=\"/projects/{}\">Engine</a>", engine.id))
    );
    assert!(shown.body.contains(&format!(
        "<a href=\"/documents/{}/file\" class=\"doc-open\">Open</a>",
        doc.id
    )));
    assert!(
        shown
            .body
            .contains(&format!("src=\"/documents/{}/thumbnail\"", doc.id))
    );
    assert!(shown.body.contains("Return 2025.pdf"), "the file's name");

    // Renamed and moved.
    let saved = page.submit(
        &at,
        &at,
        &[
            ("name", "Tax return 2025"),
            ("folder", &taxes.id.to_string()),
        ],
    );
    assert_eq!(saved.status, 303, "{saved:?}");
    assert_eq!(saved.location(), Some(format!("{at}?saved=1").as_str()));
    let now = s.org.documents().get(doc.id).unwrap();
    assert_eq!(now.name, "Tax return 2025");
    assert_eq!(now.folder_id, Some(taxes.id));
    let shown = page.get(&format!("{at}?saved=1"));
    assert!(shown.body.contains("Saved."));
    assert!(shown.body.contains(&format!(
        "<li><a href=\"/documents?folder={}\">Taxes</a></li>",
        taxes.id
    )));

    // Too long a name: 422 beside the field, typed value kept, nothing changed.
    let long = "x".repeat(201);
    let refused = page.submit(&at, &at, &[("name", &long), ("folder", "")]);
    assert_eq!(refused.status, 422, "{refused:?}");
    assert!(
        refused.body.contains("id=\"document-name-error\""),
        "{}",
        refused.body
    );
    assert!(refused.body.contains(&format!("value=\"{long}\"")));
    assert_eq!(
        s.org.documents().get(doc.id).unwrap().folder_id,
        Some(taxes.id)
    );

    // Out of every folder.
    page.submit(&at, &at, &[("name", "Tax return 2025"), ("folder", "")]);
    assert_eq!(s.org.documents().get(doc.id).unwrap().folder_id, None);

    // Deleted, with its undo; restored with its links.
    let deleted = page.submit(&at, &format!("{at}/delete"), &[]);
    assert_eq!(deleted.status, 303, "{deleted:?}");
    let listed = format!("/documents?folder=none&deleted={}", doc.id);
    assert_eq!(deleted.location(), Some(listed.as_str()));
    assert!(documents(&s).is_empty());
    assert_eq!(page.get(&at).status, 404);
    assert_eq!(page.get(&format!("{at}/file")).status, 404);
    assert_eq!(page.get(&format!("{at}/thumbnail")).status, 404);
    let offered = page.get(&listed);
    assert!(offered.body.contains("The document was deleted."));
    assert!(
        offered
            .body
            .contains(&format!("action=\"/documents/{}/restoration\"", doc.id))
    );
    let back = page.submit(&listed, &format!("{at}/restoration"), &[]);
    assert_eq!(back.status, 303, "{back:?}");
    assert_eq!(back.location(), Some(at.as_str()));
    let now = s.org.documents().get(doc.id).unwrap();
    assert_eq!(now.person_ids, vec![ada.id]);
    assert!(page.get(&at).body.contains("Ada Lovelace"));
}

#[test]
fn the_list_pages_and_finds_by_name() {
    let s = TestServer::start();
    let mut page = Page::signed_in(&s);
    for i in 0..50 {
        document(&s, &format!("Statement {i:02}"), None);
    }
    document(&s, "Passport scan", None);
    let first = page.get("/documents");
    assert!(first.body.contains("51 documents"), "{}", first.body);
    assert!(first.body.contains("Passport scan"));
    assert!(first.body.contains("Statement 46"));
    assert!(!first.body.contains("Statement 47"), "48 a page");
    let more = first
        .body
        .split("<a href=\"")
        .find(|s| s.contains("rel=\"next\""))
        .expect("a next page");
    let next = more.split('"').next().unwrap().replace("&#38;", "&");
    let second = page.get(&next);
    assert_eq!(second.status, 200, "{next}: {second:?}");
    assert!(second.body.contains("Statement 49"));
    assert!(!second.body.contains("Passport scan"));

    let found = page.get("/documents?q=pass");
    assert!(found.body.contains("1 document found"), "{}", found.body);
    assert!(found.body.contains("Passport scan"));
    assert!(!found.body.contains("Statement 01"));
    let none = page.get("/documents?folder=none&q=zzz");
    assert!(none.body.contains("0 documents found"));
    assert!(
        none.body.contains("name=\"folder\" value=\"none\""),
        "the search keeps the folder"
    );
    assert_eq!(page.get("/documents?folder=not-an-id").status, 404);
}

#[test]
fn hostile_names_are_escaped() {
    let s = TestServer::start();
    let mut page = Page::signed_in(&s);
    let evil = "<script>alert(1)</script>\"'&";
    let f = folder(&s, evil, None);
    let upload = s
        .org
        .uploads()
        .create(
            UploadKind::Document,
            "<img src=x onerror=alert(1)>\".pdf",
            "application/pdf",
            pdf("evil"),
        )
        .unwrap();
    let doc = s
        .org
        .documents()
        .create(DocumentInput {
            upload: Some(upload.signed_id),
            name: Field::Value(evil.to_owned()),
            folder_id: Field::Value(f.id),
            ..DocumentInput::default()
        })
        .unwrap();
    for path in [
        "/documents".to_owned(),
        format!("/documents?folder={}", f.id),
        format!("/documents/{}", doc.id),
        format!("/documents?q={}", crate::common::fixtures::escaped(evil)),
    ] {
        let shown = page.get(&path);
        assert_eq!(shown.status, 200, "{path}");
        assert!(
            !shown.body.contains("<script>alert"),
            "{path}: {}",
            shown.body
        );
        assert!(!shown.body.contains("<img src=x"), "{path}");
        assert!(
            shown
                .body
                .contains("&#60;script&#62;alert(1)&#60;/script&#62;"),
            "{path}: {}",
            shown.body
        );
    }
    let file = page.get(&format!("/documents/{}/file", doc.id));
    let disposition = file.header("content-disposition").unwrap_or_default();
    assert_eq!(disposition.matches('"').count(), 2, "{disposition}");
}
