//! `organiser people show P`: everything about a person on one screen:
//! relationships, photo, contact details with their labels, social
//! profiles, key dates with when they next fall, jobs with their
//! companies, connections with the other person's name and role, the
//! projects they are a member of, their open tasks, the notes that
//! mention them, the documents linked to them, and their next meetings in
//! the calendar.
//!
//! One request shows it all: `GET /people/{id}/overview` (the core
//! gathers each part as its list would), after the one that finds a name
//! (none for a row number or an ID). The labels are the vocabulary this
//! build holds.

use std::collections::HashMap;

use clap::Args;
use jiff::tz::TimeZone;
use organiser_core::{Id, people::Excerpt, people::Person};

use crate::commands::vocabulary::Vocabulary;
use crate::commands::{Session, calendar};
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Show {
    /// The person: their row number, name, short ID or ID.
    #[arg(required = true, num_args = 1..)]
    person: Vec<String>,
}

impl Show {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let id = s.refs.id::<Person>(&self.person.join(" "))?;
        let reply = s
            .client
            .reply(|c| c.person_overviews().get(id))
            .map_err(super::no_person(id))?;
        if s.global.json {
            return output::json(&serde_json::json!({"data": reply.body["data"]["person"]}));
        }
        let overview = reply.data;
        let person = &overview.person;
        let labels = Vocabulary::builtin();
        let mut rows: Vec<(String, String)> = Vec::new();
        let mut put = |label: &str, value: String| rows.push((label.to_owned(), value));
        put("ID", person.id.to_string());
        if let Some(avatar) = &person.avatar {
            put("Photo", avatar.url.clone());
        }
        if !person.relationships.is_empty() {
            let said: Vec<String> = person
                .relationships
                .iter()
                .map(|key| labels.label("relationships", key))
                .collect();
            put("Relationships", said.join(", "));
        }
        for email in &person.email_addresses {
            put("Email", labelled(&email.address, email.label.as_deref()));
        }
        for phone in &person.phone_numbers {
            put("Phone", labelled(&phone.number, phone.label.as_deref()));
        }
        for profile in &person.social_profiles {
            let platform = labels.label("social_platforms", &profile.platform);
            put(&platform, labelled(&profile.url, profile.label.as_deref()));
        }
        // When each key date next falls, and its years then: the API's to
        // work out (29 February, the owner's today).
        for date in &person.key_dates {
            let mut kind = labels.label("key_date_kinds", &date.kind);
            if let Some(label) = &date.label {
                kind = format!("{kind} ({label})");
            }
            let mut said = match date.year {
                Some(year) => format!("{year:04}-{:02}-{:02}", date.month, date.day),
                None => format!("--{:02}-{:02}", date.month, date.day),
            };
            if let Some(next) = overview.key_dates.iter().find(|u| u.key_date.id == date.id) {
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
        // Positions name their company by ID; the overview has each.
        let companies: HashMap<Id, &str> = overview
            .companies
            .iter()
            .map(|c| (c.id, c.name.as_str()))
            .collect();
        for position in &person.positions {
            let company = position
                .company_id
                .and_then(|id| companies.get(&id).copied());
            let job = match (&position.title, company) {
                (Some(title), Some(company)) => format!("{title} at {company}"),
                (Some(title), None) => title.clone(),
                (None, Some(company)) => company.to_owned(),
                (None, None) => continue,
            };
            put("Works", job);
        }
        // Connections name the other person by ID; the overview has each.
        let names: HashMap<Id, &str> = overview
            .connections
            .iter()
            .map(|p| (p.id, p.name.as_str()))
            .collect();
        for connection in &person.connections {
            let other = names
                .get(&connection.person_id)
                .map(|name| (*name).to_owned())
                .unwrap_or_else(|| connection.person_id.to_string());
            let role = labels.label("person_links", &connection.kind);
            let mut said = format!("{other} ({})", role.to_lowercase());
            if let Some(note) = &connection.note {
                said.push_str(&format!(" · {note}"));
            }
            put("Connection", said);
        }
        // The projects they are a member of, whatever their status, by
        // name: "Website (lead) · active".
        let projects = overview.projects.data.iter().map(|project| {
            let role = project
                .members
                .iter()
                .find(|m| m.person_id == person.id)
                .and_then(|m| m.role.as_deref());
            format!(
                "{} · {}",
                labelled(&project.name, role),
                project.status.key()
            )
        });
        for said in with_more(projects, &overview.projects) {
            put("Project", said);
        }
        let tasks = overview.tasks.data.iter().map(|task| {
            let mut said = format!("{} {}", output::short_id(task.id), task.title);
            if let Some(deadline) = task.deadline_on {
                said.push_str(&format!(" · due {}", output::date(deadline)));
            }
            said
        });
        for said in with_more(tasks, &overview.tasks) {
            put("Task", said);
        }
        let notes = overview
            .notes
            .data
            .iter()
            .map(|note| format!("{} {}", output::short_id(note.id), note.name));
        for said in with_more(notes, &overview.notes) {
            put("Note", said);
        }
        let documents = overview
            .documents
            .data
            .iter()
            .map(|doc| format!("{} {}", output::short_id(doc.id), doc.name));
        for said in with_more(documents, &overview.documents) {
            put("Document", said);
        }
        // The calendar's events the person attends, soonest first: when
        // (in the owner's zone), the title and the meeting link.
        let meetings = &overview.meetings;
        let zone = TimeZone::get(&overview.time_zone_iana).unwrap_or(TimeZone::UTC);
        for event in &meetings.data {
            let what = calendar::event_text(event, &labels, false);
            put(
                "Next meetings",
                format!("{} · {what}", calendar::event_when(event, &zone)),
            );
        }
        if meetings.meta.has_more {
            put("Next meetings", "… and more".to_owned());
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

/// The rows of an overview's part, then "… and N more" when the part
/// holds more than it shows.
fn with_more<T>(rows: impl Iterator<Item = String>, part: &Excerpt<T>) -> Vec<String> {
    let mut said: Vec<String> = rows.collect();
    let shown = part.data.len() as u64;
    if part.total_count > shown {
        said.push(format!("… and {} more", part.total_count - shown));
    }
    said
}
