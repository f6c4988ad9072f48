//! `organiser folders add NAME... [--parent FOLDER]`.

use clap::Args;
use organiser_core::{Field, folders::Folder, folders::FolderInput};

use super::FLAGS;
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Add {
    /// The name: every word, no quotes needed (`folders add Tax returns`).
    #[arg(required = true, num_args = 1..)]
    name: Vec<String>,
    /// The folder to put it in (its row number, name, short ID or ID);
    /// default the top level.
    #[arg(long, value_name = "FOLDER")]
    parent: Option<String>,
}

impl Add {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let parent = match &self.parent {
            Some(parent) => Some(s.refs.record::<Folder>(parent)?),
            None => None,
        };
        let input = FolderInput {
            name: Some(self.name.join(" ")),
            parent_id: parent
                .as_ref()
                .map_or(Field::Absent, |p| Field::Value(p.id)),
            ..FolderInput::default()
        };
        let made = s
            .client
            .reply(|c| c.folders().create(input))
            .map_err(|e| e.naming(FLAGS))?;
        let folder = &made.data;
        let inside = parent.map_or(String::new(), |p| format!(" in {}", p.name));
        s.global.said(
            &made.body,
            format!(
                "Added folder {}{inside} ({})",
                folder.name,
                output::short_id(folder.id)
            ),
        )
    }
}
