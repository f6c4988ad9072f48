//! `organiser lists rename L NEW`.

use clap::Args;
use organiser_core::{task_lists::TaskList, task_lists::TaskListInput};

use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Rename {
    /// The list: its row number, name, short ID or ID.
    list: String,
    /// The new name.
    name: String,
}

impl Rename {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let list = s.refs.record::<TaskList>(&self.list)?;
        let input = TaskListInput {
            name: Some(self.name),
            ..TaskListInput::default()
        };
        let renamed = s
            .client
            .reply(|c| c.task_lists().change(list.id, input))
            .map_err(|e| e.naming(super::FLAGS))?;
        s.global.said(
            &renamed.body,
            format!("Renamed {} to {}", list.name, renamed.data.name),
        )
    }
}
