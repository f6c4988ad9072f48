//! The repeat's arithmetic and words, without a store: the rule read and
//! normalised (EXTENSIONS.md §1, rule 1), the series' dates from a cursor,
//! and the phrases of `--every` and `--after-done` to rules and back.

use jiff::civil::Date;
use jiff::tz::TimeZone;

use super::super::repeat::{Cursor, Repeat, RepeatFrom, Rule};

fn d(s: &str) -> Date {
    s.parse().unwrap()
}

fn rule(text: &str) -> Rule {
    Rule::parse(text, RepeatFrom::Due, &TimeZone::UTC).unwrap()
}

#[test]
fn a_rule_is_normalised() {
    let cases = [
        ("freq=weekly", "FREQ=WEEKLY"),
        ("RRULE:FREQ=WEEKLY;INTERVAL=1;WKST=MO", "FREQ=WEEKLY"),
        (
            "wkst=su;byday=mo,th;interval=2;freq=weekly",
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;WKST=SU",
        ),
        (
            "UNTIL=20271231T235959Z;FREQ=MONTHLY;BYMONTHDAY=-1",
            "FREQ=MONTHLY;BYMONTHDAY=-1;UNTIL=20271231",
        ),
        ("FREQ=YEARLY;UNTIL=2027-06-30", "FREQ=YEARLY;UNTIL=20270630"),
        (
            "BYSETPOS=-1;BYDAY=MO,TU,WE,TH,FR;FREQ=MONTHLY",
            "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
        ),
        (
            "FREQ=YEARLY;BYDAY=+4TH;BYMONTH=11;COUNT=10",
            "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH;COUNT=10",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(rule(text).to_string(), want, "{text}");
    }
}

#[test]
fn until_as_a_date_time_is_its_date_in_the_owner_s_zone() {
    let tokyo = TimeZone::get("Asia/Tokyo").unwrap();
    let r = Rule::parse("FREQ=DAILY;UNTIL=20270101T200000Z", RepeatFrom::Due, &tokyo).unwrap();
    assert_eq!(r.until, Some(d("2027-01-02")));
    let r = Rule::parse("FREQ=DAILY;UNTIL=20270101T200000", RepeatFrom::Due, &tokyo).unwrap();
    assert_eq!(r.until, Some(d("2027-01-01")));
}

#[test]
fn a_bad_rule_says_why() {
    let cases = [
        ("", "FREQ=WEEKLY"),
        ("FREQ=HOURLY", "FREQ must be"),
        ("INTERVAL=2", "needs FREQ"),
        ("FREQ=DAILY;FREQ=DAILY", "twice"),
        ("FREQ=DAILY;BYHOUR=9", "BYHOUR"),
        ("FREQ=DAILY;INTERVAL=0", "INTERVAL"),
        ("FREQ=DAILY;INTERVAL=1000", "INTERVAL"),
        ("FREQ=DAILY;COUNT=0", "COUNT"),
        ("FREQ=DAILY;COUNT=1001", "COUNT"),
        ("FREQ=DAILY;COUNT=2;UNTIL=20270101", "both COUNT and UNTIL"),
        ("FREQ=WEEKLY;BYDAY=1MO", "ordinals"),
        ("FREQ=MONTHLY;BYDAY=6MO", "BYDAY"),
        ("FREQ=WEEKLY;BYMONTHDAY=1", "BYMONTHDAY"),
        ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY"),
        ("FREQ=MONTHLY;BYSETPOS=1", "BYSETPOS needs"),
        ("FREQ=YEARLY;BYMONTH=13", "BYMONTH"),
        ("FREQ=DAILY;UNTIL=tomorrow", "UNTIL"),
        ("FREQ=DAILY;WKST=XX", "WKST"),
        ("FREQ", "NAME=VALUE"),
        (
            &format!("FREQ=DAILY;BYMONTHDAY={}", ["1"; 300].join(",")),
            "at most 500",
        ),
    ];
    for (text, says) in cases {
        let e = Rule::parse(text, RepeatFrom::Due, &TimeZone::UTC).unwrap_err();
        assert!(e.contains(says), "{text:?}: {e}");
    }
    let e = Rule::parse(
        "FREQ=WEEKLY;BYDAY=MO",
        RepeatFrom::Completion,
        &TimeZone::UTC,
    )
    .unwrap_err();
    assert!(e.contains("from completion"), "{e}");
}

/// The next date after `after`, today or later, of a series starting on
/// `start`.
fn next(text: &str, start: &str, after: &str, today: &str) -> Option<Date> {
    rule(text)
        .next(RepeatFrom::Due, Cursor::start(d(start)), d(after), d(today))
        .map(|(date, _)| date)
}

#[test]
fn the_series_dates_are_the_rfc_s() {
    // (rule, first date, closed occurrence's date, today, next)
    let cases = [
        (
            "FREQ=DAILY",
            "2026-03-10",
            "2026-03-10",
            "2026-03-10",
            Some("2026-03-11"),
        ),
        (
            "FREQ=DAILY;INTERVAL=3",
            "2026-03-10",
            "2026-03-10",
            "2026-03-10",
            Some("2026-03-13"),
        ),
        (
            "FREQ=WEEKLY;INTERVAL=2",
            "2026-03-10",
            "2026-03-10",
            "2026-03-10",
            Some("2026-03-24"),
        ),
        (
            "FREQ=WEEKLY;BYDAY=MO,TH",
            "2026-03-10",
            "2026-03-10",
            "2026-03-10",
            Some("2026-03-12"),
        ),
        (
            "FREQ=MONTHLY",
            "2027-01-31",
            "2027-01-31",
            "2027-01-31",
            Some("2027-03-31"),
        ),
        (
            "FREQ=MONTHLY;BYMONTHDAY=-1",
            "2027-01-31",
            "2027-01-31",
            "2027-01-31",
            Some("2027-02-28"),
        ),
        (
            "FREQ=MONTHLY;BYDAY=1MO",
            "2026-03-10",
            "2026-03-10",
            "2026-03-10",
            Some("2026-04-06"),
        ),
        (
            "FREQ=MONTHLY;BYDAY=-1FR",
            "2026-03-10",
            "2026-03-10",
            "2026-03-10",
            Some("2026-03-27"),
        ),
        (
            "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
            "2026-05-01",
            "2026-05-01",
            "2026-05-01",
            Some("2026-05-29"),
        ),
        (
            "FREQ=YEARLY",
            "2028-02-29",
            "2028-02-29",
            "2028-02-29",
            Some("2032-02-29"),
        ),
        (
            "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH",
            "2026-03-10",
            "2026-03-10",
            "2026-03-10",
            Some("2026-11-26"),
        ),
        (
            "FREQ=YEARLY;INTERVAL=2",
            "2026-03-10",
            "2026-03-10",
            "2026-03-10",
            Some("2028-03-10"),
        ),
        // A week late: the coming date, not an overdue one.
        (
            "FREQ=WEEKLY",
            "2026-03-02",
            "2026-03-02",
            "2026-03-10",
            Some("2026-03-16"),
        ),
        // COUNT counts the first date even when the rule would not give it.
        (
            "FREQ=WEEKLY;BYDAY=MO;COUNT=2",
            "2026-03-10",
            "2026-03-10",
            "2026-03-10",
            Some("2026-03-16"),
        ),
        (
            "FREQ=WEEKLY;BYDAY=MO;COUNT=2",
            "2026-03-10",
            "2026-03-16",
            "2026-03-16",
            None,
        ),
        (
            "FREQ=DAILY;COUNT=3",
            "2026-03-10",
            "2026-03-12",
            "2026-03-12",
            None,
        ),
        (
            "FREQ=DAILY;UNTIL=20260311",
            "2026-03-10",
            "2026-03-11",
            "2026-03-11",
            None,
        ),
        // A rule no date can satisfy ends at once, and quickly.
        (
            "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30",
            "2026-03-10",
            "2026-03-10",
            "2026-03-10",
            None,
        ),
    ];
    for (text, start, after, today, want) in cases {
        assert_eq!(
            next(text, start, after, today),
            want.map(d),
            "{text} from {start}, after {after}, today {today}"
        );
    }
}

#[test]
fn count_goes_on_across_occurrences() {
    let r = rule("FREQ=DAILY;COUNT=3");
    let first = Cursor::start(d("2026-03-10"));
    let (second, c2) = r
        .next(RepeatFrom::Due, first, d("2026-03-10"), d("2026-03-10"))
        .unwrap();
    assert_eq!(second, d("2026-03-11"));
    let (third, c3) = r.next(RepeatFrom::Due, c2, second, second).unwrap();
    assert_eq!(third, d("2026-03-12"));
    assert_eq!(r.next(RepeatFrom::Due, c3, third, third), None);
    // Skipping dates by closing late uses them up.
    let (late, _) = r
        .next(RepeatFrom::Due, first, d("2026-03-10"), d("2026-03-12"))
        .unwrap();
    assert_eq!(late, d("2026-03-12"));
}

#[test]
fn from_completion_adds_the_interval_to_the_day_it_closed() {
    let r = Rule::parse("FREQ=MONTHLY", RepeatFrom::Completion, &TimeZone::UTC).unwrap();
    let c = Cursor::start(d("2027-01-10"));
    let got = r.next(RepeatFrom::Completion, c, d("2027-01-10"), d("2027-01-31"));
    assert_eq!(got.map(|(d, _)| d), Some(d("2027-02-28")));
    let r = Rule::parse(
        "FREQ=DAILY;INTERVAL=3;COUNT=2",
        RepeatFrom::Completion,
        &TimeZone::UTC,
    )
    .unwrap();
    let (_, c2) = r
        .next(RepeatFrom::Completion, c, d("2027-01-10"), d("2027-01-12"))
        .unwrap();
    assert_eq!(
        r.next(RepeatFrom::Completion, c2, d("2027-01-15"), d("2027-01-15")),
        None
    );
}

#[test]
fn the_calendar_s_dates_are_those_after_the_open_one() {
    let r = rule("FREQ=WEEKLY;BYDAY=MO,TH");
    let dates = r.dates_in(
        Cursor::start(d("2026-03-09")),
        d("2026-03-09"),
        d("2026-03-10"),
        d("2026-03-23"),
        500,
    );
    let want: Vec<Date> = ["2026-03-12", "2026-03-16", "2026-03-19", "2026-03-23"]
        .into_iter()
        .map(d)
        .collect();
    assert_eq!(dates, want);
}

#[test]
fn phrases_read_as_rules_and_words_read_back() {
    let cases = [
        ("day", "FREQ=DAILY", "every day"),
        ("every 2 weeks", "FREQ=WEEKLY;INTERVAL=2", "every 2 weeks"),
        (
            "weekdays",
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
            "every weekday",
        ),
        (
            "tue, fri",
            "FREQ=WEEKLY;BYDAY=TU,FR",
            "every Tuesday and Friday",
        ),
        (
            "the 2nd",
            "FREQ=MONTHLY;BYMONTHDAY=2",
            "every month on the 2nd",
        ),
        (
            "23rd",
            "FREQ=MONTHLY;BYMONTHDAY=23",
            "every month on the 23rd",
        ),
        (
            "11th",
            "FREQ=MONTHLY;BYMONTHDAY=11",
            "every month on the 11th",
        ),
        (
            "second tuesday",
            "FREQ=MONTHLY;BYDAY=2TU",
            "every month on the second Tuesday",
        ),
        (
            "3 months on the last day",
            "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=-1",
            "every 3 months on the last day",
        ),
        (
            "year, 5 times",
            "FREQ=YEARLY;COUNT=5",
            "every year, 5 times",
        ),
    ];
    for (phrase, rule, words) in cases {
        let r = Repeat::from_words(phrase).unwrap_or_else(|e| panic!("{phrase}: {e}"));
        assert_eq!(r.rule, rule, "{phrase}");
        assert_eq!(r.from, RepeatFrom::Due);
        assert_eq!(r.to_words(), words, "{phrase}");
        assert_eq!(Repeat::from_words(words).unwrap(), r, "{words}");
    }
    for bad in [
        "",
        "fortnightly",
        "0 days",
        "32nd",
        "every 1000 days",
        "sixth monday",
    ] {
        assert!(Repeat::from_words(bad).is_err(), "{bad:?}");
    }
    let r = Repeat::after_done("2w").unwrap();
    assert_eq!(
        (r.rule.as_str(), r.from),
        ("FREQ=WEEKLY;INTERVAL=2", RepeatFrom::Completion)
    );
    assert_eq!(r.to_words(), "2 weeks after each completion");
    assert_eq!(Repeat::after_done(&r.to_words()).unwrap(), r);
    assert!(Repeat::after_done("mon").is_err());
}

#[test]
fn an_old_daily_or_weekly_series_is_not_walked_from_its_start() {
    // The same dates whether or not the walk skips ahead: a daily rule of
    // every third day and a fortnightly one from 1926, seen in 2026.
    for text in [
        "FREQ=DAILY;INTERVAL=3",
        "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SA;WKST=SU",
    ] {
        let r = rule(text);
        let start = d("1926-03-09");
        let all = r.dates_in(
            Cursor::start(start),
            start,
            d("1926-03-09"),
            d("2026-04-20"),
            100_000,
        );
        let wanted: Vec<Date> = all.into_iter().filter(|x| *x >= d("2026-03-10")).collect();
        let got = r.dates_in(
            Cursor::start(start),
            start,
            d("2026-03-10"),
            d("2026-04-20"),
            500,
        );
        assert_eq!(got, wanted, "{text}");
        assert!(!got.is_empty());
    }
}
