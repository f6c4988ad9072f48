//! `organiser password`: sets the owner's password, asked for on the
//! terminal (hidden, and typed twice) or read from standard input.

use std::io::{BufRead, IsTerminal};

use clap::Args;

use super::Global;
use crate::door::Client;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

/// `organiser password`: on a terminal, asks for the new password twice
/// without echoing it (and for the current one first when a server that
/// is not this machine's needs it); otherwise reads the new password from
/// the first line of standard input and the current one from the second.
#[derive(Debug, Args)]
pub(crate) struct Password {}

/// The API's fields as this command asks for them, for messages.
const FLAGS: &[(&str, &str)] = &[
    ("password", "the new password"),
    ("current_password", "the current password"),
];

impl Password {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let client = global.writer()?;
        let me = if std::io::stdin().is_terminal() {
            asked(&client)
        } else {
            let mut lines = std::io::stdin().lock().lines();
            let new = lines
                .next()
                .transpose()?
                .ok_or_else(|| CliError::msg("give the new password on standard input"))?;
            let current = lines.next().transpose()?;
            client.reply(|c| c.account().set_password(current.as_deref(), &new))
        }
        .map_err(|e| e.naming(FLAGS))?;
        if global.json {
            return output::json(&me.body);
        }
        output::line("Password set")
    }
}

/// Asks on the terminal, without echo: the current password when a server
/// will want it, then the new one twice.
fn asked(client: &Client) -> Result<crate::door::Reply<organiser_core::account::Me>, CliError> {
    let prompt = |text: &str| {
        rpassword::prompt_password(text)
            .map_err(|e| CliError::msg(format!("cannot read the password from the terminal: {e}")))
    };
    let current = if !client.is_local() && client.reply(|c| c.account().me())?.data.has_password {
        Some(prompt("Current password: ")?)
    } else {
        None
    };
    let new = prompt("New password: ")?;
    let again = prompt("New password again: ")?;
    if new != again {
        return Err(CliError::msg(
            "the two new passwords differ; nothing was changed",
        ));
    }
    client.reply(|c| c.account().set_password(current.as_deref(), &new))
}
