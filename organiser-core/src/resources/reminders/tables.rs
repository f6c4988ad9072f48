//! The reminders' tables.

use crate::store::Tbl;
use crate::store::schema::table;

/// Notification channels by id (creation order): the record and its
/// secret, sealed with the store's key.
pub(crate) const CHANNELS: Tbl = table("notification_channels");
/// Notifications by id: the log, with each one's message and its next
/// try.
pub(crate) const NOTIFICATIONS: Tbl = table("notifications");
/// Every notification: (due_at, id), the log's order (newest first).
pub(crate) const NOTIFICATIONS_BY_DUE: Tbl = table("notifications_by_due");
/// Pending notifications: (next try, id), what the scheduler sends next.
pub(crate) const NOTIFICATIONS_PENDING: Tbl = table("notifications_pending");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[
    CHANNELS,
    NOTIFICATIONS,
    NOTIFICATIONS_BY_DUE,
    NOTIFICATIONS_PENDING,
];
