//! `organiser tasks show T`: one task whole, with the documents linked to
//! it and its description.

use clap::Args;
use organiser_core::{task_lists::TaskList, tasks::Home, tasks::Task};

use super::no_task;
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Show {
    /// Row number, ID, or part of an ID.
    task: String,
}

/// How many of the task's documents the screen names.
const DOCUMENTS_SHOWN: usize = 20;

impl Show {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let id = s.refs.id::<Task>(&self.task)?;
        let reply = s.client.reply(|c| c.tasks().get(id)).map_err(no_task(id))?;
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
                .reply(|c| c.people().get(p))
                .map(|found| format!("{} (person)", found.data.name))
                .unwrap_or_else(|_| format!("person {p}")),
            Home::Project(p) => s
                .client
                .reply(|c| c.projects().get(p))
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
        if task.remind_at.is_some() {
            rows.push(("Remind", instant(task.remind_at)));
        }
        if let Some(repeat) = &task.repeat {
            rows.push(("Repeats", repeat.to_words()));
        }
        if task.completed_at.is_some() {
            rows.push(("Closed", instant(task.completed_at)));
        }
        if let Some(next) = task.next_task_id {
            rows.push(("Next", output::short_id(next)));
        }
        if task.archived_at.is_some() {
            rows.push(("Archived", instant(task.archived_at)));
        }
        // The documents are read only when the task says it has some.
        if task.has_documents {
            let (documents, linked) =
                crate::commands::docs::linked_to(s.client, "task_id", task.id, DOCUMENTS_SHOWN)?;
            let mut said: Vec<String> = documents
                .iter()
                .map(|d| format!("{} {}", output::short_id(d.id), d.name))
                .collect();
            if linked > documents.len() {
                said.push(format!("… and {} more", linked - documents.len()));
            }
            // The label once, over the rows that share it.
            for (n, line) in said.into_iter().enumerate() {
                rows.push((if n == 0 { "Documents" } else { "" }, line));
            }
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
