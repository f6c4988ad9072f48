//! The calendar feeds' tables.

use crate::store::Tbl;
use crate::store::schema::table;

/// Feeds by id.
pub(crate) const FEEDS: Tbl = table("calendar_feeds");
/// Feeds: (name folded for search, id), for order `name`.
pub(crate) const FEEDS_BY_NAME: Tbl = table("calendar_feeds_by_name");
/// Feeds: (name folded for case, id), for the unique name.
pub(crate) const FEEDS_BY_CASE_NAME: Tbl = table("calendar_feeds_by_case_name");
/// Feeds: (updated_at, id).
pub(crate) const FEEDS_BY_UPDATED: Tbl = table("calendar_feeds_by_updated");
/// Feeds: (next sync, id): the scheduled syncs.
pub(crate) const FEEDS_DUE: Tbl = table("calendar_feeds_due");
/// Event details: (feed, row) to the event.
pub(crate) const EVENTS: Tbl = table("calendar_events");
/// Occurrences: (feed, UTC day number) to those touching that day.
pub(crate) const DAYS: Tbl = table("calendar_days");
/// Per feed: its long occurrences, repeating rows and window.
pub(crate) const FEED_EVENTS: Tbl = table("calendar_feed_events");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[
    FEEDS,
    FEEDS_BY_NAME,
    FEEDS_BY_CASE_NAME,
    FEEDS_BY_UPDATED,
    FEEDS_DUE,
    EVENTS,
    DAYS,
    FEED_EVENTS,
];
