//! The people's pages as a browser without script uses them
//! (EXTENSIONS.md §6, people): the list a page at a time and found by
//! the start of a name, a person made from it, their page (key dates,
//! contact details, links, positions, open tasks), the name and
//! relationships changed, a key date, an email address, a phone number
//! and a position added and removed, two people linked and unlinked,
//! delete with its undo, the core's refusals beside their fields (422,
//! the typed values kept), hostile names escaped, 303 to sign-in without
//! a session, and 403 for a form without the session's CSRF token.

use organiser::Field;
use organiser::people::{EmailAddressFields, Person, PersonInput, PersonQuery, RowInput};
use organiser::tasks::TaskInput;

use super::{Answer, Page, person};
use crate::common::TestServer;

/// Every live person.
fn people(s: &TestServer) -> Vec<Person> {
    let mut query = PersonQuery::default();
    query.params.limit = 100;
    s.org.people().list(&query).unwrap().items
}

/// The form `path` of person `p`'s page, sent with `fields`.
fn send(page: &mut Page<'_>, p: &Person, path: &str, fields: &[(&str, &str)]) -> Answer {
    let from = format!("/people/{}", p.id);
    let to = format!("/people/{}{path}", p.id);
    page.submit(&from, &to, fields)
}

#[test]
fn the_list_finds_pages_and_makes_people() {
    let s = TestServer::start();
    let mut page = Page::signed_in(&s);
    let empty = page.get("/people");
    assert_eq!(empty.status, 200, "{empty:?}");
    assert!(empty.body.contains("No one yet."));
    assert!(empty.body.contains("aria-current=\"page\"") || empty.body.contains("People"));

    let made = page.submit("/people", "/people", &[("name", "  Ada   Lovelace ")]);
    assert_eq!(made.status, 303, "{made:?}");
    let ada = people(&s).into_iter().next().expect("made");
    assert_eq!(ada.name, "Ada Lovelace", "squished by the core");
    assert_eq!(
        made.location(),
        Some(format!("/people/{}", ada.id).as_str())
    );

    for i in 0..60 {
        person(&s, &format!("Person {i:02}"));
    }
    let first = page.get("/people");
    assert!(
        first
            .body
            .contains(&format!("<a href=\"/people/{}\">Ada Lovelace</a>", ada.id))
    );
    assert!(first.body.contains("61 people"));
    assert!(first.body.contains("Person 48"));
    assert!(!first.body.contains("Person 49"), "50 a page");
    let marker = "<a href=\"";
    let more = first
        .body
        .split(marker)
        .find(|s| s.contains("rel=\"next\""))
        .expect("a next page");
    let next = more.split('"').next().unwrap().replace("&#38;", "&");
    let second = page.get(&next);
    assert_eq!(second.status, 200, "{next}: {second:?}");
    assert!(second.body.contains("Person 59"));
    assert!(!second.body.contains("Ada Lovelace"));

    let found = page.get("/people?q=ada");
    assert!(found.body.contains("Ada Lovelace"));
    assert!(!found.body.contains("Person 01"));
    assert!(
        found.body.contains("href=\"/search?q=ada\""),
        "search forgives typos"
    );
    let none = page.get("/people?q=zzz");
    assert!(
        none.body.contains("No one&#39;s name begins with that.") || none.body.contains("No one")
    );
    assert!(!none.body.contains("Ada Lovelace"));

    // A blank name: 422 beside the field.
    let refused = page.submit("/people", "/people", &[("name", "   ")]);
    assert_eq!(refused.status, 422, "{refused:?}");
    assert!(refused.body.contains("id=\"new-person-error\""));
    assert_eq!(people(&s).len(), 61);
}

