//! A project's page (`project.html`): its fields, the status and
//! deadline history (the core's project events), the members with their
//! roles, the activity feed (the core's `GET /projects/{id}/activity`),
//! and its open tasks with quick add into the project; a form for each
//! change, drawn again beside what the core refused (422, the typed
//! values kept).

use askama::Template;
use axum::extract::{Path, Query};
use axum::response::Response;
use jiff::Timestamp;
use jiff::tz::TimeZone;
use organiser_core::projects::{
    ActivityEntry, ActivityQuery, EventKind, Project, ProjectEvent, ProjectEventQuery,
    ProjectStatus,
};
use organiser_core::tasks::{Home, Task, TaskQuery, TaskStatus};
use organiser_core::{Id, ListParams};
use serde::Deserialize;

use super::{day, status_label};
use crate::web::forms::{SignedIn, answer, every, record_id};
use crate::web::{Chrome, Refusal, blocking};

pub(super) use crate::web::forms::Draft;

/// A line of the activity: when, and what.
pub(super) struct Line {
    when: String,
    what: String,
    /// Where the line's record is, if it has a page.
    href: Option<String>,
}

/// A member: the member's ID, the person, their name and role.
pub(super) struct Member {
    id: Id,
    person_id: Id,
    name: String,
    role: Option<String>,
}

/// A project's page.
#[derive(Template)]
#[template(path = "project.html")]
pub(super) struct ProjectPage<'a> {
    chrome: Chrome<'a>,
    p: Project,
    members: Vec<Member>,
    /// The status changes, oldest first: when, from, to.
    statuses: Vec<(String, String, String)>,
    /// The deadline changes, oldest first: when, from, to.
    deadlines: Vec<(String, String, String)>,
    activity: Vec<Line>,
    tasks: Vec<Task>,
    draft: Draft,
    /// A change was saved (`?saved=1`).
    saved: bool,
    /// A task just completed, to reopen.
    done: Option<Id>,
}

impl ProjectPage<'_> {
    /// The status in words.
    fn status(&self) -> &'static str {
        status_label(self.p.status)
    }

    /// Every status: key, words, whether the edit form picks it.
    fn statuses_offered(&self) -> Vec<(&'static str, &'static str, bool)> {
        let picked = self
            .draft
            .value("project", "status", self.p.status.key())
            .to_owned();
        ProjectStatus::ALL
            .into_iter()
            .map(|s| (s.key(), status_label(s), s.key() == picked))
            .collect()
    }

    /// The start date, as the form's date field takes it.
    fn start_value(&self) -> String {
        let shown = self.p.start_date.map(|d| d.to_string()).unwrap_or_default();
        self.draft.value("project", "start_date", &shown).to_owned()
    }

    /// The deadline, as the form's date field takes it.
    fn deadline_value(&self) -> String {
        let shown = self.p.deadline.map(|d| d.to_string()).unwrap_or_default();
        self.draft.value("project", "deadline", &shown).to_owned()
    }

    /// The paragraphs of the description.
    fn description(&self) -> Vec<&str> {
        self.p
            .description_text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect()
    }

    /// Whether a link may be followed (http or https only).
    fn linkable(&self, url: &str) -> bool {
        let lower = url.to_ascii_lowercase();
        lower.starts_with("https://") || lower.starts_with("http://")
    }

    /// A day in words.
    fn day(&self, date: &jiff::civil::Date) -> String {
        day(*date)
    }

    /// A task's deadline, if it has one.
    fn due(&self, t: &Task) -> Option<String> {
        t.deadline_on.map(day)
    }
}

/// A status key in words.
fn status_words(key: Option<&str>) -> String {
    key.and_then(ProjectStatus::from_key)
        .map_or("none", status_label)
        .to_owned()
}

/// A date of an event in words.
fn date_words(text: Option<&str>) -> String {
    match text.and_then(|t| t.parse().ok()) {
        Some(d) => day(d),
        None => "none".to_owned(),
    }
}

/// A moment in the owner's zone.
fn at(t: Timestamp, zone: &TimeZone) -> String {
    t.to_zoned(zone.clone())
        .strftime("%a %-d %b %Y %H:%M")
        .to_string()
}

/// `GET /projects/{id}?saved=1&done=`.
#[derive(Debug, Default, Deserialize)]
pub(super) struct ShowQuery {
    saved: Option<String>,
    done: Option<String>,
}

