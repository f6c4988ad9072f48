//! `organiser tasks` add, done, reopen, wontdo, edit, move, rm and
//! restore: dates as people type them, lists by name, tasks by row number,
//! ID suffix, prefix or whole ID, and errors on one line.

use jiff::ToSpan;
use jiff::civil::Weekday;
use serde_json::Value;

use super::{
    add, all_tasks, day, find, list, list_ids, page, record, short, today_utc, undo_command,
    views_store,
};
use crate::util::Dir;

#[test]
fn add_takes_dates_as_people_type_them() {
    let dir = Dir::new();
    let t = today_utc();
    let in3 = t + 3.days();
    // A weekday three days away is that day whether or not the word counts today.
    let weekday = in3.strftime("%A").to_string().to_lowercase();
    let capitalised = in3.strftime("%A").to_string();
    let mut monday = t + 1.day();
    while monday.weekday() != Weekday::Monday {
        monday += 1.day();
    }
    let cases = [
        ("2031-05-06", "2031-05-06".to_owned()),
        ("today", t.to_string()),
        ("tomorrow", (t + 1.day()).to_string()),
        ("Tomorrow", (t + 1.day()).to_string()),
        (weekday.as_str(), in3.to_string()),
        (capitalised.as_str(), in3.to_string()),
        ("+3d", in3.to_string()),
        ("next week", monday.to_string()),
    ];
    for (typed, want) in &cases {
        let task = add(&dir, &format!("deadline {typed}"), &["--deadline", typed]);
        assert_eq!(task["deadline_on"], *want, "--deadline {typed:?}: {task}");
        assert!(task["start_on"].is_null() && task["expires_on"].is_null());
        let task = add(&dir, &format!("start {typed}"), &["--start", typed]);
        assert_eq!(task["start_on"], *want, "--start {typed:?}: {task}");
    }
    let task = add(
        &dir,
        "all three",
        &[
            "--start",
            "today",
            "--deadline",
            "tomorrow",
            "--expires",
            "+3d",
        ],
    );
    assert_eq!(task["start_on"], t.to_string());
    assert_eq!(task["deadline_on"], (t + 1.day()).to_string());
    assert_eq!(task["expires_on"], in3.to_string());
    // The table shows it as added (the human line names the ID's end).
    let out = dir.ok(&["tasks", "add", "plain"]);
    assert!(out.stdout.starts_with("Added plain ("), "{out:?}");
    out.assert_no_ansi();
}

#[test]
fn a_date_that_is_not_one_is_an_error_on_one_line() {
    let dir = Dir::new();
    add(&dir, "there before", &[]);
    for (flag, typed) in [
        ("--deadline", "soonish"),
        ("--start", "2026-02-30"),
        ("--expires", "next fortnight"),
        ("--deadline", "+3x"),
    ] {
        let out = dir.run(&["tasks", "add", "never", flag, typed]);
        let message = out.error();
        assert!(message.contains(typed), "{out:?}");
    }
    let inbox = dir.json(&["tasks", "inbox"]);
    assert_eq!(page(&inbox).len(), 1, "nothing was added: {inbox}");
}

#[test]
fn add_to_a_list_by_its_name_ignoring_case() {
    let dir = Dir::new();
    dir.ok(&["lists", "add", "Work"]);
    let ids = list_ids(&dir);
    for name in ["Work", "work", "wORK"] {
        let task = add(&dir, name, &["--list", name]);
        assert_eq!(task["task_list_id"], ids["Work"].as_str(), "{task}");
    }
    let inboxed = add(&dir, "no list", &[]);
    assert!(inboxed["task_list_id"].is_null());

    let out = dir.run(&["tasks", "add", "lost", "--list", "Nowhere"]);
    assert!(out.error().contains("Nowhere"), "{out:?}");
    let work = list(&dir, &["tasks", "list", "work"]);
    assert_eq!(work.titles(), ["Work", "wORK", "work"]);
}

