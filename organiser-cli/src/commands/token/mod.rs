//! `organiser token create|list|revoke`: API tokens, one file per
//! subcommand.

mod create;
mod list;
mod revoke;

use clap::Subcommand;

use super::Global;
use crate::error::CliError;

#[derive(Debug, Subcommand)]
pub(crate) enum Token {
    /// Make a token and print it (alone, so it can be captured).
    Create(create::Create),
    /// List the tokens.
    List(list::List),
    /// Revoke a token by its number.
    Revoke(revoke::Revoke),
}

impl Token {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        match self {
            Token::Create(c) => c.run(global),
            Token::List(c) => c.run(global),
            Token::Revoke(c) => c.run(global),
        }
    }
}
