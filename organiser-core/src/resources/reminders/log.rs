//! The notifications log (EXTENSIONS.md §3, `GET /notifications`): one
//! row per reminder and channel, with the message it carries, how many
//! attempts it took, and, while pending, when it is tried next
//! (`notifications_pending`, which the scheduler reads by time).

use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};

use super::tables::{NOTIFICATIONS, NOTIFICATIONS_BY_DUE, NOTIFICATIONS_PENDING};
use crate::engine::{Cx, WriteCx};
use crate::error::Result;
use crate::ids::Id;
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};
use crate::store::key::{Key, Reader, tail_id};
use crate::store::{Dir, Tables};

/// What a notification reminds of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotificationKind {
    /// A task's `remind_at`.
    Task,
    /// The daily agenda.
    Agenda,
    /// A person's key date, some days ahead.
    KeyDate,
    /// A task's or project's deadline, some days ahead.
    Deadline,
    /// A channel's test message.
    Test,
}

/// Where a notification is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotificationStatus {
    /// Not sent yet, or being tried again.
    Pending,
    /// The channel took it.
    Sent,
    /// Every try for 24 hours failed (or its channel went).
    Failed,
    /// It fell due more than 24 hours before the server could send it.
    Missed,
}

/// One reminder to one channel (`GET /notifications`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notification {
    /// ID.
    pub id: Id,
    /// What it reminds of.
    pub kind: NotificationKind,
    /// The task, key date, task or project it is about; null for the
    /// agenda and a test.
    pub subject_id: Option<Id>,
    /// The channel it goes to.
    pub channel_id: Id,
    /// When it fell due.
    #[serde(with = "crate::time::serde_timestamp")]
    pub due_at: Timestamp,
    /// When the channel took it.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub sent_at: Option<Timestamp>,
    /// `pending`, `sent`, `failed` or `missed`.
    pub status: NotificationStatus,
    /// How many times it was tried.
    pub attempts: u32,
    /// Why the last try failed.
    pub error: Option<String>,
}

/// What a notification says, made when it falls due.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Message {
    pub(crate) title: String,
    /// Plain text.
    pub(crate) body: String,
    /// The same as HTML, for e-mail.
    pub(crate) html: String,
    /// A link to the subject, when the server's address is known.
    pub(crate) url: Option<String>,
    /// ntfy's priority, 1 to 5.
    pub(crate) priority: u8,
    /// ntfy's tags (emoji short codes among them).
    pub(crate) tags: Vec<String>,
    /// The subject's type (`task`, `key_date`, `project`), for webhooks.
    pub(crate) subject_type: Option<String>,
}

/// A notification as stored: the row, its message, its next try.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Stored {
    pub(crate) notification: Notification,
    pub(crate) message: Message,
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub(crate) next_try_at: Option<Timestamp>,
}

fn by_due(n: &Notification) -> Key {
    Key::new().timestamp(n.due_at).id(n.id)
}

fn pending_key(at: Timestamp, id: Id) -> Key {
    Key::new().timestamp(at).id(id)
}

pub(crate) fn load<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<Stored>> {
    cx.get_json(NOTIFICATIONS, &id.to_bytes())
}

/// Writes `s` with its index entries (`before`: as it was stored).
pub(crate) fn save(cx: &WriteCx<'_>, before: Option<&Stored>, s: &Stored) -> Result<()> {
    let id = s.notification.id;
    if let Some(b) = before {
        if let Some(at) = b.next_try_at {
            cx.remove(NOTIFICATIONS_PENDING, pending_key(at, id).as_slice())?;
        }
    } else {
        cx.insert(
            NOTIFICATIONS_BY_DUE,
            by_due(&s.notification).as_slice(),
            &[],
        )?;
    }
    if s.notification.status == NotificationStatus::Pending
        && let Some(at) = s.next_try_at
    {
        cx.insert(NOTIFICATIONS_PENDING, pending_key(at, id).as_slice(), &[])?;
    }
    cx.put_json(NOTIFICATIONS, &id.to_bytes(), s)
}

/// A new notification of `kind` about `subject` to `channel`, due at
/// `due_at`: pending (tried at once), or `missed` when it fell due more
/// than a day before `now`.
pub(crate) fn add(
    cx: &WriteCx<'_>,
    kind: NotificationKind,
    subject_id: Option<Id>,
    channel_id: Id,
    due_at: Timestamp,
    message: &Message,
) -> Result<Stored> {
    let now = cx.now();
    let missed = now.duration_since(due_at) > super::CATCH_UP;
    let s = Stored {
        notification: Notification {
            id: cx.new_id(),
            kind,
            subject_id,
            channel_id,
            due_at,
            sent_at: None,
            status: if missed {
                NotificationStatus::Missed
            } else {
                NotificationStatus::Pending
            },
            attempts: 0,
            error: None,
        },
        message: message.clone(),
        next_try_at: (!missed).then_some(now),
    };
    save(cx, None, &s)?;
    Ok(s)
}

