//! Documents (`/documents`, `/documents/{id}`), as a person lives them:
//! a folder added by keyboard, a PDF dragged from the desktop and dropped
//! on the page (WebDriver cannot drag a file from the system: the test
//! builds the `File` in the page and dispatches `dragenter`, `dragover`
//! and `drop` with a `DataTransfer` holding it on the drop zone, as the
//! browser would), its progress and then its thumbnail in the grid;
//! another chosen through the file field by keyboard; the document's page
//! opened by keyboard, its thumbnail drawn large; and a delete undone.
//! Every page checked by axe-core, at 360 and 1280 px, light and dark.

use serde_json::json;
use thirtyfour::Key;

use crate::common::fixtures::pdf;
use crate::harness::{Browser, VARIANTS};
use crate::site::Site;
use crate::tasks::visit;

/// Opens the `<details>` whose summary says `summary`, by keyboard.
fn open(b: &Browser, summary: &str) {
    b.tab_to(summary, |f| f.tag == "summary" && f.name == summary);
    b.press(Key::Enter);
}

/// Waits until the grid shows a card named `name` whose thumbnail is
/// drawn (the card's link focused first, as a person tabbing to it
/// brings it into view).
#[track_caller]
fn card_drawn(b: &Browser, name: &str) {
    b.wait(
        &format!("the card of {name:?} in the grid"),
        "return [...document.querySelectorAll('#doc-list .doc-name')].some(e => e.innerText.trim() === arguments[0])",
        vec![json!(name)],
    );
}

/// The PDF `label` dropped on the page's drop zone, as a browser delivers
/// a file dragged from the desktop: whether each of `dragenter`,
/// `dragover` and `drop` was taken (its default prevented), and whether
/// the zone showed it was ready for the file.
fn drop_pdf(b: &Browser, name: &str, label: &str) -> serde_json::Value {
    b.js(
        "const [bytes, name] = arguments;\
         const file = new File([new Uint8Array(bytes)], name, {type: 'application/pdf'});\
         const data = new DataTransfer();\
         data.items.add(file);\
         const zone = document.getElementById('doc-drop');\
         const target = zone.querySelector('h3');\
         const taken = [];\
         let ready = false;\
         for (const type of ['dragenter', 'dragover', 'drop']) {\
           if (type === 'drop') ready = zone.classList.contains('doc-drop-over');\
           const e = new DragEvent(type, {bubbles: true, cancelable: true, composed: true, dataTransfer: data});\
           target.dispatchEvent(e);\
           taken.push(e.defaultPrevented);\
         }\
         return {taken, ready};",
        vec![json!(pdf(label)), json!(name)],
    )
}

