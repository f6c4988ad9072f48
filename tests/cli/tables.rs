//! Snapshots (insta) of the tables the CLI renders, at 80 and 120 columns
//! (issue 23): the task views, lists, people, projects, notes, tags, a
//! search, birthdays and three `show` screens, as a person reads them on
//! a terminal without colour.
//!
//! Each command runs on a real terminal of that width (`script(1)`, as
//! [`Cmd::on_terminal_of`] does), since the tables fit the width only
//! when standard output is a terminal, with `NO_COLOR` set. The output is
//! made deterministic by:
//!
//! - the clock: every command runs at a fixed instant (`ORGANISER_NOW`),
//!   the changes one second apart in the order they are made (so IDs sort
//!   as the records were made), the listings all at [`READ_AT`];
//! - the IDs: each record's ID (and its last six characters, as the tables
//!   show it) is replaced by a label of the same width naming the record
//!   (`[ta03]` for the third task made, `[ta03--------------------]` for
//!   its whole ID), so the columns stay as they were laid out; an ID the
//!   test did not make is replaced by `[unknown-ulid------------]`;
//! - the data directory: named by `ORGANISER_DATA_DIR`, not `--data-dir`,
//!   so the commands the tables print to paste hold no temporary path.
//!
//! Rewrite the snapshots after a deliberate change with
//! `INSTA_UPDATE=always cargo test --test cli tables` and review the diff
//! of `tests/cli/snapshots/`.

use std::cell::{Cell, RefCell};

use regex::Regex;
use serde_json::Value;

use crate::util::{Cmd, Dir, Outcome};

/// Monday 9 March 2026, 09:00 in Paris (UTC+1 until 29 March): the first
/// change; the others follow a second apart.
const START: &str = "2026-03-09T08:00:00Z";

/// When the listings are read: ten minutes after the first change, the
/// same day and hour as every change.
const READ_AT: &str = "2026-03-09T08:10:00Z";

/// The widths of the snapshots.
const WIDTHS: [u16; 2] = [80, 120];

/// A store made at a fixed instant, and the labels of the IDs in it.
struct Store {
    dir: Dir,
    /// Changes made so far: the next one runs this many seconds after [`START`].
    changes: Cell<i64>,
    /// Each ID made, with its label (`ta03`).
    labels: RefCell<Vec<(String, String)>>,
}

