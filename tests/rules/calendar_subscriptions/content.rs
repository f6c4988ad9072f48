//! The feed's content read back against the records.

use super::read_back::*;
use super::*;

// ------------------------------------------------- the feed's content

/// The store of the feed tests, with times that have fractions of a
/// second: tasks (a plain deadline, a `from: due` series after a
/// completion, a `from: due` series on its last date, a `from:
/// completion` series, and what must not show), projects in every
/// status, and people with a dated birthday, a year-less birthday and a
/// 29 February date.
struct Store {
    plain: Value,
    weekly: Value,
    last: Value,
    after: Value,
    in_project: Value,
    planned: Value,
    active: Value,
    on_hold: Value,
    ada: Value,
    grace: Value,
    leap: Value,
}

fn store(s: &Core) -> Store {
    let list = new_list(s, "Home");
    tick(s, 250);
    let plain = new_task(
        s,
        json!({"title": "Pay rent", "deadline_on": "2026-03-31", "task_list_id": list,
               "description_html": "<p>To the landlord, by transfer</p>"}),
    );
    tick(s, 1250);
    // Weekly from 10 March, five dates: completed once, four remain.
    let first = new_task(
        s,
        json!({"title": "Water the plants", "deadline_on": "2026-03-10",
               "repeat": {"rule": "FREQ=WEEKLY;COUNT=5"}}),
    );
    tick(s, 1500);
    let closed = patch_task(s, &id(&first), json!({"status": "completed"}))
        .expect(200)
        .data()
        .clone();
    let weekly = s
        .get(&format!(
            "/tasks/{}",
            closed["next_task_id"].as_str().unwrap()
        ))
        .expect(200)
        .data()
        .clone();
    assert_eq!(weekly["deadline_on"], "2026-03-17");
    tick(s, 700);
    // Two dates, one completed: the open one is the last.
    let two = new_task(
        s,
        json!({"title": "Dentist", "deadline_on": "2026-03-09",
               "repeat": {"rule": "FREQ=MONTHLY;COUNT=2"}}),
    );
    let closed = patch_task(s, &id(&two), json!({"status": "completed"}))
        .expect(200)
        .data()
        .clone();
    let last = s
        .get(&format!(
            "/tasks/{}",
            closed["next_task_id"].as_str().unwrap()
        ))
        .expect(200)
        .data()
        .clone();
    assert_eq!(last["deadline_on"], "2026-04-09");
    tick(s, 300);
    let after = new_task(
        s,
        json!({"title": "Descale the kettle", "deadline_on": "2026-03-12",
               "repeat": {"rule": "FREQ=DAILY;INTERVAL=10", "from": "completion"}}),
    );
    tick(s, 1100);
    // Not in the feed: no deadline; closed; won't do.
    new_task(s, json!({"title": "Someday", "start_on": "2026-03-20"}));
    let done = new_task(s, json!({"title": "Done", "deadline_on": "2026-03-11"}));
    patch_task(s, &id(&done), json!({"status": "completed"})).expect(200);
    let dropped = new_task(s, json!({"title": "Dropped", "deadline_on": "2026-03-11"}));
    patch_task(s, &id(&dropped), json!({"status": "wont_do"})).expect(200);

    tick(s, 2400);
    let planned = new_project(
        s,
        json!({"name": "Kitchen", "status": "planned", "start_date": "2026-04-01",
               "deadline": "2026-06-30", "description_html": "<p>New worktops</p>"}),
    );
    tick(s, 10);
    let active = new_project(
        s,
        json!({"name": "Garden", "status": "active", "start_date": "2026-03-01",
               "deadline": "2026-03-20"}),
    );
    tick(s, 990);
    let on_hold = new_project(
        s,
        json!({"name": "Attic", "status": "on_hold", "deadline": "2026-05-05"}),
    );
    let in_project = new_task(
        s,
        json!({"title": "Order seeds", "deadline_on": "2026-03-15", "project_id": id(&active)}),
    );
    // Not in the feed: done, cancelled, and undated.
    new_project(
        s,
        json!({"name": "Old roof", "status": "done", "start_date": "2026-01-01",
               "deadline": "2026-03-30"}),
    );
    new_project(
        s,
        json!({"name": "Boat", "status": "cancelled", "deadline": "2026-04-30"}),
    );
    new_project(s, json!({"name": "Undated", "status": "active"}));

    tick(s, 3333);
    let ada = new_person(
        s,
        json!({"name": "Ada Lovelace",
               "key_dates": [{"kind": "birthday", "day": 10, "month": 12, "year": 1915}]}),
    );
    tick(s, 1001);
    let grace = new_person(
        s,
        json!({"name": "Grace Hopper",
               "key_dates": [{"kind": "birthday", "day": 15, "month": 3}]}),
    );
    tick(s, 999);
    let leap = new_person(
        s,
        json!({"name": "Leap Person",
               "key_dates": [{"kind": "birthday", "day": 29, "month": 2, "year": 2000}]}),
    );
    // A person with no key date gives nothing.
    new_person(s, json!({"name": "Nobody"}));
    tick(s, 1999);
    // As they stand now (a task added to a project may touch it).
    let again = |kind: &str, record: &Value| {
        s.get(&format!("/{kind}/{}", id(record)))
            .expect(200)
            .data()
            .clone()
    };
    let (plain, weekly, last, after, in_project) = (
        again("tasks", &plain),
        again("tasks", &weekly),
        again("tasks", &last),
        again("tasks", &after),
        again("tasks", &in_project),
    );
    let (planned, active, on_hold) = (
        again("projects", &planned),
        again("projects", &active),
        again("projects", &on_hold),
    );
    let (ada, grace, leap) = (
        again("people", &ada),
        again("people", &grace),
        again("people", &leap),
    );
    Store {
        plain,
        weekly,
        last,
        after,
        in_project,
        planned,
        active,
        on_hold,
        ada,
        grace,
        leap,
    }
}

