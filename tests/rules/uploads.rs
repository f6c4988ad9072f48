//! Uploads (DESIGN.md "Uploads"; docs/api.md "Uploads"): the type read
//! from the bytes, images decoded in full, a failed upload leaving no file,
//! and unused uploads removed after 24 hours. Transport (411, 413 before
//! the body is read, 415 on the header) is tested over HTTP.

use std::io::Cursor;

use serde_json::json;

use crate::common::Core;
use crate::common::check::{Call, Expect, check};
use crate::common::in_process::Who;

fn picture(w: u32, h: u32) -> image::DynamicImage {
    image::DynamicImage::ImageRgb8(image::RgbImage::from_fn(w, h, |x, y| {
        image::Rgb([
            (x * 7 % 256) as u8,
            (y * 5 % 256) as u8,
            ((x + y) % 256) as u8,
        ])
    }))
}

fn encoded(format: image::ImageFormat) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    picture(48, 32).write_to(&mut out, format).unwrap();
    out.into_inner()
}

fn jpeg() -> Vec<u8> {
    encoded(image::ImageFormat::Jpeg)
}

fn png() -> Vec<u8> {
    encoded(image::ImageFormat::Png)
}

const PDF: &[u8] = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n";

#[test]
fn an_upload_answers_what_the_bytes_are() {
    let s = Core::start();
    for (query, header, bytes, kind, content_type, files) in [
        (
            "kind=avatar&filename=me.jpg",
            "image/jpeg",
            jpeg(),
            "avatar",
            "image/jpeg",
            3,
        ),
        // The header need only be a type the kind takes: the bytes decide.
        (
            "kind=note_image&filename=a.jpg",
            "image/jpeg",
            png(),
            "note_image",
            "image/png",
            1,
        ),
        (
            "kind=avatar&filename=x.gif",
            "image/gif",
            encoded(image::ImageFormat::Gif),
            "avatar",
            "image/gif",
            3,
        ),
        (
            "kind=avatar&filename=x.webp",
            "image/webp",
            encoded(image::ImageFormat::WebP),
            "avatar",
            "image/webp",
            3,
        ),
        (
            "kind=document&filename=..%2F..%2Fplan%20.pdf",
            "application/pdf",
            PDF.to_vec(),
            "document",
            "application/pdf",
            1,
        ),
    ] {
        let before = s.org.stored_files().unwrap().len();
        let size = bytes.len();
        let reply = check(&s, Call::upload(query, header, bytes), Expect::status(201));
        let data = reply.data();
        assert_eq!(data["kind"], kind, "{query}");
        assert_eq!(data["content_type"], content_type, "{query}");
        assert_eq!(data["byte_size"], size, "{query}");
        assert_eq!(data["signed_id"].as_str().unwrap().len(), 43);
        assert_eq!(
            s.org.stored_files().unwrap().len(),
            before + files,
            "{query}"
        );
    }
    let reply = s.org.stored_files().unwrap();
    assert!(
        reply.iter().all(|name| name.starts_with("uploads/")),
        "{reply:?}"
    );
    let doc = check(
        &s,
        Call::upload(
            "kind=document&filename=..%2F..%2Fplan%20.pdf",
            "application/pdf",
            PDF.to_vec(),
        ),
        Expect::status(201),
    );
    assert_eq!(doc.data()["filename"], "plan .pdf");
}

