//! `organiser docs edit DOC [--name NAME] [--folder F | --unfiled]`:
//! renames a document or moves it to another folder (or none).

use clap::Args;
use organiser_core::{Field, documents::Document, folders::Folder};

use super::{FLAGS, no_document};
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Edit {
    /// The document: its row number, name, short ID or ID.
    document: String,
    /// Its new name (blank: named from its file again).
    #[arg(long)]
    name: Option<String>,
    /// The folder to move it to (its row number in `folders`, name, short
    /// ID or ID).
    #[arg(long)]
    folder: Option<String>,
    /// Take it out of its folder.
    #[arg(long, conflicts_with = "folder")]
    unfiled: bool,
}

impl Edit {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        if self.name.is_none() && self.folder.is_none() && !self.unfiled {
            return Err(CliError::usage(
                "nothing to change: give --name, --folder or --unfiled",
            ));
        }
        let document = s.refs.record::<Document>(&self.document)?;
        let folder = match &self.folder {
            Some(folder) => Some(s.refs.record::<Folder>(folder)?),
            None => None,
        };
        let input = organiser_core::documents::DocumentInput {
            name: self.name.clone().map_or(Field::Absent, Field::Value),
            folder_id: match (&folder, self.unfiled) {
                (Some(f), _) => Field::Value(f.id),
                (None, true) => Field::Null,
                (None, false) => Field::Absent,
            },
            ..organiser_core::documents::DocumentInput::default()
        };
        let changed = s
            .client
            .reply(|c| c.documents().change(document.id, input))
            .map_err(no_document(document.id))
            .map_err(|e| e.naming(FLAGS))?;
        let mut said = Vec::new();
        if changed.data.name != document.name {
            said.push(format!("renamed to {}", changed.data.name));
        }
        if changed.data.folder_id != document.folder_id {
            said.push(match &folder {
                Some(f) => format!("moved to {}", f.name),
                None => "taken out of its folder".to_owned(),
            });
        }
        let line = if said.is_empty() {
            format!("Document {} unchanged", document.name)
        } else {
            format!("Document {}: {}", document.name, said.join(", "))
        };
        s.global.said(&changed.body, line)
    }
}
