//! Quick add (EXTENSIONS.md §6, "quick add that understands the CLI's date
//! and repeat words"): one line typed by the owner, such as `Call mum
//! tomorrow every week`, read into a [`TaskInput`]; and the other words a
//! task's form takes (a repeat in words, a description as plain text).
//! Kept in the core so the web app, the CLI and embedders read a phrase
//! the same way.
//!
//! # The grammar
//!
//! Phrases are peeled off the **end** of the line, one after another, the
//! longest first; what is left is the title (at least its first word is
//! always kept, so a line is never all dates). Each field is set at most
//! once; a phrase that does not read stays in the title.
//!
//! | Phrase at the end                          | Field         | Same as the CLI's  |
//! |--------------------------------------------|---------------|--------------------|
//! | `on DATE`, `start[s] DATE`, `starting DATE`| `start_on`    | `--start DATE`     |
//! | a bare `DATE` (`tomorrow`, `friday`, `dec 15`, `next week`, `in 3 days`, `2026-04-01`) | `start_on` | `--start DATE` |
//! | `due DATE`, `by DATE`, `deadline DATE`     | `deadline_on` | `--deadline DATE`  |
//! | `expires DATE`, `expiring DATE`            | `expires_on`  | `--expires DATE`   |
//! | `remind [me] WHEN` (`remind me friday 9am`)| `remind_at`   | `--remind WHEN`    |
//! | `every PHRASE` (`every week`, `every 2 days`, `every month on the 15th`, `every mon,thu`) | `repeat` | `--every PHRASE` |
//! | `[every] SPAN after done`, `SPAN after each completion` (`every 3 days after done`) | `repeat` (from completion) | `--after-done SPAN` |
//!
//! `DATE` is what [`read_date_words`] reads (the CLI's date words),
//! counted from the owner's today; `WHEN` what [`read_moment_words`] reads
//! in the owner's zone; `PHRASE` and `SPAN` what [`Repeat::from_words`]
//! and [`Repeat::after_done`] read.
//!
//! A bare date (no keyword before it) is a **start date**: "Call mum
//! tomorrow" is to be done tomorrow, so it shows in today's queue then,
//! as `tasks add "Call mum" --start tomorrow` does; a deadline is said
//! with `due` or `by`. A bare date must be said in whole words: the short
//! forms (`tom`, `mon`, `sun`, `sat`, ...) and numbers with slashes or
//! dots (`25/12`, `1.2`) are read only after a keyword, so "Call Tom" and
//! "Update to 1.2" keep their titles. Numbers that read two ways after a
//! keyword (`due 12/11`) are refused (422 on the field), as the CLI
//! refuses them.
//!
//! A repeat needs a date to count from: a line with a repeat and neither
//! a start date nor a deadline starts on the repeat's first date from
//! today (today for `every week` or one counted from completion, the next
//! 15th for `every month on the 15th`), so "Water plants every 2 days"
//! starts today.

use jiff::civil::Date;
use jiff::tz::TimeZone;

use super::TaskInput;
use super::repeat::{Cursor, Repeat, RepeatFrom};
use crate::error::{Error, Result};
use crate::input::Field;
use crate::time::{DateWordsError, MomentWordsError, add_days, read_date_words, read_moment_words};

/// The fields a phrase sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Start,
    Deadline,
    Expires,
    Remind,
    Repeat,
}

/// The keywords before a date, and the field each sets.
const DATE_KEYWORDS: [(&str, Slot); 9] = [
    ("on", Slot::Start),
    ("start", Slot::Start),
    ("starts", Slot::Start),
    ("starting", Slot::Start),
    ("due", Slot::Deadline),
    ("by", Slot::Deadline),
    ("deadline", Slot::Deadline),
    ("expires", Slot::Expires),
    ("expiring", Slot::Expires),
];

/// Short date words read only after a keyword (they are also names and
/// words: "Call Tom", "Walk in the sun").
const SHORT_DATE_WORDS: [&str; 13] = [
    "tod", "tom", "tmr", "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun",
];

/// The most words a bare date takes (`15 dec 2027`, `in 2 weeks`).
const BARE_DATE_WORDS: usize = 3;

/// What one phrase at the end of the line set.
#[derive(Debug)]
enum Found {
    Date(Slot, Date),
    Remind(jiff::Timestamp),
    Repeat(Repeat),
}

