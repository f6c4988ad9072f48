//! EXTENSIONS.md §1, "Recurring tasks": the `repeat` rule read and
//! normalised (rule 1), the series a repeat starts (rule 2), the next
//! occurrence a close makes (rules 3 and 4), reopening as an undo
//! (rule 5), deleting and restoring an occurrence (rule 6), the calendar's
//! `repeats` (rule 7), views that see real tasks only (rule 8), and every
//! refused repeat leaving the store as it was.
//!
//! Today is Tuesday 2026-03-10 (UTC) unless a test moves the clock.

use serde_json::{Value, json};

use crate::common::fixtures::{
    all, deletions, get_task, id, new_list, new_task, now_string, patch_task, records, set_zone,
    with_updated_at,
};
use crate::common::{Call, Core, Expect, Setup, check, licence_key, licence_signer, send};

/// A licensed in-memory organiser (the tests move the clock past the
/// 14-day trial), at 2026-03-10T09:00:00Z, owner zone UTC.
fn start() -> Core {
    let mut setup = Setup::default();
    setup.options.licence_public_key = licence_signer().verifying_key();
    let s = Core::with(setup);
    send(
        s.local("PUT", "/licence")
            .json(&json!({"key": licence_key("K-1", "2099-01-01")})),
    )
    .expect(200);
    s
}

/// Every task, whatever its status.
const EVERY: &str = "/tasks?status=open,completed,wont_do,archived";

/// Creates an Inbox task titled `title`, due `deadline`, repeating by
/// `rule` from its due dates; the record.
#[track_caller]
fn due_task(s: &Core, title: &str, deadline: &str, rule: &str) -> Value {
    new_task(
        s,
        json!({"title": title, "deadline_on": deadline, "repeat": {"rule": rule}}),
    )
}

/// `PATCH /tasks/{id}` to `status`, which must be 200; the record.
#[track_caller]
fn set_status(s: &Core, task: &Value, status: &str) -> Value {
    patch_task(s, &id(task), json!({ "status": status }))
        .expect(200)
        .data()
        .clone()
}

/// Completes `task`; the closed record.
#[track_caller]
fn complete(s: &Core, task: &Value) -> Value {
    set_status(s, task, "completed")
}

/// The occurrence `closed`'s closing made, which must exist.
#[track_caller]
fn next_of(s: &Core, closed: &Value) -> Value {
    let next = closed["next_task_id"]
        .as_str()
        .unwrap_or_else(|| panic!("no next occurrence: {closed}"));
    get_task(s, next)
}

/// Completes `task`; the occurrence that made.
#[track_caller]
fn complete_and_next(s: &Core, task: &Value) -> Value {
    let closed = complete(s, task);
    next_of(s, &closed)
}

/// The open tasks.
#[track_caller]
fn open_tasks(s: &Core) -> Vec<Value> {
    all(s, "/tasks?status=open")
}

/// The open tasks' deadlines, sorted.
#[track_caller]
fn open_deadlines(s: &Core) -> Vec<String> {
    let mut dates: Vec<String> = open_tasks(s)
        .iter()
        .map(|t| t["deadline_on"].as_str().unwrap_or("none").to_owned())
        .collect();
    dates.sort();
    dates
}

/// Sets the clock to `instant` (RFC 3339).
fn at(s: &Core, instant: &str) {
    s.clock.set(instant.parse().unwrap());
}

/// Everything a refused write must leave as it was: every task and the
/// deletion records.
#[track_caller]
fn store(s: &Core) -> (Vec<Value>, Vec<(String, String)>) {
    let mut tasks = all(s, EVERY);
    tasks.sort_by_key(id);
    (tasks, deletions(s))
}