#[test]
fn done_reopen_and_wontdo_by_row_suffix_prefix_and_id() {
    let dir = Dir::new();
    let a = add(&dir, "Alpha", &[]);
    let b = add(&dir, "Bravo", &[]);
    let c = add(&dir, "Charlie", &[]);
    let status = |task: &Value| all_tasks(&dir)[task["id"].as_str().unwrap()]["status"].clone();

    // By row number in the last listing.
    let inbox = list(&dir, &["tasks", "inbox"]);
    assert_eq!(inbox.rows.len(), 3);
    let second = inbox.rows[1]["TITLE"].clone();
    let out = dir.ok(&["tasks", "done", "2"]);
    assert_eq!(out.stdout, format!("Completed {second}\n"));
    let done = [&a, &b, &c]
        .into_iter()
        .find(|t| t["title"] == second.as_str())
        .unwrap();
    assert_eq!(status(done), "completed");

    // By the suffix the ID column shows (either case).
    let inbox = list(&dir, &["tasks", "inbox"]);
    assert_eq!(inbox.rows.len(), 2);
    for (row, task) in inbox.rows.iter().zip(page(&dir.json(&["tasks", "inbox"]))) {
        assert_eq!(
            row["ID"],
            short(&task["id"]),
            "the ID column is the ID's end"
        );
    }
    let first_title = inbox.rows[0]["TITLE"].clone();
    let first = [&a, &b, &c]
        .into_iter()
        .find(|t| t["title"] == first_title.as_str())
        .unwrap()
        .clone();
    let suffix = inbox.rows[0]["ID"].clone();
    let out = dir.ok(&["tasks", "wontdo", &suffix]);
    assert_eq!(out.stdout, format!("Won't do: {first_title}\n"));
    assert_eq!(status(&first), "wont_do");
    // A closed task is found by its suffix too (it is in no open listing).
    let out = dir.ok(&["tasks", "reopen", &suffix.to_lowercase()]);
    assert_eq!(out.stdout, format!("Reopened {first_title}\n"));
    assert_eq!(status(&first), "open");

    // By a prefix: the shortest (of at least 4) that no other ID begins with.
    let ids: Vec<String> = [&a, &b, &c]
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_owned())
        .collect();
    let target = &ids[0];
    let prefix = (4..target.len())
        .map(|n| &target[..n])
        .find(|p| ids[1..].iter().all(|id| !id.starts_with(p)))
        .expect("a unique prefix");
    dir.ok(&["tasks", "planned"]); // an empty last listing
    let out = dir.ok(&["tasks", "done", prefix]);
    assert_eq!(out.stdout, "Completed Alpha\n", "{prefix}: {out:?}");
    assert_eq!(status(&a), "completed");

    // By the full ID.
    let out = dir.ok(&["tasks", "reopen", target]);
    assert_eq!(out.stdout, "Reopened Alpha\n");
    assert_eq!(status(&a), "open");
    let out = dir.ok(&["tasks", "wontdo", &target.to_lowercase()]);
    assert_eq!(out.stdout, "Won't do: Alpha\n");
    assert_eq!(status(&a), "wont_do");

    // --json: the changed task, as the API answers.
    let reopened = dir.json(&["tasks", "reopen", target]);
    assert_eq!(record(&reopened)["status"], "open");
    let completed = dir.json(&["tasks", "done", target]);
    assert_eq!(record(&completed)["status"], "completed");
    assert!(completed["data"]["completed_at"].is_string());
    let dropped = dir.json(&["tasks", "wontdo", target]);
    assert_eq!(record(&dropped)["status"], "wont_do");
}

#[test]
fn an_ambiguous_or_unknown_reference_is_an_error_on_one_line() {
    let dir = Dir::new();
    let tasks: Vec<Value> = (1..=3).map(|n| add(&dir, &format!("T{n}"), &[])).collect();
    let ids: Vec<&str> = tasks.iter().map(|t| t["id"].as_str().unwrap()).collect();
    // What all three IDs begin with (their time part): at least "01".
    let common: String = ids[0]
        .chars()
        .zip(ids[1].chars())
        .zip(ids[2].chars())
        .take_while(|((a, b), c)| a == b && b == c)
        .map(|((a, _), _)| a)
        .collect();
    assert!(common.len() >= 4, "made within seconds: {ids:?}");

    // Ambiguous within the last listing, and among all tasks.
    for listing in ["inbox", "planned"] {
        dir.ok(&["tasks", listing]);
        let out = dir.run(&["tasks", "done", &common]);
        let message = out.error();
        assert!(
            message.contains(&common) && message.contains("names 3 tasks"),
            "{out:?}"
        );
        // The candidates are listed, by the short ID the tables show.
        for id in &ids {
            assert!(message.contains(&id[20..]), "{id} not in {message}");
        }
    }
    // Unknown: no task's ID begins or ends so; a well-formed ID of no task.
    for reference in ["ZZZZZZ", "01ARZ3NDEKTSV4RRFFQ69G5FAV"] {
        let out = dir.run(&["tasks", "done", reference]);
        assert!(!out.error().is_empty(), "{out:?}");
        if reference.len() < 26 {
            assert!(out.error().contains(reference), "{out:?}");
        }
    }
    // Not a reference at all; a row number with no listing rows.
    let out = dir.run(&["tasks", "done", "a b"]);
    assert!(!out.error().is_empty(), "{out:?}");
    dir.ok(&["tasks", "planned"]);
    let out = dir.run(&["tasks", "done", "1"]);
    assert!(out.error().contains('1'), "{out:?}");
    // Nothing changed.
    for task in page(&dir.json(&["tasks", "inbox"])) {
        assert_eq!(task["status"], "open");
    }
    assert_eq!(page(&dir.json(&["tasks", "inbox"])).len(), 3);
}

