//! `organiser tasks done T`, `reopen T`, `wontdo T` and `skip T`: one
//! command that changes a task's status, four ways. Closing a repeating
//! task says when the next one is due.

use clap::Args;
use organiser_core::{tasks::Task, tasks::TaskInput, tasks::TaskStatus};

use super::no_task;
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct SetStatus {
    /// Row numbers, IDs, or parts of IDs: one or more tasks.
    #[arg(required = true, num_args = 1..)]
    tasks: Vec<String>,
}

/// Which status, and how to say it.
pub(super) enum Change {
    Done,
    Reopen,
    WontDo,
    /// Won't do, this time of a repeating task.
    Skip,
}

impl SetStatus {
    pub(super) fn run(self, s: &Session<'_>, change: Change) -> Result<(), CliError> {
        let (status, verb, already) = match change {
            Change::Done => (TaskStatus::Completed, "Completed", "Already done:"),
            Change::Reopen => (TaskStatus::Open, "Reopened", "Already open:"),
            Change::WontDo => (TaskStatus::WontDo, "Won't do:", "Already won't do:"),
            Change::Skip => (TaskStatus::WontDo, "Skipped", "Already skipped:"),
        };
        // Every reference is resolved before any task changes, so a typo
        // changes nothing.
        let ids = self
            .tasks
            .iter()
            .map(|t| s.refs.id::<Task>(t))
            .collect::<Result<Vec<_>, _>>()?;
        for id in ids {
            // Say what happened: a task already so is left as it is.
            let before = s.client.reply(|c| c.tasks().get(id)).map_err(no_task(id))?;
            if before.data.status == status {
                s.global
                    .said(&before.body, format!("{already} {}", before.data.title))?;
                continue;
            }
            let input = TaskInput {
                status: Some(status),
                ..TaskInput::default()
            };
            let changed = s
                .client
                .reply(|c| c.tasks().change(id, input))
                .map_err(no_task(id))?;
            let next = super::next_said(s.client, &changed.data);
            s.global.said(
                &changed.body,
                format!("{verb} {}{next}", changed.data.title),
            )?;
        }
        Ok(())
    }
}
