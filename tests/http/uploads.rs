//! Uploads over HTTP, on a store in a real data directory: the raw body's
//! transport (411 without `Content-Length`, 413 before the body is read,
//! 415 on the header) and the files written under `files/uploads/`.

use std::io::{Cursor, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

use organiser::{Options, Organiser, clock::ManualClock};

use crate::common::{Setup, TestServer};

pub(crate) fn on_disk() -> (TestServer, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let setup = Setup::default();
    let clock = ManualClock::at(setup.now);
    let org = Organiser::open_with(
        dir.path(),
        Options {
            clock: Arc::new(clock.clone()),
            ..setup.options
        },
    )
    .unwrap();
    (TestServer::serve(org, clock, 0), dir)
}

fn jpeg() -> Vec<u8> {
    let image = image::RgbImage::from_fn(64, 48, |x, y| image::Rgb([x as u8 * 3, y as u8 * 5, 90]));
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Jpeg).unwrap();
    out.into_inner()
}

/// Sends `head` (and nothing more) and reads the answer's status line,
/// within five seconds.
pub(crate) fn raw_status(s: &TestServer, head: &str) -> (String, Duration) {
    let mut stream = TcpStream::connect(s.addr()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let started = Instant::now();
    stream.write_all(head.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while !answer.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
        }
    }
    let text = String::from_utf8_lossy(&answer);
    (
        text.lines().next().unwrap_or_default().to_owned(),
        started.elapsed(),
    )
}

#[test]
fn an_upload_is_written_under_files_uploads() {
    let (s, dir) = on_disk();
    let bytes = jpeg();
    let reply = s
        .req("POST", "/uploads?kind=avatar&filename=me.jpg")
        .header("content-type", "image/jpeg")
        .body(bytes.clone())
        .send()
        .unwrap();
    assert_eq!(reply.status(), 201);
    let body: serde_json::Value = reply.json().unwrap();
    assert_eq!(body["data"]["content_type"], "image/jpeg");
    assert_eq!(body["data"]["byte_size"], bytes.len());
    let files = s.org.stored_files().unwrap();
    assert_eq!(files.len(), 3, "{files:?}");
    let file = dir.path().join("files").join(&files[0]);
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&file), 0o600);
        assert_eq!(mode(&dir.path().join("files/uploads")), 0o700);
    }
    // A corrupt one leaves nothing behind.
    let reply = s
        .req("POST", "/uploads?kind=avatar&filename=bad.jpg")
        .header("content-type", "image/jpeg")
        .body(bytes[..bytes.len() / 2].to_vec())
        .send()
        .unwrap();
    assert_eq!(reply.status(), 422);
    assert_eq!(s.org.stored_files().unwrap(), files);
}

#[test]
fn transport_is_checked_before_the_body_is_read() {
    let (s, _dir) = on_disk();
    let auth = format!("Authorization: Bearer {}\r\n", s.token);
    let target = "POST /api/v1/uploads?kind=avatar&filename=a.jpg HTTP/1.1\r\nHost: x\r\n";
    // No Content-Length (a chunked body): 411.
    let (status, _) = raw_status(
        &s,
        &format!("{target}{auth}Content-Type: image/jpeg\r\nTransfer-Encoding: chunked\r\n\r\n"),
    );
    assert!(status.contains(" 411 "), "{status}");
    // Over the kind's limit, with no byte of the body sent: 413 at once.
    let (status, took) = raw_status(
        &s,
        &format!("{target}{auth}Content-Type: image/jpeg\r\nContent-Length: 10485761\r\n\r\n"),
    );
    assert!(status.contains(" 413 "), "{status}");
    assert!(took < Duration::from_secs(2), "{took:?}");
    // A header type the kind does not take: 415, before the body.
    let (status, _) = raw_status(
        &s,
        &format!("{target}{auth}Content-Type: text/plain\r\nContent-Length: 5000\r\n\r\n"),
    );
    assert!(status.contains(" 415 "), "{status}");
    // A bad kind: 400 on the parameter; no credentials: 401.
    let (status, _) = raw_status(
        &s,
        &format!(
            "POST /api/v1/uploads?kind=photo&filename=a.jpg HTTP/1.1\r\nHost: x\r\n{auth}Content-Type: image/jpeg\r\nContent-Length: 10\r\n\r\n"
        ),
    );
    assert!(status.contains(" 400 "), "{status}");
    let (status, _) = raw_status(
        &s,
        &format!("{target}Content-Type: image/jpeg\r\nContent-Length: 10\r\n\r\n"),
    );
    assert!(status.contains(" 401 "), "{status}");
    // Through the client too, so the answers are held to the document.
    let reply = s
        .req("POST", "/uploads?kind=avatar&filename=a.jpg")
        .header("content-type", "application/json")
        .body(jpeg())
        .send()
        .unwrap();
    assert_eq!(reply.status(), 415);
    assert!(s.org.stored_files().unwrap().is_empty());
}

