//! `organiser folders rename FOLDER NEW NAME...`.

use clap::Args;
use organiser_core::{folders::Folder, folders::FolderInput};

use super::{FLAGS, no_folder};
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Rename {
    /// The folder: its row number, name, short ID or ID.
    folder: String,
    /// The new name: every word, no quotes needed.
    #[arg(required = true, num_args = 1..)]
    name: Vec<String>,
}

impl Rename {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let folder = s.refs.record::<Folder>(&self.folder)?;
        let input = FolderInput {
            name: Some(self.name.join(" ")),
            ..FolderInput::default()
        };
        let changed = s
            .client
            .reply(|c| c.folders().change(folder.id, input))
            .map_err(no_folder(folder.id))
            .map_err(|e| e.naming(FLAGS))?;
        let line = if changed.data.name == folder.name {
            format!("Folder {} already has that name", folder.name)
        } else {
            format!("Renamed folder {} to {}", folder.name, changed.data.name)
        };
        s.global.said(&changed.body, line)
    }
}