#[test]
fn row_numbers_refer_to_the_last_listing() {
    let dir = views_store();
    let someday = list(&dir, &["tasks", "someday"]);
    assert_eq!(someday.rows.len(), 3);
    let second = someday.rows[1]["TITLE"].clone();
    let out = dir.ok(&["tasks", "done", "2"]);
    assert_eq!(out.stdout, format!("Completed {second}\n"));
    let logbook = list(&dir, &["tasks", "logbook"]);
    assert_eq!(logbook.column("TITLE")[0], second, "{:?}", logbook.rows);

    // Now the logbook is the last listing: row 1 is what was just completed.
    let out = dir.ok(&["tasks", "reopen", "1"]);
    assert_eq!(out.stdout, format!("Reopened {second}\n"));
    let out = dir.run(&["tasks", "done", "4"]);
    assert!(out.error().contains('4'), "{out:?}");

    // A --json listing counts as the last listing too.
    let planned = dir.json(&["tasks", "planned"]);
    let only = page(&planned)[0]["title"].as_str().unwrap().to_owned();
    let out = dir.ok(&["tasks", "done", "1"]);
    assert_eq!(out.stdout, format!("Completed {only}\n"));
    let out = dir.run(&["tasks", "done", "2"]);
    assert!(out.error().contains('2'), "{out:?}");
}

#[test]
fn edit_changes_the_title_dates_and_position() {
    let dir = Dir::new();
    dir.ok(&["lists", "add", "Work"]);
    let draft = add(
        &dir,
        "Draft",
        &["--list", "work", "--start", "today", "--deadline", "+3d"],
    );
    let id = draft["id"].as_str().unwrap();
    let suffix = short(&draft["id"]);

    let out = dir.ok(&[
        "tasks",
        "edit",
        &suffix,
        "--title",
        "Final",
        "--deadline",
        "none",
        "--start",
        "tomorrow",
        "--expires",
        "+10d",
    ]);
    // The dates it worked out are echoed, each as it was typed.
    assert_eq!(
        out.stdout,
        format!(
            "Changed Final · starts {} · no deadline · expires {}\n",
            super::said_day(1),
            super::said_day(10)
        )
    );
    let task = &all_tasks(&dir)[id];
    assert_eq!(task["title"], "Final");
    assert!(
        task["deadline_on"].is_null(),
        "--deadline none clears: {task}"
    );
    assert_eq!(task["start_on"], day(1));
    assert_eq!(task["expires_on"], day(10));

    let edited = dir.json(&[
        "tasks",
        "edit",
        id,
        "--start",
        "none",
        "--deadline",
        &day(7),
    ]);
    let task = record(&edited);
    assert!(task["start_on"].is_null(), "{edited}");
    assert_eq!(task["deadline_on"], day(7));
    assert_eq!(task["title"], "Final", "untouched fields stay");

    // --position: its place among the home's open tasks.
    add(&dir, "Second", &["--list", "Work"]);
    add(&dir, "Third", &["--list", "Work"]);
    let before = list(&dir, &["tasks", "list", "work"]);
    assert_eq!(before.column("TITLE"), ["Third", "Second", "Final"]);
    dir.ok(&["tasks", "edit", "3", "--position", "1"]);
    let after = list(&dir, &["tasks", "list", "work"]);
    assert_eq!(after.column("TITLE"), ["Final", "Third", "Second"]);
    let edited = dir.json(&["tasks", "edit", "1", "--position", "2"]);
    assert_eq!(record(&edited)["position"], 2);
    let after = list(&dir, &["tasks", "list", "work"]);
    assert_eq!(after.column("TITLE"), ["Third", "Final", "Second"]);

    // Nothing to change; a bad date; a rule of the API (on one line).
    // (nothing to change is a usage mistake: exit status 2, issue 7)
    let out = dir.run(&["tasks", "edit", id]).failure(2);
    assert!(out.stderr.contains("nothing to change"), "{out:?}");
    let out = dir.run(&["tasks", "edit", id, "--start", "someday"]);
    assert!(out.error().contains("someday"), "{out:?}");
    let out = dir.run(&["tasks", "edit", id, "--expires", "-5d"]);
    assert!(!out.error().is_empty(), "{out:?}");
    assert!(all_tasks(&dir)[id]["expires_on"].is_string());
}

