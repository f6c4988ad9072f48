//! `organiser docs` and `organiser folders` through the binary (issue 11):
//! add a PDF (named from its file, in a folder, linked), the listing with
//! row numbers, search and folder filters, link and unlink, rm and
//! restore, `docs open --print-path` (the same bytes), the folders' tree
//! with counts, add, rename and rm; `tasks add --attach`; `--json` in the
//! API's shape; the same through a running server.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::tasks::{listing, page, record, undo_command};
use crate::util::Dir;

/// A tiny, complete PDF named `name` in the test's directory.
pub(crate) fn pdf(dir: &Dir, name: &str) -> PathBuf {
    let body = format!(
        "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n% {name}\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"
    );
    let path = dir.root().join(name);
    std::fs::write(&path, body).unwrap();
    path
}

/// `docs add FILE ARGS... --json`: the new document.
#[track_caller]
fn add(dir: &Dir, file: &Path, args: &[&str]) -> Value {
    let mut all = vec!["docs", "add", file.to_str().unwrap()];
    all.extend_from_slice(args);
    record(&dir.json(&all)).clone()
}

fn id(record: &Value) -> &str {
    record["id"].as_str().expect("an id")
}

/// `docs open N --print-path` with the cache in the test's directory:
/// the printed path.
#[track_caller]
fn open_path(dir: &Dir, reference: &str) -> PathBuf {
    let out = dir
        .cmd(&["docs", "open", reference, "--print-path"])
        .env("XDG_CACHE_HOME", dir.root().join("cache"))
        .run()
        .success();
    assert_eq!(out.stderr, "", "{out:?}");
    PathBuf::from(out.stdout.trim_end())
}

#[test]
fn documents_are_added_listed_searched_filed_and_opened() {
    let dir = Dir::new();
    let out = dir.ok(&["docs"]);
    assert_eq!(out.stdout, "Documents · 0 documents\nNothing here.\n");
    dir.ok(&["folders", "add", "Money"]);
    let invoice = pdf(&dir, "Invoice 12.pdf");
    let made = add(&dir, &invoice, &["--folder", "money"]);
    assert_eq!(made["name"], "Invoice 12");
    assert_eq!(made["file"]["filename"], "Invoice 12.pdf");
    assert_eq!(made["file"]["content_type"], "application/pdf");
    let folders = dir.json(&["folders"]);
    let money = folders["data"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(made["folder_id"], money.as_str());
    let lease = pdf(&dir, "lease.pdf");
    let out = dir.ok(&[
        "docs",
        "add",
        lease.to_str().unwrap(),
        "--name",
        "Flat lease",
    ]);
    assert!(
        out.stdout.starts_with("Added document Flat lease ("),
        "{out:?}"
    );

    let table = listing(&dir.ok(&["docs"]));
    assert_eq!(table.header, "Documents · 2 documents");
    assert_eq!(table.column("#"), ["1", "2"]);
    assert_eq!(table.column("NAME"), ["Flat lease", "Invoice 12"]);
    assert_eq!(table.column("FOLDER"), ["", "Money"]);
    assert!(table.column("SIZE")[0].ends_with(" B"), "{:?}", table.rows);

    let table = listing(&dir.ok(&["docs", "invo"]));
    assert_eq!(table.header, "Documents · matching \"invo\" · 1 document");
    assert_eq!(table.column("NAME"), ["Invoice 12"]);
    let table = listing(&dir.ok(&["docs", "--folder", "Money"]));
    assert_eq!(table.column("NAME"), ["Invoice 12"]);
    let table = listing(&dir.ok(&["docs", "--unfiled"]));
    assert_eq!(table.column("NAME"), ["Flat lease"]);
    let out = dir.ok(&[
        "docs",
        "edit",
        "Flat",
        "--folder",
        "Money",
        "--name",
        "Lease 2026",
    ]);
    assert_eq!(
        out.stdout,
        "Document Flat lease: renamed to Lease 2026, moved to Money\n"
    );
    let table = listing(&dir.ok(&["docs", "--folder", "Money"]));
    assert_eq!(table.column("NAME"), ["Invoice 12", "Lease 2026"]);
    let out = dir.ok(&["docs", "edit", "Lease", "--unfiled", "--name", "Flat lease"]);
    assert_eq!(
        out.stdout,
        "Document Lease 2026: renamed to Flat lease, taken out of its folder\n"
    );
    dir.run(&["docs", "edit", "Flat"]).failure(2);
    let listed = dir.json(&["docs", "lease"]);
    assert_eq!(page(&listed).len(), 1);
    assert_eq!(page(&listed)[0]["name"], "Flat lease");

    // Row 1 is now the search's only row: Flat lease.
    let path = open_path(&dir, "1");
    assert_eq!(path.file_name().unwrap(), "lease.pdf");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(&lease).unwrap()
    );
    let path = open_path(&dir, "Invoice");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(&invoice).unwrap()
    );
    let opened = dir
        .cmd(&["docs", "open", id(&made), "--print-path", "--json"])
        .env("XDG_CACHE_HOME", dir.root().join("cache"))
        .run()
        .success()
        .json();
    assert_eq!(opened["data"]["opened"], false);
    assert_eq!(opened["data"]["path"], path.to_str().unwrap());

    // Not a PDF: the API's refusal, named by the argument.
    let text = dir.root().join("notes.pdf");
    std::fs::write(&text, "just text").unwrap();
    let out = dir.run(&["docs", "add", text.to_str().unwrap()]).failure(1);
    assert!(out.stderr.contains("FILE"), "{out:?}");
    let out = dir.run(&["docs", "add", "missing.pdf"]).failure(1);
    assert!(out.stderr.contains("cannot read missing.pdf"), "{out:?}");
    assert_eq!(page(&dir.json(&["docs"])).len(), 2);
}

