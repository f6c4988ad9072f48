//! `organiser lists move L N`: puts a list at a place (1 is the top).

use clap::Args;
use organiser_core::{task_lists::TaskList, task_lists::TaskListInput};

use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Move {
    /// The list: its row number, name, short ID or ID.
    list: String,
    /// The new place (1 is the top).
    #[arg(allow_negative_numbers = true)]
    position: i64,
}

impl Move {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let id = s.refs.id::<TaskList>(&self.list)?;
        let input = TaskListInput {
            position: Some(self.position),
            ..TaskListInput::default()
        };
        let moved = s
            .client
            .reply(|c| c.task_lists().change(id, input))
            .map_err(|e| e.naming(super::FLAGS))?;
        let list = &moved.data;
        s.global.said(
            &moved.body,
            format!("Moved {} to {}", list.name, list.position),
        )
    }
}
