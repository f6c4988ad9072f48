//! A repeat in words (EXTENSIONS.md §1, "CLI"): the phrases `--every` and
//! `--after-done` take, read into a [`Repeat`], and a repeat said back in
//! words. Kept in the core so the CLI, the web app and embedders agree.
//!
//! Every phrase [`Repeat::to_words`] writes reads back to the same repeat
//! with [`Repeat::from_words`] (or [`Repeat::after_done`] for one counted
//! from completion).

use jiff::civil::Weekday;
use jiff::tz::TimeZone;

use super::repeat::{Freq, Repeat, RepeatFrom, Rule};

const DAYS: [(&str, &str, Weekday); 7] = [
    ("monday", "mon", Weekday::Monday),
    ("tuesday", "tue", Weekday::Tuesday),
    ("wednesday", "wed", Weekday::Wednesday),
    ("thursday", "thu", Weekday::Thursday),
    ("friday", "fri", Weekday::Friday),
    ("saturday", "sat", Weekday::Saturday),
    ("sunday", "sun", Weekday::Sunday),
];

const ORDINALS: [(&str, i8); 6] = [
    ("first", 1),
    ("second", 2),
    ("third", 3),
    ("fourth", 4),
    ("fifth", 5),
    ("last", -1),
];

const UNITS: [(&str, &str, Freq); 4] = [
    ("day", "d", Freq::Daily),
    ("week", "w", Freq::Weekly),
    ("month", "m", Freq::Monthly),
    ("year", "y", Freq::Yearly),
];

fn day_named(word: &str) -> Option<Weekday> {
    let word = word.trim_end_matches('s');
    DAYS.iter()
        .find(|(long, short, _)| {
            word == *short || (word.len() >= 3 && long.starts_with(word) && word.starts_with(short))
        })
        .map(|(_, _, d)| *d)
}

fn day_word(day: Weekday) -> &'static str {
    match day {
        Weekday::Monday => "Monday",
        Weekday::Tuesday => "Tuesday",
        Weekday::Wednesday => "Wednesday",
        Weekday::Thursday => "Thursday",
        Weekday::Friday => "Friday",
        Weekday::Saturday => "Saturday",
        Weekday::Sunday => "Sunday",
    }
}

/// `N unit`, `unit`, `Nd`: the frequency and interval.
fn unit_phrase(text: &str) -> Option<(Freq, u16)> {
    let text = text.trim();
    let (n, unit) = match text.split_once(char::is_whitespace) {
        Some((n, unit)) if n.parse::<u16>().is_ok() => (n.parse().ok()?, unit.trim()),
        _ => {
            let digits = text.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 && digits < text.len() {
                (text[..digits].parse().ok()?, &text[digits..])
            } else {
                (1, text.strip_prefix("a ").unwrap_or(text).trim())
            }
        }
    };
    let unit = unit.strip_suffix('s').unwrap_or(unit);
    let freq = UNITS
        .iter()
        .find(|(long, short, _)| unit == *long || unit == *short)
        .map(|(_, _, f)| *f)?;
    Some((freq, n))
}

/// `15th`, `1st`, `the 2nd`: a day of the month.
fn month_day(text: &str) -> Option<i8> {
    let text = text.trim().strip_prefix("the ").unwrap_or(text.trim());
    if text == "last day" || text == "last day of the month" {
        return Some(-1);
    }
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    let suffix = &text[digits.len()..];
    if digits.is_empty() || !["st", "nd", "rd", "th"].contains(&suffix) {
        return None;
    }
    digits.parse::<i8>().ok().filter(|d| (1..=31).contains(d))
}

/// `first mon`, `the last friday`: an ordinal weekday of the month.
fn month_weekday(text: &str) -> Option<(i8, Weekday)> {
    let text = text.trim().strip_prefix("the ").unwrap_or(text.trim());
    let (ord, day) = text.split_once(char::is_whitespace)?;
    let n = ORDINALS.iter().find(|(w, _)| *w == ord).map(|(_, n)| *n)?;
    Some((n, day_named(day.trim())?))
}