/// The task a quick-add line says, counting dates from `today` (the
/// owner's today) and reading times in `zone` (the owner's zone); see
/// the module's grammar. The input has the title and the fields the line
/// names; its home is left to the caller (the Inbox when unset).
///
/// # Errors
///
/// [`Error::Validation`] on `start_on`, `deadline_on`, `expires_on` or
/// `remind_at` for a date after a keyword that reads two ways (`due
/// 12/11`).
pub fn read_quick_add(text: &str, today: Date, zone: &TimeZone) -> Result<TaskInput> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut end = words.len();
    let mut input = TaskInput::default();
    let mut taken: Vec<Slot> = Vec::new();
    while end > 1 {
        let Some((start, found)) = peel(&words[..end], today, zone, &taken)? else {
            break;
        };
        match found {
            Found::Date(slot, date) => {
                let field = Field::Value(date);
                match slot {
                    Slot::Start => input.start_on = field,
                    Slot::Deadline => input.deadline_on = field,
                    Slot::Expires => input.expires_on = field,
                    Slot::Remind | Slot::Repeat => {}
                }
                taken.push(slot);
            }
            Found::Remind(at) => {
                input.remind_at = Field::Value(at);
                taken.push(Slot::Remind);
            }
            Found::Repeat(repeat) => {
                input.repeat = Field::Value(repeat);
                taken.push(Slot::Repeat);
            }
        }
        end = start;
    }
    if let Field::Value(repeat) = &input.repeat
        && !matches!(input.start_on, Field::Value(_))
        && !matches!(input.deadline_on, Field::Value(_))
        && let Some(first) = first_date(repeat, today)
    {
        input.start_on = Field::Value(first);
    }
    input.title = Some(words[..end].join(" "));
    Ok(input)
}

/// The longest phrase that ends `words` and reads (never the first word):
/// where it starts and what it says.
fn peel(
    words: &[&str],
    today: Date,
    zone: &TimeZone,
    taken: &[Slot],
) -> Result<Option<(usize, Found)>> {
    let free = |slot: Slot| !taken.contains(&slot);
    for start in 1..words.len() {
        let phrase = &words[start..];
        let lower: Vec<String> = phrase.iter().map(|w| w.to_lowercase()).collect();
        let rest = lower[1..].join(" ");
        let whole = lower.join(" ");
        // A date after a keyword.
        if let Some((_, slot)) = DATE_KEYWORDS.iter().find(|(k, _)| *k == lower[0])
            && free(*slot)
            && !rest.is_empty()
        {
            match read_date_words(&rest, today) {
                Ok(date) => return Ok(Some((start, Found::Date(*slot, date)))),
                Err(DateWordsError::Ambiguous(a, b)) => {
                    return Err(Error::invalid(
                        slot_field(*slot),
                        format!("“{rest}” {}", DateWordsError::Ambiguous(a, b)),
                    ));
                }
                Err(DateWordsError::NotADate) => {}
            }
        }
        // A reminder.
        if lower[0] == "remind" && free(Slot::Remind) {
            let when = rest.strip_prefix("me ").unwrap_or(&rest);
            if !when.is_empty() {
                match read_moment_words(when, today, zone) {
                    Ok(at) => return Ok(Some((start, Found::Remind(at)))),
                    Err(MomentWordsError::Ambiguous(a, b)) => {
                        return Err(Error::invalid(
                            "remind_at",
                            format!("“{when}” {}", DateWordsError::Ambiguous(a, b)),
                        ));
                    }
                    Err(MomentWordsError::NotAMoment) => {}
                }
            }
        }
        // A repeat.
        if free(Slot::Repeat)
            && (lower[0] == "every" || completion_suffix(&whole).is_some())
            && let Ok(Some(repeat)) = read_repeat_words(&whole)
        {
            return Ok(Some((start, Found::Repeat(repeat))));
        }
        // A bare date, in whole words.
        if free(Slot::Start)
            && phrase.len() <= BARE_DATE_WORDS
            && !lower.iter().any(|w| SHORT_DATE_WORDS.contains(&w.as_str()))
            && !(phrase.len() == 1 && numeric(&whole))
            && let Ok(date) = read_date_words(&whole, today)
        {
            return Ok(Some((start, Found::Date(Slot::Start, date))));
        }
    }
    Ok(None)
}