/// Every item of [`store`]'s feed, with `alarm`.
fn expected(st: &Store, alarm: Option<u16>) -> Vec<Event> {
    let leap_date = key_date(&st.leap, "birthday");
    let leap = "Leap Person's birthday";
    sorted(vec![
        task_event(&st.plain, None, alarm),
        task_event(&st.weekly, Some("FREQ=WEEKLY;COUNT=4"), alarm),
        task_event(&st.last, None, alarm),
        task_event(&st.after, None, alarm),
        task_event(&st.in_project, None, alarm),
        project_event(&st.planned, "start", alarm),
        project_event(&st.planned, "deadline", alarm),
        project_event(&st.active, "start", alarm),
        project_event(&st.active, "deadline", alarm),
        project_event(&st.on_hold, "deadline", alarm),
        key_date_event(
            &st.ada,
            key_date(&st.ada, "birthday"),
            "Ada Lovelace's birthday",
            "1915-12-10",
            None,
            alarm,
        ),
        // A year-less date from last year.
        key_date_event(
            &st.grace,
            key_date(&st.grace, "birthday"),
            "Grace Hopper's birthday",
            "2025-03-15",
            None,
            alarm,
        ),
        // 29 February: one a year, last year to three years ahead, on
        // 1 March in a common year.
        key_date_event(&st.leap, leap_date, leap, "2025-03-01", Some(2025), alarm),
        key_date_event(&st.leap, leap_date, leap, "2026-03-01", Some(2026), alarm),
        key_date_event(&st.leap, leap_date, leap, "2027-03-01", Some(2027), alarm),
        key_date_event(&st.leap, leap_date, leap, "2028-02-29", Some(2028), alarm),
        key_date_event(&st.leap, leap_date, leap, "2029-03-01", Some(2029), alarm),
    ])
}

