//! `organiser ai models`: the models added from the providers, with the
//! one AI features use unless a task picks another (the default); add
//! them, make one the default, delete them, one file per subcommand.

mod add;
mod default;
mod list;
mod rm;

use clap::{Args, Subcommand};
use organiser_core::{Id, ai::AiModel, ai::AiModelInput};

use crate::backend::Access;
use crate::commands::{Global, Session};
use crate::door::Doors;
use crate::door::Reply;
use crate::error::CliError;
use crate::refs;

#[derive(Debug, Args)]
pub(super) struct ModelsCommand {
    #[command(subcommand)]
    action: Option<ModelsAction>,
    /// Only this provider's models: its row number, name, short ID or ID.
    #[arg(long)]
    provider: Option<String>,
}

#[derive(Debug, Subcommand)]
enum ModelsAction {
    /// Add models of a provider by their identifiers (as `ai providers
    /// check` lists them); the first model ever added becomes the default.
    Add(add::Add),
    /// Make a model the default.
    Default(default::Default),
    /// Delete a model (for good); the default leaves none.
    Rm(rm::Rm),
}

impl ModelsCommand {
    pub(super) fn run(self, global: &Global) -> Result<(), CliError> {
        let access = if self.action.is_none() {
            Access::Read
        } else {
            Access::Write
        };
        Session::open(global, access, |s| match self.action {
            None => list::run(s, self.provider.as_deref()),
            Some(_) if self.provider.is_some() => Err(CliError::usage(
                "--provider only filters the listing (`ai models add` takes the provider first)",
            )),
            Some(ModelsAction::Add(c)) => c.run(s),
            Some(ModelsAction::Default(c)) => c.run(s),
            Some(ModelsAction::Rm(c)) => c.run(s),
        })
    }
}

/// The API's model fields as the commands set them, for messages.
const FLAGS: &[(&str, &str)] = &[
    ("identifier", "the identifier"),
    ("identifiers", "the identifiers"),
    ("name", "the name"),
    ("is_default", "--default"),
];

/// Makes model `id` the default (`PATCH /ai_models/{id}` with
/// `is_default: true`).
fn make_default(s: &Session<'_>, id: Id) -> Result<Reply<AiModel>, CliError> {
    let input = AiModelInput {
        is_default: Some(true),
        ..AiModelInput::default()
    };
    s.client
        .reply(|c| c.ai().change_model(id, input))
        .map_err(|e| refs::gone::<AiModel>(id)(e).naming(FLAGS))
}
