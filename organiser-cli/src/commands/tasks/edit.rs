//! `organiser tasks edit T [--title] [--description TEXT] [--start]
//! [--deadline] [--expires] [--remind] [--list NAME | --project P | --inbox]
//! [--position N] [--every PHRASE | --after-done SPAN]`.

use clap::Args;
use organiser_core::{tasks::Task, tasks::TaskInput};

use super::{DateArgs, HomeArgs, RepeatArgs, no_task};
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Edit {
    /// Row number, ID, or part of an ID.
    task: String,
    /// A new title.
    #[arg(long)]
    title: Option<String>,
    /// A new description, as Markdown (`@Name` mentions a person); `-`
    /// reads it from standard input; `none` or '' clears it.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    description: Option<String>,
    #[command(flatten)]
    dates: DateArgs,
    #[command(flatten)]
    repeat: RepeatArgs,
    #[command(flatten)]
    home: HomeArgs,
    /// Its place among the home's open tasks (1 is the top).
    #[arg(long, allow_negative_numbers = true)]
    position: Option<i64>,
}

/// As the task commands name the API's fields, with `--title` for the title.
const EDIT_FLAGS: &[(&str, &str)] = &[
    ("title", "--title"),
    ("description_html", "--description"),
    ("description", "--description"),
    ("start_on", "--start"),
    ("deadline_on", "--deadline"),
    ("expires_on", "--expires"),
    ("task_list_id", "--list"),
    ("project_id", "--project"),
    ("position", "--position"),
    ("repeat", "--every"),
    ("remind_at", "--remind"),
];

impl Edit {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let nothing = self.title.is_none()
            && self.description.is_none()
            && !self.dates.given()
            && !self.home.given()
            && self.position.is_none()
            && !self.repeat.given();
        if nothing {
            return Err(CliError::usage(
                "nothing to change: give --title, --description, --start, --deadline, --expires, --remind, --list, --project, --inbox, --position, --every or --after-done",
            ));
        }
        let id = s.refs.id::<Task>(&self.task)?;
        let mut input = TaskInput {
            title: self.title,
            description_html: super::description(s, self.description.as_deref())?,
            ..TaskInput::default()
        };
        self.dates.apply(s.client, &mut input)?;
        self.home.apply(&s.refs, &mut input)?;
        self.repeat.apply(&mut input)?;
        input.position = self.position;
        let changed = s
            .client
            .reply(|c| c.tasks().change(id, input))
            .map_err(|e| no_task(id)(e).naming(EDIT_FLAGS))?;
        let reminds = if s.global.json {
            String::new()
        } else {
            self.dates.reminds(s.client, &changed.data)?
        };
        s.global.said(
            &changed.body,
            format!(
                "Changed {}{}{reminds}",
                changed.data.title,
                self.dates.worked_out(&changed.data)
            ) + &if self.repeat.given() {
                super::repeats(&changed.data, true)
            } else {
                String::new()
            },
        )
    }
}