#[test]
fn a_person_is_edited_and_their_rows_added_and_removed() {
    let s = TestServer::start();
    let ada = person(&s, "Ada");
    let mut page = Page::signed_in(&s);

    let shown = page.get(&format!("/people/{}", ada.id));
    assert_eq!(shown.status, 200, "{shown:?}");
    assert!(shown.body.contains("<h1>Ada</h1>"));

    // Name and relationships.
    let saved = send(
        &mut page,
        &ada,
        "",
        &[
            ("name", "Ada Lovelace"),
            ("relationships", "friend"),
            ("relationships", "colleague"),
        ],
    );
    assert_eq!(saved.status, 303, "{saved:?}");
    assert_eq!(
        saved.location(),
        Some(format!("/people/{}?saved=1", ada.id).as_str())
    );
    let now = s.org.people().get(ada.id).unwrap();
    assert_eq!(now.name, "Ada Lovelace");
    assert_eq!(now.relationships.len(), 2, "{:?}", now.relationships);
    let shown = page.get(&format!("/people/{}?saved=1", ada.id));
    assert!(shown.body.contains("Saved."));
    assert!(shown.body.contains("value=\"friend\" checked"));

    // A blank name is refused beside the field, the typed values kept.
    let refused = send(
        &mut page,
        &ada,
        "",
        &[("name", ""), ("relationships", "sibling")],
    );
    assert_eq!(refused.status, 422, "{refused:?}");
    assert!(
        refused.body.contains("id=\"person-name-error\""),
        "{}",
        refused.body
    );
    assert!(refused.body.contains("value=\"sibling\" checked"));
    assert_eq!(s.org.people().get(ada.id).unwrap().name, "Ada Lovelace");

    // A birthday.
    let added = send(
        &mut page,
        &ada,
        "/rows/key_dates",
        &[
            ("kind", "birthday"),
            ("day", "14"),
            ("month", "3"),
            ("year", "1990"),
        ],
    );
    assert_eq!(added.status, 303, "{added:?}");
    let now = s.org.people().get(ada.id).unwrap();
    assert_eq!(now.key_dates.len(), 1);
    let birthday = &now.key_dates[0];
    assert_eq!(
        (
            birthday.kind.as_str(),
            birthday.day,
            birthday.month,
            birthday.year
        ),
        ("birthday", 14, 3, Some(1990))
    );
    let shown = page.get(&format!("/people/{}", ada.id));
    assert!(shown.body.contains("Birthday"));
    assert!(shown.body.contains("14 March 1990"));
    assert!(shown.body.contains("next "), "when it next falls");

    // Refused key dates: beside their fields, what was typed kept.
    let refused = send(
        &mut page,
        &ada,
        "/rows/key_dates",
        &[
            ("kind", "birthday"),
            ("day", "32"),
            ("month", "1"),
            ("year", ""),
        ],
    );
    assert_eq!(refused.status, 422, "{refused:?}");
    assert!(
        refused.body.contains("id=\"key_dates-day-error\""),
        "{}",
        refused.body
    );
    assert!(refused.body.contains("value=\"32\""));
    let refused = send(
        &mut page,
        &ada,
        "/rows/key_dates",
        &[("kind", "birthday"), ("day", "ten"), ("month", "1")],
    );
    assert_eq!(refused.status, 422);
    assert!(refused.body.contains("must be a whole number"));
    assert_eq!(s.org.people().get(ada.id).unwrap().key_dates.len(), 1);

    // An email address.
    let added = send(
        &mut page,
        &ada,
        "/rows/email_addresses",
        &[("address", "ada@example.org"), ("label", "home")],
    );
    assert_eq!(added.status, 303, "{added:?}");
    let now = s.org.people().get(ada.id).unwrap();
    assert_eq!(now.email_addresses[0].address, "ada@example.org");
    let shown = page.get(&format!("/people/{}", ada.id));
    assert!(shown.body.contains("href=\"mailto:ada@example.org\""));
    let refused = send(
        &mut page,
        &ada,
        "/rows/email_addresses",
        &[("address", "not an address"), ("label", "")],
    );
    assert_eq!(refused.status, 422, "{refused:?}");
    assert!(
        refused
            .body
            .contains("id=\"email_addresses-address-error\""),
        "{}",
        refused.body
    );
    assert!(refused.body.contains("value=\"not an address\""));

    // A phone number and a position.
    let added = send(
        &mut page,
        &ada,
        "/rows/phone_numbers",
        &[("number", "+44 20 7946 0000"), ("label", "mobile")],
    );
    assert_eq!(added.status, 303, "{added:?}");
    let added = send(
        &mut page,
        &ada,
        "/rows/positions",
        &[
            ("title", "Analyst"),
            ("company_name", "Analytical Engines Ltd"),
        ],
    );
    assert_eq!(added.status, 303, "{added:?}");
    let shown = page.get(&format!("/people/{}", ada.id));
    assert!(shown.body.contains("+44 20 7946 0000"));
    assert!(
        shown
            .body
            .contains("Analyst at <strong>Analytical Engines Ltd</strong>"),
        "{}",
        shown.body
    );

    // Removed.
    let now = s.org.people().get(ada.id).unwrap();
    let path = format!("/rows/key_dates/{}/delete", now.key_dates[0].id);
    assert_eq!(send(&mut page, &ada, &path, &[]).status, 303);
    let path = format!("/rows/email_addresses/{}/delete", now.email_addresses[0].id);
    assert_eq!(send(&mut page, &ada, &path, &[]).status, 303);
    let now = s.org.people().get(ada.id).unwrap();
    assert!(now.key_dates.is_empty());
    assert!(now.email_addresses.is_empty());
    assert_eq!(now.phone_numbers.len(), 1);

    // An unknown array is not a page.
    assert_eq!(send(&mut page, &ada, "/rows/secrets", &[]).status, 404);
}

