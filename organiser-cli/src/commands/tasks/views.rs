//! `organiser tasks [today]`, `overview`, `planned`, `someday`, `due`,
//! `logbook`, `inbox` and `list NAME`: a view as a table, with the page's
//! counts in a header line.

use std::collections::HashMap;

use clap::Args;
use organiser_core::{
    Id, ListParams, Page, task_lists::TaskList, tasks::Home, tasks::Task, tasks::TaskCounts,
    tasks::TaskCountsQuery, tasks::TaskQuery, tasks::TaskStatus, tasks::View,
};

use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;
use crate::refs;

/// `tasks list NAME`.
#[derive(Debug, Args)]
pub(super) struct OneList {
    /// The list's name (or ID).
    pub(super) name: String,
}

/// Which view.
pub(super) enum Which {
    /// The spec's `today_queue`: overdue, due today, or started.
    Today,
    /// The spec's `today`: started.
    Started,
    Overview,
    Planned,
    Someday,
    Due,
    Logbook,
    Inbox,
    /// One list, by name (or ID).
    List(String),
}

/// Shows a view.
pub(super) struct Show {
    pub(super) which: Which,
    /// Most tasks to show (`usize::MAX` for every one).
    pub(super) limit: usize,
}

/// A view's title and its requests.
struct Listing {
    title: String,
    tasks: TaskQuery,
    counts: TaskCountsQuery,
    logbook: bool,
}

impl Which {
    fn listing(&self, s: &Session<'_>) -> Result<Listing, CliError> {
        let view = |view: View, title: &str, counted: bool| Listing {
            title: title.to_owned(),
            tasks: TaskQuery {
                view: Some(view),
                ..TaskQuery::default()
            },
            counts: TaskCountsQuery {
                view: counted.then_some(view),
                home: None,
            },
            logbook: view == View::Logbook,
        };
        let open_in = |title: String, home: Home| Listing {
            title,
            tasks: TaskQuery {
                statuses: Some(vec![TaskStatus::Open]),
                home: Some(home),
                ..TaskQuery::default()
            },
            counts: TaskCountsQuery {
                view: None,
                home: Some(home),
            },
            logbook: false,
        };
        Ok(match self {
            // No counter describes the queue: the header says its size
            // (the page's count) and the overdue tasks of every home, all
            // of which it holds.
            Which::Today => view(View::TodayQueue, "Today", false),
            Which::Started => view(View::Today, "Started", true),
            Which::Overview => view(View::Overview, "Overview", true),
            Which::Planned => view(View::Planned, "Planned", true),
            Which::Someday => view(View::OneDay, "Someday", true),
            Which::Due => view(View::DueSoon, "Due soon", false),
            Which::Logbook => view(View::Logbook, "Logbook", true),
            Which::Inbox => open_in("Inbox".to_owned(), Home::Inbox),
            Which::List(name) => {
                let list = s.refs.record::<TaskList>(name)?;
                open_in(list.name, Home::List(list.id))
            }
        })
    }
}

