//! `organiser notes rm N`: deletes a note, printing the command that
//! undoes it within 20 seconds.

use clap::Args;
use organiser_core::{Id, notes::NoteSummary};
use serde::Serialize;

use super::no_note;
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::Data;

#[derive(Debug, Args)]
pub(super) struct Rm {
    /// The note: its row number, short ID or ID.
    note: String,
}

/// What `--json` says: `{data: {deleted: ID}}`.
#[derive(Serialize)]
struct Deleted {
    deleted: Id,
}

impl Rm {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let note = s.refs.record::<NoteSummary>(&self.note)?;
        let id = note.id;
        s.client
            .reply(|c| c.notes().delete(id))
            .map_err(no_note(id))?;
        s.refs.deleted::<NoteSummary>(id, &note.name);
        s.global.said(
            &Data {
                data: Deleted { deleted: id },
            },
            format!(
                "Deleted note {}. Undo within 20 seconds: {}",
                note.name,
                s.global.command(&format!("notes restore {id}"))
            ),
        )
    }
}