#[test]
fn every_bad_upload_is_refused_and_leaves_nothing() {
    let s = Core::start();
    let mut truncated = jpeg();
    truncated.truncate(truncated.len() / 2);
    let mut cut_end = jpeg();
    cut_end.truncate(cut_end.len() - 2);
    let mut corrupt = png();
    let n = corrupt.len();
    for b in &mut corrupt[40..n - 20] {
        *b = 0x42;
    }
    let images = "kind=avatar&filename=me.jpg";
    let cases: Vec<(Call, Expect)> = vec![
        (
            Call::upload("filename=a.jpg", "image/jpeg", jpeg()),
            Expect::bad_param(Some("kind")),
        ),
        (
            Call::upload("kind=&filename=a.jpg", "image/jpeg", jpeg()),
            Expect::bad_param(Some("kind")),
        ),
        (
            Call::upload("kind=photo&filename=a.jpg", "image/jpeg", jpeg()),
            Expect::bad_param(Some("kind")),
        ),
        (
            Call::upload("kind=avatar", "image/jpeg", jpeg()),
            Expect::bad_param(Some("filename")),
        ),
        (
            Call::upload("kind=avatar&filename=%20%20", "image/jpeg", jpeg()),
            Expect::bad_param(Some("filename")),
        ),
        (
            Call::upload("kind=avatar&filename=a%2F", "image/jpeg", jpeg()),
            Expect::bad_param(Some("filename")),
        ),
        (
            Call::upload(
                &format!("kind=avatar&filename={}", "a".repeat(256)),
                "image/jpeg",
                jpeg(),
            ),
            Expect::bad_param(Some("filename")),
        ),
        // The header must be a type of the kind.
        (
            Call::upload(images, "application/pdf", jpeg()),
            Expect::error(415, "unsupported_media_type", None),
        ),
        (
            Call::upload(images, "text/plain", jpeg()),
            Expect::error(415, "unsupported_media_type", None),
        ),
        (
            Call::upload("kind=document&filename=a.pdf", "image/png", PDF.to_vec()),
            Expect::error(415, "unsupported_media_type", None),
        ),
        // JSON where the bytes belong; no body at all.
        (
            Call::post("/uploads?kind=avatar&filename=a.jpg", json!({"a": 1})),
            Expect::error(415, "unsupported_media_type", None),
        ),
        (
            Call::new("POST", "/uploads?kind=avatar&filename=a.jpg"),
            Expect::error(411, "length_required", None),
        ),
        // The bytes decide the type.
        (
            Call::upload(images, "image/jpeg", Vec::new()),
            Expect::invalid("file"),
        ),
        (
            Call::upload(images, "image/jpeg", b"not an image at all".to_vec()),
            Expect::invalid("file"),
        ),
        (
            Call::upload(images, "image/png", PDF.to_vec()),
            Expect::invalid("file"),
        ),
        (
            Call::upload("kind=document&filename=a.pdf", "application/pdf", png()),
            Expect::invalid("file"),
        ),
        (
            Call::upload(
                "kind=document&filename=a.pdf",
                "application/pdf",
                PDF[..20].to_vec(),
            ),
            Expect::invalid("file"),
        ),
        // Corrupt or cut short.
        (
            Call::upload(images, "image/jpeg", truncated),
            Expect::invalid("file"),
        ),
        (
            Call::upload(images, "image/jpeg", cut_end),
            Expect::invalid("file"),
        ),
        (
            Call::upload("kind=note_image&filename=a.png", "image/png", corrupt),
            Expect::invalid("file"),
        ),
        (
            Call {
                who: Who::Nobody,
                ..Call::upload(images, "image/jpeg", jpeg())
            },
            Expect::error(401, "unauthorized", None),
        ),
    ];
    let before = s.org.raw_export().unwrap();
    for (call, expected) in cases {
        check(&s, call, expected);
    }
    assert_eq!(
        s.org.raw_export().unwrap(),
        before,
        "a refused upload changes nothing"
    );
    assert_eq!(
        s.org.stored_files().unwrap(),
        Vec::<String>::new(),
        "and leaves no file"
    );
}

#[test]
fn an_upload_over_its_kind_size_is_413() {
    let s = Core::start();
    let mut big = jpeg();
    big.resize(10 * 1024 * 1024 + 1, 0);
    check(
        &s,
        Call::upload("kind=avatar&filename=a.jpg", "image/jpeg", big),
        Expect::error(413, "payload_too_large", None),
    );
    assert!(s.org.stored_files().unwrap().is_empty());
}

#[test]
fn unused_uploads_are_removed_after_24_hours_with_their_files() {
    let s = Core::start();
    check(
        &s,
        Call::upload("kind=avatar&filename=a.jpg", "image/jpeg", jpeg()),
        Expect::status(201),
    );
    s.advance(3600);
    check(
        &s,
        Call::upload("kind=note_image&filename=b.png", "image/png", png()),
        Expect::status(201),
    );
    assert_eq!(s.org.stored_files().unwrap().len(), 4);
    s.advance(23 * 3600 - 1);
    s.get("/me").expect(200);
    s.post("/task_lists", json!({"task_list": {"name": "Settle"}}))
        .expect(201);
    assert_eq!(s.org.stored_files().unwrap().len(), 4, "not yet");
    s.advance(1);
    s.post(
        "/task_lists",
        json!({"task_list": {"name": "Settle again"}}),
    )
    .expect(201);
    assert_eq!(
        s.org.stored_files().unwrap().len(),
        1,
        "the avatar and its thumbnails are gone"
    );
    s.advance(3600);
    s.post("/task_lists", json!({"task_list": {"name": "And again"}}))
        .expect(201);
    assert!(s.org.stored_files().unwrap().is_empty());
}