/// `mon,thu`, `monday and thursday`: weekdays.
fn weekdays(text: &str) -> Option<Vec<Weekday>> {
    let text = text.trim();
    if text == "weekday" || text == "weekdays" {
        return Some(vec![
            Weekday::Monday,
            Weekday::Tuesday,
            Weekday::Wednesday,
            Weekday::Thursday,
            Weekday::Friday,
        ]);
    }
    let days: Option<Vec<Weekday>> = text
        .split([',', ' '])
        .map(str::trim)
        .filter(|w| !w.is_empty() && *w != "and")
        .map(day_named)
        .collect();
    days.filter(|d| !d.is_empty())
}

/// What follows "on": weekdays, a day of the month, or an ordinal weekday.
fn on_phrase(rule: &mut Rule, text: &str) -> Option<()> {
    if let Some(day) = month_day(text) {
        rule.by_month_day = vec![day];
        return Some(());
    }
    if let Some((n, day)) = month_weekday(text) {
        rule.by_day = vec![(n, day)];
        return Some(());
    }
    rule.by_day = weekdays(text)?.into_iter().map(|d| (0, d)).collect();
    Some(())
}

fn blank_rule(freq: Freq, interval: u16) -> Rule {
    Rule {
        freq,
        interval,
        by_month: Vec::new(),
        by_month_day: Vec::new(),
        by_day: Vec::new(),
        by_set_pos: Vec::new(),
        count: None,
        until: None,
        wkst: Weekday::Monday,
    }
}

/// Reads the ", N times" and ", until DATE" endings into `rule`; the text
/// before them.
fn endings<'a>(rule: &mut Rule, text: &'a str) -> Option<&'a str> {
    let mut text = text.trim();
    loop {
        let Some((head, tail)) = text.rsplit_once(',') else {
            return Some(text);
        };
        let tail = tail.trim();
        if let Some(date) = tail.strip_prefix("until ") {
            rule.until = Some(crate::time::parse_date(date.trim())?);
        } else if let Some(n) = tail.strip_suffix(" times").or(tail.strip_suffix(" time")) {
            rule.count = Some(n.trim().parse().ok().filter(|n| (1..=1000).contains(n))?);
        } else {
            return Some(text);
        }
        text = head.trim();
    }
}

const EVERY_HELP: &str = "must be day, week, month, year, N days|weeks|months|years, weekday, weekday names (mon,thu), 1st, 15th, last day, first mon, last fri, or an RRULE";

impl Repeat {
    /// The repeat a phrase of `--every` says, on a fixed schedule: `day`,
    /// `week`, `month`, `year`, `N days|weeks|months|years`, `weekday`,
    /// weekday names (`mon,thu`), `1st`, `15th`, `last day`, `first mon`,
    /// `last fri`, or a raw `RRULE:` (a leading `every` is allowed, and
    /// the phrases [`Repeat::to_words`] writes read back). The error says
    /// what phrases there are.
    pub fn from_words(phrase: &str) -> Result<Repeat, String> {
        let raw = phrase.trim();
        if raw
            .get(..6)
            .is_some_and(|h| h.eq_ignore_ascii_case("rrule:"))
            || raw.contains('=')
        {
            let (repeat, _) = Repeat::rule(raw).normalised(&TimeZone::UTC)?;
            return Ok(repeat);
        }
        let lower = raw.to_lowercase();
        let mut rule = blank_rule(Freq::Daily, 1);
        let text = endings(&mut rule, &lower).ok_or(EVERY_HELP)?;
        let text = text.strip_prefix("every ").unwrap_or(text).trim();
        let read = || -> Option<Rule> {
            let mut rule = rule.clone();
            let (head, on) = match text.split_once(" on ") {
                Some((head, on)) => (Some(head), Some(on)),
                None => (None, None),
            };
            match (head, on) {
                (Some(head), Some(on)) => {
                    let (freq, n) = unit_phrase(head)?;
                    rule.freq = freq;
                    rule.interval = n;
                    on_phrase(&mut rule, on)?;
                }
                _ => {
                    if let Some((freq, n)) = unit_phrase(text) {
                        rule.freq = freq;
                        rule.interval = n;
                    } else if month_day(text).is_some() || month_weekday(text).is_some() {
                        rule.freq = Freq::Monthly;
                        on_phrase(&mut rule, text)?;
                    } else {
                        rule.freq = Freq::Weekly;
                        on_phrase(&mut rule, text)?;
                    }
                }
            }
            (rule.interval >= 1 && rule.interval <= 999).then_some(rule)
        };
        let rule = read().ok_or(EVERY_HELP)?;
        let (repeat, _) = Repeat::rule(rule.to_string()).normalised(&TimeZone::UTC)?;
        Ok(repeat)
    }

