//! `organiser password`: sets the owner's password from standard input.

use std::io::BufRead;

use clap::Args;

use super::Global;
use crate::error::CliError;
use crate::output;

/// `organiser password`: reads the new password from the first line of
/// standard input (and the current one from the second, when a server
/// that is not this machine's asks for it).
#[derive(Debug, Args)]
pub(crate) struct Password {}

impl Password {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let mut lines = std::io::stdin().lock().lines();
        let new = lines
            .next()
            .transpose()?
            .ok_or_else(|| CliError::msg("give the new password on standard input"))?;
        let current = lines.next().transpose()?;
        let me = global.writer()?.set_password(&new, current.as_deref())?;
        if global.json {
            return output::json(&me.body);
        }
        output::line("Password set")
    }
}
