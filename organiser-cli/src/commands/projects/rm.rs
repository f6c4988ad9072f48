//! `organiser projects rm P`: deletes a project with its members, events
//! and tasks, printing the command that undoes it within 20 seconds.

use clap::Args;
use organiser_core::{
    Id, ListParams, projects::Project, tasks::Home, tasks::TaskQuery, tasks::TaskStatus,
};
use serde::Serialize;

use super::no_project;
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::Data;

#[derive(Debug, Args)]
pub(super) struct Rm {
    /// The project: its row number, name, short ID or ID.
    #[arg(required = true, value_name = "PROJECT")]
    project: Vec<String>,
    /// Do not ask first (on a terminal, a project with tasks is asked
    /// about).
    #[arg(long, short = 'y')]
    yes: bool,
}

/// What `--json` says: `{data: {deleted: ID}}` (the API answers a delete
/// with no body).
#[derive(Serialize)]
struct Deleted {
    deleted: Id,
}

impl Rm {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let project = s.refs.record::<Project>(&self.project.join(" "))?;
        let id = project.id;
        // Every task of the project goes with it, whatever its status.
        let of_project = TaskQuery {
            home: Some(Home::Project(id)),
            statuses: Some(TaskStatus::ALL.to_vec()),
            params: ListParams {
                limit: 1,
                count: true,
                ..ListParams::default()
            },
            ..TaskQuery::default()
        };
        let taken = s
            .client
            .reply(|c| c.tasks().list(&of_project))?
            .data
            .total_count
            .unwrap_or(0);
        let asked = format!(
            "Delete project {} and its {taken} {}?",
            project.name,
            if taken == 1 { "task" } else { "tasks" }
        );
        if taken > 0 && !crate::output::confirm(&asked, self.yes)? {
            return Err(CliError::msg(format!(
                "nothing deleted: {} is kept",
                project.name
            )));
        }
        s.client
            .reply(|c| c.projects().delete(id))
            .map_err(no_project(id))?;
        s.refs.deleted::<Project>(id, &project.name);
        s.global.said(
            &Data {
                data: Deleted { deleted: id },
            },
            format!(
                "Deleted project {} and its {taken} {}. Undo within 20 seconds: {}",
                project.name,
                if taken == 1 { "task" } else { "tasks" },
                s.global.command(&format!("projects restore {id}"))
            ),
        )
    }
}