/// The feed read back by `ical` and by `calcard` says what the records
/// say, item by item: UID, all-day DTSTART and DTEND, SUMMARY, DTSTAMP and
/// LAST-MODIFIED (`updated_at` to the second), RRULE (a `from: due`
/// series' rule from its open occurrence with COUNT reduced, none on its
/// last date or for `from: completion`), and a VALARM of `alarm_minutes`;
/// closed tasks, undated ones, and done or cancelled projects are not in
/// it; and the calendar's own properties.
#[test]
fn the_feed_read_back_by_two_parsers_says_what_the_records_say() {
    let s = start();
    let st = store(&s);
    let with_alarm = subscribe(&s, json!({"name": "Phone", "alarm_minutes": 30}));
    let without = subscribe(&s, json!({}));
    let text = body(&s, &with_alarm);
    assert_eq!(events(&text), expected(&st, Some(30)), "{text}");
    assert_eq!(events(&body(&s, &without)), expected(&st, None));
    // The calendar's own properties, as both parsers read them.
    for calendar in [by_ical(&text), by_calcard(&text)] {
        let own = &calendar.own;
        assert_eq!(own.one("VERSION"), "2.0");
        assert!(own.one("PRODID").contains("Organiser"), "{own:?}");
        assert_eq!(own.one("CALSCALE"), "GREGORIAN");
        assert_eq!(own.one("METHOD"), "PUBLISH");
        assert_eq!(own.one("X-WR-CALNAME"), "Phone");
        assert_eq!(own.one("X-WR-TIMEZONE"), "Etc/UTC");
        assert_eq!(own.one("REFRESH-INTERVAL"), "PT1H");
        assert_eq!(own.one("X-PUBLISHED-TTL"), "PT1H");
    }
    // An alarm of 0 minutes is at the start.
    let at_start = subscribe(&s, json!({"alarm_minutes": 0}));
    let text = body(&s, &at_start);
    assert_eq!(text.matches("TRIGGER:-PT0M\r\n").count(), 17, "{text}");
    assert_eq!(text.matches("ACTION:DISPLAY\r\n").count(), 17);
    // The items come in a fixed order: deadlines by date, projects by
    // date, key dates by month and day.
    let order = uids(&body(&s, &without));
    let task_uid = |t: &Value| format!("{}-deadline@organiser", id(t));
    assert_eq!(
        order[..5],
        [
            task_uid(&st.after),
            task_uid(&st.in_project),
            task_uid(&st.weekly),
            task_uid(&st.plain),
            task_uid(&st.last),
        ]
    );
}

/// The feed is in the owner's zone: `X-WR-TIMEZONE`, and "this year" (of
/// the 29 February dates, and of a year-less date's first event) is the
/// owner's.
#[test]
fn the_years_are_the_owners() {
    // New Year's Day in Tokyo, still 2026 in London.
    let s = start_at("2026-12-31T20:00:00Z");
    set_zone(&s, "Tokyo");
    let leap = new_person(
        &s,
        json!({"name": "Leap", "key_dates": [{"kind": "anniversary", "day": 29, "month": 2}]}),
    );
    let grace = new_person(
        &s,
        json!({"name": "Grace", "key_dates": [{"kind": "birthday", "day": 15, "month": 3}]}),
    );
    let sub = subscribe(&s, json!({}));
    let text = body(&s, &sub);
    assert_eq!(by_ical(&text).own.one("X-WR-TIMEZONE"), "Asia/Tokyo");
    assert_eq!(by_calcard(&text).own.one("X-WR-TIMEZONE"), "Asia/Tokyo");
    let date = key_date(&leap, "anniversary");
    let summary = "Leap's anniversary";
    assert_eq!(
        events(&text),
        sorted(vec![
            key_date_event(&leap, date, summary, "2026-03-01", Some(2026), None),
            key_date_event(&leap, date, summary, "2027-03-01", Some(2027), None),
            key_date_event(&leap, date, summary, "2028-02-29", Some(2028), None),
            key_date_event(&leap, date, summary, "2029-03-01", Some(2029), None),
            key_date_event(&leap, date, summary, "2030-03-01", Some(2030), None),
            key_date_event(
                &grace,
                key_date(&grace, "birthday"),
                "Grace's birthday",
                "2026-03-15",
                None,
                None
            ),
        ])
    );
    // Back in London it is 2026 again: the years move back.
    set_zone(&s, "London");
    let text = body(&s, &sub);
    assert!(uid_set(&text).contains(&format!("{}-2025@organiser", id(date))));
    assert!(!uid_set(&text).contains(&format!("{}-2030@organiser", id(date))));
}

/// 29 February in a leap year and around it: on 29 February in 2028
/// and on 1 March in the years around; a date born in a year is shown
/// from that year only.
#[test]
fn the_29th_of_february_is_on_the_1st_of_march_in_common_years() {
    let s = start_at("2024-03-10T09:00:00Z");
    let born = new_person(
        &s,
        json!({"name": "Born", "key_dates": [{"kind": "birthday", "day": 29, "month": 2, "year": 2024}]}),
    );
    let sub = subscribe(&s, json!({"include": ["key_dates"]}));
    let date = key_date(&born, "birthday");
    let summary = "Born's birthday";
    let at = |on: &str, year: i16| key_date_event(&born, date, summary, on, Some(year), None);
    // 2023 is before the birth.
    assert_eq!(
        events(&body(&s, &sub)),
        sorted(vec![
            at("2024-02-29", 2024),
            at("2025-03-01", 2025),
            at("2026-03-01", 2026),
            at("2027-03-01", 2027),
        ])
    );
    // Four years on (the licence runs to 2099): 2027 to 2031.
    s.clock.set("2028-01-15T09:00:00Z".parse().unwrap());
    assert_eq!(
        events(&body(&s, &sub)),
        sorted(vec![
            at("2027-03-01", 2027),
            at("2028-02-29", 2028),
            at("2029-03-01", 2029),
            at("2030-03-01", 2030),
            at("2031-03-01", 2031),
        ])
    );
}

