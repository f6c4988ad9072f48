//! `organiser tasks restore ID`: brings back a task deleted in the last 20
//! seconds.

use clap::Args;
use organiser_core::Task;

use crate::commands::Session;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Restore {
    /// The task: its row in the listing it was deleted from, its ID, or
    /// part of one (as `rm` printed it).
    id: String,
}

impl Restore {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let id = s.refs.deleted_id::<Task>(&self.id)?;
        // A task that is not deleted has nothing to restore: say so.
        if let Ok(live) = s.client.task(id) {
            return s.global.said(
                &live.body,
                format!("{} is not deleted: nothing to restore", live.data.title),
            );
        }
        let restored = s.client.restore_task(id).map_err(|e| match e {
            CliError::Api { status: 404, .. } => CliError::msg(format!(
                "nothing to restore: {id} is not a task deleted in the last 20 seconds (a task deleted with its list or project comes back with it)"
            )),
            other => other,
        })?;
        s.global
            .said(&restored.body, format!("Restored {}", restored.data.title))
    }
}
