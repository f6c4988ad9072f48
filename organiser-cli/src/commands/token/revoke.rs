//! `organiser token revoke ID`.

use clap::Args;
use serde::Serialize;

use crate::commands::Global;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::{self, Data};

#[derive(Debug, Args)]
pub(crate) struct Revoke {
    /// The token's number (see `organiser token list`).
    id: u64,
}

/// What `--json` says: `{data: {revoked: ID}}` (the API answers a revoke
/// with no body).
#[derive(Serialize)]
struct Revoked {
    revoked: u64,
}

impl Revoke {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let id = self.id;
        let client = global.writer()?;
        client
            .reply(|c| c.account().revoke_token(id))
            .map_err(|e| match e {
                CliError::Api {
                    error: organiser_core::Error::NotFound,
                    ..
                } => CliError::msg(format!(
                    "there is no token {id} (see `organiser token list`)"
                )),
                other => other,
            })?;
        if global.json {
            return output::json(&Data {
                data: Revoked { revoked: id },
            });
        }
        output::line(format!("Revoked token {id}"))
    }
}