/// `GET /calendar?from=..&to=..`'s `repeats` as (date, title).
#[track_caller]
fn repeats(s: &Core, from: &str, to: &str) -> Vec<(String, String)> {
    s.get(&format!("/calendar?from={from}&to={to}"))
        .expect(200)
        .data()["repeats"]
        .as_array()
        .expect("repeats")
        .iter()
        .map(|r| {
            (
                r["date"].as_str().unwrap().to_owned(),
                r["task"]["title"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// (date, title) pairs, owned.
fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|(d, t)| ((*d).to_owned(), (*t).to_owned()))
        .collect()
}

// ---------------------------------------------------------------- rule 1

/// The stored rule is upper case, its parts in the order of rule 1,
/// `INTERVAL=1`, `WKST=MO` and a leading `RRULE:` left out, `UNTIL` a
/// date; `from` omitted is `due`.
#[test]
fn the_stored_rule_is_normalised() {
    let s = start();
    let cases: &[(&str, Option<&str>, &str)] = &[
        ("FREQ=WEEKLY", None, "FREQ=WEEKLY"),
        ("freq=weekly;byday=mo,th", None, "FREQ=WEEKLY;BYDAY=MO,TH"),
        ("RRULE:FREQ=DAILY", None, "FREQ=DAILY"),
        ("rrule:freq=daily;interval=2", None, "FREQ=DAILY;INTERVAL=2"),
        ("FREQ=DAILY;INTERVAL=1;WKST=MO", None, "FREQ=DAILY"),
        ("COUNT=5;FREQ=DAILY", None, "FREQ=DAILY;COUNT=5"),
        (
            "WKST=SU;UNTIL=20261231;BYDAY=TU,SU;INTERVAL=2;FREQ=WEEKLY",
            None,
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;UNTIL=20261231;WKST=SU",
        ),
        (
            "FREQ=YEARLY;BYDAY=4TH;BYMONTH=11;INTERVAL=2",
            None,
            "FREQ=YEARLY;INTERVAL=2;BYMONTH=11;BYDAY=4TH",
        ),
        (
            "count=12;bysetpos=-1;byday=mo,tu,we,th,fr;freq=monthly",
            Some("due"),
            "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=12",
        ),
        (
            "BYMONTHDAY=-1;BYMONTH=1,7;FREQ=YEARLY",
            None,
            "FREQ=YEARLY;BYMONTH=1,7;BYMONTHDAY=-1",
        ),
        ("FREQ=MONTHLY;BYDAY=+1MO", None, "FREQ=MONTHLY;BYDAY=1MO"),
        ("FREQ=WEEKLY;BYDAY=TH,MO", None, "FREQ=WEEKLY;BYDAY=TH,MO"),
        ("FREQ=DAILY;INTERVAL=999", None, "FREQ=DAILY;INTERVAL=999"),
        ("FREQ=YEARLY;INTERVAL=999", None, "FREQ=YEARLY;INTERVAL=999"),
        ("FREQ=DAILY;COUNT=1000", None, "FREQ=DAILY;COUNT=1000"),
        (
            "FREQ=MONTHLY;UNTIL=2026-12-31",
            None,
            "FREQ=MONTHLY;UNTIL=20261231",
        ),
        (
            "FREQ=MONTHLY;UNTIL=20261231T235959Z",
            None,
            "FREQ=MONTHLY;UNTIL=20261231",
        ),
        (
            "FREQ=MONTHLY;UNTIL=20261231T080000",
            None,
            "FREQ=MONTHLY;UNTIL=20261231",
        ),
        (
            "interval=3;freq=daily;count=4",
            Some("completion"),
            "FREQ=DAILY;INTERVAL=3;COUNT=4",
        ),
    ];
    for (rule, from, stored) in cases {
        let mut repeat = json!({ "rule": rule });
        if let Some(from) = from {
            repeat["from"] = json!(from);
        }
        let made = new_task(
            &s,
            json!({"title": "t", "deadline_on": "2026-03-20", "repeat": repeat}),
        );
        let want = json!({"rule": stored, "from": from.unwrap_or("due")});
        assert_eq!(made["repeat"], want, "{rule}: {made}");
        assert_eq!(get_task(&s, &id(&made))["repeat"], want, "{rule} read back");
        // The same on a change.
        let plain = new_task(&s, json!({"title": "p", "start_on": "2026-03-20"}));
        let changed = patch_task(&s, &id(&plain), json!({ "repeat": repeat })).expect(200);
        assert_eq!(changed.data()["repeat"], want, "{rule} on a change");
    }
}

/// `UNTIL` given as a date-time is its date in the owner's zone.
#[test]
fn until_as_a_date_time_is_its_date_in_the_owners_zone() {
    let s = start();
    set_zone(&s, "Tokyo");
    // 20:00Z on 24 March is 05:00 on 25 March in Tokyo.
    let tokyo = due_task(
        &s,
        "tokyo",
        "2026-03-20",
        "FREQ=DAILY;UNTIL=20260324T200000Z",
    );
    assert_eq!(tokyo["repeat"]["rule"], "FREQ=DAILY;UNTIL=20260325");
    set_zone(&s, "Hawaii");
    // 05:00Z on 24 March is 19:00 on 23 March in Hawaii.
    let hawaii = due_task(
        &s,
        "hawaii",
        "2026-03-20",
        "FREQ=DAILY;UNTIL=20260324T050000Z",
    );
    assert_eq!(hawaii["repeat"]["rule"], "FREQ=DAILY;UNTIL=20260323");
}

/// Each frequency, with `INTERVAL` 1 and more, the ordinals, the last day
/// of the month, `BYSETPOS`, several weekdays and `WKST`: the deadlines of
/// the occurrences successive completions make.
#[test]
fn each_rule_gives_its_next_dates() {
    let s = start();
    let cases: &[(&str, &str, &[&str])] = &[
        ("FREQ=DAILY", "2026-03-10", &["2026-03-11", "2026-03-12"]),
        (
            "FREQ=DAILY;INTERVAL=3",
            "2026-03-10",
            &["2026-03-13", "2026-03-16"],
        ),
        ("FREQ=WEEKLY", "2026-03-10", &["2026-03-17", "2026-03-24"]),
        (
            "FREQ=WEEKLY;INTERVAL=2",
            "2026-03-10",
            &["2026-03-24", "2026-04-07"],
        ),
        ("FREQ=MONTHLY", "2026-03-15", &["2026-04-15", "2026-05-15"]),
        (
            "FREQ=MONTHLY;INTERVAL=2",
            "2026-03-15",
            &["2026-05-15", "2026-07-15"],
        ),
        ("FREQ=YEARLY", "2026-03-20", &["2027-03-20", "2028-03-20"]),
        (
            "FREQ=YEARLY;INTERVAL=4",
            "2026-03-20",
            &["2030-03-20", "2034-03-20"],
        ),
        // The first Monday of the month.
        (
            "FREQ=MONTHLY;BYDAY=1MO",
            "2026-03-10",
            &["2026-04-06", "2026-05-04", "2026-06-01"],
        ),
        // The last Friday of the month.
        (
            "FREQ=MONTHLY;BYDAY=-1FR",
            "2026-03-10",
            &["2026-03-27", "2026-04-24", "2026-05-29"],
        ),
        // The second Wednesday of every other month.
        (
            "FREQ=MONTHLY;INTERVAL=2;BYDAY=2WE",
            "2026-03-10",
            &["2026-03-11", "2026-05-13", "2026-07-08"],
        ),
        // The fourth Thursday of November.
        (
            "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH",
            "2026-03-10",
            &["2026-11-26", "2027-11-25", "2028-11-23"],
        ),
        // The 20th and the last Monday of the year.
        (
            "FREQ=YEARLY;BYDAY=20MO",
            "2026-03-10",
            &["2026-05-18", "2027-05-17"],
        ),
        (
            "FREQ=YEARLY;BYDAY=-1MO",
            "2026-03-10",
            &["2026-12-28", "2027-12-27"],
        ),
        (
            "FREQ=MONTHLY;BYMONTHDAY=-1",
            "2026-03-10",
            &["2026-03-31", "2026-04-30", "2026-05-31"],
        ),
        (
            "FREQ=MONTHLY;BYMONTHDAY=1,15",
            "2026-03-10",
            &["2026-03-15", "2026-04-01", "2026-04-15"],
        ),
        // The last weekday of the month (31 May 2026 is a Sunday).
        (
            "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
            "2026-05-01",
            &["2026-05-29", "2026-06-30", "2026-07-31"],
        ),
        (
            "FREQ=WEEKLY;BYDAY=MO,TH",
            "2026-03-10",
            &["2026-03-12", "2026-03-16", "2026-03-19"],
        ),
        // RFC 5545's WKST example on our dates: weeks from Monday put
        // Sunday 15 March in the first week; from Sunday, in the second.
        (
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU",
            "2026-03-10",
            &["2026-03-15", "2026-03-24", "2026-03-29"],
        ),
        (
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU",
            "2026-03-10",
            &["2026-03-22", "2026-03-24", "2026-04-05"],
        ),
        // 31 January monthly skips February; the last day does not.
        ("FREQ=MONTHLY", "2027-01-31", &["2027-03-31", "2027-05-31"]),
        (
            "FREQ=MONTHLY;BYMONTHDAY=-1",
            "2027-01-31",
            &["2027-02-28", "2027-03-31"],
        ),
        // 29 February yearly: the next leap year.
        ("FREQ=YEARLY", "2028-02-29", &["2032-02-29", "2036-02-29"]),
    ];
    for (rule, first, wanted) in cases {
        let mut task = due_task(&s, rule, first, rule);
        let mut got = Vec::new();
        for _ in 0..wanted.len() {
            task = complete_and_next(&s, &task);
            got.push(task["deadline_on"].as_str().unwrap().to_owned());
        }
        assert_eq!(got, *wanted, "{rule} from {first}");
        // Done with this series.
        set_status(&s, &task, "archived");
    }
    assert!(open_tasks(&s).is_empty());
}

// ---------------------------------------------------------------- rule 3

/// The next occurrence: a new task with the same title, description,
/// home, position, documents, `repeat` and `series_id`, its deadline
/// moved and its start and expiry at the same distance, made at the time
/// of the close, which the closed task names.
#[test]
fn the_next_occurrence_copies_the_task_and_moves_its_dates() {
    let s = start();
    let list = new_list(&s, "Home");
    let document = crate::common::search::document(&s, "Lease");
    new_task(&s, json!({"title": "other", "task_list_id": list}));
    let made = new_task(
        &s,
        json!({
            "title": "Pay rent",
            "description_html": "<p>To <b>Ann</b></p>",
            "task_list_id": list,
            "position": 7,
            "document_ids": [document],
            "start_on": "2026-03-08",
            "deadline_on": "2026-03-10",
            "expires_on": "2026-03-13",
            "repeat": {"rule": "FREQ=MONTHLY"},
        }),
    );
    let t = id(&made);
    assert_eq!(made["series_id"], t.as_str(), "its own id");
    assert_eq!(made["next_task_id"], Value::Null);
    assert_eq!(made["has_documents"], true);
    s.advance(3600);
    let now = now_string(&s);
    let closed = complete(&s, &made);
    assert_eq!(closed["status"], "completed");
    assert_eq!(closed["updated_at"], now.as_str());
    assert_eq!(closed["repeat"], made["repeat"], "the closed task keeps it");
    let next = next_of(&s, &closed);
    let n = id(&next);
    assert_ne!(n, t);
    assert_eq!(get_task(&s, &t), closed, "the closed task as answered");
    for field in [
        "title",
        "description_html",
        "description_text",
        "task_list_id",
        "person_id",
        "project_id",
        "position",
        "repeat",
        "series_id",
        "has_documents",
    ] {
        assert_eq!(next[field], made[field], "{field}: {next}");
    }
    assert_eq!(next["status"], "open");
    assert_eq!(next["deadline_on"], "2026-04-10");
    assert_eq!(next["start_on"], "2026-04-08", "two days before");
    assert_eq!(next["expires_on"], "2026-04-13", "three days after");
    assert_eq!(next["completed_at"], Value::Null);
    assert_eq!(next["archived_at"], Value::Null);
    assert_eq!(next["expired"], false);
    assert_eq!(next["next_task_id"], Value::Null);
    assert_eq!(next["created_at"], now.as_str());
    assert_eq!(next["updated_at"], now.as_str());
    let mut linked: Vec<String> = get_task_documents(&s, &document);
    linked.sort();
    let mut both = vec![t.clone(), n.clone()];
    both.sort();
    assert_eq!(linked, both, "the document is linked to both");

    // A task with a start date only moves its start.
    let started = new_task(
        &s,
        json!({"title": "Water plants", "start_on": "2026-03-11", "expires_on": "2026-03-12",
               "repeat": {"rule": "FREQ=WEEKLY"}}),
    );
    let moved = complete_and_next(&s, &started);
    assert_eq!(moved["start_on"], "2026-03-18");
    assert_eq!(moved["expires_on"], "2026-03-19");
    assert_eq!(moved["deadline_on"], Value::Null);
}

/// The ids of the tasks `document` is linked to.
#[track_caller]
fn get_task_documents(s: &Core, document: &str) -> Vec<String> {
    s.get(&format!("/documents/{document}")).expect(200).data()["task_ids"]
        .as_array()
        .expect("task_ids")
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

/// A close that also changes the task's title and deadline: the next
/// occurrence copies the task as saved; `repeat: null` in the close stops
/// the series.
#[test]
fn a_close_that_changes_the_task_copies_it_as_saved() {
    let s = start();
    let made = due_task(&s, "Pay", "2026-03-10", "FREQ=WEEKLY");
    let closed = patch_task(
        &s,
        &id(&made),
        json!({"status": "completed", "title": "Pay the rent", "deadline_on": "2026-03-12"}),
    )
    .expect(200)
    .data()
    .clone();
    let next = next_of(&s, &closed);
    assert_eq!(next["title"], "Pay the rent");
    assert_eq!(
        next["deadline_on"], "2026-03-17",
        "the rule's date after 12 March"
    );
    let stopped = patch_task(
        &s,
        &id(&next),
        json!({"status": "completed", "repeat": null}),
    )
    .expect(200)
    .data()
    .clone();
    assert_eq!(stopped["next_task_id"], Value::Null);
    assert!(open_tasks(&s).is_empty());
}

/// A close that also moves the task to another home: the next occurrence
/// has the closed task's home and position (rule 3, "the same ... home,
/// position").
#[test]
fn a_close_that_moves_the_task_makes_the_next_in_its_new_home() {
    let s = start();
    let a = new_list(&s, "A");
    let b = new_list(&s, "B");
    new_task(&s, json!({"title": "already in B", "task_list_id": b}));
    let made = new_task(
        &s,
        json!({"title": "Pay", "task_list_id": a, "deadline_on": "2026-03-10",
               "repeat": {"rule": "FREQ=WEEKLY"}}),
    );
    let moved = patch_task(
        &s,
        &id(&made),
        json!({"status": "completed", "task_list_id": b}),
    )
    .expect(200)
    .data()
    .clone();
    assert_eq!(moved["task_list_id"], b.as_str());
    let next = next_of(&s, &moved);
    assert_eq!(
        (&next["task_list_id"], &next["position"]),
        (&moved["task_list_id"], &moved["position"]),
        "the closed task's home and position: {next}"
    );
}

/// A close that also changes the task's documents: the next occurrence
/// has the closed task's documents as saved.
#[test]
fn a_close_that_changes_the_documents_gives_the_next_the_saved_ones() {
    let s = start();
    let first = crate::common::search::document(&s, "First");
    let second = crate::common::search::document(&s, "Second");
    let made = new_task(
        &s,
        json!({"title": "Pay", "deadline_on": "2026-03-10",
               "document_ids": [first], "repeat": {"rule": "FREQ=WEEKLY"}}),
    );
    let swapped = patch_task(
        &s,
        &id(&made),
        json!({"status": "completed", "document_ids": [second]}),
    )
    .expect(200)
    .data()
    .clone();
    let next = id(&next_of(&s, &swapped));
    let mut both = vec![id(&made), next.clone()];
    both.sort();
    let mut linked = get_task_documents(&s, &second);
    linked.sort();
    assert_eq!(linked, both, "the second document is linked to both");
    assert!(
        !get_task_documents(&s, &first).contains(&next),
        "the document the closed task no longer has is not the next's"
    );
}

/// A skip (`wont_do`) makes the next occurrence as a completion does.
#[test]
fn a_skip_makes_the_next_occurrence() {
    let s = start();
    let made = due_task(&s, "Gym", "2026-03-10", "FREQ=WEEKLY;BYDAY=TU,FR");
    s.advance(60);
    let skipped = set_status(&s, &made, "wont_do");
    assert_eq!(skipped["status"], "wont_do");
    let next = next_of(&s, &skipped);
    assert_eq!(next["deadline_on"], "2026-03-13");
    assert_eq!(next["series_id"], made["id"]);
    assert_eq!(next["created_at"], skipped["updated_at"]);
    // A skip of that one goes on too; then a completion.
    let after = next_of(&s, &set_status(&s, &next, "wont_do"));
    assert_eq!(after["deadline_on"], "2026-03-17");
    let last = complete_and_next(&s, &after);
    assert_eq!(last["deadline_on"], "2026-03-20");
    assert_eq!(open_deadlines(&s), ["2026-03-20"]);
}

/// For `from: due`, the next date is the rule's first after the closed
/// occurrence's date that is today or later: a late completion never
/// makes an overdue task.
#[test]
fn a_late_completion_makes_the_coming_date() {
    let s = start();
    let week = due_task(&s, "week late", "2026-03-10", "FREQ=WEEKLY");
    let nine = due_task(&s, "nine days late", "2026-03-10", "FREQ=WEEKLY");
    let month = due_task(&s, "month end", "2026-03-10", "FREQ=MONTHLY;BYMONTHDAY=-1");
    // A week late: today's date is the rule's.
    s.advance(7 * 86400);
    assert_eq!(complete_and_next(&s, &week)["deadline_on"], "2026-03-17");
    // Nine days late: 17 March has passed; the coming date.
    s.advance(2 * 86400);
    assert_eq!(complete_and_next(&s, &nine)["deadline_on"], "2026-03-24");
    // Late past 31 March: 30 April, not 31 March.
    at(&s, "2026-04-02T09:00:00Z");
    assert_eq!(complete_and_next(&s, &month)["deadline_on"], "2026-04-30");
}

/// An occurrence whose deadline was moved by hand: the next date is the
/// rule's first after the moved date (today or later).
#[test]
fn a_moved_occurrence_goes_on_from_its_own_date() {
    let s = start();
    // Tuesdays.
    let first = due_task(&s, "Tuesdays", "2026-03-10", "FREQ=WEEKLY");
    let second = complete_and_next(&s, &first);
    assert_eq!(second["deadline_on"], "2026-03-17");
    // Moved later, to Thursday: the next is the Tuesday after.
    s.advance(60);
    patch_task(&s, &id(&second), json!({"deadline_on": "2026-03-19"})).expect(200);
    let third = complete_and_next(&s, &second);
    assert_eq!(third["deadline_on"], "2026-03-24");
    // Moved a fortnight on: the Tuesday after that.
    s.advance(60);
    patch_task(&s, &id(&third), json!({"deadline_on": "2026-04-08"})).expect(200);
    let fourth = complete_and_next(&s, &third);
    assert_eq!(fourth["deadline_on"], "2026-04-14");
    // Moved earlier than the date the rule gave it (14 April to 1 April):
    // the next is the rule's first date after 1 April, the 7th, counted
    // from the series' first date.
    s.advance(60);
    patch_task(&s, &id(&fourth), json!({"deadline_on": "2026-04-01"})).expect(200);
    let fifth = complete_and_next(&s, &fourth);
    assert_eq!(fifth["deadline_on"], "2026-04-07");
}

/// `from: completion`: the day it closed in the owner's zone plus the
/// interval, early or late; a month from 31 January is the last day of
/// February.
#[test]
fn from_completion_counts_from_the_day_it_closed() {
    let s = start();
    let every3 = |title: &str, deadline: &str| {
        new_task(
            &s,
            json!({"title": title, "deadline_on": deadline,
                   "repeat": {"rule": "FREQ=DAILY;INTERVAL=3", "from": "completion"}}),
        )
    };
    let early = every3("early", "2026-03-20");
    let on_time = every3("on time", "2026-03-12");
    let weekly = new_task(
        &s,
        json!({"title": "weekly", "start_on": "2026-02-27", "deadline_on": "2026-03-01",
               "repeat": {"rule": "FREQ=WEEKLY", "from": "completion"}}),
    );
    assert_eq!(early["repeat"]["from"], "completion");
    // Closed early, on 10 March: 13 March, whatever the deadline.
    let next = complete_and_next(&s, &early);
    assert_eq!(next["deadline_on"], "2026-03-13");
    assert_eq!(next["repeat"], early["repeat"]);
    // Closed late, nine days after its deadline: a week from today, the
    // start at the same distance.
    let next = complete_and_next(&s, &weekly);
    assert_eq!(next["deadline_on"], "2026-03-17");
    assert_eq!(next["start_on"], "2026-03-15");
    // Closed two days later, on its deadline: 15 March.
    s.advance(2 * 86400);
    assert_eq!(complete_and_next(&s, &on_time)["deadline_on"], "2026-03-15");

    // A month from 31 January.
    at(&s, "2027-01-31T12:00:00Z");
    let monthly = new_task(
        &s,
        json!({"title": "monthly", "deadline_on": "2027-01-31",
               "repeat": {"rule": "FREQ=MONTHLY", "from": "completion"}}),
    );
    let next = complete_and_next(&s, &monthly);
    assert_eq!(next["deadline_on"], "2027-02-28");
    at(&s, "2028-01-31T12:00:00Z");
    let leap = new_task(
        &s,
        json!({"title": "leap", "deadline_on": "2028-01-25",
               "repeat": {"rule": "FREQ=MONTHLY", "from": "completion"}}),
    );
    assert_eq!(complete_and_next(&s, &leap)["deadline_on"], "2028-02-29");
}

// ---------------------------------------------------------------- COUNT and UNTIL

/// `COUNT` counts the series' dates from its first one; the last
/// occurrence's close makes nothing and its `next_task_id` stays null.
#[test]
fn count_ends_a_series() {
    let s = start();
    // Three dates: two next occurrences.
    let first = due_task(&s, "three", "2026-03-10", "FREQ=DAILY;COUNT=3");
    let second = complete_and_next(&s, &first);
    let third = complete_and_next(&s, &second);
    assert_eq!(third["deadline_on"], "2026-03-12");
    let last = complete(&s, &third);
    assert_eq!(last["next_task_id"], Value::Null);
    assert_eq!(get_task(&s, &id(&third))["next_task_id"], Value::Null);
    assert!(open_tasks(&s).is_empty(), "the series ended");

    // The first date counts though the rule would not give it: a Tuesday
    // with Mondays, COUNT=2, makes one next occurrence.
    let tuesday = due_task(&s, "mondays", "2026-03-10", "FREQ=WEEKLY;BYDAY=MO;COUNT=2");
    let monday = complete_and_next(&s, &tuesday);
    assert_eq!(monday["deadline_on"], "2026-03-16");
    assert_eq!(complete(&s, &monday)["next_task_id"], Value::Null);
    assert!(open_tasks(&s).is_empty());

    // Dates a late completion passes over count too: 10, 11, 12 and 13
    // March are four of five.
    let five = due_task(&s, "five", "2026-03-10", "FREQ=DAILY;COUNT=5");
    s.advance(3 * 86400);
    let fourth = complete_and_next(&s, &five);
    assert_eq!(fourth["deadline_on"], "2026-03-13");
    let fifth = complete_and_next(&s, &fourth);
    assert_eq!(fifth["deadline_on"], "2026-03-14");
    assert_eq!(complete(&s, &fifth)["next_task_id"], Value::Null);
    assert!(open_tasks(&s).is_empty());

    // From completion: COUNT=2 is one next occurrence.
    let twice = new_task(
        &s,
        json!({"title": "twice", "deadline_on": "2026-03-13",
               "repeat": {"rule": "FREQ=DAILY;COUNT=2", "from": "completion"}}),
    );
    let again = complete_and_next(&s, &twice);
    assert_eq!(again["deadline_on"], "2026-03-14");
    assert_eq!(complete(&s, &again)["next_task_id"], Value::Null);
    assert!(open_tasks(&s).is_empty());
}

/// `UNTIL` (inclusive) ends a series.
#[test]
fn until_ends_a_series() {
    let s = start();
    let first = due_task(&s, "until", "2026-03-10", "FREQ=WEEKLY;UNTIL=20260324");
    let second = complete_and_next(&s, &first);
    let third = complete_and_next(&s, &second);
    assert_eq!(
        (&second["deadline_on"], &third["deadline_on"]),
        (&json!("2026-03-17"), &json!("2026-03-24"))
    );
    assert_eq!(complete(&s, &third)["next_task_id"], Value::Null);
    assert!(open_tasks(&s).is_empty());

    // Completed late past UNTIL: nothing, though a date was skipped.
    let late = due_task(&s, "late", "2026-03-24", "FREQ=DAILY;UNTIL=20260326");
    at(&s, "2026-03-27T09:00:00Z");
    assert_eq!(complete(&s, &late)["next_task_id"], Value::Null);
    assert!(open_tasks(&s).is_empty());

    // An overdue task whose UNTIL is past but after its own date: taken,
    // and its close makes nothing.
    let over = due_task(&s, "over", "2026-03-20", "FREQ=DAILY;UNTIL=20260322");
    assert_eq!(over["repeat"]["rule"], "FREQ=DAILY;UNTIL=20260322");
    assert_eq!(complete(&s, &over)["next_task_id"], Value::Null);
    assert!(open_tasks(&s).is_empty());

    // From completion: the day it closed plus the interval, up to UNTIL.
    let done = new_task(
        &s,
        json!({"title": "done", "deadline_on": "2026-03-27",
               "repeat": {"rule": "FREQ=DAILY;UNTIL=20260329", "from": "completion"}}),
    );
    let next = complete_and_next(&s, &done);
    assert_eq!(next["deadline_on"], "2026-03-28");
    s.advance(86400);
    let last = complete_and_next(&s, &next);
    assert_eq!(last["deadline_on"], "2026-03-29");
    s.advance(86400);
    assert_eq!(complete(&s, &last)["next_task_id"], Value::Null);
    assert!(open_tasks(&s).is_empty());
}

// ---------------------------------------------------------------- expiry and archiving

/// Archiving an open repeating task by hand ends the series; its expiry
/// (archived at the next request after midnight in the owner's zone)
/// makes the next occurrence.
#[test]
fn archiving_ends_a_series_and_expiry_goes_on() {
    let s = start();
    let put_away = due_task(&s, "put away", "2026-03-10", "FREQ=DAILY");
    let archived = set_status(&s, &put_away, "archived");
    assert_eq!(archived["next_task_id"], Value::Null);
    assert!(open_tasks(&s).is_empty(), "by hand: nothing");

    set_zone(&s, "Tokyo");
    // 09:00Z is 18:00 on 10 March in Tokyo.
    let made = new_task(
        &s,
        json!({"title": "expiring", "deadline_on": "2026-03-10", "expires_on": "2026-03-10",
               "repeat": {"rule": "FREQ=DAILY"}}),
    );
    // 14:59:59Z is 23:59:59 in Tokyo: still open, nothing made.
    at(&s, "2026-03-10T14:59:59Z");
    assert_eq!(open_tasks(&s).len(), 1);
    // Past midnight in Tokyo: archived, and its next made.
    at(&s, "2026-03-10T15:00:30Z");
    let open = open_tasks(&s);
    assert_eq!(open.len(), 1, "{open:?}");
    let expired = get_task(&s, &id(&made));
    assert_eq!(expired["status"], "archived");
    assert_eq!(expired["expired"], true);
    assert_eq!(expired["archived_at"], "2026-03-10T15:00:00.000Z");
    let next = next_of(&s, &expired);
    assert_eq!(next, open[0]);
    assert_eq!(next["deadline_on"], "2026-03-11");
    assert_eq!(next["expires_on"], "2026-03-11");
    assert_eq!(next["series_id"], made["id"]);
    assert_eq!(next["repeat"], made["repeat"]);
    assert_eq!(next["status"], "open");
    assert_eq!(next["expired"], false);
    assert_eq!(next["created_at"], next["updated_at"]);

    // Days later, at one request: the next occurrence is the coming date.
    at(&s, "2026-03-15T03:00:00Z");
    assert_eq!(s.get("/task_counts").expect(200).data()["inbox"], 1);
    let expired = get_task(&s, &id(&next));
    assert_eq!(expired["expired"], true);
    let coming = next_of(&s, &expired);
    assert_eq!(coming["deadline_on"], "2026-03-15", "today in Tokyo");
    assert_eq!(coming["expires_on"], "2026-03-15");
    assert_eq!(open_tasks(&s).len(), 1);
}

/// An expiry noticed late, for a completion-based series: the day it is
/// noticed plus the interval; reopening the expired task undoes the next
/// occurrence as for a completion.
#[test]
fn an_expiry_noticed_late_and_undone() {
    let s = start();
    let made = new_task(
        &s,
        json!({"title": "every other day", "deadline_on": "2026-03-10", "expires_on": "2026-03-10",
               "repeat": {"rule": "FREQ=DAILY;INTERVAL=2", "from": "completion"}}),
    );
    at(&s, "2026-03-13T09:00:00Z");
    let open = open_tasks(&s);
    assert_eq!(open.len(), 1);
    assert_eq!(open[0]["deadline_on"], "2026-03-15");
    assert_eq!(open[0]["expires_on"], "2026-03-15");
    let expired = get_task(&s, &id(&made));
    assert_eq!(expired["next_task_id"], open[0]["id"]);
    // Reopened: the untouched next goes; the passed expiry is cleared.
    let back = set_status(&s, &made, "open");
    assert_eq!(back["expires_on"], Value::Null);
    assert_eq!(back["repeat"], made["repeat"]);
    assert_eq!(back["next_task_id"], Value::Null);
    assert!(deletions(&s).contains(&records(&[("task", open[0]["id"].as_str().unwrap())])[0]));
    assert_eq!(open_tasks(&s), [back]);
}

// ---------------------------------------------------------------- rule 4

/// The same close sent twice (a retry) makes one next occurrence; so does
/// a skip then a completion.
#[test]
fn a_retried_close_makes_one_next_occurrence() {
    let s = start();
    let made = due_task(&s, "retried", "2026-03-10", "FREQ=DAILY");
    let first = complete(&s, &made);
    s.advance(5);
    let again = patch_task(&s, &id(&made), json!({"status": "completed"})).expect(200);
    assert_eq!(again.data(), &first, "the retry changes nothing");
    assert_eq!(open_tasks(&s).len(), 1);
    assert_eq!(all(&s, EVERY).len(), 2);

    let skipped = due_task(&s, "skipped", "2026-03-10", "FREQ=DAILY");
    let skip = set_status(&s, &skipped, "wont_do");
    s.advance(5);
    let done = set_status(&s, &skipped, "completed");
    assert_eq!(done["next_task_id"], skip["next_task_id"]);
    assert_eq!(open_tasks(&s).len(), 2);
    assert_eq!(all(&s, EVERY).len(), 4);
}

// ---------------------------------------------------------------- rule 5

/// Reopening a closed occurrence whose next is untouched deletes that
/// one for good (with a deletion record, and no restore): "done" then
/// "undo" leaves the task there was.
#[test]
fn reopening_deletes_an_untouched_next_occurrence() {
    let s = start();
    let list = new_list(&s, "Home");
    let made = new_task(
        &s,
        json!({"title": "Bins", "task_list_id": list, "deadline_on": "2026-03-10",
               "repeat": {"rule": "FREQ=WEEKLY"}}),
    );
    s.advance(60);
    let next = complete_and_next(&s, &made);
    let n = id(&next);
    s.advance(5);
    let now = now_string(&s);
    let reopened = set_status(&s, &made, "open");
    assert_eq!(reopened, with_updated_at(&made, &now), "the task there was");
    assert_eq!(reopened["repeat"], made["repeat"]);
    assert_eq!(reopened["next_task_id"], Value::Null);
    s.get(&format!("/tasks/{n}"))
        .expect_error(404, "not_found", None);
    assert!(deletions(&s).contains(&records(&[("task", n.as_str())])[0]));
    send(s.req("POST", &format!("/tasks/{n}/restoration"))).expect_error(404, "not_found", None);
    assert_eq!(open_tasks(&s), std::slice::from_ref(&reopened));
    // Done again: a new next occurrence, on the same date.
    s.advance(5);
    let again = complete_and_next(&s, &reopened);
    assert_ne!(id(&again), n);
    assert_eq!(again["deadline_on"], "2026-03-17");
    assert_eq!(open_tasks(&s).len(), 1);

    // A skip undone the same way.
    let other = due_task(&s, "skip", "2026-03-11", "FREQ=DAILY");
    let skipped = set_status(&s, &other, "wont_do");
    let gone = skipped["next_task_id"].as_str().unwrap().to_owned();
    let back = set_status(&s, &other, "open");
    assert_eq!(back["repeat"], other["repeat"]);
    assert_eq!(back["next_task_id"], Value::Null);
    s.get(&format!("/tasks/{gone}"))
        .expect_error(404, "not_found", None);
}

/// Reopening a closed occurrence whose next has been changed keeps that
/// one, which carries the series; the reopened task stops repeating.
#[test]
fn reopening_keeps_a_changed_next_occurrence() {
    let s = start();
    let made = due_task(&s, "Bins", "2026-03-10", "FREQ=WEEKLY");
    let next = complete_and_next(&s, &made);
    s.advance(60);
    let changed = patch_task(&s, &id(&next), json!({"title": "Bins (green)"}))
        .expect(200)
        .data()
        .clone();
    assert_ne!(changed["updated_at"], changed["created_at"]);
    s.advance(5);
    let reopened = set_status(&s, &made, "open");
    assert_eq!(reopened["status"], "open");
    assert_eq!(reopened["repeat"], Value::Null);
    assert_eq!(reopened["series_id"], made["id"], "keeps its series id");
    assert_eq!(get_task(&s, &id(&next)), changed, "the changed one stays");
    assert!(deletions(&s).is_empty());
    assert_eq!(open_tasks(&s).len(), 2);
    // Closing the reopened task makes nothing; the changed one goes on.
    assert_eq!(complete(&s, &reopened)["next_task_id"], Value::Null);
    let after = complete_and_next(&s, &changed);
    assert_eq!(after["deadline_on"], "2026-03-24");
    assert_eq!(after["title"], "Bins (green)");
    assert_eq!(after["series_id"], made["id"]);

    // A next that has been closed itself is changed too.
    let first = due_task(&s, "Daily", "2026-03-10", "FREQ=DAILY");
    let second = complete_and_next(&s, &first);
    s.advance(60);
    let third = complete_and_next(&s, &second);
    s.advance(5);
    let reopened = set_status(&s, &first, "open");
    assert_eq!(reopened["repeat"], Value::Null);
    assert_eq!(get_task(&s, &id(&second))["status"], "completed");
    assert_eq!(get_task(&s, &id(&third))["status"], "open");
}

/// Reopening with a new `repeat` in the same change: the untouched next
/// goes, so the series has no other open occurrence and keeps its id.
#[test]
fn reopening_with_a_new_repeat_keeps_the_series() {
    let s = start();
    let made = due_task(&s, "Bins", "2026-03-10", "FREQ=WEEKLY");
    let next = complete_and_next(&s, &made);
    s.advance(5);
    let back = patch_task(
        &s,
        &id(&made),
        json!({"status": "open", "repeat": {"rule": "FREQ=DAILY"}}),
    )
    .expect(200)
    .data()
    .clone();
    s.get(&format!("/tasks/{}", id(&next)))
        .expect_error(404, "not_found", None);
    assert_eq!(back["repeat"]["rule"], "FREQ=DAILY");
    assert_eq!(back["series_id"], made["id"], "no other open occurrence");
    assert_eq!(complete_and_next(&s, &back)["deadline_on"], "2026-03-11");
}

// ---------------------------------------------------------------- rule 6

/// Deleting an occurrence deletes it only; the series makes nothing more
/// unless it is restored, and then goes on.
#[test]
fn a_deleted_occurrence_ends_the_series_until_it_is_restored() {
    let s = start();
    let made = due_task(&s, "Bins", "2026-03-10", "FREQ=WEEKLY");
    let closed = complete(&s, &made);
    let next = next_of(&s, &closed);
    let n = id(&next);
    s.delete(&format!("/tasks/{n}")).expect(204);
    assert_eq!(get_task(&s, &id(&made)), closed, "the closed one stays");
    assert!(open_tasks(&s).is_empty(), "nothing made in its place");
    assert!(repeats(&s, "2026-03-10", "2026-04-20").is_empty());
    s.advance(10);
    let back = send(s.req("POST", &format!("/tasks/{n}/restoration")))
        .expect(200)
        .data()
        .clone();
    assert_eq!(back["repeat"], next["repeat"]);
    assert_eq!(back["series_id"], next["series_id"]);
    assert_eq!(
        repeats(&s, "2026-03-10", "2026-03-31"),
        pairs(&[("2026-03-24", "Bins"), ("2026-03-31", "Bins")])
    );
    let after = complete_and_next(&s, &back);
    assert_eq!(after["deadline_on"], "2026-03-24");

    // The first occurrence deleted: no occurrence is left; restored, it
    // goes on.
    let first = due_task(&s, "Gym", "2026-03-12", "FREQ=WEEKLY");
    s.delete(&format!("/tasks/{}", id(&first))).expect(204);
    assert_eq!(open_tasks(&s).len(), 1);
    s.advance(10);
    let back = send(s.req("POST", &format!("/tasks/{}/restoration", id(&first))))
        .expect(200)
        .data()
        .clone();
    assert_eq!(back["repeat"], first["repeat"]);
    assert_eq!(complete_and_next(&s, &back)["deadline_on"], "2026-03-19");
}

/// An open occurrence deleted just before its expiry's midnight and
/// restored just after comes back archived by its expiry, which makes the
/// next occurrence.
#[test]
fn a_restored_occurrence_that_expired_makes_the_next() {
    let s = start();
    let made = new_task(
        &s,
        json!({"title": "expiring", "deadline_on": "2026-03-10", "expires_on": "2026-03-10",
               "repeat": {"rule": "FREQ=DAILY"}}),
    );
    at(&s, "2026-03-10T23:59:55Z");
    s.delete(&format!("/tasks/{}", id(&made))).expect(204);
    at(&s, "2026-03-11T00:00:05Z");
    assert!(open_tasks(&s).is_empty());
    let back = send(s.req("POST", &format!("/tasks/{}/restoration", id(&made))))
        .expect(200)
        .data()
        .clone();
    assert_eq!(back["status"], "archived");
    assert_eq!(back["expired"], true);
    let next = next_of(&s, &back);
    assert_eq!(next["deadline_on"], "2026-03-11");
    assert_eq!(open_tasks(&s), [next]);
}

/// A series keeps to one open occurrence: a next occurrence restored
/// after its closed occurrence was reopened does not make a second
/// repeating one.
#[test]
fn a_series_has_at_most_one_open_occurrence() {
    let s = start();
    let made = due_task(&s, "Bins", "2026-03-10", "FREQ=WEEKLY");
    let next = complete_and_next(&s, &made);
    s.delete(&format!("/tasks/{}", id(&next))).expect(204);
    let reopened = set_status(&s, &made, "open");
    assert_eq!(reopened["repeat"], made["repeat"], "nothing to undo");
    s.advance(10);
    send(s.req("POST", &format!("/tasks/{}/restoration", id(&next)))).expect(200);
    let series = made["id"].as_str().unwrap();
    let repeating: Vec<Value> = open_tasks(&s)
        .into_iter()
        .filter(|t| t["series_id"] == series && !t["repeat"].is_null())
        .collect();
    assert_eq!(repeating.len(), 1, "{repeating:?}");
    // Closing each makes one next occurrence in all.
    for t in open_tasks(&s) {
        complete(&s, &t);
    }
    assert_eq!(open_tasks(&s).len(), 1);
}

// ---------------------------------------------------------------- rule 2

/// `series_id` is the task's own id when `repeat` is first set; `null`
/// stops the series and keeps it; setting `repeat` where the series has
/// another open occurrence starts a new series.
#[test]
fn setting_repeat_chooses_the_series() {
    let s = start();
    let plain = new_task(&s, json!({"title": "plain", "deadline_on": "2026-03-10"}));
    assert_eq!(plain["repeat"], Value::Null);
    assert_eq!(plain["series_id"], Value::Null);
    assert_eq!(plain["next_task_id"], Value::Null);
    let t = id(&plain);
    let set = patch_task(&s, &t, json!({"repeat": {"rule": "FREQ=DAILY"}}))
        .expect(200)
        .data()
        .clone();
    assert_eq!(set["series_id"], t.as_str());
    assert_eq!(set["repeat"], json!({"rule": "FREQ=DAILY", "from": "due"}));
    // The same repeat, spelt otherwise, changes nothing.
    s.advance(60);
    let same = patch_task(
        &s,
        &t,
        json!({"repeat": {"rule": "rrule:freq=daily;interval=1"}}),
    )
    .expect(200);
    assert_eq!(same.data(), &set);
    // null stops it and keeps the series id; closing makes nothing.
    let stopped = patch_task(&s, &t, json!({"repeat": null}))
        .expect(200)
        .data()
        .clone();
    assert_eq!(stopped["repeat"], Value::Null);
    assert_eq!(stopped["series_id"], t.as_str());
    // Set again on an open task: the same series.
    let again = patch_task(&s, &t, json!({"repeat": {"rule": "FREQ=WEEKLY"}}))
        .expect(200)
        .data()
        .clone();
    assert_eq!(again["series_id"], t.as_str());
    let stopped = patch_task(&s, &t, json!({"repeat": null}))
        .expect(200)
        .data()
        .clone();
    assert_eq!(stopped["series_id"], t.as_str());
    assert_eq!(complete(&s, &stopped)["next_task_id"], Value::Null);
    assert!(open_tasks(&s).is_empty());

    // A series S (the first task's id) with N open and changed, its first
    // task T reopened: T no longer repeats.
    let first = due_task(&s, "T", "2026-03-11", "FREQ=WEEKLY");
    let series = id(&first);
    let n = complete_and_next(&s, &first);
    s.advance(60);
    patch_task(&s, &id(&n), json!({"title": "N"})).expect(200);
    s.advance(60);
    let reopened = set_status(&s, &first, "open");
    assert_eq!(reopened["repeat"], Value::Null);
    // N closed, and N2 changed; N reopened stops repeating too.
    let n2 = complete_and_next(&s, &get_task(&s, &id(&n)));
    s.advance(60);
    patch_task(&s, &id(&n2), json!({"title": "N2"})).expect(200);
    s.advance(60);
    let n_again = set_status(&s, &n, "open");
    assert_eq!(n_again["repeat"], Value::Null);
    assert_eq!(n_again["series_id"], series.as_str());
    // N repeating again while N2 is open: a new series, N's own id (it
    // names no series).
    let n_new = patch_task(&s, &id(&n), json!({"repeat": {"rule": "FREQ=MONTHLY"}}))
        .expect(200)
        .data()
        .clone();
    assert_eq!(n_new["series_id"], n["id"]);
    // T repeating again while N2 is open: T's own id names series S, so a
    // new id.
    let t_new = patch_task(&s, &series, json!({"repeat": {"rule": "FREQ=MONTHLY"}}))
        .expect(200)
        .data()
        .clone();
    let t_series = t_new["series_id"].as_str().expect("a series").to_owned();
    assert_ne!(t_series, series);
    assert_ne!(t_series, id(&n));
    assert_eq!(t_series.len(), 26, "a ULID");
    // Each series makes its own next occurrence.
    assert_eq!(
        complete_and_next(&s, &t_new)["series_id"],
        t_series.as_str()
    );
    assert_eq!(complete_and_next(&s, &n_new)["series_id"], n["id"]);
    assert_eq!(complete_and_next(&s, &n2)["series_id"], series.as_str());
}

// ---------------------------------------------------------------- rule 7

/// `GET /calendar`'s `repeats`: the dates each `from: due` series' open
/// occurrence gives after its own date, today or later, inside the range,
/// by date then title; none for `from: completion`.
#[test]
fn the_calendar_shows_the_dates_to_come() {
    let s = start();
    // Sundays from 1 March (overdue): 8 March has passed.
    let overdue = due_task(&s, "Beta", "2026-03-01", "FREQ=WEEKLY");
    due_task(&s, "Alpha", "2026-03-10", "FREQ=DAILY;INTERVAL=7");
    due_task(&s, "beta two", "2026-03-10", "FREQ=WEEKLY;COUNT=3");
    due_task(&s, "Gamma", "2026-03-30", "FREQ=WEEKLY;UNTIL=20260406");
    // A start date only: its dates too.
    new_task(
        &s,
        json!({"title": "Delta", "start_on": "2026-03-10",
               "repeat": {"rule": "FREQ=WEEKLY;UNTIL=20260317"}}),
    );
    new_task(
        &s,
        json!({"title": "After", "deadline_on": "2026-03-10",
               "repeat": {"rule": "FREQ=DAILY", "from": "completion"}}),
    );
    new_task(&s, json!({"title": "Plain", "deadline_on": "2026-03-12"}));
    let done = due_task(&s, "Done", "2026-03-10", "FREQ=DAILY;COUNT=2");
    complete(&s, &done);
    let page = s
        .get("/calendar?from=2026-03-01&to=2026-04-11")
        .expect(200)
        .data()
        .clone();
    assert_eq!(
        repeats(&s, "2026-03-01", "2026-04-11"),
        pairs(&[
            ("2026-03-15", "Beta"),
            ("2026-03-17", "Alpha"),
            ("2026-03-17", "beta two"),
            ("2026-03-17", "Delta"),
            ("2026-03-22", "Beta"),
            ("2026-03-24", "Alpha"),
            ("2026-03-24", "beta two"),
            ("2026-03-29", "Beta"),
            ("2026-03-31", "Alpha"),
            ("2026-04-05", "Beta"),
            ("2026-04-06", "Gamma"),
            ("2026-04-07", "Alpha"),
        ])
    );
    // Each `task` is the open occurrence as it is.
    let first = &page["repeats"][0]["task"];
    assert_eq!(first, &get_task(&s, &id(&overdue)));
    // The calendar's tasks are real tasks only.
    let mut due: Vec<&str> = page["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["title"].as_str().unwrap())
        .collect();
    due.sort();
    assert_eq!(
        due,
        [
            "After", "Alpha", "Beta", "Done", "Done", "Gamma", "Plain", "beta two"
        ]
    );
    // A range inside: only its dates.
    assert_eq!(
        repeats(&s, "2026-03-24", "2026-03-29"),
        pairs(&[
            ("2026-03-24", "Alpha"),
            ("2026-03-24", "beta two"),
            ("2026-03-29", "Beta"),
        ])
    );
    // A range in the past: nothing.
    assert!(repeats(&s, "2026-02-01", "2026-03-09").is_empty());
    // The clock moves on: dates before today go.
    at(&s, "2026-03-25T09:00:00Z");
    assert_eq!(
        repeats(&s, "2026-03-20", "2026-03-31"),
        pairs(&[("2026-03-29", "Beta"), ("2026-03-31", "Alpha")])
    );
}

/// The calendar's dates for a moved occurrence: the rule's dates after
/// its own (moved) date.
#[test]
fn the_calendar_follows_a_moved_occurrence() {
    let s = start();
    let made = due_task(&s, "Bins", "2026-03-10", "FREQ=WEEKLY");
    let next = complete_and_next(&s, &made);
    s.advance(60);
    patch_task(&s, &id(&next), json!({"deadline_on": "2026-03-19"})).expect(200);
    assert_eq!(
        repeats(&s, "2026-03-10", "2026-04-07"),
        pairs(&[
            ("2026-03-24", "Bins"),
            ("2026-03-31", "Bins"),
            ("2026-04-07", "Bins"),
        ])
    );
}

/// At most 500 repetitions: the first 500 by date then title.
#[test]
fn the_calendar_shows_at_most_500_repeats() {
    let s = start();
    for n in 0..13 {
        due_task(&s, &format!("d{n:02}"), "2026-03-10", "FREQ=DAILY");
    }
    let got = repeats(&s, "2026-03-10", "2026-04-20");
    // 13 series by 41 dates (11 March to 20 April) is 533.
    assert_eq!(got.len(), 500);
    let mut sorted = got.clone();
    sorted.sort();
    assert_eq!(got, sorted, "by date then title");
    assert_eq!(got[0], ("2026-03-11".to_owned(), "d00".to_owned()));
    // 500 = 38 dates of 13, then 6: the 39th date, 18 April.
    assert_eq!(got[499], ("2026-04-18".to_owned(), "d05".to_owned()));
}

// ---------------------------------------------------------------- rule 8

/// Views, counts and search see real tasks only, not the dates to come.
#[test]
fn views_counts_and_search_see_real_tasks_only() {
    let s = start();
    let list = new_list(&s, "Garden");
    let made = new_task(
        &s,
        json!({"title": "Water the ferns", "task_list_id": list,
               "start_on": "2026-03-11", "deadline_on": "2026-03-12",
               "repeat": {"rule": "FREQ=DAILY"}}),
    );
    let t = id(&made);
    let only = |query: &str| {
        let ids: Vec<String> = all(&s, &format!("/tasks?{query}")).iter().map(id).collect();
        ids
    };
    for view in ["overview", "planned", "due_soon", "due_not_today"] {
        assert_eq!(
            only(&format!("view={view}")),
            std::slice::from_ref(&t),
            "{view}"
        );
    }
    assert_eq!(only("status=open"), std::slice::from_ref(&t));
    let counts = s.get("/task_counts").expect(200).data().clone();
    assert_eq!(counts["task_lists"][0]["open"], 1);
    assert_eq!(counts["due_soon"], 1);
    let page = s.get("/tasks?status=open&count=true").expect(200);
    assert_eq!(page.body["meta"]["total_count"], 1);
    let found = |s: &Core| -> Vec<String> {
        s.get("/search?q=ferns&types=task")
            .expect(200)
            .data()
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|g| g["results"].as_array().unwrap().clone())
            .map(|r| id(&r))
            .collect()
    };
    assert_eq!(found(&s), std::slice::from_ref(&t));
    // After a close: the closed task and its next occurrence, no more.
    let next = complete_and_next(&s, &made);
    assert_eq!(only("status=open"), [id(&next)]);
    assert_eq!(only("view=logbook"), std::slice::from_ref(&t));
    assert_eq!(s.get("/task_counts").data()["task_lists"][0]["open"], 1);
    let mut seen = found(&s);
    seen.sort();
    let mut both = [t, id(&next)];
    both.sort();
    assert!(seen.iter().all(|i| both.contains(i)), "{seen:?}");
}

// ---------------------------------------------------------------- the clock

/// The clock moving across month ends and leap days.
#[test]
fn month_ends_and_leap_days() {
    let s = start();
    at(&s, "2028-02-28T09:00:00Z");
    let daily = due_task(&s, "daily", "2028-02-28", "FREQ=DAILY");
    let month_end = due_task(&s, "month end", "2028-01-31", "FREQ=MONTHLY;BYMONTHDAY=-1");
    let feb29 = complete_and_next(&s, &daily);
    assert_eq!(feb29["deadline_on"], "2028-02-29");
    // Completed late, on 29 February: the last day is today.
    at(&s, "2028-02-29T22:00:00Z");
    let last = complete_and_next(&s, &month_end);
    assert_eq!(last["deadline_on"], "2028-02-29");
    // From completion, on 29 February: a month on is 29 March.
    let after = new_task(
        &s,
        json!({"title": "after", "deadline_on": "2028-02-29",
               "repeat": {"rule": "FREQ=MONTHLY", "from": "completion"}}),
    );
    assert_eq!(complete_and_next(&s, &after)["deadline_on"], "2028-03-29");
    let march1 = complete_and_next(&s, &feb29);
    assert_eq!(march1["deadline_on"], "2028-03-01");
    at(&s, "2028-03-01T08:00:00Z");
    let march = complete_and_next(&s, &last);
    assert_eq!(march["deadline_on"], "2028-03-31");
    at(&s, "2028-03-31T23:00:00Z");
    let april = complete_and_next(&s, &march);
    let today = complete_and_next(&s, &march1);
    assert_eq!(today["deadline_on"], "2028-03-31", "today, not overdue");
    at(&s, "2028-04-01T00:00:00Z");
    assert_eq!(complete_and_next(&s, &today)["deadline_on"], "2028-04-01");
    assert_eq!(april["deadline_on"], "2028-04-30");
}

/// "Today" is the owner's day in Europe/London, on the days the clocks
/// change.
#[test]
fn today_is_the_owners_day_across_clock_changes() {
    let s = start();
    set_zone(&s, "London");
    let after = |title: &str| {
        new_task(
            &s,
            json!({"title": title, "deadline_on": "2026-03-27",
                   "repeat": {"rule": "FREQ=DAILY", "from": "completion"}}),
        )
    };
    let on_due = |title: &str| due_task(&s, title, "2026-03-27", "FREQ=DAILY");
    let (a1, a2, d1, d2) = (after("a1"), after("a2"), on_due("d1"), on_due("d2"));
    // Spring: 22:30Z on 29 March is 23:30 BST, still the 29th.
    at(&s, "2026-03-29T22:30:00Z");
    assert_eq!(complete_and_next(&s, &a1)["deadline_on"], "2026-03-30");
    assert_eq!(complete_and_next(&s, &d1)["deadline_on"], "2026-03-29");
    // 23:30Z on 29 March is 00:30 BST on the 30th.
    at(&s, "2026-03-29T23:30:00Z");
    assert_eq!(complete_and_next(&s, &a2)["deadline_on"], "2026-03-31");
    assert_eq!(complete_and_next(&s, &d2)["deadline_on"], "2026-03-30");

    // Autumn: 23:30Z on 24 October is 00:30 BST on the 25th, the day the
    // clocks go back; 23:30Z on the 25th is 23:30 GMT, still the 25th.
    at(&s, "2026-10-24T12:00:00Z");
    let b1 = new_task(
        &s,
        json!({"title": "b1", "deadline_on": "2026-10-24",
               "repeat": {"rule": "FREQ=DAILY", "from": "completion"}}),
    );
    let b2 = new_task(
        &s,
        json!({"title": "b2", "deadline_on": "2026-10-24",
               "repeat": {"rule": "FREQ=DAILY", "from": "completion"}}),
    );
    let e1 = due_task(&s, "e1", "2026-10-23", "FREQ=DAILY");
    at(&s, "2026-10-24T23:30:00Z");
    assert_eq!(complete_and_next(&s, &b1)["deadline_on"], "2026-10-26");
    assert_eq!(complete_and_next(&s, &e1)["deadline_on"], "2026-10-25");
    at(&s, "2026-10-25T23:30:00Z");
    assert_eq!(complete_and_next(&s, &b2)["deadline_on"], "2026-10-26");
}

// ---------------------------------------------------------------- refusals

/// Every refused repeat is 422 `validation_failed` keyed `repeat`, and
/// the store is as it was.
#[test]
fn refused_repeats_change_nothing() {
    let s = start();
    let dated = id(&new_task(
        &s,
        json!({"title": "dated", "deadline_on": "2026-03-20"}),
    ));
    let started = id(&new_task(
        &s,
        json!({"title": "started", "start_on": "2026-03-20"}),
    ));
    let undated = id(&new_task(&s, json!({"title": "undated"})));
    let done = id(&new_task(
        &s,
        json!({"title": "done", "deadline_on": "2026-03-20", "status": "completed"}),
    ));
    let repeating = id(&due_task(&s, "repeating", "2026-03-20", "FREQ=WEEKLY"));
    s.advance(60);

    // Rules refused wherever they are sent, on a task due 20 March.
    let bad_rules: &[(&str, &str)] = &[
        // Parts rule 1 does not take.
        ("FREQ=DAILY;BYHOUR=9", "due"),
        ("FREQ=DAILY;BYMINUTE=30", "due"),
        ("FREQ=DAILY;BYSECOND=1", "due"),
        ("FREQ=YEARLY;BYWEEKNO=20", "due"),
        ("FREQ=YEARLY;BYYEARDAY=100", "due"),
        ("FREQ=WEEKLY;X-NAME=1", "due"),
        ("FREQ=WEEKLY;DTSTART=20260320", "due"),
        // Malformed.
        ("", "due"),
        ("RRULE:", "due"),
        ("FREQ", "due"),
        ("FREQ=", "due"),
        ("INTERVAL=2", "due"),
        ("FREQ=HOURLY", "due"),
        ("FREQ=SECONDLY", "due"),
        ("FREQ=FORTNIGHTLY", "due"),
        ("FREQ=WEEKLY;FREQ=DAILY", "due"),
        ("FREQ=WEEKLY;BYDAY=XX", "due"),
        ("FREQ=WEEKLY;BYDAY=MONDAY", "due"),
        ("FREQ=WEEKLY;BYDAY=", "due"),
        ("FREQ=MONTHLY;BYDAY=6MO", "due"),
        ("FREQ=MONTHLY;BYDAY=0MO", "due"),
        ("FREQ=MONTHLY;BYMONTHDAY=32", "due"),
        ("FREQ=MONTHLY;BYMONTHDAY=0", "due"),
        ("FREQ=MONTHLY;BYMONTHDAY=x", "due"),
        ("FREQ=YEARLY;BYMONTH=13", "due"),
        ("FREQ=YEARLY;BYMONTH=0", "due"),
        ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0", "due"),
        ("FREQ=WEEKLY;WKST=XX", "due"),
        ("FREQ=WEEKLY;UNTIL=soon", "due"),
        ("FREQ=WEEKLY;UNTIL=20261340", "due"),
        ("FREQ=WEEKLY;COUNT=x", "due"),
        ("FREQ=WEEKLY;COUNT=-1", "due"),
        ("FREQ=WEEKLY;INTERVAL=x", "due"),
        ("FREQ=WEEKLY;INTERVAL=-1", "due"),
        // Out of range.
        ("FREQ=DAILY;INTERVAL=0", "due"),
        ("FREQ=DAILY;INTERVAL=1000", "due"),
        ("FREQ=DAILY;COUNT=0", "due"),
        ("FREQ=DAILY;COUNT=1001", "due"),
        // Combinations.
        ("FREQ=DAILY;COUNT=5;UNTIL=20261231", "due"),
        ("FREQ=WEEKLY;BYDAY=1MO", "due"),
        ("FREQ=WEEKLY;BYDAY=-1FR", "due"),
        ("FREQ=DAILY;BYDAY=2TU", "due"),
        ("FREQ=WEEKLY;BYMONTHDAY=1", "due"),
        ("FREQ=MONTHLY;BYSETPOS=-1", "due"),
        // From completion: FREQ, INTERVAL, COUNT and UNTIL only.
        ("FREQ=WEEKLY;BYDAY=MO", "completion"),
        ("FREQ=MONTHLY;BYMONTHDAY=1", "completion"),
        ("FREQ=YEARLY;BYMONTH=3", "completion"),
        ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=1", "completion"),
        ("FREQ=WEEKLY;WKST=SU", "completion"),
        ("FREQ=WEEKLY;WKST=MO", "completion"),
        // No date after the task's own (20 March).
        ("FREQ=DAILY;COUNT=1", "due"),
        ("FREQ=DAILY;COUNT=1", "completion"),
        ("FREQ=WEEKLY;UNTIL=20260319", "due"),
        ("FREQ=WEEKLY;UNTIL=20260320", "due"),
        ("FREQ=WEEKLY;UNTIL=20260326", "due"),
        ("FREQ=DAILY;UNTIL=20260320", "completion"),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "due"),
    ];
    let mut calls: Vec<Call> = Vec::new();
    for (rule, from) in bad_rules {
        let repeat = json!({"rule": rule, "from": from});
        calls.push(Call::post(
            "/tasks",
            json!({"task": {"title": "new", "deadline_on": "2026-03-20", "repeat": repeat}}),
        ));
        calls.push(Call::patch(
            format!("/tasks/{dated}"),
            json!({"task": {"title": "changed", "repeat": repeat}}),
        ));
        calls.push(Call::patch(
            format!("/tasks/{started}"),
            json!({"task": {"repeat": repeat}}),
        ));
        calls.push(Call::patch(
            format!("/tasks/{repeating}"),
            json!({"task": {"title": "changed", "repeat": repeat}}),
        ));
    }
    // Shapes.
    for repeat in [
        json!("FREQ=DAILY"),
        json!(1),
        json!(true),
        json!([]),
        json!(["FREQ=DAILY"]),
        json!({}),
        json!({"from": "due"}),
        json!({"rule": null}),
        json!({"rule": 5}),
        json!({"rule": ["FREQ=DAILY"]}),
        json!({"rule": "FREQ=DAILY", "from": "start"}),
        json!({"rule": "FREQ=DAILY", "from": ""}),
        json!({"rule": "FREQ=DAILY", "from": 1}),
    ] {
        calls.push(Call::post(
            "/tasks",
            json!({"task": {"title": "new", "deadline_on": "2026-03-20", "repeat": repeat}}),
        ));
        calls.push(Call::patch(
            format!("/tasks/{dated}"),
            json!({"task": {"title": "changed", "repeat": repeat}}),
        ));
    }
    let weekly = json!({"rule": "FREQ=WEEKLY"});
    // A task with no date to repeat from.
    calls.push(Call::post(
        "/tasks",
        json!({"task": {"title": "new", "repeat": weekly}}),
    ));
    calls.push(Call::patch(
        format!("/tasks/{undated}"),
        json!({"task": {"title": "changed", "repeat": weekly}}),
    ));
    calls.push(Call::patch(
        format!("/tasks/{dated}"),
        json!({"task": {"deadline_on": null, "repeat": weekly}}),
    ));
    calls.push(Call::patch(
        format!("/tasks/{repeating}"),
        json!({"task": {"deadline_on": null}}),
    ));
    // A closed task, or one closing in the same change.
    for status in ["completed", "wont_do", "archived"] {
        calls.push(Call::post(
            "/tasks",
            json!({"task": {"title": "new", "deadline_on": "2026-03-20",
                            "status": status, "repeat": weekly}}),
        ));
        calls.push(Call::patch(
            format!("/tasks/{dated}"),
            json!({"task": {"status": status, "repeat": weekly}}),
        ));
    }
    calls.push(Call::patch(
        format!("/tasks/{done}"),
        json!({"task": {"title": "changed", "repeat": weekly}}),
    ));

    for call in calls {
        let before = store(&s);
        check(&s, call.clone(), Expect::invalid("repeat"));
        assert_eq!(store(&s), before, "{call}: nothing saved");
    }
    // And the repeating task still makes its next occurrence.
    let closed = complete(&s, &get_task(&s, &repeating));
    assert_eq!(next_of(&s, &closed)["deadline_on"], "2026-03-27");
}
