//! What each reminder says: a title, plain text and the same as HTML, a
//! link to its subject (under `ORGANISER_PUBLIC_URL`), and ntfy's
//! priority and tags. The agenda is read from the tasks' today view and
//! the calendar's own readers, so it says what the app shows.

use std::fmt::Write as _;

use jiff::civil::Date;

use super::log::Message;
use crate::engine::Cx;
use crate::error::Result;
use crate::html::tokens::escape;
use crate::resources::calendar;
use crate::resources::people::UpcomingKeyDate;
use crate::resources::people::key_dates::summary;
use crate::resources::projects::Project;
use crate::resources::tasks::{self, Task, TaskQuery, View};
use crate::store::Tables;

/// How many of the day's queue the agenda lists.
const QUEUE_MOST: usize = 20;

fn link<T: Tables>(cx: &Cx<'_, T>, path: &str) -> Option<String> {
    cx.org
        .options
        .public_url
        .as_ref()
        .map(|base| format!("{base}{path}"))
}

/// `Saturday 12 December`.
fn day_words(date: Date) -> String {
    date.strftime("%A %-d %B").to_string()
}

/// `today`, `tomorrow`, `in 7 days`.
fn days_words(days: i64) -> String {
    match days {
        0 => "today".to_owned(),
        1 => "tomorrow".to_owned(),
        n => format!("in {n} days"),
    }
}

/// Plain text as paragraphs of HTML.
fn html_of(body: &str) -> String {
    let mut html = String::new();
    for line in body.lines() {
        if line.is_empty() {
            continue;
        }
        let _ = write!(html, "<p>{}</p>", escape(line));
    }
    html
}

/// A task's `remind_at` has come.
pub(crate) fn task<T: Tables>(cx: &Cx<'_, T>, task: &Task) -> Message {
    let mut body = String::from("Reminder");
    if let Some(d) = task.deadline_on {
        let days = crate::time::days_between(cx.today(), d);
        let _ = write!(body, " · due {} ({})", days_words(days), day_words(d));
    }
    if !task.description_text.trim().is_empty() {
        body.push_str("\n\n");
        body.push_str(task.description_text.trim());
    }
    Message {
        title: task.title.clone(),
        html: html_of(&body),
        body,
        url: link(cx, &format!("/tasks/{}", task.id)),
        priority: 4,
        tags: vec!["bell".to_owned()],
        subject_type: Some("task".to_owned()),
    }
}

/// A key date `days` ahead.
pub(crate) fn key_date<T: Tables>(cx: &Cx<'_, T>, k: &UpcomingKeyDate, days: i64) -> Message {
    let what = summary(&k.person.name, &k.key_date);
    let title = format!("{what} {}", days_words(days));
    let mut body = day_words(k.date);
    if let Some(years) = k.years {
        let _ = write!(body, " · {years} years");
    }
    Message {
        title,
        html: html_of(&body),
        body,
        url: link(cx, &format!("/people/{}", k.person.id)),
        priority: if days == 0 { 4 } else { 3 },
        tags: vec![
            if k.key_date.kind == "birthday" {
                "birthday"
            } else {
                "date"
            }
            .to_owned(),
        ],
        subject_type: Some("key_date".to_owned()),
    }
}

/// A task's deadline `days` ahead.
pub(crate) fn task_deadline<T: Tables>(cx: &Cx<'_, T>, t: &Task, days: i64) -> Message {
    let title = format!("Due {}: {}", days_words(days), t.title);
    let body = format!(
        "Task · deadline {}",
        day_words(t.deadline_on.unwrap_or(cx.today()))
    );
    Message {
        title,
        html: html_of(&body),
        body,
        url: link(cx, &format!("/tasks/{}", t.id)),
        priority: if days == 0 { 4 } else { 3 },
        tags: vec!["hourglass".to_owned()],
        subject_type: Some("task".to_owned()),
    }
}

