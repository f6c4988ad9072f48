//! `people show P` (issue "a new user's day"): the photo, the projects the
//! person is a member of, the notes that mention them and the documents
//! linked to them, beside what it showed before; and the requests it makes,
//! counted in a running server's request log: one for each thing it shows,
//! each company and connected person once, the vocabulary only when a
//! label is shown.

use std::path::PathBuf;

use crate::documents::pdf;
use crate::tasks::{record, short};
use crate::util::{Dir, Server};

/// The lines of `people show P`, their runs of spaces made one.
#[track_caller]
fn shown(dir: &Dir, reference: &str) -> Vec<String> {
    let out = dir.ok(&["people", "show", reference]);
    assert_eq!(out.stderr, "", "{out:?}");
    out.stdout
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// The rows under `label`: its own and those after it without a label
/// (`others` are the labels that may follow).
fn under(lines: &[String], label: &str, others: &[&str]) -> Vec<String> {
    let Some(at) = lines
        .iter()
        .position(|l| l.starts_with(&format!("{label} ")))
    else {
        return Vec::new();
    };
    let mut rows = vec![lines[at][label.len() + 1..].to_owned()];
    for line in &lines[at + 1..] {
        if others.iter().any(|o| line.starts_with(&format!("{o} "))) {
            break;
        }
        rows.push(line.clone());
    }
    rows
}

/// A small PNG in the test's directory.
fn png(dir: &Dir) -> PathBuf {
    let image = image::DynamicImage::ImageRgb8(image::RgbImage::new(8, 8));
    let mut bytes = std::io::Cursor::new(Vec::new());
    image
        .write_to(&mut bytes, image::ImageFormat::Png)
        .expect("a PNG");
    let path = dir.root().join("face.png");
    std::fs::write(&path, bytes.into_inner()).expect("the PNG");
    path
}

/// The labels that follow the projects, notes and documents.
const AFTER: &[&str] = &["Task", "Note", "Document", "Next"];

#[test]
fn show_names_the_projects_notes_and_documents_of_the_person() {
    let dir = Dir::new();
    let face = png(&dir);
    let ada = record(&dir.json(&[
        "people",
        "add",
        "Ada",
        "Lovelace",
        "--photo",
        face.to_str().unwrap(),
    ]))
    .clone();
    dir.ok(&["projects", "add", "Engine"]);
    dir.ok(&["projects", "add", "Garden", "--status", "done"]);
    dir.ok(&["projects", "add", "Other"]);
    dir.ok(&[
        "projects", "member", "add", "engine", "ada", "--role", "lead",
    ]);
    dir.ok(&["projects", "member", "add", "garden", "ada"]);
    let mut notes = Vec::new();
    for n in 1..=12 {
        let body = format!("Talked to @Ada Lovelace, time {n}");
        let made = dir.json(&["notes", "add", &format!("Call {n}"), "--body", &body]);
        notes.push(record(&made).clone());
    }
    dir.ok(&["notes", "add", "Elsewhere", "--body", "Nobody here"]);
    let plan = pdf(&dir, "Plan.pdf");
    let document =
        record(&dir.json(&["docs", "add", plan.to_str().unwrap(), "--person", "ada"])).clone();

    let lines = shown(&dir, "ada");
    let photo = ada["avatar"]["url"].as_str().expect("a photo");
    assert!(lines.contains(&format!("Photo {photo}")), "{lines:?}");
    assert_eq!(
        under(&lines, "Project", AFTER),
        ["Engine (lead) · active", "Garden · done"]
    );
    // The notes most recently edited first, ten of them, then how many more.
    let mut said: Vec<String> = notes
        .iter()
        .rev()
        .take(10)
        .map(|n| format!("{} {}", short(&n["id"]), n["name"].as_str().unwrap()))
        .collect();
    said.push("… and 2 more".to_owned());
    assert_eq!(under(&lines, "Note", AFTER), said);
    assert_eq!(
        under(&lines, "Document", AFTER),
        [format!("{} Plan", short(&document["id"]))]
    );
    // A person with none of these has no such rows.
    dir.ok(&["people", "add", "Byron"]);
    let lines = shown(&dir, "byron");
    for label in ["Photo", "Project", "Note", "Document"] {
        assert!(under(&lines, label, AFTER).is_empty(), "{label}: {lines:?}");
    }
}

/// The requests the server logged since `from` lines of its log, as
/// "METHOD /path" with IDs as `{id}`; and the log's length. The server's
/// log is read by a thread as it comes, so a request of its own, marked,
/// is sent first and waited for: every line before it is then in.
fn requests(server: &Server, from: usize) -> (Vec<String>, usize) {
    static MARKS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let mark = format!(
        "/api/v1/log-mark-{}",
        MARKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    crate::util::http_get(&format!("{}{mark}", server.url), None);
    server.wait_for_stderr(&mark);
    let log: Vec<String> = server
        .stderr()
        .lines()
        .filter(|l| l.contains("organiser::request") && !l.contains("/api/v1/log-mark-"))
        .map(str::to_owned)
        .collect();
    let said = log[from..]
        .iter()
        .map(|line| {
            let field = |name: &str| {
                line.split_whitespace()
                    .find_map(|w| w.strip_prefix(&format!("{name}=")))
                    .unwrap_or_default()
                    .to_owned()
            };
            let path: Vec<String> = field("path")
                .trim_start_matches("/api/v1")
                .split('/')
                .map(|part| {
                    if part.len() == 26 && part.bytes().all(|b| b.is_ascii_alphanumeric()) {
                        "{id}".to_owned()
                    } else {
                        part.to_owned()
                    }
                })
                .collect();
            format!("{} {}", field("method"), path.join("/"))
        })
        .collect();
    (said, log.len())
}

/// `people show` through a server asks for the person by name, then for
/// their overview (`GET /people/{id}/overview`), whatever they have: jobs
/// at two companies, a person connected twice, key dates, projects,
/// tasks, notes, documents. Named by ID it makes the one request.
#[test]
fn show_makes_one_request_for_each_thing_it_shows() {
    let dir = Dir::new();
    let server = dir.serve();
    dir.ok(&[
        "people",
        "add",
        "Ada",
        "Lovelace",
        "--relationship",
        "friend",
        "--email",
        "ada@example.org",
        "--link",
        "github.com/ada",
        "--birthday",
        "1915-12-10",
        "--job",
        "Analyst",
        "--company",
        "Engines Ltd",
    ]);
    dir.ok(&[
        "people",
        "edit",
        "ada",
        "--job",
        "Advisor",
        "--company",
        "Babbage & Co",
    ]);
    dir.ok(&["people", "add", "Byron"]);
    dir.ok(&["people", "link", "byron", "parent", "ada"]);
    dir.ok(&["people", "link", "byron", "colleague", "ada"]);
    dir.ok(&["projects", "add", "Engine"]);
    dir.ok(&["projects", "member", "add", "engine", "ada"]);
    dir.ok(&["tasks", "add", "Call", "Ada", "--person", "ada"]);
    dir.ok(&["notes", "add", "Met", "--body", "Met @Ada Lovelace"]);
    let plan = pdf(&dir, "Plan.pdf");
    dir.ok(&["docs", "add", plan.to_str().unwrap(), "--person", "ada"]);
    dir.ok(&["people", "add", "Grace"]);

    let (_, from) = requests(&server, 0);
    let lines = dir.ok(&["people", "show", "Ada", "Lovelace"]).stdout;
    let lines: Vec<String> = lines
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    for row in [
        "Connection Byron (parent)",
        "Byron (colleague)",
        "Works Analyst at Engines Ltd",
        "Advisor at Babbage & Co",
        "Project Engine · active",
        "Relationships Friend",
    ] {
        assert!(lines.contains(&row.to_owned()), "{row}: {lines:?}");
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Birthday 1915-12-10 · next ")),
        "{lines:?}"
    );
    let (made, from) = requests(&server, from);
    assert_eq!(made, ["GET /people", "GET /people/{id}/overview"]);
    let grace = record(&dir.json(&["people", "show", "grace"]))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (_, from) = requests(&server, from);
    shown(&dir, &grace);
    let (made, _) = requests(&server, from);
    assert_eq!(made, ["GET /people/{id}/overview"]);
    assert!(server.stop().success());
}
