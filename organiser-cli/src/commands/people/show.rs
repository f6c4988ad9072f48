//! `organiser people show P`: everything about a person on one screen:
//! relationships, photo, contact details with their labels, social
//! profiles, key dates with when they next fall (as `GET
//! /upcoming_key_dates` says), jobs with their companies, connections with
//! the other person's name and role, the projects they are a member of,
//! their open tasks, the notes that mention them, the documents linked to
//! them, and their next meetings in the calendar.
//!
//! Each thing is read with the narrowest request the API has (the
//! person's projects, tasks, notes and document links by their filters),
//! the vocabulary only when a label is shown, `/upcoming_key_dates` only
//! for a person with key dates, each company and connected person once,
//! and the owner's zone only when there are meetings to place in it.

use std::cell::OnceCell;
use std::collections::HashMap;

use clap::Args;
use jiff::tz::TimeZone;
use organiser_core::{
    Home, Id, ListParams, MeetingsQuery, NoteQuery, Person, ProjectQuery, Task, TaskQuery,
    TaskStatus, UpcomingKeyDate, UpcomingQuery,
};

use crate::client::Client;
use crate::commands::vocabulary::Vocabulary;
use crate::commands::{Session, calendar, docs};
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

/// How many projects, notes and documents the screen names at most.
const PROJECTS_SHOWN: usize = 100;
const NOTES_SHOWN: usize = 10;
const DOCUMENTS_SHOWN: usize = 10;

/// `GET /vocabulary`, read the first time a label is needed.
struct Labels<'a> {
    client: &'a Client,
    read: OnceCell<Vocabulary>,
}

impl Labels<'_> {
    fn get(&self) -> Result<&Vocabulary, CliError> {
        if let Some(vocabulary) = self.read.get() {
            return Ok(vocabulary);
        }
        let vocabulary = Vocabulary::load(self.client)?;
        Ok(self.read.get_or_init(|| vocabulary))
    }

    fn label(&self, list: &str, key: &str) -> Result<String, CliError> {
        Ok(self.get()?.label(list, key))
    }
}

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
        let labels = Labels {
            client: s.client,
            read: OnceCell::new(),
        };
        let mut rows: Vec<(String, String)> = Vec::new();
        let mut put = |label: &str, value: String| rows.push((label.to_owned(), value));
        put("ID", person.id.to_string());
        if let Some(avatar) = &person.avatar {
            put("Photo", avatar.url.clone());
        }
        if !person.relationships.is_empty() {
            let said: Result<Vec<String>, CliError> = person
                .relationships
                .iter()
                .map(|key| labels.label("relationships", key))
                .collect();
            put("Relationships", said?.join(", "));
        }
        for email in &person.email_addresses {
            put("Email", labelled(&email.address, email.label.as_deref()));
        }
        for phone in &person.phone_numbers {
            put("Phone", labelled(&phone.number, phone.label.as_deref()));
        }
        for profile in &person.social_profiles {
            let platform = labels.label("social_platforms", &profile.platform)?;
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
            let mut kind = labels.label("key_date_kinds", &date.kind)?;
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
        // Positions name their company by ID: each company read once.
        let mut companies: HashMap<Id, String> = HashMap::new();
        for position in &person.positions {
            let company = match position.company_id {
                Some(id) => Some(match companies.get(&id) {
                    Some(name) => name.clone(),
                    None => {
                        let name = s.client.company(id)?.data.name;
                        companies.insert(id, name.clone());
                        name
                    }
                }),
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
        // Connections name the other person by ID: each read once.
        let mut names: HashMap<Id, String> = HashMap::new();
        for connection in &person.connections {
            let other = names
                .entry(connection.person_id)
                .or_insert_with(|| {
                    s.client
                        .person(connection.person_id)
                        .map(|p| p.data.name)
                        .unwrap_or_else(|_| connection.person_id.to_string())
                })
                .clone();
            let role = labels.label("person_links", &connection.kind)?;
            let mut said = format!("{other} ({})", role.to_lowercase());
            if let Some(note) = &connection.note {
                said.push_str(&format!(" · {note}"));
            }
            put("Connection", said);
        }
        for said in projects(s, &person)? {
            put("Project", said);
        }
        for task in open_tasks(s, &person)? {
            let mut said = format!("{} {}", output::short_id(task.id), task.title);
            if let Some(deadline) = task.deadline_on {
                said.push_str(&format!(" · due {}", output::date(deadline)));
            }
            put("Task", said);
        }
        for said in notes(s, &person)? {
            put("Note", said);
        }
        let (documents, linked) =
            docs::linked_to(s.client, "person_id", person.id, DOCUMENTS_SHOWN)?;
        for document in &documents {
            let said = format!("{} {}", output::short_id(document.id), document.name);
            put("Document", said);
        }
        if linked > documents.len() {
            put(
                "Document",
                format!("… and {} more", linked - documents.len()),
            );
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
                let what = calendar::event_text(event, labels.get()?, false);
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

/// The projects the person is a member of, whatever their status, by
/// name: "Website (lead) · active".
fn projects(s: &Session<'_>, person: &Person) -> Result<Vec<String>, CliError> {
    let query = ProjectQuery {
        statuses: Vec::new(),
        person_id: Some(person.id),
        params: ListParams {
            limit: PROJECTS_SHOWN,
            ..ListParams::default()
        },
    };
    let page = s.client.projects(&query)?.data;
    let mut said: Vec<String> = page
        .items
        .iter()
        .map(|project| {
            let role = project
                .members
                .iter()
                .find(|m| m.person_id == person.id)
                .and_then(|m| m.role.as_deref());
            let name = labelled(&project.name, role);
            format!("{name} · {}", project.status.key())
        })
        .collect();
    if page.next_cursor.is_some() {
        said.push("… and more".to_owned());
    }
    Ok(said)
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

/// The notes that mention the person, most recently edited first: "short
/// ID name", then how many more there are.
fn notes(s: &Session<'_>, person: &Person) -> Result<Vec<String>, CliError> {
    let query = NoteQuery {
        person_id: Some(person.id),
        params: ListParams {
            limit: NOTES_SHOWN,
            count: true,
            ..ListParams::default()
        },
        ..NoteQuery::default()
    };
    let page = s.client.notes(&query)?.data;
    let mut said: Vec<String> = page
        .items
        .iter()
        .map(|note| format!("{} {}", output::short_id(note.id), note.name))
        .collect();
    let total = page.total_count.unwrap_or(page.items.len() as u64);
    if total > page.items.len() as u64 {
        said.push(format!("… and {} more", total - page.items.len() as u64));
    }
    Ok(said)
}
