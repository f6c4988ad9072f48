//! Dates as people type them (docs/cli.md, "Dates people type"), one
//! reading for every command that takes a date (`tasks add --deadline`,
//! `projects add --deadline`, ...): `YYYY-MM-DD`, `today`, `tomorrow`, a
//! weekday, `dec 15`, `+3d`, `in 2 weeks`, `next week`; `none` (or `-`)
//! clears. A mistake names the flag it was given to. Words count from
//! the owner's today, asked of the store once, and only when a word needs
//! it. Moments (`tasks add --remind "tomorrow 9:00"`) are the same
//! words with a time of day, in the owner's zone. And how `add` and
//! `edit` echo the dates they worked out.

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use organiser_core::Field;
use organiser_core::time::{read_date_words, read_moment_words};

use crate::door::Client;
use crate::door::Doors;
use crate::error::CliError;

/// Reads typed dates against the owner's today.
pub(crate) struct Days<'c> {
    client: &'c Client,
    today: Option<Date>,
    /// The owner's zone, asked of the store with today when a moment
    /// needs it.
    zone: Option<TimeZone>,
}

impl<'c> Days<'c> {
    pub(crate) fn new(client: &'c Client) -> Self {
        Days {
            client,
            today: None,
            zone: None,
        }
    }

    /// Reads dates against `today`, already asked of the store.
    pub(crate) fn knowing(client: &'c Client, today: Date) -> Self {
        Days {
            client,
            today: Some(today),
            zone: None,
        }
    }

    /// The date `text`, given as `flag`, names; an error when it names
    /// none (`none` and `-` too: here a date is wanted, not a clear).
    pub(crate) fn date(&mut self, flag: &str, text: &str) -> Result<Date, CliError> {
        match self.field(flag, text)? {
            Field::Value(day) => Ok(day),
            _ => Err(not_a_date(
                flag,
                text,
                &organiser_core::time::DateWordsError::NotADate,
            )),
        }
    }

    /// The field `text`, given as `flag`, sets: null for `none`, `-` or
    /// nothing (a clear), else the date it names; an error, naming `flag`,
    /// when it names none.
    pub(crate) fn field(&mut self, flag: &str, text: &str) -> Result<Field<Date>, CliError> {
        if matches!(text.trim().to_lowercase().as_str(), "none" | "-" | "") {
            return Ok(Field::Null);
        }
        let today = self.today()?;
        read_date_words(text, today)
            .map(Field::Value)
            .map_err(|e| not_a_date(flag, text, &e))
    }

    /// The owner's today, asked of the store once.
    pub(crate) fn today(&mut self) -> Result<Date, CliError> {
        Ok(match self.today {
            Some(day) => day,
            None => *self
                .today
                .insert(self.client.reply(|c| c.account().me())?.data.today),
        })
    }

    /// The instant `text`, given as `flag`, names in the owner's zone
    /// (`tomorrow 9:00`, `friday 2:30pm`, an RFC 3339 instant: the
    /// core's [`read_moment_words`]); null for `none`, `-` or nothing (a
    /// clear); absent when the flag was not given; an error, naming
    /// `flag`, when it names none.
    pub(crate) fn moment(
        &mut self,
        flag: &str,
        text: Option<&str>,
    ) -> Result<Field<Timestamp>, CliError> {
        let Some(text) = text else {
            return Ok(Field::Absent);
        };
        if matches!(text.trim().to_lowercase().as_str(), "none" | "-" | "") {
            return Ok(Field::Null);
        }
        let (today, zone) = match (self.today, &self.zone) {
            (Some(today), Some(zone)) => (today, zone.clone()),
            _ => {
                let me = self.client.reply(|c| c.account().me())?.data;
                let zone = TimeZone::get(&me.time_zone_iana).unwrap_or(TimeZone::UTC);
                self.today = Some(me.today);
                self.zone = Some(zone.clone());
                (me.today, zone)
            }
        };
        read_moment_words(text, today, &zone)
            .map(Field::Value)
            .map_err(|e| CliError::msg(format!("{flag}: {text:?} {e}")))
    }

    /// [`Days::field`] of a flag that may be absent.
    pub(crate) fn given(
        &mut self,
        flag: &str,
        text: Option<&str>,
    ) -> Result<Field<Date>, CliError> {
        match text {
            Some(text) => self.field(flag, text),
            None => Ok(Field::Absent),
        }
    }
}

fn not_a_date(flag: &str, text: &str, why: &organiser_core::time::DateWordsError) -> CliError {
    CliError::msg(format!("{flag}: {text:?} {why}"))
}

/// One date a command was given, as it was worked out.
pub(crate) struct Echo<'a> {
    /// Whether the person typed it (only those are said).
    pub(crate) typed: bool,
    /// The record's date after the change.
    pub(crate) day: Option<Date>,
    /// Said before the date: "due".
    pub(crate) word: &'a str,
    /// Said when it was cleared: "no deadline".
    pub(crate) none: &'a str,
}

/// The dates typed, as they were worked out: " · starts Tue 24 Nov · due
/// Fri 27 Nov" (with the year when it is not the year of `changed`, the
/// record's change), "no deadline" for one cleared; "" when none was typed.
pub(crate) fn worked_out(changed: Timestamp, dates: &[Echo<'_>]) -> String {
    let year = changed.to_zoned(jiff::tz::TimeZone::UTC).year();
    let mut said = String::new();
    for date in dates.iter().filter(|d| d.typed) {
        said.push_str(" · ");
        match date.day {
            Some(day) => {
                let format = if day.year() == year {
                    "%a %-d %b"
                } else {
                    "%a %-d %b %Y"
                };
                said.push_str(&format!("{} {}", date.word, day.strftime(format)));
            }
            None => said.push_str(date.none),
        }
    }
    said
}
