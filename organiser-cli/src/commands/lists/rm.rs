//! `organiser lists rm L`: deletes a list with its tasks, printing the
//! command that undoes it within 20 seconds.

use clap::Args;
use organiser_core::{
    Id, ListParams, task_lists::TaskList, tasks::Home, tasks::TaskQuery, tasks::TaskStatus,
};
use serde::Serialize;

use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::Data;

#[derive(Debug, Args)]
pub(super) struct Rm {
    /// The list: its row number, name, short ID or ID.
    #[arg(required = true, value_name = "LIST")]
    list: Vec<String>,
    /// Do not ask first (on a terminal, a list with tasks is asked about).
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
        let list = s.refs.record::<TaskList>(&self.list.join(" "))?;
        let id = list.id;
        // Every task of the list goes with it, whatever its status.
        let of_list = TaskQuery {
            home: Some(Home::List(id)),
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
            .reply(|c| c.tasks().list(&of_list))?
            .data
            .total_count
            .unwrap_or(0);
        let asked = format!(
            "Delete list {} and its {taken} {}?",
            list.name,
            if taken == 1 { "task" } else { "tasks" }
        );
        if taken > 0 && !crate::output::confirm(&asked, self.yes)? {
            return Err(CliError::msg(format!(
                "nothing deleted: {} is kept",
                list.name
            )));
        }
        s.client.reply(|c| c.task_lists().delete(id))?;
        s.refs.deleted::<TaskList>(id, &list.name);
        s.global.said(
            &Data {
                data: Deleted { deleted: id },
            },
            format!(
                "Deleted list {} and its {taken} {}. Undo within 20 seconds: {}",
                list.name,
                if taken == 1 { "task" } else { "tasks" },
                s.global.command(&format!("lists restore {id}"))
            ),
        )
    }
}
