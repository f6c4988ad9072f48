//! People (`/people`, `/people/{id}`), by keyboard alone: a person added
//! from the list, given a birthday and a photo (the file chosen through
//! the browser's own file field), linked to another person, and found by
//! a misspelt name on the search page.

use serde_json::json;
use thirtyfour::Key;

use crate::harness::{Browser, VARIANTS};
use crate::site::Site;
use crate::tasks::visit;

/// Opens the `<details>` whose summary says `summary`, by keyboard.
fn open(b: &Browser, summary: &str) {
    b.tab_to(summary, |f| f.tag == "summary" && f.name == summary);
    b.press(Key::Enter);
}

/// Waits for the answer of a person's form (their page, saved).
fn saved(b: &Browser, what: &str) {
    b.wait(
        what,
        "return [...document.querySelectorAll('[role=status]')].some(e => e.innerText.includes('Saved'))",
        vec![],
    );
}

/// A small JPEG on disk, for the file field.
fn photo_file() -> std::path::PathBuf {
    let image = image::RgbImage::from_fn(64, 48, |x, y| image::Rgb([x as u8 * 3, y as u8 * 5, 90]));
    let path = std::env::temp_dir().join(format!("organiser-person-{}.jpg", std::process::id()));
    image
        .save_with_format(&path, image::ImageFormat::Jpeg)
        .unwrap();
    path
}

#[test]
fn a_person_gets_a_birthday_a_photo_and_a_link_and_is_found_misspelt() {
    let mut b = Browser::start();
    let photo = photo_file();
    for variant in VARIANTS {
        b.set_variant(variant);
        let site = Site::ready(variant);
        let charles = site
            .org()
            .people()
            .create(organiser::people::PersonInput {
                name: Some("Charles Babbage".into()),
                ..Default::default()
            })
            .unwrap();
        site.sign_in(&b);

        // Added from the list.
        visit(&b, &site, "/people", "people");
        b.type_in("Add a person", "Ada Lovelace");
        b.press(Key::Enter);
        b.wait(
            "the new person's page",
            "return document.querySelector('h1')?.innerText.trim() === 'Ada Lovelace'",
            vec![],
        );
        b.check("person");
        let ada = site
            .org()
            .people()
            .list(&Default::default())
            .unwrap()
            .items
            .into_iter()
            .find(|p| p.name == "Ada Lovelace")
            .expect("made");

        // A birthday.
        open(&b, "Add a key date");
        b.type_in("Day", "14");
        b.type_in("Month", "3");
        b.type_in("Year", "1990");
        b.press(Key::Enter);
        saved(&b, "the birthday");
        b.check("person (birthday)");
        let now = site.org().people().get(ada.id).unwrap();
        assert_eq!(now.key_dates.len(), 1);
        assert_eq!((now.key_dates[0].day, now.key_dates[0].month), (14, 3));
        assert!(b.text("main").contains("14 March 1990"));

        // A photo: the file chosen as the browser's file dialog would.
        open(&b, "Add a photo");
        let field = b.field("Photo");
        let found = b.cdp(
            "Runtime.evaluate",
            json!({"expression": format!("document.getElementById('{field}')")}),
        );
        let object = found["result"]["objectId"]
            .as_str()
            .expect("the file field")
            .to_owned();
        b.cdp(
            "DOM.setFileInputFiles",
            json!({"files": [photo.to_string_lossy()], "objectId": object}),
        );
        b.tab_to("Upload", |f| f.tag == "button" && f.name == "Upload");
        b.press(Key::Enter);
        saved(&b, "the photo");
        b.check("person (photo)");
        assert!(site.org().people().get(ada.id).unwrap().avatar.is_some());
        let drawn = b.wait(
            "the photo drawn",
            "const i = document.querySelector('.person-head img'); return i && i.complete && i.naturalWidth > 0",
            vec![],
        );
        assert_eq!(drawn, true);

        // Linked to Charles, by name.
        open(&b, "Link to someone");
        b.type_in("Their name", "Charles Babbage");
        let role = b.field("Who is to Ada Lovelace a");
        b.tab_to("the role", |f| f.id == role);
        b.press("Friend");
        b.tab_to("Link", |f| f.tag == "button" && f.name == "Link");
        b.press(Key::Enter);
        saved(&b, "the link");
        b.check("person (linked)");
        let now = site.org().people().get(ada.id).unwrap();
        assert_eq!(now.connections.len(), 1, "{:?}", now.connections);
        assert_eq!(now.connections[0].person_id, charles.id);
        b.tab_to("Charles Babbage", |f| {
            f.tag == "a" && f.name == "Charles Babbage"
        });
        b.press(Key::Enter);
        b.wait_for_path(&format!("/people/{}", charles.id));
        b.check("person (linked, the other)");
        assert!(b.text("main").contains("Ada Lovelace"));

        // Found by a misspelt name.
        b.tab_to("Search", |f| f.tag == "a" && f.name == "Search");
        b.press(Key::Enter);
        b.wait_for_path("/search");
        b.press("Lovlace");
        b.wait(
            "the misspelt name found",
            "return [...document.querySelectorAll('#results a')].some(a => a.innerText.trim() === 'Ada Lovelace')",
            vec![],
        );
        b.check("search (person)");
    }
    let _ = std::fs::remove_file(&photo);
    b.finish();
}
