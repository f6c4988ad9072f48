//! `organiser tasks`: the views as tables with their counts, adding with
//! dates as people type them, naming a task by row number or part of its
//! ID, changing, moving, deleting and restoring; `--json` in the API's
//! shape; colour only for the overdue deadline on a terminal; the same
//! output through a server that holds the store or one named by
//! `ORGANISER_URL`.

use std::collections::BTreeMap;

use jiff::ToSpan;
use jiff::civil::{Date, Weekday};
use serde_json::Value;

use crate::token::create;
use crate::util::{Cmd, Dir, Outcome, shape, today};

/// Today in UTC (the zone of a store made without `init`).
pub(crate) fn today_utc() -> Date {
    today("UTC").parse().expect("a date")
}

/// Today plus `days`, as the API writes a date.
pub(crate) fn day(days: i64) -> String {
    (today_utc() + days.days()).to_string()
}

/// The table of a listing: its header line (the view and its counts), and
/// each row as column name → cell. Columns are cut where the header's names
/// begin, so cells may hold spaces or be empty.
pub(crate) struct Listing {
    pub(crate) header: String,
    pub(crate) rows: Vec<BTreeMap<String, String>>,
}

impl Listing {
    /// The cells of one column, top to bottom.
    pub(crate) fn column(&self, name: &str) -> Vec<&str> {
        self.rows
            .iter()
            .map(|r| {
                r.get(name)
                    .unwrap_or_else(|| panic!("no column {name}"))
                    .as_str()
            })
            .collect()
    }

    /// The titles, sorted.
    pub(crate) fn titles(&self) -> Vec<&str> {
        let mut titles = self.column("TITLE");
        titles.sort_unstable();
        titles
    }

    /// The parts of the header line, split on " · ".
    pub(crate) fn header_parts(&self) -> Vec<&str> {
        self.header.split(" · ").collect()
    }

    /// The row whose title is `title`.
    #[track_caller]
    pub(crate) fn row(&self, title: &str) -> &BTreeMap<String, String> {
        self.rows
            .iter()
            .find(|r| r.get("TITLE").is_some_and(|t| t == title))
            .unwrap_or_else(|| panic!("no row {title:?} in {:?}", self.rows))
    }
}

/// Parses a table printed after a header line ("Nothing here." for none).
#[track_caller]
pub(crate) fn listing(out: &Outcome) -> Listing {
    out.assert_no_ansi();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(!lines.is_empty(), "no header line: {out:?}");
    let header = lines[0].to_owned();
    if lines.get(1) == Some(&"Nothing here.") {
        assert_eq!(lines.len(), 2, "{out:?}");
        return Listing {
            header,
            rows: Vec::new(),
        };
    }
    let names: Vec<char> = lines.get(1).expect("a column header").chars().collect();
    let starts: Vec<usize> = (0..names.len())
        .filter(|&i| names[i] != ' ' && (i == 0 || names[i - 1] == ' '))
        .collect();
    let cut = |line: &[char], i: usize| -> String {
        let from = starts[i].min(line.len());
        let to = starts
            .get(i + 1)
            .copied()
            .unwrap_or(line.len())
            .min(line.len());
        line[from..to].iter().collect::<String>().trim().to_owned()
    };
    let columns: Vec<String> = (0..starts.len()).map(|i| cut(&names, i)).collect();
    let rows = lines[2..]
        .iter()
        .take_while(|line| !line.starts_with('…'))
        .map(|line| {
            let chars: Vec<char> = line.chars().collect();
            columns
                .iter()
                .enumerate()
                .map(|(i, name)| (name.clone(), cut(&chars, i)))
                .collect()
        })
        .collect();
    Listing { header, rows }
}

/// Runs a listing command and parses its table.
#[track_caller]
pub(crate) fn list(dir: &Dir, args: &[&str]) -> Listing {
    let out = dir.ok(args);
    assert_eq!(out.stderr, "", "{out:?}");
    listing(&out)
}

/// Panics unless `value` is `{"data": {...}}` and nothing else; returns the record.
#[track_caller]
pub(crate) fn record(value: &Value) -> &Value {
    let object = value.as_object().expect("an object");
    assert_eq!(
        object.keys().collect::<Vec<_>>(),
        ["data"],
        "only data: {value}"
    );
    assert!(value["data"].is_object(), "a record: {value}");
    &value["data"]
}