/// The API's field a slot sets.
fn slot_field(slot: Slot) -> &'static str {
    match slot {
        Slot::Start => "start_on",
        Slot::Deadline => "deadline_on",
        Slot::Expires => "expires_on",
        Slot::Remind => "remind_at",
        Slot::Repeat => "repeat",
    }
}

/// `25/12`, `1.2`: numbers with slashes or dots.
fn numeric(word: &str) -> bool {
    word.bytes().any(|b| b == b'/' || b == b'.')
        && word
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'/' || b == b'.')
}

/// The span of a repeat counted from completion (`3 days after done`,
/// `a week after each completion`): the words before the ending.
fn completion_suffix(lower: &str) -> Option<&str> {
    ["after each completion", "after done"]
        .iter()
        .find_map(|end| lower.strip_suffix(end))
        .map(str::trim)
        .filter(|span| !span.is_empty())
}

/// The first date of a series that starts with no date of its own: today,
/// or for a fixed schedule that picks days (`every month on the 15th`,
/// `every weekday`) its first day from today.
fn first_date(repeat: &Repeat, today: Date) -> Option<Date> {
    let rule = repeat.stored_rule()?;
    let picks_days =
        !rule.by_day.is_empty() || !rule.by_month_day.is_empty() || !rule.by_month.is_empty();
    if repeat.from == RepeatFrom::Completion || !picks_days {
        return Some(today);
    }
    // The first such day, whatever the interval: the series counts its
    // interval from there.
    let mut rule = rule;
    rule.interval = 1;
    rule.count = None;
    rule.until = None;
    let yesterday = add_days(today, -1);
    rule.next(RepeatFrom::Due, Cursor::start(yesterday), yesterday, today)
        .map(|(date, _)| date)
}

/// A repeat as the owner writes it in a form: the CLI's `--every` phrases
/// (`every week`, `every month on the 15th`, a raw `RRULE:`), a span
/// counted from completion (`3 days after done`, `a week after each
/// completion`: `--after-done`), or what [`Repeat::to_words`] writes
/// (`by the rule FREQ=...` too); blank or `none` is no repeat (`None`).
///
/// # Errors
///
/// What phrases there are, when `phrase` is none of them.
pub fn read_repeat_words(phrase: &str) -> std::result::Result<Option<Repeat>, String> {
    let trimmed = phrase.trim();
    let lower = trimmed.to_lowercase();
    if lower.is_empty() || lower == "none" || lower == "never" {
        return Ok(None);
    }
    if let Some(span) = completion_suffix(&lower) {
        let span = span.strip_prefix("every ").unwrap_or(span);
        return Repeat::after_done(span).map(Some);
    }
    let raw = match lower.strip_prefix("by the rule ") {
        Some(_) => trimmed["by the rule ".len()..].trim(),
        None => trimmed,
    };
    Repeat::from_words(raw).map(Some)
}