#[test]
fn people_are_linked_and_their_tasks_shown() {
    let s = TestServer::start();
    let ada = person(&s, "Ada");
    let charles = person(&s, "Charles Babbage");
    let task = s
        .org
        .tasks()
        .create(TaskInput {
            person_id: Field::Value(ada.id),
            ..TaskInput::titled("Send the notes".to_owned())
        })
        .unwrap();
    let mut page = Page::signed_in(&s);

    let linked = send(
        &mut page,
        &ada,
        "/links",
        &[
            ("other", "charles babbage"),
            ("kind", "friend"),
            ("note", ""),
        ],
    );
    assert_eq!(linked.status, 303, "{linked:?}");
    let now = s.org.people().get(ada.id).unwrap();
    assert_eq!(now.connections.len(), 1);
    assert_eq!(now.connections[0].person_id, charles.id, "found by name");
    let shown = page.get(&format!("/people/{}", ada.id));
    assert!(shown.body.contains(&format!(
        "<a href=\"/people/{}\">Charles Babbage</a>",
        charles.id
    )));
    assert!(shown.body.contains("Friend"));
    assert!(shown.body.contains(&format!(
        "<a href=\"/tasks/{}\">Send the notes</a>",
        task.id
    )));
    let theirs = page.get(&format!("/people/{}", charles.id));
    assert!(
        theirs
            .body
            .contains(&format!("<a href=\"/people/{}\">Ada</a>", ada.id))
    );

    // A name no one has makes the person.
    let linked = send(
        &mut page,
        &ada,
        "/links",
        &[("other", "Mary Somerville"), ("kind", "mentor")],
    );
    assert_eq!(linked.status, 303, "{linked:?}");
    assert!(people(&s).iter().any(|p| p.name == "Mary Somerville"));
    // A link the core refuses (no role): beside the field.
    let refused = send(
        &mut page,
        &ada,
        "/links",
        &[("other", "Charles Babbage"), ("kind", "")],
    );
    assert_eq!(refused.status, 422, "{refused:?}");
    assert!(
        refused.body.contains("id=\"link-kind-error\""),
        "{}",
        refused.body
    );

    let link = s.org.people().get(ada.id).unwrap().connections[0].id;
    let gone = send(&mut page, &ada, &format!("/links/{link}/delete"), &[]);
    assert_eq!(gone.status, 303);
    assert_eq!(s.org.people().get(ada.id).unwrap().connections.len(), 1);
}

#[test]
fn a_deleted_person_is_restored_by_undo() {
    let s = TestServer::start();
    let ada = person(&s, "Ada");
    let mut page = Page::signed_in(&s);
    let deleted = send(&mut page, &ada, "/delete", &[]);
    assert_eq!(deleted.status, 303);
    let to = format!("/people?deleted={}", ada.id);
    assert_eq!(deleted.location(), Some(to.as_str()));
    assert!(people(&s).is_empty());
    assert_eq!(page.get(&format!("/people/{}", ada.id)).status, 404);
    let list = page.get(&to);
    let undo = format!("action=\"/people/{}/restoration\"", ada.id);
    assert!(list.body.contains(&undo), "{}", list.body);
    let restored = page.submit(&to, &format!("/people/{}/restoration", ada.id), &[]);
    assert_eq!(restored.status, 303, "{restored:?}");
    assert_eq!(people(&s).len(), 1);
    assert_eq!(page.get(&format!("/people/{}", ada.id)).status, 200);
}

#[test]
fn hostile_names_are_escaped() {
    let s = TestServer::start();
    let hostile = "<script>alert(1)</script>\"'><img src=x onerror=alert(2)>";
    let p = s
        .org
        .people()
        .create(PersonInput {
            name: Some(format!("Eve {hostile}")),
            email_addresses: Some(vec![RowInput::add(EmailAddressFields {
                address: Field::Value("eve@example.org".into()),
                label: Field::Value(hostile.into()),
            })]),
            ..PersonInput::default()
        })
        .unwrap();
    let other = person(&s, &format!("Mallory {hostile}"));
    s.org
        .person_links()
        .create(organiser::people::PersonLinkInput {
            person_id: Field::Value(other.id),
            related_person_id: Field::Value(p.id),
            kind: Field::Value("friend".into()),
            note: Field::Value(hostile.into()),
            ..Default::default()
        })
        .unwrap();
    let mut page = Page::signed_in(&s);
    let refused = send(
        &mut page,
        &p,
        "/rows/email_addresses",
        &[("address", hostile)],
    );
    assert_eq!(refused.status, 422);
    let answers = [
        page.get("/people"),
        page.get("/people?q=eve"),
        page.get(&format!("/people/{}", p.id)),
        page.get(&format!("/people/{}", other.id)),
        refused,
    ];
    for answer in answers {
        assert!(answer.status == 200 || answer.status == 422, "{answer:?}");
        assert!(!answer.body.contains("<script>alert"), "{}", answer.body);
        assert!(!answer.body.contains("<img src=x"));
        assert!(!answer.body.contains("\"'>"));
    }
}

