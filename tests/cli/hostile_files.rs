//! A real `organiser serve` against hostile files of a few kilobytes
//! (issue 22): images claiming gigapixels or thousands of frames as an
//! avatar, a note image and a person's photo, and PDFs whose first page
//! would take gigabytes or minutes to render. The server refuses the
//! images before decoding or reads them within its budget, renders PDFs in
//! child processes that limit themselves, and never takes more than 256
//! MB, even with eight of them at once, while `/healthz` keeps answering.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::hostile::{
    gif_of_frames, pdf_with_a_huge_jpeg, pdf_with_a_twice_compressed_image,
    pdf_with_millions_of_paths, png_claiming,
};
use crate::util::{Dir, Server};

/// The most memory the server may take.
const BUDGET_KIB: u64 = 256 * 1024;

/// A field of `/proc/PID/status` in KiB.
fn status_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the server runs");
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("{field} in /proc/{pid}/status"))
}

/// The server's child processes (renders running).
fn children(pid: u32) -> Vec<String> {
    let mut found = Vec::new();
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for task in tasks.flatten() {
            if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
                found.extend(text.split_whitespace().map(str::to_owned));
            }
        }
    }
    found
}

fn client() -> reqwest::blocking::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
}

/// A raw body sent with `method` to `path`: the status and the JSON.
fn raw(s: &Server, method: &str, path: &str, content_type: &str, bytes: Vec<u8>) -> (u16, Value) {
    let r = client()
        .request(method.parse().unwrap(), format!("{}/api/v1{path}", s.url))
        .bearer_auth(&s.token)
        .header("content-type", content_type)
        .body(bytes)
        .send()
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().unwrap_or(Value::Null))
}

fn post(s: &Server, path: &str, body: Value) -> (u16, Value) {
    raw(
        s,
        "POST",
        path,
        "application/json",
        serde_json::to_vec(&body).unwrap(),
    )
}

/// A hostile file and what it is sent as.
#[derive(Clone)]
enum Sent {
    Upload(&'static str, &'static str, Vec<u8>),
    Photo(&'static str, Vec<u8>),
    Document(Vec<u8>),
}

fn send(s: &Server, person: &str, sent: &Sent) -> u16 {
    match sent {
        Sent::Upload(kind, content_type, bytes) => {
            raw(
                s,
                "POST",
                &format!("/uploads?kind={kind}&filename=x"),
                content_type,
                bytes.clone(),
            )
            .0
        }
        Sent::Photo(content_type, bytes) => {
            raw(
                s,
                "PUT",
                &format!("/people/{person}/avatar"),
                content_type,
                bytes.clone(),
            )
            .0
        }
        Sent::Document(bytes) => {
            let (status, upload) = raw(
                s,
                "POST",
                "/uploads?kind=document&filename=hostile.pdf",
                "application/pdf",
                bytes.clone(),
            );
            assert_eq!(status, 201, "{upload}");
            post(
                s,
                "/documents",
                json!({"document": {"upload": upload["data"]["signed_id"]}}),
            )
            .0
        }
    }
}

/// What the server says when a document's thumbnail is written (the
/// render is done and its child process gone).
const THUMBNAIL_WRITTEN: &str = "document thumbnail written";

/// Waits until the server has written `thumbnails` document thumbnails in
/// all, asking `/healthz` at once and every 50 ms meanwhile: the slowest
/// answer.
fn settle(s: &Server, thumbnails: usize, mut slowest: Duration) -> Duration {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        slowest = slowest.max(health(s));
        if s.said_times(THUMBNAIL_WRITTEN, thumbnails, Duration::from_millis(50)) {
            assert!(
                children(s.pid()).is_empty(),
                "a render outlives its thumbnail"
            );
            return slowest;
        }
        assert!(Instant::now() < deadline, "renders still running");
    }
}

fn health(s: &Server) -> Duration {
    let started = Instant::now();
    let r = client().get(format!("{}/healthz", s.url)).send().unwrap();
    assert_eq!(r.status().as_u16(), 200);
    started.elapsed()
}