#[test]
fn documents_link_to_tasks_and_come_back_after_rm() {
    let dir = Dir::new();
    let task = record(&dir.json(&["tasks", "add", "Pay rent"])).clone();
    dir.ok(&["projects", "add", "Move house"]);
    let lease = pdf(&dir, "lease.pdf");
    let made = add(&dir, &lease, &["--project", "Move"]);
    assert_eq!(made["project_ids"].as_array().unwrap().len(), 1);

    let out = dir.ok(&["docs", "link", "lease", "--task", id(&task)]);
    assert_eq!(out.stdout, "Linked lease to task Pay rent\n");
    let shown = record(&dir.json(&["tasks", "show", id(&task)])).clone();
    assert_eq!(shown["has_documents"], true, "{shown}");
    let table = listing(&dir.ok(&["docs"]));
    assert_eq!(table.column("LINKED"), ["1 task, 1 project"]);
    let out = dir
        .run(&["docs", "link", "lease", "--task", id(&task)])
        .failure(1);
    assert!(out.stderr.contains("already"), "{out:?}");
    let out = dir.run(&["docs", "link", "lease"]).failure(2);
    assert!(out.stderr.contains("exactly one"), "{out:?}");

    let out = dir.json(&["docs", "unlink", "1", "--task", id(&task)]);
    assert!(out["data"]["unlinked"].is_string(), "{out}");
    let out = dir
        .run(&["docs", "unlink", "1", "--task", id(&task)])
        .failure(1);
    assert!(
        out.stderr.contains("lease is not linked to task Pay rent"),
        "{out:?}"
    );
    let shown = record(&dir.json(&["tasks", "show", id(&task)])).clone();
    assert_eq!(shown["has_documents"], false, "{shown}");

    let out = dir.ok(&["docs", "rm", "1"]);
    assert!(out.stdout.starts_with("Deleted document lease."), "{out:?}");
    let undo = undo_command(&out);
    assert_eq!(undo, ["docs", "restore", id(&made)]);
    assert_eq!(
        dir.ok(&["docs"]).stdout,
        "Documents · 0 documents\nNothing here.\n"
    );
    let out = dir.ok(&["docs", "restore"]);
    assert_eq!(out.stdout, "Restored document lease\n");
    let out = dir.ok(&["docs", "restore", id(&made)]);
    assert_eq!(out.stdout, "lease is not deleted: nothing to restore\n");
    let deleted = dir.json(&["docs", "rm", "lease"]);
    assert_eq!(deleted["data"]["deleted"], id(&made));
    let back = dir.json(&["docs", "restore", &id(&made)[20..]]);
    assert_eq!(record(&back)["name"], "lease");
}

