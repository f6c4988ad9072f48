//! `organiser feeds rm F`: deletes a feed and its events, for good (the
//! API keeps no restore window for feeds).

use clap::Args;
use organiser_core::{Id, calendar::CalendarFeed};
use serde::Serialize;

use super::no_feed;
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::Data;

#[derive(Debug, Args)]
pub(super) struct Rm {
    /// The feed: its row number, name, short ID or ID.
    feed: String,
}

/// What `--json` says: `{data: {deleted: ID}}` (the API answers a delete
/// with no body).
#[derive(Serialize)]
struct Deleted {
    deleted: Id,
}

impl Rm {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let feed = s.refs.record::<CalendarFeed>(&self.feed)?;
        let id = feed.id;
        s.client
            .reply(|c| c.calendar_feeds().delete(id))
            .map_err(no_feed(id))?;
        s.global.said(
            &Data {
                data: Deleted { deleted: id },
            },
            format!(
                "Deleted feed {} and its events (this cannot be undone)",
                feed.name
            ),
        )
    }
}