#[test]
fn move_to_a_list_or_the_inbox() {
    let dir = Dir::new();
    dir.ok(&["lists", "add", "Work"]);
    dir.ok(&["lists", "add", "Home"]);
    let ids = list_ids(&dir);
    let task = add(&dir, "Wander", &[]);
    let id = task["id"].as_str().unwrap();
    add(&dir, "Settled", &["--list", "Home"]);

    let out = dir.ok(&["tasks", "move", id, "--list", "WORK"]);
    assert_eq!(out.stdout, "Moved Wander\n");
    assert_eq!(all_tasks(&dir)[id]["task_list_id"], ids["Work"].as_str());

    let moved = dir.json(&["tasks", "move", id, "--list", "home", "--position", "1"]);
    assert_eq!(record(&moved)["task_list_id"], ids["Home"].as_str());
    let home = list(&dir, &["tasks", "list", "home"]);
    assert_eq!(home.column("TITLE"), ["Wander", "Settled"]);

    let moved = dir.json(&["tasks", "move", "1", "--inbox"]);
    assert!(record(&moved)["task_list_id"].is_null(), "{moved}");
    let inbox = list(&dir, &["tasks", "inbox"]);
    assert_eq!(inbox.column("TITLE"), ["Wander"]);
    assert_eq!(inbox.column("HOME"), ["Inbox"]);

    // Where to is required; an unknown list is refused; both is a usage error.
    let out = dir.run(&["tasks", "move", id]).failure(2);
    assert!(out.stderr.contains("say where"), "{out:?}");
    let out = dir.run(&["tasks", "move", id, "--list", "Attic"]);
    assert!(out.error().contains("Attic"), "{out:?}");
    dir.run(&["tasks", "move", id, "--list", "Work", "--inbox"])
        .failure(2);
    assert!(all_tasks(&dir)[id]["task_list_id"].is_null());
}

#[test]
fn rm_prints_how_to_undo_and_restore_brings_the_task_back() {
    let dir = Dir::new();
    let keep = add(&dir, "Keep", &[]);
    let gone = add(&dir, "Gone", &["--deadline", "+2d"]);
    let id = gone["id"].as_str().unwrap();

    let out = dir.ok(&["tasks", "rm", &short(&gone["id"])]);
    out.assert_no_ansi();
    assert_eq!(out.stdout.lines().count(), 1, "{out:?}");
    assert!(out.stdout.contains("Gone"), "{out:?}");
    let undo = undo_command(&out);
    assert_eq!(undo, ["tasks", "restore", id], "{out:?}");
    assert_eq!(list(&dir, &["tasks", "inbox"]).column("TITLE"), ["Keep"]);

    let args: Vec<&str> = undo.iter().map(String::as_str).collect();
    let out = dir.ok(&args);
    assert_eq!(out.stdout, "Restored Gone\n");
    let inbox = list(&dir, &["tasks", "inbox"]);
    assert_eq!(inbox.titles(), ["Gone", "Keep"]);
    assert_eq!(inbox.row("Gone")["DEADLINE"], day(2));

    // --json: rm says what it deleted; restore answers with the task.
    let removed = dir.json(&["tasks", "rm", id]);
    assert_eq!(record(&removed)["deleted"], id, "{removed}");
    assert!(find(&dir, &["tasks", "inbox"], id).is_none());
    let restored = dir.json(&["tasks", "restore", id]);
    assert_eq!(record(&restored)["id"], id);
    assert_eq!(restored["data"]["deadline_on"], day(2));
    assert!(find(&dir, &["tasks", "inbox"], id).is_some());

    // Restoring what is not deleted, or nothing at all: one line.
    let out = dir.run(&["tasks", "restore", "01ARZ3NDEKTSV4RRFFQ69G5FAV"]);
    assert!(!out.error().is_empty(), "{out:?}");
    let out = dir.run(&["tasks", "rm", "ZZZZZZ"]);
    assert!(!out.error().is_empty(), "{out:?}");
    assert!(find(&dir, &["tasks", "inbox"], keep["id"].as_str().unwrap()).is_some());
}
