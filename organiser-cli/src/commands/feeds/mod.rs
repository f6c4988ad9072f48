//! `organiser feeds`: the calendar feeds (iCal addresses the calendar
//! shows) with their health; add, sync and delete them, one file per
//! subcommand.

mod add;
mod list;
mod rm;
mod sync;

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, Subcommand};
use organiser_core::{Id, ListParams, Page, calendar::CalendarFeed, calendar::CalendarFeedQuery};

use super::{Global, Session};
use crate::backend::Access;
use crate::door::Client;
use crate::door::Doors;
use crate::error::CliError;
use crate::refs::Family;

#[derive(Debug, Args)]
pub(crate) struct FeedsCommand {
    #[command(subcommand)]
    action: Option<FeedsAction>,
}

#[derive(Debug, Subcommand)]
enum FeedsAction {
    /// Add a feed: its address is fetched first, and refused when it
    /// cannot be read.
    Add(add::Add),
    /// Fetch every feed now (one line each as it finishes), or one.
    Sync(sync::Sync),
    /// Delete a feed and its events (for good).
    Rm(rm::Rm),
}

impl FeedsCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let access = match self.action {
            None => Access::Read,
            Some(_) => Access::Write,
        };
        Session::open(global, access, |s| match self.action {
            None => list::run(s),
            Some(FeedsAction::Add(c)) => c.run(s),
            Some(FeedsAction::Sync(c)) => c.run(s),
            Some(FeedsAction::Rm(c)) => c.run(s),
        })
    }
}

/// Feeds are named by row number, name (ignoring case), ID or part of an ID.
impl Family for CalendarFeed {
    const ONE: &'static str = "feed";
    const MANY: &'static str = "feeds";
    const NAMED: bool = true;

    fn id(&self) -> Id {
        self.id
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn page(client: &Client, cursor: Option<String>) -> Result<Page<CalendarFeed>, CliError> {
        let query = CalendarFeedQuery {
            address: None,
            params: ListParams {
                cursor,
                limit: 100,
                ..ListParams::default()
            },
        };
        Ok(client.reply(|c| c.calendar_feeds().list(&query))?.data)
    }

    fn get(client: &Client, id: Id) -> Result<CalendarFeed, CliError> {
        Ok(client
            .reply(|c| c.calendar_feeds().get(id))
            .map_err(no_feed(id))?
            .data)
    }
}

/// A 404 about feed `id` said plainly.
fn no_feed(id: Id) -> impl Fn(CliError) -> CliError {
    crate::refs::gone::<CalendarFeed>(id)
}

/// A feed's health: "ok", or its sync error's code, the HTTP status of
/// the last try when one came back, and the failed tries in a row:
/// "not_found (HTTP 404), 2 failures".
fn health(feed: &CalendarFeed) -> String {
    match &feed.sync_error {
        None => "ok".to_owned(),
        Some(error) => {
            let mut said = error.code.clone();
            if let Some(status) = error.http_status {
                said.push_str(&format!(" (HTTP {status})"));
            }
            let failures = error.failures;
            let unit = if failures == 1 { "failure" } else { "failures" };
            said.push_str(&format!(", {failures} {unit}"));
            said
        }
    }
}

/// `--every`: a key of the vocabulary's `calendar_sync_frequencies`, as
/// the core lists them.
fn every_parser() -> PossibleValuesParser {
    let frequencies = organiser_core::vocabulary::vocabulary(false).calendar_sync_frequencies;
    PossibleValuesParser::new(
        frequencies
            .iter()
            .map(|f| PossibleValue::new(f.key).help(f.label)),
    )
}

/// The API's feed fields as the feed commands set them, for messages.
const FLAGS: &[(&str, &str)] = &[
    ("address", "the address"),
    ("name", "--name"),
    ("color", "--color"),
    ("sync_every", "--every"),
];
