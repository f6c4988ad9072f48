//! `organiser tasks rm T`: deletes a task, printing the command that
//! undoes it within 20 seconds.

use clap::Args;
use organiser_core::{Id, tasks::Task};
use serde::Serialize;

use super::no_task;
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::Data;

#[derive(Debug, Args)]
pub(super) struct Rm {
    /// The task: its row number, short ID, ID, or part of one.
    task: String,
}

/// What `--json` says: `{data: {deleted: ID}}` (the API answers a delete
/// with no body).
#[derive(Serialize)]
struct Deleted {
    deleted: Id,
}

impl Rm {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let id = s.refs.id::<Task>(&self.task)?;
        let before = s
            .client
            .reply(|c| c.tasks().get(id))
            .map_err(no_task(id))?
            .data;
        s.client.reply(|c| c.tasks().delete(id))?;
        s.refs.deleted::<Task>(id, &before.title);
        s.global.said(
            &Data {
                data: Deleted { deleted: id },
            },
            format!(
                "Deleted {}. Undo within 20 seconds: {}",
                before.title,
                s.global.command(&format!("tasks restore {id}"))
            ),
        )
    }
}
