//! `organiser system`: version and update status; `organiser system check`
//! checks for an update now.

use clap::{Args, Subcommand};
use organiser_core::{Method, Query};
use serde_json::Value;

use super::Global;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(crate) struct SystemCommand {
    #[command(subcommand)]
    action: Option<SystemAction>,
}

#[derive(Debug, Subcommand)]
enum SystemAction {
    /// Check for an update now.
    Check,
}

fn show(system: &Value, licence: &Value, global: &Global) -> Result<(), CliError> {
    if global.json {
        return output::json(system);
    }
    let d = &system["data"];
    let u = &d["update"];
    let mut status = output::text(&u["status"]);
    if let Some(v) = u["latest_version"].as_str() {
        status = format!("{status} (latest {v})");
    }
    let mut rows = vec![
        ("Version", output::text(&d["version"])),
        ("Channel", output::text(&d["channel"])),
        (
            "Update checks",
            match (
                d["update_checks_managed"] == true,
                d["update_checks"] == true,
            ) {
                (true, _) => format!(
                    "managed by {}",
                    output::text(&d["update_checks_managed_by"])
                ),
                (false, true) => "daily".into(),
                (false, false) => "off".into(),
            },
        ),
        ("Update", status),
    ];
    if let Some(e) = u["error"].as_str() {
        rows.push(("Last check failed", e.to_owned()));
    }
    let l = &licence["data"];
    let state = match l["state"].as_str() {
        Some("trial") => format!("trial, {} days left", output::text(&l["trial_days_left"])),
        Some(other) => other.replace('_', "-"),
        None => "-".into(),
    };
    rows.push(("Licence", state));
    output::fields(&rows)
}

impl SystemCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let backend = match self.action {
            None => global.reader()?,
            Some(_) => global.backend()?,
        };
        let system = match self.action {
            None => backend.get("/system", Query::default())?,
            Some(SystemAction::Check) => {
                backend.send(Method::Post, "/system/update_check", Query::default(), None)?
            }
        };
        let licence = if global.json {
            Value::Null
        } else {
            backend.get("/licence", Query::default())?
        };
        show(&system, &licence, global)
    }
}
