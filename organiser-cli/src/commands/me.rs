//! `organiser me`: the owner; `organiser me set` changes name or zone;
//! `organiser password` sets the password.

use std::io::BufRead;

use clap::{Args, Subcommand};
use organiser_core::{Method, Query};
use serde_json::{Value, json};

use super::Global;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(crate) struct MeCommand {
    #[command(subcommand)]
    action: Option<MeAction>,
}

#[derive(Debug, Subcommand)]
enum MeAction {
    /// Change the owner's name or zone.
    Set {
        /// A new name.
        #[arg(long)]
        name: Option<String>,
        /// A new zone (picker name or IANA zone).
        #[arg(long)]
        time_zone: Option<String>,
    },
}

fn show(me: &Value, global: &Global) -> Result<(), CliError> {
    if global.json {
        return output::json(me);
    }
    let d = &me["data"];
    output::fields(&[
        ("Name", output::text(&d["name"])),
        ("Username", output::text(&d["username"])),
        (
            "Password",
            if d["has_password"] == true {
                "set".into()
            } else {
                "not set".into()
            },
        ),
        (
            "Zone",
            format!(
                "{} ({})",
                output::text(&d["time_zone"]),
                output::text(&d["time_zone_iana"])
            ),
        ),
        ("Today", output::text(&d["today"])),
    ])
}

impl MeCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let backend = match self.action {
            None => global.reader()?,
            Some(_) => global.backend()?,
        };
        let me = match self.action {
            None => backend.get("/me", Query::default())?,
            Some(MeAction::Set { name, time_zone }) => {
                let mut change = serde_json::Map::new();
                if let Some(name) = name {
                    change.insert("name".into(), name.into());
                }
                if let Some(zone) = time_zone {
                    change.insert("time_zone".into(), zone.into());
                }
                backend.send(
                    Method::Patch,
                    "/me",
                    Query::default(),
                    Some(json!({ "me": change })),
                )?
            }
        };
        show(&me, global)
    }
}

/// `organiser password`: reads the new password from the first line of
/// standard input (and the current one from the second, when a server
/// that is not this machine's asks for it).
#[derive(Debug, Args)]
pub(crate) struct Password {}

impl Password {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let mut lines = std::io::stdin().lock().lines();
        let new = lines
            .next()
            .transpose()?
            .ok_or_else(|| CliError::msg("give the new password on standard input"))?;
        let current = lines.next().transpose()?;
        let backend = global.backend()?;
        let me = backend.send(
            Method::Put,
            "/me/password",
            Query::default(),
            Some(json!({ "password": new, "current_password": current })),
        )?;
        if global.json {
            return output::json(&me);
        }
        output::line("Password set")
    }
}
