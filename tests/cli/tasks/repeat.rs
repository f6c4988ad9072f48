//! Recurring tasks through the real binary (EXTENSIONS.md §1, "CLI"):
//! `--every` phrases to their rules and back to words in `tasks show`,
//! `--after-done`, `tasks done` saying when the next one is due, `tasks
//! skip`, and the manual page and completions naming them.

use super::{add, day, record};
use crate::completions::{candidates, complete};
use crate::util::Dir;

/// A Tuesday far enough ahead that no phrase's next date depends on today.
const TUESDAY: &str = "2031-05-06";

/// The `Repeats` line of `tasks show`.
#[track_caller]
fn said_repeat(dir: &Dir, id: &str) -> String {
    let out = dir.ok(&["tasks", "show", id]);
    out.stdout
        .lines()
        .find_map(|l| l.strip_prefix("Repeats"))
        .unwrap_or_else(|| panic!("no Repeats line: {out:?}"))
        .trim()
        .to_owned()
}

#[test]
fn every_phrase_becomes_its_rule_and_reads_back_in_words() {
    let dir = Dir::new();
    // (typed, the rule stored, the words `tasks show` says)
    let cases = [
        ("day", "FREQ=DAILY", "every day"),
        ("week", "FREQ=WEEKLY", "every week"),
        ("month", "FREQ=MONTHLY", "every month"),
        ("year", "FREQ=YEARLY", "every year"),
        ("every month", "FREQ=MONTHLY", "every month"),
        ("3 days", "FREQ=DAILY;INTERVAL=3", "every 3 days"),
        ("2 weeks", "FREQ=WEEKLY;INTERVAL=2", "every 2 weeks"),
        ("6 months", "FREQ=MONTHLY;INTERVAL=6", "every 6 months"),
        ("2 years", "FREQ=YEARLY;INTERVAL=2", "every 2 years"),
        (
            "weekday",
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
            "every weekday",
        ),
        (
            "mon,thu",
            "FREQ=WEEKLY;BYDAY=MO,TH",
            "every Monday and Thursday",
        ),
        (
            "Monday and Thursday",
            "FREQ=WEEKLY;BYDAY=MO,TH",
            "every Monday and Thursday",
        ),
        ("1st", "FREQ=MONTHLY;BYMONTHDAY=1", "every month on the 1st"),
        (
            "15th",
            "FREQ=MONTHLY;BYMONTHDAY=15",
            "every month on the 15th",
        ),
        (
            "last day",
            "FREQ=MONTHLY;BYMONTHDAY=-1",
            "every month on the last day",
        ),
        (
            "first mon",
            "FREQ=MONTHLY;BYDAY=1MO",
            "every month on the first Monday",
        ),
        (
            "last fri",
            "FREQ=MONTHLY;BYDAY=-1FR",
            "every month on the last Friday",
        ),
        (
            "2 weeks on mon,thu",
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH",
            "every 2 weeks on Monday and Thursday",
        ),
        (
            "month, 12 times",
            "FREQ=MONTHLY;COUNT=12",
            "every month, 12 times",
        ),
        (
            "week, until 2032-01-01",
            "FREQ=WEEKLY;UNTIL=20320101",
            "every week, until 2032-01-01",
        ),
        (
            "RRULE:freq=monthly;bysetpos=-1;byday=MO,TU,WE,TH,FR",
            "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
            "by the rule FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
        ),
    ];
    for (typed, rule, words) in cases {
        let task = add(
            &dir,
            &format!("every {typed}"),
            &["--deadline", TUESDAY, "--every", typed],
        );
        let id = task["id"].as_str().expect("an id").to_owned();
        assert_eq!(task["repeat"]["rule"], rule, "--every {typed:?}: {task}");
        assert_eq!(task["repeat"]["from"], "due", "--every {typed:?}");
        assert_eq!(task["series_id"], task["id"], "--every {typed:?}");
        assert_eq!(said_repeat(&dir, &id), words, "--every {typed:?}");
        // The words read back as the same rule (the rule itself does).
        let again = if words.starts_with("by the rule ") {
            rule.to_owned()
        } else {
            words.to_owned()
        };
        let changed = dir.json(&["tasks", "edit", &id, "--every", &again]);
        assert_eq!(record(&changed)["repeat"]["rule"], rule, "{words:?}");
    }
}

#[test]
fn after_done_repeats_from_completion() {
    let dir = Dir::new();
    let cases = [
        (
            "3d",
            "FREQ=DAILY;INTERVAL=3",
            "3 days after each completion",
        ),
        (
            "2w",
            "FREQ=WEEKLY;INTERVAL=2",
            "2 weeks after each completion",
        ),
        ("1m", "FREQ=MONTHLY", "a month after each completion"),
        (
            "10 days",
            "FREQ=DAILY;INTERVAL=10",
            "10 days after each completion",
        ),
        ("week", "FREQ=WEEKLY", "a week after each completion"),
    ];
    for (typed, rule, words) in cases {
        let task = add(&dir, typed, &["--start", TUESDAY, "--after-done", typed]);
        let id = task["id"].as_str().expect("an id").to_owned();
        assert_eq!(task["repeat"]["rule"], rule, "--after-done {typed:?}");
        assert_eq!(
            task["repeat"]["from"], "completion",
            "--after-done {typed:?}"
        );
        assert_eq!(said_repeat(&dir, &id), words, "--after-done {typed:?}");
        let changed = dir.json(&["tasks", "edit", &id, "--after-done", words]);
        assert_eq!(record(&changed)["repeat"], task["repeat"], "{words:?}");
    }
}

