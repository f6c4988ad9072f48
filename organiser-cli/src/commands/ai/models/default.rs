//! `organiser ai models default MODEL`: `PATCH /ai_models/{id}` with
//! `is_default: true`; the previous default is one no longer.

use clap::Args;

use super::make_default;
use crate::commands::Session;
use crate::commands::ai::model;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Default {
    /// The model: its row number, name, identifier, short ID or ID.
    model: String,
}

impl Default {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let model = model(s, &self.model)?;
        let changed = make_default(s, model.id)?;
        s.global.said(
            &changed.body,
            format!("{} is the default model now", changed.data.name),
        )
    }
}
