//! `organiser system`: version and update status; `organiser system check`
//! checks for an update now.

use clap::{Args, Subcommand};
use organiser_core::{Licence, LicenceState, System, UpdateStatus};

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
        ("Channel", system.channel.clone()),
        ("Update checks", checks),
        ("Update", status),
    ];
    if let Some(e) = &update.error {
        rows.push(("Last check failed", e.clone()));
    }
    let state = match licence.state {
        LicenceState::Trial => format!("trial, {} days left", licence.trial_days_left),
        LicenceState::Licensed => "licensed".into(),
        LicenceState::ReadOnly => "read-only".into(),
    };
    rows.push(("Licence", state));
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
                let system = client.system()?;
                (client, system)
            }
            Some(SystemAction::Check) => {
                let client = global.writer()?;
                let system = client.check_for_update()?;
                (client, system)
            }
        };
        if global.json {
            return output::json(&system.body);
        }
        show(&system.data, &client.licence()?.data)
    }
}
