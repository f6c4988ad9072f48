//! `organiser people show P`: everything about a person on one screen:
//! relationships, contact details with their labels, key dates with when
//! they next fall (as `GET /upcoming_key_dates` says), jobs with their
//! companies, connections with the other person's name and role, the
//! person's open tasks, and their next meetings in the calendar.

use clap::Args;
use jiff::tz::TimeZone;
use organiser_core::{
    Home, ListParams, MeetingsQuery, Person, Task, TaskQuery, TaskStatus, UpcomingKeyDate,
    UpcomingQuery,
};

use crate::commands::vocabulary::Vocabulary;
use crate::commands::{Session, calendar};
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Show {
    /// The person: their row number, name, short ID or ID.
    person: String,
}

/// The most days `GET /upcoming_key_dates` looks ahead (a year and a day:
/// every date once), and the most dates it gives.
const YEAR_AHEAD: u64 = 366;
const MOST_DATES: u64 = 100;

/// How many of the person's next meetings the screen shows.
const MEETINGS: u64 = 5;

impl Show {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let person = s.refs.record::<Person>(&self.person)?;
        if s.global.json {
            let reply = s
                .client
                .person(person.id)
                .map_err(super::no_person(person.id))?;
            return output::json(&reply.body);
        }
        let vocabulary = Vocabulary::load(s.client)?;
        let mut rows: Vec<(String, String)> = Vec::new();
        let mut put = |label: &str, value: String| rows.push((label.to_owned(), value));
        put("ID", person.id.to_string());
        if !person.relationships.is_empty() {
            let labels: Vec<String> = person
                .relationships
                .iter()
                .map(|key| vocabulary.label("relationships", key))
                .collect();
            put("Relationships", labels.join(", "));
        }
        for email in &person.email_addresses {
            put("Email", labelled(&email.address, email.label.as_deref()));
        }
        for phone in &person.phone_numbers {
            put("Phone", labelled(&phone.number, phone.label.as_deref()));
        }
        for profile in &person.social_profiles {
            let platform = vocabulary.label("social_platforms", &profile.platform);
            put(&platform, labelled(&profile.url, profile.label.as_deref()));
        }
        // When each key date next falls, and its years then: the API's to
        // work out (29 February, the owner's today).
        let upcoming: Vec<UpcomingKeyDate> = if person.key_dates.is_empty() {
            Vec::new()
        } else {
            let query = UpcomingQuery {
                days: YEAR_AHEAD,
                limit: MOST_DATES,
                person_id: Some(person.id),
            };
            s.client.upcoming_key_dates(query)?.data.data
        };
        for date in &person.key_dates {
            let mut kind = vocabulary.label("key_date_kinds", &date.kind);
            if let Some(label) = &date.label {
                kind = format!("{kind} ({label})");
            }
            let mut said = match date.year {
                Some(year) => format!("{year:04}-{:02}-{:02}", date.month, date.day),
                None => format!("--{:02}-{:02}", date.month, date.day),
            };
            if let Some(next) = upcoming.iter().find(|u| u.key_date.id == date.id) {
                said.push_str(&format!(" · next {}", output::date(next.date)));
                if let Some(years) = next.years {
                    said.push_str(&format!(
                        " ({years} {})",
                        if years == 1 { "year" } else { "years" }
                    ));
                }
            }
            put(&kind, said);
        }
        for position in &person.positions {
            let company = match position.company_id {
                Some(id) => Some(s.client.company(id)?.data.name),
                None => None,
            };
            let job = match (&position.title, company) {
                (Some(title), Some(company)) => format!("{title} at {company}"),
                (Some(title), None) => title.clone(),
                (None, Some(company)) => company,
                (None, None) => continue,
            };
            put("Works", job);
        }
        for connection in &person.connections {
            let other = s
                .client
                .person(connection.person_id)
                .map(|p| p.data.name)
                .unwrap_or_else(|_| connection.person_id.to_string());
            let role = vocabulary.label("person_links", &connection.kind);
            let mut said = format!("{other} ({})", role.to_lowercase());
            if let Some(note) = &connection.note {
                said.push_str(&format!(" · {note}"));
            }
            put("Connection", said);
        }
        let tasks = open_tasks(s, &person)?;
        for task in &tasks {
            let mut said = format!("{} {}", output::short_id(task.id), task.title);
            if let Some(deadline) = task.deadline_on {
                said.push_str(&format!(" · due {}", output::date(deadline)));
            }
            put("Task", said);
        }
        // The calendar's events the person attends, soonest first: when
        // (in the owner's zone), the title and the meeting link.
        let meetings = s
            .client
            .person_meetings(person.id, MeetingsQuery { limit: MEETINGS })?
            .data;
        if !meetings.data.is_empty() {
            let zone = TimeZone::get(&s.client.me()?.data.time_zone_iana).unwrap_or(TimeZone::UTC);
            for event in &meetings.data {
                let what = calendar::event_text(event, &vocabulary, false);
                put(
                    "Next meetings",
                    format!("{} · {what}", calendar::event_when(event, &zone)),
                );
            }
            if meetings.meta.has_more {
                put("Next meetings", "… and more".to_owned());
            }
        }
        output::line(&person.name)?;
        // A label once, over the rows that share it.
        let mut last = "";
        let shown: Vec<(&str, String)> = rows
            .iter()
            .map(|(label, value)| {
                let label = if label == last { "" } else { label.as_str() };
                if !label.is_empty() {
                    last = label;
                }
                (label, value.clone())
            })
            .collect();
        output::fields(&shown)
    }
}

/// "ada@example.org (work)".
fn labelled(text: &str, label: Option<&str>) -> String {
    match label {
        Some(label) => format!("{text} ({label})"),
        None => text.to_owned(),
    }
}

/// The person's open tasks, in their order.
fn open_tasks(s: &Session<'_>, person: &Person) -> Result<Vec<Task>, CliError> {
    let query = TaskQuery {
        statuses: Some(vec![TaskStatus::Open]),
        home: Some(Home::Person(person.id)),
        params: ListParams {
            limit: 100,
            ..ListParams::default()
        },
        ..TaskQuery::default()
    };
    Ok(s.client.tasks(&query)?.data.items)
}
