//! `organiser tasks add TITLE [--list NAME | --project P | --person P] [--start D] [--deadline D]
//! [--expires D]`.

use clap::Args;
use organiser_core::{Field, Person, TaskInput};

use super::{DateArgs, HomeArgs};
use crate::commands::Session;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Add {
    /// The title: every word, no quotes needed (`tasks add Buy oat milk`).
    #[arg(required = true, num_args = 1..)]
    title: Vec<String>,
    #[command(flatten)]
    dates: DateArgs,
    /// The list to put it in.
    #[arg(long)]
    list: Option<String>,
    /// The project to put it in (its row number, name, short ID or ID).
    #[arg(long, conflicts_with = "list")]
    project: Option<String>,
    /// The person whose task it is (their row number, name, short ID or ID).
    #[arg(long, conflicts_with_all = ["list", "project"])]
    person: Option<String>,
}

impl Add {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let mut input = TaskInput::titled(self.title.join(" "));
        self.dates.apply(s.client, &mut input)?;
        let home = HomeArgs {
            list: self.list,
            project: self.project,
            inbox: false,
        };
        home.apply(&s.refs, &mut input)?;
        if let Some(person) = &self.person {
            input.person_id = Field::Value(s.refs.id::<Person>(person)?);
        }
        let made = s
            .client
            .create_task(&input)
            .map_err(|e| e.naming(super::FLAGS))?;
        let task = &made.data;
        s.global.said(
            &made.body,
            format!(
                "Added {} ({}){}",
                task.title,
                output::short_id(task.id),
                self.dates.worked_out(task)
            ),
        )
    }
}
