//! `organiser ai models default MODEL`: `PATCH /ai_models/{id}` with
//! `is_default: true`; the previous default is one no longer.

use clap::Args;
use organiser_core::{AiModel, AiModelInput};

use super::FLAGS;
use crate::commands::Session;
use crate::commands::ai::model;
use crate::error::CliError;
use crate::refs;

#[derive(Debug, Args)]
pub(super) struct Default {
    /// The model: its row number, name, identifier, short ID or ID.
    model: String,
}

impl Default {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let model = model(s, &self.model)?;
        let input = AiModelInput {
            is_default: Some(true),
            ..AiModelInput::default()
        };
        let changed = s
            .client
            .change_ai_model(model.id, &input)
            .map_err(|e| refs::gone::<AiModel>(model.id)(e).naming(FLAGS))?;
        s.global.said(
            &changed.body,
            format!("{} is the default model now", changed.data.name),
        )
    }
}
