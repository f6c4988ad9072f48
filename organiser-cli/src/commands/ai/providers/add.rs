//! `organiser ai providers add NAME... --kind KIND [--base-url URL]
//! [--api-key KEY | --api-key-stdin]`: the API judges the settings (a
//! base URL unless `mock`, a key for `vendor_b`) and saves them without
//! calling the provider; `test` and `check` call it.

use clap::Args;
use organiser_core::{Field, ai::AiProviderInput};

use super::{FLAGS, api_key, kind_parser};
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Add {
    /// The name: every word, no quotes needed.
    #[arg(required = true, num_args = 1..)]
    name: Vec<String>,
    /// How it is reached.
    #[arg(long, value_parser = kind_parser())]
    kind: String,
    /// Its address with the version path (https://api.example.com/v1);
    /// a mock provider needs none.
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// Its key (seen by other users of this machine while the command
    /// runs: prefer --api-key-stdin).
    #[arg(long, value_name = "KEY", conflicts_with = "api_key_stdin")]
    api_key: Option<String>,
    /// Read the key from standard input (asked for without echo on a
    /// terminal).
    #[arg(long)]
    api_key_stdin: bool,
}

impl Add {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let key = api_key(self.api_key, self.api_key_stdin)?;
        let input = AiProviderInput {
            name: Field::Value(self.name.join(" ")),
            kind: Field::Value(self.kind),
            base_url: self.base_url.map_or(Field::Absent, Field::Value),
            api_key: key.map_or(Field::Absent, Field::Value),
        };
        let made = s
            .client
            .reply(|c| c.ai().create_provider(input))
            .map_err(|e| e.naming(FLAGS))?;
        let provider = &made.data;
        let mut said = format!(
            "Added AI provider {} ({}, {}",
            provider.name,
            output::short_id(provider.id),
            provider.kind
        );
        if let Some(url) = &provider.base_url {
            said.push_str(&format!(" at {url}"));
        }
        said.push_str(if provider.api_key_set {
            ", key stored)"
        } else {
            ", no key)"
        });
        s.global.said(&made.body, said)
    }
}
