//! Reminders: the notification channels (an ntfy topic, a webhook, an
//! e-mail address: added, tested, turned on and off, deleted) and the
//! reminder settings (which channels everything goes to, the daily
//! agenda, how many days ahead key dates and deadlines are told).

use askama::Template;
use axum::extract::{Path, Query};
use axum::response::Response;
use organiser_core::reminders::{
    AgendaChange, ChannelKind, DaysAhead, DaysAheadChange, EmailInput, NotificationChannel,
    NotificationChannelInput, ReminderSettings, ReminderSettingsChange, Reminders,
};
use organiser_core::time::Zone;
use organiser_core::{Details, Error, Field, Id};

use super::{Done, Frame, Posted, Sent, SettingsPage, act, refuse, run, show_page, when_or};
use crate::web::forms::{SignedIn, answer, record_id};
use crate::web::{Chrome, Refusal, blocking};

/// A channel as the list shows it.
struct Row {
    id: String,
    name: String,
    kind: &'static str,
    /// Where it delivers: the topic's or webhook's address, the
    /// recipients.
    place: String,
    enabled: bool,
    succeeded: String,
    failed: Option<String>,
    error: Option<String>,
    /// Whether reminders go to it (the settings' channels).
    chosen: bool,
    /// The name of its test button's form, for a failed test's message.
    test_form: String,
}

impl Row {
    /// Channel `c` as the list shows it, with the reminder settings and
    /// in the owner's zone.
    fn of(c: NotificationChannel, settings: &ReminderSettings, zone: &Zone) -> Row {
        let place = match (&c.url, &c.email) {
            (Some(url), _) => url.clone(),
            (None, Some(email)) => email.to.clone(),
            (None, None) => String::new(),
        };
        Row {
            id: c.id.to_string(),
            name: c.name,
            kind: match c.kind {
                ChannelKind::Ntfy => "ntfy",
                ChannelKind::Webhook => "Webhook",
                ChannelKind::Email => "E-mail",
            },
            place,
            enabled: c.enabled,
            succeeded: when_or(c.last_succeeded_at, zone, "never"),
            failed: c.last_failed_at.map(|t| super::when(t, zone)),
            error: c.last_error,
            chosen: settings.channel_ids.contains(&c.id),
            test_form: format!("test-{}", c.id),
        }
    }
}

/// Days ahead as the form shows them: `0, 7`.
fn days(ahead: &DaysAhead) -> String {
    ahead
        .days_before
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The reminders' page (`settings_reminders.html`).
#[derive(Template)]
#[template(path = "settings_reminders.html")]
struct RemindersPage<'a> {
    chrome: Chrome<'a>,
    frame: Frame,
    channels: Vec<Row>,
    settings: ReminderSettings,
    key_days: String,
    deadline_days: String,
    /// The add form to show open (the one refused).
    open: &'static str,
}

/// The reminders' page: the channels and the reminder settings.
struct Here;

impl SettingsPage for Here {
    const NAME: &'static str = "reminders";

    async fn draw(self, owner: &SignedIn, frame: Frame) -> Result<Response, Refusal> {
        let (channels, settings) = blocking(&owner.state, |org| {
            let zone = org.zone();
            let settings = org.reminders().settings()?;
            let channels = org
                .reminders()
                .channels()?
                .into_iter()
                .map(|c| Row::of(c, &settings, &zone))
                .collect();
            Ok((channels, settings))
        })
        .await?;
        let open = ["add-ntfy", "add-webhook", "add-email"]
            .into_iter()
            .find(|form| frame.refused.sent(form))
            .unwrap_or("");
        let page = RemindersPage {
            chrome: owner.session.chrome("settings"),
            frame,
            channels,
            key_days: days(&settings.key_dates),
            deadline_days: days(&settings.deadlines),
            settings,
            open,
        };
        Ok(answer(&page, page.frame.refused.is_refused()))
    }
}

/// `GET /settings/reminders`.
pub(crate) async fn show(Query(done): Query<Done>, owner: SignedIn) -> Result<Response, Refusal> {
    show_page(owner, Here, done).await
}

/// Field `name` of `form` as days ahead (`0, 7`; empty or `none` for
/// none); a phrase in `details` for a day that is no number (the core
/// judges the range).
fn days_before(form: &Posted, name: &str, details: &mut Details) -> Option<Vec<i64>> {
    let text = form.one(name)?.trim();
    if text.is_empty() || text.eq_ignore_ascii_case("none") {
        return Some(Vec::new());
    }
    let mut days = Vec::new();
    for day in text.split(',').map(str::trim).filter(|d| !d.is_empty()) {
        match day.parse() {
            Ok(day) => days.push(day),
            Err(_) => {
                details.add(
                    name,
                    "must be numbers of days separated by commas, such as 0, 7",
                );
                return None;
            }
        }
    }
    Some(days)
}