#[test]
fn a_pdf_dropped_on_the_page_shows_its_progress_and_thumbnail_and_opens() {
    let mut b = Browser::start();
    let chosen = std::env::temp_dir().join(format!("organiser-docs-{}", std::process::id()));
    std::fs::create_dir_all(&chosen).unwrap();
    let chosen = chosen.join("Chosen file.pdf");
    std::fs::write(&chosen, pdf("Chosen by keyboard")).unwrap();
    for variant in VARIANTS {
        b.set_variant(variant);
        let site = Site::ready(variant);
        site.sign_in(&b);
        visit(&b, &site, "/documents", "documents");

        // A folder, by keyboard.
        open(&b, "Add a folder");
        b.type_in("Folder name", "Receipts");
        b.press(Key::Enter);
        b.wait(
            "the new folder shown",
            "return document.getElementById('h-shown')?.innerText.trim() === 'Receipts'",
            vec![],
        );
        b.check("documents (folder)");
        let folder = site
            .org()
            .folders()
            .list(&Default::default())
            .unwrap()
            .items
            .pop()
            .expect("made");
        assert_eq!(b.path(), format!("/documents?folder={}", folder.id));

        // A PDF dragged onto the page.
        let dropped = drop_pdf(&b, "Drop test.pdf", "Dropped from the desktop");
        assert_eq!(
            dropped,
            json!({"taken": [true, true, true], "ready": true}),
            "the drop zone takes the file"
        );
        b.wait(
            "the file's progress",
            "const bar = document.querySelector('#doc-progress li progress');\
             return bar && bar.getAttribute('aria-label') === 'Uploading Drop test.pdf'",
            vec![],
        );
        b.wait(
            "the upload to end",
            "const row = document.querySelector('#doc-progress li.added');\
             const bar = row?.querySelector('progress');\
             return bar && bar.max > 0 && bar.value === bar.max && row.innerText.includes('Added')",
            vec![],
        );
        b.wait(
            "the upload said in the live region",
            "const s = document.getElementById('doc-upload-status');\
             return s.getAttribute('role') === 'status' && s.innerText.trim() === '1 of 1 file added.'",
            vec![],
        );
        card_drawn(&b, "Drop test");
        let docs = site
            .org()
            .documents()
            .list(&Default::default())
            .unwrap()
            .items;
        assert_eq!(docs.len(), 1);
        let doc = &docs[0];
        assert_eq!(doc.folder_id, Some(folder.id), "into the folder shown");
        assert!(
            b.text("#doc-tree").contains("Receipts 1"),
            "the folder's count read again: {}",
            b.text("#doc-tree")
        );
        b.check("documents (dropped)");

        // Another, chosen through the file field by keyboard.
        let field = b.field("PDF files");
        b.tab_to("the file field", |f| f.id == field);
        let found = b.cdp(
            "Runtime.evaluate",
            json!({"expression": format!("document.getElementById('{field}')")}),
        );
        let object = found["result"]["objectId"]
            .as_str()
            .expect("the file field");
        b.cdp(
            "DOM.setFileInputFiles",
            json!({"files": [chosen.to_string_lossy()], "objectId": object}),
        );
        b.tab_to("Upload", |f| f.tag == "button" && f.name == "Upload");
        b.press(Key::Enter);
        card_drawn(&b, "Chosen file");
        b.wait(
            "both uploads said",
            "return document.querySelectorAll('#doc-progress li.added').length === 2",
            vec![],
        );
        assert_eq!(
            site.org()
                .documents()
                .list(&Default::default())
                .unwrap()
                .items
                .len(),
            2
        );

        // Its card reached by keyboard, its thumbnail drawn.
        b.tab_to("Drop test", |f| f.tag == "a" && f.name == "Drop test");
        b.wait(
            "the thumbnail drawn in the grid",
            "const a = document.activeElement; const i = a.querySelector('img');\
             return i && i.complete && i.naturalWidth > 0 && i.getAttribute('src') === arguments[0]",
            vec![json!(format!("/documents/{}/thumbnail", doc.id))],
        );
        b.press(Key::Enter);
        let at = format!("/documents/{}", doc.id);
        b.wait_for_path(&at);
        b.check("document");
        assert_eq!(b.heading(), "Drop test");
        b.wait(
            "the large thumbnail drawn",
            "const i = document.querySelector('.doc-thumb-large'); return i && i.complete && i.naturalWidth > 0",
            vec![],
        );
        assert!(b.has_named("Open"));
        assert_eq!(
            b.js(
                "return document.querySelector('a.doc-open').getAttribute('href')",
                vec![]
            ),
            json!(format!("{at}/file"))
        );
        assert!(b.text("main").contains("Receipts"));

        // Deleted, and the delete undone.
        b.tab_to("Delete", |f| {
            f.tag == "button" && f.name == "Delete Drop test"
        });
        b.press(Key::Enter);
        b.wait_for_path(&format!(
            "/documents?folder={}&deleted={}",
            folder.id, doc.id
        ));
        b.check("documents (deleted)");
        assert!(site.org().documents().get(doc.id).is_err());
        b.tab_to("Undo", |f| f.tag == "button" && f.name == "Undo");
        b.press(Key::Enter);
        b.wait_for_path(&at);
        b.check("document (restored)");
        assert!(site.org().documents().get(doc.id).is_ok());
    }
    let _ = std::fs::remove_file(&chosen);
    b.finish();
}
