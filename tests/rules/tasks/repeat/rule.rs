//! Rule 1: the stored rule normalised, `UNTIL` in the owner's zone, and
//! each rule's next dates.

use super::*;

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
