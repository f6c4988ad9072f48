//! `organiser tasks move T (--list NAME | --project P | --inbox) [--position N]`.

use clap::Args;
use organiser_core::{tasks::Task, tasks::TaskInput};

use super::{HomeArgs, no_task};
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Move {
    /// Row number, ID, or part of an ID.
    task: String,
    #[command(flatten)]
    home: HomeArgs,
    /// Its place there (1 is the top; default the bottom).
    #[arg(long, allow_negative_numbers = true)]
    position: Option<i64>,
}

impl Move {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        if !self.home.given() {
            return Err(CliError::usage(
                "say where: --list NAME, --project P or --inbox",
            ));
        }
        let id = s.refs.id::<Task>(&self.task)?;
        let mut input = TaskInput::default();
        self.home.apply(&s.refs, &mut input)?;
        input.position = self.position;
        let moved = s
            .client
            .reply(|c| c.tasks().change(id, input))
            .map_err(|e| no_task(id)(e).naming(super::FLAGS))?;
        s.global
            .said(&moved.body, format!("Moved {}", moved.data.title))
    }
}