/// `POST /settings/reminders`: the reminder settings.
pub(crate) async fn change(sent: Sent) -> Result<Response, Refusal> {
    let form = &sent.form;
    let mut details = Details::new();
    let key_days = days_before(form, "key_dates.days_before", &mut details);
    let deadline_days = days_before(form, "deadlines.days_before", &mut details);
    let channel_ids: Option<Vec<Id>> = form.all("channel_ids").into_iter().map(Id::parse).collect();
    if channel_ids.is_none() {
        details.add("channel_ids", "must be channels of this organiser");
    }
    if !details.is_empty() {
        return refuse(&sent, Here, "settings", Error::Validation(details)).await;
    }
    let change = ReminderSettingsChange {
        channel_ids,
        daily_agenda: Some(AgendaChange {
            enabled: Some(form.ticked("daily_agenda.enabled")),
            at: form.one("daily_agenda.at").map(str::to_owned),
        }),
        key_dates: Some(DaysAheadChange {
            days_before: key_days,
            at: form.one("key_dates.at").map(str::to_owned),
        }),
        deadlines: Some(DaysAheadChange {
            days_before: deadline_days,
            at: form.one("deadlines.at").map(str::to_owned),
        }),
    };
    act(&sent, Here, "settings", "saved", move |door| {
        Reminders::new(door).change_settings(change)
    })
    .await
}

/// `POST /settings/reminders/channels`: a new channel of `kind` (one
/// form for each kind).
pub(crate) async fn add(sent: Sent) -> Result<Response, Refusal> {
    let form = &sent.form;
    let kind = form.text("kind");
    let tag = match kind.as_str() {
        "ntfy" => "add-ntfy",
        "webhook" => "add-webhook",
        "email" => "add-email",
        _ => "add",
    };
    let mut details = Details::new();
    let port = form.number("email.smtp_port", &mut details);
    if !details.is_empty() {
        return refuse(&sent, Here, tag, Error::Validation(details)).await;
    }
    let input = channel(form, kind, port);
    act(&sent, Here, tag, "channel_added", move |door| {
        Reminders::new(door).create_channel(input)
    })
    .await
}

/// The channel `form` adds, of `kind` (an e-mail channel's SMTP port
/// read as `port`).
fn channel(form: &Posted, kind: String, port: Option<i64>) -> NotificationChannelInput {
    let email = kind == "email";
    NotificationChannelInput {
        name: Field::Value(form.text("name")),
        kind: Field::Value(kind),
        url: if email {
            Field::Absent
        } else {
            Field::Value(form.text("url"))
        },
        email: if email {
            Field::Value(EmailInput {
                smtp_host: Some(form.text("email.smtp_host")),
                smtp_port: port,
                security: form.filled("email.security"),
                username: form
                    .filled("email.username")
                    .map_or(Field::Absent, Field::Value),
                from: Some(form.text("email.from")),
                to: Some(form.text("email.to")),
            })
        } else {
            Field::Absent
        },
        secret: form.filled("secret").map_or(Field::Absent, Field::Value),
        enabled: None,
    }
}

/// `POST /settings/reminders/channels/{id}/test`: a test message now; one
/// that does not arrive is said beside the channel (422).
pub(crate) async fn test(Path(channel): Path<String>, sent: Sent) -> Result<Response, Refusal> {
    let channel = record_id(&channel)?;
    act(
        &sent,
        Here,
        &format!("test-{channel}"),
        "tested",
        move |door| Reminders::new(door).test_channel(channel),
    )
    .await
}

/// `POST /settings/reminders/channels/{id}/enabled`: `enabled` `on` or
/// `off`.
pub(crate) async fn switch(Path(channel): Path<String>, sent: Sent) -> Result<Response, Refusal> {
    let channel = record_id(&channel)?;
    let input = NotificationChannelInput {
        enabled: Some(sent.form.one("enabled") == Some("on")),
        ..NotificationChannelInput::default()
    };
    run(&sent, move |door| {
        Reminders::new(door).change_channel(channel, input)
    })
    .await?;
    Ok(Here::done("saved"))
}

/// `POST /settings/reminders/channels/{id}/delete`.
pub(crate) async fn delete(Path(channel): Path<String>, sent: Sent) -> Result<Response, Refusal> {
    let channel = record_id(&channel)?;
    run(&sent, move |door| {
        Reminders::new(door).delete_channel(channel)
    })
    .await?;
    Ok(Here::done("deleted"))
}
