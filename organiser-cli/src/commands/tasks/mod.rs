//! `organiser tasks`: the smart views as tables (`today`, the spec's
//! `today_queue`, by default), and
//! adding, completing, editing, moving, deleting and restoring tasks, one
//! file per subcommand.

mod add;
mod default_view;
mod edit;
mod r#move;
mod rm;
mod show;
mod status;
mod views;

use clap::{Args, Subcommand};
use organiser_core::{
    Field, Id, ListParams, Page, projects::Project, task_lists::TaskList, tasks::Repeat,
    tasks::Task, tasks::TaskInput, tasks::TaskOrder, tasks::TaskQuery,
};

use super::dates::{self, Days, Echo};
use super::{Global, Session};
use crate::backend::Access;
use crate::door::Client;
use crate::door::Doors;
use crate::error::CliError;
use crate::refs::{Family, Refs};

pub(crate) use default_view::check as check_view;

#[derive(Debug, Args)]
pub(crate) struct TasksCommand {
    #[command(subcommand)]
    action: Option<TasksAction>,
    /// Most tasks to show (the pages of the API are read until there are
    /// this many).
    #[arg(long, global = true, default_value_t = 50)]
    limit: u32,
    /// Show every task of the view, however many.
    #[arg(long, global = true, conflicts_with = "limit")]
    all: bool,
}

#[derive(Debug, Subcommand)]
enum TasksAction {
    /// The default: open tasks overdue, due today, or started (start date
    /// today or earlier), from every home; soonest deadline first, tasks
    /// without one last.
    Today,
    /// Open tasks whose start date is today or earlier, from every home
    /// including the Inbox (a task due today with no start date is not
    /// here: see `today`).
    Started,
    /// Everything open in the Inbox, plus open tasks overdue or due within
    /// 14 days from every home.
    Overview,
    /// Open tasks starting after today, outside the Inbox; soonest start
    /// first.
    Planned,
    /// Open tasks with no start date, outside the Inbox.
    Someday,
    /// Open tasks overdue or due within 14 days, from every home; soonest
    /// deadline first.
    Due,
    /// Completed, won't-do and archived tasks, most recently closed first.
    Logbook,
    /// Open tasks in the Inbox, in their order.
    Inbox,
    /// Open tasks of one list, in the list's order.
    List(views::OneList),
    /// Add a task (to the Inbox unless --list, --project or --person is given).
    Add(add::Add),
    /// Mark a task completed.
    Done(status::SetStatus),
    /// Open a closed task again.
    Reopen(status::SetStatus),
    /// Mark a task won't do.
    Wontdo(status::SetStatus),
    /// Skip this time of a repeating task: it is marked won't do, and the
    /// next one is made.
    Skip(status::SetStatus),
    /// Change a task's title, description, dates, home or position.
    Edit(edit::Edit),
    /// Move a task to a list, a project or the Inbox.
    Move(r#move::Move),
    /// Delete a task (it can be restored for 20 seconds).
    Rm(rm::Rm),
    /// Restore a task deleted in the last 20 seconds.
    Restore(crate::commands::restore::Restore),
    /// One task whole, with its description and documents.
    Show(show::Show),
}

impl TasksCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        use TasksAction as A;
        // With no subcommand, the configuration file's `default_view`.
        let action = self.action.or_else(default_view::configured);
        let action = action.unwrap_or(A::Today);
        let access = if action.is_view() || matches!(action, A::Show(_)) {
            Access::Read
        } else {
            Access::Write
        };
        Session::open(global, access, |s| {
            let limit = if self.all {
                usize::MAX
            } else {
                self.limit as usize
            };
            let view = |which| views::Show { which, limit };
            match action {
                A::Today => view(views::Which::Today).run(s),
                A::Started => view(views::Which::Started).run(s),
                A::Overview => view(views::Which::Overview).run(s),
                A::Planned => view(views::Which::Planned).run(s),
                A::Someday => view(views::Which::Someday).run(s),
                A::Due => view(views::Which::Due).run(s),
                A::Logbook => view(views::Which::Logbook).run(s),
                A::Inbox => view(views::Which::Inbox).run(s),
                A::List(list) => view(views::Which::List(list.name)).run(s),
                A::Add(c) => c.run(s),
                A::Done(c) => c.run(s, status::Change::Done),
                A::Reopen(c) => c.run(s, status::Change::Reopen),
                A::Wontdo(c) => c.run(s, status::Change::WontDo),
                A::Skip(c) => c.run(s, status::Change::Skip),
                A::Edit(c) => c.run(s),
                A::Move(c) => c.run(s),
                A::Rm(c) => c.run(s),
                A::Restore(c) => c.run::<Task>(s),
                A::Show(c) => c.run(s),
            }
        })
    }
}

/// Tasks are named by row number, ID or part of an ID (titles repeat).
impl Family for Task {
    const ONE: &'static str = "task";
    const MANY: &'static str = "tasks";
    const NAMED: bool = false;

    fn id(&self) -> Id {
        self.id
    }

    fn name(&self) -> &str {
        &self.title
    }

