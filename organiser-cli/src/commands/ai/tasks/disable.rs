//! `organiser ai tasks disable KEY`: `PATCH /ai_tasks/{key}` with
//! `enabled: false`; what waits in its queue waits until it is on again.

use clap::Args;
use organiser_core::ai::AiTaskInput;

use super::{FLAGS, no_task};
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Disable {
    /// The task's key (`ai tasks` lists them).
    key: String,
}

impl Disable {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let input = AiTaskInput {
            enabled: Some(false),
            ..AiTaskInput::default()
        };
        let changed = s
            .client
            .reply(|c| c.ai().change_task(&self.key, input))
            .map_err(|e| no_task(s.global, &self.key)(e).naming(FLAGS))?;
        let task = &changed.data;
        s.global.said(
            &changed.body,
            format!("Disabled {} ({})", task.key, task.name),
        )
    }
}
