//! `organiser feeds sync [F]`: fetches every feed now, one at a time
//! (`POST /calendar_feeds/{id}/sync` each, by name), printing a line for
//! each as it finishes, then a summary; or the one feed named. A feed the
//! API could not read is not an error: its line says its health and the
//! vocabulary's reason. A spinner names the feed being fetched, on
//! standard error when that is a terminal.

use clap::Args;
use organiser_core::calendar::CalendarFeed;
use serde_json::Value;

use super::{health, no_feed};
use crate::commands::Session;
use crate::commands::vocabulary::Vocabulary;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::{self, Data};
use crate::refs;

#[derive(Debug, Args)]
pub(super) struct Sync {
    /// The feed: its row number, name, short ID or ID (default: every feed).
    feed: Option<String>,
}

impl Sync {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let feeds = match &self.feed {
            Some(feed) => vec![s.refs.record::<CalendarFeed>(feed)?],
            None => refs::every::<CalendarFeed>(s.client)?,
        };
        if feeds.is_empty() && !s.global.json {
            return output::line(format!(
                "No feeds yet: add one with `{}`.",
                s.global.command("feeds add ADDRESS")
            ));
        }
        // The reasons of sync errors, read once when one is to be said.
        let mut vocabulary: Option<Vocabulary> = None;
        let mut bodies: Vec<Value> = Vec::new();
        let mut failing = 0;
        for feed in &feeds {
            let spinner = if s.global.json {
                None
            } else {
                output::spinner(&format!("Syncing {}…", output::clean(&feed.name)))
            };
            let synced = s.client.reply(|c| c.calendar_feeds().sync(feed.id));
            if let Some(spinner) = spinner {
                spinner.finish_and_clear();
            }
            let synced = synced.map_err(no_feed(feed.id))?;
            if self.feed.is_some() && s.global.json {
                return output::json(&synced.body);
            }
            bodies.push(synced.body["data"].clone());
            if s.global.json {
                continue;
            }
            let feed = &synced.data;
            match &feed.sync_error {
                None => output::line(format!("{}: ok", feed.name))?,
                Some(error) => {
                    failing += 1;
                    let vocabulary = match &mut vocabulary {
                        Some(v) => v,
                        None => vocabulary.insert(Vocabulary::load(s.client)?),
                    };
                    let reason = vocabulary.label("calendar_sync_errors", &error.code);
                    output::line(format!("{}: {} · {reason}", feed.name, health(feed)))?;
                }
            }
        }
        if s.global.json {
            // Every feed after its sync, as `POST /calendar_feeds/sync` answers.
            return output::json(&Data { data: bodies });
        }
        if self.feed.is_none() {
            let n = feeds.len();
            let mut said = format!("Synced {n} {}", if n == 1 { "feed" } else { "feeds" });
            if failing > 0 {
                said.push_str(&format!(" · {failing} failing"));
            }
            output::line(said)?;
        }
        Ok(())
    }
}