/// Every UID is stable: the same across reads, across edits of other
/// records, and across edits of the record itself (its title, its date,
/// a person's name).
#[test]
fn uids_are_stable_across_reads_and_edits() {
    let s = start();
    let st = store(&s);
    let sub = subscribe(&s, json!({}));
    let first = body(&s, &sub);
    let again = body(&s, &sub);
    assert_eq!(first, again, "the same bytes twice");
    let before = uids(&first);
    assert_eq!(before.len(), 17);
    // An unrelated edit: a task without a deadline, a note.
    s.advance(60);
    new_task(&s, json!({"title": "Unrelated"}));
    s.post("/notes", json!({"note": {"body_html": "<p>Hi</p>"}}))
        .expect(201);
    assert_eq!(body(&s, &sub), first, "nothing in the feed changed");
    // Edits of the records themselves keep their UIDs.
    patch_task(&s, &id(&st.plain), json!({"title": "Pay the rent"})).expect(200);
    // From 12 to 16 March: past the task due on the 15th.
    patch_task(&s, &id(&st.after), json!({"deadline_on": "2026-03-16"})).expect(200);
    s.patch(
        &format!("/people/{}", id(&st.ada)),
        json!({"person": {"name": "Ada King"}}),
    )
    .expect(200);
    s.patch(
        &format!("/projects/{}", id(&st.planned)),
        json!({"project": {"name": "Kitchen and hall"}}),
    )
    .expect(200);
    let edited = body(&s, &sub);
    assert_ne!(edited, first);
    assert_eq!(uids(&edited), {
        // The moved deadline moves its event among the tasks.
        let mut moved = before.clone();
        let uid = format!("{}-deadline@organiser", id(&st.after));
        let at = moved.iter().position(|u| *u == uid).unwrap();
        moved.remove(at);
        moved.insert(at + 1, uid);
        moved
    });
    let read = events(&edited);
    let ada = read
        .iter()
        .find(|e| e.uid.starts_with(&id(key_date(&st.ada, "birthday"))))
        .unwrap();
    assert_eq!(ada.summary, "Ada King's birthday");
    assert_eq!(
        ada.stamp,
        second(&s.get(&format!("/people/{}", id(&st.ada))).data().clone())
    );
}

/// `task_list_ids` and `project_ids`: a task is in the feed when both are
/// null or its home is one they name (so the Inbox's tasks are not, once
/// either is set); a project's dates when `project_ids` is null or names
/// it.
#[test]
fn the_filters_choose_lists_and_projects() {
    let s = start();
    let a = new_list(&s, "A");
    let b = new_list(&s, "B");
    let p = new_project(&s, json!({"name": "P", "deadline": "2026-04-01"}));
    let q = new_project(&s, json!({"name": "Q", "start_date": "2026-04-02"}));
    let task = |title: &str, home: Value| {
        let mut fields = json!({"title": title, "deadline_on": "2026-03-20"});
        fields
            .as_object_mut()
            .unwrap()
            .extend(home.as_object().unwrap().clone());
        format!("{}-deadline@organiser", id(&new_task(&s, fields)))
    };
    let inbox = task("inbox", json!({}));
    let in_a = task("a", json!({"task_list_id": a}));
    let in_b = task("b", json!({"task_list_id": b}));
    let in_p = task("p", json!({"project_id": id(&p)}));
    let in_q = task("q", json!({"project_id": id(&q)}));
    let p_deadline = format!("{}-deadline@organiser", id(&p));
    let q_start = format!("{}-start@organiser", id(&q));
    let set =
        |uids: &[&String]| -> BTreeSet<String> { uids.iter().map(|u| (*u).clone()).collect() };
    let cases = [
        (
            json!({}),
            set(&[&inbox, &in_a, &in_b, &in_p, &in_q, &p_deadline, &q_start]),
        ),
        (
            json!({"task_list_ids": [a]}),
            set(&[&in_a, &p_deadline, &q_start]),
        ),
        (
            json!({"task_list_ids": [a, b]}),
            set(&[&in_a, &in_b, &p_deadline, &q_start]),
        ),
        (json!({"project_ids": [id(&p)]}), set(&[&in_p, &p_deadline])),
        (
            json!({"task_list_ids": [b], "project_ids": [id(&q)]}),
            set(&[&in_b, &in_q, &q_start]),
        ),
        // Empty lists name nothing.
        (json!({"task_list_ids": []}), set(&[&p_deadline, &q_start])),
        (json!({"task_list_ids": [], "project_ids": []}), set(&[])),
    ];
    for (fields, expected) in cases {
        let sub = subscribe(&s, fields.clone());
        assert_eq!(uid_set(&body(&s, &sub)), expected, "{fields}");
    }
    // A change of filter changes the same address's feed.
    let sub = subscribe(&s, json!({"task_list_ids": [a]}));
    s.patch(
        &format!("{PATH}/{}", id(&sub)),
        json!({"calendar_subscription": {"task_list_ids": null, "project_ids": [id(&q)]}}),
    )
    .expect(200);
    assert_eq!(uid_set(&body(&s, &sub)), set(&[&in_q, &q_start]));
    // A task moved into a named list joins the feed.
    patch_task(&s, &inbox[..26], json!({"project_id": id(&q)})).expect(200);
    assert_eq!(uid_set(&body(&s, &sub)), set(&[&inbox, &in_q, &q_start]));
}

