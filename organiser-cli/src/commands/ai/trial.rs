//! `organiser ai try MODEL PROMPT...`: `POST /ai_models/{id}/trial` sends
//! the prompt to the model and prints its reply, then how long it took on
//! standard error ("(412 ms)"); nothing of it is stored, and the outcome
//! is recorded on the model's provider.

use clap::Args;
use organiser_core::ai::AiModel;

use super::model;
use crate::backend::Access;
use crate::commands::Global;
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;
use crate::refs;

#[derive(Debug, Args)]
pub(super) struct Try {
    /// The model: its row number, name, identifier, short ID or ID.
    model: String,
    /// The prompt: every word, no quotes needed.
    #[arg(required = true, num_args = 1..)]
    prompt: Vec<String>,
}

impl Try {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let access = Access::Write;
        Session::open(global, access, |s| {
            let model = model(s, &self.model)?;
            let spinner = if global.json {
                None
            } else {
                output::spinner(&format!("Asking {}…", output::clean(&model.name)))
            };
            let replied = s
                .client
                .reply(|c| c.ai().try_model(model.id, &self.prompt.join(" ")));
            if let Some(spinner) = spinner {
                spinner.finish_and_clear();
            }
            let replied = replied.map_err(|e| {
                refs::gone::<AiModel>(model.id)(e).naming(&[("prompt", "the prompt")])
            })?;
            if global.json {
                return output::json(&replied.body);
            }
            output::line(&replied.data.reply)?;
            eprintln!("({} ms)", replied.data.duration_ms);
            Ok(())
        })
    }
}
