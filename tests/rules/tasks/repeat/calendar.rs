//! Rules 7 and 8 and the clock: the calendar's `repeats`, views that see
//! real tasks only, month ends, leap days and clock changes.

use super::*;

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
