//! `organiser docs restore [DOC]`: brings back a document deleted in the
//! last 20 seconds; without DOC, the one the CLI deleted last.

use clap::Args;
use organiser_core::Document;

use crate::commands::Session;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Restore {
    /// The document: its row in the listing it was deleted from, its ID,
    /// or part of one (as `rm` printed it); none for the one deleted last.
    id: Option<String>,
}

impl Restore {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let id = match &self.id {
            Some(reference) => s.refs.deleted_id::<Document>(reference)?,
            None => s.refs.last_deleted::<Document>().ok_or_else(|| {
                CliError::msg(
                    "no document was deleted here lately: name the one to restore by its ID, as `docs rm` printed it",
                )
            })?,
        };
        if let Ok(live) = s.client.document(id) {
            return s.global.said(
                &live.body,
                format!("{} is not deleted: nothing to restore", live.data.name),
            );
        }
        let restored = s.client.restore_document(id).map_err(|e| match e {
            CliError::Api { status: 404, .. } => CliError::msg(format!(
                "nothing to restore: {id} is not a document deleted in the last 20 seconds"
            )),
            other => other,
        })?;
        s.global.said(
            &restored.body,
            format!("Restored document {}", restored.data.name),
        )
    }
}
