//! `organiser web link`: a one-time sign-in link for the web app
//! (EXTENSIONS.md §6), the way in for an owner without a password (its
//! page asks for one) or who forgot it. Whoever can run this at the
//! machine (or holds a session) may sign in; an API token may not.

use std::io::IsTerminal;

use clap::{Args, Subcommand};

use super::calendar_subscriptions::Base;
use super::{Global, Session};
use crate::backend::Access;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

/// `organiser web`.
#[derive(Debug, Args)]
pub(crate) struct WebCommand {
    #[command(subcommand)]
    action: WebAction,
}

#[derive(Debug, Subcommand)]
enum WebAction {
    /// A one-time sign-in link: it works once, within 15 minutes, and asks
    /// for a password when none is set (a new link replaces the last).
    Link,
}

impl WebCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        match self.action {
            WebAction::Link => Session::open(global, Access::Write, link),
        }
    }
}

fn link(s: &Session<'_>) -> Result<(), CliError> {
    let base = Base::of(s.client)?;
    let made = s.client.reply(|c| c.account().sign_in_link())?;
    let mut link = made.data;
    if link.url.starts_with('/') {
        link.url = format!("{}{}", base.url, link.url);
    }
    if s.global.json {
        let mut body = made.body;
        body["data"]["url"] = serde_json::Value::String(link.url);
        return output::json(&body);
    }
    output::line(&link.url)?;
    if std::io::stderr().is_terminal() {
        eprintln!(
            "It signs in once, until {} (15 minutes); a new link replaces it.",
            link.expires_at
        );
    }
    Ok(())
}
