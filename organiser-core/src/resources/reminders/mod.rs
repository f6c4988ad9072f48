//! Reminders (EXTENSIONS.md §3): notification channels (`channels.rs`),
//! the reminder settings (`settings.rs`), the notifications log
//! (`log.rs`), what each reminder says (`message.rs`), what falls due
//! (`plan.rs`: task reminders from the tasks' queue by time, the agenda,
//! key dates and deadlines some days ahead) and how it is sent
//! (`send.rs`). The scheduler is a registered job of the core
//! ([`REMINDERS`]), woken by the writes that change what is due, with
//! every decision by the core's clock: [`Organiser::send_due_reminders`]
//! plans in one transaction, then sends each pending notification outside
//! any transaction and records its outcome in one of its own, so a
//! notification the channel took is marked sent before anything else
//! happens, and one whose outcome was never recorded (the process died
//! mid-send) is tried again.
//!
//! [`Organiser::send_due_reminders`]: crate::Organiser::send_due_reminders

mod api;
mod channels;
mod log;
mod message;
mod plan;
pub(crate) mod portable;
mod send;
mod settings;
pub(crate) mod tables;

pub(crate) use api::{OPERATIONS, REMINDERS};
pub use api::{ReminderRun, Reminders};
pub(crate) use channels::KIND as CHANNEL_KIND;
pub use channels::{
    ChannelKind, EmailInput, EmailSettings, NotificationChannel, NotificationChannelInput, Security,
};
pub use log::{Notification, NotificationKind, NotificationQuery, NotificationStatus};
pub use settings::{
    AgendaChange, DailyAgenda, DaysAhead, DaysAheadChange, ReminderSettings, ReminderSettingsChange,
};

use std::time::Duration;

use jiff::SignedDuration;

use crate::engine::jobs::Signal;
use crate::engine::{Inner, WriteCx};
use crate::error::{Error, Result};
use crate::ids::Id;
use log::NotificationKind as Kind;

/// How late a reminder may still be sent (after downtime), and how long a
/// failing one is tried.
pub(crate) const CATCH_UP: SignedDuration = SignedDuration::from_hours(24);
/// The most notifications sent in one run of the scheduler.
const SENDS_AT_ONCE: usize = 100;

/// Wakes the scheduler: a write changed what is due.
#[derive(Default)]
struct Wake(Signal);

/// Wakes the scheduler now.
pub(crate) fn wake(inner: &Inner) {
    inner.ext.get::<Wake>().0.wake();
}

/// Wakes the scheduler once this write commits.
pub(crate) fn wake_after_commit(cx: &mut WriteCx<'_>) {
    cx.on_commit(wake);
}

/// Waits until [`wake`] is called or `max` passes; whether it was woken.
pub(crate) fn wait(inner: &Inner, max: Duration) -> bool {
    inner.ext.get::<Wake>().0.wait(max)
}

/// One run of the scheduler: plans what fell due, ends what waited too
/// long, and sends what is pending.
pub(crate) fn run(inner: &Inner) -> Result<ReminderRun> {
    let mut ran = ReminderRun::default();
    let due = inner.read(|cx| Ok(plan::next_due(cx)?.is_some_and(|t| t <= cx.now())))?;
    if !due {
        return Ok(ran);
    }
    ran.planned = inner.write(plan::plan)?;
    loop {
        let ids = inner.read(|cx| log::due(cx, cx.now(), SENDS_AT_ONCE))?;
        if ids.is_empty() {
            break;
        }
        for id in &ids {
            match deliver(inner, *id)? {
                Some(true) => ran.sent += 1,
                Some(false) => ran.failed += 1,
                None => {}
            }
        }
        if ids.len() < SENDS_AT_ONCE {
            break;
        }
    }
    Ok(ran)
}

/// Tries pending notification `id` once: whether it arrived (`None`: not
/// tried, as it was ended, or is no longer pending).
fn deliver(inner: &Inner, id: Id) -> Result<Option<bool>> {
    let found = inner.read(|cx| {
        let Some(s) = log::load(cx, id)? else {
            return Ok(None);
        };
        let channel = channels::load(cx, s.notification.channel_id)?;
        Ok(Some((s, channel, cx.now())))
    })?;
    let Some((s, channel, now)) = found else {
        return Ok(None);
    };
    if s.notification.status != log::NotificationStatus::Pending {
        return Ok(None);
    }
    // Never tried and due more than a day ago (the server was down): missed.
    if s.notification.attempts == 0 && now.duration_since(s.notification.due_at) > CATCH_UP {
        inner.write(|cx| log::end(cx, id, None))?;
        return Ok(None);
    }
    let reason = match &channel {
        None => Some("the channel was deleted"),
        Some(c) if !c.channel.enabled => Some("the channel is turned off"),
        Some(_) => None,
    };
    if let Some(reason) = reason {
        inner.write(|cx| log::end(cx, id, Some(reason)))?;
        return Ok(Some(false));
    }
    let Some(channel) = channel else {
        return Ok(None);
    };
    let secret = channel.open_secret(inner);
    let outcome = send::send(
        inner.options.http.as_ref(),
        &channel.channel,
        secret.as_deref(),
        &send::Outgoing::of(&s.notification, &s.message),
    );
    let arrived = outcome.is_ok();
    inner.write(|cx| {
        log::record_try(cx, id, outcome.as_ref().map(drop).map_err(String::as_str))?;
        channels::record_outcome(
            cx,
            channel.channel.id,
            outcome.as_ref().map(drop).map_err(String::as_str),
        )?;
        Ok(())
    })?;
    if let Err(reason) = &outcome {
        tracing::warn!(channel = %channel.channel.name, %reason, "a reminder was not delivered");
    }
    Ok(Some(arrived))
}

/// `POST /notification_channels/{id}/test`: sends a test message now and
/// records it (a `test` notification, and the channel's outcome).
pub(crate) fn test(inner: &Inner, id: Id) -> Result<channels::NotificationChannel> {
    let (channel, now) = inner.read(|cx| Ok((channels::stored(cx, id)?, cx.now())))?;
    let secret = channel.open_secret(inner);
    let message = message::test(&channel.channel.name);
    let probe = log::Notification {
        id: Id::from_bytes([0; 16]),
        kind: Kind::Test,
        subject_id: None,
        channel_id: id,
        due_at: now,
        sent_at: None,
        status: log::NotificationStatus::Pending,
        attempts: 0,
        error: None,
    };
    // The ID the notification will have, so a receiver sees the same one.
    let nid = inner.ids.next(now);
    let probe = log::Notification { id: nid, ..probe };
    let outcome = send::send(
        inner.options.http.as_ref(),
        &channel.channel,
        secret.as_deref(),
        &send::Outgoing::of(&probe, &message),
    );
    let recorded = inner.write(|cx| {
        let mut s = log::Stored {
            notification: probe.clone(),
            message: message.clone(),
            next_try_at: None,
        };
        let n = &mut s.notification;
        n.attempts = 1;
        match &outcome {
            Ok(()) => {
                n.status = log::NotificationStatus::Sent;
                n.sent_at = Some(cx.now());
            }
            Err(reason) => {
                n.status = log::NotificationStatus::Failed;
                n.error = Some(reason.clone());
            }
        }
        log::save(cx, None, &s)?;
        channels::record_outcome(cx, id, outcome.as_ref().map(drop).map_err(String::as_str))
    })?;
    match outcome {
        Ok(()) => recorded.ok_or(Error::NotFound),
        Err(reason) => Err(Error::DeliveryFailed(format!(
            "The test message did not arrive: {reason}"
        ))),
    }
}
