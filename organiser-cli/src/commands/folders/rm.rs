//! `organiser folders rm FOLDER`: deletes an empty folder, for good (the
//! API keeps no restore window for folders); one with documents or
//! subfolders is refused.

use clap::Args;
use organiser_core::{Id, folders::Folder};
use serde::Serialize;

use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::Data;

#[derive(Debug, Args)]
pub(super) struct Rm {
    /// The folder: its row number, name, short ID or ID.
    folder: String,
}

/// What `--json` says: `{data: {deleted: ID}}`.
#[derive(Serialize)]
struct Deleted {
    deleted: Id,
}

impl Rm {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let folder = s.refs.record::<Folder>(&self.folder)?;
        let id = folder.id;
        s.client.reply(|c| c.folders().delete(id)).map_err(|e| match e {
            CliError::Api {
                error: organiser_core::Error::Conflict { .. },
                ..
            } => CliError::msg(format!(
                "folder {} is not empty: move or delete its documents and folders first (see `{}`)",
                folder.name,
                s.global.command(&format!("docs --folder {id}"))
            )),
            other => super::no_folder(id)(other),
        })?;
        s.global.said(
            &Data {
                data: Deleted { deleted: id },
            },
            format!("Deleted folder {}", folder.name),
        )
    }
}