/// `include` chooses the kinds of items.
#[test]
fn include_chooses_the_kinds_of_items() {
    let s = start();
    let st = store(&s);
    let all = expected(&st, None);
    let kinds = |e: &Event| {
        let head = &e.uid[..26];
        if [&st.planned, &st.active, &st.on_hold]
            .iter()
            .any(|p| id(p) == head)
        {
            "projects"
        } else if e.uid.ends_with("-deadline@organiser") {
            "tasks"
        } else {
            "key_dates"
        }
    };
    for include in [
        vec!["tasks"],
        vec!["projects"],
        vec!["key_dates"],
        vec!["tasks", "projects"],
        vec!["tasks", "key_dates"],
        vec!["projects", "key_dates"],
        vec!["tasks", "projects", "key_dates"],
    ] {
        let sub = subscribe(&s, json!({ "include": include }));
        let wanted: Vec<Event> = all
            .iter()
            .filter(|e| include.contains(&kinds(e)))
            .cloned()
            .collect();
        assert!(!wanted.is_empty());
        assert_eq!(events(&body(&s, &sub)), wanted, "{include:?}");
    }
}

/// A deleted task or person, a closed task and a finished project leave
/// the feed; restored, they come back with the same UIDs.
#[test]
fn deleted_and_closed_records_leave_the_feed() {
    let s = start();
    let st = store(&s);
    let sub = subscribe(&s, json!({}));
    let all = uid_set(&body(&s, &sub));
    let task_uid = format!("{}-deadline@organiser", id(&st.plain));
    let ada_uid = format!("{}@organiser", id(key_date(&st.ada, "birthday")));
    let leap_uids: BTreeSet<String> = all
        .iter()
        .filter(|u| u.starts_with(&id(key_date(&st.leap, "birthday"))))
        .cloned()
        .collect();
    assert_eq!(leap_uids.len(), 5);
    assert!(all.contains(&task_uid) && all.contains(&ada_uid));

    s.delete(&format!("/tasks/{}", id(&st.plain))).expect(204);
    s.delete(&format!("/people/{}", id(&st.ada))).expect(204);
    s.delete(&format!("/people/{}", id(&st.leap))).expect(204);
    let now = uid_set(&body(&s, &sub));
    assert!(!now.contains(&task_uid), "the deleted task is gone");
    assert!(!now.contains(&ada_uid), "the deleted person's date is gone");
    assert!(now.is_disjoint(&leap_uids));
    assert_eq!(now.len(), all.len() - 7);

    // Restored, they come back as they were.
    s.post(&format!("/tasks/{}/restoration", id(&st.plain)), json!({}))
        .expect(200);
    s.post(&format!("/people/{}/restoration", id(&st.ada)), json!({}))
        .expect(200);
    let back = uid_set(&body(&s, &sub));
    assert!(back.contains(&task_uid) && back.contains(&ada_uid));

    // Completed, won't do, and a project done or cancelled: gone too.
    patch_task(&s, &id(&st.in_project), json!({"status": "completed"})).expect(200);
    patch_task(&s, &id(&st.after), json!({"status": "wont_do"})).expect(200);
    s.patch(
        &format!("/projects/{}", id(&st.planned)),
        json!({"project": {"status": "done"}}),
    )
    .expect(200);
    s.patch(
        &format!("/projects/{}", id(&st.on_hold)),
        json!({"project": {"status": "cancelled"}}),
    )
    .expect(200);
    let left = uid_set(&body(&s, &sub));
    for gone in [
        format!("{}-deadline@organiser", id(&st.in_project)),
        format!("{}-deadline@organiser", id(&st.after)),
        format!("{}-start@organiser", id(&st.planned)),
        format!("{}-deadline@organiser", id(&st.planned)),
        format!("{}-deadline@organiser", id(&st.on_hold)),
    ] {
        assert!(!left.contains(&gone), "{gone}");
    }
    // A deleted project's dates too.
    s.delete(&format!("/projects/{}", id(&st.active)))
        .expect(204);
    let left = uid_set(&body(&s, &sub));
    assert!(!left.iter().any(|u| u.starts_with(&id(&st.active))));
}

