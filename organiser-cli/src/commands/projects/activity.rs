//! `organiser projects activity P [--limit N | --all]`: the project's whole
//! activity feed (status and deadline changes, members added and removed,
//! tasks completed, notes, documents, its creation), newest first as the
//! API gives it: the day in the owner's zone, what happened, and its
//! details.

use std::collections::HashMap;

use clap::Args;
use jiff::tz::TimeZone;
use organiser_core::{
    Id, projects::ActivityEntry, projects::ActivityQuery, projects::EventKind, projects::Project,
    projects::ProjectEvent,
};

use super::no_project;
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Activity {
    /// The project: its row number, name, short ID or ID.
    project: String,
    /// Most entries to show (the pages of the API are read until there
    /// are this many).
    #[arg(long, default_value_t = 50)]
    limit: u32,
    /// Show every entry, however many.
    #[arg(long, conflicts_with = "limit")]
    all: bool,
}

impl Activity {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let project = s.refs.record::<Project>(&self.project)?;
        let limit = if self.all {
            usize::MAX
        } else {
            self.limit as usize
        };
        let page = crate::refs::first_pages(limit, |params| {
            let query = ActivityQuery {
                cursor: params.cursor,
                limit: params.limit,
            };
            Ok(s.client
                .reply(|c| c.project_activity().list(project.id, &query))?
                .data)
        })
        .map_err(no_project(project.id))?;
        if s.global.json {
            return output::json(&page);
        }
        let entries = &page.items;
        output::line(format!(
            "Activity · {} · {} {}",
            project.name,
            entries.len(),
            if entries.len() == 1 {
                "entry"
            } else {
                "entries"
            }
        ))?;
        let zone = TimeZone::get(&s.client.reply(|c| c.account().me())?.data.time_zone_iana)
            .unwrap_or(TimeZone::UTC);
        let mut names: HashMap<Id, String> = HashMap::new();
        let mut table = output::table(&["WHEN", "WHAT", "DETAILS"]);
        for entry in entries {
            let (at, what, details) = describe(s, &mut names, entry);
            table.add_row(vec![
                output::cell(output::date(at.to_zoned(zone.clone()).date())),
                output::cell(what),
                output::cell(details),
            ]);
        }
        output::print_table(&table)?;
        if page.next_cursor.is_some() {
            output::line("… and more (--limit, --all)")?;
        }
        Ok(())
    }
}

/// An entry as a row: when, what happened ("status", "member added",
/// "task completed", ...) and its details ("active → done", "Ada (lead)",
/// the task's title).
fn describe(
    s: &Session<'_>,
    names: &mut HashMap<Id, String>,
    entry: &ActivityEntry,
) -> (jiff::Timestamp, &'static str, String) {
    match entry {
        ActivityEntry::Event { at, event } => {
            let (what, details) = event_details(s, names, event);
            (*at, what, details)
        }
        ActivityEntry::Task { at, task } => (*at, "task completed", task.title.clone()),
        ActivityEntry::Note { at, note } => (*at, "note", note.name.clone()),
        ActivityEntry::Document { at, document } => (*at, "document", document.name.clone()),
        ActivityEntry::Created { at, .. } => (*at, "created", String::new()),
    }
}

/// An event's values as the project commands print them.
pub(super) struct EventWords<'a, 'n> {
    s: &'a Session<'a>,
    names: &'n mut HashMap<Id, String>,
    event: &'a ProjectEvent,
}

impl<'a, 'n> EventWords<'a, 'n> {
    /// The words of `event`; the people it names are read once each
    /// into `names`.
    pub(super) fn new(
        s: &'a Session<'a>,
        names: &'n mut HashMap<Id, String>,
        event: &'a ProjectEvent,
    ) -> Self {
        EventWords { s, names, event }
    }

    /// `from` or `to` as written, "none" for none.
    pub(super) fn value(v: &Option<String>) -> String {
        v.clone().unwrap_or_else(|| "none".to_owned())
    }

    /// `from` or `to` as a date the tables print.
    pub(super) fn day(v: &Option<String>) -> String {
        match v.as_deref().map(str::parse::<jiff::civil::Date>) {
            Some(Ok(d)) => output::date(d),
            _ => Self::value(v),
        }
    }

    /// The deadline change: "set to …", "removed (was …)", "… → …".
    pub(super) fn deadline(&self) -> String {
        let event = self.event;
        match (&event.from, &event.to) {
            (None, Some(_)) => format!("set to {}", Self::day(&event.to)),
            (Some(_), None) => format!("removed (was {})", Self::day(&event.from)),
            _ => format!("{} → {}", Self::day(&event.from), Self::day(&event.to)),
        }
    }

    /// The status change: "active → done".
    pub(super) fn status(&self) -> String {
        format!(
            "{} → {}",
            Self::value(&self.event.from),
            Self::value(&self.event.to)
        )
    }

    /// The member's name ("someone" for none).
    pub(super) fn person(&mut self) -> String {
        let Some(id) = self.event.person_id else {
            return "someone".to_owned();
        };
        let client = self.s.client;
        self.names
            .entry(id)
            .or_insert_with(|| {
                client
                    .reply(|c| c.people().get(id))
                    .map(|p| p.data.name)
                    .unwrap_or_else(|_| output::short_id(id))
            })
            .clone()
    }
}

/// An event's kind and details: "status" "active → done", "deadline"
/// "2026-04-01 → 2026-05-01" ("set to …", "removed (was …)"), "member
/// added" "Ada (lead)", "member removed" "Ada".
fn event_details<'a>(
    s: &'a Session<'a>,
    names: &mut HashMap<Id, String>,
    event: &'a ProjectEvent,
) -> (&'static str, String) {
    let mut words = EventWords::new(s, names, event);
    match event.kind {
        EventKind::Status => ("status", words.status()),
        EventKind::Deadline => ("deadline", words.deadline()),
        EventKind::MemberAdded => (
            "member added",
            match &event.role {
                Some(role) => format!("{} ({role})", words.person()),
                None => words.person(),
            },
        ),
        EventKind::MemberRemoved => ("member removed", words.person()),
    }
}
