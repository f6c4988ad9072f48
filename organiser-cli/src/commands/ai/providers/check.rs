//! `organiser ai providers check NAME`: `POST /ai_providers/{id}/check`
//! lists the models the saved provider serves, one a line (what `ai
//! models add` takes), and records the outcome on the provider.

use clap::Args;
use organiser_core::ai::AiProvider;

use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;
use crate::refs;

#[derive(Debug, Args)]
pub(super) struct Check {
    /// The provider: its row number, name, short ID or ID.
    provider: String,
}

impl Check {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let provider = s.refs.record::<AiProvider>(&self.provider)?;
        let spinner = if s.global.json {
            None
        } else {
            output::spinner(&format!("Checking {}…", output::clean(&provider.name)))
        };
        let checked = s.client.reply(|c| c.ai().check_provider(provider.id));
        if let Some(spinner) = spinner {
            spinner.finish_and_clear();
        }
        let checked = checked.map_err(refs::gone::<AiProvider>(provider.id))?;
        if s.global.json {
            return output::json(&checked.body);
        }
        if checked.data.models.is_empty() {
            return output::line(format!("{} lists no models", provider.name));
        }
        for model in &checked.data.models {
            output::line(model)?;
        }
        Ok(())
    }
}