/// A person's photo over HTTP: the bytes sent to `/people/{id}/avatar`,
/// absolute addresses that load without a token, redirect to the image
/// and are cached; the endpoint's transport checked before the body.
#[test]
fn a_persons_photo_is_set_from_bytes_and_served_to_anyone_with_the_link() {
    let (s, _dir) = on_disk();
    let made = s
        .post("/people", serde_json::json!({"person": {"name": "Ada"}}))
        .expect(201);
    let person = made.data()["id"].as_str().unwrap().to_owned();
    let bytes = jpeg();
    let reply = s
        .req("PUT", &format!("/people/{person}/avatar"))
        .header("content-type", "image/jpeg")
        .body(bytes.clone())
        .send()
        .unwrap();
    assert_eq!(reply.status(), 200);
    let body: serde_json::Value = reply.json().unwrap();
    let avatar = &body["data"]["avatar"];
    let url = avatar["url"].as_str().unwrap();
    assert!(url.starts_with(&s.url), "absolute: {avatar}");
    let anyone = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let redirect = anyone.get(url).send().unwrap();
    assert_eq!(redirect.status(), 302);
    let location = redirect.headers()["location"].to_str().unwrap().to_owned();
    assert!(location.starts_with(&s.url), "{location}");
    let image = anyone.get(&location).send().unwrap();
    assert_eq!(image.status(), 200);
    assert_eq!(image.headers()["content-type"], "image/jpeg");
    assert_eq!(image.headers()["x-content-type-options"], "nosniff");
    assert!(
        image.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable")
    );
    assert_eq!(image.bytes().unwrap().to_vec(), bytes);
    let thumb = anyone
        .get(avatar["thumb_url"].as_str().unwrap())
        .send()
        .unwrap();
    let location = thumb.headers()["location"].to_str().unwrap().to_owned();
    let head = anyone.head(&location).send().unwrap();
    assert_eq!(head.headers()["content-type"], "image/webp");
    let length: usize = head.headers()["content-length"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    let got = anyone.get(&location).send().unwrap().bytes().unwrap();
    assert_eq!(length, got.len(), "HEAD says the GET's length");

    let auth = format!("Authorization: Bearer {}\r\n", s.token);
    let target = format!("PUT /api/v1/people/{person}/avatar HTTP/1.1\r\nHost: x\r\n");
    for (head, status) in [
        (
            "Content-Type: image/jpeg\r\nTransfer-Encoding: chunked\r\n",
            " 411 ",
        ),
        (
            "Content-Type: image/jpeg\r\nContent-Length: 10485761\r\n",
            " 413 ",
        ),
        (
            "Content-Type: text/plain\r\nContent-Length: 5000\r\n",
            " 415 ",
        ),
    ] {
        let (line, _) = raw_status(&s, &format!("{target}{auth}{head}\r\n"));
        assert!(line.contains(status), "{head}: {line}");
    }
}

/// A PDF shown in the browser is sandboxed, and no file is read as
/// another type than the one it is served as (issue 22).
#[test]
fn files_are_served_nosniff_and_pdfs_sandboxed() {
    let (s, _dir) = on_disk();
    let upload = s
        .req("POST", "/uploads?kind=document&filename=invoice.pdf")
        .header("content-type", "application/pdf")
        .body(crate::common::fixtures::pdf("invoice"))
        .send()
        .unwrap();
    assert_eq!(upload.status(), 201);
    let signed: serde_json::Value = upload.json().unwrap();
    let document = s
        .post(
            "/documents",
            serde_json::json!({"document": {"upload": signed["data"]["signed_id"]}}),
        )
        .expect(201);
    let file = document.data()["file"].clone();
    for (url, sandboxed) in [
        (file["url"].as_str().unwrap(), true),
        (file["download_url"].as_str().unwrap(), true),
        (file["thumbnail_url"].as_str().unwrap(), false),
    ] {
        let answer = reqwest::blocking::Client::new()
            .get(url)
            .bearer_auth(&s.token)
            .send()
            .unwrap();
        assert_eq!(answer.status(), 200, "{url}");
        assert_eq!(
            answer.headers()["x-content-type-options"],
            "nosniff",
            "{url}"
        );
        let csp = answer
            .headers()
            .get("content-security-policy")
            .map(|v| v.to_str().unwrap().to_owned());
        assert_eq!(csp.as_deref(), sandboxed.then_some("sandbox"), "{url}");
    }
}
