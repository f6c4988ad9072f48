//! `organiser docs rm DOC`: deletes a document, printing the command that
//! undoes it within 20 seconds.

use clap::Args;
use organiser_core::{Id, documents::Document};
use serde::Serialize;

use super::no_document;
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::Data;

#[derive(Debug, Args)]
pub(super) struct Rm {
    /// The document: its row number, name, short ID or ID.
    document: String,
}

/// What `--json` says: `{data: {deleted: ID}}`.
#[derive(Serialize)]
struct Deleted {
    deleted: Id,
}

impl Rm {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let document = s.refs.record::<Document>(&self.document)?;
        let id = document.id;
        s.client
            .reply(|c| c.documents().delete(id))
            .map_err(no_document(id))?;
        s.refs.deleted::<Document>(id, &document.name);
        s.global.said(
            &Data {
                data: Deleted { deleted: id },
            },
            format!(
                "Deleted document {}. Undo within 20 seconds: {}",
                document.name,
                s.global.command(&format!("docs restore {id}"))
            ),
        )
    }
}
