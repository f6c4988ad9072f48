//! `organiser ai providers rm NAME`: deletes a provider and its models,
//! for good (the API keeps no restore window for them); deleting the
//! default model's provider leaves no default.

use clap::Args;
use organiser_core::{Id, ListParams, ai::AiModelQuery, ai::AiProvider};
use serde::Serialize;

use crate::commands::Session;
use crate::commands::ai::count;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::Data;
use crate::refs::{self, first_pages};

#[derive(Debug, Args)]
pub(super) struct Rm {
    /// The provider: its row number, name, short ID or ID.
    provider: String,
}

/// What `--json` says: `{data: {deleted: ID}}` (the API answers a delete
/// with no body).
#[derive(Serialize)]
struct Deleted {
    deleted: Id,
}

impl Rm {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let provider = s.refs.record::<AiProvider>(&self.provider)?;
        let id = provider.id;
        // What goes with it, to say so.
        let models = first_pages(usize::MAX, |params: ListParams| {
            let query = AiModelQuery {
                ai_provider_id: Some(id),
                params,
            };
            Ok(s.client.reply(|c| c.ai().models(&query))?.data)
        })?
        .items;
        s.client
            .reply(|c| c.ai().delete_provider(id))
            .map_err(refs::gone::<AiProvider>(id))?;
        let mut said = format!(
            "Deleted AI provider {} and its {} (this cannot be undone)",
            provider.name,
            count(models.len() as u64, "model", "models")
        );
        if models.iter().any(|m| m.is_default) {
            said.push_str("; there is no default model now");
        }
        s.global.said(
            &Data {
                data: Deleted { deleted: id },
            },
            said,
        )
    }
}
