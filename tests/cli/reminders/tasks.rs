//! `tasks add --remind` and `tasks edit --remind`: words read in the
//! owner's zone, said back, shown, cleared; the mistakes.

use jiff::tz::TimeZone;
use serde_json::Value;

use crate::util::{self, Dir};

/// `date` at `hour`:00 in `zone`, as an instant.
fn at(date: &str, hour: i8, zone: &str) -> jiff::Timestamp {
    let date: jiff::civil::Date = date.parse().expect("a date");
    date.at(hour, 0, 0, 0)
        .to_zoned(TimeZone::get(zone).expect("a zone"))
        .expect("a moment")
        .timestamp()
}

fn instant(value: &Value) -> jiff::Timestamp {
    value
        .as_str()
        .expect("an instant")
        .parse()
        .expect("an instant")
}

#[test]
fn tasks_take_a_reminder_in_words_of_the_owner_s_zone() {
    let dir = Dir::empty();
    dir.init("Owner", "owner", "Pacific/Auckland");
    let zone = "Pacific/Auckland";
    let today: jiff::civil::Date = util::today(zone).parse().unwrap();
    let tomorrow = today.tomorrow().unwrap().to_string();

    let made = dir.json(&["tasks", "add", "Call", "mum", "--remind", "tomorrow 9:00"]);
    assert_eq!(
        instant(&made["data"]["remind_at"]),
        at(&tomorrow, 9, zone),
        "{made}"
    );
    let id = made["data"]["id"].as_str().unwrap().to_owned();
    // Said back in the owner's zone.
    let out = dir.ok(&[
        "tasks",
        "add",
        "Water",
        "plants",
        "--remind",
        "tomorrow at 6pm",
    ]);
    let day = today.tomorrow().unwrap().strftime("%a %-d %b").to_string();
    assert!(
        out.stdout.contains(&format!(" · reminds {day} 18:00")),
        "{out:?}"
    );
    // Without a time: 09:00.
    let made = dir.json(&["tasks", "add", "Dentist", "--remind", "tomorrow"]);
    assert_eq!(instant(&made["data"]["remind_at"]), at(&tomorrow, 9, zone));
    // An instant as the API takes it.
    let made = dir.json(&["tasks", "add", "Later", "--remind", "2099-01-02T03:04:05Z"]);
    assert_eq!(made["data"]["remind_at"], "2099-01-02T03:04:05.000Z");

    // Shown with the task, in the owner's zone.
    let out = dir.ok(&["tasks", "show", &id]);
    let row = out
        .stdout
        .lines()
        .find(|l| l.starts_with("Remind"))
        .unwrap_or_else(|| panic!("no Remind row: {out:?}"));
    assert_eq!(row, format!("Remind    {tomorrow} 09:00"));

    // Moved, cleared.
    let changed = dir.json(&["tasks", "edit", &id, "--remind", "tomorrow 10:30"]);
    assert_eq!(
        instant(&changed["data"]["remind_at"]),
        at(&tomorrow, 10, zone) + jiff::SignedDuration::from_mins(30)
    );
    let out = dir.ok(&["tasks", "edit", &id, "--remind", "none"]);
    assert!(out.stdout.ends_with(" · no reminder\n"), "{out:?}");
    assert_eq!(
        dir.json(&["tasks", "show", &id])["data"]["remind_at"],
        Value::Null
    );
    let out = dir.ok(&["tasks", "show", &id]);
    assert!(!out.stdout.contains("Remind"), "{out:?}");

    // Mistakes, named by the flag.
    let out = dir.run(&["tasks", "add", "Too", "late", "--remind", "yesterday 9:00"]);
    assert_eq!(out.error(), "--remind can't be in the past");
    let out = dir.run(&["tasks", "edit", &id, "--remind", "soon"]);
    assert!(
        out.error()
            .starts_with("--remind: \"soon\" is not a date and time: use date words with a time"),
        "{out:?}"
    );
    let out = dir.run(&["tasks", "add", "X", "--remind", "12/11 9:00"]);
    assert!(
        out.error()
            .starts_with("--remind: \"12/11 9:00\" could be "),
        "{out:?}"
    );
    dir.ok(&["tasks", "done", &id]);
    let out = dir.run(&["tasks", "edit", &id, "--remind", "tomorrow 9:00"]);
    assert_eq!(out.error(), "--remind can only be set on an open task");
}
