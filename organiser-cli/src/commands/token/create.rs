//! `organiser token create NAME [--expires-at T]`: prints the new token,
//! alone, on standard output.

use clap::Args;

use crate::commands::Global;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(crate) struct Create {
    /// A label for the token, e.g. the app that will use it.
    name: String,
    /// When it stops working (RFC 3339, e.g. 2027-01-01T00:00:00Z).
    #[arg(long)]
    expires_at: Option<String>,
}

impl Create {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let client = global.writer()?;
        let made = client.create_token(&self.name, self.expires_at.as_deref())?;
        if global.json {
            return output::json(&made.body);
        }
        output::line(&made.data.secret)
    }
}