/// A project's deadline `days` ahead.
pub(crate) fn project_deadline<T: Tables>(cx: &Cx<'_, T>, p: &Project, days: i64) -> Message {
    let title = format!("Due {}: {}", days_words(days), p.name);
    let body = format!(
        "Project · deadline {}",
        day_words(p.deadline.unwrap_or(cx.today()))
    );
    Message {
        title,
        html: html_of(&body),
        body,
        url: link(cx, &format!("/projects/{}", p.id)),
        priority: if days == 0 { 4 } else { 3 },
        tags: vec!["hourglass".to_owned()],
        subject_type: Some("project".to_owned()),
    }
}

/// A test message: no subject and no link.
pub(crate) fn test(channel: &str) -> Message {
    let body =
        format!("A test from Organiser: reminders sent to \u{201c}{channel}\u{201d} arrive here.");
    Message {
        title: "Organiser test".to_owned(),
        html: html_of(&body),
        body,
        url: None,
        priority: 3,
        tags: vec!["white_check_mark".to_owned()],
        subject_type: None,
    }
}

/// One section of the agenda: a heading and its lines.
struct Section {
    heading: &'static str,
    lines: Vec<String>,
}

/// The agenda of `day`: today's queue, meetings, key dates and deadlines.
pub(crate) fn agenda<T: Tables>(cx: &Cx<'_, T>, day: Date) -> Result<Message> {
    let zone = cx.zone().time_zone().clone();
    let mut sections = Vec::new();

    let query = TaskQuery {
        view: Some(View::Today),
        params: crate::list::ListParams {
            limit: QUEUE_MOST,
            ..crate::list::ListParams::default()
        },
        ..TaskQuery::default()
    };
    let queue = tasks::list(cx, &query)?;
    let mut lines: Vec<String> = queue.items.iter().map(|t| t.title.clone()).collect();
    if queue.next_cursor.is_some() {
        lines.push("and more".to_owned());
    }
    sections.push(Section {
        heading: "Today",
        lines,
    });

    let range = calendar::gather(cx, calendar::CalendarQuery::new(day, day)?)?.into_range();
    let meetings = range
        .events
        .iter()
        .map(|e| match (e.all_day, e.starts_at) {
            (false, Some(at)) => {
                let time = at.to_zoned(zone.clone()).strftime("%H:%M").to_string();
                format!("{time} {}", e.title)
            }
            _ => format!("All day: {}", e.title),
        })
        .collect();
    sections.push(Section {
        heading: "Meetings",
        lines: meetings,
    });
    sections.push(Section {
        heading: "Key dates",
        lines: range
            .key_dates
            .iter()
            .map(|k| {
                let what = summary(&k.person.name, &k.key_date);
                match k.years {
                    Some(y) => format!("{what} ({y} years)"),
                    None => what,
                }
            })
            .collect(),
    });
    let mut due: Vec<String> = range
        .tasks
        .iter()
        .filter(|t| !t.status.is_closed())
        .map(|t| t.title.clone())
        .collect();
    due.extend(
        range
            .project_dates
            .iter()
            .filter(|p| p.kind == "deadline")
            .map(|p| format!("Project: {}", p.project.name)),
    );
    sections.push(Section {
        heading: "Deadlines",
        lines: due,
    });

    let title = format!("Your day: {}", day_words(day));
    let mut body = String::new();
    let mut html = String::new();
    for s in sections.iter().filter(|s| !s.lines.is_empty()) {
        let _ = writeln!(body, "{}", s.heading);
        let _ = write!(html, "<h3>{}</h3><ul>", escape(s.heading));
        for line in &s.lines {
            let _ = writeln!(body, "- {line}");
            let _ = write!(html, "<li>{}</li>", escape(line));
        }
        body.push('\n');
        html.push_str("</ul>");
    }
    if body.is_empty() {
        body = "Nothing planned today.".to_owned();
        html = "<p>Nothing planned today.</p>".to_owned();
    }
    Ok(Message {
        title,
        body: body.trim_end().to_owned(),
        html,
        url: link(cx, "/"),
        priority: 3,
        tags: vec!["spiral_calendar".to_owned()],
        subject_type: None,
    })
}