/// Panics unless `value` is a page: `{"data": [...], "meta": {next_cursor,
/// limit, total_count?}}`; returns the items.
#[track_caller]
pub(crate) fn page(value: &Value) -> &Vec<Value> {
    let object = value.as_object().expect("an object");
    assert_eq!(
        object.keys().collect::<Vec<_>>(),
        ["data", "meta"],
        "data and meta: {value}"
    );
    let meta = &value["meta"];
    assert!(
        meta.get("next_cursor").is_some() && meta["limit"].is_u64(),
        "meta: {value}"
    );
    value["data"].as_array().expect("a data array")
}

/// `tasks add TITLE EXTRA... --json`: the new task.
#[track_caller]
pub(crate) fn add(dir: &Dir, title: &str, extra: &[&str]) -> Value {
    let mut args = vec!["tasks", "add", title];
    args.extend_from_slice(extra);
    let made = dir.json(&args);
    let task = record(&made).clone();
    assert_eq!(task["title"], title, "{made}");
    assert_eq!(task["status"], "open", "{made}");
    task
}

/// The task with this ID, as the CLI's `--json` of a view shows it.
#[track_caller]
fn find(dir: &Dir, view: &[&str], id: &str) -> Option<Value> {
    let listed = dir.json(view);
    page(&listed).iter().find(|t| t["id"] == id).cloned()
}

/// Every task in the store (open and closed), by ID.
fn all_tasks(dir: &Dir) -> BTreeMap<String, Value> {
    let mut all = BTreeMap::new();
    for view in [
        &["tasks", "overview", "--limit", "100"][..],
        &["tasks", "planned", "--limit", "100"],
        &["tasks", "someday", "--limit", "100"],
        &["tasks", "logbook", "--limit", "100"],
        &["tasks", "today", "--limit", "100"],
        &["tasks", "inbox", "--limit", "100"],
    ] {
        for t in page(&dir.json(view)) {
            all.insert(t["id"].as_str().unwrap().to_owned(), t.clone());
        }
    }
    all
}

/// The last six characters of an ID, as the table's ID column shows them.
fn short(id: &Value) -> String {
    let id = id.as_str().expect("an ID");
    id[id.len() - 6..].to_owned()
}

