//! `organiser ai providers`: where models are served, with each one's
//! kind, address, whether a key is stored and the outcome of its last
//! call; add, test, check and delete them, one file per subcommand.

mod add;
mod check;
mod list;
mod rm;
mod test;

use std::io::{IsTerminal, Read};

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, Subcommand};

use crate::backend::Access;
use crate::commands::{Global, Session};
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct ProvidersCommand {
    #[command(subcommand)]
    action: Option<ProvidersAction>,
}

#[derive(Debug, Subcommand)]
enum ProvidersAction {
    /// Add a provider (its key from --api-key-stdin rather than the
    /// command line, where other users may see it).
    Add(add::Add),
    /// Test settings without saving them, or a saved provider: how many
    /// models it lists.
    Test(test::Test),
    /// Check a saved provider: the models it lists, one a line (the
    /// outcome is recorded on it).
    Check(check::Check),
    /// Delete a provider and its models (for good).
    Rm(rm::Rm),
}

impl ProvidersCommand {
    pub(super) fn run(self, global: &Global) -> Result<(), CliError> {
        let access = if self.action.is_none() {
            Access::Read
        } else {
            Access::Write
        };
        Session::open(global, access, |s| match self.action {
            None => list::run(s),
            Some(ProvidersAction::Add(c)) => c.run(s),
            Some(ProvidersAction::Test(c)) => c.run(s),
            Some(ProvidersAction::Check(c)) => c.run(s),
            Some(ProvidersAction::Rm(c)) => c.run(s),
        })
    }
}

/// `--kind`: a key of the vocabulary's `ai_provider_kinds`, as the core
/// lists them (with `mock`, which only a development build's API takes:
/// the API says so when it refuses it).
fn kind_parser() -> PossibleValuesParser {
    let kinds = organiser_core::vocabulary::vocabulary(true).ai_provider_kinds;
    PossibleValuesParser::new(
        kinds
            .iter()
            .map(|k| PossibleValue::new(k.key).help(k.label)),
    )
}

/// The key given with `--api-key`, or read with `--api-key-stdin`: asked
/// for without echo on a terminal, else standard input's text (trimmed).
fn api_key(given: Option<String>, stdin: bool) -> Result<Option<String>, CliError> {
    if !stdin {
        return Ok(given);
    }
    if std::io::stdin().is_terminal() {
        let key = rpassword::prompt_password("API key: ")
            .map_err(|e| CliError::msg(format!("cannot read the key from the terminal: {e}")))?;
        return Ok(Some(key.trim().to_owned()));
    }
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text)?;
    Ok(Some(text.trim().to_owned()))
}

/// The API's provider fields as the commands set them, for messages.
const FLAGS: &[(&str, &str)] = &[
    ("name", "the name"),
    ("kind", "--kind"),
    ("base_url", "--base-url"),
    ("api_key", "the API key"),
];
