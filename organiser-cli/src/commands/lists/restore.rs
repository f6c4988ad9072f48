//! `organiser lists restore ID`: brings back a list (with its tasks)
//! deleted in the last 20 seconds.

use clap::Args;
use organiser_core::Id;

use crate::commands::Session;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Restore {
    /// The list's ID (as `rm` printed it).
    id: String,
}

impl Restore {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let id = self.id.trim();
        let nothing = || {
            CliError::msg(format!(
                "nothing to restore: {id} is not a list deleted in the last 20 seconds"
            ))
        };
        // A deleted list is in no listing: only its full ID names it.
        let parsed = Id::parse(id).ok_or_else(nothing)?;
        let restored = s.client.restore_task_list(parsed).map_err(|e| match e {
            CliError::Api { status: 404, .. } => nothing(),
            other => other,
        })?;
        s.global.said(
            &restored.body,
            format!("Restored list {}", restored.data.name),
        )
    }
}
