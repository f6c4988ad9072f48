//! `organiser tasks show T`: one task whole, with its description.

use clap::Args;
use organiser_core::{Home, Task, TaskList};

use super::no_task;
use crate::commands::Session;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Show {
    /// Row number, ID, or part of an ID.
    task: String,
}

impl Show {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let id = s.refs.id::<Task>(&self.task)?;
        let reply = s.client.task(id).map_err(no_task(id))?;
        if s.global.json {
            return output::json(&reply.body);
        }
        let task = &reply.data;
        let home = match task.home() {
            Home::Inbox => "Inbox".to_owned(),
            Home::List(list) => s
                .refs
                .record::<TaskList>(&list.to_string())
                .map(|l| l.name)
                .unwrap_or_else(|_| list.to_string()),
            Home::Person(p) => s
                .client
                .person(p)
                .map(|found| format!("{} (person)", found.data.name))
                .unwrap_or_else(|_| format!("person {p}")),
            Home::Project(p) => s
                .client
                .project(p)
                .map(|found| format!("{} (project)", found.data.name))
                .unwrap_or_else(|_| format!("project {p}")),
        };
        let date = |d: Option<jiff::civil::Date>| d.map(output::date).unwrap_or_default();
        let zone = output::owner_zone(s.client)?;
        let instant =
            |t: Option<jiff::Timestamp>| t.map(|t| output::moment(t, &zone)).unwrap_or_default();
        let mut rows = vec![
            ("Title", task.title.clone()),
            ("Status", task.status.as_str().to_owned()),
            ("Home", home),
            ("Start", date(task.start_on)),
            ("Deadline", date(task.deadline_on)),
            ("Expires", date(task.expires_on)),
        ];
        if task.completed_at.is_some() {
            rows.push(("Closed", instant(task.completed_at)));
        }
        if task.archived_at.is_some() {
            rows.push(("Archived", instant(task.archived_at)));
        }
        rows.push(("Created", instant(Some(task.created_at))));
        rows.push(("Updated", instant(Some(task.updated_at))));
        rows.push(("ID", task.id.to_string()));
        output::fields(&rows)?;
        if !task.description_text.is_empty() {
            output::line("")?;
            output::line(&task.description_text)?;
        }
        Ok(())
    }
}
