//! `organiser token create NAME [--expires-at T]`: prints the new token,
//! alone, on standard output.

use clap::Args;

use crate::commands::Global;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(crate) struct Create {
    /// A label for the token, e.g. the app that will use it.
    name: String,
    /// When it stops working: an instant (RFC 3339, e.g.
    /// 2027-01-01T00:00:00Z), or the words dates take (2027-01-01, +30d,
    /// next month, friday): the end of that day in the owner's zone.
    #[arg(long, allow_hyphen_values = true)]
    expires_at: Option<String>,
}

impl Create {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let client = global.writer()?;
        let expires_at = match self.expires_at {
            Some(text) => Some(instant(&client, &text)?),
            None => None,
        };
        let made = client
            .reply(|c| c.account().create_token(&self.name, expires_at))
            .map_err(|e| e.naming(&[("name", "the name"), ("expires_at", "--expires-at")]))?;
        if global.json {
            return output::json(&made.body);
        }
        output::line(&made.data.secret)
    }
}

/// The instant `text` names: itself when it is one, else the end of the
/// day its date words name (the start of the next day in the owner's zone).
fn instant(client: &crate::door::Client, text: &str) -> Result<jiff::Timestamp, CliError> {
    if let Some(at) = organiser_core::time::parse_timestamp(text) {
        return Ok(at);
    }
    let me = client.reply(|c| c.account().me())?.data;
    let day = organiser_core::time::parse_date_words(text, me.today).ok_or_else(|| {
        CliError::msg(format!(
            "--expires-at {text:?} is neither an instant (2027-01-01T00:00:00Z) nor a date (2027-01-01, +30d, friday)"
        ))
    })?;
    let next = organiser_core::time::add_days(day, 1);
    let zone = jiff::tz::TimeZone::get(&me.time_zone_iana)
        .map_err(|e| CliError::msg(format!("the owner's zone {}: {e}", me.time_zone_iana)))?;
    let at = next
        .to_zoned(zone)
        .map_err(|e| CliError::msg(format!("--expires-at {text:?}: {e}")))?;
    Ok(at.timestamp())
}
