//! `organiser ai providers test [NAME] [--kind K] [--base-url U]
//! [--api-key K | --api-key-stdin | --no-key]`: `POST /ai_providers/test`
//! lists the models with settings that are not saved and says how many
//! there are; saves and records nothing. With NAME, the saved provider's
//! settings, each flag given changing one (its stored key is used only
//! for its own address, as the API says).

use clap::Args;
use organiser_core::{Field, ai::AiProvider, ai::ProviderTest};

use super::{FLAGS, api_key, kind_parser};
use crate::commands::Session;
use crate::commands::ai::count;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Test {
    /// A saved provider: its row number, name, short ID or ID (default:
    /// only the settings given).
    provider: Option<String>,
    /// How it is reached (default with a provider: its kind).
    #[arg(long, value_parser = kind_parser(), required_unless_present = "provider")]
    kind: Option<String>,
    /// The address with its version path (default with a provider: its
    /// address).
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// The key (default with a provider: its stored key, for its own
    /// address).
    #[arg(long, value_name = "KEY", conflicts_with_all = ["api_key_stdin", "no_key"])]
    api_key: Option<String>,
    /// Read the key from standard input (asked for without echo on a
    /// terminal).
    #[arg(long, conflicts_with = "no_key")]
    api_key_stdin: bool,
    /// Test without a key, even when one is stored.
    #[arg(long)]
    no_key: bool,
}

impl Test {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let saved = match &self.provider {
            Some(reference) => Some(s.refs.record::<AiProvider>(reference)?),
            None => None,
        };
        let key = api_key(self.api_key, self.api_key_stdin)?;
        let kind = match (self.kind, &saved) {
            (Some(kind), _) => kind,
            (None, Some(saved)) => saved.kind.as_str().to_owned(),
            (None, None) => return Err(CliError::usage("give --kind, or a saved provider")),
        };
        let settings = ProviderTest {
            ai_provider_id: saved.as_ref().map(|p| p.id),
            name: saved.as_ref().map(|p| p.name.clone()),
            kind,
            base_url: self.base_url.map_or(Field::Absent, Field::Value),
            api_key: key.map_or(Field::Absent, Field::Value),
            remove_api_key: self.no_key,
        };
        let spinner = if s.global.json {
            None
        } else {
            output::spinner("Asking the provider for its models…")
        };
        let tested = s.client.reply(|c| c.ai().test_provider(settings));
        if let Some(spinner) = spinner {
            spinner.finish_and_clear();
        }
        let tested = tested.map_err(|e| e.naming(FLAGS))?;
        s.global.said(
            &tested.body,
            count(tested.data.model_count as u64, "model", "models"),
        )
    }
}