/// Folding and escaping: every line at most 75 octets and ended by CRLF;
/// a title with commas, semicolons, backslashes, a colon, a line break
/// and characters of several bytes, long enough to be folded, comes back
/// exactly through both parsers, and so do a description's lines, a
/// person's name and the calendar's name.
#[test]
fn text_is_folded_and_escaped_and_comes_back_exactly() {
    let s = start();
    let title = "Rent, gas; water \\ C:\\Users\\ada — Zürich, Ünïcödé ☃ 日本語の請求書 \
                 🎉🎉🎉; a, b, c; \\n is not a line break; \"quoted\" and so on, and on";
    let task = new_task(
        &s,
        json!({"title": title, "deadline_on": "2026-03-31",
               "description_html": "<p>First line, with; marks \\ here</p><p>Второй — ü 日本</p>"}),
    );
    // Squished (the line break of the title is a space), but otherwise as
    // sent.
    let broken = new_task(
        &s,
        json!({"title": "Line one\nline two", "deadline_on": "2026-03-30"}),
    );
    let person = new_person(
        &s,
        json!({"name": "Zoë Ångström-Ñúñez, Jr.; \\o/",
               "key_dates": [{"kind": "other", "label": "Name day; feast, ☃", "day": 5, "month": 6}]}),
    );
    let name = "Ünïcödé, my; calendar \\ ☃ 日本";
    let sub = subscribe(&s, json!({"name": name}));
    let text = body(&s, &sub);
    assert!(text.ends_with("\r\n"), "{text:?}");
    for line in text.split("\r\n") {
        assert!(!line.contains(['\r', '\n']), "a bare line break: {line:?}");
        assert!(line.len() <= 75, "{} octets: {line:?}", line.len());
    }
    assert!(
        text.split("\r\n").any(|l| l.starts_with(' ')),
        "something was folded"
    );
    for (parser, calendar) in [("ical", by_ical(&text)), ("calcard", by_calcard(&text))] {
        let event = |uid: String| {
            calendar
                .events
                .iter()
                .find(|e| e.one("UID") == uid)
                .unwrap_or_else(|| panic!("no {uid}"))
                .clone()
        };
        let read = event(format!("{}-deadline@organiser", id(&task)));
        assert_eq!(read.one("SUMMARY"), task["title"].as_str().unwrap());
        assert_eq!(read.one("SUMMARY"), title);
        assert_eq!(
            read.one("DESCRIPTION"),
            task["description_text"].as_str().unwrap()
        );
        assert!(read.one("DESCRIPTION").contains('\n'));
        let read = event(format!("{}-deadline@organiser", id(&broken)));
        assert_eq!(read.one("SUMMARY"), broken["title"].as_str().unwrap());
        let read = event(format!("{}@organiser", id(&person["key_dates"][0])));
        assert_eq!(
            read.one("SUMMARY"),
            "Zoë Ångström-Ñúñez, Jr.; \\o/'s Name day; feast, ☃"
        );
        assert_eq!(
            calendar.own.one("X-WR-CALNAME"),
            name,
            "{parser}: the calendar's name, escaped once"
        );
    }
}
