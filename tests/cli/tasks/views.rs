//! `organiser tasks` views: each view's table under a header with its
//! counts, `tasks` alone, an empty view and `--limit`, and colour only for
//! the overdue deadline on a terminal.

use serde_json::Value;

use super::{add, day, list, listing, page, short, views_store};
use crate::util::{Cmd, Dir, Outcome};

/// A view's command, its title, the titles it lists (sorted), and parts
/// its header line must hold.
type ViewCase<'a> = (&'a [&'a str], &'a str, &'a [&'a str], &'a [&'a str]);

#[test]
fn each_view_shows_its_tasks_under_a_header_with_counts() {
    let dir = views_store();
    let cases: [ViewCase; 10] = [
        (
            &["tasks", "today"],
            "Today",
            &["Inbox starts today", "Overdue"],
            &["2 open", "1 overdue"],
        ),
        (
            &["tasks", "started"],
            "Started",
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

    // The due view counts what it holds (the overdue task included).
    let due = list(&dir, &["tasks", "due"]);
    assert!(due.header_parts().contains(&"2 open"), "{}", due.header);

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

/// Issue 7, defect 7: `organiser tasks` is the queue people mean by
/// "today" (the spec's `today_queue`): a task due today with no start date
/// is in it; `started` (the spec's `today`) leaves it out.
#[test]
fn tasks_alone_holds_what_is_due_today_without_a_start_date() {
    let dir = Dir::new();
    add(&dir, "Due today, no start", &["--deadline", &day(0)]);
    add(&dir, "Due tomorrow, no start", &["--deadline", &day(1)]);
    add(&dir, "Started", &["--start", &day(-2)]);
    add(&dir, "Starts tomorrow", &["--start", &day(1)]);
    // The queue is soonest deadline first, tasks without one last.
    let alone = list(&dir, &["tasks"]);
    assert_eq!(alone.column("TITLE"), ["Due today, no start", "Started"]);
    assert_eq!(alone.header_parts()[..2], ["Today", "2 open"]);
    let started = list(&dir, &["tasks", "started"]);
    assert_eq!(started.column("TITLE"), ["Started"]);
}

/// Each view's help says what it holds, in the spec's terms.
#[test]
fn each_view_says_in_its_help_what_it_holds() {
    let help = Cmd::new(&["tasks", "--help"]).run().success().stdout;
    for (view, words) in [
        ("today", "overdue, due today, or started"),
        ("started", "start date is today or earlier"),
        ("planned", "outside the Inbox"),
        ("someday", "no start date, outside the Inbox"),
        ("due", "overdue or due within 14 days"),
        ("logbook", "most recently closed first"),
    ] {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{view} ")))
            .unwrap_or_else(|| panic!("no {view} in {help}"));
        // clap cuts the first sentence; the whole of it is in `tasks VIEW --help`.
        let long = Cmd::new(&["tasks", view, "--help"]).run().success().stdout;
        let said = long.replace('\n', " ");
        assert!(
            said.to_lowercase().contains(&words.to_lowercase()),
            "{view}: {line:?} / {said:?}"
        );
    }
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

/// Issue 7, defect 5: listings are not cut at the API's 100 a page.
#[test]
fn limits_over_a_page_and_all_read_every_page() {
    let dir = Dir::new();
    let script = "for i in $(seq 1 130); do \"$0\" --data-dir \"$1\" tasks add \"task $i\" >/dev/null || exit 1; done";
    Cmd::shell(script, &[dir.data().as_os_str()])
        .run()
        .success();
    let count = |args: &[&str]| dir.json(args)["data"].as_array().unwrap().len();
    assert_eq!(count(&["tasks", "inbox", "--limit", "120"]), 120);
    assert_eq!(count(&["tasks", "inbox", "--all"]), 130);
    assert_eq!(count(&["tasks", "inbox"]), 50);
    let out = dir.ok(&["tasks", "inbox", "--limit", "125"]);
    assert!(out.stdout.contains("… and 5 more"), "{}", out.stdout);
    let out = dir.ok(&["tasks", "inbox", "--all"]);
    assert!(!out.stdout.contains("more"), "{}", out.stdout);
}