/// The earliest next try of a pending notification.
pub(crate) fn next_try<T: Tables>(cx: &Cx<'_, T>) -> Result<Option<Timestamp>> {
    let first = cx.first_key(
        NOTIFICATIONS_PENDING,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Unbounded,
        Dir::Asc,
    )?;
    Ok(first.and_then(|k| Timestamp::from_millisecond(Reader::new(&k).i64()).ok()))
}

/// The pending notifications to try by `now`, earliest first, at most
/// `max`.
pub(crate) fn due<T: Tables>(cx: &Cx<'_, T>, now: Timestamp, max: usize) -> Result<Vec<Id>> {
    let end = Key::new().timestamp(now).bytes(&[0xff; 17]).into_vec();
    let mut ids = Vec::new();
    cx.scan(
        NOTIFICATIONS_PENDING,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Included(end.as_slice()),
        Dir::Asc,
        &mut |k, _| {
            ids.push(tail_id(k));
            Ok(ids.len() < max)
        },
    )?;
    Ok(ids)
}

/// How long a failed try waits before the next: a minute, doubled each
/// time, at most an hour.
pub(crate) fn backoff(attempts: u32) -> SignedDuration {
    let minutes = 1_i64 << attempts.saturating_sub(1).min(6);
    SignedDuration::from_mins(minutes.min(60))
}

/// Records one try of pending notification `id`: sent, or failed and
/// tried again after its backoff, or `failed` for good once a day has
/// passed since it fell due. A notification no longer pending is left as
/// it is (`None`).
pub(crate) fn record_try(
    cx: &WriteCx<'_>,
    id: Id,
    outcome: std::result::Result<(), &str>,
) -> Result<Option<Stored>> {
    let Some(before) = load(cx, id)? else {
        return Ok(None);
    };
    if before.notification.status != NotificationStatus::Pending {
        return Ok(None);
    }
    let now = cx.now();
    let mut s = before.clone();
    let n = &mut s.notification;
    n.attempts = n.attempts.saturating_add(1);
    match outcome {
        Ok(()) => {
            n.status = NotificationStatus::Sent;
            n.sent_at = Some(now);
            n.error = None;
            s.next_try_at = None;
        }
        Err(reason) => {
            n.error = Some(reason.to_owned());
            let next = now.checked_add(backoff(n.attempts)).unwrap_or(now);
            if next.duration_since(n.due_at) > super::CATCH_UP {
                n.status = NotificationStatus::Failed;
                s.next_try_at = None;
            } else {
                s.next_try_at = Some(next);
            }
        }
    }
    save(cx, Some(&before), &s)?;
    Ok(Some(s))
}

/// Ends pending notification `id` without a try: `missed` when it was
/// never tried, else `failed` (it fell due more than a day ago, or its
/// channel is gone or off: `reason`).
pub(crate) fn end(cx: &WriteCx<'_>, id: Id, reason: Option<&str>) -> Result<()> {
    let Some(before) = load(cx, id)? else {
        return Ok(());
    };
    if before.notification.status != NotificationStatus::Pending {
        return Ok(());
    }
    let mut s = before.clone();
    s.notification.status = match reason {
        None if s.notification.attempts == 0 => NotificationStatus::Missed,
        _ => NotificationStatus::Failed,
    };
    if let Some(reason) = reason {
        s.notification.error = Some(reason.to_owned());
    }
    s.next_try_at = None;
    save(cx, Some(&before), &s)
}

/// Every pending notification of channel `channel` fails with `reason`.
pub(crate) fn fail_pending_of(cx: &WriteCx<'_>, channel: Id, reason: &str) -> Result<()> {
    let mut ids = Vec::new();
    cx.scan_prefix(NOTIFICATIONS_PENDING, &[], Dir::Asc, &mut |k, _| {
        ids.push(tail_id(k));
        Ok(true)
    })?;
    for id in ids {
        if load(cx, id)?.is_some_and(|s| s.notification.channel_id == channel) {
            end(cx, id, Some(reason))?;
        }
    }
    Ok(())
}

/// `GET /notifications` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NotificationQuery {
    /// `due_at` (the only order, newest first by default); direction,
    /// cursor, limit, count.
    pub params: ListParams,
}

impl NotificationQuery {
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        self.params.query_pairs()
    }

    pub(crate) fn parse(query: &Query) -> Result<NotificationQuery> {
        Ok(NotificationQuery {
            params: LISTING.params(query)?,
        })
    }
}

static LISTING: Listing = Listing {
    name: "notifications",
    orders: &[Order {
        name: "due_at",
        index: NOTIFICATIONS_BY_DUE,
        direction: Direction::Desc,
    }],
    updated: None,
    every: NOTIFICATIONS,
};

/// `GET /notifications`: newest first, paged.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &NotificationQuery) -> Result<Page<Notification>> {
    let load = |k: &[u8]| Ok(load(cx, tail_id(k))?.map(|s| s.notification));
    LISTING.page(&cx.tx, &cx.org.secret, &q.params, &Filter::default(), load)
}
