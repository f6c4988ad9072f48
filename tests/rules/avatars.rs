//! Document 3, "Avatar" and `avatar` of PersonFields, and the avatar
//! endpoint: a person takes an unused avatar upload (or the bytes sent to
//! `/people/{id}/avatar`), its addresses load without a token and redirect
//! to the image, and a replaced or removed photo's files are deleted.

use std::io::Cursor;

use organiser::{Auth, server::Method, server::Request};
use serde_json::{Value, json};

use crate::common::fixtures::{UNKNOWN, id};
use crate::common::{Call, Core, Expect, check};

fn image(format: image::ImageFormat) -> Vec<u8> {
    let picture = image::DynamicImage::ImageRgb8(image::RgbImage::from_fn(40, 30, |x, y| {
        image::Rgb([(x * 6) as u8, (y * 8) as u8, 90])
    }));
    let mut out = Cursor::new(Vec::new());
    picture.write_to(&mut out, format).unwrap();
    out.into_inner()
}

/// An unused avatar upload's signed ID.
fn uploaded(s: &Core, kind: &str) -> String {
    let call = Call::upload(
        &format!("kind={kind}&filename=me.png"),
        "image/png",
        image(image::ImageFormat::Png),
    );
    s.call(&call).expect(201).data()["signed_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn person(s: &Core, fields: Value) -> Value {
    s.post("/people", json!({ "person": fields }))
        .expect(201)
        .data()
        .clone()
}

/// `GET path` as nobody, straight to `handle`: (status, Location, type, bytes).
fn fetch(s: &Core, path: &str) -> (u16, Option<String>, Option<String>, Vec<u8>) {
    let path = path.strip_prefix("/api/v1").unwrap_or(path);
    let answer = s
        .org
        .handle(&Request::new(Method::Get, path, Auth::Anonymous));
    (
        answer.status,
        answer.header("location").map(str::to_owned),
        answer.header("content-type").map(str::to_owned),
        answer.body.unwrap_or_default(),
    )
}

#[test]
fn a_person_takes_an_unused_avatar_upload_and_its_addresses_serve_it() {
    let s = Core::start();
    let signed = uploaded(&s, "avatar");
    let ada = person(&s, json!({"name": "Ada", "avatar": signed}));
    let avatar = &ada["avatar"];
    let url = avatar["url"].as_str().unwrap();
    assert!(url.starts_with("/api/v1/avatars/"), "{avatar}");
    assert!(
        !url.contains(&id(&ada)),
        "the address does not name the person"
    );
    // Each address redirects to its image; the image loads without a token.
    for (field, content_type, side) in [
        ("url", "image/png", 30),
        ("thumb_url", "image/webp", 128),
        ("large_url", "image/webp", 256),
    ] {
        let (status, location, _, _) = fetch(&s, avatar[field].as_str().unwrap());
        assert_eq!(status, 302, "{field}");
        let location = location.expect("a Location");
        let (status, _, kind, bytes) = fetch(&s, &location);
        assert_eq!(
            (status, kind.as_deref()),
            (200, Some(content_type)),
            "{field}"
        );
        let decoded = image::load_from_memory(&bytes).expect("an image");
        assert_eq!(decoded.height(), side, "{field}");
    }
    // An address made up, or changed by one character, is not found.
    let mut forged = url.to_owned();
    let last = forged.pop().unwrap();
    forged.push(if last == 'A' { 'B' } else { 'A' });
    assert_eq!(fetch(&s, &forged).0, 404);
    assert_eq!(fetch(&s, &format!("{url}/huge")).0, 404);

    // A used upload is not taken again; nor a note image, nor nonsense.
    for (avatar, detail) in [
        (json!(signed), "avatar"),
        (json!(uploaded(&s, "note_image")), "avatar"),
        (json!("not-a-signed-id"), "avatar"),
    ] {
        check(
            &s,
            Call::post(
                "/people",
                json!({"person": {"name": "B", "avatar": avatar}}),
            ),
            Expect::invalid(detail),
        );
    }
    check(
        &s,
        Call::post("/people", json!({"person": {"name": "B", "avatar": 7}})),
        Expect::bad_param(Some("avatar")),
    );
}

#[test]
fn a_replaced_or_removed_photo_is_deleted_with_its_files() {
    let s = Core::start();
    let ada = person(&s, json!({"name": "Ada", "avatar": uploaded(&s, "avatar")}));
    let files = s.org.stored_files().unwrap();
    assert_eq!(
        files.len(),
        3,
        "the photo and its two thumbnails: {files:?}"
    );
    let first = ada["avatar"]["url"].as_str().unwrap().to_owned();
    // Replaced by the bytes sent to the avatar endpoint.
    let path = format!("/people/{}/avatar", id(&ada));
    s.advance(1);
    let changed = s
        .call(&Call::raw(
            "PUT",
            path.clone(),
            "image/jpeg",
            image(image::ImageFormat::Jpeg),
        ))
        .expect(200)
        .data()
        .clone();
    assert_ne!(changed["avatar"]["url"], first);
    assert_ne!(changed["updated_at"], ada["updated_at"]);
    let files = s.org.stored_files().unwrap();
    assert_eq!(files.len(), 3, "the old photo's files went: {files:?}");
    assert_eq!(fetch(&s, &first).0, 404);
    // Removed.
    let removed = s
        .patch(
            &format!("/people/{}", id(&ada)),
            json!({"person": {"avatar": null}}),
        )
        .expect(200);
    assert_eq!(removed.data()["avatar"], Value::Null);
    assert!(s.org.stored_files().unwrap().is_empty());
}

#[test]
fn the_avatar_endpoint_refuses_what_is_no_photo_and_changes_nothing() {
    let s = Core::start();
    let ada = person(&s, json!({"name": "Ada"}));
    let path = format!("/people/{}/avatar", id(&ada));
    let truncated = {
        let mut jpeg = image(image::ImageFormat::Jpeg);
        jpeg.truncate(jpeg.len() / 2);
        jpeg
    };
    for (content_type, bytes, expected) in [
        ("image/jpeg", truncated, Expect::status(422)),
        ("image/png", b"not an image".to_vec(), Expect::status(422)),
        (
            "application/pdf",
            image(image::ImageFormat::Png),
            Expect::status(415),
        ),
    ] {
        check(
            &s,
            Call::raw("PATCH", path.clone(), content_type, bytes),
            expected,
        );
    }
    check(
        &s,
        Call::raw(
            "PUT",
            format!("/people/{UNKNOWN}/avatar"),
            "image/png",
            image(image::ImageFormat::Png),
        ),
        Expect::error(404, "not_found", None),
    );
    assert!(
        s.org.stored_files().unwrap().is_empty(),
        "a refused photo leaves no file"
    );
    assert_eq!(
        s.get(&format!("/people/{}", id(&ada))).data()["avatar"],
        Value::Null
    );
}

/// Deleting a person keeps its photo for the restoration; the permanent
/// step deletes it.
#[test]
fn the_permanent_delete_removes_the_photo() {
    let s = Core::start();
    let ada = person(&s, json!({"name": "Ada", "avatar": uploaded(&s, "avatar")}));
    s.delete(&format!("/people/{}", id(&ada))).expect(204);
    assert_eq!(s.org.stored_files().unwrap().len(), 3);
    crate::common::send(s.req("POST", &format!("/people/{}/restoration", id(&ada)))).expect(200);
    s.delete(&format!("/people/{}", id(&ada))).expect(204);
    s.advance(21);
    s.get("/people").expect(200);
    assert!(s.org.stored_files().unwrap().is_empty());
}