#[test]
fn hostile_files_cost_the_server_little_and_it_keeps_answering() {
    let dir = Dir::new();
    let s = dir.serve();
    let pid = s.pid();
    let (status, person) = post(&s, "/people", json!({"person": {"name": "Ada"}}));
    assert_eq!(status, 201);
    let person = person["data"]["id"].as_str().unwrap().to_owned();
    let png = png_claiming(12_000, 12_000, 16, 6);
    let gif = gif_of_frames(4_000, 3_000);
    let files: Vec<(&str, Sent, u16)> = vec![
        (
            "PNG of 12,000 x 12,000 x 16 bits as an avatar",
            Sent::Upload("avatar", "image/png", png.clone()),
            422,
        ),
        (
            "the same as a note image",
            Sent::Upload("note_image", "image/png", png.clone()),
            422,
        ),
        (
            "the same as a photo",
            Sent::Photo("image/png", png.clone()),
            422,
        ),
        (
            "GIF of 3,000 frames on 4,000 x 4,000 as an avatar",
            Sent::Upload("avatar", "image/gif", gif.clone()),
            201,
        ),
        (
            "the same as a note image",
            Sent::Upload("note_image", "image/gif", gif.clone()),
            201,
        ),
        (
            "the same as a photo",
            Sent::Photo("image/gif", gif.clone()),
            200,
        ),
        (
            "PDF whose JPEG claims 65,500 x 65,500",
            Sent::Document(pdf_with_a_huge_jpeg()),
            201,
        ),
        (
            "PDF of a 20,000 x 20,000 image compressed twice",
            Sent::Document(pdf_with_a_twice_compressed_image()),
            201,
        ),
        (
            "PDF of 14 million path operators",
            Sent::Document(pdf_with_millions_of_paths()),
            201,
        ),
    ];
    let mut report = Vec::new();
    // Each document made renders one thumbnail, after its answer.
    let mut thumbnails = 0;
    for (what, sent, expected) in &files {
        let before = status_kib(pid, "VmHWM");
        let started = Instant::now();
        let status = send(&s, &person, sent);
        let answered = started.elapsed();
        assert_eq!(status, *expected, "{what}");
        thumbnails += usize::from(matches!(sent, Sent::Document(_)) && status == 201);
        let slowest = settle(&s, thumbnails, Duration::ZERO);
        let peak = status_kib(pid, "VmHWM");
        report.push(format!(
            "{what}: {status} in {answered:?}; server peak {} MiB (was {} MiB); slowest /healthz {slowest:?}",
            peak / 1024,
            before / 1024
        ));
        assert!(peak < BUDGET_KIB, "{what}: the server peaked at {peak} KiB");
    }
    // Eight at once, /healthz asked all along.
    let eight: Vec<Sent> = files
        .iter()
        .map(|(_, sent, _)| sent.clone())
        .filter(|sent| !matches!(sent, Sent::Photo(..)))
        .cycle()
        .take(8)
        .collect();
    let started = Instant::now();
    let slowest = std::thread::scope(|scope| {
        let running: Vec<_> = eight
            .iter()
            .map(|sent| scope.spawn(|| send(&s, &person, sent)))
            .collect();
        // /healthz at once and every 20 ms on, until all eight are
        // answered (`answered` dropped).
        let (answered, all_answered) = std::sync::mpsc::channel::<()>();
        let server = &s;
        let prober = scope.spawn(move || {
            let mut slowest = Duration::ZERO;
            loop {
                slowest = slowest.max(health(server));
                match all_answered.recv_timeout(Duration::from_millis(20)) {
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                    Ok(()) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                        return slowest;
                    }
                }
            }
        });
        for (t, sent) in running.into_iter().zip(&eight) {
            let status = t.join().unwrap();
            assert!(matches!(status, 200 | 201 | 422));
            thumbnails += usize::from(matches!(sent, Sent::Document(_)) && status == 201);
        }
        drop(answered);
        prober.join().unwrap()
    });
    let slowest = settle(&s, thumbnails, slowest);
    let peak = status_kib(pid, "VmHWM");
    report.push(format!(
        "eight at once: all answered and rendered in {:?}; server peak {} MiB; slowest /healthz {slowest:?}",
        started.elapsed(),
        peak / 1024
    ));
    eprintln!("{}", report.join("\n"));
    assert!(peak < BUDGET_KIB, "the server peaked at {peak} KiB");
    assert!(
        slowest < Duration::from_secs(1),
        "/healthz took {slowest:?}"
    );
    // Every document answers with a thumbnail (the icon, for these).
    let (status, docs) =
        crate::util::http_get(&format!("{}/api/v1/documents", s.url), Some(&s.token));
    assert_eq!(status, 200);
    let mut last = None;
    for doc in docs["data"].as_array().unwrap() {
        let thumb = client()
            .get(doc["file"]["thumbnail_url"].as_str().unwrap())
            .bearer_auth(&s.token)
            .send()
            .unwrap();
        assert_eq!(thumb.status().as_u16(), 200);
        assert_eq!(thumb.headers()["content-type"], "image/webp");
        last = Some(thumb.url().path().to_owned());
    }
    // The server logs a request before it answers it: once the last
    // request's line is read from its stderr, every line before it is.
    let log = match last {
        Some(path) => s.wait_for_stderr(&format!("path={path} ")),
        None => s.stderr(),
    };
    assert!(!log.contains("panicked"), "{log}");
    assert!(s.stop().success());
}
