//! A page of tasks (EXTENSIONS.md §6: today with its counts, the Inbox and
//! every view, a list's page): what it reads of the core (the tasks, the
//! counts, a task just completed or deleted, to undo) and what it shows
//! (`tasks.html`, which a list's page extends).

use jiff::civil::Date;
use organiser_core::tasks::{Home, Task, TaskCounts, TaskCountsQuery, TaskQuery, TaskStatus, View};
use organiser_core::{Error, Id, ListParams, Organiser};
use serde::Deserialize;

use crate::web::forms::with_param;

/// A view in the navigation.
pub(crate) struct ViewLink {
    pub(crate) name: &'static str,
    pub(crate) label: &'static str,
    pub(crate) count: Option<u64>,
    pub(crate) current: bool,
}

/// The quick-add box: what was typed and why it was refused (a 422 keeps
/// it), and the list it adds to (none: the Inbox).
#[derive(Debug, Default)]
pub(crate) struct Quick {
    pub(crate) value: String,
    pub(crate) error: Option<String>,
    pub(crate) task_list_id: Option<Id>,
}

/// What a page of tasks shows (`tasks.html`; a list's page adds its own
/// part in `list.html`).
pub(crate) struct Body {
    /// The heading.
    pub(crate) heading: String,
    /// The path of the page (forms come back to it).
    pub(crate) here: String,
    /// The owner's today.
    pub(crate) today: Date,
    /// The views' navigation (empty: none).
    pub(crate) views: Vec<ViewLink>,
    /// The counts line, each a phrase (`3 today`).
    pub(crate) counts: Vec<String>,
    pub(crate) quick: Quick,
    pub(crate) tasks: Vec<Task>,
    /// What the page says when it has no task.
    pub(crate) empty: String,
    /// The next page's address, when there is one.
    pub(crate) more: Option<String>,
    /// A task just completed, to undo.
    pub(crate) done: Option<Task>,
    /// A task just deleted, to restore.
    pub(crate) deleted: Option<Id>,
}

impl Body {
    /// A day as the pages say it: `Thu 12 Mar`, with the year when it is
    /// not this year's.
    pub(crate) fn day(&self, date: &Date) -> String {
        say_day(*date, self.today)
    }

    /// When a task starts, when that is after today.
    pub(crate) fn starts(&self, task: &Task) -> Option<String> {
        task.start_on
            .filter(|d| *d > self.today)
            .map(|d| self.day(&d))
    }

    /// How a task repeats, in words.
    pub(crate) fn repeats(&self, task: &Task) -> Option<String> {
        task.repeat.as_ref().map(|r| r.to_words())
    }
}

/// `date` as the pages say it, seen from `today`: `Thu 12 Mar`, with the
/// year when it is not this year's.
pub(crate) fn say_day(date: Date, today: Date) -> String {
    if date.year() == today.year() {
        date.strftime("%a %-d %b").to_string()
    } else {
        date.strftime("%a %-d %b %Y").to_string()
    }
}

/// What a page of tasks is asked for.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct PageQuery {
    pub(crate) view: Option<String>,
    pub(crate) cursor: Option<String>,
    pub(crate) done: Option<String>,
    pub(crate) deleted: Option<String>,
    /// `done` on a list's page: its logbook.
    pub(crate) show: Option<String>,
}

/// Which tasks a page lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// A view by its API name.
    View(View),
    /// The open tasks of the Inbox.
    Inbox,
    /// The open tasks of a list, or with `closed` its logbook.
    List { id: Id, closed: bool },
}

/// What a page of tasks reads.
pub(crate) struct Read {
    pub(crate) tasks: Vec<Task>,
    /// The cursor of the next page.
    pub(crate) next: Option<String>,
    pub(crate) counts: TaskCounts,
    /// The task of `done={id}`, while it is completed.
    pub(crate) done: Option<Task>,
    /// The task of `deleted={id}`.
    pub(crate) deleted: Option<Id>,
    pub(crate) today: Date,
}

/// The tasks, counts and banners a page of tasks shows; `q` is the
/// page's query (`cursor`, `done`, `deleted`).
pub(crate) fn read_body(org: &Organiser, source: Source, q: &PageQuery) -> Result<Read, Error> {
    let params = ListParams {
        cursor: q.cursor.clone(),
        ..ListParams::default()
    };
    let (query, counts) = match source {
        Source::View(view) => (
            TaskQuery {
                view: Some(view),
                params,
                ..TaskQuery::default()
            },
            TaskCountsQuery {
                view: matches!(
                    view,
                    View::Overview | View::Today | View::Planned | View::OneDay | View::Logbook
                )
                .then_some(view),
                home: None,
            },
        ),
        Source::Inbox => (
            TaskQuery {
                statuses: Some(vec![TaskStatus::Open]),
                home: Some(Home::Inbox),
                params,
                ..TaskQuery::default()
            },
            TaskCountsQuery {
                view: None,
                home: Some(Home::Inbox),
            },
        ),
        Source::List { id, closed } => (
            TaskQuery {
                view: closed.then_some(View::Logbook),
                statuses: (!closed).then(|| vec![TaskStatus::Open]),
                home: Some(Home::List(id)),
                params,
                ..TaskQuery::default()
            },
            TaskCountsQuery {
                view: None,
                home: Some(Home::List(id)),
            },
        ),
    };
    let page = org.tasks().list(&query)?;
    let counts = org.tasks().counts(&counts)?;
    let done = match q.done.as_deref().and_then(Id::parse) {
        Some(id) => org
            .tasks()
            .get(id)
            .ok()
            .filter(|t| t.status == TaskStatus::Completed),
        None => None,
    };
    Ok(Read {
        tasks: page.items,
        next: page.next_cursor,
        counts,
        done,
        deleted: q.deleted.as_deref().and_then(Id::parse),
        today: org.today(),
    })
}

impl Read {
    /// The body of the page at `here` with what was read (its tasks, the
    /// next page's address, the undo banners), headed `heading`, saying
    /// `empty` when it has no task, with the quick-add box `quick`; no
    /// views and no counts line until the page sets them.
    pub(crate) fn body(self, here: String, heading: String, empty: String, quick: Quick) -> Body {
        Body {
            heading,
            more: self.next.map(|c| with_param(&here, "cursor", &c)),
            here,
            today: self.today,
            views: Vec::new(),
            counts: Vec::new(),
            quick,
            tasks: self.tasks,
            empty,
            done: self.done,
            deleted: self.deleted,
        }
    }
}

/// The page's counts as phrases: the open and overdue tasks unless
/// `logbook`, the completed ones, and with `closed_too` those marked
/// won't do and those expired.
pub(crate) fn page_counts(counts: &TaskCounts, logbook: bool, closed_too: bool) -> Vec<String> {
    let Some(page) = &counts.page else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if !logbook {
        out.push(format!("{} open", page.open));
        if page.overdue > 0 {
            out.push(format!("{} overdue", page.overdue));
        }
    }
    out.push(format!("{} completed", page.completed));
    if closed_too && page.wont_do > 0 {
        out.push(format!("{} won't do", page.wont_do));
    }
    if closed_too && page.expired > 0 {
        out.push(format!("{} expired", page.expired));
    }
    out
}
