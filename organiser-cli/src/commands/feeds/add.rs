//! `organiser feeds add ADDRESS [--name N] [--color C] [--every E]`: the
//! API fetches the address before it saves the feed (up to 30 seconds; a
//! spinner on standard error meanwhile when that is a terminal), and
//! refuses one it cannot read with the reason.

use clap::Args;
use organiser_core::{Field, calendar::CalendarFeedInput, calendar::CalendarFeedQuery};

use super::{FLAGS, every_parser};
use crate::commands::Session;
use crate::commands::vocabulary::Vocabulary;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Add {
    /// The calendar's iCal address (https://, http:// or webcal://); it is
    /// kept secret: the feed shows only its host.
    address: String,
    /// Its name (default: the calendar's own name, else the address's host).
    #[arg(long)]
    name: Option<String>,
    /// A colour key of the vocabulary (default: its first colour).
    #[arg(long)]
    color: Option<String>,
    /// How often it is synced (default: the API's, hourly).
    #[arg(long, value_name = "EVERY", value_parser = every_parser())]
    every: Option<String>,
    /// Subscribe even when the address is subscribed already.
    #[arg(long)]
    again: bool,
}

impl Add {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        // An address subscribed already says so.
        if !self.again {
            let same = CalendarFeedQuery {
                address: Some(self.address.clone()),
                ..CalendarFeedQuery::default()
            };
            let found = s
                .client
                .reply(|c| c.calendar_feeds().list(&same))
                .map_err(|e| e.naming(FLAGS))?;
            if let Some(feed) = found.data.items.first() {
                return Err(CliError::msg(format!(
                    "you subscribe to this address already, as {} ({}); add --again to subscribe twice",
                    feed.name,
                    output::short_id(feed.id)
                )));
            }
        }
        // The API wants a colour; the CLI offers the vocabulary's first.
        let color = match self.color {
            Some(color) => color,
            None => Vocabulary::load(s.client)?
                .first_key("colors")
                .ok_or_else(|| CliError::msg("the vocabulary has no colours: give --color"))?
                .to_owned(),
        };
        let input = CalendarFeedInput {
            name: self.name.map_or(Field::Absent, Field::Value),
            address: Some(self.address),
            color: Field::Value(color),
            sync_every: self.every.map_or(Field::Absent, Field::Value),
        };
        let spinner = if s.global.json {
            None
        } else {
            output::spinner("Fetching the calendar…")
        };
        let made = s.client.reply(|c| c.calendar_feeds().create(input));
        if let Some(spinner) = spinner {
            spinner.finish_and_clear();
        }
        let made = made.map_err(|e| e.naming(FLAGS))?;
        let feed = &made.data;
        s.global.said(
            &made.body,
            format!(
                "Added feed {} ({}) from {} · syncs {}",
                feed.name,
                output::short_id(feed.id),
                feed.address_host,
                feed.sync_every
            ),
        )
    }
}