/// A description typed as plain text, as the note-body HTML a task's
/// `description_html` takes: each line a paragraph, its text escaped;
/// `None` when it is blank (which clears a description).
pub fn description_html(text: &str) -> Option<String> {
    let mut html = String::new();
    for line in text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
    {
        html.push_str("<p>");
        for c in line.chars() {
            match c {
                '&' => html.push_str("&amp;"),
                '<' => html.push_str("&lt;"),
                '>' => html.push_str("&gt;"),
                '"' => html.push_str("&quot;"),
                '\'' => html.push_str("&#39;"),
                c => html.push(c),
            }
        }
        html.push_str("</p>");
    }
    (!html.is_empty()).then_some(html)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-03-11 is a Wednesday.
    fn today() -> Date {
        "2026-03-11".parse().unwrap()
    }

    fn date(s: &str) -> Field<Date> {
        Field::Value(s.parse().unwrap())
    }

    fn rule(s: &str) -> Field<Repeat> {
        Field::Value(Repeat::rule(s))
    }

    fn read(text: &str) -> TaskInput {
        read_quick_add(text, today(), &TimeZone::UTC).unwrap()
    }

    #[test]
    fn lines_people_type() {
        type Row = (
            &'static str,
            &'static str,
            Field<Date>,
            Field<Date>,
            Field<Repeat>,
        );
        let none = Field::Absent;
        let cases: Vec<Row> = vec![
            (
                "Buy oat milk",
                "Buy oat milk",
                none.clone(),
                none.clone(),
                Field::Absent,
            ),
            (
                "Call mum tomorrow",
                "Call mum",
                date("2026-03-12"),
                none.clone(),
                Field::Absent,
            ),
            (
                "Call mum tomorrow every week",
                "Call mum",
                date("2026-03-12"),
                none.clone(),
                rule("FREQ=WEEKLY"),
            ),
            (
                "Call mum every week tomorrow",
                "Call mum",
                date("2026-03-12"),
                none.clone(),
                rule("FREQ=WEEKLY"),
            ),
            (
                "Pay rent due friday",
                "Pay rent",
                none.clone(),
                date("2026-03-13"),
                Field::Absent,
            ),
            (
                "Pay rent by fri",
                "Pay rent",
                none.clone(),
                date("2026-03-13"),
                Field::Absent,
            ),
            (
                "Water plants every 2 days",
                "Water plants",
                date("2026-03-11"),
                none.clone(),
                rule("FREQ=DAILY;INTERVAL=2"),
            ),
            (
                "Book dentist on dec 15",
                "Book dentist",
                date("2026-12-15"),
                none.clone(),
                Field::Absent,
            ),
            (
                "Book dentist dec 15",
                "Book dentist",
                date("2026-12-15"),
                none.clone(),
                Field::Absent,
            ),
            (
                "Report next week",
                "Report",
                date("2026-03-16"),
                none.clone(),
                Field::Absent,
            ),
            (
                "Report in 2 weeks",
                "Report",
                date("2026-03-25"),
                none.clone(),
                Field::Absent,
            ),
            (
                "Taxes 2026-04-01",
                "Taxes",
                date("2026-04-01"),
                none.clone(),
                Field::Absent,
            ),
            (
                "Pay rent every month on the 15th",
                "Pay rent",
                date("2026-03-15"),
                none.clone(),
                rule("FREQ=MONTHLY;BYMONTHDAY=15"),
            ),
            (
                "Pay rent due friday every month",
                "Pay rent",
                none.clone(),
                date("2026-03-13"),
                rule("FREQ=MONTHLY"),
            ),
            (
                "Stand-up every weekday",
                "Stand-up",
                date("2026-03-11"),
                none.clone(),
                rule("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
            ),
            (
                "Gym every 2 weeks on monday",
                "Gym",
                date("2026-03-16"),
                none.clone(),
                rule("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"),
            ),
            (
                "Meet on friday every week",
                "Meet",
                date("2026-03-13"),
                none.clone(),
                rule("FREQ=WEEKLY"),
            ),
            (
                "Meet Bob on the train every friday due monday",
                "Meet Bob on the train",
                none.clone(),
                date("2026-03-16"),
                rule("FREQ=WEEKLY;BYDAY=FR"),
            ),
            (
                "Descale kettle every 3 days after done",
                "Descale kettle",
                date("2026-03-11"),
                none.clone(),
                Field::Value(Repeat::from_completion("FREQ=DAILY;INTERVAL=3")),
            ),
            (
                "Descale kettle a week after each completion",
                "Descale kettle",
                date("2026-03-11"),
                none.clone(),
                Field::Value(Repeat::from_completion("FREQ=WEEKLY")),
            ),
            // What stays in the title.
            (
                "Call Tom",
                "Call Tom",
                none.clone(),
                none.clone(),
                Field::Absent,
            ),
            (
                "Walk in the sun",
                "Walk in the sun",
                none.clone(),
                none.clone(),
                Field::Absent,
            ),
            (
                "Update to 1.2",
                "Update to 1.2",
                none.clone(),
                none.clone(),
                Field::Absent,
            ),
            (
                "Read every page",
                "Read every page",
                none.clone(),
                none.clone(),
                Field::Absent,
            ),
            (
                "Go by bus",
                "Go by bus",
                none.clone(),
                none.clone(),
                Field::Absent,
            ),
            (
                "Tomorrow",
                "Tomorrow",
                none.clone(),
                none.clone(),
                Field::Absent,
            ),
            (
                "Every week",
                "Every week",
                none.clone(),
                none.clone(),
                Field::Absent,
            ),
            ("", "", none.clone(), none.clone(), Field::Absent),
            // Short forms after a keyword.
            (
                "Call Tom on tom",
                "Call Tom",
                date("2026-03-12"),
                none.clone(),
                Field::Absent,
            ),
            (
                "Pay due 25/12",
                "Pay",
                none.clone(),
                date("2026-12-25"),
                Field::Absent,
            ),
            // One of each field: the second start date stays in the title.
            (
                "Plan friday tomorrow",
                "Plan friday",
                date("2026-03-12"),
                none.clone(),
                Field::Absent,
            ),
        ];
        for (text, title, start, deadline, repeat) in cases {
            let input = read(text);
            assert_eq!(input.title.as_deref(), Some(title), "{text}");
            assert_eq!(input.start_on, start, "{text}: start");
            assert_eq!(input.deadline_on, deadline, "{text}: deadline");
            let repeat = match repeat {
                Field::Value(r) => Field::Value(r.normalised(&TimeZone::UTC).unwrap().0),
                other => other,
            };
            assert_eq!(input.repeat, repeat, "{text}: repeat");
        }
    }

    #[test]
    fn expiry_and_reminders() {
        let input = read("Renew passport expires dec 1 remind me friday 9am");
        assert_eq!(input.title.as_deref(), Some("Renew passport"));
        assert_eq!(input.expires_on, date("2026-12-01"));
        assert_eq!(
            input.remind_at,
            Field::Value("2026-03-13T09:00:00Z".parse().unwrap())
        );
        let zone = TimeZone::get("Europe/Paris").unwrap();
        let input = read_quick_add("Call remind tomorrow 18:30", today(), &zone).unwrap();
        assert_eq!(input.title.as_deref(), Some("Call"));
        assert_eq!(
            input.remind_at,
            Field::Value("2026-03-12T17:30:00Z".parse().unwrap())
        );
    }

    #[test]
    fn dates_that_read_two_ways_are_refused_on_their_field() {
        for (text, field) in [
            ("Pay due 12/11", "deadline_on"),
            ("Go on 3/4", "start_on"),
            ("Call remind 12/11 9:00", "remind_at"),
        ] {
            match read_quick_add(text, today(), &TimeZone::UTC) {
                Err(Error::Validation(d)) => assert!(d.has(field), "{text}: {d:?}"),
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn repeat_words_of_a_form() {
        let cases: [(&str, Option<Repeat>); 8] = [
            ("", None),
            ("none", None),
            ("every week", Some(Repeat::rule("FREQ=WEEKLY"))),
            ("week", Some(Repeat::rule("FREQ=WEEKLY"))),
            (
                "every month on the 15th",
                Some(Repeat::rule("FREQ=MONTHLY;BYMONTHDAY=15")),
            ),
            (
                "RRULE:FREQ=DAILY;INTERVAL=2",
                Some(Repeat::rule("FREQ=DAILY;INTERVAL=2")),
            ),
            (
                "3 days after each completion",
                Some(Repeat::from_completion("FREQ=DAILY;INTERVAL=3")),
            ),
            (
                "by the rule FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29",
                Some(Repeat::rule("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29")),
            ),
        ];
        for (phrase, want) in cases {
            let want = want.map(|r| r.normalised(&TimeZone::UTC).unwrap().0);
            assert_eq!(read_repeat_words(phrase).unwrap(), want, "{phrase}");
        }
        assert!(read_repeat_words("every fortnight").is_err());
        // What `to_words` writes reads back.
        for rule in [
            "FREQ=WEEKLY;BYDAY=MO,TH",
            "FREQ=MONTHLY;BYDAY=-1FR",
            "FREQ=DAILY;COUNT=3",
        ] {
            let repeat = Repeat::rule(rule).normalised(&TimeZone::UTC).unwrap().0;
            let words = repeat.to_words();
            assert_eq!(read_repeat_words(&words).unwrap(), Some(repeat), "{words}");
        }
        let after = Repeat::from_completion("FREQ=WEEKLY;INTERVAL=2")
            .normalised(&TimeZone::UTC)
            .unwrap()
            .0;
        assert_eq!(read_repeat_words(&after.to_words()).unwrap(), Some(after));
    }

    #[test]
    fn descriptions_as_plain_text() {
        let cases = [
            ("", None),
            ("  \n \n", None),
            ("One line", Some("<p>One line</p>")),
            ("a\n\nb\r\nc", Some("<p>a</p><p>b</p><p>c</p>")),
            (
                "<script>alert(\"x\") & 'y'</script>",
                Some("<p>&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;</p>"),
            ),
        ];
        for (text, want) in cases {
            assert_eq!(description_html(text).as_deref(), want, "{text:?}");
        }
    }
}
