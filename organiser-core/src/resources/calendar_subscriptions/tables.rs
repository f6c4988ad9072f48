//! The calendar subscriptions' tables.

use crate::store::Tbl;
use crate::store::schema::table;

/// Subscriptions by id (creation order): the record and its secret's
/// SHA-256, never the secret.
pub(crate) const SUBSCRIPTIONS: Tbl = table("calendar_subscriptions");
/// The SHA-256 of each live secret: (hash) → the subscription's id. A
/// feed's request looks its address up here, one key either way.
pub(crate) const SUBSCRIPTIONS_BY_SECRET: Tbl = table("calendar_subscriptions_by_secret");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[SUBSCRIPTIONS, SUBSCRIPTIONS_BY_SECRET];