    fn page(client: &Client, cursor: Option<String>) -> Result<Page<Task>, CliError> {
        let query = TaskQuery {
            order: Some(TaskOrder::Id),
            params: ListParams {
                cursor,
                limit: 100,
                ..ListParams::default()
            },
            ..TaskQuery::default()
        };
        Ok(client.reply(|c| c.tasks().list(&query))?.data)
    }

    fn get(client: &Client, id: Id) -> Result<Task, CliError> {
        Ok(client
            .reply(|c| c.tasks().get(id))
            .map_err(no_task(id))?
            .data)
    }
}

/// Dates as people type them: YYYY-MM-DD, today, tomorrow, friday, +3d,
/// next week; `none` clears.
#[derive(Debug, Args)]
struct DateArgs {
    /// When to start.
    #[arg(long, allow_hyphen_values = true)]
    start: Option<String>,
    /// When it is due.
    #[arg(long, allow_hyphen_values = true)]
    deadline: Option<String>,
    /// When it stops mattering (an open task is archived after that day).
    #[arg(long, allow_hyphen_values = true)]
    expires: Option<String>,
    /// When to be reminded, in your zone: date words with a time
    /// ("tomorrow 9:00", "friday 2:30pm", "dec 15 18:00"; 9:00 when no
    /// time is given) or an instant (2026-04-01T09:00:00Z); sent to the
    /// channels of `reminders set --channels`. `none` clears it.
    #[arg(long, value_name = "WHEN", allow_hyphen_values = true)]
    remind: Option<String>,
}

impl DateArgs {
    /// Whether any date was given.
    fn given(&self) -> bool {
        self.start.is_some()
            || self.deadline.is_some()
            || self.expires.is_some()
            || self.remind.is_some()
    }

    /// Puts the typed dates into `input`, asking the server for today
    /// only when a word needs it.
    fn apply(&self, client: &Client, input: &mut TaskInput) -> Result<(), CliError> {
        let mut days = Days::new(client);
        input.start_on = days.given("--start", self.start.as_deref())?;
        input.deadline_on = days.given("--deadline", self.deadline.as_deref())?;
        input.expires_on = days.given("--expires", self.expires.as_deref())?;
        input.remind_at = days.moment("--remind", self.remind.as_deref())?;
        Ok(())
    }

    /// The reminder the person typed, as it was worked out, in the
    /// owner's zone: " · reminds Tue 24 Nov 09:00" (the year when it is
    /// not the task's year of change), " · no reminder" for one cleared;
    /// nothing when `--remind` was not given.
    fn reminds(&self, client: &Client, task: &Task) -> Result<String, CliError> {
        if self.remind.is_none() {
            return Ok(String::new());
        }
        let Some(at) = task.remind_at else {
            return Ok(" · no reminder".to_owned());
        };
        let zone = crate::output::owner_zone(client)?;
        let local = at.to_zoned(zone.clone());
        let format = if local.year() == task.updated_at.to_zoned(zone).year() {
            "%a %-d %b %H:%M"
        } else {
            "%a %-d %b %Y %H:%M"
        };
        Ok(format!(" · reminds {}", local.strftime(format)))
    }

    /// The dates the person typed, as they were worked out: " · starts Tue
    /// 24 Nov · due Fri 27 Nov" (the year when it is not the task's
    /// year of change), "no deadline" for one cleared.
    fn worked_out(&self, task: &Task) -> String {
        let echo = |typed: &Option<String>, day, word, none| Echo {
            typed: typed.is_some(),
            day,
            word,
            none,
        };
        dates::worked_out(
            task.updated_at,
            &[
                echo(&self.start, task.start_on, "starts", "no start date"),
                echo(&self.deadline, task.deadline_on, "due", "no deadline"),
                echo(&self.expires, task.expires_on, "expires", "no expiry"),
            ],
        )
    }
}

/// How a task repeats, in words the core reads (`Repeat::from_words`,
/// `Repeat::after_done`).
#[derive(Debug, Args)]
struct RepeatArgs {
    /// Repeat on a fixed schedule from its deadline (or start): day, week,
    /// month, year, "N days|weeks|months|years", weekday, weekday names
    /// (mon,thu), 1st, 15th, "last day", "first mon", "last fri", or a raw
    /// RRULE:...; `none` stops it repeating.
    #[arg(long, value_name = "PHRASE")]
    every: Option<String>,
    /// Repeat counted from each completion: 3d, 2w, 1m, 1y, "10 days".
    #[arg(long, value_name = "SPAN", conflicts_with = "every")]
    after_done: Option<String>,
}

impl RepeatArgs {
    /// Whether a repeat was given.
    fn given(&self) -> bool {
        self.every.is_some() || self.after_done.is_some()
    }

