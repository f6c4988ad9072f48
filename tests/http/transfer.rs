//! Export and import over HTTP (EXTENSIONS.md §5): `POST /imports` takes
//! its file as a raw body of any type, answers 413 before reading a body
//! past 200 MB and 411 without a length; `GET /export` answers the file
//! as an attachment.

use std::io::Read;
use std::time::Duration;

use super::uploads::{on_disk, raw_status};

const VCARD: &str = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ada-1\r\nFN:Ada Lovelace\r\nEMAIL;TYPE=INTERNET,HOME:ada@example.com\r\nBDAY:--1210\r\nEND:VCARD\r\n";

#[test]
fn a_file_of_any_type_is_imported_and_the_transport_checked_first() {
    let (s, _dir) = on_disk();
    for content_type in ["text/vcard", "text/plain", "application/octet-stream"] {
        let reply = s
            .req("POST", "/imports")
            .header("content-type", content_type)
            .body(VCARD)
            .send()
            .expect("an answer");
        assert!(
            [201].contains(&reply.status().as_u16()),
            "{content_type}: {}",
            reply.status()
        );
    }
    let dry = s
        .req("POST", "/imports?from=vcard&dry_run=true")
        .body(VCARD)
        .send()
        .expect("an answer");
    assert_eq!(dry.status(), 200);
    let auth = format!("Authorization: Bearer {}\r\n", s.token);
    let target = "POST /api/v1/imports?from=vcard HTTP/1.1\r\nHost: x\r\n";
    let (status, _) = raw_status(
        &s,
        &format!("{target}{auth}Content-Type: text/vcard\r\nTransfer-Encoding: chunked\r\n\r\n"),
    );
    assert!(status.contains(" 411 "), "{status}");
    let (status, took) = raw_status(
        &s,
        &format!("{target}{auth}Content-Type: text/vcard\r\nContent-Length: 200000001\r\n\r\n"),
    );
    assert!(status.contains(" 413 "), "{status}");
    assert!(took < Duration::from_secs(2), "{took:?}");
}

#[test]
fn an_export_is_an_attachment() {
    let (s, _dir) = on_disk();
    s.req("POST", "/imports?from=vcard")
        .body(VCARD)
        .send()
        .expect("an import");
    for (format, ty, ext, starts) in [
        ("organiser", "application/zip", "zip", &b"PK"[..]),
        (
            "vcard",
            "text/vcard; charset=utf-8",
            "vcf",
            &b"BEGIN:VCARD"[..],
        ),
        (
            "ical",
            "text/calendar; charset=utf-8",
            "ics",
            &b"BEGIN:VCALENDAR"[..],
        ),
        ("markdown", "application/zip", "zip", &b"PK"[..]),
    ] {
        let mut reply = s
            .req("GET", &format!("/export?format={format}"))
            .send()
            .expect("an answer");
        assert_eq!(reply.status(), 200, "{format}");
        let header = |name: &str| {
            reply
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_owned()
        };
        assert_eq!(header("content-type"), ty);
        let disposition = header("content-disposition");
        assert!(
            disposition.starts_with("attachment; filename=\"organiser-")
                && disposition.ends_with(&format!(".{ext}\"")),
            "{disposition}"
        );
        assert_eq!(header("cache-control"), "private, no-store");
        let mut bytes = Vec::new();
        reply.read_to_end(&mut bytes).expect("the body");
        assert!(bytes.starts_with(starts), "{format}");
    }
}
