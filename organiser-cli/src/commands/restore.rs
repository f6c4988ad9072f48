//! `organiser <family> restore [REFERENCE...]`, one command for every
//! family with a restore window (tasks, lists, people, projects, notes,
//! documents): the record named among those the CLI deleted lately (its
//! row in the listing it was deleted from, its ID or part of one, or the
//! name it had), or without a reference the one deleted last.

use clap::Args;
use organiser_core::Id;

use crate::commands::Session;
use crate::door::{Client, Reply};
use crate::error::CliError;
use crate::refs::Family;

/// A family whose deletes can be undone for 20 seconds.
pub(crate) trait Restorable: Family {
    /// The record the API answers with.
    type Record: serde::Serialize;
    /// How "Restored ..." names the family, with a space ("list "), or
    /// nothing ("Restored Ada").
    const LABEL: &'static str;
    /// What the 404 of a restore adds ("a task deleted with its list ...").
    const ALSO: &'static str = "";
    /// The live record (to say it is not deleted).
    fn live(client: &Client, id: Id) -> Result<Reply<Self::Record>, CliError>;
    /// Restores it.
    fn restore(client: &Client, id: Id) -> Result<Reply<Self::Record>, CliError>;
    /// Its name or title.
    fn called(record: &Self::Record) -> &str;
}

#[derive(Debug, Args)]
pub(crate) struct Restore {
    /// What to restore: its row in the listing it was deleted from, its
    /// ID or part of one (as `rm` printed it), or the name it had; none
    /// for the one deleted last.
    #[arg(value_name = "REFERENCE")]
    reference: Vec<String>,
}

impl Restore {
    pub(crate) fn run<F: Restorable>(self, s: &Session<'_>) -> Result<(), CliError> {
        let reference = self.reference.join(" ");
        let id = s
            .refs
            .to_restore::<F>(Some(reference.as_str()).filter(|r| !r.trim().is_empty()))?;
        // One that is not deleted has nothing to restore: say so.
        if let Ok(live) = F::live(s.client, id) {
            return s.global.said(
                &live.body,
                format!(
                    "{} is not deleted: nothing to restore",
                    F::called(&live.data)
                ),
            );
        }
        let restored = F::restore(s.client, id).map_err(|e| match e {
            CliError::Api {
                error: organiser_core::Error::NotFound,
                ..
            } => CliError::msg(format!(
                "nothing to restore: {id} is not a {} deleted in the last 20 seconds{}",
                F::ONE,
                F::ALSO
            )),
            other => other,
        })?;
        s.global.said(
            &restored.body,
            format!("Restored {}{}", F::LABEL, F::called(&restored.data)),
        )
    }
}