/// The lists' IDs by name.
pub(crate) fn list_ids(dir: &Dir) -> BTreeMap<String, String> {
    dir.json(&["lists"])["data"]
        .as_array()
        .expect("a data array")
        .iter()
        .map(|l| {
            (
                l["name"].as_str().unwrap().to_owned(),
                l["id"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// A store with tasks in every view (dates relative to today):
///
/// | title              | home  | start | deadline | status    |
/// |--------------------|-------|-------|----------|-----------|
/// | Inbox plain        | Inbox |       |          | open      |
/// | Inbox starts today | Inbox | T     |          | open      |
/// | Overdue            | Work  | T-3   | T-1      | open      |
/// | Later              | Work  | T+5   |          | open      |
/// | Someday            | Home  |       |          | open      |
/// | Due in 14          | Home  |       | T+14     | open      |
/// | Due in 15          | Home  |       | T+15     | open      |
/// | Closed             | Home  |       |          | completed |
/// | Dropped            | Work  |       |          | wont_do   |
fn views_store() -> Dir {
    let dir = Dir::new();
    dir.ok(&["lists", "add", "Work"]);
    dir.ok(&["lists", "add", "Home"]);
    add(&dir, "Inbox plain", &[]);
    add(&dir, "Inbox starts today", &["--start", &day(0)]);
    add(
        &dir,
        "Overdue",
        &[
            "--list",
            "Work",
            "--start",
            &day(-3),
            "--deadline",
            &day(-1),
        ],
    );
    add(&dir, "Later", &["--list", "Work", "--start", &day(5)]);
    add(&dir, "Someday", &["--list", "Home"]);
    add(
        &dir,
        "Due in 14",
        &["--list", "Home", "--deadline", &day(14)],
    );
    add(
        &dir,
        "Due in 15",
        &["--list", "Home", "--deadline", &day(15)],
    );
    let closed = add(&dir, "Closed", &["--list", "Home"]);
    let dropped = add(&dir, "Dropped", &["--list", "Work"]);
    dir.ok(&["tasks", "done", closed["id"].as_str().unwrap()]);
    dir.ok(&["tasks", "wontdo", dropped["id"].as_str().unwrap()]);
    dir
}

/// A view's command, its title, the titles it lists (sorted), and parts
/// its header line must hold.
type ViewCase<'a> = (&'a [&'a str], &'a str, &'a [&'a str], &'a [&'a str]);

#[test]
fn each_view_shows_its_tasks_under_a_header_with_counts() {
    let dir = views_store();
    let cases: [ViewCase; 9] = [
        (
            &["tasks", "today"],
            "Today",
            &["Inbox starts today", "Overdue"],
            &["2 open", "1 overdue"],
        ),
        (
            &["tasks", "overview"],
            "Overview",
            &["Due in 14", "Inbox plain", "Inbox starts today", "Overdue"],
            &["4 open", "1 overdue"],
        ),
        (&["tasks", "planned"], "Planned", &["Later"], &["1 open"]),
        (
            &["tasks", "someday"],
            "Someday",
            &["Due in 14", "Due in 15", "Someday"],
            &["3 open"],
        ),
        (
            &["tasks", "due"],
            "Due soon",
            &["Due in 14", "Overdue"],
            &["1 overdue"],
        ),
        (
            &["tasks", "logbook"],
            "Logbook",
            &["Closed", "Dropped"],
            &["1 completed", "1 won't do"],
        ),
        (
            &["tasks", "inbox"],
            "Inbox",
            &["Inbox plain", "Inbox starts today"],
            &["2 open"],
        ),
        (
            &["tasks", "list", "work"],
            "Work",
            &["Later", "Overdue"],
            &["2 open", "1 overdue"],
        ),
        (
            &["tasks", "list", "HOME"],
            "Home",
            &["Due in 14", "Due in 15", "Someday"],
            &["3 open"],
        ),
    ];
    for (args, title, titles, counts) in cases {
        let shown = list(&dir, args);
        let parts = shown.header_parts();
        assert_eq!(parts[0], title, "{args:?}: {}", shown.header);
        for count in counts {
            assert!(
                parts.contains(count),
                "{args:?}: expected {count:?} in the header {:?}",
                shown.header
            );
        }
        if !counts.iter().any(|c| c.ends_with("overdue")) {
            assert!(
                !parts
                    .iter()
                    .any(|p| p.ends_with(" overdue") && *p != "0 overdue"),
                "{args:?}: no overdue task here: {}",
                shown.header
            );
        }
        assert_eq!(shown.titles(), titles, "{args:?}");
        let rows: Vec<String> = (1..=titles.len()).map(|n| n.to_string()).collect();
        assert_eq!(shown.column("#"), rows, "{args:?}");

        // --json: the API's page, with the same tasks.
        let mut json_args = args.to_vec();
        json_args.push("--json");
        let out = dir.ok(&json_args);
        let value = out.json();
        let items = page(&value);
        let mut json_titles: Vec<&str> =
            items.iter().map(|t| t["title"].as_str().unwrap()).collect();
        json_titles.sort_unstable();
        assert_eq!(json_titles, titles, "{args:?} --json");
        assert_eq!(value["meta"]["total_count"], titles.len(), "{value}");
        // The table shows the same tasks in the same order.
        let ids: Vec<String> = items.iter().map(|t| short(&t["id"])).collect();
        assert_eq!(shown.column("ID"), ids, "{args:?}");
    }

    // The due view counts what is due soon (the overdue task included).
    let due = list(&dir, &["tasks", "due"]);
    assert!(due.header_parts().contains(&"2 due soon"), "{}", due.header);

    // The logbook: most recently closed first, with the status.
    let logbook = list(&dir, &["tasks", "logbook"]);
    assert_eq!(logbook.column("TITLE"), ["Dropped", "Closed"]);
    assert_eq!(logbook.column("CLOSED"), [day(0), day(0)]);
    assert_eq!(logbook.column("HOME"), ["Work", "Home"]);

    // What a person scans for: title, home, start, deadline.
    let overview = list(&dir, &["tasks", "overview"]);
    let want = [
        ("Inbox plain", "Inbox", String::new(), String::new()),
        ("Inbox starts today", "Inbox", day(0), String::new()),
        ("Overdue", "Work", day(-3), day(-1)),
        ("Due in 14", "Home", String::new(), day(14)),
    ];
    for (title, home, start, deadline) in want {
        let row = overview.row(title);
        assert_eq!(row["HOME"], home, "{title}");
        assert_eq!(row["START"], start, "{title}");
        assert_eq!(row["DEADLINE"], deadline, "{title}");
    }

    // The status is said as the header and `wontdo` say it.
    assert_eq!(logbook.column("STATUS"), ["won't do", "completed"]);
}

#[test]
fn tasks_alone_is_today() {
    let dir = views_store();
    let alone = dir.ok(&["tasks"]);
    let today = dir.ok(&["tasks", "today"]);
    assert_eq!(alone.stdout, today.stdout);
    assert!(alone.stdout.starts_with("Today · "), "{alone:?}");
    assert_eq!(dir.json(&["tasks"]), dir.json(&["tasks", "today"]));
}

#[test]
fn an_empty_view_says_so_and_limit_says_how_many_more() {
    let dir = Dir::new();
    let out = dir.ok(&["tasks", "planned"]);
    assert_eq!(out.stdout.lines().nth(1), Some("Nothing here."), "{out:?}");
    let empty = list(&dir, &["tasks", "planned"]);
    assert_eq!(empty.header_parts()[..2], ["Planned", "0 open"]);
    assert_eq!(page(&dir.json(&["tasks", "planned"])).len(), 0);

    for n in 1..=3 {
        add(&dir, &format!("Task {n}"), &[]);
    }
    let out = dir.ok(&["tasks", "inbox", "--limit", "2"]);
    let shown = listing(&out);
    assert_eq!(shown.rows.len(), 2, "{out:?}");
    assert!(shown.header_parts().contains(&"3 open"), "{out:?}");
    assert!(out.stdout.contains("1 more"), "{out:?}");
    // Row 3 is not in that listing.
    let beyond = dir.run(&["tasks", "done", "3"]);
    assert!(beyond.error().contains('3'), "{beyond:?}");
}

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
            message.contains(&common) && message.contains("matches 3"),
            "{out:?}"
        );
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
    assert_eq!(out.stdout, "Changed Final\n");
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
    let out = dir.run(&["tasks", "edit", id]);
    assert!(!out.error().is_empty(), "{out:?}");
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
    let out = dir.run(&["tasks", "move", id]);
    assert!(!out.error().is_empty(), "{out:?}");
    let out = dir.run(&["tasks", "move", id, "--list", "Attic"]);
    assert!(out.error().contains("Attic"), "{out:?}");
    dir.run(&["tasks", "move", id, "--list", "Work", "--inbox"])
        .failure(2);
    assert!(all_tasks(&dir)[id]["task_list_id"].is_null());
}

/// The command `rm` says undoes it: `organiser ...` to the end of the line.
#[track_caller]
pub(crate) fn undo_command(out: &Outcome) -> Vec<String> {
    let at = out
        .stdout
        .find("organiser ")
        .unwrap_or_else(|| panic!("no undo command: {out:?}"));
    let words: Vec<String> = out.stdout[at..]
        .lines()
        .next()
        .unwrap()
        .split_whitespace()
        .skip(1)
        .map(str::to_owned)
        .collect();
    words
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

/// Whether util-linux's `script` is on the PATH (to fake a terminal).
fn have_script() -> bool {
    std::process::Command::new("script")
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).contains("util-linux"))
}