#[test]
fn done_and_skip_say_when_the_next_is_due() {
    let dir = Dir::new();
    let task = add(
        &dir,
        "Water the plants",
        &["--deadline", &day(0), "--every", "week"],
    );
    let id = task["id"].as_str().expect("an id");
    let out = dir.ok(&["tasks", "done", id]);
    assert_eq!(
        out.stdout.trim(),
        format!("Completed Water the plants · next due {}", day(7)),
        "{out:?}"
    );
    let next = dir.json(&["tasks", "show", id]);
    let next_id = record(&next)["next_task_id"]
        .as_str()
        .expect("a next occurrence")
        .to_owned();
    let out = dir.ok(&["tasks", "skip", &next_id]);
    assert_eq!(
        out.stdout.trim(),
        format!("Skipped Water the plants · next due {}", day(14)),
        "{out:?}"
    );
    let skipped = dir.json(&["tasks", "show", &next_id]);
    assert_eq!(record(&skipped)["status"], "wont_do");
    // From completion: the next starts the interval after today.
    let plants = add(
        &dir,
        "Feed the fish",
        &["--start", &day(-3), "--after-done", "3d"],
    );
    let out = dir.ok(&["tasks", "done", plants["id"].as_str().expect("an id")]);
    assert_eq!(
        out.stdout.trim(),
        format!("Completed Feed the fish · next starts {}", day(3)),
        "{out:?}"
    );
    // The last of a series says so.
    let last = add(
        &dir,
        "Once more",
        &["--deadline", &day(0), "--every", "week, 2 times"],
    );
    let out = dir.ok(&["tasks", "done", last["id"].as_str().expect("an id")]);
    let second = out
        .stdout
        .trim()
        .rsplit("next due ")
        .next()
        .expect("a date");
    assert_eq!(second, day(7));
    let open = dir.json(&["tasks", "due", "--limit", "100"]);
    let second_id = super::page(&open)
        .iter()
        .find(|t| t["title"] == "Once more")
        .expect("the second occurrence")["id"]
        .as_str()
        .expect("an id")
        .to_owned();
    let out = dir.ok(&["tasks", "done", &second_id]);
    assert_eq!(
        out.stdout.trim(),
        "Completed Once more · the last of its series"
    );
    // `tasks done` on a task that does not repeat says nothing more.
    let plain = add(&dir, "Post the letter", &[]);
    let out = dir.ok(&["tasks", "done", plain["id"].as_str().expect("an id")]);
    assert_eq!(out.stdout.trim(), "Completed Post the letter");
}

/// Exit 2 with one line on stderr, `error: MESSAGE`: MESSAGE.
#[track_caller]
fn usage_error(out: crate::util::Outcome) -> String {
    let out = out.failure(2);
    assert_eq!(out.stdout, "", "{out:?}");
    assert_eq!(out.stderr.lines().count(), 1, "{out:?}");
    out.stderr
        .trim_end()
        .strip_prefix("error: ")
        .unwrap_or_else(|| panic!("expected `error: ` first: {out:?}"))
        .to_owned()
}

#[test]
fn a_phrase_the_core_cannot_read_changes_nothing() {
    let dir = Dir::new();
    let out = dir.run(&[
        "tasks",
        "add",
        "Bad",
        "--deadline",
        TUESDAY,
        "--every",
        "fortnightly",
    ]);
    let message = usage_error(out);
    assert!(
        message.contains("--every \"fortnightly\"") && message.contains("last fri"),
        "{message}"
    );
    let out = dir.run(&["tasks", "add", "No date", "--every", "week"]);
    let message = out.error();
    assert!(
        message.contains("--every") && message.contains("deadline or a start date"),
        "{message}"
    );
    let out = dir.run(&[
        "tasks",
        "add",
        "Bad",
        "--start",
        TUESDAY,
        "--after-done",
        "soon",
    ]);
    assert!(usage_error(out).contains("--after-done"));
    let everything = super::all_tasks(&dir);
    assert!(everything.is_empty(), "{everything:?}");
    // `--every none` stops a task repeating; its series stays.
    let task = add(&dir, "Stop me", &["--deadline", TUESDAY, "--every", "day"]);
    let id = task["id"].as_str().expect("an id");
    let stopped = dir.json(&["tasks", "edit", id, "--every", "none"]);
    assert!(record(&stopped)["repeat"].is_null(), "{stopped}");
    assert_eq!(record(&stopped)["series_id"], task["id"]);
}

#[test]
fn the_manual_and_completions_name_them() {
    let dir = Dir::empty();
    let add = dir.ok(&["man", "tasks", "add"]).stdout;
    assert!(
        add.contains("every") && add.contains("after\\-done"),
        "{add}"
    );
    let skip = dir.ok(&["man", "tasks", "skip"]).stdout;
    assert!(skip.contains("organiser\\-tasks\\-skip"), "{skip}");
    let words = ["tasks", "s"];
    let subcommands = candidates(complete("fish", words.len() - 1, &words).run());
    assert!(
        subcommands.iter().any(|c| c.starts_with("skip")),
        "{subcommands:?}"
    );
    let words = ["tasks", "add", "--"];
    let flags = candidates(complete("fish", words.len() - 1, &words).run());
    for flag in ["--every", "--after-done"] {
        assert!(
            flags.iter().any(|c| c.starts_with(flag)),
            "{flag}: {flags:?}"
        );
    }
}
