//! `organiser lists restore ID`: brings back a list (with its tasks)
//! deleted in the last 20 seconds.

use clap::Args;
use organiser_core::TaskList;

use crate::commands::Session;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Restore {
    /// The list: its row in the last listing of lists, its ID, or part of
    /// one (as `rm` printed it).
    id: String,
}

impl Restore {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let id = s.refs.deleted_id::<TaskList>(&self.id)?;
        // A list that is not deleted has nothing to restore: say so.
        if let Ok(live) = s.client.task_list(id) {
            return s.global.said(
                &live.body,
                format!("{} is not deleted: nothing to restore", live.data.name),
            );
        }
        let restored = s.client.restore_task_list(id).map_err(|e| match e {
            CliError::Api { status: 404, .. } => CliError::msg(format!(
                "nothing to restore: {id} is not a list deleted in the last 20 seconds"
            )),
            other => other,
        })?;
        s.global.said(
            &restored.body,
            format!("Restored list {}", restored.data.name),
        )
    }
}