/// Runs `organiser --data-dir DIR tasks VIEW` on a pseudo-terminal 160
/// columns wide, through `script`.
fn on_a_terminal(dir: &Dir, view: &str, no_color: bool) -> Outcome {
    const SCRIPT: &str = r#"exec script -qec "stty cols 160 rows 50 2>/dev/null; '$0' --data-dir '$1' tasks $2" /dev/null"#;
    let cmd = Cmd::shell(SCRIPT, &[dir.data().as_os_str(), view.as_ref()]);
    let cmd = if no_color {
        cmd.env("NO_COLOR", "1")
    } else {
        cmd
    };
    cmd.run().success()
}

/// Whether `text` appears in `stdout` right after an escape that turns the
/// foreground red (`31`, `91`, `38;5;1` or `38;5;9`, alone or with others).
fn red_before(stdout: &str, text: &str) -> bool {
    stdout.match_indices(text).any(|(at, _)| {
        let before = &stdout[..at];
        before.rfind("\x1b[").is_some_and(|esc| {
            let sequence = &before[esc + 2..];
            sequence.ends_with('m') && !sequence.contains('\x1b') && {
                let codes: Vec<&str> = sequence.trim_end_matches('m').split(';').collect();
                codes.contains(&"31")
                    || codes.contains(&"91")
                    || codes
                        .windows(3)
                        .any(|w| w[0] == "38" && w[1] == "5" && (w[2] == "1" || w[2] == "9"))
            }
        })
    })
}

