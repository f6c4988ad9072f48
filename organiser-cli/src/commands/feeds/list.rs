//! `organiser feeds`: every feed by name, with its host, how often it is
//! synced, when it last was, and its health.

use jiff::tz::TimeZone;
use organiser_core::{Page, calendar::CalendarFeed};

use super::health;
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;
use crate::refs;

pub(super) fn run(s: &Session<'_>) -> Result<(), CliError> {
    let feeds = refs::every::<CalendarFeed>(s.client)?;
    s.refs.listed(&feeds);
    if s.global.json {
        // Every page's feeds in one page of the API's shape.
        let limit = feeds.len().max(1);
        return output::json(&Page {
            items: feeds,
            next_cursor: None,
            limit,
            total_count: None,
        });
    }
    let failing = feeds.iter().filter(|f| f.sync_error.is_some()).count();
    let mut title = format!(
        "Feeds · {} {}",
        feeds.len(),
        if feeds.len() == 1 { "feed" } else { "feeds" }
    );
    if failing > 0 {
        title.push_str(&format!(" · {failing} failing"));
    }
    output::line(title)?;
    if feeds.is_empty() {
        return output::line(format!(
            "No feeds yet: add one with `{}`.",
            s.global.command("feeds add ADDRESS")
        ));
    }
    let zone = TimeZone::get(&s.client.reply(|c| c.account().me())?.data.time_zone_iana)
        .unwrap_or(TimeZone::UTC);
    let mut table = output::table(&["#", "ID", "NAME", "HOST", "EVERY", "LAST SYNCED", "HEALTH"]);
    for (row, feed) in feeds.iter().enumerate() {
        let synced = match feed.last_synced_at {
            Some(at) => output::moment(at, &zone),
            None => "never".to_owned(),
        };
        let health = health(feed);
        table.add_row(vec![
            output::cell(row + 1),
            output::cell(output::short_id(feed.id)),
            output::cell(&feed.name),
            output::cell(&feed.address_host),
            output::cell(&feed.sync_every),
            output::cell(synced),
            if feed.sync_error.is_some() {
                output::red(health)
            } else {
                output::cell(health)
            },
        ]);
    }
    // A host is never broken.
    output::keep_whole(&mut table, &[3]);
    output::print_table(&table)
}
