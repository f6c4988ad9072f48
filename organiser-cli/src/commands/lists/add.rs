//! `organiser lists add NAME [--color] [--icon] [--position]`.

use clap::Args;
use organiser_core::{Field, task_lists::TaskListInput};

use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Add {
    /// Its name.
    name: String,
    /// A colour key (see the vocabulary); default the first unused.
    #[arg(long)]
    color: Option<String>,
    /// An icon name (see the vocabulary).
    #[arg(long)]
    icon: Option<String>,
    /// Its place (1 is the top; default the bottom).
    #[arg(long, allow_negative_numbers = true)]
    position: Option<i64>,
}

impl Add {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let input = TaskListInput {
            name: Some(self.name),
            color: self.color.map_or(Field::Absent, Field::Value),
            icon: self.icon.map_or(Field::Absent, Field::Value),
            position: self.position,
        };
        let made = s
            .client
            .reply(|c| c.task_lists().create(input))
            .map_err(|e| e.naming(super::FLAGS))?;
        s.global
            .said(&made.body, format!("Added list {}", made.data.name))
    }
}