#[test]
fn an_overdue_deadline_is_red_only_on_a_terminal_with_colour() {
    let dir = views_store();
    // Piped: no escapes at all, with or without NO_COLOR.
    for view in ["today", "overview", "due", "list"] {
        let args: Vec<&str> = if view == "list" {
            vec!["tasks", "list", "work"]
        } else {
            vec!["tasks", view]
        };
        let out = dir.ok(&args);
        out.assert_no_ansi();
        assert!(out.stdout.contains(&day(-1)), "{out:?}");
        let out = dir.cmd(&args).env("NO_COLOR", "1").run().success();
        out.assert_no_ansi();
    }
    if !have_script() {
        return;
    }
    let out = on_a_terminal(&dir, "overview", false);
    assert!(
        red_before(&out.stdout, &day(-1)),
        "the overdue deadline is not red on a terminal: {:?}",
        out.stdout
    );
    assert!(
        !red_before(&out.stdout, &day(14)),
        "a deadline not yet passed is red: {:?}",
        out.stdout
    );
    assert!(
        !red_before(&out.stdout, &day(-3)),
        "the start date is red: {:?}",
        out.stdout
    );
    let out = on_a_terminal(&dir, "overview", true);
    assert!(
        !out.stdout.contains('\x1b'),
        "NO_COLOR on a terminal: {:?}",
        out.stdout
    );
    assert!(out.stdout.contains(&day(-1)));
    // --json on a terminal is still plain JSON.
    let out = on_a_terminal(&dir, "overview --json", false);
    assert!(!out.stdout.contains('\x1b'), "{:?}", out.stdout);
    let value: Value =
        serde_json::from_str(&out.stdout.replace("\r\n", "\n")).expect("JSON on a terminal");
    assert_eq!(page(&value).len(), 4);
}

/// What the human output of each listing says, in one store.
fn listings(dir: &Dir) -> Vec<String> {
    [
        &["tasks"][..],
        &["tasks", "overview"],
        &["tasks", "planned"],
        &["tasks", "someday"],
        &["tasks", "due"],
        &["tasks", "logbook"],
        &["tasks", "inbox"],
        &["tasks", "list", "work"],
        &["lists"],
    ]
    .iter()
    .map(|args| {
        let out = dir.ok(args);
        out.assert_no_ansi();
        out.stdout
    })
    .collect()
}

fn json_listings(dir: &Dir) -> Vec<Value> {
    [
        &["tasks"][..],
        &["tasks", "overview"],
        &["tasks", "logbook"],
        &["tasks", "list", "home"],
        &["lists"],
    ]
    .iter()
    .map(|args| dir.json(args))
    .collect()
}

