//! `organiser projects activity P [--limit N | --all]` (issue "a new
//! user's day"): the project's whole activity feed, newest first as the
//! API gives it, as a table of when (the day in the owner's zone), what
//! and details; `--limit` and `--all` over the API's pages; `--json` the
//! entries read, as one page.

use crate::documents::pdf;
use crate::tasks::{day, listing, record};
use crate::util::{Dir, today};

/// A project with one entry of each kind, made in this order: created,
/// member added, deadline set, task completed, status changed, member
/// removed, note, document.
fn busy_project(dir: &Dir) {
    dir.ok(&["projects", "add", "Garden", "shed"]);
    dir.ok(&["people", "add", "Ada", "Lovelace"]);
    dir.ok(&[
        "projects", "member", "add", "garden", "ada", "--role", "lead",
    ]);
    dir.ok(&["projects", "edit", "garden", "--deadline", &day(10)]);
    let nails = dir.json(&["tasks", "add", "Nails", "--project", "garden"]);
    dir.ok(&["tasks", "done", record(&nails)["id"].as_str().unwrap()]);
    dir.ok(&["projects", "edit", "garden", "--status", "on_hold"]);
    dir.ok(&["projects", "member", "rm", "garden", "ada"]);
    dir.ok(&["notes", "add", "Plans", "--body", "Wood for ^Garden shed"]);
    let plan = pdf(dir, "Plan.pdf");
    dir.ok(&["docs", "add", plan.to_str().unwrap(), "--project", "garden"]);
}

#[test]
fn the_whole_feed_newest_first_as_a_table() {
    let dir = Dir::new();
    busy_project(&dir);
    let table = listing(&dir.ok(&["projects", "activity", "garden shed"]));
    assert_eq!(table.header, "Activity · Garden shed · 8 entries");
    assert_eq!(
        table.column("WHAT"),
        [
            "document",
            "note",
            "member removed",
            "status",
            "task completed",
            "deadline",
            "member added",
            "created",
        ]
    );
    assert_eq!(
        table.column("DETAILS"),
        [
            "Plan",
            "Plans",
            "Ada Lovelace",
            "active → on_hold",
            "Nails",
            &format!("set to {}", day(10)),
            "Ada Lovelace (lead)",
            "",
        ]
    );
    assert!(
        table.column("WHEN").iter().all(|w| *w == day(0)),
        "{:?}",
        table.rows
    );

    // --limit reads as many as asked, and says there are more.
    let out = dir.ok(&["projects", "activity", "garden", "--limit", "3"]);
    assert!(
        out.stdout.ends_with("… and more (--limit, --all)\n"),
        "{out:?}"
    );
    let table = listing(&out);
    assert_eq!(table.header, "Activity · Garden shed · 3 entries");
    assert_eq!(table.column("WHAT"), ["document", "note", "member removed"]);
    let out = dir.ok(&["projects", "activity", "garden", "--all"]);
    assert!(!out.stdout.contains("… and more"), "{out:?}");
    assert_eq!(listing(&out).rows.len(), 8);
}

#[test]
fn json_is_the_entries_read_as_one_page() {
    let dir = Dir::new();
    busy_project(&dir);
    let body = dir.json(&["projects", "activity", "garden", "--limit", "2"]);
    let entries = body["data"].as_array().unwrap();
    assert_eq!(entries.len(), 2, "{body}");
    assert_eq!(entries[0]["kind"], "document", "{body}");
    assert_eq!(entries[1]["kind"], "note", "{body}");
    assert!(body["meta"]["next_cursor"].is_string(), "{body}");
    let body = dir.json(&["projects", "activity", "garden", "--all"]);
    let entries = body["data"].as_array().unwrap();
    assert_eq!(entries.len(), 8, "{body}");
    assert_eq!(entries[7]["kind"], "created", "{body}");
    assert!(body["meta"]["next_cursor"].is_null(), "{body}");
}

/// The day is the owner's, and the project is named as everywhere else;
/// usage mistakes are clap's.
#[test]
fn days_are_the_owner_s_and_mistakes_are_named() {
    let dir = Dir::empty();
    dir.init("Owner", "owner", "Tokyo");
    dir.ok(&["projects", "add", "Website"]);
    let table = listing(&dir.ok(&["projects", "activity", "website"]));
    assert_eq!(table.column("WHEN"), [today("Asia/Tokyo")]);
    let said = dir.run(&["projects", "activity", "Nothing"]).error();
    assert!(
        said.starts_with("there is no project named \"Nothing\""),
        "{said}"
    );
    let out = dir.run(&["projects", "activity", "website", "--limit", "x"]);
    assert_eq!(out.code(), Some(2), "{out:?}");
    assert!(out.stderr.contains("--limit"), "{out:?}");
    let out = dir.run(&["projects", "activity", "website", "--limit", "2", "--all"]);
    assert_eq!(out.code(), Some(2), "{out:?}");
}
