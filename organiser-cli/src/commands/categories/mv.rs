//! `organiser categories move NAME POSITION`: the category takes that
//! place (1 is first; past the end is last), the others keep their order.

use clap::Args;
use organiser_core::{categories::Category, categories::CategoryInput};

use super::{FLAGS, no_category};
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Move {
    /// The category: its name, row number or ID.
    category: String,
    /// Its new place, 1 for first.
    position: i64,
}

impl Move {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let id = s.refs.id::<Category>(&self.category)?;
        let input = CategoryInput {
            position: Some(self.position),
            ..CategoryInput::default()
        };
        let moved = s
            .client
            .reply(|c| c.categories().change(id, input))
            .map_err(|e| no_category(id)(e).naming(FLAGS))?;
        s.global.said(
            &moved.body,
            format!(
                "Moved category {} to position {}",
                moved.data.name, moved.data.position
            ),
        )
    }
}
