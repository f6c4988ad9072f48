//! The reminders' operations (EXTENSIONS.md §3: `/notification_channels`,
//! `/reminder_settings`, `/notifications`), each declared once,
//! [`Reminders`], their typed door, and the scheduler, a registered job.

use std::time::Duration;

use super::channels::{self, NotificationChannel, NotificationChannelInput};
use super::log::{self, Notification, NotificationQuery};
use super::settings::{self, ReminderSettings, ReminderSettingsChange};
use crate::engine::Organiser;
use crate::engine::jobs::{Job, Pace, Ran};
use crate::engine::op::{PlainOp, ReadOp, WriteOp};
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, body_part, query_part};
use crate::engine::request::Method::{Delete, Get, Patch, Post, Put};
use crate::error::Result;
use crate::ids::Id;
use crate::limits::routes::PROVIDER_CALLS_LIMIT;
use crate::list::Page;

body_part!(
    NotificationChannelInput,
    channels::parse,
    Some("notification_channel")
);
body_part!(
    ReminderSettingsChange,
    settings::parse,
    Some("reminder_settings")
);
query_part!(NotificationQuery);

/// `GET /notification_channels`.
pub(crate) static LIST_CHANNELS: Operation<(), Vec<NotificationChannel>> = Operation::new(
    "listNotificationChannels",
    Get,
    "/notification_channels",
    "Notification channels\n\nEvery channel, oldest first; not paginated. A channel's `secret` is never shown (`secret_set` says whether one is stored).",
    Run::Read(ReadOp::PLAIN, |cx, ()| channels::list(cx)),
    Answer::data(200),
);

/// `POST /notification_channels`.
pub(crate) static CREATE_CHANNEL: Operation<NotificationChannelInput, NotificationChannel> =
    Operation::new(
        "createNotificationChannel",
        Post,
        "/notification_channels",
        "Add a notification channel\n\n`kind` `ntfy` (with `url`, the topic's address; `secret`, an access token), `webhook` (`url`; `secret`, the signing key) or `email` (`email`; `secret`, the SMTP password). 422 on each field. Honours `Idempotency-Key`.",
        Run::write(WriteOp::LICENSED.idempotent(), |cx, input| {
            channels::create(cx, &input)
        }),
        Answer::data(201),
    );

/// `GET /notification_channels/{id}`.
pub(crate) static GET_CHANNEL: Operation<Id, NotificationChannel> = Operation::new(
    "getNotificationChannel",
    Get,
    "/notification_channels/{id}",
    "A notification channel",
    Run::Read(ReadOp::PLAIN, channels::get),
    Answer::data(200),
);

/// `PATCH` (or `PUT`) `/notification_channels/{id}`.
pub(crate) static CHANGE_CHANNEL: Operation<
    (Id, NotificationChannelInput),
    NotificationChannel,
> = Operation::new(
    "patchNotificationChannel",
    Patch,
    "/notification_channels/{id}",
    "Change a notification channel\n\nOnly the fields sent change (inside `email` too); `secret` absent keeps it, null or blank clears it; `kind` is fixed.",
    Run::write(WriteOp::LICENSED, |cx, (id, input)| {
        channels::change(cx, id, &input)
    }),
    Answer::data(200),
)
.also(Put, "putNotificationChannel");

/// `DELETE /notification_channels/{id}`.
pub(crate) static DELETE_CHANNEL: Operation<Id, ()> = Operation::new(
    "deleteNotificationChannel",
    Delete,
    "/notification_channels/{id}",
    "Delete a notification channel\n\nFor good: it leaves `reminder_settings.channel_ids`, and its pending notifications become `failed`.",
    Run::write(WriteOp::LICENSED, channels::delete),
    Answer::empty(),
);

/// `POST /notification_channels/{id}/test`.
pub(crate) static TEST_CHANNEL: Operation<Id, NotificationChannel> = Operation::new(
    "testNotificationChannel",
    Post,
    "/notification_channels/{id}/test",
    "Send a test message\n\nSends now (10 s at most) and records a `test` notification: 200 with the channel, `last_succeeded_at` set; when it does not arrive, 422 `delivery_failed` with the reason in `message`, and `last_failed_at` and `last_error` set. Counts against the provider calls' rate limit.",
    Run::Plain(PlainOp::WAITS.licensed(), super::test),
    Answer::data(200),
)
.limited(&PROVIDER_CALLS_LIMIT);

/// `GET /reminder_settings`.
pub(crate) static SETTINGS: Operation<(), ReminderSettings> = Operation::new(
    "getReminderSettings",
    Get,
    "/reminder_settings",
    "Reminder settings\n\nWhere reminders go (`channel_ids`), the daily agenda, and how many days ahead key dates and deadlines are told; times are `HH:MM` in the owner's zone.",
    Run::Read(ReadOp::PLAIN, |cx, ()| settings::get(cx)),
    Answer::data(200),
);

/// `PATCH` (or `PUT`) `/reminder_settings`.
pub(crate) static CHANGE_SETTINGS: Operation<ReminderSettingsChange, ReminderSettings> =
    Operation::new(
        "patchReminderSettings",
        Patch,
        "/reminder_settings",
        "Change reminder settings\n\nWhat is sent changes, inside `daily_agenda`, `key_dates` and `deadlines` too. 422 on `channel_ids` (an unknown channel), `daily_agenda.at`, `key_dates.days_before` (whole numbers from 0 to 60), ... A daily reminder turned on or moved starts at its next time to come.",
        Run::write(WriteOp::LICENSED, settings::change),
        Answer::data(200),
    )
    .also(Put, "putReminderSettings");