#[test]
fn folders_show_as_a_tree_and_are_added_renamed_and_removed() {
    let dir = Dir::new();
    assert_eq!(
        dir.ok(&["folders"]).stdout,
        "Folders · 0 folders\nNothing here.\n"
    );
    let out = dir.ok(&["folders", "add", "Money"]);
    assert!(out.stdout.starts_with("Added folder Money ("), "{out:?}");
    dir.ok(&["folders", "add", "Bills", "--parent", "Money"]);
    dir.ok(&["folders", "add", "Taxes", "--parent", "money"]);
    dir.ok(&["folders", "add", "Archive"]);
    let bill = pdf(&dir, "bill.pdf");
    add(&dir, &bill, &["--folder", "Bills"]);
    add(&dir, &bill, &["--folder", "Bills", "--name", "Second bill"]);
    add(&dir, &bill, &[]);

    let out = dir.ok(&["folders"]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[0], "Folders · 4 folders");
    assert!(lines[1].starts_with("#  ID"), "{out:?}");
    // Each folder under its parent, indented, siblings by name.
    let at = lines[1].find("NAME").unwrap();
    let names: Vec<&str> = lines[2..6].iter().map(|l| &l[at..]).collect();
    assert!(names[0].starts_with("Archive "), "{out:?}");
    assert!(names[1].starts_with("Money "), "{out:?}");
    assert!(names[2].starts_with("  Bills "), "{out:?}");
    assert!(names[3].starts_with("  Taxes "), "{out:?}");
    let table = listing(&out);
    // (the parser reads the last line as a row too)
    assert_eq!(table.column("DOCUMENTS")[..4], ["0", "0", "2", "0"]);
    assert_eq!(
        lines[6],
        format!(
            "In no folder: 1 document ({} B)",
            std::fs::metadata(&bill).unwrap().len()
        )
    );

    // Row numbers follow the tree.
    let out = dir.ok(&["folders", "rename", "3", "Utility", "bills"]);
    assert_eq!(out.stdout, "Renamed folder Bills to Utility bills\n");
    let out = dir
        .run(&["folders", "add", "taxes", "--parent", "Money"])
        .failure(1);
    assert!(out.stderr.contains("name"), "{out:?}");
    let out = dir.run(&["folders", "rm", "Utility"]).failure(1);
    assert!(out.stderr.contains("is not empty"), "{out:?}");
    let out = dir.run(&["folders", "rm", "Money"]).failure(1);
    assert!(out.stderr.contains("is not empty"), "{out:?}");
    let gone = dir.json(&["folders", "rm", "Taxes"]);
    assert!(gone["data"]["deleted"].is_string(), "{gone}");
    let listed = dir.json(&["folders"]);
    let names: Vec<&str> = listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Archive", "Money", "Utility bills"]);
}

#[test]
fn tasks_add_attaches_pdfs() {
    let dir = Dir::new();
    let receipt = pdf(&dir, "Receipt 7.pdf");
    let out = dir.ok(&[
        "tasks",
        "add",
        "Claim",
        "expenses",
        "--attach",
        receipt.to_str().unwrap(),
    ]);
    assert!(out.stdout.contains(", with 1 document"), "{out:?}");
    let table = listing(&dir.ok(&["docs"]));
    assert_eq!(table.column("NAME"), ["Receipt 7"]);
    assert_eq!(table.column("LINKED"), ["1 task"]);
    let text = dir.root().join("bad.pdf");
    std::fs::write(&text, "no").unwrap();
    let out = dir
        .run(&["tasks", "add", "Other", "--attach", text.to_str().unwrap()])
        .failure(1);
    assert!(out.stderr.contains("--attach"), "{out:?}");
}

#[test]
fn documents_work_through_a_running_server() {
    let dir = Dir::new();
    let server = dir.serve();
    dir.ok(&["folders", "add", "Served"]);
    let file = pdf(&dir, "served.pdf");
    let made = add(&dir, &file, &["--folder", "Served"]);
    assert_eq!(made["name"], "served");
    assert!(
        made["file"]["url"].as_str().unwrap().starts_with("http"),
        "{made}"
    );
    let path = open_path(&dir, "served");
    assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&file).unwrap());
    let receipt = pdf(&dir, "receipt.pdf");
    dir.ok(&[
        "tasks",
        "add",
        "Served task",
        "--attach",
        receipt.to_str().unwrap(),
    ]);
    let table = listing(&dir.ok(&["docs"]));
    assert_eq!(table.column("NAME"), ["receipt", "served"]);
    dir.ok(&["docs", "rm", "served"]);
    dir.ok(&["docs", "restore"]);
    drop(server);
}

/// `docs open` on a machine where no viewer can be started (`xdg-open`
/// failing, as on a headless server): says so and prints the path, never
/// "Opened" (issue 22).
#[test]
fn docs_open_says_when_no_viewer_could_be_started() {
    let dir = Dir::new();
    let made = add(&dir, &pdf(&dir, "Plan.pdf"), &[]);
    let bin = dir.root().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let opener = |code: i32| {
        let path = bin.join("xdg-open");
        std::fs::write(&path, format!("#!/bin/sh\nexit {code}\n")).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    };
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let open = || {
        dir.cmd(&["docs", "open", id(&made)])
            .env("XDG_CACHE_HOME", dir.root().join("cache"))
            .env("PATH", &path)
            .run()
            .success()
    };
    opener(3);
    let out = open();
    assert!(!out.stdout.contains("Opened"), "{out:?}");
    assert!(out.stdout.trim_end().ends_with("Plan.pdf"), "{out:?}");
    assert!(out.stderr.contains("No viewer could be started"), "{out:?}");
    opener(0);
    let out = open();
    assert!(out.stdout.starts_with("Opened Plan"), "{out:?}");
}
