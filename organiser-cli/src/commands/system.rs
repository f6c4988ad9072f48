//! `organiser system`: version and update status; `organiser system check`
//! checks for an update now.

use clap::{Args, Subcommand};
use organiser_core::{licence::Licence, system::System, system::UpdateStatus};

use super::Global;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(crate) struct SystemCommand {
    #[command(subcommand)]
    action: Option<SystemAction>,
}

#[derive(Debug, Subcommand)]
enum SystemAction {
    /// Check for an update now (exits 1 when the check fails).
    Check,
    /// Turn the daily update check on or off (`serve` checks once a day,
    /// and at start-up when a check is due).
    Updates {
        /// `on` or `off`.
        #[arg(value_enum)]
        to: Switch,
    },
}

/// `on` or `off`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Switch {
    On,
    Off,
}

fn show(system: &System, licence: &Licence) -> Result<(), CliError> {
    let update = &system.update;
    let mut status = status_name(update.status).to_owned();
    if let Some(v) = &update.latest_version {
        status = format!("{status} (latest {v})");
    }
    let checks = match (system.update_checks_managed, system.update_checks) {
        (true, _) => format!(
            "managed by {}",
            system.update_checks_managed_by.as_deref().unwrap_or("-")
        ),
        (false, true) => "daily".into(),
        (false, false) => "off".into(),
    };
    let mut rows = vec![
        ("Version", system.version.clone()),
        ("Channel", system.channel.to_string()),
        ("Update checks", checks),
        ("Update", status),
    ];
    if let Some(e) = &update.error {
        rows.push(("Last check failed", e.clone()));
    }
    rows.extend(super::licence::rows(licence));
    output::fields(&rows)
}

/// The API's name of an update status.
fn status_name(status: UpdateStatus) -> &'static str {
    match status {
        UpdateStatus::Off => "off",
        UpdateStatus::Available => "available",
        UpdateStatus::UpToDate => "up_to_date",
        UpdateStatus::Unknown => "unknown",
        UpdateStatus::NotCovered => "not_covered",
    }
}

impl SystemCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let (client, system) = match self.action {
            None => {
                let client = global.reader()?;
                let system = client.reply(|c| c.system().get(true))?;
                (client, system)
            }
            Some(SystemAction::Check) => {
                let client = global.writer()?;
                let system = client.reply(|c| c.system().check_for_update(true))?;
                (client, system)
            }
            Some(SystemAction::Updates { to }) => {
                let client = global.writer()?;
                let change = organiser_core::system::SystemChange {
                    update_checks: Some(matches!(to, Switch::On)),
                    ..organiser_core::system::SystemChange::default()
                };
                let system = client.reply(|c| c.system().change(change, true))?;
                (client, system)
            }
        };
        if global.json {
            output::json(&system.body)?;
        } else {
            show(&system.data, &client.reply(|c| c.licence().get())?.data)?;
        }
        // A check that failed keeps the last result and says why: the
        // command fails too, so scripts and timers see it.
        match (&self.action, &system.data.update.error) {
            (Some(SystemAction::Check), Some(reason)) => Err(CliError::Failed {
                code: "update_check_failed",
                message: format!("the update check failed: {reason}"),
            }),
            _ => Ok(()),
        }
    }
}
