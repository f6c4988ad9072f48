//! `organiser licence`: the licence state (trial, licensed, read-only) and
//! its key; `licence add KEY` and `licence remove` change the key.

use std::io::BufRead;

use clap::{Args, Subcommand};
use organiser_core::{licence::Licence, licence::LicenceProblem, licence::LicenceState};

use super::Global;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(crate) struct LicenceCommand {
    #[command(subcommand)]
    action: Option<LicenceAction>,
}

#[derive(Debug, Subcommand)]
enum LicenceAction {
    /// Add a licence key (or `-` to read it from standard input); it
    /// replaces any key stored before.
    Add {
        /// The key, as it was sent to you.
        key: String,
    },
    /// Remove the stored key (the store falls back to the trial, or to
    /// read-only once the trial has ended).
    Remove,
}

/// The licence as rows for people.
pub(crate) fn rows(licence: &Licence) -> Vec<(&'static str, String)> {
    let state = match licence.state {
        LicenceState::Trial => format!(
            "trial, {} {} left (until {})",
            licence.trial_days_left,
            if licence.trial_days_left == 1 {
                "day"
            } else {
                "days"
            },
            &organiser_core::time::format_timestamp(licence.trial_ends_at)[..10]
        ),
        LicenceState::Licensed => "licensed".into(),
        LicenceState::ReadOnly => {
            "read-only: the trial has ended; reading works, changes need a licence key".into()
        }
    };
    let mut rows = vec![("Licence", state)];
    if let Some(problem) = licence.problem {
        rows.push((
            "Problem",
            match problem {
                LicenceProblem::Revoked => "the key was revoked".to_owned(),
                LicenceProblem::NotCovered => {
                    "this version came out after the key's updates ended".to_owned()
                }
            },
        ));
    }
    if let Some(who) = &licence.licensee {
        rows.push(("Licensee", format!("{} <{}>", who.name, who.email)));
    }
    if let Some(id) = &licence.key_id {
        rows.push(("Key", id.clone()));
    }
    if let Some(until) = licence.updates_until {
        rows.push(("Updates until", until.to_string()));
    }
    rows
}

impl LicenceCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let flags: &[(&str, &str)] = &[("key", "the key")];
        let licence = match self.action {
            None => global.reader()?.reply(|c| c.licence().get())?,
            Some(LicenceAction::Add { key }) => {
                let key = if key == "-" {
                    std::io::stdin()
                        .lock()
                        .lines()
                        .next()
                        .transpose()?
                        .unwrap_or_default()
                } else {
                    key
                };
                global
                    .writer()?
                    .reply(|c| c.licence().add_key(key.trim()))
                    .map_err(|e| e.naming(flags))?
            }
            Some(LicenceAction::Remove) => global.writer()?.reply(|c| c.licence().remove_key())?,
        };
        if global.json {
            return output::json(&licence.body);
        }
        output::fields(&rows(&licence.data))
    }
}
