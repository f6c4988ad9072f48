//! The uploads' rules of the clock and signatures, with a movable clock.

use std::io::Cursor;
use std::sync::Arc;

use super::*;
use crate::{Auth, ManualClock, Method, Options, Organiser, Request};

fn png() -> Vec<u8> {
    let image = ::image::RgbImage::from_fn(30, 20, |x, y| ::image::Rgb([x as u8, y as u8, 7]));
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, ::image::ImageFormat::Png).unwrap();
    out.into_inner()
}

fn org(clock: &ManualClock) -> Organiser {
    Organiser::in_memory_with(Options {
        clock: Arc::new(clock.clone()),
        ..Options::default()
    })
}

fn upload(org: &Organiser, kind: &str) -> serde_json::Value {
    let query = Query::parse(&format!("kind={kind}&filename=me.png")).unwrap();
    let request = Request::new(Method::Post, "/uploads", Auth::Local)
        .with_query(query)
        .with_raw("image/png", png());
    let response = org.handle(&request);
    assert_eq!(response.status, 201, "{:?}", response.json_value());
    response.json_value()["data"].clone()
}

#[test]
fn a_signed_id_names_its_upload_and_tampering_is_detected() {
    let key = SecretKey::generate();
    let id = Id::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap();
    let signed = sign(&key, id);
    assert_eq!(signed.len(), 43);
    assert_eq!(verify(&key, &signed), Some(id));
    assert_eq!(verify(&SecretKey::generate(), &signed), None);
    let mut chars: Vec<char> = signed.chars().collect();
    for i in [0, 10, 21, 30, 42] {
        let was = chars[i];
        chars[i] = if was == 'A' { 'B' } else { 'A' };
        let tampered: String = chars.iter().collect();
        assert_eq!(verify(&key, &tampered), None, "{tampered}");
        chars[i] = was;
    }
    for junk in [
        "",
        "x",
        "01ARZ3NDEKTSV4RRFFQ69G5FAV",
        &"A".repeat(43),
        &format!("{signed}A"),
    ] {
        assert_eq!(verify(&key, junk), None, "{junk}");
    }
}

#[test]
fn an_avatar_has_its_file_and_thumbnails() {
    let clock = ManualClock::at("2026-03-10T12:00:00Z");
    let org = org(&clock);
    let data = upload(&org, "avatar");
    let id = verify(&org.inner.secret, data["signed_id"].as_str().unwrap()).unwrap();
    assert_eq!(org.stored_files().unwrap(), Stored::file_names(id));
    assert_eq!(org.inner.files.read(&file_name(id)).unwrap(), png());
    upload(&org, "note_image");
    assert_eq!(
        org.stored_files().unwrap().len(),
        4,
        "a note image has no thumbnails"
    );
}

#[test]
fn unused_uploads_are_removed_after_24_hours_and_used_ones_kept() {
    let clock = ManualClock::at("2026-03-10T12:00:00Z");
    let org = org(&clock);
    let kept = upload(&org, "avatar");
    let kept_signed = kept["signed_id"].as_str().unwrap().to_owned();
    clock.advance_secs(3600);
    let later = upload(&org, "note_image");
    let later_id = verify(&org.inner.secret, later["signed_id"].as_str().unwrap()).unwrap();
    org.inner
        .write(|cx| {
            let err = take(cx, &kept_signed, Kind::NoteImage, "avatar").unwrap_err();
            assert_eq!(
                err.details().unwrap().get("avatar"),
                ["must be an upload of kind note_image"]
            );
            take(cx, &kept_signed, Kind::Avatar, "avatar").map(drop)
        })
        .unwrap();
    org.inner
        .write(|cx| {
            let err = take(cx, &kept_signed, Kind::Avatar, "avatar").unwrap_err();
            assert_eq!(
                err.details().unwrap().get("avatar"),
                ["has already been used"]
            );
            Ok(())
        })
        .unwrap();
    let files = org.stored_files().unwrap();
    assert_eq!(files.len(), 4);

    // 24 hours after the first: the used one stays, the other is not yet due.
    clock.advance_secs(23 * 3600);
    assert!(!org.inner.read(unused_due).unwrap());
    clock.advance_secs(3600);
    assert!(org.inner.read(unused_due).unwrap());
    org.inner.write(|_| Ok(())).unwrap();
    assert!(!org.inner.read(unused_due).unwrap());
    assert_eq!(org.stored_files().unwrap(), files[..3]);
    org.inner
        .read(|cx| {
            assert!(get(cx, later_id)?.is_none());
            Ok(())
        })
        .unwrap();
}

#[test]
fn file_names_are_made_safe() {
    for (raw, safe) in [
        ("me.jpg", "me.jpg"),
        ("../../etc/passwd", "passwd"),
        ("C:\\Users\\me\\photo 1.png", "photo 1.png"),
        ("  a \t b\n.png ", "a b.png"),
        ("..hidden", "hidden"),
        ("\u{202E}gnp.exe", "gnp.exe"),
        ("dir/", ""),
        ("...", ""),
    ] {
        assert_eq!(sanitise_filename(raw), safe, "{raw:?}");
    }
}