impl Store {
    /// The store of every snapshot: an owner in Paris, three lists, three
    /// projects, three people with key dates, tasks with long and short
    /// titles, start dates and deadlines (one overdue, one done), a
    /// category and three notes with tags.
    fn new() -> Store {
        let store = Store {
            dir: Dir::empty(),
            changes: Cell::new(0),
            labels: RefCell::new(Vec::new()),
        };
        store.change(&[
            "init",
            "--name",
            "Sam Owner",
            "--username",
            "sam",
            "--time-zone",
            "Europe/Paris",
        ]);

        store.made("li", &["lists", "add", "Work"]);
        store.made("li", &["lists", "add", "Home and garden"]);
        store.made(
            "li",
            &[
                "lists",
                "add",
                "Someday maybe: books to read and films to watch",
            ],
        );

        store.made(
            "pe",
            &[
                "people",
                "add",
                "Grace",
                "Hopper",
                "--email",
                "grace.hopper@navy-research.example.org",
                "--phone",
                "+1 202 555 0143",
                "--birthday",
                "1906-03-12",
                "--relationship",
                "colleague",
            ],
        );
        store.made(
            "pe",
            &[
                "people",
                "add",
                "Ada",
                "Lovelace",
                "--email",
                "ada@example.org",
                "--birthday",
                "--12-10",
                "--date",
                "anniversary:2015-03-14",
                "--relationship",
                "friend",
                "--job",
                "Analyst",
                "--company",
                "Analytical Engines",
            ],
        );
        store.made("pe", &["people", "add", "Bo"]);

        store.made(
            "pr",
            &[
                "projects",
                "add",
                "Garden",
                "shed",
                "rebuild",
                "--start",
                "2026-03-01",
                "--deadline",
                "2026-04-30",
                "--role",
                "Lead builder",
                "--reference",
                "GS-12",
            ],
        );
        store.made(
            "pr",
            &[
                "projects",
                "add",
                "Tax",
                "return",
                "--status",
                "planned",
                "--deadline",
                "2026-05-31",
            ],
        );
        store.made(
            "pr",
            &[
                "projects",
                "add",
                "Website",
                "relaunch",
                "for",
                "the",
                "harbour",
                "rowing",
                "club",
                "--status",
                "on_hold",
                "--url",
                "https://harbour-rowing.example.org/relaunch",
            ],
        );
        store.change(&[
            "projects",
            "member",
            "add",
            "Garden shed rebuild",
            "Grace Hopper",
            "--role",
            "Carpenter",
        ]);

        store.made(
            "ta",
            &[
                "tasks",
                "add",
                "Buy",
                "oat",
                "milk",
                "--deadline",
                "2026-03-09",
            ],
        );
        store.made(
            "ta",
            &[
                "tasks",
                "add",
                "Write the quarterly report on the harbour renovation budget for the council meeting",
                "--start",
                "2026-03-02",
                "--deadline",
                "2026-03-11",
                "--list",
                "Work",
                "--description",
                "Figures from **March**; ask @Grace about the crane hire.",
            ],
        );
        store.made(
            "ta",
            &[
                "tasks",
                "add",
                "Call",
                "the",
                "plumber",
                "--deadline",
                "2026-03-06",
                "--list",
                "Home and garden",
            ],
        );
        store.made(
            "ta",
            &[
                "tasks",
                "add",
                "Order timber for the shed",
                "--start",
                "2026-03-16",
                "--deadline",
                "2026-03-20",
                "--project",
                "Garden shed rebuild",
            ],
        );
        store.made(
            "ta",
            &[
                "tasks",
                "add",
                "Read",
                "Dune",
                "--start",
                "2026-04-01",
                "--list",
                "Someday maybe: books to read and films to watch",
            ],
        );
        store.made(
            "ta",
            &[
                "tasks",
                "add",
                "Send Grace the slides",
                "--start",
                "2026-03-09",
                "--person",
                "Grace Hopper",
            ],
        );
        store.made(
            "ta",
            &[
                "tasks",
                "add",
                "Check https://harbour.example.org/plans/2026/renovation-budget-final-v3.pdf",
                "--start",
                "2026-03-09",
            ],
        );
        store.made("ta", &["tasks", "add", "Read the harbour plan"]);
        let done = store.made(
            "ta",
            &["tasks", "add", "Renew the passport", "--list", "Work"],
        );
        store.change(&["tasks", "done", &done]);

        store.made("ca", &["categories", "add", "Journal"]);
        store.made(
            "no",
            &[
                "notes",
                "add",
                "Harbour",
                "walk",
                "--category",
                "Journal",
                "--pin",
                "--body",
                "Walked the harbour with @Grace. #walks #harbour Ideas for the shed.",
            ],
        );
        store.made(
            "no",
            &[
                "notes",
                "add",
                "--body",
                "Shopping: oat milk, timber screws, a long extension lead for the garden #errands",
            ],
        );
        store.made(
            "no",
            &[
                "notes",
                "add",
                "Reading",
                "list",
                "--body",
                "Dune, then the harbour history. #books #harbour #someday-maybe-later",
            ],
        );
        // The tags were made by the notes: their IDs from the listing.
        let tags = store.json(&["tags"]);
        for tag in tags["data"].as_array().expect("the tags") {
            store.label("tg", tag["id"].as_str().expect("an ID"));
        }
        store
    }

    /// `organiser ARGS...` on this store, at `at`, in a clean environment.
    fn cmd(&self, args: &[&str], at: &str) -> Cmd {
        Cmd::new(args)
            .env("XDG_CONFIG_HOME", self.dir.config_home())
            .env("ORGANISER_DATA_DIR", self.dir.data())
            .env("ORGANISER_NOW", at)
    }

    /// The instant of the next change: a second after the last.
    fn next_instant(&self) -> String {
        let n = self.changes.get();
        self.changes.set(n + 1);
        let start: jiff::Timestamp = START.parse().expect("an instant");
        (start + jiff::SignedDuration::from_secs(n)).to_string()
    }

    /// Runs a change; panics unless it succeeds.
    #[track_caller]
    fn change(&self, args: &[&str]) -> Outcome {
        let at = self.next_instant();
        self.cmd(args, &at).run().success()
    }

    /// Runs a change with `--json` and labels the ID of what it made
    /// `kind` and its number among that kind; returns the ID.
    #[track_caller]
    fn made(&self, kind: &str, args: &[&str]) -> String {
        let mut args = args.to_vec();
        args.push("--json");
        let said = self.change(&args).json();
        let id = said["data"]["id"]
            .as_str()
            .unwrap_or_else(|| panic!("no ID in {said}"))
            .to_owned();
        self.label(kind, &id);
        id
    }

    /// Labels `id` as the next of `kind`.
    fn label(&self, kind: &str, id: &str) {
        let mut labels = self.labels.borrow_mut();
        let n = labels.iter().filter(|(_, l)| l.starts_with(kind)).count() + 1;
        labels.push((id.to_owned(), format!("{kind}{n:02}")));
    }