#[test]
fn no_page_without_a_session_and_no_form_without_the_token() {
    let s = TestServer::start();
    let ada = person(&s, "Ada");
    super::assert_signed_only(&s, &["/people".to_owned(), format!("/people/{}", ada.id)]);
    let mut page = Page::signed_in(&s);
    let forms: Vec<(String, Vec<(&str, &str)>)> = vec![
        ("/people".into(), vec![("name", "Bob")]),
        (format!("/people/{}", ada.id), vec![("name", "Changed")]),
        (
            format!("/people/{}/rows/email_addresses", ada.id),
            vec![("address", "a@example.org")],
        ),
        (
            format!("/people/{}/links", ada.id),
            vec![("other", "Bob"), ("kind", "friend")],
        ),
        (format!("/people/{}/delete", ada.id), vec![]),
    ];
    super::assert_forms_need_the_token(&mut page, &forms);
    let now = people(&s);
    assert_eq!(now.len(), 1, "nothing made or deleted");
    assert_eq!(now[0].name, "Ada");
    assert!(now[0].email_addresses.is_empty());
}

/// A `multipart/form-data` body of the photo form: `token` and a file.
fn photo_form(token: &str, content_type: &str, bytes: &[u8]) -> (String, Vec<u8>) {
    let boundary = "----organiser-test-boundary";
    let mut body = Vec::new();
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n{token}\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"me.jpg\"\r\nContent-Type: {content_type}\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// Posts the photo form of person `p`.
fn post_photo(page: &mut Page<'_>, p: &Person, token: &str, kind: &str, bytes: &[u8]) -> Answer {
    let (content_type, body) = photo_form(token, kind, bytes);
    let url = format!("{}/people/{}/photo", page.server.url, p.id);
    let request = page
        .client
        .post(url)
        .header("content-type", content_type)
        .body(body);
    page.read(request)
}

#[test]
fn a_photo_is_uploaded_from_a_plain_form() {
    let s = TestServer::start();
    let ada = person(&s, "Ada");
    let mut page = Page::signed_in(&s);
    let token = page.get(&format!("/people/{}", ada.id)).csrf();
    let image = image::RgbImage::from_fn(64, 48, |x, y| image::Rgb([x as u8 * 3, y as u8 * 5, 90]));
    let mut jpeg = std::io::Cursor::new(Vec::new());
    image.write_to(&mut jpeg, image::ImageFormat::Jpeg).unwrap();
    let jpeg = jpeg.into_inner();

    // Without the session's token: refused, nothing changed.
    let forged = post_photo(&mut page, &ada, "not-the-token", "image/jpeg", &jpeg);
    assert_eq!(forged.status, 403, "{forged:?}");
    assert!(s.org.people().get(ada.id).unwrap().avatar.is_none());
    // Not an image: refused by the core, said on the page.
    let refused = post_photo(
        &mut page,
        &ada,
        &token,
        "image/jpeg",
        b"not an image at all",
    );
    assert!(
        refused.status == 422 || refused.status == 415,
        "{refused:?}"
    );
    assert!(s.org.people().get(ada.id).unwrap().avatar.is_none());

    let sent = post_photo(&mut page, &ada, &token, "image/jpeg", &jpeg);
    assert_eq!(sent.status, 303, "{sent:?}");
    let avatar = s.org.people().get(ada.id).unwrap().avatar.expect("a photo");
    let shown = page.get(&format!("/people/{}", ada.id));
    assert!(
        shown
            .body
            .contains(&format!("src=\"{}\"", avatar.large_url)),
        "{}",
        shown.body
    );
    let listed = page.get("/people");
    assert!(
        listed
            .body
            .contains(&format!("src=\"{}\"", avatar.thumb_url))
    );
    let thumb = if avatar.thumb_url.starts_with('/') {
        page.get(&avatar.thumb_url)
    } else {
        page.get(avatar.thumb_url.trim_start_matches(&s.url))
    };
    assert!(
        thumb.status == 200 || thumb.status == 302 || thumb.status == 307,
        "{thumb:?}"
    );
}