    /// The repeat of `--after-done`, counted from each completion: `3d`,
    /// `2w`, `1m`, `1y`, `3 days`, `week` (the phrases
    /// [`Repeat::to_words`] writes for such a repeat read back too).
    pub fn after_done(phrase: &str) -> Result<Repeat, String> {
        let lower = phrase.trim().to_lowercase();
        let mut rule = blank_rule(Freq::Daily, 1);
        let help = "must be a number and a unit, such as 3d, 2w, 1m, 1y or 10 days";
        let text = endings(&mut rule, &lower).ok_or(help)?;
        let text = text
            .strip_suffix("after each completion")
            .or(text.strip_suffix("after done"))
            .unwrap_or(text);
        let (freq, n) = unit_phrase(text).ok_or(help)?;
        rule.freq = freq;
        rule.interval = n;
        let (repeat, _) = Repeat::from_completion(rule.to_string()).normalised(&TimeZone::UTC)?;
        Ok(repeat)
    }

    /// How the repeat reads in words: `every month on the 15th`, `every 2
    /// weeks on Monday and Thursday`, `3 days after each completion`; a
    /// rule words cannot say is shown as `by the rule FREQ=...`.
    pub fn to_words(&self) -> String {
        let Some(rule) = self.stored_rule() else {
            return format!("by the rule {}", self.rule);
        };
        let Some(mut words) = rule_words(&rule, self.from) else {
            return format!("by the rule {}", self.rule);
        };
        if let Some(count) = rule.count {
            words.push_str(&format!(
                ", {count} time{}",
                if count == 1 { "" } else { "s" }
            ));
        }
        if let Some(until) = rule.until {
            words.push_str(&format!(", until {until}"));
        }
        words
    }
}

fn unit_words(freq: Freq, n: u16) -> String {
    let unit = UNITS
        .iter()
        .find(|(_, _, f)| *f == freq)
        .map_or("day", |(long, _, _)| long);
    if n == 1 {
        unit.to_owned()
    } else {
        format!("{n} {unit}s")
    }
}

fn ordinal_suffix(n: i8) -> &'static str {
    match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

fn list_words(items: Vec<String>) -> String {
    match items.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The words of a rule with no endings; `None` when words cannot say it.
fn rule_words(rule: &Rule, from: RepeatFrom) -> Option<String> {
    let plain = rule.by_month.is_empty() && rule.by_set_pos.is_empty();
    let unit = unit_words(rule.freq, rule.interval);
    if from == RepeatFrom::Completion {
        let unit = if rule.interval == 1 {
            format!("a {unit}")
        } else {
            unit
        };
        return Some(format!("{unit} after each completion"));
    }
    if rule.wkst != Weekday::Monday && rule.interval != 1 {
        return None;
    }
    match (rule.freq, &rule.by_month_day[..], &rule.by_day[..]) {
        (_, [], []) if plain => Some(format!("every {unit}")),
        (Freq::Weekly, [], days) if plain && days.iter().all(|(n, _)| *n == 0) => {
            let weekdays: Vec<Weekday> = days.iter().map(|(_, d)| *d).collect();
            let work = [
                Weekday::Monday,
                Weekday::Tuesday,
                Weekday::Wednesday,
                Weekday::Thursday,
                Weekday::Friday,
            ];
            if rule.interval == 1 && weekdays == work {
                return Some("every weekday".into());
            }
            let names = list_words(weekdays.iter().map(|d| day_word(*d).to_owned()).collect());
            if rule.interval == 1 {
                Some(format!("every {names}"))
            } else {
                Some(format!("every {unit} on {names}"))
            }
        }
        (Freq::Monthly, [day], []) if plain => {
            let day = match *day {
                -1 => "the last day".to_owned(),
                d if d > 0 => format!("the {d}{}", ordinal_suffix(d)),
                _ => return None,
            };
            Some(format!("every {unit} on {day}"))
        }
        (Freq::Monthly, [], [(n, day)]) if plain && *n != 0 => {
            let ord = ORDINALS.iter().find(|(_, o)| o == n).map(|(w, _)| *w)?;
            Some(format!("every {unit} on the {ord} {}", day_word(*day)))
        }
        _ => None,
    }
}