    /// A listing's JSON, read at [`READ_AT`].
    #[track_caller]
    fn json(&self, args: &[&str]) -> Value {
        let mut args = args.to_vec();
        args.push("--json");
        self.cmd(&args, READ_AT).run().success().json()
    }

    /// The ID labelled `label` (`ta02`).
    #[track_caller]
    fn id(&self, label: &str) -> String {
        let labels = self.labels.borrow();
        let found = labels.iter().find(|(_, l)| l == label);
        found
            .unwrap_or_else(|| panic!("no ID labelled {label}"))
            .0
            .clone()
    }

    /// What `organiser ARGS...` prints on a terminal `columns` wide
    /// without colour, at [`READ_AT`], with its IDs labelled; an argument
    /// `[LABEL]` stands for the ID labelled LABEL.
    #[track_caller]
    fn screen(&self, args: &[&str], columns: u16) -> String {
        let args: Vec<String> = args
            .iter()
            .map(
                |arg| match arg.strip_prefix('[').and_then(|a| a.strip_suffix(']')) {
                    Some(label) => self.id(label),
                    None => (*arg).to_owned(),
                },
            )
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = self
            .cmd(&args, READ_AT)
            .env("NO_COLOR", "1")
            .on_terminal_of(Some(columns))
            .run()
            .success();
        out.assert_no_ansi();
        // The terminal ends its lines with CR LF.
        let text = out.stdout.replace("\r\n", "\n");
        assert!(!text.contains('\r'), "{out:?}");
        self.redact(&text)
    }

    /// `text` with each whole ID, then each short one, replaced by its
    /// label, of the same width.
    fn redact(&self, text: &str) -> String {
        let labels = self.labels.borrow();
        let whole = Regex::new(r"\b[0-9A-HJKMNP-TV-Z]{26}\b").expect("a pattern");
        let text = whole.replace_all(text, |found: &regex::Captures<'_>| {
            let id = &found[0];
            match labels.iter().find(|(made, _)| made == id) {
                Some((_, label)) => format!("[{label:-<24}]"),
                None => format!("[{:-<24}]", "unknown-ulid"),
            }
        });
        let mut text = text.into_owned();
        for (id, label) in labels.iter() {
            let short = Regex::new(&format!(r"\b{}\b", &id[id.len() - 6..])).expect("a pattern");
            text = short
                .replace_all(&text, format!("[{label}]").as_str())
                .into_owned();
        }
        text
    }
}

/// Snapshots `organiser ARGS...` at each of [`WIDTHS`], as `NAME_80` and
/// `NAME_120`, on a fresh [`Store`]. (A line wider than the terminal is
/// kept as the command printed it: the terminal would wrap it.)
#[track_caller]
fn snapshot(name: &str, args: &[&str]) {
    let store = Store::new();
    for columns in WIDTHS {
        let screen = store.screen(args, columns);
        insta::with_settings!({
            description => format!("organiser {} (at {columns} columns, no colour)", args.join(" ")),
            omit_expression => true,
        }, {
            insta::assert_snapshot!(format!("{name}_{columns}"), screen);
        });
    }
}

#[test]
fn tasks_today() {
    snapshot("tasks_today", &["tasks"]);
}

#[test]
fn tasks_planned() {
    snapshot("tasks_planned", &["tasks", "planned"]);
}

#[test]
fn tasks_overview() {
    snapshot("tasks_overview", &["tasks", "overview"]);
}

#[test]
fn tasks_logbook() {
    snapshot("tasks_logbook", &["tasks", "logbook"]);
}

#[test]
fn lists() {
    snapshot("lists", &["lists"]);
}

#[test]
fn people() {
    snapshot("people", &["people"]);
}

#[test]
fn birthdays() {
    snapshot("birthdays", &["birthdays"]);
}

#[test]
fn projects() {
    snapshot("projects", &["projects"]);
}

#[test]
fn notes() {
    snapshot("notes", &["notes"]);
}

#[test]
fn tags() {
    snapshot("tags", &["tags"]);
}

#[test]
fn search() {
    snapshot("search_harbour", &["search", "harbour"]);
}

#[test]
fn tasks_show() {
    // The quarterly report: a long title and a description.
    snapshot("tasks_show", &["tasks", "show", "[ta02]"]);
}

#[test]
fn people_show() {
    snapshot("people_show", &["people", "show", "Grace Hopper"]);
}

#[test]
fn projects_show() {
    snapshot(
        "projects_show",
        &["projects", "show", "Garden shed rebuild"],
    );
}