#[test]
fn the_same_commands_give_the_same_output_through_the_server() {
    let dir = views_store();
    let human = listings(&dir);
    let json = json_listings(&dir);
    let added_here = dir.json(&["tasks", "add", "Shape", "--start", "today"]);
    dir.ok(&["tasks", "rm", added_here["data"]["id"].as_str().unwrap()]);

    let server = dir.serve();
    assert_eq!(listings(&dir), human, "human output through the server");
    assert_eq!(json_listings(&dir), json, "--json through the server");

    // The CLI's --json is the API's body.
    let (status, api) = server.get("/tasks?view=today&limit=50&count=true", Some(&server.token));
    assert_eq!(status, 200, "{api}");
    assert_eq!(api, json[0]);
    // Writes go through it, with the same output.
    let out = dir.ok(&[
        "tasks",
        "add",
        "Via server",
        "--list",
        "work",
        "--deadline",
        "tomorrow",
    ]);
    assert!(out.stdout.starts_with("Added Via server ("), "{out:?}");
    let added = dir.json(&["tasks", "add", "Via server json", "--start", "today"]);
    assert_eq!(shape(&added), shape(&added_here));
    let today = list(&dir, &["tasks"]);
    assert!(today.titles().contains(&"Via server json"));
    let first = today.rows[0]["TITLE"].clone();
    let out = dir.ok(&["tasks", "done", "1"]);
    assert_eq!(out.stdout, format!("Completed {first}\n"));
    let lists = dir.ok(&["lists"]);
    lists.assert_no_ansi();
    let work = list(&dir, &["tasks", "list", "work"]);
    assert!(work.titles().contains(&"Via server"));
    assert_eq!(work.row("Via server")["DEADLINE"], day(1));
    let wanders = dir.json(&["tasks", "add", "Wanders", "--list", "work"]);
    let id = wanders["data"]["id"].as_str().unwrap();
    let out = dir.ok(&["tasks", "edit", id, "--title", "Wandered", "--start", "+2d"]);
    assert_eq!(out.stdout, "Changed Wandered\n");
    let out = dir.ok(&["tasks", "move", id, "--inbox"]);
    assert_eq!(out.stdout, "Moved Wandered\n");
    let out = dir.ok(&["tasks", "rm", id]);
    let undo = undo_command(&out);
    assert_eq!(undo, ["tasks", "restore", id], "{out:?}");
    assert!(find(&dir, &["tasks", "inbox"], id).is_none());
    let restored = dir.json(&["tasks", "restore", id]);
    assert_eq!(restored["data"]["title"], "Wandered");
    assert_eq!(restored["data"]["start_on"], day(2));
    assert!(restored["data"]["task_list_id"].is_null());
    let out = dir.ok(&["tasks", "rm", id]);
    assert_eq!(undo_command(&out), undo);
    let out = dir.ok(&["lists", "add", "Spare"]);
    assert_eq!(out.stdout, "Added list Spare\n");
    let out = dir.ok(&["lists", "rm", "spare"]);
    assert_eq!(undo_command(&out)[..2], ["lists", "restore"]);

    // `lists --json` is shaped like `GET /task_lists` (data and meta).
    let (status, api) = server.get("/task_lists", Some(&server.token));
    assert_eq!(status, 200, "{api}");
    let cli = dir.json(&["lists"]);
    assert!(server.stop().success());

    // Everything done through the server is in the store.
    let logbook = list(&dir, &["tasks", "logbook"]);
    assert!(
        logbook.titles().contains(&first.as_str()),
        "{:?}",
        logbook.rows
    );
    let work = list(&dir, &["tasks", "list", "work"]);
    assert!(work.titles().contains(&"Via server"));
    assert!(
        !all_tasks(&dir).contains_key(id),
        "deleted through the server"
    );
    assert_eq!(list(&dir, &["tasks", "planned"]).titles(), ["Later"]);

    assert_eq!(
        shape(&api),
        shape(&cli),
        "lists --json is shaped like GET /task_lists"
    );
}

#[test]
fn organiser_url_and_token_point_tasks_and_lists_at_a_server() {
    let dir = views_store();
    let human = listings(&dir);
    let server = dir.serve();
    let token = create(&dir, "remote");
    let elsewhere = dir.root().join("elsewhere");
    let remote = |args: &[&str]| {
        Cmd::new(args)
            .data_dir(&elsewhere)
            .env("ORGANISER_URL", &server.url)
            .env("ORGANISER_TOKEN", &token)
            .run()
            .success()
    };

    let said: Vec<String> = [
        &["tasks"][..],
        &["tasks", "overview"],
        &["tasks", "planned"],
        &["tasks", "someday"],
        &["tasks", "due"],
        &["tasks", "logbook"],
        &["tasks", "inbox"],
        &["tasks", "list", "work"],
        &["lists"],
    ]
    .iter()
    .map(|args| {
        let out = remote(args);
        out.assert_no_ansi();
        out.stdout
    })
    .collect();
    assert_eq!(said, human, "the same output through ORGANISER_URL");

    let out = remote(&[
        "tasks", "add", "Remote", "--list", "Home", "--start", "today",
    ]);
    assert!(out.stdout.starts_with("Added Remote ("), "{out:?}");
    let shown = listing(&remote(&["tasks", "today"]));
    let row = shown
        .rows
        .iter()
        .position(|r| r["TITLE"] == "Remote")
        .expect("the remote task in today");
    let out = remote(&["tasks", "done", &(row + 1).to_string()]);
    assert_eq!(out.stdout, "Completed Remote\n");
    let out = remote(&["lists", "add", "Remote list"]);
    assert_eq!(out.stdout, "Added list Remote list\n");
    let lists = remote(&["lists", "--json"]).json();
    assert!(
        lists["data"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["name"] == "Remote list")
    );

    // The server's own store has it all.
    let logbook = list(&dir, &["tasks", "logbook"]);
    assert!(logbook.titles().contains(&"Remote"), "{:?}", logbook.rows);
    assert!(server.stop().success());
    assert!(list_ids(&dir).contains_key("Remote list"));
}