/// Everything the page reads from the core.
struct Read {
    p: Project,
    members: Vec<Member>,
    events: Vec<ProjectEvent>,
    activity: Vec<ActivityEntry>,
    tasks: Vec<Task>,
    zone: TimeZone,
}

/// Draws project `id`'s page, with `draft` the refused form (422).
pub(super) async fn draw(
    owner: &SignedIn,
    id: Id,
    draft: Draft,
    saved: bool,
    done: Option<Id>,
) -> Result<Response, Refusal> {
    let read = blocking(&owner.state, move |org| {
        let p = org.projects().get(id)?;
        let mut members = Vec::new();
        for m in &p.members {
            let name = org.people().get(m.person_id)?.name;
            members.push(Member {
                id: m.id,
                person_id: m.person_id,
                name,
                role: m.role.clone(),
            });
        }
        let events = every(|params| {
            org.projects().events(&ProjectEventQuery {
                project_id: Some(id),
                params,
            })
        })?;
        let activity = org
            .project_activity()
            .list(
                id,
                &ActivityQuery {
                    cursor: None,
                    limit: 30,
                },
            )?
            .items;
        let tasks = org
            .tasks()
            .list(&TaskQuery {
                statuses: Some(vec![TaskStatus::Open]),
                home: Some(Home::Project(id)),
                params: ListParams {
                    limit: 100,
                    ..ListParams::default()
                },
                ..TaskQuery::default()
            })?
            .items;
        Ok(Read {
            p,
            members,
            events,
            activity,
            tasks,
            zone: org.zone().time_zone().clone(),
        })
    })
    .await?;
    let zone = read.zone;
    let change = |e: &ProjectEvent, words: fn(Option<&str>) -> String| {
        (
            at(e.created_at, &zone),
            words(e.from.as_deref()),
            words(e.to.as_deref()),
        )
    };
    let statuses = read
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Status)
        .map(|e| change(e, status_words))
        .collect();
    let deadlines = read
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Deadline)
        .map(|e| change(e, date_words))
        .collect();
    let name_of = |person: Option<Id>| {
        person
            .and_then(|pid| read.members.iter().find(|m| m.person_id == pid))
            .map_or_else(|| "someone".to_owned(), |m| m.name.clone())
    };
    let activity = read
        .activity
        .iter()
        .map(|entry| match entry {
            ActivityEntry::Event { at: t, event } => Line {
                when: at(*t, &zone),
                what: match event.kind {
                    EventKind::Status => format!(
                        "Status from {} to {}",
                        status_words(event.from.as_deref()),
                        status_words(event.to.as_deref())
                    ),
                    EventKind::Deadline => format!(
                        "Deadline from {} to {}",
                        date_words(event.from.as_deref()),
                        date_words(event.to.as_deref())
                    ),
                    EventKind::MemberAdded => format!("{} joined", name_of(event.person_id)),
                    EventKind::MemberRemoved => format!("{} left", name_of(event.person_id)),
                },
                href: event.person_id.map(|pid| format!("/people/{pid}")),
            },
            ActivityEntry::Task { at: t, task } => Line {
                when: at(*t, &zone),
                what: format!("Completed: {}", task.title),
                href: Some(format!("/tasks/{}", task.id)),
            },
            ActivityEntry::Document { at: t, document } => Line {
                when: at(*t, &zone),
                what: format!("Document: {}", document.name),
                href: None,
            },
            ActivityEntry::Note { at: t, note } => Line {
                when: at(*t, &zone),
                what: format!("Note: {}", note.name),
                href: None,
            },
            ActivityEntry::Created { at: t, .. } => Line {
                when: at(*t, &zone),
                what: "Project created".to_owned(),
                href: None,
            },
        })
        .collect();
    let refused = !draft.form.is_empty();
    let page = ProjectPage {
        chrome: owner.session.chrome("projects"),
        p: read.p,
        members: read.members,
        statuses,
        deadlines,
        activity,
        tasks: read.tasks,
        draft,
        saved,
        done,
    };
    Ok(answer(&page, refused))
}

/// `GET /projects/{id}`.
pub(super) async fn show(
    Path(id): Path<String>,
    Query(q): Query<ShowQuery>,
    owner: SignedIn,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let done = q.done.as_deref().and_then(Id::parse);
    draw(&owner, id, Draft::default(), q.saved.is_some(), done).await
}
