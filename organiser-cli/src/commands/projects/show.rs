//! `organiser projects show P`: everything about a project on one screen:
//! its status and since when, dates, role, reference and link, members
//! with their roles, open tasks in their order, the latest activity (one
//! line each, newest first), and the description.

use std::collections::HashMap;

use clap::Args;
use jiff::Timestamp;
use jiff::tz::TimeZone;
use organiser_core::{
    Id, ListParams, projects::ActivityEntry, projects::ActivityQuery, projects::EventKind,
    projects::Project, projects::ProjectEvent, tasks::Home, tasks::Task, tasks::TaskQuery,
    tasks::TaskStatus,
};

use super::activity::EventWords;
use super::{date, list::member_names, no_project};
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Show {
    /// The project: its row number, name, short ID or ID.
    project: String,
}

/// How many activity entries the screen shows.
const ACTIVITY_SHOWN: usize = 5;

impl Show {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let id = s.refs.id::<Project>(&self.project)?;
        let reply = s
            .client
            .reply(|c| c.projects().get(id))
            .map_err(no_project(id))?;
        if s.global.json {
            return output::json(&reply.body);
        }
        let project = &reply.data;
        let me = s.client.reply(|c| c.account().me())?.data;
        let zone = TimeZone::get(&me.time_zone_iana).unwrap_or(TimeZone::UTC);
        // An instant as the owner reads it: the day (as tables print
        // days) and the time, in the owner's zone.
        let when = |at: Timestamp| {
            let local = at.to_zoned(zone.clone());
            format!("{} {}", output::date(local.date()), local.strftime("%H:%M"))
        };
        let mut names = member_names(s, std::slice::from_ref(project));
        let mut rows: Vec<(&str, String)> = Vec::new();
        let since = when(project.status_changed_at);
        rows.push((
            "Status",
            format!("{} · since {since}", project.status.key()),
        ));
        if project.start_date.is_some() {
            rows.push(("Start", date(project.start_date)));
        }
        if let Some(deadline) = project.deadline {
            let mut said = output::date(deadline);
            if project.status.is_open() && deadline < me.today {
                said.push_str(" (overdue)");
            }
            rows.push(("Deadline", said));
        }
        for (label, value) in [
            ("My role", &project.my_role),
            ("Reference", &project.external_reference),
            ("Link", &project.external_url),
        ] {
            if let Some(value) = value {
                rows.push((label, value.clone()));
            }
        }
        for member in &project.members {
            let name = names
                .get(&member.person_id)
                .cloned()
                .unwrap_or_else(|| member.person_id.to_string());
            rows.push(("Member", with_role(&name, member.role.as_deref())));
        }
        for task in open_tasks(s, project.id)? {
            let mut said = format!("{} {}", output::short_id(task.id), task.title);
            if let Some(deadline) = task.deadline_on {
                said.push_str(&format!(" · due {}", output::date(deadline)));
            }
            rows.push(("Task", said));
        }
        let activity = ActivityQuery {
            cursor: None,
            limit: ACTIVITY_SHOWN,
        };
        let entries = s
            .client
            .reply(|c| c.project_activity().list(project.id, &activity))
            .map_err(no_project(project.id))?
            .data
            .items;
        for entry in &entries {
            let (at, said) = match entry {
                ActivityEntry::Event { at, event } => (*at, event_line(s, &mut names, event)),
                ActivityEntry::Task { at, task } => {
                    (*at, format!("task completed: {}", task.title))
                }
                ActivityEntry::Note { at, note } => (*at, format!("note: {}", note.name)),
                ActivityEntry::Document { at, document } => {
                    (*at, format!("document: {}", document.name))
                }
                ActivityEntry::Created { at, .. } => (*at, "created".to_owned()),
            };
            rows.push(("Activity", format!("{}  {said}", when(at))));
        }
        rows.push(("ID", project.id.to_string()));
        output::line(&project.name)?;
        // A label once, over the rows that share it.
        let mut last = "";
        let shown: Vec<(&str, String)> = rows
            .into_iter()
            .map(|(label, value)| {
                let label = if label == last { "" } else { label };
                if !label.is_empty() {
                    last = label;
                }
                (label, value)
            })
            .collect();
        output::fields(&shown)?;
        if !project.description_text.is_empty() {
            output::line("")?;
            output::line(&project.description_text)?;
        }
        Ok(())
    }
}

/// "Ada (lead)", or "Ada" without a role.
fn with_role(name: &str, role: Option<&str>) -> String {
    match role {
        Some(role) => format!("{name} ({role})"),
        None => name.to_owned(),
    }
}

/// One event as a line: "status active → done", "deadline 2026-04-01 →
/// 2026-05-01", "Ada added (lead)", "Ada removed".
fn event_line<'a>(
    s: &'a Session<'a>,
    names: &mut HashMap<Id, String>,
    event: &'a ProjectEvent,
) -> String {
    let mut words = EventWords::new(s, names, event);
    match event.kind {
        EventKind::Status => format!("status {}", words.status()),
        EventKind::Deadline => format!("deadline {}", words.deadline()),
        EventKind::MemberAdded => match &event.role {
            Some(role) => format!("{} added ({role})", words.person()),
            None => format!("{} added", words.person()),
        },
        EventKind::MemberRemoved => format!("{} removed", words.person()),
    }
}

/// The project's open tasks, in their order.
fn open_tasks(s: &Session<'_>, project: Id) -> Result<Vec<Task>, CliError> {
    let query = TaskQuery {
        statuses: Some(vec![TaskStatus::Open]),
        home: Some(Home::Project(project)),
        params: ListParams {
            limit: 100,
            ..ListParams::default()
        },
        ..TaskQuery::default()
    };
    Ok(s.client.reply(|c| c.tasks().list(&query))?.data.items)
}
