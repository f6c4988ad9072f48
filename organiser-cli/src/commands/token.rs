//! `organiser token create|list|revoke`: API tokens.

use clap::Subcommand;
use comfy_table::Cell;
use organiser_core::{Method, Query};
use serde_json::json;

use super::Global;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Subcommand)]
pub(crate) enum Token {
    /// Make a token and print it (alone, so it can be captured).
    Create {
        /// A label for the token, e.g. the app that will use it.
        name: String,
        /// When it stops working (RFC 3339, e.g. 2027-01-01T00:00:00Z).
        #[arg(long)]
        expires_at: Option<String>,
    },
    /// List the tokens.
    List,
    /// Revoke a token by its number.
    Revoke {
        /// The token's number (see `organiser token list`).
        id: u64,
    },
}

impl Token {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let backend = match self {
            Token::List => global.reader()?,
            _ => global.backend()?,
        };
        match self {
            Token::Create { name, expires_at } => {
                let body = json!({ "api_token": { "name": name, "expires_at": expires_at } });
                let made =
                    backend.send(Method::Post, "/api_tokens", Query::default(), Some(body))?;
                if global.json {
                    return output::json(&made);
                }
                output::line(output::text(&made["data"]["secret"]))
            }
            Token::List => {
                let list = backend.get("/api_tokens", Query::default())?;
                if global.json {
                    return output::json(&list);
                }
                let mut table = output::table(&["ID", "NAME", "CREATED", "EXPIRES", "LAST USED"]);
                for t in list["data"].as_array().into_iter().flatten() {
                    table.add_row(vec![
                        Cell::new(output::text(&t["id"])),
                        Cell::new(output::text(&t["name"])),
                        Cell::new(output::text(&t["created_at"])),
                        Cell::new(output::text(&t["expires_at"])),
                        Cell::new(output::text(&t["last_used_at"])),
                    ]);
                }
                output::print_table(&table)
            }
            Token::Revoke { id } => {
                backend
                    .send(
                        Method::Delete,
                        &format!("/api_tokens/{id}"),
                        Query::default(),
                        None,
                    )
                    .map_err(|e| match e {
                        CliError::Api { status: 404, .. } => CliError::msg(format!(
                            "there is no token {id} (see `organiser token list`)"
                        )),
                        other => other,
                    })?;
                if global.json {
                    return output::json(&json!({ "data": { "revoked": id } }));
                }
                output::line(format!("Revoked token {id}"))
            }
        }
    }
}
