//! `organiser people restore P`: brings back a person deleted in the last
//! 20 seconds (with the links and tasks the delete took).

use clap::Args;
use organiser_core::Person;

use crate::commands::Session;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Restore {
    /// The person: their row in the listing they were deleted from, their
    /// ID, or part of one (as `rm` printed it).
    id: String,
}

impl Restore {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let id = s.refs.deleted_id::<Person>(&self.id)?;
        // A person who is not deleted has nothing to restore: say so.
        if let Ok(live) = s.client.person(id) {
            return s.global.said(
                &live.body,
                format!("{} is not deleted: nothing to restore", live.data.name),
            );
        }
        let restored = s.client.restore_person(id).map_err(|e| match e {
            CliError::Api { status: 404, .. } => CliError::msg(format!(
                "nothing to restore: {id} is not a person deleted in the last 20 seconds"
            )),
            other => other,
        })?;
        s.global
            .said(&restored.body, format!("Restored {}", restored.data.name))
    }
}
