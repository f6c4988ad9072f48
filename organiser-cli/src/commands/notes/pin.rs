//! `organiser notes pin N` and `organiser notes unpin N`.

use clap::Args;

use super::{no_note, note};
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Pin {
    /// The note: its row number, short ID or ID.
    note: String,
}

#[derive(Debug, Args)]
pub(super) struct Unpin {
    /// The note: its row number, short ID or ID.
    note: String,
}

impl Pin {
    /// Pins (`pinned`) or unpins the note.
    pub(super) fn run(self, s: &Session<'_>, pinned: bool) -> Result<(), CliError> {
        let before = note(s, &self.note)?;
        let id = before.id;
        let changed = s
            .client
            .reply(|c| c.notes().pin(id, pinned))
            .map_err(no_note(id))?;
        let name = &changed.data.name;
        let said = match (before.pinned, pinned) {
            (true, true) => format!("{name} was already pinned"),
            (false, false) => format!("{name} was not pinned"),
            (_, true) => format!("Pinned {name}"),
            (_, false) => format!("Unpinned {name}"),
        };
        s.global.said(&changed.body, said)
    }
}

impl Unpin {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        Pin { note: self.note }.run(s, false)
    }
}