#[test]
fn a_replayed_upload_answers_the_same_upload() {
    let s = Core::start();
    let mut call = Call::upload("kind=avatar&filename=a.jpg", "image/jpeg", jpeg());
    call.idempotency_key = Some("upload-1".into());
    let first = check(&s, call.clone(), Expect::status(201));
    let again = check(&s, call.clone(), Expect::status(201));
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(first.data(), again.data());
    assert_eq!(s.org.stored_files().unwrap().len(), 3);
    call.raw = Some(("image/png".into(), png()));
    check(&s, call, Expect::error(422, "idempotency_key_reused", None));
}

/// Hostile images of a few kilobytes (issue 22): a size claimed in the
/// header is checked before a pixel is decoded, and an animation is
/// walked, not decoded frame by frame; nothing is kept of a refused one.
#[test]
fn hostile_images_are_refused_or_read_within_the_budget() {
    use crate::common::hostile::{gif_of_frames, png_claiming};
    use std::time::{Duration, Instant};
    let s = Core::start();
    // 12,000 by 12,000 16-bit RGBA: 1.15 GB decoded; 10,000 by 10,000 RGB:
    // 100 megapixels.
    for bytes in [
        png_claiming(12_000, 12_000, 16, 6),
        png_claiming(10_000, 10_000, 8, 2),
    ] {
        for kind in ["avatar", "note_image"] {
            let started = Instant::now();
            let reply = check(
                &s,
                Call::upload(
                    &format!("kind={kind}&filename=x.png"),
                    "image/png",
                    bytes.clone(),
                ),
                Expect::invalid("file"),
            );
            assert!(started.elapsed() < Duration::from_secs(1), "{kind}");
            let said = reply.body["error"]["details"]["file"][0]
                .as_str()
                .unwrap()
                .to_owned();
            assert!(said.contains("too large"), "{said}");
        }
    }
    assert_eq!(s.org.stored_files().unwrap(), Vec::<String>::new());
    // 3,000 one-pixel frames on a 4,000 by 4,000 canvas (60 KB): the
    // first frame is the picture, the rest are walked.
    let frames = gif_of_frames(4_000, 3_000);
    assert!(frames.len() < 70_000);
    for kind in ["avatar", "note_image"] {
        let started = Instant::now();
        check(
            &s,
            Call::upload(
                &format!("kind={kind}&filename=x.gif"),
                "image/gif",
                frames.clone(),
            ),
            Expect::status(201),
        );
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{kind}: {:?}",
            started.elapsed()
        );
    }
    // Too many frames, or cut short: refused.
    check(
        &s,
        Call::upload(
            "kind=note_image&filename=x.gif",
            "image/gif",
            gif_of_frames(2, 5_001),
        ),
        Expect::invalid("file"),
    );
    let whole = gif_of_frames(2, 3);
    check(
        &s,
        Call::upload(
            "kind=note_image&filename=x.gif",
            "image/gif",
            whole[..whole.len() - 4].to_vec(),
        ),
        Expect::invalid("file"),
    );
}

/// The hostile PDFs' streams are what they claim (a stream of gigabytes
/// written without compressing anything).
#[test]
fn the_hostile_files_are_what_they_say() {
    use crate::common::hostile::*;
    for (pattern, total, tail) in [
        (&b"ab"[..], 2, &b""[..]),
        (b"0 0 m ", 1_000, b"S"),
        (b"x", 259, b""),
        (b"x", 260, b""),
        (b"x", 261, b"yz"),
        (b"abc", 10_001, b""),
    ] {
        let z = zlib_repeating(pattern, total, tail);
        let plain = miniz_oxide::inflate::decompress_to_vec_zlib(&z).expect("valid zlib");
        let mut want: Vec<u8> = pattern
            .iter()
            .copied()
            .cycle()
            .take(total as usize)
            .collect();
        want.extend_from_slice(tail);
        assert_eq!(plain, want, "{pattern:?} {total}");
    }
    for (what, pdf) in [
        ("a huge JPEG", pdf_with_a_huge_jpeg()),
        (
            "a twice-compressed image",
            pdf_with_a_twice_compressed_image(),
        ),
        ("millions of paths", pdf_with_millions_of_paths()),
    ] {
        assert!(
            pdf.starts_with(b"%PDF-") && pdf.len() < 16 * 1024,
            "{what}: {} bytes",
            pdf.len()
        );
    }
}
