//! Calendar subscriptions: the owner's organiser as a calendar to
//! subscribe to at a secret address. A new subscription's address (and a
//! rotated one's) is shown once, with a QR code to scan with a phone, in
//! the answer to the form that made it.

use askama::Template;
use axum::extract::{Path, Query};
use axum::response::Response;
use organiser_core::calendar_subscriptions::{
    CalendarSubscriptionInput, CalendarSubscriptions, Include,
};
use organiser_core::{Details, Error, Field};

use super::{
    Done, Frame, Reached, Sent, SettingsPage, again, qr_svg, refuse, refused, run, show_page,
    when_or,
};
use crate::web::forms::{SignedIn, answer, record_id};
use crate::web::{Chrome, Refusal, blocking};

/// A subscription as the list shows it.
struct Row {
    id: String,
    name: String,
    include: String,
    alarm: String,
    last_read: String,
}

/// A subscription's address, shown this once.
struct Shown {
    name: String,
    url: String,
    /// The address as a QR code (an SVG of ours).
    qr: String,
}

/// What a subscription may hold, with the form's labels.
const INCLUDES: &[(Include, &str)] = &[
    (Include::Tasks, "Tasks with a deadline"),
    (Include::Projects, "Projects' start dates and deadlines"),
    (
        Include::KeyDates,
        "People's key dates (birthdays, anniversaries)",
    ),
];

/// What a subscription holds, as the list says it.
fn label(include: Include) -> &'static str {
    match include {
        Include::Tasks => "tasks",
        Include::Projects => "projects",
        Include::KeyDates => "key dates",
    }
}

/// The subscriptions' page (`settings_calendar.html`).
#[derive(Template)]
#[template(path = "settings_calendar.html")]
struct CalendarPage<'a> {
    chrome: Chrome<'a>,
    frame: Frame,
    subscriptions: Vec<Row>,
    shown: Option<Shown>,
    includes: &'static [(Include, &'static str)],
}

/// The subscriptions' page, with the address just made (`shown`).
#[derive(Default)]
struct Here {
    shown: Option<Shown>,
}

impl SettingsPage for Here {
    const NAME: &'static str = "calendar";

    async fn draw(self, owner: &SignedIn, frame: Frame) -> Result<Response, Refusal> {
        let subscriptions = blocking(&owner.state, |org| {
            let zone = org.zone();
            Ok(org
                .calendar_subscriptions()
                .list()?
                .into_iter()
                .map(|s| Row {
                    id: s.id.to_string(),
                    include: s
                        .include
                        .iter()
                        .map(|i| label(*i))
                        .collect::<Vec<_>>()
                        .join(", "),
                    alarm: match s.alarm_minutes {
                        None => "none".to_owned(),
                        Some(0) => "at the start".to_owned(),
                        Some(m) => format!("{m} minutes before"),
                    },
                    last_read: when_or(s.last_read_at, &zone, "never"),
                    name: s.name,
                })
                .collect())
        })
        .await?;
        let page = CalendarPage {
            chrome: owner.session.chrome("settings"),
            frame,
            subscriptions,
            shown: self.shown,
            includes: INCLUDES,
        };
        Ok(answer(&page, page.frame.refused.is_refused()))
    }
}

/// The page showing the address of `url` (a path in process) as the
/// owner reaches it (`base`), with its QR code.
fn shown(name: String, url: Option<String>, base: &str) -> Here {
    let shown = url.and_then(|url| {
        let url = if url.starts_with('/') {
            format!("{base}{url}")
        } else {
            url
        };
        let qr = qr_svg(&url, "QR code of the subscription's address")?;
        Some(Shown { name, url, qr })
    });
    Here { shown }
}

/// `GET /settings/calendar`.
pub(crate) async fn show(Query(done): Query<Done>, owner: SignedIn) -> Result<Response, Refusal> {
    show_page(owner, Here::default(), done).await
}

/// `POST /settings/calendar`: a new subscription (name, what it holds,
/// an alarm), answered with its address.
pub(crate) async fn create(reached: Reached, sent: Sent) -> Result<Response, Refusal> {
    let mut details = Details::new();
    let alarm = sent.form.number("alarm_minutes", &mut details);
    if !details.is_empty() {
        return refuse(&sent, Here::default(), "new", Error::Validation(details)).await;
    }
    let include = sent
        .form
        .all("include")
        .into_iter()
        .filter_map(Include::parse)
        .collect();
    let input = CalendarSubscriptionInput {
        name: sent.form.filled("name").map_or(Field::Absent, Field::Value),
        include: Field::Value(include),
        alarm_minutes: alarm.map_or(Field::Absent, Field::Value),
        ..CalendarSubscriptionInput::default()
    };
    let made = run(&sent, |door| CalendarSubscriptions::new(door).create(input)).await;
    match refused(made)? {
        Ok(made) => again(&sent, shown(made.name, made.url, &reached.base)).await,
        Err(e) => refuse(&sent, Here::default(), "new", e).await,
    }
}

/// `POST /settings/calendar/{id}/rotate`: a new address (the old one
/// stops at once), answered with it.
pub(crate) async fn rotate(
    reached: Reached,
    Path(sub): Path<String>,
    sent: Sent,
) -> Result<Response, Refusal> {
    let sub = record_id(&sub)?;
    let rotated = run(&sent, move |door| {
        CalendarSubscriptions::new(door).rotate(sub)
    })
    .await?;
    again(&sent, shown(rotated.name, rotated.url, &reached.base)).await
}

/// `POST /settings/calendar/{id}/delete`.
pub(crate) async fn delete(Path(sub): Path<String>, sent: Sent) -> Result<Response, Refusal> {
    let sub = record_id(&sub)?;
    run(&sent, move |door| {
        CalendarSubscriptions::new(door).delete(sub)
    })
    .await?;
    Ok(Here::done("deleted"))
}
