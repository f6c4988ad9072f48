//! Every refused repeat is a 422 on `repeat` and leaves the store as it
//! was.

use super::*;

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
