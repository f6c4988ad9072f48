//! Rules 3 and 4: the next occurrence a close makes (a completion, a
//! skip, an expiry, a late or moved one, from completion), `COUNT` and
//! `UNTIL` ending a series, archiving ending it, and a retried close.

use super::*;

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