/// `GET /notifications`.
pub(crate) static LIST_NOTIFICATIONS: Operation<NotificationQuery, Page<Notification>> =
    Operation::new(
        "listNotifications",
        Get,
        "/notifications",
        "Notifications\n\nEvery reminder sent, pending, failed or missed, one per channel, newest `due_at` first; paginated. Read only.",
        Run::Read(ReadOp::PLAIN, |cx, q| log::list(cx, &q)),
        Answer::bare(200),
    );

/// The reminders' operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[
    &LIST_CHANNELS,
    &CREATE_CHANNEL,
    &GET_CHANNEL,
    &CHANGE_CHANNEL,
    &DELETE_CHANNEL,
    &TEST_CHANNEL,
    &SETTINGS,
    &CHANGE_SETTINGS,
    &LIST_NOTIFICATIONS,
];

/// What a run of the scheduler did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReminderRun {
    /// Notifications made from what fell due.
    pub planned: usize,
    /// Notifications a channel took.
    pub sent: usize,
    /// Tries that failed (tried again later, or failed for good).
    pub failed: usize,
}

/// The scheduler: woken by the writes that change what is due, and
/// looking every second (one key read per queue) for what the clock made
/// due.
pub(crate) const REMINDERS: Job = Job {
    name: "reminders",
    pace: Pace::Woken(Duration::from_secs(1), |org, max| {
        super::wait(&org.inner, max)
    }),
    announce: None,
    run: |org| {
        let ran = org.send_due_reminders()?;
        Ok(match ran {
            ReminderRun {
                planned: 0,
                sent: 0,
                failed: 0,
            } => Ran::Nothing,
            ReminderRun { failed: 0, .. } => Ran::Did(format!(
                "reminders: {} planned, {} sent",
                ran.planned, ran.sent
            )),
            _ => Ran::Failed(format!(
                "reminders: {} planned, {} sent, {} failed (see GET /notifications)",
                ran.planned, ran.sent, ran.failed
            )),
        })
    },
    at_stop: None,
};

/// The reminders of a store (EXTENSIONS.md §3), through a [`Door`]: the
/// store itself (`org.reminders()`), or a server that holds it.
#[derive(Debug, Clone, Copy)]
pub struct Reminders<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> Reminders<'d, D> {
    /// The reminders of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        Reminders { door }
    }

    /// Every notification channel, oldest first.
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn channels(&self) -> Result<Vec<NotificationChannel>> {
        self.door.call(&LIST_CHANNELS, ())
    }

    /// Adds a channel.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) on each field.
    pub fn create_channel(&self, input: NotificationChannelInput) -> Result<NotificationChannel> {
        self.door.call(&CREATE_CHANNEL, input)
    }

    /// One channel.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound).
    pub fn channel(&self, id: Id) -> Result<NotificationChannel> {
        self.door.call(&GET_CHANNEL, id)
    }

    /// Changes what `input` sends.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound),
    /// [`Error::Validation`](crate::Error::Validation).
    pub fn change_channel(
        &self,
        id: Id,
        input: NotificationChannelInput,
    ) -> Result<NotificationChannel> {
        self.door.call(&CHANGE_CHANNEL, (id, input))
    }

    /// Deletes a channel for good.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound).
    pub fn delete_channel(&self, id: Id) -> Result<()> {
        self.door.call(&DELETE_CHANNEL, id)
    }

    /// Sends a test message now.
    ///
    /// # Errors
    ///
    /// [`Error::DeliveryFailed`](crate::Error::DeliveryFailed) with why it
    /// did not arrive (recorded on the channel).
    pub fn test_channel(&self, id: Id) -> Result<NotificationChannel> {
        self.door.call(&TEST_CHANNEL, id)
    }

    /// The reminder settings.
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn settings(&self) -> Result<ReminderSettings> {
        self.door.call(&SETTINGS, ())
    }

    /// Changes what `change` sends.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation).
    pub fn change_settings(&self, change: ReminderSettingsChange) -> Result<ReminderSettings> {
        self.door.call(&CHANGE_SETTINGS, change)
    }

    /// A page of the notifications log, newest first.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// bad cursor or limit.
    pub fn notifications(&self, query: NotificationQuery) -> Result<Page<Notification>> {
        self.door.call(&LIST_NOTIFICATIONS, query)
    }
}

impl Organiser {
    /// The store's reminders.
    pub fn reminders(&self) -> Reminders<'_> {
        Reminders::new(self)
    }

    /// Plans what has fallen due by the core's clock and sends what is
    /// pending (waiting on each channel, 10 s at most, outside any
    /// transaction). The server's job runs it; an embedder may run it on
    /// its own schedule.
    ///
    /// # Errors
    ///
    /// Only the store's (a delivery that fails is recorded and retried).
    pub fn send_due_reminders(&self) -> Result<ReminderRun> {
        super::run(&self.inner)
    }

    /// When the next reminder falls due (or a pending one is tried
    /// again), by the core's clock.
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn next_reminder_at(&self) -> Result<Option<jiff::Timestamp>> {
        self.inner.read(super::plan::next_due)
    }
}