impl Show {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let mut listing = self.which.listing(s)?;
        let page = pages(s, &mut listing.tasks, self.limit)?;
        let tasks = &page.items;
        s.refs.listed(tasks);
        if s.global.json {
            return output::json(&page);
        }
        let counts = s.client.reply(|c| c.tasks().counts(&listing.counts))?.data;
        output::line(header(
            &listing.title,
            &counts,
            listing.logbook,
            page.total_count,
        ))?;
        if tasks.is_empty() {
            return output::line("Nothing here.");
        }
        let names: HashMap<Id, String> = refs::every::<TaskList>(s.client)?
            .into_iter()
            .map(|l| (l.id, l.name))
            .collect();
        // The people and projects the page's tasks are homed in, each
        // asked for once.
        let mut people: HashMap<Id, String> = HashMap::new();
        let mut projects: HashMap<Id, String> = HashMap::new();
        for task in tasks {
            match task.home() {
                Home::Person(person) if !people.contains_key(&person) => {
                    if let Ok(found) = s.client.reply(|c| c.people().get(person)) {
                        people.insert(person, found.data.name);
                    }
                }
                Home::Project(project) if !projects.contains_key(&project) => {
                    if let Ok(found) = s.client.reply(|c| c.projects().get(project)) {
                        projects.insert(project, found.data.name);
                    }
                }
                _ => {}
            }
        }
        let today = s.client.reply(|c| c.account().me())?.data.today;
        let last = if listing.logbook {
            ["STATUS", "CLOSED"]
        } else {
            ["START", "DEADLINE"]
        };
        let mut table = output::table(&["#", "ID", "TITLE", "HOME", last[0], last[1]]);
        for (row, task) in tasks.iter().enumerate() {
            let home = match task.home() {
                Home::List(list) => names.get(&list).cloned().unwrap_or_else(|| "(list)".into()),
                Home::Person(person) => people
                    .get(&person)
                    .cloned()
                    .unwrap_or_else(|| "(person)".into()),
                Home::Project(project) => projects
                    .get(&project)
                    .cloned()
                    .unwrap_or_else(|| "(project)".into()),
                Home::Inbox => "Inbox".into(),
            };
            let mut cells = vec![
                output::cell(row + 1),
                output::cell(output::short_id(task.id)),
                output::cell(&task.title),
                output::cell(home),
            ];
            if listing.logbook {
                cells.push(output::cell(status(task)));
                cells.push(output::cell(closed(task)));
            } else {
                cells.push(output::cell(date(task.start_on)));
                let deadline = date(task.deadline_on);
                cells.push(if task.deadline_on.is_some_and(|d| d < today) {
                    output::red(deadline)
                } else {
                    output::cell(deadline)
                });
            }
            table.add_row(cells);
        }
        output::print_table(&table)?;
        let total = page.total_count.unwrap_or(0);
        if total > tasks.len() as u64 {
            output::line(format!(
                "… and {} more (--limit)",
                total - tasks.len() as u64
            ))?;
        }
        Ok(())
    }
}

/// The first `limit` tasks of `query`, read page by page through the
/// API's cursors (at most 100 a page), as one page: the items, the cursor
/// after the last one, the whole set's size.
fn pages(s: &Session<'_>, query: &mut TaskQuery, limit: usize) -> Result<Page<Task>, CliError> {
    const MOST_A_PAGE: usize = 100;
    query.params = ListParams {
        limit: limit.min(MOST_A_PAGE),
        count: true,
        ..ListParams::default()
    };
    let mut all = s.client.reply(|c| c.tasks().list(query))?.data;
    while all.items.len() < limit
        && let Some(cursor) = all.next_cursor.take()
    {
        query.params.cursor = Some(cursor);
        query.params.limit = (limit - all.items.len()).min(MOST_A_PAGE);
        query.params.count = false;
        let next = s.client.reply(|c| c.tasks().list(query))?.data;
        all.items.extend(next.items);
        all.next_cursor = next.next_cursor;
    }
    // The limit asked for (every task's count with --all).
    all.limit = if limit == usize::MAX {
        all.items.len()
    } else {
        limit
    };
    Ok(all)
}

/// "Started · 3 open · 1 overdue · 2 completed today"; for a view no
/// counter describes, its size (`total`) and the overdue tasks.
fn header(title: &str, counts: &TaskCounts, logbook: bool, total: Option<u64>) -> String {
    let mut parts = vec![title.to_owned()];
    match &counts.page {
        Some(page) => {
            if logbook {
                parts.push(format!("{} completed", page.completed));
                parts.push(format!("{} won't do", page.wont_do));
                parts.push(format!("{} expired", page.expired));
            } else {
                parts.push(format!("{} open", page.open));
                if page.overdue > 0 {
                    parts.push(format!("{} overdue", page.overdue));
                }
            }
            parts.push(format!("{} completed today", page.completed_today));
        }
        None => {
            if let Some(total) = total {
                parts.push(format!("{total} open"));
            }
            parts.push(format!("{} overdue", counts.overdue));
        }
    }
    parts.join(" · ")
}

fn date(day: Option<jiff::civil::Date>) -> String {
    day.map(output::date).unwrap_or_default()
}

/// The logbook's status column.
fn status(task: &Task) -> &'static str {
    match task.status {
        TaskStatus::WontDo => "won't do",
        other => other.as_str(),
    }
}

/// The day it closed (in UTC, as the API writes it), or a dash.
fn closed(task: &Task) -> String {
    match task.closed_at() {
        Some(at) => output::date(at.to_zoned(jiff::tz::TimeZone::UTC).date()),
        None => "-".to_owned(),
    }
}
