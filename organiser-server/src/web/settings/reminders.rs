//! Reminders: the notification channels (an ntfy topic, a webhook, an
//! e-mail address: added, tested, turned on and off, deleted) and the
//! reminder settings (which channels everything goes to, the daily
//! agenda, how many days ahead key dates and deadlines are told).

use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use organiser_core::reminders::{
    AgendaChange, ChannelKind, DaysAhead, DaysAheadChange, EmailInput, NotificationChannel,
    NotificationChannelInput, ReminderSettings, ReminderSettingsChange, Reminders,
};
use organiser_core::time::Zone;
use organiser_core::{Details, Field, Id};

use super::{Done, Frame, Posted, Refused, answer, done, id, refused, when_or};
use crate::AppState;
use crate::web::{Chrome, Refusal, Signed, blocking, signed, signed_form};

const HERE: &str = "/settings/reminders";

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

async fn page(
    state: &AppState,
    session: &Signed,
    notice: Option<&'static str>,
    refused: Refused,
) -> Result<Response, Refusal> {
    let (channels, settings) = blocking(state, |org| {
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
        .find(|form| refused.sent(form))
        .unwrap_or("");
    let page = RemindersPage {
        chrome: session.chrome("settings"),
        frame: Frame::new("reminders", notice, refused),
        channels,
        key_days: days(&settings.key_dates),
        deadline_days: days(&settings.deadlines),
        settings,
        open,
    };
    Ok(answer(&page, &page.frame.refused))
}

/// `GET /settings/reminders`.
pub(crate) async fn show(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<Done>,
) -> Result<Response, Refusal> {
    let session = signed(&state, &headers).await?;
    page(&state, &session, q.notice(), Refused::none()).await
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
pub(crate) async fn change(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let mut details = Details::new();
    let key_days = days_before(&form, "key_dates.days_before", &mut details);
    let deadline_days = days_before(&form, "deadlines.days_before", &mut details);
    let channel_ids: Option<Vec<Id>> = form.all("channel_ids").into_iter().map(Id::parse).collect();
    if channel_ids.is_none() {
        details.add("channel_ids", "must be channels of this organiser");
    }
    if !details.is_empty() {
        let refusal = Refused::read("settings", &form, details);
        return page(&state, &session, None, refusal).await;
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
    let csrf = session.csrf_token.clone();
    let result = blocking(&state, move |org| {
        Reminders::new(&org.as_session(csrf)).change_settings(change)
    })
    .await;
    match refused(result)? {
        Ok(_) => Ok(done(HERE, "saved")),
        Err(e) => page(&state, &session, None, Refused::of("settings", &form, e)).await,
    }
}

/// `POST /settings/reminders/channels`: a new channel of `kind` (one
/// form for each kind).
pub(crate) async fn add(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
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
        let refusal = Refused::read(tag, &form, details);
        return page(&state, &session, None, refusal).await;
    }
    let email = kind == "email";
    let input = NotificationChannelInput {
        name: Field::Value(form.text("name")),
        kind: Field::Value(kind.clone()),
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
    };
    let csrf = session.csrf_token.clone();
    let result = blocking(&state, move |org| {
        Reminders::new(&org.as_session(csrf)).create_channel(input)
    })
    .await;
    match refused(result)? {
        Ok(_) => Ok(done(HERE, "channel_added")),
        Err(e) => page(&state, &session, None, Refused::of(tag, &form, e)).await,
    }
}

/// `POST /settings/reminders/channels/{id}/test`: a test message now; one
/// that does not arrive is said beside the channel (422).
pub(crate) async fn test(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(channel): Path<String>,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let channel = id(&channel)?;
    let csrf = session.csrf_token.clone();
    let result = blocking(&state, move |org| {
        Reminders::new(&org.as_session(csrf)).test_channel(channel)
    })
    .await;
    match refused(result)? {
        Ok(_) => Ok(done(HERE, "tested")),
        Err(e) => {
            let refusal = Refused::of(format!("test-{channel}"), &form, e);
            page(&state, &session, None, refusal).await
        }
    }
}

/// `POST /settings/reminders/channels/{id}/enabled`: `enabled` `on` or
/// `off`.
pub(crate) async fn switch(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(channel): Path<String>,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let channel = id(&channel)?;
    let input = NotificationChannelInput {
        enabled: Some(form.one("enabled") == Some("on")),
        ..NotificationChannelInput::default()
    };
    let csrf = session.csrf_token.clone();
    blocking(&state, move |org| {
        Reminders::new(&org.as_session(csrf)).change_channel(channel, input)
    })
    .await?;
    Ok(done(HERE, "saved"))
}

/// `POST /settings/reminders/channels/{id}/delete`.
pub(crate) async fn delete(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(channel): Path<String>,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let channel = id(&channel)?;
    let csrf = session.csrf_token.clone();
    blocking(&state, move |org| {
        Reminders::new(&org.as_session(csrf)).delete_channel(channel)
    })
    .await?;
    Ok(done(HERE, "deleted"))
}
