//! `organiser ai tasks`: the built-in AI tasks (`note_titles`), each off
//! until turned on, with the model it uses, its reasoning effort and
//! token budget, and its queue; turn them on and off, and backfill them,
//! one file per subcommand.

mod backfill;
mod disable;
mod enable;
mod list;

use clap::{Args, Subcommand};
use organiser_core::ai::AiTask;

use crate::backend::Access;
use crate::commands::{Global, Session};
use crate::door::Client;
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct TasksCommand {
    #[command(subcommand)]
    action: Option<TasksAction>,
}

#[derive(Debug, Subcommand)]
enum TasksAction {
    /// Turn a task on, with its model, reasoning effort or token budget.
    Enable(enable::Enable),
    /// Turn a task off (its queue waits until it is on again).
    Disable(disable::Disable),
    /// Queue what the task would process (a title for each untitled note)
    /// and follow the queue until it is empty.
    Backfill(backfill::Backfill),
}

impl TasksCommand {
    pub(super) fn run(self, global: &Global) -> Result<(), CliError> {
        let access = if self.action.is_none() {
            Access::Read
        } else {
            Access::Write
        };
        Session::open(global, access, |s| match self.action {
            None => list::run(s),
            Some(TasksAction::Enable(c)) => c.run(s),
            Some(TasksAction::Disable(c)) => c.run(s),
            Some(TasksAction::Backfill(c)) => c.run(s),
        })
    }
}

/// `GET /ai_tasks/{key}`, a 404 said plainly.
fn task(client: &Client, global: &Global, key: &str) -> Result<AiTask, CliError> {
    Ok(client
        .reply(|c| c.ai().task(key))
        .map_err(no_task(global, key))?
        .data)
}

/// A 404 about task `key` said plainly.
fn no_task(global: &Global, key: &str) -> impl Fn(CliError) -> CliError {
    let said = format!(
        "there is no AI task {key:?} (see `{}`)",
        global.command("ai tasks")
    );
    move |e| match e {
        CliError::Api {
            error: organiser_core::Error::NotFound,
            ..
        } => CliError::msg(said.clone()),
        other => other,
    }
}

/// The API's task fields as the commands set them, for messages.
const FLAGS: &[(&str, &str)] = &[
    ("enabled", "enabled"),
    ("ai_model_id", "--model"),
    ("reasoning", "--reasoning"),
    ("max_output_tokens", "--max-output-tokens"),
];
