//! Rules 5, 6 and 2: reopening as an undo, deleting and restoring an
//! occurrence, at most one open occurrence, and the series a repeat
//! starts.

use super::*;

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
