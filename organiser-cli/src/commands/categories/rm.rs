//! `organiser categories rm NAME [--if-unused]`: deletes a category for
//! good; its notes are kept, without a category. With `--if-unused`,
//! only a category no note has (a conflict otherwise).

use clap::Args;
use organiser_core::{Id, categories::Category};
use serde::Serialize;

use super::no_category;
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::Data;

#[derive(Debug, Args)]
pub(super) struct Rm {
    /// The category: its name, row number or ID.
    category: String,
    /// Only if no note has it (a note deleted in the last 20 seconds counts).
    #[arg(long)]
    if_unused: bool,
}

/// What `--json` says: `{data: {deleted: ID}}`.
#[derive(Serialize)]
struct Deleted {
    deleted: Id,
}

impl Rm {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let category = s.refs.record::<Category>(&self.category)?;
        let id = category.id;
        s.client.reply(|c| c.categories().delete(id, self.if_unused))
            .map_err(|e| match e {
                e @ CliError::Api {
                    error: organiser_core::Error::Conflict { .. },
                    ..
                } => e.saying(format!(
                    "{} has notes: nothing was deleted (without --if-unused its notes are kept, uncategorised)",
                    category.name
                )),
                other => no_category(id)(other),
            })?;
        s.refs.deleted::<Category>(id, &category.name);
        s.global.said(
            &Data {
                data: Deleted { deleted: id },
            },
            format!(
                "Deleted category {} (its notes are kept, uncategorised)",
                category.name
            ),
        )
    }
}
