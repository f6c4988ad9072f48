//! `organiser tasks`: the views as tables with their counts, adding with
//! dates as people type them, naming a task by row number or part of its
//! ID, changing, moving, deleting and restoring; `--json` in the API's
//! shape; colour only for the overdue deadline on a terminal; the same
//! output through a server that holds the store or one named by
//! `ORGANISER_URL`.
//!
//! This file holds the helpers the task tests (and `lists`) share; the
//! tests are in `views`, `change`, `description` and `server`.

use std::collections::BTreeMap;

use jiff::ToSpan;
use jiff::civil::Date;
use serde_json::Value;

use crate::util::{Dir, Outcome, today};

mod change;
mod description;
mod repeat;
mod server;
mod views;

/// Today in UTC (the zone of a store made without `init`).
pub(crate) fn today_utc() -> Date {
    today("UTC").parse().expect("a date")
}

/// Today plus `days`, as the API writes a date.
pub(crate) fn day(days: i64) -> String {
    (today_utc() + days.days()).to_string()
}

/// A day `days` from today as `add` and `edit` say it: "Fri 27 Nov", with
/// the year when it is not this year's.
pub(crate) fn said_day(days: i64) -> String {
    let today = today_utc();
    let day = today + days.days();
    if day.year() == today.year() {
        day.strftime("%a %-d %b").to_string()
    } else {
        day.strftime("%a %-d %b %Y").to_string()
    }
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
pub(crate) fn find(dir: &Dir, view: &[&str], id: &str) -> Option<Value> {
    let listed = dir.json(view);
    page(&listed).iter().find(|t| t["id"] == id).cloned()
}

/// Every task in the store (open and closed), by ID.
pub(crate) fn all_tasks(dir: &Dir) -> BTreeMap<String, Value> {
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
pub(crate) fn short(id: &Value) -> String {
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
pub(crate) fn views_store() -> Dir {
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

/// The command `rm` says undoes it: `organiser ...` to the end of the line,
/// less the `--data-dir` it names.
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
    // The hint names the store it was printed for (hints.rs runs it as
    // printed); the tests run it with their own `--data-dir`.
    match words.first().map(String::as_str) {
        Some("--data-dir") => words[2..].to_vec(),
        _ => words,
    }
}
