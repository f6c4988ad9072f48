//! `organiser ai models rm MODEL`: deletes a model for good; the default
//! leaves none (AI features are off until another is made the default),
//! and a task that picked it goes back to the default model.

use clap::Args;
use organiser_core::{Id, ai::AiModel};
use serde::Serialize;

use crate::commands::Session;
use crate::commands::ai::model;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::Data;
use crate::refs;

#[derive(Debug, Args)]
pub(super) struct Rm {
    /// The model: its row number, name, identifier, short ID or ID.
    model: String,
}

/// What `--json` says: `{data: {deleted: ID}}`.
#[derive(Serialize)]
struct Deleted {
    deleted: Id,
}

impl Rm {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let model = model(s, &self.model)?;
        let id = model.id;
        s.client
            .reply(|c| c.ai().delete_model(id))
            .map_err(refs::gone::<AiModel>(id))?;
        let mut said = format!("Deleted AI model {} (this cannot be undone)", model.name);
        if model.is_default {
            said.push_str(&format!(
                "; there is no default model now: make one with `{}`",
                s.global.command("ai models default MODEL")
            ));
        }
        s.global.said(
            &Data {
                data: Deleted { deleted: id },
            },
            said,
        )
    }
}
