//! `organiser projects restore [P]`: brings back a project (with its
//! members, events and tasks) deleted in the last 20 seconds; without P,
//! the one the CLI deleted last.

use clap::Args;
use organiser_core::Project;

use crate::commands::Session;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Restore {
    /// The project: its row in the listing it was deleted from, its ID, or
    /// part of one (as `rm` printed it); none for the one deleted last.
    id: Option<String>,
}

impl Restore {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let id = match &self.id {
            Some(reference) => s.refs.deleted_id::<Project>(reference)?,
            None => s.refs.last_deleted::<Project>().ok_or_else(|| {
                CliError::msg(
                    "no project was deleted here lately: name the one to restore by its ID, as `projects rm` printed it",
                )
            })?,
        };
        // A project that is not deleted has nothing to restore: say so.
        if let Ok(live) = s.client.project(id) {
            return s.global.said(
                &live.body,
                format!("{} is not deleted: nothing to restore", live.data.name),
            );
        }
        let restored = s.client.restore_project(id).map_err(|e| match e {
            CliError::Api { status: 404, .. } => CliError::msg(format!(
                "nothing to restore: {id} is not a project deleted in the last 20 seconds"
            )),
            other => other.naming(&[("name", "the name")]),
        })?;
        s.global.said(
            &restored.body,
            format!("Restored project {}", restored.data.name),
        )
    }
}