    /// Puts the repeat into `input`.
    fn apply(&self, input: &mut TaskInput) -> Result<(), CliError> {
        let read = |flag: &str, phrase: &str, words: fn(&str) -> Result<Repeat, String>| {
            if phrase.trim().eq_ignore_ascii_case("none") {
                return Ok(Field::Null);
            }
            words(phrase)
                .map(Field::Value)
                .map_err(|e| CliError::usage(format!("{flag} {phrase:?}: {e}")))
        };
        if let Some(phrase) = &self.every {
            input.repeat = read("--every", phrase, Repeat::from_words)?;
        } else if let Some(span) = &self.after_done {
            input.repeat = read("--after-done", span, Repeat::after_done)?;
        }
        Ok(())
    }
}

/// `--description TEXT` of `add` and `edit`: Markdown typed by the owner
/// (`-` reads it from standard input), sent as note-body HTML made as
/// `notes add` makes a body; `none` or blank clears it.
fn description(s: &Session<'_>, typed: Option<&str>) -> Result<Field<String>, CliError> {
    let Some(typed) = typed else {
        return Ok(Field::Absent);
    };
    let text = if typed == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).map_err(|e| {
            CliError::msg(format!("--description: cannot read standard input: {e}"))
        })?;
        text
    } else {
        typed.to_owned()
    };
    if text.trim().is_empty() || text.trim().eq_ignore_ascii_case("none") {
        return Ok(Field::Null);
    }
    Ok(Field::Value(super::notes::markdown_html(s, &text)?))
}

/// The API's task fields as the task commands set them, for messages.
const FLAGS: &[(&str, &str)] = &[
    ("title", "the title"),
    ("description_html", "--description"),
    ("description", "--description"),
    ("start_on", "--start"),
    ("deadline_on", "--deadline"),
    ("expires_on", "--expires"),
    ("task_list_id", "--list"),
    ("person_id", "--person"),
    ("project_id", "--project"),
    ("position", "--position"),
    ("document_ids", "--attach"),
    ("document_uploads", "--attach"),
    ("repeat", "--every"),
    ("remind_at", "--remind"),
];

#[derive(Debug, Args)]
struct HomeArgs {
    /// A list to move it to.
    #[arg(long, conflicts_with_all = ["inbox", "project"])]
    list: Option<String>,
    /// A project to move it to (its row number, name, short ID or ID).
    #[arg(long, conflicts_with = "inbox")]
    project: Option<String>,
    /// Move it to the Inbox.
    #[arg(long)]
    inbox: bool,
}

impl HomeArgs {
    /// Whether a home was named.
    fn given(&self) -> bool {
        self.list.is_some() || self.project.is_some() || self.inbox
    }

    /// Puts the home into `input`; whether one was given.
    fn apply(&self, refs: &Refs<'_>, input: &mut TaskInput) -> Result<bool, CliError> {
        if self.inbox {
            input.task_list_id = Field::Null;
            input.person_id = Field::Null;
            input.project_id = Field::Null;
            return Ok(true);
        }
        if let Some(name) = &self.list {
            input.task_list_id = Field::Value(refs.id::<TaskList>(name)?);
            return Ok(true);
        }
        if let Some(project) = &self.project {
            input.project_id = Field::Value(refs.id::<Project>(project)?);
            return Ok(true);
        }
        Ok(false)
    }
}

/// How a task repeats, for the line that says what was done: " · repeats
/// every month on the 1st"; " · does not repeat" when `said_when_not` (a
/// repeat given to `edit` was `none`), else nothing for a task that does
/// not repeat.
fn repeats(task: &Task, said_when_not: bool) -> String {
    match &task.repeat {
        Some(repeat) => format!(" · repeats {}", repeat.to_words()),
        None if said_when_not => " · does not repeat".to_owned(),
        None => String::new(),
    }
}

/// What closing a repeating task made, for the line that says so: " ·
/// next due 2026-12-01" (or "next starts"), or " · the last of its
/// series" when the rule has ended; nothing for a task that does not
/// repeat.
fn next_said(client: &Client, task: &Task) -> String {
    if task.repeat.is_none() {
        return String::new();
    }
    let Some(next) = task.next_task_id else {
        return " · the last of its series".to_owned();
    };
    match client.reply(|c| c.tasks().get(next)) {
        Ok(next) => match (next.data.deadline_on, next.data.start_on) {
            (Some(d), _) => format!(" · next due {}", crate::output::date(d)),
            (None, Some(d)) => format!(" · next starts {}", crate::output::date(d)),
            (None, None) => String::new(),
        },
        Err(_) => String::new(),
    }
}

/// A 404 about task `id` said plainly.
fn no_task(id: Id) -> impl Fn(CliError) -> CliError {
    crate::refs::gone::<Task>(id)
}

impl crate::commands::restore::Restorable for Task {
    type Record = organiser_core::tasks::Task;
    const LABEL: &'static str = "";
    const ALSO: &'static str = " (a task deleted with its list or project comes back with it)";

    fn live(client: &Client, id: Id) -> Result<crate::door::Reply<Self::Record>, CliError> {
        client.reply(|c| c.tasks().get(id))
    }

    fn restore(client: &Client, id: Id) -> Result<crate::door::Reply<Self::Record>, CliError> {
        client.reply(|c| c.tasks().restore(id))
    }

    fn called(record: &Self::Record) -> &str {
        &record.title
    }
}
