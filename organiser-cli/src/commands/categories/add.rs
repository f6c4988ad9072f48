//! `organiser categories add NAME... [--color KEY] [--icon ICON]
//! [--position N]`.

use clap::Args;
use organiser_core::{Field, categories::CategoryInput};

use super::FLAGS;
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Add {
    /// The name: every word, no quotes needed.
    #[arg(required = true, num_args = 1..)]
    name: Vec<String>,
    /// A colour key of the API's choices (default: the first one no other
    /// category has).
    #[arg(long, value_name = "KEY")]
    color: Option<String>,
    /// An icon of the API's choices.
    #[arg(long)]
    icon: Option<String>,
    /// Its place in the order, 1 for first (default: last).
    #[arg(long, value_name = "N")]
    position: Option<i64>,
}

impl Add {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let input = CategoryInput {
            name: Some(self.name.join(" ")),
            color: self.color.map_or(Field::Absent, Field::Value),
            icon: self.icon.map_or(Field::Absent, Field::Value),
            position: self.position,
        };
        let made = s
            .client
            .reply(|c| c.categories().create(input))
            .map_err(|e| e.naming(FLAGS))?;
        let category = &made.data;
        s.global.said(
            &made.body,
            format!(
                "Added category {} ({}, {}, position {})",
                category.name,
                output::short_id(category.id),
                category.color,
                category.position
            ),
        )
    }
}
