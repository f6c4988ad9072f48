//! Calendar subscriptions: the owner's organiser as a calendar to
//! subscribe to at a secret address. A new subscription's address (and a
//! rotated one's) is shown once, with a QR code to scan with a phone, in
//! the answer to the form that made it.

use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::{Extensions, HeaderMap};
use axum::response::Response;
use organiser_core::calendar_subscriptions::{
    CalendarSubscriptionInput, CalendarSubscriptions, Include,
};
use organiser_core::{Details, Field};

use super::{Done, Frame, Posted, Refused, answer, done, id, origin, qr_svg, refused, when_or};
use crate::AppState;
use crate::web::{Chrome, Refusal, Signed, blocking, signed, signed_form};

const HERE: &str = "/settings/calendar";

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

fn label(include: Include) -> &'static str {
    match include {
        Include::Tasks => "tasks",
        Include::Projects => "projects",
        Include::KeyDates => "key dates",
    }
}

#[derive(Template)]
#[template(path = "settings_calendar.html")]
struct CalendarPage<'a> {
    chrome: Chrome<'a>,
    frame: Frame,
    subscriptions: Vec<Row>,
    shown: Option<Shown>,
    includes: &'static [(Include, &'static str)],
}

async fn page(
    state: &AppState,
    session: &Signed,
    notice: Option<&'static str>,
    refused: Refused,
    shown: Option<Shown>,
) -> Result<Response, Refusal> {
    let subscriptions = blocking(state, |org| {
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
        chrome: session.chrome("settings"),
        frame: Frame::new("calendar", notice, refused),
        subscriptions,
        shown,
        includes: INCLUDES,
    };
    Ok(answer(&page, &page.frame.refused))
}

/// The address of `url` (a path in process) as the owner reaches it, with
/// its QR code.
fn shown(name: String, url: Option<String>, base: &str) -> Option<Shown> {
    let url = url?;
    let url = if url.starts_with('/') {
        format!("{base}{url}")
    } else {
        url
    };
    let qr = qr_svg(&url, "QR code of the subscription's address")?;
    Some(Shown { name, url, qr })
}

/// `GET /settings/calendar`.
pub(crate) async fn show(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<Done>,
) -> Result<Response, Refusal> {
    let session = signed(&state, &headers).await?;
    page(&state, &session, q.notice(), Refused::none(), None).await
}

/// `POST /settings/calendar`: a new subscription (name, what it holds,
/// an alarm), answered with its address.
pub(crate) async fn create(
    State(state): State<AppState>,
    headers: HeaderMap,
    extensions: Extensions,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let mut details = Details::new();
    let alarm = form.number("alarm_minutes", &mut details);
    if !details.is_empty() {
        let refusal = Refused::read("new", &form, details);
        return page(&state, &session, None, refusal, None).await;
    }
    let include = form
        .all("include")
        .into_iter()
        .filter_map(Include::parse)
        .collect();
    let input = CalendarSubscriptionInput {
        name: form.filled("name").map_or(Field::Absent, Field::Value),
        include: Field::Value(include),
        alarm_minutes: alarm.map_or(Field::Absent, Field::Value),
        ..CalendarSubscriptionInput::default()
    };
    let csrf = session.csrf_token.clone();
    let result = blocking(&state, move |org| {
        CalendarSubscriptions::new(&org.as_session(csrf)).create(input)
    })
    .await;
    match refused(result)? {
        Ok(made) => {
            let (_, base) = origin(&state, &extensions, &headers);
            let shown = shown(made.name, made.url, &base);
            page(&state, &session, None, Refused::none(), shown).await
        }
        Err(e) => page(&state, &session, None, Refused::of("new", &form, e), None).await,
    }
}

/// `POST /settings/calendar/{id}/rotate`: a new address (the old one
/// stops at once), answered with it.
pub(crate) async fn rotate(
    State(state): State<AppState>,
    headers: HeaderMap,
    extensions: Extensions,
    Path(sub): Path<String>,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let sub = id(&sub)?;
    let csrf = session.csrf_token.clone();
    let rotated = blocking(&state, move |org| {
        CalendarSubscriptions::new(&org.as_session(csrf)).rotate(sub)
    })
    .await?;
    let (_, base) = origin(&state, &extensions, &headers);
    let shown = shown(rotated.name, rotated.url, &base);
    page(&state, &session, None, Refused::none(), shown).await
}

/// `POST /settings/calendar/{id}/delete`.
pub(crate) async fn delete(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(sub): Path<String>,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let sub = id(&sub)?;
    let csrf = session.csrf_token.clone();
    blocking(&state, move |org| {
        CalendarSubscriptions::new(&org.as_session(csrf)).delete(sub)
    })
    .await?;
    Ok(done(HERE, "deleted"))
}
